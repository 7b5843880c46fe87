/* objmap.c - see objmap.h */
#include "objmap.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "layout_lib.h"

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
	for (uint32_t i = 0; i < om->nr; i++)
		om->by_addr[i] = i;
	qsort_r(om->by_addr, om->nr, sizeof(uint32_t), by_base, om);
	for (uint32_t i = 1; i < om->nr; i++) {
		const struct obj *prev = &om->v[om->by_addr[i - 1]];

		if (prev->base + prev->size > om->v[om->by_addr[i]].base)
			return om->by_addr[i];
	}
	return OBJ_NONE;
}

uint32_t objmap_find(const struct objmap *om, uint64_t addr)
{
	uint32_t lo = 0, hi = om->nr;

	/* Binary search for the last object whose base is <= addr. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (om->v[om->by_addr[mid]].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return OBJ_NONE;
	lo = om->by_addr[lo - 1];
	return addr < om->v[lo].base + om->v[lo].size ? lo : OBJ_NONE;
}

uint32_t objmap_find_in(const struct objmap *om, uint64_t lo, uint64_t hi)
{
	uint32_t o = objmap_find(om, lo), a = 0, b = om->nr;

	if (o != OBJ_NONE)
		return o;
	/* Binary search for the first object whose base is > lo. */
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;

		if (om->v[om->by_addr[mid]].base <= lo)
			a = mid + 1;
		else
			b = mid;
	}
	return a < om->nr && om->v[om->by_addr[a]].base < hi ? om->by_addr[a] : OBJ_NONE;
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
