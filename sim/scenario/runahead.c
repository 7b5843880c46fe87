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
	bool buddy = mc->pf.adjacent_line && gshift == 6; /* mem/prefetch.c's pf_enabled */
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
