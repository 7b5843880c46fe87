/*
 * dir.h - the directory: what the home knows about all copies of each touched line.
 *
 * One entry per line ever touched, created on first touch and never removed, so a line's
 * index is stable for the whole run (caches keep it in their ways; statistics, mstats.h, and
 * values are arrays indexed by it).  An entry holds what the home knows: the owner (the core
 * with an E or M copy), the sharer set (every core holding any valid copy, up to
 * C2C_MAX_CPUS), the LLC copies per socket, the home NUMA node, the value epoch and
 * busy_until, the time up to which the line is held by a transfer in progress (written only by
 * timing.h): requests for one line are serialized there.  No statistics, names or waiters.
 *
 * Lookup goes by region (DIR_REGION_BYTES of address space): an open-addressing hash (plain
 * arrays, linear probing) on the region's address finds its block, which holds the index of
 * each of its lines.  Accesses cluster in address (a reader walks the lines of a structure),
 * so the slots and blocks of the regions in use stay in the host's cache, where a hash slot
 * per line was a host cache miss at most first lookups of an access (seed 000: 12% of the
 * run's time waited on that one load).  Iteration order never reaches results: reports walk
 * entries by index, which is the order of first touch and therefore deterministic.
 */
#ifndef C2C_DIR_H
#define C2C_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

#define DIR_NONE UINT32_MAX

/*
 * The cores holding a copy: most lines have one at most (per-cpu data, lines a reader walks),
 * so the set is one word (struct dline.sh) holding either nothing, that one core, or where a
 * words_core bitset starts in a pool (its first word's index: no multiply when a request
 * reads or changes the set), taken when a second core gets a copy.
 */
#define SH_NONE UINT32_MAX
#define SH_ONE 0x80000000u /* with the core number in the low bits */

/* 40 bytes: owner and sharer count fit 16 bits (C2C_MAX_CPUS cores at most), the LLC bits 32
 * (C2C_MAX_SOCKETS). */
struct dline {
	uint64_t addr;        /* line address */
	simtime_t busy_until; /* the line is held by a transfer until then */
	uint64_t version;     /* value epoch: bumped by every store */
	uint32_t llc_valid;   /* bit s: socket s's LLC holds a current copy */
	uint32_t sh;          /* sharer set: SH_NONE, SH_ONE | core, or a pool index */
	int16_t owner;        /* core holding E or M, -1 for none */
	uint16_t nr_sharers;  /* cores holding any valid copy */
	uint16_t home;        /* NUMA node the line's memory lives on */
	uint8_t dirty;        /* the owner's copy is Modified */
};
_Static_assert(sizeof(struct dline) == 40, "a directory entry stays 40 bytes");

/* A region: 512 bytes, 8 lines of 64 bytes (4 of 128), whose indices fill half a host cache
 * line.  Measured on seed 000, whose reader walks 2.6 M lines in 0.52 M regions and whose
 * `after` variant touches 0.29 M lines in 0.27 M: 1 KiB regions took as long and more host
 * memory in both variants (the `after` one 69 -> 75 MiB), 256-byte ones x1.03 the time. */
#define DIR_REGION_SHIFT 9
#define DIR_REGION_BYTES (1u << DIR_REGION_SHIFT)
#define DIR_REGION_LINES (DIR_REGION_BYTES / 64)

struct dir {
	struct dline *line;
	uint64_t *pool;       /* words_core per sharer set of two or more cores */
	uint32_t nr, cap, nr_pool, cap_pool;
	uint32_t words_core;
	uint32_t nr_reg, cap_reg;
	uint64_t *reg_addr;   /* region r's first address */
	uint32_t *reg_line;   /* DIR_REGION_LINES per region, each a line index or DIR_NONE */
	uint32_t *slot;       /* hash slots: region index or DIR_NONE */
	uint32_t slot_mask;
	/* The line found last (dir_lookup): an access's value read, value write and request
	 * all ask for the same line, so only the first of them finds it. */
	uint64_t memo_addr;
	uint32_t memo_idx;
	/* The region found last (dir_lookup, dir_insert): a line's neighbours come next. */
	uint32_t memo_reg;
	uint64_t memo_reg_addr;
};

/* dir_init - an empty directory for @nr_cores cores.  Can't fail. */
void dir_init(struct dir *d, int nr_cores);
void dir_release(struct dir *d);

/* dir_region_addr - the address of the region holding @addr. */
static inline uint64_t dir_region_addr(uint64_t addr)
{
	return addr & ~(uint64_t)(DIR_REGION_BYTES - 1);
}

static inline uint32_t dir_hash(uint64_t region_addr)
{
	uint64_t x = (region_addr >> DIR_REGION_SHIFT) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(x >> 32);
}

/* dir_find_region - the index of the region at @ra (a multiple of DIR_REGION_BYTES), or
 * DIR_NONE; *@slot gets the slot the probe ended at (the region's, or the empty one an
 * insert of it would take). */
static inline uint32_t dir_find_region(const struct dir *d, uint64_t ra, uint32_t *slot)
{
	for (uint32_t s = dir_hash(ra) & d->slot_mask;; s = (s + 1) & d->slot_mask) {
		uint32_t r = d->slot[s];

		if (r == DIR_NONE || d->reg_addr[r] == ra) {
			*slot = s;
			return r;
		}
	}
}

/* dir_region_entry - where region @r keeps the index of line @addr (in it). */
static inline uint32_t *dir_region_entry(const struct dir *d, uint32_t r, uint64_t addr)
{
	return &d->reg_line[(size_t)r * DIR_REGION_LINES + (addr / 64 & (DIR_REGION_LINES - 1))];
}

/* dir_find - the index of @addr's entry, or DIR_NONE. */
uint32_t dir_find(const struct dir *d, uint64_t addr);

/* dir_lookup - dir_find() that remembers the line it found and its region: asking again for
 * the same line costs one comparison, for a line of the same region two.  Entries and
 * regions are never removed, so a remembered index stays valid. */
static inline uint32_t dir_lookup(struct dir *d, uint64_t addr)
{
	uint64_t ra = dir_region_addr(addr);
	uint32_t idx, r, s;

	if (d->memo_addr == addr)
		return d->memo_idx;
	if (d->memo_reg_addr == ra) {
		r = d->memo_reg;
	} else {
		r = dir_find_region(d, ra, &s);
		if (r == DIR_NONE)
			return DIR_NONE;
		d->memo_reg_addr = ra;
		d->memo_reg = r;
	}
	idx = *dir_region_entry(d, r, addr);
	if (idx != DIR_NONE) {
		d->memo_addr = addr;
		d->memo_idx = idx;
	}
	return idx;
}

/* dir_bytes - host bytes the directory holds for its entries (entries, sharers, regions,
 * slots). */
uint64_t dir_bytes(const struct dir *d);

/* dir_insert - a new entry for @addr (which must be absent), initialised empty with @home.
 * Return: its index.  Can't fail.  Pointers into d->line may move: re-derive them. */
uint32_t dir_insert(struct dir *d, uint64_t addr, uint16_t home);

/* dir_sharers_grow - line @idx's one sharer and @core: give it a pool bitset.  Out of line,
 * so that dir_add_sharer() stays small enough to be inlined into every request. */
__attribute__((noinline, cold)) void dir_sharers_grow(struct dir *d, uint32_t idx, int core);

static inline uint64_t *dir_pool_set(const struct dir *d, uint32_t sh)
{
	return &d->pool[sh];
}

/* dir_sharer_set - the sharers of line @idx as a bitset of words_core words: the pool's, or
 * @tmp (C2C_MAX_CPUS / 64 words) filled in. */
static inline const uint64_t *dir_sharer_set(const struct dir *d, uint32_t idx, uint64_t *tmp)
{
	uint32_t sh = d->line[idx].sh;

	if (sh != SH_NONE && !(sh & SH_ONE))
		return dir_pool_set(d, sh);
	for (uint32_t w = 0; w < d->words_core; w++)
		tmp[w] = 0;
	if (sh != SH_NONE)
		tmp[(sh & ~SH_ONE) >> 6] = 1ull << (sh & 63);
	return tmp;
}

static inline bool dir_has(const struct dir *d, uint32_t idx, int core)
{
	uint32_t sh = d->line[idx].sh;

	if (sh == SH_NONE || sh & SH_ONE)
		return sh == (SH_ONE | (uint32_t)core);
	return dir_pool_set(d, sh)[core >> 6] >> (core & 63) & 1;
}

/* dir_add_sharer_at - dir_add_sharer() of line @idx whose entry @dl the caller holds. */
static inline __attribute__((always_inline)) void
dir_add_sharer_at(struct dir *d, struct dline *dl, uint32_t idx, int core)
{
	uint64_t *w, bit = 1ull << (core & 63);

	if (dl->sh == SH_NONE) {
		dl->sh = SH_ONE | (uint32_t)core;
		dl->nr_sharers = 1;
	} else if (dl->sh & SH_ONE) {
		if (dl->sh != (SH_ONE | (uint32_t)core))
			dir_sharers_grow(d, idx, core);
	} else if (!(*(w = &dir_pool_set(d, dl->sh)[core >> 6]) & bit)) {
		*w |= bit;
		dl->nr_sharers++;
	}
}

static inline __attribute__((always_inline)) void dir_add_sharer(struct dir *d, uint32_t idx,
								  int core)
{
	dir_add_sharer_at(d, &d->line[idx], idx, core);
}

/* dir_unshare - @core, known to be in the sharer set of the line of entry @dl, leaves it:
 * the set is @core alone or a pool set with @core's bit, so neither is tested. */
static inline void dir_unshare(struct dir *d, struct dline *dl, int core)
{
	if (dl->sh & SH_ONE) {
		dl->sh = SH_NONE;
		dl->nr_sharers = 0;
	} else {
		dir_pool_set(d, dl->sh)[core >> 6] &= ~(1ull << (core & 63)); /* it keeps the set */
		dl->nr_sharers--;
	}
}

/* @core's copy of the line of entry @dl is gone: if it was the owner, the line has none. */
static inline void dir_owner_gone(struct dline *dl, int core)
{
	if (dl->owner == core) {
		dl->owner = -1;
		dl->dirty = 0;
	}
}

/* dir_del_member - dir_del_sharer() of @core, known to be in the set of the line of entry @dl
 * (send_inv walks it): its removal tests nothing. */
static inline void dir_del_member(struct dir *d, struct dline *dl, int core)
{
	dir_unshare(d, dl, core);
	dir_owner_gone(dl, core);
}

static inline void dir_del_sharer(struct dir *d, uint32_t idx, int core)
{
	struct dline *dl = &d->line[idx];
	uint64_t *w, bit = 1ull << (core & 63);

	/* dir_unshare() with the membership tests, in one pass */
	if (dl->sh == (SH_ONE | (uint32_t)core)) {
		dl->sh = SH_NONE;
		dl->nr_sharers = 0;
	} else if (dl->sh != SH_NONE && !(dl->sh & SH_ONE) &&
		   (*(w = &dir_pool_set(d, dl->sh)[core >> 6]) & bit)) {
		*w &= ~bit; /* the line keeps its pool set */
		dl->nr_sharers--;
	}
	dir_owner_gone(dl, core);
}

#endif
