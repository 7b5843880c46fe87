/*
 * check_hit_path.c - the private-hit path (mem_hit, sim/mem/hit.c) is the protocol table's
 * hit rows and nothing else: two memory systems, one serving hits by the table walk and one
 * by the hit path, run the same pseudo-random accesses and must agree on everything after
 * every step.  So must a memo of an operation (mem_access_memo) and mem_access(), an L2
 * victim's eviction outside check mode (xact.c's l2_slot) and the table's EVICT rows, and a
 * run of stores (mem_store_run) and the stores one by one.
 */
#include <glib.h>
#include <string.h>

#include "mem/protocol.h"
#include "testutil.h"

/* Tiny caches, so L1d evictions leave L2 hits and L2 evictions run the EVICT rows. */
static struct mem *hit_mem_checked(struct machine *mc, bool fast, bool check)
{
	struct mem *m;

	mc->l1d.sets = 2;
	mc->l1d.ways = 2;
	mc->l2.sets = 4;
	mc->l2.ways = 4;
	m = mem_new(mc, NULL, check);
	m->hit_fast = fast;
	return m;
}

/* A small memory system in check mode: every request is checked against the invariants. */
static struct mem *hit_mem(struct machine *mc, bool fast)
{
	return hit_mem_checked(mc, fast, true);
}

/* @epochs: compare the value epochs too, which only check mode keeps (hit.c). */
static void same_ways(const struct pcache *a, const struct pcache *b, bool epochs,
		      const char *what)
{
	tu_require(a->clock == b->clock, "%s: LRU clock", what);
	for (uint32_t i = 0; i < a->sets * a->ways; i++) {
		const struct cway *x = &a->way[i], *y = &b->way[i];

		tu_require(a->tags[i] == b->tags[i] && a->lru[i] == b->lru[i] &&
				   (!epochs || a->epoch[i] == b->epoch[i]) &&
				   x->ready_at == y->ready_at && x->line == y->line &&
				   x->state == y->state && x->pf == y->pf,
			   "%s: way %u differs", what, i);
	}
}

static bool same_sharers(const struct dir *a, const struct dir *b, uint32_t l)
{
	uint64_t ta[C2C_MAX_CPUS / 64], tb[C2C_MAX_CPUS / 64];

	return !memcmp(dir_sharer_set(a, l, ta), dir_sharer_set(b, l, tb),
		       sizeof(uint64_t) * a->words_core);
}

/* Everything the table path and the hit path could leave differently (the value epochs
 * when both are in check mode: outside it the hit path keeps none). */
static void same_state(const struct mem *a, const struct mem *b, int step)
{
	uint64_t acts_a[ACT_COUNT], acts_b[ACT_COUNT], tot_a[LS_COUNT], tot_b[LS_COUNT];
	bool epochs = a->check && b->check;

	tu_require(!a->failed && !b->failed, "step %d: %s%s", step, a->fail_msg, b->fail_msg);
	tu_require(a->last_done == b->last_done && a->last_src == b->last_src &&
			   a->last_line == b->last_line, "step %d: last request", step);
	mem_act_counts(a, acts_a);
	mem_act_counts(b, acts_b);
	tu_require(!memcmp(acts_a, acts_b, sizeof(acts_a)) &&
			   !memcmp(a->oact_count, b->oact_count, sizeof(a->oact_count)),
		   "step %d: action counts", step);
	tu_require(stats_nr_lines(a) == stats_nr_lines(b), "step %d: lines", step);
	tu_require(stats_accesses(a) == stats_accesses(b), "step %d: accesses", step);
	/* The totals hold what untracked lines add up to (mstats.h). */
	stats_totals(a, tot_a);
	stats_totals(b, tot_b);
	tu_require(!memcmp(tot_a, tot_b, sizeof(tot_a)), "step %d: totals", step);
	for (uint32_t l = 0; l < stats_nr_lines(a); l++) {
		const struct dline *x = &a->dir.line[l], *y = &b->dir.line[l];
		struct line_stats la, lb;

		stats_line_all(a, l, &la);
		stats_line_all(b, l, &lb);
		tu_require(!memcmp(la.c, lb.c, sizeof(la.c)) &&
				   stats_line_tracked(a, l) == stats_line_tracked(b, l) &&
				   stats_line_nr_cpus(a, l) == stats_line_nr_cpus(b, l),
			   "step %d: line %u statistics", step, l);
		tu_require((!epochs || x->version == y->version) && x->llc_valid == y->llc_valid &&
				   x->owner == y->owner && x->dirty == y->dirty &&
				   x->nr_sharers == y->nr_sharers &&
				   x->busy_until == y->busy_until &&
				   same_sharers(&a->dir, &b->dir, l),
			   "step %d: directory line %u", step, l);
	}
	tu_require(stats_nr_orows(a) == stats_nr_orows(b), "step %d: Pareto rows", step);
	for (uint32_t o = 0; o < stats_nr_orows(a); o++) {
		struct orow ra, rb;

		stats_orow(a, o, &ra);
		stats_orow(b, o, &rb);
		tu_require(!memcmp(ra.c, rb.c, sizeof(ra.c)), "step %d: Pareto row %u", step, o);
	}
	for (int c = 0; c < 4; c++) {
		same_ways(&a->core[c].l1, &b->core[c].l1, epochs, "l1d");
		same_ways(&a->core[c].l2, &b->core[c].l2, epochs, "l2");
	}
}

/*
 * The hit path is the table's hit rows (xact.c, mem_hit): two memory systems, one with it and
 * one serving everything through the table, take the same pseudo-random accesses (4 cores, 12
 * shared lines and 12 of each core's own, caches small enough to evict) and must agree on every return, statistic, directory
 * entry and cache way after each; every row the hit path serves must have been served from L1d
 * and from L2, and from a prefetched copy.  _i % 3 picks the prefetch rules; loops 3 to 5 run
 * both outside check mode, where the hit path skips what a hit would not change (hit.c).
 */
START_TEST(proto_hit_path_matches_table)
{
	static const char *const ovr[][2] = {{"prefetch.adjacent_line=true", NULL},
					     {"prefetch.adjacent_line=false", NULL},
					     {"prefetch.pair_granule=true", NULL}};
	struct machine mc;
	struct mem *a, *b;
	simtime_t t[4] = {0};
	uint32_t seen[MESI_COUNT][MESI_COUNT][MEM_HIT_EVENTS][3] = {{{{0}}}};
	GRand *rnd = g_rand_new_with_seed(15);

	tu_machine(&mc, "skylake-sp-2s", ovr[_i % 3]);
	a = hit_mem_checked(&mc, true, _i < 3);
	b = hit_mem_checked(&mc, false, _i < 3);
	for (int step = 0; step < 6000; step++) {
		int cpu = (int)g_rand_int_range(rnd, 0, 4), core = machine_cpu_core(&mc, cpu);
		/* Half the accesses to lines of the CPU's own (E and M copies), half to shared. */
		uint64_t base = g_rand_boolean(rnd) ? 0x100000 : 0x200000 + (uint64_t)cpu * 0x1000;
		uint64_t addr = base + (uint64_t)g_rand_int_range(rnd, 0, 12) * 64 +
				(uint64_t)g_rand_int_range(rnd, 0, 8) * 8;
		int pick = g_rand_int_range(rnd, 0, 2 * MEM_OP_COUNT);
		enum mem_op op = pick < MEM_OP_COUNT ? MEM_LOAD : (enum mem_op)(pick - MEM_OP_COUNT);
		uint64_t la = addr >> a->gshift << a->gshift;
		struct cway *w2 = pcache_lookup(&a->core[core].l2, la);
		int lvl = !w2 ? 0 : pcache_lookup(&a->core[core].l1, la) ? 1 : w2->pf ? 2 : 0;
		int own = w2 ? w2->state : MESI_I, oth = mem_others_state(a, core, addr);
		uint64_t before = mem_hits_served(a);
		simtime_t ta, tb;

		if (g_rand_int_range(rnd, 0, 16) == 0) {
			mem_evict(a, core, addr, t[cpu]);
			mem_evict(b, core, addr, t[cpu]);
			continue;
		}
		ta = mem_access(a, cpu, addr, 8, op, (uint32_t)(addr & 63), t[cpu]);
		tb = mem_access(b, cpu, addr, 8, op, (uint32_t)(addr & 63), t[cpu]);
		tu_require(ta == tb, "step %d: %s returned %" G_GUINT64_FORMAT " and %"
			   G_GUINT64_FORMAT, step, mem_op_names[op], ta, tb);
		same_state(a, b, step);
		if (mem_hits_served(a) != before && op != MEM_LOCKED_RMW)
			seen[own][oth][op == MEM_LOAD ? EV_LOAD : op == MEM_STORE ? EV_STORE
										   : EV_RMW][lvl]++;
		t[cpu] = ta + (simtime_t)g_rand_int_range(rnd, 0, 3) * mc.l2.latency;
	}
	ck_assert_uint_eq(mem_hits_served(b), 0);
	for (int own = 0; own < MESI_COUNT; own++)
		for (int oth = 0; oth < MESI_COUNT; oth++)
			for (int ev = 0; ev < MEM_HIT_EVENTS; ev++)
				for (int lvl = 0; lvl < 2 + (_i % 3 == 0); lvl++)
					ck_assert_msg(!a->hit[own][oth][ev].row ||
							      seen[own][oth][ev][lvl],
						      "row %s/%s/%s never served from %s",
						      mesi_names[own], mesi_names[oth],
						      proto_event_names[ev],
						      (const char *[]){"L2", "L1d", "a prefetch"}[lvl]);
	mem_free(a);
	mem_free(b);
	machine_release(&mc);
	g_rand_free(rnd);
}
END_TEST

/* One access by @cpu on both memory systems, which must agree on it and after it; the clock
 * then moves past every fill and prefetch. */
static void both_access(struct mem *a, struct mem *b, int cpu, uint64_t addr, enum mem_op op,
			simtime_t *t, int step)
{
	tu_require(mem_access(a, cpu, addr, 8, op, 0, *t) == mem_access(b, cpu, addr, 8, op, 0, *t),
		   "step %d: the two returned different times", step);
	same_state(a, b, step);
	*t += 100000;
}

/* @cpu loads the 2 lines after @x + 64 of @x's L1d set (hit_mem_checked: 2 sets of 2 ways)
 * and of another L2 set (4 sets), so that @x leaves L1d and stays in L2. */
static void l1_out(struct mem *a, struct mem *b, int cpu, uint64_t x, simtime_t *t, int step)
{
	both_access(a, b, cpu, x + 128, MEM_LOAD, t, step);
	both_access(a, b, cpu, x + 384, MEM_LOAD, t, step);
}

/*
 * A store hit marks the line's LLC copies stale once per copy (cway.llc, hit.h), so the flag
 * must come back with every state change.  A copy that a store hit left unflagged in L2 (and
 * in the L1d copy filled from it) goes Shared (another core's load: a writeback makes the LLC
 * copy valid), then Modified again through an RFO prefetch of its buddy (skylake-sp-2s's
 * rfo_buddy_shared), which writes no data.  Its next store hit, from L1d (_i 0) or from L2
 * (_i 1), must mark the LLC copy stale, as the table does.
 */
START_TEST(store_hit_after_rfo_prefetch_marks_llc)
{
	struct machine mc;
	struct mem *a, *b;
	const uint64_t x = 0x300000, y = x ^ 64; /* buddies */
	int c0 = 0, c1 = 1, core;
	simtime_t t = 0;

	tu_machine(&mc, "skylake-sp-2s", (const char *[]){"prefetch.adjacent_line=true", NULL});
	while (machine_cpu_core(&mc, c1) == machine_cpu_core(&mc, c0))
		c1++;
	core = machine_cpu_core(&mc, c0);
	a = hit_mem_checked(&mc, true, false);
	b = hit_mem_checked(&mc, false, false);
	both_access(a, b, c0, x, MEM_STORE, &t, 0);
	l1_out(a, b, c0, x, &t, 1);
	both_access(a, b, c0, x, MEM_STORE, &t, 2); /* an L2 hit: both copies unflagged */
	both_access(a, b, c1, x, MEM_LOAD, &t, 3);
	mem_evict(a, core, y, t);
	mem_evict(b, core, y, t);
	both_access(a, b, c0, y, MEM_STORE, &t, 4); /* its RFO prefetch takes x to M */
	tu_require(mem_state(a, core, x) == MESI_M, "the RFO prefetch upgraded x");
	if (_i)
		l1_out(a, b, c0, x, &t, 5);
	both_access(a, b, c0, x, MEM_STORE, &t, 6);
	tu_require(mem_hits_served(a) >= 2 && pcache_lookup(&a->core[core].l2, x),
		   "the stores to x hit (%" G_GUINT64_FORMAT " hits)", mem_hits_served(a));
	mem_free(a);
	mem_free(b);
	machine_release(&mc);
}
END_TEST

/* Outside check mode an L2 victim's eviction runs its EVICT row in l2_slot (xact.c), in it
 * through the table: two memory systems, one in each mode, take the same pseudo-random loads
 * and stores of 4 CPUs to 48 lines (caches of 16 lines in L2) and must agree after each; both
 * kinds of eviction row, a clean copy's and a dirty one's (writeback), must have run. */
START_TEST(victim_eviction_matches_table)
{
	struct machine mc;
	struct mem *a, *b;
	uint64_t acts[ACT_COUNT];
	simtime_t t[4] = {0};
	GRand *rnd = g_rand_new_with_seed(16);

	tu_machine(&mc, "skylake-sp-2s", NULL);
	a = hit_mem_checked(&mc, false, true);
	b = hit_mem_checked(&mc, false, false);
	for (int step = 0; step < 4000; step++) {
		int cpu = (int)g_rand_int_range(rnd, 0, 4);
		uint64_t addr = 0x100000 + (uint64_t)g_rand_int_range(rnd, 0, 48) * 64;
		enum mem_op op = g_rand_int_range(rnd, 0, 3) ? MEM_LOAD : MEM_STORE;
		simtime_t ta = mem_access(a, cpu, addr, 8, op, 0, t[cpu]);

		tu_require(ta == mem_access(b, cpu, addr, 8, op, 0, t[cpu]),
			   "step %d: the two returned different times", step);
		same_state(a, b, step);
		t[cpu] = ta;
	}
	mem_act_counts(b, acts);
	ck_assert_uint_gt(acts[ACT_EVICT], 500);
	ck_assert_uint_gt(acts[ACT_WRITEBACK], 50);
	mem_free(a);
	mem_free(b);
	machine_release(&mc);
	g_rand_free(rnd);
}
END_TEST

/* @cpu's access of @mm (its memo in @a, mem_access_memo) and the same by mem_access() in @b:
 * the same time, then the same state. */
static void both_memo(struct mem *a, struct mem *b, struct mem_memo *mm, int cpu, uint64_t addr,
		      enum mem_op op, simtime_t *t, int step)
{
	simtime_t ta;

	if (!mem_access_memo(a, mm, *t, &ta))
		ta = mem_access(a, cpu, addr, 8, op, 0, *t);
	tu_require(ta == mem_access(b, cpu, addr, 8, op, 0, *t),
		   "step %d: the two returned different times", step);
	same_state(a, b, step);
	*t += 100000;
}

/* The memo's short hit path (memo_hit) serves a copy by the rule that served it last only in
 * that rule's state: a store memo's hit on an E copy (silent_upgrade, E -> M) is no rule for
 * the next hit, and the LLC mark of the copy's new fill (cway.llc) is for its next store hit,
 * as with the table.  _i 0: x comes back in E into the same ways after an eviction; its store
 * must take it to M.  _i 1: x, hit by the memo in M, goes Shared (another core's load: the
 * LLC copy is valid again), then M through its buddy's RFO prefetch; the memo's next store
 * hit must mark the LLC copy stale.  _i 2: x has no statistics of its own (one CPU's line);
 * after a warm-up's end (mem_stats_reset) its CPU set is empty, and the memo's next hit must
 * put its CPU in it. */
START_TEST(memo_hit_only_in_its_rule_state)
{
	struct machine mc;
	struct mem *a, *b;
	struct mem_memo st;
	const uint64_t x = 0x300000, y = x ^ 64; /* buddies */
	int c0 = 0, c1 = 1, core;
	simtime_t t = 0;

	tu_machine(&mc, "skylake-sp-2s", (const char *[]){"prefetch.adjacent_line=true", NULL});
	core = machine_cpu_core(&mc, c0);
	a = hit_mem_checked(&mc, true, false); /* outside check mode: memo_hit serves */
	b = hit_mem_checked(&mc, false, false);
	if (_i == 2) {
		mem_track_lines(a, NULL, false);
		mem_track_lines(b, NULL, false);
	}
	mem_memo_init(a, &st, c0, x, 8, MEM_STORE, 0);
	both_access(a, b, c0, x, MEM_LOAD, &t, 0); /* E */
	both_memo(a, b, &st, c0, x, MEM_STORE, &t, 1); /* E -> M */
	if (!_i) {
		mem_evict(a, core, x, t);
		mem_evict(b, core, x, t);
		both_access(a, b, c0, x, MEM_LOAD, &t, 2); /* E again, in the emptied ways */
		both_memo(a, b, &st, c0, x, MEM_STORE, &t, 3);
		tu_require(mem_state(a, core, x) == MESI_M, "the store took x to M");
	} else if (_i == 2) {
		both_memo(a, b, &st, c0, x, MEM_STORE, &t, 2); /* a hit in M: the rule kept */
		mem_stats_reset(a);
		mem_stats_reset(b);
		both_memo(a, b, &st, c0, x, MEM_STORE, &t, 3);
		tu_require(stats_line_nr_cpus(a, mem_line(a, x)) == 1, "x's CPU counted again");
	} else {
		both_memo(a, b, &st, c0, x, MEM_STORE, &t, 2); /* a hit in M: the rule kept */
		both_memo(a, b, &st, c0, x, MEM_STORE, &t, 3);
		both_access(a, b, c1, x, MEM_LOAD, &t, 4);
		mem_evict(a, core, y, t);
		mem_evict(b, core, y, t);
		both_access(a, b, c0, y, MEM_STORE, &t, 5); /* its RFO prefetch takes x to M */
		tu_require(mem_state(a, core, x) == MESI_M, "the RFO prefetch upgraded x");
		both_memo(a, b, &st, c0, x, MEM_STORE, &t, 6);
	}
	mem_free(a);
	mem_free(b);
	machine_release(&mc);
}
END_TEST

/* A memo (mem_access_memo) serves its operation as mem_access() would (a private hit by its
 * own path, anything else by the full path with the ways it found), or leaves it to
 * mem_access(): 4 CPUs repeat 12 operations each (lines of their own and shared ones, every
 * kind, some crossing a line), with evictions, so memos meet reused ways, copies in other
 * states, misses, data in flight and a full store buffer. */
/* on_write of the memo test: how many writes to watched lines were reported, and the last. */
struct writes {
	uint32_t nr, line;
	simtime_t when;
};

static void count_write(void *data, uint32_t line, simtime_t when)
{
	struct writes *w = data;

	w->nr++;
	w->line = line;
	w->when = when;
}

START_TEST(proto_memo_matches_access)
{
	/* A store buffer of 2 entries fills up, so stores stall for one. */
	static const char *const ovr[][3] = {{"prefetch.adjacent_line=true",
					      "store_buffer.entries=2", NULL},
					     {"prefetch.pair_granule=true", "store_buffer.entries=2",
					      NULL}};
	enum { CPUS = 4, OPS = 12 };
	/* CPU 40 is CPU 0's SMT sibling: a copy of its core serves both without a miss. */
	static const int cpu_of[CPUS] = {0, 1, 2, 40};
	struct machine mc;
	struct mem *a, *b;
	struct mem_memo memo[CPUS][OPS];
	uint64_t addr[CPUS][OPS];
	enum mem_op op[CPUS][OPS];
	simtime_t t[CPUS] = {0};
	uint32_t served = 0, refused = 0;
	struct writes wa = {0}, wb = {0};
	GRand *rnd = g_rand_new_with_seed(16);

	tu_machine(&mc, "skylake-sp-2s", ovr[_i % 2]);
	/* The memos' memory system also runs outside check mode (loops 2, 3), where a memo
	 * trusts the directory to say its core has no copy; the other checks every step. */
	a = hit_mem_checked(&mc, true, _i < 2);
	b = hit_mem(&mc, true);
	/* Loop 3 keeps statistics for shared lines only, as runs do: a CPU's own lines are then
	 * untracked, the memo's short hit path's commonest case (memo_hit); loop 2 tracks all, so
	 * that the short path meets tracked lines outside check mode too. */
	if (_i == 3) {
		mem_track_lines(a, NULL, false);
		mem_track_lines(b, NULL, false);
	}
	a->on_write = b->on_write = count_write;
	a->on_write_data = &wa;
	b->on_write_data = &wb;
	for (int c = 0; c < CPUS; c++)
		for (int i = 0; i < OPS; i++) {
			uint64_t base = i < 4 ? 0x100000 : 0x200000 + (uint64_t)c * 0x1000;

			addr[c][i] = base + (uint64_t)g_rand_int_range(rnd, 0, 8) * 64 +
				     (uint64_t)g_rand_int_range(rnd, 0, 8) * 8;
			if (i == OPS - 1) /* crosses into the next line (64 or 128 bytes) */
				addr[c][i] = (addr[c][i] | 127) - 3;
			op[c][i] = (enum mem_op)g_rand_int_range(rnd, 0, MEM_OP_COUNT);
			mem_memo_init(a, &memo[c][i], cpu_of[c], addr[c][i], 8, op[c][i],
				      (uint32_t)i);
		}
	for (int step = 0; step < 8000; step++) {
		int c = (int)g_rand_int_range(rnd, 0, CPUS), i = (int)g_rand_int_range(rnd, 0, OPS);
		simtime_t ta, tb;

		if (step == 4000 && _i == 3) { /* a warm-up's end: statistics restart, lines stay */
			mem_stats_reset(a);
			mem_stats_reset(b);
		}
		if (step == 2000) { /* from now on, writes to two lines are reported (lock waiters) */
			for (int k = 0; k < 2; k++) {
				mem_watch(a, addr[k][4 * k + 1]);
				mem_watch(b, addr[k][4 * k + 1]);
			}
		}
		if (g_rand_int_range(rnd, 0, 32) == 0) {
			mem_evict(a, machine_cpu_core(&mc, cpu_of[c]), addr[c][i], t[c]);
			mem_evict(b, machine_cpu_core(&mc, cpu_of[c]), addr[c][i], t[c]);
			continue;
		}
		if (mem_access_memo(a, &memo[c][i], t[c], &ta))
			served++;
		else {
			refused++;
			ta = mem_access(a, cpu_of[c], addr[c][i], 8, op[c][i], (uint32_t)i, t[c]);
		}
		tb = mem_access(b, cpu_of[c], addr[c][i], 8, op[c][i], (uint32_t)i, t[c]);
		tu_require(ta == tb, "step %d: %s returned %" G_GUINT64_FORMAT " and %"
			   G_GUINT64_FORMAT, step, mem_op_names[op[c][i]], ta, tb);
		same_state(a, b, step);
		tu_require(wa.nr == wb.nr && wa.line == wb.line && wa.when == wb.when,
			   "step %d: writes to watched lines reported %u and %u times", step, wa.nr,
			   wb.nr);
		t[c] = ta + (simtime_t)g_rand_int_range(rnd, 0, 3) * mc.l2.latency;
	}
	/* Both ways were taken, many times, and watched lines were written. */
	ck_assert_uint_gt(served, 1000);
	ck_assert_uint_gt(refused, 300); /* the one operation in 12 that crosses a line */
	ck_assert_uint_gt(wb.nr, 20);
	mem_free(a);
	mem_free(b);
	machine_release(&mc);
	g_rand_free(rnd);
}
END_TEST

/* A run of stores (mem_store_run, `work`'s page zeroing) is that many mem_access_from()
 * stores, each issued when the one before returns: two memory systems, one taking runs and one
 * the stores one by one, of 4 CPUs through 96 lines (caches of 16 in L2) with loads between
 * them, must return the same times, hand back what each store left in last_line and last_src,
 * stop at the same store before the end time given, and agree on everything after each run. */
START_TEST(store_run_matches_stores)
{
	static const volatile sig_atomic_t no_stop = 0, stop = 1;
	struct machine mc;
	struct mem *a, *b;
	struct mem_run run;
	simtime_t t[4] = {0};
	int cut = 0, remote = 0;
	GRand *rnd = g_rand_new_with_seed(21);

	tu_machine(&mc, "skylake-sp-2s", NULL);
	a = hit_mem_checked(&mc, true, false);
	b = hit_mem_checked(&mc, true, false);
	for (int step = 0; step < 1500; step++) {
		int cpu = (int)g_rand_int_range(rnd, 0, 4);
		uint64_t addr = 0x100000 + (uint64_t)g_rand_int_range(rnd, 0, 96) * 64;
		uint32_t n = (uint32_t)g_rand_int_range(rnd, 1, MEM_RUN_MAX + 1), i, k;
		simtime_t until = g_rand_int_range(rnd, 0, 2) ? t[cpu] + 40 * n : 0, ta = t[cpu];

		if (g_rand_int_range(rnd, 0, 3) == 0) { /* a load, for lines other CPUs hold */
			t[cpu] = mem_access(a, cpu, addr, 8, MEM_LOAD, 0, t[cpu]);
			ck_assert_uint_eq(mem_access(b, cpu, addr, 8, MEM_LOAD, 0, ta), t[cpu]);
			continue;
		}
		if (addr + (uint64_t)n * 64 > 0x100000 + 96 * 64)
			n = (uint32_t)((0x100000 + 96 * 64 - addr) / 64);
		k = mem_store_run(a, cpu, addr, n, 64, 8, 1, DIR_NONE, &ta, until, &no_stop, &run);
		for (i = 0; i < n && !(until && t[cpu] >= until); i++) {
			t[cpu] = mem_access_from(b, cpu, addr + 64 * i, 8, MEM_STORE, 1, DIR_NONE,
						 t[cpu]);
			tu_require(run.line[i] == b->last_line && run.src[i] == b->last_src,
				   "step %d: store %u of the run", step, i);
			remote += run.src[i] == SRC_HITM_RMT || run.src[i] == SRC_HITM_LCL;
		}
		tu_require(k == i && ta == t[cpu], "step %d: %u of %u stores, not %u", step, k, n, i);
		cut += k < n;
		same_state(a, b, step);
	}
	/* A signal stops a run before its first store. */
	ck_assert_uint_eq(mem_store_run(a, 0, 0x100000, 4, 64, 8, 1, DIR_NONE, &t[0], 0, &stop,
					&run), 0);
	ck_assert_int_gt(cut, 100);
	ck_assert_int_gt(remote, 20);
	mem_free(a);
	mem_free(b);
	machine_release(&mc);
	g_rand_free(rnd);
}
END_TEST

static Suite *hit_path_suite(void)
{
	Suite *s = suite_create("hit_path");
	TCase *tc = tcase_create("proto_hit_path");

	tcase_add_loop_test(tc, proto_hit_path_matches_table, 0, 6);
	tcase_add_loop_test(tc, proto_memo_matches_access, 0, 4);
	tcase_add_loop_test(tc, store_hit_after_rfo_prefetch_marks_llc, 0, 2);
	tcase_add_loop_test(tc, memo_hit_only_in_its_rule_state, 0, 3);
	tcase_add_test(tc, victim_eviction_matches_table);
	tcase_add_test(tc, store_run_matches_stores);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(hit_path_suite());
}
