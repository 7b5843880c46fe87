/* dir.c - see dir.h for the design. */
#include "mem/dir.h"

#include <assert.h>
#include <glib.h>
#include <inttypes.h>
#include <string.h>

void dir_init(struct dir *d, int nr_cores)
{
	memset(d, 0, sizeof(*d));
	d->words_core = (uint32_t)(nr_cores + 63) / 64;
	d->cap = 1024;
	/* Entries are set as they are made (dir_insert): the capacity beyond them is never
	 * written, so the host does not back it with pages. */
	d->line = g_new(struct dline, d->cap);
	d->memo_addr = UINT64_MAX; /* no line address: those are multiples of 64 */
	d->miss_addr = UINT64_MAX;
	d->slot_mask = 2 * d->cap - 1;
	d->slot = g_new(uint32_t, d->slot_mask + 1);
	memset(d->slot, 0xff, sizeof(uint32_t) * (d->slot_mask + 1));
}

void dir_release(struct dir *d)
{
	g_free(d->line);
	g_free(d->pool);
	g_free(d->slot);
	memset(d, 0, sizeof(*d));
}

uint32_t dir_find(const struct dir *d, uint64_t addr)
{
	uint32_t s;

	return dir_find_slot(d, addr, &s);
}

/* Double the entry arrays. */
static void dir_grow(struct dir *d)
{
	d->cap *= 2;
	d->line = g_renew(struct dline, d->line, d->cap);
}

void dir_sharers_grow(struct dir *d, uint32_t idx, int core)
{
	struct dline *dl = &d->line[idx];
	uint32_t one = dl->sh & ~SH_ONE;
	uint64_t *w;

	if (d->nr_pool == d->cap_pool) {
		d->cap_pool = d->cap_pool ? 2 * d->cap_pool : 256;
		d->pool = g_renew(uint64_t, d->pool, (size_t)d->cap_pool * d->words_core);
	}
	w = dir_pool_set(d, d->nr_pool);
	memset(w, 0, sizeof(uint64_t) * d->words_core);
	w[one >> 6] |= 1ull << (one & 63);
	w[core >> 6] |= 1ull << (core & 63);
	dl->sh = d->nr_pool++;
	dl->nr_sharers = 2;
}

/* Double the slots and re-place every entry.  The slots are the directory's one array that
 * is written whole (every empty slot is DIR_NONE), so they grow on their own, at half full:
 * a lookup that misses (a first touch: dir_lookup remembers the absence for the request
 * and dir_insert that follow) probes about 2.5 slots on average under linear probing,
 * where at 3/4 full it probed 8.5 (seed 000: x0.92 the time, +18 MiB peak). */
static void slots_grow(struct dir *d)
{
	g_free(d->slot);
	d->slot_mask = 2 * d->slot_mask + 1;
	d->slot = g_new(uint32_t, d->slot_mask + 1);
	memset(d->slot, 0xff, sizeof(uint32_t) * (d->slot_mask + 1));
	for (uint32_t i = 0; i < d->nr; i++) {
		uint32_t s = dir_hash(d->line[i].addr) & d->slot_mask;

		while (d->slot[s] != DIR_NONE)
			s = (s + 1) & d->slot_mask;
		d->slot[s] = i;
	}
}

uint32_t dir_insert(struct dir *d, uint64_t addr, uint16_t home)
{
	uint32_t idx, s = d->miss_slot;
	bool known = d->miss_addr == addr; /* dir_lookup found it absent, and where */

	d->miss_addr = UINT64_MAX; /* this insert may take the remembered slot */
	if (d->nr == d->cap)
		dir_grow(d);
	if ((uint64_t)(d->nr + 1) * 2 > (uint64_t)d->slot_mask + 1) {
		slots_grow(d);
		known = false;
	}
	if (!known && dir_find_slot(d, addr, &s) != DIR_NONE)
		g_error("dir_insert: line %#" PRIx64 " is already in the directory", addr);
	assert(d->slot[s] == DIR_NONE);
	idx = d->nr++;
	d->line[idx] = (struct dline){.addr = addr, .sh = SH_NONE, .owner = -1, .home = home};
	d->slot[s] = idx;
	d->memo_addr = addr; /* what its callers ask for next */
	d->memo_idx = idx;
	return idx;
}

uint64_t dir_bytes(const struct dir *d)
{
	return (uint64_t)d->nr * sizeof(struct dline) +
	       sizeof(uint64_t) * (uint64_t)d->nr_pool * d->words_core +
	       sizeof(uint32_t) * ((uint64_t)d->slot_mask + 1);
}
