/*
 * fuzz_load.c - libFuzzer target for c2csim's loaders (built and run by tools/fuzz).
 *
 * FUZZ_MODE picks what the input is:
 *   s  a scenario file (machine, layouts and paths resolve from the source tree);
 *   r  the same, then each of its first two variants runs for at most 2 us of simulated time
 *      with the invariant checks on;
 *   p  a path-model file, loaded by a fixed scenario that names it;
 *   l  a layout file;
 *   h  pahole text.
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
#include "scenario/run.h"
#include "scenario/scenario.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char mode = 's';
static char *dir, *input, *pscenario;

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

static void cleanup(void)
{
	g_remove(input);
	g_remove(pscenario);
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
	if (!g_file_set_contents(pscenario, pscenario_text, -1, NULL))
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
static void run_scenario(struct c2c_err *err)
{
	struct scenario *sc = scenario_load(input, NULL, 0, false, 0, err);

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct c2c_err err = {0};

	if (mode == 'h') {
		load_pahole(data, size, &err);
		return 0;
	}
	if (!g_file_set_contents(input, (const char *)data, (gssize)size, NULL))
		abort();
	if (mode == 'l')
		load_layout(&err);
	else if (mode == 'r')
		run_scenario(&err);
	else
		load_scenario(mode == 'p' ? pscenario : input, &err);
	return 0;
}
