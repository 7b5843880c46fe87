/* path_addr.c - compile `at:` addresses to (object, offset, index strides); see path.h. */
#include <string.h>

#include "path/path_int.h"

/* Find object @name of kind @k (or a global when @k is NULL). */
static int find_kobj(const struct kobj *v, uint32_t nr, const char *name)
{
	for (uint32_t i = 0; i < nr; i++)
		if (!strcmp(v[i].name, name))
			return (int)i;
	return -1;
}

static void err_unknown(struct pcomp *pc, struct c2c_mark at, const char *what,
			const char *name, const struct kobj *v, uint32_t nr)
{
	g_autofree const char **names = g_new0(const char *, nr + 1);
	g_autofree char *list = NULL;
	const char *close;

	for (uint32_t i = 0; i < nr; i++)
		names[i] = v[i].name;
	close = err_closest(name, names);
	list = g_strjoinv(", ", (char **)names);
	err_set(pc->err, at, "unknown %s '%s' (expected one of: %s%s%s%s)", what, name,
		list, close ? "; did you mean '" : "",
		close ? close : "", close ? "'?" : "");
}

/* Split "[EXPR]" or "@EXPR" suffixes off an object token: "pn[nid]", "statc@c".  Return:
 * the text inside the brackets, or NULL with pc->err set when the '[' is never closed. */
static char *take_bracket(struct pcomp *pc, const char **p, const char *text,
			  struct c2c_mark at)
{
	const char *s = *p + 1;
	int depth = 1;

	for (*p = s; **p && depth; (*p)++)
		depth += (**p == '[') - (**p == ']');
	if (depth) {
		err_set(pc->err, at, "'%s': '[' without its ']' (expected NAME[INDEX])", text);
		return NULL;
	}
	return g_strndup(s, (size_t)(*p - s - 1));
}

static char *take_at(const char **p)
{
	const char *s = ++(*p);

	while (**p && **p != '.')
		(*p)++;
	return g_strndup(s, (size_t)(*p - s));
}

/*
 * zero_path - @mpath with each variable index made [0], into @zero: the text of each such
 * index goes to @vars (g_free'd by the array) and its position in @zero to @pos; constant
 * indexes are written as their value.  Return: false with pc->err set on a bad index.
 */
static bool zero_path(struct pcomp *pc, const char *mpath, struct c2c_mark at, GString *zero,
		      GPtrArray *vars, GArray *pos)
{
	for (const char *p = mpath; *p; ) {
		if (*p != '[') {
			g_string_append_c(zero, *p++);
			continue;
		}
		{
			char *e = take_bracket(pc, &p, mpath, at);
			int64_t v;
			struct expr *x = e ? pc_expr_text(pc, e, at) : NULL;

			if (!x) {
				g_free(e);
				return false;
			}
			if (expr_const(x, &v)) {
				g_string_append_printf(zero, "[%" G_GINT64_FORMAT "]", v);
				expr_free(x);
				g_free(e);
				continue;
			}
			expr_free(x);
			g_string_append_c(zero, '[');
			g_array_append_val(pos, zero->len);
			g_string_append(zero, "0]");
			g_ptr_array_add(vars, e);
		}
	}
	return true;
}

/*
 * The member path with variable indexes: constant indexes are resolved by layout_find; each
 * variable one becomes a stride found by probing index 0 and 1.
 */
static bool member_path(struct pcomp *pc, const struct layout *l, const char *mpath,
			struct c2c_mark at, struct member_ref *a, uint32_t *msize)
{
	GString *zero = g_string_new(NULL);
	GPtrArray *vars = g_ptr_array_new_with_free_func(g_free);
	GArray *pos = g_array_new(FALSE, FALSE, sizeof(gsize));
	struct lref r0, r1;
	bool ok = zero_path(pc, mpath, at, zero, vars, pos) &&
		  layout_find(pc->lib, l, zero->str, &r0, at, pc->err);

	for (guint i = 0; ok && i < vars->len; i++) {
		g_autoptr(GString) one = g_string_new(zero->str);
		gsize at_pos = g_array_index(pos, gsize, i);
		g_autofree char *prefix = g_strndup(zero->str, at_pos - 1);
		struct lref arr;

		if (a->nr_idx == PATH_MAX_IDX) {
			err_set(pc->err, at, "'%s': more than %d variable indexes", mpath, PATH_MAX_IDX);
			ok = false;
			break;
		}
		g_string_overwrite(one, at_pos, "1");
		ok = layout_find(pc->lib, l, one->str, &r1, at, pc->err) &&
		     layout_find(pc->lib, l, prefix, &arr, at, pc->err);
		if (!ok)
			break;
		a->stride[a->nr_idx] = (uint32_t)(r1.offset - r0.offset);
		a->bound[a->nr_idx] = arr.m->nr_dims ? arr.m->dims[0] : 0;
		a->idx[a->nr_idx++] = pc_expr_text(pc, vars->pdata[i], at);
	}
	if (ok) {
		pc->last_type = r0.m ? r0.m->type : NULL;
		a->off = (uint32_t)r0.offset;
		*msize = (uint32_t)(r0.size ? r0.size : 8);
	}
	g_string_free(zero, TRUE);
	g_ptr_array_free(vars, TRUE);
	g_array_free(pos, TRUE);
	return ok;
}

/* OBJ, OBJ[EXPR] (per node), OBJ@EXPR (per cpu): the object token at *p. */
static bool object_token(struct pcomp *pc, const struct kobj *objs, uint32_t nr, const char **p,
			 struct c2c_mark at, struct member_ref *a, const struct kobj **ko)
{
	const char *s = *p;
	g_autofree char *name = NULL;
	int i;

	while (**p && !strchr(".[@", **p))
		(*p)++;
	name = g_strndup(s, (size_t)(*p - s));
	if ((i = find_kobj(objs, nr, name)) < 0) {
		err_unknown(pc, at, a->ent >= 0 ? "object" : "object or entity", name, objs, nr);
		return false;
	}
	a->obj = (uint16_t)i;
	*ko = &objs[i];
	if (**p == '[') {
		g_autofree char *e = take_bracket(pc, p, s, at);

		if (!e)
			return false;
		if (!(*ko)->per_node) {
			err_set(pc->err, at, "%s is not per node (expected %s without [NODE])", name,
				name);
			return false;
		}
		if (!(a->node = pc_expr_text(pc, e, at)))
			return false;
	} else if ((*ko)->per_node) {
		err_set(pc->err, at, "%s is per node (expected %s[NODE])", name, name);
		return false;
	}
	if (**p == '@') {
		g_autofree char *e = take_at(p);

		if (!(*ko)->percpu) {
			err_set(pc->err, at, "%s is not per cpu (expected no @CPU)", name);
			return false;
		}
		if (!(a->cpu = pc_expr_text(pc, e, at)))
			return false;
	}
	return true;
}

/* The size of an access to a member of @msize bytes: @size when given; at most 64. */
static bool access_size(struct pcomp *pc, const struct yt_node *n, uint32_t size,
			uint32_t msize, struct member_ref *a)
{
	uint32_t bytes = size ? size : msize;

	a->size = (uint8_t)bytes;
	if (bytes <= 64)
		return true;
	err_set(pc->err, n->mark, "'%s': %u bytes (expected an access of at most 64 bytes; "
		"name a member inside it)", n->str, bytes);
	return false;
}

/* "P->MEMBER": P a local loaded from a `struct X *` member; the address is P's value, so
 * the access depends on that load (the scoreboard, interp.h). */
static bool pointer_addr(struct pcomp *pc, const struct yt_node *n, uint32_t size,
			 struct member_ref *a)
{
	const char *arrow = strstr(n->str, "->");
	g_autofree char *name = g_strndup(n->str, (size_t)(arrow - n->str));
	int l = pc_local(pc, g_strstrip(name), -1, false);
	uint32_t msize = 8;

	if (l < 0 || !pc->local_ptr[l]) {
		err_set(pc->err, n->mark, "'%s': '%s' is not a pointer (expected a local loaded "
			"from a member of type struct NAME *, with NAME's layout loaded)", n->str,
			name);
		return false;
	}
	a->ptr = (int16_t)l;
	return member_path(pc, pc->local_ptr[l], arrow + 2, n->mark, a, &msize) &&
	       access_size(pc, n, size, msize, a);
}

static bool compile_addr(struct pcomp *pc, const struct yt_node *n, uint32_t size,
			 struct member_ref *a)
{
	const struct kobj *objs = pc->prog->globals, *ko;
	uint32_t nr = pc->prog->nr_globals, msize = 8;
	const char *p;
	int l;

	memset(a, 0, sizeof(*a));
	a->ent = a->ptr = a->kind = -1;
	pc->last_type = NULL;
	if (!n || n->kind != YT_SCALAR) {
		err_set(pc->err, n ? n->mark : pc->mark, "at: expected ENTITY.OBJECT.MEMBER, "
			"GLOBAL.MEMBER or POINTER->MEMBER");
		return false;
	}
	p = n->str;
	if (strstr(p, "->"))
		return pointer_addr(pc, n, size, a);
	{
		size_t len = strcspn(p, ".[@");
		g_autofree char *first = g_strndup(p, len);

		l = pc_local(pc, first, -1, false);
		if (l >= 0 && pc->local_kind[l] >= 0) {
			const struct kind *k = &pc->prog->kinds[pc->local_kind[l]];

			a->ent = (int16_t)l;
			a->kind = pc->local_kind[l];
			objs = k->obj;
			nr = k->nr_obj;
			p += len;
			if (*p++ != '.') {
				err_set(pc->err, n->mark, "'%s': expected %s.OBJECT (an object of kind "
					"%s)", n->str, first, k->name);
				return false;
			}
		}
	}
	if (!object_token(pc, objs, nr, &p, n->mark, a, &ko))
		return false;
	a->percpu = ko->percpu;
	if (*p == '.') {
		if (!member_path(pc, ko->layout, p + 1, n->mark, a, &msize))
			return false;
	} else if (*p) {
		err_set(pc->err, n->mark, "'%s': unexpected '%s' (expected .MEMBER)", n->str, p);
		return false;
	} else {
		msize = (uint32_t)(ko->layout->size < 8 ? ko->layout->size : 8);
	}
	return access_size(pc, n, size, msize, a);
}

bool pc_addr(struct pcomp *pc, const struct yt_node *n, uint32_t size, struct member_ref *a)
{
	if (compile_addr(pc, n, size, a))
		return true;
	member_ref_release(a);   /* the index, CPU and node expressions compiled before the error */
	return false;
}

uint8_t member_ref_form(const struct member_ref *a)
{
	if (a->ptr >= 0)
		return AF_PTR;
	return (uint8_t)((a->ent >= 0 ? AF_ENT : 0) | (a->node ? AF_NODE : 0) |
			 (a->percpu ? AF_PERCPU : 0));
}

void member_ref_release(struct member_ref *a)
{
	for (int i = 0; i < a->nr_idx; i++)
		expr_free(a->idx[i]);
	expr_free(a->cpu);
	expr_free(a->node);
	a->nr_idx = 0;
	a->cpu = a->node = NULL;
}

const struct layout *pc_pointee(struct pcomp *pc)
{
	const char *t = pc->last_type;
	size_t len;
	g_autofree char *name = NULL;
	struct c2c_err scratch = {0};

	if (!t || !g_str_has_prefix(t, "struct ") || !g_str_has_suffix(t, " *"))
		return NULL;
	len = strlen(t) - strlen("struct ") - strlen(" *");
	name = g_strndup(t + strlen("struct "), len);
	/* A pointer to a struct without a layout here is a value, not an address the model
	 * can use: no error. */
	return layout_lib_get(pc->lib, name, pc->mark, &scratch);
}
