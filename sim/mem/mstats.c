/* mstats.c - the statistics layer and its query API; see mstats.h. */
#include "mem/mstats.h"

#include <glib.h>
#include <string.h>

#include "mem/mem.h"

void mstats_init(struct mstats *s, int nr_cpus)
{
	memset(s, 0, sizeof(*s));
	s->words_cpu = (uint32_t)(nr_cpus + 63) / 64;
}

void mstats_release(struct mstats *s)
{
	g_free(s->line);
	g_free(s->cpus);
	g_free(s->obj);
	g_free(s->orow);
	g_free(s->orow_cpus);
	g_free(s->orow_slot);
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
 * Rows of a line form a list, newest first, which the reports walk.  Most lines have a few
 * rows, so a short walk of the list finds a row fastest.  A line that many sites touch (a
 * trace gives every line its own site) would make that walk quadratic, so every row is also
 * in a hash index, consulted only when the walk is longer than ORW_WALK.
 */
#define ORW_WALK 8

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

static void slot_put(struct mstats *s, uint32_t r)
{
	const struct orow *o = &s->orow[r];
	uint32_t k = orow_hash(o->line, o->off, o->site, o->caller) & s->orow_mask;

	while (s->orow_slot[k] != DIR_NONE)
		k = (k + 1) & s->orow_mask;
	s->orow_slot[k] = r;
}

/* Keep the index at most half full: rebuilt at twice the rows' capacity when they grow. */
static void slots_grow(struct mstats *s)
{
	g_free(s->orow_slot);
	s->orow_mask = 2 * s->cap_orows - 1;
	s->orow_slot = g_new(uint32_t, (size_t)s->orow_mask + 1);
	memset(s->orow_slot, 0xff, sizeof(uint32_t) * ((size_t)s->orow_mask + 1));
	for (uint32_t r = 0; r < s->nr_orows; r++)
		slot_put(s, r);
}

static uint32_t slot_find(const struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
			  uint32_t caller)
{
	uint32_t k = orow_hash(line, off, site, caller) & s->orow_mask, r;

	while ((r = s->orow_slot[k]) != DIR_NONE && !orow_is(&s->orow[r], line, off, site, caller))
		k = (k + 1) & s->orow_mask;
	return r;
}

uint32_t mstats_orow_find(const struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
			  uint32_t caller)
{
	uint32_t r = s->line[line].first_orow, n;

	for (n = 0; r != DIR_NONE && n < ORW_WALK; r = s->orow[r].next, n++)
		if (orow_is(&s->orow[r], line, off, site, caller))
			return r;
	return r != DIR_NONE ? slot_find(s, line, off, site, caller) : DIR_NONE;
}

uint32_t mstats_orow(struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
		     uint32_t caller)
{
	struct line_stats *ls = &s->line[line];
	uint32_t r = mstats_orow_find(s, line, off, site, caller);

	if (r != DIR_NONE)
		return r;
	if (s->nr_orows == s->cap_orows) {
		s->cap_orows = s->cap_orows ? 2 * s->cap_orows : 256;
		s->orow = g_renew(struct orow, s->orow, s->cap_orows);
		s->orow_cpus = g_renew(uint64_t, s->orow_cpus, (size_t)s->cap_orows * s->words_cpu);
		slots_grow(s);
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
	slot_put(s, r);
	return r;
}
