/*
 * fuzz_load.c - libFuzzer target for c2csim's loaders (built and run by tools/fuzz).
 *
 * FUZZ_MODE picks what the input is:
 *   s  a scenario file (machine, layouts and paths resolve from the source tree);
 *   r  the same, then each of its first two variants runs for at most 2 us of simulated time
 *      with the invariant checks on;
 *   p  a path-model file, loaded by a fixed scenario that names it;
 *   l  a layout file;
 *   h  pahole text;
 *   m  a machine model file;
 *   t  a trace file, loaded by a fixed scenario that names it, then run for 2 us;
 *   o  `--set` overrides, one KEY=VALUE a line (at most 8), of a scenario with path models;
 *   e  one path-language expression: compiled, then evaluated on edge-case locals.
 * Bad input must give an error message and no result; a crash, a sanitizer report, a leak or
 * a failure without a message is a finding, and so is an invariant violation in a run.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "layout/layout.h"
#include "layout/layout_lib.h"
#include "layout/pahole.h"
#include "mem/machine.h"
#include "path/expr.h"
#include "yaml/ytree.h"
#include "c2csim_config.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char mode = 's';
static char *dir, *input, *pscenario, *tscenario, *trace;

/* The scenario of mode p: the fuzzed file is loaded after the 6.18 kinds. */
static const char pscenario_text[] =
	"name: fuzz-paths\n"
	"machine: skylake-sp-2s\n"
	"seed: 1\n"
	"end: {time_us: 1}\n"
	"layouts: [layouts/linux-6.18, layouts/model, layouts/linux-2.6.31]\n"
	"paths: [models/paths/6.18/kinds.yaml, input.yaml]\n"
	"actors:\n"
	"  - {name: a, cpus: 0, loop: [{op: delay, ns: 1}]}\n";

/* The scenario of mode t: the fuzzed trace, beside regions of both kinds. */
static const char tscenario_text[] =
	"name: fuzz-trace\n"
	"machine: skylake-sp-2s\n"
	"seed: 1\n"
	"end: {time_us: 2}\n"
	"regions:\n"
	"  - {name: counter, size: 64}\n"
	"  - {name: c, size: 512}\n"
	"  - {name: pc, size: 64, per_cpu: true}\n"
	"trace: {file: input.trace, loops: 2}\n";

static void cleanup(void)
{
	g_remove(input);
	g_remove(pscenario);
	g_remove(tscenario);
	g_remove(trace);
	g_rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("FUZZ_MODE");

	if (m && *m)
		mode = *m;
	dir = g_dir_make_tmp("c2csim-fuzz-XXXXXX", NULL);
	if (!dir)
		abort();
	atexit(cleanup);
	input = g_build_filename(dir, "input.yaml", NULL);
	pscenario = g_build_filename(dir, "scenario.yaml", NULL);
	tscenario = g_build_filename(dir, "trace.yaml", NULL);
	trace = g_build_filename(dir, "input.trace", NULL);
	if (!g_file_set_contents(pscenario, pscenario_text, -1, NULL) ||
	    !g_file_set_contents(tscenario, tscenario_text, -1, NULL))
		abort();
	return 0;
}

static void load_scenario(const char *path, struct c2c_err *err)
{
	struct scenario *sc = scenario_load(path, NULL, 0, false, 0, err);

	if (!sc && !err->msg[0])
		abort();
	scenario_free(sc);
}

/* Run what loaded, briefly.  A run may fail only for a model error the input asked for. */
static void run_scenario(const char *path, struct c2c_err *err)
{
	struct scenario *sc = scenario_load(path, NULL, 0, false, 0, err);

	if (!sc && !err->msg[0])
		abort();
	for (uint32_t v = 0; sc && v < sc->nr_variants && v < 2; v++) {
		struct c2c_err run_err = {0};
		struct run_result *r;

		if (!sc->v[v].end_time || sc->v[v].end_time > 2 * PS_PER_US)
			sc->v[v].end_time = 2 * PS_PER_US;
		r = run_variant(sc, v, true, &run_err);
		if (!r && !strstr(run_err.msg, ": model error in path "))
			abort(); /* only a run-time model error (interp.h) may stop a run */
		run_result_free(r);
	}
	scenario_free(sc);
}

static void load_layout(struct c2c_err *err)
{
	struct layout_lib *lib = layout_lib_new();
	const struct layout *l = layout_lib_load_file(lib, input, err);

	if (l)
		g_free(layout_member_at(lib, l, 0));
	else if (!err->msg[0])
		abort();
	layout_lib_free(lib);
}

static void load_pahole(const uint8_t *data, size_t size, struct c2c_err *err)
{
	char *text = g_strndup((const char *)data, size);
	struct layout *l = pahole_parse("input.txt", text, err);

	if (!l && !err->msg[0])
		abort();
	layout_free(l);
	g_free(text);
}

static void load_machine(struct c2c_err *err)
{
	struct yt_node *t = yt_load_file(input, err);
	struct machine m = {0};

	/* As a scenario's variant does: released whether or not it loaded. */
	if (t && !machine_load(&m, t, err) && !err->msg[0])
		abort();
	if (!t && !err->msg[0])
		abort();
	machine_release(&m);
	yt_free(t);
}

/* Mode o: each line KEY=VALUE is an override, as `c2csim run --set` passes it. */
static void load_overrides(const uint8_t *data, size_t size, struct c2c_err *err)
{
	g_autofree char *text = g_strndup((const char *)data, size);
	g_auto(GStrv) lines = g_strsplit(text, "\n", 9);
	g_autofree char *path = g_build_filename(C2CSIM_SRCDIR, "sim/tests/data/res-counter.yaml",
						 NULL);
	struct override ov[8];
	struct scenario *sc;
	uint32_t n = 0;

	for (char **l = lines; *l && n < 8; l++) {
		char *eq = strchr(*l, '=');

		if (!eq || eq == *l)
			return; /* the CLI refuses it before loading anything */
		*eq = 0;
		ov[n++] = (struct override){*l, eq + 1};
	}
	sc = scenario_load(path, ov, n, false, 0, err);
	if (!sc && !err->msg[0])
		abort();
	scenario_free(sc);
}

/* Mode e: names a..h are locals holding edge values, K a constant, cpu a builtin. */
static bool resolve(void *data, const char *name, struct expr_ref *out)
{
	(void)data;
	if (name[0] >= 'a' && name[0] <= 'h' && !name[1])
		*out = (struct expr_ref){EREF_LOCAL, name[0] - 'a'};
	else if (!strcmp(name, "K"))
		*out = (struct expr_ref){EREF_CONST, 4096};
	else if (!strcmp(name, "cpu"))
		*out = (struct expr_ref){EREF_BUILTIN, EB_CPU};
	else
		return false;
	return true;
}

static void eval_expr(const uint8_t *data, size_t size, struct c2c_err *err)
{
	static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "K", "cpu",
					    NULL};
	static const int64_t locals[8] = {0, 1, -1, 2, 63, 64, INT64_MAX, -4096};
	static const int64_t builtins[EB_COUNT] = {80, 2, 79, 1};
	g_autofree char *text = g_strndup((const char *)data, size);
	struct expr *e = expr_compile(text, (struct c2c_mark){"input", 1, 1}, resolve, NULL,
				      names, err);

	enum expr_fault fault = EXPR_OK;

	if (e)
		(void)expr_eval(e, locals, builtins, &fault); /* a fault is a value, not a finding */
	else if (!err->msg[0])
		abort();
	expr_free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct c2c_err err = {0};

	if (mode == 'h' || mode == 'o' || mode == 'e') {
		if (mode == 'h')
			load_pahole(data, size, &err);
		else if (mode == 'o')
			load_overrides(data, size, &err);
		else
			eval_expr(data, size, &err);
		return 0;
	}
	if (mode == 't') {
		if (!g_file_set_contents(trace, (const char *)data, (gssize)size, NULL))
			abort();
		run_scenario(tscenario, &err);
		return 0;
	}
	if (!g_file_set_contents(input, (const char *)data, (gssize)size, NULL))
		abort();
	if (mode == 'l')
		load_layout(&err);
	else if (mode == 'm')
		load_machine(&err);
	else if (mode == 'r')
		run_scenario(input, &err);
	else
		load_scenario(mode == 'p' ? pscenario : input, &err);
	return 0;
}
