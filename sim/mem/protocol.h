/*
 * protocol.h - the MESI protocol, with adjacent-line prefetch requests, as one table.
 *
 * Design (after gem5's SLICC tables and ZSim's split of cache and directory knowledge)
 * ------------------------------------------------------------------------------------
 * A coherence agent is a core's private hierarchy (L1d + L2, inclusive).  For one line the
 * table is keyed by
 *     own    - the requesting core's state   I S E M
 *     others - what all other cores hold     I (none)  S (one or more Shared)
 *                                            E (one clean owner)  M (one dirty owner)
 *     event  - LOAD STORE RMW      demand accesses (RMW = plain or LOCK-prefixed read-modify-
 *                                  write; the lock changes timing, not coherence)
 *              PF_LOAD PF_STORE    adjacent-line prefetch of the buddy line, for reading or for
 *                                  ownership (machine parameter prefetch.store_buddy)
 *              EVICT               the core drops its copy (capacity)
 *     guard  - the machine's prefetch parameters the row depends on (PROTO_V_* below), each
 *              one rule of the prefetcher: steal/drop for a read prefetch that finds the line
 *              Modified elsewhere (prefetch.buddy_modified), pf_read/pf_rfo for demand store
 *              and RMW misses, whose buddy prefetch is for reading or for ownership
 *              (store_buddy), fill_pf/upg_pf whether a store's S -> M upgrade fires the
 *              prefetcher too (upgrade_prefetch), rfo_steal/rfo_drop for an RFO prefetch that
 *              finds the line Modified elsewhere (rfo_buddy_modified), sh_keep/sh_inv for an
 *              RFO prefetch of a line the core holds Shared (rfo_buddy_shared), inst_e/inst_m
 *              the state a line taken by an RFO prefetch is installed in (rfo_install)
 * and gives the next own and others states and an ordered list of actions.  Pairs excluded by
 * SWMR (an exclusive copy next to any other copy) and evictions of absent lines are listed as
 * impossible with a reason.  A request is applied atomically when the core issues it; its
 * latency is charged by the timing module (timing.h) from the actions and where the data is,
 * and requests for one line are serialized at the line's home (busy_until): that is the one
 * place where concurrent requests meet, so the table itself has no transient states.  A copy
 * whose fill has not completed (ready_at in the future) is still a valid copy here; the timing
 * makes a hit on it wait for the data (a fill-buffer hit).
 *
 * Action order inside a row is semantic and checked by proto_row_valid(): a count_*hitm
 * precedes the fwd_* it classifies (it makes the transfer a HITM), data-source actions come
 * before send_inv, write_data follows them, count_st_* and pf_buddy* come last, drop_pf is
 * alone.  Every counter a row touches is named by one of its actions (proto_action_counts).
 *
 * The owner's side.  A forwarded request or an invalidation changes the copy of the core that
 * receives it; that is its own small table (SLICC's transition(M, Fwd_GETS, S)), keyed by the
 * receiver's state and the message:
 *     FWD_GETS  another core reads: the owner sends the data and keeps a Shared copy
 *     FWD_GETX  another core takes ownership: the owner sends the data and drops its copy
 *     INV       a sharer's copy is invalidated
 *
 * `c2csim protocol` prints this table; it is the documentation of the protocol.
 */
#ifndef C2C_PROTOCOL_H
#define C2C_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include "mem/machine.h"

enum mesi {
	MESI_I, /* invalid: no copy */
	MESI_S, /* shared: a clean copy, others may have one */
	MESI_E, /* exclusive: the only copy, clean */
	MESI_M, /* modified: the only copy, dirty */
	MESI_COUNT
};

enum proto_event {
	EV_LOAD,     /* demand load */
	EV_STORE,    /* demand store (plain; retires through the store buffer) */
	EV_RMW,      /* demand read-modify-write (this_cpu_* or atomic_*) */
	EV_PF_LOAD,  /* adjacent-line prefetch of the buddy, for reading */
	EV_PF_STORE, /* adjacent-line prefetch of the buddy, for ownership (RFO prefetch) */
	EV_EVICT,    /* capacity eviction from the private L2 */
	EV_COUNT
};

/* The prefetch parameters a row may depend on, one bit each of the index variant (the
 * machine's combination, proto_variant).  A row's guard is a mask of these bits and the values
 * they must have: G_ANY (no bit) applies under every setting. */
#define PROTO_V_DROP 1u      /* prefetch.buddy_modified = drop (else steal) */
#define PROTO_V_RFO 2u       /* prefetch.store_buddy = rfo (else read) */
#define PROTO_V_UPG 4u       /* prefetch.upgrade_prefetch: an S -> M upgrade fires it too */
#define PROTO_V_RFO_DROP 8u  /* prefetch.rfo_buddy_modified = drop (else steal) */
#define PROTO_V_SH_INV 16u   /* prefetch.rfo_buddy_shared = invalidate (else keep) */
#define PROTO_V_INST_M 32u   /* prefetch.rfo_install = modified (else exclusive) */
#define PROTO_VBITS 6
#define PROTO_VARIANTS (1u << PROTO_VBITS)

/* Each bit's name when clear and when set, as `c2csim protocol` prints guards. */
extern const char *const proto_vbit_names[PROTO_VBITS][2];

enum proto_action {
	ACT_NONE,           /* end of the action list */
	ACT_HIT,            /* served by the private copy */
	ACT_SILENT_UPGRADE, /* E -> M without a message: the copy was already exclusive */
	ACT_UPGRADE,        /* ownership request for a line the core already holds Shared */
	ACT_FILL_MEM,       /* data from the LLC or DRAM: no other core holds it */
	ACT_FILL_SHARER,    /* clean data from a sharer's cache (or the LLC) */
	ACT_FWD_GETS,       /* the owner sends the data and keeps a Shared copy */
	ACT_FWD_GETX,       /* the owner sends the data and invalidates its copy */
	ACT_SEND_INV,       /* invalidate every other Shared copy */
	ACT_COUNT_HITM,     /* a load (or an RMW's load) found the line Modified elsewhere */
	ACT_COUNT_RFO_HITM, /* a store's RFO found the line Modified elsewhere */
	ACT_COUNT_PF_HITM,  /* a prefetch found the line Modified elsewhere and took it */
	ACT_WRITEBACK,      /* the requester's dirty data written back to the LLC */
	ACT_WRITE_DATA,     /* the access writes: a new value epoch (data-value invariant) */
	ACT_DROP_PF,        /* the prefetch is dropped */
	ACT_EVICT,          /* the requester's copy is dropped (into the LLC) */
	ACT_COUNT_ST_HIT,   /* a store found the line owned: L1Hit if L1d holds it, else L1Miss */
	ACT_COUNT_ST_MISS,  /* a store did not find the line owned: L1Miss */
	ACT_PF_BUDDY,       /* the fill triggers the adjacent-line prefetcher, for reading */
	ACT_PF_BUDDY_RFO,   /* ... for ownership */
	ACT_COUNT
};

#define PROTO_MAX_ACTIONS 6

/* Messages a core receives about its own copy (the owner's side of a transfer). */
enum proto_msg {
	MSG_FWD_GETS, /* another core reads the line this core owns */
	MSG_FWD_GETX, /* another core takes ownership of the line this core owns */
	MSG_INV,      /* another core takes ownership: this sharer's copy goes */
	MSG_COUNT
};

enum proto_oaction {
	OACT_NONE,      /* end of the list */
	OACT_SEND_DATA, /* the copy supplies the data (cache-to-cache) */
	OACT_WRITEBACK, /* dirty data written back to the LLC of the owner's socket */
	OACT_COUNT
};

#define PROTO_MAX_OACTIONS 2

struct proto_orow {
	uint8_t own, msg, next_own;
	uint8_t act[PROTO_MAX_OACTIONS];
	const char *desc;
};

struct proto_row {
	uint8_t own, others, event;
	uint8_t gmask, gval;            /* the guard: the row applies when variant & gmask == gval */
	uint8_t next_own, next_others;
	uint8_t act[PROTO_MAX_ACTIONS]; /* ordered, ACT_NONE-terminated when shorter */
	const char *desc;
};

struct proto_impossible {
	int8_t own, others, event; /* -1 = any */
	const char *reason;
};

extern const char *const mesi_names[MESI_COUNT];
extern const char *const proto_event_names[EV_COUNT];
extern const char *const proto_action_names[];
extern const char *const proto_msg_names[];
extern const char *const proto_oaction_names[];

extern const struct proto_row proto_rows[];
extern const unsigned proto_nr_rows;
extern const struct proto_impossible proto_impossible[];
extern const unsigned proto_nr_impossible;
extern const struct proto_orow proto_orows[];
extern const unsigned proto_nr_orows;

/* The row index for every key, built once per memory system from proto_rows. */
struct proto_index {
	const struct proto_row *row[MESI_COUNT][MESI_COUNT][EV_COUNT][PROTO_VARIANTS];
	const struct proto_orow *orow[MESI_COUNT][MSG_COUNT];
};

/* proto_index_build - fill @ix.  Return: false if two rows claim one key or a row's actions
 * are out of order (a table bug). */
bool proto_index_build(struct proto_index *ix);

/* proto_row_valid - whether @r's actions are in an order the engine can run (see above). */
bool proto_row_valid(const struct proto_row *r);

/* proto_variant - the index variant for the machine's prefetch parameters. */
unsigned proto_variant(const struct prefetch_params *pf);

/* proto_guard_admits - whether row @r applies under @variant. */
static inline bool proto_guard_admits(const struct proto_row *r, unsigned variant)
{
	return (variant & r->gmask) == r->gval;
}

/* proto_guard_name - @r's guard as `c2csim protocol` prints it ("" for G_ANY). */
void proto_guard_name(const struct proto_row *r, char *buf, size_t size);

/* proto_lookup - the row for a key, NULL when the key is impossible.  @variant (from
 * proto_variant) selects the guarded rows. */
static inline const struct proto_row *proto_lookup(const struct proto_index *ix, int own,
						   int others, int event, unsigned variant)
{
	return ix->row[own][others][event][variant];
}

/* proto_olookup - the owner's-side row for a core in @own receiving @msg, NULL if none. */
static inline const struct proto_orow *proto_olookup(const struct proto_index *ix, int own,
						     int msg)
{
	return ix->orow[own][msg];
}

/* proto_action_counts - the statistics keys action @act increments in a row for @event ("" for
 * none; "a|b": one of them, by where the data is). */
const char *proto_action_counts(int act, int event);

/* proto_impossible_reason - why a key has no row, or NULL when it should have one. */
const char *proto_impossible_reason(int own, int others, int event);

/* proto_print - the table as text (for `c2csim protocol`). */
void proto_print(FILE *f);

#endif
