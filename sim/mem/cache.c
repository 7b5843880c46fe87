/* cache.c - see cache.h */
#include "mem/cache.h"

#include <assert.h>
#include <glib.h>
#include <errno.h>
#include <sys/mman.h>

void pcache_init(struct pcache *c, uint32_t sets, uint32_t ways, uint32_t shift, bool epochs)
{
	size_t n = (size_t)sets * ways;

	assert(sets && !(sets & (sets - 1)) && ways);
	c->sets = sets;
	c->ways = ways;
	c->set_mask = sets - 1;
	c->shift = shift;
	c->clock = 0;
	/* An anonymous mapping is zero pages until written, so big L2s on many cores cost only
	 * what is touched.  calloc is not: once a large block has been freed, glibc raises its
	 * mmap threshold and serves the next one from the heap, zeroing every byte, so each
	 * later memory system (the next variant, a test's next case) paid for its whole L2s. */
	c->way_bytes = n * (sizeof(struct cway) + (epochs ? 3 : 2) * sizeof(uint64_t));
	c->way = mmap(NULL, c->way_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (c->way == MAP_FAILED)
		g_error("pcache_init: cannot map %zu bytes: %s", c->way_bytes, g_strerror(errno));
	c->tags = (uint64_t *)(c->way + n);
	c->lru = c->tags + n;
	c->epoch = epochs ? c->lru + n : NULL;
}

void pcache_release(struct pcache *c)
{
	if (c->way)
		munmap(c->way, c->way_bytes);
	c->way = NULL;
	c->tags = NULL;
	c->lru = NULL;
	c->epoch = NULL;
}

struct cway *pcache_lru(struct pcache *c, size_t s)
{
	const uint64_t *t = &c->lru[s];
	uint64_t lru = t[0];
	uint32_t best = 0;

	/* The smallest stamp is kept in a register, not re-read through the best way found so
	 * far: that load would chain each way's comparison to the previous one's. */
	for (uint32_t i = 1; i < c->ways; i++) {
		if (t[i] < lru) {
			lru = t[i];
			best = i;
		}
	}
	return &c->way[s + best];
}
