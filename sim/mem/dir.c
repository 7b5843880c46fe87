/* dir.c - see dir.h for the design. */
#include "mem/dir.h"

#include <assert.h>
#include <glib.h>
#include <inttypes.h>
#include <string.h>

#define BLOCK_BYTES (DIR_REGION_LINES * sizeof(uint32_t))

/* Room for @nr_reg region blocks, each within one host cache line. */
static uint32_t *blocks_new(uint32_t nr_reg)
{
	return g_aligned_alloc(nr_reg, BLOCK_BYTES, BLOCK_BYTES);
}

static void slots_reset(struct dir *d)
{
	d->slot = g_new(uint32_t, d->slot_mask + 1);
	memset(d->slot, 0xff, sizeof(uint32_t) * (d->slot_mask + 1));
}

void dir_init(struct dir *d, int nr_cores)
{
	memset(d, 0, sizeof(*d));
	d->words_core = (uint32_t)(nr_cores + 63) / 64;
	d->cap = 1024;
	/* Entries are set as they are made (dir_insert): the capacity beyond them is never
	 * written, so the host does not back it with pages. */
	d->line = g_new(struct dline, d->cap);
	d->cap_reg = 256;
	d->reg_addr = g_new(uint64_t, d->cap_reg);
	d->reg_line = blocks_new(d->cap_reg);
	/* No line or region address: those are multiples of 64. */
	d->memo_addr = UINT64_MAX;
	d->memo_reg_addr = UINT64_MAX;
	d->slot_mask = 2 * d->cap_reg - 1;
	slots_reset(d);
}

void dir_release(struct dir *d)
{
	g_free(d->line);
	g_free(d->pool);
	g_free(d->reg_addr);
	g_aligned_free(d->reg_line);
	g_free(d->slot);
	memset(d, 0, sizeof(*d));
}

uint32_t dir_find(const struct dir *d, uint64_t addr)
{
	uint32_t s, r = dir_find_region(d, dir_region_addr(addr), &s);

	return r == DIR_NONE ? DIR_NONE : *dir_region_entry(d, r, addr);
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
	/* A set is named by its first word, which must stay below SH_ONE. */
	g_assert((uint64_t)d->nr_pool * d->words_core < SH_ONE);
	dl->sh = d->nr_pool++ * d->words_core;
	w = dir_pool_set(d, dl->sh);
	memset(w, 0, sizeof(uint64_t) * d->words_core);
	w[one >> 6] |= 1ull << (one & 63);
	w[core >> 6] |= 1ull << (core & 63);
	dl->nr_sharers = 2;
}

/* Double the region arrays (the blocks move to a new aligned allocation). */
static void regions_grow(struct dir *d)
{
	uint32_t *b = blocks_new(2 * d->cap_reg);

	memcpy(b, d->reg_line, BLOCK_BYTES * d->nr_reg);
	g_aligned_free(d->reg_line);
	d->reg_line = b;
	d->cap_reg *= 2;
	d->reg_addr = g_renew(uint64_t, d->reg_addr, d->cap_reg);
}

/* Double the slots and re-place every region.  They grow at half full: a lookup that misses
 * probes about 2.5 slots on average under linear probing, at 3/4 full 8.5. */
static void slots_grow(struct dir *d)
{
	g_free(d->slot);
	d->slot_mask = 2 * d->slot_mask + 1;
	slots_reset(d);
	for (uint32_t r = 0; r < d->nr_reg; r++) {
		uint32_t s = dir_hash(d->reg_addr[r]) & d->slot_mask;

		while (d->slot[s] != DIR_NONE)
			s = (s + 1) & d->slot_mask;
		d->slot[s] = r;
	}
}

/* The index of the region at @ra, made (all lines absent) if it has none yet. */
static uint32_t region_get(struct dir *d, uint64_t ra)
{
	uint32_t r, s;

	if (d->memo_reg_addr == ra)
		return d->memo_reg;
	r = dir_find_region(d, ra, &s);
	if (r == DIR_NONE) {
		if (d->nr_reg == d->cap_reg)
			regions_grow(d);
		if ((uint64_t)(d->nr_reg + 1) * 2 > (uint64_t)d->slot_mask + 1) {
			slots_grow(d);
			dir_find_region(d, ra, &s);
		}
		r = d->nr_reg++;
		d->reg_addr[r] = ra;
		memset(dir_region_entry(d, r, ra), 0xff, BLOCK_BYTES);
		d->slot[s] = r;
	}
	d->memo_reg_addr = ra;
	d->memo_reg = r;
	return r;
}

uint32_t dir_insert(struct dir *d, uint64_t addr, uint16_t home)
{
	uint32_t idx, *e = dir_region_entry(d, region_get(d, dir_region_addr(addr)), addr);

	if (*e != DIR_NONE)
		g_error("dir_insert: line %#" PRIx64 " is already in the directory", addr);
	if (d->nr == d->cap)
		dir_grow(d);
	idx = d->nr++;
	d->line[idx] = (struct dline){.addr = addr, .sh = SH_NONE, .owner = -1, .home = home};
	*e = idx;
	d->memo_addr = addr; /* what its callers ask for next */
	d->memo_idx = idx;
	return idx;
}

uint64_t dir_bytes(const struct dir *d)
{
	return (uint64_t)d->nr * sizeof(struct dline) +
	       sizeof(uint64_t) * (uint64_t)d->nr_pool * d->words_core +
	       (sizeof(uint64_t) + BLOCK_BYTES) * (uint64_t)d->nr_reg +
	       sizeof(uint32_t) * ((uint64_t)d->slot_mask + 1);
}
