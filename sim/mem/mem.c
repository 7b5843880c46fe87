/* mem.c - requests, transitions and timing of the memory system; see mem.h for the design. */
#include "mem/mem.h"

#include <assert.h>
#include <glib.h>
#include <string.h>

#include "core/limits.h"

const char *const mem_op_names[MEM_OP_COUNT + 1] = {"load", "store", "rmw", "locked_rmw", NULL};

/* One request for one line, demand or prefetch. */
struct req {
	int cpu, core, socket;
	uint64_t la;        /* line address */
	uint8_t off;        /* byte offset in the line (demand) */
	uint8_t event;      /* enum proto_event */
	bool prefetch;
	uint32_t site, caller; /* demand: code site, and the call site of its path (or DIR_NONE) */
	uint32_t cause;     /* prefetch: demand line that triggered it, or DIR_NONE */
	uint32_t cause_orow;
	simtime_t now;
};

/* What a request did, for the accounting. */
struct outcome {
	simtime_t done;
	int src;            /* enum ld_src */
	uint32_t line;
	uint32_t nr_inv;
	bool hitm, rfo_hitm, pf_hitm, from_cache, filled, dropped, l1_owned, pf_used;
	bool dir_txn;
};

static inline int core_socket(const struct mem *m, int core)
{
	return machine_core_socket(m->mc, core);
}

/* ------------------------------------------------------------------ caches of one core */

static void core_drop_l1(struct mem *m, int core, uint64_t la)
{
	struct cway *w = pcache_lookup(&m->core[core].l1, la);

	if (w)
		w->tag = 0;
}

/* Remove @core's copy of line @idx from both levels and from the directory. */
static void core_invalidate(struct mem *m, int core, uint32_t idx)
{
	uint64_t la = m->dir.line[idx].addr;
	struct cway *w = pcache_lookup(&m->core[core].l2, la);

	if (w)
		w->tag = 0;
	core_drop_l1(m, core, la);
	dir_del_sharer(&m->dir, idx, core);
}

/* Set @core's copy state (both levels) and, when @version is not NULL, its epoch. */
static void core_set(struct mem *m, int core, uint64_t la, int state, const uint64_t *version)
{
	struct cway *w2 = pcache_lookup(&m->core[core].l2, la);
	struct cway *w1 = pcache_lookup(&m->core[core].l1, la);

	if (w2) {
		w2->state = (uint8_t)state;
		if (version)
			w2->version = *version;
	}
	if (w1) {
		w1->state = (uint8_t)state;
		if (version)
			w1->version = *version;
	}
}

static void line_request(struct mem *m, const struct req *rq, struct outcome *out);

/* Make room in L2 for @la: the victim goes through the protocol's EVICT row. */
static struct cway *core_l2_slot(struct mem *m, int core, uint64_t la, simtime_t now)
{
	struct cway *v = pcache_victim(&m->core[core].l2, la);

	if (v->tag) {
		struct req ev = {.cpu = -1, .core = core, .socket = core_socket(m, core),
				 .la = cway_addr(v), .event = EV_EVICT, .cause = DIR_NONE,
				 .cause_orow = DIR_NONE, .now = now};
		struct outcome o;

		line_request(m, &ev, &o);
		assert(!v->tag);
	}
	return v;
}

static struct cway *core_l1_fill(struct mem *m, int core, uint64_t la, const struct cway *src)
{
	struct pcache *l1 = &m->core[core].l1;
	struct cway *v = pcache_victim(l1, la);

	*v = *src;
	v->pf = 0;
	pcache_touch(l1, v);
	return v;
}

/* Install line @idx in @core's L2 (and L1 for demand fills) in @state. */
static void core_fill(struct mem *m, const struct req *rq, uint32_t idx, int state)
{
	struct cway *w = core_l2_slot(m, rq->core, rq->la, rq->now);

	*w = (struct cway){.tag = rq->la + 1, .version = m->dir.line[idx].version, .line = idx,
			   .state = (uint8_t)state, .pf = rq->prefetch};
	pcache_touch(&m->core[rq->core].l2, w);
	if (!rq->prefetch)
		core_l1_fill(m, rq->core, rq->la, w);
}

/* ------------------------------------------------------------------ directory views */

static int others_state(const struct mem *m, uint32_t idx, int core, int own)
{
	const struct dline *dl = &m->dir.line[idx];

	if (dl->owner >= 0 && dl->owner != core)
		return dl->dirty ? MESI_M : MESI_E;
	return dl->nr_sharers > (own != MESI_I ? 1u : 0u) ? MESI_S : MESI_I;
}

static uint32_t line_index(struct mem *m, uint64_t la)
{
	uint32_t idx = dir_find(&m->dir, la);

	if (idx == DIR_NONE) {
		if (m->lim && m->dir.nr >= m->lim->lines && !m->failed) {
			/* Host memory: stop here (the line is still added, so @idx stays valid). */
			limits_fail(m->fail_msg, sizeof(m->fail_msg), m->lim, LIMIT_OF(lines),
				    "in the directory");
			m->failed = m->limit_reached = true;
		}
		/* Named after the object at its first byte; homed where the memory of any object
		 * in it is (a 128-byte unit can begin in padding). */
		uint32_t obj = m->objs ? objmap_find(m->objs, la) : OBJ_NONE;
		uint32_t mem = m->objs ? objmap_find_in(m->objs, la, la + m->gsize) : OBJ_NONE;
		uint16_t home = mem != OBJ_NONE ? m->objs->v[mem].node : 0;

		idx = dir_insert(&m->dir, la, home, obj);
	}
	return idx;
}

/* ------------------------------------------------------------------ latencies */

static simtime_t fill_mem_latency(const struct mem *m, const struct dline *dl, int socket,
				  int *src)
{
	const struct machine *mc = m->mc;

	if (dl->llc_valid >> socket & 1) {
		*src = SRC_LLC;
		return mc->llc.latency;
	}
	if (dl->llc_valid) {
		*src = SRC_RMT_HIT;
		return mc->clean_remote;
	}
	if (machine_node_socket(mc, dl->home) == socket ||
	    machine_socket_node(mc, socket) == dl->home) {
		*src = SRC_DRAM_LCL;
		return mc->dram_local;
	}
	*src = SRC_DRAM_RMT;
	return mc->dram_remote;
}

/* A clean copy held by sharers: the nearest one answers. */
static simtime_t fill_sharer_latency(const struct mem *m, uint32_t idx, int core, int socket,
				     int *src)
{
	const struct dline *dl = &m->dir.line[idx];
	const uint64_t *sh = dir_sharers(&m->dir, idx);
	int first = socket * m->mc->cores_per_socket, last = first + m->mc->cores_per_socket;

	if (dl->llc_valid >> socket & 1) {
		*src = SRC_LLC;
		return m->mc->llc.latency;
	}
	for (int c = first; c < last; c++) {
		if (c != core && (sh[c >> 6] >> (c & 63) & 1)) {
			*src = SRC_LLC;
			return m->mc->clean_local;
		}
	}
	*src = SRC_RMT_HIT;
	return m->mc->clean_remote;
}

/* The owner's copy: clean or HITM, local or remote; remote HITMs pay the home-node term. */
static simtime_t fwd_latency(const struct mem *m, const struct dline *dl, int socket, int *src)
{
	const struct machine *mc = m->mc;
	int osocket = core_socket(m, dl->owner);

	if (osocket == socket) {
		*src = dl->dirty ? SRC_HITM_LCL : SRC_LLC;
		return dl->dirty ? mc->hitm_local : mc->clean_local;
	}
	*src = dl->dirty ? SRC_HITM_RMT : SRC_RMT_HIT;
	if (!dl->dirty)
		return mc->clean_remote;
	return machine_socket_node(mc, osocket) == dl->home ? mc->hitm_remote_owner_home
							     : mc->hitm_remote_reader_home;
}

/* Invalidate every sharer but @core.  Return: the cost; *n gets how many copies went. */
static simtime_t send_inv(struct mem *m, uint32_t idx, int core, int socket, uint32_t *n)
{
	const struct machine *mc = m->mc;
	uint64_t *sh = dir_sharers(&m->dir, idx);
	bool remote = false;

	*n = 0;
	for (uint32_t w = 0; w < m->dir.words_core; w++) {
		uint64_t bits = sh[w];

		while (bits) {
			int c = (int)(w * 64 + (uint32_t)__builtin_ctzll(bits));

			bits &= bits - 1;
			if (c == core)
				continue;
			remote |= core_socket(m, c) != socket;
			core_invalidate(m, c, idx);
			(*n)++;
		}
	}
	return (remote ? mc->inv_remote : mc->inv_local) + mc->inv_per_sharer * *n;
}

/* ------------------------------------------------------------------ one request */

struct exec {
	simtime_t lat;
	int wb_socket;      /* where a writeback lands: the previous owner's or our socket */
	bool c2c;           /* a transfer or invalidation holds the line until done */
	bool write;
	bool in_l1;         /* demand request found the line in L1d (else L2) */
	bool pf;            /* the copy found arrived by prefetch, unused so far */
};

/* Run the actions of @r for @rq on line @idx.  Return: false if the prefetch was dropped. */
static bool exec_actions(struct mem *m, const struct req *rq, const struct proto_row *r,
			 uint32_t idx, struct exec *x, struct outcome *o)
{
	struct dline *dl = &m->dir.line[idx];
	int prev_owner;

	for (int a = 0; a < PROTO_MAX_ACTIONS && r->act[a]; a++) {
		m->act_count[r->act[a]]++;
		switch (r->act[a]) {
		case ACT_HIT:
			x->lat = x->in_l1 ? m->mc->l1d.latency : m->mc->l2.latency;
			o->src = x->in_l1 ? SRC_L1 : SRC_L2;
			o->pf_used = x->pf;
			break;
		case ACT_SILENT_UPGRADE: /* E -> M: the copy is exclusive, nobody is told */
			break;
		case ACT_UPGRADE:
			o->dir_txn = true;
			x->lat = m->mc->llc.latency;
			o->src = x->in_l1 ? SRC_L1 : SRC_L2;
			o->pf_used = x->pf;
			break;
		case ACT_FILL_MEM:
			o->dir_txn = true;
			x->lat = fill_mem_latency(m, dl, rq->socket, &o->src);
			break;
		case ACT_FILL_SHARER:
			o->dir_txn = true;
			x->lat = fill_sharer_latency(m, idx, rq->core, rq->socket, &o->src);
			o->from_cache = o->src != SRC_LLC || !(dl->llc_valid >> rq->socket & 1);
			break;
		case ACT_FWD_GETS:
		case ACT_FWD_GETX:
			o->dir_txn = x->c2c = o->from_cache = true;
			x->lat = fwd_latency(m, dl, rq->socket, &o->src);
			prev_owner = dl->owner;
			x->wb_socket = core_socket(m, prev_owner);
			if (r->act[a] == ACT_FWD_GETX) {
				core_invalidate(m, prev_owner, idx);
				o->nr_inv++;
			} else {
				core_set(m, prev_owner, rq->la, MESI_S, NULL);
				dl->owner = -1;
				dl->dirty = 0;
			}
			break;
		case ACT_SEND_INV: {
			uint32_t n;
			simtime_t inv = send_inv(m, idx, rq->core, rq->socket, &n);

			o->dir_txn = x->c2c = true;
			o->nr_inv += n;
			if (inv > x->lat)
				x->lat = inv;
			break;
		}
		case ACT_COUNT_HITM:
			o->hitm = true;
			break;
		case ACT_COUNT_RFO_HITM:
			o->rfo_hitm = true;
			break;
		case ACT_COUNT_PF_HITM:
			o->pf_hitm = true;
			break;
		case ACT_WRITEBACK:
			dl->llc_valid |= 1ull << x->wb_socket;
			break;
		case ACT_WRITE_DATA:
			x->write = true;
			break;
		case ACT_DROP_PF:
			o->dropped = true;
			return false;
		case ACT_EVICT:
			/* Non-inclusive LLC: a private copy that leaves goes into the socket's LLC. */
			dl->llc_valid |= 1ull << rq->socket;
			core_invalidate(m, rq->core, idx);
			break;
		default:
			g_assert_not_reached();
		}
	}
	return true;
}

/* Give the requester its next state and keep the directory's owner in step. */
static void apply_next_own(struct mem *m, const struct req *rq, uint32_t idx, int own,
			   int next_own, const struct exec *x, struct outcome *o)
{
	struct dline *dl = &m->dir.line[idx];

	if (x->write) {
		/* A store ends every other copy's epoch; LLC copies are stale from now on. */
		dl->version++;
		dl->llc_valid = 0;
	}
	if (next_own == MESI_I)
		return;
	if (own == MESI_I) {
		core_fill(m, rq, idx, next_own);
		o->filled = true;
		dl = &m->dir.line[idx];
	} else {
		core_set(m, rq->core, rq->la, next_own, &dl->version);
	}
	dir_add_sharer(&m->dir, idx, rq->core);
	if (next_own == MESI_E || next_own == MESI_M) {
		dl->owner = rq->core;
		dl->dirty = next_own == MESI_M;
	}
}

/* A demand access used the copy: refresh LRU, promote it into L1d, it is no longer unused. */
static void core_touch(struct mem *m, int core, uint64_t la)
{
	struct cway *w2 = pcache_lookup(&m->core[core].l2, la);
	struct cway *w1 = pcache_lookup(&m->core[core].l1, la);

	w2->pf = 0;
	pcache_touch(&m->core[core].l2, w2);
	if (w1)
		pcache_touch(&m->core[core].l1, w1);
	else
		core_l1_fill(m, core, la, w2);
}

/* Completion time; requests that reach the home queue behind the line's busy_until. */
static void charge_time(struct mem *m, const struct req *rq, uint32_t idx, const struct exec *x,
			struct outcome *o)
{
	struct dline *dl = &m->dir.line[idx];
	simtime_t start;

	if (!o->dir_txn) {
		o->done = rq->now + x->lat;
		return;
	}
	start = rq->now > dl->busy_until ? rq->now : dl->busy_until;
	o->done = start + x->lat;
	if (x->c2c)
		dl->busy_until = o->done;
	else if (start + m->mc->dir_occupancy > dl->busy_until)
		dl->busy_until = start + m->mc->dir_occupancy;
}

static void line_request(struct mem *m, const struct req *rq, struct outcome *out)
{
	struct pcache *l1 = &m->core[rq->core].l1, *l2 = &m->core[rq->core].l2;
	bool demand = !rq->prefetch && rq->event != EV_EVICT;
	struct cway *w2 = pcache_lookup(l2, rq->la);
	struct exec x = {.wb_socket = rq->socket, .in_l1 = demand && pcache_lookup(l1, rq->la),
			 .pf = w2 && w2->pf};
	bool drop = m->mc->pf.buddy_modified == PF_BUDDY_DROP;
	const struct proto_row *r;
	uint32_t idx;
	int own, others;

	memset(out, 0, sizeof(*out));
	idx = w2 ? w2->line : line_index(m, rq->la);
	own = w2 ? w2->state : MESI_I;
	others = others_state(m, idx, rq->core, own);
	r = proto_lookup(&m->pix, own, others, rq->event, drop);
	out->line = idx;
	out->l1_owned = x.in_l1 && own >= MESI_E;
	if (!r) {
		mem_fail(m, rq->now, idx, "no protocol row for own=%s others=%s event=%s (%s)",
			 mesi_names[own], mesi_names[others], proto_event_names[rq->event],
			 proto_impossible_reason(own, others, rq->event) ?: "missing row");
		out->done = rq->now;
		return;
	}
	if (exec_actions(m, rq, r, idx, &x, out))
		apply_next_own(m, rq, idx, own, r->next_own, &x, out);
	if (demand && own != MESI_I && r->next_own != MESI_I)
		core_touch(m, rq->core, rq->la);
	charge_time(m, rq, idx, &x, out);
	if (x.write && m->dir.line[idx].watched && m->on_write)
		m->on_write(m->on_write_data, idx, out->done);
	if (m->check) {
		mem_trail_push(m, rq->now, rq->cpu, rq->la, rq->event, own, others, r->next_own,
			       r->next_others);
		if (!out->dropped && others_state(m, idx, rq->core, r->next_own) != r->next_others)
			mem_fail(m, rq->now, idx, "row %s/%s/%s left others in %s (expected %s)",
				 mesi_names[own], mesi_names[others], proto_event_names[rq->event],
				 mesi_names[others_state(m, idx, rq->core, r->next_own)],
				 mesi_names[r->next_others]);
		mem_check_line(m, idx, rq->now);
	}
	assert(out->done >= rq->now);
}

/* ------------------------------------------------------------------ accounting */

static const uint8_t src_lstat[SRC_COUNT] = {
	[SRC_L1] = LS_LD_L1, [SRC_L2] = LS_LD_L2, [SRC_LLC] = LS_LD_LLC,
	[SRC_RMT_HIT] = LS_LD_RMT_HIT, [SRC_HITM_LCL] = LS_HITM_LCL, [SRC_HITM_RMT] = LS_HITM_RMT,
	[SRC_DRAM_LCL] = LS_LD_DRAM_LCL, [SRC_DRAM_RMT] = LS_LD_DRAM_RMT,
};

static void account_demand(struct mem *m, const struct req *rq, const struct outcome *o,
			   uint32_t orow)
{
	struct line_stats *ls = &m->dir.stats[o->line];
	struct orow *row = &m->orow[orow];
	simtime_t lat = o->done - rq->now;
	bool load = rq->event != EV_STORE, store = rq->event != EV_LOAD;

	dir_mark_cpu(&m->dir, o->line, rq->cpu);
	m->orow_cpus[(size_t)orow * m->dir.words_cpu + (rq->cpu >> 6)] |= 1ull << (rq->cpu & 63);
	if (load) {
		ls->c[LS_LOADS]++;
		ls->c[src_lstat[o->src]]++;
		ls->c[LS_CYC_LOAD] += lat;
		row->c[OS_LOADS]++;
		row->c[OS_CYC_LOAD] += lat;
		if (o->src == SRC_HITM_LCL || o->src == SRC_HITM_RMT) {
			bool lcl = o->src == SRC_HITM_LCL;

			ls->c[lcl ? LS_CYC_HITM_LCL : LS_CYC_HITM_RMT] += lat;
			row->c[lcl ? OS_HITM_LCL : OS_HITM_RMT]++;
			row->c[lcl ? OS_CYC_HITM_LCL : OS_CYC_HITM_RMT] += lat;
		}
	}
	if (store) {
		ls->c[LS_STORES]++;
		ls->c[o->l1_owned ? LS_ST_L1HIT : LS_ST_L1MISS]++;
		row->c[OS_STORES]++;
		row->c[o->l1_owned ? OS_ST_L1HIT : OS_ST_L1MISS]++;
		ls->c[LS_ST_RFO_HITM] += o->rfo_hitm;
	}
	ls->c[LS_INV_SENT] += o->nr_inv;
	ls->c[LS_INV_RECV] += o->nr_inv;
	ls->c[LS_PF_USEFUL] += o->pf_used;
}

/* What a prefetch did to the buddy, and to the demand line whose miss caused it. */
static void account_prefetch(struct mem *m, const struct req *rq, const struct outcome *o)
{
	struct line_stats *ls = &m->dir.stats[o->line];

	if (o->dropped) {
		ls->c[LS_PF_DROPPED]++;
		return;
	}
	ls->c[LS_PF_FILLS] += o->filled;
	ls->c[LS_PF_HITM] += o->pf_hitm;
	ls->c[LS_PF_XFER] += o->from_cache && !o->pf_hitm;
	ls->c[LS_PF_INV] += o->nr_inv;
	ls->c[LS_INV_RECV] += o->nr_inv;
	if (rq->cause != DIR_NONE) {
		struct line_stats *cs = &m->dir.stats[rq->cause];

		cs->c[LS_PF_CAUSED_HITM] += o->pf_hitm;
		cs->c[LS_PF_CAUSED_INV] += o->nr_inv;
		if (rq->cause_orow != DIR_NONE)
			m->orow[rq->cause_orow].c[OS_PF_CAUSED_HITM] += o->pf_hitm;
	}
}

/* ------------------------------------------------------------------ the prefetcher */

static void prefetch_buddy(struct mem *m, const struct req *dem, uint32_t cause, uint32_t orow)
{
	bool rfo = dem->event != EV_LOAD && m->mc->pf.store_buddy == PF_STORE_RFO;
	struct req rq = *dem;
	struct outcome o;

	rq.la = dem->la ^ m->gsize;
	rq.prefetch = true;
	rq.event = rfo ? EV_PF_STORE : EV_PF_LOAD;
	rq.cause = cause;
	rq.cause_orow = orow;
	line_request(m, &rq, &o);
	account_prefetch(m, &rq, &o);
}

void mem_prefetch(struct mem *m, int cpu, uint64_t addr, int event, simtime_t now)
{
	int core = machine_cpu_core(m->mc, cpu);
	struct req rq = {.cpu = cpu, .core = core, .socket = core_socket(m, core),
			 .la = addr >> m->gshift << m->gshift, .event = (uint8_t)event,
			 .prefetch = true, .cause = DIR_NONE, .cause_orow = DIR_NONE, .now = now};
	struct outcome o;

	assert(event == EV_PF_LOAD || event == EV_PF_STORE);
	line_request(m, &rq, &o);
	account_prefetch(m, &rq, &o);
}

/* ------------------------------------------------------------------ demand accesses */

/* One demand request on one line; returns when its data (or ownership) is there. */
static simtime_t demand(struct mem *m, int cpu, uint64_t addr, int event, uint32_t site,
			uint32_t caller, simtime_t now)
{
	int core = machine_cpu_core(m->mc, cpu);
	struct req rq = {.cpu = cpu, .core = core, .socket = core_socket(m, core),
			 .la = addr >> m->gshift << m->gshift,
			 .off = (uint8_t)(addr & (m->gsize - 1)), .event = (uint8_t)event,
			 .site = site, .caller = caller, .cause = DIR_NONE, .cause_orow = DIR_NONE,
			 .now = now};
	struct outcome o;
	uint32_t orow;

	line_request(m, &rq, &o);
	if (m->failed)
		return now;
	m->accesses++;
	m->last_done = o.done;
	m->last_src = o.src;
	orow = mem_orow(m, o.line, rq.off, rq.site, rq.caller);
	account_demand(m, &rq, &o, orow);
	/* An L2 fill triggers the adjacent-line prefetcher (not in pair-granule mode, where the
	 * buddy is part of the line already). */
	if (o.filled && m->mc->pf.adjacent_line && m->gshift == 6)
		prefetch_buddy(m, &rq, o.line, orow);
	return o.done;
}

/* The store buffer: a ring of commit times per CPU, drained in order. */
static simtime_t sb_slot(struct mem *m, int cpu, simtime_t now)
{
	struct sbuf *sb = &m->sb[cpu];
	simtime_t *ring = &m->sb_ring[(size_t)cpu * m->mc->store_buffer];

	while (sb->len && ring[sb->head] <= now) {
		sb->head = (sb->head + 1) % m->mc->store_buffer;
		sb->len--;
	}
	if (sb->len == m->mc->store_buffer) {
		/* Full: stall until the oldest store commits. */
		now = ring[sb->head];
		sb->head = (sb->head + 1) % m->mc->store_buffer;
		sb->len--;
	}
	return now;
}

static void sb_push(struct mem *m, int cpu, simtime_t done)
{
	struct sbuf *sb = &m->sb[cpu];
	simtime_t *ring = &m->sb_ring[(size_t)cpu * m->mc->store_buffer];

	/* TSO: a store commits no earlier than the stores before it. */
	if (done < sb->last)
		done = sb->last;
	sb->last = done;
	ring[(sb->head + sb->len) % m->mc->store_buffer] = done;
	sb->len++;
}

simtime_t mem_sb_drained(const struct mem *m, int cpu, simtime_t now)
{
	const struct sbuf *sb = &m->sb[cpu];

	return sb->len && sb->last > now ? sb->last : now;
}

static simtime_t access_line(struct mem *m, int cpu, uint64_t addr, enum mem_op op,
			     uint32_t site, uint32_t caller, simtime_t now)
{
	simtime_t t, done;

	switch (op) {
	case MEM_LOAD:
		return demand(m, cpu, addr, EV_LOAD, site, caller, now);
	case MEM_STORE:
		t = sb_slot(m, cpu, now);
		sb_push(m, cpu, demand(m, cpu, addr, EV_STORE, site, caller, t));
		return t + m->mc->cycle;
	case MEM_RMW:
		return demand(m, cpu, addr, EV_RMW, site, caller, now) + m->mc->cycle;
	case MEM_LOCKED_RMW: {
		uint32_t idx;

		t = mem_sb_drained(m, cpu, now);
		m->sb[cpu].len = 0;
		done = demand(m, cpu, addr, EV_RMW, site, caller, t) + m->mc->locked_rmw;
		/* The line stays with us until the locked operation completes. */
		idx = dir_find(&m->dir, addr >> m->gshift << m->gshift);
		if (idx != DIR_NONE && m->dir.line[idx].busy_until < done)
			m->dir.line[idx].busy_until = done;
		if (idx != DIR_NONE)
			m->dir.stats[idx].c[LS_LOCKED]++;
		return done;
	}
	default:
		g_assert_not_reached();
	}
}

simtime_t mem_access_from(struct mem *m, int cpu, uint64_t addr, uint32_t size, enum mem_op op,
			  uint32_t site, uint32_t caller, simtime_t now)
{
	uint64_t end = addr + (size ? size : 1) - 1;
	simtime_t t = now;

	assert(cpu >= 0 && cpu < m->mc->nr_cpus);
	if (m->failed)
		return now;
	/* An access crossing a line boundary touches each line in turn. */
	for (uint64_t a = addr; !m->failed; a = ((a >> m->gshift) + 1) << m->gshift) {
		t = access_line(m, cpu, a, op, site, caller, t);
		if ((a >> m->gshift) == (end >> m->gshift))
			break;
	}
	return m->failed ? now : t;
}

/* ------------------------------------------------------------------ set-up and queries */

struct mem *mem_new(const struct machine *mc, const struct objmap *objs, bool check)
{
	struct mem *m = g_new0(struct mem, 1);
	bool ok = proto_index_build(&m->pix);

	g_assert(ok);
	m->mc = mc;
	m->objs = objs;
	m->check = check;
	m->gshift = mc->pf.pair_granule ? 7 : 6;
	m->gsize = 1ull << m->gshift;
	dir_init(&m->dir, mc->nr_cores, mc->nr_cpus);
	m->core = g_new0(struct mem_core, mc->nr_cores);
	for (int c = 0; c < mc->nr_cores; c++) {
		/* Sets are counted in 64-byte lines; with 128-byte granules, halve them. */
		pcache_init(&m->core[c].l1, mc->l1d.sets >> (m->gshift - 6), mc->l1d.ways, m->gshift);
		pcache_init(&m->core[c].l2, mc->l2.sets >> (m->gshift - 6), mc->l2.ways, m->gshift);
	}
	m->sb = g_new0(struct sbuf, mc->nr_cpus);
	m->sb_ring = g_new0(simtime_t, (size_t)mc->nr_cpus * mc->store_buffer);
	return m;
}

void mem_free(struct mem *m)
{
	if (!m)
		return;
	for (int c = 0; c < m->mc->nr_cores; c++) {
		pcache_release(&m->core[c].l1);
		pcache_release(&m->core[c].l2);
	}
	g_free(m->core);
	g_free(m->sb);
	g_free(m->sb_ring);
	g_free(m->orow);
	g_free(m->orow_cpus);
	g_free(m->orow_slot);
	g_free(m->data);
	dir_release(&m->dir);
	g_free(m);
}

void mem_evict(struct mem *m, int core, uint64_t addr, simtime_t now)
{
	uint64_t la = addr >> m->gshift << m->gshift;
	struct req rq = {.cpu = -1, .core = core, .socket = core_socket(m, core), .la = la,
			 .event = EV_EVICT, .cause = DIR_NONE, .cause_orow = DIR_NONE, .now = now};
	struct outcome o;

	if (pcache_lookup(&m->core[core].l2, la))
		line_request(m, &rq, &o);
}

int mem_state(const struct mem *m, int core, uint64_t addr)
{
	struct cway *w = pcache_lookup(&m->core[core].l2, addr >> m->gshift << m->gshift);

	return w ? w->state : MESI_I;
}

uint32_t mem_line(const struct mem *m, uint64_t addr)
{
	return dir_find(&m->dir, addr >> m->gshift << m->gshift);
}

int mem_others_state(const struct mem *m, int core, uint64_t addr)
{
	uint32_t idx = mem_line(m, addr);

	return idx == DIR_NONE ? MESI_I : others_state(m, idx, core, mem_state(m, core, addr));
}

/* ------------------------------------------------------------------ values */

/* The bytes of line @idx, growing the array with the directory. */
static uint8_t *line_bytes(struct mem *m, uint32_t idx)
{
	if (idx >= m->data_cap) {
		uint32_t old = m->data_cap;

		m->data_cap = m->dir.cap;
		m->data = g_renew(uint8_t, m->data, (size_t)m->data_cap * m->gsize);
		memset(m->data + (size_t)old * m->gsize, 0, (size_t)(m->data_cap - old) * m->gsize);
	}
	return &m->data[(size_t)idx * m->gsize];
}

uint64_t mem_peek(struct mem *m, uint64_t addr, uint32_t size)
{
	uint64_t v = 0;

	assert(size <= 8);
	for (uint32_t b = 0; b < size; b++) {
		uint64_t a = addr + b;
		uint32_t idx = dir_find(&m->dir, a >> m->gshift << m->gshift);

		if (idx != DIR_NONE)
			v |= (uint64_t)line_bytes(m, idx)[a & (m->gsize - 1)] << (8 * b);
	}
	return v;
}

void mem_poke(struct mem *m, uint64_t addr, uint32_t size, uint64_t v)
{
	assert(size <= 8);
	for (uint32_t b = 0; b < size; b++) {
		uint64_t a = addr + b;

		line_bytes(m, line_index(m, a >> m->gshift << m->gshift))[a & (m->gsize - 1)] =
			(uint8_t)(v >> (8 * b));
	}
}

void mem_watch(struct mem *m, uint64_t addr)
{
	m->dir.line[line_index(m, addr >> m->gshift << m->gshift)].watched = 1;
}
