/*
 * mem_orow.c - the Pareto rows of the memory system: one per (line, byte offset, code site,
 * caller); see mem.h and stats.h.
 *
 * Rows of a line form a list, newest first, which the reports walk.  Most lines have a few
 * rows, so a short walk of the list finds a row fastest.  A line that many sites touch (a
 * trace gives every line its own site) would make that walk quadratic, so every row is also
 * in a hash index, consulted only when the walk is longer than ORW_WALK.
 */
#include <glib.h>
#include <string.h>

#include "mem/mem.h"

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

static void slot_put(struct mem *m, uint32_t r)
{
	const struct orow *o = &m->orow[r];
	uint32_t s = orow_hash(o->line, o->off, o->site, o->caller) & m->orow_mask;

	while (m->orow_slot[s] != DIR_NONE)
		s = (s + 1) & m->orow_mask;
	m->orow_slot[s] = r;
}

/* Keep the index at most half full: rebuilt at twice the rows' capacity when they grow. */
static void slots_grow(struct mem *m)
{
	g_free(m->orow_slot);
	m->orow_mask = 2 * m->cap_orows - 1;
	m->orow_slot = g_new(uint32_t, (size_t)m->orow_mask + 1);
	memset(m->orow_slot, 0xff, sizeof(uint32_t) * ((size_t)m->orow_mask + 1));
	for (uint32_t r = 0; r < m->nr_orows; r++)
		slot_put(m, r);
}

static uint32_t slot_find(const struct mem *m, uint32_t line, uint8_t off, uint32_t site,
			  uint32_t caller)
{
	uint32_t s = orow_hash(line, off, site, caller) & m->orow_mask, r;

	while ((r = m->orow_slot[s]) != DIR_NONE && !orow_is(&m->orow[r], line, off, site, caller))
		s = (s + 1) & m->orow_mask;
	return r;
}

uint32_t mem_orow(struct mem *m, uint32_t line, uint8_t off, uint32_t site, uint32_t caller)
{
	struct line_stats *ls = &m->dir.stats[line];
	uint32_t r = ls->first_orow, n;

	for (n = 0; r != DIR_NONE && n < ORW_WALK; r = m->orow[r].next, n++)
		if (orow_is(&m->orow[r], line, off, site, caller))
			return r;
	if (r != DIR_NONE && (r = slot_find(m, line, off, site, caller)) != DIR_NONE)
		return r;
	if (m->nr_orows == m->cap_orows) {
		m->cap_orows = m->cap_orows ? 2 * m->cap_orows : 256;
		m->orow = g_renew(struct orow, m->orow, m->cap_orows);
		m->orow_cpus = g_renew(uint64_t, m->orow_cpus, (size_t)m->cap_orows * m->dir.words_cpu);
		slots_grow(m);
	}
	r = m->nr_orows++;
	memset(&m->orow_cpus[(size_t)r * m->dir.words_cpu], 0, sizeof(uint64_t) * m->dir.words_cpu);
	m->orow[r] = (struct orow){.line = line, .off = off, .site = site, .caller = caller,
				   .next = ls->first_orow};
	ls->first_orow = r;
	slot_put(m, r);
	return r;
}
