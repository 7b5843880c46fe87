/* protocol.c - the MESI + adjacent-line prefetch table; see protocol.h for the design. */
#include "mem/protocol.h"

#include <string.h>

const char *const mesi_names[MESI_COUNT] = {"I", "S", "E", "M"};
const char *const proto_event_names[EV_COUNT] = {"LOAD",	"STORE",       "RMW",
						 "PF_LOAD", "PF_STORE", "EVICT"};
const char *const proto_guard_names[G_COUNT] = {"", "steal", "drop"};
const char *const proto_action_names[ACT_COUNT] = {
	"", "hit", "silent_upgrade", "upgrade", "fill_mem", "fill_sharer", "fwd_gets",
	"fwd_getx", "send_inv", "count_hitm", "count_rfo_hitm", "count_pf_hitm", "writeback",
	"write_data", "drop_pf", "evict",
};
_Static_assert(sizeof(proto_action_names) / sizeof(proto_action_names[0]) == ACT_COUNT,
	       "one name per action");

#define I MESI_I
#define S MESI_S
#define E MESI_E
#define M MESI_M
#define R(own, oth, ev, g, nown, noth, desc, ...) \
	{own, oth, ev, g, nown, noth, {__VA_ARGS__}, desc}

const struct proto_row proto_rows[] = {
	/* Requester has no copy, nobody else has one: memory (LLC or DRAM) supplies it. */
	R(I, I, EV_LOAD, G_ANY, E, I, "miss, no other copy: exclusive fill", ACT_FILL_MEM),
	R(I, I, EV_STORE, G_ANY, M, I, "store miss, no other copy", ACT_FILL_MEM, ACT_WRITE_DATA),
	R(I, I, EV_RMW, G_ANY, M, I, "RMW miss, no other copy", ACT_FILL_MEM, ACT_WRITE_DATA),
	R(I, I, EV_PF_LOAD, G_ANY, E, I, "prefetch fill, exclusive", ACT_FILL_MEM),
	R(I, I, EV_PF_STORE, G_ANY, E, I, "RFO prefetch: ownership, no write yet", ACT_FILL_MEM),
	/* Others share it clean. */
	R(I, S, EV_LOAD, G_ANY, S, S, "miss, clean copy from a sharer", ACT_FILL_SHARER),
	R(I, S, EV_STORE, G_ANY, M, I, "store miss, sharers invalidated", ACT_FILL_SHARER,
	  ACT_SEND_INV, ACT_WRITE_DATA),
	R(I, S, EV_RMW, G_ANY, M, I, "RMW miss, sharers invalidated", ACT_FILL_SHARER,
	  ACT_SEND_INV, ACT_WRITE_DATA),
	R(I, S, EV_PF_LOAD, G_ANY, S, S, "prefetch fill from a sharer", ACT_FILL_SHARER),
	R(I, S, EV_PF_STORE, G_ANY, E, I, "RFO prefetch invalidates the sharers", ACT_FILL_SHARER,
	  ACT_SEND_INV),
	/* One other core owns it clean. */
	R(I, E, EV_LOAD, G_ANY, S, S, "miss, clean owner forwards and keeps S", ACT_FWD_GETS),
	R(I, E, EV_STORE, G_ANY, M, I, "store miss, clean owner invalidated", ACT_FWD_GETX,
	  ACT_WRITE_DATA),
	R(I, E, EV_RMW, G_ANY, M, I, "RMW miss, clean owner invalidated", ACT_FWD_GETX,
	  ACT_WRITE_DATA),
	R(I, E, EV_PF_LOAD, G_ANY, S, S, "prefetch: clean owner forwards", ACT_FWD_GETS),
	R(I, E, EV_PF_STORE, G_ANY, E, I, "RFO prefetch: clean owner invalidated", ACT_FWD_GETX),
	/* One other core owns it dirty: the HITM cases. */
	R(I, M, EV_LOAD, G_ANY, S, S, "HITM: owner forwards, writes back, keeps S", ACT_COUNT_HITM,
	  ACT_FWD_GETS, ACT_WRITEBACK),
	R(I, M, EV_STORE, G_ANY, M, I, "store RFO to a Modified line: owner invalidated",
	  ACT_COUNT_RFO_HITM, ACT_FWD_GETX, ACT_WRITE_DATA),
	R(I, M, EV_RMW, G_ANY, M, I, "HITM on the RMW's load: owner invalidated", ACT_COUNT_HITM,
	  ACT_FWD_GETX, ACT_WRITE_DATA),
	R(I, M, EV_PF_LOAD, G_STEAL, S, S, "prefetch steals a Modified buddy: owner downgraded",
	  ACT_COUNT_PF_HITM, ACT_FWD_GETS, ACT_WRITEBACK),
	R(I, M, EV_PF_LOAD, G_DROP, I, M, "prefetch of a Modified buddy dropped", ACT_DROP_PF),
	R(I, M, EV_PF_STORE, G_STEAL, M, I, "RFO prefetch steals a Modified buddy (dirty moves)",
	  ACT_COUNT_PF_HITM, ACT_FWD_GETX),
	R(I, M, EV_PF_STORE, G_DROP, I, M, "RFO prefetch of a Modified buddy dropped", ACT_DROP_PF),
	/* Requester holds it Shared. */
	R(S, I, EV_LOAD, G_ANY, S, I, "hit", ACT_HIT),
	R(S, I, EV_STORE, G_ANY, M, I, "upgrade, no other sharer", ACT_UPGRADE, ACT_WRITE_DATA),
	R(S, I, EV_RMW, G_ANY, M, I, "upgrade, no other sharer", ACT_UPGRADE, ACT_WRITE_DATA),
	R(S, I, EV_PF_LOAD, G_ANY, S, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(S, I, EV_PF_STORE, G_ANY, S, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(S, I, EV_EVICT, G_ANY, I, I, "last sharer evicts", ACT_EVICT),
	R(S, S, EV_LOAD, G_ANY, S, S, "hit", ACT_HIT),
	R(S, S, EV_STORE, G_ANY, M, I, "upgrade, other sharers invalidated", ACT_UPGRADE,
	  ACT_SEND_INV, ACT_WRITE_DATA),
	R(S, S, EV_RMW, G_ANY, M, I, "upgrade, other sharers invalidated", ACT_UPGRADE,
	  ACT_SEND_INV, ACT_WRITE_DATA),
	R(S, S, EV_PF_LOAD, G_ANY, S, S, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(S, S, EV_PF_STORE, G_ANY, S, S, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(S, S, EV_EVICT, G_ANY, I, S, "one sharer evicts", ACT_EVICT),
	/* Requester owns it clean. */
	R(E, I, EV_LOAD, G_ANY, E, I, "hit", ACT_HIT),
	R(E, I, EV_STORE, G_ANY, M, I, "hit, silent E->M", ACT_HIT, ACT_SILENT_UPGRADE,
	  ACT_WRITE_DATA),
	R(E, I, EV_RMW, G_ANY, M, I, "hit, silent E->M", ACT_HIT, ACT_SILENT_UPGRADE,
	  ACT_WRITE_DATA),
	R(E, I, EV_PF_LOAD, G_ANY, E, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(E, I, EV_PF_STORE, G_ANY, E, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(E, I, EV_EVICT, G_ANY, I, I, "clean owner evicts into the LLC", ACT_EVICT),
	/* Requester owns it dirty. */
	R(M, I, EV_LOAD, G_ANY, M, I, "hit", ACT_HIT),
	R(M, I, EV_STORE, G_ANY, M, I, "hit", ACT_HIT, ACT_WRITE_DATA),
	R(M, I, EV_RMW, G_ANY, M, I, "hit", ACT_HIT, ACT_WRITE_DATA),
	R(M, I, EV_PF_LOAD, G_ANY, M, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(M, I, EV_PF_STORE, G_ANY, M, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(M, I, EV_EVICT, G_ANY, I, I, "dirty owner writes back and evicts", ACT_WRITEBACK,
	  ACT_EVICT),
};
const unsigned proto_nr_rows = sizeof(proto_rows) / sizeof(proto_rows[0]);

const struct proto_impossible proto_impossible[] = {
	{S, E, -1, "SWMR: a Shared copy cannot coexist with an exclusive owner"},
	{S, M, -1, "SWMR: a Shared copy cannot coexist with a Modified owner"},
	{E, S, -1, "SWMR: an Exclusive copy excludes all others"},
	{E, E, -1, "SWMR: an Exclusive copy excludes all others"},
	{E, M, -1, "SWMR: an Exclusive copy excludes all others"},
	{M, S, -1, "SWMR: a Modified copy excludes all others"},
	{M, E, -1, "SWMR: a Modified copy excludes all others"},
	{M, M, -1, "SWMR: a Modified copy excludes all others"},
	{I, -1, EV_EVICT, "nothing to evict: the core holds no copy"},
};
const unsigned proto_nr_impossible = sizeof(proto_impossible) / sizeof(proto_impossible[0]);

#undef I
#undef S
#undef E
#undef M
#undef R

bool proto_index_build(struct proto_index *ix)
{
	memset(ix, 0, sizeof(*ix));
	for (unsigned i = 0; i < proto_nr_rows; i++) {
		const struct proto_row *r = &proto_rows[i];

		for (int drop = 0; drop < 2; drop++) {
			const struct proto_row **slot;

			if ((r->guard == G_STEAL && drop) || (r->guard == G_DROP && !drop))
				continue;
			slot = &ix->row[r->own][r->others][r->event][drop];
			if (*slot)
				return false;
			*slot = r;
		}
	}
	return true;
}

const char *proto_impossible_reason(int own, int others, int event)
{
	for (unsigned i = 0; i < proto_nr_impossible; i++) {
		const struct proto_impossible *p = &proto_impossible[i];

		if ((p->own < 0 || p->own == own) && (p->others < 0 || p->others == others) &&
		    (p->event < 0 || p->event == event))
			return p->reason;
	}
	return NULL;
}

void proto_print(FILE *f)
{
	fprintf(f, "# c2csim coherence protocol: MESI per core with adjacent-line prefetch\n");
	fprintf(f, "# own = requesting core, others = all other cores (I none, S sharers, "
		   "E clean owner, M dirty owner)\n#\n");
	fprintf(f, "%-4s %-6s %-9s %-6s -> %-4s %-6s  %-52s %s\n", "own", "others", "event",
		"guard", "own", "others", "actions", "description");
	for (unsigned i = 0; i < proto_nr_rows; i++) {
		const struct proto_row *r = &proto_rows[i];
		char acts[128] = "";

		for (int a = 0; a < PROTO_MAX_ACTIONS && r->act[a]; a++) {
			if (a)
				strcat(acts, ", ");
			strcat(acts, proto_action_names[r->act[a]]);
		}
		fprintf(f, "%-4s %-6s %-9s %-6s -> %-4s %-6s  %-52s %s\n", mesi_names[r->own],
			mesi_names[r->others], proto_event_names[r->event],
			proto_guard_names[r->guard], mesi_names[r->next_own],
			mesi_names[r->next_others], acts, r->desc);
	}
	fprintf(f, "#\n# impossible (own, others, event):\n");
	for (unsigned i = 0; i < proto_nr_impossible; i++) {
		const struct proto_impossible *p = &proto_impossible[i];

		fprintf(f, "%-4s %-6s %-9s  %s\n", p->own < 0 ? "*" : mesi_names[p->own],
			p->others < 0 ? "*" : mesi_names[p->others],
			p->event < 0 ? "*" : proto_event_names[p->event], p->reason);
	}
}
