/*
 * check_hostile_paths.c - issue 10's hostile inputs to the path language, delays and
 * simulated time (sim/tests/data/hostile/), replayed through the c2csim binary with the
 * contract checked exactly:
 *   bad input     exit 2, exactly one line `file:line:col: message` on stderr, nothing on
 *                 stdout, no output directory;
 *   model error   exit 1, one line `file:line:col: model error in path P on cpu C at T ps:
 *                 ... (variant V)` naming the path operation, nothing written;
 *   unbounded     the end time stops the run: simulated time is the end time, the call that
 *                 was cut is not a completed iteration, and the host time stays small.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "testutil.h"

#define HOSTILE "sim/tests/data/hostile/"

struct hostile {
	const char *scenario;   /* under HOSTILE */
	const char *sets[6];    /* --set overrides, NULL-terminated */
	int status;
	const char *err;        /* stderr, exactly (without the newline) */
};

/* What one run of c2csim left. */
struct outcome {
	int status;
	char *out, *err;
	bool wrote;             /* the output directory exists */
	char *summary;          /* its summary.yaml, or NULL */
	double host_s;          /* host time the run took */
};

/* Run c2csim on @h (and --set @extra_set, may be NULL) with --out in a fresh temporary
 * directory, removed afterwards.  Free the outcome with outcome_free(). */
static struct outcome run(const struct hostile *h, const char *extra_set)
{
	g_autoptr(GError) gerr = NULL;
	g_autofree char *tmp = g_dir_make_tmp("c2csim-hostile-XXXXXX", &gerr);
	g_autofree char *dir = NULL, *sum = NULL, *cmd = NULL;
	g_autofree char *scn = g_strconcat(HOSTILE, h->scenario, NULL);
	/* No simulated-time limit (core/limits.h): these cases reach what is behind it. */
	const char *argv[24] = {"run", scn, "--quiet", "--max-time-us", "18446744073709551615",
				"--out", NULL};
	struct outcome o = {0};
	gint64 t0 = g_get_monotonic_time();
	int n = 7;

	ck_assert_msg(tmp != NULL, "%s", gerr ? gerr->message : "");
	dir = g_build_filename(tmp, "out", NULL);
	sum = g_build_filename(dir, "summary.yaml", NULL);
	cmd = g_strdup_printf("rm -rf '%s'", tmp);
	argv[6] = dir;
	for (int i = 0; h->sets[i]; i++) {
		argv[n++] = "--set";
		argv[n++] = h->sets[i];
	}
	if (extra_set) {
		argv[n++] = "--set";
		argv[n++] = extra_set;
	}
	tu_spawn_c2csim(argv, &o.status, &o.out, &o.err);
	o.host_s = (double)(g_get_monotonic_time() - t0) / 1e6;
	o.wrote = g_file_test(dir, G_FILE_TEST_EXISTS);
	if (!g_file_get_contents(sum, &o.summary, NULL, NULL))
		o.summary = NULL;
	ck_assert_int_eq(system(cmd), 0);
	return o;
}

static void outcome_free(struct outcome *o)
{
	g_free(o->out);
	g_free(o->err);
	g_free(o->summary);
}

/* Exit status, the one line on stderr, nothing on stdout, nothing written. */
static void replay(const struct hostile *h, const char *extra_set)
{
	g_autofree char *want = g_strconcat(h->err, "\n", NULL);
	struct outcome o = run(h, extra_set);

	ck_assert_msg(o.status == h->status, "%s: exit %d (expected %d): %s", h->scenario,
		      o.status, h->status, o.err);
	ck_assert_str_eq(o.err, want);
	ck_assert_str_eq(o.out, "");
	ck_assert_msg(!o.wrote, "%s: an output directory was written", h->scenario);
	outcome_free(&o);
}

/* Items 7 and 8: delays and end times that simulated time cannot hold are bad input. */
static const struct hostile bad_durations[] = {
	{"delay-range-wrap.yaml", {NULL}, 2, HOSTILE "delay-range-wrap.yaml:14:29: "
	 "actors.a.loop[1].ns: 18446744073709551.615 is out of range (expected a duration >= 0 "
	 "of at most 2^63 - 1 ps, SIMTIME_MAX)"},
	{"delay-cycles-huge.yaml", {NULL}, 2, HOSTILE "delay-cycles-huge.yaml:10:29: "
	 "actors.a.loop[0].cycles: 100000000000000000 is out of range (expected a duration >= 0 "
	 "of at most 2^63 - 1 ps, SIMTIME_MAX)"},
	{"end-time-huge.yaml", {NULL}, 2, HOSTILE "end-time-huge.yaml:5:16: end.time_us: "
	 "9223372036854776 is out of range (expected a duration >= 0 of at most 2^63 - 1 ps, "
	 "SIMTIME_MAX)"},
	{"smt-stretch.yaml", {"machine.smt_compute_pct=400",
			      "actors[0].loop[0].ns=3000000000000000"}, 1, HOSTILE "smt-stretch."
	 "yaml: variant default: the simulated clock of cpu 0 (actor a) would pass SIMTIME_MAX = "
	 "9223372036854775807 ps (about 106 days) after 0 ps; the run stops (expected an end "
	 "time or durations that fit)"},
	{"clock-overflow.yaml", {"end.time_ns=9223372036854775.808"}, 2, "--set:1:1: "
	 "end.time_ns: 9223372036854775.808 is out of range (expected a duration >= 0 of at "
	 "most 2^63 - 1 ps, SIMTIME_MAX)"},
	{"trace-delay-huge.yaml", {NULL}, 2, HOSTILE "huge-delay.trace:1:9: trace delay: "
	 "9223372036854776 is out of range (expected a duration >= 0 of at most 2^63 - 1 ps, "
	 "SIMTIME_MAX)"},
	{"clock-overflow.yaml", {NULL}, 1, HOSTILE "clock-overflow.yaml: variant default: the "
	 "simulated clock of cpu 0 (actor a) would pass SIMTIME_MAX = 9223372036854775807 ps "
	 "(about 106 days) after 4611686018427388000 ps; the run stops (expected an end time or "
	 "durations that fit)"},
};

START_TEST(durations)
{
	replay(&bad_durations[_i], NULL);
}
END_TEST

/* Item 5: divisions the x86 divide instruction refuses, between constants: bad input. */
static const struct hostile bad_constants[] = {
	{"model.yaml", {"paths=[paths/div-min.yaml]"}, 2, HOSTILE "paths/div-min.yaml:14:18: "
	 "'(0 - 9223372036854775807 - 1) / (0 - 1)': INT64_MIN divided by -1 does not fit in 64 "
	 "bits (expected a quotient the x86 divide instruction can produce)"},
	{"model.yaml", {"paths=[paths/mod-min.yaml]"}, 2, HOSTILE "paths/mod-min.yaml:14:18: "
	 "'(0 - 9223372036854775807 - 1) % (0 - 1)': INT64_MIN divided by -1 does not fit in 64 "
	 "bits (expected a quotient the x86 divide instruction can produce)"},
	{"model.yaml", {"paths=[paths/div-zero.yaml]"}, 2, HOSTILE "paths/div-zero.yaml:13:18: "
	 "'MEMCG_BATCH / (MEMCG_BATCH - 64)': division by zero (expected a divisor other than "
	 "0)"},
};

START_TEST(constants)
{
	replay(&bad_constants[_i], NULL);
}
END_TEST

#define CALL(path, args) {"actors[0].loop[0].call=" path, "actors[0].loop[0].args=" args}
#define AT(line_col, path, ps) HOSTILE "paths/model.yaml:" line_col ": model error in path " \
	path " on cpu 0 at " ps " ps: "

/* Items 5, 8 and 14: run-time model errors, one line at the path operation. */
static const struct hostile model_errors[] = {
	{"model.yaml", CALL("self_call", "[root]"), 1, AT("16:15", "self_call", "0") "call of "
	 "self_call nested deeper than 16 calls (expected at most INTERP_MAX_DEPTH = 16 frames: "
	 "does a path call itself?) (variant default)"},
	{"model.yaml", CALL("div_run", "[root, 0]"), 1, AT("21:15", "div_run", "0") "'4096 / n': "
	 "division by zero (expected a divisor other than 0) (variant default)"},
	{"model.yaml", CALL("mod_min_run", "[root, 0]"), 1, AT("26:15", "mod_min_run", "0")
	 "'(n - 9223372036854775807 - 1) % (n - 1)': INT64_MIN divided by -1 does not fit in 64 "
	 "bits (expected a quotient the x86 divide instruction can produce) (variant default)"},
	{"model.yaml", CALL("entity_bad", "[root, 999]"), 1, AT("40:15", "entity_bad", "0")
	 "entity 999 does not exist (expected 0 to 0) (variant default)"},
	{"model.yaml", CALL("entity_bad", "[root, -1]"), 1, AT("40:15", "entity_bad", "0")
	 "entity -1 does not exist (expected 0 to 0) (variant default)"},
	{"model.yaml", CALL("cpu_bad", "[root, 24]"), 1, AT("45:15", "cpu_bad", "0")
	 "CPU 24 does not exist (expected 0 to 23) (variant default)"},
	{"model.yaml", CALL("children_bad", "[root, 5]"), 1, AT("51:9", "children_bad", "0")
	 "entity 5 does not exist (expected 0 to 0) (variant default)"},
	{"model.yaml", {"actors[0].loop[0].call=delay_huge", "actors[0].loop[0].args=[root, "
	 "9223372036854775]", "end={iterations: 2}"}, 1, AT("58:16", "delay_huge",
	 "9223372036854775001") "a delay of 9223372036854775 ns takes the clock past "
	 "9223372036854775807 ps (expected the run to end before SIMTIME_MAX, 2^63 - 1 ps) "
	 "(variant default)"},
};

START_TEST(model_error)
{
	replay(&model_errors[_i], NULL);
}
END_TEST

/* A variant names itself in the model error. */
START_TEST(model_error_names_variant)
{
	const struct hostile h = {"model-variants.yaml", {NULL}, 1, AT("21:15", "div_run", "0")
				  "'4096 / n': division by zero (expected a divisor other than 0) "
				  "(variant zero)"};

	replay(&h, NULL);
}
END_TEST

/* The 64-bit value @key: of the summary's only variant. */
static uint64_t summary_u64(const char *summary, const char *key)
{
	const char *p = strstr(summary, key);

	ck_assert_msg(p != NULL, "no %s in %s", key, summary);
	return g_ascii_strtoull(p + strlen(key), NULL, 10);
}

/* Run @h to the end (exit 0) and return its summary.yaml. */
static char *run_to_end(const struct hostile *h, double *host_s)
{
	struct outcome o = run(h, NULL);
	char *summary = o.summary;

	ck_assert_msg(o.status == 0 && summary, "%s: exit %d: %s", h->scenario, o.status, o.err);
	*host_s = o.host_s;
	o.summary = NULL;
	outcome_free(&o);
	return summary;
}

/* Item 9: the end time (1 us) stops a path call that is running: 200,000 loads (ran 333 us),
 * a loop of 10^12 iterations of arithmetic, 10^15 bytes of `work` (never ended).  Simulated
 * time is the end time, the cut call is not a completed iteration, every load or line of
 * work took at least a cycle of the machine's (2.26 GHz: at most 2260 in 1 us). */
static const struct hostile unbounded[] = {
	{"model.yaml", {"actors[0].loop[0].call=loads", "actors[0].loop[0].args=[root, 200000]",
			"end.time_us=1"}, 0, NULL},
	{"model.yaml", {"actors[0].loop[0].call=spin",
			"actors[0].loop[0].args=[root, 1000000000000]", "end.time_us=1"}, 0, NULL},
	{"model.yaml", {"actors[0].loop[0].call=work",
			"actors[0].loop[0].args=[root, 1000000000000000]", "end.time_us=1"}, 0, NULL},
	{"model.yaml", {"actors[0].loop[0].call=delay_huge",
			"actors[0].loop[0].args=[root, 9223372036854775807]", "end.time_us=1"}, 0, NULL},
};

START_TEST(end_time_cuts)
{
	double host_s;
	g_autofree char *s = run_to_end(&unbounded[_i], &host_s);

	ck_assert_uint_eq(summary_u64(s, "sim_time_ps: "), 1000000);
	ck_assert_uint_eq(summary_u64(s, "iterations: "), 0);
	ck_assert_uint_le(summary_u64(s, "accesses: "), 2260);
	ck_assert_msg(host_s < 20.0, "%s took %.1f s of host time", unbounded[_i].sets[0], host_s);
}
END_TEST

/* Item 7: the widest random delay, 0 to SIMTIME_MAX, is legal and the end time cuts it.  (An
 * iteration of raw operations whose last one ends past the end time still counts.) */
START_TEST(widest_delay_range)
{
	const struct hostile h = {"delay-range-widest.yaml", {NULL}, 0, NULL};
	double host_s;
	g_autofree char *s = run_to_end(&h, &host_s);

	ck_assert_uint_eq(summary_u64(s, "sim_time_ps: "), 1000000);
	ck_assert_uint_le(summary_u64(s, "iterations: "), 1);
	ck_assert_uint_eq(summary_u64(s, "accesses: "), 1);
}
END_TEST

/* An SMT-stretched delay whose product d * pct passes 2^64 but whose result fits. */
START_TEST(smt_stretch_exact)
{
	const struct hostile h = {"smt-stretch.yaml", {"machine.smt_compute_pct=400"}, 0, NULL};
	double host_s;
	g_autofree char *s = run_to_end(&h, &host_s);

	ck_assert_uint_eq(summary_u64(s, "sim_time_ps: "), 8000000000000000000ull);
}
END_TEST

/* simtime_add and simtime_pct at SIMTIME_MAX. */
START_TEST(simtime_arith)
{
	simtime_t t;

	ck_assert(simtime_add(SIMTIME_MAX - 1, 1, &t) && t == SIMTIME_MAX);
	ck_assert(!simtime_add(SIMTIME_MAX, 1, &t));
	ck_assert(!simtime_add(UINT64_MAX, 2, &t)); /* wraps to 1: still refused */
	ck_assert(simtime_pct(SIMTIME_MAX, 100, &t) && t == SIMTIME_MAX);
	ck_assert(simtime_pct(SIMTIME_MAX / 4, 400, &t) && t == SIMTIME_MAX / 4 * 4);
	ck_assert(!simtime_pct(SIMTIME_MAX / 4 + 1, 400, &t));
	ck_assert(simtime_pct(199, 150, &t) && t == 298);  /* 298.5 rounded down */
	ck_assert(simtime_pct(7, 0, &t) && t == 0);
}
END_TEST

/* abs(INT64_MIN) is INT64_MIN (the path divides by zero otherwise) and runs. */
START_TEST(abs_min_wraps)
{
	const struct hostile h = {"model.yaml", {"actors[0].loop[0].call=abs_min",
						 "actors[0].loop[0].args=[root, 0]",
						 "end.time_ns=20"}, 0, NULL};
	double host_s;
	g_autofree char *s = run_to_end(&h, &host_s);

	ck_assert_uint_eq(summary_u64(s, "sim_time_ps: "), 20000);
	ck_assert_uint_gt(summary_u64(s, "iterations: "), 0);
}
END_TEST

/* @n copies of @open, then "1", then @n copies of @close, as a path file's expression. */
static void write_nested(const char *file, const char *open, const char *close, int n)
{
	GString *s = g_string_new("era: test\nkinds:\n  counter:\n    objects:\n      rc: "
				  "{layout: res_counter}\npaths:\n  - name: p\n    params: "
				  "[{c: counter}]\n    body:\n      - set: {x: \"");

	for (int i = 0; i < n; i++)
		g_string_append(s, open);
	g_string_append(s, "1");
	for (int i = 0; i < n; i++)
		g_string_append(s, close);
	g_string_append(s, "\"}\n");
	ck_assert(g_file_set_contents(file, s->str, -1, NULL));
	g_string_free(s, TRUE);
}

/* Item 6: 10^5 brackets or unary minus signs overflowed the stack; now one line at the
 * expression with the limit, exit 2. */
START_TEST(nesting_is_bounded)
{
	static const char *const kinds[][2] = {{"(", ")"}, {"-", ""}, {"!", ""}};
	g_autoptr(GError) gerr = NULL;
	g_autofree char *tmp = g_dir_make_tmp("c2csim-hostile-XXXXXX", &gerr);
	g_autofree char *file = g_build_filename(tmp, "nested.yaml", NULL);
	g_autofree char *set = g_strdup_printf("paths=[%s]", file);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmp);
	struct hostile h = {"model.yaml", {set}, 2, NULL};

	for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
		g_autofree char *shown = g_strnfill(60, kinds[k][0][0]);

		write_nested(file, kinds[k][0], kinds[k][1], 100000);
		h.err = g_strdup_printf("%s:10:18: '%s...': nested deeper than 64 at column 65 "
					"(expected at most EXPR_MAX_NESTING = 64 brackets, unary "
					"operators and calls inside each other)", file, shown);
		replay(&h, NULL);
		g_free((char *)h.err);
	}
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile_paths");
	TCase *tc = tcase_create("bad input");

	tcase_add_loop_test(tc, durations, 0, G_N_ELEMENTS(bad_durations));
	tcase_add_loop_test(tc, constants, 0, G_N_ELEMENTS(bad_constants));
	tcase_add_test(tc, nesting_is_bounded);
	suite_add_tcase(s, tc);
	tc = tcase_create("model errors");
	tcase_add_loop_test(tc, model_error, 0, G_N_ELEMENTS(model_errors));
	tcase_add_test(tc, model_error_names_variant);
	suite_add_tcase(s, tc);
	tc = tcase_create("end time");
	tcase_add_loop_test(tc, end_time_cuts, 0, G_N_ELEMENTS(unbounded));
	tcase_add_test(tc, widest_delay_range);
	tcase_add_test(tc, abs_min_wraps);
	tcase_add_test(tc, smt_stretch_exact);
	tcase_add_test(tc, simtime_arith);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(hostile_suite());
}
