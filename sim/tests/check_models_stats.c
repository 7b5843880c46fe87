/*
 * check_models_stats.c - the 6.18 memcg statistics models (models/paths/6.18/memcg_stats.yaml
 * and rstat.yaml): the stats_updates batching, values propagating through a flush, and the
 * cost of memory.stat reads against the machine's CPU count.
 */
#include <glib.h>
#include <string.h>

#include "path/interp.h"
#include "layout/layout_lib.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testutil.h"

#define PERCPU_STRIDE PERCPU_UNIT
#define NR_ANON_MAPPED 14
#define SCENARIO "sim/tests/data/models-stats.yaml"

/* The value of MEMBER of object OBJ (node 0; CPU @cpu's instance when per-cpu) of entity
 * @ent, read from simulated memory. */
static int64_t peek(const struct scenario *sc, const struct run_result *r, const char *ent,
		    const char *obj, int cpu, const char *member)
{
	const struct world *w = r->world;
	int32_t e = tu_entity(r, ent);
	const struct kind *k = &r->prog->kinds[w->ents->kind[e]];
	struct c2c_err err = {0};
	struct lref ref;
	uint64_t addr;
	uint32_t o;

	for (o = 0; o < k->nr_obj && strcmp(k->obj[o].name, obj); o++)
		;
	ck_assert_msg(o < k->nr_obj, "no object %s", obj);
	ck_assert_msg(layout_find(sc->v[0].lib, k->obj[o].layout, member, &ref,
				  (struct c2c_mark){0}, &err), "%s", err.msg);
	addr = w->ents->base[w->ents->base_at[e] + o * (uint32_t)r->mc->numa_nodes] + ref.offset;
	if (k->obj[o].percpu)
		addr += (uint64_t)cpu * PERCPU_STRIDE;
	ck_assert_uint_le(ref.size, 8);
	{
		uint64_t v = mem_peek(r->mem, addr, (uint32_t)ref.size);
		unsigned shift = 64 - 8 * (unsigned)ref.size;

		return ref.size >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
	}
}

/* The value of MEMBER of global object @obj (node 0's; CPU @cpu's instance when per-cpu). */
static int64_t peek_global(const struct scenario *sc, const struct run_result *r,
			   const char *obj, int cpu, const char *member)
{
	const struct program *pr = r->prog;
	struct c2c_err err = {0};
	struct lref ref;
	uint64_t addr, v;
	uint32_t g;
	unsigned shift;

	for (g = 0; g < pr->nr_globals && strcmp(pr->globals[g].name, obj); g++)
		;
	ck_assert_msg(g < pr->nr_globals, "no global %s", obj);
	ck_assert_msg(layout_find(sc->v[0].lib, pr->globals[g].layout, member, &ref,
				  (struct c2c_mark){0}, &err), "%s", err.msg);
	addr = r->world->ents->global_base[g * (uint32_t)r->mc->numa_nodes] + ref.offset;
	if (pr->globals[g].percpu)
		addr += (uint64_t)cpu * PERCPU_STRIDE;
	ck_assert_uint_le(ref.size, 8);
	v = mem_peek(r->mem, addr, (uint32_t)ref.size);
	shift = 64 - 8 * (unsigned)ref.size;
	return ref.size >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

/* Mean latency (ps) of path @name over its calls. */
static uint64_t mean_ps(const struct run_result *r, const char *name)
{
	int p = program_find(r->prog, name);
	const struct pathstat *ps;

	ck_assert_int_ge(p, 0);
	ps = &r->world->pstats[p];
	ck_assert_uint_gt(ps->lat.nr, 0);
	return ps->lat.total / ps->lat.nr;
}

/* One CPU, 200 updates of +1 and no flush: the per-cpu counter folds into the shared one
 * every MEMCG_CHARGE_BATCH (64) updates, at every level. */
START_TEST(stats_updates_batching)
{
	const char *sets[] = {"actors[0].cpus=0", "end.iterations=200",
			      "actors[1].loop=[{op: delay, ns: 1000}]", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(SCENARIO, sets, 0, &sc);

	ck_assert_uint_eq(r->actors[0].iterations, 200);
	ck_assert_int_eq(peek(sc, r, "child", "vmstats", 0, "stats_updates"), 192);
	ck_assert_int_eq(peek(sc, r, "child", "statc", 0, "stats_updates"), 8);
	ck_assert_int_eq(peek(sc, r, "root", "vmstats", 0, "stats_updates"), 192);
	ck_assert_int_eq(peek(sc, r, "root", "statc", 0, "stats_updates"), 8);
	/* the per-cpu stat itself, unflushed */
	ck_assert_int_eq(peek(sc, r, "child", "statc", 0, "state[14]"), 200);
	ck_assert_int_eq(peek(sc, r, "child", "vmstats", 0, "state[14]"), 0);
	/* node vmstat: the per-cpu delta folds into the atomics when it passes 125 */
	ck_assert_int_eq(peek_global(sc, r, "nodestat_pcpu", 0, "vm_node_stat_diff[14]"), 74);
	ck_assert_int_eq(peek_global(sc, r, "nodestat", 0, "vm_stat[14]"), 126);
	ck_assert_int_eq(peek_global(sc, r, "vm_node_stat", 0, "stat[14]"), 126);
	/* queued once on CPU 0's rstat list, never again */
	ck_assert_int_ne(peek(sc, r, "child", "rstatc", 0, "lnode.next"), 0);
	ck_assert_uint_eq(r->world->pstats[program_find(r->prog, "css_rstat_updated")].calls,
			  200);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* On a 4-CPU machine the flush threshold is 64 * 4 = 256: once the shared counter passes it,
 * updates stop counting (memcg_vmstats_needs_flush() at the top of each level). */
START_TEST(stats_updates_stop_above_threshold)
{
	const char *sets[] = {"machine.topology.sockets=1", "machine.topology.cores_per_socket=4",
			      "machine.topology.smt=1", "machine.topology.numa_nodes=1",
			      "actors[0].cpus=0", "end.iterations=400",
			      "actors[1].cpus=3", "actors[1].loop=[{op: delay, ns: 1000}]", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(SCENARIO, sets, 0, &sc);

	ck_assert_uint_eq(r->actors[0].iterations, 400);
	/* batches at updates 64, 128, 192, 256, 320; then 320 > 256 and counting stops */
	ck_assert_int_eq(peek(sc, r, "child", "vmstats", 0, "stats_updates"), 320);
	ck_assert_int_eq(peek(sc, r, "child", "statc", 0, "stats_updates"), 0);
	ck_assert_int_eq(peek(sc, r, "root", "vmstats", 0, "stats_updates"), 320);
	ck_assert_int_eq(peek(sc, r, "child", "statc", 0, "state[14]"), 400);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* v2 readers with the gate open: memory.stat flushes and then reads exact values. */
START_TEST(v2_gate_flushes)
{
	const char *sets[] = {"machine.topology.sockets=1", "machine.topology.cores_per_socket=4",
			      "machine.topology.smt=1", "machine.topology.numa_nodes=1",
			      "actors[0].cpus=0-2", "actors[0].loop[1].ns=10", "end.iterations=300",
			      "actors[1].cpus=3",
			      "actors[1].loop=[{op: delay, ns: 5000}, {call: memory_stat_v2, args: [child]}]",
			      NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(SCENARIO, sets, 0, &sc);
	int64_t flushed = peek(sc, r, "child", "vmstats", 0, "state[14]");
	int64_t pending = 0;

	ck_assert_uint_gt(r->world->pstats[program_find(r->prog, "css_rstat_flush")].calls, 0);
	ck_assert_uint_gt(r->world->pstats[program_find(r->prog, "memory_stat_v2")].calls,
			  r->world->pstats[program_find(r->prog, "css_rstat_flush")].calls);
	/* flushed + what the CPUs added since their last flush = everything */
	for (int c = 0; c < 3; c++)
		pending += peek(sc, r, "child", "statc", c, "state[14]") -
			   peek(sc, r, "child", "statc", c, "state_prev[14]");
	ck_assert_int_gt(flushed, 0);
	ck_assert_int_eq(flushed + pending, 900);
	/* a child's flush leaves the root's share pending (the root is not flushed) */
	ck_assert_int_eq(peek(sc, r, "root", "vmstats", 0, "state_pending[14]"), flushed);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* Four CPUs update the child; the root's periodic forced flush runs on another CPU, the last
 * ones after the updates: every level holds the exact total. */
START_TEST(flush_propagates_values)
{
	const char *sets[] = {"end.iterations=150", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(SCENARIO, sets, 0, &sc);
	uint64_t updates = r->actors[0].iterations;
	int64_t sum = 0;

	ck_assert_uint_eq(updates, 4 * 150);
	for (int c = 0; c < 4; c++)
		sum += peek(sc, r, "child", "statc", c, "state[14]");
	ck_assert_int_eq(sum, (int64_t)updates);
	ck_assert_int_eq(peek(sc, r, "child", "vmstats", 0, "state[14]"), (int64_t)updates);
	ck_assert_int_eq(peek(sc, r, "child", "vmstats", 0, "state_local[14]"), (int64_t)updates);
	ck_assert_int_eq(peek(sc, r, "root", "vmstats", 0, "state[14]"), (int64_t)updates);
	ck_assert_int_eq(peek(sc, r, "root", "vmstats", 0, "state_local[14]"), 0);
	ck_assert_int_eq(peek(sc, r, "root", "vmstats", 0, "state_pending[14]"), 0);
	ck_assert_int_eq(peek(sc, r, "child", "lstats", 0, "state[14]"), (int64_t)updates);
	ck_assert_int_eq(peek(sc, r, "root", "lstats", 0, "state[14]"), (int64_t)updates);
	/* flushed: the counters are reset and nothing stays queued */
	ck_assert_int_eq(peek(sc, r, "child", "vmstats", 0, "stats_updates"), 0);
	for (int c = 0; c < 4; c++) {
		ck_assert_int_eq(peek(sc, r, "child", "statc", c, "stats_updates"), 0);
		ck_assert_int_eq(peek(sc, r, "child", "rstatc", c, "lnode.next"), 0);
		ck_assert_int_eq(peek(sc, r, "child", "rstatc", c, "updated_next"), 0);
	}
	ck_assert_uint_gt(r->world->nr_locks, 0);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* Mean cost of @path(root) read from CPU 0 on a one-socket machine of @cores cores (no SMT),
 * with every other CPU updating the child about once per read (so the reader finds their
 * lines modified) and no periodic flush; too few updates for the v2 gate to flush. */
static uint64_t read_cost(const char *path, int cores)
{
	g_autofree char *call = g_strdup_printf("actors[1].loop=[{call: %s, args: [root]}, "
						"{op: delay, ns: 1000}]", path);
	g_autofree char *cps = g_strdup_printf("machine.topology.cores_per_socket=%d", cores);
	g_autofree char *upd = g_strdup_printf("actors[0].cpus=1-%d", cores - 1);
	const char *sets[] = {cps, "machine.topology.sockets=1", "machine.topology.smt=1",
			      "machine.topology.numa_nodes=1", upd,
			      "actors[0].loop[1].ns=20000", "actors[1].cpus=0", "end.iterations=40",
			      call, NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(SCENARIO, sets, 0, &sc);
	uint64_t m = mean_ps(r, path);

	run_result_free(r);
	scenario_free(sc);
	return m;
}

/* The pre-seed-000 v1 local read sums every CPU's copy: its cost grows with the CPU count,
 * linearly within a cache regime (4 -> 8 CPUs: the copies stay in the reader's L1/L2 between
 * reads; 24 -> 48 CPUs: more copies than L2 ways, since per-cpu units are 256 KiB apart and
 * every CPU's copy of a member maps to the same set, so each load is an LLC hit), with a cliff
 * between the two.  The v2 read after the threshold-gated flush reads the shared arrays only. */
START_TEST(stat_read_cost_vs_cpus)
{
	uint64_t v1_4 = read_cost("memory_stat_v1_local", 4);
	uint64_t v1_8 = read_cost("memory_stat_v1_local", 8);
	uint64_t v1_24 = read_cost("memory_stat_v1_local", 24);
	uint64_t v1_48 = read_cost("memory_stat_v1_local", 48);
	uint64_t v2_4 = read_cost("memory_stat_v2", 4);
	uint64_t v2_48 = read_cost("memory_stat_v2", 48);

	ck_assert_msg(v1_8 * 10 > v1_4 * 16 && v1_8 * 10 < v1_4 * 25,
		      "v1 local: 4 CPUs %" G_GUINT64_FORMAT " ps, 8 CPUs %" G_GUINT64_FORMAT
		      " ps (expected ~2x)", v1_4, v1_8);
	ck_assert_msg(v1_48 * 10 > v1_24 * 16 && v1_48 * 10 < v1_24 * 25,
		      "v1 local: 24 CPUs %" G_GUINT64_FORMAT " ps, 48 CPUs %" G_GUINT64_FORMAT
		      " ps (expected ~2x)", v1_24, v1_48);
	ck_assert_msg(v1_24 > v1_8 * 3, "v1 local: 8 CPUs %" G_GUINT64_FORMAT " ps, 24 CPUs %"
		      G_GUINT64_FORMAT " ps (expected at least 3x)", v1_8, v1_24);
	ck_assert_msg(v2_48 * 10 < v2_4 * 15, "v2: 4 CPUs %" G_GUINT64_FORMAT " ps, 48 CPUs %"
		      G_GUINT64_FORMAT " ps (expected < 1.5x)", v2_4, v2_48);
	ck_assert_msg(v2_48 * 20 < v1_48, "at 48 CPUs v2 %" G_GUINT64_FORMAT " ps, v1 local %"
		      G_GUINT64_FORMAT " ps", v2_48, v1_48);
}
END_TEST

static Suite *models_stats_suite(void)
{
	Suite *s = suite_create("models_stats");
	TCase *tc = tcase_create("models_stats");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, stats_updates_batching);
	tcase_add_test(tc, stats_updates_stop_above_threshold);
	tcase_add_test(tc, flush_propagates_values);
	tcase_add_test(tc, v2_gate_flushes);
	tcase_add_test(tc, stat_read_cost_vs_cpus);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(models_stats_suite());
}
