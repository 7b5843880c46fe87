/*
 * check_walk.c - memory as the kernel leaves it: kinds' links (walks through pointers in
 * simulated memory, a chase whatever the mlp) and init: values (limits, NULL pointers).
 * The scenario is sim/tests/data/walk.yaml: a chain l0 (root) .. l7 plus s1, s2 under l0.
 */
#include <glib.h>
#include <string.h>

#include "path/interp.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testutil.h"

#define WALK "sim/tests/data/walk.yaml"

/* The median latency (ps) of path @name with machine.mlp = @mlp. */
static uint64_t walk_p50(const char *name, int mlp)
{
	g_autofree char *m = g_strdup_printf("machine.mlp=%d", mlp);
	const char *sets[] = {m, NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(WALK, sets, 0, &sc);
	struct pathstat *ps = &r->world->pstats[program_find(r->prog, name)];
	uint64_t p50;

	ck_assert_uint_gt(ps->lat.nr, 10);
	p50 = samples_percentile(&ps->lat, 50);
	run_result_free(r);
	scenario_free(sc);
	return p50;
}

/* Each step of ancestors() loads the parent pointer whose line a writer keeps dirty: ten
 * fill buffers cannot overlap a chase (within 5% of mlp 1), while the same eight loads
 * through entities already known overlap (at least 3x faster). */
START_TEST(walk_ancestors_is_a_chase_at_any_mlp)
{
	uint64_t w1 = walk_p50("walk", 1), w10 = walk_p50("walk", 10);
	uint64_t f1 = walk_p50("flat", 1), f10 = walk_p50("flat", 10);

	ck_assert_msg(w10 * 100 >= w1 * 95 && w10 * 100 <= w1 * 105, "walk: mlp 1 %"
		      G_GUINT64_FORMAT " ps, mlp 10 %" G_GUINT64_FORMAT " ps", w1, w10);
	ck_assert_msg(f10 * 3 < f1, "independent loads: mlp 1 %" G_GUINT64_FORMAT " ps, mlp 10 %"
		      G_GUINT64_FORMAT " ps", f1, f10);
	/* the chase pays one miss per level (8 of them), so it costs what the flat loads do
	 * one after the other */
	ck_assert_msg(w1 * 100 >= f1 * 90, "walk %" G_GUINT64_FORMAT " ps, flat %"
		      G_GUINT64_FORMAT " ps at mlp 1", w1, f1);
}
END_TEST

/* The pointers are real addresses: css.parent points at the parent's css, pc.parent at its
 * page_counter (NULL at the root), css.children / css.sibling form the kernel's lists. */
START_TEST(walk_links_are_addresses)
{
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(WALK, NULL, 0, &sc);
	const struct entities *e = r->world->ents;
	uint32_t l0 = (uint32_t)tu_entity(r, "l0"), l6 = (uint32_t)tu_entity(r, "l6");
	uint32_t l7 = (uint32_t)tu_entity(r, "l7");
	uint64_t css7 = e->base[e->base_at[l7]], css6 = e->base[e->base_at[l6]];
	/* bases are per (object, node): object 1 (pc) starts at + nr_nodes */
	uint64_t pc7 = e->base[e->base_at[l7] + 2], pc6 = e->base[e->base_at[l6] + 2];
	uint64_t pc0 = e->base[e->base_at[l0] + 2];

	ck_assert_uint_eq(r->mc->numa_nodes, 2);
	ck_assert_uint_eq(mem_peek(r->mem, css7 + 184, 8), css6);       /* css.parent */
	ck_assert_uint_eq(mem_peek(r->mem, pc7 + 168, 8), pc6);         /* page_counter.parent */
	ck_assert_uint_eq(mem_peek(r->mem, pc0 + 168, 8), 0);
	ck_assert_uint_eq(mem_peek(r->mem, pc7 + 160, 8), 2251799813685247ull); /* max */
	/* count_children: l0 has l1, s1 and s2; l7 none */
	ck_assert_uint_eq(mem_peek(r->mem, pc0 + 120, 8), 3);
	ck_assert_uint_eq(mem_peek(r->mem, pc7 + 120, 8), 0);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* page_counter_try_charge()'s `new > c->max`: with the kernel's default (PAGE_COUNTER_MAX)
 * the charge never fails; with a scenario init: of max 0 every charge does. */
START_TEST(walk_limit_default_is_unlimited)
{
	const char *sets[] = {"init={l7.pc.max: 0}", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(WALK, NULL, 0, &sc);
	const struct entities *e = r->world->ents;
	uint32_t l7 = (uint32_t)tu_entity(r, "l7");
	uint64_t pc7 = e->base[e->base_at[l7] + 2];
	uint64_t charges = mem_peek(r->mem, pc7, 8);

	ck_assert_uint_gt(charges, 10);
	ck_assert_uint_eq(mem_peek(r->mem, pc7 + 8, 8), 0);    /* failcnt */
	run_result_free(r);
	scenario_free(sc);
	r = tu_run_scenario(WALK, sets, 0, &sc);
	charges = mem_peek(r->mem, pc7, 8);
	ck_assert_uint_gt(charges, 10);
	/* Every charge fails, but for the calls the end time cut between the two: one per
	 * thread at most. */
	ck_assert_uint_le(mem_peek(r->mem, pc7 + 8, 8), charges);
	ck_assert_uint_ge(mem_peek(r->mem, pc7 + 8, 8) + r->nr_actors, charges); /* 1 CPU each */
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* propagate_protected_usage()'s `if (!c->parent)`: the root takes the NULL branch, a child
 * follows its pointer (p->usage); dereferencing the root's NULL is a model error. */
START_TEST(walk_null_pointer_branch)
{
	const char *sets[] = {"actors[3].loop=[{call: deref, args: [l0]}]", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario(WALK, NULL, 0, &sc);
	const struct entities *e = r->world->ents;
	uint64_t pc0 = e->base[e->base_at[tu_entity(r, "l0")] + 2];
	uint64_t pc7 = e->base[e->base_at[tu_entity(r, "l7")] + 2];
	struct c2c_err err = {0};

	ck_assert_uint_eq(mem_peek(r->mem, pc0 + 112, 8), 1);  /* watermark: the NULL branch */
	ck_assert_uint_eq(mem_peek(r->mem, pc7 + 112, 8), 2);
	run_result_free(r);
	scenario_free(sc);
	sc = tu_load_scenario(WALK, sets);
	ck_assert_ptr_null(run_variant(sc, 0, false, &err));
	ck_assert_msg(strstr(err.msg, "model error in path deref on cpu") &&
		      strstr(err.msg, ": NULL pointer dereference"), "%s", err.msg);
	scenario_free(sc);
}
END_TEST

/* Errors in init: and links: name the entry. */
START_TEST(walk_init_errors)
{
	static const struct {
		const char *set, *want;
	} cases[] = {
		{"init={l7.pc.maxx: 0}", "unknown member 'maxx' in struct page_counter"},
		{"init={l9.pc.max: 0}", "init: 'l9.pc.max' names no entity"},
		{"init={l7.pc.max: nr_cpus}", "init: 'nr_cpus' is not a constant"},
		{"init={l7.css.refcnt: 1}", "init: 'css.refcnt' is 16 bytes"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *path = tu_src_path(WALK);
		struct override ov;
		g_autofree char *key = g_strndup(cases[i].set, strcspn(cases[i].set, "="));
		struct c2c_err err = {0};

		ov.key = key;
		ov.value = strchr(cases[i].set, '=') + 1;
		ck_assert_ptr_null(scenario_load(path, &ov, 1, false, 0, &err));
		ck_assert_msg(strstr(err.msg, cases[i].want), "case %zu: %s", i, err.msg);
	}
}
END_TEST

static Suite *walk_suite(void)
{
	Suite *s = suite_create("walk");
	TCase *tc = tcase_create("walk");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, walk_ancestors_is_a_chase_at_any_mlp);
	tcase_add_test(tc, walk_links_are_addresses);
	tcase_add_test(tc, walk_limit_default_is_unlimited);
	tcase_add_test(tc, walk_null_pointer_branch);
	tcase_add_test(tc, walk_init_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(walk_suite());
}
