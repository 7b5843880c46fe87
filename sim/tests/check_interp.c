/*
 * check_interp.c - kernel path models running: locks (ticket vs queued), values, counters,
 * per-path costs, loops and calls.
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "path/interp.h"
#include "path/interp_int.h"
#include "report/report.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testutil.h"

/* Average hold time (ps) of the res_counter lock with @cpus CPUs charging under @kind. */
static uint64_t hold_avg(const char *kind, const char *cpus)
{
	g_autofree char *k = g_strdup_printf("lock_kind=%s", kind);
	g_autofree char *c = g_strdup_printf("actors[0].cpus=%s", cpus);
	const char *sets[] = {k, c, "end.time_us=40", "machine=skylake-sp-2s", "actors[1].cpus=39",
			      NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/res-counter.yaml", sets, 0, &sc);
	const struct lockstat *ls;
	uint64_t avg;

	ck_assert_uint_eq(r->world->nr_locks, 1);
	ls = &r->world->locks[0];
	ck_assert_uint_gt(ls->acquisitions, 10);
	avg = ls->hold.total / ls->hold.nr;
	run_result_free(r);
	scenario_free(sc);
	return avg;
}

/* res_counter keeps its counters in the lock's line: with a ticket lock every spinner re-reads
 * that line after each store in the critical section, so the holder's stores must take the
 * line back from them.  A queued lock's waiters spin on their own nodes, but each arrival
 * still swaps the tail in the lock word, in the same line: the holder's RFOs queue behind those
 * swaps, and its loads of the line wait for its RFO's data (a fill-buffer hit), so the hold
 * grows with the waiters under both lock kinds.  (Before in-flight fills were modelled, the
 * holder's loads were served before the data existed and the queued hold even shrank.) */
START_TEST(interp_lock_hold_grows_with_ticket_waiters)
{
	uint64_t t2 = hold_avg("ticket", "0-1"), t16 = hold_avg("ticket", "0-15");
	uint64_t q2 = hold_avg("queued", "0-1"), q16 = hold_avg("queued", "0-15");

	/* CPUs 0-15 share one socket of skylake-sp-2s: the growth is the spinners', not NUMA's. */
	ck_assert_msg(t16 > t2 * 2, "ticket hold: 2 CPUs %" G_GUINT64_FORMAT " ps, 16 CPUs %"
		      G_GUINT64_FORMAT " ps", t2, t16);
	ck_assert_msg(q16 > q2 * 2, "queued hold: 2 CPUs %" G_GUINT64_FORMAT " ps, 16 CPUs %"
		      G_GUINT64_FORMAT " ps", q2, q16);
}
END_TEST

/* A queued lock hands over through the waiters' per-cpu MCS nodes: they are named objects
 * (qnodes@CPU), and the hand-offs show as HITMs on them. */
START_TEST(interp_qnodes_are_named)
{
	const char *sets[] = {"lock_kind=queued", "actors[0].cpus=0-15", "end.time_us=40",
			      "machine=skylake-sp-2s", "actors[1].cpus=39", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/res-counter.yaml", sets, 0, &sc);
	uint64_t hitm = 0;

	for (int c = 0; c < 16; c++) {
		uint64_t a = PERCPU_BASE + PERCPU_QNODE + (uint64_t)c * PERCPU_UNIT;
		uint32_t o = objmap_find(r->objs, a), l = mem_line(r->mem, a);
		g_autofree char *want = g_strdup_printf("qnodes@%d", c);

		g_autofree char *name = objmap_name(r->objs, o);
		struct obj ob;

		ck_assert_uint_ne(o, OBJ_NONE);
		ck_assert(objmap_get(r->objs, o, &ob));
		ck_assert_str_eq(name, want);
		ck_assert_str_eq(ob.type, "mcs_spinlock");
		if (l != DIR_NONE)
			hitm += (stats_line(r->mem, l, LS_HITM_LCL) + stats_line(r->mem, l, LS_HITM_RMT)) + stats_line(r->mem, l, LS_ST_RFO_HITM);
	}
	ck_assert_uint_gt(hitm, 0);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

START_TEST(interp_values_and_counters)
{
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/res-counter.yaml", NULL, 0, &sc);
	const struct world *w = r->world;
	uint64_t charges = r->actors[0].iterations;
	uint64_t usage = mem_peek(r->mem, w->ents->base[w->ents->base_at[0]], 8);

	/* Every completed charge added a page under the lock: no lost update. */
	ck_assert_uint_ge(usage, charges * 4096);
	ck_assert_uint_le(usage, (charges + 8) * 4096);
	ck_assert_uint_gt(w->cstats[0].reads, 0);
	ck_assert_uint_le(w->cstats[0].max_abs_error, 8 * 4096);
	ck_assert_uint_gt(w->pstats[program_find(r->prog, "charge")].calls, 0);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* A typed local turns an integer id into an entity: charging through it reaches the same
 * counter as charging the entity directly. */
START_TEST(interp_typed_local_entity)
{
	const char *sets[] = {"actors[0].loop[0].call=charge_by_id", "actors[0].loop[0].args=[0]",
			      NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/res-counter.yaml", sets, 0, &sc);
	const struct world *w = r->world;
	uint64_t usage = mem_peek(r->mem, w->ents->base[w->ents->base_at[0]], 8);

	ck_assert_uint_gt(r->actors[0].iterations, 0);
	ck_assert_uint_ge(usage, r->actors[0].iterations * 4096);
	ck_assert_uint_eq(w->pstats[program_find(r->prog, "charge")].calls,
			  w->pstats[program_find(r->prog, "charge_by_id")].calls);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* A call's locals but its arguments start at 0 (push_frame's zeroing, in blocks): the
 * second call of fresh_local sets none of them and must not see the first call's. */
START_TEST(interp_call_locals_start_at_zero)
{
	const char *sets[] = {"actors[0].loop=[{call: fresh_locals, args: [root]}]",
			      "actors[1].loop=[{op: delay, ns: 1000}]", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/res-counter.yaml", sets, 0, &sc);
	const struct world *w = r->world;

	ck_assert_uint_gt(w->pstats[program_find(r->prog, "fresh_local")].calls, 2);
	ck_assert_uint_eq(mem_peek(r->mem, w->ents->base[w->ents->base_at[0]], 8), 21 * 100 + 0);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* Mean latency (ps) of path @name in scenario @file run with the overrides @sets; its number
 * of calls goes to @calls. */
static uint64_t path_mean(const char *file, const char *const *sets, const char *name,
			  uint64_t *calls)
{
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(file, sets, 0, &sc);
	const struct pathstat *ps = &r->world->pstats[program_find(r->prog, name)];
	uint64_t mean;

	*calls = ps->calls;
	ck_assert_uint_gt(ps->lat.nr, 0);
	mean = ps->lat.total / ps->lat.nr;
	run_result_free(r);
	scenario_free(sc);
	return mean;
}

/* Mean latency (ps) of path @name in scenario @file with machine.mlp = @mlp. */
static uint64_t mlp_mean_in(const char *file, const char *name, int mlp)
{
	g_autofree char *m = g_strdup_printf("machine.mlp=%d", mlp);
	const char *sets[] = {m, NULL};
	uint64_t calls, mean = path_mean(file, sets, name, &calls);

	ck_assert_uint_gt(calls, 3);
	return mean;
}

static uint64_t mlp_mean(const char *name, int mlp)
{
	return mlp_mean_in("sim/tests/data/mlp.yaml", name, mlp);
}

/* Memory-level parallelism: with 10 loads in flight the independent loads of a per-cpu sum
 * overlap; a pointer chase, whose next address is the loaded value, cannot. */
START_TEST(interp_mlp_overlaps_independent_loads_only)
{
	uint64_t sum1 = mlp_mean("sum", 1), sum10 = mlp_mean("sum", 10);
	uint64_t chase1 = mlp_mean("chase", 1), chase10 = mlp_mean("chase", 10);

	ck_assert_msg(sum10 * 4 < sum1, "sum: mlp 1 %" G_GUINT64_FORMAT " ps, mlp 10 %"
		      G_GUINT64_FORMAT " ps", sum1, sum10);
	ck_assert_msg(chase10 * 10 >= chase1 * 8, "chase: mlp 1 %" G_GUINT64_FORMAT " ps, mlp 10 %"
		      G_GUINT64_FORMAT " ps", chase1, chase10);
}
END_TEST

/* A return hands its value's readiness to the caller's local, also over a load still in
 * flight into it: a store of that local then waits for nothing (a returning frame whose own
 * locals are all there still hands its 0 on). */
START_TEST(interp_mlp_return_overwrites_pending_local)
{
	const char *over[] = {"machine.mlp=10", "actors[1].loop[2].call=overwritten", NULL};
	const char *load[] = {"machine.mlp=10", "actors[1].loop[2].call=loaded", NULL};
	uint64_t n, o = path_mean("sim/tests/data/mlp.yaml", over, "overwritten", &n);
	uint64_t l = path_mean("sim/tests/data/mlp.yaml", load, "loaded", &n);

	ck_assert_msg(o * 4 < l, "store of a returned value %" G_GUINT64_FORMAT " ps, of a "
		      "loaded one %" G_GUINT64_FORMAT " ps", o, l);
}
END_TEST

/* The loads in flight (it_load_slot) against a plain model of mlp slots, where a load
 * waits for the first of them to be done when every one is taken: far more loads than
 * ptask.inflight holds, so the run of them moves back to its start again and again. */
START_TEST(interp_load_slots_match_a_model)
{
	struct machine mc = {.mlp = 10, .cycle = 500};
	struct world w = {.mc = &mc};
	/* (pthread_init's copies of the machine's settings) */
	struct ptask t = {.w = &w, .mlp_slots = 10, .mlp = true, .cycle = mc.cycle};
	simtime_t model[MACHINE_MAX_MLP], now = 0;
	uint32_t n = 0, seed = 1;

	t.inflight_head = t.inflight_end = &t.inflight[1]; /* as pthread_init */
	for (int i = 0; i < 20 * INTERP_INFLIGHT; i++) {
		simtime_t done, next = now + mc.cycle;
		uint32_t keep = 0, first = 0;

		seed = seed * 1103515245u + 12345u;
		done = now + mc.cycle * (seed >> 16 & 7 ? seed >> 16 & 15 : 200 + (seed >> 20 & 63));
		for (uint32_t j = 0; j < n; j++)
			if (model[j] > now)
				model[keep++] = model[j];
		n = keep;
		for (uint32_t j = 1; j < n; j++)
			first = model[j] < model[first] ? j : first;
		if (n == mc.mlp) {
			next = model[first] > next ? model[first] : next;
			model[first] = model[--n];
		}
		model[n++] = done;
		ck_assert_uint_eq(it_load_slot(&t, now, done), next);
		ck_assert_uint_eq(t.inflight_end - t.inflight_head, n);
		now = next + mc.cycle * (seed >> 24 & 3);
	}
}
END_TEST

/* The fill buffers are the core's: with its SMT sibling running, CPU 0 keeps half of them
 * in flight, exactly as a core of mlp 5 on its own. */
START_TEST(interp_mlp_shared_by_smt_siblings)
{
	uint64_t shared = mlp_mean_in("sim/tests/data/mlp-smt.yaml", "sum", 10);

	ck_assert_uint_eq(shared, mlp_mean("sum", 5));
	ck_assert_uint_gt(shared, mlp_mean("sum", 10));
}
END_TEST

static uint64_t smt_iterations(const char *cpus, const char *pct)
{
	const char *sets[] = {cpus, pct, NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/smt.yaml", sets, 0, &sc);
	uint64_t it = r->actors[0].iterations;

	run_result_free(r);
	scenario_free(sc);
	return it;
}

/* machine smt_compute_pct: compute on a core whose SMT threads both run takes longer; on
 * separate cores, or at the default 100, it does not. */
START_TEST(run_smt_compute_sharing)
{
	uint64_t sib = smt_iterations("actors[0].cpus=0,40", "machine.smt_compute_pct=200");
	uint64_t two = smt_iterations("actors[0].cpus=0,1", "machine.smt_compute_pct=200");
	uint64_t dflt = smt_iterations("actors[0].cpus=0,40", "machine.smt_compute_pct=100");

	ck_assert_uint_eq(two, 200);  /* 2 threads x 10 us / 100 ns */
	ck_assert_uint_eq(dflt, 200);
	ck_assert_uint_eq(sib, 100);  /* each delay takes 200 ns */
}
END_TEST

/* Mean latency (ps) of path @name in sim/tests/data/irq.yaml with the machine overrides @sets. */
static uint64_t irq_mean(const char *name, const char *const *sets)
{
	uint64_t calls, mean = path_mean("sim/tests/data/irq.yaml", sets, name, &calls);

	ck_assert_uint_eq(calls, 20);
	return mean;
}

/* machine latency.irq_off_cycles / irq_on_cycles set what irq_off and irq_on cost; without
 * them each is 2 cycles (skylake-sp-2s: 417 ps a cycle). */
START_TEST(interp_irq_cost_is_a_machine_parameter)
{
	static const char *const set[] = {"machine.latency.irq_off_cycles=10",
					  "machine.latency.irq_on_cycles=6", NULL};

	ck_assert_uint_eq(irq_mean("irq_pair", NULL), 4 * 417);
	ck_assert_uint_eq(irq_mean("irq_off_only", NULL), 2 * 417);
	ck_assert_uint_eq(irq_mean("irq_pair", set), 16 * 417);
	ck_assert_uint_eq(irq_mean("irq_off_only", set), 10 * 417);
}
END_TEST

/* The rows of site @site in @r's Pareto data; @callers gets each row's caller name ("-" for a
 * top-level call) and @loads its loads, in row order.  Return: how many rows. */
static uint32_t site_rows(const struct run_result *r, const char *site, const char **callers,
			  uint64_t *loads, uint32_t max)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < stats_nr_orows(r->mem); i++) {
		struct orow row;
		const struct orow *o = &row;

		stats_orow(r->mem, i, &row);

		if (strcmp(r->site_names[o->site], site))
			continue;
		ck_assert_uint_lt(n, max);
		callers[n] = o->caller == DIR_NONE ? "-" : r->site_names[o->caller];
		loads[n++] = o->c[OS_LOADS];
	}
	return n;
}

/* perf c2c -g: one function called from two paths gives one Pareto row per caller in the data
 * (offsets.csv), and the report's Pareto table sums them into one row per code site. */
START_TEST(interp_pareto_rows_keep_callers_apart)
{
	struct scenario *sc = tu_load_scenario("sim/tests/data/callers.yaml", NULL);
	struct run_result *r;
	const char *callers[4];
	uint64_t loads[4], fault, freed;
	uint32_t n;
	uint64_t by[3] = {0};
	char *text = NULL, *at;
	size_t len = 0, shown = 0;
	FILE *f;

	/* Every call's row, those before the line was shared too (mstats.h). */
	sc->track_all_lines = true;
	r = tu_run_variant(sc, 0);
	fault = r->actors[0].iterations;
	freed = r->actors[1].iterations;
	n = site_rows(r, "bump:0 rmw shared.count[0]", callers, loads, 4);
	ck_assert_uint_eq(n, 3);
	for (uint32_t i = 0; i < n; i++) {
		int k = !strcmp(callers[i], "from_fault:0 call bump") ? 0
			: !strcmp(callers[i], "from_free:1 call bump") ? 1
			: !strcmp(callers[i], "-") ? 2 : -1;

		ck_assert_msg(k >= 0, "unexpected caller '%s'", callers[i]);
		by[k] += loads[i];
	}
	ck_assert_uint_eq(fault, 80);
	ck_assert_uint_eq(by[0], fault);
	ck_assert_uint_eq(by[1], freed);
	ck_assert_uint_eq(by[2], freed);
	f = open_memstream(&text, &len);
	report_print(f, sc, &sc->v[0], r);
	fclose(f);
	for (at = text; (at = strstr(at, "bump:0 rmw")); at++)
		shown++;
	ck_assert_uint_eq(shown, 1);
	free(text);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* lines_touched is the distinct lines of each top-level call: sum_twice reads one word of 39
 * CPUs' instances twice each, 78 loads of 39 lines; more lines than the line set's first
 * slots hold half full, so the set grows inside a call. */
START_TEST(interp_lines_touched_are_distinct_lines)
{
	const char *sets[] = {"actors[1].loop[1].call=sum_twice", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/mlp.yaml", sets, 0, &sc);
	const struct pathstat *ps = &r->world->pstats[program_find(r->prog, "sum_twice")];

	ck_assert_uint_gt(ps->top_calls, 1);
	ck_assert_uint_eq(ps->lines, 39 * ps->top_calls);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* A call that touches more lines than the line set holds (LINE_SET_MAX / 2: a walk over every
 * memcg) moves to stamps per line; each line still counts once per call, in that call and
 * the next. */
START_TEST(interp_lines_many_in_one_call)
{
	enum { N = 100000 };
	struct machine mc;
	struct world w = {0};
	struct ptask t = {0};

	tu_machine(&mc, "skylake-sp-2s", NULL);
	w.mem = mem_new(&mc, NULL, false);
	t.w = &w;
	it_lines_init(&t);
	for (int call = 0; call < 2; call++) {
		it_lines_new_call(&t);
		for (int pass = 0; pass < 2; pass++)
			for (uint32_t i = 0; i < N; i++) /* a permutation of 0..N-1 */
				ck_assert(it_line_first(&t, (uint32_t)((uint64_t)i * 7 % N)) == !pass);
		ck_assert_uint_eq(t.call_lines, N);
	}
	ck_assert_ptr_null(t.lines.slot);
	it_lines_release(&t);
	mem_free(w.mem);
	machine_release(&mc);
}
END_TEST

static Suite *interp_suite(void)
{
	Suite *s = suite_create("interp");
	TCase *tc = tcase_create("interp_run");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, interp_lock_hold_grows_with_ticket_waiters);
	tcase_add_test(tc, interp_qnodes_are_named);
	tcase_add_test(tc, interp_values_and_counters);
	tcase_add_test(tc, interp_typed_local_entity);
	tcase_add_test(tc, interp_call_locals_start_at_zero);
	tcase_add_test(tc, interp_mlp_overlaps_independent_loads_only);
	tcase_add_test(tc, interp_mlp_return_overwrites_pending_local);
	tcase_add_test(tc, interp_mlp_shared_by_smt_siblings);
	tcase_add_test(tc, interp_load_slots_match_a_model);
	tcase_add_test(tc, run_smt_compute_sharing);
	tcase_add_test(tc, interp_irq_cost_is_a_machine_parameter);
	tcase_add_test(tc, interp_pareto_rows_keep_callers_apart);
	tcase_add_test(tc, interp_lines_touched_are_distinct_lines);
	tcase_add_test(tc, interp_lines_many_in_one_call);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(interp_suite());
}
