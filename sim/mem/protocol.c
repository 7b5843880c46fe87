/* protocol.c - the MESI + adjacent-line prefetch table; see protocol.h for the design. */
#include "mem/protocol.h"

#include <string.h>

const char *const mesi_names[MESI_COUNT] = {"I", "S", "E", "M"};
const char *const proto_event_names[EV_COUNT] = {"LOAD",	"STORE",       "RMW",
						 "PF_LOAD", "PF_STORE", "EVICT"};
const char *const proto_vbit_names[PROTO_VBITS][2] = {
	{"steal", "drop"},	   {"pf_read", "pf_rfo"}, {"fill_pf", "upg_pf"},
	{"rfo_steal", "rfo_drop"}, {"sh_keep", "sh_inv"}, {"inst_e", "inst_m"},
};
const char *const proto_action_names[] = {
	"", "hit", "silent_upgrade", "upgrade", "fill_mem", "fill_sharer", "fwd_gets",
	"fwd_getx", "send_inv", "count_hitm", "count_rfo_hitm", "count_pf_hitm", "writeback",
	"write_data", "drop_pf", "evict", "count_st_hit", "count_st_miss", "pf_buddy",
	"pf_buddy_rfo",
};
_Static_assert(sizeof(proto_action_names) / sizeof(proto_action_names[0]) == ACT_COUNT,
	       "one name per action");
const char *const proto_msg_names[] = {"FWD_GETS", "FWD_GETX", "INV"};
_Static_assert(sizeof(proto_msg_names) / sizeof(proto_msg_names[0]) == MSG_COUNT,
	       "one name per message");
const char *const proto_oaction_names[] = {"", "send_data", "writeback"};
_Static_assert(sizeof(proto_oaction_names) / sizeof(proto_oaction_names[0]) == OACT_COUNT,
	       "one name per owner action");

/* What each action counts (statistics keys, stats.c) in a demand load or RMW; a data action
 * counts the one load source of its list that matches where the data is. */
static const char *const action_counts[ACT_COUNT] = {
	[ACT_HIT] = "ld_l1hit|ld_l2hit|ld_fbhit",
	[ACT_UPGRADE] = "ld_l1hit|ld_l2hit|ld_fbhit",
	[ACT_FILL_MEM] = "ld_llchit|ld_rmt_hit|ld_dram_local|ld_dram_remote",
	[ACT_FILL_SHARER] = "ld_llchit|ld_rmt_hit",
	[ACT_FWD_GETS] = "ld_llchit|ld_rmt_hit",
	[ACT_FWD_GETX] = "ld_llchit|ld_rmt_hit, inv_sent, inv_recv",
	[ACT_SEND_INV] = "inv_sent, inv_recv",
	[ACT_COUNT_HITM] = "hitm_local|hitm_remote",
	[ACT_COUNT_RFO_HITM] = "store_rfo_hitm",
	[ACT_COUNT_PF_HITM] = "hitm_prefetch, pf_caused_hitm",
	[ACT_DROP_PF] = "pf_dropped",
	[ACT_COUNT_ST_HIT] = "store_l1_hit|store_l1_miss",
	[ACT_COUNT_ST_MISS] = "store_l1_miss",
	[ACT_PF_BUDDY] = "the buddy's prefetch counters",
	[ACT_PF_BUDDY_RFO] = "the buddy's prefetch counters",
};

/* ... and in a prefetch (counted on the prefetched line). */
static const char *const pf_action_counts[ACT_COUNT] = {
	[ACT_FILL_MEM] = "pf_fills",
	[ACT_FILL_SHARER] = "pf_fills, pf_transfers",
	[ACT_FWD_GETS] = "pf_fills, pf_transfers",
	[ACT_FWD_GETX] = "pf_fills, pf_transfers, pf_inv, inv_recv, pf_caused_inv",
	[ACT_SEND_INV] = "pf_inv, inv_recv, pf_caused_inv",
	[ACT_COUNT_PF_HITM] = "hitm_prefetch, pf_caused_hitm",
	[ACT_DROP_PF] = "pf_dropped",
};

const char *proto_action_counts(int act, int event)
{
	const char *c = NULL;

	if (act <= 0 || act >= ACT_COUNT)
		return "";
	if (event == EV_PF_LOAD || event == EV_PF_STORE)
		c = pf_action_counts[act];
	else if (event == EV_STORE && act <= ACT_FWD_GETX)
		/* A plain store has no load source; what it invalidates is still counted. */
		c = act == ACT_FWD_GETX ? "inv_sent, inv_recv" : NULL;
	else if (event != EV_EVICT)
		c = action_counts[act];
	return c ? c : "";
}

#define I MESI_I
#define S MESI_S
#define E MESI_E
#define M MESI_M
/* Guards: a mask of PROTO_V_* bits and the values they must have (protocol.h). */
#define G_ANY 0, 0
#define G_STEAL PROTO_V_DROP, 0
#define G_DROP PROTO_V_DROP, PROTO_V_DROP
#define G_PF_READ PROTO_V_RFO, 0
#define G_PF_RFO PROTO_V_RFO, PROTO_V_RFO
#define G_NO_UPG PROTO_V_UPG, 0
#define G_UPG_READ PROTO_V_UPG | PROTO_V_RFO, PROTO_V_UPG
#define G_UPG_RFO PROTO_V_UPG | PROTO_V_RFO, PROTO_V_UPG | PROTO_V_RFO
#define G_RFO_STEAL PROTO_V_RFO_DROP, 0
#define G_RFO_DROP PROTO_V_RFO_DROP, PROTO_V_RFO_DROP
#define G_INST_E PROTO_V_INST_M, 0
#define G_INST_M PROTO_V_INST_M, PROTO_V_INST_M
#define G_SH_KEEP PROTO_V_SH_INV, 0
#define G_SH_INV_E PROTO_V_SH_INV | PROTO_V_INST_M, PROTO_V_SH_INV
#define G_SH_INV_M PROTO_V_SH_INV | PROTO_V_INST_M, PROTO_V_SH_INV | PROTO_V_INST_M
#define R(own, oth, ev, g, nown, noth, desc, ...) \
	{own, oth, ev, g, nown, noth, {__VA_ARGS__}, desc}
/* A store or RMW miss: its buddy is prefetched for reading or for ownership. */
#define RS(own, oth, ev, nown, noth, desc, ...)                                              \
	R(own, oth, ev, G_PF_READ, nown, noth, desc "; buddy for reading", __VA_ARGS__,       \
	  ACT_COUNT_ST_MISS, ACT_PF_BUDDY),                                                   \
	R(own, oth, ev, G_PF_RFO, nown, noth, desc "; buddy for ownership", __VA_ARGS__,      \
	  ACT_COUNT_ST_MISS, ACT_PF_BUDDY_RFO)
/* A store or RMW upgrade (an RFO for a line held Shared): with upgrade_prefetch it fires the
 * prefetcher as a fill does, its buddy for reading or for ownership (store_buddy). */
#define RU(own, oth, ev, nown, noth, desc, ...)                                              \
	R(own, oth, ev, G_NO_UPG, nown, noth, desc, __VA_ARGS__, ACT_COUNT_ST_MISS),         \
	R(own, oth, ev, G_UPG_READ, nown, noth, desc "; buddy for reading", __VA_ARGS__,      \
	  ACT_COUNT_ST_MISS, ACT_PF_BUDDY),                                                   \
	R(own, oth, ev, G_UPG_RFO, nown, noth, desc "; buddy for ownership", __VA_ARGS__,     \
	  ACT_COUNT_ST_MISS, ACT_PF_BUDDY_RFO)
/* An RFO prefetch that takes the line: installed Exclusive or Modified (rfo_install). */
#define RP(own, oth, nown_e, noth, desc, ...)                                               \
	R(own, oth, EV_PF_STORE, G_INST_E, nown_e, noth, desc ", installed E", __VA_ARGS__),  \
	R(own, oth, EV_PF_STORE, G_INST_M, M, noth, desc ", installed M", __VA_ARGS__)
/* An RFO prefetch of a line the core holds Shared: dropped, or an upgrade (rfo_buddy_shared). */
#define RPS(oth, desc, ...)                                                                  \
	R(S, oth, EV_PF_STORE, G_SH_KEEP, S, oth, "buddy present: prefetch dropped",         \
	  ACT_DROP_PF),                                                                       \
	R(S, oth, EV_PF_STORE, G_SH_INV_E, E, I, desc ", installed E", __VA_ARGS__),          \
	R(S, oth, EV_PF_STORE, G_SH_INV_M, M, I, desc ", installed M", __VA_ARGS__)

const struct proto_row proto_rows[] = {
	/* Requester has no copy, nobody else has one: memory (LLC or DRAM) supplies it. */
	R(I, I, EV_LOAD, G_ANY, E, I, "miss, no other copy: exclusive fill", ACT_FILL_MEM,
	  ACT_PF_BUDDY),
	RS(I, I, EV_STORE, M, I, "store miss, no other copy", ACT_FILL_MEM, ACT_WRITE_DATA),
	RS(I, I, EV_RMW, M, I, "RMW miss, no other copy", ACT_FILL_MEM, ACT_WRITE_DATA),
	R(I, I, EV_PF_LOAD, G_ANY, E, I, "prefetch fill, exclusive", ACT_FILL_MEM),
	RP(I, I, E, I, "RFO prefetch: ownership, no write yet", ACT_FILL_MEM),
	/* Others share it clean. */
	R(I, S, EV_LOAD, G_ANY, S, S, "miss, clean copy from a sharer", ACT_FILL_SHARER,
	  ACT_PF_BUDDY),
	RS(I, S, EV_STORE, M, I, "store miss, sharers invalidated", ACT_FILL_SHARER, ACT_SEND_INV,
	   ACT_WRITE_DATA),
	RS(I, S, EV_RMW, M, I, "RMW miss, sharers invalidated", ACT_FILL_SHARER, ACT_SEND_INV,
	   ACT_WRITE_DATA),
	R(I, S, EV_PF_LOAD, G_ANY, S, S, "prefetch fill from a sharer", ACT_FILL_SHARER),
	RP(I, S, E, I, "RFO prefetch invalidates the sharers", ACT_FILL_SHARER, ACT_SEND_INV),
	/* One other core owns it clean. */
	R(I, E, EV_LOAD, G_ANY, S, S, "miss, clean owner forwards and keeps S", ACT_FWD_GETS,
	  ACT_PF_BUDDY),
	RS(I, E, EV_STORE, M, I, "store miss, clean owner invalidated", ACT_FWD_GETX,
	   ACT_WRITE_DATA),
	RS(I, E, EV_RMW, M, I, "RMW miss, clean owner invalidated", ACT_FWD_GETX, ACT_WRITE_DATA),
	R(I, E, EV_PF_LOAD, G_ANY, S, S, "prefetch: clean owner forwards", ACT_FWD_GETS),
	RP(I, E, E, I, "RFO prefetch: clean owner invalidated", ACT_FWD_GETX),
	/* One other core owns it dirty: the HITM cases (the owner writes back on FWD_GETS). */
	R(I, M, EV_LOAD, G_ANY, S, S, "HITM: owner forwards, writes back, keeps S", ACT_COUNT_HITM,
	  ACT_FWD_GETS, ACT_PF_BUDDY),
	RS(I, M, EV_STORE, M, I, "store RFO to a Modified line: owner invalidated",
	   ACT_COUNT_RFO_HITM, ACT_FWD_GETX, ACT_WRITE_DATA),
	RS(I, M, EV_RMW, M, I, "HITM on the RMW's load: owner invalidated", ACT_COUNT_HITM,
	   ACT_FWD_GETX, ACT_WRITE_DATA),
	R(I, M, EV_PF_LOAD, G_STEAL, S, S, "prefetch steals a Modified buddy: owner downgraded",
	  ACT_COUNT_PF_HITM, ACT_FWD_GETS),
	R(I, M, EV_PF_LOAD, G_DROP, I, M, "prefetch of a Modified buddy dropped", ACT_DROP_PF),
	R(I, M, EV_PF_STORE, G_RFO_STEAL, M, I, "RFO prefetch steals a Modified buddy (dirty moves)",
	  ACT_COUNT_PF_HITM, ACT_FWD_GETX),
	R(I, M, EV_PF_STORE, G_RFO_DROP, I, M, "RFO prefetch of a Modified buddy dropped",
	  ACT_DROP_PF),
	/* Requester holds it Shared. */
	R(S, I, EV_LOAD, G_ANY, S, I, "hit", ACT_HIT),
	RU(S, I, EV_STORE, M, I, "upgrade, no other sharer", ACT_UPGRADE, ACT_WRITE_DATA),
	RU(S, I, EV_RMW, M, I, "upgrade, no other sharer", ACT_UPGRADE, ACT_WRITE_DATA),
	R(S, I, EV_PF_LOAD, G_ANY, S, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	RPS(I, "RFO prefetch upgrades the Shared buddy", ACT_UPGRADE),
	R(S, I, EV_EVICT, G_ANY, I, I, "last sharer evicts", ACT_EVICT),
	R(S, S, EV_LOAD, G_ANY, S, S, "hit", ACT_HIT),
	RU(S, S, EV_STORE, M, I, "upgrade, other sharers invalidated", ACT_UPGRADE, ACT_SEND_INV,
	   ACT_WRITE_DATA),
	RU(S, S, EV_RMW, M, I, "upgrade, other sharers invalidated", ACT_UPGRADE, ACT_SEND_INV,
	   ACT_WRITE_DATA),
	R(S, S, EV_PF_LOAD, G_ANY, S, S, "buddy present: prefetch dropped", ACT_DROP_PF),
	RPS(S, "RFO prefetch upgrades the Shared buddy, other sharers invalidated", ACT_UPGRADE,
	    ACT_SEND_INV),
	R(S, S, EV_EVICT, G_ANY, I, S, "one sharer evicts", ACT_EVICT),
	/* Requester owns it clean. */
	R(E, I, EV_LOAD, G_ANY, E, I, "hit", ACT_HIT),
	R(E, I, EV_STORE, G_ANY, M, I, "hit, silent E->M", ACT_HIT, ACT_SILENT_UPGRADE,
	  ACT_WRITE_DATA, ACT_COUNT_ST_HIT),
	R(E, I, EV_RMW, G_ANY, M, I, "hit, silent E->M", ACT_HIT, ACT_SILENT_UPGRADE,
	  ACT_WRITE_DATA, ACT_COUNT_ST_HIT),
	R(E, I, EV_PF_LOAD, G_ANY, E, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(E, I, EV_PF_STORE, G_ANY, E, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(E, I, EV_EVICT, G_ANY, I, I, "clean owner evicts into the LLC", ACT_EVICT),
	/* Requester owns it dirty. */
	R(M, I, EV_LOAD, G_ANY, M, I, "hit", ACT_HIT),
	R(M, I, EV_STORE, G_ANY, M, I, "hit", ACT_HIT, ACT_WRITE_DATA, ACT_COUNT_ST_HIT),
	R(M, I, EV_RMW, G_ANY, M, I, "hit", ACT_HIT, ACT_WRITE_DATA, ACT_COUNT_ST_HIT),
	R(M, I, EV_PF_LOAD, G_ANY, M, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(M, I, EV_PF_STORE, G_ANY, M, I, "buddy present: prefetch dropped", ACT_DROP_PF),
	R(M, I, EV_EVICT, G_ANY, I, I, "dirty owner writes back and evicts", ACT_WRITEBACK,
	  ACT_EVICT),
};
const unsigned proto_nr_rows = sizeof(proto_rows) / sizeof(proto_rows[0]);

/* The owner's side: what a forwarded request or an invalidation does to the receiver's copy. */
#define O(own, msg, nown, desc, ...) {own, msg, nown, {__VA_ARGS__}, desc}
const struct proto_orow proto_orows[] = {
	O(M, MSG_FWD_GETS, S, "dirty owner sends the data, writes it back, keeps S",
	  OACT_SEND_DATA, OACT_WRITEBACK),
	O(E, MSG_FWD_GETS, S, "clean owner sends the data, keeps S", OACT_SEND_DATA),
	O(M, MSG_FWD_GETX, I, "dirty owner sends the data (the dirt moves), drops its copy",
	  OACT_SEND_DATA),
	O(E, MSG_FWD_GETX, I, "clean owner sends the data, drops its copy", OACT_SEND_DATA),
	O(S, MSG_INV, I, "sharer drops its copy"),
};
const unsigned proto_nr_orows = sizeof(proto_orows) / sizeof(proto_orows[0]);
#undef O

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
#undef RS
#undef RU
#undef RP
#undef RPS
#undef G_ANY
#undef G_STEAL
#undef G_DROP
#undef G_PF_READ
#undef G_PF_RFO
#undef G_NO_UPG
#undef G_UPG_READ
#undef G_UPG_RFO
#undef G_RFO_STEAL
#undef G_RFO_DROP
#undef G_INST_E
#undef G_INST_M
#undef G_SH_KEEP
#undef G_SH_INV_E
#undef G_SH_INV_M

/* Where an action may stand in a row: phases never decrease (see protocol.h). */
static const uint8_t action_phase[ACT_COUNT] = {
	[ACT_COUNT_HITM] = 0, [ACT_COUNT_RFO_HITM] = 0, [ACT_COUNT_PF_HITM] = 0,
	[ACT_HIT] = 1, [ACT_UPGRADE] = 1, [ACT_FILL_MEM] = 1, [ACT_FILL_SHARER] = 1,
	[ACT_FWD_GETS] = 1, [ACT_FWD_GETX] = 1, [ACT_WRITEBACK] = 1,
	[ACT_SILENT_UPGRADE] = 2, [ACT_SEND_INV] = 2, [ACT_WRITE_DATA] = 3, [ACT_EVICT] = 3,
	[ACT_COUNT_ST_HIT] = 4, [ACT_COUNT_ST_MISS] = 4, [ACT_PF_BUDDY] = 5,
	[ACT_PF_BUDDY_RFO] = 5, [ACT_DROP_PF] = 6,
};

static bool row_has(const struct proto_row *r, int act)
{
	for (int a = 0; a < PROTO_MAX_ACTIONS && r->act[a]; a++)
		if (r->act[a] == act)
			return true;
	return false;
}

bool proto_row_valid(const struct proto_row *r)
{
	bool fwd = row_has(r, ACT_FWD_GETS) || row_has(r, ACT_FWD_GETX);
	bool hitm = row_has(r, ACT_COUNT_HITM) || row_has(r, ACT_COUNT_RFO_HITM) ||
		    row_has(r, ACT_COUNT_PF_HITM);
	bool pf = row_has(r, ACT_PF_BUDDY) || row_has(r, ACT_PF_BUDDY_RFO);
	int phase = 0;

	for (int a = 0; a < PROTO_MAX_ACTIONS && r->act[a]; a++) {
		if (action_phase[r->act[a]] < phase)
			return false;
		phase = action_phase[r->act[a]];
	}
	if (row_has(r, ACT_DROP_PF) && r->act[1])
		return false;
	/* A HITM classifies a transfer from a Modified owner; a prefetch trigger needs a fill,
	 * or a store's upgrade (an RFO that leaves the core, upgrade_prefetch). */
	if (hitm != (fwd && r->others == MESI_M))
		return false;
	return !pf || (r->next_own != MESI_I &&
		       (r->own == MESI_I || (r->own == MESI_S && r->event != EV_LOAD &&
					      r->event < EV_PF_LOAD)));
}

unsigned proto_variant(const struct prefetch_params *pf)
{
	return (pf->buddy_modified == PF_BUDDY_DROP ? PROTO_V_DROP : 0) |
	       (pf->store_buddy == PF_STORE_RFO ? PROTO_V_RFO : 0) |
	       (pf->upgrade_prefetch ? PROTO_V_UPG : 0) |
	       (pf->rfo_buddy_modified == PF_BUDDY_DROP ? PROTO_V_RFO_DROP : 0) |
	       (pf->rfo_buddy_shared == PF_RFO_SHARED_INVALIDATE ? PROTO_V_SH_INV : 0) |
	       (pf->rfo_install == PF_RFO_INSTALL_MODIFIED ? PROTO_V_INST_M : 0);
}

void proto_guard_name(const struct proto_row *r, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned b = 0; b < PROTO_VBITS; b++)
		if (r->gmask >> b & 1)
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s",
						len ? "," : "", proto_vbit_names[b][r->gval >> b & 1]);
}

bool proto_index_build(struct proto_index *ix)
{
	memset(ix, 0, sizeof(*ix));
	for (unsigned i = 0; i < proto_nr_rows; i++) {
		const struct proto_row *r = &proto_rows[i];

		if (!proto_row_valid(r))
			return false;
		for (unsigned v = 0; v < PROTO_VARIANTS; v++) {
			const struct proto_row **slot;

			if (!proto_guard_admits(r, v))
				continue;
			slot = &ix->row[r->own][r->others][r->event][v];
			if (*slot)
				return false;
			*slot = r;
		}
	}
	for (unsigned i = 0; i < proto_nr_orows; i++) {
		const struct proto_orow *o = &proto_orows[i];

		if (ix->orow[o->own][o->msg])
			return false;
		ix->orow[o->own][o->msg] = o;
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

static void print_row(FILE *f, const struct proto_row *r)
{
	char acts[160] = "", counts[320] = "", guard[64];

	for (int a = 0; a < PROTO_MAX_ACTIONS && r->act[a]; a++) {
		const char *c = proto_action_counts(r->act[a], r->event);

		if (a)
			strcat(acts, ", ");
		strcat(acts, proto_action_names[r->act[a]]);
		if (*c) {
			if (*counts)
				strcat(counts, "; ");
			strcat(counts, c);
		}
	}
	proto_guard_name(r, guard, sizeof(guard));
	fprintf(f, "%-4s %-6s %-9s %-15s -> %-4s %-6s  %-64s %s\n    counts: %s\n",
		mesi_names[r->own], mesi_names[r->others], proto_event_names[r->event], guard, mesi_names[r->next_own], mesi_names[r->next_others],
		acts, r->desc, *counts ? counts : "nothing");
}

static void print_owner_table(FILE *f)
{
	fprintf(f, "#\n# the owner's side: the receiving core's copy (own), the message, its next "
		   "state\n%-4s %-9s -> %-4s  %-24s %s\n", "own", "message", "own", "actions",
		"description");
	for (unsigned i = 0; i < proto_nr_orows; i++) {
		const struct proto_orow *o = &proto_orows[i];
		char acts[64] = "";

		for (int a = 0; a < PROTO_MAX_OACTIONS && o->act[a]; a++) {
			if (a)
				strcat(acts, ", ");
			strcat(acts, proto_oaction_names[o->act[a]]);
		}
		fprintf(f, "%-4s %-9s -> %-4s  %-24s %s\n", mesi_names[o->own],
			proto_msg_names[o->msg], mesi_names[o->next_own], acts, o->desc);
	}
}

void proto_print(FILE *f)
{
	fprintf(f, "# c2csim coherence protocol: MESI per core with adjacent-line prefetch\n");
	fprintf(f, "# own = requesting core, others = all other cores (I none, S sharers, "
		   "E clean owner, M dirty owner)\n#\n");
	fprintf(f, "%-4s %-6s %-9s %-15s -> %-4s %-6s  %-64s %s\n", "own", "others", "event",
		"guard", "own", "others", "actions", "description");
	for (unsigned i = 0; i < proto_nr_rows; i++)
		print_row(f, &proto_rows[i]);
	print_owner_table(f);
	fprintf(f, "#\n# impossible (own, others, event):\n");
	for (unsigned i = 0; i < proto_nr_impossible; i++) {
		const struct proto_impossible *p = &proto_impossible[i];

		fprintf(f, "%-4s %-6s %-9s  %s\n", p->own < 0 ? "*" : mesi_names[p->own],
			p->others < 0 ? "*" : mesi_names[p->others],
			p->event < 0 ? "*" : proto_event_names[p->event], p->reason);
	}
}
