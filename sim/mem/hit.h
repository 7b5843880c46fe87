/*
 * hit.h - the private-hit path's per-access part (hit.c says what it is and has the rest):
 * inline, so that a demand request (mem.c) and a memo (hit.c) serve a hit without a call
 * (default-before: 4% fewer instructions, x0.97 the time).
 */
#ifndef C2C_HIT_H
#define C2C_HIT_H

#include <assert.h>

#include "mem/mem_int.h"

/* Check mode (m->check), unless @no_check (a constant) says it is off. */
static inline bool hit_check(const struct mem *m, bool no_check)
{
	return !no_check && m->check;
}

/* The rule that serves an event on copy @c (of line @c->line, in @core's L1d or L2), or NULL
 * when none may: the row is not a private hit, or the line is watched.  @ev is the event's
 * rules, &m->hit[0][0][event]; @may_write: the event is not a load.  The rule's row names the
 * own and others states it was chosen for.  Data still in flight does not matter here: the
 * row is the same, hit_apply() waits for it.  @no_check (a constant): the caller knows check
 * mode is off (a run of stores, mem_store_run), so that m->check is tested at no hit. */
static inline struct mem_hit_rule *hit_rule(struct mem *m, const struct cway *c, int core,
					    struct mem_hit_rule *ev, bool may_write, bool no_check)
{
	const struct dline *dl = &m->dir.line[c->line];
	struct mem_hit_rule *hr;
	int own = c->state, others;

	/* An exclusive copy (E or M) has no other (SWMR): the rule is looked up without the
	 * directory, which check mode checks (a broken directory goes the full way, which
	 * reports it).  Outside check mode the directory entry, a host cache miss on most
	 * hits, is then not read at all. */
	others = own == MESI_S ? mem_others_dl(dl, core, own) : MESI_I;
	if (own != MESI_S && hit_check(m, no_check) && mem_others_dl(dl, core, own) != MESI_I)
		return NULL;
	hr = ev + (own * MESI_COUNT + others) * MEM_HIT_EVENTS;
	if (!hr->row || (may_write && hr->write && mem_watched(m, c->line)))
		return NULL;
	return hr;
}

/* Serve @rq by @hr (hit_rule) with its copies in @w of @h, its core's caches, as the row's
 * actions would; @may_write and @no_check as for hit_rule(); @in_flight: the data may still
 * be on its way (a constant: the memos leave such hits to the full path, so theirs never is).
 *
 * Outside check mode the hit path keeps no value epochs (dline.version, pcache.epoch): only
 * check mode's data-value test reads them.  A row that keeps the copy's state (a load, a
 * store in M) then writes neither the directory entry nor the copies, as it would change
 * nothing there: the owner and its dirty bit of an E or M copy are already the core and
 * M-ness (check_core tests both).  A store still marks LLC copies stale (a prefetch for a
 * store takes M and leaves them valid), once per copy (cway.llc).  Check mode does all of
 * it, so that its tests see the table's own epochs. */
static inline __attribute__((always_inline)) void
hit_apply(struct mem *m, struct hier *h, const struct req *rq, const struct hier_ways *w,
	  struct mem_hit_rule *hr, bool may_write, bool in_flight, bool no_check,
	  struct outcome *out)
{
	struct cway *w2 = w->w2, *w1 = w->w1, *c = w1 ? w1 : w2; /* the nearer copy decides */
	uint32_t line = c->line;
	struct dline *dl = &m->dir.line[line];
	int next = hr->next_own;

	hr->nr++;
	/* Only what a hit's accounting and mem_demand_done() read: no zeroing of the rest
	 * (HITM, RFO, invalidations, the fill's flags, the buddy prefetch), which only a miss
	 * has and sets. */
	out->line = line;
	out->src = w1 ? SRC_L1 : SRC_L2;         /* hit (own_src: the data is there) */
	out->pf_used = !w1 && w2->pf;            /* an L1d copy's L2 twin is no unused prefetch */
	out->st_l1hit = hr->st_hit && w1;        /* count_st_hit */
	out->done = rq->now + (w1 ? m->mc->l1d.latency : m->mc->l2.latency);
	/* Else the data is on its way, in the fill buffer (own_src); it is done when the data is
	 * there (tm_ready).  The twins' fill completes at one time (hier_l1_fill copies it). */
	if (in_flight && __builtin_expect(c->ready_at > rq->now, 0)) {
		out->src = SRC_LFB;
		out->done = tm_ready(out->done, c->ready_at);
	}
	if (may_write && hr->write) {                  /* write_data, as apply_next_own */
		if (hit_check(m, no_check)) {
			mem_write_epoch(dl);
		} else if (c->llc) {
			/* Once marked, the LLC copies stay stale while the core keeps its copy
			 * in E or M: only a request on the line (which sets c->llc again) can
			 * make one valid.  Later store hits then leave the directory entry
			 * alone.  Its L2 twin keeps llc set, which only costs a write. */
			dl->llc_valid = 0;
			c->llc = 0;
		}
	}
	if (hit_check(m, no_check) || !hr->keeps) {
		hier_set_ways(h, w2, w1, next, &dl->version);
		/* The core holds a copy, so the directory lists it already (mem_check_line). */
		if (next == MESI_E || next == MESI_M) {
			dl->owner = (int16_t)rq->core;
			dl->dirty = next == MESI_M;
		}
	}
	hier_touch_ways(h, w);
	if (hit_check(m, no_check))
		mem_check_after(m, rq, out->line, hr->row->own, hr->row->others, hr->row,
				false); /* a hit is never dropped */
}

/* mem_hit - serve demand request @rq as mem_request_ways() would, without walking the table,
 * when it is a private hit (a row of m->hit, line not watched); @w holds its line's ways as
 * for mem_request_ways(), and with @indexed (a constant) their indices (hier_lookup_ways;
 * else they are worked out for a hit only); @no_check as for hit_rule().  Return: false,
 * with nothing changed, when it is not (then mem_request_ways() must serve it). */
static inline __attribute__((always_inline)) bool
mem_hit(struct mem *m, const struct req *rq, const struct hier_ways *w, bool indexed,
	bool no_check, struct outcome *out)
{
	struct hier *h = &m->core[rq->core];
	struct mem_hit_rule *hr;
	struct hier_ways wi;

	assert(rq->event < MEM_HIT_EVENTS); /* demand events only (mem.c) */
	/* An L1d copy is its L2 copy's twin (hier.h): what the hit decides on is read from the
	 * nearer one, the L2 way is only written. */
	if (!w->w2 || !(hr = hit_rule(m, w->w1 ? w->w1 : w->w2, rq->core,
				      &m->hit[0][0][rq->event], rq->event != EV_LOAD, no_check)))
		return false;
	if (!indexed) {
		wi = hier_ways_of(h, w->w2, w->w1);
		w = &wi;
	}
	hit_apply(m, h, rq, w, hr, rq->event != EV_LOAD, true, no_check, out);
	return true;
}

#endif
