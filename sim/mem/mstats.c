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
