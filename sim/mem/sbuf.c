/*
 * sbuf.c - the store buffer of each CPU: a ring of commit times, drained in order (TSO).
 *
 * A store takes an entry when it issues (stalling while the buffer is full), its RFO is issued
 * at once, and it commits no earlier than the stores before it.  A LOCK-prefixed RMW waits
 * for the buffer to drain (mem_sb_drained).
 */
#include "mem/mem_int.h"

static simtime_t *sb_ring(struct mem *m, int cpu)
{
	return &m->sb_ring[(size_t)cpu * m->mc->store_buffer];
}

/* The entry after @i of a ring of @n: a compare, not a division, on every store. */
static inline uint32_t sb_next(uint32_t i, uint32_t n)
{
	return i + 1 == n ? 0 : i + 1;
}

simtime_t sb_slot(struct mem *m, int cpu, simtime_t now)
{
	struct sbuf *sb = &m->sb[cpu];
	simtime_t *ring = sb_ring(m, cpu);
	uint32_t n = m->mc->store_buffer;

	while (sb->len && ring[sb->head] <= now) {
		sb->head = sb_next(sb->head, n);
		sb->len--;
	}
	if (sb->len == n) {
		/* Full: stall until the oldest store commits. */
		now = ring[sb->head];
		sb->head = sb_next(sb->head, n);
		sb->len--;
	}
	return now;
}

void sb_push(struct mem *m, int cpu, simtime_t done)
{
	struct sbuf *sb = &m->sb[cpu];
	uint32_t n = m->mc->store_buffer, tail = sb->head + sb->len; /* head < n, len <= n */

	/* TSO: a store commits no earlier than the stores before it. */
	if (done < sb->last)
		done = sb->last;
	sb->last = done;
	sb_ring(m, cpu)[tail >= n ? tail - n : tail] = done;
	sb->len++;
}

simtime_t mem_sb_drained(const struct mem *m, int cpu, simtime_t now)
{
	const struct sbuf *sb = &m->sb[cpu];

	return sb->len && sb->last > now ? sb->last : now;
}
