/* path_init.c - what memory holds when an entity is created: a kind's `init:` values and the
 * `links:` its walks follow; see path.h for the format. */
#include <string.h>

#include "path/path_int.h"

static const char *const link_names[KLINK_COUNT + 1] = {"parent", "children", "sibling", NULL};

/* @text with every NODE replaced by @n (a member index or a per-node object's node). */
static char *subst_node(const char *text, int n)
{
	g_auto(GStrv) parts = g_strsplit(text, "NODE", -1);
	g_autofree char *num = g_strdup_printf("%d", n);

	return g_strjoinv(num, parts);
}

static int kind_obj(const struct kind *k, const char *name)
{
	for (uint32_t i = 0; i < k->nr_obj; i++)
		if (!strcmp(k->obj[i].name, name))
			return (int)i;
	return -1;
}

/* "OBJ[.MEMBER]" or "OBJ[NODE][.MEMBER]" of kind @k with NODE = @n: the object and the
 * member's byte range (the whole object without a member).  Return: false with @err set. */
static bool member_at(struct pcomp *pc, const struct kind *k, const char *text, int n,
		      struct c2c_mark at, uint16_t *obj, struct lref *r)
{
	g_autofree char *s = subst_node(text, n);
	g_autofree char *name = g_strndup(s, strcspn(s, ".["));
	const char *p = s + strlen(name);
	int o = kind_obj(k, name);

	if (o < 0) {
		err_set(pc->err, at, "'%s': unknown object '%s' of kind %s (expected OBJECT.MEMBER)",
			text, name, k->name);
		return false;
	}
	*obj = (uint16_t)o;
	if (*p == '[' && k->obj[o].per_node)   /* the node instance: each node in turn */
		p = strchr(p, ']') ? strchr(p, ']') + 1 : p + strlen(p);
	if (!*p) {
		*r = (struct lref){.offset = 0, .size = k->obj[o].layout->size};
		return true;
	}
	if (*p != '.') {
		err_set(pc->err, at, "'%s': unexpected '%s' (expected .MEMBER)", text, p);
		return false;
	}
	return layout_find(pc->lib, k->obj[o].layout, p + 1, r, at, pc->err);
}

/* The offset at node 0 and the stride per node of @text (0 when NODE is not used). */
static bool member_strided(struct pcomp *pc, const struct kind *k, const char *text,
			   struct c2c_mark at, uint16_t *obj, struct lref *r, uint32_t *stride)
{
	struct lref r1;
	uint16_t o1;

	*stride = 0;
	if (!member_at(pc, k, text, 0, at, obj, r))
		return false;
	if (!strstr(text, "NODE") || k->obj[*obj].per_node)
		return true;
	if (!member_at(pc, k, text, 1, at, &o1, &r1))
		return false;
	*stride = (uint32_t)(r1.offset - r->offset);
	return true;
}

/* The value of an init entry: "&[parent.]OBJ[.MEMBER]" (an address) or an integer
 * expression of constants. */
static bool init_value(struct pcomp *pc, const struct kind *k, const struct yt_node *v,
		       struct kinit *ki)
{
	const char *s;
	struct lref r;
	struct expr *x;
	bool ok;

	if (!yt_str(v, "init", &s, pc->err))
		return false;
	if (s[0] == '&') {
		bool up = g_str_has_prefix(s + 1, "parent.");

		ki->ref = up ? KINIT_PARENT : KINIT_SELF;
		if (!member_strided(pc, k, s + 1 + (up ? 7 : 0), v->mark, &ki->ref_obj, &r,
				    &ki->ref_node_stride))
			return false;
		ki->ref_off = (uint32_t)r.offset;
		ki->each_node |= strstr(s, "NODE") || k->obj[ki->ref_obj].per_node;
		return true;
	}
	if (!(x = pc_expr(pc, v, "init")))
		return false;
	ok = expr_const(x, &ki->value);
	expr_free(x);
	if (!ok)
		err_set(pc->err, v->mark, "init: '%s' is not a constant (expected an integer "
			"expression of constants, or &OBJECT.MEMBER)", s);
	return ok;
}

bool kinit_compile(struct program *pr, struct layout_lib *lib, const struct kind *k,
		   const struct yt_node *key, const struct yt_node *val, struct kinit *ki,
		   struct c2c_err *err)
{
	struct pcomp pc = {.prog = pr, .lib = lib, .mark = key->mark, .err = err};
	struct lref r;

	memset(ki, 0, sizeof(*ki));
	ki->mark = key->mark;
	if (!member_strided(&pc, k, key->str, key->mark, &ki->obj, &r, &ki->node_stride))
		return false;
	if (r.size > 8 || r.bits) {
		err_set(err, key->mark, "init: '%s' is %" G_GUINT64_FORMAT " bytes%s (expected a "
			"member of at most 8 bytes, not a bitfield)", key->str, r.size,
			r.bits ? ", a bitfield" : "");
		return false;
	}
	ki->off = (uint32_t)r.offset;
	ki->size = (uint32_t)(r.size ? r.size : 8);
	ki->each_node = strstr(key->str, "NODE") || k->obj[ki->obj].per_node;
	return init_value(&pc, k, val, ki);
}

/* One of `links:`: the pointer member; `parent` points at the parent's enclosing struct. */
static bool load_link(struct pcomp *pc, struct kind *k, int which, const struct yt_node *v)
{
	struct klink *l = &k->link[which];
	struct lref r, to = {0};
	const char *s, *dot;

	if (!yt_str(v, link_names[which], &s, pc->err) ||
	    !member_at(pc, k, s, 0, v->mark, &l->obj, &r))
		return false;
	dot = strrchr(s, '.');
	if (which == KLINK_PARENT && dot && strchr(s, '.') != dot) {
		g_autofree char *up = g_strndup(s, (size_t)(dot - s));
		uint16_t o;

		if (!member_at(pc, k, up, 0, v->mark, &o, &to))
			return false;
	}
	if (r.size != (which == KLINK_PARENT ? 8u : 16u)) {
		err_set(pc->err, v->mark, "links.%s: '%s' is %" G_GUINT64_FORMAT " bytes (expected "
			"%s)", link_names[which], s, r.size, which == KLINK_PARENT
			? "a pointer, 8 bytes" : "a struct list_head, 16 bytes");
		return false;
	}
	l->set = true;
	l->off = (uint32_t)r.offset;
	l->to_off = (uint32_t)to.offset;
	return true;
}

static bool load_links(struct pcomp *pc, struct kind *k, const struct yt_node *m)
{
	if (!yt_expect_map(m, "links", link_names, pc->err))
		return false;
	for (int i = 0; i < KLINK_COUNT; i++)
		if (yt_get(m, link_names[i]) && !load_link(pc, k, i, yt_get(m, link_names[i])))
			return false;
	if (k->link[KLINK_CHILDREN].set != k->link[KLINK_SIBLING].set ||
	    (k->link[KLINK_CHILDREN].set &&
	     k->link[KLINK_CHILDREN].obj != k->link[KLINK_SIBLING].obj)) {
		err_set(pc->err, m->mark, "links: children and sibling go together (expected both, "
			"members of one object)");
		return false;
	}
	return true;
}

bool kinds_load_init(struct program *pr, const struct yt_node *kinds, struct layout_lib *lib,
		     struct c2c_err *err)
{
	for (size_t i = 0; kinds && i < kinds->len; i++) {
		const struct yt_node *n = kinds->pairs[i].val, *m;
		struct kind *k = NULL;
		struct pcomp pc = {.prog = pr, .lib = lib, .mark = n->mark, .err = err};

		for (uint32_t j = 0; j < pr->nr_kinds; j++)
			if (!strcmp(pr->kinds[j].name, kinds->pairs[i].key->str))
				k = &pr->kinds[j];
		if ((m = yt_get(n, "links")) && !load_links(&pc, k, m))
			return false;
		if (!(m = yt_get(n, "init")))
			continue;
		if (!yt_expect_map(m, "init", NULL, err))
			return false;
		for (size_t j = 0; j < m->len; j++) {
			k->init = g_renew(struct kinit, k->init, k->nr_init + 1);
			if (!kinit_compile(pr, lib, k, m->pairs[j].key, m->pairs[j].val,
					   &k->init[k->nr_init++], err))
				return false;
		}
	}
	return true;
}
