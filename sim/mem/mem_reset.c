/* mem_reset.c - forget the statistics of a warm-up, keep the state (caches, directory,
 * values, store buffers, line timing); see mem.h. */
#include <string.h>

#include "mem/mem.h"

void mem_stats_reset(struct mem *m)
{
	struct mstats *s = &m->st;

	mstats_reset_counts(s);
	mstats_reset_cpus(s);
	s->accesses = 0;
	memset(m->act_count, 0, sizeof(m->act_count));
	for (size_t i = 0; i < MESI_COUNT * MESI_COUNT * MEM_HIT_EVENTS; i++)
		(&m->hit[0][0][0])[i].nr = 0; /* the hit path's action counts */
	memset(m->oact_count, 0, sizeof(m->oact_count));
}
