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

/* it_addr_inline - the address of @a for the thread's current frame, whose locals are @loc. */
static inline __attribute__((always_inline)) uint64_t
it_addr_inline(struct ptask *t, const struct member_ref *a, const int64_t *loc)
{
	struct world *w = t->w;
	const uint32_t nodes = (uint32_t)w->mc->numa_nodes;
	uint64_t base;
	int64_t node = 0, cpu = t->cpu;
	bool percpu = a->percpu;

	if (a->ptr >= 0)
		return ptr_addr(t, a, loc);
	if (a->nodev.kind && !it_in_range(t, node = it_val(t, &a->nodev, loc), nodes, "node"))
		node = 0;
	if (a->ent >= 0) {
		int64_t e = loc[a->ent];

		if (!it_in_range(t, e, w->ents->nr, "entity"))
			return stand_in(t);
		/* An entity of the kind the path names has the object, per cpu or not, as
		 * compiled; another kind's is looked up. */
		if (w->ents->kind[e] != a->kind) {
			const struct kind *k = &w->prog->kinds[w->ents->kind[e]];

			if (!it_in_range(t, a->obj, k->nr_obj, "object of entity"))
				return stand_in(t);
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
	return base + member_offset(t, a, loc);
}

#endif
