/*
 * check_track.c - which lines keep statistics of their own (mstats.h, scenario/track.c).
 *
 * A line gets its own counters and Pareto rows when a second CPU touches it or a HITM hits
 * it; until then its requests count only in the totals.  The totals never depend on it, a
 * shared line always has its record, a headline metric's objects have theirs from the first
 * touch, and no headline figure changes when every line is tracked.
 */
#include <glib.h>
#include <string.h>

#include "layout/objmap.h"
#include "report/headline.h"
#include "scenario/scenario.h"
#include "testutil.h"

static struct mem *track_mem(struct machine *mc, const struct objmap *om, bool all)
{
	struct mem *m = mem_new(mc, om, true);

	if (!all)
		mem_track_lines(m, NULL, false);
	return m;
}

static void same_totals(const struct mem *a, const struct mem *b, int step)
{
	uint64_t ta[LS_COUNT], tb[LS_COUNT];

	stats_totals(a, ta);
	stats_totals(b, tb);
	for (int k = 0; k < LS_COUNT; k++)
		ck_assert_msg(ta[k] == tb[k], "step %d: total %s %" G_GUINT64_FORMAT " vs %"
			      G_GUINT64_FORMAT, step, lstat_info[k].key, ta[k], tb[k]);
}

/* A line's own figures: all zero and no rows while untracked, never more than every line's
 * record counts (they start when the line became shared). */
static void line_bounded(const struct mem *sh, const struct mem *all, uint32_t l, int step)
{
	struct line_stats a, s;

	stats_line_all(all, l, &a);
	stats_line_all(sh, l, &s);
	if (stats_line_nr_cpus(sh, l) > 1)
		ck_assert_msg(stats_line_tracked(sh, l), "step %d: shared line %u untracked", step, l);
	if (!stats_line_tracked(sh, l))
		ck_assert_uint_eq(stats_line_first_orow(sh, l), DIR_NONE);
	for (int k = 0; k < LS_COUNT; k++)
		ck_assert_msg(s.c[k] <= a.c[k] && (stats_line_tracked(sh, l) || !s.c[k]),
			      "step %d: line %u %s", step, l, lstat_info[k].key);
}

/* Every demand access counts once in its line's record and once in its Pareto row (perf c2c's
 * two views of the same samples): with every line tracked, the rows' loads and stores add up
 * to each line's. */
static void rows_add_up(const struct mem *m)
{
	for (uint32_t l = 0; l < stats_nr_lines(m); l++) {
		struct line_stats s;
		uint64_t loads = 0, stores = 0;

		stats_line_all(m, l, &s);
		for (uint32_t i = 0; i < stats_nr_orows(m); i++) {
			struct orow o;

			stats_orow(m, i, &o);
			if (o.line != l)
				continue;
			loads += o.c[OS_LOADS];
			stores += o.c[OS_ST_L1HIT] + o.c[OS_ST_L1MISS];
		}
		ck_assert_msg(loads == s.c[LS_LOADS] && stores == s.c[LS_STORES],
			      "line %u: rows %" G_GUINT64_FORMAT " loads, %" G_GUINT64_FORMAT
			      " stores; its record %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT, l,
			      loads, stores, s.c[LS_LOADS], s.c[LS_STORES]);
	}
}

/* Pseudo-random accesses of 4 CPUs to 8 lines they share and 8 of each one's own, prefetcher
 * on: the memory system with every line tracked and the one with shared lines only agree on
 * every return and every total after each step. */
START_TEST(track_totals_exact)
{
	struct machine mc;
	struct mem *a, *s;
	simtime_t t[4] = {0};
	GRand *rnd = g_rand_new_with_seed(7);
	uint32_t tracked = 0;

	tu_machine(&mc, "skylake-sp-2s", NULL);
	a = track_mem(&mc, NULL, true);
	s = track_mem(&mc, NULL, false);
	for (int step = 0; step < 4000; step++) {
		int cpu = (int)g_rand_int_range(rnd, 0, 4);
		uint64_t base = g_rand_int_range(rnd, 0, 4) == 0 ? 0x100000
								 : 0x200000 + (uint64_t)cpu * 0x1000;
		uint64_t addr = base + (uint64_t)g_rand_int_range(rnd, 0, 8) * 64;
		enum mem_op op = (enum mem_op)g_rand_int_range(rnd, 0, MEM_OP_COUNT);
		simtime_t ta = mem_access(a, cpu, addr, 8, op, (uint32_t)(addr & 63), t[cpu]);
		simtime_t ts = mem_access(s, cpu, addr, 8, op, (uint32_t)(addr & 63), t[cpu]);

		ck_assert_msg(ta == ts, "step %d: the statistics changed the timing", step);
		same_totals(a, s, step);
		t[cpu] = ta;
	}
	ck_assert_uint_eq(stats_nr_lines(a), stats_nr_lines(s));
	for (uint32_t l = 0; l < stats_nr_lines(s); l++) {
		line_bounded(s, a, l, -1);
		tracked += stats_line_tracked(s, l);
	}
	rows_add_up(a);
	/* The 8 shared lines (and buddies a HITM prefetch took) at least; never the 32 private. */
	ck_assert_uint_ge(tracked, 8);
	ck_assert_uint_lt(tracked, stats_nr_lines(s));
	mem_free(a);
	mem_free(s);
	g_rand_free(rnd);
	machine_release(&mc);
}
END_TEST

/* CPU 0 writes a line three times, then CPU 1 reads it: the read is a local HITM and makes
 * the line shared, so its own figures start there (one load, one HITM, no store) while the
 * totals keep all three stores (a clean read by a second CPU does the same, and so does an
 * SMT sibling's read that hits the core's copy); run-ahead's
 * question follows: the untracked line was known
 * to CPU 0 alone, and once shared a new Pareto row is news. */
START_TEST(track_from_the_sharing_access)
{
	struct machine mc;
	struct mem *m;
	uint64_t tot[LS_COUNT], a = 0x40000;
	simtime_t t = 0;
	uint32_t l;

	tu_machine(&mc, "skylake-sp-2s", (const char *const[]){"prefetch.adjacent_line=false",
							       NULL});
	m = track_mem(&mc, NULL, false);
	for (int i = 0; i < 3; i++)
		t = mem_access(m, 0, a, 8, MEM_STORE, 1, t);
	t = mem_sb_drained(m, 0, t);
	l = mem_line(m, a);
	ck_assert(!stats_line_tracked(m, l));
	ck_assert(mem_access_known(m, 0, a, 8, 1, DIR_NONE));
	ck_assert(!mem_access_known(m, 1, a, 8, 1, DIR_NONE));
	mem_access(m, 1, a, 8, MEM_LOAD, 2, t);
	ck_assert(stats_line_tracked(m, l));
	ck_assert(!mem_access_known(m, 0, a, 8, 1, DIR_NONE));
	ck_assert_uint_eq(stats_line(m, l, LS_LOADS), 1);
	ck_assert_uint_eq(stats_line(m, l, LS_HITM_LCL), 1);
	ck_assert_uint_eq(stats_line(m, l, LS_STORES), 0);
	stats_totals(m, tot);
	ck_assert_uint_eq(tot[LS_STORES], 3);
	ck_assert_uint_eq(tot[LS_HITM_LCL], 1);
	/* A second CPU's clean read makes a line shared as well: no HITM needed. */
	t = mem_access(m, 0, a + 4096, 8, MEM_LOAD, 3, t);
	mem_access(m, 1, a + 4096, 8, MEM_LOAD, 3, t);
	l = mem_line(m, a + 4096);
	ck_assert(stats_line_tracked(m, l));
	ck_assert_uint_eq(stats_line(m, l, LS_LOADS), 1);
	ck_assert_uint_eq(stats_line(m, l, LS_HITM_LCL) + stats_line(m, l, LS_HITM_RMT), 0);
	/* So does an SMT sibling's read, served by the core's own copy (a private hit). */
	t = mem_access(m, 0, a + 8192, 8, MEM_LOAD, 4, t);
	mem_access(m, mc.nr_cores, a + 8192, 8, MEM_LOAD, 4, t);
	l = mem_line(m, a + 8192);
	ck_assert(stats_line_tracked(m, l));
	ck_assert_uint_eq(stats_line(m, l, LS_LD_L1), 1);
	mem_free(m);
	machine_release(&mc);
}
END_TEST

/* CPU 0 writes line B; CPU 1's load of its buddy A makes the prefetcher take B from CPU 0's
 * Modified copy (buddy_modified: steal): a prefetch HITM, which makes B shared although only
 * CPU 0 ever loaded or stored it. */
START_TEST(track_prefetch_hitm)
{
	struct machine mc;
	struct mem *m;
	uint64_t b = 0x40040;
	simtime_t t;
	uint32_t l;

	tu_machine(&mc, "skylake-sp-2s", (const char *const[]){"prefetch.buddy_modified=steal",
							       NULL});
	m = track_mem(&mc, NULL, false);
	t = mem_sb_drained(m, 0, mem_access(m, 0, b, 8, MEM_STORE, 1, 0));
	l = mem_line(m, b);
	ck_assert(!stats_line_tracked(m, l));
	mem_access(m, 1, b ^ 64, 8, MEM_LOAD, 2, t);
	ck_assert_uint_eq(stats_line_nr_cpus(m, l), 1);
	ck_assert(stats_line_tracked(m, l));
	ck_assert_uint_eq(stats_line(m, l, LS_PF_HITM), 1);
	mem_free(m);
	machine_release(&mc);
}
END_TEST

/* Lines holding a byte of a marked object are tracked from their first touch, private or
 * not; the others wait until they are shared. */
START_TEST(track_marked_objects)
{
	struct machine mc;
	struct objmap om;
	struct mem *m;
	uint8_t flag[2] = {0};
	uint32_t hot;

	tu_machine(&mc, "skylake-sp-2s", NULL);
	objmap_init(&om);
	hot = objmap_add(&om, "hot", NULL, 0x10020, 0x40, 0); /* straddles two lines */
	objmap_add(&om, "cold", NULL, 0x20000, 0x40, 0);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	flag[hot] = 1;
	m = mem_new(&mc, &om, false);
	mem_track_lines(m, flag, false);
	mem_access(m, 0, 0x10020, 8, MEM_LOAD, 1, 0);
	mem_access(m, 0, 0x10048, 8, MEM_LOAD, 1, 0);
	mem_access(m, 0, 0x20000, 8, MEM_LOAD, 1, 0);
	ck_assert(stats_line_tracked(m, mem_line(m, 0x10000)));
	ck_assert(stats_line_tracked(m, mem_line(m, 0x10040)));
	ck_assert(!stats_line_tracked(m, mem_line(m, 0x20000)));
	ck_assert_uint_eq(stats_line(m, mem_line(m, 0x10000), LS_LOADS), 1);
	mem_free(m);
	objmap_release(&om);
	machine_release(&mc);
}
END_TEST

/* Every headline metric of a shipped scenario is the same with every line tracked (track.c
 * tracks the lines they filter on from the first touch). */
START_TEST(track_headline_unchanged)
{
	static const char *const files[] = {"scenarios/false-sharing-demo.yaml",
					    "scenarios/page-fault-shmem-80.yaml"};
	const char *const sets[] = {"end.time_us=40", NULL};
	struct scenario *sc = tu_load_scenario(files[_i], sets);
	struct c2c_err err = {0};
	struct hl_set hs;

	ck_assert_msg(hl_load(sc, &hs, &err), "%s", err.msg);
	ck_assert_uint_gt(hs.nr, 0);
	for (uint32_t v = 0; v < sc->nr_variants; v++) {
		struct run_result *sh, *all;

		sc->track_all_lines = false;
		sh = tu_run_variant(sc, v);
		sc->track_all_lines = true;
		all = tu_run_variant(sc, v);
		for (uint32_t i = 0; i < hs.nr; i++)
			ck_assert_msg(hl_value(&hs.v[i], sh, NULL) == hl_value(&hs.v[i], all, NULL),
				      "%s: variant %s: headline %s", files[_i], sc->v[v].name,
				      hs.v[i].id);
		run_result_free(sh);
		run_result_free(all);
	}
	hl_set_free(&hs);
	scenario_free(sc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("track");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, track_totals_exact);
	tcase_add_test(tc, track_from_the_sharing_access);
	tcase_add_test(tc, track_prefetch_hitm);
	tcase_add_test(tc, track_marked_objects);
	tcase_add_loop_test(tc, track_headline_unchanged, 0, 2);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
