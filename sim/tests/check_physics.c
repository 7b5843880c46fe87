/*
 * check_physics.c - the memory system against the physics it claims (skylake-sp-2s).
 *
 * Each test drives CPUs directly through mem_access with invariant checks on, and compares
 * counts and latencies with the machine model's own figures (reference: latencies.md).
 */
#include <glib.h>
#include <string.h>

#include "testutil.h"

#define A 0x10000000ull

static struct machine mc;
static struct mem *m;

static void setup_pf(bool pf)
{
	static const char *const on[] = {"prefetch.adjacent_line=true", NULL};
	static const char *const off[] = {"prefetch.adjacent_line=false", NULL};

	tu_machine(&mc, "skylake-sp-2s", pf ? on : off);
	m = mem_new(&mc, NULL, true);
}

static void teardown(void)
{
	mem_free(m);
	machine_release(&mc);
	m = NULL;
}

/* One CPU alone, over loads, stores and RMWs on many lines: nothing to share. */
START_TEST(mem_access_one_cpu_alone)
{
	simtime_t t = 0;

	setup_pf(true);
	for (int i = 0; i < 20000; i++) {
		uint64_t addr = A + (uint64_t)(i * 7919 % 4096) * 8;

		t = mem_access(m, 0, addr, 8, (enum mem_op)(i % MEM_OP_COUNT), 0, t);
	}
	ck_assert(!m->failed);
	ck_assert_uint_eq(tu_sum(m, LS_HITM_LCL) + tu_sum(m, LS_HITM_RMT), 0);
	ck_assert_uint_eq(tu_sum(m, LS_PF_HITM), 0);
	ck_assert_uint_eq(tu_sum(m, LS_INV_RECV), 0);
	teardown();
}
END_TEST

/* Two CPUs alternately take one counter with a locked increment.  Every handoff is a HITM
 * and one handoff costs about the model's HITM latency (plus the locked RMW itself). */
static void ping_pong(int cpu_b, bool local)
{
	const int cpus[2] = {0, cpu_b};
	const uint64_t addrs[2] = {A, A};
	const uint64_t n = 2000;
	simtime_t end, per, model;

	setup_pf(false);
	end = tu_hammer(m, cpus, addrs, 2, MEM_LOCKED_RMW, n);
	/* The first access fills from DRAM; every later one takes the line from the other CPU. */
	ck_assert_uint_eq(tu_sum(m, local ? LS_HITM_LCL : LS_HITM_RMT), 2 * n - 1);
	ck_assert_uint_eq(tu_sum(m, local ? LS_HITM_RMT : LS_HITM_LCL), 0);
	per = end / (2 * n);
	/* Remote: the line is homed on node 0, so the two directions pay the owner-homed and the
	 * reader-homed figure in turn; the model's figure is their mean. */
	model = local ? mc.hitm_local : (mc.hitm_remote_owner_home + mc.hitm_remote_reader_home) / 2;
	ck_assert_msg(per * 4 <= model * 5 && per * 4 >= model * 3,
		      "one-way handoff %" G_GUINT64_FORMAT " ps vs model %" G_GUINT64_FORMAT " ps",
		      per, model);
	teardown();
}

START_TEST(mem_access_ping_pong_local)
{
	ping_pong(1, true);
}
END_TEST

START_TEST(mem_access_ping_pong_remote)
{
	ping_pong(20, false);
}
END_TEST

/* ns per operation of the slower of CPUs 0 and @cpu_b, each doing @op on its own word, @dist
 * bytes apart (8: one line), on skylake-sp-2s with @ovr.  When @pf is not NULL: pf[0] what the
 * prefetches took from another core (prefetch HITMs and invalidations), pf[1] how many were
 * dropped. */
static double two_cpus_ns(const char *const *ovr, int cpu_b, uint64_t dist, enum mem_op op,
			  uint64_t *pf)
{
	const int cpus[2] = {0, cpu_b};
	const uint64_t addrs[2] = {A, A + dist}, n = 4000;
	double ns;

	tu_machine(&mc, "skylake-sp-2s", ovr);
	m = mem_new(&mc, NULL, true);
	ns = (double)tu_hammer(m, cpus, addrs, 2, op, n) / (double)n / 1000.0;
	if (pf) {
		pf[0] = tu_sum(m, LS_PF_HITM) + tu_sum(m, LS_PF_INV);
		pf[1] = tu_sum(m, LS_PF_DROPPED);
	}
	teardown();
	return ns;
}

/* Two CPUs increment (locked, plain store, plain RMW) their own line of one 128-byte pair:
 * within 10% of the same with the lines 128 bytes apart.  Hardware (tools/hwprobe on the
 * development host, an Intel server part, KVM guest: 4.49 / 4.53 / 4.53 ns locked at 64 /
 * 128 / 256 bytes apart; an AMD EPYC 2.48 / 2.11 / 1.98 ns): privately written lines of
 * one pair cost nothing extra.  On two cores of a socket and across sockets. */
START_TEST(mem_access_pair_writers_cost_like_128_apart)
{
	static const enum mem_op ops[] = {MEM_LOCKED_RMW, MEM_STORE, MEM_RMW};
	static const int peers[] = {1, 20};

	for (size_t o = 0; o < G_N_ELEMENTS(ops); o++)
		for (size_t p = 0; p < G_N_ELEMENTS(peers); p++) {
			double pair = two_cpus_ns(NULL, peers[p], 64, ops[o], NULL);
			double apart = two_cpus_ns(NULL, peers[p], 128, ops[o], NULL);

			ck_assert_msg(pair <= apart * 1.1 && pair >= apart * 0.9,
				      "%s, CPUs 0 and %d: %.2f ns 64 B apart, %.2f ns 128 B apart",
				      mem_op_names[ops[o]], peers[p], pair, apart);
		}
}
END_TEST

/* Locked increments of one line by two cores of a socket against a private line each: the
 * development host measured 37.7 ns same line vs 4.53 ns 128 bytes apart, 8.3x (tools/hwprobe,
 * the figures of issue 12; a later run on a busier host gave 34.35 / 6.11 ns, 5.6x: README,
 * "Checking a model against your machine").  The model must be within 2x of 8.3x. */
START_TEST(mem_access_same_line_vs_private_locked)
{
	double same = two_cpus_ns(NULL, 1, 8, MEM_LOCKED_RMW, NULL);
	double priv = two_cpus_ns(NULL, 1, 128, MEM_LOCKED_RMW, NULL);

	ck_assert_msg(same / priv >= 8.3 / 2 && same / priv <= 8.3 * 2,
		      "same line %.2f ns, private %.2f ns: %.2fx (host 8.3x)", same, priv,
		      same / priv);
}
END_TEST

/* Prefetcher off: no pair effect of any kind, whatever the other prefetch rules (all 64
 * combinations, and the pair granule): a mixed load/store/RMW workload of three CPUs on two
 * lines of one pair takes exactly as long, and counts exactly the same, as 128 bytes apart. */
static void pf_off_run(unsigned v, bool granule, uint64_t dist, simtime_t *end, uint64_t *sums)
{
	static const int cpus[3] = {0, 1, 20};
	static const int keys[] = {LS_HITM_LCL, LS_HITM_RMT, LS_ST_RFO_HITM, LS_INV_RECV,
				   LS_PF_FILLS, LS_PF_DROPPED, LS_LD_LLC};
	const uint64_t addrs[3] = {A, A + dist, A};
	static const enum mem_op ops[] = {MEM_LOAD, MEM_STORE, MEM_LOCKED_RMW, MEM_LOAD};
	static const char *const off[] = {"prefetch.adjacent_line=false", NULL};
	simtime_t t = 0;

	tu_machine(&mc, "skylake-sp-2s", off);
	mc.pf.buddy_modified = v & PROTO_V_DROP ? PF_BUDDY_DROP : PF_BUDDY_STEAL;
	mc.pf.store_buddy = v & PROTO_V_RFO ? PF_STORE_RFO : PF_STORE_READ;
	mc.pf.upgrade_prefetch = v & PROTO_V_UPG;
	mc.pf.rfo_buddy_modified = v & PROTO_V_RFO_DROP ? PF_BUDDY_DROP : PF_BUDDY_STEAL;
	mc.pf.rfo_buddy_shared = v & PROTO_V_SH_INV ? PF_RFO_SHARED_INVALIDATE : PF_RFO_SHARED_KEEP;
	mc.pf.rfo_install = v & PROTO_V_INST_M ? PF_RFO_INSTALL_MODIFIED : PF_RFO_INSTALL_EXCLUSIVE;
	mc.pf.pair_granule = granule;
	m = mem_new(&mc, NULL, true);
	for (size_t o = 0; o < G_N_ELEMENTS(ops); o++)
		t += tu_hammer(m, cpus, addrs, 3, ops[o], 300);
	*end = t;
	for (size_t k = 0; k < G_N_ELEMENTS(keys); k++)
		sums[k] = tu_sum(m, keys[k]);
	teardown();
}

START_TEST(mem_access_prefetcher_off_no_pair_effect)
{
	for (unsigned v = 0; v < PROTO_VARIANTS; v++)
		for (int g = 0; g < 2; g++) {
			simtime_t e64, e128;
			uint64_t s64[7], s128[7];

			pf_off_run(v, g, 64, &e64, s64);
			pf_off_run(v, g, 128, &e128, s128);
			ck_assert_msg(e64 == e128, "variant %u granule %d: %" G_GUINT64_FORMAT
				      " vs %" G_GUINT64_FORMAT " ps", v, g, e64, e128);
			ck_assert_msg(!memcmp(s64, s128, sizeof(s64)), "variant %u granule %d", v, g);
			ck_assert_uint_eq(s64[4] + s64[5], 0);
		}
}
END_TEST

/* Prefetcher on, the pair's lines written by two CPUs: the prefetcher does try to take the
 * other writer's line (each store miss asks for its buddy) but is dropped, and takes nothing
 * from it after the first touch (a buddy nobody held yet). */
START_TEST(mem_access_pair_writers_prefetch_acts)
{
	static const enum mem_op ops[] = {MEM_LOCKED_RMW, MEM_STORE};

	for (size_t o = 0; o < G_N_ELEMENTS(ops); o++) {
		uint64_t pf[2];

		two_cpus_ns(NULL, 20, 64, ops[o], pf);
		ck_assert_uint_eq(pf[0], 0);
		ck_assert_uint_gt(pf[1], 0);
	}
}
END_TEST

/* Aggregate locked-counter throughput, M ops per simulated second, for CPUs @cpus. */
static uint64_t counter_mops(const int *cpus, int n)
{
	g_autofree uint64_t *addrs = g_new(uint64_t, n);
	const uint64_t iters = 1000;
	simtime_t end;
	uint64_t mops;

	for (int i = 0; i < n; i++)
		addrs[i] = A;
	setup_pf(true);
	end = tu_hammer(m, cpus, addrs, n, MEM_LOCKED_RMW, iters);
	mops = (uint64_t)n * iters * 1000000 / end; /* ops per us = M ops per s */
	teardown();
	return mops;
}

START_TEST(mem_access_locked_counter_throughput)
{
	int cpus[40];
	uint64_t m4, m20, both;

	for (int i = 0; i < 40; i++)
		cpus[i] = i;
	m4 = counter_mops(cpus, 4);
	m20 = counter_mops(cpus, 20);
	ck_assert_msg(m20 >= 10 && m20 <= 25, "20 CPUs of one socket: %" G_GUINT64_FORMAT " M/s",
		      m20);
	/* Roughly flat: the line is the bottleneck, not the number of CPUs queueing for it. */
	ck_assert_msg(m4 * 10 <= m20 * 12 && m20 * 10 <= m4 * 12,
		      "4 CPUs %" G_GUINT64_FORMAT " M/s vs 20 CPUs %" G_GUINT64_FORMAT " M/s", m4, m20);
	for (int i = 0; i < 20; i++)
		cpus[i] = i % 2 ? 20 + i / 2 : i / 2; /* alternate sockets */
	both = counter_mops(cpus, 20);
	ck_assert_msg(both < m20, "both sockets %" G_GUINT64_FORMAT " M/s, one socket %"
		      G_GUINT64_FORMAT " M/s", both, m20);
}
END_TEST

/* The cost of a store to a line that N readers share. */
static simtime_t store_after_readers(int n)
{
	simtime_t t = 0, start;

	setup_pf(false);
	for (int r = 1; r <= n; r++)
		t = mem_access(m, r, A, 8, MEM_LOAD, 0, t);
	start = t + 1000000;
	t = mem_access(m, 0, A, 8, MEM_RMW, 0, start) - start;
	ck_assert_uint_eq(tu_sum(m, LS_INV_RECV), (uint64_t)n);
	teardown();
	return t;
}

START_TEST(mem_access_store_cost_grows_with_sharers)
{
	simtime_t prev = store_after_readers(1);

	for (int n = 2; n <= 16; n *= 2) {
		simtime_t cost = store_after_readers(n);

		ck_assert_msg(cost > prev, "%d sharers: %" G_GUINT64_FORMAT " ps, fewer: %"
			      G_GUINT64_FORMAT " ps", n, cost, prev);
		prev = cost;
	}
}
END_TEST

/* Contention shows in latency: a hot line's HITMs cost more than the idle figure. */
START_TEST(mem_access_contended_hitm_latency_grows)
{
	int cpus[20];
	uint64_t addrs[20];

	for (int i = 0; i < 20; i++) {
		cpus[i] = i;
		addrs[i] = A;
	}
	setup_pf(false);
	tu_hammer(m, cpus, addrs, 20, MEM_LOCKED_RMW, 200);
	ck_assert_uint_gt(tu_sum(m, LS_CYC_HITM_LCL) / tu_sum(m, LS_HITM_LCL), 5 * mc.hitm_local);
	teardown();
}
END_TEST

/* The checks catch what a broken transition would leave: a stale copy, a second owner. */
START_TEST(mem_check_line_detects_stale_copy)
{
	uint32_t idx;

	setup_pf(false);
	mem_access(m, 0, A, 8, MEM_LOAD, 0, 0);
	mem_access(m, 1, A, 8, MEM_LOAD, 0, 1000);
	idx = mem_line(m, A);
	m->dir.line[idx].version++; /* as if a store had skipped invalidating the sharers */
	ck_assert(!mem_check_line(m, idx, 2000));
	ck_assert(m->failed);
	ck_assert_ptr_nonnull(strstr(m->fail_msg, "data-value"));
	ck_assert_ptr_nonnull(strstr(m->fail_msg, "0x10000000"));
	ck_assert_ptr_nonnull(strstr(m->fail_msg, "last events"));
	/* A failed memory system refuses further work rather than run on. */
	ck_assert_uint_eq(mem_access(m, 0, A, 8, MEM_LOAD, 0, 5000), 5000);
	teardown();
}
END_TEST

START_TEST(mem_check_line_detects_two_owners)
{
	uint32_t idx;

	setup_pf(false);
	mem_access(m, 0, A, 8, MEM_LOAD, 0, 0);
	mem_access(m, 1, A, 8, MEM_LOAD, 0, 1000);
	idx = mem_line(m, A);
	m->dir.line[idx].owner = 1; /* core 1 claims ownership while core 0 still shares */
	ck_assert(!mem_check_line(m, idx, 2000));
	ck_assert_ptr_nonnull(strstr(m->fail_msg, "SWMR"));
	teardown();
}
END_TEST

/* A copy the directory lost (neither listed nor counted) is invisible to a walk of the
 * listed holders: the sampled full scan finds it within MEM_CHECK_ALL_EVERY checks. */
START_TEST(mem_check_access_finds_a_lost_copy)
{
	uint32_t idx;
	int i;

	setup_pf(false);
	mem_access(m, 0, A, 8, MEM_LOAD, 0, 0);
	mem_access(m, 1, A, 8, MEM_LOAD, 0, 1000);
	idx = mem_line(m, A);
	dir_del_sharer(&m->dir, idx, 1); /* as if an invalidation had skipped core 1's caches */
	for (i = 0; i < MEM_CHECK_ALL_EVERY && !m->failed; i++)
		mem_check_access(m, idx, 2000);
	ck_assert(m->failed);
	ck_assert_ptr_nonnull(strstr(m->fail_msg, "core 1: cache and directory disagree"));
	teardown();
}
END_TEST

/* An L1d copy's L2 twin, which the hit path neither reads nor writes on an L1d hit (hit.c,
 * hier.h), is checked: flagged as an unused prefetch (_i 0), or not the way the L1d copy
 * names (_i 1), it fails the check. */
START_TEST(mem_check_line_detects_broken_l1d_twin)
{
	struct cway *w1, *w2;
	uint32_t idx;

	setup_pf(false);
	mem_access(m, 0, A, 8, MEM_LOAD, 0, 0);
	idx = mem_line(m, A);
	w2 = hier_lookup(&m->core[0], A, &w1);
	ck_assert(w1 && mem_check_line(m, idx, 1000));
	if (_i == 0)
		w2->pf = 1;
	else
		w1->l2w = (uint8_t)((w1->l2w + 1) % mc.l2.ways);
	ck_assert(!mem_check_line(m, idx, 2000));
	ck_assert_ptr_nonnull(strstr(m->fail_msg, "L1d and L2 copies differ"));
	teardown();
}
END_TEST

/* A directory that lies about an exclusive copy -- another core named owner of the line
 * core 0 holds E -- is caught at core 0's next hit, although outside check mode the hit
 * path does not read the directory for an E or M copy. */
START_TEST(mem_check_hit_detects_lying_directory)
{
	setup_pf(false);
	mem_access(m, 0, A, 8, MEM_LOAD, 0, 0);
	ck_assert_int_eq(mem_state(m, 0, A), MESI_E);
	m->dir.line[mem_line(m, A)].owner = 1;
	mem_access(m, 0, A, 8, MEM_LOAD, 0, 1000);
	ck_assert(m->failed);
	ck_assert_ptr_nonnull(strstr(m->fail_msg, "SWMR"));
	teardown();
}
END_TEST

static Suite *physics_suite(void)
{
	Suite *s = suite_create("physics");
	TCase *tc = tcase_create("mem_access");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, mem_access_one_cpu_alone);
	tcase_add_test(tc, mem_access_ping_pong_local);
	tcase_add_test(tc, mem_access_ping_pong_remote);
	tcase_add_test(tc, mem_access_pair_writers_cost_like_128_apart);
	tcase_add_test(tc, mem_access_same_line_vs_private_locked);
	tcase_add_test(tc, mem_access_prefetcher_off_no_pair_effect);
	tcase_add_test(tc, mem_access_pair_writers_prefetch_acts);
	tcase_add_test(tc, mem_access_locked_counter_throughput);
	tcase_add_test(tc, mem_access_store_cost_grows_with_sharers);
	tcase_add_test(tc, mem_access_contended_hitm_latency_grows);
	suite_add_tcase(s, tc);
	tc = tcase_create("mem_check_line");
	tcase_add_test(tc, mem_check_line_detects_stale_copy);
	tcase_add_test(tc, mem_check_line_detects_two_owners);
	tcase_add_test(tc, mem_check_access_finds_a_lost_copy);
	tcase_add_loop_test(tc, mem_check_line_detects_broken_l1d_twin, 0, 2);
	tcase_add_test(tc, mem_check_hit_detects_lying_directory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(physics_suite());
}
