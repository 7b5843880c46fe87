/*
 * mem.c - the memory system's entry points: an access becomes one demand request per line,
 * through the store buffer for stores; set-up and queries.  See mem.h for the design and
 * mem_int.h for how the work is split between the modules.
 */
#include "mem/hit.h"

#include <assert.h>
#include <glib.h>
#include <string.h>

#include "mem/timing.h"

const char *const mem_op_names[MEM_OP_COUNT + 1] = {"load", "store", "rmw", "locked_rmw", NULL};

/* The ways of a demand request's line in its core's caches, as its caller found them
 * (hier_lookup: L2 way, and L1d way or NULL), when it did, and the line's directory index
 * when known (a memo's, mem_memo.line; DIR_NONE: not yet), which a miss then does not look up. */
struct found {
	struct cway *w2, *w1;
	uint32_t line;
};

/* The ways of a run's store (@rq) into @w: the L2 way *@way of its set first (hier_lookup_hint;
 * the run's last line's way), then the directory: a line it lacks is in no cache (a stream's
 * first touch, most of a run's misses), and only a line it has is looked for in the L2 set.
 * Return: whether the directory was asked, its answer (DIR_NONE: none) in *@idx. */
static inline bool run_lookup(struct mem *m, const struct req *rq, struct hier_ways *w,
			      uint32_t *way, uint32_t *idx)
{
	struct hier *h = &m->core[rq->core];

	if (hier_lookup_hint(h, rq->la, w, *way))
		return false;
	*idx = dir_lookup(&m->dir, rq->la);
	if (*idx == DIR_NONE)
		w->w2 = NULL;
	else
		hier_lookup_ways_l2(h, rq->la, w, way);
	return true;
}

/* The directory index of absent line @rq->la for demand(): @f's if it knows it, else the
 * directory's answer @idx if @asked (run_lookup), else the directory's (mem_line_index); the
 * entry is made on first touch. */
static inline uint32_t absent_line(struct mem *m, const struct req *rq, const struct found *f,
				   bool asked, uint32_t idx)
{
	if (f && f->line != DIR_NONE)
		return f->line;
	if (!asked)
		return mem_line_index(m, rq->la);
	return idx != DIR_NONE ? idx : mem_line_new(m, rq->la);
}

/* One demand request on line @rq->la (and offset @rq->off), for @rq's CPU, site and caller
 * (and socket, which a miss sets when it has no @f: mem_access_from() leaves it to the miss);
 * returns when its data (or ownership) is there.  @f: the ways its caller found, or NULL;
 * only a memo's request (mem_memo_miss) comes with them, and only it remembers its Pareto
 * row (acct_orow_memo).  @l2way (NULL, a constant, but in a run of stores: mem_store_run):
 * look the line up in L2 first, at that way first (run_lookup): L1d mostly lacks a run's
 * lines.
 * *line gets the line's directory index (DIR_NONE when the run failed).  Inlined into each
 * case of access_line(): it is on every access's path. */
static inline __attribute__((always_inline)) simtime_t
demand(struct mem *m, struct req *rq, int event, simtime_t now, const struct found *f,
       uint32_t *l2way, uint32_t *line)
{
	struct outcome o;
	struct hier_ways w;
	uint32_t idx = DIR_NONE;
	bool hit, asked = false;

	rq->event = (uint8_t)event;
	rq->now = now;
	if (f)
		w = (struct hier_ways){.w2 = f->w2, .w1 = f->w1};
	else if (l2way)
		asked = run_lookup(m, rq, &w, l2way, &idx);
	else /* (with the ways' indices, which a hit takes: no pointer arithmetic) */
		hier_lookup_ways(&m->core[rq->core], rq->la, &w);
	/* Looked up once for both: mem_hit changes nothing when it does not serve.  A run of
	 * stores (@l2way) is made only with the hit path on and outside check mode
	 * (mem_store_run), so there neither is tested. */
	hit = (l2way || m->hit_fast) && mem_hit(m, rq, &w, !f, l2way != NULL, &o);
	if (!hit) {
		if (!f) /* (a memo's request has it: mem_memo_miss) */
			rq->socket = mem_core_socket(m, rq->core);
		if (!w.w2) /* a line not held: its L1d way is none either */
			mem_request_absent(m, rq, absent_line(m, rq, f, asked, idx), &o);
		else
			mem_request_ways(m, rq, w.w2, w.w1, &o);
	}
	/* An invariant broke (check mode) or a limit was reached (a miss's new line): a run's
	 * hit has neither (outside check mode). */
	if ((!l2way || !hit) && m->failed) {
		*line = DIR_NONE;
		return now;
	}
	if (hit)
		acct_hit(m, rq, event, &o, f != NULL); /* (@event a constant, unlike rq->event) */
	else
		pf_after_demand(m, rq, &o, f ? acct_demand_memo(m, rq, &o) : acct_demand(m, rq, &o));
	*line = mem_demand_done(m, &o);
	return o.done;
}

/* What a run of stores (mem_store_run) keeps from one store to the next: its CPU's store
 * buffer, and the L2 way (in its set) its last line was found in, looked at first for the
 * next line (hier_lookup_hint). */
struct run_at {
	struct sb_of sbo;
	uint32_t l2way;
};

/* One access's part on the line of @rq (its la and off set); *idx gets the line (DIR_NONE
 * when the run failed); @f as for demand(); @run: a run of stores' (NULL, a constant, but in
 * mem_store_run), whose store buffer is known and whose lines demand() looks up in L2 first.
 * Inlined too: most accesses are one line, and a hit is a few dozen instructions. */
static inline __attribute__((always_inline)) simtime_t
access_line(struct mem *m, struct req *rq, enum mem_op op, simtime_t now,
	    const struct found *f, uint32_t *idx, struct run_at *run)
{
	simtime_t t, done;
	struct sb_of b;

	switch (op) {
	case MEM_LOAD:
		return demand(m, rq, EV_LOAD, now, f, NULL, idx);
	case MEM_STORE:
		/* The store buffer changes no cache: @f's ways stay right. */
		b = run ? run->sbo : sb_of(m, rq->cpu);
		t = sb_slot_in(b.sb, b.ring, b.n, now);
		sb_push_in(b.sb, b.ring, b.n,
			   demand(m, rq, EV_STORE, t, f, run ? &run->l2way : NULL, idx));
		return t + m->mc->cycle;
	case MEM_RMW:
		return demand(m, rq, EV_RMW, now, f, NULL, idx) + m->mc->cycle;
	case MEM_LOCKED_RMW:
		/* It starts once every buffered store has committed (the buffer is then empty:
		 * sb_slot drops entries whose commit time has passed). */
		t = mem_sb_drained(m, rq->cpu, now);
		done = demand(m, rq, EV_RMW, t, f, NULL, idx) + m->mc->locked_rmw;
		if (*idx != DIR_NONE) {
			/* The line stays with us until the locked operation completes. */
			tm_hold(&m->dir.line[*idx], done);
			acct_locked(m, *idx);
		}
		return done;
	default:
		g_assert_not_reached();
	}
}

/* Set @rq's line and offset for @addr. */
static inline void req_at(const struct mem *m, struct req *rq, uint64_t addr)
{
	uint64_t off = addr & (m->gsize - 1);

	rq->la = addr - off; /* mem_line_addr(), without its two shifts */
	rq->off = (uint8_t)off;
}

/* The lines after the first of an access crossing a line boundary (@rq on the first, its
 * part done at @t), each in turn up to the one of byte @end.  Out of line: hardly any access
 * crosses, and mem_access_from() then keeps one copy of access_line(), not two. */
static __attribute__((noinline)) simtime_t
access_rest(struct mem *m, struct req *rq, enum mem_op op, uint64_t end, simtime_t t)
{
	uint32_t idx;

	for (uint64_t a = rq->la; !m->failed && (a >> m->gshift) != (end >> m->gshift);) {
		a = ((a >> m->gshift) + 1) << m->gshift;
		req_at(m, rq, a);
		t = access_line(m, rq, op, t, NULL, &idx, NULL);
	}
	return t;
}

/* A request of @cpu for @site in @caller's path, its line not set yet (req_at).  (The socket
 * is set by a miss: demand(); the hit path has no use for it.) */
static inline struct req req_of(const struct mem *m, int cpu, uint32_t site, uint32_t caller)
{
	assert((unsigned)cpu < (unsigned)m->mc->nr_cpus); /* (one comparison: cpu >= 0 too) */
	return (struct req){.cpu = cpu, .core = m->cpu_core[cpu], .site = site, .caller = caller,
			    .cause = DIR_NONE, .cause_orow = DIR_NONE};
}

/* mem_access_from() of operation @op, a constant, with its request @rq (req_of: a request
 * keeps nothing of its line that the next one's req_at does not set again). */
static inline __attribute__((always_inline)) simtime_t
access_req(struct mem *m, struct req *rq, uint64_t addr, uint32_t size, const enum mem_op op,
	   simtime_t now, struct run_at *run)
{
	simtime_t t;

	m->last_line = DIR_NONE;
	if (m->failed)
		return now;
	req_at(m, rq, addr);
	t = access_line(m, rq, op, now, NULL, &m->last_line, run);
	/* Past the line's end: one addition on its offset, no shift of the address. */
	if (__builtin_expect(rq->off + (uint64_t)size > m->gsize, 0))
		t = access_rest(m, rq, op, addr + size - 1, t);
	return m->failed ? now : t;
}

/* mem_access_from() of operation @op, a constant: each entry point below is one copy, which
 * tests nothing of the operation at run time. */
static inline __attribute__((always_inline)) simtime_t
access_from(struct mem *m, int cpu, uint64_t addr, uint32_t size, const enum mem_op op,
	    uint32_t site, uint32_t caller, simtime_t now)
{
	struct req rq = req_of(m, cpu, site, caller);

	return access_req(m, &rq, addr, size, op, now, NULL);
}

/* The entry point of one operation, @op: not inlined into mem_access_from(), which dispatches
 * to them, one copy of each. */
#define MEM_OP_ENTRY(name, op)                                                               \
	__attribute__((noinline)) simtime_t name(struct mem *m, int cpu, uint64_t addr,       \
						 uint32_t size, uint32_t site, uint32_t caller,   \
						 simtime_t now)                                   \
	{                                                                                     \
		return access_from(m, cpu, addr, size, op, site, caller, now);                 \
	}

MEM_OP_ENTRY(mem_load_from, MEM_LOAD)
MEM_OP_ENTRY(mem_store_from, MEM_STORE)
MEM_OP_ENTRY(mem_rmw_from, MEM_RMW)
MEM_OP_ENTRY(mem_locked_from, MEM_LOCKED_RMW)

simtime_t mem_access_from(struct mem *m, int cpu, uint64_t addr, uint32_t size, enum mem_op op,
			  uint32_t site, uint32_t caller, simtime_t now)
{
	return mem_access_op(m, cpu, addr, size, op, site, caller, now);
}

/* mem_store_run() with @fast (a constant): its stores through @run's path, which tests
 * neither for check mode nor for the hit path being off (demand()); else each a
 * mem_store_from(), which is the same store. */
static inline __attribute__((always_inline)) uint32_t
store_run(struct mem *m, struct req *rq, struct run_at *run, uint64_t addr, uint32_t n,
	  uint32_t stride, uint32_t size, simtime_t *now, simtime_t until,
	  const volatile sig_atomic_t *stop, struct mem_run *out, const bool fast)
{
	simtime_t t = *now;
	uint32_t i;

	for (i = 0; i < n && !m->failed && !*stop && !(until && t >= until); i++) {
		uint64_t a = addr + (uint64_t)i * stride;

		t = fast ? access_req(m, rq, a, size, MEM_STORE, t, run)
			 : mem_store_from(m, rq->cpu, a, size, rq->site, rq->caller, t);
		out->line[i] = m->last_line;
		out->src[i] = (uint8_t)m->last_src;
	}
	*now = t;
	return i;
}

uint32_t mem_store_run(struct mem *m, int cpu, uint64_t addr, uint32_t n, uint32_t stride,
		       uint32_t size, uint32_t site, uint32_t caller, simtime_t *now,
		       simtime_t until, const volatile sig_atomic_t *stop, struct mem_run *out)
{
	struct req rq = req_of(m, cpu, site, caller);
	struct run_at run = {.sbo = sb_of(m, cpu)};

	assert(n <= MEM_RUN_MAX);
	/* Check mode and the hit path off (the tests') are rare: one copy of the run for the
	 * rest, where neither is tested at each store. */
	if (m->hit_fast && !m->check)
		return store_run(m, &rq, &run, addr, n, stride, size, now, until, stop, out, true);
	return store_run(m, &rq, &run, addr, n, stride, size, now, until, stop, out, false);
}

/* As mem_access_from() of a one-line access (mm->ok), with its request made once
 * (mem_memo_init) and its ways found (@f).  Return: what mem_access_from() returns. */
static inline __attribute__((always_inline)) simtime_t
memo_access(struct mem *m, struct mem_memo *mm, const struct found *f, simtime_t now)
{
	simtime_t t;

	m->last_line = DIR_NONE;
	t = access_line(m, &mm->rq, (enum mem_op)mm->op, now, f, &m->last_line, NULL);
	if (m->last_line != DIR_NONE)
		mm->line = m->last_line;
	return m->failed ? now : t;
}

bool mem_memo_miss(struct mem *m, struct mem_memo *mm, struct cway *w2, struct cway *w1,
		   simtime_t now, simtime_t *next)
{
	const struct found f = {.w2 = w2, .w1 = w1, .line = mm->line};

	*next = memo_access(m, mm, &f, now);
	return true;
}

simtime_t mem_memo_gone(struct mem *m, struct mem_memo *mm, simtime_t now)
{
	const struct found f = {.w2 = NULL, .w1 = NULL, .line = mm->line};

	return memo_access(m, mm, &f, now);
}

bool mem_access_known(const struct mem *m, int cpu, uint64_t addr, uint32_t size,
		      uint32_t site, uint32_t caller)
{
	uint64_t end = addr + (size ? size : 1) - 1;
	bool pf = mem_pf_enabled(m);

	/* The lines in the order access_from() visits them, each at its offset there. */
	for (uint64_t a = addr;; a = ((a >> m->gshift) + 1) << m->gshift) {
		uint32_t idx = mem_line(m, a);

		if (idx == DIR_NONE || (pf && mem_line(m, a ^ m->gsize) == DIR_NONE))
			return false;
		/* An untracked line stays so while @cpu alone touches it (mstats.h). */
		if (!mstats_tracked(&m->st, idx) ? m->st.cpus[idx] != (CPUSET_ONE | (uint32_t)cpu)
		    : mstats_orow_find(&m->st, idx, (uint8_t)(a & (m->gsize - 1)), site, caller) ==
			      DIR_NONE)
			return false;
		if ((a >> m->gshift) == (end >> m->gshift))
			return true;
	}
}

void mem_track_lines(struct mem *m, const uint8_t *flag, bool all)
{
	mstats_track_objects(&m->st, m->objs, flag, all);
}

struct mem *mem_new(const struct machine *mc, const struct objmap *objs, bool check)
{
	struct mem *m = g_new0(struct mem, 1);
	bool ok = proto_index_build(&m->pix);

	g_assert(ok);
	m->mc = mc;
	m->objs = objs;
	m->check = check;
	m->last_line = DIR_NONE;
	m->pvariant = proto_variant(&mc->pf);
	mem_hit_rules(m);
	mem_decode_rows(m);
	m->hit_fast = true;
	/* The pair granule is the prefetcher's worst case: with the prefetcher off, no pair. */
	m->gshift = mc->pf.pair_granule && mc->pf.adjacent_line ? 7 : 6;
	m->gsize = 1ull << m->gshift;
	dir_init(&m->dir, mc->nr_cores);
	mstats_init(&m->st, mc->nr_cpus);
	m->core = g_new0(struct hier, mc->nr_cores);
	m->cpu_core = g_new(uint16_t, mc->nr_cpus);
	m->core_socket = g_new(uint16_t, mc->nr_cores);
	for (int c = 0; c < mc->nr_cpus; c++)
		m->cpu_core[c] = (uint16_t)machine_cpu_core(mc, c);
	for (int c = 0; c < mc->nr_cores; c++)
		m->core_socket[c] = (uint16_t)machine_core_socket(mc, c);
	for (int c = 0; c < mc->nr_cores; c++)
		/* Sets are counted in 64-byte lines; with 128-byte granules, halve them. */
		hier_init(&m->core[c], mc->l1d.sets >> (m->gshift - 6), mc->l1d.ways,
			  mc->l2.sets >> (m->gshift - 6), mc->l2.ways, m->gshift, check);
	m->sb = g_new0(struct sbuf, mc->nr_cpus);
	m->sb_ring = g_new0(simtime_t, (size_t)mc->nr_cpus * mc->store_buffer);
	return m;
}

void mem_retire(struct mem *m)
{
	for (int c = 0; m->core && c < m->mc->nr_cores; c++)
		hier_release(&m->core[c]);
	g_free(m->core);
	g_free(m->sb);
	g_free(m->sb_ring);
	m->core = NULL;
	m->sb = NULL;
	m->sb_ring = NULL;
}

void mem_free(struct mem *m)
{
	if (!m)
		return;
	mem_retire(m);
	mstats_release(&m->st);
	g_free(m->val_of);
	g_free(m->vals);
	g_free(m->watched);
	dir_release(&m->dir);
	g_free(m->cpu_core);
	g_free(m->core_socket);
	g_free(m);
}

void mem_evict(struct mem *m, int core, uint64_t addr, simtime_t now)
{
	uint64_t la = mem_line_addr(m, addr);
	struct req rq = {.cpu = -1, .core = core, .socket = mem_core_socket(m, core), .la = la,
			 .event = EV_EVICT, .cause = DIR_NONE, .cause_orow = DIR_NONE, .now = now};
	struct outcome o;
	struct cway *w2 = pcache_lookup(&m->core[core].l2, la);

	if (w2)
		mem_request_ways(m, &rq, w2, NULL, &o);
}

int mem_state(const struct mem *m, int core, uint64_t addr)
{
	struct cway *w = pcache_lookup(&m->core[core].l2, mem_line_addr(m, addr));

	return w ? w->state : MESI_I;
}

uint64_t mem_line_bytes(const struct mem *m)
{
	return dir_bytes(&m->dir) + mem_values_bytes(m) + mstats_bytes(&m->st);
}

uint32_t mem_line(const struct mem *m, uint64_t addr)
{
	return dir_find(&m->dir, mem_line_addr(m, addr));
}

int mem_others_state(const struct mem *m, int core, uint64_t addr)
{
	uint32_t idx = mem_line(m, addr);

	return idx == DIR_NONE ? MESI_I : mem_others(m, idx, core, mem_state(m, core, addr));
}
