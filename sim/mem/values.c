/*
 * values.c - the bytes in memory: the value each line holds as the last write left it.
 *
 * Timing-free: the interpreter pairs a peek or poke with an access.  Most touched lines are
 * only ever read (a reader walking per-CPU counters reads thousands of lines nobody wrote), so
 * the bytes live in a pool of gsize-byte blocks that a line gets at its first write; a line
 * without one reads as zero.  Per line the cost is the 4-byte pool index.  Each call looks its
 * line up once (dir_lookup: the access that follows finds it remembered), or is given it by
 * the access it pairs with (mem_peek_at, mem_poke_at).
 */
#include "mem/mem_int.h"

#include <assert.h>
#include <glib.h>
#include <string.h>

/* The pool block of line @idx, DIR_NONE when the line was never written. */
static uint32_t val_block(const struct mem *m, uint32_t idx)
{
	return idx < m->val_cap ? m->val_of[idx] : DIR_NONE;
}

/* The bytes of line @idx, given a (zeroed) block at its first write. */
static uint8_t *line_bytes(struct mem *m, uint32_t idx)
{
	if (idx >= m->val_cap) {
		uint32_t old = m->val_cap;

		m->val_cap = m->dir.cap;
		m->val_of = g_renew(uint32_t, m->val_of, m->val_cap);
		memset(m->val_of + old, 0xff, sizeof(uint32_t) * (m->val_cap - old));
	}
	if (m->val_of[idx] == DIR_NONE) {
		if (m->nr_vals == m->cap_vals) {
			m->cap_vals = m->cap_vals ? 2 * m->cap_vals : 256;
			m->vals = g_renew(uint8_t, m->vals, (size_t)m->cap_vals * m->gsize);
		}
		m->val_of[idx] = m->nr_vals++;
		memset(&m->vals[(size_t)m->val_of[idx] * m->gsize], 0, m->gsize);
	}
	return &m->vals[(size_t)m->val_of[idx] * m->gsize];
}

/* Bytes [@off, @off + @n) of line @idx (DIR_NONE: never touched), little-endian from bit
 * @shift of the result. */
static inline __attribute__((always_inline)) uint64_t
peek_line(struct mem *m, uint32_t idx, uint32_t off, uint32_t n, uint32_t shift)
{
	uint32_t b = idx == DIR_NONE ? DIR_NONE : val_block(m, idx);
	const uint8_t *p;
	uint64_t v = 0;

	if (b == DIR_NONE)
		return 0;
	p = &m->vals[(size_t)b * m->gsize + off];
	if (n == 8) { /* most accesses: one word, without the byte loop */
		memcpy(&v, p, 8);
		return GUINT64_FROM_LE(v) << shift;
	}
	for (uint32_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v << shift;
}

static void poke_line(struct mem *m, uint32_t idx, uint32_t off, uint32_t n, uint64_t v)
{
	uint8_t *p = line_bytes(m, idx) + off;

	if (n == 8) {
		v = GUINT64_TO_LE(v);
		memcpy(p, &v, 8);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* How many of the @size bytes at @addr lie in its first line (the rest are in the next). */
static uint32_t first_part(const struct mem *m, uint64_t addr, uint32_t size)
{
	uint64_t room = m->gsize - (addr & (m->gsize - 1));

	return size < room ? size : (uint32_t)room;
}

/* The line of @addr, DIR_NONE when never touched (a peek); made if new (a poke). */
static uint32_t known_line(struct mem *m, uint64_t addr)
{
	return dir_lookup(&m->dir, mem_line_addr(m, addr));
}

static uint32_t made_line(struct mem *m, uint64_t addr)
{
	return mem_line_index(m, mem_line_addr(m, addr));
}

uint64_t mem_peek(struct mem *m, uint64_t addr, uint32_t size)
{
	uint32_t n = first_part(m, addr, size);
	uint64_t v;

	assert(size <= 8);
	v = n ? peek_line(m, known_line(m, addr), (uint32_t)(addr & (m->gsize - 1)), n, 0) : 0;
	if (n < size)
		v |= peek_line(m, known_line(m, addr + n), 0, size - n, 8 * n);
	return v;
}

void mem_poke(struct mem *m, uint64_t addr, uint32_t size, uint64_t v)
{
	uint32_t n = first_part(m, addr, size);

	assert(size <= 8);
	if (n)
		poke_line(m, made_line(m, addr), (uint32_t)(addr & (m->gsize - 1)), n, v);
	if (n < size)
		poke_line(m, made_line(m, addr + n), 0, size - n, v >> (8 * n));
}

/* Is @idx the line of all @size bytes at @addr (else the _at calls look it up)? */
static bool one_known_line(const struct mem *m, uint32_t idx, uint64_t addr, uint32_t size)
{
	return idx != DIR_NONE && first_part(m, addr, size) == size;
}

uint64_t mem_peek_at_slow(struct mem *m, uint32_t idx, uint64_t addr, uint32_t size)
{
	if (!one_known_line(m, idx, addr, size))
		return mem_peek(m, addr, size);
	return peek_line(m, idx, (uint32_t)(addr & (m->gsize - 1)), size, 0);
}

void mem_poke_at_slow(struct mem *m, uint32_t idx, uint64_t addr, uint32_t size, uint64_t v)
{
	if (!one_known_line(m, idx, addr, size))
		mem_poke(m, addr, size, v);
	else
		poke_line(m, idx, (uint32_t)(addr & (m->gsize - 1)), size, v);
}

uint64_t mem_values_bytes(const struct mem *m)
{
	return sizeof(uint32_t) * (uint64_t)m->dir.nr + (uint64_t)m->nr_vals * m->gsize;
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
