/*
 * check_layout_suggest.c - `c2csim layout suggest`: on a struct whose hot atomic shares the
 * line 38 CPUs read (data/suggest-hot.yaml), the search must find a layout that moves them
 * apart and report the gain; the same inputs give the same report whatever -j; limits hold.
 */
#include <check.h>
#include <glib.h>
#include <string.h>

#include "cmdutil.h"
#include "layout/layout_lib.h"
#include "testutil.h"

#define HOT "sim/tests/data/suggest-hot.yaml"

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
	ck_assert_ptr_nonnull(strstr(c.out, "tried 30 layouts"));
	ck_assert_ptr_nonnull(strstr(c.out, "\n#1: "));
	ck_assert_msg(strstr(strstr(c.out, "\n#1: "), "%, better)"), "%s", c.out);
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
	ck_assert_msg(strstr(strstr(c.out, "\n#1: "), "%, better)"), "%s", c.out);
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

START_TEST(suggest_bad_input)
{
	struct cmd c = {0};

	c2csim(&c, (const char *[]){"layout", "suggest", HOT, "--struct", "hot_cold", "--metric",
				    "speed", NULL});
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "--metric 'speed' (expected throughput or hitm)"));
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "suggest", HOT, NULL});
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "expected SCENARIO --struct S"));
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
	tcase_add_test(tc, suggest_bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(layout_suggest_suite());
}
