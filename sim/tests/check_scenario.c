/* check_scenario.c - unit tests for scenario.c: CPU lists, region placement, targets,
 * variants and overrides, traces, machine lookup; the loader's error messages are in
 * scenario_errors.c, which this suite runs too. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "scenario_tests.h"
#include "testutil.h"
#include "yaml/ytree.h"

/* ---- helpers ----------------------------------------------------------------------------- */

static struct scenario *load_data(const char *name, const struct override *ov, uint32_t nr_ov,
				  bool seed_set, uint64_t seed)
{
	g_autofree char *rel = g_strdup_printf("sim/tests/data/%s", name);
	g_autofree char *path = tu_src_path(rel);
	struct c2c_err err = {0};
	struct scenario *sc = scenario_load(path, ov, nr_ov, seed_set, seed, &err);

	ck_assert_msg(sc != NULL, "%s", err.msg);
	ck_assert(!err.set);
	return sc;
}

char *tmp_dir(void)
{
	char *d = g_dir_make_tmp("check_scenario-XXXXXX", NULL);

	ck_assert_ptr_nonnull(d);
	return d;
}

char *put_file(const char *dir, const char *rel, const char *text)
{
	char *path = g_build_filename(dir, rel, NULL);
	g_autofree char *parent = g_path_get_dirname(path);

	ck_assert_int_eq(g_mkdir_with_parents(parent, 0755), 0);
	ck_assert(g_file_set_contents(path, text, -1, NULL));
	return path;
}

void rm_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *f;

	if (d) {
		while ((f = g_dir_read_name(d))) {
			g_autofree char *sub = g_build_filename(path, f, NULL);

			rm_tree(sub);
		}
		g_dir_close(d);
		g_rmdir(path);
	} else {
		g_unlink(path);
	}
}

static const struct op *op_at(const struct variant *v, uint32_t actor, uint32_t i)
{
	ck_assert_uint_lt(actor, v->nr_actors);
	ck_assert_uint_lt(i, v->actors[actor].nr_ops);
	return &v->actors[actor].ops[i];
}

static void assert_op(const struct op *op, int kind, uint64_t addr, uint64_t stride,
		      uint32_t size)
{
	ck_assert_int_eq(op->kind, kind);
	ck_assert_msg(op->addr == addr, "addr 0x%lx (expected 0x%lx)", (unsigned long)op->addr,
		      (unsigned long)addr);
	ck_assert_uint_eq(op->cpu_stride, stride);
	ck_assert_uint_eq(op->size, size);
}

static void assert_delay(const struct op *op, simtime_t min, simtime_t max)
{
	ck_assert_int_eq(op->kind, OP_DELAY);
	ck_assert_uint_eq(op->delay_min, min);
	ck_assert_uint_eq(op->delay_max, max);
	ck_assert_uint_eq(op->site, UINT32_MAX);
}

static uint32_t obj_named(const struct variant *v, const char *name)
{
	for (uint32_t i = 0; i < v->objs.nr; i++) {
		g_autofree char *other = objmap_name(&v->objs, i);

		if (!strcmp(other, name))
			return i;
	}
	ck_abort_msg("no object %s", name);
	return OBJ_NONE;
}

/* Object @i of @v (which must exist). */
static struct obj obj_get(const struct variant *v, uint32_t i)
{
	struct obj o;

	ck_assert(objmap_get(&v->objs, i, &o));
	return o;
}

/* parse_cpu_list on the value of "v: @yaml" (file "cpus.yaml"), for a 16-CPU machine. */
static bool cpu_list(const char *yaml, int **cpus, uint32_t *nr, struct c2c_err *err)
{
	g_autofree char *text = g_strdup_printf("v: %s\n", yaml);
	struct yt_node *t = yt_load_string("cpus.yaml", text, strlen(text), err);
	bool ok;

	ck_assert_msg(t != NULL, "%s", err->msg);
	ok = parse_cpu_list(yt_get(t, "v"), "cpus", 16, cpus, nr, err);
	yt_free(t);
	return ok;
}

/* ---- parse_cpu_list ---------------------------------------------------------------------- */

START_TEST(parse_cpu_list_good)
{
	static const struct {
		const char *yaml;
		int cpus[16];
		uint32_t nr;
	} cases[] = {
		{"0-3,8", {0, 1, 2, 3, 8}, 5},
		{"7", {7}, 1},
		{"15", {15}, 1},
		{"8,0-1", {0, 1, 8}, 3},
		{"5-5", {5}, 1},
		{"0-15", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 16},
		{"\"1, 3 ,5-6\"", {1, 3, 5, 6}, 4},
		{"3", {3}, 1},
		{"[3, 1, 2]", {1, 2, 3}, 3},
		{"[0]", {0}, 1},
		{"[15, 0]", {0, 15}, 2},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct c2c_err err = {0};
		int *cpus = NULL;
		uint32_t nr = 0;

		ck_assert_msg(cpu_list(cases[i].yaml, &cpus, &nr, &err), "%s: %s", cases[i].yaml,
			      err.msg);
		ck_assert_uint_eq(nr, cases[i].nr);
		for (uint32_t c = 0; c < nr; c++)
			ck_assert_msg(cpus[c] == cases[i].cpus[c], "%s: cpus[%u] = %d (expected %d)",
				      cases[i].yaml, c, cpus[c], cases[i].cpus[c]);
		g_free(cpus);
	}
}
END_TEST

START_TEST(parse_cpu_list_bad)
{
#define NOT_LIST "is not a CPU list (expected e.g. 0-3,8,10-11)"
	static const struct {
		const char *yaml, *msg;
	} cases[] = {
		{"3-1", "cpus.yaml:1:4: cpus: '3-1' " NOT_LIST},
		{"x", "cpus.yaml:1:4: cpus: 'x' " NOT_LIST},
		{"1-", "cpus.yaml:1:4: cpus: '1-' " NOT_LIST},
		{"-1", "cpus.yaml:1:4: cpus: '-1' " NOT_LIST},
		{"0x3", "cpus.yaml:1:4: cpus: '0x3' " NOT_LIST},
		{"1.5", "cpus.yaml:1:4: cpus: '1.5' " NOT_LIST},
		{"\"0,,1\"", "cpus.yaml:1:4: cpus: '0,,1' " NOT_LIST},
		{"0-1-2", "cpus.yaml:1:4: cpus: '0-1-2' " NOT_LIST},
		{"0,0", "cpus.yaml:1:4: cpus: CPU 0 listed twice (expected each CPU once)"},
		{"0-3,2", "cpus.yaml:1:4: cpus: CPU 2 listed twice (expected each CPU once)"},
		{"16", "cpus.yaml:1:4: cpus: CPU 16 does not exist (expected CPUs 0-15 on this "
		       "machine)"},
		{"14-20", "cpus.yaml:1:4: cpus: CPU 20 does not exist (expected CPUs 0-15 on this "
			  "machine)"},
		{"\"\"", "cpus.yaml:1:4: cpus: empty CPU list (expected at least one CPU)"},
		{"[]", "cpus.yaml:1:4: cpus: empty CPU list (expected at least one CPU)"},
		{"[1, 1]", "cpus.yaml:1:8: cpus: CPU 1 listed twice (expected each CPU once)"},
		{"[0, 16]", "cpus.yaml:1:8: cpus: 16 is out of range (expected an integer in "
			    "[0, 15])"},
		{"[0-3]", "cpus.yaml:1:5: cpus: '0-3' is not an integer (expected an integer in "
			  "[0, 15])"},
		{"{a: 1}", "cpus.yaml:1:4: cpus: expected a CPU list (got a mapping)"},
	};
#undef NOT_LIST

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct c2c_err err = {0};
		int *cpus = (int *)&err; /* must be reset to NULL */
		uint32_t nr = 0;

		ck_assert_msg(!cpu_list(cases[i].yaml, &cpus, &nr, &err), "%s parsed", cases[i].yaml);
		ck_assert_ptr_null(cpus);
		ck_assert_msg(!strcmp(err.msg, cases[i].msg), "%s:\n got  %s\n want %s",
			      cases[i].yaml, err.msg, cases[i].msg);
	}
}
END_TEST

/* ---- scenario_load ----------------------------------------------------------------------- */

START_TEST(scenario_load_regions)
{
	struct scenario *sc = load_data("unit-regions.yaml", NULL, 0, false, 0);
	const struct variant *v = &sc->v[0];
	static const struct {
		const char *name;
		uint64_t base, size;
		uint16_t node;
	} want[] = {
		{"a", 0x10000000, 8, 0},  {"b", 0x10000040, 100, 0}, {"c", 0x10000100, 64, 0},
		{"d", 0x20000000, 64, 1}, {"e", 0x20000040, 10, 0},  {"f", 0x2000004a, 4, 0},
	};

	ck_assert_str_eq(sc->name, "unit-regions");
	ck_assert(!sc->has_variants);
	ck_assert_uint_eq(sc->nr_variants, 1);
	ck_assert_str_eq(v->name, "default");
	ck_assert_uint_eq(v->seed, 5);
	ck_assert_uint_eq(v->end_iterations, 10);
	ck_assert_uint_eq(v->end_time, 0);
	ck_assert(v->report.group == GROUP_LINE && v->report.sort == SORT_TOT);
	ck_assert_uint_eq(v->report.lines, 10);
	ck_assert_uint_eq(v->objs.nr, G_N_ELEMENTS(want) + 2 * 80);
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		struct obj ob = obj_get(v, i), *o = &ob;
		g_autofree char *name = objmap_name(&v->objs, i);

		ck_assert_str_eq(name, want[i].name);
		ck_assert_msg(o->base == want[i].base, "%s at 0x%lx (expected 0x%lx)", name,
			      (unsigned long)o->base, (unsigned long)want[i].base);
		ck_assert_uint_eq(o->size, want[i].size);
		ck_assert_uint_eq(o->node, want[i].node);
		ck_assert_uint_eq(objmap_find(&v->objs, want[i].base), i);
	}
	ck_assert_uint_eq(objmap_find(&v->objs, 0x10000008), OBJ_NONE);
	scenario_free(sc);
}
END_TEST

/* One instance NAME[cpu] per CPU, a per-cpu unit apart, on the CPU's node. */
START_TEST(scenario_load_per_cpu)
{
	struct scenario *sc = load_data("unit-regions.yaml", NULL, 0, false, 0);
	const struct variant *v = &sc->v[0];

	for (int c = 0; c < 80; c++) {
		char p[16], q[16];
		uint32_t ip, iq;
		uint16_t node = (uint16_t)machine_socket_node(&v->mc, machine_cpu_socket(&v->mc, c));

		snprintf(p, sizeof(p), "p[%d]", c);
		snprintf(q, sizeof(q), "q[%d]", c);
		ip = obj_named(v, p);
		iq = obj_named(v, q);
		ck_assert_uint_eq(obj_get(v, ip).base, PERCPU_BASE + (uint64_t)c * PERCPU_UNIT);
		ck_assert_uint_eq(obj_get(v, ip).size, 16);
		ck_assert_uint_eq(obj_get(v, iq).base, PERCPU_BASE + (uint64_t)c * PERCPU_UNIT + 64);
		ck_assert_uint_eq(obj_get(v, ip).node, node);
		ck_assert_uint_eq(obj_get(v, iq).node, node);
		ck_assert_uint_eq(objmap_find(&v->objs, obj_get(v, iq).base + 7), iq);
	}
	/* CPU 20 is on socket 1, CPU 40 (CPU 0's sibling) on socket 0. */
	ck_assert_uint_eq(v->objs.v[obj_named(v, "p[20]")].node, 1);
	ck_assert_uint_eq(v->objs.v[obj_named(v, "p[40]")].node, 0);
	ck_assert_uint_eq(v->objs.v[obj_named(v, "p[79]")].node, 1);
	scenario_free(sc);
}
END_TEST

START_TEST(scenario_load_targets)
{
	struct scenario *sc = load_data("unit-regions.yaml", NULL, 0, false, 0);
	const struct variant *v = &sc->v[0];
	const struct actor *w = &v->actors[0], *r = &v->actors[1];

	ck_assert_uint_eq(v->nr_actors, 2);
	ck_assert_str_eq(w->name, "w");
	ck_assert_uint_eq(w->nr_cpus, 3);
	ck_assert_int_eq(w->cpus[0], 0);
	ck_assert_int_eq(w->cpus[1], 1);
	ck_assert_int_eq(w->cpus[2], 20);
	ck_assert_uint_eq(w->loops, 0);
	ck_assert_uint_eq(w->nr_ops, 10);
	assert_op(op_at(v, 0, 0), OP_LOAD, 0x10000000, 0, 8);
	assert_op(op_at(v, 0, 1), OP_STORE, 0x10000048, 0, 4);
	assert_op(op_at(v, 0, 2), OP_RMW, PERCPU_BASE + 8, PERCPU_UNIT, 8);
	assert_op(op_at(v, 0, 3), OP_LOAD, PERCPU_BASE + 64, PERCPU_UNIT, 8);
	assert_op(op_at(v, 0, 4), OP_LOAD, PERCPU_BASE + 3 * PERCPU_UNIT, 0, 8);
	assert_op(op_at(v, 0, 5), OP_LOCKED_RMW, 0x30000000, 0, 8);
	assert_op(op_at(v, 0, 6), OP_LOAD, PERCPU_BASE + 21 * PERCPU_UNIT + 4, 0, 4);
	assert_delay(op_at(v, 0, 7), 10000, 40000);
	assert_delay(op_at(v, 0, 8), 50 * v->mc.cycle, 50 * v->mc.cycle);
	assert_delay(op_at(v, 0, 9), 7500, 7500);
	ck_assert_uint_eq(r->nr_cpus, 2);
	ck_assert_int_eq(r->cpus[0], 40);
	ck_assert_int_eq(r->cpus[1], 41);
	assert_op(op_at(v, 1, 0), OP_LOAD, 0x2000003f, 0, 1);
	/* One code site per access, named after actor, index, op and target. */
	ck_assert_uint_eq(v->nr_sites, 8);
	for (uint32_t i = 0; i < 7; i++)
		ck_assert_uint_eq(op_at(v, 0, i)->site, i);
	ck_assert_str_eq(v->site_names[0], "w:0 load a");
	ck_assert_str_eq(v->site_names[2], "w:2 rmw p+8");
	ck_assert_str_eq(v->site_names[6], "w:6 load p[21]+4");
	ck_assert_str_eq(v->site_names[7], "r:0 load d+0x3f");
	scenario_free(sc);
}
END_TEST

/* Each variant's `set:` reaches its tree and its loaded machine, and nothing else. */
START_TEST(scenario_load_variants)
{
	static const struct {
		const char *name, *adjacent;
		uint64_t end_us, seed;
		simtime_t hitm_local;
	} want[] = {{"base", "true", 10, 11, 53000}, {"no-pf", "false", 10, 11, 53000},
		    {"short_2.0", "true", 2, 99, 60000}};
	struct scenario *sc = load_data("unit-variants.yaml", NULL, 0, false, 0);

	ck_assert_str_eq(sc->name, "unit-variants");
	ck_assert(sc->has_variants);
	ck_assert_uint_eq(sc->nr_variants, G_N_ELEMENTS(want));
	for (uint32_t i = 0; i < sc->nr_variants; i++) {
		const struct variant *v = &sc->v[i];
		struct yt_node *pf = yt_get(yt_get(v->tree, "machine"), "prefetch");

		ck_assert_str_eq(v->name, want[i].name);
		ck_assert_int_eq(v->mc.pf.adjacent_line, !strcmp(want[i].adjacent, "true"));
		ck_assert_str_eq(yt_get(pf, "adjacent_line")->str, want[i].adjacent);
		ck_assert_uint_eq(v->end_time, want[i].end_us * PS_PER_US);
		ck_assert_uint_eq(v->seed, want[i].seed);
		ck_assert_uint_eq(v->mc.hitm_local, want[i].hitm_local);
		ck_assert_str_eq(v->mc.name, "skylake-sp-2s");
		ck_assert(v->report.group == GROUP_PAIR && v->report.sort == SORT_RMT);
		ck_assert_uint_eq(v->report.lines, 3);
	}
	ck_assert_str_eq(yt_get(yt_get(sc->v[2].tree, "end"), "time_us")->str, "2");
	scenario_free(sc);
}
END_TEST

/* --set overrides apply to every variant, after the variant's own set. */
START_TEST(scenario_load_set_overrides)
{
	static const struct override ov[] = {
		{"machine.store_buffer.entries", "8"},
		{"end.time_us", "3"},
		{"machine.prefetch.adjacent_line", "true"},
		{"actors[0].cpus", "1-2"},
	};
	struct scenario *sc = load_data("unit-variants.yaml", ov, G_N_ELEMENTS(ov), false, 0);

	for (uint32_t i = 0; i < sc->nr_variants; i++) {
		const struct variant *v = &sc->v[i];

		ck_assert_uint_eq(v->mc.store_buffer, 8);
		ck_assert_uint_eq(v->end_time, 3 * PS_PER_US);
		ck_assert(v->mc.pf.adjacent_line);
		ck_assert_uint_eq(v->actors[0].nr_cpus, 2);
		ck_assert_int_eq(v->actors[0].cpus[0], 1);
		ck_assert_int_eq(v->actors[0].cpus[1], 2);
		ck_assert_str_eq(yt_get(yt_get(yt_get(v->tree, "machine"), "store_buffer"),
					"entries")->str, "8");
	}
	ck_assert_uint_eq(sc->v[2].seed, 99);
	ck_assert_uint_eq(sc->v[2].mc.hitm_local, 60000);
	scenario_free(sc);
}
END_TEST

/* --set machine=NAME (or a path) swaps the model under every variant before their sets. */
START_TEST(scenario_load_set_machine)
{
	g_autofree char *zen = tu_src_path("models/machines/zen3-epyc-2s.yaml");
	const struct override by_name[] = {{"machine", "nehalem-ex-24"}};
	const struct override by_path[] = {{"machine", zen}};
	struct scenario *sc = load_data("unit-variants.yaml", by_name, 1, false, 0);

	for (uint32_t i = 0; i < sc->nr_variants; i++) {
		ck_assert_str_eq(sc->v[i].mc.name, "nehalem-ex-24");
		ck_assert_int_eq(sc->v[i].mc.nr_cpus, 24);
	}
	ck_assert(!sc->v[1].mc.pf.adjacent_line);
	ck_assert_uint_eq(sc->v[2].mc.hitm_local, 60000);
	scenario_free(sc);
	sc = load_data("unit-variants.yaml", by_path, 1, false, 0);
	ck_assert_str_eq(sc->v[0].mc.name, "zen3-epyc-2s");
	scenario_free(sc);
}
END_TEST

START_TEST(scenario_load_seed_override)
{
	struct scenario *sc = load_data("unit-variants.yaml", NULL, 0, true, 1234);

	for (uint32_t i = 0; i < sc->nr_variants; i++) {
		ck_assert_uint_eq(sc->v[i].seed, 1234);
		ck_assert_str_eq(yt_get(sc->v[i].tree, "seed")->str, "1234");
	}
	scenario_free(sc);
	sc = load_data("unit-regions.yaml", NULL, 0, true, UINT64_MAX);
	ck_assert_uint_eq(sc->v[0].seed, UINT64_MAX);
	scenario_free(sc);
}
END_TEST

/* A trace: one actor per traced CPU, in CPU order, after the file's actors. */
START_TEST(scenario_load_trace)
{
	struct scenario *sc = load_data("unit-trace.yaml", NULL, 0, false, 0);
	const struct variant *v = &sc->v[0];
	static const struct {
		const char *name;
		int cpu;
		uint32_t nr_ops;
	} want[] = {{"bg", 5, 1}, {"trace-cpu0", 0, 3}, {"trace-cpu1", 1, 2},
		    {"trace-cpu20", 20, 1}};

	ck_assert_uint_eq(v->nr_actors, G_N_ELEMENTS(want));
	for (uint32_t a = 0; a < v->nr_actors; a++) {
		ck_assert_str_eq(v->actors[a].name, want[a].name);
		ck_assert_uint_eq(v->actors[a].nr_cpus, 1);
		ck_assert_int_eq(v->actors[a].cpus[0], want[a].cpu);
		ck_assert_uint_eq(v->actors[a].nr_ops, want[a].nr_ops);
		ck_assert_uint_eq(v->actors[a].loops, a ? 3 : 0);
	}
	assert_op(op_at(v, 1, 0), OP_LOCKED_RMW, 0x10000000, 0, 8);
	assert_delay(op_at(v, 1, 1), 20000, 20000);
	assert_op(op_at(v, 1, 2), OP_RMW, PERCPU_BASE + 8, PERCPU_UNIT, 8);
	assert_op(op_at(v, 2, 0), OP_LOAD, 0x10000000, 0, 8);
	assert_op(op_at(v, 2, 1), OP_LOAD, PERCPU_BASE + 2 * PERCPU_UNIT, 0, 4);
	assert_op(op_at(v, 3, 0), OP_STORE, 0x10000008, 0, 8);
	ck_assert_uint_eq(v->nr_sites, 6);
	ck_assert_str_eq(v->site_names[op_at(v, 3, 0)->site], "trace:2 store counter+8");
	ck_assert_str_eq(v->site_names[op_at(v, 1, 0)->site], "trace:3 locked_rmw counter");
	ck_assert_str_eq(v->site_names[op_at(v, 2, 1)->site], "trace:8 load pc[2]");
	scenario_free(sc);
}
END_TEST

/* Fields may be separated by runs of blanks.  Under valgrind or the ASan build this also
 * checks that the empty fields split off between blanks are not leaked. */
START_TEST(scenario_load_trace_blank_runs)
{
	g_autofree char *dir = tmp_dir();
	g_autofree char *path = put_file(dir, "s.yaml", HEAD "trace: {file: t.trace, loops: 2}\n");
	struct c2c_err err = {0};
	struct scenario *sc;

	g_free(put_file(dir, "t.trace", "0   load \t counter+8    8\n  3\t\tdelay   5\n"));
	sc = scenario_load(path, NULL, 0, false, 0, &err);
	rm_tree(dir);
	ck_assert_msg(sc != NULL, "%s", err.msg);
	ck_assert_uint_eq(sc->v[0].nr_actors, 2);
	assert_op(op_at(&sc->v[0], 0, 0), OP_LOAD, 0x10000008, 0, 8);
	ck_assert_uint_eq(op_at(&sc->v[0], 1, 0)->delay_min, 5000);
	ck_assert_uint_eq(sc->v[0].actors[1].loops, 2);
	scenario_free(sc);
}
END_TEST

/* ---- scenario_free ----------------------------------------------------------------------- */

START_TEST(scenario_free_null)
{
	scenario_free(NULL);
}
END_TEST

/* ---- scenario_find_machine --------------------------------------------------------------- */

START_TEST(scenario_find_machine_walks_up)
{
	g_autofree char *data = tu_src_path("sim/tests/data");
	g_autofree char *want = tu_src_path("models/machines/skylake-sp-2s.yaml");
	g_autofree char *got = scenario_find_machine("skylake-sp-2s", data);
	g_autofree char *canon = g_canonicalize_filename(want, NULL);

	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, canon);
	ck_assert_ptr_null(scenario_find_machine("no-such-machine", data));
}
END_TEST

/* A models/machines directory above a nested scenario is found first and used. */
START_TEST(scenario_find_machine_nested)
{
	g_autofree char *dir = tmp_dir(), *text = NULL, *got1 = NULL, *got2 = NULL;
	g_autofree char *src = tu_src_path("models/machines/nehalem-ex-24.yaml");
	g_autofree char *model = NULL, *shadow = NULL, *scen = NULL;
	g_autofree char *deep = g_build_filename(dir, "a", "b", "c", NULL);
	struct c2c_err err = {0};
	struct scenario *sc;

	ck_assert(g_file_get_contents(src, &text, NULL, NULL));
	model = put_file(dir, "models/machines/tiny.yaml", text);
	shadow = put_file(dir, "a/models/machines/skylake-sp-2s.yaml", text);
	scen = put_file(dir, "a/b/c/s.yaml", "machine: tiny\nseed: 1\nend: {iterations: 1}\n"
			"actors: [{name: x, cpus: 23, loop: [{op: load, at: 0x1000}]}]\n");
	got1 = scenario_find_machine("tiny", deep);
	got2 = scenario_find_machine("skylake-sp-2s", deep);
	sc = scenario_load(scen, NULL, 0, false, 0, &err);
	rm_tree(dir);
	ck_assert_str_eq(got1, model);
	ck_assert_str_eq(got2, shadow); /* the nearer models/ shadows the source tree's */
	ck_assert_msg(sc != NULL, "%s", err.msg);
	ck_assert_str_eq(sc->v[0].mc.name, "nehalem-ex-24"); /* the file's own name field */
	ck_assert_int_eq(sc->v[0].mc.nr_cpus, 24);
	scenario_free(sc);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc;

	tc = tcase(s, "parse_cpu_list");
	tcase_add_test(tc, parse_cpu_list_good);
	tcase_add_test(tc, parse_cpu_list_bad);
	tc = tcase(s, "scenario_load");
	tcase_add_test(tc, scenario_load_regions);
	tcase_add_test(tc, scenario_load_per_cpu);
	tcase_add_test(tc, scenario_load_targets);
	tcase_add_test(tc, scenario_load_variants);
	tcase_add_test(tc, scenario_load_set_overrides);
	tcase_add_test(tc, scenario_load_set_machine);
	tcase_add_test(tc, scenario_load_seed_override);
	tcase_add_test(tc, scenario_load_trace);
	tcase_add_test(tc, scenario_load_trace_blank_runs);
	scenario_errors_add(tc);
	tc = tcase(s, "scenario_free");
	tcase_add_test(tc, scenario_free_null);
	tc = tcase(s, "scenario_find_machine");
	tcase_add_test(tc, scenario_find_machine_walks_up);
	tcase_add_test(tc, scenario_find_machine_nested);
	return s;
}

int main(void)
{
	return tu_run(scenario_suite());
}
