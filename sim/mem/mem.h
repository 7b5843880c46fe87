/*
 * mem.h - the memory system: private caches per core, the directory, the adjacent-line
 * prefetcher, store buffers, latency and contention, accounting and invariant checks.
 *
 * Design (timing-approximate, not cycle-accurate)
 * -----------------------------------------------
 * Requests.  A CPU's access to a line is looked up in its core's L1d then L2 (hier.h).  What happens
 * next is decided by the protocol table (protocol.h) from the core's own state, what the other
 * cores hold and the event.  A request is applied atomically at the time the CPU issues it;
 * that keeps races out of the protocol: the one place where concurrent requests meet is the
 * line's busy_until below.
 *
 * Timing (ZSim's convention: a request takes its issue time and returns its completion time,
 * done >= now).  Hits cost the L1d or L2 latency, and complete no earlier than the copy's
 * ready_at (its fill's completion: a fill-buffer hit).  A request that goes to the home starts
 * at max(now, busy_until) and costs, from the requester's view:
 *     fill_mem      LLC of the requester's socket, a clean copy in another socket's LLC,
 *                   or DRAM (local/remote by the line's home node)
 *     fill_sharer   clean copy on the socket (LLC latency if the socket's LLC has it, else the
 *                   clean transfer figure) or from another socket
 *     fwd_*         the owner's copy: clean or HITM, local, or remote with the home-node term
 *                   (homed on the owner's node / elsewhere)
 *     send_inv      inv_local or inv_remote (any sharer on another socket) + inv_per_sharer
 *                   per copy; parallel with the data, so the request costs the slower of both
 *     upgrade       a round trip to the home: the LLC latency
 * Contention: a cache-to-cache transfer or an invalidation holds the line until it completes
 * (busy_until = done), memory fills hold it for dir_occupancy; so a hot line queues, and the
 * latency a requester sees grows with the number of contenders the way perf c2c shows it.
 * LOCK-prefixed RMWs drain the store buffer first and hold the line locked_rmw longer.
 *
 * Ops.  LOAD blocks the CPU until the data arrives (one outstanding miss per CPU).  STORE
 * enters the store buffer and the CPU goes on after one cycle unless the buffer is full; its
 * RFO is issued at once and it commits in order (TSO).  RMW (this_cpu_*: no LOCK) blocks like
 * a load; LOCKED_RMW (atomic_*) also waits for the store buffer to drain.
 *
 * Adjacent-line prefetch (prefetch.c).  A demand miss that fills the L2, and with
 * prefetch.upgrade_prefetch a store's S -> M upgrade, requests the buddy (address XOR 64) for
 * reading (PF_LOAD) or, for stores and RMWs when prefetch.store_buddy = rfo, for ownership
 * (PF_STORE): the row's pf_buddy action says which.  A read prefetch of a buddy Modified
 * elsewhere steals or is dropped (buddy_modified), an RFO prefetch likewise
 * (rfo_buddy_modified); an RFO prefetch of a buddy held Shared is dropped or upgrades it
 * (rfo_buddy_shared); a buddy taken for ownership is installed E or M (rfo_install).  Each
 * rule is a guard of the table (protocol.h).  The prefetch costs the requester nothing but
 * holds the buddy line like any transfer.  What it does is counted on the buddy (pf_*) and on
 * the demand line and offset (pf_caused_*).  With prefetch.pair_granule (and the prefetcher
 * on) the coherence unit is the 128-byte pair: lines in the directory, caches and reports are
 * 128 bytes and there is no buddy left to prefetch.
 *
 * Invariants (mem->check).  After every transition: SWMR (an owner is the only holder, the
 * sharer count matches the bitset and every holder's cache agrees with the directory) and
 * data-value (every copy a core reads holds the line's last epoch).  A violation stops the
 * run: mem->failed is set with the line, the caches involved and the last events.
 */
#ifndef C2C_MEM_H
#define C2C_MEM_H

#include <assert.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "layout/objmap.h"
#include "mem/dir.h"
#include "mem/hier.h"
#include "mem/machine.h"
#include "mem/mstats.h"
#include "mem/protocol.h"
#include "mem/stats.h"

struct c2c_limits;
#include "mem/timing.h"

enum mem_op {
	MEM_LOAD,       /* plain load */
	MEM_STORE,      /* plain store, through the store buffer */
	MEM_RMW,        /* read-modify-write without LOCK (this_cpu_*) */
	MEM_LOCKED_RMW, /* LOCK-prefixed read-modify-write (atomic_*, cmpxchg) */
	MEM_OP_COUNT
};

extern const char *const mem_op_names[MEM_OP_COUNT + 1];

struct sbuf {
	uint32_t head, len;
	simtime_t last; /* commit time of the youngest entry */
};

#define MEM_TRAIL 16

/* One transition, kept in a ring for violation reports. */
struct mem_trail {
	simtime_t time;
	uint64_t addr;
	int cpu;
	uint8_t event, own, others, next_own, next_others;
};

/* A row of the protocol table that is a private hit (xact.c, mem_hit): served by the
 * requester's own copy, changing nothing any other core holds.  What its actions do, decoded
 * once from the row. */
struct mem_hit_rule {
	const struct proto_row *row; /* NULL: not a private hit, the full path serves the key */
	bool write;                  /* write_data: a new value epoch */
	bool st_hit;                 /* count_st_hit */
	uint8_t next_own;            /* row->next_own, */
	bool keeps;                  /* and whether it is row->own: next to what the hit reads */
	uint64_t nr;                 /* requests it served: its actions' counts (mem_act_counts) */
};

#define MEM_HIT_EVENTS 3 /* LOAD, STORE, RMW: the demand events */

/* A row of the protocol table as a request runs it: its actions as a set (bit ACT_*, run in
 * the one order all rows list them in) and its next state, next to the row. */
struct mem_row {
	const struct proto_row *r; /* NULL: the key has no row */
	uint32_t acts;
	uint8_t next_own;
};

/* An owner's-side row: its actions as a set (bit OACT_*) and its next state. */
struct mem_orow {
	bool valid; /* else the key has no row */
	uint8_t acts, next_own;
};

struct mem {
	const struct machine *mc;
	const struct objmap *objs;
	struct proto_index pix;
	unsigned pvariant;      /* the protocol index variant of the machine's prefetch rules */
	/* The private-hit rows of the table under pvariant, by (own, others, event) (mem_hit). */
	struct mem_hit_rule hit[MESI_COUNT][MESI_COUNT][MEM_HIT_EVENTS];
	/* Serve private hits by mem_hit (default); off: all by the table.  Set it before the
	 * first access: a memo that served a hit goes on serving its copy's hits. */
	bool hit_fast;
	/* The rows under pvariant, by (own, others, event), and the owner's-side rows, by (own,
	 * msg): what a request reads of them, in one place (mem_decode_rows). */
	struct mem_row rows[MESI_COUNT][MESI_COUNT][EV_COUNT];
	struct mem_orow orows[MESI_COUNT][MSG_COUNT];
	/* orows[S][INV] only drops the copy (no action, next I): send_inv then drops a Shared
	 * sharer's copy without reading the row (drop_shared). */
	bool inv_drops_shared;
	struct dir dir;
	struct hier *core;      /* each core's L1d and L2 */
	uint16_t *cpu_core;     /* per CPU: machine_cpu_core(), a table (no division per access) */
	uint16_t *core_socket;  /* per core: machine_core_socket() */
	struct sbuf *sb;
	simtime_t *sb_ring;     /* nr_cpus * store_buffer commit times */
	uint32_t gshift;        /* log2 of the coherence unit: 6, or 7 with pair_granule */
	uint64_t gsize;

	struct mstats st;       /* the statistics layer (read through stats_* in mstats.h) */
	uint64_t act_count[ACT_COUNT]; /* protocol actions the table path executed (the hit
					* path's are in hit[].nr: read mem_act_counts) */
	uint64_t oact_count[OACT_COUNT]; /* owner's-side actions executed */

	uint32_t *val_of;       /* per line: its block in vals, DIR_NONE if never written */
	uint32_t val_cap;       /* lines val_of holds */
	uint8_t *vals;          /* gsize bytes per written line: the values in memory */
	uint32_t nr_vals, cap_vals;
	uint8_t *watched;       /* per line: writes are reported (on_write): spinning waiters */
	uint32_t watched_cap;
	simtime_t last_done;    /* completion of the last demand request (a store's commit) */
	int last_src;           /* where its data came from (enum ld_src) */
	uint32_t last_line;     /* directory index of the last access's first line, or DIR_NONE */
	/* Called when a store or RMW writes a line marked watched (spinning lock waiters). */
	void (*on_write)(void *data, uint32_t line, simtime_t when);
	void *on_write_data;

	bool check;
	bool failed;
	bool limit_reached;     /* failed because a resource limit was reached, not a violation */
	const struct c2c_limits *lim; /* the run's resource limits (core/limits.h), NULL: none */
	uint64_t nr_checks;     /* mem_check_access calls, for its sampled full scans */
	char fail_msg[2048];
	struct mem_trail trail[MEM_TRAIL];
	uint64_t nr_trail;
};

/* mem_new - a cold memory system for @mc; @objs names addresses (may be NULL) and must
 * outlive it.  @check turns the invariant checks on.  Can't fail.  Free with mem_free(). */
struct mem *mem_new(const struct machine *mc, const struct objmap *objs, bool check);
void mem_free(struct mem *m);
/* mem_retire - the run is over: free the caches and store buffers, keep what the reports
 * read (the directory's lines, the statistics, the values).  No access may follow. */
void mem_retire(struct mem *m);

/* mem_act_counts - the protocol actions executed so far, per action (tests read them).
 * Can't fail. */
void mem_act_counts(const struct mem *m, uint64_t out[ACT_COUNT]);

/* mem_hits_served - the demand requests the private-hit path served (tests read it). */
uint64_t mem_hits_served(const struct mem *m);

/* mem_stats_reset - zero every statistic (per line, per Pareto row, CPUs that touched a line,
 * access and action counts) and keep the state: the end of a warm-up.  Can't fail. */
void mem_stats_reset(struct mem *m);

/*
 * mem_access_from - @cpu performs @op on [@addr, @addr + @size) at time @now, on behalf of
 * code site @site (an index into the caller's table of op sites) of a path that the call at
 * code site @caller invoked (DIR_NONE: none).  The Pareto rows keep callers apart, as the
 * call graphs of perf c2c -g do: one stat update function hit from two paths is two rows.
 * Return: the time at which the CPU can issue its next operation (>= now).  Accesses crossing
 * a line boundary are split.  On an invariant violation mem->failed is set and @now returned.
 */
simtime_t mem_access_from(struct mem *m, int cpu, uint64_t addr, uint32_t size, enum mem_op op,
			  uint32_t site, uint32_t caller, simtime_t now);

/* What each store of a run (mem_store_run) did, for the caller's own counts: its line
 * (mem->last_line) and load source (mem->last_src). */
#define MEM_RUN_MAX 64
struct mem_run {
	uint32_t line[MEM_RUN_MAX];
	uint8_t src[MEM_RUN_MAX];
};

/* mem_store_run - the stores of a stream (`work`'s page zeroing): as up to @n (at most
 * MEM_RUN_MAX) mem_access_from() stores of @size bytes at @addr, @addr + @stride, ..., each
 * issued when the one before returns, from *@now on, with one request made once.  It stops
 * before a store when the run failed, *@stop is set (a signal) or the store would issue at or
 * after @until (0: no end).  *@now gets the time the last one returned; out->line[i] and
 * out->src[i] what store i left in mem->last_line and last_src.  Return: the stores made. */
uint32_t mem_store_run(struct mem *m, int cpu, uint64_t addr, uint32_t n, uint32_t stride,
		       uint32_t size, uint32_t site, uint32_t caller, simtime_t *now,
		       simtime_t until, const volatile sig_atomic_t *stop, struct mem_run *out);

/* mem_load_from, mem_store_from, mem_rmw_from, mem_locked_from - mem_access_from() of that
 * operation; mem_access_op - the one of @op: inline, so that a caller that knows the operation
 * (a path's memory instruction) calls it without a test of @op at every access. */
simtime_t mem_load_from(struct mem *m, int cpu, uint64_t addr, uint32_t size, uint32_t site,
			uint32_t caller, simtime_t now);
simtime_t mem_store_from(struct mem *m, int cpu, uint64_t addr, uint32_t size, uint32_t site,
			 uint32_t caller, simtime_t now);
simtime_t mem_rmw_from(struct mem *m, int cpu, uint64_t addr, uint32_t size, uint32_t site,
		       uint32_t caller, simtime_t now);
simtime_t mem_locked_from(struct mem *m, int cpu, uint64_t addr, uint32_t size, uint32_t site,
			  uint32_t caller, simtime_t now);

static inline simtime_t mem_access_op(struct mem *m, int cpu, uint64_t addr, uint32_t size,
				      enum mem_op op, uint32_t site, uint32_t caller,
				      simtime_t now)
{
	switch (op) {
	case MEM_LOAD:
		return mem_load_from(m, cpu, addr, size, site, caller, now);
	case MEM_STORE:
		return mem_store_from(m, cpu, addr, size, site, caller, now);
	case MEM_RMW:
		return mem_rmw_from(m, cpu, addr, size, site, caller, now);
	default:
		return mem_locked_from(m, cpu, addr, size, site, caller, now);
	}
}

/* One request for one line, demand or prefetch (the memory system's own: here because a
 * struct mem_memo keeps one). */
struct req {
	int cpu, core, socket;
	/* Demand: the Pareto row of this request's offset, site and caller on line orow_key - 1
	 * (0: none known), found by the last request made with it (acct_orow).  A memo's
	 * request, made once, finds its row once; a request's offset, site and caller change
	 * only with its line (req_at).  In the padding: the request stays 56 bytes. */
	uint32_t orow_key;
	uint64_t la;        /* line address */
	uint8_t off;        /* byte offset in the line (demand) */
	uint8_t event;      /* enum proto_event */
	bool prefetch;
	uint32_t site, caller; /* demand: code site, and the call site of its path (or DIR_NONE) */
	uint32_t cause;     /* prefetch: demand line that triggered it, or DIR_NONE */
	uint32_t cause_orow;
	uint32_t orow;      /* see orow_key */
	simtime_t now;
};
_Static_assert(sizeof(struct req) == 56, "a request's row hint lives in its padding");

/* A one-line access that one CPU issues again and again (a raw operation of an actor's
 * loop): what mem_access_from() works out each time, worked out once. */
struct mem_memo {
	/* What its private hit in L1d in E or M (hit.c, memo_hit) reads, first: */
	uint64_t tag;         /* its line's tag in a cache (pcache_set_tag) */
	/* The L1d and L2 ways that held the line last (0 at first): their tags, the L1d way,
	 * their LRU stamps (pcache_touch_at) */
	const uint64_t *tag1, *tag2;
	struct cway *w1;
	uint64_t *lru1, *lru2;
	/* The hit rule that served it last, and the state of the copy it was for (MESI_I:
	 * none): a rule of an exclusive copy (E or M, so no others: hit_rule) that keeps the
	 * copy's state, so that while the copy stays in that state the same rule serves it. */
	struct mem_hit_rule *last_hr;
	struct hier *h;       /* its core's caches */
	simtime_t lat;        /* an L1d hit's latency */
	simtime_t step;       /* from its request's time to what it returns, after an L1d hit */
	struct sbuf *sb;      /* its CPU's store buffer, */
	simtime_t *ring;      /* its ring (sb_ring) */
	uint32_t sb_n;        /* and its entries */
	uint32_t cpu_one;     /* the CPU set of its CPU alone (mstats.h) */
	uint8_t last_own;
	uint8_t op;           /* enum mem_op */
	bool ok;              /* within one line: mem_access_memo may serve it */
	size_t i1, i2;        /* the indices of those ways */
	struct req rq;        /* its demand request, but for the time */
	struct mem_hit_rule *hit; /* &mem.hit[0][0][its event] */
	uint32_t line;        /* its line's directory index once an access made it, or DIR_NONE */
};

/* mem_memo_init - remember mem_access(@cpu, @addr, @size, @op, @site) in @mm.  Can't fail. */
void mem_memo_init(struct mem *m, struct mem_memo *mm, int cpu, uint64_t addr, uint32_t size,
		   enum mem_op op, uint32_t site);

/* mem_access_memo - mem_access() of @mm at @now (hit.c): the same state, statistics and
 * *@next, without finding the line's way again when it is a private hit in L1d, and without
 * making the request again when it is not.  Return: false, with nothing changed, when the
 * memo may not serve it (an access that crosses a line (!ok), the run has failed, private
 * hits go by the table): then mem_access() must serve it. */
bool mem_access_memo(struct mem *m, struct mem_memo *mm, simtime_t now, simtime_t *next);

/* What the entry points below return when the memo may not serve the access (as
 * mem_access_memo() returns false): past every time an access returns. */
#define MEM_MEMO_REFUSED UINT64_MAX

/* mem_memo_load, mem_memo_store, mem_memo_rmw, mem_memo_locked - mem_access_memo() of a memo
 * of that operation, its *next returned (MEM_MEMO_REFUSED for false): in a register. */
simtime_t mem_memo_load(struct mem *m, struct mem_memo *mm, simtime_t now);
simtime_t mem_memo_store(struct mem *m, struct mem_memo *mm, simtime_t now);
simtime_t mem_memo_rmw(struct mem *m, struct mem_memo *mm, simtime_t now);
simtime_t mem_memo_locked(struct mem *m, struct mem_memo *mm, simtime_t now);

/* mem_memo_op - the entry point of @op for @mm, a memo of @op: inline, so that a caller that
 * knows the operation (the run loop, from its op) calls it without a test of the memo's
 * (uncontended-80: 4% fewer instructions). */
static inline simtime_t mem_memo_op(struct mem *m, struct mem_memo *mm, enum mem_op op,
				    simtime_t now)
{
	switch (op) {
	case MEM_LOAD:
		return mem_memo_load(m, mm, now);
	case MEM_STORE:
		return mem_memo_store(m, mm, now);
	case MEM_RMW:
		return mem_memo_rmw(m, mm, now);
	default:
		return mem_memo_locked(m, mm, now);
	}
}

/* mem_access - mem_access_from() with no caller. */
static inline simtime_t mem_access(struct mem *m, int cpu, uint64_t addr, uint32_t size,
				   enum mem_op op, uint32_t site, simtime_t now)
{
	return mem_access_from(m, cpu, addr, size, op, site, DIR_NONE, now);
}

/* mem_access_known - would mem_access_from(@cpu, @addr, @size, @site, @caller) make nothing
 * new: every line it touches, and the buddy a miss of it may prefetch, already has its
 * directory entry, and each of its lines either has the Pareto row it would add to or has no
 * statistics of its own and only @cpu touched it (mstats.h)?  Then the access changes only
 * the state of those lines (and the caches and store buffer of its CPU), never the order of
 * directory lines, which follows first touch.  Run-ahead (scenario/run.c) relies on it, for
 * cores whose lines no other core touches; there a true answer stays true, but for a line
 * the core's SMT siblings share, which its second CPU's access makes shared: the rows it then
 * gains come in the order the siblings' accesses come, and the reports order rows by their
 * key (offset, site, caller), never by when they were made.  Can't fail. */
bool mem_access_known(const struct mem *m, int cpu, uint64_t addr, uint32_t size,
		      uint32_t site, uint32_t caller);

/* mem_track_lines - which lines keep statistics of their own (mstats_track_objects): from
 * now on only shared ones and those holding a byte of an object @flag marks (per index of the
 * mem's object map; NULL: none), or with @all every line (the default of mem_new).  Call
 * before the first access.  Can't fail. */
void mem_track_lines(struct mem *m, const uint8_t *flag, bool all);

/* mem_peek - the value of [@addr, @addr + @size) (size <= 8, little-endian) as the last
 * write left it; 0 for memory never written.  Timing-free: callers pair it with an access. */
uint64_t mem_peek(struct mem *m, uint64_t addr, uint32_t size);

/* mem_poke - write @v into [@addr, @addr + @size).  Timing-free.  Can't fail. */
void mem_poke(struct mem *m, uint64_t addr, uint32_t size, uint64_t v);

/* mem_peek_at, mem_poke_at - mem_peek and mem_poke of @addr, whose line is @idx (an access
 * to it made it so: mem->last_line), without looking the line up; DIR_NONE: looked up.
 * Inline: a memory operation of a path with a value asks at every access (default-before: a
 * million times in 2 ms); the out-of-line _slow calls do what the fast path leaves (values.c). */
uint64_t mem_peek_at_slow(struct mem *m, uint32_t idx, uint64_t addr, uint32_t size);
void mem_poke_at_slow(struct mem *m, uint32_t idx, uint64_t addr, uint32_t size, uint64_t v);

/* mem_value_block - line @idx's block of values for the @size bytes at @addr (a word of 1, 2,
 * 4 or 8 bytes within the line, on a little-endian host): DIR_NONE for a line never written
 * (its bytes are 0), DIR_NONE - 1 where the _slow calls must answer (a line not known, a
 * value that crosses it, another size). */
#define MEM_VALUE_SLOW (DIR_NONE - 1)

static inline uint32_t mem_value_block(const struct mem *m, uint32_t idx, uint64_t addr,
				       uint32_t size)
{
	assert(idx == DIR_NONE || m->dir.line[idx].addr == (addr & ~(m->gsize - 1)));
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || (addr & (m->gsize - 1)) + size > m->gsize ||
	    idx == DIR_NONE || (size != 8 && size != 4 && size != 2 && size != 1))
		return MEM_VALUE_SLOW;
	return idx < m->val_cap ? m->val_of[idx] : DIR_NONE;
}

/* mem_value_get, mem_value_set - the @size bytes (1, 2, 4 or 8) at @p, a value block's word
 * (mem_value_ptr). */
static inline uint64_t mem_value_get(const uint8_t *p, uint32_t size)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (size) {
	case 8: memcpy(&v8, p, 8); return v8;
	case 4: memcpy(&v4, p, 4); return v4;
	case 2: memcpy(&v2, p, 2); return v2;
	default: return *p;
	}
}

static inline void mem_value_set(uint8_t *p, uint32_t size, uint64_t v)
{
	uint32_t v4 = (uint32_t)v;
	uint16_t v2 = (uint16_t)v;

	switch (size) {
	case 8: memcpy(p, &v, 8); break;
	case 4: memcpy(p, &v4, 4); break;
	case 2: memcpy(p, &v2, 2); break;
	default: *p = (uint8_t)v;
	}
}

/* The word at @addr in value block @b (mem_value_block, not MEM_VALUE_SLOW or DIR_NONE). */
static inline uint8_t *mem_value_word(struct mem *m, uint32_t b, uint64_t addr)
{
	return &m->vals[(size_t)b * m->gsize + (addr & (m->gsize - 1))];
}

/* mem_value_ptr - where line @idx (as for mem_peek_at) holds the @size bytes at @addr, for a
 * read and a write of one value with one look-up (a path's store or read-modify-write):
 * NULL where mem_peek_at and mem_poke_at must answer (a line never written, or as
 * mem_value_block says).  Valid until the next line's first write (a block is added). */
static inline uint8_t *mem_value_ptr(struct mem *m, uint32_t idx, uint64_t addr, uint32_t size)
{
	uint32_t b = mem_value_block(m, idx, addr, size);

	return b >= MEM_VALUE_SLOW ? NULL : mem_value_word(m, b, addr);
}

static inline uint64_t mem_peek_at(struct mem *m, uint32_t idx, uint64_t addr, uint32_t size)
{
	uint32_t b = mem_value_block(m, idx, addr, size);

	if (b >= MEM_VALUE_SLOW)
		return b == DIR_NONE ? 0 : mem_peek_at_slow(m, idx, addr, size);
	return mem_value_get(mem_value_word(m, b, addr), size);
}

static inline void mem_poke_at(struct mem *m, uint32_t idx, uint64_t addr, uint32_t size,
			       uint64_t v)
{
	uint32_t b = mem_value_block(m, idx, addr, size);

	if (b >= MEM_VALUE_SLOW) /* the line's first write, or as above */
		mem_poke_at_slow(m, idx, addr, size, v);
	else
		mem_value_set(mem_value_word(m, b, addr), size, v);
}

/* mem_line_bytes - the host bytes held for the touched lines: directory entries and slots,
 * values and statistics (per line and per Pareto row).  The caches are per core, not per
 * line, and are left out.  `c2csim bench` divides it by the lines. */
uint64_t mem_line_bytes(const struct mem *m);

/* mem_watch - ask for on_write calls when @addr's line is written. */
void mem_watch(struct mem *m, uint64_t addr);

/* mem_sb_drained - when @cpu's store buffer is empty if nothing more is stored. */
simtime_t mem_sb_drained(const struct mem *m, int cpu, simtime_t now);

/* mem_prefetch - issue a buddy-style prefetch (@event EV_PF_LOAD or EV_PF_STORE) of @addr's
 * line by @cpu's core, attributed to no demand line.  For tests and trace replays of hardware
 * prefetches.  Can't fail (a violation sets mem->failed). */
void mem_prefetch(struct mem *m, int cpu, uint64_t addr, int event, simtime_t now);

/* mem_evict - evict @addr's line from @core's private caches (the EVICT row); no-op when
 * absent. */
void mem_evict(struct mem *m, int core, uint64_t addr, simtime_t now);

/* mem_state - @core's MESI state for @addr's line (tests and the protocol walk). */
int mem_state(const struct mem *m, int core, uint64_t addr);

/* mem_others_state - what cores other than @core hold of @addr's line (I, S, E or M). */
int mem_others_state(const struct mem *m, int core, uint64_t addr);

/* mem_line - the directory index of @addr's line, DIR_NONE if never touched. */
uint32_t mem_line(const struct mem *m, uint64_t addr);

/* mem_check_line - run the SWMR and data-value checks on one line.  Return: false with
 * mem->failed and fail_msg set.  (mem_check.c) */
bool mem_check_line(struct mem *m, uint32_t idx, simtime_t now);

/* mem_check_access - the check after a transition: mem_check_line on the cores the directory
 * lists, and on every core each MEM_CHECK_ALL_EVERY-th call.  (mem_check.c) */
#define MEM_CHECK_ALL_EVERY 64
bool mem_check_access(struct mem *m, uint32_t idx, simtime_t now);

/* mem_fail - stop the run with a message followed by the recent transitions. (mem_check.c) */
void mem_fail(struct mem *m, simtime_t now, uint32_t idx, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* mem_trail_push - remember a transition for violation reports (check mode only). */
void mem_trail_push(struct mem *m, simtime_t now, int cpu, uint64_t addr, int event, int own,
		    int others, int next_own, int next_others);

#endif
