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
	g_free(om->flat);
	g_free(om->per);
	g_free(om->near);
	g_free(om->last);
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

/* The run holding object @i (which exists): runs hold consecutive indexes, in order. */
static uint32_t run_of(const struct objmap *om, uint32_t i)
{
	uint32_t lo = 0, hi = om->nr_runs;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (om->runs[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void objmap_set_layout(struct objmap *om, uint32_t i, const struct layout *layout,
		       bool per_cpu)
{
	struct obj_run *r;

	g_return_if_fail(i < om->nr);
	r = &om->runs[run_of(om, i)];
	r->layout = layout;
	r->per_cpu = per_cpu;
}

bool objmap_get(const struct objmap *om, uint32_t i, struct obj *o)
{
	const struct obj_run *r;

	if (!om || i == OBJ_NONE || i >= om->nr)
		return false;
	r = &om->runs[run_of(om, i)];
	*o = (struct obj){r->name, r->sep ? (int32_t)(i - r->first) : -1, r->sep, r->type,
			  r->base + (uint64_t)(i - r->first) * r->stride, r->size, om->v[i].node,
			  r->layout, r->per_cpu};
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

/* ---- The address index ----------------------------------------------------------- */

/* A place in address order: an object's base, index and run (ok: there is one). */
struct opos {
	uint64_t base;
	uint32_t idx, run;
	bool ok;
};

/* Is @a before @b in address order (by base, then index)?  A missing place is after all. */
static bool pos_before(struct opos a, struct opos b)
{
	if (!a.ok || !b.ok)
		return a.ok;
	return a.base != b.base ? a.base < b.base : a.idx < b.idx;
}

static struct opos flat_pos(const struct objmap *om, uint32_t f)
{
	if (f >= om->nr_flat)
		return (struct opos){0};
	return (struct opos){om->flat[f].base, om->flat[f].idx, om->flat[f].run, true};
}

/* Instance @k of the @j-th periodic run. */
static struct opos per_pos(const struct objmap *om, uint64_t k, uint32_t j)
{
	const struct obj_run *r;

	if (k >= om->per_count || j >= om->nr_per)
		return (struct opos){0};
	r = &om->runs[om->per[j]];
	return (struct opos){r->base + k * r->stride, r->first + (uint32_t)k, om->per[j], true};
}

/* The periodic window: the first multi-instance run that fits in its stride decides the
 * count, the stride and the (stride-aligned) window every other periodic run must share. */
static void pick_period(struct objmap *om)
{
	om->per_count = 0;
	for (uint32_t i = 0; i < om->nr_runs; i++) {
		const struct obj_run *r = &om->runs[i];
		uint64_t lo = r->stride ? r->base - r->base % r->stride : 0;

		if (r->count < 2 || !r->stride || r->size > r->stride ||
		    r->base - lo + r->size > r->stride ||
		    (UINT64_MAX - lo) / r->stride < r->count)
			continue;
		om->per_lo = lo;
		om->per_stride = r->stride;
		om->per_count = r->count;
		return;
	}
}

static bool is_periodic(const struct objmap *om, const struct obj_run *r)
{
	return om->per_count && r->count == om->per_count && r->stride == om->per_stride &&
	       r->base >= om->per_lo && r->base - om->per_lo + r->size <= om->per_stride;
}

static int piece_cmp(const void *a, const void *b)
{
	const struct obj_piece *x = a, *y = b;

	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->idx < y->idx ? -1 : 1;
}

static int per_cmp(const void *a, const void *b, void *data)
{
	const struct objmap *om = data;
	const struct obj_run *x = &om->runs[*(const uint32_t *)a];
	const struct obj_run *y = &om->runs[*(const uint32_t *)b];

	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->first < y->first ? -1 : 1;
}

/* Sort the pieces and the periodic runs. */
static void index_build(struct objmap *om)
{
	uint32_t nr_flat = 0;

	pick_period(om);
	om->nr_per = 0;
	for (uint32_t i = 0; i < om->nr_runs; i++)
		if (!is_periodic(om, &om->runs[i]))
			nr_flat += om->runs[i].count;
	g_free(om->flat);
	g_free(om->per);
	om->flat = g_new(struct obj_piece, nr_flat ? nr_flat : 1);
	om->per = g_new(uint32_t, om->nr_runs ? om->nr_runs : 1);
	om->nr_flat = 0;
	for (uint32_t i = 0; i < om->nr_runs; i++) {
		const struct obj_run *r = &om->runs[i];

		if (is_periodic(om, r)) {
			om->per[om->nr_per++] = i;
			continue;
		}
		for (uint32_t k = 0; k < r->count; k++)
			om->flat[om->nr_flat++] = (struct obj_piece){r->base + (uint64_t)k * r->stride,
								     r->first + k, i};
	}
	qsort(om->flat, om->nr_flat, sizeof(*om->flat), piece_cmp);
	qsort_r(om->per, om->nr_per, sizeof(*om->per), per_cmp, om);
	if (!om->near)
		om->near = g_new(uint32_t, 2);
	om->near[0] = om->near[1] = 0;
	g_free(om->last);
	om->last = NULL; /* until objmap_seal() finds no overlap */
}

/* Walk every object in address order (the pieces and the periodic instances merged); the
 * first that begins before the one before it ends is an overlap. */
uint32_t objmap_seal(struct objmap *om)
{
	struct opos prev = {0}, f, p;
	uint32_t fi = 0, pj = 0;
	uint64_t pk = 0;

	index_build(om);
	for (;;) {
		struct opos cur;

		f = flat_pos(om, fi);
		p = per_pos(om, pk, pj);
		if (!f.ok && !p.ok) {
			om->last = g_new0(struct obj_last, 1); /* disjoint: objmap_find may remember */
			return OBJ_NONE;
		}
		if (pos_before(f, p)) {
			cur = f;
			fi++;
		} else {
			cur = p;
			if (++pj == om->nr_per) {
				pj = 0;
				pk++;
			}
		}
		if (prev.ok && prev.base + om->runs[prev.run].size > cur.base)
			return cur.idx;
		prev = cur;
	}
}

/* Whether @n pieces, and no more, have their base at or below @addr (none: an address below
 * them all, as the per-cpu areas of a map whose other objects lie above them are). */
static bool flat_below_is(const struct objmap *om, uint64_t addr, uint32_t n)
{
	return n <= om->nr_flat && (n == 0 || om->flat[n - 1].base <= addr) &&
	       (n == om->nr_flat || om->flat[n].base > addr);
}

/* How many pieces have their base at or below @addr.  Lines are first touched mostly inside
 * the object touched last or in the one after it, so the answer of the last lookup and its
 * successor are tried before the binary search (same answer, fewer cache misses). */
static uint32_t flat_below(const struct objmap *om, uint64_t addr)
{
	uint32_t lo = 0, hi = om->nr_flat;

	if (!om->near)
		return 0; /* not sealed: no object to find */
	if (flat_below_is(om, addr, om->near[0]))
		return om->near[0];
	if (flat_below_is(om, addr, om->near[0] + 1))
		return ++om->near[0];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (om->flat[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	om->near[0] = lo;
	return lo;
}

/* How many periodic runs have their first instance at or below @off (in window 0). */
static uint32_t per_below(const struct objmap *om, uint64_t off)
{
	uint32_t lo = 0, hi = om->nr_per, n = om->near[1];

	if (n <= om->nr_per && (n == 0 || om->runs[om->per[n - 1]].base <= off) &&
	    (n == om->nr_per || om->runs[om->per[n]].base > off))
		return n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (om->runs[om->per[mid]].base <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	om->near[1] = lo;
	return lo;
}

/* The last object based at or below @addr (@after false), or the first based past it. */
static struct opos neighbour(const struct objmap *om, uint64_t addr, bool after)
{
	uint32_t nf = flat_below(om, addr), np;
	struct opos f = after ? flat_pos(om, nf) : nf ? flat_pos(om, nf - 1) : (struct opos){0};
	struct opos p = {0};
	uint64_t k;

	if (om->near && om->nr_per && addr < om->per_lo) {
		p = after ? per_pos(om, 0, 0) : p;
	} else if (om->near && om->nr_per) {
		k = (addr - om->per_lo) / om->per_stride;
		if (k >= om->per_count) {
			p = after ? p : per_pos(om, om->per_count - 1, om->nr_per - 1);
		} else {
			np = per_below(om, om->per_lo + (addr - om->per_lo) % om->per_stride);
			if (after)
				p = np < om->nr_per ? per_pos(om, k, np) : per_pos(om, k + 1, 0);
			else
				p = np ? per_pos(om, k, np - 1)
				       : k ? per_pos(om, k - 1, om->nr_per - 1) : p;
		}
	}
	if (after)
		return pos_before(f, p) ? f : p;
	return !p.ok || (f.ok && pos_before(p, f)) ? f : p;
}

/* Remember that @addr, which no object holds, lies after @below (the last object based at or
 * below it, if any) and before the first object past it (obj_last's gap). */
static void gap_remember(const struct objmap *om, uint64_t addr, struct opos below)
{
	struct opos next = neighbour(om, addr, true);
	struct obj_last *l = om->last;

	l->gap_lo = below.ok ? below.base + om->runs[below.run].size : 0;
	l->gap_hi = next.ok ? next.base : UINT64_MAX;
	l->gap_next = next.ok ? next.idx : OBJ_NONE;
}

static bool in_gap(const struct objmap *om, uint64_t addr)
{
	return om->last && addr - om->last->gap_lo < om->last->gap_hi - om->last->gap_lo;
}

uint32_t objmap_find(const struct objmap *om, uint64_t addr)
{
	struct opos o;

	/* Lines are first touched mostly inside the object touched last, or in the gap. */
	if (om->last && addr - om->last->base < om->last->size)
		return om->last->idx;
	if (in_gap(om, addr))
		return OBJ_NONE;
	o = neighbour(om, addr, false);
	if (!o.ok || addr >= o.base + om->runs[o.run].size) {
		if (om->last)
			gap_remember(om, addr, o);
		return OBJ_NONE;
	}
	if (om->last) {
		om->last->base = o.base;
		om->last->size = om->runs[o.run].size;
		om->last->idx = o.idx;
	}
	return o.idx;
}

/* The first object starting in [@lo, @hi), when objmap_find() has just answered that none
 * holds @lo. */
static uint32_t find_past(const struct objmap *om, uint64_t lo, uint64_t hi)
{
	struct opos next;

	if (in_gap(om, lo)) /* objmap_find just remembered it, or it was known */
		return om->last->gap_hi < hi ? om->last->gap_next : OBJ_NONE;
	next = neighbour(om, lo, true); /* the first object past lo */
	return next.ok && next.base < hi ? next.idx : OBJ_NONE;
}

uint32_t objmap_find_in(const struct objmap *om, uint64_t lo, uint64_t hi)
{
	uint32_t o = objmap_find(om, lo);

	return o != OBJ_NONE ? o : find_past(om, lo, hi);
}

uint32_t objmap_find_unit(const struct objmap *om, uint64_t lo, uint64_t hi, uint32_t *in)
{
	uint32_t o = objmap_find(om, lo);

	*in = o != OBJ_NONE ? o : find_past(om, lo, hi);
	return o;
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
	struct obj o;

	if (!name || !objmap_get(om, obj, &o))
		return g_strdup("-");
	if (member)
		return g_strdup_printf("%s.%s", name, member);
	return g_strdup_printf("%s+0x%" PRIx64, name, addr - o.base);
}
