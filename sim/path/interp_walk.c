/* interp_walk.c - ancestors()/children() walks through the kinds' links in simulated memory;
 * see path.h (Pointers) and interp.h (the scoreboard). */
#include <glib.h>

#include "path/interp_int.h"

/* The member of entity @e that one step of a walk loads: its parent pointer, its
 * children.next (@which KLINK_CHILDREN) or its sibling.next. */
static uint64_t walk_member(const struct ptask *t, int64_t e, int which)
{
	const struct entities *es = t->w->ents;
	const struct klink *l = &t->w->prog->kinds[es->kind[e]].link[which];

	return es->base[es->base_at[e] + (uint32_t)l->obj * (uint32_t)t->w->mc->numa_nodes] +
	       l->off;
}

/* Load the pointer at @addr as any load is (a slot under mlp; the cursor's value arrives
 * with the data; the value read at the line the access gives, as exec_mem reads it) into
 * the cursor: the entity it points at, -1 at the end of the walk (NULL, or a list_head that
 * is not an entity's sibling: the parent's children head). */
static simtime_t walk_load(struct ptask *t, const struct pinsn *in, struct frame *f,
			   uint64_t addr, simtime_t now)
{
	simtime_t done = it_access(t, addr, 8, MEM_LOAD, in->site, now);
	uint64_t v = mem_peek_at(t->w->mem, t->w->mem->last_line, addr, 8);
	gpointer e = g_hash_table_lookup(t->w->ents->by_addr, GSIZE_TO_POINTER(v));

	f->locals[in->callee] = e ? (int64_t)GPOINTER_TO_SIZE(e) - 1 : -1;
	if (t->w->mc->mlp == 1)
		return done;
	it_set_ready(f, in->callee, done);
	return it_load_slot(t, now, done);
}

/*
 * it_walk - a step of ancestors()/children() of a kind with links: the cursor is the
 * entity being visited, and going on loads the pointer the kernel follows, so the next
 * entity's address is known only when that load completes (a pointer chase, whatever the
 * mlp).  Return: when the thread continues (now when nothing was loaded).
 */
simtime_t it_walk(struct ptask *t, const struct pinsn *in, struct frame *f, simtime_t now)
{
	int64_t *loc = f->locals;
	uint32_t c = in->callee;
	simtime_t next = now, r = it_ready(f, (int)c);

	if (in->op == P_FOR_INIT && in->kind == IT_ANCESTORS) {
		it_for_init(t, in, loc);   /* the first step visits the start: no load */
		f->ip++;
		return now;
	}
	if (in->op == P_FOR_INIT) {
		int64_t e;

		if ((r = it_deps_ready(f, in->deps)) > now)
			return r;
		if (!it_in_range(t, e = it_val(t, &in->av, loc), t->w->ents->nr, "entity")) {
			f->ip = f->code + in->target; /* the run stops at this model error */
			return now;
		}
		next = walk_load(t, in, f, walk_member(t, e, KLINK_CHILDREN), now);
		loc[c + 1] = 1;
		f->ip++;
		return next;
	}
	if (!loc[c + 1] && loc[c] >= 0) {
		if (r > now)
			return r; /* the address of the pointer is not known yet */
		next = walk_load(t, in, f, walk_member(t, loc[c], in->kind == IT_ANCESTORS
						       ? KLINK_PARENT : KLINK_SIBLING), now);
	}
	loc[c + 1] = 0;
	if (loc[c] < 0) {
		f->ip = f->code + in->target;
		return next;
	}
	loc[in->dst] = loc[c];
	it_set_ready(f, in->dst, it_ready(f, (int)c));
	f->ip++;
	return next;
}

