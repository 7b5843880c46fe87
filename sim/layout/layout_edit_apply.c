/* layout_edit_apply.c - applying an edit list to a layout and recomputing its offsets; see
 * layout_edit.h. */
#include "layout/layout_edit.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#define CACHELINE_BYTES 64

/* Where a member is: index @idx of the array (*@arr, *@nr) of its aggregate. */
struct loc {
	struct lmember **arr;
	uint32_t *nr;
	uint32_t idx;
};

static bool is_agg(const struct lmember *m)
{
	return m->kind == LM_STRUCT || m->kind == LM_UNION;
}

/* Find dotted @path in (*arr, *nr); anonymous aggregates are transparent.  *@embedded is set
 * when the path goes on into a field (a member of another struct's layout). */
static bool locate_in(struct lmember **arr, uint32_t *nr, const char *path, struct loc *out,
		      bool *embedded)
{
	size_t len = strcspn(path, ".");

	for (uint32_t i = 0; i < *nr; i++) {
		struct lmember *c = &(*arr)[i];

		if (!c->name) {
			if (is_agg(c) && locate_in(&c->sub, &c->nr_sub, path, out, embedded))
				return true;
			continue;
		}
		if (strlen(c->name) != len || strncmp(c->name, path, len))
			continue;
		if (!path[len]) {
			*out = (struct loc){arr, nr, i};
			return true;
		}
		if (is_agg(c))
			return locate_in(&c->sub, &c->nr_sub, path + len + 1, out, embedded);
		*embedded = true;
		return false;
	}
	return false;
}

static void names_of(const struct lmember *m, uint32_t nr, GPtrArray *names)
{
	for (uint32_t i = 0; i < nr; i++)
		if (m[i].name)
			g_ptr_array_add(names, m[i].name);
		else
			names_of(m[i].sub, m[i].nr_sub, names);
}

static bool locate(struct layout *l, const char *path, const struct ledit *d, struct loc *out,
		   struct c2c_err *err)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	bool embedded = false;
	const char *near;

	if (locate_in(&l->m, &l->nr, path, out, &embedded))
		return true;
	if (embedded) {
		err_set(err, d->mark, "%s %s: '%s' is inside an embedded struct (expected a member "
			"of struct %s; edit the embedded struct's own layout)",
			ledit_kind_names[d->kind], path, path, l->name);
		return false;
	}
	names_of(l->m, l->nr, names);
	g_ptr_array_add(names, NULL);
	near = err_closest(path, (const char *const *)names->pdata);
	err_set(err, d->mark, "%s: unknown member '%s' in struct %s (expected a member of %s%s%s%s)",
		ledit_kind_names[d->kind], path, l->name, l->name, near ? "; did you mean '" : "",
		near ? near : "", near ? "'?" : "");
	return false;
}

static bool same_aggregate(const struct loc *a, const struct loc *b, const struct ledit *d,
			   const char *x, const char *y, struct c2c_err *err)
{
	if (a->arr == b->arr)
		return true;
	err_set(err, d->mark, "%s: '%s' and '%s' are in different aggregates (expected members "
		"of the same struct or union)", ledit_kind_names[d->kind], x, y);
	return false;
}

/* Take member @idx out of its array into *@out. */
static void take(const struct loc *at, struct lmember *out)
{
	struct lmember *a = *at->arr;

	*out = a[at->idx];
	memmove(&a[at->idx], &a[at->idx + 1], (*at->nr - at->idx - 1) * sizeof(*a));
	(*at->nr)--;
}

/* Put @m at index @idx of (*arr, *nr). */
static void put(struct lmember **arr, uint32_t *nr, uint32_t idx, const struct lmember *m)
{
	struct lmember *a;

	lmember_append(arr, nr);
	a = *arr;
	memmove(&a[idx + 1], &a[idx], (*nr - idx - 1) * sizeof(*a));
	a[idx] = *m;
}

static bool edit_move(struct layout *l, const struct ledit *d, struct c2c_err *err)
{
	struct loc x, y;
	struct lmember m;

	if (!locate(l, d->member, d, &x, err) || !locate(l, d->ref, d, &y, err) ||
	    !same_aggregate(&x, &y, d, d->member, d->ref, err))
		return false;
	if (x.idx == y.idx) {
		err_set(err, d->mark, "move: '%s' %s itself (expected another member)", d->member,
			d->before ? "before" : "after");
		return false;
	}
	take(&x, &m);
	if (x.idx < y.idx)
		y.idx--;
	put(y.arr, y.nr, d->before ? y.idx : y.idx + 1, &m);
	return true;
}

static bool edit_swap(struct layout *l, const struct ledit *d, struct c2c_err *err)
{
	struct loc x, y;
	struct lmember t;

	if (!locate(l, d->member, d, &x, err) || !locate(l, d->ref, d, &y, err) ||
	    !same_aggregate(&x, &y, d, d->member, d->ref, err))
		return false;
	t = (*x.arr)[x.idx];
	(*x.arr)[x.idx] = (*y.arr)[y.idx];
	(*y.arr)[y.idx] = t;
	return true;
}

/* A zero-size marker before the member: CACHELINE_PADDING for 64, else aligned bytes. */
static bool edit_pad(struct layout *l, const struct ledit *d, struct c2c_err *err)
{
	struct lmember pad = {.kind = LM_PAD, .mark = d->mark};
	struct loc x;

	if (!locate(l, d->member, d, &x, err))
		return false;
	pad.name = g_strdup_printf("_pad_%s_", d->member);
	g_strdelimit(pad.name, ".", '_');
	if (d->to == CACHELINE_BYTES)
		pad.type = g_strdup("struct cacheline_padding");
	else
		pad.align = d->to;
	put(x.arr, x.nr, x.idx, &pad);
	return true;
}

static bool edit_align(struct layout *l, const struct ledit *d, struct c2c_err *err)
{
	struct loc x;

	if (!locate(l, d->member, d, &x, err))
		return false;
	(*x.arr)[x.idx].align = d->to;
	return true;
}

/* The group's members, contiguous and in the order given, where the first one was. */
static bool edit_group(struct layout *l, const struct ledit *d, struct c2c_err *err)
{
	guint n = d->members->len;
	g_autofree struct lmember *moved = g_new0(struct lmember, n);
	struct loc first, x;
	struct lgroup *g;

	for (uint32_t i = 0; i < l->nr_groups; i++)
		if (!strcmp(l->groups[i].name, d->group)) {
			err_set(err, d->mark, "group: %s exists (expected a new group name)", d->group);
			return false;
		}
	for (guint i = 0; i < n; i++)
		for (guint j = 0; j < i; j++)
			if (!strcmp(d->members->pdata[i], d->members->pdata[j])) {
				err_set(err, d->mark, "group %s: '%s' listed twice (expected each "
					"member once)", d->group, (char *)d->members->pdata[i]);
				return false;
			}
	if (!locate(l, d->members->pdata[0], d, &first, err))
		return false;
	for (guint i = 1; i < n; i++) /* all found before any moves: nothing half done */
		if (!locate(l, d->members->pdata[i], d, &x, err) ||
		    !same_aggregate(&first, &x, d, d->members->pdata[0], d->members->pdata[i], err))
			return false;
	for (guint i = 0; i < n; i++) {
		locate(l, d->members->pdata[i], d, &x, err);
		take(&x, &moved[i]);
		/* The first member's slot moves down when a member before it leaves. */
		if (i && x.idx < first.idx)
			first.idx--;
	}
	for (guint i = 0; i < n; i++)
		put(first.arr, first.nr, first.idx + i, &moved[i]);
	l->groups = g_renew(struct lgroup, l->groups, l->nr_groups + 1);
	g = &l->groups[l->nr_groups++];
	*g = (struct lgroup){.name = g_strdup(d->group), .first = g_strdup(d->members->pdata[0]),
			     .last = g_strdup(d->members->pdata[n - 1]), .aligned = d->aligned,
			     .mark = d->mark};
	return true;
}

/* ------------------------------------------------------------------ recomputing */

/* Offsets go; what only the offsets told (the alignment of a type nothing else knows) is
 * kept in type_align; see layout_edit.h. */
static void unfix(struct layout_lib *lib, struct lmember *m, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		struct lmember *c = &m[i];
		uint64_t size;
		uint32_t align;

		/* Only a field whose embedded layout is missing needs it: the tables know the
		 * type (struct rb_node) or the offsets tell. */
		if (c->has_offset && c->kind == LM_FIELD && (c->layout ? !layout_lib_has(lib, c->layout)
							       : !layout_c_type(c->type, &size, &align)))
			c->type_align = layout_c_type(c->type, &size, &align) ? align :
					layout_offset_align(c->offset,
							    c->size / MAX(lmember_elems(c), 1));
		c->has_offset = false;
		unfix(lib, c->sub, c->nr_sub);
	}
}

static bool apply_one(struct layout *l, const struct ledit *d, struct c2c_err *err)
{
	switch (d->kind) {
	case LE_MOVE:
		return edit_move(l, d, err);
	case LE_SWAP:
		return edit_swap(l, d, err);
	case LE_PAD:
		return edit_pad(l, d, err);
	case LE_ALIGN:
		return edit_align(l, d, err);
	default:
		return edit_group(l, d, err);
	}
}

struct layout *layout_edit(struct layout_lib *lib, const struct layout *l, const struct ledits *e,
			   struct c2c_err *err)
{
	struct layout *n = layout_copy(l);
	g_autofree char *what = ledits_describe(e);
	char *src;

	unfix(lib, n->m, n->nr);
	for (guint i = 0; i < e->v->len; i++)
		if (!apply_one(n, &g_array_index(e->v, struct ledit, i), err)) {
			layout_free(n);
			return NULL;
		}
	n->size = 0;
	if (!layout_compute(n, layout_lib_resolve, lib, err) ||
	    !layout_resolve_groups(lib, n, err)) {
		layout_free(n);
		return NULL;
	}
	src = g_strdup_printf("%s%sedited: %s", l->source ? l->source : l->file ? l->file : "",
			      l->source || l->file ? ", " : "", *what ? what : "no edits");
	g_free(n->source);
	n->source = src;
	g_free(n->file);
	n->file = NULL; /* not what the file says any more */
	return n;
}

bool layout_edits_apply(struct layout_lib *lib, const struct yt_node *map, struct c2c_err *err)
{
	if (!map)
		return true;
	if (!yt_expect_map(map, "layout_edits", NULL, err))
		return false;
	for (size_t i = 0; i < map->len; i++) {
		const struct yt_node *key = map->pairs[i].key;
		const struct layout *l = layout_lib_get(lib, key->str, key->mark, err);
		struct ledits e;
		struct layout *n = NULL;

		ledits_init(&e);
		if (l && ledits_from_tree(&e, map->pairs[i].val, err))
			n = layout_edit(lib, l, &e, err);
		ledits_release(&e);
		if (!n)
			return false;
		layout_lib_put(lib, n);
	}
	return true;
}
