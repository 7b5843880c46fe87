/*
 * dir.h - the directory: what the home knows about all copies of each touched line.
 *
 * One entry per line ever touched, created on first touch and never removed, so a line's
 * index is stable for the whole run (caches keep it in their ways; statistics, mstats.h, and
 * values are arrays indexed by it).  An entry holds what the home knows: the owner (the core
 * with an E or M copy), the sharer bitset (every core holding any valid copy, up to
 * C2C_MAX_CPUS), the LLC copies per socket, the home NUMA node, the value epoch and
 * busy_until, the time up to which the line is held by a transfer in progress (written only by
 * timing.h): requests for one line are serialized there.  No statistics, names or waiters.
 *
 * Lookup is an open-addressing hash on the line address (plain arrays, linear probing):
 * iteration order never reaches results — reports walk entries by index, which is the order
 * of first touch and therefore deterministic.
 */
#ifndef C2C_DIR_H
#define C2C_DIR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/types.h"

#define DIR_NONE UINT32_MAX

/* 40 bytes: owner and sharer count fit 16 bits (C2C_MAX_CPUS cores at most). */
struct dline {
	uint64_t addr;        /* line address */
	simtime_t busy_until; /* the line is held by a transfer until then */
	uint64_t version;     /* value epoch: bumped by every store */
	uint64_t llc_valid;   /* bit s: socket s's LLC holds a current copy */
	int16_t owner;        /* core holding E or M, -1 for none */
	uint16_t nr_sharers;  /* cores holding any valid copy */
	uint16_t home;        /* NUMA node the line's memory lives on */
	uint8_t dirty;        /* the owner's copy is Modified */
};
_Static_assert(sizeof(struct dline) == 40, "a directory entry stays 40 bytes");

struct dir {
	struct dline *line;
	uint64_t *sharers;    /* words_core per line */
	uint32_t nr, cap;
	uint32_t words_core;
	uint32_t *slot;       /* hash slots: line index or DIR_NONE */
	uint32_t slot_mask;
	/* The line found last (dir_lookup): an access's value read, value write and request
	 * all ask for the same line, so only the first of them walks the hash. */
	uint64_t memo_addr;
	uint32_t memo_idx;
};

/* dir_init - an empty directory for @nr_cores cores.  Can't fail. */
void dir_init(struct dir *d, int nr_cores);
void dir_release(struct dir *d);

/* dir_find - the index of @addr's entry, or DIR_NONE. */
uint32_t dir_find(const struct dir *d, uint64_t addr);

/* dir_lookup - dir_find() that remembers what it found: asking again for the same line costs
 * one comparison.  Entries are never removed, so a remembered index stays valid. */
static inline uint32_t dir_lookup(struct dir *d, uint64_t addr)
{
	uint32_t idx;

	if (d->memo_addr == addr)
		return d->memo_idx;
	idx = dir_find(d, addr);
	if (idx != DIR_NONE) {
		d->memo_addr = addr;
		d->memo_idx = idx;
	}
	return idx;
}

/* dir_bytes - host bytes the directory holds for its entries (entries, sharers, slots). */
uint64_t dir_bytes(const struct dir *d);

/* dir_insert - a new entry for @addr (which must be absent), initialised empty with @home.
 * Return: its index.  Can't fail.  Pointers into d->line may move: re-derive them. */
uint32_t dir_insert(struct dir *d, uint64_t addr, uint16_t home);

static inline uint64_t *dir_sharers(const struct dir *d, uint32_t idx)
{
	return &d->sharers[(uint64_t)idx * d->words_core];
}

static inline bool dir_has(const struct dir *d, uint32_t idx, int core)
{
	return dir_sharers(d, idx)[core >> 6] >> (core & 63) & 1;
}

static inline void dir_add_sharer(struct dir *d, uint32_t idx, int core)
{
	uint64_t *w = &dir_sharers(d, idx)[core >> 6], bit = 1ull << (core & 63);

	if (!(*w & bit)) {
		*w |= bit;
		d->line[idx].nr_sharers++;
	}
}

static inline void dir_del_sharer(struct dir *d, uint32_t idx, int core)
{
	uint64_t *w = &dir_sharers(d, idx)[core >> 6], bit = 1ull << (core & 63);

	if (*w & bit) {
		*w &= ~bit;
		d->line[idx].nr_sharers--;
	}
	if (d->line[idx].owner == core) {
		d->line[idx].owner = -1;
		d->line[idx].dirty = 0;
	}
}

#endif
