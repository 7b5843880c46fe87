/* interp_addr.h - what a path instruction addresses (interp*.c only): inline, because every
 * memory access asks and a call's register saves cost about as much as the answer. */
#ifndef C2C_INTERP_ADDR_H
#define C2C_INTERP_ADDR_H

#include <inttypes.h>

#include "path/interp_int.h"

/* The member's byte offset from its object: the constant part plus each index times its
 * stride.  An index out of range is a model bug: the run stops and says where (index 0). */
static inline uint64_t member_offset(struct ptask *t, const struct member_ref *a,
				     const int64_t *loc)
{
	uint64_t off = a->off;

	for (int i = 0; i < a->nr_idx; i++) {
		int64_t ix = it_val(t, &a->idxv[i], loc);

		/* one test: a flexible array's bound is taken as 2^63, past every index >= 0 */
		if ((uint64_t)ix >= (a->bound[i] ? a->bound[i] : (uint64_t)INT64_MAX + 1)) {
			if (a->bound[i])
				it_model_error(t, it_running(t), "index %" PRId64 " is out of range "
					       "(expected 0 to %u)", ix, a->bound[i] - 1);
			else
				it_model_error(t, it_running(t), "index %" PRId64 " of a flexible "
					       "array is negative (expected an index >= 0)", ix);
			ix = 0;
		}
		off += (uint64_t)ix * a->stride[i];
	}
	return off;
}

/* A handle from memory or list_pop can be anything: until the run stops, touch the CPU's
 * private `work` buffer, which no model object shares. */
static inline uint64_t stand_in(const struct ptask *t)
{
	return t->w->work_base + (uint64_t)t->cpu * WORK_SIZE;
}

/* P->MEMBER: the address is the pointer's value; NULL is the model's bug, as in the kernel. */
static inline uint64_t ptr_addr(struct ptask *t, const struct member_ref *a, const int64_t *loc)
{
	uint64_t base = (uint64_t)loc[a->ptr];

	if (!base) {
		it_model_error(t, it_running(t), "NULL pointer dereference (expected a pointer the "
			       "entities' init: sets)");
		return stand_in(t); /* the run stops first */
	}
	return base + member_offset(t, a, loc);
}

/* it_addr_any - the address of @a whatever its entity handle (out of line: the forms'
 * copies take it for a handle out of range or of another kind than the path's), each part
 * tested. */
uint64_t it_addr_any(struct ptask *t, const struct member_ref *a, const int64_t *loc);

/* The CPU of a per-cpu object's instance: the executing one, or the address's @CPU. */
static inline int64_t percpu_cpu(struct ptask *t, const struct member_ref *a, const int64_t *loc)
{
	int64_t cpu = t->cpu;

	if (a->cpuv.kind && !it_in_range(t, cpu = it_val(t, &a->cpuv, loc), t->builtins[EB_NR_CPUS],
					  "CPU"))
		cpu = t->cpu;
	return cpu;
}

/* The address of @a, of form @form (a constant: each form's copy has only its parts).  An
 * entity handle out of range or of a kind other than the one compiled against takes the
 * general way (it_addr_any), which finds its error or its kind's object. */
static inline __attribute__((always_inline)) uint64_t
addr_of_form(struct ptask *t, const struct member_ref *a, const int64_t *loc, const unsigned form)
{
	const struct entities *es = t->w->ents;
	const uint32_t nodes = (uint32_t)t->builtins[EB_NR_NODES];
	int64_t node = 0;
	uint64_t base;

	if (form & AF_PTR)
		return ptr_addr(t, a, loc);
	if ((form & AF_NODE) && !it_in_range(t, node = it_val(t, &a->nodev, loc), nodes, "node"))
		node = 0;
	if (form & AF_ENT) {
		int64_t e = loc[a->ent];

		if ((uint64_t)e >= es->nr || es->kind[e] != a->kind)
			return it_addr_any(t, a, loc);
		base = es->base[es->base_at[e] + (uint32_t)a->obj * nodes + (uint32_t)node];
	} else {
		base = es->global_base[(uint32_t)a->obj * nodes + (uint32_t)node];
	}
	if (form & AF_PERCPU)
		base += (uint64_t)percpu_cpu(t, a, loc) * PERCPU_STRIDE;
	return base + member_offset(t, a, loc);
}

/* it_addr_inline - the address of @a for the thread's current frame, whose locals are @loc:
 * one branch on its form (enum addr_form) to that form's copy. */
static inline __attribute__((always_inline)) uint64_t
it_addr_inline(struct ptask *t, const struct member_ref *a, const int64_t *loc)
{
	switch (a->form) {
	case 0: return addr_of_form(t, a, loc, 0);
	case AF_ENT: return addr_of_form(t, a, loc, AF_ENT);
	case AF_NODE: return addr_of_form(t, a, loc, AF_NODE);
	case AF_ENT | AF_NODE: return addr_of_form(t, a, loc, AF_ENT | AF_NODE);
	case AF_PERCPU: return addr_of_form(t, a, loc, AF_PERCPU);
	case AF_ENT | AF_PERCPU: return addr_of_form(t, a, loc, AF_ENT | AF_PERCPU);
	case AF_NODE | AF_PERCPU: return addr_of_form(t, a, loc, AF_NODE | AF_PERCPU);
	case AF_ENT | AF_NODE | AF_PERCPU:
		return addr_of_form(t, a, loc, AF_ENT | AF_NODE | AF_PERCPU);
	case AF_PTR: return addr_of_form(t, a, loc, AF_PTR);
	default: /* member_ref_form() makes no other: no test of the jump table's range */
		__builtin_unreachable();
	}
}

#endif
