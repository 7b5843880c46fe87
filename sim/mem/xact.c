/*
 * xact.c - transitions: a request meets the protocol table (request -> row -> actions -> next
 * state).  See mem.h for the design and protocol.h for the tables.
 *
 * Everything here is written as if requests never overlapped: a request is applied whole at
 * its issue time, and the one place where concurrent requests meet is the line's busy_until,
 * which only the timing module (timing.h) writes.
 */
#include "mem/mem_int.h"

#include <assert.h>
#include <glib.h>
#include <string.h>

#include "core/limits.h"
#include "mem/timing.h"

/* What the actions of one row decided, for the rest of the request. */
struct exec {
	simtime_t lat;
	bool home;          /* the request reaches the home: it queues behind busy_until */
	bool c2c;           /* a transfer or invalidation holds the line until done */
	bool hitm;          /* a count_*hitm action made the transfer a HITM */
	bool write;
	bool in_l1;         /* demand request found the line in L1d (else L2) */
	bool pf;            /* the copy found arrived by prefetch, unused so far */
	simtime_t ready_at; /* when the requester's own copy has its data (hits wait for it) */
	struct cway *victim; /* a miss: the L2 way its fill takes (pcache_victim) */
	struct cway *w2;     /* else the L2 way of the requester's copy */
	struct cway *w1;     /* and, for a demand request, its L1d way (NULL: not in L1d) */
	/* The first way of the line's L2 set (pcache_set_index): the same in every core's L2,
	 * of one geometry (mem_new), so the owner's and the sharers' lookups use it too. */
	size_t s2;
	bool demand;
	/* The line's directory entry, found once: no entry is added while a request runs (an
	 * L2 victim's eviction is a request on a line that has one). */
	struct dline *dl;
};

uint32_t mem_line_new(struct mem *m, uint64_t la)
{
	uint32_t obj, mem, idx;
	uint16_t home;

	if (m->lim && m->dir.nr >= m->lim->lines && !m->failed) {
		/* Host memory: stop here (the line is still added, so the index stays valid). */
		limits_fail(m->fail_msg, sizeof(m->fail_msg), m->lim, LIMIT_OF(lines),
			    "in the directory");
		m->failed = m->limit_reached = true;
	}
	/* Named after the object at its first byte; homed where the memory of any object in it
	 * is (a 128-byte unit can begin in padding). */
	mem = OBJ_NONE;
	obj = m->objs ? objmap_find_unit(m->objs, la, la + m->gsize, &mem) : OBJ_NONE;
	home = mem != OBJ_NONE ? m->objs->v[mem].node : 0;
	idx = dir_insert(&m->dir, la, home);
	mstats_add_line(&m->st, idx, obj, la, la + m->gsize);
	return idx;
}

/* Remove @core's copy of line @idx, in its L2 way @w2, from its caches and from the
 * directory. */
static void core_invalidate(struct mem *m, int core, uint32_t idx, struct cway *w2)
{
	struct hier *h = &m->core[core];

	hier_drop_ways(h, w2, hier_l1_way(h, w2, m->dir.line[idx].addr));
	dir_del_sharer(&m->dir, idx, core);
}

/* A private copy of line @idx leaves @core (its L2 way @w2) by an evict action.  The LLC is
 * non-inclusive: the copy goes into the LLC of its @socket. */
static void evict_copy(struct mem *m, int core, int socket, uint32_t idx, struct cway *w2)
{
	m->dir.line[idx].llc_valid |= 1u << socket;
	core_invalidate(m, core, idx, w2);
}

/* The owner's side: @core receives @msg about line @idx (of L2 set @s2: exec.s2); its own
 * table row says what its copy does.  @member: @core is known to be in the line's sharer set
 * (send_inv walks it), so its removal tests nothing (dir_del_member).  Return: false (the run
 * failed) when the table has no row for the copy's state. */
static inline __attribute__((always_inline)) bool
owner_msg(struct mem *m, struct dline *dl, uint32_t idx, int core, int msg, bool member,
	  size_t s2, simtime_t now)
{
	struct hier *h = &m->core[core];
	/* Once, for the row and its effect. */
	struct cway *w1, *w2 = hier_lookup_l2_in(h, dl->addr, s2, &w1);
	const struct mem_orow *r = &m->orows[w2 ? w2->state : MESI_I][msg];

	if (!r->valid) {
		mem_fail(m, now, idx, "no owner-side row for core %d in %s receiving %s", core,
			 mesi_names[w2 ? w2->state : MESI_I], proto_msg_names[msg]);
		return false;
	}
	if (r->acts >> OACT_SEND_DATA & 1)
		m->oact_count[OACT_SEND_DATA]++;
	if (r->acts >> OACT_WRITEBACK & 1) {
		m->oact_count[OACT_WRITEBACK]++;
		dl->llc_valid |= 1u << mem_core_socket(m, core);
	}
	if (r->next_own == MESI_I) {
		if (w2) /* as core_invalidate(), with both ways known */
			hier_drop_ways(h, w2, w1);
		if (member)
			dir_del_member(&m->dir, dl, core);
		else
			dir_del_sharer(&m->dir, idx, core);
	} else {
		if (w2)
			hier_set_ways(h, w2, w1, r->next_own, NULL);
		if (dl->owner == core) {
			dl->owner = -1;
			dl->dirty = 0;
		}
	}
	return true;
}

/* @core, in the sharer set of line @idx (entry @dl), receives MSG_INV: a Shared copy, when
 * the table's row only drops it (m->inv_drops_shared), goes at once; any other by its row. */
static inline __attribute__((always_inline)) void
drop_shared(struct mem *m, struct dline *dl, uint32_t idx, int core, size_t s2, simtime_t now)
{
	struct hier *h = &m->core[core];
	struct cway *w1, *w2 = hier_lookup_l2_in(h, dl->addr, s2, &w1);

	if (w2 && w2->state == MESI_S && m->inv_drops_shared) {
		hier_drop_ways(h, w2, w1); /* the row's next state, I */
		dir_del_member(&m->dir, dl, core); /* and its sharer bit */
	} else {
		owner_msg(m, dl, idx, core, MSG_INV, true, s2, now);
	}
}

/* Invalidate every sharer of line @idx (entry @dl, L2 set @s2) but @rq's core.  Return: the
 * cost; *n gets how many copies went. */
static inline __attribute__((always_inline)) simtime_t
send_inv(struct mem *m, struct dline *dl, uint32_t idx, size_t s2, const struct req *rq,
	 uint32_t *n)
{
	uint64_t sh[C2C_MAX_CPUS / 64];
	const uint64_t *set = dir_sharer_set(&m->dir, idx, sh);
	bool remote = false;

	/* Each invalidation below takes its core out of the directory's set, but only its own
	 * bit, of the word already read: a word is read when its turn comes, and the set is
	 * not copied (a pool set stays the line's: dir_del_sharer). */
	*n = 0;
	for (uint32_t w = 0; w < m->dir.words_core; w++) {
		uint64_t bits = set[w];

		while (bits) {
			int c = (int)(w * 64 + (uint32_t)__builtin_ctzll(bits));

			bits &= bits - 1;
			if (c == rq->core)
				continue;
			remote |= mem_core_socket(m, c) != rq->socket;
			drop_shared(m, dl, idx, c, s2, rq->now);
			(*n)++;
		}
	}
	return tm_inv(m->mc, remote, *n);
}

/* A cache-to-cache transfer from the owner of line @idx (fwd_gets / fwd_getx). */
static inline __attribute__((always_inline)) void
forward(struct mem *m, const struct req *rq, uint32_t idx, int msg, struct exec *x,
	struct outcome *o)
{
	struct dline *dl = x->dl;
	int owner = dl->owner;

	x->home = x->c2c = o->from_cache = true;
	x->lat = tm_fwd(m->mc, mem_core_socket(m, owner), rq->socket, dl->home, x->hitm, &o->src);
	owner_msg(m, dl, idx, owner, msg, false, x->s2, rq->now);
	if (msg == MSG_FWD_GETX)
		o->nr_inv++;
}

/* The row found the line Modified in another core: the transfer is a HITM (its source). */
static inline __attribute__((always_inline)) void
count_hitm(struct mem *m, const struct req *rq, uint32_t idx, struct exec *x,
	   struct outcome *o)
{
	x->hitm = true;
	o->src = tm_hitm_src(mem_core_socket(m, x->dl->owner), rq->socket);
}

/* The source of data served by the requester's own copy: L1d or L2, or the fill buffer when
 * the copy's fill has not completed (the data is still on its way). */
static inline __attribute__((always_inline)) int
own_src(const struct req *rq, const struct exec *x)
{
	if (x->ready_at > rq->now)
		return SRC_LFB;
	return x->in_l1 ? SRC_L1 : SRC_L2;
}

/* The order exec_actions runs a row's set in.  Every row lists its actions in it
 * (proto_row_valid's phases; in phase 1 a row has one action but for writeback, evict), which
 * mem_decode_rows checks: a row runs as listed. */
static const uint8_t act_order[] = {
	ACT_DROP_PF, ACT_COUNT_HITM, ACT_COUNT_RFO_HITM, ACT_COUNT_PF_HITM, ACT_HIT, ACT_UPGRADE,
	ACT_FILL_MEM, ACT_FILL_SHARER, ACT_FWD_GETS, ACT_FWD_GETX, ACT_WRITEBACK, ACT_SEND_INV,
	ACT_SILENT_UPGRADE, ACT_WRITE_DATA, ACT_EVICT, ACT_COUNT_ST_HIT, ACT_COUNT_ST_MISS,
	ACT_PF_BUDDY, ACT_PF_BUDDY_RFO,
};

void mem_decode_rows(struct mem *m)
{
	uint8_t rank[ACT_COUNT] = {0};

	for (unsigned i = 0; i < sizeof(act_order); i++)
		rank[act_order[i]] = (uint8_t)i;
	for (int own = 0; own < MESI_COUNT; own++)
		for (int oth = 0; oth < MESI_COUNT; oth++)
			for (int ev = 0; ev < EV_COUNT; ev++) {
				const struct proto_row *r =
					proto_lookup(&m->pix, own, oth, ev, m->pvariant);
				struct mem_row *d = &m->rows[own][oth][ev];

				*d = (struct mem_row){.r = r, .next_own = r ? r->next_own : MESI_I};
				for (int a = 0; r && a < PROTO_MAX_ACTIONS && r->act[a]; a++) {
					/* A set keeps the list's order only if it is act_order's. */
					g_assert(a == 0 || rank[r->act[a - 1]] < rank[r->act[a]]);
					d->acts |= 1u << r->act[a];
				}
			}
	for (int own = 0; own < MESI_COUNT; own++)
		for (int msg = 0; msg < MSG_COUNT; msg++) {
			const struct proto_orow *r = proto_olookup(&m->pix, own, msg);
			struct mem_orow *d = &m->orows[own][msg];

			*d = (struct mem_orow){.valid = r, .next_own = r ? r->next_own : MESI_I};
			for (int a = 0; r && a < PROTO_MAX_OACTIONS && r->act[a]; a++)
				d->acts |= (uint8_t)(1u << r->act[a]);
		}
	m->inv_drops_shared = m->orows[MESI_S][MSG_INV].valid && !m->orows[MESI_S][MSG_INV].acts &&
			      m->orows[MESI_S][MSG_INV].next_own == MESI_I;
}

/* Is @act in the row's set @acts?  Then it runs: count it. */
static inline bool runs(struct mem *m, uint32_t acts, int act)
{
	if (!(acts >> act & 1))
		return false;
	m->act_count[act]++;
	return true;
}

/* The actions of exec_actions() that reach the home or another core. */
static inline __attribute__((always_inline)) void
exec_transfer(struct mem *m, const struct req *rq, uint32_t idx, uint32_t acts, struct exec *x,
	      struct outcome *o)
{
	struct dline *dl = x->dl;

	if (runs(m, acts, ACT_FILL_MEM)) {
		x->home = true;
		x->lat = tm_fill_mem(m->mc, dl, rq->socket, &o->src);
	}
	if (runs(m, acts, ACT_FILL_SHARER)) {
		uint64_t set[C2C_MAX_CPUS / 64];

		x->home = true;
		x->lat = tm_fill_sharer(m->mc, dl, dir_sharer_set(&m->dir, idx, set), rq->core,
					rq->socket, &o->src);
		o->from_cache = o->src != SRC_LLC || !(dl->llc_valid >> rq->socket & 1);
	}
	if (runs(m, acts, ACT_FWD_GETS))
		forward(m, rq, idx, MSG_FWD_GETS, x, o);
	if (runs(m, acts, ACT_FWD_GETX))
		forward(m, rq, idx, MSG_FWD_GETX, x, o);
	if (runs(m, acts, ACT_WRITEBACK))
		dl->llc_valid |= 1u << rq->socket;
	if (runs(m, acts, ACT_SEND_INV)) {
		uint32_t n;
		simtime_t inv = send_inv(m, dl, idx, x->s2, rq, &n);

		x->home = x->c2c = true;
		o->nr_inv += n;
		if (inv > x->lat) /* parallel with the data: the slower counts */
			x->lat = inv;
	}
}

/* Run the actions of the row (its set @acts) for @rq on line @idx, each branch predicted per
 * row (a switch over the list was one indirect branch for every action).  Return: false if
 * the prefetch was dropped. */
static inline __attribute__((always_inline)) bool
exec_actions(struct mem *m, const struct req *rq, uint32_t acts, uint32_t idx, struct exec *x,
	     struct outcome *o)
{
	if (runs(m, acts, ACT_DROP_PF)) { /* alone in its row */
		o->dropped = true;
		return false;
	}
	if (acts & (1u << ACT_COUNT_HITM | 1u << ACT_COUNT_RFO_HITM | 1u << ACT_COUNT_PF_HITM)) {
		o->hitm = runs(m, acts, ACT_COUNT_HITM);
		o->rfo_hitm = runs(m, acts, ACT_COUNT_RFO_HITM);
		o->pf_hitm = runs(m, acts, ACT_COUNT_PF_HITM);
		count_hitm(m, rq, idx, x, o);
	}
	if (runs(m, acts, ACT_HIT)) {
		x->lat = x->in_l1 ? m->mc->l1d.latency : m->mc->l2.latency;
		o->src = own_src(rq, x);
		o->pf_used = x->pf;
	}
	if (runs(m, acts, ACT_UPGRADE)) {
		x->home = true;
		x->lat = m->mc->llc.latency;
		o->src = own_src(rq, x);
		o->pf_used = x->pf;
	}
	exec_transfer(m, rq, idx, acts, x, o);
	runs(m, acts, ACT_SILENT_UPGRADE); /* E -> M: the copy is exclusive, nobody is told */
	if (runs(m, acts, ACT_WRITE_DATA))
		x->write = true;
	if (runs(m, acts, ACT_EVICT))
		evict_copy(m, rq->core, rq->socket, idx, x->w2);
	if (runs(m, acts, ACT_COUNT_ST_HIT))
		o->st_l1hit = x->in_l1;
	if (runs(m, acts, ACT_COUNT_ST_MISS))
		o->st_l1hit = false;
	if (runs(m, acts, ACT_PF_BUDDY))
		o->pf_event = EV_PF_LOAD;
	if (runs(m, acts, ACT_PF_BUDDY_RFO))
		o->pf_event = EV_PF_STORE;
	return true;
}

#define A(act) (1u << ACT_##act)
/* The action sets of the misses on a line another core holds, most of a contended run's
 * requests: a HITM's forward (a load's, an RMW's, a store's RFO, a prefetch's steal), a
 * store's or an RFO prefetch's invalidation of the sharers, a load from a sharer.  Each gets
 * its own copy of exec_actions() and what follows with the set a constant (row_run_shaped),
 * so that none of its tests runs; any other set takes the general copy. */
#define MISS_SHAPES(X)                                                                      \
	X(A(COUNT_HITM) | A(FWD_GETS) | A(PF_BUDDY))                                         \
	X(A(COUNT_HITM) | A(FWD_GETX) | A(WRITE_DATA) | A(COUNT_ST_MISS) | A(PF_BUDDY_RFO))   \
	X(A(COUNT_RFO_HITM) | A(FWD_GETX) | A(WRITE_DATA) | A(COUNT_ST_MISS) |               \
	  A(PF_BUDDY_RFO))                                                                    \
	X(A(COUNT_PF_HITM) | A(FWD_GETS))                                                    \
	X(A(FILL_SHARER) | A(SEND_INV) | A(WRITE_DATA) | A(COUNT_ST_MISS) | A(PF_BUDDY_RFO))  \
	X(A(FILL_SHARER) | A(SEND_INV))                                                      \
	X(A(FILL_SHARER) | A(PF_BUDDY))                                                      \
	X(A(FILL_MEM) | A(PF_BUDDY))                                                         \
	X(A(FILL_MEM) | A(WRITE_DATA) | A(COUNT_ST_MISS) | A(PF_BUDDY_RFO))                  \
	X(A(FILL_MEM))

/* The action sets of a store's or an RFO prefetch's upgrade of a Shared copy, alone or with
 * the other sharers' invalidation (row_run_shaped). */
#define HELD_SHAPES(X)                                                                      \
	X(A(UPGRADE) | A(WRITE_DATA) | A(COUNT_ST_MISS) | A(PF_BUDDY_RFO))                   \
	X(A(UPGRADE) | A(SEND_INV) | A(WRITE_DATA) | A(COUNT_ST_MISS) | A(PF_BUDDY_RFO))     \
	X(A(UPGRADE) | A(SEND_INV))                                                          \
	X(A(UPGRADE))


/* The rows an L2 victim's eviction takes when nothing else happens: its copy leaves (evict),
 * a dirty one after its writeback, and nothing reaches the home or another core. */
#define EVICT_ONLY_ACTS (1u << ACT_WRITEBACK | 1u << ACT_EVICT)

/* Empty @core's L2 way @v, the one a miss found (pcache_victim: no action of a miss row
 * touches the requester's caches): its line goes through the protocol's EVICT row, from that
 * way (a lookup of its line would find it: no other way of the set has its tag).  A row of
 * EVICT_ONLY_ACTS runs here, as mem_request_ways() would run it: no time is charged and no
 * state is left to apply (it leaves the copy invalid); check mode and every other row go
 * through mem_request_ways().  Out of line: most fills find an empty way. */
static __attribute__((noinline)) void evict_victim(struct mem *m, int core, struct cway *v,
						   simtime_t now)
{
	const struct pcache *l2 = &m->core[core].l2;
	const struct mem_row *r;
	uint32_t idx = v->line;
	int socket = mem_core_socket(m, core);

	r = &m->rows[v->state][mem_others(m, idx, core, v->state)][EV_EVICT];
	if (r->r && !m->check && !(r->acts & ~EVICT_ONLY_ACTS) && r->next_own == MESI_I) {
		/* A dirty copy's data goes into the LLC with the copy (evict, below). */
		runs(m, r->acts, ACT_WRITEBACK);
		if (runs(m, r->acts, ACT_EVICT))
			evict_copy(m, core, socket, idx, v);
	} else {
		struct req ev = {.cpu = -1, .core = core, .socket = socket,
				 .la = pcache_addr(l2, v), .event = EV_EVICT, .cause = DIR_NONE,
				 .cause_orow = DIR_NONE, .now = now};
		struct outcome o;

		mem_request_ways(m, &ev, v, NULL, &o);
	}
	assert(!pcache_tag(l2, v));
}

/* Make room in @core's L2 in way @v, the one a miss found (evict_victim). */
static inline __attribute__((always_inline)) struct cway *
l2_slot(struct mem *m, int core, struct cway *v, simtime_t now)
{
	if (pcache_tag(&m->core[core].l2, v))
		evict_victim(m, core, v, now);
	return v;
}

/* Give the requester its next state and keep the directory's owner in step.  A fill's data
 * arrives at @done. */
static inline __attribute__((always_inline)) void
apply_next_own(struct mem *m, const struct req *rq, uint32_t idx, int own, int next_own,
	       const struct exec *x, simtime_t done, struct outcome *o)
{
	struct dline *dl = x->dl;

	if (x->write)
		mem_write_epoch(dl);
	if (next_own == MESI_I)
		return;
	if (own == MESI_I) {
		struct cway *slot = l2_slot(m, rq->core, x->victim, rq->now);

		hier_install(&m->core[rq->core], slot, rq->la, idx, next_own, dl->version,
			     rq->prefetch, done);
		o->filled = true;
	} else {
		struct hier *h = &m->core[rq->core];

		/* A demand request knows both ways (nothing since changed a tag); a prefetch or an
		 * eviction the L2 one, which names the L1d one (hier_l1_way). */
		struct cway *w1 = x->demand ? x->w1 : hier_l1_way(h, x->w2, rq->la);

		hier_set_ways(h, x->w2, w1, next_own, &dl->version);
	}
	dir_add_sharer_at(&m->dir, dl, idx, rq->core);
	if (next_own == MESI_E || next_own == MESI_M) {
		dl->owner = (int16_t)rq->core;
		dl->dirty = next_own == MESI_M;
	}
}

void mem_check_after(struct mem *m, const struct req *rq, uint32_t idx, int own, int others,
		     const struct proto_row *r, bool dropped)
{
	int now_others = mem_others(m, idx, rq->core, r->next_own);

	mem_trail_push(m, rq->now, rq->cpu, rq->la, rq->event, own, others, r->next_own,
		       r->next_others);
	if (!dropped && now_others != r->next_others)
		mem_fail(m, rq->now, idx, "row %s/%s/%s left others in %s (expected %s)",
			 mesi_names[own], mesi_names[others], proto_event_names[rq->event],
			 mesi_names[now_others], mesi_names[r->next_others]);
	mem_check_access(m, idx, rq->now);
}

/* The table has no row for @rq on line @idx (from @own, @others): the run fails. */
static __attribute__((noinline, cold)) void
no_row(struct mem *m, const struct req *rq, uint32_t idx, int own, int others)
{
	mem_fail(m, rq->now, idx, "no protocol row for own=%s others=%s event=%s (%s)",
		 mesi_names[own], mesi_names[others], proto_event_names[rq->event],
		 proto_impossible_reason(own, others, rq->event) ?: "missing row");
}

/* The rest of request_ways() once the row is found: run its actions (the set @acts), price
 * the request, apply the next states. */
static inline __attribute__((always_inline)) void
row_run(struct mem *m, const struct req *rq, uint32_t acts, uint32_t idx, int own, int others,
	const struct mem_row *r, struct exec *x, struct outcome *out)
{
	struct hier *h = &m->core[rq->core];
	bool applies = exec_actions(m, rq, acts, idx, x, out);

	/* Priced before the next states are applied, so that a fill installs its copy with the
	 * time its data arrives: applying them never reaches this line's busy_until (an L2
	 * victim's EVICT row does not go to the home). */
	out->done = tm_charge(m->mc, x->dl, rq->now, x->lat, x->home, x->c2c);
	if (applies)
		apply_next_own(m, rq, idx, own, r->next_own, x, out->done, out);
	if (x->demand && own != MESI_I && r->next_own != MESI_I) {
		struct hier_ways hw = hier_ways_of(h, x->w2, x->w1);

		hier_touch_ways(h, &hw);
	}
	if (own != MESI_I)
		/* The copy was there, but maybe not its data: the one race with an earlier fill. */
		out->done = tm_ready(out->done, x->ready_at);
	if (x->write && mem_watched(m, idx) && m->on_write)
		m->on_write(m->on_write_data, idx, out->done);
	if (m->check) {
		assert(out->done >= rq->now); /* tm_charge, tm_ready: never earlier */
		mem_check_after(m, rq, idx, own, others, r->r, out->dropped);
	}
}

#define SHAPE_CASE(set)                                                                      \
	case set:                                                                            \
		row_run(m, rq, set, idx, own, others, r, x, out);                            \
		return;

/* row_run() by its copy for the row's set when it has one: MISS_SHAPES for a miss (the
 * requester holds no copy), HELD_SHAPES for a request on a copy it holds (@held: a constant
 * in mem_request_absent's copy, so one switch is left there). */
static inline __attribute__((always_inline)) void
row_run_shaped(struct mem *m, const struct req *rq, bool held, uint32_t acts, uint32_t idx,
	       int own, int others, const struct mem_row *r, struct exec *x, struct outcome *out)
{
	if (held) {
		switch (acts) {
			HELD_SHAPES(SHAPE_CASE)
		}
	} else {
		switch (acts) {
			MISS_SHAPES(SHAPE_CASE)
		}
	}
	row_run(m, rq, acts, idx, own, others, r, x, out);
}
#undef SHAPE_CASE
#undef A

/* mem_request_ways(), inlined twice with all it runs: as it is, and for a line the requester
 * does not hold (mem_request_absent, with its directory index @line), where the ways' tests
 * fold away. */
static inline __attribute__((always_inline)) void
request_ways(struct mem *m, const struct req *rq, struct cway *w2, struct cway *w1,
	     uint32_t line, struct outcome *out)
{
	struct hier *h = &m->core[rq->core];
	bool demand = !rq->prefetch && rq->event != EV_EVICT;
	struct exec x = {.w2 = w2, .w1 = demand ? w1 : NULL, .demand = demand};
	uint32_t idx = w2 ? w2->line : line;
	int own = w2 ? w2->state : MESI_I, others;

	x.dl = &m->dir.line[idx];
	x.s2 = pcache_set_index(&h->l2, rq->la);
	others = mem_others_dl(x.dl, rq->core, own);
	const struct mem_row *r = &m->rows[own][others][rq->event];

	if (w2) {
		x.in_l1 = demand && w1;
		x.pf = w2->pf;
		x.ready_at = w2->ready_at;
	} else if (r->r && r->next_own != MESI_I) {
		/* A miss that fills (a dropped prefetch does not: no victim to look for). */
		x.victim = pcache_victim_in(&h->l2, x.s2);
		/* If the fill evicts a line, its directory entry, long untouched, is a host
		 * cache miss: start it now, under the rest of the request. */
		if (pcache_tag(&h->l2, x.victim))
			__builtin_prefetch(&m->dir.line[x.victim->line]);
	}

	memset(out, 0, sizeof(*out));
	out->line = idx;
	out->pf_event = EV_COUNT;
	if (!r->r) {
		no_row(m, rq, idx, own, others);
		out->done = rq->now;
		return;
	}
	row_run_shaped(m, rq, w2 != NULL, r->acts, idx, own, others, r, &x, out);
}

void mem_request_ways(struct mem *m, const struct req *rq, struct cway *w2, struct cway *w1,
		      struct outcome *out)
{
	request_ways(m, rq, w2, w1, w2 ? w2->line : mem_line_index(m, rq->la), out);
}

void mem_request_absent(struct mem *m, const struct req *rq, uint32_t idx, struct outcome *out)
{
	/* (Asked in check mode only: outside it the lookup would cost what @idx saves.) */
	assert(!m->check || idx == dir_find(&m->dir, rq->la));
	request_ways(m, rq, NULL, NULL, idx, out);
}
