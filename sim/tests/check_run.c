/* check_run.c - unit tests for run.c: end conditions, iteration and event counts, traces,
 * per-cpu targets, and determinism of whole runs. */
#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/run.h"
#include "scenario/runwatch.h"
#include "scenario/scenario.h"
#include "testutil.h"

/* ---- helpers ----------------------------------------------------------------------------- */

static struct scenario *load(const char *name, const struct override *ov, uint32_t nr_ov,
			     bool seed_set, uint64_t seed)
{
	char *rel = g_strdup_printf("sim/tests/data/%s", name);
	char *path = tu_src_path(rel);
	struct c2c_err err = {0};
	struct scenario *sc = scenario_load(path, ov, nr_ov, seed_set, seed, &err);

	ck_assert_msg(sc != NULL, "%s", err.msg);
	g_free(path);
	g_free(rel);
	return sc;
}

/* Run variant @v with the invariant checks on; fails the test on a violation. */
static struct run_result *run(const struct scenario *sc, uint32_t v)
{
	struct c2c_err err = {0};
	struct run_result *r = run_variant(sc, v, true, &err);

	ck_assert_msg(r != NULL, "%s", err.msg);
	ck_assert(!err.set);
	ck_assert(!r->mem->failed);
	return r;
}

static uint64_t ops_per_iteration(const struct actor *a, bool accesses_only)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < a->nr_ops; i++)
		n += !accesses_only || a->ops[i].kind != OP_DELAY;
	return n;
}

/* Two results are the same run: same time, events, iterations, lines and every counter. */
static bool same_run(const struct run_result *a, const struct run_result *b)
{
	const struct mem *ma = a->mem, *mb = b->mem;
	uint32_t n = stats_nr_lines(ma);

	if (a->sim_time != b->sim_time || a->events != b->events || n != stats_nr_lines(mb) ||
	    stats_accesses(ma) != stats_accesses(mb) || stats_nr_orows(ma) != stats_nr_orows(mb))
		return false;
	for (uint32_t i = 0; i < a->nr_actors; i++)
		if (a->actors[i].iterations != b->actors[i].iterations)
			return false;
	for (uint32_t i = 0; i < n; i++) {
		struct line_stats la, lb;

		stats_line_all(ma, i, &la);
		stats_line_all(mb, i, &lb);
		if (stats_line_addr(ma, i) != stats_line_addr(mb, i) || memcmp(&la, &lb, sizeof(la)))
			return false;
	}
	for (uint32_t i = 0; i < stats_nr_orows(ma); i++) {
		struct orow ra, rb;

		stats_orow(ma, i, &ra);
		stats_orow(mb, i, &rb);
		if (memcmp(&ra, &rb, sizeof(ra)))
			return false;
	}
	return true;
}

/* ---- run_variant ------------------------------------------------------------------------- */

/* end: {iterations: 50}: every thread completes exactly 50 iterations, and every operation
 * is one event. */
START_TEST(run_variant_end_iterations)
{
	struct scenario *sc = load("unit-run.yaml", NULL, 0, false, 0);
	const struct variant *v = &sc->v[0];
	struct run_result *r = run(sc, 0);
	uint64_t events = 0, accesses = 0;

	ck_assert_str_eq(r->variant, "default");
	ck_assert_ptr_eq(r->mc, &v->mc);
	ck_assert_ptr_eq(r->objs, &v->objs);
	ck_assert_uint_eq(r->nr_sites, v->nr_sites);
	ck_assert_uint_eq(r->nr_actors, 2);
	for (uint32_t a = 0; a < r->nr_actors; a++) {
		ck_assert_str_eq(r->actors[a].name, v->actors[a].name);
		ck_assert_uint_eq(r->actors[a].nr_threads, v->actors[a].nr_cpus);
		ck_assert_uint_eq(r->actors[a].iterations, 50 * v->actors[a].nr_cpus);
		events += r->actors[a].iterations * ops_per_iteration(&v->actors[a], false);
		accesses += r->actors[a].iterations * ops_per_iteration(&v->actors[a], true);
	}
	ck_assert_uint_eq(r->actors[0].iterations, 150);
	ck_assert_uint_eq(r->actors[1].iterations, 100);
	ck_assert_uint_gt(r->events, 0);
	ck_assert_uint_eq(r->events, events);
	ck_assert_uint_eq(stats_accesses(r->mem), accesses);
	ck_assert_uint_gt(r->sim_time, 0);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* The memory system saw what the actors did: 150 locked RMWs, 150 stores and 150 RMWs by
 * "inc", 100 loads by "rd". */
START_TEST(run_variant_counts_reach_mem)
{
	struct scenario *sc = load("unit-run.yaml", NULL, 0, false, 0);
	struct run_result *r = run(sc, 0);

	ck_assert_uint_eq(tu_sum(r->mem, LS_LOCKED), 150);
	ck_assert_uint_eq(tu_sum(r->mem, LS_STORES), 150 * 3);
	ck_assert_uint_eq(tu_sum(r->mem, LS_LOADS), 150 * 2 + 100);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* `at: mine` on a per-cpu region reaches each CPU's own instance. */
START_TEST(run_variant_per_cpu_instances)
{
	struct scenario *sc = load("unit-run.yaml", NULL, 0, false, 0);
	const struct variant *v = &sc->v[0];
	struct run_result *r;
	static const int cpus[] = {0, 1, 20};

	sc->track_all_lines = true; /* per-cpu lines are private: their own figures need it */
	r = run(sc, 0);

	for (size_t i = 0; i < G_N_ELEMENTS(cpus); i++) {
		uint64_t addr = PERCPU_BASE + (uint64_t)cpus[i] * PERCPU_UNIT;
		uint32_t line = mem_line(r->mem, addr), obj;
		char name[16];

		ck_assert_uint_ne(line, DIR_NONE);
		obj = stats_line_obj(r->mem, line);
		ck_assert_uint_ne(obj, DIR_NONE);
		snprintf(name, sizeof(name), "mine[%d]", cpus[i]);
		g_autofree char *oname = objmap_name(&v->objs, obj);

		ck_assert_str_eq(oname, name);
		/* Only its own CPU touched it, once per iteration. */
		ck_assert_uint_eq(stats_line_nr_cpus(r->mem, line), 1);
		ck_assert_uint_eq(stats_line(r->mem, line, LS_STORES), 50);
	}
	/* The rd CPUs never touched their instances. */
	ck_assert_uint_eq(mem_line(r->mem, PERCPU_BASE + 2 * PERCPU_UNIT), DIR_NONE);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* end: {time_ns: 2000}: the run stops at the end time exactly. */
START_TEST(run_variant_end_time)
{
	static const struct override ov[] = {{"end", "{time_ns: 2000}"}};
	struct scenario *sc = load("unit-run.yaml", ov, 1, false, 0);
	struct run_result *r;

	ck_assert_uint_eq(sc->v[0].end_time, 2000 * PS_PER_NS);
	ck_assert_uint_eq(sc->v[0].end_iterations, 0);
	r = run(sc, 0);
	ck_assert_uint_eq(r->sim_time, 2000 * PS_PER_NS);
	ck_assert_uint_gt(r->events, 0);
	ck_assert_uint_gt(r->actors[0].iterations, 0);
	ck_assert_uint_lt(r->actors[0].iterations, 150);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* Iterations and time together: whichever comes first ends the run. */
START_TEST(run_variant_end_first_wins)
{
	static const struct override by_iter[] = {{"end", "{iterations: 5, time_us: 1000}"}};
	static const struct override by_time[] = {{"end", "{iterations: 100000, time_ns: 500}"}};
	struct scenario *sc = load("unit-run.yaml", by_iter, 1, false, 0);
	struct run_result *r = run(sc, 0);

	ck_assert_uint_eq(r->actors[0].iterations, 15);
	ck_assert_uint_eq(r->actors[1].iterations, 10);
	ck_assert_uint_lt(r->sim_time, 1000 * PS_PER_US);
	run_result_free(r);
	scenario_free(sc);
	sc = load("unit-run.yaml", by_time, 1, false, 0);
	r = run(sc, 0);
	ck_assert_uint_eq(r->sim_time, 500 * PS_PER_NS);
	ck_assert_uint_lt(r->actors[0].iterations, 300000);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* A trace replays each CPU's lines `loops` times; an actor beside it runs to the end time. */
START_TEST(run_variant_trace)
{
	struct scenario *sc = load("unit-trace.yaml", NULL, 0, false, 0);
	const struct variant *v = &sc->v[0];
	struct run_result *r = run(sc, 0);

	ck_assert_uint_eq(r->nr_actors, 4);
	ck_assert_str_eq(r->actors[0].name, "bg");
	ck_assert_uint_gt(r->actors[0].iterations, 100);
	for (uint32_t a = 1; a < 4; a++) {
		ck_assert_uint_eq(r->actors[a].nr_threads, 1);
		ck_assert_uint_eq(r->actors[a].iterations, 3);
	}
	ck_assert_uint_eq(r->sim_time, v->end_time);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* A trace alone: the run ends when the last CPU finishes its loops, before the end time. */
START_TEST(run_variant_trace_alone)
{
	struct scenario *sc = load("trace.yaml", NULL, 0, false, 0);
	struct run_result *r = run(sc, 0);
	uint64_t events = 0;

	for (uint32_t a = 0; a < r->nr_actors; a++) {
		ck_assert_uint_eq(r->actors[a].iterations, 50);
		events += 50 * sc->v[0].actors[a].nr_ops;
	}
	ck_assert_uint_eq(r->events, events);
	ck_assert_uint_gt(r->sim_time, 0);
	ck_assert_uint_lt(r->sim_time, sc->v[0].end_time);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* Same scenario, same seed: identical statistics, whether the scenario is loaded again or
 * the same one is run twice. */
START_TEST(run_variant_same_seed_identical)
{
	struct scenario *a = load("unit-run.yaml", NULL, 0, false, 0);
	struct scenario *b = load("unit-run.yaml", NULL, 0, false, 0);
	struct run_result *ra = run(a, 0), *rb = run(b, 0), *ra2 = run(a, 0);

	ck_assert_uint_gt(stats_nr_lines(ra->mem), 0);
	ck_assert(same_run(ra, rb));
	ck_assert(same_run(ra, ra2));
	run_result_free(ra);
	run_result_free(rb);
	run_result_free(ra2);
	scenario_free(a);
	scenario_free(b);
}
END_TEST

/* Another seed changes the random delays, and so the run. */
START_TEST(run_variant_seed_changes_run)
{
	struct scenario *a = load("unit-run.yaml", NULL, 0, false, 0);
	struct scenario *b = load("unit-run.yaml", NULL, 0, true, 4);
	struct run_result *ra = run(a, 0), *rb = run(b, 0);

	ck_assert_uint_eq(b->v[0].seed, 4);
	ck_assert(!same_run(ra, rb));
	ck_assert_uint_ne(ra->sim_time, rb->sim_time);
	/* The iteration counts are fixed by the end condition, not by the seed. */
	ck_assert_uint_eq(ra->actors[0].iterations, rb->actors[0].iterations);
	run_result_free(ra);
	run_result_free(rb);
	scenario_free(a);
	scenario_free(b);
}
END_TEST

/* Without random delays, the seed changes nothing. */
START_TEST(run_variant_seed_without_random)
{
	static const struct override ov[] = {{"actors[0].loop[3].ns", "25"}};
	struct scenario *a = load("unit-run.yaml", ov, 1, false, 0);
	struct scenario *b = load("unit-run.yaml", ov, 1, true, 4);
	struct run_result *ra = run(a, 0), *rb = run(b, 0);

	ck_assert(same_run(ra, rb));
	run_result_free(ra);
	run_result_free(rb);
	scenario_free(a);
	scenario_free(b);
}
END_TEST

/* Each variant runs with its own machine and end condition. */
START_TEST(run_variant_variants)
{
	struct scenario *sc = load("unit-variants.yaml", NULL, 0, false, 0);
	struct run_result *r[3];

	for (uint32_t i = 0; i < 3; i++) {
		r[i] = run(sc, i);
		ck_assert_str_eq(r[i]->variant, sc->v[i].name);
		ck_assert_ptr_eq(r[i]->mc, &sc->v[i].mc);
		ck_assert_uint_eq(r[i]->sim_time, sc->v[i].end_time);
	}
	ck_assert_uint_gt(tu_sum(r[0]->mem, LS_PF_FILLS) + tu_sum(r[0]->mem, LS_PF_HITM) +
			  tu_sum(r[0]->mem, LS_PF_XFER) + tu_sum(r[0]->mem, LS_PF_DROPPED), 0);
	ck_assert_uint_eq(tu_sum(r[1]->mem, LS_PF_FILLS) + tu_sum(r[1]->mem, LS_PF_HITM) +
			  tu_sum(r[1]->mem, LS_PF_XFER) + tu_sum(r[1]->mem, LS_PF_DROPPED), 0);
	ck_assert_uint_lt(r[2]->events, r[0]->events);
	for (uint32_t i = 0; i < 3; i++)
		run_result_free(r[i]);
	scenario_free(sc);
}
END_TEST

/* ---- run-ahead (runahead.h) ------------------------------------------------------------- */

/* Variant @variant of test scenario @file with run-ahead on and off (the invariant checks off: they
 * turn run-ahead past queued events off): the same run, statistics and Pareto rows. */
static void runahead_same(const char *file, const char *variant, uint64_t *ran_ahead,
			  uint64_t *events)
{
	struct scenario *sc = load(file, NULL, 0, false, 0);
	uint32_t v = tu_variant(sc, variant);
	struct c2c_err err = {0};
	struct run_result *on = run_variant(sc, v, false, &err), *off;

	ck_assert_msg(on != NULL, "%s", err.msg);
	sc->no_run_ahead = true;
	off = run_variant(sc, v, false, &err);
	ck_assert_msg(off != NULL, "%s", err.msg);
	ck_assert(same_run(on, off));
	ck_assert_uint_eq(off->ran_ahead, 0);
	*ran_ahead = on->ran_ahead;
	*events = on->events;
	run_result_free(on);
	run_result_free(off);
	scenario_free(sc);
}

/* Per-cpu cores run ahead of the shared ones' events, SMT siblings together: most steps of
 * the run go without the queue (the 8 per-cpu threads make about 4 of every 5 steps, and
 * all of theirs after the first touches), and the results are the queue's. */
START_TEST(run_ahead_same_results)
{
	uint64_t ahead, events;

	runahead_same("unit-runahead.yaml", "random", &ahead, &events);
	ck_assert_uint_gt(ahead, events / 2);
}
END_TEST

/* Fixed delays keep the per-cpu threads of different cores at equal times all run long:
 * their step times cannot tell the queue's order of their ties (RA_HISTORY steps back), but
 * once every operation of a thread is known it is settled, its ties commute, and run-ahead
 * goes on: most steps still go without the queue, with the queue's results. */
START_TEST(run_ahead_lockstep_ties)
{
	uint64_t ahead, events;

	runahead_same("unit-runahead.yaml", "lockstep", &ahead, &events);
	ck_assert_uint_gt(ahead, events / 2);
}
END_TEST

/* The event limit stops a run with run-ahead as without: a settled core's loop
 * (core_run_settled) keeps the queue's count of dispatched events itself and must hand back
 * every step it ran.  The limit falls between two of the host watch's looks. */
START_TEST(run_ahead_event_limit)
{
	struct scenario *sc = load("unit-runahead.yaml", NULL, 0, false, 0);
	uint32_t v = tu_variant(sc, "random");
	struct c2c_err on = {0}, off = {0};

	sc->limits.events = 3 * RUNWATCH_EVENTS + 1001;
	ck_assert_ptr_null(run_variant(sc, v, false, &on));
	sc->no_run_ahead = true;
	ck_assert_ptr_null(run_variant(sc, v, false, &off));
	ck_assert(on.limit && off.limit);
	ck_assert_str_eq(on.msg, off.msg);
	scenario_free(sc);
}
END_TEST

/* Lockstep threads whose first touches tie, pushed by steps run ahead that agree for more
 * than RA_HISTORY steps back: that order decides the directory's, so the variant runs again
 * without run-ahead, and the results are still the queue's. */
START_TEST(run_ahead_cold_ties)
{
	uint64_t ahead, events;

	runahead_same("unit-runahead-cold.yaml", "default", &ahead, &events);
	ck_assert_uint_eq(ahead, 0);
}
END_TEST

/* Path calls run on through their steps that come before every queued event (world->step_on,
 * form 1 inside the interpreter): the default scenario's `before` (20 threads faulting and
 * freeing pages) gives the queue's run with run-ahead on and off, and its event limit stops
 * both at the same place, between two of the host watch's looks. */
START_TEST(run_ahead_path_calls)
{
	static const struct override ov[] = {{"end.time_us", "300"}};
	g_autofree char *path = tu_src_path("scenarios/default.yaml");
	const char *only[] = {"before", NULL};
	struct c2c_err err = {0}, on_err = {0}, off_err = {0};
	struct scenario *sc = scenario_load_only(path, ov, 1, false, 0, only, NULL, &err);
	struct run_result *on, *off;

	ck_assert_msg(sc != NULL, "%s", err.msg);
	on = run_variant(sc, 0, false, &err);
	ck_assert_msg(on != NULL, "%s", err.msg);
	sc->no_run_ahead = true;
	off = run_variant(sc, 0, false, &err);
	ck_assert_msg(off != NULL, "%s", err.msg);
	ck_assert(same_run(on, off));
	sc->limits.events = 7 * RUNWATCH_EVENTS + 1001;
	ck_assert_ptr_null(run_variant(sc, 0, false, &off_err));
	sc->no_run_ahead = false;
	ck_assert_ptr_null(run_variant(sc, 0, false, &on_err));
	ck_assert(on_err.limit && off_err.limit);
	ck_assert_str_eq(on_err.msg, off_err.msg);
	run_result_free(on);
	run_result_free(off);
	scenario_free(sc);
}
END_TEST

/* The event limit falls on each of the last steps of @sc's variant @v in turn: with
 * run-ahead on as off the run stops there.  The last steps run while the queue empties, so
 * most of them are dispatched without it (thread_step()'s loop, step_on), where only the
 * budget of events (early_bounds()) stops a run that would else end within the limit. */
static void limit_on_last_steps(struct scenario *sc, uint32_t v)
{
	struct c2c_err err = {0};
	struct run_result *r;
	uint64_t events;

	sc->no_run_ahead = true;
	r = run_variant(sc, v, false, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	events = r->events;
	run_result_free(r);
	for (uint64_t k = 1; k <= 4; k++) {
		struct c2c_err on = {0}, off = {0};

		sc->limits.events = events - k;
		sc->no_run_ahead = true;
		ck_assert_ptr_null(run_variant(sc, v, false, &off));
		sc->no_run_ahead = false;
		ck_assert_ptr_null(run_variant(sc, v, false, &on));
		ck_assert(on.limit && off.limit);
		ck_assert_str_eq(on.msg, off.msg);
	}
}

/* Raw steps, then path calls: the default scenario's `before` at end times that cut its
 * last thread inside a call (a run that ends in a delay leaves step_on out). */
START_TEST(run_ahead_limit_last_steps)
{
	static const char *const end[] = {"301", "302", "303"};
	g_autofree char *path = tu_src_path("scenarios/default.yaml");
	const char *only[] = {"before", NULL};
	struct scenario *sc = load("unit-run.yaml", NULL, 0, false, 0);

	limit_on_last_steps(sc, 0);
	scenario_free(sc);
	for (size_t i = 0; i < G_N_ELEMENTS(end); i++) {
		const struct override ov[] = {{"end.time_us", end[i]}};
		struct c2c_err err = {0};

		sc = scenario_load_only(path, ov, 1, false, 0, only, NULL, &err);
		ck_assert_msg(sc != NULL, "%s", err.msg);
		limit_on_last_steps(sc, 0);
		scenario_free(sc);
	}
}
END_TEST

/* With the invariant checks on, steps run only as the queue orders them. */
START_TEST(run_ahead_off_with_checks)
{
	struct scenario *sc = load("unit-runahead.yaml", NULL, 0, false, 0);
	struct run_result *r = run(sc, 0);

	ck_assert_uint_eq(r->ran_ahead, 0);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* ---- run_result_free --------------------------------------------------------------------- */

START_TEST(run_result_free_null)
{
	run_result_free(NULL);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *run_suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc;

	tc = tcase(s, "run_variant");
	tcase_add_test(tc, run_variant_end_iterations);
	tcase_add_test(tc, run_variant_counts_reach_mem);
	tcase_add_test(tc, run_variant_per_cpu_instances);
	tcase_add_test(tc, run_variant_end_time);
	tcase_add_test(tc, run_variant_end_first_wins);
	tcase_add_test(tc, run_variant_trace);
	tcase_add_test(tc, run_variant_trace_alone);
	tcase_add_test(tc, run_variant_same_seed_identical);
	tcase_add_test(tc, run_variant_seed_changes_run);
	tcase_add_test(tc, run_variant_seed_without_random);
	tcase_add_test(tc, run_variant_variants);
	tc = tcase(s, "run_ahead");
	tcase_add_test(tc, run_ahead_same_results);
	tcase_add_test(tc, run_ahead_lockstep_ties);
	tcase_add_test(tc, run_ahead_event_limit);
	tcase_add_test(tc, run_ahead_cold_ties);
	tcase_add_test(tc, run_ahead_path_calls);
	tcase_add_test(tc, run_ahead_limit_last_steps);
	tcase_add_test(tc, run_ahead_off_with_checks);
	tc = tcase(s, "run_result_free");
	tcase_add_test(tc, run_result_free_null);
	return s;
}

int main(void)
{
	return tu_run(run_suite());
}
