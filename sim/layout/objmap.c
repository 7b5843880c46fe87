/* objmap.c - see objmap.h */
#include "layout/objmap.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "layout/layout_lib.h"

void objmap_init(struct objmap *om)
{
	memset(om, 0, sizeof(*om));
}

void objmap_release(struct objmap *om)
{
	g_free(om->v);
	g_free(om->runs);
	if (om->strs)
		g_string_chunk_free(om->strs);
	g_free(om->by_addr);
	g_free(om->near);
	g_free(om->base_sorted);
	memset(om, 0, sizeof(*om));
}

/* A new run of @count objects; their homes are the caller's to fill. */
static struct obj_run *run_new(struct objmap *om, const char *name, char sep, const char *type,
			       uint64_t base, uint64_t stride, uint64_t size, uint32_t count)
{
	struct obj_run *r;

	if (!om->strs)
		om->strs = g_string_chunk_new(4096);
	if (om->nr_runs == om->cap_runs) {
		om->cap_runs = om->cap_runs ? 2 * om->cap_runs : 16;
		om->runs = g_renew(struct obj_run, om->runs, om->cap_runs);
	}
	while (om->cap - om->nr < count) {
		om->cap = om->cap ? 2 * om->cap : 16;
		om->v = g_renew(struct obj_home, om->v, om->cap);
	}
	r = &om->runs[om->nr_runs];
	*r = (struct obj_run){g_string_chunk_insert(om->strs, name),
			      type ? g_string_chunk_insert_const(om->strs, type) : NULL,
			      base, stride, size, NULL, om->nr, count, sep, sep != 0};
	for (uint32_t k = 0; k < count; k++)
		om->v[om->nr + k].run = om->nr_runs;
	om->nr += count;
	om->nr_runs++;
	return r;
}

uint32_t objmap_add(struct objmap *om, const char *name, const char *type, uint64_t base,
		    uint64_t size, uint16_t node)
{
	struct obj_run *r = run_new(om, name, 0, type, base, 0, size, 1);

	om->v[r->first].node = node;
	return r->first;
}

uint32_t objmap_add_run(struct objmap *om, const char *prefix, char sep, const char *type,
			uint64_t base, uint64_t stride, uint64_t size, uint32_t count,
			const uint16_t *nodes)
{
	struct obj_run *r;

	g_return_val_if_fail(count > 0 && (sep == '@' || sep == '['), OBJ_NONE);
	r = run_new(om, prefix, sep, type, base, stride, size, count);
	for (uint32_t k = 0; k < count; k++)
		om->v[r->first + k].node = nodes[k];
	return r->first;
}

void objmap_set_layout(struct objmap *om, uint32_t i, const struct layout *layout,
		       bool per_cpu)
{
	struct obj_run *r;

	g_return_if_fail(i < om->nr);
	r = &om->runs[om->v[i].run];
	r->layout = layout;
	r->per_cpu = per_cpu;
}

/* The base of object @i (which exists). */
static uint64_t obj_base(const struct objmap *om, uint32_t i)
{
	const struct obj_run *r = &om->runs[om->v[i].run];

	return r->base + (uint64_t)(i - r->first) * r->stride;
}

bool objmap_get(const struct objmap *om, uint32_t i, struct obj *o)
{
	const struct obj_run *r;

	if (!om || i == OBJ_NONE || i >= om->nr)
		return false;
	r = &om->runs[om->v[i].run];
	*o = (struct obj){r->name, r->sep ? (int32_t)(i - r->first) : -1, r->sep, r->type,
			  obj_base(om, i), r->size, om->v[i].node, r->layout, r->per_cpu};
	return true;
}

char *objmap_name(const struct objmap *om, uint32_t i)
{
	struct obj o;

	if (!objmap_get(om, i, &o))
		return NULL;
	if (o.inst < 0)
		return g_strdup(o.name);
	return g_strdup_printf(o.sep == '@' ? "%s@%d" : "%s[%d]", o.name, o.inst);
}

static int by_base(const void *a, const void *b, void *data)
{
	const struct objmap *om = data;
	uint64_t x = obj_base(om, *(const uint32_t *)a);
	uint64_t y = obj_base(om, *(const uint32_t *)b);

	if (x != y)
		return x < y ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

uint32_t objmap_seal(struct objmap *om)
{
	g_free(om->by_addr);
	om->by_addr = g_new(uint32_t, om->nr ? om->nr : 1);
	if (!om->near)
		om->near = g_new(uint32_t, 1);
	*om->near = 0;
	for (uint32_t i = 0; i < om->nr; i++)
		om->by_addr[i] = i;
	qsort_r(om->by_addr, om->nr, sizeof(uint32_t), by_base, om);
	g_free(om->base_sorted);
	om->base_sorted = g_new(uint64_t, om->nr ? om->nr : 1);
	for (uint32_t i = 0; i < om->nr; i++)
		om->base_sorted[i] = obj_base(om, om->by_addr[i]);
	for (uint32_t i = 1; i < om->nr; i++) {
		uint32_t prev = om->by_addr[i - 1];

		if (om->base_sorted[i - 1] + om->runs[om->v[prev].run].size > om->base_sorted[i])
			return om->by_addr[i];
	}
	return OBJ_NONE;
}

/* Whether @n objects in address order, and no more, have their base at or below @addr. */
static bool based_at_or_below_is(const struct objmap *om, uint64_t addr, uint32_t n)
{
	return n > 0 && n <= om->nr && om->base_sorted[n - 1] <= addr &&
	       (n == om->nr || om->base_sorted[n] > addr);
}

/* How many objects, in address order, have their base at or below @addr.  Lines are first
 * touched mostly inside the object touched last or in the one after it, so the answer of the
 * last lookup and its successor are tried before the binary search (same answer, fewer
 * cache misses in a map of a million objects). */
static uint32_t nr_based_at_or_below(const struct objmap *om, uint64_t addr)
{
	uint32_t lo = 0, hi = om->nr;

	if (!om->base_sorted)
		return 0; /* not sealed: no object to find */
	if (om->near) {
		if (based_at_or_below_is(om, addr, *om->near))
			return *om->near;
		if (based_at_or_below_is(om, addr, *om->near + 1))
			return ++*om->near;
	}

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (om->base_sorted[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (om->near)
		*om->near = lo;
	return lo;
}

uint32_t objmap_find(const struct objmap *om, uint64_t addr)
{
	uint32_t n = nr_based_at_or_below(om, addr), o;

	if (n == 0)
		return OBJ_NONE;
	o = om->by_addr[n - 1];
	return addr < om->base_sorted[n - 1] + om->runs[om->v[o].run].size ? o : OBJ_NONE;
}

uint32_t objmap_find_in(const struct objmap *om, uint64_t lo, uint64_t hi)
{
	uint32_t o = objmap_find(om, lo), n;

	if (o != OBJ_NONE)
		return o;
	n = nr_based_at_or_below(om, lo);   /* by_addr[n] is the first object past lo */
	return n < om->nr && om->base_sorted[n] < hi ? om->by_addr[n] : OBJ_NONE;
}

char *objmap_member(const struct objmap *om, uint32_t obj, uint64_t addr)
{
	struct obj o;

	if (!objmap_get(om, obj, &o))
		return NULL;
	return o.layout && om->lib ? layout_member_at(om->lib, o.layout, addr - o.base) : NULL;
}

char *objmap_label(const struct objmap *om, uint32_t obj, uint64_t addr)
{
	g_autofree char *member = objmap_member(om, obj, addr);
	g_autofree char *name = objmap_name(om, obj);

	if (!name)
		return g_strdup("-");
	if (member)
		return g_strdup_printf("%s.%s", name, member);
	return g_strdup_printf("%s+0x%" PRIx64, name, addr - obj_base(om, obj));
}
