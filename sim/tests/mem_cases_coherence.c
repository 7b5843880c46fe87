/*
 * mem_cases_coherence.c - the cases of check_mem.c's table (mem-5 to mem-7) about coherence
 * between cores and sockets: the home-node terms of HITMs and DRAM fills, clean copies near
 * and far, invalidations and the holds they make, fills still in flight, and the CPU sets of
 * a line.  The harness and the rules every case follows are in check_mem.c and memcase.h.
 */
#include <string.h>

#include "memcase.h"

/* ---------------------------------------------------------------- home node and sockets */

static void check_hitm_reader_home(struct run *r)
{
	/* Owner on socket 1, line homed on node 0 (the reader's). */
	ck_assert_uint_eq(latency(r, 1), r->mc->hitm_remote_reader_home);
	ck_assert_uint_eq(line_stat(r->m, A, LS_HITM_RMT), 1);
}

static void check_hitm_owner_home(struct run *r)
{
	ck_assert_uint_eq(latency(r, 1), r->mc->hitm_remote_owner_home);
	ck_assert_uint_eq(line_stat(r->m, A, LS_HITM_RMT), 1);
}

static void check_hitm_local(struct run *r)
{
	ck_assert_uint_eq(latency(r, 1), r->mc->hitm_local);
	ck_assert_uint_eq(line_stat(r->m, A, LS_HITM_LCL), 1);
	ck_assert_uint_eq(line_stat(r->m, A, LS_HITM_RMT), 0);
}

static void check_clean_remote(struct run *r)
{
	ck_assert_uint_eq(latency(r, 1), r->mc->clean_remote);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_RMT_HIT), 1);
}

static void check_clean_local(struct run *r)
{
	ck_assert_uint_eq(latency(r, 1), r->mc->clean_local);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_LLC), 1);
}

static void check_dram_home(struct run *r)
{
	ck_assert_uint_eq(latency(r, 0), r->mc->dram_remote);
	ck_assert_uint_eq(line_stat(r->m, FAR, LS_LD_DRAM_RMT), 1);
	ck_assert_uint_eq(latency(r, 1), r->mc->dram_local);
	ck_assert_uint_eq(line_stat(r->m, FAR + 4096, LS_LD_DRAM_LCL), 1);
}

static void check_llc_after_evict(struct run *r)
{
	ck_assert_uint_eq(latency(r, 2), r->mc->llc.latency);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_LLC), 1);
}

static void check_inv_remote(struct run *r)
{
	/* Two sharers, one on the other socket: the RMW's invalidations cost inv_remote plus
	 * inv_per_sharer each, in parallel with the data from the LLC... */
	simtime_t inv = r->mc->inv_remote + 2 * r->mc->inv_per_sharer;

	ck_assert_uint_ge(latency(r, 2), inv);
	ck_assert_uint_eq(line_stat(r->m, A, LS_INV_SENT), 2);
}

static void check_store_l1(struct run *r)
{
	/* Owned in L1d: L1Hit; Shared: L1Miss (an upgrade); owned but only in L2: L1Miss. */
	ck_assert_uint_eq(line_stat(r->m, A, LS_ST_L1HIT), 1);
	ck_assert_uint_eq(line_stat(r->m, C, LS_ST_L1MISS), 1);
	ck_assert_uint_eq(line_stat(r->m, C, LS_ST_L1HIT), 0);
	ck_assert_uint_eq(line_stat(r->m, B, LS_ST_L1MISS), 1);
	ck_assert_uint_eq(line_stat(r->m, B, LS_ST_L1HIT), 0);
}

static void check_rfo_hitm(struct run *r)
{
	ck_assert_uint_eq(line_stat(r->m, A, LS_ST_RFO_HITM), 1);
	ck_assert_uint_eq(line_stat(r->m, A, LS_HITM_LCL), 0);
	ck_assert_uint_eq(r->m->last_done - r->at[1], r->mc->hitm_local);
}

static void check_write_ends_llc_copies(struct run *r)
{
	/* Socket 1's LLC copy went stale with CPU 0's write; the line's only current copy is
	 * socket 0's LLC (CPU 0 evicted it): socket 1 reads it from there. */
	ck_assert_uint_eq(latency(r, 4), r->mc->clean_remote);
}

static void check_upgrade(struct run *r)
{
	/* S -> M with no other sharer: a round trip to the home (the LLC latency). */
	ck_assert_uint_eq(latency(r, 3), r->mc->llc.latency + r->mc->cycle);
}

static void check_rmt_llc(struct run *r)
{
	ck_assert_uint_eq(latency(r, 2), r->mc->clean_remote);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_RMT_HIT), 1);
}

static void check_pf_from_sharer(struct run *r)
{
	ck_assert_uint_eq(line_stat(r->m, B, LS_PF_XFER), 1);
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_S);
}

static void check_inv_hold(struct run *r)
{
	/* The invalidating RMW holds the line until it completes; the next reader waits. */
	ck_assert_uint_ge(r->done[3], r->done[2] - r->mc->cycle + r->mc->hitm_local);
}

static void check_owner_writeback(struct run *r)
{
	/* The HITM's owner wrote the line back: the next reader on the socket finds the LLC. */
	ck_assert_uint_eq(latency(r, 2), r->mc->llc.latency);
}

/* ---------------------------------------------------------------- in-flight fills */

static void check_inflight_same_cpu(struct run *r)
{
	ck_assert_uint_ge(r->done[1], r->at[0] + r->mc->dram_local);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_FB), 1);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_L1), 0);
}

static void check_inflight_sibling(struct run *r)
{
	/* The sibling's load completes no earlier than the fill. */
	ck_assert_uint_ge(r->done[1], r->done[0]);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_FB), 1);
}

static void check_inflight_buddy(struct run *r)
{
	/* The prefetch of B left with the demand miss at 0 and needs a DRAM access too. */
	ck_assert_uint_ge(r->done[1], r->at[0] + r->mc->dram_local);
	ck_assert_uint_eq(line_stat(r->m, B, LS_LD_FB), 1);
	ck_assert_uint_eq(line_stat(r->m, B, LS_PF_USEFUL), 1);
}

static void check_inflight_rmw(struct run *r)
{
	ck_assert_uint_ge(r->done[1], r->at[0] + r->mc->dram_local);
}

static void check_arrived_is_hit(struct run *r)
{
	ck_assert_uint_eq(latency(r, 1), r->mc->l1d.latency);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_FB), 0);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LD_L1), 1);
}

/* ---------------------------------------------------------------- CPU sets */

/* A line's (and its Pareto row's) CPUs are those that made demand accesses to it, once each. */
static void check_line_cpus(struct run *r)
{
	uint32_t a = mem_line(r->m, A), c = mem_line(r->m, C), o = stats_line_first_orow(r->m, a);
	uint64_t bits[C2C_MAX_CPUS / 64] = {0};

	ck_assert_uint_eq(stats_line_nr_cpus(r->m, a), 3);
	ck_assert_uint_eq(stats_line_nr_cpus(r->m, c), 1);
	stats_line_cpus(r->m, a, bits);
	ck_assert_uint_eq(bits[0], 1ull << 0 | 1ull << 1 | 1ull << 41);
	ck_assert_uint_eq(stats_orow_nr_cpus(r->m, o), 3);
	memset(bits, 0, sizeof(bits));
	stats_line_cpus(r->m, c, bits);
	ck_assert_uint_eq(bits[0], 1ull << 2);
}

const struct mcase mem_coherence_cases[] = {
	{"mem-5.1", "remote HITM, line homed on the reader's node", {PF_OFF},
	 {RMW(20, A, 0), L(0, A, 1000000), END}, check_hitm_reader_home},
	{"mem-5.2", "remote HITM, line homed on the owner's node", {PF_OFF},
	 {RMW(0, A, 0), L(20, A, 1000000), END}, check_hitm_owner_home},
	/* skylake-sp-2s prices a local HITM like a clean transfer (both 53 ns): tell them apart. */
	{"mem-5.3", "local HITM", {PF_OFF, "latency.hitm_local_ns=70"},
	 {RMW(1, A, 0), L(0, A, 1000000), END},
	 check_hitm_local},
	{"mem-5.4", "a clean copy on the other socket", {PF_OFF},
	 {L(20, A, 0), L(0, A, 1000000), END}, check_clean_remote},
	{"mem-5.5", "a clean copy on the socket", {PF_OFF}, {L(1, A, 0), L(0, A, 1000000), END},
	 check_clean_local},
	{"mem-5.6", "DRAM of the line's home node: remote, then local", {PF_OFF},
	 {L(0, FAR, 0), L(20, FAR + 4096, 0), END}, check_dram_home},
	{"mem-5.7", "an evicted copy is found in the socket's LLC", {PF_OFF},
	 {L(1, A, 0), {S_EVICT, 1, A, 0, 1000000}, L(0, A, 2000000), END},
	 check_llc_after_evict},
	{"mem-5.8", "invalidations across sockets", {PF_OFF},
	 {L(1, A, 0), L(20, A, 1000000), RMW(0, A, 3000000), END},
	 check_inv_remote},
	{"mem-5.9", "store L1Hit needs the line owned in L1d", {PF_ON},
	 {RMW(0, A, 0), RMW(0, A, 1000000), L(1, C, 0), L(0, C, 1000000), RMW(0, C, 2000000),
	  RMW(0, B, 4000000), END},
	 check_store_l1},
	{"mem-5.10", "a store's RFO to a Modified line is an RFO HITM, not a load HITM", {PF_OFF},
	 {RMW(1, A, 0), ST(0, A, 1000000), END}, check_rfo_hitm},
	{"mem-5.16", "a write makes every LLC copy stale", {PF_OFF},
	 {L(20, A, 0), {S_EVICT, 20, A, 0, 1000000}, RMW(0, A, 2000000),
	  {S_EVICT, 0, A, 0, 3000000}, L(20, A, 4000000), END}, check_write_ends_llc_copies},
	{"mem-5.11", "an upgrade of the only Shared copy costs a trip to the home", {PF_OFF},
	 {L(0, A, 0), L(1, A, 1000000), {S_EVICT, 1, A, 0, 1500000}, RMW(0, A, 2000000), END},
	 check_upgrade},
	{"mem-5.12", "a clean copy in the other socket's LLC", {PF_OFF},
	 {L(20, A, 0), {S_EVICT, 20, A, 0, 1000000}, L(0, A, 2000000), END}, check_rmt_llc},
	{"mem-5.13", "a prefetch takes a Shared buddy from a sharer's cache", {PF_ON},
	 {L(1, B, 0), L(2, B, 1000000), L(0, A, 2000000), END}, check_pf_from_sharer},
	{"mem-5.14", "invalidations hold the line until they complete", {PF_OFF},
	 {L(1, A, 0), L(2, A, 1000000), RMW(0, A, 2000000), L(3, A, 2000001), END},
	 check_inv_hold},
	{"mem-5.15", "a HITM's owner writes the line back to the LLC", {PF_OFF},
	 {RMW(1, A, 0), L(0, A, 1000000), L(2, A, 2000000), END}, check_owner_writeback},
	{"mem-6.1", "a second load of a line in flight waits for the fill (same CPU, mlp)",
	 {PF_OFF}, {L(0, A, 0), L(0, A + 8, 1000), END}, check_inflight_same_cpu},
	{"mem-6.2", "the SMT sibling's load completes no earlier than the fill", {PF_OFF},
	 {L(0, A, 0), L(40, A + 8, 1000), END}, check_inflight_sibling},
	{"mem-6.3", "a demand hit on a prefetched buddy in flight waits for it", {PF_ON},
	 {L(0, A, 0), L(0, B, 1000), END}, check_inflight_buddy},
	{"mem-6.4", "an RMW of a line whose RFO is in flight waits for it", {PF_OFF},
	 {RMW(0, A, 0), RMW(40, A, 1000), END}, check_inflight_rmw},
	{"mem-6.5", "once the data is there a hit costs the L1d latency", {PF_OFF},
	 {L(0, A, 0), L(0, A + 8, 1000000), END}, check_arrived_is_hit},
	{"mem-7.1", "the CPUs of a line and of its Pareto row", {PF_OFF},
	 {L(0, A, 0), L(1, A, 1000000), L(0, A, 2000000), L(41, A, 3000000), L(2, C, 0), END},
	 check_line_cpus},
};

const size_t mem_nr_coherence_cases = G_N_ELEMENTS(mem_coherence_cases);
