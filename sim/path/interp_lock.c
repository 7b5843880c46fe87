/* interp_lock.c - spinlocks (ticket, queued/MCS) and lockstat; see interp.h for the model. */
#include <glib.h>
#include <string.h>

#include "path/interp_int.h"

/* ------------------------------------------------------------------ lockstat */

/* The lockstat entry of the lock at @addr; entries stay in first-use order (reports walk
 * them in that order), found by a linear probe over a small open-addressing index. */
static struct lockstat *lock_get(struct world *w, uint64_t addr)
{
	uint32_t mask = w->cap_locks * 2 - 1, s;

	for (s = w->cap_locks ? (uint32_t)((addr >> 2) * 0x9e3779b1u) & mask : 0;
	     w->cap_locks && w->lock_slot[s] != UINT32_MAX; s = (s + 1) & mask)
		if (w->locks[w->lock_slot[s]].addr == addr)
			return &w->locks[w->lock_slot[s]];
	if (w->nr_locks == w->cap_locks) {
		w->cap_locks = w->cap_locks ? 2 * w->cap_locks : 16;
		w->locks = g_renew(struct lockstat, w->locks, w->cap_locks);
		g_free(w->lock_slot);
		w->lock_slot = g_new(uint32_t, w->cap_locks * 2);
		memset(w->lock_slot, 0xff, sizeof(uint32_t) * w->cap_locks * 2);
		mask = w->cap_locks * 2 - 1;
		for (uint32_t i = 0; i < w->nr_locks; i++) {
			for (s = (uint32_t)((w->locks[i].addr >> 2) * 0x9e3779b1u) & mask;
			     w->lock_slot[s] != UINT32_MAX; s = (s + 1) & mask)
				;
			w->lock_slot[s] = i;
		}
		for (s = (uint32_t)((addr >> 2) * 0x9e3779b1u) & mask; w->lock_slot[s] != UINT32_MAX;
		     s = (s + 1) & mask)
			;
	}
	w->lock_slot[s] = w->nr_locks;
	memset(&w->locks[w->nr_locks], 0, sizeof(struct lockstat));
	w->locks[w->nr_locks].addr = addr;
	w->locks[w->nr_locks].last_cpu = -1;
	w->locks[w->nr_locks].holder = -1;
	return &w->locks[w->nr_locks++];
}

static void acquired(struct lockstat *ls, struct ptask *t, simtime_t when, bool contended)
{
	ls->acquisitions++;
	if (ls->last_cpu >= 0 && ls->last_cpu != t->cpu) {
		ls->acq_bounces++;
		ls->con_bounces += contended;
	}
	if (contended) {
		ls->contentions++;
		it_sample(&ls->wait, when - t->lock_req);
	}
	ls->acquired_at = when;
	ls->holder = t->cpu;
	ls->last_cpu = t->cpu;
	t->lock_phase = 0;
}

static void released(struct lockstat *ls, simtime_t when)
{
	it_sample(&ls->hold, when > ls->acquired_at ? when - ls->acquired_at : 0);
	ls->holder = -1;
}

/* The lock word's width: 4 bytes, or fewer for a smaller lock member. */
static uint32_t lock_bytes(const struct pinsn *in)
{
	return in->addr.size < 4 ? in->addr.size : 4;
}

/* trylock: one locked RMW on the lock word; @free says whether it finds the lock free, and
 * then the word becomes @taken.  The result goes to the instruction's `into`. */
static simtime_t try_take(struct ptask *t, const struct pinsn *in, uint64_t addr,
			  struct lockstat *ls, simtime_t now, bool free, uint64_t taken)
{
	simtime_t next;

	t->lock_req = now;
	if (free)
		mem_poke(t->w->mem, addr, lock_bytes(in), taken);
	next = it_access(t, addr, lock_bytes(in), MEM_LOCKED_RMW, in->site, now);
	if (free)
		acquired(ls, t, next, false);
	if (in->dst >= 0)
		t->top->locals[in->dst] = free;
	return next;
}

/* A waiter woken early re-reads only once its own previous access is done. */
static simtime_t ready(struct ptask *t, simtime_t now)
{
	return now > t->lock_ready ? now : t->lock_ready;
}

/* ------------------------------------------------------------------ ticket */

static simtime_t ticket_lock(struct ptask *t, const struct pinsn *in, uint64_t addr,
			     struct lockstat *ls, simtime_t now)
{
	struct mem *m = t->w->mem;
	uint64_t word;
	simtime_t next;

	if (t->lock_phase == 0) {
		t->lock_req = now;
		word = mem_peek(m, addr, 4);
		t->ticket = (int64_t)(word >> 16);
		mem_poke(m, addr, 4, (word + 0x10000) & 0xffffffffu);
		next = it_access(t, addr, 4, MEM_LOCKED_RMW, in->site, now);
		if ((word & 0xffff) == (uint64_t)t->ticket) {
			acquired(ls, t, next, false);
			return next;
		}
		t->lock_phase = 1;
		t->lock_ready = next;
		it_park(t, addr);
		return INTERP_PARKED;
	}
	/* Woken: the lock word changed; spin once more by reading it. */
	next = it_access(t, addr, 4, MEM_LOAD, in->site, ready(t, now));
	if ((mem_peek(m, addr, 4) & 0xffff) == ((uint64_t)t->ticket & 0xffff)) {
		acquired(ls, t, next, true);
		return next;
	}
	t->lock_ready = next;
	it_park(t, addr);
	return INTERP_PARKED;
}

static simtime_t ticket_unlock(struct ptask *t, const struct pinsn *in, uint64_t addr,
			       struct lockstat *ls, simtime_t now)
{
	struct mem *m = t->w->mem;
	uint64_t word = mem_peek(m, addr, 4);

	released(ls, now);
	mem_poke(m, addr, 4, (word & 0xffff0000u) | ((word + 1) & 0xffff));
	return it_access(t, addr, 4, MEM_RMW, in->site, now);
}

static simtime_t ticket_trylock(struct ptask *t, const struct pinsn *in, uint64_t addr,
				struct lockstat *ls, simtime_t now)
{
	struct mem *m = t->w->mem;
	uint64_t word = mem_peek(m, addr, 4);
	bool free = (word & 0xffff) == (word >> 16);

	if (lock_bytes(in) < 4)
		return try_take(t, in, addr, ls, now, mem_peek(m, addr, lock_bytes(in)) == 0, 1);
	return try_take(t, in, addr, ls, now, free, (word + 0x10000) & 0xffffffffu);
}

/* ------------------------------------------------------------------ queued (qspinlock) */

/*
 * The lock word as qspinlock lays it out: locked byte (bits 0-7), pending (8-15, unused
 * here), tail (16-31: CPU + 1 of the last queued waiter).  Each CPU's MCS node: next (CPU + 1
 * of its successor) at +0, locked at +4.
 */
static uint64_t qnode(const struct world *w, int cpu)
{
	return w->qnode_base + (uint64_t)cpu * PERCPU_STRIDE;
}

/* Park until @addr's line changes, re-reading from when our own access completes. */
static simtime_t park_on(struct ptask *t, uint64_t addr, simtime_t ready_at, uint8_t phase)
{
	t->lock_phase = phase;
	t->lock_ready = ready_at;
	it_park(t, addr);
	return INTERP_PARKED;
}

/* Phase 6 of queued_lock, the queue head takes the lock: alone in the queue -> cmpxchg the
 * tail away, else set_locked and go on to phase 7. */
static simtime_t queued_take(struct ptask *t, const struct pinsn *in, uint64_t addr,
			     struct lockstat *ls, simtime_t now)
{
	struct mem *m = t->w->mem;
	uint64_t v = mem_peek(m, addr, 4);
	simtime_t next;

	if ((v >> 16) == (uint64_t)t->cpu + 1) {
		mem_poke(m, addr, 4, 1);
		next = it_access(t, addr, 4, MEM_LOCKED_RMW, in->site, now);
		acquired(ls, t, next, true);
		return next;
	}
	mem_poke(m, addr, 4, v | 1);
	next = it_access(t, addr, 1, MEM_STORE, in->site, now);
	t->lock_phase = 7;
	return next;
}

/* Phase 7 of queued_lock, hand the queue head over: wait for the successor to link, then
 * tell it. */
static simtime_t queued_handover(struct ptask *t, const struct pinsn *in, struct lockstat *ls,
				 simtime_t now)
{
	struct world *w = t->w;
	struct mem *m = w->mem;
	uint64_t me = qnode(w, t->cpu), v;
	simtime_t next;

	next = it_access(t, me, 4, MEM_LOAD, in->site, ready(t, now));
	v = mem_peek(m, me, 4);
	if (!v)
		return park_on(t, me, next, 7);
	mem_poke(m, qnode(w, (int)v - 1) + 4, 4, 1);
	/* lockstat's lock_acquired() runs when the slow path returns, after the hand-over. */
	next = it_access(t, qnode(w, (int)v - 1) + 4, 4, MEM_STORE, in->site, next);
	acquired(ls, t, next, true);
	return next;
}

static simtime_t queued_lock(struct ptask *t, const struct pinsn *in, uint64_t addr,
			     struct lockstat *ls, simtime_t now)
{
	struct world *w = t->w;
	struct mem *m = w->mem;
	uint64_t me = qnode(w, t->cpu), v;
	simtime_t next;

	switch (t->lock_phase) {
	case 0: /* fast path: cmpxchg(lock, 0, LOCKED) */
		t->lock_req = now;
		v = mem_peek(m, addr, 4);
		if (!v)
			mem_poke(m, addr, 4, 1);
		next = it_access(t, addr, 4, MEM_LOCKED_RMW, in->site, now);
		if (!v)
			acquired(ls, t, next, false);
		else
			t->lock_phase = 1;
		return next;
	case 1: /* queue: node->locked = 0, node->next = NULL */
		mem_poke(m, me, 8, 0);
		t->lock_phase = 2;
		return it_access(t, me, 8, MEM_STORE, in->site, now);
	case 2: /* xchg_tail */
		v = mem_peek(m, addr, 4);
		mem_poke(m, addr, 4, (v & 0xffff) | ((uint64_t)(t->cpu + 1) << 16));
		next = it_access(t, addr, 4, MEM_LOCKED_RMW, in->site, now);
		t->ticket = (int64_t)(v >> 16) - 1;
		t->lock_phase = t->ticket >= 0 ? 3 : 5;
		return next;
	case 3: /* WRITE_ONCE(prev->next, node), then wait for our turn at the head */
		mem_poke(m, qnode(w, (int)t->ticket), 4, (uint64_t)t->cpu + 1);
		next = it_access(t, qnode(w, (int)t->ticket), 4, MEM_STORE, in->site, now);
		return park_on(t, me, next, 4);
	case 4: /* arch_mcs_spin_lock_contended: spin on node->locked */
		next = it_access(t, me + 4, 4, MEM_LOAD, in->site, ready(t, now));
		if (!mem_peek(m, me + 4, 4))
			return park_on(t, me, next, 4);
		t->lock_phase = 5;
		return next;
	case 5: /* queue head: spin on the lock word until the locked byte clears */
		next = it_access(t, addr, 4, MEM_LOAD, in->site, ready(t, now));
		if (mem_peek(m, addr, 4) & 0xffff)
			return park_on(t, addr, next, 5);
		t->lock_phase = 6;
		return next;
	case 6:
		return queued_take(t, in, addr, ls, now);
	default:
		return queued_handover(t, in, ls, now);
	}
}

/* queued_spin_unlock: smp_store_release(&lock->locked, 0). */
static simtime_t queued_unlock(struct ptask *t, const struct pinsn *in, uint64_t addr,
			       struct lockstat *ls, simtime_t now)
{
	struct mem *m = t->w->mem;

	released(ls, now);
	mem_poke(m, addr, 4, mem_peek(m, addr, 4) & ~0xffull);
	return it_access(t, addr, 1, MEM_STORE, in->site, now);
}

static simtime_t queued_trylock(struct ptask *t, const struct pinsn *in, uint64_t addr,
				struct lockstat *ls, simtime_t now)
{
	/* A sub-word lock (local_trylock_t's byte) is a test-and-set of just its bytes. */
	return try_take(t, in, addr, ls, now, mem_peek(t->w->mem, addr, lock_bytes(in)) == 0, 1);
}

simtime_t it_lock(struct ptask *t, const struct pinsn *in, simtime_t now)
{
	uint64_t addr = t->lock_phase ? t->lock_addr : it_addr(t, &in->addr);
	struct lockstat *ls = lock_get(t->w, addr);
	bool ticket = t->w->lock_kind == LOCK_TICKET;

	t->lock_addr = addr;
	switch (in->op) {
	case P_LOCK:
		return ticket ? ticket_lock(t, in, addr, ls, now) : queued_lock(t, in, addr, ls, now);
	case P_UNLOCK:
		return ticket ? ticket_unlock(t, in, addr, ls, now)
			      : queued_unlock(t, in, addr, ls, now);
	default:
		return ticket ? ticket_trylock(t, in, addr, ls, now)
			      : queued_trylock(t, in, addr, ls, now);
	}
}
