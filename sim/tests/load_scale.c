/* load_scale.c - see load_scale.h. */
#include "load_scale.h"

#include <glib.h>
#include <stdio.h>
#include <time.h>

#include "testutil.h"
#include "yaml/ytree.h"

const char *const ls_kind_names[LS_KIND_COUNT] = {"entities", "map-keys", "trace-lines",
							    "set-keys"};

static double host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *write_input(const char *dir, const char *name, const GString *text)
{
	char *path = g_build_filename(dir, name, NULL);

	ck_assert(g_file_set_contents(path, text->str, (gssize)text->len, NULL));
	return path;
}

/* What a variant's `set:` of @n new keys under one mapping does (scenario.c applies each
 * with yt_set_path_node): @n overrides, each looking its path up in the growing mapping. */
static void set_keys(uint32_t n)
{
	struct c2c_err err = {0};
	struct yt_node *t = yt_load_string("ls", "x: {}", 5, &err), *x;

	ck_assert_msg(t != NULL, "%s", err.msg);
	for (uint32_t i = 0; i < n; i++) {
		char key[32];

		snprintf(key, sizeof(key), "x.K%u", i);
		ck_assert_msg(yt_set_path(t, key, "1", "set", &err), "%s", err.msg);
	}
	x = yt_get(t, "x");
	ck_assert_uint_eq(x->len, n);
	ck_assert_ptr_eq(yt_get(x, "K0"), x->pairs[0].val);
	yt_free(t);
}

static char *make_input(enum ls_kind kind, uint32_t n, const char *dir)
{
	g_autoptr(GString) s = g_string_new(NULL);
	g_autofree char *model = tu_src_path("sim/tests/data/paths/res_counter.yaml");

	if (kind == LS_MAP_KEYS) {
		for (uint32_t i = 0; i < n; i++)
			g_string_append_printf(s, "key%u: %u\n", i, i);
		return write_input(dir, "keys.yaml", s);
	}
	if (kind == LS_TRACE) {
		for (uint32_t i = 0; i < n; i++)
			g_string_append_printf(s, "%u load c+%u 8\n", i % 4, (i * 8) % 512);
		g_free(write_input(dir, "t.trace", s));
		g_string_assign(s, "name: ls\nmachine: skylake-sp-2s\nseed: 1\nend: {time_us: 100000}\n"
			       "regions: [{name: c, size: 512}]\ntrace: {file: t.trace}\n");
		return write_input(dir, "trace.yaml", s);
	}
	g_string_printf(s, "name: ls\nmachine: nehalem-ex-24\nseed: 1\nend: {time_us: 1}\n"
			"layouts: [layouts/linux-2.6.31]\npaths: [\"%s\"]\nentities:\n"
			"  - {name: root, kind: counter}\n"
			"  - {name: cg, kind: counter, parent: root, count: %u}\n"
			"actors: [{name: a, cpus: 0, loop: [{call: charge, args: [root]}]}]\n",
			model, n);
	return write_input(dir, "entities.yaml", s);
}

double ls_seconds(enum ls_kind kind, uint32_t n, const char *dir)
{
	g_autofree char *path = kind == LS_SET_KEYS ? NULL : make_input(kind, n, dir);
	struct c2c_err err = {0};
	double t0 = host_now();

	if (kind == LS_MAP_KEYS) {
		struct yt_node *t = yt_load_file(path, &err);

		ck_assert_msg(t && t->len == n, "%s", err.msg);
		yt_free(t);
	} else if (kind == LS_SET_KEYS) {
		set_keys(n);
	} else {
		struct scenario *sc = scenario_load(path, NULL, 0, false, 0, &err);

		ck_assert_msg(sc != NULL, "%s", err.msg);
		if (kind == LS_TRACE) {
			struct run_result *r = run_variant(sc, 0, false, &err);

			ck_assert_msg(r && stats_accesses(r->mem) == n, "%s", err.msg);
			run_result_free(r);
		}
		scenario_free(sc);
	}
	return host_now() - t0;
}
