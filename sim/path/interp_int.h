/* interp_int.h - shared by the interpreter's files (interp*.c) only. */
#ifndef C2C_INTERP_INT_H
#define C2C_INTERP_INT_H

#include "path/interp.h"

#define PERCPU_STRIDE PERCPU_UNIT
#define WORK_SIZE 0x100000ull  /* each CPU streams `work` through 1 MiB of its own */

/* it_addr - the address of @a for the thread's current frame (it_addr_inline, for the
 * instructions other than exec_mem's). */
uint64_t it_addr(struct ptask *t, const struct member_ref *a);

/* it_running - the instruction the top frame is running (exec_call stepped past the call
 * already). */
static inline const struct pinsn *it_running(const struct ptask *t)
{
	return t->top->ip;
}

/* it_work - run `work` instruction @in (P_WORK) at @now (interp_work.c).  Return: when the
 * thread continues. */
simtime_t it_work(struct ptask *t, const struct pinsn *in, int64_t *loc, simtime_t now);

/* A timed access that also counts lines and remote fetches of the current top-level call. */
simtime_t it_access(struct ptask *t, uint64_t addr, uint32_t size, enum mem_op op,
		    uint32_t site, simtime_t now);

/* The line set of the current top-level call (struct line_set): set up and release with the
 * thread; it_lines_new_call empties it (and zeroes call_lines) for a new call. */
void it_lines_init(struct ptask *t);
void it_lines_release(struct ptask *t);
void it_lines_new_call(struct ptask *t);
void it_lines_grow(struct ptask *t);
/* it_line_first_by_line - it_line_first() of a thread that keeps stamps per line. */
bool it_line_first_by_line(struct ptask *t, uint32_t idx);

/* A line's place in the set: its index times an odd constant, masked (one multiply, no
 * shift).  The low bits of the product are a permutation of the index's own, so lines
 * that share a place are the same as with the index itself, but a run of consecutive lines
 * (an object's) is scattered, not one cluster the linear probe walks (the index alone:
 * +11.7 M instructions in default-before; the product's high 32 bits of 64 cost the
 * 64-bit constant and a shift more). */
static inline uint32_t it_line_hash(uint32_t idx)
{
	return idx * 0x9e3779b1u;
}

/* it_line_first - is this the current call's first access to line @idx?  Records it, and
 * counts it in call_lines, if so. */
static inline bool it_line_first(struct ptask *t, uint32_t idx)
{
	struct line_slot *s = t->lines.slot;
	const uint32_t mask = t->lines.mask;

	if (__builtin_expect(!s, 0))
		return it_line_first_by_line(t, idx);
	for (uint32_t h = it_line_hash(idx) & mask;; h = (h + 1) & mask) {
		if (s[h].stamp != t->stamp) {
			s[h] = (struct line_slot){idx, t->stamp};
			if (++t->call_lines > mask / 2)
				it_lines_grow(t);
			return true;
		}
		if (s[h].idx == idx)
			return false;
	}
}

/* it_in_range - is @v a valid index below @n?  Else a model error naming @what ("CPU",
 * "entity"); the caller goes on with a valid stand-in until the run stops, so nothing
 * outside the model's memory is touched. */
bool it_out_of_range(struct ptask *t, int64_t v, int64_t n, const char *what); /* false */

static inline bool it_in_range(struct ptask *t, int64_t v, int64_t n, const char *what)
{
	return (v >= 0 && v < n) || it_out_of_range(t, v, n, what);
}

/* it_eval - the value of @e in the current frame (@loc: its locals); a division fault is a
 * model error at the running instruction. */
int64_t it_eval(struct ptask *t, const struct expr *e, const int64_t *loc);

/* it_val_op - it_val of an operand that is more than one constant, local or builtin: out
 * of line, so that it_val stays small enough to be inlined everywhere. */
int64_t it_val_op(struct ptask *t, const struct operand *o, const int64_t *loc);

/* it_val - the value of operand @o (not OPND_NONE) in the current frame, its expression
 * evaluated (it_eval) only when it is more than one constant, local or builtin, or than one
 * operator on a local and a constant or two locals. */
static inline int64_t it_val(struct ptask *t, const struct operand *o, const int64_t *loc)
{
	switch (o->kind) {
	case OPND_CONST: return o->v;
	case OPND_LOCAL: return loc[o->v];
	case OPND_BUILTIN: return t->builtins[o->v];
	default: return it_val_op(t, o, loc);
	}
}

/* it_cond - a branch's condition @c (P_JUMP_IF_NOT): most are `x OP C` (n < BATCH), that
 * one without it_val_op's call. */
static inline int64_t it_cond(struct ptask *t, const struct operand *c, const int64_t *loc)
{
	return c->kind == OPND_LOC_CONST ? expr_binop_apply(c->bop, loc[c->x], c->v)
					 : it_val(t, c, loc);
}

/* it_model_error - stop the run with a model error at instruction @in of the running path
 * (see interp.h for the message).  Only the first error is kept. */
void it_model_error(struct ptask *t, const struct pinsn *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* it_sample - add @v to @s (a path's latency at every return: inline, with the growth of
 * the array out of line). */
void it_samples_grow(struct samples *s);

static inline void it_sample(struct samples *s, uint64_t v)
{
	if (s->nr == s->cap)
		it_samples_grow(s);
	s->v[s->nr++] = v;
	s->total += v;
	if (v > s->max)
		s->max = v;
	if (s->nr == 1 || v < s->min)
		s->min = v;
}

_Static_assert(PATH_MAX_LOCALS <= 64, "frame.ready_set has a bit per local");

/* it_set_ready - local @l of frame @f has its value at @r (mlp > 1). */
static inline void it_set_ready(struct frame *f, int l, simtime_t r)
{
	f->ready[l] = r;
	f->ready_set |= 1ull << l;
	if (r > f->ready_max)
		f->ready_max = r;
}

/* it_ready - when local @l of frame @f has its value (mlp > 1). */
static inline simtime_t it_ready(const struct frame *f, int l)
{
	return f->ready_set >> l & 1 ? f->ready[l] : 0;
}

/* it_deps_ready - when every local in @deps of frame @f has its value (mlp > 1). */
static inline simtime_t it_deps_ready(const struct frame *f, uint64_t deps)
{
	simtime_t r = 0;

	for (deps &= f->ready_set; deps; deps &= deps - 1) {
		int l = __builtin_ctzll(deps);

		if (f->ready[l] > r)
			r = f->ready[l];
	}
	return r;
}

/* it_load_slot - a load whose data arrives at @done takes one of the thread's mlp slots.
 * Return: when the thread can go on. */
simtime_t it_load_slot(struct ptask *t, simtime_t now, simtime_t done);

/* it_for_init - a loop's first state (P_FOR_INIT) in the hidden locals. */
void it_for_init(struct ptask *t, const struct pinsn *in, int64_t *loc);

/* it_walk - run a P_FOR_INIT/P_FOR_NEXT with walk_mem (interp_walk.c).  Return: when the
 * thread continues (@now when the step loaded nothing). */
simtime_t it_walk(struct ptask *t, const struct pinsn *in, struct frame *f, simtime_t now);

/* Park the thread until @addr's line is written. */
void it_park(struct ptask *t, uint64_t addr);

/* it_on_write - mem's on_write hook (world_init sets it, @data the world): wake, in parking
 * order, every thread spinning on @line. */
void it_on_write(void *data, uint32_t line, simtime_t when);

/* it_lock - run the lock instruction @in (P_LOCK, P_UNLOCK, P_TRYLOCK).  Return: the time to
 * continue (the instruction is finished when t->lock_phase is back to 0), or INTERP_PARKED. */
simtime_t it_lock(struct ptask *t, const struct pinsn *in, simtime_t now);

/* The sources of a remote fetch (enum ld_src), one bit each. */
#define REMOTE_SRCS (1u << SRC_HITM_RMT | 1u << SRC_RMT_HIT | 1u << SRC_DRAM_RMT)
_Static_assert(SRC_COUNT <= 32, "REMOTE_SRCS has a bit per source");

/* it_count_access - what the current top-level call counts of an access: its line @idx
 * (DIR_NONE: none, the run failed) and whether its load source @src (enum ld_src) is remote. */
static inline void it_count_access(struct ptask *t, uint32_t idx, int src)
{
	if (idx != DIR_NONE)
		it_line_first(t, idx);
	/* A remote fetch: one bit per source, as no branch */
	t->call_remote += REMOTE_SRCS >> (src & 31) & 1;
}

/* A memory access by the thread: time, and for top-level calls, lines and remote fetches.
 * Inlined into exec_mem, the access of most instructions; it_access for the others. */
static inline __attribute__((always_inline)) simtime_t
thread_access(struct ptask *t, uint64_t addr, uint32_t size, enum mem_op op, uint32_t site,
	      simtime_t now)
{
	struct mem *m = t->mem;
	simtime_t next = mem_access_op(m, t->cpu, addr, size, op, site, t->top->caller_site,
				       now);

	/* (the access's line: no second directory lookup) */
	it_count_access(t, m->last_line, m->last_src);
	return next;
}

#endif
