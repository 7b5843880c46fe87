/* mem_reset.c - forget the statistics of a warm-up, keep the state (caches, directory,
 * values, store buffers, line timing); see mem.h. */
#include <string.h>

#include "mem/mem.h"

void mem_stats_reset(struct mem *m)
{
	for (uint32_t i = 0; i < m->dir.nr; i++)
		memset(m->dir.stats[i].c, 0, sizeof(m->dir.stats[i].c));
	memset(m->dir.cpus, 0, sizeof(uint64_t) * (size_t)m->dir.nr * m->dir.words_cpu);
	for (uint32_t r = 0; r < m->nr_orows; r++)
		memset(m->orow[r].c, 0, sizeof(m->orow[r].c));
	memset(m->orow_cpus, 0, sizeof(uint64_t) * (size_t)m->nr_orows * m->dir.words_cpu);
	m->accesses = 0;
	memset(m->act_count, 0, sizeof(m->act_count));
}
