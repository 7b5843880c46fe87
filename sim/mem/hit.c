/*
 * hit.c - the private-hit path: a demand request its core's own copy serves, changing nothing
 * any other core holds.
 *
 * It is the protocol table's own rows, not a second protocol: at set-up mem_hit_rules() takes
 * every row of the table (under the machine's variant) whose actions are only hit
 * [silent_upgrade] [write_data] [count_st_hit], that keeps the requester's copy and leaves the
 * others state as it was (a load in S, E or M; a store or RMW in M, or in E which silently
 * becomes M), and decodes what its actions do.  mem_hit() then serves such a request the
 * way mem_request_ways() runs that row (exec_actions, apply_next_own, hier_touch_ways,
 * tm_charge, tm_ready), with the two cache ways looked up once: the same latency, load
 * source, statistics, LRU touch, value epoch and action counts.  A copy whose data is still in
 * flight serves mem_hit() too, as the row does: a fill-buffer hit, done when the data arrives
 * (on the default scenario's `before` variant a tenth of the accesses: the buddy a miss
 * prefetched, the next line a streaming store fills); the memos leave it to the full path.
 * Anything else -- a miss, a row with any other action, a watched line -- goes the full way.
 * check_hit_path's proto_hit_path_matches_table runs every such row both ways and compares
 * all state.
 *
 * A hit's actions are counted per rule (mem_hit_rule.nr) and added to the table's counts
 * when they are read (mem_act_counts): the hit path is most of the accesses of every run.
 * mem_hit() and what it shares with the memos are in hit.h.
 */
#include "mem/hit.h"

#include <assert.h>
#include <string.h>

static bool hit_row(const struct proto_row *r, int own, int others)
{
	if (!r || own == MESI_I || r->next_own == MESI_I || r->next_others != others ||
	    r->act[0] != ACT_HIT)
		return false;
	for (int a = 1; a < PROTO_MAX_ACTIONS && r->act[a]; a++)
		if (r->act[a] != ACT_SILENT_UPGRADE && r->act[a] != ACT_WRITE_DATA &&
		    r->act[a] != ACT_COUNT_ST_HIT)
			return false;
	return true;
}

void mem_hit_rules(struct mem *m)
{
	for (int own = 0; own < MESI_COUNT; own++)
		for (int oth = 0; oth < MESI_COUNT; oth++)
			for (int ev = 0; ev < MEM_HIT_EVENTS; ev++) {
				const struct proto_row *r =
					proto_lookup(&m->pix, own, oth, ev, m->pvariant);
				struct mem_hit_rule *h = &m->hit[own][oth][ev];

				memset(h, 0, sizeof(*h));
				if (!hit_row(r, own, oth))
					continue;
				h->row = r;
				h->next_own = r->next_own;
				h->keeps = r->next_own == r->own;
				for (int a = 0; a < PROTO_MAX_ACTIONS && r->act[a]; a++) {
					h->write |= r->act[a] == ACT_WRITE_DATA;
					h->st_hit |= r->act[a] == ACT_COUNT_ST_HIT;
				}
				/* A load writes nothing: hit_rule() and hit_apply() skip the
				 * test for a load. */
				assert(!h->write || ev != EV_LOAD);
			}
}

void mem_act_counts(const struct mem *m, uint64_t out[ACT_COUNT])
{
	const struct mem_hit_rule *h = &m->hit[0][0][0];

	memcpy(out, m->act_count, sizeof(m->act_count));
	for (size_t i = 0; i < MESI_COUNT * MESI_COUNT * MEM_HIT_EVENTS; i++)
		for (int a = 0; h[i].row && a < PROTO_MAX_ACTIONS && h[i].row->act[a]; a++)
			out[h[i].row->act[a]] += h[i].nr;
}

uint64_t mem_hits_served(const struct mem *m)
{
	const struct mem_hit_rule *h = &m->hit[0][0][0];
	uint64_t n = 0;

	for (size_t i = 0; i < MESI_COUNT * MESI_COUNT * MEM_HIT_EVENTS; i++)
		n += h[i].nr;
	return n;
}

/* The demand event of a memo's operation (a locked RMW's is an RMW's):
 * inline, so that it is a constant where the operation is. */
static inline int memo_event(enum mem_op op)
{
	return op == MEM_LOAD ? EV_LOAD : op == MEM_STORE ? EV_STORE : EV_RMW;
}

/* @mm's line is in L1d way @i1 and L2 way @i2 of its core's caches, as far as it knows. */
static void memo_at(struct mem_memo *mm, size_t i1, size_t i2)
{
	struct hier *h = mm->h;

	mm->i1 = i1;
	mm->i2 = i2;
	mm->tag1 = &h->l1.tags[i1];
	mm->tag2 = &h->l2.tags[i2];
	mm->w1 = &h->l1.way[i1];
	mm->lru1 = &h->l1.lru[i1];
	mm->lru2 = &h->l2.lru[i2];
}

void mem_memo_init(struct mem *m, struct mem_memo *mm, int cpu, uint64_t addr, uint32_t size,
		   enum mem_op op, uint32_t site)
{
	uint64_t end = addr + (size ? size : 1) - 1;
	int core = m->cpu_core[cpu];
	bool ok = addr >> m->gshift == end >> m->gshift;
	simtime_t lat = m->mc->l1d.latency;

	*mm = (struct mem_memo){
		.tag = mem_line_addr(m, addr) + 1, .h = &m->core[core], .last_own = MESI_I,
		.lat = lat, .sb = &m->sb[cpu], .ring = sb_ring(m, cpu),
		.sb_n = m->mc->store_buffer, .cpu_one = CPUSET_ONE | (uint32_t)cpu,
		/* what access_line() (mem.c) returns after the hit */
		.step = op == MEM_LOAD ? lat : op == MEM_STORE ? m->mc->cycle : lat + m->mc->cycle,
		.rq = {.cpu = cpu, .core = core, .socket = mem_core_socket(m, core),
		       .la = mem_line_addr(m, addr), .off = (uint8_t)(addr & (m->gsize - 1)),
		       .event = (uint8_t)memo_event(op), .site = site, .caller = DIR_NONE,
		       .cause = DIR_NONE, .cause_orow = DIR_NONE},
		.hit = &m->hit[0][0][memo_event(op)], .op = (uint8_t)op, .line = DIR_NONE,
		.ok = ok};
	memo_at(mm, 0, 0);
}

/* Is the copy of @mm's line still in the L1d and L2 ways it remembers?  A cache holds a
 * line at most once, so a way with its tag is its way, however it was found. */
static inline bool memo_ways_hold(const struct mem_memo *mm)
{
	return *mm->tag1 == mm->tag && *mm->tag2 == mm->tag;
}

/* Find @mm's line in its core's caches again (the ways were reused) and remember its ways:
 * true when L1d has it.  Else the access is no memo's hit: serve it by the full path, with
 * the ways just found, into *@next. */
static bool memo_find(struct mem *m, struct mem_memo *mm, simtime_t now, simtime_t *next)
{
	struct cway *w1 = NULL, *w2 = NULL;

	/* A core holds a copy only if the directory lists it (mem_check_line): a copy another
	 * core's request took is not looked for.  Check mode looks, and reports a directory
	 * that lies. */
	if (m->check || mm->line == DIR_NONE || dir_has(&m->dir, mm->line, mm->rq.core))
		w2 = hier_lookup(mm->h, mm->rq.la, &w1);
	if (!w1)
		return !mem_memo_miss(m, mm, w2, w1, now, next);
	memo_at(mm, (size_t)(w1 - mm->h->l1.way), (size_t)(w2 - mm->h->l2.way));
	return true;
}

/* What access_line() and demand() (mem.c) do around a hit, for a memo's access of @op: the
 * store buffer, the access's completion, the last request.  Inlined once per operation with
 * @op known, so that nothing in it branches on the operation. */
static inline __attribute__((always_inline)) bool
memo_serve(struct mem *m, struct mem_memo *mm, simtime_t now, simtime_t *next,
	   const enum mem_op op)
{
	struct hier_ways w;
	struct mem_hit_rule *hr;
	struct outcome o;

	if (!m->hit_fast || m->failed)
		return false;
	if (!memo_ways_hold(mm) && !memo_find(m, mm, now, next))
		return true;
	w = (struct hier_ways){.w2 = mm->h->l2.way + mm->i2, .w1 = mm->h->l1.way + mm->i1,
			       .i2 = mm->i2, .i1 = mm->i1};
	/* A fill-buffer hit goes the full way: a memo's hit is most accesses of the runs that
	 * use memos, where a fill in flight is rare.  Data there at @now is there at a store's
	 * later slot in the store buffer too. */
	if (w.w1->ready_at > now ||
	    !(hr = hit_rule(m, w.w1, mm->rq.core, mm->hit, op != MEM_LOAD, false)))
		return mem_memo_miss(m, mm, w.w2, w.w1, now, next);
	/* A rule that keeps an exclusive copy's state serves its next hits too (memo_hit),
	 * outside check mode (where hit_apply() does all of it).  So a memo that memo_full()
	 * refuses (crossing a line, private hits by the table) gets none. */
	if (!m->check && hr->row->own != MESI_S && hr->row->next_own == hr->row->own) {
		mm->last_hr = hr;
		mm->last_own = hr->row->own;
	}
	mm->rq.now = op == MEM_STORE ? sb_slot(m, mm->rq.cpu, now) : now;
	hit_apply(m, mm->h, &mm->rq, &w, hr, op != MEM_LOAD, false, false, &o);
	if (m->failed) { /* an invariant broke (check mode): as mem_access_from() returns */
		m->last_line = DIR_NONE;
		*next = now;
		return true;
	}
	acct_hit_regs(m, &mm->rq, memo_event(op), &o);
	m->last_line = mem_demand_done(m, &o);
	if (op == MEM_STORE)
		sb_push(m, mm->rq.cpu, o.done);
	*next = op == MEM_LOAD ? o.done : op == MEM_STORE ? mm->rq.now + m->mc->cycle
							  : o.done + m->mc->cycle;
	return true;
}

/* A locked RMW waits for the store buffer and holds its line, which no hit path does: its
 * memo only finds the line's ways, and the full path serves it with them. */
static bool memo_locked(struct mem *m, struct mem_memo *mm, simtime_t now, simtime_t *next)
{
	if (!m->hit_fast || m->failed)
		return false;
	if (!memo_ways_hold(mm) && !memo_find(m, mm, now, next))
		return true;
	return mem_memo_miss(m, mm, mm->h->l2.way + mm->i2, mm->h->l1.way + mm->i1, now, next);
}

/* Is @mm's copy gone: its ways no longer hold its line, and the directory does not list its
 * core (a copy is listed: mem_check_line), outside check mode?  Then memo_find() finds no way
 * and serves the access by mem_memo_miss(), whatever the operation. */
static inline bool memo_gone(const struct mem *m, const struct mem_memo *mm)
{
	return !m->check && mm->line != DIR_NONE && !memo_ways_hold(mm) &&
	       !dir_has(&m->dir, mm->line, mm->rq.core);
}

/* memo_serve() of @mm's operation, for what memo_hit() leaves: one branch on the operation,
 * here, instead of one in each test of it (2.4% fewer instructions on uncontended-80).
 * Return: its *next, MEM_MEMO_REFUSED when it may not serve the access. */
static __attribute__((noinline)) simtime_t memo_full(struct mem *m, struct mem_memo *mm,
						     simtime_t now)
{
	simtime_t next;
	bool served;

	if (!mm->ok)
		return MEM_MEMO_REFUSED;
	/* As memo_serve() and memo_locked() would, a tail call: memo_full() saves no register
	 * for it (most of contended-80's misses, whose lines another core took). */
	if (m->hit_fast && !m->failed && memo_gone(m, mm))
		return mem_memo_gone(m, mm, now);
	switch (mm->op) {
	case MEM_LOAD:
		served = memo_serve(m, mm, now, &next, MEM_LOAD);
		break;
	case MEM_STORE:
		served = memo_serve(m, mm, now, &next, MEM_STORE);
		break;
	case MEM_RMW:
		served = memo_serve(m, mm, now, &next, MEM_RMW);
		break;
	default:
		served = memo_locked(m, mm, now, &next);
	}
	return served ? next : MEM_MEMO_REFUSED;
}

/* acct_hit() of memo_hit()'s access of @mm at @at, by rule @hr on line @l, when the line has
 * statistics of its own or another CPU touched it: out of the access path.  Return: what
 * memo_hit() returns. */
static __attribute__((noinline)) simtime_t memo_acct(struct mem *m, struct mem_memo *mm,
						     const struct mem_hit_rule *hr, uint32_t l,
						     simtime_t at)
{
	struct outcome o = {.line = l, .src = SRC_L1, .st_l1hit = hr->st_hit,
			    .done = at + mm->lat, .pf_event = EV_COUNT};

	mm->rq.now = at;
	acct_hit_regs(m, &mm->rq, mm->rq.event, &o);
	return mm->rq.now + mm->step;
}

/* memo_serve() of @mm (of @op) when its copy is still in its ways in L1d, in the state of
 * the rule that served it last (mem_memo.last_hr) and its data there: most accesses of a
 * run.  Then what hit_rule() decides is that rule, and what hit_apply() does comes down to
 * the LRU touch, the rule's count and a store's LLC mark (the rule's row keeps the copy's
 * state and, outside check mode, leaves the directory and the epochs alone); the rest it
 * leaves to memo_full(), which tests all again, as nothing is changed before it is sure.
 * The accounting of a line untracked and touched by its CPU alone, most of a run's, is the
 * totals.  Return: as memo_full(). */
static inline __attribute__((always_inline)) simtime_t
memo_hit(struct mem *m, struct mem_memo *mm, simtime_t now, const enum mem_op op)
{
	struct cway *c = mm->w1;
	struct mstats *s = &m->st;
	struct mem_hit_rule *hr = mm->last_hr;
	struct outcome o = {.src = SRC_L1}; /* what acct_line() reads of it */
	simtime_t at, done;
	uint32_t l;

	if (m->failed || *mm->tag1 != mm->tag || *mm->tag2 != mm->tag ||
	    c->state != mm->last_own || c->ready_at > now)
		return memo_full(m, mm, now);
	l = c->line;
	if (op != MEM_LOAD && hr->write && mem_watched(m, l))
		return memo_full(m, mm, now);
	at = op == MEM_STORE ? sb_slot_in(mm->sb, mm->ring, mm->sb_n, now) : now;
	hr->nr++;
	if (op != MEM_LOAD && hr->write && c->llc) { /* as hit_apply() */
		m->dir.line[l].llc_valid = 0;
		c->llc = 0;
	}
	*mm->lru2 = ++mm->h->l2.clock; /* pcache_touch_at() of both */
	*mm->lru1 = ++mm->h->l1.clock;
	done = at + mm->lat;
	m->st.accesses++; /* mem_demand_done() */
	m->last_done = done;
	m->last_src = SRC_L1;
	m->last_line = l;
	if (op == MEM_STORE)
		sb_push_in(mm->sb, mm->ring, mm->sb_n, done);
	if (s->cpus[l] != mm->cpu_one || s->rec_of[l] != DIR_NONE)
		return memo_acct(m, mm, hr, l, at);
	o.st_l1hit = hr->st_hit;
	acct_line(s, DIR_NONE, memo_event(op), &o, mm->lat, true, PUT_TOTALS);
	return at + mm->step;
}

simtime_t mem_memo_load(struct mem *m, struct mem_memo *mm, simtime_t now)
{
	return memo_hit(m, mm, now, MEM_LOAD);
}

simtime_t mem_memo_store(struct mem *m, struct mem_memo *mm, simtime_t now)
{
	return memo_hit(m, mm, now, MEM_STORE);
}

simtime_t mem_memo_rmw(struct mem *m, struct mem_memo *mm, simtime_t now)
{
	return memo_hit(m, mm, now, MEM_RMW);
}

simtime_t mem_memo_locked(struct mem *m, struct mem_memo *mm, simtime_t now)
{
	return memo_full(m, mm, now);
}

bool mem_access_memo(struct mem *m, struct mem_memo *mm, simtime_t now, simtime_t *next)
{
	simtime_t t = mem_memo_op(m, mm, (enum mem_op)mm->op, now);

	if (t == MEM_MEMO_REFUSED)
		return false;
	*next = t;
	return true;
}
