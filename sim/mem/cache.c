/* cache.c - see cache.h */
#include "mem/cache.h"

#include <assert.h>
#include <glib.h>

void pcache_init(struct pcache *c, uint32_t sets, uint32_t ways, uint32_t shift)
{
	assert(sets && !(sets & (sets - 1)) && ways);
	c->sets = sets;
	c->ways = ways;
	c->set_mask = sets - 1;
	c->shift = shift;
	c->clock = 0;
	/* g_new0 maps zero pages lazily, so big L2s on many cores cost only what is touched. */
	c->way = g_new0(struct cway, (size_t)sets * ways);
}

void pcache_release(struct pcache *c)
{
	g_free(c->way);
	c->way = NULL;
}

struct cway *pcache_victim(struct pcache *c, uint64_t line_addr)
{
	struct cway *w = pcache_set(c, line_addr), *best = &w[0];

	for (uint32_t i = 0; i < c->ways; i++) {
		if (!w[i].tag)
			return &w[i];
		if (w[i].lru < best->lru)
			best = &w[i];
	}
	return best;
}
