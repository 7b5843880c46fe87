/*
 * check_verdict.c - headline metrics, expectations and verdicts: the loaders' errors, the
 * verdict rules, expectations evaluated on a summary, and every shipped scenario declaring a
 * headline (and every seed replay its expectations) with a committed baseline.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "report/expect.h"
#include "report/headline.h"
#include "report/metrics.h"
#include "testutil.h"

/* A scenario made of the small test scenario plus @extra (top-level keys), in a temp file. */
static struct scenario *load_with(const char *extra, struct c2c_err *err)
{
	static const char base[] =
		"name: t\nmachine: skylake-sp-2s\nseed: 1\nend: {time_us: 5}\n"
		"regions:\n  - {name: counter, size: 64}\n"
		"actors:\n  - name: inc\n    cpus: 0,1\n    loop:\n"
		"      - {op: locked_rmw, at: counter, size: 8}\n"
		"variants:\n  - name: before\n  - name: after\n";
	g_autofree char *dir = g_dir_make_tmp("c2csim-verdict-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "t.yaml", NULL);
	g_autofree char *text = g_strconcat(base, extra, NULL);
	struct scenario *sc;

	/* The machine resolves through the source tree's models/machines. */
	ck_assert(g_file_set_contents(path, text, -1, NULL));
	sc = scenario_load(path, NULL, 0, false, 0, err);
	g_unlink(path);
	g_rmdir(dir);
	return sc;
}

struct bad_def {
	const char *id, *yaml, *what;
};

static const struct bad_def bad_defs[] = {
	{"hl-1 unknown metric", "headline:\n  - {metric: hitz}\n", "did you mean 'hitm'"},
	{"hl-2 filter the metric does not take",
	 "headline:\n  - {metric: ops_per_sec, path: x}\n",
	 "metric ops_per_sec takes no 'path' filter (expected actor)"},
	{"hl-3 missing required filter", "headline:\n  - {metric: path_mean}\n",
	 "metric path_mean needs 'path'"},
	{"hl-4 duplicate id", "headline:\n  - {metric: hitm}\n  - {metric: hitm}\n",
	 "id 'hitm' used twice"},
	{"hl-5 bad id", "headline:\n  - {id: Bad-Id, metric: hitm}\n",
	 "expected lower-case letters, digits and '_'"},
	{"ex-1 no comparison", "expect:\n  - \"after.ops_per_sec\"\n", "expected <, <=, >, >= or =="},
	{"ex-2 unknown metric", "expect:\n  - \"after.hitz < before.hitm\"\n",
	 "no metric 'hitz'"},
	{"ex-3 not a reference", "expect:\n  - \"after < 3\"\n", "expected VARIANT.METRIC"},
	{"ex-4 unclosed", "expect:\n  - \"(after.ops_per_sec < 3\"\n", "'(' not closed"},
	{"ex-5 trailing text", "expect:\n  - \"after.ops_per_sec < 3 4\"\n",
	 "after the relation (expected the end)"},
	{"ex-6 unknown key", "expect:\n  - {that: \"after.ops_per_sec > 0\", why: x}\n",
	 "unknown key 'why'"},
};

/* Every malformed headline or expectation is one positioned error naming what is wrong. */
START_TEST(hl_expect_load_errors)
{
	const struct bad_def *b = &bad_defs[_i];
	struct c2c_err err = {0};
	struct scenario *sc = load_with(b->yaml, &err);
	struct hl_set hs = {0};
	struct expect_set es = {0};

	ck_assert_msg(sc != NULL, "%s: %s", b->id, err.msg);
	ck_assert_msg(!hl_load(sc, &hs, &err) || !expect_load(sc, &hs, &es, &err),
		      "%s: loaded", b->id);
	ck_assert_msg(strstr(err.msg, b->what) != NULL, "%s: %s", b->id, err.msg);
	ck_assert_msg(g_regex_match_simple("^[^:]+:[0-9]+:[0-9]+: ", err.msg, 0, 0), "%s: %s",
		      b->id, err.msg);
	hl_set_free(&hs);
	expect_set_free(&es);
	scenario_free(sc);
}
END_TEST

/* ------------------------------------------------------------------ verdicts */

struct vcase {
	const char *id;
	double base, cur;
	bool higher_better;
	double tol;
	enum verdict want;
};

static const struct vcase vcases[] = {
	{"v-1 equal", 5, 5, false, 0, VERDICT_SAME},
	{"v-2 lower is better, fell", 5, 4, false, 0, VERDICT_BETTER},
	{"v-3 lower is better, rose", 5, 6, false, 0, VERDICT_WORSE},
	{"v-4 higher is better, rose", 5, 6, true, 0, VERDICT_BETTER},
	{"v-5 within the tolerance", 100, 101, true, 2, VERDICT_SAME},
	{"v-6 beyond the tolerance", 100, 97, true, 2, VERDICT_WORSE},
	{"v-7 from zero", 0, 3, false, 0, VERDICT_WORSE},
};

START_TEST(verdict_of_table)
{
	const struct vcase *c = &vcases[_i];
	struct metric b = {.value = c->base, .higher_better = c->higher_better};
	struct metric n = {.value = c->cur, .higher_better = c->higher_better};
	double ch;

	ck_assert_msg(verdict_of(&b, &n, c->tol, &ch) == c->want, "%s", c->id);
	ck_assert_int_eq(verdict_of(NULL, &n, 0, &ch), VERDICT_NEW);
	ck_assert_int_eq(verdict_of(&b, NULL, 0, &ch), VERDICT_GONE);
}
END_TEST

/* Counts compare per operation: twice the HITMs for twice the work is the same. */
START_TEST(verdict_per_op)
{
	struct metric b = {.value = 100, .per_op = 0.5, .has_per_op = true};
	struct metric n = {.value = 200, .per_op = 0.5, .has_per_op = true};
	double ch;

	ck_assert_int_eq(verdict_of(&b, &n, 0, &ch), VERDICT_SAME);
}
END_TEST

/* ------------------------------------------------------------------ expectations */

static const char summary_text[] =
	"c2csim_version: \"0.1.0\"\nscenario: t\nseed: 1\nvariants:\n"
	"  before:\n    machine: m\n    sim_time_ps: 1000\n    hitm: {local: 10, remote: 0, "
	"prefetch: 0}\n    loads: 4\n    stores: 4\n"
	"    headline:\n      - {id: h, name: \"h\", metric: hitm, value: 100, unit: HITMs, "
	"per_op: 1}\n"
	"    actors:\n      - {name: a, threads: 1, iterations: 100}\n"
	"    throughput: {ops_per_sec: 1000, actors: []}\n"
	"  after:\n    machine: m\n    sim_time_ps: 1000\n    hitm: {local: 1, remote: 0, "
	"prefetch: 0}\n    loads: 4\n    stores: 4\n"
	"    headline:\n      - {id: h, name: \"h\", metric: hitm, value: 2, unit: HITMs, "
	"per_op: 0.01}\n"
	"    actors:\n      - {name: a, threads: 1, iterations: 200}\n"
	"    throughput: {ops_per_sec: 2000, actors: []}\n";

struct ecase {
	const char *text;
	enum expect_status want;
};

static const struct ecase ecases[] = {
	{"after.h < before.h / 40", EXPECT_HOLDS},
	{"after.h < before.h / 60", EXPECT_FAILS},
	{"after.h.per_op * 100 == before.h.per_op", EXPECT_HOLDS},
	{"after.ops_per_sec >= before.ops_per_sec * 2", EXPECT_HOLDS},
	{"after.ops_per_sec / before.ops_per_sec > 2.5", EXPECT_FAILS},
	{"after.hitm.local + before.hitm.local == 11", EXPECT_HOLDS},
	{"after.hitm.local - 1 == 0", EXPECT_HOLDS},
	{"(after.h + 2) * 2 <= 8", EXPECT_HOLDS},
	{"pad.h < before.h", EXPECT_SKIPPED},
};

START_TEST(expect_eval_table)
{
	struct msummary s;
	struct c2c_err err = {0};
	struct expectation e = {.text = ecases[_i].text};
	struct expect_result r;

	ck_assert_msg(msummary_load(&s, "<test>", summary_text, strlen(summary_text), &err),
		      "%s", err.msg);
	expect_eval(&e, &s, &r);
	ck_assert_msg(r.status == ecases[_i].want, "%s: status %d (%g vs %g, %s)", e.text,
		      r.status, r.lhs, r.rhs, r.why);
	msummary_free(&s);
}
END_TEST

/* A failed expectation counts; a failed known gap and a skip do not. */
START_TEST(expect_report_counts)
{
	struct expectation v[] = {{.text = "after.h < before.h / 60"},
				  {.text = "after.h < before.h / 60", .gap = "known"},
				  {.text = "pad.h < before.h"},
				  {.text = "after.h < before.h"}};
	struct expect_set es = {.v = v, .nr = 4};
	struct msummary s;
	struct c2c_err err = {0};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert(msummary_load(&s, "<test>", summary_text, strlen(summary_text), &err));
	ck_assert_uint_eq(expect_report(f, &es, &s, NULL), 1);
	fclose(f);
	ck_assert_msg(strstr(out, "1 of 4 hold, 1 failed, 1 known gap, 1 skipped"), "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "  FAIL  after.h"));
	ck_assert_ptr_nonnull(strstr(out, "  gap   after.h"));
	free(out);
	msummary_free(&s);
}
END_TEST

/* ------------------------------------------------------------------ shipped scenarios */

/* Every shipped scenario declares headline metrics and has a baseline whose summary lists
 * them per variant; every seed replay carries expectations. */
START_TEST(shipped_scenarios_have_headline_and_baseline)
{
	g_autoptr(GPtrArray) paths = tu_shipped_scenarios();
	g_autofree char *baselines = tu_src_path("results/baselines");

	for (guint i = 0; i < paths->len; i++) {
		const char *path = paths->pdata[i];
		g_autofree char *name = g_path_get_basename(path);
		g_autofree char *base = NULL, *text = NULL;
		struct c2c_err err = {0};
		struct scenario *sc;
		struct hl_set hs;
		struct expect_set es;

		sc = scenario_load(path, NULL, 0, false, 0, &err);
		ck_assert_msg(sc != NULL, "%s", err.msg);
		ck_assert_msg(hl_load(sc, &hs, &err) && expect_load(sc, &hs, &es, &err), "%s",
			      err.msg);
		ck_assert_msg(hs.nr > 0, "%s declares no headline", name);
		if (strstr(path, "/seeds/"))
			ck_assert_msg(es.nr > 0, "seed replay %s has no expectations", name);
		base = g_build_filename(baselines, sc->name, "summary.yaml", NULL);
		ck_assert_msg(g_file_get_contents(base, &text, NULL, NULL),
			      "%s: no baseline %s (tools/baselines refresh)", name, base);
		ck_assert_msg(strstr(text, "    headline:\n      - {id: "), "%s", base);
		hl_set_free(&hs);
		expect_set_free(&es);
		scenario_free(sc);
	}
	ck_assert_uint_ge(paths->len, 10);
}
END_TEST

static Suite *verdict_suite(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("load");

	tcase_add_loop_test(tc, hl_expect_load_errors, 0, G_N_ELEMENTS(bad_defs));
	suite_add_tcase(s, tc);
	tc = tcase_create("verdict_of");
	tcase_add_loop_test(tc, verdict_of_table, 0, G_N_ELEMENTS(vcases));
	tcase_add_test(tc, verdict_per_op);
	suite_add_tcase(s, tc);
	tc = tcase_create("expect");
	tcase_add_loop_test(tc, expect_eval_table, 0, G_N_ELEMENTS(ecases));
	tcase_add_test(tc, expect_report_counts);
	suite_add_tcase(s, tc);
	tc = tcase_create("shipped");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, shipped_scenarios_have_headline_and_baseline);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(verdict_suite());
}
