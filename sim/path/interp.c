/* interp.c - execute compiled paths; see interp.h for the design (locks in interp_lock.c,
 * addresses and model errors in interp_addr.c, set-up and release in interp_world.c). */
#include "path/interp.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "path/interp_addr.h"

simtime_t it_access(struct ptask *t, uint64_t addr, uint32_t size, enum mem_op op,
		    uint32_t site, simtime_t now)
{
	return thread_access(t, addr, size, op, site, now);
}

/* ------------------------------------------------------------------ parking */

void it_park(struct ptask *t, uint64_t addr)
{
	struct world *w = t->w;

	mem_watch(w->mem, addr);
	t->park_line = mem_line(w->mem, addr);
	if (w->nr_parked == w->cap_parked) {
		w->cap_parked = w->cap_parked ? 2 * w->cap_parked : 64;
		w->parked = g_renew(struct ptask *, w->parked, w->cap_parked);
	}
	w->parked[w->nr_parked++] = t;
}

/* mem's on_write hook: wake, in parking order, every thread spinning on @line. */
void it_on_write(void *data, uint32_t line, simtime_t when)
{
	struct world *w = data;
	uint32_t keep = 0;

	for (uint32_t i = 0; i < w->nr_parked; i++) {
		struct ptask *t = w->parked[i];

		if (t->park_line != line) {
			w->parked[keep++] = t;
			continue;
		}
		t->park_line = DIR_NONE;
		w->wake(w->wake_data, t->owner, when);
	}
	w->nr_parked = keep;
}

/* ------------------------------------------------------------------ execution */

static int64_t sext(uint64_t v, uint32_t size)
{
	unsigned shift = 64 - 8 * size;

	return size >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

/* Zero the locals of frame @f for a path of @n locals, before its @args arguments go in
 * (the blocks they fill whole are left: the arguments' stores cover them): in whole
 * blocks of FRAME_ZERO_BLOCK (PATH_MAX_LOCALS is a multiple of it), a few stores of a constant
 * size each, where a memset of the exact count was a call, which made push_frame save and
 * restore registers too.  Only the path's locals are ever read (its code names no others): the
 * rest of the last block and of the frame are left as they are. */
#define FRAME_ZERO_BLOCK 4
_Static_assert(PATH_MAX_LOCALS % FRAME_ZERO_BLOCK == 0, "frame_zero's blocks fill the locals");

static inline void frame_zero(struct frame *f, uint32_t args, uint32_t n)
{
	for (uint32_t i = args / FRAME_ZERO_BLOCK * FRAME_ZERO_BLOCK; i < n; i += FRAME_ZERO_BLOCK)
		memset(&f->locals[i], 0, sizeof(int64_t) * FRAME_ZERO_BLOCK);
}

/* Push the frame of a call of @path, whose arguments are its first locals already, the
 * others zero (frame_zero). */
static void push_frame(struct ptask *t, uint32_t path, const struct pinsn *code, int16_t ret_dst,
		       uint32_t caller_site, simtime_t now)
{
	struct frame *f = t->top = &t->frames[t->depth++];

	f->code = code;
	f->path = path;
	f->ip = f->code;
	f->ret_dst = ret_dst;
	f->caller_site = caller_site;
	f->start = now;
	f->ready_set = 0;
	f->ready_max = 0;
	t->w->pstats[path].calls++;
}

void interp_call(struct ptask *t, uint32_t path, const int64_t *args, simtime_t now)
{
	const struct path *p = &t->w->prog->paths[path];

	t->depth = 0;
	it_lines_new_call(t);
	t->call_remote = 0;
	frame_zero(&t->frames[0], p->nr_params, p->nr_locals);
	memcpy(t->frames[0].locals, args, sizeof(int64_t) * p->nr_params);
	push_frame(t, path, p->code, -1, DIR_NONE, now);
}

/* A load under memory-level parallelism: its data arrives at @done; the thread goes on when
 * a slot is free.  The loads in flight are a run in completion order: the ones done by now
 * leave at its head, where the one a load waits for when every slot is taken is too, and a
 * new one, usually the last to complete, goes in near its tail.  The entry before the run
 * is a time at or before the thread's clock (one that left, or 0), so at or before @done:
 * the search for the new one's place stops there without counting.  The run moves back to
 * the start of the array when it reaches the end, every INTERP_INFLIGHT - mlp loads or so. */
static inline __attribute__((always_inline)) simtime_t
load_slot(struct ptask *t, simtime_t now, simtime_t done)
{
	simtime_t *q = t->inflight, *h = t->inflight_head, *e = t->inflight_end, *p;
	simtime_t next = now + t->cycle;

	/* (the run is ascending: when its last is done, all are; else the search for the first
	 * not done stops there without testing h < e) */
	if (e[-1] <= now)
		h = e;
	else
		while (*h <= now)
			h++;
	if ((uint32_t)(e - h) == t->mlp_slots) {
		if (*h > next)
			next = *h;
		*h++ = now; /* it leaves: the time before the run */
	}
	if (e == q + INTERP_INFLIGHT) {
		memmove(q, h - 1, sizeof(*q) * (size_t)(e - h + 1));
		e -= h - 1 - q;
		h = q + 1;
	}
	for (p = e; p[-1] > done; p--)
		p[0] = p[-1];
	*p = done;
	t->inflight_head = h;
	t->inflight_end = e + 1;
	return next;
}

simtime_t it_load_slot(struct ptask *t, simtime_t now, simtime_t done)
{
	return load_slot(t, now, done);
}

/* Memory operations with values: load, store, rmw, atomic, cmpxchg, one copy per operation
 * (@op a constant: each tests only what its operation needs).  The access comes first: it
 * changes no value, and it gives the line (mem->last_line), so that the value is read and
 * written there without looking the line up again (mem_peek_at). */
static inline __attribute__((always_inline)) simtime_t
exec_mem_op(struct ptask *t, const struct pinsn *in, int64_t *loc, simtime_t now,
	    const uint8_t op, uint64_t addr)
{
	uint32_t size = in->addr.size < 8 ? in->addr.size : 8, line;
	struct mem *m = t->mem;
	int64_t old = 0, nv, a = 0;
	uint8_t *vp = NULL;
	const enum mem_op mop = op == P_LOAD ? MEM_LOAD : op == P_STORE ? MEM_STORE
			      : op == P_RMW ? MEM_RMW : MEM_LOCKED_RMW;
	simtime_t next = thread_access(t, addr, in->addr.size, mop, in->site, now);

	line = m->last_line;
	/* The value's place, found once for the read and the write (NULL: the _at calls). */
	if (op != P_LOAD)
		vp = mem_value_ptr(m, line, addr, size);
	/* A load into no local reads no value: the access alone is what it models. */
	if (op != P_LOAD && vp)
		old = sext(mem_value_get(vp, size), size);
	else if (op != P_LOAD || in->dst >= 0)
		old = sext(mem_peek_at(m, line, addr, size), size);
	nv = old;
	if (op != P_LOAD && in->av.kind)
		a = it_val(t, &in->av, loc);
	if (op == P_STORE)
		nv = a;
	else if (op == P_RMW || op == P_ATOMIC)
		nv = in->kind == RMW_ADD ? old + a : in->kind == RMW_SUB ? old - a : a;
	else if (op == P_CMPXCHG && old == a)
		nv = it_val(t, &in->bv, loc);
	if (op != P_LOAD && nv != old && vp)
		mem_value_set(vp, size, (uint64_t)nv);
	else if (op != P_LOAD && nv != old)
		mem_poke_at(m, line, addr, size, (uint64_t)nv);
	/* What a load returns is the memory at its issue: `observe` compares with the truth
	 * of that moment, not of the moment the thread resumes.  The thread's copy is renewed
	 * only when a truth changed since it was taken. */
	if (op == P_LOAD && t->truth_gen != t->w->truth_gen) {
		for (uint32_t c = 0; c < t->w->prog->nr_counters; c++)
			t->truth_at_load[c] = t->w->cstats[c].truth;
		t->truth_gen = t->w->truth_gen;
	}
	if (in->dst >= 0)
		loc[in->dst] = op == P_LOAD || op == P_CMPXCHG || in->kind == RMW_SET ? old : nv;
	if (op == P_LOAD && t->mlp) {
		if (in->dst >= 0)
			it_set_ready(t->top, in->dst, next);
		return load_slot(t, now, next);
	}
	return next;
}

/* The memory operations but the load (run_step's own copy): not inlined, so that the load's
 * path through run_step stays short. */
static __attribute__((noinline)) simtime_t
exec_mem(struct ptask *t, const struct pinsn *in, int64_t *loc, simtime_t now)
{
	uint64_t addr = it_addr_inline(t, &in->addr, loc);

	switch (in->op) {
	case P_STORE: return exec_mem_op(t, in, loc, now, P_STORE, addr);
	case P_RMW: return exec_mem_op(t, in, loc, now, P_RMW, addr);
	case P_ATOMIC: return exec_mem_op(t, in, loc, now, P_ATOMIC, addr);
	default: return exec_mem_op(t, in, loc, now, P_CMPXCHG, addr);
	}
}

void it_for_init(struct ptask *t, const struct pinsn *in, int64_t *loc)
{
	const struct entities *e = t->w->ents;
	uint32_t c = in->callee;

	switch (in->kind) {
	case IT_RANGE:
		loc[c] = it_val(t, &in->av, loc);
		loc[c + 1] = it_val(t, &in->bv, loc);
		break;
	case IT_CPUS:
	case IT_NODES:
		loc[c] = 0;
		loc[c + 1] = in->kind == IT_CPUS ? t->w->mc->nr_cpus : t->w->mc->numa_nodes;
		break;
	case IT_ANCESTORS:
		loc[c] = it_val(t, &in->av, loc);
		if (!it_in_range(t, loc[c], e->nr, "entity"))
			loc[c] = -1;
		loc[c + 1] = 1; /* a walk through memory: the first step visits the start */
		break;
	case IT_CHILDREN:
		loc[c] = it_val(t, &in->av, loc);
		loc[c] = it_in_range(t, loc[c], e->nr, "entity") ? e->first_child[loc[c]] : -1;
		break;
	}
}

/* Return: false when the loop is over. */
static bool exec_for_next(struct ptask *t, const struct pinsn *in, int64_t *loc)
{
	const struct entities *e = t->w->ents;
	uint32_t c = in->callee;

	if (in->kind <= IT_NODES) {
		if (loc[c] >= loc[c + 1])
			return false;
		loc[in->dst] = loc[c]++;
		return true;
	}
	if (loc[c] < 0)
		return false;
	loc[in->dst] = loc[c];
	loc[c] = in->kind == IT_ANCESTORS ? e->parent[loc[c]] : e->next_sibling[loc[c]];
	return true;
}

/* Return from the current frame; true when the top-level call is over. */
static bool exec_return(struct ptask *t, const struct pinsn *in, simtime_t now)
{
	struct frame *f = t->top;
	struct pathstat *ps = &t->w->pstats[f->path];
	int64_t v = in->av.kind ? it_val(t, &in->av, f->locals) : 0;

	it_sample(&ps->lat, now - f->start);
	if (--t->depth == 0) {
		ps->top_calls++;
		ps->lines += t->call_lines;
		ps->remote += t->call_remote;
		return true;
	}
	f = t->top = &t->frames[t->depth - 1];
	if (f[1].ret_dst >= 0)
		f->locals[f[1].ret_dst] = v;
	return false;
}

static void exec_call(struct ptask *t, const struct pinsn *in, int64_t *loc, simtime_t now)
{
	int64_t spill[PATH_MAX_PARAMS];
	/* The arguments go straight into the callee's frame, when there is one for it. */
	int64_t *args = spill;
	/* (in locals: each store to an argument could change them, to the compiler) */
	const struct operand *argv = in->argv;
	const uint8_t nr_args = in->nr_args;

	if (t->depth < INTERP_MAX_DEPTH) {
		frame_zero(&t->frames[t->depth], nr_args, in->callee_locals);
		args = t->frames[t->depth].locals;
	}
	for (uint8_t i = 0; i < nr_args; i++)
		args[i] = it_val(t, &argv[i], loc);
	t->top->ip++;
	if (t->depth == INTERP_MAX_DEPTH) {
		it_model_error(t, in, "call of %s nested deeper than %d calls (expected at most "
			       "INTERP_MAX_DEPTH = %d frames: does a path call itself?)",
			       t->w->prog->paths[in->callee].name, INTERP_MAX_DEPTH, INTERP_MAX_DEPTH);
		return;
	}
	push_frame(t, in->callee, in->callee_code, in->dst, in->site, now);
}

/* Per-cpu update lists (rstat): add if not queued yet, pop the most recent, test empty. */
static void exec_list(struct ptask *t, const struct pinsn *in, int64_t *loc)
{
	struct world *w = t->w;
	int64_t cpu = it_val(t, &in->av, loc);
	size_t l;

	if (!it_in_range(t, cpu, w->mc->nr_cpus, "CPU"))
		cpu = t->cpu;
	l = (size_t)in->callee * w->mc->nr_cpus + (size_t)cpu;
	switch (in->kind) {
	case LIST_ADD: {
		int64_t item = it_val(t, &in->bv, loc);

		for (uint32_t i = 0; i < w->list_len[l]; i++)
			if (w->list_items[l][i] == item)
				return;
		if (w->list_len[l] == w->list_cap[l]) {
			w->list_cap[l] = w->list_cap[l] ? 2 * w->list_cap[l] : 8;
			w->list_items[l] = g_renew(int64_t, w->list_items[l], w->list_cap[l]);
		}
		w->list_items[l][w->list_len[l]++] = item;
		return;
	}
	case LIST_POP:
		loc[in->dst] = w->list_len[l] ? w->list_items[l][--w->list_len[l]] : -1;
		return;
	default:
		loc[in->dst] = w->list_len[l] == 0;
	}
}

static void exec_counter(struct ptask *t, const struct pinsn *in, int64_t *loc)
{
	struct counterstat *c = &t->w->cstats[in->callee];
	int64_t v = it_val(t, &in->av, loc);

	if (in->op == P_TRUTH) {
		c->truth += v;
		t->w->truth_gen++;
		return;
	}
	int64_t truth = t->truth_at_load[in->callee];

	c->reads++;
	c->last_read = v;
	c->last_truth = truth;
	if ((uint64_t)(v > truth ? v - truth : truth - v) > c->max_abs_error)
		c->max_abs_error = (uint64_t)(v > truth ? v - truth : truth - v);
}

/* The scoreboard's bookkeeping for instructions that pass readiness on instead of waiting
 * (a return's is run_step's): @r is when @in's operands are there (it_deps_ready). */
static void pass_ready(const struct pinsn *in, struct frame *f, simtime_t r)
{
	switch (in->op) {
	case P_SET:
	case P_FOR_NEXT:
		it_set_ready(f, in->dst, r);
		break;
	case P_FOR_INIT:
		it_set_ready(f, in->callee, r);
		it_set_ready(f, in->callee + 1, r);
		break;
	case P_CALL: /* called after exec_call pushed the callee's frame, right after @f */
		for (uint8_t i = 0; i < in->nr_args; i++)
			it_set_ready(&f[1], i, r);
		break;
	}
}

/* Must @op wait for its operands (machine mlp > 1)?  Branches are predicted, and
 * assignments, loops, calls and returns hand readiness on (pass_ready). */
static bool waits_for_operands(uint8_t op)
{
	return op != P_SET && op != P_JUMP && op != P_JUMP_IF_NOT && op != P_FOR_INIT &&
	       op != P_FOR_NEXT && op != P_CALL && op != P_RETURN;
}

/* scoreboard - with mlp > 1, before @in runs, when some local of its frame @f gets its
 * value after @now (run_step tests that: when every local had its value by now, the
 * operands' time is past, as good as 0 to every comparison with the thread's clock, which
 * never goes back; so is each local's time in this frame, and a 0 handed on to one of them
 * leaves it so).  Return: when @in must wait for its operands, the time they are there
 * (> @now); else 0, after handing readiness on for what does not wait but calls and
 * returns, which run_step hands *@r, when their operands are there, on.  A time at or
 * before @now may be handed on as 0: every later comparison with the clock treats both
 * alike. */
static simtime_t scoreboard(struct ptask *t, const struct pinsn *in, struct frame *f,
			    simtime_t now, simtime_t *r)
{
	*r = it_deps_ready(f, in->deps);
	if (waits_for_operands(in->op))
		return *r > now ? *r : 0;
	/* (the commonest, an assignment's or a loop step's one local, without pass_ready's
	 * call) */
	if (in->op == P_SET || in->op == P_FOR_NEXT)
		it_set_ready(f, in->dst, *r);
	else if (in->op == P_FOR_INIT)
		pass_ready(in, f, *r);
	return 0;
}

/* One instruction that takes no time (@ready: when its operands are there, under mlp > 1),
 * or a step of a walk through memory: @op, a constant (run_step has a copy per op, so that
 * it dispatches once).  Return: when the thread goes on, @now but after a walk's load. */
static inline __attribute__((always_inline)) simtime_t
exec_free(struct ptask *t, const struct pinsn *in, struct frame *f, simtime_t now,
	  simtime_t ready, const uint8_t op)
{
	int64_t *loc = f->locals;

	switch (op) { /* (P_SET and P_JUMP_IF_NOT: run_step's own) */
	case P_JUMP:
		f->ip = f->code + in->target;
		return now;
	case P_FOR_INIT: /* (only loops have walk_mem: the other instructions need no test) */
		if (in->walk_mem)
			return it_walk(t, in, f, now);
		it_for_init(t, in, loc);
		break;
	case P_FOR_NEXT:
		if (in->walk_mem)
			return it_walk(t, in, f, now);
		f->ip = exec_for_next(t, in, loc) ? in + 1 : f->code + in->target;
		return now;
	case P_CALL:
		exec_call(t, in, loc, now);
		/* (no 0 is handed on: push_frame zeroed the arguments' times already) */
		if (ready && t->depth > 1 && t->top->ip == t->top->code)
			pass_ready(in, t->top - 1, ready);
		return now;
	case P_LIST:
		exec_list(t, in, loc);
		break;
	default: /* P_TRUTH, P_OBSERVE */
		exec_counter(t, in, loc);
	}
	f->ip++;
	return now;
}

/* P_DELAY: compute for `ns` or `cycles`, stretched when an SMT sibling runs (a machine
 * parameter).  Return: when it is over, or INTERP_STOPPED after a model error. */
static simtime_t exec_delay(struct ptask *t, const struct pinsn *in, const int64_t *loc,
			    simtime_t now)
{
	const struct machine *mc = t->w->mc;
	int64_t d = it_val(t, &in->av, loc);
	simtime_t ps = 0, next;
	bool ok = d <= 0 || !__builtin_mul_overflow((uint64_t)d, in->delay_cycles ? mc->cycle
									       : PS_PER_NS, &ps);

	if (ok && t->w->cpu_shared && t->w->cpu_shared[t->cpu])
		ok = simtime_pct(ps, mc->smt_compute_pct, &ps);
	if (ok && simtime_add(now, ps, &next))
		return next;
	if (t->w->end_time)
		return t->w->end_time; /* past the end anyway: the run loop cuts the thread */
	it_model_error(t, in, "a delay of %" PRId64 " %s takes the clock past %" PRIu64 " ps "
		       "(expected the run to end before SIMTIME_MAX, 2^63 - 1 ps)", d,
		       in->delay_cycles ? "cycles" : "ns", SIMTIME_MAX);
	return INTERP_STOPPED;
}

/* The instructions that take time but access no memory of their own (or stream: work). */
static simtime_t exec_timed(struct ptask *t, const struct pinsn *in, int64_t *loc,
			    simtime_t now)
{
	switch (in->op) {
	case P_IRQ: /* pushf; pop; cli or sti: a few cycles, a machine parameter. */
		return now + (in->kind ? t->w->mc->irq_on : t->w->mc->irq_off);
	case P_DELAY:
		return exec_delay(t, in, loc, now);
	default:
		return it_work(t, in, loc, now);
	}
}

/* interp_run's steps: run until the thread must wait; return as interp_run does.  A model
 * error, a failure of the memory system or a signal stops the thread at its next step
 * (interp_run tests that before each): until then it goes on with the stand-ins the errors
 * leave (interp_int.h), at most INTERP_FREE_INSNS instructions, and what it returns is a
 * time the run, stopped, never reaches.  The first error is the one reported, so its
 * instruction is the one named. */
/* run_step()'s switch names every op and has no default range test: a new op needs its case. */
_Static_assert(P_OP_COUNT == 21, "run_step() has a case for each of the 21 ops");
_Static_assert(PX_COUNT == P_OP_COUNT + 9, "run_step() has a case for each of a load's 9 forms");

/* A free instruction @op (exec_free) in run_step. */
#define FREE_CASE(op) \
	case (op): \
		if ((next = exec_free(t, in, f, now, ready, (op))) > now) \
			return next; \
		continue

/* A load of address form @form (pinsn.xop PX_LOAD + @form): its address's own copy, then
 * the load's one copy (run_step's `load:`). */
#define LOAD_CASE(form) \
	case PX_LOAD + (form): \
		addr = addr_of_form(t, &in->addr, f->locals, (form)); \
		goto load

static simtime_t run_step(struct ptask *t, simtime_t now)
{
	t->now = now; /* every instruction of the step issues then */
	for (uint32_t n = 0; n < INTERP_FREE_INSNS; n++) {
		struct frame *f = t->top;
		const struct pinsn *in = f->ip;
		simtime_t next, ready = 0;
		uint64_t addr;

		/* (with mlp 1 no local gets a time: ready_max stays 0, as no test of mlp) */
		if (f->ready_max > now && (next = scoreboard(t, in, f, now, &ready)))
			return next; /* re-run this instruction when its operands are there */
		switch (in->xop) {
		LOAD_CASE(0); LOAD_CASE(AF_ENT); LOAD_CASE(AF_NODE); LOAD_CASE(AF_ENT | AF_NODE);
		LOAD_CASE(AF_PERCPU); LOAD_CASE(AF_ENT | AF_PERCPU); LOAD_CASE(AF_NODE | AF_PERCPU);
		LOAD_CASE(AF_ENT | AF_NODE | AF_PERCPU); LOAD_CASE(AF_PTR);
		load:
			next = exec_mem_op(t, in, f->locals, now, P_LOAD, addr);
			break;
		case P_STORE: case P_RMW: case P_ATOMIC: case P_CMPXCHG:
			next = exec_mem(t, in, f->locals, now);
			break;
		case P_IRQ: case P_DELAY: case P_WORK:
			next = exec_timed(t, in, f->locals, now);
			break;
		case P_SET: /* the commonest free instructions, without exec_free's dispatch */
			f->locals[in->dst] = it_val(t, &in->av, f->locals);
			f->ip = in + 1;
			continue;
		case P_JUMP_IF_NOT:
			f->ip = it_cond(t, &in->av, f->locals) ? in + 1 : f->code + in->target;
			continue;
		case P_LOCK: case P_UNLOCK: case P_TRYLOCK:
			next = it_lock(t, in, now);
			if (next != INTERP_PARKED && !t->lock_phase)
				f->ip++;
			return next;
		case P_RETURN: /* its value is there when its operands are */
			if (t->depth > 1 && f->ret_dst >= 0 && t->mlp)
				it_set_ready(&f[-1], f->ret_dst, ready);
			if (exec_return(t, in, now))
				return INTERP_DONE;
			continue;
		FREE_CASE(P_JUMP); FREE_CASE(P_FOR_INIT); FREE_CASE(P_FOR_NEXT); FREE_CASE(P_CALL);
		FREE_CASE(P_LIST); FREE_CASE(P_TRUTH); FREE_CASE(P_OBSERVE);
		default: /* every op has its case (a load's are its forms): no test of the jump
			  * table's range; P_LOAD itself is never an xop */
			__builtin_unreachable();
		}
		f->ip = in + 1; /* (the ops that break leave it at @in: no load of it again) */
		if (next > now)
			return next;
	}
	/* INTERP_FREE_INSNS without simulated time: a cycle each (interp.h). */
	return now + (simtime_t)INTERP_FREE_INSNS * t->w->mc->cycle;
}

simtime_t interp_run(struct ptask *t, simtime_t now)
{
	struct world *w = t->w;
	simtime_t next;

	/* A time (below INTERP_PARKED) is where the run loop's next call of this thread
	 * would start: when world_step_on() lets it, that call is this loop's next turn; it
	 * tested the failures of world_stopped(): only a signal is left to test. */
	if (world_stopped(w))
		return INTERP_STOPPED;
	while ((next = run_step(t, now)) < INTERP_PARKED && world_step_on(w, next)) {
		if (*w->stop)
			return INTERP_STOPPED;
		now = next;
	}
	return next;
}
