/*
 * interp_addr.c - the run-time model errors that stop a run when a model asks for something
 * the kernel could not do (see interp.h), and what a path instruction addresses
 * (interp_addr.h: inline, as every access asks).
 */
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>

#include "path/interp_addr.h"

/* ------------------------------------------------------------------ model errors */

void it_model_error(struct ptask *t, const struct pinsn *in, const char *fmt, ...)
{
	struct world *w = t->w;
	const struct frame *f = t->top;
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
		it_model_error(t, it_running(t), "'%s': %s", expr_text(e), expr_fault_what(fault));
	return v;
}

int64_t it_val_op(struct ptask *t, const struct operand *o, const int64_t *loc)
{
	switch (o->kind) {
	case OPND_LOC_CONST: return expr_binop_apply(o->bop, loc[o->x], o->v);
	case OPND_CONST_LOC: return expr_binop_apply(o->bop, o->v, loc[o->x]);
	case OPND_LOC_LOC: return expr_binop_apply(o->bop, loc[o->x], loc[o->y]);
	case OPND_LOC_CB:
		return expr_binop_apply(o->bop, loc[o->x],
					expr_binop_apply(o->bop2, o->v, t->builtins[o->y]));
	case OPND_ABS_CONST: /* abs() wraps as the kernel's: abs(INT64_MIN) is INT64_MIN */
		return expr_binop_apply(o->bop, loc[o->x] < 0 ? (int64_t)(0 - (uint64_t)loc[o->x])
							     : loc[o->x], o->v);
	default: return it_eval(t, o->e, loc);
	}
}

bool it_out_of_range(struct ptask *t, int64_t v, int64_t n, const char *what)
{
	if (n > 0)
		it_model_error(t, it_running(t), "%s %" PRId64 " does not exist (expected 0 to %"
			       PRId64 ")", what, v, n - 1);
	else
		it_model_error(t, it_running(t), "%s %" PRId64 " does not exist (expected none: the "
			       "scenario has no %s)", what, v, what);
	return false;
}

/* The address of @a whatever its entity handle (interp_addr.h takes this way for a handle out
 * of range or of another kind than the path's): each part tested. */
uint64_t it_addr_any(struct ptask *t, const struct member_ref *a, const int64_t *loc)
{
	const struct entities *es = t->w->ents;
	const uint32_t nodes = (uint32_t)t->w->mc->numa_nodes;
	uint64_t base;
	int64_t node = 0, e;
	bool percpu = a->percpu;

	if (a->ptr >= 0)
		return ptr_addr(t, a, loc);
	if (a->nodev.kind && !it_in_range(t, node = it_val(t, &a->nodev, loc), nodes, "node"))
		node = 0;
	if (a->ent < 0) {
		base = es->global_base[(uint32_t)a->obj * nodes + (uint32_t)node];
	} else {
		if (!it_in_range(t, e = loc[a->ent], es->nr, "entity"))
			return stand_in(t);
		/* An entity of another kind than the path's: its kind's object, per cpu or not. */
		if (es->kind[e] != a->kind) {
			const struct kind *k = &t->w->prog->kinds[es->kind[e]];

			if (!it_in_range(t, a->obj, k->nr_obj, "object of entity"))
				return stand_in(t);
			percpu = k->obj[a->obj].percpu;
		}
		base = es->base[es->base_at[e] + (uint32_t)a->obj * nodes + (uint32_t)node];
	}
	if (percpu)
		base += (uint64_t)percpu_cpu(t, a, loc) * PERCPU_STRIDE;
	return base + member_offset(t, a, loc);
}

uint64_t it_addr(struct ptask *t, const struct member_ref *a)
{
	return it_addr_inline(t, a, t->top->locals);
}
