/*
 * check_mem.c - the memory system pinned by physics, as a table of cases.
 *
 * Each case (id mem-N.M) builds a memory system for a machine (skylake-sp-2s with overrides:
 * 2 sockets x 20 cores x 2 SMT, CPU c on core c % 40, cores 0-19 on socket 0), runs a short
 * list of accesses, and checks the result against the machine model's own figures: a DRAM
 * fill costs dram_local, a remote HITM the home-node term of the machine file, and so on.
 * No expectation is a number the model printed; each follows from the figures and the rule
 * the case names (TSO, a full store buffer stalls, a hit waits for its fill, ...).
 */
#include <glib.h>
#include <string.h>

#include "mem/mem.h"
#include "testutil.h"

#define A 0x10000000ull   /* a line; its buddy is B */
#define B (A + 64)
#define C 0x10010000ull   /* lines far from A */
#define D 0x10020000ull
#define E 0x10030000ull
#define FAR 0x20000000ull /* an object homed on node 1 (see mem_for) */

enum step_op { S_LOAD, S_STORE, S_RMW, S_LOCKED, S_PF_LOAD, S_PF_STORE, S_EVICT, S_NONE };

struct step {
	uint8_t op;
	int cpu;
	uint64_t addr;
	uint32_t size;
	simtime_t at;   /* issue time; AFTER: the previous step's return */
};

#define AFTER UINT64_MAX
#define MAX_STEPS 8

struct run {
	const struct machine *mc;
	struct mem *m;
	simtime_t done[MAX_STEPS]; /* what each step returned */
	simtime_t at[MAX_STEPS];   /* when it was issued */
};

struct mcase {
	const char *id;
	const char *what;
	const char *ovr[5];
	struct step steps[MAX_STEPS];
	void (*check)(struct run *r);
};

static uint64_t line_stat(const struct mem *m, uint64_t addr, int k)
{
	uint32_t idx = mem_line(m, addr);

	ck_assert_msg(idx != DIR_NONE, "line 0x%" G_GINT64_MODIFIER "x never touched", addr);
	return stats_line(m, idx, k);
}

static simtime_t latency(const struct run *r, int step)
{
	return r->done[step] - r->at[step];
}

/* ---------------------------------------------------------------- store buffer */

/* A store that hits in L1 behind one that waits for a HITM commits after it (TSO). */
static void check_tso(struct run *r)
{
	simtime_t t = r->at[2];

	ck_assert_uint_ge(mem_sb_drained(r->m, 0, t), t + r->mc->hitm_local);
	/* The younger store itself was fast: the order, not its own miss, holds it back. */
	ck_assert_uint_eq(mem_state(r->m, 0, C), MESI_M);
	ck_assert_uint_lt(r->done[3], t + r->mc->hitm_local);
}

/* Two entries: the third store waits until the first commits (a DRAM fill away). */
static void check_sb_full(struct run *r)
{
	ck_assert_uint_lt(r->done[1], r->at[0] + r->mc->dram_local);
	ck_assert_uint_ge(r->done[2], r->at[0] + r->mc->dram_local);
}

/* A LOCK-prefixed RMW waits for the store buffer to drain before it starts. */
static void check_locked_drains(struct run *r)
{
	/* The store's DRAM RFO commits first, then the RMW's own DRAM fill, then the lock. */
	ck_assert_uint_ge(r->done[1], r->at[0] + 2 * r->mc->dram_local + r->mc->locked_rmw);
}

/* ---------------------------------------------------------------- split accesses, values */

static void check_split(struct run *r)
{
	ck_assert_uint_eq(stats_accesses(r->m), 2);
	ck_assert_int_eq(mem_state(r->m, 0, A), MESI_E);
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_E);
	/* The second line is requested when the first has arrived. */
	ck_assert_uint_ge(latency(r, 0), 2 * r->mc->dram_local);
}

static void check_split_store(struct run *r)
{
	ck_assert_int_eq(mem_state(r->m, 0, A), MESI_M);
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_M);
	ck_assert_uint_eq(line_stat(r->m, A, LS_STORES), 1);
	ck_assert_uint_eq(line_stat(r->m, B, LS_STORES), 1);
}

static void check_values(struct run *r)
{
	mem_poke(r->m, A + 60, 8, 0x1122334455667788ull);
	ck_assert_uint_eq(mem_peek(r->m, A + 60, 4), 0x55667788u);
	ck_assert_uint_eq(mem_peek(r->m, B, 4), 0x11223344u);
	ck_assert_uint_eq(mem_peek(r->m, A + 56, 8), 0x5566778800000000ull);
	ck_assert_uint_eq(mem_peek(r->m, C, 8), 0);
	mem_poke(r->m, A + 62, 2, 0xbeef);
	ck_assert_uint_eq(mem_peek(r->m, A + 60, 8), 0x11223344beef7788ull);
}

/* ---------------------------------------------------------------- the prefetcher */

static void expect_pf(const struct mem *m, uint64_t line, const uint64_t *want)
{
	static const int k[] = {LS_PF_FILLS, LS_PF_HITM, LS_PF_XFER, LS_PF_INV, LS_PF_DROPPED,
				LS_PF_USEFUL};

	for (size_t i = 0; i < G_N_ELEMENTS(k); i++)
		ck_assert_msg(line_stat(m, line, k[i]) == want[i], "%s = %" G_GUINT64_FORMAT
			      ", expected %" G_GUINT64_FORMAT, lstat_info[k[i]].key,
			      line_stat(m, line, k[i]), want[i]);
}

static void check_pf_fill(struct run *r)
{
	expect_pf(r->m, B, (const uint64_t[]){1, 0, 0, 0, 0, 0});
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_E);
	ck_assert_uint_eq(line_stat(r->m, A, LS_PF_CAUSED_HITM), 0);
}

static void check_pf_off(struct run *r)
{
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_I);
	ck_assert_uint_eq(mem_line(r->m, B), DIR_NONE);
}

static void check_pf_hitm(struct run *r)
{
	expect_pf(r->m, B, (const uint64_t[]){1, 1, 0, 0, 0, 0});
	ck_assert_uint_eq(line_stat(r->m, A, LS_PF_CAUSED_HITM), 1);
	ck_assert_int_eq(mem_state(r->m, 1, B), MESI_S);
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_S);
}

static void check_pf_drop(struct run *r)
{
	expect_pf(r->m, B, (const uint64_t[]){0, 0, 0, 0, 1, 0});
	ck_assert_int_eq(mem_state(r->m, 1, B), MESI_M);
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_I);
}

static void check_pf_xfer(struct run *r)
{
	/* Core 1's load of B prefetched A; core 0's load of A prefetches B from core 1. */
	expect_pf(r->m, B, (const uint64_t[]){1, 0, 1, 0, 0, 0});
	ck_assert_int_eq(mem_state(r->m, 1, B), MESI_S);
}

static void check_pf_rfo(struct run *r)
{
	/* store_buddy = rfo: the buddy prefetch takes ownership, the two sharers of B go. */
	ck_assert_uint_eq(line_stat(r->m, B, LS_PF_INV), 2);
	ck_assert_uint_eq(line_stat(r->m, A, LS_PF_CAUSED_INV), 2);
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_E);
	ck_assert_int_eq(mem_state(r->m, 1, B), MESI_I);
}

static void check_pf_install_m(struct run *r)
{
	/* Core 0's RMW miss on A took B for ownership from its one sharer and installed it
	 * Modified, never writing it: core 1's next load of B finds it Modified, a HITM. */
	ck_assert_uint_eq(line_stat(r->m, B, LS_PF_INV), 1);
	ck_assert_uint_eq(line_stat(r->m, B, LS_HITM_LCL), 1);
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_S);
	ck_assert_int_eq(mem_state(r->m, 1, B), MESI_S);
}

static void check_pf_upgrade(struct run *r)
{
	/* Core 0's load of A prefetched B (Shared with cores 1 and 2 afterwards); its store to A
	 * is an upgrade that fires an RFO prefetch of B, which invalidates cores 1 and 2. */
	ck_assert_uint_eq(line_stat(r->m, B, LS_PF_INV), 2);
	ck_assert_int_eq(mem_state(r->m, 1, B), MESI_I);
	ck_assert_int_eq(mem_state(r->m, 2, B), MESI_I);
	ck_assert_int_ne(mem_state(r->m, 0, B), MESI_I);
}

static void check_pf_no_upgrade(struct run *r)
{
	ck_assert_uint_eq(line_stat(r->m, B, LS_PF_INV), 0);
	ck_assert_int_eq(mem_state(r->m, 1, B), MESI_S);
	ck_assert_int_eq(mem_state(r->m, 2, B), MESI_S);
}

static void check_pf_read(struct run *r)
{
	/* store_buddy = read: the sharers of B keep their copies. */
	ck_assert_uint_eq(line_stat(r->m, B, LS_PF_INV), 0);
	ck_assert_uint_eq(line_stat(r->m, A, LS_PF_CAUSED_INV), 0);
	ck_assert_int_eq(mem_state(r->m, 0, B), MESI_S);
	ck_assert_int_eq(mem_state(r->m, 1, B), MESI_S);
}

static void check_pf_useful(struct run *r)
{
	expect_pf(r->m, B, (const uint64_t[]){1, 0, 0, 0, 0, 1});
	/* A prefetch fills only the L2. */
	ck_assert_uint_eq(line_stat(r->m, B, LS_LD_L2), 1);
	ck_assert_uint_eq(latency(r, 1), r->mc->l2.latency);
}

/* ---------------------------------------------------------------- occupancy and holds */

static void check_locked_hold(struct run *r)
{
	/* The line stays with CPU 0 until its locked RMW is done; then a HITM moves it. */
	ck_assert_uint_ge(r->done[1], r->done[0] + r->mc->hitm_local);
	ck_assert_uint_eq(line_stat(r->m, A, LS_LOCKED), 1);
}

static void check_occupancy(struct run *r)
{
	/* The DRAM fill holds the line dir_occupancy; the forward queues behind it. */
	simtime_t free_at = r->at[0] + r->mc->dir_occupancy;

	ck_assert_uint_eq(r->done[1], (free_at > r->at[1] ? free_at : r->at[1]) +
			  r->mc->clean_local);
}

static void check_c2c_hold(struct run *r)
{
	/* A transfer holds the line until it completes: the second reader queues behind it. */
	ck_assert_uint_ge(r->done[2], r->done[1] + r->mc->clean_local);
}

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

#define PF_OFF "prefetch.adjacent_line=false"
#define PF_ON "prefetch.adjacent_line=true"
#define L(cpu, addr, at) {S_LOAD, cpu, addr, 8, at}
#define ST(cpu, addr, at) {S_STORE, cpu, addr, 8, at}
#define RMW(cpu, addr, at) {S_RMW, cpu, addr, 8, at}
#define END {S_NONE, 0, 0, 0, 0}

static const struct mcase cases[] = {
	{"mem-1.1", "TSO: a store commits no earlier than the stores before it", {PF_OFF},
	 {RMW(1, A, 0), RMW(0, C, 0), ST(0, A, 1000000), ST(0, C, AFTER), END}, check_tso},
	{"mem-1.2", "a full store buffer stalls the next store", {PF_OFF, "store_buffer.entries=2"},
	 {ST(0, C, 1000), ST(0, D, AFTER), ST(0, E, AFTER), END}, check_sb_full},
	{"mem-1.3", "a locked RMW drains the store buffer first", {PF_OFF},
	 {ST(0, C, 1000), {S_LOCKED, 0, A, 8, AFTER}, END}, check_locked_drains},
	{"mem-2.1", "a load across a line boundary is two requests, one after the other", {PF_OFF},
	 {{S_LOAD, 0, A + 60, 8, 0}, END}, check_split},
	{"mem-2.2", "a store across a line boundary writes both lines", {PF_OFF},
	 {{S_RMW, 0, A + 60, 8, 0}, END}, check_split_store},
	{"mem-2.3", "values across lines", {PF_OFF}, {END}, check_values},
	{"mem-3.1", "a demand fill prefetches the buddy", {PF_ON}, {L(0, A, 0), END},
	 check_pf_fill},
	{"mem-3.2", "no prefetch with the prefetcher off", {PF_OFF}, {L(0, A, 0), END},
	 check_pf_off},
	{"mem-3.3", "a prefetch steals a Modified buddy", {PF_ON, "prefetch.buddy_modified=steal"},
	 {RMW(1, B, 0), L(0, A, 1000000), END}, check_pf_hitm},
	{"mem-3.4", "a prefetch of a Modified buddy is dropped",
	 {PF_ON, "prefetch.buddy_modified=drop"}, {RMW(1, B, 0), L(0, A, 1000000), END},
	 check_pf_drop},
	{"mem-3.5", "a prefetch takes a clean buddy from another core", {PF_ON},
	 {L(1, B, 0), L(0, A, 1000000), END}, check_pf_xfer},
	{"mem-3.6", "store_buddy rfo: the buddy's sharers are invalidated",
	 {PF_ON, "prefetch.store_buddy=rfo", "prefetch.rfo_install=exclusive"},
	 {L(1, B, 0), L(2, B, 1000000), RMW(0, A, 3000000), END}, check_pf_rfo},
	{"mem-3.7", "store_buddy read: the buddy's sharers stay", {PF_ON, "prefetch.store_buddy=read"},
	 {L(1, B, 0), L(2, B, 1000000), RMW(0, A, 3000000), END}, check_pf_read},
	{"mem-3.9", "rfo_install modified: a reader's load of the RFO-prefetched buddy is a HITM",
	 {PF_ON, "prefetch.store_buddy=rfo", "prefetch.rfo_install=modified"},
	 {L(1, B, 0), RMW(0, A, 1000000), L(1, B, 3000000), END}, check_pf_install_m},
	{"mem-3.10", "upgrade_prefetch: a store's upgrade takes the Shared buddy from its readers",
	 {PF_ON, "prefetch.upgrade_prefetch=true", "prefetch.rfo_buddy_shared=invalidate"},
	 {L(0, A, 0), L(1, B, 1000000), L(2, B, 2000000), ST(0, A, 3000000), END},
	 check_pf_upgrade},
	{"mem-3.11", "no upgrade_prefetch: a store's upgrade leaves the buddy alone",
	 {PF_ON, "prefetch.upgrade_prefetch=false", "prefetch.rfo_buddy_shared=invalidate"},
	 {L(0, A, 0), L(1, B, 1000000), L(2, B, 2000000), ST(0, A, 3000000), END},
	 check_pf_no_upgrade},
	{"mem-3.8", "a prefetched copy used by a demand load is useful", {PF_ON},
	 {L(0, A, 0), L(0, B, 1000000), END}, check_pf_useful},
	{"mem-4.1", "a locked RMW holds the line until it completes", {PF_OFF},
	 {{S_LOCKED, 0, A, 8, 0}, L(1, A, 1), END}, check_locked_hold},
	{"mem-4.2", "a memory fill holds the line for dir_occupancy", {PF_OFF},
	 {L(0, A, 0), L(1, A, 1), END}, check_occupancy},
	{"mem-4.3", "a transfer holds the line until it completes", {PF_OFF},
	 {L(0, A, 0), L(1, A, 1000000), L(2, A, 1000001), END}, check_c2c_hold},
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

static simtime_t run_step(struct mem *m, const struct step *s, simtime_t at)
{
	switch (s->op) {
	case S_LOAD:
		return mem_access(m, s->cpu, s->addr, s->size, MEM_LOAD, 0, at);
	case S_STORE:
		return mem_access(m, s->cpu, s->addr, s->size, MEM_STORE, 0, at);
	case S_RMW:
		return mem_access(m, s->cpu, s->addr, s->size, MEM_RMW, 0, at);
	case S_LOCKED:
		return mem_access(m, s->cpu, s->addr, s->size, MEM_LOCKED_RMW, 0, at);
	case S_PF_LOAD:
	case S_PF_STORE:
		mem_prefetch(m, s->cpu, s->addr, s->op == S_PF_LOAD ? EV_PF_LOAD : EV_PF_STORE, at);
		return at;
	case S_EVICT:
		mem_evict(m, machine_cpu_core(m->mc, s->cpu), s->addr, at);
		return at;
	}
	ck_abort_msg("bad step");
	return at;
}

START_TEST(mem_case)
{
	const struct mcase *c = &cases[_i];
	struct machine mc;
	struct objmap om;
	struct run r = {.mc = &mc};
	simtime_t prev = 0;

	tu_machine(&mc, "skylake-sp-2s", c->ovr);
	/* Two pages at FAR homed on node 1 (socket 1); all other memory is on node 0. */
	objmap_init(&om);
	objmap_add(&om, "far", NULL, FAR, 8192, 1);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	r.m = mem_new(&mc, &om, true);
	for (int i = 0; i < MAX_STEPS && c->steps[i].op != S_NONE; i++) {
		r.at[i] = c->steps[i].at == AFTER ? prev : c->steps[i].at;
		prev = r.done[i] = run_step(r.m, &c->steps[i], r.at[i]);
		ck_assert_msg(!r.m->failed, "%s step %d: %s", c->id, i, r.m->fail_msg);
		ck_assert_uint_ge(r.done[i], r.at[i]);
	}
	c->check(&r);
	mem_free(r.m);
	objmap_release(&om);
	machine_release(&mc);
}
END_TEST

/* A key the table calls impossible is a fatal error at run time, naming the key. */
START_TEST(mem_missing_row_fails)
{
	struct machine mc;
	struct mem *m;

	tu_machine(&mc, "skylake-sp-2s", (const char *const[]){PF_OFF, NULL});
	m = mem_new(&mc, NULL, true);
	mem_access(m, 0, A, 8, MEM_LOAD, 0, 0);
	/* Corrupt the directory: core 1 claims to own the line core 0 holds (E + E). */
	m->dir.line[mem_line(m, A)].owner = 1;
	mem_access(m, 0, A, 8, MEM_LOAD, 0, 1000000);
	ck_assert(m->failed);
	ck_assert_msg(strstr(m->fail_msg, "no protocol row for own=E others=E event=LOAD"),
		      "%s", m->fail_msg);
	ck_assert_msg(strstr(m->fail_msg, "SWMR"), "%s", m->fail_msg);
	mem_free(m);
	machine_release(&mc);
}
END_TEST

static Suite *mem_suite(void)
{
	Suite *s = suite_create("mem");
	TCase *tc = tcase_create("mem_case");

	tcase_add_loop_test(tc, mem_case, 0, G_N_ELEMENTS(cases));
	suite_add_tcase(s, tc);
	tc = tcase_create("mem_missing_row");
	tcase_add_test(tc, mem_missing_row_fails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(mem_suite());
}
