/*
 * scenario_ents.c - the program's global objects and the scenario's entities (memcgs, mms
 * and their objects); see scenario.h and path.h for the format.
 *
 * Loading is linear in the number of entities: names are found through a hash table and a
 * child is appended after its parent's youngest child, never by walking the list, so the
 * allowed `count:` of 2^20 loads in seconds (check_hostile.c bounds it, the load-scaling
 * benchmark prints it).
 */
#include <glib.h>
#include <string.h>

#include "layout/layout_lib.h"
#include "scenario/scenario_int.h"

/* Bytes of the trailing flexible array the kind asks room for (`flex:`), as the kernel's
 * struct_size() allocations do: mem_cgroup's nodeinfo[], 2.6.31's cpustat[]. */
static uint64_t flex_bytes(struct loader *ld, const struct kobj *ko)
{
	const struct layout *l = ko->layout;
	const struct lmember *last = l->nr ? &l->m[l->nr - 1] : NULL;
	int64_t n = ko->flex == -1 ? ld->v->mc.nr_cpus : ko->flex == -2 ? ld->v->mc.numa_nodes
									  : ko->flex;
	struct lref r;
	g_autofree char *path = NULL;

	if (!n || !last || !last->name || last->nr_dims != 1 || last->dims[0])
		return 0;
	path = g_strdup_printf("%s[1]", last->name);
	if (!layout_find(ld->v->lib, l, path, &r, last->mark, &(struct c2c_err){0}))
		return 0;
	return (uint64_t)n * (r.offset - last->offset);
}

/* Allocate one object of an entity: per-cpu in the units, else by its allocation rule.
 * Return: the address (CPU 0's instance for per-cpu objects); names every instance. */
static uint64_t entity_object(struct loader *ld, const char *ent, const struct kobj *ko,
			      int node, struct c2c_err *err, bool *ok)
{
	const struct machine *mc = &ld->v->mc;
	const struct layout *l = ko->layout;
	g_autofree char *name = ko->per_node ? g_strdup_printf("%s%s%s[%d]", ent, *ent ? "." : "",
							       ko->name, node)
					     : g_strdup_printf("%s%s%s", ent, *ent ? "." : "", ko->name);
	uint64_t base, al = l->align > 8 ? l->align : 8;
	uint32_t o;

	if (!ko->percpu) {
		uint64_t size = l->size + flex_bytes(ld, ko);

		base = scn_place_object(ld, l, ko->alloc == 1 ? ALLOC_KMEM_CACHE : ALLOC_KMALLOC,
					(uint16_t)node, ko->placement >= 0,
					(uint64_t)(ko->placement >= 0 ? ko->placement : 0), size);
		o = objmap_add(&ld->v->objs, name, l->name, base, size ? size : 1, (uint16_t)node);
		objmap_set_layout(&ld->v->objs, o, l, false);
		return base;
	}
	base = PERCPU_BASE + ((ld->pcpu_next + al - 1) & ~(al - 1));
	ld->pcpu_next = base - PERCPU_BASE + l->size;
	if (ld->pcpu_next > PERCPU_QNODE) {
		err_set(err, (struct c2c_mark){ld->v->tree->mark.file, 1, 1}, "entities: per-cpu "
			"objects need %" G_GUINT64_FORMAT " bytes per CPU (expected at most %llu)",
			ld->pcpu_next, PERCPU_QNODE);
		*ok = false;
		return 0;
	}
	o = objmap_add_run(&ld->v->objs, name, '@', l->name, base, PERCPU_UNIT,
			   l->size ? l->size : 1, (uint32_t)mc->nr_cpus, scn_cpu_nodes(ld));
	objmap_set_layout(&ld->v->objs, o, l, true);
	return base;
}

int32_t scn_entity_find(const struct loader *ld, const char *name)
{
	gpointer id = ld->ent_ids ? g_hash_table_lookup(ld->ent_ids, name) : NULL;

	return id ? GPOINTER_TO_INT(id) - 1 : -1;
}

/* Room for entity @n (amortized doubling: the arrays are the entities' own). */
static void entity_grow(struct loader *ld, uint32_t n)
{
	struct entities *e = &ld->v->ents;

	if (n <= ld->ent_cap)
		return;
	ld->ent_cap = ld->ent_cap ? 2 * ld->ent_cap : 64;
	e->name = g_renew(char *, e->name, ld->ent_cap);
	e->kind = g_renew(uint16_t, e->kind, ld->ent_cap);
	e->parent = g_renew(int32_t, e->parent, ld->ent_cap);
	e->first_child = g_renew(int32_t, e->first_child, ld->ent_cap);
	e->next_sibling = g_renew(int32_t, e->next_sibling, ld->ent_cap);
	e->base_at = g_renew(uint32_t, e->base_at, ld->ent_cap);
	ld->last_child = g_renew(int32_t, ld->last_child, ld->ent_cap);
}

/* One instance: objects allocated, linked under its parent (children in creation order). */
static bool add_entity(struct loader *ld, const char *name, int kind, int32_t parent)
{
	struct entities *e = &ld->v->ents;
	const struct kind *k = &ld->v->prog->kinds[kind];
	int nodes = ld->v->mc.numa_nodes;
	uint32_t id = e->nr++;
	bool ok = true;

	entity_grow(ld, e->nr);
	e->name[id] = g_strdup(name);
	g_hash_table_insert(ld->ent_ids, e->name[id], GINT_TO_POINTER((int)id + 1));
	e->kind[id] = (uint16_t)kind;
	e->parent[id] = parent;
	e->first_child[id] = e->next_sibling[id] = ld->last_child[id] = -1;
	if (parent >= 0) {
		if (ld->last_child[parent] < 0)
			e->first_child[parent] = (int32_t)id;
		else
			e->next_sibling[ld->last_child[parent]] = (int32_t)id;
		ld->last_child[parent] = (int32_t)id;
	}
	e->base_at[id] = e->nr_base;
	e->nr_base += k->nr_obj * (uint32_t)nodes;
	if (e->nr_base > ld->base_cap) {
		ld->base_cap = MAX(e->nr_base, 2 * ld->base_cap);
		e->base = g_renew(uint64_t, e->base, ld->base_cap);
	}
	for (uint32_t o = 0; o < k->nr_obj && ok; o++)
		for (int n = 0; n < nodes; n++)
			e->base[e->base_at[id] + o * (uint32_t)nodes + (uint32_t)n] =
				k->obj[o].per_node || n == 0
					? entity_object(ld, name, &k->obj[o], n, ld->err, &ok) : 0;
	return ok;
}

/* Would @count more entities pass the --max-entities limit?  Then that is the error, at @n. */
static bool entity_limit(struct loader *ld, const struct yt_node *n, const char *what,
			 int64_t count)
{
	char msg[256];

	if ((uint64_t)count <= ld->lim->entities - MIN(ld->v->ents.nr, ld->lim->entities))
		return false;
	err_set(ld->err, n->mark, "%s: %s", what, limits_fail(msg, sizeof(msg), ld->lim,
							      LIMIT_OF(entities), "in the scenario"));
	ld->err->limit = true;
	return true;
}

static bool load_entity(struct loader *ld, const struct yt_node *n, uint32_t i)
{
	static const char *const keys[] = {"name", "kind", "parent", "count", NULL};
	const struct program *pr = ld->v->prog;
	char what[64];
	const struct yt_node *k;
	const char *name, *kname, *pname;
	int32_t parent = -1;
	int64_t count = 1;
	int kind = -1;

	snprintf(what, sizeof(what), "entities[%u]", i);
	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "name", what, ld->err)) || !yt_str(k, what, &name, ld->err) ||
	    !(k = yt_require(n, "kind", what, ld->err)) || !yt_str(k, what, &kname, ld->err))
		return false;
	for (uint32_t j = 0; j < pr->nr_kinds; j++)
		if (!strcmp(pr->kinds[j].name, kname))
			kind = (int)j;
	if (kind < 0) {
		err_set(ld->err, k->mark, "%s: unknown kind '%s' (expected a kind of the loaded path "
			"models)", what, kname);
		return false;
	}
	if ((k = yt_get(n, "parent"))) {
		if (!yt_str(k, what, &pname, ld->err))
			return false;
		if ((parent = scn_entity_find(ld, pname)) < 0) {
			err_set(ld->err, k->mark, "%s: unknown parent '%s' (expected an entity "
				"defined above)", what, pname);
			return false;
		}
	}
	if ((k = yt_get(n, "count")) && !yt_int(k, what, 1, 1 << 20, &count, ld->err))
		return false;
	if (entity_limit(ld, k ? k : n, what, count))
		return false;
	for (int64_t c = 0; c < count; c++) {
		g_autofree char *inst = count > 1 ? g_strdup_printf("%s[%" G_GINT64_FORMAT "]", name, c)
						  : g_strdup(name);

		if (scn_entity_find(ld, inst) >= 0) {
			err_set(ld->err, n->mark, "%s: entity '%s' defined twice", what, inst);
			return false;
		}
		if (!add_entity(ld, inst, kind, parent))
			return false;
	}
	return true;
}

/* Globals of the program, then the scenario's entities; seals the object map again. */
bool scn_load_entities(struct loader *ld, const struct yt_node *root)
{
	const struct yt_node *seq = yt_get(root, "entities");
	struct program *pr = ld->v->prog;
	bool ok = true;
	uint32_t bad;

	int nodes = ld->v->mc.numa_nodes;

	ld->v->ents.global_base = g_new0(uint64_t, (size_t)(pr->nr_globals ? pr->nr_globals : 1) *
						   (size_t)nodes);
	for (uint32_t g = 0; g < pr->nr_globals && ok; g++)
		for (int n = 0; n < nodes && ok; n++)
			if (pr->globals[g].per_node || n == 0)
				ld->v->ents.global_base[g * (uint32_t)nodes + (uint32_t)n] =
					entity_object(ld, "", &pr->globals[g], n, ld->err, &ok);
	ld->ent_ids = g_hash_table_new(g_str_hash, g_str_equal); /* keys: the entities' names */
	if (ok && seq && !yt_expect_seq(seq, "entities", ld->err))
		ok = false;
	for (uint32_t i = 0; ok && seq && i < seq->len; i++)
		ok = load_entity(ld, seq->items[i], i);
	if (ok)
		scn_add_qnodes(ld);
	ok = ok && scn_init_entities(ld, root);
	if (ok && (bad = objmap_seal(&ld->v->objs)) != OBJ_NONE) {
		g_autofree char *name = objmap_name(&ld->v->objs, bad);

		err_set(ld->err, root->mark, "scenario: '%s' overlaps another object in memory",
			name);
		ok = false;
	}
	return ok;
}
