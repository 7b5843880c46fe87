/*
 * check_warmup.c - end.warmup_us: what happens before it is in no statistic (HITMs, access
 * counts, throughput, lock and path statistics, counter reads), as will-it-scale and perf
 * measure a steady state; the state it leaves (caches, values, the counters' truth) stays.
 */
#include <glib.h>
#include <string.h>

#include "path/interp.h"
#include "report/report.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testutil.h"

#define WARMUP "sim/tests/data/warmup.yaml"

static struct run_result *run_warm(const char *file, const char *warmup, struct scenario **sc)
{
	const char *sets[] = {warmup, NULL};

	return tu_run_scenario(file, warmup ? sets : NULL, 0, sc);
}

static uint64_t region_addr(const struct scenario *sc, const char *name)
{
	for (uint32_t i = 0; i < sc->v[0].objs.nr; i++) {
		g_autofree char *other = objmap_name(&sc->v[0].objs, i);
		struct obj o;

		if (!strcmp(other, name) && objmap_get(&sc->v[0].objs, i, &o))
			return o.base;
	}
	ck_abort_msg("no region %s", name);
	return 0;
}

/* The trace's 39 HITMs on `early` all happen in the first 10 us: with a 10 us warm-up the
 * line has none, and the access count is the steady actor's alone. */
START_TEST(warmup_excludes_early_hitms)
{
	struct scenario *sc;
	struct run_result *r = run_warm(WARMUP, NULL, &sc);
	uint64_t early = region_addr(sc, "early");

	ck_assert_uint_gt(tu_line_hitm(r, early), 20);
	run_result_free(r);
	scenario_free(sc);
	r = run_warm(WARMUP, "end.warmup_us=10", &sc);
	ck_assert_uint_eq(tu_line_hitm(r, early), 0);
	ck_assert_uint_eq(stats_accesses(r->mem), r->actors[0].iterations);
	ck_assert_uint_eq(r->actors[1].iterations, 0);   /* the trace finished in the warm-up */
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* Throughput is over the measured window: a steady loop of 100 ns (+ its rmw) runs at the
 * same rate with or without a 20 us warm-up, with half the iterations counted. */
START_TEST(warmup_throughput_over_window)
{
	struct scenario *sc;
	struct run_result *r = run_warm(WARMUP, NULL, &sc);
	uint64_t it = r->actors[0].iterations, rate = report_ops_per_sec(it, r->sim_time);
	uint64_t it_w, rate_w;

	ck_assert_uint_eq(r->sim_time, 40 * PS_PER_US);
	run_result_free(r);
	scenario_free(sc);
	r = run_warm(WARMUP, "end.warmup_us=20", &sc);
	it_w = r->actors[0].iterations;
	rate_w = report_ops_per_sec(it_w, r->sim_time);
	ck_assert_uint_eq(r->sim_time, 20 * PS_PER_US);
	ck_assert_uint_eq(r->warmup, 20 * PS_PER_US);
	ck_assert_msg(it_w * 100 > it * 45 && it_w * 100 < it * 55, "%" G_GUINT64_FORMAT " of %"
		      G_GUINT64_FORMAT " iterations", it_w, it);
	ck_assert_msg(rate_w * 100 > rate * 98 && rate_w * 100 < rate * 102, "%" G_GUINT64_FORMAT
		      " vs %" G_GUINT64_FORMAT " per s", rate_w, rate);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* Lock and path statistics restart; the counter's truth (state) does not. */
START_TEST(warmup_lock_and_path_stats)
{
	struct scenario *sc;
	struct run_result *r = run_warm("sim/tests/data/res-counter.yaml", NULL, &sc);
	int charge = program_find(r->prog, "charge");
	uint64_t acq = r->world->locks[0].acquisitions, calls = r->world->pstats[charge].calls;
	uint64_t iters = r->actors[0].iterations, reads = r->world->cstats[0].reads;
	int64_t truth = r->world->cstats[0].truth;

	run_result_free(r);
	scenario_free(sc);
	r = run_warm("sim/tests/data/res-counter.yaml", "end.warmup_us=25", &sc);
	ck_assert_msg(r->world->locks[0].acquisitions * 100 < acq * 60 &&
		      r->world->locks[0].acquisitions * 100 > acq * 40, "acquisitions %"
		      G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT, r->world->locks[0].acquisitions, acq);
	ck_assert_uint_le(r->world->locks[0].hold.nr, r->world->locks[0].acquisitions + 1);
	ck_assert_uint_lt(r->world->pstats[charge].calls * 100, calls * 60);
	/* a call in flight at the end of the warm-up is measured when it returns */
	ck_assert_uint_le(r->world->pstats[charge].lat.nr, r->world->pstats[charge].calls + 8);
	ck_assert_uint_lt(r->actors[0].iterations * 100, iters * 60);
	ck_assert_uint_lt(r->world->cstats[0].reads * 100, reads * 70);
	ck_assert_int_eq(r->world->cstats[0].truth, truth);  /* the same run: same charges */
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

START_TEST(warmup_errors)
{
	static const char *const cases[][2] = {
		{"end={time_us: 40, warmup_us: 40}", "end.warmup_us: not before the end time"},
		{"end={time_us: 40, warmup_us: 50}", "end.warmup_us: not before the end time"},
		{"end={time_us: 40, warmup_us: -1}", "end.warmup_us"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *path = tu_src_path(WARMUP);
		struct override ov = {"end", strchr(cases[i][0], '=') + 1};
		struct c2c_err err = {0};

		ck_assert_ptr_null(scenario_load(path, &ov, 1, false, 0, &err));
		ck_assert_msg(strstr(err.msg, cases[i][1]), "case %zu: %s", i, err.msg);
	}
}
END_TEST

static Suite *warmup_suite(void)
{
	Suite *s = suite_create("warmup");
	TCase *tc = tcase_create("warmup");

	tcase_add_test(tc, warmup_excludes_early_hitms);
	tcase_add_test(tc, warmup_throughput_over_window);
	tcase_add_test(tc, warmup_lock_and_path_stats);
	tcase_add_test(tc, warmup_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(warmup_suite());
}
