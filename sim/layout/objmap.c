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
	for (uint32_t i = 0; i < om->nr; i++) {
		g_free(om->v[i].name);
		g_free(om->v[i].type);
	}
	g_free(om->v);
	g_free(om->by_addr);
	g_free(om->near);
	g_free(om->base_sorted);
	memset(om, 0, sizeof(*om));
}

uint32_t objmap_add(struct objmap *om, const char *name, const char *type, uint64_t base,
		    uint64_t size, uint16_t node)
{
	if (om->nr == om->cap) {
		om->cap = om->cap ? 2 * om->cap : 16;
		om->v = g_renew(struct obj, om->v, om->cap);
	}
	om->v[om->nr] = (struct obj){g_strdup(name), g_strdup(type), base, size, node, NULL, false};
	return om->nr++;
}

static int by_base(const void *a, const void *b, void *data)
{
	const struct objmap *om = data;
	uint64_t x = om->v[*(const uint32_t *)a].base;
	uint64_t y = om->v[*(const uint32_t *)b].base;

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
		om->base_sorted[i] = om->v[om->by_addr[i]].base;
	for (uint32_t i = 1; i < om->nr; i++) {
		const struct obj *prev = &om->v[om->by_addr[i - 1]];

		if (prev->base + prev->size > om->v[om->by_addr[i]].base)
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
	return addr < om->v[o].base + om->v[o].size ? o : OBJ_NONE;
}

uint32_t objmap_find_in(const struct objmap *om, uint64_t lo, uint64_t hi)
{
	uint32_t o = objmap_find(om, lo), n;

	if (o != OBJ_NONE)
		return o;
	n = nr_based_at_or_below(om, lo);   /* by_addr[n] is the first object past lo */
	return n < om->nr && om->v[om->by_addr[n]].base < hi ? om->by_addr[n] : OBJ_NONE;
}

char *objmap_member(const struct objmap *om, uint32_t obj, uint64_t addr)
{
	const struct obj *o;

	if (!om || obj == OBJ_NONE || obj >= om->nr)
		return NULL;
	o = &om->v[obj];
	return o->layout && om->lib ? layout_member_at(om->lib, o->layout, addr - o->base) : NULL;
}

char *objmap_label(const struct objmap *om, uint32_t obj, uint64_t addr)
{
	g_autofree char *member = objmap_member(om, obj, addr);

	if (!om || obj == OBJ_NONE || obj >= om->nr)
		return g_strdup("-");
	if (member)
		return g_strdup_printf("%s.%s", om->v[obj].name, member);
	return g_strdup_printf("%s+0x%" PRIx64, om->v[obj].name, addr - om->v[obj].base);
}
