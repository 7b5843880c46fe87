/*
 * check_mem.c - the memory system pinned by physics, as a table of cases.
 *
 * Each case (id mem-N.M) builds a memory system for a machine (skylake-sp-2s with overrides:
 * 2 sockets x 20 cores x 2 SMT, CPU c on core c % 40, cores 0-19 on socket 0), runs a short
 * list of accesses, and checks the result against the machine model's own figures: a DRAM
 * fill costs dram_local, a remote HITM the home-node term of the machine file, and so on.
 * No expectation is a number the model printed; each follows from the figures and the rule
 * the case names (TSO, a full store buffer stalls, a hit waits for its fill, ...).
 *
 * This file holds the harness and the cases mem-1 to mem-4 (store buffer, split accesses,
 * values, the prefetcher, occupancy and holds); mem_cases_coherence.c holds mem-5 to mem-7
 * (home node and sockets, fills in flight, CPU sets); memcase.h what both share.
 */
#include <string.h>

#include "memcase.h"

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

/* mem_peek_at and mem_poke_at, given the line as an access gives it, are mem_peek and
 * mem_poke: within the line, and across into the next one, whose value block is not the
 * next in the pool (C + 64 was written first). */
static void check_values_at(struct mem *m)
{
	uint32_t lc;

	mem_poke(m, C + 64, 8, 0x1111111111111111ull);
	mem_poke(m, C + 56, 8, 0x2222222222222222ull);
	lc = stats_find_line(m, C);
	ck_assert_uint_ne(lc, DIR_NONE);
	ck_assert_uint_eq(mem_peek_at(m, lc, C + 56, 4), 0x22222222u);
	ck_assert_uint_eq(mem_peek_at(m, lc, C + 60, 8), 0x1111111122222222ull);
	mem_poke_at(m, lc, C + 60, 8, 0x3333333344444444ull);
	ck_assert_uint_eq(mem_peek(m, C + 64, 4), 0x33333333u);
	ck_assert_uint_eq(mem_peek(m, C + 60, 4), 0x44444444u);
	mem_poke_at(m, lc, C + 8, 2, 0x5566);
	ck_assert_uint_eq(mem_peek(m, C + 8, 8), 0x5566u);
	ck_assert_uint_eq(mem_peek_at(m, DIR_NONE, C + 8, 2), 0x5566u);
	ck_assert_uint_eq(mem_peek_at(m, DIR_NONE, C + 4096, 8), 0);
}

static void check_values(struct run *r)
{
	mem_poke(r->m, A + 60, 8, 0x1122334455667788ull);
	ck_assert_uint_eq(mem_peek(r->m, A + 60, 4), 0x55667788u);
	ck_assert_uint_eq(mem_peek(r->m, B, 4), 0x11223344u);
	ck_assert_uint_eq(mem_peek(r->m, A + 56, 8), 0x5566778800000000ull);
	/* Six bytes in the first line, two in the next (not a whole word in either). */
	ck_assert_uint_eq(mem_peek(r->m, A + 58, 8), 0x3344556677880000ull);
	ck_assert_uint_eq(mem_peek(r->m, C, 8), 0);
	mem_poke(r->m, A + 62, 2, 0xbeef);
	ck_assert_uint_eq(mem_peek(r->m, A + 60, 8), 0x11223344beef7788ull);
	check_values_at(r->m);
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

/* Case @i of the whole table: this file's cases, then mem_cases_coherence.c's. */
static const struct mcase *case_at(int i)
{
	size_t n = G_N_ELEMENTS(cases);

	return (size_t)i < n ? &cases[i] : &mem_coherence_cases[(size_t)i - n];
}

START_TEST(mem_case)
{
	const struct mcase *c = case_at(_i);
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

	tcase_add_loop_test(tc, mem_case, 0,
			    (int)(G_N_ELEMENTS(cases) + mem_nr_coherence_cases));
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
