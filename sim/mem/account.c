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

/* The line's part of a load: @rec is its record (DIR_NONE: the totals). */
static void account_load(struct mstats *s, uint32_t rec, const struct outcome *o,
			 simtime_t lat)
{
	rec_add(s, rec, acct_src_lstat[o->src], 1);
	rec_add(s, rec, LS_CYC_LOAD, lat);
	if (o->src == SRC_HITM_LCL || o->src == SRC_HITM_RMT)
		rec_add(s, rec, o->src == SRC_HITM_LCL ? LS_CYC_HITM_LCL : LS_CYC_HITM_RMT, lat);
}

void acct_row(struct mstats *s, uint32_t row, const struct req *rq, int src, bool st_l1hit,
	      simtime_t lat)
{
	mstats_add_cpu(s, &s->orow_cpus[row], rq->cpu);
	if (rq->event != EV_STORE) {
		os_add(s, row, OS_LOADS, 1);
		os_add(s, row, OS_CYC_LOAD, lat);
		if (src == SRC_HITM_LCL || src == SRC_HITM_RMT) {
			bool lcl = src == SRC_HITM_LCL;

			os_add(s, row, lcl ? OS_HITM_LCL : OS_HITM_RMT, 1);
			os_add(s, row, lcl ? OS_CYC_HITM_LCL : OS_CYC_HITM_RMT, lat);
		}
	}
	if (rq->event != EV_LOAD)
		os_add(s, row, st_l1hit ? OS_ST_L1HIT : OS_ST_L1MISS, 1);
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

/* Loads, stores, inv_recv and a row's stores are not added here: the statistics layer sums
 * their parts when they are read (mstats_line_get, mstats_orow_get). */
uint32_t acct_demand(struct mem *m, const struct req *rq, const struct outcome *o)
{
	struct mstats *s = &m->st;
	uint32_t l = o->line, row = DIR_NONE, rec;
	simtime_t lat = o->done - rq->now;

	if (!mstats_tracked(s, l) && makes_shared(s, l, rq, o))
		mstats_track(s, l);
	mstats_add_cpu(s, &s->cpus[l], rq->cpu);
	rec = s->rec_of[l]; /* looked up once: every add below goes to it */
	if (rec != DIR_NONE) {
		row = mstats_orow(s, l, rq->off, rq->site, rq->caller);
		acct_row(s, row, rq, o->src, o->st_l1hit, lat);
	}
	if (rq->event != EV_STORE)
		account_load(s, rec, o, lat);
	if (rq->event != EV_LOAD) {
		rec_add(s, rec, o->st_l1hit ? LS_ST_L1HIT : LS_ST_L1MISS, 1);
		rec_add(s, rec, LS_ST_RFO_HITM, o->rfo_hitm);
	}
	rec_add(s, rec, LS_INV_SENT, o->nr_inv);
	rec_add(s, rec, LS_PF_USEFUL, o->pf_used);
	return row;
}

/* What a prefetch did to the buddy, and to the demand line whose miss caused it. */
void acct_prefetch(struct mem *m, const struct req *rq, const struct outcome *o)
{
	struct mstats *s = &m->st;
	uint32_t l = o->line, rec;

	if (o->dropped) {
		ls_add(s, l, LS_PF_DROPPED, 1);
		return;
	}
	if (o->pf_hitm)
		mstats_track(s, l); /* a HITM makes the buddy shared */
	rec = s->rec_of[l]; /* looked up once: every add below goes to it */
	rec_add(s, rec, LS_PF_FILLS, o->filled);
	rec_add(s, rec, LS_PF_HITM, o->pf_hitm);
	rec_add(s, rec, LS_PF_XFER, o->from_cache && !o->pf_hitm);
	rec_add(s, rec, LS_PF_INV, o->nr_inv);
	if (rq->cause != DIR_NONE) {
		rec = s->rec_of[rq->cause];
		rec_add(s, rec, LS_PF_CAUSED_HITM, o->pf_hitm);
		rec_add(s, rec, LS_PF_CAUSED_INV, o->nr_inv);
		if (rq->cause_orow != DIR_NONE)
			os_add(s, rq->cause_orow, OS_PF_CAUSED_HITM, o->pf_hitm);
	}
}

void acct_locked(struct mem *m, uint32_t idx)
{
	ls_add(&m->st, idx, LS_LOCKED, 1);
}
