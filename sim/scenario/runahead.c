/*
 * runahead.c - which threads of a variant may run ahead of the event queue (see runahead.h).
 *
 * A thread of raw operations touches a fixed set of lines: its operations' addresses, at its
 * CPU's instance, and the buddies the adjacent-line prefetcher may fetch for them.  When no
 * other core touches a line of its core's threads, nothing any thread of another core does
 * ever reads or writes what they read or write, and their steps commute with every event of
 * another core.  The threads of one core (SMT siblings) share its L1d and L2 and their
 * replacement order, so they run ahead together, in the order the queue gives them.
 */
#include "scenario/runahead.h"

#include <glib.h>
#include <string.h>

#include "scenario/scenario.h"

#define LINE_SHARED (-1)

/* Record that @core touches the line at @la in @owner (line -> core, or LINE_SHARED). */
static void touch(GHashTable *owner, uint64_t la, int core)
{
	gpointer key = GSIZE_TO_POINTER(la), v;

	if (!g_hash_table_lookup_extended(owner, key, NULL, &v))
		g_hash_table_insert(owner, key, GINT_TO_POINTER(core));
	else if (GPOINTER_TO_INT(v) != core)
		g_hash_table_insert(owner, key, GINT_TO_POINTER(LINE_SHARED));
}

/* Each line of every memory operation of @a on @cpu, and its buddy if @buddy: record it for
 * @core, or (@check) tell whether @core alone touches each.  Return: false for a path call. */
static bool each_line(const struct actor *a, int cpu, unsigned gshift, bool buddy,
		      GHashTable *owner, int core, bool check)
{
	for (uint32_t i = 0; i < a->nr_ops; i++) {
		const struct op *op = &a->ops[i];
		uint64_t addr = op->addr + (uint64_t)cpu * op->cpu_stride;
		uint64_t end = addr + (op->size ? op->size : 1) - 1;

		if (op->kind == OP_DELAY)
			continue;
		if (op->kind == OP_CALL)
			return false;
		for (uint64_t l = addr >> gshift; l <= end >> gshift; l++) {
			for (int b = 0; b <= (int)buddy; b++) {
				uint64_t la = (l ^ (uint64_t)b) << gshift;

				if (!check)
					touch(owner, la, core);
				else if (GPOINTER_TO_INT(g_hash_table_lookup(
						 owner, GSIZE_TO_POINTER(la))) != core)
					return false;
			}
		}
	}
	return true;
}

uint8_t *runahead_private(const struct variant *v, uint32_t nr_threads)
{
	const struct machine *mc = &v->mc;
	uint8_t *priv = g_new0(uint8_t, nr_threads ? nr_threads : 1), *core_ok;
	unsigned gshift = mc->pf.pair_granule ? 7 : 6;
	bool buddy = mc->pf.adjacent_line && gshift == 6; /* mem_pf_enabled (mem/mem_int.h) */
	GHashTable *owner;
	uint32_t n = 0;

	if (v->prog)
		return priv; /* path calls touch addresses they compute: no fixed sets */
	owner = g_hash_table_new(g_direct_hash, g_direct_equal);
	core_ok = g_new(uint8_t, mc->nr_cores);
	memset(core_ok, 1, mc->nr_cores);
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t a = 0; a < v->nr_actors; a++)
			for (uint32_t c = 0; c < v->actors[a].nr_cpus; c++) {
				int cpu = v->actors[a].cpus[c], core = machine_cpu_core(mc, cpu);

				if (!each_line(&v->actors[a], cpu, gshift, buddy, owner, core, pass))
					core_ok[core] = 0;
			}
	/* SMT threads share their core's caches: they run ahead together or not at all. */
	for (uint32_t a = 0; a < v->nr_actors; a++)
		for (uint32_t c = 0; c < v->actors[a].nr_cpus; c++, n++)
			priv[n] = core_ok[machine_cpu_core(mc, v->actors[a].cpus[c])];
	g_free(core_ok);
	g_hash_table_destroy(owner);
	return priv;
}

/* ------------------------------------------------------------------ ties */

struct ra_pending {
	GHashTable *by_time; /* simtime_t -> struct pend */
};

struct pend {
	simtime_t time;            /* the key */
	struct ra_thread *first;   /* linked by pend_next */
};

struct ra_pending *ra_pending_new(void)
{
	struct ra_pending *p = g_new0(struct ra_pending, 1);

	p->by_time = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
	return p;
}

void ra_pending_free(struct ra_pending *p)
{
	if (!p)
		return;
	g_hash_table_destroy(p->by_time);
	g_free(p);
}

void ra_pending_add(struct ra_pending *p, struct ra_thread *t, simtime_t time)
{
	struct pend *e = g_hash_table_lookup(p->by_time, &time);

	if (!e) {
		e = g_new0(struct pend, 1);
		e->time = time;
		g_hash_table_insert(p->by_time, &e->time, e);
	}
	t->pend_next = e->first;
	e->first = t;
	t->pending = true;
	t->pend_time = time;
}

void ra_pending_del(struct ra_pending *p, struct ra_thread *t)
{
	struct pend *e;
	struct ra_thread **l;

	if (!t->pending)
		return;
	t->pending = false;
	e = g_hash_table_lookup(p->by_time, &t->pend_time);
	for (l = &e->first; *l != t; l = &(*l)->pend_next)
		;
	*l = t->pend_next;
	if (!e->first)
		g_hash_table_remove(p->by_time, &t->pend_time);
}

/* The time of @t's @i-th latest step (0: the one running or last run), or RA_SETUP past its
 * first step, whose event was pushed before the run began. */
#define RA_SETUP UINT64_MAX
static simtime_t step_time(const struct ra_thread *t, uint32_t i)
{
	return i < t->nr_steps && i < RA_HISTORY ? t->hist[(t->nr_steps - 1 - i) % RA_HISTORY]
						  : RA_SETUP;
}

/* Does the queue put @x's step (being pushed) before @r's, both at one time, both pushed by
 * steps at one time?  True too when RA_HISTORY steps back do not tell. */
static bool goes_first(const struct ra_thread *x, const struct ra_thread *r)
{
	for (uint32_t i = 1; i < RA_HISTORY; i++) {
		simtime_t a = step_time(x, i), b = step_time(r, i);

		if (a == RA_SETUP || b == RA_SETUP) /* before the first event, in start order */
			return b != RA_SETUP || (a == RA_SETUP && x->idx < r->idx);
		if (a != b)
			return a < b;
	}
	return true;
}

bool ra_tie(const struct ra_pending *p, const struct ra_thread *x, simtime_t time,
	    simtime_t pusher)
{
	const struct pend *e;

	if ((x && x->settled) || !g_hash_table_size(p->by_time) ||
	    !(e = g_hash_table_lookup(p->by_time, &time)))
		return false;
	for (const struct ra_thread *r = e->first; r; r = r->pend_next)
		if (r->pusher == pusher && !r->settled &&
		    (!x || (r->core_seq != x->core_seq && goes_first(x, r))))
			return true;
	return false;
}
