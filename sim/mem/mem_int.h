/*
 * mem_int.h - what the modules of the memory system share and nothing outside uses.
 *
 * A demand access becomes one request per line (mem.c).  xact.c runs the request through the
 * protocol table and applies the row; timing.c prices it and holds the line; prefetch.c
 * issues the buddy request a fill row asks for; account.c turns what the request did into
 * statistics; sbuf.c is the store buffer and values.c the bytes in memory.  See mem.h for the
 * design.
 */
#ifndef C2C_MEM_INT_H
#define C2C_MEM_INT_H

#include <assert.h>

#include "mem/mem.h"

/* What a request did, as the row's actions recorded it, for the accounting. */
struct outcome {
	simtime_t done;
	int src;            /* enum ld_src */
	uint32_t line;
	uint32_t nr_inv;
	uint8_t pf_event;   /* the buddy prefetch the row asked for, EV_COUNT for none */
	bool hitm, rfo_hitm, pf_hitm, from_cache, filled, dropped, st_l1hit, pf_used;
};

static inline int mem_core_socket(const struct mem *m, int core)
{
	return m->core_socket[core];
}

/* mem_pf_enabled - does a demand miss fire the adjacent-line prefetcher?  Not with 128-byte
 * granules: the pair is then one line. */
static inline bool mem_pf_enabled(const struct mem *m)
{
	return m->mc->pf.adjacent_line && m->gshift == 6;
}

static inline uint64_t mem_line_addr(const struct mem *m, uint64_t addr)
{
	return addr >> m->gshift << m->gshift;
}

/* xact.c */
/* mem_request_ways - run @rq through the protocol table: look up the row, run its actions,
 * apply the next states, price it.  *out says what happened.  A missing row fails the run.
 * @w2 and @w1 are the line's ways in the requester's L2 and L1d (hier_lookup; NULL where
 * absent; @w1 is read only for a demand request), which nothing may have changed since. */
void mem_request_ways(struct mem *m, const struct req *rq, struct cway *w2, struct cway *w1,
		      struct outcome *out);
/* mem_request_absent - mem_request_ways() of a line the requester's caches do not hold (@w2
 * and @w1 NULL), with that known: most misses of a contended line.  @idx: the line's
 * directory index (mem_line_index), which the caller often has (a memo's line, a prefetch's
 * buddy), so the request does not look it up again. */
void mem_request_absent(struct mem *m, const struct req *rq, uint32_t idx, struct outcome *out);
/* mem_decode_rows - fill m->rows and m->orows from the table under m->pvariant.  Can't fail. */
void mem_decode_rows(struct mem *m);

/* mem_others_dl - what cores other than @core (holding @own) hold of the line of entry @dl. */
static inline int mem_others_dl(const struct dline *dl, int core, int own)
{
	if (dl->owner >= 0 && dl->owner != core)
		return dl->dirty ? MESI_M : MESI_E;
	return dl->nr_sharers > (own != MESI_I ? 1u : 0u) ? MESI_S : MESI_I;
}

/* mem_others - what cores other than @core (holding @own) hold of line @idx. */
static inline int mem_others(const struct mem *m, uint32_t idx, int core, int own)
{
	return mem_others_dl(&m->dir.line[idx], core, own);
}

/* mem_write_epoch - a store ends every other copy's epoch; LLC copies are stale from now on. */
static inline void mem_write_epoch(struct dline *dl)
{
	dl->version++;
	dl->llc_valid = 0;
}

/* mem_check_after - check mode, after row @r served @rq on line @idx (from @own, @others):
 * the row's promised others state (unless the request was @dropped), then the line's
 * invariants.  Scalars, not the outcome: the hit path's outcome stays in registers. */
void mem_check_after(struct mem *m, const struct req *rq, uint32_t idx, int own, int others,
		     const struct proto_row *r, bool dropped);
/* mem_line_new - a directory entry for line @la, absent so far (its first touch).  Return:
 * its index. */
uint32_t mem_line_new(struct mem *m, uint64_t la);

/* mem_line_index - the directory index of line @la, creating the entry on first touch.
 * Inline: every miss and prefetch asks, and the line is almost always there. */
static inline uint32_t mem_line_index(struct mem *m, uint64_t la)
{
	uint32_t idx = dir_lookup(&m->dir, la);

	return idx != DIR_NONE ? idx : mem_line_new(m, la);
}

/* mem_demand_done - demand request @o's outcome is accounted: it is the last request, and
 * it counts as an access (mem.c's demand() and the memo path).  Return: its line. */
static inline uint32_t mem_demand_done(struct mem *m, const struct outcome *o)
{
	m->st.accesses++;
	m->last_done = o->done;
	m->last_src = o->src;
	return o->line;
}

/* mem_memo_miss - the rest of mem_access_memo() (hit.c) when its private-hit test failed at
 * @now: mem_access() of @mm, its line's ways in its core's caches found (@w2 in L2, @w1 in
 * L1d, each NULL when absent); *@next gets what mem_access() returns.  Return: true (the
 * memo's return, so that the hit path ends in a tail call). */
bool mem_memo_miss(struct mem *m, struct mem_memo *mm, struct cway *w2, struct cway *w1,
		   simtime_t now, simtime_t *next);
/* mem_memo_gone - mem_memo_miss() of a line its core's caches do not hold (both ways NULL),
 * its body apart with them known.  Return: *@next. */
simtime_t mem_memo_gone(struct mem *m, struct mem_memo *mm, simtime_t now);

/* hit.c */
/* mem_hit_rules - decode the private-hit rows of the table for m->pvariant into m->hit. */
void mem_hit_rules(struct mem *m);
/* mem_hit: hit.h */

/* account.c */
/* acct_demand - count demand request @rq.  Return: its Pareto row, DIR_NONE when its line is
 * not tracked (mstats.h). */
uint32_t acct_demand(struct mem *m, struct req *rq, const struct outcome *o);
/* acct_demand_memo - acct_demand() of a memo's request (mem_memo_miss), which remembers its
 * Pareto row (acct_orow_memo). */
uint32_t acct_demand_memo(struct mem *m, struct req *rq, const struct outcome *o);
/* acct_src_lstat - the load counter of each load source (enum ld_src -> enum lstat). */
extern const uint8_t acct_src_lstat[SRC_COUNT];
/* acct_orow - add demand request @rq's part to its Pareto row on its tracked line (found or
 * made): what @o says of its load source, of a store's L1d hit, its latency.  Return: the
 * row. */
uint32_t acct_orow(struct mstats *s, const struct req *rq, const struct outcome *o);
/* acct_orow_memo - acct_orow() of a memo's request @rq, whose row it remembers (req.orow). */
uint32_t acct_orow_memo(struct mstats *s, struct req *rq, const struct outcome *o);
/* acct_orow_of - acct_orow() of an outcome kept in registers (the memo's hit path), its
 * fields passed: tracked line @l, load source @src, @st_l1hit, latency @lat.  @rq is the
 * memo's: its row is remembered as acct_orow_memo() does. */
void acct_orow_of(struct mstats *s, uint32_t l, struct req *rq, int src, bool st_l1hit,
		  simtime_t lat);

/* How acct_line adds a request's counters: to the totals of the lines without a record, to a
 * record's stored words, or (after those said a word carried) the carries to the high words. */
enum acct_put { PUT_TOTALS, PUT_WORDS, PUT_CARRIES };

/* acct_put - add @d to counter @k of record @rec (words @c) @how.  Return: its carry. */
static inline __attribute__((always_inline)) uint64_t
acct_put(struct mstats *s, uint32_t rec, uint32_t *c, unsigned k, uint64_t d,
	 enum acct_put how)
{
	if (how == PUT_TOTALS)
		rec_add(s, DIR_NONE, k, d);
	else if (how == PUT_WORDS)
		return mstats_word_add(&c[k], d);
	else
		rec_carry(s, rec, k, d);
	return 0;
}

/* acct_row_word - add @d to counter @k of Pareto row @row (words @w) @how (PUT_WORDS or
 * PUT_CARRIES).  Return: its carry. */
static inline __attribute__((always_inline)) uint64_t
acct_row_word(struct mstats *s, uint32_t row, uint32_t *w, unsigned k, uint64_t d,
	      enum acct_put how)
{
	if (how == PUT_WORDS)
		return mstats_word_add(&w[k], d);
	os_carry(s, row, k, d);
	return 0;
}

/* acct_row_put - how a demand request of @event counts in Pareto row @row (acct_orow), added
 * @how (acct_line). */
static inline __attribute__((always_inline)) uint64_t
acct_row_put(struct mstats *s, uint32_t row, int event, int src, bool st_l1hit, simtime_t lat,
	     enum acct_put how)
{
	uint32_t *w = s->orow[row].c;
	uint64_t c = 0;

	if (event != EV_STORE) {
		c |= acct_row_word(s, row, w, OS_LOADS, 1, how);
		c |= acct_row_word(s, row, w, OS_CYC_LOAD, lat, how);
		if (src == SRC_HITM_LCL || src == SRC_HITM_RMT) {
			bool lcl = src == SRC_HITM_LCL;

			c |= acct_row_word(s, row, w, lcl ? OS_HITM_LCL : OS_HITM_RMT, 1, how);
			c |= acct_row_word(s, row, w, lcl ? OS_CYC_HITM_LCL : OS_CYC_HITM_RMT, lat,
					   how);
		}
	}
	if (event != EV_LOAD)
		c |= acct_row_word(s, row, w, st_l1hit ? OS_ST_L1HIT : OS_ST_L1MISS, 1, how);
	return c;
}

/* acct_row_rare - what acct_row_count's fast path leaves: a carry, a second CPU in the row's
 * set.  Return: @row. */
__attribute__((cold)) uint32_t acct_row_rare(struct mstats *s, uint32_t row, const struct req *rq,
					     int src, bool st_l1hit, simtime_t lat,
					     uint64_t carried);

/* acct_row_count - row @row's part of demand request @rq (of @event: a constant where the
 * caller knows it): its counters, then its CPU set.  Anything rare ends in acct_row_rare, a
 * tail call, so that the fast path saves no registers.  Return: @row. */
static inline __attribute__((always_inline)) uint32_t
acct_row_count(struct mstats *s, uint32_t row, const struct req *rq, int event, int src,
	       bool st_l1hit, simtime_t lat)
{
	uint64_t c = acct_row_put(s, row, event, src, st_l1hit, lat, PUT_WORDS);

	if (__builtin_expect(!mstats_add_cpu_fast(s, &s->orow_cpus[row], rq->cpu) || c, 0))
		return acct_row_rare(s, row, rq, src, st_l1hit, lat, c);
	return row;
}

/* acct_orow_new - acct_orow() of a row the memo does not hold. */
uint32_t acct_orow_new(struct mstats *s, const struct req *rq, const struct outcome *o);

/* acct_orow_hit - acct_orow() of @event (a constant where the caller knows it, as a private
 * hit's in mem.c), latency @lat: the memo's answer and the row's counters inline, the rest
 * (acct_orow_new) out of line.  Return: the row. */
static inline __attribute__((always_inline)) uint32_t
acct_orow_hit(struct mstats *s, const struct req *rq, int event, const struct outcome *o,
	      simtime_t lat)
{
	uint32_t at = mstats_orow_memo_at(o->line, rq->off, rq->site, rq->caller);
	uint32_t row = mstats_orow_memo(s, at, o->line, rq->off, rq->site, rq->caller);

	if (row == DIR_NONE)
		return acct_orow_new(s, rq, o);
	return acct_row_count(s, row, rq, event, o->src, o->st_l1hit, lat);
}

/* acct_line - the line's part of demand request @o (of @event, latency @lat) in record @rec,
 * added @how; with @hit, of a private hit, which has no HITM, RFO or invalidation.  Each
 * counter once (rec_carry).  Return: the carries ORed (PUT_WORDS). */
static inline __attribute__((always_inline)) uint64_t
acct_line(struct mstats *s, uint32_t rec, int event, const struct outcome *o, simtime_t lat,
	  bool hit, enum acct_put how)
{
	uint32_t *w = how == PUT_WORDS ? s->line[rec].c : NULL;
	uint64_t c = 0;

	if (event != EV_STORE) {
		c |= acct_put(s, rec, w, acct_src_lstat[o->src], 1, how);
		c |= acct_put(s, rec, w, LS_CYC_LOAD, lat, how);
		if (!hit && (o->src == SRC_HITM_LCL || o->src == SRC_HITM_RMT))
			c |= acct_put(s, rec, w, o->src == SRC_HITM_LCL ? LS_CYC_HITM_LCL
						: LS_CYC_HITM_RMT, lat, how);
	}
	if (event != EV_LOAD) {
		c |= acct_put(s, rec, w, o->st_l1hit ? LS_ST_L1HIT : LS_ST_L1MISS, 1, how);
		if (!hit)
			c |= acct_put(s, rec, w, LS_ST_RFO_HITM, o->rfo_hitm, how);
	}
	if (hit) {
		if (o->pf_used)
			c |= acct_put(s, rec, w, LS_PF_USEFUL, 1, how);
		return c;
	}
	c |= acct_put(s, rec, w, LS_INV_SENT, o->nr_inv, how);
	c |= acct_put(s, rec, w, LS_PF_USEFUL, o->pf_used, how);
	return c;
}

/* acct_hit_carries - acct_line(PUT_CARRIES) of a private hit, out of the access path. */
__attribute__((cold)) void acct_hit_carries(struct mstats *s, uint32_t rec, int event, int src,
					    bool st_l1hit, bool pf_used, simtime_t lat);

/* acct_hit - acct_demand() of a private hit (hit.c): data from L1d or L2, no transfer, no
 * HITM, no invalidation, no prefetch; only the line's CPU set may change.  Inline: it is
 * most accesses' accounting.  @event is @rq's (a constant where the caller knows it).  With
 * @o_in_regs (a constant too: the memo's hit path), the row gets @o's fields, not its address,
 * so that @o stays in registers.  With @memo (a constant), @rq is a memo's and remembers its
 * row (acct_orow_memo).  check_hit_path compares the two paths' statistics. */
static inline __attribute__((always_inline)) void
acct_hit_in(struct mem *m, struct req *rq, int event, const struct outcome *o,
	    bool o_in_regs, bool memo)
{
	struct mstats *s = &m->st;
	uint32_t l = o->line, rec;
	simtime_t lat = o->done - rq->now;

	if (s->cpus[l] != (CPUSET_ONE | (uint32_t)rq->cpu)) { /* else: nothing new to say */
		if (!mstats_tracked(s, l) && s->cpus[l] != CPUSET_NONE)
			mstats_track(s, l); /* another CPU touched it: it is shared now */
		mstats_add_cpu(s, &s->cpus[l], rq->cpu);
	}
	rec = s->rec_of[l];
	if (rec == DIR_NONE) {
		acct_line(s, rec, event, o, lat, true, PUT_TOTALS);
		return;
	}
	if (o_in_regs)
		acct_orow_of(s, l, rq, o->src, o->st_l1hit, lat);
	else if (memo)
		acct_orow_memo(s, rq, o);
	else
		acct_orow_hit(s, rq, event, o, lat);
	if (__builtin_expect(acct_line(s, rec, event, o, lat, true, PUT_WORDS) != 0, 0))
		acct_hit_carries(s, rec, event, o->src, o->st_l1hit, o->pf_used, lat);
}

static inline __attribute__((always_inline)) void
acct_hit(struct mem *m, struct req *rq, int event, const struct outcome *o, bool memo)
{
	acct_hit_in(m, rq, event, o, false, memo);
}

/* acct_hit_regs - acct_hit() of the memo's hit path, whose outcome is in registers. */
static inline __attribute__((always_inline)) void
acct_hit_regs(struct mem *m, struct req *rq, int event, const struct outcome *o)
{
	acct_hit_in(m, rq, event, o, true, true);
}
void acct_prefetch(struct mem *m, const struct req *rq, const struct outcome *o);
/* acct_pf_dropped - what acct_prefetch() counts of a prefetch of line @idx that was dropped
 * (outcome.dropped): for pf_request(), which drops one without a request. */
static inline void acct_pf_dropped(struct mstats *s, uint32_t idx)
{
	ls_add(s, idx, LS_PF_DROPPED, 1);
}
void acct_locked(struct mem *m, uint32_t idx);

/* prefetch.c */
/* pf_after_demand - the demand request @dem (line @line, Pareto row @orow) finished with a row
 * that asked for the buddy (@o->pf_event): issue it if the prefetcher is on. */
void pf_after_demand(struct mem *m, const struct req *dem, const struct outcome *o,
		     uint32_t orow);

/* values.c */
/* mem_watched - whether writes to line @idx are reported (mem_watch). */
static inline bool mem_watched(const struct mem *m, uint32_t idx)
{
	return idx < m->watched_cap && m->watched[idx];
}

/* mem_values_bytes - host bytes of the values (values.c). */
uint64_t mem_values_bytes(const struct mem *m);

/* sbuf.h: sb_slot, sb_push */
#include "mem/sbuf.h"

#endif
