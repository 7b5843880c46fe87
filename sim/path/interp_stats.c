/* interp_stats.c - the path statistics' samples and the end of a warm-up; see interp.h. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "path/interp_int.h"

void it_samples_grow(struct samples *s)
{
	s->cap = s->cap ? 2 * s->cap : 64;
	s->v = g_renew(uint64_t, s->v, s->cap);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t samples_percentile(struct samples *s, unsigned pct)
{
	if (!s->nr)
		return 0;
	qsort(s->v, s->nr, sizeof(uint64_t), cmp_u64);
	return s->v[(uint64_t)(s->nr - 1) * pct / 100];
}

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
