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
	const char *key;    /* "own others EVENT guard" (guard: * steal drop pf_read pf_rfo) */
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
	{"mesi-1.5", "I I PF_STORE *", "E I", "fill_mem", ""},
	{"mesi-2.1", "I S LOAD *", "S S", "fill_sharer pf_buddy", ""},
	{"mesi-2.2", "I S STORE pf_read", "M I", "fill_sharer send_inv write_data count_st_miss pf_buddy", ""},
	{"mesi-2.2r", "I S STORE pf_rfo", "M I", "fill_sharer send_inv write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-2.3", "I S RMW pf_read", "M I", "fill_sharer send_inv write_data count_st_miss pf_buddy", ""},
	{"mesi-2.3r", "I S RMW pf_rfo", "M I", "fill_sharer send_inv write_data count_st_miss pf_buddy_rfo", ""},
	{"mesi-2.4", "I S PF_LOAD *", "S S", "fill_sharer", ""},
	{"mesi-2.5", "I S PF_STORE *", "E I", "fill_sharer send_inv", ""},
	{"mesi-3.1", "I E LOAD *", "S S", "fwd_gets pf_buddy", "send_data"},
	{"mesi-3.2", "I E STORE pf_read", "M I", "fwd_getx write_data count_st_miss pf_buddy", "send_data"},
	{"mesi-3.2r", "I E STORE pf_rfo", "M I", "fwd_getx write_data count_st_miss pf_buddy_rfo", "send_data"},
	{"mesi-3.3", "I E RMW pf_read", "M I", "fwd_getx write_data count_st_miss pf_buddy", "send_data"},
	{"mesi-3.3r", "I E RMW pf_rfo", "M I", "fwd_getx write_data count_st_miss pf_buddy_rfo", "send_data"},
	{"mesi-3.4", "I E PF_LOAD *", "S S", "fwd_gets", "send_data"},
	{"mesi-3.5", "I E PF_STORE *", "E I", "fwd_getx", "send_data"},
	{"mesi-4.1", "I M LOAD *", "S S", "count_hitm fwd_gets pf_buddy", "send_data writeback"},
	{"mesi-4.2", "I M STORE pf_read", "M I", "count_rfo_hitm fwd_getx write_data count_st_miss pf_buddy", "send_data"},
	{"mesi-4.2r", "I M STORE pf_rfo", "M I", "count_rfo_hitm fwd_getx write_data count_st_miss pf_buddy_rfo", "send_data"},
	{"mesi-4.3", "I M RMW pf_read", "M I", "count_hitm fwd_getx write_data count_st_miss pf_buddy", "send_data"},
	{"mesi-4.3r", "I M RMW pf_rfo", "M I", "count_hitm fwd_getx write_data count_st_miss pf_buddy_rfo", "send_data"},
	{"mesi-4.4", "I M PF_LOAD steal", "S S", "count_pf_hitm fwd_gets", "send_data writeback"},
	{"mesi-4.5", "I M PF_LOAD drop", "I M", "drop_pf", ""},
	{"mesi-4.6", "I M PF_STORE steal", "M I", "count_pf_hitm fwd_getx", "send_data"},
	{"mesi-4.7", "I M PF_STORE drop", "I M", "drop_pf", ""},
	{"mesi-5.1", "S I LOAD *", "S I", "hit", ""},
	{"mesi-5.2", "S I STORE *", "M I", "upgrade write_data count_st_miss", ""},
	{"mesi-5.3", "S I RMW *", "M I", "upgrade write_data count_st_miss", ""},
	{"mesi-5.4", "S I PF_LOAD *", "S I", "drop_pf", ""},
	{"mesi-5.5", "S I PF_STORE *", "S I", "drop_pf", ""},
	{"mesi-5.6", "S I EVICT *", "I I", "evict", ""},
	{"mesi-6.1", "S S LOAD *", "S S", "hit", ""},
	{"mesi-6.2", "S S STORE *", "M I", "upgrade send_inv write_data count_st_miss", ""},
	{"mesi-6.3", "S S RMW *", "M I", "upgrade send_inv write_data count_st_miss", ""},
	{"mesi-6.4", "S S PF_LOAD *", "S S", "drop_pf", ""},
	{"mesi-6.5", "S S PF_STORE *", "S S", "drop_pf", ""},
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

/* The expectation for a key, or NULL when the key must be impossible. */
static const struct expect *find_case(int own, int others, int ev, unsigned v)
{
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_auto(GStrv) k = g_strsplit(cases[i].key, " ", 4);

		if (state_of(k[0]) == own && state_of(k[1]) == others && event_of(k[2]) == ev &&
		    (!strcmp(k[3], "*") || !strcmp(k[3], v & PROTO_V_DROP ? "drop" : "steal") ||
		     !strcmp(k[3], v & PROTO_V_RFO ? "pf_rfo" : "pf_read")))
			return &cases[i];
	}
	return NULL;
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

static void check_key(int own, int others, int ev, unsigned v)
{
	const char *ovr[] = {"prefetch.adjacent_line=false",
			     v & PROTO_V_DROP ? "prefetch.buddy_modified=drop"
					      : "prefetch.buddy_modified=steal",
			     v & PROTO_V_RFO ? "prefetch.store_buddy=rfo" : "prefetch.store_buddy=read",
			     NULL};
	const struct expect *e = find_case(own, others, ev, v);
	uint64_t before[ACT_COUNT], obefore[OACT_COUNT];
	g_auto(GStrv) next = NULL;
	struct machine mc;
	struct mem *m;

	if (!e) {
		ck_assert_msg(proto_impossible_reason(own, others, ev) != NULL,
			      "%s/%s/%s has no expectation and no reason to be impossible",
			      mesi_names[own], mesi_names[others], proto_event_names[ev]);
		return;
	}
	ck_assert_msg(!proto_impossible_reason(own, others, ev), "%s listed impossible", e->id);
	tu_machine(&mc, "skylake-sp-2s", ovr);
	m = mem_new(&mc, NULL, true);
	setup_state(m, own, others);
	memcpy(before, m->act_count, sizeof(before));
	memcpy(obefore, m->oact_count, sizeof(obefore));
	issue(m, ev);
	ck_assert_msg(!m->failed, "%s: %s", e->id, m->fail_msg);
	next = g_strsplit(e->next, " ", 2);
	ck_assert_msg(mem_state(m, 0, LINE) == state_of(next[0]), "%s: own %s, expected %s",
		      e->id, mesi_names[mem_state(m, 0, LINE)], next[0]);
	ck_assert_msg(mem_others_state(m, 0, LINE) == state_of(next[1]),
		      "%s: others %s, expected %s", e->id,
		      mesi_names[mem_others_state(m, 0, LINE)], next[1]);
	expect_actions(e->id, e->msgs, before, m->act_count, ACT_COUNT, proto_action_names);
	expect_actions(e->id, e->omsgs, obefore, m->oact_count, OACT_COUNT, proto_oaction_names);
	mem_free(m);
	machine_release(&mc);
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

/* The whole product: 4 own x 4 others x 6 events x 4 prefetch settings. */
START_TEST(proto_lookup_exhaustive)
{
	const int per_own = MESI_COUNT * EV_COUNT * PROTO_VARIANTS;
	int own = _i / per_own, rest = _i % per_own;
	int others = rest / (EV_COUNT * PROTO_VARIANTS), ev = rest / PROTO_VARIANTS % EV_COUNT;

	check_key(own, others, ev, (unsigned)(rest % PROTO_VARIANTS));
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
	tcase_add_loop_test(tc, proto_lookup_exhaustive, 0, MESI_COUNT * MESI_COUNT * EV_COUNT * PROTO_VARIANTS);
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
