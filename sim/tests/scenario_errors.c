/* scenario_errors.c - the scenario loader's error messages (one case per way a scenario file
 * or its trace can be wrong, each message exact) and its edge cases that must fail: an offset
 * that wraps, an empty actor list, a bad --set, a missing trace.  Part of the `scenario`
 * suite (check_scenario.c runs them after its loading tests; helpers in scenario_tests.h). */
#include <check.h>
#include <errno.h>
#include <glib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "scenario_tests.h"
#include "testutil.h"

START_TEST(scenario_load_missing_trace_file)
{
	g_autofree char *dir = tmp_dir();
	g_autofree char *path = put_file(dir, "s.yaml", "machine: skylake-sp-2s\nseed: 1\n"
					 "end: {iterations: 1}\ntrace: {file: gone.trace}\n");
	g_autofree char *trace = g_build_filename(dir, "gone.trace", NULL), *want = NULL;
	struct c2c_err err = {0};

	ck_assert_ptr_null(scenario_load(path, NULL, 0, false, 0, &err));
	rm_tree(dir);
	want = g_strdup_printf("%s:4:15: trace.file: %s: cannot open: %s (expected a regular "
			       "trace file of at most 256 MiB)", path, trace, g_strerror(ENOENT));
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* Write @yaml to a temporary s.yaml (and @trace_text to t.trace), load it, and require a
 * failure with exactly @msg prefixed with the path of the trace if any, else the scenario. */
static void expect_load_error(size_t i, const char *yaml, const char *trace_text,
			      const char *msg)
{
	char *dir = tmp_dir();
	char *path = put_file(dir, "s.yaml", yaml);
	char *trace = trace_text ? put_file(dir, "t.trace", trace_text) : NULL;
	char want[C2C_ERR_MAX];
	struct c2c_err err = {0};
	struct scenario *sc = scenario_load(path, NULL, 0, false, 0, &err);
	bool loaded, same;

	snprintf(want, sizeof(want), "%s%s", trace ? trace : path, msg);
	loaded = sc != NULL;
	same = !strcmp(err.msg, want);

	/* Clean up first: a failed assertion ends the test. */
	scenario_free(sc);
	g_free(trace);
	g_free(path);
	rm_tree(dir);
	g_free(dir);
	ck_assert_msg(!loaded, "case %zu loaded (expected: %s)", i, want);
	ck_assert(err.set);
	ck_assert_msg(same, "case %zu:\n got  %s\n want %s", i, err.msg, want);
}

/* A valid actor list: lines 7-8. */
#define ACTORS "actors:\n  - {name: a, cpus: 0-1, loop: [{op: load, at: counter}]}\n"
/* One actor (lines 7-8) whose only op is OP (a flow mapping's inside). */
#define OP1(op) "actors:\n  - {name: a, cpus: 0, loop: [{" op "}]}\n"

/* Shared message tails. */
#define BAD_LINE "trace: bad line (expected 'CPU OP ADDRESS SIZE' with OP one of load, store, " \
		 "rmw, locked_rmw, or 'CPU delay NS')"
#define BAD_NAME "(expected 1 to 200 letters, digits, '_', '.' or '-', not starting with '.')"
#define NOT_PLAIN "(expected a plain file name: 1 to 200 bytes, no '/', no control character, " \
		  "not starting with '.')"
#define UNKNOWN "(expected a region or object name, or an address"
#define TRACE(extra) HEAD extra "trace: {file: t.trace}\n"

/* The loader's error messages, one case per way a scenario can be wrong.  With @trace, the
 * message is about the trace file t.trace, else about s.yaml. */
START_TEST(scenario_load_errors)
{
	static const struct {
		const char *yaml, *trace, *msg;
	} cases[] = {
		{"- 1\n", NULL, ":1:1: scenario: expected a mapping at the top"},
		{HEAD ACTORS "regoins: []\n", NULL,
		 ":9:1: scenario: unknown key 'regoins' (expected one of: name, description, machine, "
		 "seed, end, layouts, regions, objects, paths, constants, lock_kind, entities, init, "
		 "actors, trace, report, variants, headline, expect, layout_edits; did you mean "
		 "'regions'?)"},
		{HEAD ACTORS "variants:\n  - name: x\n  - name: x\n", NULL,
		 ":11:11: variants[1]: variant 'x' defined twice"},
		{HEAD ACTORS "variants:\n  - name: a b\n", NULL,
		 ":10:11: variants[0]: bad variant name: it holds a character other than a letter, "
		 "digit, '_', '.' or '-' " BAD_NAME},
		{HEAD ACTORS "variants:\n  - name: ..\n", NULL,
		 ":10:11: variants[0]: bad variant name: it starts with '.' " BAD_NAME},
		{HEAD ACTORS "variants:\n  - name: a/b\n", NULL,
		 ":10:11: variants[0]: bad variant name: it contains '/' " BAD_NAME},
		{"name: \"../../escaped-x\"\n" HEAD ACTORS, NULL,
		 ":1:7: name: not a plain file name: it contains '/' " NOT_PLAIN},
		{"name: .hidden\n" HEAD ACTORS, NULL,
		 ":1:7: name: not a plain file name: it starts with '.' " NOT_PLAIN},
		{"name: \"a\\nb\"\n" HEAD ACTORS, NULL,
		 ":1:7: name: not a plain file name: it contains a control character " NOT_PLAIN},
		{HEAD ACTORS "variants:\n  - name: \"\"\n", NULL,
		 ":10:11: variants[0]: bad variant name: it is empty " BAD_NAME},
		{HEAD ACTORS "variants: []\n", NULL,
		 ":9:11: variants: empty list (expected at least one variant)"},
		{HEAD ACTORS "variants:\n  - {name: x, set: {machine.prefetch.adjacent_line: maybe}}\n",
		 NULL, ":10:53: prefetch.adjacent_line: 'maybe' is not a boolean (expected true or "
		 "false)"},
		{HEAD OP1("op: load, at: counter+60, size: 8"), NULL,
		 ":8:46: actors.a.loop[0]: counter+60 at offset 60 size 8 is past the end of counter "
		 "(expected an offset below 64)"},
		{HEAD OP1("op: load, at: stats+64"), NULL,
		 ":8:46: actors.a.loop[0]: stats+64 at offset 64 size 8 is past the end of stats "
		 "(expected an offset below 64)"},
		{HEAD OP1("op: load, at: countr"), NULL,
		 ":8:46: actors.a.loop[0]: unknown object 'countr' " UNKNOWN "; did you mean "
		 "'counter'?)"},
		{HEAD OP1("op: load, at: zzzzzz+8"), NULL,
		 ":8:46: actors.a.loop[0]: unknown object 'zzzzzz' " UNKNOWN ")"},
		{HEAD OP1("op: load, at: counter+x"), NULL,
		 ":8:54: actors.a.loop[0]: bad offset in 'counter+x' (expected NAME+OFFSET, "
		 "OFFSET a decimal or 0x-hex integer)"},
		{HEAD OP1("op: delay, ns: 5, at: counter"), NULL,
		 ":8:54: actors.a.loop[0]: a delay takes no target or size"},
		{HEAD OP1("op: load, at: counter, ns: 5"), NULL,
		 ":8:59: actors.a.loop[0]: only delays take ns or cycles"},
		{HEAD OP1("op: delay, ns: [40, 10]"), NULL,
		 ":8:47: actors.a.loop[0].ns: max below min (expected [min, max])"},
		{HEAD "actors:\n  - {name: a, cpus: 0, loop: []}\n", NULL,
		 ":8:30: actors[0].loop: 0 operations (expected 1 to 4096)"},
		{HEAD ACTORS "  - {name: b, cpus: [2, 1], loop: [{op: load, at: counter}]}\n", NULL,
		 ":9:21: actors[1]: CPU 1 already runs actor a (expected one actor per CPU)"},
		{HEAD "actors:\n  - {name: a, cpus: 80, loop: [{op: load, at: counter}]}\n", NULL,
		 ":8:21: actors[0]: CPU 80 does not exist (expected CPUs 0-79 on this machine)"},
		{HEAD, NULL, ":1:1: scenario: nothing to run (expected actors or trace)"},
		{"machine: skylake\nseed: 1\nend: {iterations: 1}\n" ACTORS, NULL,
		 ":1:10: machine: unknown machine model 'skylake' (expected a file in "
		 "models/machines/, e.g. skylake-sp-2s, nehalem-ex-24, zen3-epyc-2s)"},
		{"machine: skylake-sp-2s\nseed: 1\nend: {}\n" ACTORS, NULL,
		 ":3:6: end: no end condition (expected time_us, time_ns or iterations greater than "
		 "zero)"},
		{HEAD "  - {name: counter, size: 8}\n" ACTORS, NULL,
		 ":7:5: regions[2]: region 'counter' defined twice"},
		{HEAD "  - {name: stats, size: 8}\n" ACTORS, NULL,
		 ":7:5: regions[2]: region 'stats' defined twice"},
		{HEAD "  - {name: x, size: 8, address: 0x10000020}\n" ACTORS, NULL,
		 ":1:1: scenario: 'x' overlaps the object before it in memory (expected disjoint "
		 "regions and objects)"},
		{HEAD "  - {name: x, size: 8, per_cpu: true, node: 1}\n" ACTORS, NULL,
		 ":7:45: regions[2]: a per-cpu region takes no address or node (its instances live "
		 "in each CPU's per-cpu unit on the CPU's node)"},
		{HEAD "  - {name: x, size: 8, align: 48}\n" ACTORS, NULL,
		 ":7:31: regions[2]: align 48 (expected a power of two)"},
		{HEAD "  - {name: x, size: 8, node: 2}\n" ACTORS, NULL,
		 ":7:30: regions[2]: 2 is out of range (expected an integer in [0, 1])"},
		{TRACE(""), "0 load counter 8\n1 lod counter 8\n", ":2:1: " BAD_LINE},
		{TRACE(""), "# c\n0 load counter\n", ":2:1: " BAD_LINE},
		{TRACE(""), "x load counter 8\n", ":1:1: " BAD_LINE},
		{TRACE(""), "0 load counter 8\n1 call counter 8\n", ":2:1: " BAD_LINE},
		{TRACE(""), "\n\n80 load counter 8\n", ":3:1: trace: CPU 80 does not exist "
		 "(expected 0-79)"},
		{TRACE(""), "0 load counter 0\n", ":1:16: trace: size '0' (expected 1 to 4096 bytes)"},
		{TRACE(""), "0 load countr 8\n", ":1:8: trace: unknown object 'countr' " UNKNOWN
		 "; did you mean 'counter'?)"},
		{TRACE(ACTORS), "0 load counter 8\n", ":1:1: trace: CPU 0 already runs an actor "
		 "(expected one actor per CPU)"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
		expect_load_error(i, cases[i].yaml, cases[i].trace, cases[i].msg);
}
END_TEST

/* An offset so large that offset + size wraps around must still be past the end (it used to
 * wrap and give an address below the region). */
START_TEST(scenario_load_offset_overflow)
{
	expect_load_error(0, HEAD OP1("op: load, at: counter+0xfffffffffffffff8"), NULL,
			  ":8:46: actors.a.loop[0]: counter+0xfffffffffffffff8 at offset "
			  "18446744073709551608 size 8 is past the end of counter (expected an offset "
			  "below 64)");
}
END_TEST

/* An empty actor list with no trace leaves nothing to run, like a missing one. */
START_TEST(scenario_load_empty_actors)
{
	expect_load_error(0, HEAD "actors: []\n", NULL,
			  ":7:9: scenario: nothing to run (expected actors or trace)");
}
END_TEST

/* A bad --set is reported against "--set", not against the file. */
START_TEST(scenario_load_bad_override)
{
	static const struct override ov[] = {{"actors[5].cpus", "0"}};
	g_autofree char *path = tu_src_path("sim/tests/data/unit-variants.yaml");
	struct c2c_err err = {0};

	ck_assert_ptr_null(scenario_load(path, ov, 1, false, 0, &err));
	ck_assert_str_eq(err.msg, "--set:1:1: path 'actors[5].cpus': index 5 is out of range for "
			 "'actors' (expected an index below 1)");
}
END_TEST

void scenario_errors_add(TCase *tc)
{
	tcase_add_test(tc, scenario_load_missing_trace_file);
	tcase_add_test(tc, scenario_load_errors);
	tcase_add_test(tc, scenario_load_offset_overflow);
	tcase_add_test(tc, scenario_load_empty_actors);
	tcase_add_test(tc, scenario_load_bad_override);
}
