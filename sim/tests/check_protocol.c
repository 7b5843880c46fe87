/*
 * check_protocol.c - the protocol table, exhaustively.
 *
 * Every (own, others, event) key, under both prefetch.buddy_modified settings, is either
 * impossible with a reason or is driven for real: a memory system is put into the state with
 * ordinary accesses, the event is issued by core 0, and the resulting states and the messages
 * (protocol actions executed) are compared with the expectations below.  The expectations are
 * written independently of protocol.c, so a wrong row fails here.
 */
#include <glib.h>
#include <string.h>

#include "mem/protocol.h"
#include "testutil.h"

#define LINE 0x10000000ull /* a line whose buddy no setup access touches */

struct expect {
	const char *id;
	const char *key;    /* "own others EVENT guard" (guard: *, or bit names of
			     * proto_vbit_names joined by commas, all of which must hold) */
	const char *next;   /* "own others" */
	const char *msgs;   /* actions that must run; any other counted action must not */
	const char *omsgs;  /* owner's-side actions that must run (the same rule) */
};

static const struct expect cases[] = {
	{"mesi-1.1", "I I LOAD *", "E I", "fill_mem pf_buddy", ""},
	{"mesi-1.2", "I I STORE pf_read", "M I", "fill_mem write_data count_st_miss pf_buddy", ""},
	{"mesi-1.2r", "I I STORE pf_rfo", "M I", "fill_mem write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-1.3", "I I RMW pf_read", "M I", "fill_mem write_data count_st_miss pf_buddy", ""},
	{"mesi-1.3r", "I I RMW pf_rfo", "M I", "fill_mem write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-1.4", "I I PF_LOAD *", "E I", "fill_mem", ""},
	{"mesi-1.5", "I I PF_STORE inst_e", "E I", "fill_mem", ""},
	{"mesi-1.5m", "I I PF_STORE inst_m", "M I", "fill_mem", ""},
	{"mesi-2.1", "I S LOAD *", "S S", "fill_sharer pf_buddy", ""},
	{"mesi-2.2", "I S STORE pf_read", "M I", "fill_sharer send_inv write_data count_st_miss pf_buddy", ""},
	{"mesi-2.2r", "I S STORE pf_rfo", "M I", "fill_sharer send_inv write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-2.3", "I S RMW pf_read", "M I", "fill_sharer send_inv write_data count_st_miss pf_buddy", ""},
	{"mesi-2.3r", "I S RMW pf_rfo", "M I", "fill_sharer send_inv write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-2.4", "I S PF_LOAD *", "S S", "fill_sharer", ""},
	{"mesi-2.5", "I S PF_STORE inst_e", "E I", "fill_sharer send_inv", ""},
	{"mesi-2.5m", "I S PF_STORE inst_m", "M I", "fill_sharer send_inv", ""},
	{"mesi-3.1", "I E LOAD *", "S S", "fwd_gets pf_buddy", "send_data"},
	{"mesi-3.2", "I E STORE pf_read", "M I", "fwd_getx write_data count_st_miss pf_buddy", "send_data"},
	{"mesi-3.2r", "I E STORE pf_rfo", "M I", "fwd_getx write_data count_st_miss pf_buddy_rfo", "send_data"},
	{"mesi-3.3", "I E RMW pf_read", "M I", "fwd_getx write_data count_st_miss pf_buddy", "send_data"},
	{"mesi-3.3r", "I E RMW pf_rfo", "M I", "fwd_getx write_data count_st_miss pf_buddy_rfo", "send_data"},
	{"mesi-3.4", "I E PF_LOAD *", "S S", "fwd_gets", "send_data"},
	{"mesi-3.5", "I E PF_STORE inst_e", "E I", "fwd_getx", "send_data"},
	{"mesi-3.5m", "I E PF_STORE inst_m", "M I", "fwd_getx", "send_data"},
	{"mesi-4.1", "I M LOAD *", "S S", "count_hitm fwd_gets pf_buddy", "send_data writeback"},
	{"mesi-4.2", "I M STORE pf_read", "M I", "count_rfo_hitm fwd_getx write_data count_st_miss pf_buddy", "send_data"},
	{"mesi-4.2r", "I M STORE pf_rfo", "M I", "count_rfo_hitm fwd_getx write_data count_st_miss pf_buddy_rfo", "send_data"},
	{"mesi-4.3", "I M RMW pf_read", "M I", "count_hitm fwd_getx write_data count_st_miss pf_buddy", "send_data"},
	{"mesi-4.3r", "I M RMW pf_rfo", "M I", "count_hitm fwd_getx write_data count_st_miss pf_buddy_rfo", "send_data"},
	{"mesi-4.4", "I M PF_LOAD steal", "S S", "count_pf_hitm fwd_gets", "send_data writeback"},
	{"mesi-4.5", "I M PF_LOAD drop", "I M", "drop_pf", ""},
	{"mesi-4.6", "I M PF_STORE rfo_steal", "M I", "count_pf_hitm fwd_getx", "send_data"},
	{"mesi-4.7", "I M PF_STORE rfo_drop", "I M", "drop_pf", ""},
	{"mesi-5.1", "S I LOAD *", "S I", "hit", ""},
	{"mesi-5.2", "S I STORE fill_pf", "M I", "upgrade write_data count_st_miss", ""},
	{"mesi-5.2u", "S I STORE upg_pf,pf_read", "M I", "upgrade write_data count_st_miss pf_buddy", ""},
	{"mesi-5.2r", "S I STORE upg_pf,pf_rfo", "M I", "upgrade write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-5.3", "S I RMW fill_pf", "M I", "upgrade write_data count_st_miss", ""},
	{"mesi-5.3u", "S I RMW upg_pf,pf_read", "M I", "upgrade write_data count_st_miss pf_buddy", ""},
	{"mesi-5.3r", "S I RMW upg_pf,pf_rfo", "M I", "upgrade write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-5.4", "S I PF_LOAD *", "S I", "drop_pf", ""},
	{"mesi-5.5", "S I PF_STORE sh_keep", "S I", "drop_pf", ""},
	{"mesi-5.5e", "S I PF_STORE sh_inv,inst_e", "E I", "upgrade", ""},
	{"mesi-5.5m", "S I PF_STORE sh_inv,inst_m", "M I", "upgrade", ""},
	{"mesi-5.6", "S I EVICT *", "I I", "evict", ""},
	{"mesi-6.1", "S S LOAD *", "S S", "hit", ""},
	{"mesi-6.2", "S S STORE fill_pf", "M I", "upgrade send_inv write_data count_st_miss", ""},
	{"mesi-6.2u", "S S STORE upg_pf,pf_read", "M I", "upgrade send_inv write_data count_st_miss pf_buddy", ""},
	{"mesi-6.2r", "S S STORE upg_pf,pf_rfo", "M I", "upgrade send_inv write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-6.3", "S S RMW fill_pf", "M I", "upgrade send_inv write_data count_st_miss", ""},
	{"mesi-6.3u", "S S RMW upg_pf,pf_read", "M I", "upgrade send_inv write_data count_st_miss pf_buddy", ""},
	{"mesi-6.3r", "S S RMW upg_pf,pf_rfo", "M I", "upgrade send_inv write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-6.4", "S S PF_LOAD *", "S S", "drop_pf", ""},
	{"mesi-6.5", "S S PF_STORE sh_keep", "S S", "drop_pf", ""},
	{"mesi-6.5e", "S S PF_STORE sh_inv,inst_e", "E I", "upgrade send_inv", ""},
	{"mesi-6.5m", "S S PF_STORE sh_inv,inst_m", "M I", "upgrade send_inv", ""},
	{"mesi-6.6", "S S EVICT *", "I S", "evict", ""},
	{"mesi-7.1", "E I LOAD *", "E I", "hit", ""},
	{"mesi-7.2", "E I STORE *", "M I", "hit silent_upgrade write_data count_st_hit", ""},
	{"mesi-7.3", "E I RMW *", "M I", "hit silent_upgrade write_data count_st_hit", ""},
	{"mesi-7.4", "E I PF_LOAD *", "E I", "drop_pf", ""},
	{"mesi-7.5", "E I PF_STORE *", "E I", "drop_pf", ""},
	{"mesi-7.6", "E I EVICT *", "I I", "evict", ""},
	{"mesi-8.1", "M I LOAD *", "M I", "hit", ""},
	{"mesi-8.2", "M I STORE *", "M I", "hit write_data count_st_hit", ""},
	{"mesi-8.3", "M I RMW *", "M I", "hit write_data count_st_hit", ""},
	{"mesi-8.4", "M I PF_LOAD *", "M I", "drop_pf", ""},
	{"mesi-8.5", "M I PF_STORE *", "M I", "drop_pf", ""},
	{"mesi-8.6", "M I EVICT *", "I I", "writeback evict", ""},
};


static int state_of(const char *s)
{
	for (int i = 0; i < MESI_COUNT; i++)
		if (!strcmp(s, mesi_names[i]))
			return i;
	ck_abort_msg("bad state %s", s);
	return -1;
}

static int event_of(const char *s)
{
	for (int i = 0; i < EV_COUNT; i++)
		if (!strcmp(s, proto_event_names[i]))
			return i;
	ck_abort_msg("bad event %s", s);
	return -1;
}

/* Whether every bit name of @guard ("*": none) holds under variant @v. */
static bool guard_holds(const char *guard, unsigned v)
{
	g_auto(GStrv) names = g_strsplit(guard, ",", -1);

	if (!strcmp(guard, "*"))
		return true;
	for (char **n = names; *n; n++) {
		bool known = false, holds = false;

		for (unsigned b = 0; b < PROTO_VBITS; b++)
			for (unsigned val = 0; val < 2; val++)
				if (!strcmp(*n, proto_vbit_names[b][val])) {
					known = true;
					holds |= (v >> b & 1) == val;
				}
		ck_assert_msg(known, "unknown guard name %s", *n);
		if (!holds)
			return false;
	}
	return true;
}

/* The expectation for a key, or NULL when the key must be impossible.  At most one matches. */
static const struct expect *find_case(int own, int others, int ev, unsigned v)
{
	const struct expect *found = NULL;

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_auto(GStrv) k = g_strsplit(cases[i].key, " ", 4);

		if (state_of(k[0]) == own && state_of(k[1]) == others && event_of(k[2]) == ev &&
		    guard_holds(k[3], v)) {
			ck_assert_msg(!found, "%s and %s both match", found ? found->id : "",
				      cases[i].id);
			found = &cases[i];
		}
	}
	return found;
}

/* Set @mc's prefetch rules to variant @v (the prefetcher itself stays as loaded). */
static void set_variant(struct machine *mc, unsigned v)
{
	mc->pf.buddy_modified = v & PROTO_V_DROP ? PF_BUDDY_DROP : PF_BUDDY_STEAL;
	mc->pf.store_buddy = v & PROTO_V_RFO ? PF_STORE_RFO : PF_STORE_READ;
	mc->pf.upgrade_prefetch = v & PROTO_V_UPG;
	mc->pf.rfo_buddy_modified = v & PROTO_V_RFO_DROP ? PF_BUDDY_DROP : PF_BUDDY_STEAL;
	mc->pf.rfo_buddy_shared = v & PROTO_V_SH_INV ? PF_RFO_SHARED_INVALIDATE
						   : PF_RFO_SHARED_KEEP;
	mc->pf.rfo_install = v & PROTO_V_INST_M ? PF_RFO_INSTALL_MODIFIED
					       : PF_RFO_INSTALL_EXCLUSIVE;
}

/* Each action in @names (space-separated) ran once since @before, every other one never. */
static void expect_actions(const char *id, const char *names, const uint64_t *before,
			   const uint64_t *after, int nr, const char *const *action_names)
{
	g_auto(GStrv) want = g_strsplit(names, " ", -1);

	for (int a = 1; a < nr; a++) {
		bool w = g_strv_contains((const char *const *)want, action_names[a]);

		ck_assert_msg(after[a] - before[a] == (w ? 1u : 0u),
			      "%s: action %s ran %" G_GUINT64_FORMAT " times, expected %d", id,
			      action_names[a], after[a] - before[a], w);
	}
}

/* Put core 0 in @own and cores 1-2 in @others for LINE, with ordinary accesses. */
static void setup_state(struct mem *m, int own, int others)
{
	simtime_t t = 1000;

	switch (others) {
	case MESI_S:
		t = mem_access(m, 1, LINE, 8, MEM_LOAD, 0, t);
		t = mem_access(m, 2, LINE, 8, MEM_LOAD, 0, t);
		break;
	case MESI_E:
		t = mem_access(m, 1, LINE, 8, MEM_LOAD, 0, t);
		break;
	case MESI_M:
		t = mem_access(m, 1, LINE, 8, MEM_RMW, 0, t);
		break;
	}
	if (own == MESI_S) {
		if (others == MESI_I)
			t = mem_access(m, 1, LINE, 8, MEM_LOAD, 0, t);
		t = mem_access(m, 0, LINE, 8, MEM_LOAD, 0, t);
		if (others == MESI_I)
			mem_evict(m, 1, LINE, t);
	} else if (own == MESI_E) {
		mem_access(m, 0, LINE, 8, MEM_LOAD, 0, t);
	} else if (own == MESI_M) {
		mem_access(m, 0, LINE, 8, MEM_RMW, 0, t);
	}
	ck_assert_int_eq(mem_state(m, 0, LINE), own);
	ck_assert_int_eq(mem_others_state(m, 0, LINE), others);
}

static void issue(struct mem *m, int ev)
{
	simtime_t t = 1000000;

	switch (ev) {
	case EV_LOAD:
		mem_access(m, 0, LINE, 8, MEM_LOAD, 0, t);
		break;
	case EV_STORE:
		mem_access(m, 0, LINE, 8, MEM_STORE, 0, t);
		break;
	case EV_RMW:
		mem_access(m, 0, LINE, 8, MEM_RMW, 0, t);
		break;
	case EV_PF_LOAD:
	case EV_PF_STORE:
		mem_prefetch(m, 0, LINE, ev, t);
		break;
	case EV_EVICT:
		mem_evict(m, 0, LINE, t);
		break;
	}
}

static void check_key(struct machine *mc, int own, int others, int ev, unsigned v)
{
	const struct expect *e = find_case(own, others, ev, v);
	uint64_t before[ACT_COUNT], after[ACT_COUNT], obefore[OACT_COUNT];
	g_auto(GStrv) next = NULL;
	struct mem *m;

	if (!e) {
		ck_assert_msg(proto_impossible_reason(own, others, ev) != NULL,
			      "%s/%s/%s has no expectation and no reason to be impossible",
			      mesi_names[own], mesi_names[others], proto_event_names[ev]);
		return;
	}
	ck_assert_msg(!proto_impossible_reason(own, others, ev), "%s listed impossible", e->id);
	set_variant(mc, v);
	ck_assert_uint_eq(proto_variant(&mc->pf), v);
	m = mem_new(mc, NULL, true);
	setup_state(m, own, others);
	mem_act_counts(m, before);
	memcpy(obefore, m->oact_count, sizeof(obefore));
	issue(m, ev);
	ck_assert_msg(!m->failed, "%s: %s", e->id, m->fail_msg);
	next = g_strsplit(e->next, " ", 2);
	ck_assert_msg(mem_state(m, 0, LINE) == state_of(next[0]), "%s: own %s, expected %s",
		      e->id, mesi_names[mem_state(m, 0, LINE)], next[0]);
	ck_assert_msg(mem_others_state(m, 0, LINE) == state_of(next[1]),
		      "%s: others %s, expected %s", e->id,
		      mesi_names[mem_others_state(m, 0, LINE)], next[1]);
	mem_act_counts(m, after);
	expect_actions(e->id, e->msgs, before, after, ACT_COUNT, proto_action_names);
	expect_actions(e->id, e->omsgs, obefore, m->oact_count, OACT_COUNT, proto_oaction_names);
	mem_free(m);
}

START_TEST(proto_index_build_complete)
{
	struct proto_index ix;

	ck_assert(proto_index_build(&ix));
	/* Every key is covered by exactly one row or listed impossible, never both. */
	for (int own = 0; own < MESI_COUNT; own++)
		for (int oth = 0; oth < MESI_COUNT; oth++)
			for (int ev = 0; ev < EV_COUNT; ev++)
				for (unsigned v = 0; v < PROTO_VARIANTS; v++)
					ck_assert_msg(!ix.row[own][oth][ev][v] !=
						      !proto_impossible_reason(own, oth, ev),
						      "key %s/%s/%s/%u", mesi_names[own],
						      mesi_names[oth], proto_event_names[ev], v);
}
END_TEST

/* The whole product: 4 own x 4 others x 6 events x 64 prefetch rule settings. */
START_TEST(proto_lookup_exhaustive)
{
	static const char *const ovr[] = {"prefetch.adjacent_line=false", NULL};
	int own = _i / (MESI_COUNT * EV_COUNT), others = _i / EV_COUNT % MESI_COUNT;
	struct machine mc;

	tu_machine(&mc, "skylake-sp-2s", ovr);
	for (unsigned v = 0; v < PROTO_VARIANTS; v++)
		check_key(&mc, own, others, _i % EV_COUNT, v);
	machine_release(&mc);
}
END_TEST

/* ------------------------------------------------------------------ the walk
 * Every possible key again, now over where the other copies are (cores 1-2 on core 0's socket,
 * or cores 20-21 on the other one), the prefetcher on or off, store_buddy read or rfo, and where
 * core 0's own copy sits (L1d and L2 after a demand access, or only in L2, prefetched and not
 * used yet).  Each combination must give the latency and the counters the row implies, derived
 * here from the machine file's figures: the expectations do not read the table.
 */
struct walk {
	int own, others, ev;
	bool remote, pf_on, rfo, placed_by_pf;
};

static simtime_t wk_inv(const struct machine *mc, bool remote, uint32_t n)
{
	return (remote ? mc->inv_remote : mc->inv_local) + mc->inv_per_sharer * n;
}

static simtime_t wk_max(simtime_t a, simtime_t b)
{
	return a > b ? a : b;
}

/* Where a demand request's data comes from, as a counter, and what it costs. */
static int wk_source(const struct machine *mc, const struct walk *w, simtime_t *lat)
{
	bool writes = w->ev != EV_LOAD;

	if (w->own != MESI_I && (w->ev == EV_LOAD || w->own >= MESI_E)) {
		*lat = w->placed_by_pf ? mc->l2.latency : mc->l1d.latency;
		return w->placed_by_pf ? LS_LD_L2 : LS_LD_L1;
	}
	if (w->own == MESI_S) { /* upgrade: a trip to the home, the invalidations in parallel */
		*lat = w->others == MESI_S ? wk_max(mc->llc.latency, wk_inv(mc, w->remote, 2))
					   : mc->llc.latency;
		return w->placed_by_pf ? LS_LD_L2 : LS_LD_L1;
	}
	switch (w->others) {
	case MESI_I:
		*lat = mc->dram_local;
		return LS_LD_DRAM_LCL;
	case MESI_S:
		*lat = w->remote ? mc->clean_remote : mc->clean_local;
		if (writes)
			*lat = wk_max(*lat, wk_inv(mc, w->remote, 2));
		return w->remote ? LS_LD_RMT_HIT : LS_LD_LLC;
	case MESI_E:
		*lat = w->remote ? mc->clean_remote : mc->clean_local;
		return w->remote ? LS_LD_RMT_HIT : LS_LD_LLC;
	default: /* Modified on core 1 or 20; the line is homed on node 0, the reader's */
		*lat = w->remote ? mc->hitm_remote_reader_home : mc->hitm_local;
		return w->remote ? LS_HITM_RMT : LS_HITM_LCL;
	}
}

/* Put core 0 in w->own and two other cores in w->others, core 0's copy placed as asked. */
static void wk_setup(struct mem *m, const struct walk *w)
{
	int c1 = w->remote ? 20 : 1, c2 = w->remote ? 21 : 2;
	simtime_t t = 1000;

	if (w->others == MESI_S || w->others == MESI_E || (w->own == MESI_S && !w->others))
		t = mem_access(m, c1, LINE, 8, MEM_LOAD, 0, t);
	if (w->others == MESI_S)
		t = mem_access(m, c2, LINE, 8, MEM_LOAD, 0, t);
	if (w->others == MESI_M)
		t = mem_access(m, c1, LINE, 8, MEM_RMW, 0, t);
	if (w->own == MESI_M)
		t = mem_access(m, 0, LINE, 8, MEM_RMW, 0, t);
	else if (w->own != MESI_I && w->placed_by_pf)
		mem_prefetch(m, 0, LINE, EV_PF_LOAD, t);
	else if (w->own != MESI_I)
		t = mem_access(m, 0, LINE, 8, MEM_LOAD, 0, t);
	if (w->own == MESI_S && !w->others)
		mem_evict(m, c1, LINE, t + 100000);
	ck_assert_int_eq(mem_state(m, 0, LINE), w->own);
	ck_assert_int_eq(mem_others_state(m, 0, LINE), w->others);
}

static uint64_t wk_stat(const struct mem *m, uint64_t addr, int k)
{
	uint32_t idx = mem_line(m, addr);

	return idx == DIR_NONE ? 0 : stats_line(m, idx, k);
}

static void wk_check(const struct machine *mc, const struct walk *w, struct mem *m)
{
	static const enum mem_op ops[] = {[EV_LOAD] = MEM_LOAD, [EV_STORE] = MEM_STORE,
					  [EV_RMW] = MEM_RMW};
	uint64_t before[LS_COUNT], buddy_fills = wk_stat(m, LINE ^ 64, LS_PF_FILLS);
	const simtime_t t = 2000000;
	simtime_t lat;
	int src = wk_source(mc, w, &lat);

	for (int k = 0; k < LS_COUNT; k++)
		before[k] = wk_stat(m, LINE, k);
	mem_access(m, 0, LINE, 8, ops[w->ev], 0, t);
	ck_assert_msg(!m->failed, "%s", m->fail_msg);
#define WK_FMT "own %s others %s %s remote %d pf %d rfo %d prefetched %d"
#define WK_ARGS mesi_names[w->own], mesi_names[w->others], proto_event_names[w->ev], \
	w->remote, w->pf_on, w->rfo, w->placed_by_pf
	ck_assert_msg(m->last_done - t == lat, "latency %" G_GUINT64_FORMAT " ps, expected %"
		      G_GUINT64_FORMAT ": " WK_FMT, m->last_done - t, lat, WK_ARGS);
	if (w->ev != EV_STORE)
		ck_assert_msg(wk_stat(m, LINE, src) == before[src] + 1, "source %s: " WK_FMT,
			      lstat_info[src].key, WK_ARGS);
	if (w->ev != EV_LOAD) {
		int st = w->own >= MESI_E && !w->placed_by_pf ? LS_ST_L1HIT : LS_ST_L1MISS;

		ck_assert_msg(wk_stat(m, LINE, st) == before[st] + 1, "%s: " WK_FMT,
			      lstat_info[st].key, WK_ARGS);
	}
	ck_assert_msg(wk_stat(m, LINE, LS_ST_RFO_HITM) - before[LS_ST_RFO_HITM] ==
		      (w->ev == EV_STORE && w->own == MESI_I && w->others == MESI_M),
		      "store_rfo_hitm: " WK_FMT, WK_ARGS);
	ck_assert_msg(wk_stat(m, LINE, LS_PF_USEFUL) - before[LS_PF_USEFUL] == w->placed_by_pf,
		      "pf_useful: " WK_FMT, WK_ARGS);
	/* A demand fill prefetches the buddy when the prefetcher is on. */
	ck_assert_msg(wk_stat(m, LINE ^ 64, LS_PF_FILLS) - buddy_fills ==
		      (w->pf_on && w->own == MESI_I), "buddy pf_fills: " WK_FMT, WK_ARGS);
	if (w->pf_on && w->own == MESI_I && w->ev != EV_LOAD)
		/* store_buddy decides whether the buddy is taken for ownership */
		ck_assert_msg((mem_state(m, 0, LINE ^ 64) == MESI_E) ==
			      (w->rfo || !mem_others_state(m, 0, LINE ^ 64)),
			      "buddy %s: " WK_FMT, mesi_names[mem_state(m, 0, LINE ^ 64)], WK_ARGS);
#undef WK_FMT
#undef WK_ARGS
}

/* One combination: own x others x {LOAD, STORE, RMW} x remote x pf x rfo x placement, on
 * @mcs[pf * 2 + rfo]. */
static void wk_run(const struct machine *mcs, unsigned i)
{
	struct walk w = {.own = i >> 7 & 3, .others = i >> 5 & 3, .ev = (i >> 3 & 3) % 3,
			 .remote = i >> 2 & 1, .pf_on = i >> 1 & 1, .rfo = i & 1};

	if ((i >> 3 & 3) == 3 || proto_impossible_reason(w.own, w.others, w.ev))
		return;
	for (int placed = 0; placed < 2; placed++) {
		struct mem *m;

		/* A Modified copy comes from a store, never from a prefetch. */
		if (placed && (w.own == MESI_I || w.own == MESI_M))
			continue;
		w.placed_by_pf = placed;
		m = mem_new(&mcs[i & 3], NULL, true);
		wk_setup(m, &w);
		wk_check(&mcs[i & 3], &w, m);
		mem_free(m);
	}
}

START_TEST(proto_walk_topology)
{
	struct machine mcs[4];

	for (int v = 0; v < 4; v++) {
		/* The fill-triggered rules only (no upgrade trigger, RFO prefetches install E and
		 * leave Shared copies alone): the other rules are proto_lookup's. */
		const char *ovr[] = {v & 2 ? "prefetch.adjacent_line=true"
					   : "prefetch.adjacent_line=false",
				     v & 1 ? "prefetch.store_buddy=rfo" : "prefetch.store_buddy=read",
				     "prefetch.upgrade_prefetch=false",
				     "prefetch.rfo_buddy_shared=keep",
				     "prefetch.rfo_install=exclusive", NULL};

		tu_machine(&mcs[v], "skylake-sp-2s", ovr);
	}
	for (unsigned i = 0; i < 512; i++)
		wk_run(mcs, i);
	for (int v = 0; v < 4; v++)
		machine_release(&mcs[v]);
}
END_TEST

START_TEST(proto_print_lists_every_row)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	proto_print(f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "count_pf_hitm"));
	ck_assert_ptr_nonnull(strstr(text, "SWMR"));
	ck_assert_int_ge((int)len, 1000);
	free(text);
}
END_TEST

static Suite *protocol_suite(void)
{
	Suite *s = suite_create("protocol");
	TCase *tc;

	tc = tcase_create("proto_index_build");
	tcase_add_test(tc, proto_index_build_complete);
	suite_add_tcase(s, tc);
	tc = tcase_create("proto_lookup");
	tcase_add_loop_test(tc, proto_lookup_exhaustive, 0, MESI_COUNT * MESI_COUNT * EV_COUNT);
	suite_add_tcase(s, tc);
	tc = tcase_create("proto_walk");
	tcase_add_test(tc, proto_walk_topology);
	suite_add_tcase(s, tc);
	tc = tcase_create("proto_print");
	tcase_add_test(tc, proto_print_lists_every_row);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(protocol_suite());
}
