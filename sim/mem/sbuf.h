/*
 * sbuf.h - the store buffer's ring (sbuf.c), inline: sb_slot and sb_push are on the path of
 * every store, a memo's too.  Internal to the memory system (included by mem_int.h).
 */
#ifndef C2C_SBUF_H
#define C2C_SBUF_H

#include "mem/mem.h"

static inline simtime_t *sb_ring(struct mem *m, int cpu)
{
	return &m->sb_ring[(size_t)cpu * m->mc->store_buffer];
}

/* The entry after @i of a ring of @n: a compare, not a division, on every store. */
static inline uint32_t sb_next(uint32_t i, uint32_t n)
{
	return i + 1 == n ? 0 : i + 1;
}

/* sb_slot_in - sb_slot() of buffer @sb, whose ring of @n entries is @ring (sb_ring()). */
static inline simtime_t sb_slot_in(struct sbuf *sb, const simtime_t *ring, uint32_t n,
				   simtime_t now)
{
	uint32_t head = sb->head, len = sb->len; /* (written back once, not at each entry) */

	while (len && ring[head] <= now) {
		head = sb_next(head, n);
		len--;
	}
	if (len == n) {
		/* Full: stall until the oldest store commits. */
		now = ring[head];
		head = sb_next(head, n);
		len--;
	}
	sb->head = head;
	sb->len = len;
	return now;
}

/* sb_slot - the time a store issued at @now gets a store-buffer entry (a full buffer stalls
 * until its oldest store commits). */
static inline simtime_t sb_slot(struct mem *m, int cpu, simtime_t now)
{
	return sb_slot_in(&m->sb[cpu], sb_ring(m, cpu), m->mc->store_buffer, now);
}

/* A CPU's store buffer, its ring and its entries, as sb_slot_in() and sb_push_in() take them:
 * found once for a run of stores (mem_store_run), not twice a store. */
struct sb_of {
	struct sbuf *sb;
	simtime_t *ring;
	uint32_t n;
};

static inline struct sb_of sb_of(struct mem *m, int cpu)
{
	return (struct sb_of){.sb = &m->sb[cpu], .ring = sb_ring(m, cpu),
			      .n = m->mc->store_buffer};
}

/* sb_push_in - sb_push() into buffer @sb, whose ring of @n entries is @ring. */
static inline void sb_push_in(struct sbuf *sb, simtime_t *ring, uint32_t n, simtime_t done)
{
	uint32_t tail = sb->head + sb->len; /* head < n, len <= n */

	/* TSO: a store commits no earlier than the stores before it. */
	if (done < sb->last)
		done = sb->last;
	sb->last = done;
	ring[tail >= n ? tail - n : tail] = done;
	sb->len++;
}

/* sb_push - a store whose RFO completes at @done enters the buffer; it commits in order. */
static inline void sb_push(struct mem *m, int cpu, simtime_t done)
{
	sb_push_in(&m->sb[cpu], sb_ring(m, cpu), m->mc->store_buffer, done);
}

#endif
