/*
 * account.c - what a request did, turned into statistics (stats.h) per line and per Pareto row.
 *
 * Only what the row's actions recorded in the outcome is counted here: the table decides what
 * a request was (a HITM, an L1 store hit, a dropped prefetch), this file only adds it up.
 */
#include "mem/mem_int.h"

#include <glib.h>
#include <string.h>


const uint8_t acct_src_lstat[SRC_COUNT] = {
	[SRC_L1] = LS_LD_L1, [SRC_L2] = LS_LD_L2, [SRC_LLC] = LS_LD_LLC,
	[SRC_RMT_HIT] = LS_LD_RMT_HIT, [SRC_HITM_LCL] = LS_HITM_LCL, [SRC_HITM_RMT] = LS_HITM_RMT,
	[SRC_DRAM_LCL] = LS_LD_DRAM_LCL, [SRC_DRAM_RMT] = LS_LD_DRAM_RMT, [SRC_LFB] = LS_LD_FB,
};

/* What acct_row_count's fast path leaves: a carry, a second CPU in the row's set. */
__attribute__((noinline, cold)) uint32_t
acct_row_rare(struct mstats *s, uint32_t row, const struct req *rq, int src, bool st_l1hit,
	      simtime_t lat, uint64_t carried)
{
	if (carried)
		acct_row_put(s, row, rq->event, src, st_l1hit, lat, PUT_CARRIES);
	mstats_add_cpu(s, &s->orow_cpus[row], rq->cpu);
	return row;
}

__attribute__((noinline)) uint32_t acct_orow_new(struct mstats *s, const struct req *rq,
						 const struct outcome *o)
{
	return acct_row_count(s, mstats_orow(s, o->line, rq->off, rq->site, rq->caller), rq,
			      rq->event, o->src, o->st_l1hit, o->done - rq->now);
}

/* Three arguments, the outcome's fields read where they are needed: fewer registers saved
 * than with the fields passed, when the caller's outcome is in memory anyway. */
uint32_t acct_orow(struct mstats *s, const struct req *rq, const struct outcome *o)
{
	return acct_orow_hit(s, rq, rq->event, o, o->done - rq->now);
}

/* The row of memo request @rq on line @l, found by the memo or made (mstats_orow), and
 * remembered in @rq. */
static __attribute__((noinline)) uint32_t orow_find_hint(struct mstats *s, uint32_t l,
							 struct req *rq)
{
	uint32_t at = mstats_orow_memo_at(l, rq->off, rq->site, rq->caller);
	uint32_t row = mstats_orow_memo(s, at, l, rq->off, rq->site, rq->caller);

	if (row == DIR_NONE)
		row = mstats_orow(s, l, rq->off, rq->site, rq->caller);
	rq->orow_key = l + 1;
	rq->orow = row;
	return row;
}

/* acct_orow_memo() of a request that does not remember its line's row yet. */
static __attribute__((noinline)) uint32_t orow_memo_new(struct mstats *s, struct req *rq,
							const struct outcome *o)
{
	return acct_row_count(s, orow_find_hint(s, o->line, rq), rq, rq->event, o->src,
			      o->st_l1hit, o->done - rq->now);
}

/* A memo's request is made once, so the row it found last is its row again while its line
 * is the same (rows are never removed): every time but the first, no hash, no memo.  Not for
 * the requests mem_access_from() makes afresh each access, which would only pay for the
 * remembering. */
static inline __attribute__((always_inline)) uint32_t
orow_memo(struct mstats *s, struct req *rq, const struct outcome *o, simtime_t lat)
{
	if (__builtin_expect(rq->orow_key != o->line + 1, 0))
		return orow_memo_new(s, rq, o); /* a tail call: the path saves no registers */
	return acct_row_count(s, rq->orow, rq, rq->event, o->src, o->st_l1hit, lat);
}

uint32_t acct_orow_memo(struct mstats *s, struct req *rq, const struct outcome *o)
{
	return orow_memo(s, rq, o, o->done - rq->now);
}

void acct_orow_of(struct mstats *s, uint32_t l, struct req *rq, int src, bool st_l1hit,
		  simtime_t lat)
{
	uint32_t row = rq->orow_key == l + 1 ? rq->orow : orow_find_hint(s, l, rq);

	acct_row_count(s, row, rq, rq->event, src, st_l1hit, lat);
}

void acct_hit_carries(struct mstats *s, uint32_t rec, int event, int src, bool st_l1hit,
		      bool pf_used, simtime_t lat)
{
	const struct outcome o = {.src = src, .st_l1hit = st_l1hit, .pf_used = pf_used};

	acct_line(s, rec, event, &o, lat, true, PUT_CARRIES);
}

/* Does this request make line @l shared (mstats.h): a CPU other than the one that touched it
 * so far, or a HITM? */
static bool makes_shared(const struct mstats *s, uint32_t l, const struct req *rq,
			 const struct outcome *o)
{
	cpuset_t c = s->cpus[l];

	return (c != CPUSET_NONE && c != (CPUSET_ONE | (uint32_t)rq->cpu)) || o->hitm ||
	       o->rfo_hitm;
}

/* acct_demand() of a tracked line (record @rec) past a carry: the carries, then its row. */
static __attribute__((noinline, cold)) uint32_t
demand_carries(struct mstats *s, uint32_t rec, const struct req *rq,
	       const struct outcome *o, simtime_t lat)
{
	acct_line(s, rec, rq->event, o, lat, false, PUT_CARRIES);
	return acct_orow(s, rq, o);
}

/* The counters of acct_demand() in the line's record @rec (DIR_NONE: the totals), the line's
 * CPU set done.  Anything rare, and the row, are tail calls: the path saves no registers.
 * With @memo, @rq is a memo's (acct_orow_memo). */
static inline __attribute__((always_inline)) uint32_t
demand_count(struct mstats *s, uint32_t rec, struct req *rq, const struct outcome *o, bool memo)
{
	simtime_t lat = o->done - rq->now;

	if (rec == DIR_NONE) {
		acct_line(s, rec, rq->event, o, lat, false, PUT_TOTALS);
		return DIR_NONE;
	}
	if (__builtin_expect(acct_line(s, rec, rq->event, o, lat, false, PUT_WORDS) != 0, 0))
		return demand_carries(s, rec, rq, o, lat);
	return memo ? orow_memo(s, rq, o, lat) : acct_orow(s, rq, o);
}

/* acct_demand() of a request that makes its line shared or gives its CPU set a pool bitset. */
static __attribute__((noinline)) uint32_t demand_rare(struct mstats *s, uint32_t l,
						      struct req *rq,
						      const struct outcome *o)
{
	if (!mstats_tracked(s, l) && makes_shared(s, l, rq, o))
		mstats_track(s, l);
	mstats_add_cpu(s, &s->cpus[l], rq->cpu);
	return demand_count(s, s->rec_of[l], rq, o, false);
}

/* Loads, stores, inv_recv and a row's stores are not added here: the statistics layer sums
 * their parts when they are read (mstats_line_get, mstats_orow_get). */
static inline __attribute__((always_inline)) uint32_t
demand_acct(struct mem *m, struct req *rq, const struct outcome *o, bool memo)
{
	struct mstats *s = &m->st;
	uint32_t l = o->line;
	uint32_t rec = s->rec_of[l]; /* looked up once: the CPU set's bitset does not move it */

	/* makes_shared reads the CPU set before it changes; mstats_add_cpu_fast changes
	 * nothing when it fails. */
	if ((rec == DIR_NONE && makes_shared(s, l, rq, o)) ||
	    !mstats_add_cpu_fast(s, &s->cpus[l], rq->cpu))
		return demand_rare(s, l, rq, o);
	return demand_count(s, rec, rq, o, memo);
}

uint32_t acct_demand(struct mem *m, struct req *rq, const struct outcome *o)
{
	return demand_acct(m, rq, o, false);
}

uint32_t acct_demand_memo(struct mem *m, struct req *rq, const struct outcome *o)
{
	return demand_acct(m, rq, o, true);
}

/* The prefetch's counters in record @rec: of the buddy, or (@caused) of the demand line whose
 * miss caused it; added @how (acct_line).  Those of a HITM and of invalidations only when
 * there are some (pf_count): a 0 added changes no word and carries nothing. */
static inline __attribute__((always_inline)) uint64_t
pf_put(struct mstats *s, uint32_t rec, const struct outcome *o, bool caused, enum acct_put how)
{
	uint32_t *w = how == PUT_WORDS ? s->line[rec].c : NULL;
	uint64_t c = 0;

	if (caused) {
		c |= acct_put(s, rec, w, LS_PF_CAUSED_HITM, o->pf_hitm, how);
		c |= acct_put(s, rec, w, LS_PF_CAUSED_INV, o->nr_inv, how);
		return c;
	}
	c |= acct_put(s, rec, w, LS_PF_FILLS, o->filled, how);
	c |= acct_put(s, rec, w, LS_PF_XFER, o->from_cache && !o->pf_hitm, how);
	if (!o->pf_hitm && !o->nr_inv)
		return c;
	c |= acct_put(s, rec, w, LS_PF_HITM, o->pf_hitm, how);
	c |= acct_put(s, rec, w, LS_PF_INV, o->nr_inv, how);
	return c;
}

/* The prefetch's counters, added @how (PUT_WORDS: the carries ORed, PUT_CARRIES); the
 * records are those of the buddy @l and of the line that caused it, DIR_NONE for the totals. */
static inline __attribute__((always_inline)) uint64_t
pf_count(struct mstats *s, uint32_t l, const struct req *rq, const struct outcome *o,
	 enum acct_put how)
{
	uint32_t rec = s->rec_of[l];
	uint64_t c = rec == DIR_NONE ? pf_put(s, rec, o, false, PUT_TOTALS)
				     : pf_put(s, rec, o, false, how);

	if (rq->cause == DIR_NONE || (!o->pf_hitm && !o->nr_inv)) /* nothing caused */
		return c;
	rec = s->rec_of[rq->cause];
	c |= rec == DIR_NONE ? pf_put(s, rec, o, true, PUT_TOTALS) : pf_put(s, rec, o, true, how);
	if (rq->cause_orow == DIR_NONE)
		return c;
	if (how == PUT_WORDS)
		return c | mstats_word_add(&s->orow[rq->cause_orow].c[OS_PF_CAUSED_HITM], o->pf_hitm);
	os_carry(s, rq->cause_orow, OS_PF_CAUSED_HITM, o->pf_hitm);
	return 0;
}

/* acct_prefetch() of a carry: every counter's carry found again (rec_carry). */
static __attribute__((noinline, cold)) void pf_carries(struct mstats *s, uint32_t l,
						       const struct req *rq,
						       const struct outcome *o)
{
	pf_count(s, l, rq, o, PUT_CARRIES);
}

/* acct_prefetch() of a dropped prefetch, or of a HITM that makes the buddy shared. */
static __attribute__((noinline)) void pf_rare(struct mstats *s, uint32_t l,
					      const struct req *rq, const struct outcome *o)
{
	if (o->dropped) {
		acct_pf_dropped(s, l);
		return;
	}
	mstats_track(s, l); /* a HITM makes the buddy shared */
	if (__builtin_expect(pf_count(s, l, rq, o, PUT_WORDS) != 0, 0))
		pf_carries(s, l, rq, o);
}

/* What a prefetch did to the buddy, and to the demand line whose miss caused it.  Anything
 * rare is a tail call: the path saves no registers. */
void acct_prefetch(struct mem *m, const struct req *rq, const struct outcome *o)
{
	struct mstats *s = &m->st;
	uint32_t l = o->line;

	if (o->dropped || (o->pf_hitm && !mstats_tracked(s, l)))
		pf_rare(s, l, rq, o);
	else if (__builtin_expect(pf_count(s, l, rq, o, PUT_WORDS) != 0, 0))
		pf_carries(s, l, rq, o);
}

void acct_locked(struct mem *m, uint32_t idx)
{
	ls_add(&m->st, idx, LS_LOCKED, 1);
}
