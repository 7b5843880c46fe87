/*
 * check_cli.c - end-to-end tests of the c2csim program: runs, determinism, results
 * directories, and every kind of bad input giving exit 2 and one `file:line:col: message` line.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cmdutil.h"
#include "testutil.h"

START_TEST(run_demo_twice_identical)
{
	g_autofree char *tmp = tmpdir();
	g_autofree char *d1 = g_build_filename(tmp, "one", NULL);
	g_autofree char *d2 = g_build_filename(tmp, "two", NULL);
	const char *a1[] = {"run", "scenarios/false-sharing-demo.yaml", "--check", "--out", d1,
			    NULL};
	const char *a2[] = {"run", "scenarios/false-sharing-demo.yaml", "--check", "--out", d2,
			    NULL};
	struct cmd c1, c2;

	c2csim(&c1, a1);
	c2csim(&c2, a2);
	ck_assert_msg(c1.status == 0, "%s", c1.err);
	ck_assert_str_eq(c1.out, c2.out);
	ck_assert_ptr_nonnull(strstr(c1.out, "Shared Data Cache Line Table"));
	ck_assert_ptr_nonnull(strstr(c1.out, "stats"));
	{
		g_autofree char *s1 = slurp(d1, "summary.yaml"), *s2 = slurp(d2, "summary.yaml");
		g_autofree char *r1 = slurp(d1, "report.txt");

		ck_assert_str_eq(s1, s2);
		ck_assert_str_eq(r1, c1.out);
		ck_assert_ptr_nonnull(strstr(s1, "prefetch-off:"));
		ck_assert_ptr_nonnull(strstr(s1, "hitm:"));
	}
	cmd_free(&c1);
	cmd_free(&c2);
	rm_rf(tmp);
}
END_TEST

/* Variants run several at a time (-j) give the same results, byte for byte, as one after
 * the other, and a failure is the first variant's in variant order, whichever ends first. */
START_TEST(run_jobs_identical)
{
	g_autofree char *tmp = tmpdir();
	static const char *const files[] = {"summary.yaml", "lines.csv", "offsets.csv",
					    "report.txt"};
	const char *jobs[] = {"1", "4"};
	struct cmd c[2], f[2];

	for (int k = 0; k < 2; k++) {
		g_autofree char *d = g_build_filename(tmp, jobs[k], NULL);
		const char *a[] = {"run", "--quiet", "-j", jobs[k], "--set", "end.time_us=60", "--set", "end.warmup_us=20",
				   "--out", d, "scenarios/seeds/002-lruvec-prefetch.yaml", NULL};
		const char *b[] = {"run", "--quiet", "-j", jobs[k], "--max-events", "2000", "--out",
				   d, "scenarios/seeds/002-lruvec-prefetch.yaml", NULL};

		c2csim(&c[k], a);
		ck_assert_msg(c[k].status == 0, "%s", c[k].err);
		c2csim(&f[k], b);
		ck_assert_int_eq(f[k].status, 1);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *d1 = g_build_filename(tmp, "1", NULL);
		g_autofree char *d4 = g_build_filename(tmp, "4", NULL);
		g_autofree char *x = slurp(d1, files[i]), *y = slurp(d4, files[i]);

		ck_assert_msg(!strcmp(x, y), "%s differs between -j 1 and -j 4", files[i]);
	}
	ck_assert_str_eq(f[0].err, f[1].err);
	ck_assert_ptr_nonnull(strstr(f[0].err, "variant before:"));
	for (int k = 0; k < 2; k++) {
		cmd_free(&c[k]);
		cmd_free(&f[k]);
	}
	rm_rf(tmp);
}
END_TEST

/* Without a scenario, `c2csim run` replays seed 002 (shortened here). */
START_TEST(run_default_is_seed_002)
{
	g_autofree char *tmp = tmpdir();
	const char *a[] = {"run", "--quiet", "--out", tmp, "--set", "end.time_us=60", "--set",
			   "end.warmup_us=10", NULL};
	struct cmd c;

	c2csim(&c, a);
	ck_assert_msg(c.status == 0, "%s", c.err);
	{
		g_autofree char *s = slurp(tmp, "summary.yaml");

		ck_assert_ptr_nonnull(strstr(s, "scenario: \"002-lruvec-prefetch\""));
		ck_assert_ptr_nonnull(strstr(s, "  before:"));
		ck_assert_ptr_nonnull(strstr(s, "  after:"));
		ck_assert_ptr_nonnull(strstr(s, "struct: mem_cgroup_per_node"));
	}
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

START_TEST(run_seed_changes_result)
{
	g_autofree char *tmp = tmpdir();
	g_autofree char *d1 = g_build_filename(tmp, "a", NULL);
	g_autofree char *d2 = g_build_filename(tmp, "b", NULL);
	const char *a1[] = {"run", "sim/tests/data/small.yaml", "--quiet", "--out", d1, NULL};
	const char *a2[] = {"run", "sim/tests/data/small.yaml", "--quiet", "--seed", "8", "--out",
			    d2, NULL};
	struct cmd c1, c2;

	c2csim(&c1, a1);
	c2csim(&c2, a2);
	ck_assert_msg(c1.status == 0 && c2.status == 0, "%s %s", c1.err, c2.err);
	ck_assert_str_eq(c1.out, "");
	{
		g_autofree char *s1 = slurp(d1, "summary.yaml"), *s2 = slurp(d2, "summary.yaml");

		ck_assert_ptr_nonnull(strstr(s1, "seed: 7"));
		ck_assert_ptr_nonnull(strstr(s2, "seed: 8"));
		ck_assert_str_ne(s1, s2);
	}
	cmd_free(&c1);
	cmd_free(&c2);
	rm_rf(tmp);
}
END_TEST

START_TEST(run_results_directory_replaced_atomically)
{
	g_autofree char *tmp = tmpdir();
	g_autofree char *d = g_build_filename(tmp, "res", NULL);
	const char *a[] = {"run", "sim/tests/data/small.yaml", "--quiet", "--out", d, NULL};
	const char *files[] = {"summary.yaml", "lines.csv", "offsets.csv", "report.txt",
			       "scenario.yaml", "params/default.yaml"};
	struct cmd c;
	GDir *dir;
	const char *name;

	for (int i = 0; i < 2; i++) {
		c2csim(&c, a);
		ck_assert_msg(c.status == 0, "%s", c.err);
		cmd_free(&c);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++)
		g_free(slurp(d, files[i]));
	/* Nothing but the results directory is left in its parent. */
	dir = g_dir_open(tmp, 0, NULL);
	while ((name = g_dir_read_name(dir)))
		ck_assert_str_eq(name, "res");
	g_dir_close(dir);
	rm_rf(tmp);
}
END_TEST

START_TEST(run_trace_replay)
{
	g_autofree char *tmp = tmpdir();
	const char *a[] = {"run", "sim/tests/data/trace.yaml", "--check", "--out", tmp, NULL};
	struct cmd c;

	c2csim(&c, a);
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "trace:"));
	{
		g_autofree char *s = slurp(tmp, "summary.yaml");

		ck_assert_ptr_nonnull(strstr(s, "trace-cpu20"));
	}
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

START_TEST(run_set_overrides_machine)
{
	g_autofree char *tmp = tmpdir();
	const char *a[] = {"run", "sim/tests/data/small.yaml", "--quiet", "--out", tmp, "--set",
			   "machine=nehalem-ex-24", "--set", "end.time_us=5", NULL};
	struct cmd c;

	c2csim(&c, a);
	ck_assert_msg(c.status == 0, "%s", c.err);
	{
		g_autofree char *s = slurp(tmp, "summary.yaml");
		g_autofree char *p = slurp(tmp, "params/default.yaml");

		ck_assert_ptr_nonnull(strstr(s, "nehalem-ex-24"));
		ck_assert_ptr_nonnull(strstr(p, "time_us: 5"));
	}
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

/* Bad inputs: each gives exit 2 and one line naming the place. */
struct bad {
	const char *id;
	const char *args[8];
	const char *file_part, *what;
};

static const struct bad bads[] = {
	{"bad-1 malformed yaml", {"run", "sim/tests/data/bad-syntax.yaml"}, "bad-syntax.yaml:",
	 "expected valid YAML"},
	{"bad-2 unknown key", {"run", "sim/tests/data/unknown-key.yaml"}, "unknown-key.yaml:5:1",
	 "unknown key 'regoins'"},
	{"bad-3 wrong type", {"run", "sim/tests/data/wrong-type.yaml"}, "wrong-type.yaml:3:7",
	 "not an integer"},
	{"bad-4 negative latency",
	 {"run", "sim/tests/data/small.yaml", "--set", "machine.latency.hitm_local_ns=-3"},
	 "--set:1:1", "negative value -3"},
	{"bad-5 missing file", {"run", "sim/tests/data/no-such.yaml"}, "no-such.yaml:1:1",
	 "cannot open"},
	{"bad-6 unknown machine",
	 {"run", "sim/tests/data/small.yaml", "--set", "machine=pentium"}, "--set:1:1",
	 "unknown machine model 'pentium'"},
	{"bad-7 unknown region", {"run", "sim/tests/data/unknown-region.yaml"},
	 "unknown-region.yaml:8:46", "did you mean 'counter'"},
	{"bad-8 impossible machine",
	 {"run", "sim/tests/data/small.yaml", "--set", "machine.topology.cores_per_socket=1000"},
	 "skylake-sp-2s.yaml:", "impossible"},
	{"bad-10 malformed pahole", {"layout", "import", "sim/tests/data/layouts/bad.txt"},
	 "bad.txt:3:", "cannot parse member line"},
	{"bad-11 overlapping members", {"layout", "show", "sim/tests/data/layouts/overlap.yaml"},
	 "overlap.yaml:5:5", "overlaps a at 0-8"},
	{"bad-12 member past the end", {"layout", "fields", "sim/tests/data/layouts/past-end.yaml"},
	 "past-end.yaml:5:5", "past the end"},
	{"bad-13 unknown type", {"layout", "show", "sim/tests/data/layouts/unknown-type.yaml"},
	 "unknown-type.yaml:4:5", "unknown type 'u46'"},
	{"bad-14 bad alignment", {"layout", "check", "sim/tests/data/layouts/bad-align.yaml"},
	 "bad-align.yaml:3:33", "not a power of two"},
	{"bad-15 unknown member target",
	 {"run", "sim/tests/data/members.yaml", "--set", "actors[0].loop[1].at=pn.lruvec.lru_lok"},
	 "--set:1:1", "did you mean 'lru_lock'"},
	{"bad-16 unknown path called",
	 {"run", "sim/tests/data/res-counter.yaml", "--set", "actors[0].loop[0].call=chrage"},
	 "--set:1:1", "unknown path 'chrage' (expected a path of the models named in paths:; "
	 "did you mean 'charge'?)"},
	{"bad-17 unknown path member",
	 {"run", "sim/tests/data/res-counter.yaml", "--set", "paths=[paths-bad/unknown-member.yaml]"},
	 "unknown-member.yaml:9:15", "did you mean 'usage'"},
	{"bad-18 unknown entity kind",
	 {"run", "sim/tests/data/res-counter.yaml", "--set", "entities[0].kind=countr"},
	 "--set:1:1", "unknown kind 'countr'"},
	{"bad-19 bad lock kind",
	 {"run", "sim/tests/data/res-counter.yaml", "--set", "lock_kind=mcs"},
	 "--set:1:1", "unknown value 'mcs' (expected one of: ticket, queued"},
	{"bad-20 report.callers not a boolean",
	 {"run", "sim/tests/data/callers.yaml", "--set", "report.callers=often"},
	 "--set:1:1", "report.callers: 'often' is not a boolean (expected true or false)"},
	{"bad-9 unknown machine key",
	 {"run", "sim/tests/data/small.yaml", "--set", "machine.latency.hitm_lcl_ns=3"},
	 "--set:1:1", "did you mean 'hitm_local_ns'"},
};

START_TEST(run_bad_input)
{
	const struct bad *b = &bads[_i];
	struct cmd c;

	c2csim(&c, b->args);
	assert_one_line_error(&c, b->file_part, b->what);
	cmd_free(&c);
}
END_TEST

/* --callers splits the report's Pareto rows by caller (perf c2c -g); without it one row per
 * code site sums them.  offsets.csv has the callers either way. */
START_TEST(run_callers_in_report)
{
	g_autofree char *tmp = tmpdir();
	const char *plain[] = {"run", "sim/tests/data/callers.yaml", "--out", tmp, NULL};
	const char *split[] = {"run", "sim/tests/data/callers.yaml", "--out", tmp, "--callers",
			       NULL};
	struct cmd c, d;

	c2csim(&c, plain);
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_null(strstr(c.out, " <- "));
	{
		g_autofree char *o = slurp(tmp, "offsets.csv");

		ck_assert_ptr_nonnull(strstr(o, ",bump:0 rmw shared.count[0],from_fault:0 call bump,"));
		ck_assert_ptr_nonnull(strstr(o, ",bump:0 rmw shared.count[0],from_free:1 call bump,"));
		ck_assert_ptr_nonnull(strstr(o, ",bump:0 rmw shared.count[0],-,"));
	}
	c2csim(&d, split);
	ck_assert_msg(d.status == 0, "%s", d.err);
	ck_assert_ptr_nonnull(strstr(d.out, "bump:0 rmw shared.count[0] <- from_fault:0 call bump "));
	ck_assert_ptr_nonnull(strstr(d.out, "bump:0 rmw shared.count[0] <- from_free:1 call bump "));
	cmd_free(&c);
	cmd_free(&d);
	rm_rf(tmp);
}
END_TEST

START_TEST(run_members_named_in_report)
{
	g_autofree char *tmp = tmpdir();
	const char *a[] = {"run", "sim/tests/data/members.yaml", "--out", tmp, NULL};
	struct cmd c;

	c2csim(&c, a);
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "pn.lruvec.lru_lock"));
	ck_assert_ptr_nonnull(strstr(c.out, "pn.memcg"));
	{
		g_autofree char *s = slurp(tmp, "summary.yaml");
		g_autofree char *o = slurp(tmp, "offsets.csv");

		ck_assert_ptr_nonnull(strstr(s, "struct: mem_cgroup_per_node"));
		ck_assert_ptr_nonnull(strstr(o, ",pn,lruvec.lru_lock,"));
	}
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

START_TEST(layout_check_pair_placement)
{
	const char *a0[] = {"layout", "check", "sim/tests/data/layouts/pn-pair.yaml", NULL};
	const char *a64[] = {"layout", "check", "sim/tests/data/layouts/pn-pair.yaml",
			     "--placement", "64", NULL};
	struct cmd c;

	c2csim(&c, a0);
	ck_assert_int_eq(c.status, 1);
	ck_assert_str_eq(c.out, "sim/tests/data/layouts/pn-pair.yaml:9:5: not_same_pair: memcg "
			 "(offset 0, size 8) and lruvec.lists (offset 72, size 80) share 128-byte "
			 "pair 0 at placement 0\n");
	cmd_free(&c);
	c2csim(&c, a64);
	ck_assert_msg(c.status == 0, "%s%s", c.out, c.err);
	ck_assert_str_eq(c.out, "");
	cmd_free(&c);
}
END_TEST

START_TEST(layout_show_fields_diff)
{
	const char *show[] = {"layout", "show", "sim/tests/data/layouts/sketch.yaml", "--pair", NULL};
	const char *fields[] = {"layout", "fields", "mem_cgroup_per_node", NULL};
	const char *diff[] = {"layout", "diff", "layouts/linux-6.18/mem_cgroup_per_node.yaml",
			      "sim/tests/data/layouts/pn-lruvec-first.yaml", "--layouts",
			      "layouts/linux-6.18", NULL};
	struct cmd c;

	c2csim(&c, show);
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "group read_mostly begins"));
	ck_assert_ptr_nonnull(strstr(c.out, "128-byte pair boundary"));
	ck_assert_ptr_nonnull(strstr(c.out, "size: 448, cachelines: 7"));
	cmd_free(&c);
	c2csim(&c, fields);
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "\nlruvec.lru_lock\t152\t4\n"));
	cmd_free(&c);
	c2csim(&c, diff);
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "memcg: offset 0 -> "));
	ck_assert_ptr_nonnull(strstr(c.out, "lruvec.lru_lock: offset 152 -> 80, line 2 -> 1, "
				     "pair 1 -> 0"));
	cmd_free(&c);
}
END_TEST

START_TEST(run_path_variants_compared_and_identical)
{
	g_autofree char *tmp = tmpdir();
	g_autofree char *d1 = g_build_filename(tmp, "a", NULL), *d2 = g_build_filename(tmp, "b", NULL);
	const char *a1[] = {"run", "sim/tests/data/res-counter-variants.yaml", "--out", d1, NULL};
	const char *a2[] = {"run", "sim/tests/data/res-counter-variants.yaml", "--out", d2, NULL};
	struct cmd c1, c2;

	c2csim(&c1, a1);
	c2csim(&c2, a2);
	ck_assert_msg(c1.status == 0, "%s", c1.err);
	ck_assert_str_eq(c1.out, c2.out);
	ck_assert_ptr_nonnull(strstr(c1.out, "Variants against the baseline"));
	ck_assert_ptr_nonnull(strstr(c1.out, "Lock statistics"));
	ck_assert_ptr_nonnull(strstr(c1.out, "root.rc.lock"));
	ck_assert_ptr_nonnull(strstr(c1.out, "path:charge:mean"));
	{
		g_autofree char *s1 = slurp(d1, "summary.yaml"), *s2 = slurp(d2, "summary.yaml");

		ck_assert_str_eq(s1, s2);
		ck_assert_ptr_nonnull(strstr(s1, "ops_per_sec:"));
		ck_assert_ptr_nonnull(strstr(s1, "{name: root.rc.lock"));
		ck_assert_ptr_nonnull(strstr(s1, "{name: charge, calls:"));
	}
	cmd_free(&c1);
	cmd_free(&c2);
	rm_rf(tmp);
}
END_TEST

/* --variant keeps the named variants only; a name that is no variant is bad input. */
START_TEST(run_variant_selection)
{
	g_autofree char *tmp = tmpdir();
	const char *a[] = {"run", "sim/tests/data/res-counter-variants.yaml", "--quiet", "--out",
			   tmp, "--variant", "queued", NULL};
	const char *bad[] = {"run", "sim/tests/data/res-counter-variants.yaml", "--variant", "mcs",
			     NULL};
	struct cmd c;

	c2csim(&c, a);
	ck_assert_msg(c.status == 0, "%s", c.err);
	{
		g_autofree char *s = slurp(tmp, "summary.yaml");

		ck_assert_ptr_nonnull(strstr(s, "  queued:"));
		ck_assert_ptr_null(strstr(s, "  ticket:"));
	}
	cmd_free(&c);
	c2csim(&c, bad);
	assert_one_line_error(&c, "res-counter-variants.yaml:1:1", "no variant 'mcs' (expected one "
			      "of: ticket, queued)");
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

/* A model that indexes past an array stops the run (exit 1) with one line naming the path
 * operation's position, the path, the CPU and the simulated time. */
START_TEST(run_model_index_out_of_range)
{
	static const char *const index[] = {"5", "-1"};

	for (size_t i = 0; i < G_N_ELEMENTS(index); i++) {
		g_autofree char *args = g_strdup_printf("actors[0].loop[0].args=[root, %s]",
							index[i]);
		g_autofree char *want = g_strdup_printf(
			"sim/tests/data/paths/res_counter.yaml:46:15: model error in path bad_index "
			"on cpu 0 at 0 ps: index %s is out of range (expected 0 to 4) (variant "
			"default)\n", index[i]);
		const char *a[] = {"run", "sim/tests/data/res-counter.yaml", "--quiet", "--set",
				   "actors[0].loop[0].call=bad_index", "--set", args, NULL};
		struct cmd c;

		c2csim(&c, a);
		ck_assert_int_eq(c.status, 1);
		ck_assert_str_eq(c.err, want);
		cmd_free(&c);
	}
}
END_TEST

START_TEST(main_usage_and_version)
{
	const char *help[] = {"--help", NULL}, *ver[] = {"--version", NULL}, *none[] = {NULL};
	const char *bogus[] = {"frobnicate", NULL}, *badopt[] = {"run", "--bogus", NULL};
	struct cmd c;

	c2csim(&c, help);
	ck_assert_int_eq(c.status, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "c2csim COMMAND"));
	cmd_free(&c);
	c2csim(&c, ver);
	ck_assert_int_eq(c.status, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "c2csim 0."));
	cmd_free(&c);
	c2csim(&c, none);
	ck_assert_int_eq(c.status, 2);
	cmd_free(&c);
	c2csim(&c, bogus);
	ck_assert_int_eq(c.status, 2);
	cmd_free(&c);
	c2csim(&c, badopt);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(strstr(c.err, "c2csim run: Unknown option --bogus") != NULL, "%s", c.err);
	cmd_free(&c);
}
END_TEST

START_TEST(main_protocol_table)
{
	const char *a[] = {"protocol", NULL};
	struct cmd c;

	c2csim(&c, a);
	ck_assert_int_eq(c.status, 0);
	ck_assert_ptr_nonnull(strstr(c.out, "PF_STORE"));
	ck_assert_ptr_nonnull(strstr(c.out, "count_pf_hitm"));
	cmd_free(&c);
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, run_demo_twice_identical);
	tcase_add_test(tc, run_jobs_identical);
	tcase_add_test(tc, run_default_is_seed_002);
	tcase_add_test(tc, run_seed_changes_result);
	tcase_add_test(tc, run_results_directory_replaced_atomically);
	tcase_add_test(tc, run_trace_replay);
	tcase_add_test(tc, run_set_overrides_machine);
	tcase_add_test(tc, run_members_named_in_report);
	tcase_add_test(tc, run_callers_in_report);
	tcase_add_test(tc, layout_check_pair_placement);
	tcase_add_test(tc, layout_show_fields_diff);
	tcase_add_test(tc, run_path_variants_compared_and_identical);
	tcase_add_test(tc, run_model_index_out_of_range);
	tcase_add_test(tc, run_variant_selection);
	tcase_add_loop_test(tc, run_bad_input, 0, G_N_ELEMENTS(bads));
	suite_add_tcase(s, tc);
	tc = tcase_create("main");
	tcase_add_test(tc, main_usage_and_version);
	tcase_add_test(tc, main_protocol_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(cli_suite());
}
