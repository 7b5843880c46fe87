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
	g_free(s->cpu_pool);
	memset(s, 0, sizeof(*s));
}

void mstats_add_line(struct mstats *s, uint32_t idx, uint32_t obj)
{
	g_assert(idx == s->nr);
	if (s->nr == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->line = g_renew(struct line_stats, s->line, s->cap);
		s->obj = g_renew(uint32_t, s->obj, s->cap);
		s->cpus = g_renew(cpuset_t, s->cpus, s->cap);
	}
	memset(&s->line[idx], 0, sizeof(s->line[idx]));
	s->cpus[idx] = CPUSET_NONE;
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

void mstats_cpuset_grow(struct mstats *s, cpuset_t *set, int cpu)
{
	uint32_t one = *set & ~CPUSET_ONE;
	uint64_t *w;

	if (s->nr_pool == s->cap_pool) {
		s->cap_pool = s->cap_pool ? 2 * s->cap_pool : 256;
		s->cpu_pool = g_renew(uint64_t, s->cpu_pool, (size_t)s->cap_pool * s->words_cpu);
	}
	w = &s->cpu_pool[(size_t)s->nr_pool * s->words_cpu];
	memset(w, 0, sizeof(uint64_t) * s->words_cpu);
	w[one >> 6] |= 1ull << (one & 63);
	w[cpu >> 6] |= 1ull << (cpu & 63);
	*set = s->nr_pool++;
}

void mstats_reset_cpus(struct mstats *s)
{
	if (s->nr)
		memset(s->cpus, 0xff, sizeof(cpuset_t) * s->nr);
	if (s->nr_orows)
		memset(s->orow_cpus, 0xff, sizeof(cpuset_t) * s->nr_orows);
	s->nr_pool = 0;
}

uint64_t mstats_bytes(const struct mstats *s)
{
	return (uint64_t)s->nr * (sizeof(struct line_stats) + sizeof(cpuset_t) + sizeof(uint32_t)) +
	       (uint64_t)s->nr_orows * (sizeof(struct orow) + sizeof(cpuset_t)) +
	       (s->orow_slot ? sizeof(uint32_t) * ((uint64_t)s->orow_mask + 1) : 0) +
	       sizeof(uint64_t) * (uint64_t)s->nr_pool * s->words_cpu;
}

/* Add the CPUs of @set to @bits. */
static void cpuset_or(const struct mstats *s, cpuset_t set, uint64_t *bits)
{
	if (set == CPUSET_NONE)
		return;
	if (set & CPUSET_ONE) {
		set &= ~CPUSET_ONE;
		bits[set >> 6] |= 1ull << (set & 63);
		return;
	}
	for (uint32_t w = 0; w < s->words_cpu; w++)
		bits[w] |= s->cpu_pool[(size_t)set * s->words_cpu + w];
}

static uint32_t cpuset_count(const struct mstats *s, cpuset_t set)
{
	uint32_t n = 0;

	if (set == CPUSET_NONE || set & CPUSET_ONE)
		return set != CPUSET_NONE;
	for (uint32_t w = 0; w < s->words_cpu; w++)
		n += c2c_popcount(s->cpu_pool[(size_t)set * s->words_cpu + w]);
	return n;
}

void stats_line_cpus(const struct mem *m, uint32_t l, uint64_t *bits)
{
	cpuset_or(&m->st, m->st.cpus[l], bits);
}

uint32_t stats_line_nr_cpus(const struct mem *m, uint32_t l)
{
	return cpuset_count(&m->st, m->st.cpus[l]);
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

void stats_orow_cpus(const struct mem *m, uint32_t o, uint64_t *bits)
{
	cpuset_or(&m->st, m->st.orow_cpus[o], bits);
}

uint32_t stats_orow_nr_cpus(const struct mem *m, uint32_t o)
{
	return cpuset_count(&m->st, m->st.orow_cpus[o]);
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
		s->orow_cpus = g_renew(cpuset_t, s->orow_cpus, s->cap_orows);
		slots_grow(s);
	}
	r = s->nr_orows++;
	memset(&s->orow[r], 0, sizeof(s->orow[r]));
	s->orow_cpus[r] = CPUSET_NONE;
	s->orow[r].line = line;
	s->orow[r].off = off;
	s->orow[r].site = site;
	s->orow[r].caller = caller;
	s->orow[r].next = ls->first_orow;
	ls->first_orow = r;
	slot_put(s, r);
	return r;
}
