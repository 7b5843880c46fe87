/*
 * check_cli_compare.c - the answer and the gate, end to end: --expect and `c2csim check` fail
 * a violated expectation, `c2csim compare` exit codes and its JUnit file, the default run's
 * first screen, and assertion files' `layouts:` lists.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cmdutil.h"
#include "testutil.h"

/* An assertion file's `layouts:` is a list, as in scenarios, searched in its order; a struct
 * found in none names every directory searched. */
START_TEST(layout_check_layouts_list)
{
	g_autofree char *tmp = tmpdir();
	g_autofree char *file = g_build_filename(tmp, "a.yaml", NULL);
	/* An assertion file is a FILE: its structs never come silently from the default
	 * directory (the resolution order of layout_cmd.c). */
	g_autofree char *want = g_strdup_printf("searched: %s/first, %s/second)", tmp, tmp);
	const char *a[] = {"layout", "check", file, NULL};
	struct cmd c;

	ck_assert(g_file_set_contents(file, "struct: no_such_struct\nlayouts: [first, second]\n"
				      "asserts: []\n", -1, NULL));
	c2csim(&c, a);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(strstr(c.err, "no layout for struct no_such_struct") && strstr(c.err, want),
		      "%s", c.err);
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

/* --expect: a violated expectation fails the run (exit 1) with one positioned line on stderr;
 * a known gap is reported but does not fail; without --expect the run succeeds; `check`
 * fails the same way.  The scenario states the physics: a counter shared across sockets
 * has remote HITMs, so "two-sockets.remote == 0" must fail. */
START_TEST(run_expect_violated)
{
	g_autofree char *tmp = tmpdir();
	const char *ex[] = {"run", "--expect", "--out", tmp, "sim/tests/data/expect.yaml", NULL};
	const char *no[] = {"run", "--brief", "--out", tmp, "sim/tests/data/expect.yaml", NULL};
	const char *chk[] = {"check", "sim/tests/data/expect.yaml", NULL};
	g_autoptr(GRegex) one = g_regex_new("^c2csim: results in [^\\n]+\\n"
					    "sim/tests/data/expect.yaml:[0-9]+:[0-9]+: expectation "
					    "failed: two-sockets.remote == 0 \\([0-9]+ vs 0\\)\\n$",
					    0, 0, NULL);
	struct cmd c;

	c2csim(&c, ex);
	ck_assert_msg(c.status == 1, "exit %d: %s", c.status, c.err);
	ck_assert_msg(g_regex_match(one, c.err, 0, NULL), "stderr: %s", c.err);
	cmd_free(&c);
	c2csim(&c, no);
	ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "Expectations: 1 of 3 hold, 1 failed, 1 known gap"));
	ck_assert_ptr_nonnull(strstr(c.out, "  FAIL  two-sockets.remote == 0"));
	ck_assert_ptr_nonnull(strstr(c.out, "  gap   two-sockets.remote.per_op < 0"));
	ck_assert_ptr_null(strstr(c.out, "c2csim report")); /* --brief: the first screen only */
	cmd_free(&c);
	c2csim(&c, chk);
	ck_assert_msg(c.status == 1, "exit %d: %s", c.status, c.err);
	ck_assert_ptr_nonnull(strstr(c.err, "expectation failed: two-sockets.remote == 0"));
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

/* Well-formed XML (GLib's markup parser rejects anything that is not), counting testcases
 * and failures. */
static void junit_counts(const char *xml, int *cases, int *failures)
{
	g_autoptr(GRegex) tc = g_regex_new("<testcase ", 0, 0, NULL);
	g_autoptr(GRegex) fl = g_regex_new("<failure ", 0, 0, NULL);
	g_autoptr(GMatchInfo) mi = NULL;
	GMarkupParser none = {0};
	GMarkupParseContext *ctx = g_markup_parse_context_new(&none, 0, NULL, NULL);
	g_autoptr(GError) gerr = NULL;

	ck_assert_msg(g_markup_parse_context_parse(ctx, xml, -1, &gerr) &&
		      g_markup_parse_context_end_parse(ctx, &gerr), "JUnit: %s",
		      gerr ? gerr->message : "");
	g_markup_parse_context_free(ctx);
	*cases = *failures = 0;
	for (g_regex_match(tc, xml, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL))
		(*cases)++;
	g_clear_pointer(&mi, g_match_info_free);
	for (g_regex_match(fl, xml, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL))
		(*failures)++;
}

/* compare: identical runs exit 0 with no failed testcase; the same variant on two sockets
 * instead of one (remote HITMs cost more, so fewer iterations) regresses its throughput:
 * exit 1, the metric named, a failed testcase; a missing directory is bad input (2). */
START_TEST(compare_runs)
{
	g_autofree char *tmp = tmpdir();
	g_autofree char *a = g_build_filename(tmp, "a", NULL), *b = g_build_filename(tmp, "b", NULL);
	g_autofree char *n = g_build_filename(tmp, "n", NULL);
	g_autofree char *ju = g_build_filename(tmp, "junit.xml", NULL);
	const char *ra[] = {"run", "--quiet", "--variant", "one-socket", "--out", a,
			    "sim/tests/data/expect.yaml", NULL};
	const char *rb[] = {"run", "--quiet", "--variant", "one-socket", "--out", b, "--set",
			    "actors[0].cpus=0,20", "sim/tests/data/expect.yaml", NULL};
	const char *same[] = {"compare", a, a, "--junit", ju, NULL};
	const char *worse[] = {"compare", a, b, "--junit", ju, NULL};
	const char *loose[] = {"compare", a, b, "--threshold", "*ops_per_sec=70", NULL};
	const char *missing[] = {"compare", a, n, NULL};
	int cases, failures;
	struct cmd c;

	c2csim(&c, ra);
	cmd_free(&c);
	c2csim(&c, rb);
	cmd_free(&c);
	c2csim(&c, same);
	ck_assert_msg(c.status == 0, "exit %d: %s%s", c.status, c.out, c.err);
	cmd_free(&c);
	{
		g_autofree char *xml = slurp(tmp, "junit.xml");

		junit_counts(xml, &cases, &failures);
		ck_assert_int_ge(cases, 8);
		ck_assert_int_eq(failures, 0);
	}
	c2csim(&c, worse);
	ck_assert_msg(c.status == 1, "exit %d: %s%s", c.status, c.out, c.err);
	ck_assert_msg(g_regex_match_simple("one-socket +ops_per_sec .* worse -[0-9.]+%  REGRESSION",
					   c.out, G_REGEX_MULTILINE, 0), "%s", c.out);
	cmd_free(&c);
	{
		g_autofree char *xml = slurp(tmp, "junit.xml");

		junit_counts(xml, &cases, &failures);
		ck_assert_int_ge(failures, 1);
		ck_assert_ptr_nonnull(strstr(xml, "name=\"ops_per_sec\""));
	}
	/* A looser threshold: throughput -60% is reported but no longer a regression. */
	c2csim(&c, loose);
	ck_assert_msg(g_regex_match_simple("^  one-socket +ops_per_sec +[0-9]+ +[0-9]+  worse -[0-9.]+%$",
					   c.out, G_REGEX_MULTILINE, 0), "%s", c.out);
	cmd_free(&c);
	c2csim(&c, missing);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(g_regex_match_simple("^[^\\n]+/n:1:1: cannot open: [^\\n]+ \\(expected a results "
					   "directory's summary.yaml, a regular file of at most 16 MiB\\)\\n$",
					   c.err, 0, 0), "%s", c.err);
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

/* The default run starts with the answer: under 40 lines and 120 columns until the first
 * perf-c2c section, with verdicts against `before` and the published figures. */
START_TEST(run_default_first_screen)
{
	g_autofree char *tmp = tmpdir();
	const char *a[] = {"run", "--out", tmp, "--set", "end.time_us=400", NULL};
	g_auto(GStrv) lines = NULL;
	struct cmd c;
	int n = 0;

	c2csim(&c, a);
	ck_assert_msg(c.status == 0, "%s", c.err);
	lines = g_strsplit(c.out, "\n", -1);
	for (; lines[n] && !g_str_has_prefix(lines[n], "====="); n++)
		ck_assert_msg(strlen(lines[n]) < 120, "line %d is %zu columns: %s", n + 1,
			      strlen(lines[n]), lines[n]);
	ck_assert_msg(n > 10 && n <= 40, "first screen of %d lines", n);
	ck_assert_ptr_nonnull(strstr(c.out, "verdict vs before"));
	ck_assert_msg(g_regex_match_simple("^    after +[0-9]+ +[0-9.]+ +10  better -",
					   c.out, G_REGEX_MULTILINE, 0), "%s", c.out);
	ck_assert_ptr_nonnull(strstr(c.out, "Variants against the baseline"));
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

static Suite *cli_compare_suite(void)
{
	Suite *s = suite_create("cli_compare");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, layout_check_layouts_list);
	tcase_add_test(tc, run_expect_violated);
	tcase_add_test(tc, compare_runs);
	tcase_add_test(tc, run_default_first_screen);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(cli_compare_suite());
}
