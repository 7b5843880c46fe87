/* check_output.c - unit tests for output.c: the results directory, on a small run built by
 * hand (report_fixture.h). */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "report/report.h"
#include "report_fixture.h"
#include "spawn_util.h"
#include "testutil.h"

/* ---- output_write ------------------------------------------------------------------------ */

static char *slurp(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL), *text = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "cannot read %s", path);
	g_free(path);
	return text;
}

static char *write_results(struct fix *fx, const char *name, const char *report)
{
	struct c2c_err err = {0};
	char *out = g_build_filename(fx->dir, name, NULL);
	struct run_result *runs[1] = {fx->r};

	ck_assert_msg(output_write(out, fx->sc, runs, 1, report, &err), "%s", err.msg);
	ck_assert(!err.set);
	return out;
}

START_TEST(output_write_files)
{
	static const char *const files[] = {"summary.yaml", "lines.csv", "offsets.csv",
					    "report.txt", "scenario.yaml", "params/default.yaml"};
	struct fix *fx = fix_new();
	char *out = write_results(fx, "deep/er/out/", "the report\n");
	char *text, *path;
	struct c2c_err err = {0};
	struct yt_node *sum, *n;
	const struct line_stats lsv = stats_of(fx, COUNTER), *ls = &lsv;
	uint64_t tot[LS_COUNT], x;

	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		path = g_build_filename(out, files[i], NULL);
		ck_assert_msg(g_file_test(path, G_FILE_TEST_IS_REGULAR), "missing %s", path);
		g_free(path);
	}
	text = slurp(out, "report.txt");
	ck_assert_str_eq(text, "the report\n");
	g_free(text);
	text = slurp(out, "scenario.yaml");
	ck_assert_str_eq(text, "name: two-counters\nseed: 7\n");
	g_free(text);

	path = g_build_filename(out, "summary.yaml", NULL);
	sum = yt_load_file(path, &err);
	ck_assert_msg(sum != NULL, "%s", err.msg);
	report_totals(fx->r->mem, tot);
	n = yt_get(yt_get(yt_get(yt_get(sum, "variants"), "default"), "hitm"), "local");
	ck_assert_ptr_nonnull(n);
	ck_assert(yt_u64(n, "hitm.local", &x, &err));
	ck_assert_uint_eq(x, tot[LS_HITM_LCL]);
	ck_assert_str_eq(yt_get(sum, "c2csim_version")->str, "0.1.0");
	ck_assert_str_eq(yt_get(sum, "scenario")->str, "two-counters");
	ck_assert_str_eq(yt_get(sum, "seed")->str, "7");
	ck_assert_str_eq(yt_get(sum, "complete")->str, "true");
	ck_assert_str_eq(yt_get(yt_get(yt_get(sum, "variants"), "default"), "complete")->str,
			 "true");
	n = yt_get(yt_get(yt_get(sum, "variants"), "default"), "lines");
	ck_assert_int_eq(n->kind, YT_SEQ);
	/* The counter is the hottest line; every registry counter is there, by its key. */
	ck_assert_str_eq(yt_get(n->items[0], "address")->str, "0x10000000");
	ck_assert_str_eq(yt_get(n->items[0], "object")->str, "counter");
	ck_assert_str_eq(yt_get(n->items[0], "line")->str, "0");
	for (int k = 0; k < LS_COUNT; k++) {
		ck_assert_msg(yt_get(n->items[0], lstat_info[k].key), "no %s", lstat_info[k].key);
		ck_assert(yt_u64(yt_get(n->items[0], lstat_info[k].key), "k", &x, &err));
		ck_assert_uint_eq(x, ls->c[k]);
	}
	x = 0;
	for (uint32_t i = 0; i < stats_nr_lines(fx->r->mem); i++)
		x += report_line_shared(fx->r->mem, i);
	ck_assert_uint_eq(n->len, x);
	yt_free(sum);
	g_free(path);
	ck_assert_int_eq(su_dot_entries(fx->dir), 0);
	path = g_build_filename(fx->dir, "deep", "er", NULL);
	ck_assert_int_eq(su_dot_entries(path), 0);
	g_free(path);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_summary_world)
{
	struct fix *fx = fix_new();
	char *out, *text, *want;
	struct c2c_err err = {0};
	struct yt_node *sum, *var;
	uint64_t x;

	add_world(fx->r);
	out = write_results(fx, "out", "");
	text = slurp(out, "summary.yaml");
	want = g_strdup_printf(
		"    throughput: {ops_per_sec: %" PRIu64 ", actors: [{name: inc, ops_per_sec: %"
		PRIu64 "}, {name: flag, ops_per_sec: %" PRIu64 "}, {name: priv, ops_per_sec: %"
		PRIu64 "}]}\n"
		"    locks:\n"
		"      - {name: counter+0x8, address: \"0x10000008\", acquisitions: 10, "
		"contentions: 5, con_bounces: 2, acq_bounces: 4, wait_min_ps: 2000, "
		"wait_avg_ps: 194269, wait_max_ps: 900000, wait_total_ps: 971345, "
		"hold_min_ps: 1000, hold_avg_ps: 2000, hold_max_ps: 3000, hold_total_ps: 4000, "
		"wait_p50_ps: 12345, wait_p99_ps: 50000, hold_p50_ps: 1000, hold_p99_ps: 1000}\n"
		"    paths:\n"
		"      - {name: charge, calls: 4, mean_ps: 4000, p50_ps: 2000, p99_ps: 3000, "
		"max_ps: 10000, top_calls: 3, lines_touched: 10, remote_fetches: 5}\n"
		"      - {name: callee, calls: 2, mean_ps: 600, p50_ps: 500, p99_ps: 500, "
		"max_ps: 700, top_calls: 0, lines_touched: 0, remote_fetches: 0}\n"
		"    counters:\n"
		"      - {name: nr_pages, reads: 7, truth: 100, read: 96, max_abs_error: 9}\n"
		"    lines:\n",
		want_ops(fx->r, 3 * ROUNDS + ROUNDS / 10), want_ops(fx->r, 2 * ROUNDS),
		want_ops(fx->r, ROUNDS / 10), want_ops(fx->r, ROUNDS));
	ck_assert_msg(strstr(text, want), "summary.yaml lacks\n%s\nin\n%s", want, text);
	g_free(want);
	g_free(text);
	/* It still reads back as YAML, with the sections where a script looks for them. */
	text = g_build_filename(out, "summary.yaml", NULL);
	sum = yt_load_file(text, &err);
	ck_assert_msg(sum != NULL, "%s", err.msg);
	var = yt_get(yt_get(sum, "variants"), "default");
	ck_assert_str_eq(yt_get(yt_get(var, "locks")->items[0], "name")->str, "counter+0x8");
	ck_assert_uint_eq(yt_get(var, "paths")->len, 2);
	ck_assert(yt_u64(yt_get(yt_get(var, "throughput"), "ops_per_sec"), "ops", &x, &err));
	ck_assert_uint_eq(x, want_ops(fx->r, 3 * ROUNDS + ROUNDS / 10));
	yt_free(sum);
	g_free(text);
	g_free(out);
	fix_free(fx);
}
END_TEST

/* Raw-access runs: the keys are there, empty, so readers need no special case. */
START_TEST(output_write_summary_no_world)
{
	struct fix *fx = fix_new();
	char *out = write_results(fx, "out", ""), *text = slurp(out, "summary.yaml");
	char *want = g_strdup_printf("      - {name: priv, threads: 1, iterations: %d}\n"
				     "    throughput: {ops_per_sec: %" PRIu64 ", actors: [{name: "
				     "inc, ops_per_sec: %" PRIu64 "}, {name: flag, ops_per_sec: %"
				     PRIu64 "}, {name: priv, ops_per_sec: %" PRIu64 "}]}\n"
				     "    locks: []\n    paths: []\n    counters: []\n    lines:\n",
				     ROUNDS, want_ops(fx->r, 3 * ROUNDS + ROUNDS / 10),
				     want_ops(fx->r, 2 * ROUNDS), want_ops(fx->r, ROUNDS / 10),
				     want_ops(fx->r, ROUNDS));

	ck_assert_msg(strstr(text, want), "summary.yaml lacks\n%s\nin\n%s", want, text);
	g_free(want);
	g_free(text);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_csv)
{
	struct fix *fx = fix_new();
	char *out = write_results(fx, "out", "");
	char *text = slurp(out, "lines.csv"), **rows;
	GString *head = g_string_new("variant,address,object,line,cpus");

	for (int k = 0; k < LS_COUNT; k++)
		g_string_append_printf(head, ",%s", lstat_info[k].key);
	rows = g_strsplit(text, "\n", -1);
	ck_assert_str_eq(rows[0], head->str);
	/* One row per shared line (touched by more than one CPU, or with HITMs), in first-touch
	 * order, then the final empty string; private lines are only in the totals. */
	{
		uint32_t shared = 0;

		for (uint32_t l = 0; l < stats_nr_lines(fx->r->mem); l++)
			shared += report_line_shared(fx->r->mem, l);
		ck_assert_uint_lt(shared, stats_nr_lines(fx->r->mem));
		ck_assert_uint_eq(g_strv_length(rows), shared + 2);
	}
	ck_assert(g_str_has_prefix(rows[1], "default,0x10000000,counter,0,2,"));
	g_strfreev(rows);
	g_free(text);

	text = slurp(out, "offsets.csv");
	g_string_assign(head, "variant,address,object,member,offset,site,caller,cpus");
	for (int k = 0; k < OS_COUNT; k++)
		g_string_append_printf(head, ",%s", ostat_info[k].key);
	ck_assert(g_str_has_prefix(text, head->str));
	ck_assert_ptr_nonnull(
		strstr(text, "\ndefault,0x10000000,counter,-,0,inc:0 locked_rmw counter+0,-,2,"));
	/* RFC 4180: a field with a comma or quote is quoted, quotes doubled. */
	ck_assert_ptr_nonnull(strstr(text, ",flag,-,0,\"flag:0 store flag+0, \"\"x\"\"\",-,1,"));
	g_free(text);
	g_string_free(head, TRUE);
	g_free(out);
	fix_free(fx);
}
END_TEST

/* A results directory c2csim wrote is replaced whole; one with a file added is refused and
 * kept as it is. */
START_TEST(output_write_replace)
{
	struct fix *fx = fix_new();
	char *out = write_results(fx, "out", "first\n"), *junk, *text;
	struct run_result *runs[1] = {fx->r};
	struct c2c_err err = {0};

	g_free(write_results(fx, "out", "second\n"));
	text = slurp(out, "report.txt");
	ck_assert_str_eq(text, "second\n");
	g_free(text);
	junk = g_build_filename(out, "notes.txt", NULL);
	ck_assert(g_file_set_contents(junk, "mine", -1, NULL));
	ck_assert(!output_write(out, fx->sc, runs, 1, "third\n", &err));
	text = g_strdup_printf("cannot write results to %s: %s holds notes.txt, which c2csim did "
			       "not write; refusing to replace it (move that away, or choose "
			       "another --out)", out, out);
	ck_assert_str_eq(err.msg, text);
	g_free(text);
	text = slurp(out, "report.txt");
	ck_assert_str_eq(text, "second\n");
	ck_assert(g_file_test(junk, G_FILE_TEST_IS_REGULAR));
	ck_assert_int_eq(su_dot_entries(fx->dir), 0);
	g_free(text);
	g_free(junk);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_unwritable)
{
	struct fix *fx = fix_new();
	char *file = g_build_filename(fx->dir, "plain", NULL);
	char *out = g_build_filename(file, "sub", "out", NULL), *want;
	struct run_result *runs[1] = {fx->r};
	struct c2c_err err = {0};

	ck_assert(g_file_set_contents(file, "x", -1, NULL));
	ck_assert(!output_write(out, fx->sc, runs, 1, "r", &err));
	ck_assert(err.set);
	want = g_strdup_printf("cannot write results to %s: %s is not a directory", out, file);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(su_dot_entries(fx->dir), 0);
	g_free(want);
	g_free(out);
	g_free(file);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_refuses_foreign_dir)
{
	struct fix *fx = fix_new();
	char *out = g_build_filename(fx->dir, "src", NULL), *keep, *want;
	struct run_result *runs[1] = {fx->r};
	struct c2c_err err = {0};

	ck_assert_int_eq(g_mkdir(out, 0777), 0);
	keep = g_build_filename(out, "precious.c", NULL);
	ck_assert(g_file_set_contents(keep, "int x;\n", -1, NULL));
	ck_assert(!output_write(out, fx->sc, runs, 1, "r", &err));
	want = g_strdup_printf("cannot write results to %s: %s exists and was not written by "
			       "c2csim (no .c2csim-results marker); refusing to replace it (remove "
			       "it, or choose another --out)", out, out);
	ck_assert_str_eq(err.msg, want);
	ck_assert(g_file_test(keep, G_FILE_TEST_IS_REGULAR));
	ck_assert_int_eq(su_dot_entries(fx->dir), 0);
	g_free(want);
	g_free(keep);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_missing_scenario)
{
	struct fix *fx = fix_new();
	char *out = g_build_filename(fx->dir, "out", NULL);
	struct run_result *runs[1] = {fx->r};
	struct c2c_err err = {0};

	g_unlink(fx->sc->path);
	ck_assert(!output_write(out, fx->sc, runs, 1, "r", &err));
	ck_assert_msg(strstr(err.msg, "cannot copy the scenario file: "), "%s", err.msg);
	ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
	ck_assert_int_eq(su_dot_entries(fx->dir), 0);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_deterministic)
{
	static const char *const files[] = {"summary.yaml", "lines.csv", "offsets.csv",
					    "params/default.yaml"};
	struct fix *a = fix_new(), *b = fix_new();
	char *oa, *ob;

	/* Same scenario path in both, so scenario_file matches too. */
	g_free(b->sc->path);
	b->sc->path = g_strdup(a->sc->path);
	oa = write_results(a, "out", "r");
	ob = write_results(b, "out", "r");
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		char *ta = slurp(oa, files[i]), *tb = slurp(ob, files[i]);

		ck_assert_msg(!strcmp(ta, tb), "%s differs", files[i]);
		g_free(ta);
		g_free(tb);
	}
	g_free(oa);
	g_free(ob);
	fix_free(b);
	fix_free(a);
}
END_TEST

static Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc;

	tc = tcase_create("output_write");
	tcase_add_test(tc, output_write_files);
	tcase_add_test(tc, output_write_summary_world);
	tcase_add_test(tc, output_write_summary_no_world);
	tcase_add_test(tc, output_write_csv);
	tcase_add_test(tc, output_write_replace);
	tcase_add_test(tc, output_write_unwritable);
	tcase_add_test(tc, output_write_refuses_foreign_dir);
	tcase_add_test(tc, output_write_missing_scenario);
	tcase_add_test(tc, output_write_deterministic);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(output_suite());
}
