/*
 * sbuf.c - the store buffer of each CPU: a ring of commit times, drained in order (TSO).
 *
 * A store takes an entry when it issues (stalling while the buffer is full), its RFO is issued
 * at once, and it commits no earlier than the stores before it.  A LOCK-prefixed RMW waits
 * for the buffer to drain (mem_sb_drained).
 */
#include "mem/mem_int.h"

/* sb_slot and sb_push, on every store's path, are inline in sbuf.h. */

simtime_t mem_sb_drained(const struct mem *m, int cpu, simtime_t now)
{
	const struct sbuf *sb = &m->sb[cpu];

	return sb->len && sb->last > now ? sb->last : now;
}
