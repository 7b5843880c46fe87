/* layout_edit.c - edit lists: reading them (YAML, command line) and writing them back (a
 * description, flow YAML); applying them is layout_edit_apply.c.  See layout_edit.h. */
#include "layout/layout_edit.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>


const char *const ledit_kind_names[LE_KIND_COUNT + 1] = {"move", "swap", "pad", "align",
							  "group", NULL};

void ledits_init(struct ledits *e)
{
	e->v = g_array_new(FALSE, TRUE, sizeof(struct ledit));
}

void ledits_release(struct ledits *e)
{
	if (!e->v)
		return;
	for (guint i = 0; i < e->v->len; i++) {
		struct ledit *d = &g_array_index(e->v, struct ledit, i);

		g_free(d->member);
		g_free(d->ref);
		g_free(d->group);
		if (d->members)
			g_ptr_array_free(d->members, TRUE);
	}
	g_array_free(e->v, TRUE);
	e->v = NULL;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* ------------------------------------------------------------------ parsing */

/* A power of two, 1 to 4096 bytes (a page: more is never a struct layout decision). */
static bool parse_to(const char *s, uint32_t *to)
{
	char *end;
	uint64_t v = g_ascii_strtoull(s, &end, 10);

	if (!*s || *end || !pow2(v) || v > 4096)
		return false;
	*to = (uint32_t)v;
	return true;
}

/* @n: yt_require's answer (NULL: it has reported the missing key). */
static bool tree_to(const struct yt_node *n, const char *what, uint32_t *to, struct c2c_err *err)
{
	int64_t v;

	if (!n || !yt_int(n, what, 1, 4096, &v, err))
		return false;
	if (!pow2((uint64_t)v)) {
		err_set(err, n->mark, "%s: %" PRId64 " is not a power of two (expected 8, 64, 128, "
			"...)", what, v);
		return false;
	}
	*to = (uint32_t)v;
	return true;
}

static bool tree_str(const struct yt_node *map, const char *key, const char *what, char **out,
		     struct c2c_err *err)
{
	struct yt_node *k = yt_require(map, key, what, err);
	const char *s;

	if (!k || !yt_str(k, what, &s, err))
		return false;
	*out = g_strdup(s);
	return true;
}

static bool tree_group(struct ledit *d, const struct yt_node *v, struct c2c_err *err)
{
	static const char *const keys[] = {"name", "members", "aligned", NULL};
	struct yt_node *k;

	if (!yt_expect_map(v, "group", keys, err) || !tree_str(v, "name", "group", &d->group, err) ||
	    !(k = yt_require(v, "members", "group", err)) || !yt_expect_seq(k, "group.members", err) ||
	    (yt_get(v, "aligned") && !yt_bool(yt_get(v, "aligned"), "group.aligned", &d->aligned,
					      err)))
		return false;
	d->members = g_ptr_array_new_with_free_func(g_free);
	for (size_t i = 0; i < k->len; i++) {
		const char *s;

		if (!yt_str(k->items[i], "group.members[]", &s, err))
			return false;
		g_ptr_array_add(d->members, g_strdup(s));
	}
	if (!d->members->len) {
		err_set(err, k->mark, "group.members: empty (expected the members of group %s)",
			d->group);
		return false;
	}
	return true;
}

/* One edit: a mapping with one key, the kind. */
static bool tree_edit(struct ledit *d, const struct yt_node *n, struct c2c_err *err)
{
	static const char *const move_keys[] = {"member", "after", "before", NULL};
	static const char *const pad_keys[] = {"before", "to", NULL};
	static const char *const align_keys[] = {"member", "to", NULL};
	const struct yt_node *v;
	int kind;

	d->mark = n->mark;
	if (!yt_expect_map(n, "layout edit", ledit_kind_names, err))
		return false;
	if (n->len != 1) {
		err_set(err, n->mark, "layout edit: %zu keys (expected one edit per entry, e.g. "
			"{move: {member: X, after: Y}})", n->len);
		return false;
	}
	if (!yt_enum(n->pairs[0].key, "layout edit", ledit_kind_names, &kind, err))
		return false;
	d->kind = (uint8_t)kind;
	v = n->pairs[0].val;
	switch (kind) {
	case LE_MOVE:
		d->before = yt_get(v, "before") != NULL;
		return yt_expect_map(v, "move", move_keys, err) &&
		       tree_str(v, "member", "move", &d->member, err) &&
		       tree_str(v, d->before ? "before" : "after", "move", &d->ref, err);
	case LE_SWAP:
		if (!yt_expect_seq(v, "swap", err))
			return false;
		if (v->len != 2) {
			err_set(err, v->mark, "swap: %zu members (expected two, e.g. [a, b])", v->len);
			return false;
		}
		return yt_str(v->items[0], "swap", &(const char *){NULL}, err) &&
		       yt_str(v->items[1], "swap", &(const char *){NULL}, err) &&
		       (d->member = g_strdup(v->items[0]->str)) && (d->ref = g_strdup(v->items[1]->str));
	case LE_PAD:
		return yt_expect_map(v, "pad", pad_keys, err) &&
		       tree_str(v, "before", "pad", &d->member, err) &&
		       tree_to(yt_require(v, "to", "pad", err), "pad.to", &d->to, err);
	case LE_ALIGN:
		return yt_expect_map(v, "align", align_keys, err) &&
		       tree_str(v, "member", "align", &d->member, err) &&
		       tree_to(yt_require(v, "to", "align", err), "align.to", &d->to, err);
	default:
		return tree_group(d, v, err);
	}
}

bool ledits_from_tree(struct ledits *e, const struct yt_node *seq, struct c2c_err *err)
{
	if (!yt_expect_seq(seq, "layout edits", err))
		return false;
	for (size_t i = 0; i < seq->len; i++) {
		struct ledit d = {0};

		if (!tree_edit(&d, seq->items[i], err)) {
			g_array_append_val(e->v, d); /* released with the list */
			return false;
		}
		g_array_append_val(e->v, d);
	}
	return true;
}

static const char *const arg_forms[LE_KIND_COUNT] = {
	"X:after:Y or X:before:Y", "X:Y", "X:N (pad before X to an N-byte boundary)",
	"X:N (a power of two)", "G:A,B,...[:aligned]"};

static bool arg_edit(struct ledit *d, char **f, guint n)
{
	switch (d->kind) {
	case LE_MOVE:
		d->before = n == 3 && !strcmp(f[1], "before");
		if (n != 3 || (!d->before && strcmp(f[1], "after")) || !*f[0] || !*f[2])
			return false;
		d->member = g_strdup(f[0]);
		d->ref = g_strdup(f[2]);
		return true;
	case LE_SWAP:
		if (n != 2 || !*f[0] || !*f[1])
			return false;
		d->member = g_strdup(f[0]);
		d->ref = g_strdup(f[1]);
		return true;
	case LE_PAD:
	case LE_ALIGN:
		if (n != 2 || !*f[0] || !parse_to(f[1], &d->to))
			return false;
		d->member = g_strdup(f[0]);
		return true;
	default:
		if ((n != 2 && n != 3) || !*f[0] || !*f[1] || (n == 3 && strcmp(f[2], "aligned")))
			return false;
		d->group = g_strdup(f[0]);
		d->aligned = n == 3;
		d->members = g_ptr_array_new_with_free_func(g_free);
		{
			char **m = g_strsplit(f[1], ",", -1);

			for (char **p = m; *p; p++) /* the array takes the strings */
				g_ptr_array_add(d->members, *p);
			g_free(m);
		}
		return true;
	}
}

bool ledit_parse_arg(struct ledits *e, enum ledit_kind kind, const char *arg,
		     struct c2c_err *err)
{
	g_auto(GStrv) f = g_strsplit(arg, ":", -1);
	struct ledit d = {.kind = (uint8_t)kind, .mark = {"<command-line>", 1, 1}};
	bool ok = arg_edit(&d, f, g_strv_length(f));

	g_array_append_val(e->v, d);
	if (!ok)
		err_setf(err, "c2csim layout edit: --%s '%s' (expected %s)", ledit_kind_names[kind],
			 arg, arg_forms[kind]);
	return ok;
}

char *ledits_describe(const struct ledits *e)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < e->v->len; i++) {
		const struct ledit *d = &g_array_index(e->v, struct ledit, i);

		if (s->len)
			g_string_append(s, "; ");
		if (d->kind == LE_MOVE)
			g_string_append_printf(s, "move %s %s %s", d->member,
					       d->before ? "before" : "after", d->ref);
		else if (d->kind == LE_SWAP)
			g_string_append_printf(s, "swap %s %s", d->member, d->ref);
		else if (d->kind == LE_PAD)
			g_string_append_printf(s, "pad before %s to %u", d->member, d->to);
		else if (d->kind == LE_ALIGN)
			g_string_append_printf(s, "align %s to %u", d->member, d->to);
		else
			for (guint j = 0; j < d->members->len; j++) {
				if (!j)
					g_string_append_printf(s, "%sgroup %s:", d->aligned ?
							       "aligned " : "", d->group);
				g_string_append_printf(s, "%s%s", j ? "," : " ",
						       (char *)d->members->pdata[j]);
			}
	}
	return g_string_free(s, FALSE);
}

char *ledits_to_yaml(const struct ledits *e)
{
	GString *s = g_string_new("[");

	for (guint i = 0; i < e->v->len; i++) {
		const struct ledit *d = &g_array_index(e->v, struct ledit, i);

		g_string_append(s, i ? ", {" : "{");
		if (d->kind == LE_MOVE)
			g_string_append_printf(s, "move: {member: \"%s\", %s: \"%s\"}", d->member,
					       d->before ? "before" : "after", d->ref);
		else if (d->kind == LE_SWAP)
			g_string_append_printf(s, "swap: [\"%s\", \"%s\"]", d->member, d->ref);
		else if (d->kind == LE_PAD || d->kind == LE_ALIGN)
			g_string_append_printf(s, "%s: {%s: \"%s\", to: %u}", ledit_kind_names[d->kind],
					       d->kind == LE_PAD ? "before" : "member", d->member, d->to);
		else {
			g_string_append_printf(s, "group: {name: \"%s\", aligned: %s, members: [",
					       d->group, d->aligned ? "true" : "false");
			for (guint j = 0; j < d->members->len; j++)
				g_string_append_printf(s, "%s\"%s\"", j ? ", " : "",
						       (char *)d->members->pdata[j]);
		}
		if (d->kind == LE_GROUP)
			g_string_append(s, "]}");
		g_string_append_c(s, '}');
	}
	g_string_append_c(s, ']');
	return g_string_free(s, FALSE);
}

void ledits_push(struct ledits *e, const struct ledit *d)
{
	struct ledit c = *d;

	c.member = g_strdup(d->member);
	c.ref = g_strdup(d->ref);
	c.group = g_strdup(d->group);
	if (d->members) {
		c.members = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0; i < d->members->len; i++)
			g_ptr_array_add(c.members, g_strdup(d->members->pdata[i]));
	}
	g_array_append_val(e->v, c);
}
