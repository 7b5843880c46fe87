/*
 * check_seed_002.c - seed 002's replay (scenarios/seeds/002-lruvec-prefetch.yaml): threads of
 * skylake-sp-2s fault and free pages in one 6.18 memcg, before and after "memcg: fix cacheline
 * contention between lruvec stat updates and LRU lists", and the pointer-pair alternative.
 * See scenarios/seeds/README.md (seed 002).
 *
 * Every variant runs on the shipped skylake-sp-2s with no machine override but the -pf-off
 * variants' prefetcher switch: its pair-prefetch rules (models/machines/README.md, "The
 * pair-prefetch rules"), mlp 10 (Skylake-SP's fill buffers) and smt_compute_pct 160.
 *
 * Asserted (bands around what the model gives, the published figure in the comment):
 *  - HITMs on pn line 0 (bytes 0-63) from the stat update path (the thread's count,
 *    published ~2350 -> ~10): >= 50x fewer after (none left), at 20 and 80 threads, shmem and
 *    anon, and gone with the pad; before, line 0 has >= 5x the lru_lock line's HITMs
 *    (published 5x);
 *  - shmem, 20 threads: gain within 2x of the published +20% (+10..+40%);
 *  - shmem, 80 threads: after > before by > 5% (published +11%);
 *  - anon gain positive and below half the shmem gain at 20 threads (published +3% vs +20%);
 *  - prefetcher (and pair granule) off: |after/before - 1| < 1/4 of the gain with it on;
 *  - the 20-thread gain exceeding the 80-thread one (published 20% vs 11%) is NOT reproduced:
 *    it is a known gap, a Show item of the replay judged by check_seed_table.c;
 *  - pointer-pair is at least as fast as after (one load fewer) and has the same line-0 HITMs;
 *  - pad (the thread's padding experiment): line 0's HITMs go ("removed most of the
 *    contention").
 * Simulated times are shorter than the shipped scenario's (the test has a 60 s budget with
 * the invariant checks on), so the figures here include more of the start-up transient.
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "path/interp.h"
#include "layout/layout_lib.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testutil.h"

#define SCENARIO "scenarios/seeds/002-lruvec-prefetch.yaml"

struct seed_run {
	double per_s;          /* fault+free iterations per simulated second */
	uint64_t iterations;
	uint64_t pn_l0_hitm;   /* demand HITMs on bytes 0-63 of every mem_cgroup_per_node */
	uint64_t pn_l0_stat;   /* ... of them, from the stat update path (lruvec_stat_mod_folio) */
	uint64_t pn_l0_lru;    /* ... from the LRU size update under lru_lock */
	uint64_t pn_lock_hitm; /* ... on the 64-byte line holding lruvec.lru_lock */
	uint64_t stat_calls;   /* lruvec_stat_mod_folio calls */
};

static int kind_obj(const struct program *p, uint32_t kind, const char *name)
{
	for (uint32_t i = 0; i < p->kinds[kind].nr_obj; i++)
		if (!strcmp(p->kinds[kind].obj[i].name, name))
			return (int)i;
	return -1;
}

/* Callers (the call site one frame up) of the thread's "HITMs ... from the stat update
 * paths": the update entry the patch changes.  And those of the LRU size update, which runs
 * under lru_lock (update_lru_size() -> mod_memcg_lruvec_state()) and which the patch keeps. */
static const char *const STAT_CALLERS[] = {"lruvec_stat_mod_folio:", NULL};
static const char *const LRU_CALLERS[] = {"lruvec_add_folio:", "lruvec_del_folio:", NULL};

static bool caller_in(const struct run_result *r, uint32_t caller, const char *const *prefixes)
{
	if (!prefixes)
		return true;
	for (; caller != DIR_NONE && *prefixes; prefixes++)
		if (g_str_has_prefix(r->site_names[caller], *prefixes))
			return true;
	return false;
}

/* Sum the HITMs of the Pareto rows (line, offset) whose byte lies in [lo, hi) and whose caller
 * starts with one of @callers (NULL: any): this works in both coherence granules (64-byte
 * lines, or 128-byte pairs with an offset inside). */
static uint64_t hitm_in(const struct run_result *r, uint64_t lo, uint64_t hi,
			const char *const *callers)
{
	const struct mem *m = r->mem;
	uint64_t n = 0;

	for (uint32_t i = 0; i < stats_nr_orows(m); i++) {
		struct orow row;
		const struct orow *o = &row;
		uint64_t a;

		stats_orow(m, i, &row);
		a = stats_line_addr(m, o->line) + o->off;
		if (a >= lo && a < hi && caller_in(r, o->caller, callers))
			n += o->c[OS_HITM_LCL] + o->c[OS_HITM_RMT];
	}
	return n;
}

static struct seed_run run_seed(const char *variant, const char *const *sets)
{
	struct scenario *sc = tu_load_scenario(SCENARIO, sets);
	uint32_t v = tu_variant(sc, variant);
	struct run_result *r = tu_run_variant(sc, v);
	uint32_t n = sets ? g_strv_length((char **)sets) : 0;   /* for the printout */
	struct c2c_err err = {0};
	struct seed_run s = {0};
	const struct entities *en;
	int pn, stat;
	int32_t cg = -1;

	s.iterations = r->actors[0].iterations;
	s.per_s = (double)s.iterations * 1e12 / (double)r->sim_time;
	en = r->world->ents;
	for (uint32_t e = 0; e < en->nr; e++)
		if (!strcmp(en->name[e], "cg"))
			cg = (int32_t)e;
	ck_assert_int_ge(cg, 0);
	pn = kind_obj(r->prog, en->kind[cg], "pn");
	ck_assert_int_ge(pn, 0);
	for (int node = 0; node < r->mc->numa_nodes; node++) {
		uint64_t base = en->base[en->base_at[cg] + (uint32_t)pn * (uint32_t)r->mc->numa_nodes +
					 (uint32_t)node];
		const struct kobj *ko = &r->prog->kinds[en->kind[cg]].obj[pn];
		struct lref ref;

		ck_assert_msg(layout_find(sc->v[v].lib, ko->layout, "lruvec.lru_lock", &ref,
					  (struct c2c_mark){"test", 0, 0}, &err), "%s", err.msg);
		s.pn_l0_hitm += hitm_in(r, base, base + 64, NULL);
		s.pn_l0_stat += hitm_in(r, base, base + 64, STAT_CALLERS);
		s.pn_l0_lru += hitm_in(r, base, base + 64, LRU_CALLERS);
		s.pn_lock_hitm += hitm_in(r, base + (ref.offset & ~63ull),
					  base + (ref.offset & ~63ull) + 64, NULL);
	}
	stat = program_find(r->prog, "lruvec_stat_mod_folio");
	ck_assert_int_ge(stat, 0);
	s.stat_calls = r->world->pstats[stat].calls;
	printf("seed_002 %-13s %-40s %6.3f M fault+free/s, %" G_GUINT64_FORMAT
	       " iterations, pn line 0 HITMs %" G_GUINT64_FORMAT " (stat path %" G_GUINT64_FORMAT
	       ", LRU size %" G_GUINT64_FORMAT "), lru_lock line HITMs %" G_GUINT64_FORMAT "\n",
	       variant, n ? sets[n - 1] : "", s.per_s / 1e6, s.iterations, s.pn_l0_hitm,
	       s.pn_l0_stat, s.pn_l0_lru, s.pn_lock_hitm);
	run_result_free(r);
	scenario_free(sc);
	return s;
}

static const char *const S20[] = {"end.time_us=1000", NULL};
static const char *const A20[] = {"end.time_us=1000", "constants.ANON=1", NULL};
static const char *const S80[] = {"end.time_us=600", "actors[0].cpus=0-79", NULL};

/* 20 threads, shmem (the default run): line-0 HITMs, the gain, the mechanism check,
 * pointer-pair; anon at 20 threads, whose gain must be smaller; shmem at 80 threads. */
START_TEST(seed002_replay)
{
	struct seed_run b = run_seed("before", S20), a = run_seed("after", S20);
	struct seed_run pp = run_seed("pointer-pair", S20), pd = run_seed("pad", S20);
	struct seed_run boff = run_seed("before-pf-off", S20), aoff = run_seed("after-pf-off", S20);
	struct seed_run ab = run_seed("before", A20), aa = run_seed("after", A20);
	double gain = a.per_s / b.per_s - 1, gain_off = aoff.per_s / boff.per_s - 1;
	double gain_anon = aa.per_s / ab.per_s - 1;

	/* same work per iteration in every variant: 3 + 3 stat updates per shmem page */
	ck_assert_uint_ge(b.stat_calls, 6 * b.iterations - 6 * 20);
	ck_assert_uint_le(b.stat_calls, 6 * b.iterations + 6 * 20);
	/* pn line 0: read-mostly, yet the top HITM line before.  The thread counts "HITMs on the
	 * read-mostly line from the stat update paths": ~2350 -> ~10, and the seed asks >= 50x:
	 * after the patch lruvec_stat_mod_folio no longer touches mem_cgroup_per_node.  The
	 * lru_lock holder's RFO prefetch of line 0 installs it Modified (rfo_install), so the
	 * stat updates' pn->memcg loads are HITMs, >= 5x the lru_lock line's (published 5x). */
	ck_assert_uint_gt(b.pn_l0_stat, 1000);
	ck_assert_msg(b.pn_l0_stat >= 5 * b.pn_lock_hitm, "line 0 stat HITMs %" G_GUINT64_FORMAT
		      ", lru_lock line %" G_GUINT64_FORMAT, b.pn_l0_stat, b.pn_lock_hitm);
	ck_assert_uint_ge(b.pn_l0_stat, 50 * MAX(a.pn_l0_stat, 1));
	ck_assert_uint_ge(b.pn_l0_stat, 50 * MAX(pp.pn_l0_stat, 1));
	/* the throughput gain: within 2x of the published +20% */
	ck_assert_msg(gain > 0.10 && gain < 0.40, "shmem 20 gain %.3f", gain);
	/* the mechanism check: with the prefetcher off the gap disappears, and line 0 has no
	 * HITM at all (nobody writes it) */
	ck_assert_msg(gain_off > -gain / 4 && gain_off < gain / 4, "gain off %.3f", gain_off);
	ck_assert_uint_eq(boff.pn_l0_hitm, 0);
	ck_assert_uint_eq(aoff.pn_l0_hitm, 0);
	/* pad (the thread's quick experiment: pn line 0 moved out of the list heads' pair): the
	 * stat paths' line-0 HITMs go, as the thread saw */
	ck_assert_uint_ge(b.pn_l0_stat, 50 * MAX(pd.pn_l0_stat, 1));
	/* pointer-pair: one load fewer than after, same lines */
	ck_assert(pp.per_s >= a.per_s * 0.98);
	ck_assert_uint_le(pp.pn_l0_hitm, a.pn_l0_hitm * 5 / 4 + 10);
	/* anon: 1 + 1 stat updates per page, more other work: a positive but smaller gain */
	ck_assert_uint_ge(ab.pn_l0_stat, 50 * MAX(aa.pn_l0_stat, 1));
	ck_assert_msg(gain_anon > 0 && gain_anon < gain / 2, "anon gain %.3f, shmem %.3f",
		      gain_anon, gain);

	/* 80 threads (both sockets, SMT siblings sharing their cores and fill buffers), shmem:
	 * positive as published, the line-0 HITMs gone.  Published +11% at 80 against +20% at
	 * 20; the model's 80-thread gain is larger than 2x the published and than its 20-thread
	 * one: its 80-thread run lacks the cap the real one hit, so lru_lock is a larger share and
	 * the patch gains more.  Both are known gaps (scenarios/seeds/README.md): Show items of
	 * the replay, judged on the golden runs by check_seed_table.c. */
	struct seed_run b80 = run_seed("before", S80), a80 = run_seed("after", S80);
	double gain80 = a80.per_s / b80.per_s - 1;

	ck_assert_uint_ge(b80.pn_l0_stat, 50 * MAX(a80.pn_l0_stat, 1));
	ck_assert_msg(gain80 > 0.05, "shmem 80 gain %.3f", gain80);
}
END_TEST

static Suite *seed002_suite(void)
{
	Suite *s = suite_create("seed_002");
	TCase *tc = tcase_create("replay");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, seed002_replay);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(seed002_suite());
}
