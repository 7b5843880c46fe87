/*
 * hier.h - a core's private hierarchy: L1d and L2, what the core knows about its own copies.
 *
 * The cache half of coherence (ZSim's split; the directory, dir.h, is the other half).  Both
 * levels carry the same state and value epoch; L1d is kept a subset of L2 (a copy enters L1d
 * only from L2, and leaves with it).  Demand fills go to both levels, prefetch fills to L2
 * only.  These functions change the caches and nothing else: who calls them keeps the
 * directory in step (xact.c), and an L2 victim is evicted through the protocol's EVICT row
 * before its way is reused.
 */
#ifndef C2C_HIER_H
#define C2C_HIER_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/types.h"
#include "mem/cache.h"

struct hier {
	struct pcache l1, l2;
};

/* hier_lookup - the L2 way holding @la, or NULL; *@w1 gets its L1d way (NULL when L1d lacks
 * it).  L1d is looked at first: an L1d copy names its L2 way (cway.l2w), so a hit there
 * skips the scan of the larger L2 set. */
static inline struct cway *hier_lookup(struct hier *h, uint64_t la, struct cway **w1)
{
	if ((*w1 = pcache_lookup(&h->l1, la)))
		/* L1d is a subset of L2 (mem_check_line tests the link): the L2 way, a host
		 * cache miss on most L1d hits, is not read here. */
		return pcache_set(&h->l2, la) + (*w1)->l2w;
	return pcache_lookup(&h->l2, la);
}

/* hier_l1_way - the L1d way of the copy of @la in L2 way @w2, NULL when L1d lacks it: the L1d
 * way @w2 names (cway.l2w, written by every L1d fill of it), if its tag is @la's.  A copy
 * enters L1d only by hier_l1_fill and its L2 way stays the same while it is there (L1d is a
 * subset), so a copy in L1d is in that way; mem_check_line tests it. */
static inline struct cway *hier_l1_way(struct hier *h, const struct cway *w2, uint64_t la)
{
	size_t i = pcache_set_index(&h->l1, la) + w2->l2w;

	return h->l1.tags[i] == la + 1 ? &h->l1.way[i] : NULL;
}

/* hier_lookup_l2 - hier_lookup() that scans L2, not L1d: for a copy another core's request is
 * about (the owner's side), often in L2 alone (a prefetched copy), where hier_lookup() would
 * scan both sets. */
static inline struct cway *hier_lookup_l2(struct hier *h, uint64_t la, struct cway **w1)
{
	struct cway *w2 = pcache_lookup(&h->l2, la);

	*w1 = w2 ? hier_l1_way(h, w2, la) : NULL;
	return w2;
}

/* hier_lookup_l2_in - hier_lookup_l2() in the L2 set at index @s2 (pcache_set_index), which
 * the caller has: every core's caches have one geometry (mem_new), so a request finds its
 * line's set once for all of them. */
static inline struct cway *hier_lookup_l2_in(struct hier *h, uint64_t la, size_t s2,
					     struct cway **w1)
{
	struct cway *w2 = pcache_lookup_in(&h->l2, s2, la);

	*w1 = w2 ? hier_l1_way(h, w2, la) : NULL;
	return w2;
}

/* hier_init - empty L1d and L2 of @l1_sets/@l2_sets sets (in coherence units, log2 @shift),
 * keeping the copies' value epochs when @epochs (check mode: only its data-value test reads
 * them, so outside it a fill or a state change writes none). */
void hier_init(struct hier *h, uint32_t l1_sets, uint32_t l1_ways, uint32_t l2_sets,
	       uint32_t l2_ways, uint32_t shift, bool epochs);
void hier_release(struct hier *h);

/* hier_drop_ways, hier_set_ways - remove from both levels, or set the state of both levels'
 * copies (and, when @version is not NULL, their epoch) of the copy hier_lookup() found in L2
 * way @w2 (not NULL) and L1d way @w1 (NULL when L1d lacks it). */
static inline void hier_drop_ways(struct hier *h, struct cway *w2, struct cway *w1)
{
	pcache_set_tag(&h->l2, w2, 0);
	if (w1)
		pcache_set_tag(&h->l1, w1, 0);
}

static inline void hier_set_ways(struct hier *h, struct cway *w2, struct cway *w1, int state,
				 const uint64_t *version)
{
	w2->state = (uint8_t)state;
	w2->llc = 1;
	if (w1) {
		w1->state = (uint8_t)state;
		w1->llc = 1;
	}
	if (version && h->l2.epoch) { /* kept in check mode only (hier_init) */
		h->l2.epoch[w2 - h->l2.way] = *version;
		if (w1)
			h->l1.epoch[w1 - h->l1.way] = *version;
	}
}

/* Copy L2 way @src (holding @la; way @l2w of its set, -1: not known, a constant) into way @i1
 * of L1d set @s1, whose copy just leaves: L1d holds nothing L2 does not; each way names the
 * other. */
static inline __attribute__((always_inline)) void
hier_l1_put(struct hier *h, uint64_t la, struct cway *src, int l2w, size_t s1, uint32_t i1)
{
	const size_t vi = s1 + i1;
	struct cway *v = &h->l1.way[vi];

	*v = *src;
	pcache_set_tag_at(&h->l1, vi, la + 1);
	v->pf = 0;
	v->l2w = (uint8_t)(l2w >= 0 ? l2w : src - pcache_set(&h->l2, la));
	src->l2w = (uint8_t)i1; /* hier_l1_way */
	if (h->l1.epoch)
		h->l1.epoch[v - h->l1.way] = h->l2.epoch[src - h->l2.way];
	pcache_touch_at(&h->l1, vi);
}

/* hier_l1_fill - copy L2 way @src (holding @la) into L1d, into its set's victim
 * (pcache_victim_at); hier_l1_refill - the same for a stream's hit (hier_touch_ways of ways
 * hier_lookup_ways_l2 found, which knows @src's way in its set, @l2w), whose L1d set the
 * stream's earlier lines have likely filled (pcache_victim_full_at).  Not inlined: one copy
 * each, for a hit's fill (hier_touch_ways) and a miss's (hier_install), which stay small
 * enough to be inlined into their callers. */
static __attribute__((noinline)) void hier_l1_fill(struct hier *h, uint64_t la,
						   struct cway *src)
{
	size_t s1 = pcache_set_index(&h->l1, la);

	hier_l1_put(h, la, src, -1, s1, pcache_victim_at(&h->l1, s1));
}

static __attribute__((noinline)) void hier_l1_refill(struct hier *h, uint64_t la,
						     struct cway *src, uint32_t l2w)
{
	size_t s1 = pcache_set_index(&h->l1, la);

	hier_l1_put(h, la, src, (int)l2w, s1, pcache_victim_full_at(&h->l1, s1));
}

/* hier_install - fill L2 way @slot (already emptied) with @la, and L1d too for a demand fill
 * (@prefetch false).  The copy's data is there at @ready_at. */
static inline void hier_install(struct hier *h, struct cway *slot, uint64_t la, uint32_t line,
				int state, uint64_t version, bool prefetch,
				simtime_t ready_at)
{
	assert(!pcache_tag(&h->l2, slot));
	*slot = (struct cway){.ready_at = ready_at, .line = line, .state = (uint8_t)state,
			      .pf = prefetch, .llc = 1};
	pcache_set_tag(&h->l2, slot, la + 1);
	if (h->l2.epoch)
		h->l2.epoch[slot - h->l2.way] = version;
	pcache_touch(&h->l2, slot);
	if (!prefetch)
		hier_l1_fill(h, la, slot);
}

/* The ways of one copy: L2 way @w2, L1d way @w1 (NULL when L1d lacks it), and their
 * indices in their caches' arrays (i1 meaningless without w1); @stream: a stream's
 * (hier_lookup_ways_l2), for the L1d fill of its hit (hier_touch_ways), @at2 then w2's way
 * in its set. */
struct hier_ways {
	struct cway *w2, *w1;
	size_t i2, i1;
	bool stream;
	uint8_t at2;
};

/* hier_ways_of - the struct hier_ways of the ways hier_lookup() found. */
static inline struct hier_ways hier_ways_of(const struct hier *h, struct cway *w2,
					    struct cway *w1)
{
	return (struct hier_ways){.w2 = w2, .w1 = w1, .i2 = (size_t)(w2 - h->l2.way),
				  .i1 = w1 ? (size_t)(w1 - h->l1.way) : 0};
}

/* hier_lookup_ways - hier_lookup() of @la into @w, with the ways' indices (w->w2 NULL: L2
 * lacks it, and the rest is meaningless), which a hit's LRU update takes. */
static inline void hier_lookup_ways(struct hier *h, uint64_t la, struct hier_ways *w)
{
	size_t i = pcache_find(&h->l1, la);

	w->stream = false;
	if (i != PCACHE_NONE) { /* the L2 way as hier_lookup() finds it */
		w->w1 = &h->l1.way[i];
		w->i1 = i;
		w->i2 = pcache_set_index(&h->l2, la) + w->w1->l2w;
		w->w2 = &h->l2.way[w->i2];
		return;
	}
	w->w1 = NULL;
	w->i1 = 0;
	w->w2 = pcache_find_in(&h->l2, la, &w->i2) ? &h->l2.way[w->i2] : NULL;
}

/* Fill @w with the ways of @la's copy in L2 way @i2, way @at of its set, and the L1d way it
 * names (hier_l1_way). */
static inline void hier_ways_at(struct hier *h, uint64_t la, struct hier_ways *w, size_t i2,
				uint32_t at)
{
	w->stream = true;
	w->i2 = i2;
	w->w2 = &h->l2.way[i2];
	w->at2 = (uint8_t)at;
	w->i1 = pcache_set_index(&h->l1, la) + w->w2->l2w;
	w->w1 = h->l1.tags[w->i1] == la + 1 ? &h->l1.way[w->i1] : NULL;
}

/* hier_lookup_hint, hier_lookup_ways_l2 - hier_lookup_ways() that looks in L2 first, then
 * reads only the L1d way the L2 way names (hier_l1_way): for a stream of stores to lines L1d
 * mostly lacks (page zeroing, mem_store_run), where the L1d scan nearly always fails.
 * hier_lookup_hint looks at way @way of the set alone (a stream's lines sit in consecutive
 * sets, filled one after another, so mostly in the same way: default-before finds every L2
 * hit of a run there) and returns whether it holds @la (else @w is not set);
 * hier_lookup_ways_l2 scans the set, *@way getting the way found. */
static inline bool hier_lookup_hint(struct hier *h, uint64_t la, struct hier_ways *w,
				    uint32_t way)
{
	size_t s = pcache_set_index(&h->l2, la);

	if (h->l2.tags[s + way] != la + 1)
		return false;
	hier_ways_at(h, la, w, s + way, way);
	return true;
}

static inline void hier_lookup_ways_l2(struct hier *h, uint64_t la, struct hier_ways *w,
				       uint32_t *way)
{
	size_t i2;

	if (!pcache_find_in(&h->l2, la, &i2)) {
		w->w2 = NULL;
		return;
	}
	*way = (uint32_t)(i2 - pcache_set_index(&h->l2, la));
	hier_ways_at(h, la, w, i2, *way);
}

/* hier_touch_ways - a demand use of the copy in @w: refresh LRU, bring it into L1d, and it
 * is no longer an unused prefetch. */
static inline void hier_touch_ways(struct hier *h, const struct hier_ways *w)
{
	pcache_touch_at(&h->l2, w->i2);
	if (w->w1) {
		/* Its L2 way is no unused prefetch already (the L1d copy came from a demand use),
		 * so an L1d hit does not write it (mem_check_line tests that). */
		pcache_touch_at(&h->l1, w->i1);
	} else {
		w->w2->pf = 0;
		if (w->stream)
			hier_l1_refill(h, h->l2.tags[w->i2] - 1, w->w2, w->at2);
		else
			hier_l1_fill(h, h->l2.tags[w->i2] - 1, w->w2);
	}
}

#endif
