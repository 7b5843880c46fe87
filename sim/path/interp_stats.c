/* interp_stats.c - the end of a warm-up for the path statistics; see interp.h. */
#include <glib.h>
#include <string.h>

#include "path/interp_int.h"

static void samples_clear(struct samples *s)
{
	s->nr = 0;
	s->total = s->max = 0;
	s->min = 0;
}

void world_stats_reset(struct world *w)
{
	for (uint32_t i = 0; i < w->nr_locks; i++) {
		struct lockstat *ls = &w->locks[i];

		/* a holder keeps its lock (holder, acquired_at, last_cpu are state) */
		ls->acquisitions = ls->contentions = ls->con_bounces = ls->acq_bounces = 0;
		samples_clear(&ls->wait);
		samples_clear(&ls->hold);
	}
	for (uint32_t p = 0; p < w->prog->nr_paths; p++) {
		struct pathstat *ps = &w->pstats[p];

		ps->calls = ps->lines = ps->remote = ps->top_calls = 0;
		samples_clear(&ps->lat);
	}
	for (uint32_t c = 0; c < w->prog->nr_counters; c++) {
		/* the truth is the counter's value, not a statistic of the run */
		w->cstats[c].reads = w->cstats[c].max_abs_error = 0;
	}
}
