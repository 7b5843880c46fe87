/*
 * cache.h - one private cache level of one core: set-associative tags with LRU replacement.
 *
 * The cache half of coherence (ZSim's split): what a core knows about its own copy — MESI
 * state, the directory index of the line, the value epoch it holds (for the data-value
 * invariant, check mode only), when its data arrives and whether it arrived by prefetch.  L1d
 * and L2 of a core are two pcaches (hier.h keeps L1d a subset of L2, both copies in the same
 * state and epoch).
 *
 * A way's tag, LRU stamp and epoch live in arrays of their own beside way[]: a lookup scans
 * only tags, a victim choice only stamps, and the 16-byte ways a hit reads and an L1d fill
 * copies are four to a host cache line (20 cores' L2s are megabytes, mostly host misses).
 */
#ifndef C2C_CACHE_H
#define C2C_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

struct cway {
	simtime_t ready_at; /* when the copy's data arrives (its fill completes) */
	uint32_t line;    /* directory index of the line */
	uint8_t state;    /* enum mesi; never MESI_I in a filled way */
	uint8_t pf;       /* filled by a prefetch and not yet used by a demand access */
	/* In L1d: which way of its L2 set holds the same line; in L2: which way of its L1d set
	 * the line was last filled into, the copy there if that way's tag is the line's (hier.h) */
	uint8_t l2w;
	/* The line's LLC copies may still be valid: a store hit must mark them stale.  Set by
	 * every fill and state change, cleared only by the store hit that marks them (hit.h). */
	uint8_t llc;
};
_Static_assert(sizeof(struct cway) == 16, "four ways to a host cache line");

struct pcache {
	uint32_t sets, ways, set_mask, shift; /* shift: log2 of the coherence unit */
	uint64_t clock;
	struct cway *way; /* sets * ways, mapped (pcache_init) */
	uint64_t *tags;   /* tags[i]: way[i]'s line address + 1; 0: empty (pcache_set_tag) */
	uint64_t *lru;    /* lru[i]: way[i]'s last-use stamp, the smallest is evicted */
	/* epoch[i]: way[i]'s value epoch; NULL when not kept (outside check mode nothing
	 * reads them, hier.h). */
	uint64_t *epoch;
	size_t way_bytes; /* the mapping's length (ways, tags, stamps, epochs) */
};

/* pcache_init - allocate @sets x @ways empty ways (@sets a power of two, @shift log2 of the
 * line size), with value epochs when @epochs.  Can't fail. */
void pcache_init(struct pcache *c, uint32_t sets, uint32_t ways, uint32_t shift, bool epochs);
void pcache_release(struct pcache *c);

/* The index in way[] and tags[] of the first way of @line_addr's set. */
static inline size_t pcache_set_index(const struct pcache *c, uint64_t line_addr)
{
	return (size_t)((line_addr >> c->shift) & c->set_mask) * c->ways;
}

static inline struct cway *pcache_set(struct pcache *c, uint64_t line_addr)
{
	return &c->way[pcache_set_index(c, line_addr)];
}

/* pcache_set_tag - way @w holds the line whose tag is @tag from now on (0: none);
 * pcache_set_tag_at - of way[@i]. */
static inline void pcache_set_tag_at(struct pcache *c, size_t i, uint64_t tag)
{
	c->tags[i] = tag;
}

static inline void pcache_set_tag(struct pcache *c, struct cway *w, uint64_t tag)
{
	pcache_set_tag_at(c, (size_t)(w - c->way), tag);
}

/* pcache_tag - way @w's tag (0: empty). */
static inline uint64_t pcache_tag(const struct pcache *c, const struct cway *w)
{
	return c->tags[w - c->way];
}

/* pcache_lookup - the way holding @line_addr, or NULL; pcache_lookup_in - the same in its
 * set, at index @s (pcache_set_index), which the caller has. */
static inline struct cway *pcache_lookup_in(struct pcache *c, size_t s, uint64_t line_addr)
{
	const uint64_t *t = &c->tags[s];
	uint64_t tag = line_addr + 1;

	for (uint32_t i = 0; i < c->ways; i++)
		if (t[i] == tag)
			return &c->way[s + i];
	return NULL;
}

static inline struct cway *pcache_lookup(struct pcache *c, uint64_t line_addr)
{
	return pcache_lookup_in(c, pcache_set_index(c, line_addr), line_addr);
}

/* pcache_find - the index in way[] of the way holding @line_addr, or PCACHE_NONE (as
 * pcache_lookup(), for a caller that wants the index too: its LRU stamp's). */
#define PCACHE_NONE SIZE_MAX

static inline size_t pcache_find(const struct pcache *c, uint64_t line_addr)
{
	size_t s = pcache_set_index(c, line_addr);
	const uint64_t *t = &c->tags[s];
	uint64_t tag = line_addr + 1;

	for (uint32_t i = 0; i < c->ways; i++)
		if (t[i] == tag)
			return s + i;
	return PCACHE_NONE;
}

/* pcache_find_in - pcache_find() for a scan that often goes far into its set (an L2 lookup
 * after an L1d miss): in way order, by an index from the set's end that counts up to 0, so
 * that the loop's test is the increment's own flag, four instructions a way, not five (its
 * set-up costs two more, which a hit in the first way or two of an L1d set does not win
 * back).  Return: whether it holds @line_addr, its index in *@at. */
static inline bool pcache_find_in(const struct pcache *c, uint64_t line_addr, size_t *at)
{
	size_t e = pcache_set_index(c, line_addr) + c->ways;
	const uint64_t *t = &c->tags[e];
	uint64_t tag = line_addr + 1;

	for (ptrdiff_t i = -(ptrdiff_t)c->ways; i; i++)
		if (t[i] == tag) {
			*at = e + (size_t)i;
			return true;
		}
	return false;
}

/* pcache_touch_at - way[@i] is used now (its LRU stamp); pcache_touch - of way @w. */
static inline void pcache_touch_at(struct pcache *c, size_t i)
{
	c->lru[i] = ++c->clock;
}

static inline void pcache_touch(struct pcache *c, struct cway *w)
{
	pcache_touch_at(c, (size_t)(w - c->way));
}

/* pcache_lru - the least recently used way of the full set at index @s (the first, at a
 * tie). */
struct cway *pcache_lru(struct pcache *c, size_t s);

/* pcache_victim - the way to fill for @line_addr: an empty one, else the least recently used.
 * The caller evicts its current content (if tag != 0) before reusing it.  Inline: every fill
 * asks, and most find an empty way (coherence invalidates more than capacity evicts).
 * pcache_victim_in - the same in the set at index @s (pcache_set_index); pcache_victim_at -
 * there too, as a way of it. */
static inline struct cway *pcache_victim_in(struct pcache *c, size_t s)
{
	const uint64_t *t = &c->tags[s];

	for (uint32_t i = 0; i < c->ways; i++)
		if (!t[i])
			return &c->way[s + i];
	return pcache_lru(c, s);
}

static inline struct cway *pcache_victim(struct pcache *c, uint64_t line_addr)
{
	return pcache_victim_in(c, pcache_set_index(c, line_addr));
}

static inline uint32_t pcache_victim_at(struct pcache *c, size_t s)
{
	const ptrdiff_t n = -(ptrdiff_t)c->ways;
	const uint64_t *t = &c->tags[s + c->ways], *u = &c->lru[s + c->ways];
	ptrdiff_t best = n;
	uint64_t lru;

	/* Both passes by an index from the set's end that counts up to 0 (pcache_find_in), and
	 * the LRU pass here, not pcache_lru's call: L1d, the one caller, is nearly always full. */
	for (ptrdiff_t i = n; i; i++)
		if (!t[i])
			return (uint32_t)(i - n);
	lru = u[n];
	for (ptrdiff_t i = n + 1; i; i++) {
		if (u[i] < lru) { /* (the first at a tie, as pcache_lru) */
			lru = u[i];
			best = i;
		}
	}
	return (uint32_t)(best - n);
}

/* pcache_victim_full_at - pcache_victim_at() in one pass, for a set likely full: each way's
 * tag is tested for an empty way and its stamp compared in the same loop (a filled way's stamp
 * is never 0: its fill touches it), where pcache_victim_at scans the tags first, a pass of
 * its own in a full set. */
static inline uint32_t pcache_victim_full_at(struct pcache *c, size_t s)
{
	const ptrdiff_t n = -(ptrdiff_t)c->ways;
	const uint64_t *t = &c->tags[s + c->ways], *u = &c->lru[s + c->ways];
	ptrdiff_t best = n;
	uint64_t lru = UINT64_MAX;

	for (ptrdiff_t i = n; i; i++) {
		if (!t[i])
			return (uint32_t)(i - n);
		if (u[i] < lru) { /* (the first at a tie, as pcache_lru) */
			lru = u[i];
			best = i;
		}
	}
	return (uint32_t)(best - n);
}

/* pcache_stamp - way @w's last-use stamp (0: never used). */
static inline uint64_t pcache_stamp(const struct pcache *c, const struct cway *w)
{
	return c->lru[w - c->way];
}

/* pcache_epoch - way @w's value epoch (only when kept: pcache.epoch not NULL). */
static inline uint64_t pcache_epoch(const struct pcache *c, const struct cway *w)
{
	return c->epoch[w - c->way];
}

/* pcache_addr - the line address of (filled) way @w. */
static inline uint64_t pcache_addr(const struct pcache *c, const struct cway *w)
{
	return pcache_tag(c, w) - 1;
}

#endif
