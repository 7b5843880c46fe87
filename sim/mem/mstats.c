/* mstats.c - the statistics layer and its query API; see mstats.h. */
#include "mem/mstats.h"

#include <glib.h>
#include <string.h>

#include "mem/mem.h"

/* The Pareto rows' memo (mstats_orow): a power of two, 16 KiB, which stays in the host's L1/L2. */
#define ORW_MEMO 4096

void mstats_init(struct mstats *s, int nr_cpus)
{
	memset(s, 0, sizeof(*s));
	s->words_cpu = (uint32_t)(nr_cpus + 63) / 64;
	s->orow_memo = g_new(uint32_t, ORW_MEMO);
	memset(s->orow_memo, 0xff, sizeof(uint32_t) * ORW_MEMO);
}

void mstats_release(struct mstats *s)
{
	g_free(s->line);
	g_free(s->cpus);
	g_free(s->obj);
	g_free(s->orow);
	g_free(s->orow_cpus);
	g_free(s->orow_slot);
	g_free(s->orow_memo);
	memset(s, 0, sizeof(*s));
}

void mstats_add_line(struct mstats *s, uint32_t idx, uint32_t obj)
{
	g_assert(idx == s->nr);
	if (s->nr == s->cap) {
		uint32_t old = s->cap;

		s->cap = old ? 2 * old : 1024;
		s->line = g_renew(struct line_stats, s->line, s->cap);
		s->obj = g_renew(uint32_t, s->obj, s->cap);
		s->cpus = g_renew(uint64_t, s->cpus, (size_t)s->cap * s->words_cpu);
		memset(s->cpus + (size_t)old * s->words_cpu, 0,
		       sizeof(uint64_t) * (size_t)(s->cap - old) * s->words_cpu);
	}
	memset(&s->line[idx], 0, sizeof(s->line[idx]));
	s->line[idx].first_orow = DIR_NONE;
	s->obj[idx] = obj;
	s->nr++;
}

uint32_t stats_nr_lines(const struct mem *m)
{
	return m->st.nr;
}

uint64_t stats_accesses(const struct mem *m)
{
	return m->st.accesses;
}

const uint64_t *stats_line(const struct mem *m, uint32_t l)
{
	return m->st.line[l].c;
}

uint64_t stats_line_addr(const struct mem *m, uint32_t l)
{
	return m->dir.line[l].addr;
}

unsigned stats_line_home(const struct mem *m, uint32_t l)
{
	return m->dir.line[l].home;
}

uint32_t stats_line_obj(const struct mem *m, uint32_t l)
{
	return m->st.obj[l];
}

const uint64_t *stats_line_cpus(const struct mem *m, uint32_t l)
{
	return &m->st.cpus[(size_t)l * m->st.words_cpu];
}

uint32_t stats_line_nr_cpus(const struct mem *m, uint32_t l)
{
	const uint64_t *c = stats_line_cpus(m, l);
	uint32_t n = 0;

	for (uint32_t w = 0; w < m->st.words_cpu; w++)
		n += (uint32_t)__builtin_popcountll(c[w]);
	return n;
}

uint32_t stats_cpu_words(const struct mem *m)
{
	return m->st.words_cpu;
}

uint32_t stats_find_line(const struct mem *m, uint64_t addr)
{
	return mem_line(m, addr);
}

uint64_t stats_line_size(const struct mem *m)
{
	return m->gsize;
}

uint32_t stats_line_first_orow(const struct mem *m, uint32_t l)
{
	return m->st.line[l].first_orow;
}

uint32_t stats_nr_orows(const struct mem *m)
{
	return m->st.nr_orows;
}

const struct orow *stats_orows(const struct mem *m)
{
	return m->st.orow;
}

const uint64_t *stats_orow_cpus(const struct mem *m, uint32_t o)
{
	return &m->st.orow_cpus[(size_t)o * m->st.words_cpu];
}

/* ------------------------------------------------------------------ Pareto rows */

/*
 * Rows of a line form a list, newest first, which the reports walk.  Finding a row tries, in
 * order (each answer checked against the row itself, so the order changes no answer):
 *  - a small direct-mapped memo of recent rows, indexed by the key's hash, which stays in the
 *    host's caches (the index of a large run is megabytes, and a probe of it misses them);
 *  - the line's first ORW_WALK rows: a line touched for the first time has none, so nothing
 *    is probed, and a line's few recent rows are still cached;
 *  - an open-addressing index of all rows, linear probing, at most 3/4 full, whose slots hold
 *    a row's number and its key's 32-bit hash: a probe compares hashes inside the slot array
 *    and reads a row only when the hash matches, and growing re-places slots without reading
 *    a single row.  It keeps a line that many sites touch (a trace gives every line its own
 *    site) from making the walk quadratic.
 * The row found is the one the caller adds to next, so reading it is not wasted.
 */
#define ORW_WALK 4
#define ORW_LOAD_NUM 3
#define ORW_LOAD_DEN 4

static uint32_t orow_hash(uint32_t line, uint8_t off, uint32_t site, uint32_t caller)
{
	uint64_t x = ((uint64_t)line << 32 | site) * 0x9e3779b97f4a7c15ull;

	x ^= ((uint64_t)caller << 8 | off) * 0xc2b2ae3d27d4eb4full;
	return (uint32_t)(x >> 32);
}

static bool orow_is(const struct orow *r, uint32_t line, uint8_t off, uint32_t site,
		    uint32_t caller)
{
	return r->line == line && r->off == off && r->site == site && r->caller == caller;
}

static uint32_t slot_row(uint64_t slot)
{
	return (uint32_t)slot;
}

static uint32_t slot_hash(uint64_t slot)
{
	return (uint32_t)(slot >> 32);
}

static void slot_put(uint64_t *slots, uint32_t mask, uint32_t hash, uint32_t r)
{
	uint32_t k = hash & mask;

	while (slot_row(slots[k]) != DIR_NONE)
		k = (k + 1) & mask;
	slots[k] = (uint64_t)hash << 32 | r;
}

/* Twice the slots (the first 1024), every row re-placed from its slot alone. */
static void slots_grow(struct mstats *s)
{
	uint32_t n = s->orow_slot ? 2 * (s->orow_mask + 1) : 1024, mask = n - 1;
	uint64_t *slots = g_new(uint64_t, n);

	memset(slots, 0xff, sizeof(uint64_t) * n);
	for (uint32_t k = 0; s->orow_slot && k <= s->orow_mask; k++)
		if (slot_row(s->orow_slot[k]) != DIR_NONE)
			slot_put(slots, mask, slot_hash(s->orow_slot[k]), slot_row(s->orow_slot[k]));
	g_free(s->orow_slot);
	s->orow_slot = slots;
	s->orow_mask = mask;
}

static uint32_t slot_find(const struct mstats *s, uint32_t hash, uint32_t line, uint8_t off,
			  uint32_t site, uint32_t caller)
{
	uint32_t k = hash & s->orow_mask, r;
	uint64_t slot;

	while ((r = slot_row(slot = s->orow_slot[k])) != DIR_NONE &&
	       (slot_hash(slot) != hash || !orow_is(&s->orow[r], line, off, site, caller)))
		k = (k + 1) & s->orow_mask;
	return r;
}

uint32_t mstats_orow(struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
		     uint32_t caller)
{
	struct line_stats *ls = &s->line[line];
	uint32_t hash = orow_hash(line, off, site, caller), r;
	uint32_t *memo = &s->orow_memo[hash & (ORW_MEMO - 1)];

	uint32_t n;

	if (*memo != DIR_NONE && orow_is(&s->orow[*memo], line, off, site, caller))
		return *memo;
	for (r = ls->first_orow, n = 0; r != DIR_NONE && n < ORW_WALK; r = s->orow[r].next, n++)
		if (orow_is(&s->orow[r], line, off, site, caller))
			return *memo = r;
	if (r != DIR_NONE && (r = slot_find(s, hash, line, off, site, caller)) != DIR_NONE)
		return *memo = r;
	if ((uint64_t)(s->nr_orows + 1) * ORW_LOAD_DEN >
	    (s->orow_slot ? (uint64_t)s->orow_mask + 1 : 0) * ORW_LOAD_NUM)
		slots_grow(s);
	if (s->nr_orows == s->cap_orows) {
		s->cap_orows = s->cap_orows ? 2 * s->cap_orows : 256;
		s->orow = g_renew(struct orow, s->orow, s->cap_orows);
		s->orow_cpus = g_renew(uint64_t, s->orow_cpus, (size_t)s->cap_orows * s->words_cpu);
	}
	r = s->nr_orows++;
	memset(&s->orow[r], 0, sizeof(s->orow[r]));
	memset(&s->orow_cpus[(size_t)r * s->words_cpu], 0, sizeof(uint64_t) * s->words_cpu);
	s->orow[r].line = line;
	s->orow[r].off = off;
	s->orow[r].site = site;
	s->orow[r].caller = caller;
	s->orow[r].next = ls->first_orow;
	ls->first_orow = r;
	slot_put(s->orow_slot, s->orow_mask, hash, r);
	return *memo = r;
}
