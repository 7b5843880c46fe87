/*
 * check_layout_suggest.c - `c2csim layout suggest`: on a struct whose hot atomic shares the
 * line 38 CPUs read (data/suggest-hot.yaml), the search must find a layout that moves them
 * apart and report the gain, by throughput, by HITMs and by a headline metric of the
 * scenario; the same inputs give the same report whatever -j; the size limit, the struct's
 * cacheline groups and its line rules hold.
 */
#include <check.h>
#include <glib.h>
#include <string.h>

#include "cmdutil.h"
#include "layout/layout_lib.h"
#include "testutil.h"

#define HOT "sim/tests/data/suggest-hot.yaml"
#define GROUPED "sim/tests/data/suggest-grouped.yaml"

/* The report's line of the optimised metric for layout #1: it must be better. */
static void assert_best_is_better(const char *out)
{
	const char *one = strstr(out, "\n#1: "), *opt = one ? strstr(one, "(optimised)") : NULL;
	const char *eol = opt ? strchr(opt, '\n') : NULL;
	g_autofree char *line = eol ? g_strndup(opt, (size_t)(eol - opt)) : NULL;

	ck_assert_msg(line && strstr(line, ": better "), "%s", out);
}

/* "tried N layouts": N runs, at most @budget. */
static void assert_tried_within(const char *out, unsigned budget)
{
	const char *t = strstr(out, "\ntried ");
	unsigned n = 0;

	ck_assert_msg(t && sscanf(t, "\ntried %u layouts", &n) == 1, "%s", out);
	ck_assert_uint_gt(n, 1);
	ck_assert_uint_le(n, budget);
}

/* Line of member @name in @l. */
static uint64_t line_of(struct layout_lib *lib, const struct layout *l, const char *name)
{
	struct c2c_err err = {0};
	struct lref r;

	ck_assert_msg(layout_find(lib, l, name, &r, (struct c2c_mark){"t", 1, 1}, &err), "%s",
		      err.msg);
	return r.offset / 64;
}

START_TEST(suggest_separates_a_hot_atomic_from_its_readers)
{
	g_autofree char *dir = tmpdir(), *best = g_build_filename(dir, "best.yaml", NULL);
	struct layout_lib *lib = layout_lib_new();
	struct c2c_err err = {0};
	const struct layout *l;
	struct cmd c = {0}, j2 = {0};

	c2csim(&c, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--budget",
				    "30", "-o", best, NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	assert_tried_within(c.out, 30);
	assert_best_is_better(c.out);
	/* What the run says: the atomic is written by the two incrementing CPUs, the pointers
	 * are read by the 38 others. */
	ck_assert_msg(strstr(c.out, "count                    hot write   ") &&
		      strstr(c.out, "stores by 2 CPUs (RMW)") &&
		      strstr(c.out, "ops                      read-mostly ") &&
		      strstr(c.out, " loads by 38 CPUs, 0 stores by 0 CPUs"), "%s", c.out);
	l = layout_lib_load_file(lib, best, &err);
	ck_assert_msg(l != NULL, "%s", err.msg);
	ck_assert_uint_ne(line_of(lib, l, "count"), line_of(lib, l, "ops"));
	ck_assert_uint_ne(line_of(lib, l, "count"), line_of(lib, l, "limit"));
	/* Deterministic, and the same with two runs at a time. */
	c2csim(&j2, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--budget",
				     "30", "-j", "2", NULL});
	ck_assert_msg(j2.status == 0, "%s", j2.err);
	ck_assert_str_eq(c.out, j2.out);
	cmd_free(&c);
	cmd_free(&j2);
	layout_lib_free(lib);
	rm_rf(dir);
}
END_TEST

/* The other metric: HITMs on the struct's lines per 1000 iterations; separating the atomic
 * from the read fields removes the readers' HITMs. */
START_TEST(suggest_by_hitm)
{
	g_autofree char *dir = tmpdir(), *best = g_build_filename(dir, "best.yaml", NULL);
	struct layout_lib *lib = layout_lib_new();
	struct c2c_err err = {0};
	const struct layout *l;
	struct cmd c = {0};

	c2csim(&c, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--budget",
				    "30", "--metric", "hitm", "-o", best, NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "lower is better"));
	assert_best_is_better(c.out);
	l = layout_lib_load_file(lib, best, &err);
	ck_assert_msg(l != NULL, "%s", err.msg);
	ck_assert_uint_ne(line_of(lib, l, "count"), line_of(lib, l, "ops"));
	ck_assert_uint_ne(line_of(lib, l, "count"), line_of(lib, l, "limit"));
	cmd_free(&c);
	layout_lib_free(lib);
	rm_rf(dir);
}
END_TEST

/* --keep-size: no layout larger than today's 64 bytes is run (so the atomic cannot leave the
 * readers' line, and nothing is better). */
START_TEST(suggest_keeps_the_size_limit)
{
	struct cmd c = {0};

	c2csim(&c, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--budget",
				    "20", "--keep-size", NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_null(strstr(c.out, "size 64 -> 1"));
	ck_assert_ptr_nonnull(strstr(c.out, "larger than the size limit"));
	cmd_free(&c);
}
END_TEST

/* A headline metric of the scenario, by id, index or name, is the same search; the report
 * gives the verdict of every headline metric. */
START_TEST(suggest_by_headline_metric)
{
	g_autofree char *dir = tmpdir(), *best = g_build_filename(dir, "best.yaml", NULL);
	struct layout_lib *lib = layout_lib_new();
	struct c2c_err err = {0};
	const struct layout *l;
	struct cmd c = {0}, byi = {0}, byname = {0};

	c2csim(&c, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--budget",
				    "20", "--metric", "readers_hitm", "-o", best, NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "metric HITMs of the readers' loads (HITMs, lower"));
	assert_best_is_better(c.out);
	ck_assert_ptr_nonnull(strstr(strstr(c.out, "\n#1: "), "\n    iterations per second: "));
	l = layout_lib_load_file(lib, best, &err);
	ck_assert_msg(l != NULL, "%s", err.msg);
	ck_assert_uint_ne(line_of(lib, l, "count"), line_of(lib, l, "ops"));
	ck_assert_uint_ne(line_of(lib, l, "count"), line_of(lib, l, "limit"));
	c2csim(&byi, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--budget",
				      "20", "--metric", "1", NULL});
	c2csim(&byname, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold",
					 "--budget", "20", "--metric", "HITMs of the readers' loads",
					 NULL});
	ck_assert_str_eq(c.out, byi.out);
	ck_assert_str_eq(c.out, byname.out);
	cmd_free(&c);
	cmd_free(&byi);
	cmd_free(&byname);
	layout_lib_free(lib);
	rm_rf(dir);
}
END_TEST

/* The struct's cacheline group (flags, count) keeps its members and its line rule (ops and
 * limit on one line) holds, while the atomic still leaves the readers' line. */
START_TEST(suggest_keeps_groups_and_rules)
{
	g_autofree char *dir = tmpdir(), *best = g_build_filename(dir, "best.yaml", NULL);
	struct layout_lib *lib = layout_lib_new();
	struct c2c_err err = {0};
	const struct layout *l;
	struct cmd c = {0};
	struct lref f, k, o;
	bool found = false;

	c2csim(&c, (const char *[]){"layout", "suggest", GROUPED, "--struct", "hot_cold_grp",
				    "--budget", "30", "-o", best, NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	assert_best_is_better(c.out);
	l = layout_lib_load_file(lib, best, &err);
	ck_assert_msg(l != NULL, "%s", err.msg);
	ck_assert_uint_eq(line_of(lib, l, "ops"), line_of(lib, l, "limit"));
	ck_assert_uint_ne(line_of(lib, l, "count"), line_of(lib, l, "ops"));
	ck_assert(layout_find(lib, l, "flags", &f, (struct c2c_mark){"t", 1, 1}, &err));
	ck_assert(layout_find(lib, l, "count", &k, (struct c2c_mark){"t", 1, 1}, &err));
	ck_assert(layout_find(lib, l, "ops", &o, (struct c2c_mark){"t", 1, 1}, &err));
	for (uint32_t i = 0; i < l->nr_groups; i++)
		if (!strcmp(l->groups[i].name, "writers")) {
			found = true;
			ck_assert_uint_le(l->groups[i].start, MIN(f.offset, k.offset));
			ck_assert_uint_ge(l->groups[i].end, MAX(f.offset, k.offset) + 8);
			ck_assert(o.offset < l->groups[i].start || o.offset >= l->groups[i].end);
		}
	ck_assert(found);
	cmd_free(&c);
	layout_lib_free(lib);
	rm_rf(dir);
}
END_TEST

START_TEST(suggest_bad_input)
{
	struct cmd c = {0};

	c2csim(&c, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--metric",
				    "speed", NULL});
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "--metric 'speed' (expected throughput, hitm, 1 or readers_hitm, 2 or ops_per_sec: a "
				   "headline metric of the scenario by index, id or name)"));
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "suggest", HOT, NULL});
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "expected SCENARIO --struct S"));
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--compare",
				    "after", NULL});
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "--compare after: no such variant"));
	ck_assert_str_eq(c.out, "");
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "suggest", HOT, "--struct", "no_such", NULL});
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "no layout for struct no_such"));
	cmd_free(&c);
}
END_TEST

static Suite *layout_suggest_suite(void)
{
	Suite *s = suite_create("layout_suggest");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, suggest_separates_a_hot_atomic_from_its_readers);
	tcase_add_test(tc, suggest_by_hitm);
	tcase_add_test(tc, suggest_keeps_the_size_limit);
	tcase_add_test(tc, suggest_by_headline_metric);
	tcase_add_test(tc, suggest_keeps_groups_and_rules);
	tcase_add_test(tc, suggest_bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(layout_suggest_suite());
}
