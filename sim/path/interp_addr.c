/*
 * interp_addr.c - what a path instruction addresses, and the run-time model errors that
 * stop a run when a model asks for something the kernel could not do; see interp.h.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>

#include "path/interp_int.h"

/* ------------------------------------------------------------------ model errors */

/* The instruction the top frame is running (exec_call stepped past the call already). */
static const struct pinsn *running(const struct ptask *t)
{
	const struct frame *f = &t->frames[t->depth - 1];

	return &f->code[f->pc];
}

void it_model_error(struct ptask *t, const struct pinsn *in, const char *fmt, ...)
{
	struct world *w = t->w;
	const struct frame *f = &t->frames[t->depth - 1];
	char what[C2C_ERR_MAX];
	va_list ap;

	if (w->model_err.set)
		return;
	va_start(ap, fmt);
	g_vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	err_set(&w->model_err, in->mark, "model error in path %s on cpu %d at %" PRIu64 " ps: %s",
		w->prog->paths[f->path].name, t->cpu, t->now, what);
}

int64_t it_eval(struct ptask *t, const struct expr *e, const int64_t *loc)
{
	enum expr_fault fault = EXPR_OK;
	int64_t v = expr_eval(e, loc, t->builtins, &fault);

	if (fault != EXPR_OK)
		it_model_error(t, running(t), "'%s': %s", expr_text(e), expr_fault_what(fault));
	return v;
}

bool it_out_of_range(struct ptask *t, int64_t v, int64_t n, const char *what)
{
	if (n > 0)
		it_model_error(t, running(t), "%s %" PRId64 " does not exist (expected 0 to %"
			       PRId64 ")", what, v, n - 1);
	else
		it_model_error(t, running(t), "%s %" PRId64 " does not exist (expected none: the "
			       "scenario has no %s)", what, v, what);
	return false;
}

/* ------------------------------------------------------------------ addresses */

/* The member's byte offset from its object: the constant part plus each index times its
 * stride.  An index out of range is a model bug: the run stops and says where (index 0).
 * Inlined: on every access, a call's register saves cost as much as the sum. */
static inline __attribute__((always_inline)) uint64_t
member_offset(struct ptask *t, const struct member_ref *a, const int64_t *loc)
{
	uint64_t off = a->off;

	for (int i = 0; i < a->nr_idx; i++) {
		int64_t ix = it_val(t, &a->idxv[i], loc);

		if (ix < 0 || (a->bound[i] && ix >= a->bound[i])) {
			if (a->bound[i])
				it_model_error(t, running(t), "index %" PRId64 " is out of range "
					       "(expected 0 to %u)", ix, a->bound[i] - 1);
			else
				it_model_error(t, running(t), "index %" PRId64 " of a flexible array "
					       "is negative (expected an index >= 0)", ix);
			ix = 0;
		}
		off += (uint64_t)ix * a->stride[i];
	}
	return off;
}

/* P->MEMBER: the address is the pointer's value; NULL is the model's bug, as in the kernel. */
static uint64_t ptr_addr(struct ptask *t, const struct member_ref *a, const int64_t *loc,
			 int *cpu_out)
{
	uint64_t base = (uint64_t)loc[a->ptr];

	if (cpu_out)
		*cpu_out = t->cpu;
	if (!base) {
		it_model_error(t, running(t), "NULL pointer dereference (expected a pointer the "
			       "entities' init: sets)");
		return t->w->work_base + (uint64_t)t->cpu * WORK_SIZE; /* the run stops first */
	}
	return base + member_offset(t, a, loc);
}

/* A handle from memory or list_pop can be anything: until the run stops, touch the CPU's
 * private `work` buffer, which no model object shares. */
static uint64_t stand_in(struct ptask *t, int *cpu_out)
{
	if (cpu_out)
		*cpu_out = t->cpu;
	return t->w->work_base + (uint64_t)t->cpu * WORK_SIZE;
}

uint64_t it_addr(struct ptask *t, const struct member_ref *a, int *cpu_out)
{
	struct world *w = t->w;
	const int64_t *loc = t->frames[t->depth - 1].locals;
	const uint32_t nodes = (uint32_t)w->mc->numa_nodes;
	uint64_t base;
	int64_t node = 0, cpu = t->cpu;
	bool percpu = a->percpu;

	if (a->ptr >= 0)
		return ptr_addr(t, a, loc, cpu_out);
	if (a->nodev.kind && !it_in_range(t, node = it_val(t, &a->nodev, loc), nodes, "node"))
		node = 0;
	if (a->ent >= 0) {
		int64_t e = loc[a->ent];

		if (!it_in_range(t, e, w->ents->nr, "entity"))
			return stand_in(t, cpu_out);
		/* An entity of the kind the path names has the object, per cpu or not, as
		 * compiled; another kind's is looked up. */
		if (w->ents->kind[e] != a->kind) {
			const struct kind *k = &w->prog->kinds[w->ents->kind[e]];

			if (!it_in_range(t, a->obj, k->nr_obj, "object of entity"))
				return stand_in(t, cpu_out);
			percpu = k->obj[a->obj].percpu;
		}
		base = w->ents->base[w->ents->base_at[e] + (uint32_t)a->obj * nodes + (uint32_t)node];
	} else {
		base = w->ents->global_base[(uint32_t)a->obj * nodes + (uint32_t)node];
	}
	if (percpu) {
		if (a->cpuv.kind && !it_in_range(t, cpu = it_val(t, &a->cpuv, loc), w->mc->nr_cpus, "CPU"))
			cpu = t->cpu;
		base += (uint64_t)cpu * PERCPU_STRIDE;
	}
	if (cpu_out)
		*cpu_out = (int)cpu;
	return base + member_offset(t, a, loc);
}
