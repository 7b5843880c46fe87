/*
 * cache.h - one private cache level of one core: set-associative tags with LRU replacement.
 *
 * The cache half of coherence (ZSim's split): what a core knows about its own copy — MESI
 * state, the directory index of the line, the value epoch it holds (for the data-value
 * invariant), when its data arrives and whether it arrived by prefetch.  L1d and L2 of a core
 * are two pcaches (hier.h keeps L1d a subset of L2, both copies in the same state and epoch).
 */
#ifndef C2C_CACHE_H
#define C2C_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

struct cway {
	uint64_t tag;     /* line address + 1; 0 means the way is empty */
	uint64_t lru;     /* last-use stamp; smallest is evicted */
	uint64_t version; /* value epoch of the copy (data-value invariant) */
	simtime_t ready_at; /* when the copy's data arrives (its fill completes) */
	uint32_t line;    /* directory index of the line */
	uint8_t state;    /* enum mesi; never MESI_I in a filled way */
	uint8_t pf;       /* filled by a prefetch and not yet used by a demand access */
	uint8_t l2w;      /* in L1d: which way of its L2 set holds the same line (hier.h) */
};

struct pcache {
	uint32_t sets, ways, set_mask, shift; /* shift: log2 of the coherence unit */
	uint64_t clock;
	struct cway *way; /* sets * ways, mapped (pcache_init) */
	size_t way_bytes; /* the mapping's length */
};

/* pcache_init - allocate @sets x @ways empty ways (@sets a power of two, @shift log2 of the line size).  Can't fail. */
void pcache_init(struct pcache *c, uint32_t sets, uint32_t ways, uint32_t shift);
void pcache_release(struct pcache *c);

static inline struct cway *pcache_set(struct pcache *c, uint64_t line_addr)
{
	return &c->way[((line_addr >> c->shift) & c->set_mask) * c->ways];
}

/* pcache_lookup - the way holding @line_addr, or NULL. */
static inline struct cway *pcache_lookup(struct pcache *c, uint64_t line_addr)
{
	struct cway *w = pcache_set(c, line_addr);
	uint64_t tag = line_addr + 1;

	for (uint32_t i = 0; i < c->ways; i++)
		if (w[i].tag == tag)
			return &w[i];
	return NULL;
}

/* pcache_find - pcache_lookup() that, when @line_addr is absent, also sets *@victim to the
 * way pcache_victim() would return: a miss scans its set once for both. */
static inline struct cway *pcache_find(struct pcache *c, uint64_t line_addr, struct cway **victim)
{
	struct cway *w = pcache_set(c, line_addr), *empty = NULL;
	uint64_t tag = line_addr + 1, lru = UINT64_MAX;
	uint32_t best = 0;

	for (uint32_t i = 0; i < c->ways; i++) {
		if (w[i].tag == tag)
			return &w[i];
		if (!w[i].tag) {
			if (!empty)
				empty = &w[i];
		} else if (w[i].lru < lru) {
			lru = w[i].lru;
			best = i;
		}
	}
	*victim = empty ? empty : &w[best];
	return NULL;
}

static inline void pcache_touch(struct pcache *c, struct cway *w)
{
	w->lru = ++c->clock;
}

/* pcache_victim - the way to fill for @line_addr: an empty one, else the least recently used.
 * The caller evicts its current content (if tag != 0) before reusing it. */
struct cway *pcache_victim(struct pcache *c, uint64_t line_addr);

static inline uint64_t cway_addr(const struct cway *w)
{
	return w->tag - 1;
}

#endif
