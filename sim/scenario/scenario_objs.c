/* scenario_objs.c - regions and objects of a scenario: allocation, placement, and the
 * targets that name them ("pn.lruvec.lru_lock"); see scenario.h for the format. */
#include <glib.h>
#include <string.h>

#include "c2csim_config.h"
#include "layout/layout_edit.h"
#include "layout/layout_lib.h"
#include "scenario/scenario_int.h"

/* Where regions without an explicit address start: far from page zero, line aligned. */
#define REGION_BASE 0x10000000ull


/* Does instance @k of run @r have the name @name? */
static bool inst_named(const struct obj_run *r, uint32_t k, const char *name)
{
	char suffix[16];

	snprintf(suffix, sizeof(suffix), r->sep == '@' ? "@%u" : "[%u]", k);
	return g_str_has_prefix(name, r->name) && !strcmp(name + strlen(r->name), suffix);
}

/* The instance of run @r whose whole name is @name, or -1. */
static int64_t run_inst_named(const struct obj_run *r, const char *name)
{
	size_t pl = strlen(r->name);
	char *end;
	guint64 k;

	if (strncmp(name, r->name, pl) || name[pl] != r->sep || !g_ascii_isdigit(name[pl + 1]))
		return -1;
	k = g_ascii_strtoull(name + pl + 1, &end, 10);
	if (strcmp(end, r->sep == '@' ? "" : "]") || k >= r->count ||
	    !inst_named(r, (uint32_t)k, name))
		return -1;
	return (int64_t)k;
}

/* The object named @name: exact ("pn", "pn[1]", "counter"), or a per-cpu object by its bare
 * name, resolved through the CPU 0 instance (*stride tells the distance between CPUs).  The
 * first such object in index order; a run's instances are in index order. */
static bool find_object(const struct variant *v, const char *name, uint64_t *stride,
			struct obj *o)
{
	*stride = 0;
	for (uint32_t i = 0; i < v->objs.nr_runs; i++) {
		const struct obj_run *r = &v->objs.runs[i];
		int64_t k;

		if (!r->sep) {
			if (r->per_cpu && g_str_has_prefix(r->name, name) &&
			    !strcmp(r->name + strlen(name), "[0]"))
				*stride = PERCPU_UNIT;
			else if (strcmp(r->name, name))
				continue;
			return objmap_get(&v->objs, r->first, o);
		}
		/* A run's instances are per-cpu: "NAME[0]" answers the bare NAME. */
		if (r->sep == '[' && !strcmp(r->name, name)) {
			*stride = PERCPU_UNIT;
			return objmap_get(&v->objs, r->first, o);
		}
		if ((k = run_inst_named(r, name)) >= 0)
			return objmap_get(&v->objs, r->first + (uint32_t)k, o);
	}
	return false;
}

static void err_unknown_object(const struct variant *v, const struct yt_node *n,
			       const char *what, const char *name, struct c2c_err *err)
{
	char **names = g_new0(char *, v->objs.nr + 1);
	const char *close;

	for (uint32_t i = 0; i < v->objs.nr; i++)
		names[i] = objmap_name(&v->objs, i);
	close = err_closest(name, (const char *const *)names);
	err_set(err, n->mark, "%s: unknown object '%s' (expected a region or object name, or an "
		"address%s%s%s)", what, name, close ? "; did you mean '" : "", close ? close : "",
		close ? "'?" : "");
	g_strfreev(names);
}

/*
 * parse_target - "counter", "counter+8", "pn.lruvec.lru_lock", "pn[1].memcg", "stats.state[3]"
 * (this CPU's per-cpu instance), "stats[5].state[3]" (CPU 5's), or a raw address.  *size in:
 * the op's size or 0; out: that, or the member's size (8 for a bare object).
 */
bool scn_parse_target(const struct variant *v, const struct yt_node *n, const char *what,
			 uint32_t *size, uint64_t *addr, uint64_t *stride, struct c2c_err *err)
{
	g_autofree char *name = NULL;
	struct obj ob, *o = &ob;
	const char *rest;
	uint64_t off = 0, msize = 8;

	*stride = 0;
	if (n->kind != YT_SCALAR) {
		err_set(err, n->mark, "%s: expected a target such as counter+8, pn.memcg or 0x1000",
			what);
		return false;
	}
	if (g_ascii_isdigit(n->str[0])) {
		if (!*size)
			*size = 8;
		return yt_u64(n, what, addr, err);
	}
	rest = n->str + strcspn(n->str, ".+");
	name = g_strndup(n->str, (size_t)(rest - n->str));
	if (!find_object(v, name, stride, o)) {
		err_unknown_object(v, n, what, name, err);
		return false;
	}
	if (*rest == '.') {
		struct lref r;

		if (!o->layout) {
			err_set(err, n->mark, "%s: %s has no layout (expected NAME+OFFSET for a plain "
				"region)", what, name);
			return false;
		}
		if (!layout_find(v->lib, o->layout, rest + 1, &r, n->mark, err))
			return false;
		off = r.offset;
		msize = r.size ? r.size : 8;
	} else if (*rest == '+') {
		/* The YAML number rules: decimal or 0x-hex, never octal, overflow an error. */
		struct yt_node num = {.kind = YT_SCALAR, .str = (char *)rest + 1, .mark = n->mark};

		num.mark.col += (int)(rest + 1 - n->str);
		if (!yt_u64(&num, what, &off, &(struct c2c_err){0})) {
			err_set(err, num.mark, "%s: bad offset in '%s' (expected NAME+OFFSET, OFFSET a "
				"decimal or 0x-hex integer)", what, n->str);
			return false;
		}
	}
	if (!*size)
		*size = (uint32_t)(msize < 4096 ? msize : 4096);
	if (off > o->size || *size > o->size - off) {
		err_set(err, n->mark, "%s: %s at offset %" G_GUINT64_FORMAT " size %u is past the end "
			"of %s (expected an offset below %" G_GUINT64_FORMAT ")", what, n->str, off,
			*size, name, o->size);
		return false;
	}
	*addr = o->base + off;
	return true;
}


/* Is there an object named @name, or NAME[...] (a per-cpu region's or counted object's
 * instance)?  Regions come first in a scenario, so the map holds only regions here. */
static bool region_named(const struct objmap *om, const char *name)
{
	for (uint32_t i = 0; i < om->nr; i++) {
		g_autofree char *other = objmap_name(om, i);

		if (!strcmp(other, name) ||
		    (g_str_has_prefix(other, name) && other[strlen(name)] == '['))
			return true;
	}
	return false;
}

static bool add_percpu_region(struct loader *ld, const struct yt_node *n, const char *what,
			      const char *name, uint64_t size, uint64_t align)
{
	const struct machine *mc = &ld->v->mc;
	uint64_t off = (ld->pcpu_next + align - 1) & ~(align - 1);
	struct yt_node *k;

	if ((k = yt_get(n, "address")) || (k = yt_get(n, "node"))) {
		err_set(ld->err, k->mark, "%s: a per-cpu region takes no address or node (its "
			"instances live in each CPU's per-cpu unit on the CPU's node)", what);
		return false;
	}
	if (off + size > PERCPU_QNODE) {
		err_set(ld->err, n->mark, "%s: per-cpu regions need %" G_GUINT64_FORMAT " bytes "
			"(expected at most %llu per CPU)", what, off + size, PERCPU_QNODE);
		return false;
	}
	objmap_add_run(&ld->v->objs, name, '[', NULL, PERCPU_BASE + off, PERCPU_UNIT, size,
		       (uint32_t)mc->nr_cpus, scn_cpu_nodes(ld));
	ld->pcpu_next = off + size;
	return true;
}

static bool load_region(struct loader *ld, const struct yt_node *n, uint32_t i, uint64_t *next)
{
	static const char *const keys[] = {"name", "size", "node", "align", "address", "per_cpu",
					   NULL};
	char what[64];
	struct yt_node *k;
	const char *name;
	int64_t size, node = 0, align = 64;
	uint64_t addr;
	bool per_cpu = false;

	snprintf(what, sizeof(what), "regions[%u]", i);
	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "name", what, ld->err)) || !yt_str(k, what, &name, ld->err) ||
	    !(k = yt_require(n, "size", what, ld->err)) ||
	    !yt_int(k, what, 1, 1ll << 40, &size, ld->err))
		return false;
	if ((k = yt_get(n, "node")) &&
	    !yt_int(k, what, 0, ld->v->mc.numa_nodes - 1, &node, ld->err))
		return false;
	if ((k = yt_get(n, "align")) && (!yt_int(k, what, 1, 1ll << 30, &align, ld->err) ||
					 (align & (align - 1)))) {
		if (!ld->err->set)
			err_set(ld->err, k->mark, "%s: align %" G_GINT64_FORMAT " (expected a power "
				"of two)", what, align);
		return false;
	}
	if ((k = yt_get(n, "per_cpu")) && !yt_bool(k, what, &per_cpu, ld->err))
		return false;
	if (region_named(&ld->v->objs, name)) {
		err_set(ld->err, n->mark, "%s: region '%s' defined twice", what, name);
		return false;
	}
	if (per_cpu)
		return add_percpu_region(ld, n, what, name, (uint64_t)size, (uint64_t)align);
	addr = (*next + (uint64_t)align - 1) & ~((uint64_t)align - 1);
	if ((k = yt_get(n, "address")) && !yt_u64(k, what, &addr, ld->err))
		return false;
	if (addr > UINT64_MAX - (uint64_t)size) {
		err_set(ld->err, (k ? k : n)->mark, "%s: region '%s' at 0x%" G_GINT64_MODIFIER "x "
			"size %" G_GINT64_FORMAT " ends past the top of the address space (expected "
			"address + size below 2^64)", what, name, addr, size);
		return false;
	}
	objmap_add(&ld->v->objs, name, NULL, addr, (uint64_t)size, (uint16_t)node);
	if (addr + (uint64_t)size > *next)
		*next = addr + (uint64_t)size;
	return true;
}

/* ------------------------------------------------------------------ objects with layouts */

/* Slab-like heaps: one per (node, cache); every cache starts on its own 2 MiB boundary. */
#define HEAP_BASE 0x1000000000ull
#define HEAP_CHUNK 0x200000ull

struct heap {
	uint16_t node;
	char *cache;           /* "kmalloc-512", "mem_cgroup_per_node" */
	uint64_t next, end;    /* the current chunk (a run of slab pages) */
};

static const char *const alloc_names[ALLOC_COUNT + 1] = {"kmalloc", "kmem_cache", "percpu",
							 "static", NULL};

/* kmalloc's size classes: powers of two plus 96 and 192.  Objects of a class sit one class
 * size apart in their slab, so their alignment is the class's lowest set bit. */
static uint64_t kmalloc_class(uint64_t size)
{
	uint64_t c = 8;

	if (size > 64 && size <= 96)
		return 96;
	if (size > 128 && size <= 192)
		return 192;
	while (c < size)
		c <<= 1;
	return c;
}

static uint64_t heap_alloc(struct loader *ld, uint16_t node, const char *cache, uint64_t stride)
{
	struct heap *h = NULL;

	if (!ld->heaps)
		ld->heaps = g_array_new(FALSE, TRUE, sizeof(struct heap));
	for (guint i = 0; i < ld->heaps->len && !h; i++) {
		struct heap *c = &g_array_index(ld->heaps, struct heap, i);

		if (c->node == node && !strcmp(c->cache, cache))
			h = c;
	}
	if (!h) {
		struct heap nh = {node, g_strdup(cache), 0, 0};

		g_array_append_val(ld->heaps, nh);
		h = &g_array_index(ld->heaps, struct heap, ld->heaps->len - 1);
	}
	if (h->next + stride > h->end) {
		/* A new chunk from the node's memory: caches never share one, so objects of one
		 * cache sit back to back as in a slab, and no cache runs into another. */
		uint64_t size = stride > HEAP_CHUNK ? (stride + HEAP_CHUNK - 1) & ~(HEAP_CHUNK - 1)
						    : HEAP_CHUNK;

		if (!ld->chunk_next[node])
			ld->chunk_next[node] = HEAP_BASE * (node + 1ull);
		h->next = ld->chunk_next[node];
		h->end = h->next + size;
		ld->chunk_next[node] += size;
	}
	h->next += stride;
	return h->next - stride;
}

static bool load_layout_dirs(struct loader *ld, const struct yt_node *root)
{
	struct yt_node *seq = yt_get(root, "layouts");

	if (!seq)
		return true;
	if (!yt_expect_seq(seq, "layouts", ld->err))
		return false;
	for (size_t i = 0; i < seq->len; i++) {
		g_autofree char *here = NULL, *src = NULL;
		const char *d;

		if (!yt_str(seq->items[i], "layouts[]", &d, ld->err))
			return false;
		here = g_path_is_absolute(d) ? g_strdup(d) : g_build_filename(ld->dir, d, NULL);
		src = g_build_filename(C2CSIM_SRCDIR, d, NULL);
		if (!g_file_test(here, G_FILE_TEST_IS_DIR) && !g_path_is_absolute(d) &&
		    g_file_test(src, G_FILE_TEST_IS_DIR))
			layout_lib_add_dir(ld->v->lib, src);
		else if (g_file_test(here, G_FILE_TEST_IS_DIR))
			layout_lib_add_dir(ld->v->lib, here);
		else {
			err_set(ld->err, seq->items[i]->mark, "layouts[%zu]: no directory '%s' "
				"(expected a directory of layout files, relative to the scenario or "
				"the repository)", i, d);
			return false;
		}
	}
	return true;
}

uint64_t scn_place_object(struct loader *ld, const struct layout *l, int alloc,
			     uint16_t node, bool placed, uint64_t placement, uint64_t size)
{
	uint64_t stride, base;
	g_autofree char *cache = NULL;

	if (alloc == ALLOC_KMALLOC) {
		stride = kmalloc_class(size);
		cache = g_strdup_printf("kmalloc-%" G_GUINT64_FORMAT, stride);
	} else {
		/* SLAB_HWCACHE_ALIGN: objects start on cache lines (or the struct's alignment). */
		uint64_t align = l->align > 64 ? l->align : 64;

		stride = (size + align - 1) & ~(align - 1);
		cache = g_strdup(l->name);
	}
	if (!placed)
		return heap_alloc(ld, node, cache, stride ? stride : 64);
	/* An explicit placement: the object starts @placement bytes past a 128-byte boundary,
	 * in a cache of its own so the rest of the slab is not disturbed. */
	cache = (g_free(cache), g_strdup_printf("%s@%" G_GUINT64_FORMAT, l->name, placement));
	base = heap_alloc(ld, node, cache, ((size + 127) & ~127ull) + 128);
	return base + placement;
}

/* Where the per-cpu object of layout @l goes in every CPU's unit: the next free offset,
 * aligned to the layout's alignment (8 bytes at least). */
static uint64_t percpu_offset(const struct loader *ld, const struct layout *l)
{
	uint64_t al = l->align > 8 ? l->align : 8;

	return (ld->pcpu_next + al - 1) & ~(al - 1);
}

/* percpu_reserve - the per-cpu object of layout @l placed: the next one goes after it.
 * Return: false with ld->err set when it ends past the units' MCS lock node (PERCPU_QNODE). */
static bool percpu_reserve(struct loader *ld, const struct yt_node *n, const char *what,
			   const struct layout *l)
{
	ld->pcpu_next = percpu_offset(ld, l) + l->size;
	if (ld->pcpu_next > PERCPU_QNODE) {
		err_set(ld->err, n->mark, "%s: per-cpu objects need %" G_GUINT64_FORMAT
			" bytes (expected at most %llu per CPU)", what, ld->pcpu_next,
			PERCPU_QNODE);
		return false;
	}
	return true;
}

static bool load_object(struct loader *ld, const struct yt_node *n, uint32_t i)
{
	static const char *const keys[] = {"name", "layout", "alloc", "node", "placement",
					   "address", "count", NULL};
	const struct machine *mc = &ld->v->mc;
	char what[64];
	struct yt_node *k;
	const char *name, *lname;
	const struct layout *l;
	int alloc = ALLOC_KMALLOC;
	int64_t node = 0, placement = 0, count = 1;
	uint64_t addr = 0;

	snprintf(what, sizeof(what), "objects[%u]", i);
	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "name", what, ld->err)) || !yt_str(k, what, &name, ld->err) ||
	    !(k = yt_require(n, "layout", what, ld->err)) || !yt_str(k, what, &lname, ld->err) ||
	    !(l = layout_lib_get(ld->v->lib, lname, k->mark, ld->err)) ||
	    ((k = yt_get(n, "alloc")) && !yt_enum(k, what, alloc_names, &alloc, ld->err)) ||
	    ((k = yt_get(n, "node")) && !yt_int(k, what, 0, mc->numa_nodes - 1, &node, ld->err)) ||
	    ((k = yt_get(n, "placement")) && !yt_int(k, what, 0, 127, &placement, ld->err)) ||
	    ((k = yt_get(n, "count")) && !yt_int(k, what, 1, 1 << 20, &count, ld->err)) ||
	    ((k = yt_get(n, "address")) && !yt_u64(k, what, &addr, ld->err)))
		return false;
	if ((alloc == ALLOC_STATIC) != (yt_get(n, "address") != NULL)) {
		err_set(ld->err, n->mark, "%s: alloc static goes with address (and only it)", what);
		return false;
	}
	if (alloc == ALLOC_STATIC &&
	    addr + (uint64_t)count * ((l->size + 63) & ~63ull) < addr) {
		/* Instances end past 2^64 (count <= 2^20 and sizes < 2^32: no overflow above). */
		err_set(ld->err, yt_get(n, "address")->mark, "%s: %s at 0x%" G_GINT64_MODIFIER "x "
			"ends past the top of the address space (expected address + size below "
			"2^64)", what, name, addr);
		return false;
	}
	if (alloc == ALLOC_PERCPU) {
		uint32_t o = objmap_add_run(&ld->v->objs, name, '[', l->name,
					    PERCPU_BASE + percpu_offset(ld, l), PERCPU_UNIT,
					    l->size ? l->size : 1, (uint32_t)mc->nr_cpus,
					    scn_cpu_nodes(ld));

		objmap_set_layout(&ld->v->objs, o, l, true);
	}
	for (int64_t c = 0; alloc != ALLOC_PERCPU && c < count; c++) {
		g_autofree char *inst = count > 1 ? g_strdup_printf("%s[%" G_GINT64_FORMAT "]",
								    name, c)
						  : g_strdup(name);
		uint64_t base = addr + (uint64_t)c * ((l->size + 63) & ~63ull);
		uint32_t o;

		if (alloc != ALLOC_STATIC)
			base = scn_place_object(ld, l, alloc, (uint16_t)node,
						yt_get(n, "placement") != NULL, (uint64_t)placement,
						l->size);
		o = objmap_add(&ld->v->objs, inst, l->name, base, l->size ? l->size : 1,
			       (uint16_t)node);
		objmap_set_layout(&ld->v->objs, o, l, false);
	}
	return alloc != ALLOC_PERCPU || percpu_reserve(ld, n, what, l);
}

static bool load_objects(struct loader *ld, const struct yt_node *root)
{
	struct yt_node *regions = yt_get(root, "regions"), *objects;
	uint64_t next = REGION_BASE;
	uint32_t bad;

	if (regions) {
		if (!yt_expect_seq(regions, "regions", ld->err))
			return false;
		for (uint32_t i = 0; i < regions->len; i++)
			if (!load_region(ld, regions->items[i], i, &next))
				return false;
	}
	/* `layout_edits: {STRUCT: [...]}` (a variant's what-if): before any object uses them. */
	if (!load_layout_dirs(ld, root) ||
	    !layout_edits_apply(ld->v->lib, yt_get(root, "layout_edits"), ld->err))
		return false;
	if ((objects = yt_get(root, "objects"))) {
		if (!yt_expect_seq(objects, "objects", ld->err))
			return false;
		for (uint32_t i = 0; i < objects->len; i++)
			if (!load_object(ld, objects->items[i], i))
				return false;
	}
	bad = objmap_seal(&ld->v->objs);
	if (bad != OBJ_NONE) {
		g_autofree char *name = objmap_name(&ld->v->objs, bad);

		err_set(ld->err, root->mark, "scenario: '%s' overlaps the object before it in memory "
			"(expected disjoint regions and objects)", name);
		return false;
	}
	return true;
}


/* The MCS nodes through which queued spinlocks hand the lock over (interp_lock.c): one per CPU
 * at the end of its per-cpu unit, named after the kernel's per-cpu `qnodes` so that their
 * hand-off HITMs are attributed in the reports. */
void scn_add_qnodes(struct loader *ld)
{
	const struct machine *mc = &ld->v->mc;

	objmap_add_run(&ld->v->objs, "qnodes", '@', "mcs_spinlock", PERCPU_BASE + PERCPU_QNODE,
		       PERCPU_UNIT, 16, (uint32_t)mc->nr_cpus, scn_cpu_nodes(ld));
}

const uint16_t *scn_cpu_nodes(struct loader *ld)
{
	const struct machine *mc = &ld->v->mc;

	if (!ld->cpu_nodes) {
		ld->cpu_nodes = g_new(uint16_t, mc->nr_cpus ? mc->nr_cpus : 1);
		for (int c = 0; c < mc->nr_cpus; c++)
			ld->cpu_nodes[c] = (uint16_t)machine_socket_node(mc,
									 machine_cpu_socket(mc, c));
	}
	return ld->cpu_nodes;
}

bool scn_load_objects(struct loader *ld, const struct yt_node *root)
{
	return load_objects(ld, root);
}

void scn_loader_release(struct loader *ld)
{
	for (guint i = 0; ld->heaps && i < ld->heaps->len; i++)
		g_free(g_array_index(ld->heaps, struct heap, i).cache);
	if (ld->heaps)
		g_array_free(ld->heaps, TRUE);
	ld->heaps = NULL;
	if (ld->ent_ids)
		g_hash_table_destroy(ld->ent_ids);
	ld->ent_ids = NULL;
	g_free(ld->last_child);
	g_free(ld->cpu_nodes);
	ld->cpu_nodes = NULL;
	ld->last_child = NULL;
}
