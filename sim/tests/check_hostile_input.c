/*
 * check_hostile_input.c - hostile inputs (issue 10, items 11-13): every one must end in the
 * contract, never in a crash, a silent misreading or an unbounded run.
 *
 * Bad input: exit 2, exactly one line `file:line:col: message` on stderr (a command-line
 * option: `c2csim run: --option ...`), nothing on stdout and nothing written.  A resource
 * limit reached: exit 1, one line naming the limit and the option that raises it, nothing
 * written.  The inputs are kept in sim/tests/data/hostile/; the cases are rows of a table.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "load_scale.h"
#include "testutil.h"

#define H "sim/tests/data/hostile/"
#define SMALL "sim/tests/data/small.yaml"
#define TRACE(file) "run", H "trace.yaml", "--set", "trace.file=" file

struct hcase {
	const char *id;
	const char *args[12];  /* "@OUT" stands for a path that must not exist afterwards */
	int status;
	const char *prefix;    /* what stderr starts with (the position) */
	const char *what;      /* and what it says after that */
};

static const struct hcase cases[] = {
	/* Item 11: every resource limit, by its option (exit 1). */
	{"lim-events", {"run", SMALL, "--max-events", "100"}, 1,
	 SMALL ": variant default: ", "limit --max-events reached: more than 100 events "
	 "dispatched (raise it with --max-events N)"},
	{"lim-time", {"run", SMALL, "--max-time-us=5"}, 1, SMALL ": variant default: ",
	 "limit --max-time-us reached: more than 5 us simulated (raise it with --max-time-us N)"},
	{"lim-lines", {"run", SMALL, "--max-lines", "1"}, 1, SMALL ": variant default: ",
	 "limit --max-lines reached: more than 1 lines in the directory (raise it with "
	 "--max-lines N)"},
	{"lim-entities-default", {"run", H "entities-limit.yaml"}, 1,
	 H "entities-limit.yaml:11:52: ", "entities[1]: limit --max-entities reached: more than "
	 "1048576 entities in the scenario (raise it with --max-entities N)"},
	{"lim-entities", {"run", H "entities-limit.yaml", "--max-entities", "1000", "--set",
			  "entities[1].count=1000"}, 1,
	 "--set:1:1: ", "entities[1]: limit --max-entities reached: more than 1000 entities"},
	{"lim-trace-lines", {TRACE("five.trace"), "--max-trace-lines", "4"}, 1,
	 H "five.trace:7:1: ", "trace: limit --max-trace-lines reached: more than 4 lines in the "
	 "trace (raise it with --max-trace-lines N)"},
	{"lim-bad-value", {"run", SMALL, "--max-events", "0"}, 2, "c2csim run: --max-events '0' ",
	 "(expected a positive integer"},
	{"lim-overflow", {"run", SMALL, "--max-lines=99999999999999999999"}, 2,
	 "c2csim run: --max-lines '99999999999999999999' ", "(expected a positive integer"},
	/* Item 13: silently accepted or misread, now errors with their position. */
	{"seed-overflow", {"run", SMALL, "--seed", "99999999999999999999999"}, 2,
	 "c2csim run: --seed '99999999999999999999999' ", "(expected an integer in [0, "
	 "18446744073709551615])"},
	{"trace-size-wrap", {TRACE("size-wrap.trace")}, 2, H "size-wrap.trace:2:10: ",
	 "trace: size '4294967297' (expected 1 to 4096 bytes)"},
	{"trace-nul", {TRACE("nul.trace")}, 2, H "nul.trace:2:5: ",
	 "trace: NUL byte (expected text lines)"},
	{"expr-literal", {"run", H "expr-literal.yaml"}, 2, H "paths/big-literal.yaml:8:18: ",
	 "'1 + 18446744073709551615': unexpected '1' at column 5 (expected an integer literal of "
	 "at most 9223372036854775807)"},
	{"bits-zero", {"layout", "show", H "bits-zero.yaml"}, 2, H "bits-zero.yaml:5:43: ",
	 "members[1]: bits: 0 on member 'b' (expected 1 to 64 bits"},
	{"pahole-not-utf8", {"layout", "import", H "not-utf8.txt", "-o", "@OUT"}, 2,
	 H "not-utf8.txt:3:12: ", "pahole: byte 0xe9 is not UTF-8 (expected UTF-8 text)"},
	{"pahole-nul", {"layout", "import", H "nul-pahole.txt", "-o", "@OUT"}, 2,
	 H "nul-pahole.txt:3:1: ", "pahole: NUL byte (expected text lines)"},
	{"region-wrap", {"run", H "region-wrap.yaml"}, 2, H "region-wrap.yaml:7:37: ",
	 "regions[0]: region 'top' at 0xffffffffffffffc0 size 128 ends past the top of the "
	 "address space"},
	{"static-wrap", {"run", H "static-wrap.yaml"}, 2, H "static-wrap.yaml:8:58: ",
	 "objects[0]: o at 0xfffffffffffffff0 ends past the top of the address space"},
};

static void rm_rf(const char *path)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", path);

	ck_assert_int_eq(system(cmd), 0);
}

/* @args with "@OUT" replaced by @out, and "--out @out" added to runs that have no --out. */
static GPtrArray *case_args(const struct hcase *hc, const char *out)
{
	GPtrArray *a = g_ptr_array_new();
	bool has_out = false;

	for (const char *const *p = hc->args; *p; p++) {
		has_out |= !strcmp(*p, "@OUT");
		g_ptr_array_add(a, (char *)(strcmp(*p, "@OUT") ? *p : out));
	}
	if (!has_out && !strcmp(hc->args[0], "run")) {
		g_ptr_array_add(a, "--out");
		g_ptr_array_add(a, (char *)out);
	}
	g_ptr_array_add(a, NULL);
	return a;
}

START_TEST(hostile_contract)
{
	const struct hcase *hc = &cases[_i];
	g_autofree char *tmp = g_dir_make_tmp("c2csim-hostile-XXXXXX", NULL);
	g_autofree char *out = g_build_filename(tmp, "out", NULL);
	GPtrArray *args = case_args(hc, out);
	struct tu_cmd c;

	tu_c2csim(&c, (const char *const *)args->pdata);
	ck_assert_msg(c.status == hc->status, "%s: exit %d (expected %d), stderr: %s", hc->id,
		      c.status, hc->status, c.err);
	ck_assert_msg(g_str_has_prefix(c.err, hc->prefix) && strstr(c.err, hc->what),
		      "%s: stderr %s(expected %s... %s)", hc->id, c.err, hc->prefix, hc->what);
	ck_assert_msg(strchr(c.err, '\n') == c.err + strlen(c.err) - 1, "%s: not one line: %s",
		      hc->id, c.err);
	ck_assert_msg(!*c.out, "%s: stdout: %s", hc->id, c.out);
	ck_assert_msg(!g_file_test(out, G_FILE_TEST_EXISTS), "%s: %s was written", hc->id, out);
	ck_assert_int_eq(g_rmdir(tmp), 0); /* nothing else was left beside it either */
	tu_cmd_free(&c);
	g_ptr_array_free(args, TRUE);
}
END_TEST

/* The output limit: a run whose results would pass --max-output-mib writes nothing. */
START_TEST(hostile_output_limit)
{
	g_autofree char *tmp = g_dir_make_tmp("c2csim-hostile-XXXXXX", NULL);
	g_autofree char *out = g_build_filename(tmp, "out", NULL);
	g_autofree char *trace = g_build_filename(tmp, "big.trace", NULL);
	g_autofree char *set = g_strconcat("trace.file=", trace, NULL);
	g_autoptr(GString) text = g_string_new(NULL);
	const char *limited[] = {"run", H "trace.yaml", "--quiet", "--set", set,
				 "--max-output-mib", "1", "--out", out, NULL};
	const char *unlimited[] = {"run", H "trace.yaml", "--quiet", "--set", set, "--out", out,
				   NULL};
	struct tu_cmd c;

	/* 20000 code sites: offsets.csv alone is about 2 MiB. */
	for (int i = 0; i < 20000; i++)
		g_string_append_printf(text, "%d load c+%d 8\n", i % 4, (i % 8) * 8);
	ck_assert(g_file_set_contents(trace, text->str, (gssize)text->len, NULL));
	tu_c2csim(&c, limited);
	ck_assert_msg(c.status == 1, "exit %d: %s", c.status, c.err);
	ck_assert_msg(strstr(c.err, "limit --max-output-mib reached: more than 1 MiB written "
			     "(raise it with --max-output-mib N)"), "%s", c.err);
	ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
	tu_cmd_free(&c);
	tu_c2csim(&c, unlimited); /* the default lets it through */
	ck_assert_msg(c.status == 0, "%s", c.err);
	tu_cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

/* The limits are exact: a run of N events passes --max-events N and fails at N - 1; one that
 * ends at 20 us passes --max-time-us 20. */
START_TEST(hostile_limit_boundary)
{
	struct scenario *sc = tu_load_scenario(SMALL, NULL);
	struct run_result *r = tu_run_variant(sc, 0);
	g_autofree char *n = g_strdup_printf("%" G_GUINT64_FORMAT, r->events);
	g_autofree char *n1 = g_strdup_printf("%" G_GUINT64_FORMAT, r->events - 1);
	g_autofree char *tmp = g_dir_make_tmp("c2csim-hostile-XXXXXX", NULL);
	const char *pass[] = {"run", SMALL, "--quiet", "--max-events", n, "--max-time-us", "20",
			      "--out", tmp, NULL};
	const char *fail[] = {"run", SMALL, "--quiet", "--max-events", n1, "--out", tmp, NULL};
	struct tu_cmd c;

	ck_assert_uint_eq(r->sim_time, 20 * PS_PER_US);
	tu_c2csim(&c, pass);
	ck_assert_msg(c.status == 0, "%s", c.err);
	tu_cmd_free(&c);
	tu_c2csim(&c, fail);
	ck_assert_msg(c.status == 1 && strstr(c.err, "--max-events reached"), "%d %s", c.status,
		      c.err);
	tu_cmd_free(&c);
	run_result_free(r);
	scenario_free(sc);
	rm_rf(tmp);
}
END_TEST

/* Item 13, read right: trace fields follow the YAML number rules, so 010 is ten, not 8. */
START_TEST(hostile_trace_decimal)
{
	const char *sets[] = {"trace.file=octal.trace", NULL};
	struct scenario *sc = tu_load_scenario(H "trace.yaml", sets);
	const struct variant *v = &sc->v[0];
	uint32_t ci = objmap_find(&v->objs, v->actors[0].ops[0].addr);
	g_autofree char *name = objmap_name(&v->objs, ci);
	struct obj co, *c = &co;

	ck_assert(objmap_get(&v->objs, ci, c));

	ck_assert_uint_eq(v->nr_actors, 1);
	ck_assert_str_eq(v->actors[0].name, "trace-cpu10");
	ck_assert_str_eq(name, "c");
	ck_assert_uint_eq(v->actors[0].ops[0].addr - c->base, 10);
	scenario_free(sc);
}
END_TEST

/* Item 13: `--set name=X` names the run (it was accepted and ignored). */
START_TEST(hostile_set_name)
{
	g_autofree char *tmp = g_dir_make_tmp("c2csim-hostile-XXXXXX", NULL);
	const char *a[] = {"run", SMALL, "--quiet", "--set", "name=renamed", "--out", tmp, NULL};
	g_autofree char *path = g_build_filename(tmp, "summary.yaml", NULL), *s = NULL;
	struct tu_cmd c;

	tu_c2csim(&c, a);
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert(g_file_get_contents(path, &s, NULL, NULL));
	ck_assert_msg(strstr(s, "\nscenario: renamed\n"), "%s", s);
	tu_cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

/* Item 12: the loaders that were quadratic are linear.  Four times the input takes about
 * four times as long (a quadratic loader: sixteen); the ratio does not depend on the
 * machine's speed or the sanitizers.  The sizes are where a linear load already takes a
 * quarter of a second (a quadratic one took 1 s and 20 s for entities, 14 s for 4n keys). */
START_TEST(hostile_linear_loading)
{
	static const uint32_t n[LS_KIND_COUNT] = {1u << 15, 40000, 1u << 15, 1u << 15};
	g_autofree char *tmp = g_dir_make_tmp("c2csim-hostile-XXXXXX", NULL);
	double t1 = ls_seconds((enum ls_kind)_i, n[_i], tmp);
	double t4 = ls_seconds((enum ls_kind)_i, 4 * n[_i], tmp);

	ck_assert_msg(t4 < 10 * t1, "%s: %u took %.2f s, %u took %.2f s", ls_kind_names[_i],
		      n[_i], t1, 4 * n[_i], t4);
	rm_rf(tmp);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("contract");

	tcase_add_loop_test(tc, hostile_contract, 0, G_N_ELEMENTS(cases));
	tcase_add_test(tc, hostile_output_limit);
	tcase_add_test(tc, hostile_limit_boundary);
	tcase_add_test(tc, hostile_trace_decimal);
	tcase_add_test(tc, hostile_set_name);
	suite_add_tcase(s, tc);
	tc = tcase_create("scale");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, hostile_linear_loading, 0, LS_KIND_COUNT);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
