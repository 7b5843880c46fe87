/*
 * scenario_init.c - the memory entities start with, as the kernel leaves it when it creates
 * them: the hierarchy's pointers (the kinds' `links:`), the kinds' `init:` values (limits,
 * settings, pointers between an entity's objects), then the scenario's own `init:`.  The
 * values are written into memory by world_init before the first access (interp.h); the
 * address a link points at maps back to its entity for the walks (entities.by_addr).
 */
#include <glib.h>
#include <string.h>

#include "scenario/scenario_int.h"

/* The base of object @o of entity @e on node @n (node 0 for objects that are not per node). */
static uint64_t ent_base(const struct loader *ld, uint32_t e, uint16_t o, int n)
{
	const struct entities *es = &ld->v->ents;
	const struct kind *k = &ld->v->prog->kinds[es->kind[e]];

	return es->base[es->base_at[e] + (uint32_t)o * (uint32_t)ld->v->mc.numa_nodes +
			(uint32_t)(k->obj[o].per_node ? n : 0)];
}

/* @value at @addr, and at each of the @count - 1 per-cpu units after it.  The list grows
 * geometrically, since a realloc that cannot extend in place (ASan's never does) copies the
 * whole list. */
static void add_init_n(struct entities *es, uint64_t addr, uint32_t size, uint64_t value,
		       uint32_t count)
{
	if (es->nr_init == es->cap_init) {
		es->cap_init = es->cap_init ? 2 * es->cap_init : 64;
		es->init = g_renew(struct ent_init, es->init, es->cap_init);
	}
	es->init[es->nr_init++] = (struct ent_init){addr, size, count, value};
}

static void add_init(struct entities *es, uint64_t addr, uint32_t size, uint64_t value)
{
	add_init_n(es, addr, size, value, 1);
}

/* The address of the member @l of entity @e's link object. */
static uint64_t link_addr(const struct loader *ld, uint32_t e, int which)
{
	const struct klink *l = &ld->v->prog->kinds[ld->v->ents.kind[e]].link[which];

	return l->set ? ent_base(ld, e, l->obj, 0) + l->off : 0;
}

/* parent: the parent's enclosing struct or NULL; children/sibling: the kernel's circular
 * list_heads (list_add_tail in creation order), next at +0 and prev at +8. */
static void init_links(struct loader *ld, uint32_t e)
{
	struct entities *es = &ld->v->ents;
	const struct kind *k = &ld->v->prog->kinds[es->kind[e]];
	const struct klink *pl = &k->link[KLINK_PARENT];
	int32_t p = es->parent[e], last = -1;
	uint64_t head = link_addr(ld, e, KLINK_CHILDREN), self = link_addr(ld, e, KLINK_SIBLING);

	if (pl->set) {
		g_hash_table_insert(es->by_addr, GSIZE_TO_POINTER(ent_base(ld, e, pl->obj, 0) +
								   pl->to_off), GSIZE_TO_POINTER(e + 1));
		add_init(es, ent_base(ld, e, pl->obj, 0) + pl->off, 8,
			 p >= 0 ? ent_base(ld, (uint32_t)p, pl->obj, 0) + pl->to_off : 0);
	}
	if (!head)
		return;
	g_hash_table_insert(es->by_addr, GSIZE_TO_POINTER(self), GSIZE_TO_POINTER(e + 1));
	if (p < 0) { /* INIT_LIST_HEAD(&css->sibling) */
		add_init(es, self, 8, self);
		add_init(es, self + 8, 8, self);
	}
	add_init(es, head, 8, es->first_child[e] >= 0
				      ? link_addr(ld, (uint32_t)es->first_child[e], KLINK_SIBLING)
				      : head);
	for (int32_t c = es->first_child[e]; c >= 0; last = c, c = es->next_sibling[c]) {
		uint64_t sib = link_addr(ld, (uint32_t)c, KLINK_SIBLING);
		int32_t nx = es->next_sibling[c];

		add_init(es, sib, 8, nx >= 0 ? link_addr(ld, (uint32_t)nx, KLINK_SIBLING) : head);
		add_init(es, sib + 8, 8, last >= 0 ? link_addr(ld, (uint32_t)last, KLINK_SIBLING)
						   : head);
	}
	add_init(es, head + 8, 8, last >= 0 ? link_addr(ld, (uint32_t)last, KLINK_SIBLING) : head);
}

/* The value of @ki on node @n for entity @e (an address for &OBJ, NULL above the root). */
static uint64_t kinit_value(const struct loader *ld, const struct kinit *ki, uint32_t e, int n)
{
	int32_t who = ki->ref == KINIT_PARENT ? ld->v->ents.parent[e] : (int32_t)e;

	if (ki->ref == KINIT_VALUE)
		return (uint64_t)ki->value;
	if (who < 0)
		return 0;
	/* A per-cpu object's pointer is its CPU 0 instance: per_cpu_ptr(p, cpu) adds
	 * cpu * PERCPU_UNIT, as the kernel adds __per_cpu_offset[cpu]. */
	return ent_base(ld, (uint32_t)who, ki->ref_obj, n) + ki->ref_off +
	       (uint64_t)n * ki->ref_node_stride;
}

/* One init entry for entity @e: every node it names, every CPU of a per-cpu object. */
static void apply_kinit(struct loader *ld, const struct kinit *ki, uint32_t e)
{
	const struct machine *mc = &ld->v->mc;
	const struct kobj *ko = &ld->v->prog->kinds[ld->v->ents.kind[e]].obj[ki->obj];

	for (int n = 0; n < (ki->each_node ? mc->numa_nodes : 1); n++) {
		uint64_t addr = ent_base(ld, e, ki->obj, n) + ki->off + (uint64_t)n * ki->node_stride;
		uint64_t v = kinit_value(ld, ki, e, n);

		add_init_n(&ld->v->ents, addr, ki->size, v,
			   ko->percpu ? (uint32_t)mc->nr_cpus : 1);
	}
}

/* The entity a scenario `init:` key starts with ("child.memcg.memory.max"): the longest
 * entity name followed by a dot, or -1.  Each prefix that ends before a dot is looked up,
 * longest first, so a thousand keys on a thousand entities cost a thousand lookups each at
 * most a few long, not a million comparisons. */
static int32_t key_entity(const struct loader *ld, const char *key)
{
	g_autofree char *prefix = g_strdup(key);
	char *dot;

	while ((dot = strrchr(prefix, '.'))) {
		int32_t e;

		*dot = 0;
		if (*prefix && (e = scn_entity_find(ld, prefix)) >= 0)
			return e;
	}
	return -1;
}

/* The scenario's `init:`: ENTITY.OBJECT[.MEMBER]: VALUE, after the kinds' defaults. */
static bool scenario_init(struct loader *ld, const struct yt_node *m)
{
	struct entities *es = &ld->v->ents;

	if (!yt_expect_map(m, "init", NULL, ld->err))
		return false;
	for (size_t i = 0; i < m->len; i++) {
		const struct yt_node *key = m->pairs[i].key;
		int32_t e = key_entity(ld, key->str);
		struct yt_node rest;
		struct kinit ki;

		if (e < 0) {
			err_set(ld->err, key->mark, "init: '%s' names no entity (expected "
				"ENTITY.OBJECT.MEMBER with an entity of `entities`)", key->str);
			return false;
		}
		rest = *key;
		rest.str = key->str + strlen(es->name[e]) + 1;
		if (!kinit_compile(ld->v->prog, ld->v->lib, &ld->v->prog->kinds[es->kind[e]], &rest,
				   m->pairs[i].val, &ki, ld->err))
			return false;
		apply_kinit(ld, &ki, (uint32_t)e);
	}
	return true;
}

bool scn_init_entities(struct loader *ld, const struct yt_node *root)
{
	struct entities *es = &ld->v->ents;
	const struct yt_node *m = yt_get(root, "init");

	es->by_addr = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (uint32_t e = 0; e < es->nr; e++) {
		const struct kind *k = &ld->v->prog->kinds[es->kind[e]];

		init_links(ld, e);
		for (uint32_t i = 0; i < k->nr_init; i++)
			apply_kinit(ld, &k->init[i], e);
	}
	return !m || scenario_init(ld, m);
}
