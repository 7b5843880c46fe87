/*
 * values.c - the bytes in memory: the value each line holds as the last write left it.
 *
 * Timing-free: the interpreter pairs a peek or poke with an access.  The bytes of a line are
 * kept per directory entry (gsize bytes each), grown with the directory.
 */
#include "mem/mem_int.h"

#include <assert.h>
#include <glib.h>
#include <string.h>

/* The bytes of line @idx, growing the array with the directory. */
static uint8_t *line_bytes(struct mem *m, uint32_t idx)
{
	if (idx >= m->data_cap) {
		uint32_t old = m->data_cap;

		m->data_cap = m->dir.cap;
		m->data = g_renew(uint8_t, m->data, (size_t)m->data_cap * m->gsize);
		memset(m->data + (size_t)old * m->gsize, 0, (size_t)(m->data_cap - old) * m->gsize);
	}
	return &m->data[(size_t)idx * m->gsize];
}

uint64_t mem_peek(struct mem *m, uint64_t addr, uint32_t size)
{
	uint64_t v = 0;

	assert(size <= 8);
	for (uint32_t b = 0; b < size; b++) {
		uint64_t a = addr + b;
		uint32_t idx = dir_find(&m->dir, mem_line_addr(m, a));

		if (idx != DIR_NONE)
			v |= (uint64_t)line_bytes(m, idx)[a & (m->gsize - 1)] << (8 * b);
	}
	return v;
}

void mem_poke(struct mem *m, uint64_t addr, uint32_t size, uint64_t v)
{
	assert(size <= 8);
	for (uint32_t b = 0; b < size; b++) {
		uint64_t a = addr + b;

		line_bytes(m, mem_line_index(m, mem_line_addr(m, a)))[a & (m->gsize - 1)] =
			(uint8_t)(v >> (8 * b));
	}
}

void mem_watch(struct mem *m, uint64_t addr)
{
	uint32_t idx = mem_line_index(m, mem_line_addr(m, addr));

	if (idx >= m->watched_cap) {
		uint32_t old = m->watched_cap;

		m->watched_cap = m->dir.cap;
		m->watched = g_renew(uint8_t, m->watched, m->watched_cap);
		memset(m->watched + old, 0, m->watched_cap - old);
	}
	m->watched[idx] = 1;
}
