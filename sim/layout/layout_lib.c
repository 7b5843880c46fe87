/* layout_lib.c - layout files: loading, validation, the library of loaded layouts; see
 * layout_lib.h and layout.h (file format). */
#include "layout/layout_lib.h"

#include <glib.h>
#include <string.h>

struct layout_lib {
	GPtrArray *dirs;       /* char *, searched in order */
	GPtrArray *layouts;    /* struct layout *, in load order (owned) */
	GHashTable *by_name;   /* name -> struct layout * (lookups only; never iterated) */
	GHashTable *loading;   /* names being loaded: catches a layout embedding itself */
};

struct layout_lib *layout_lib_new(void)
{
	struct layout_lib *lib = g_new0(struct layout_lib, 1);

	lib->dirs = g_ptr_array_new_with_free_func(g_free);
	lib->layouts = g_ptr_array_new_with_free_func((GDestroyNotify)layout_free);
	lib->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	lib->loading = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	return lib;
}

void layout_lib_free(struct layout_lib *lib)
{
	if (!lib)
		return;
	g_hash_table_destroy(lib->by_name);
	g_hash_table_destroy(lib->loading);
	g_ptr_array_free(lib->layouts, TRUE);
	g_ptr_array_free(lib->dirs, TRUE);
	g_free(lib);
}

void layout_lib_add_dir_first(struct layout_lib *lib, const char *dir)
{
	for (guint i = 0; i < lib->dirs->len; i++)
		if (!strcmp(g_ptr_array_index(lib->dirs, i), dir))
			g_ptr_array_remove_index(lib->dirs, i--);
	g_ptr_array_insert(lib->dirs, 0, g_strdup(dir));
}

void layout_lib_add_dir(struct layout_lib *lib, const char *dir)
{
	for (guint i = 0; i < lib->dirs->len; i++)
		if (!strcmp(g_ptr_array_index(lib->dirs, i), dir))
			return;
	g_ptr_array_add(lib->dirs, g_strdup(dir));
}

/* ------------------------------------------------------------------ reading members */

static const char *const member_keys[] = {"name", "type", "offset", "size", "dims", "align",
					  "bit_offset", "bits", "layout", "kind", "members",
					  NULL};

static bool read_u32(const struct yt_node *map, const char *key, const char *what,
		     uint64_t max, uint64_t *out, struct c2c_err *err)
{
	struct yt_node *n = yt_get(map, key);
	g_autofree char *name = NULL;
	int64_t v;

	if (!n)
		return true;
	name = g_strdup_printf("%s.%s", what, key);
	if (!yt_int(n, name, 0, (int64_t)max, &v, err))
		return false;
	*out = (uint64_t)v;
	return true;
}

static bool read_dims(struct lmember *m, const struct yt_node *n, const char *what,
		      struct c2c_err *err)
{
	if (!yt_expect_seq(n, what, err))
		return false;
	if (!n->len || n->len > LAYOUT_MAX_DIMS) {
		err_set(err, n->mark, "%s.dims: %zu dimensions (expected 1 to %d)", what, n->len,
			LAYOUT_MAX_DIMS);
		return false;
	}
	for (size_t d = 0; d < n->len; d++) {
		int64_t v;

		if (!yt_int(n->items[d], what, 0, UINT32_MAX, &v, err))
			return false;
		if (!v && (d || n->len > 1)) {
			err_set(err, n->items[d]->mark, "%s.dims: 0 is only allowed as the single "
				"dimension of a flexible array member", what);
			return false;
		}
		m->dims[d] = (uint32_t)v;
	}
	m->nr_dims = (uint8_t)n->len;
	return true;
}

/* read_bitfield - a member's `bits` (1 to 64; absent: not a bitfield) and `bit_offset`. */
static bool read_bitfield(struct lmember *m, const struct yt_node *n, const char *what,
			  struct c2c_err *err)
{
	struct yt_node *k;
	uint64_t v = 0;

	if (!read_u32(n, "bits", what, 64, &v, err))
		return false;
	if ((k = yt_get(n, "bits")) && !v) {
		/* C's zero-width bitfield is unnamed and only aligns; here it would silently
		 * become a plain member. */
		err_set(err, k->mark, "%s: bits: 0 on member '%s' (expected 1 to 64 bits; a "
			"zero-width bitfield has no name)", what, m->name ? m->name : "?");
		return false;
	}
	m->bits = (uint16_t)v;
	v = 0;
	if (!read_u32(n, "bit_offset", what, 63, &v, err))
		return false;
	m->bit_offset = (uint16_t)v;
	return true;
}

static bool read_members(struct lmember **arr, uint32_t *nr, const struct yt_node *seq,
			 const char *what, struct c2c_err *err);

static bool read_member(struct lmember *m, const struct yt_node *n, const char *what,
			struct c2c_err *err)
{
	struct yt_node *k;
	const char *s;
	uint64_t v = 0;
	int kind = LM_FIELD;

	m->mark = n->mark;
	if (!yt_expect_map(n, what, member_keys, err))
		return false;
	if ((k = yt_get(n, "kind")) && !yt_enum(k, what, lm_kind_names, &kind, err))
		return false;
	m->kind = (uint8_t)kind;
	if ((k = yt_get(n, "name"))) {
		if (!yt_str(k, what, &s, err))
			return false;
		m->name = g_strdup(s);
	} else if (kind == LM_FIELD || kind == LM_PAD) {
		err_set(err, n->mark, "%s: missing key 'name' (expected a member name)", what);
		return false;
	}
	if ((k = yt_get(n, "type")) && (!yt_str(k, what, &s, err) || !(m->type = g_strdup(s))))
		return false;
	if ((k = yt_get(n, "layout")) && (!yt_str(k, what, &s, err) || !(m->layout = g_strdup(s))))
		return false;
	m->has_offset = yt_get(n, "offset") != NULL;
	if (!read_u32(n, "offset", what, UINT32_MAX, &m->offset, err) ||
	    !read_u32(n, "size", what, UINT32_MAX, &m->size, err) ||
	    !read_u32(n, "align", what, 1u << 20, &v, err))
		return false;
	m->align = (uint32_t)v;
	if (m->align & (m->align - 1)) {
		err_set(err, yt_get(n, "align")->mark, "%s: align %u is not a power of two "
			"(expected 1, 2, 4, 8, ...)", what, m->align);
		return false;
	}
	if (!read_bitfield(m, n, what, err))
		return false;
	if ((k = yt_get(n, "dims")) && !read_dims(m, k, what, err))
		return false;
	if ((k = yt_get(n, "members"))) {
		g_autofree char *sub = g_strdup_printf("%s.members", what);

		if (kind != LM_STRUCT && kind != LM_UNION) {
			err_set(err, k->mark, "%s: only kind struct or union has members", what);
			return false;
		}
		return read_members(&m->sub, &m->nr_sub, k, sub, err);
	}
	if (kind == LM_STRUCT || kind == LM_UNION) {
		err_set(err, n->mark, "%s: an inline %s needs members", what, lm_kind_names[kind]);
		return false;
	}
	return true;
}

static bool read_members(struct lmember **arr, uint32_t *nr, const struct yt_node *seq,
			 const char *what, struct c2c_err *err)
{
	if (!yt_expect_seq(seq, what, err))
		return false;
	for (size_t i = 0; i < seq->len; i++) {
		g_autofree char *name = g_strdup_printf("%s[%zu]", what, i);

		if (!read_member(lmember_append(arr, nr), seq->items[i], name, err))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ groups and asserts */

static bool read_groups(struct layout *l, const struct yt_node *seq, struct c2c_err *err)
{
	static const char *const keys[] = {"name", "first", "last", "aligned", NULL};

	if (!yt_expect_seq(seq, "groups", err))
		return false;
	l->groups = g_new0(struct lgroup, seq->len);
	for (size_t i = 0; i < seq->len; i++) {
		struct lgroup *g = &l->groups[l->nr_groups++];
		const struct yt_node *n = seq->items[i];
		const char *name, *first, *last;
		struct yt_node *k;

		g->mark = n->mark;
		if (!yt_expect_map(n, "groups[]", keys, err) ||
		    !(k = yt_require(n, "name", "group", err)) || !yt_str(k, "group", &name, err) ||
		    !(k = yt_require(n, "first", "group", err)) || !yt_str(k, "group", &first, err) ||
		    !(k = yt_require(n, "last", "group", err)) || !yt_str(k, "group", &last, err) ||
		    ((k = yt_get(n, "aligned")) && !yt_bool(k, "group.aligned", &g->aligned, err)))
			return false;
		g->name = g_strdup(name);
		g->first = g_strdup(first);
		g->last = g_strdup(last);
	}
	return true;
}

/* One assertion: a mapping with one key, the kind, and a pair [A, B] (or [GROUP, SIZE]). */
static bool read_assert(struct lassert *a, const struct yt_node *n, struct c2c_err *err)
{
	const struct yt_node *v;
	const char *s;
	int kind;

	a->mark = n->mark;
	if (!yt_expect_map(n, "asserts[]", lassert_kind_names, err))
		return false;
	if (n->len != 1) {
		err_set(err, n->mark, "asserts[]: %zu keys (expected one assertion per entry, e.g. "
			"{not_same_line: [a, b]})", n->len);
		return false;
	}
	if (!yt_enum(n->pairs[0].key, "asserts[]", lassert_kind_names, &kind, err))
		return false;
	a->kind = (uint8_t)kind;
	v = n->pairs[0].val;
	if (!yt_expect_seq(v, lassert_kind_names[kind], err))
		return false;
	if (v->len != 2) {
		err_set(err, v->mark, "%s: %zu operands (expected two, e.g. [%s])",
			lassert_kind_names[kind], v->len,
			kind == LA_GROUP_SIZE ? "GROUP, 64" : kind == LA_MEMBER_IN_GROUP
							 ? "GROUP, MEMBER" : "A, B");
		return false;
	}
	if (!yt_str(v->items[0], lassert_kind_names[kind], &s, err))
		return false;
	a->a = g_strdup(s);
	if (kind == LA_GROUP_SIZE) {
		int64_t lim;

		if (!yt_int(v->items[1], "group_size", 0, INT32_MAX, &lim, err))
			return false;
		a->limit = (uint64_t)lim;
		return true;
	}
	if (!yt_str(v->items[1], lassert_kind_names[kind], &s, err))
		return false;
	a->b = g_strdup(s);
	return true;
}

bool layout_read_asserts(struct layout *l, const struct yt_node *seq, struct c2c_err *err)
{
	if (!yt_expect_seq(seq, "asserts", err))
		return false;
	l->asserts = g_renew(struct lassert, l->asserts, l->nr_asserts + seq->len);
	for (size_t i = 0; i < seq->len; i++) {
		struct lassert *a = &l->asserts[l->nr_asserts++];

		memset(a, 0, sizeof(*a));
		if (!read_assert(a, seq->items[i], err))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ validation */

/* Imported members: inside the struct (or their union/struct), no overlaps at one level.
 * Overlap is decided bit by bit (lmember_bits): a bitfield's storage unit may hold later
 * members in the bytes its bits leave free, as GCC packs them. */
static bool check_level(const struct layout *l, const struct lmember *m, uint32_t nr,
			uint64_t lo, uint64_t hi, bool is_union, struct c2c_err *err)
{
	const struct lmember *prev = NULL; /* the member ending last so far */
	uint64_t prev_end = 0, b_lo, b_hi;

	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *c = &m[i];
		const char *cn = c->name ? c->name : lm_kind_names[c->kind];

		if (!c->has_offset) {
			err_set(err, c->mark, "%s: no offset while other members give one (expected "
				"every member with offset, or none to have them computed)", cn);
			return false;
		}
		if (c->offset < lo || c->offset + c->size > hi) {
			err_set(err, c->mark, "%s: bytes %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
				" are past the end of %s (expected within %" G_GUINT64_FORMAT "-%"
				G_GUINT64_FORMAT ")", cn, c->offset, c->offset + c->size,
				lo == 0 && hi == l->size ? l->name : "the enclosing struct or union",
				lo, hi);
			return false;
		}
		lmember_bits(c, &b_lo, &b_hi);
		/* Zero-size markers overlap nothing. */
		if (!is_union && prev && b_hi > b_lo && b_lo < prev_end) {
			err_set(err, c->mark, "%s: offset %" G_GUINT64_FORMAT " overlaps %s at %"
				G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " (expected members in order, "
				"without overlap)", cn, c->offset, prev->name ? prev->name : "the "
				"member before", prev->offset, prev->offset + prev->size);
			return false;
		}
		if ((c->kind == LM_STRUCT || c->kind == LM_UNION) &&
		    !check_level(l, c->sub, c->nr_sub, c->offset, c->offset + c->size,
				 c->kind == LM_UNION, err))
			return false;
		if (b_hi > b_lo && b_hi > prev_end) {
			prev = c;
			prev_end = b_hi;
		}
	}
	return true;
}

static bool any_offset(const struct lmember *m, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		if (m[i].has_offset || any_offset(m[i].sub, m[i].nr_sub))
			return true;
	return false;
}

const struct layout *layout_lib_resolve(void *lib, const char *name, struct c2c_mark at,
					struct c2c_err *err)
{
	return layout_lib_get(lib, name, at, err);
}

/* ------------------------------------------------------------------ whole files */

static void own_member_marks(struct lmember *m, uint32_t nr, const char *file)
{
	for (uint32_t i = 0; i < nr; i++) {
		m[i].mark.file = file;
		own_member_marks(m[i].sub, m[i].nr_sub, file);
	}
}

/* Marks came from the YAML tree, which is freed after loading: point them at the layout's own
 * copy of the file name, so later errors (an embedded struct that fails to load, an
 * assertion) can still name the place. */
static void own_marks(struct layout *l)
{
	own_member_marks(l->m, l->nr, l->file);
	for (uint32_t i = 0; i < l->nr_groups; i++)
		l->groups[i].mark.file = l->file;
	for (uint32_t i = 0; i < l->nr_asserts; i++)
		l->asserts[i].mark.file = l->file;
}

struct layout *layout_from_tree(struct layout_lib *lib, const struct yt_node *root,
				const char *file, struct c2c_err *err)
{
	static const char *const keys[] = {"struct", "size", "align", "source", "estimated",
					   "members", "groups", "asserts", NULL};
	struct layout *l = NULL;
	struct yt_node *k;
	const char *s;
	uint64_t v = 0;
	bool ok;

	if (!yt_expect_map(root, "layout", keys, err) ||
	    !(k = yt_require(root, "struct", "layout", err)) || !yt_str(k, "struct", &s, err))
		return NULL;
	l = layout_new(s);
	l->file = g_strdup(file);
	ok = read_u32(root, "size", "layout", UINT32_MAX, &l->size, err) &&
	     read_u32(root, "align", "layout", 1u << 20, &v, err);
	l->align = (uint32_t)v;
	if (ok && (l->align & (l->align - 1))) {
		err_set(err, yt_get(root, "align")->mark, "align: %u is not a power of two "
			"(expected 1, 2, 4, 8, ...)", l->align);
		ok = false;
	}
	if (ok && (k = yt_get(root, "source")) && (ok = yt_str(k, "source", &s, err)))
		l->source = g_strdup(s);
	if (ok && (k = yt_get(root, "estimated")))
		ok = yt_bool(k, "estimated", &l->estimated, err);
	ok = ok && (k = yt_require(root, "members", "layout", err)) &&
	     read_members(&l->m, &l->nr, k, "members", err);
	if (ok && (k = yt_get(root, "groups")))
		ok = read_groups(l, k, err);
	if (ok && (k = yt_get(root, "asserts")))
		ok = layout_read_asserts(l, k, err);
	if (ok && any_offset(l->m, l->nr)) {
		if (!yt_get(root, "size")) {
			err_set(err, root->mark, "layout: members give offsets but the struct has no "
				"size (expected size: N, as pahole's summary gives)");
			ok = false;
		}
		ok = ok && check_level(l, l->m, l->nr, 0, l->size, false, err);
	} else if (ok) {
		ok = layout_compute(l, layout_lib_resolve, lib, err);
	}
	ok = ok && layout_resolve_groups(lib, l, err);
	if (!ok) {
		layout_free(l);
		return NULL;
	}
	own_marks(l);
	return l;
}

/* Load @path as the layout of @name (NULL: whatever it declares) and keep it. */
static const struct layout *lib_load(struct layout_lib *lib, const char *path,
				     const char *name, struct c2c_mark at, struct c2c_err *err)
{
	struct yt_node *root = yt_load_file(path, err);
	struct layout *l;

	if (!root)
		return NULL;
	if (name)
		g_hash_table_add(lib->loading, g_strdup(name));
	l = layout_from_tree(lib, root, path, err);
	if (name)
		g_hash_table_remove(lib->loading, name);
	yt_free(root);
	if (!l)
		return NULL;
	if (name && strcmp(l->name, name)) {
		err_set(err, at, "%s declares struct %s (expected struct %s)", path, l->name, name);
		layout_free(l);
		return NULL;
	}
	g_ptr_array_add(lib->layouts, l);
	if (!g_hash_table_contains(lib->by_name, l->name))
		g_hash_table_insert(lib->by_name, l->name, l);
	return l;
}

const struct layout *layout_lib_get(struct layout_lib *lib, const char *name, struct c2c_mark at,
				    struct c2c_err *err)
{
	const struct layout *l = g_hash_table_lookup(lib->by_name, name);
	g_autofree char *file = g_strconcat(name, ".yaml", NULL);

	if (l)
		return l;
	if (g_hash_table_contains(lib->loading, name)) {
		err_set(err, at, "struct %s embeds itself (expected a pointer or another struct)",
			name);
		return NULL;
	}
	for (guint i = 0; i < lib->dirs->len; i++) {
		g_autofree char *path = g_build_filename(g_ptr_array_index(lib->dirs, i), file, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
			return lib_load(lib, path, name, at, err);
	}
	{
		/* Every directory searched, in order: the one that should have held it is among
		 * them, or the search path is wrong. */
		GString *dirs = g_string_new(NULL);

		for (guint i = 0; i < lib->dirs->len; i++)
			g_string_append_printf(dirs, "%s%s", i ? ", " : ": ",
					       (const char *)g_ptr_array_index(lib->dirs, i));
		err_set(err, at, "no layout for struct %s (expected %s in one of the layout "
			"directories searched%s)", name, file, dirs->str);
		g_string_free(dirs, TRUE);
	}
	return NULL;
}

const struct layout *layout_lib_load_file(struct layout_lib *lib, const char *path,
					  struct c2c_err *err)
{
	g_autofree char *dir = g_path_get_dirname(path);

	/* The file's own directory is searched first, so its neighbours resolve. */
	g_ptr_array_insert(lib->dirs, 0, g_strdup(dir));
	return lib_load(lib, path, NULL, (struct c2c_mark){path, 1, 1}, err);
}

bool layout_lib_has(struct layout_lib *lib, const char *name)
{
	g_autofree char *file = g_strconcat(name, ".yaml", NULL);

	if (g_hash_table_contains(lib->by_name, name))
		return true;
	for (guint i = 0; i < lib->dirs->len; i++) {
		g_autofree char *path = g_build_filename(g_ptr_array_index(lib->dirs, i), file, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
			return true;
	}
	return false;
}

void layout_lib_put(struct layout_lib *lib, struct layout *l)
{
	g_ptr_array_add(lib->layouts, l);
	g_hash_table_replace(lib->by_name, l->name, l);
}
