/*
 * check_models_pcpu.c - the percpu_counter models (models/paths/6.18/percpu_counter.yaml: per-cpu
 * and seed 004's atomic mode of mm->rss_stat) and the 2.6.31 memcg charge
 * (models/paths/2.6.31/memcg.yaml: seed 001's root res_counter) run against their layouts.
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "path/interp.h"
#include "layout/layout_lib.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testutil.h"

static const struct pathstat *pstat(const struct run_result *r, const char *name)
{
	int i = program_find(r->prog, name);

	ck_assert_msg(i >= 0, "no path %s", name);
	return &r->world->pstats[i];
}

/* Mean latency of path @name, ps. */
static uint64_t mean_ps(const struct run_result *r, const char *name)
{
	const struct pathstat *ps = pstat(r, name);

	ck_assert_uint_gt(ps->lat.nr, 0);
	return ps->lat.total / ps->lat.nr;
}

/* Address of MEMBER (a member path) of object @obj of entity @e (node 0, CPU 0's instance). */
static uint64_t ent_addr(const struct scenario *sc, const struct run_result *r, uint32_t e,
			 uint32_t obj, const char *member)
{
	const struct entities *en = r->world->ents;
	const struct kobj *ko = &r->prog->kinds[en->kind[e]].obj[obj];
	struct c2c_err err = {0};
	struct lref ref;

	ck_assert_msg(layout_find(sc->v[0].lib, ko->layout, member, &ref,
				  (struct c2c_mark){"test", 0, 0}, &err), "%s", err.msg);
	return en->base[en->base_at[e] + obj * (uint32_t)r->mc->numa_nodes] + ref.offset;
}

/* (a) percpu_counter_read is approximate, within batch x nr_cpus; percpu_counter_sum is exact
 * once the adders stop; memory agrees with the truth. */
START_TEST(pcpu_read_error_bounded_sum_exact)
{
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/models-pcpu.yaml", NULL, 0, &sc);
	const struct counterstat *rd = tu_counter(r, "rss"), *sum = tu_counter(r, "rss_sum");
	int64_t nr_cpus = r->mc->nr_cpus, batch = MAX(32, 2 * nr_cpus);
	uint64_t adds = r->actors[0].iterations, ncpu_add = r->actors[0].nr_threads;
	int64_t count = (int64_t)mem_peek(r->mem, ent_addr(sc, r, 0, 0, "rss_stat[1].count"), 8);
	int64_t pcpu = 0;

	for (int c = 0; c < nr_cpus; c++)
		pcpu += (int32_t)mem_peek(r->mem, ent_addr(sc, r, 0, 1, "count[1]") +
					  (uint64_t)c * PERCPU_UNIT, 4);
	printf("models_pcpu (a) per-cpu mode, %" G_GUINT64_FORMAT " adders, batch %" G_GINT64_FORMAT
	       ": read max error %" G_GUINT64_FORMAT " (bound %" G_GINT64_FORMAT "), last read %"
	       G_GINT64_FORMAT " of %" G_GINT64_FORMAT "; sum max error under load %"
	       G_GUINT64_FORMAT ", last sum %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT "\n",
	       ncpu_add, batch, rd->max_abs_error, batch * nr_cpus, rd->last_read, rd->last_truth,
	       sum->max_abs_error, sum->last_read, sum->last_truth);
	/* Values: fbc->count plus every CPU's s32 is the number of adds. */
	ck_assert_int_eq(rd->truth, (int64_t)adds);
	ck_assert_int_eq(count + pcpu, (int64_t)adds);
	/* percpu_counter_read: off, but by less than a batch per CPU. */
	ck_assert_uint_gt(rd->reads, 100);
	ck_assert_uint_gt(rd->max_abs_error, 0);
	ck_assert_uint_le(rd->max_abs_error, (uint64_t)(batch * nr_cpus));
	/* ... and by less than a batch per CPU that adds (the truth moves only with them). */
	ck_assert_uint_le(rd->max_abs_error, (uint64_t)batch * ncpu_add);
	/* The readers outlive the adders (end.iterations): the last reads see a quiet counter.
	 * read still misses what sits in the per-cpu s32; sum is exact. */
	ck_assert_int_eq(rd->last_truth, (int64_t)adds);
	ck_assert_int_ne(rd->last_read, rd->last_truth);
	ck_assert_int_eq(sum->last_truth, (int64_t)adds);
	ck_assert_int_eq(sum->last_read, sum->last_truth);
	/* Under load the sum is not a snapshot (fast-path adds run while it walks the CPUs), but
	 * it is closer than a read. */
	ck_assert_uint_lt(sum->max_abs_error, rd->max_abs_error);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* (a) atomic mode: reads are exact but for the adds that complete during the read's own load
 * (observe compares with the truth when the load completes; the value was taken at issue). */
START_TEST(pcpu_atomic_read_exact)
{
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/models-pcpu-atomic.yaml",
					       NULL, 0, &sc);
	const struct counterstat *rd = tu_counter(r, "rss");
	uint64_t adds = r->actors[0].iterations, nthr = r->actors[0].nr_threads;
	int64_t count = (int64_t)mem_peek(r->mem, ent_addr(sc, r, 0, 0, "rss_stat[1].count"), 8);

	printf("models_pcpu (a) atomic mode, %" G_GUINT64_FORMAT " adders: read max error %"
	       G_GUINT64_FORMAT " over %" G_GUINT64_FORMAT " reads, last read %" G_GINT64_FORMAT
	       " of %" G_GINT64_FORMAT "\n", nthr, rd->max_abs_error, rd->reads, rd->last_read,
	       rd->last_truth);
	ck_assert_int_eq(count, (int64_t)adds);
	ck_assert_int_eq(rd->truth, (int64_t)adds);
	ck_assert_uint_gt(rd->reads, 100);
	ck_assert_int_eq(rd->last_truth, (int64_t)adds);
	ck_assert_int_eq(rd->last_read, rd->last_truth);
	/* At most one in-flight add per adder while the reader's load travels (see above). */
	ck_assert_uint_le(rd->max_abs_error, nthr);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

struct mode_run {
	uint64_t mean_ps, hitm;
};

/* models-pcpu-modes.yaml with @path on @cpus: cost per update and HITMs on the line of
 * rss_stat[1].count (the atomic's line; the per-cpu slow path writes it too). */
static struct mode_run run_mode(const char *path, const char *cpus)
{
	g_autofree char *call = g_strdup_printf("actors[0].loop[0].call=%s", path);
	g_autofree char *c = g_strdup_printf("actors[0].cpus=%s", cpus);
	const char *sets[] = {call, c, NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/models-pcpu-modes.yaml",
					       sets, 0, &sc);
	struct mode_run m;

	m.mean_ps = mean_ps(r, path);
	m.hitm = tu_line_hitm(r, ent_addr(sc, r, 0, 0, "rss_stat[1].count"));
	run_result_free(r);
	scenario_free(sc);
	return m;
}

/* (b) seed 004: atomic mode is contended once several threads update; per-cpu mode is not. */
START_TEST(pcpu_atomic_vs_percpu_cost)
{
	struct mode_run p1 = run_mode("mm_counter_fault", "0"),
			a1 = run_mode("mm_counter_fault_atomic", "0"),
			p8 = run_mode("mm_counter_fault", "0-7"),
			a8 = run_mode("mm_counter_fault_atomic", "0-7"),
			p16 = run_mode("mm_counter_fault", "0-15"),
			a16 = run_mode("mm_counter_fault_atomic", "0-15");

	printf("models_pcpu (b) ns per update (HITMs on the rss_stat line): 1 thread per-cpu %.2f "
	       "(%" G_GUINT64_FORMAT ") atomic %.2f (%" G_GUINT64_FORMAT "); 8 threads per-cpu "
	       "%.2f (%" G_GUINT64_FORMAT ") atomic %.2f (%" G_GUINT64_FORMAT "); 16 threads "
	       "per-cpu %.2f (%" G_GUINT64_FORMAT ") atomic %.2f (%" G_GUINT64_FORMAT ")\n",
	       p1.mean_ps / 1000.0, p1.hitm, a1.mean_ps / 1000.0, a1.hitm, p8.mean_ps / 1000.0,
	       p8.hitm, a8.mean_ps / 1000.0, a8.hitm, p16.mean_ps / 1000.0, p16.hitm,
	       a16.mean_ps / 1000.0, a16.hitm);
	/* One thread: nobody else touches the line. */
	ck_assert_uint_eq(a1.hitm, 0);
	ck_assert_uint_eq(p1.hitm, 0);
	/* 8 and 16 threads: every atomic add takes the line from another core. */
	ck_assert_uint_gt(a8.hitm, 8 * 600 / 2);
	ck_assert_uint_gt(a8.hitm, 20 * (p8.hitm + 1));
	ck_assert_uint_gt(a16.hitm, 20 * (p16.hitm + 1));
	ck_assert_uint_gt(a8.mean_ps, 10 * p8.mean_ps);
	ck_assert_uint_gt(a16.mean_ps, 10 * p16.mean_ps);
	ck_assert_uint_gt(a16.mean_ps, a8.mean_ps);
	/* One thread: the seed measured atomic mode faster (page_fault -6.7%), but that gain is
	 * the per-cpu allocation at fork/exec and 6.9's irq-save fast path, neither modelled: here
	 * an uncontended LOCK add costs more than the 6.11+ local cmpxchg fast path (whose loads
	 * overlap with the machine's mlp).  Assert only that it is uncontended (no HITM above, a
	 * tenth of the contended cost), not the seed's direction. */
	ck_assert_uint_lt(a1.mean_ps * 10, a8.mean_ps);
}
END_TEST

struct fault_run {
	uint64_t iterations, res_contentions, res_acq, nr_locks;
	uint64_t class_contentions, class_acq; /* res and memsw: one lock class in lock_stat */
	uint64_t usage, usage_truth;
	int64_t rss_sum, rss_truth;
};

static struct fault_run run_2631(bool skip)
{
	const char *sets[] = {"actors[0].loop[0].call=page_fault_2631_root_skip",
			      "actors[0].loop[1].call=page_free_2631_root_skip", NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/models-2631.yaml",
					       skip ? sets : NULL, 0, &sc);
	const struct world *w = r->world;
	uint64_t lock = ent_addr(sc, r, 0, 0, "res.lock");
	uint64_t memsw = ent_addr(sc, r, 0, 0, "memsw.lock");
	uint64_t cpustat = ent_addr(sc, r, 0, 0, "cpustat[0].count[1]");
	uint64_t stride = ent_addr(sc, r, 0, 0, "cpustat[1].count[1]") - cpustat;
	struct fault_run f = {0};

	f.iterations = r->actors[0].iterations;
	f.nr_locks = w->nr_locks;
	for (uint32_t i = 0; i < w->nr_locks; i++)
		if (w->locks[i].addr == lock) {
			f.res_contentions = w->locks[i].contentions;
			f.res_acq = w->locks[i].acquisitions;
		}
	for (uint32_t i = 0; i < w->nr_locks; i++)
		if (w->locks[i].addr == lock || w->locks[i].addr == memsw) {
			f.class_contentions += w->locks[i].contentions;
			f.class_acq += w->locks[i].acquisitions;
		}
	f.usage = mem_peek(r->mem, ent_addr(sc, r, 0, 0, "res.usage"), 8);
	f.usage_truth = (uint64_t)tu_counter(r, "res_usage")->truth;
	for (int c = 0; c < r->mc->nr_cpus; c++)
		f.rss_sum += (int64_t)mem_peek(r->mem, cpustat + (uint64_t)c * stride, 8);
	f.rss_truth = tu_counter(r, "rss_pages")->truth;
	run_result_free(r);
	scenario_free(sc);
	return f;
}

/* (c) seed 001: 24 CPUs faulting in the root memcg contend on its res_counter lock; skipping
 * the root's res_counter removes the lock and raises throughput. */
START_TEST(m2631_root_res_counter_contention)
{
	struct fault_run before = run_2631(false), after = run_2631(true);

	printf("models_pcpu (c) 2.6.31 root memcg, 24 CPUs, 200 us: before %" G_GUINT64_FORMAT
	       " fault+free iterations, res.lock %" G_GUINT64_FORMAT " acquisitions %"
	       G_GUINT64_FORMAT " contended, res+memsw locks %" G_GUINT64_FORMAT " acquisitions %"
	       G_GUINT64_FORMAT " contended, %" G_GUINT64_FORMAT " locks; after %" G_GUINT64_FORMAT
	       " iterations, %" G_GUINT64_FORMAT " locks\n", before.iterations, before.res_acq,
	       before.res_contentions, before.class_acq, before.class_contentions, before.nr_locks,
	       after.iterations, after.nr_locks);
	ck_assert_uint_gt(before.res_acq, 0);
	ck_assert_uint_gt(before.res_contentions, 0);
	/* lock_stat shows one class (&counter->lock) for res and memsw: most acquisitions of it
	 * wait (memsw.lock, taken right after res.lock, collects most of the waiting). */
	ck_assert_uint_gt(before.class_contentions * 2, before.class_acq);
	ck_assert_uint_eq(after.nr_locks, 0);
	ck_assert_uint_eq(after.res_acq, 0);
	ck_assert_uint_gt(after.iterations, 3 * before.iterations);
	/* Values: usage under the lock is the truth; the per-cpu stats sum to the truth. */
	/* equal but for a charge the end time cut between its count and its store (with the
	 * machine's mlp the store waits for its load): at most one page per CPU */
	ck_assert_uint_le(before.usage > before.usage_truth ? before.usage - before.usage_truth
							    : before.usage_truth - before.usage,
			  4096 * 24);
	ck_assert_uint_eq(after.usage, 0);
	ck_assert_int_eq(before.rss_sum, before.rss_truth);
	ck_assert_int_eq(after.rss_sum, after.rss_truth);
	ck_assert_int_ge(after.rss_truth, 0);
}
END_TEST

static Suite *models_pcpu_suite(void)
{
	Suite *s = suite_create("models_pcpu");
	TCase *tc = tcase_create("models_pcpu_run");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, pcpu_read_error_bounded_sum_exact);
	tcase_add_test(tc, pcpu_atomic_read_exact);
	tcase_add_test(tc, pcpu_atomic_vs_percpu_cost);
	tcase_add_test(tc, m2631_root_res_counter_contention);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(models_pcpu_suite());
}
