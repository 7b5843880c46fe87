/* mem_reset.c - forget the statistics of a warm-up, keep the state (caches, directory,
 * values, store buffers, line timing); see mem.h. */
#include <string.h>

#include "mem/mem.h"

void mem_stats_reset(struct mem *m)
{
	struct mstats *s = &m->st;

	for (uint32_t i = 0; i < s->nr; i++)
		memset(s->line[i].c, 0, sizeof(s->line[i].c));
	for (uint32_t r = 0; r < s->nr_orows; r++)
		memset(s->orow[r].c, 0, sizeof(s->orow[r].c));
	mstats_reset_cpus(s);
	s->accesses = 0;
	memset(m->act_count, 0, sizeof(m->act_count));
	memset(m->oact_count, 0, sizeof(m->oact_count));
}
