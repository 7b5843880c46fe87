/* layout_query.c - member paths, offsets back to members, leaf listings, groups; see
 * layout_lib.h. */
#include "layout/layout_lib.h"

#include <glib.h>
#include <string.h>

/* A member named @name at this level; anonymous inline structs and unions are transparent. */
static const struct lmember *find_named(const struct lmember *m, uint32_t nr, const char *name,
					size_t len)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *r;

		if (m[i].name && strlen(m[i].name) == len && !strncmp(m[i].name, name, len))
			return &m[i];
		if (!m[i].name && (m[i].kind == LM_STRUCT || m[i].kind == LM_UNION) &&
		    (r = find_named(m[i].sub, m[i].nr_sub, name, len)))
			return r;
	}
	return NULL;
}

static void collect_names(const struct lmember *m, uint32_t nr, GPtrArray *names)
{
	for (uint32_t i = 0; i < nr; i++) {
		if (m[i].name && m[i].kind != LM_PAD)
			g_ptr_array_add(names, m[i].name);
		else if (!m[i].name)
			collect_names(m[i].sub, m[i].nr_sub, names);
	}
}

static void err_unknown_member(const struct lmember *m, uint32_t nr, const char *sname,
			       const char *word, struct c2c_mark at, struct c2c_err *err)
{
	GPtrArray *names = g_ptr_array_new();
	GString *list = g_string_new(NULL);
	const char *close;

	collect_names(m, nr, names);
	for (guint i = 0; i < names->len && i < 12; i++)
		g_string_append_printf(list, "%s%s", i ? ", " : "", (char *)names->pdata[i]);
	if (names->len > 12)
		g_string_append(list, ", ...");
	g_ptr_array_add(names, NULL);
	close = err_closest(word, (const char *const *)names->pdata);
	err_set(err, at, "unknown member '%s' in struct %s (expected one of: %s%s%s%s)", word, sname,
		list->str, close ? "; did you mean '" : "", close ? close : "", close ? "'?" : "");
	g_string_free(list, TRUE);
	g_ptr_array_free(names, TRUE);
}

/* Bytes of one array element of @m (flexible arrays: from the type or embedded layout). */
static uint64_t elem_size(struct layout_lib *lib, const struct lmember *m)
{
	uint64_t elems = lmember_elems(m), size = 0;
	uint32_t align;
	struct c2c_err ignore = {0};
	const struct layout *sub;

	if (elems)
		return m->size / elems;
	if (m->layout && (sub = layout_lib_get(lib, m->layout, m->mark, &ignore)))
		return sub->size;
	return m->type && layout_c_type(m->type, &size, &align) ? size : 0;
}

/* Apply "[i][j]" at *p to @m: advance *off, set *size to the indexed element or subarray. */
static bool apply_indexes(struct layout_lib *lib, const struct lmember *m, const char **p,
			  uint64_t *off, uint64_t *size, struct c2c_mark at, struct c2c_err *err)
{
	uint64_t stride = elem_size(lib, m);
	int d = 0;

	for (int k = d + 1; k < m->nr_dims; k++)
		stride *= m->dims[k];
	for (; **p == '['; d++) {
		char *end;
		uint64_t i = g_ascii_strtoull(*p + 1, &end, 10);

		if (end == *p + 1 || *end != ']' || d >= m->nr_dims) {
			err_set(err, at, "%s: bad index at '%s' (expected [N] for each of its %u "
				"dimensions)", m->name, *p, m->nr_dims);
			return false;
		}
		if (m->dims[d] && i >= m->dims[d]) {
			err_set(err, at, "%s[%" G_GUINT64_FORMAT "]: index out of range (expected "
				"below %u)", m->name, i, m->dims[d]);
			return false;
		}
		*off += i * stride;
		*size = stride;
		*p = end + 1;
		if (d + 1 < m->nr_dims)
			stride /= m->dims[d + 1];
	}
	return true;
}

bool layout_find(struct layout_lib *lib, const struct layout *l, const char *path,
		 struct lref *out, struct c2c_mark at, struct c2c_err *err)
{
	const struct lmember *arr = l->m, *m = NULL;
	const char *p = path, *sname = l->name;
	uint32_t nr = l->nr;
	uint64_t base = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		size_t len = strcspn(p, ".[");

		if (!len || !(m = find_named(arr, nr, p, len))) {
			g_autofree char *word = g_strndup(p, len);

			err_unknown_member(arr, nr, sname, word, at, err);
			return false;
		}
		p += len;
		out->offset = base + m->offset;
		out->size = m->size;
		if (*p == '[' && !apply_indexes(lib, m, &p, &out->offset, &out->size, at, err))
			return false;
		if (!*p)
			break;
		if (*p != '.') {
			err_set(err, at, "bad member path '%s' (expected NAME[.NAME][N]...)", path);
			return false;
		}
		p++;
		if (m->kind == LM_STRUCT || m->kind == LM_UNION) {
			arr = m->sub;   /* inline: offsets are already the layout's */
			nr = m->nr_sub;
			sname = m->name;
			continue;
		}
		if (!m->layout) {
			err_set(err, at, "%s is not a struct (a %s; expected the path to end there)",
				m->name, m->type ? m->type : "scalar");
			return false;
		}
		if (!(l = layout_lib_get(lib, m->layout, at, err)))
			return false;
		base = out->offset;
		arr = l->m;
		nr = l->nr;
		sname = l->name;
	}
	out->m = m;
	out->bit_offset = m->bit_offset;
	out->bits = m->bits;
	return true;
}

/* Append "[i][j]" for byte @rel inside array @m; return the byte offset inside the element. */
static uint64_t append_indexes(struct layout_lib *lib, const struct lmember *m, uint64_t rel,
			       GString *path)
{
	uint64_t es = elem_size(lib, m), idx, stride = es;

	if (!es)
		return rel;
	idx = rel / es;
	for (int d = m->nr_dims - 1; d > 0; d--)
		stride *= m->dims[d];
	for (int d = 0; d < m->nr_dims; d++) {
		uint64_t per = stride / es;

		g_string_append_printf(path, "[%" G_GUINT64_FORMAT "]", idx / per);
		idx %= per;
		if (d + 1 < m->nr_dims)
			stride /= m->dims[d + 1];
	}
	return rel % es;
}

/* Find byte @off (relative to the layout instance) among @m; append the path to @path. */
static bool member_at(struct layout_lib *lib, const struct lmember *m, uint32_t nr,
		      uint64_t off, GString *path)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *c = &m[i];
		uint64_t lo, hi, rel;
		size_t mark = path->len;
		const struct layout *sub;
		struct c2c_err ignore = {0};

		/* A bitfield holds only the bytes of its bits, not its whole storage unit. */
		lmember_bits(c, &lo, &hi);
		if (c->kind == LM_PAD || off < lo / 8 || off >= (hi + 7) / 8)
			continue;
		if (!c->name)
			return member_at(lib, c->sub, c->nr_sub, off, path);
		g_string_append_printf(path, "%s%s", path->len ? "." : "", c->name);
		rel = c->nr_dims ? append_indexes(lib, c, off - c->offset, path) : off - c->offset;
		if (c->kind == LM_STRUCT || c->kind == LM_UNION) {
			if (!member_at(lib, c->sub, c->nr_sub, off, path))
				g_string_truncate(path, path->len); /* inside the aggregate's padding */
		} else if (c->layout && (sub = layout_lib_get(lib, c->layout, c->mark, &ignore))) {
			GString *inner = g_string_new(NULL);

			if (member_at(lib, sub->m, sub->nr, rel, inner))
				g_string_append_printf(path, ".%s", inner->str);
			g_string_free(inner, TRUE);
		}
		(void)mark;
		return true;
	}
	return false;
}

char *layout_member_at(struct layout_lib *lib, const struct layout *l, uint64_t off)
{
	GString *path = g_string_new(NULL);

	if (!member_at(lib, l->m, l->nr, off, path)) {
		g_string_free(path, TRUE);
		return NULL;
	}
	return g_string_free(path, FALSE);
}

/* ------------------------------------------------------------------ leaf listing */

static void fields_level(FILE *f, struct layout_lib *lib, const struct lmember *m, uint32_t nr,
			 uint64_t base, const char *prefix);

static void field_leaf(FILE *f, struct layout_lib *lib, const struct lmember *c, uint64_t off,
		       uint64_t size, const char *path)
{
	const struct layout *sub;
	struct c2c_err ignore = {0};

	if (c->layout && (sub = layout_lib_get(lib, c->layout, c->mark, &ignore)) && sub->nr) {
		fields_level(f, lib, sub->m, sub->nr, off, path);
		return;
	}
	fprintf(f, "%s\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT, path, off, size);
	if (c->bits)
		fprintf(f, "\t%u\t%u", c->bit_offset, c->bits);
	fputc('\n', f);
}

static void fields_level(FILE *f, struct layout_lib *lib, const struct lmember *m, uint32_t nr,
			 uint64_t base, const char *prefix)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *c = &m[i];
		g_autofree char *path = NULL;

		if (c->kind == LM_PAD)
			continue;
		if (!c->name) {
			fields_level(f, lib, c->sub, c->nr_sub, base, prefix);
			continue;
		}
		path = *prefix ? g_strdup_printf("%s.%s", prefix, c->name) : g_strdup(c->name);
		if (c->kind == LM_STRUCT || c->kind == LM_UNION) {
			fields_level(f, lib, c->sub, c->nr_sub, base, path);
		} else if (c->layout && c->nr_dims && lmember_elems(c)) {
			/* Arrays of structs: each element's members have their own offsets. */
			uint64_t n = lmember_elems(c), es = c->size / n;

			for (uint64_t e = 0; e < n; e++) {
				g_autofree char *ep = g_strdup_printf("%s[%" G_GUINT64_FORMAT "]",
								      path, e);

				field_leaf(f, lib, c, base + c->offset + e * es, es, ep);
			}
		} else {
			field_leaf(f, lib, c, base + c->offset, c->size, path);
		}
	}
}

void layout_fields(FILE *f, struct layout_lib *lib, const struct layout *l)
{
	fields_level(f, lib, l->m, l->nr, 0, "");
}

/* ------------------------------------------------------------------ groups and ranges */

bool layout_resolve_groups(struct layout_lib *lib, struct layout *l, struct c2c_err *err)
{
	for (uint32_t i = 0; i < l->nr_groups; i++) {
		struct lgroup *g = &l->groups[i];
		struct lref first, last;

		if (!layout_find(lib, l, g->first, &first, g->mark, err) ||
		    !layout_find(lib, l, g->last, &last, g->mark, err))
			return false;
		if (last.offset + last.size < first.offset) {
			err_set(err, g->mark, "group %s: last member %s comes before first member %s "
				"(expected first <= last)", g->name, g->last, g->first);
			return false;
		}
		g->start = first.offset;
		g->end = last.offset + last.size;
	}
	return true;
}

bool layout_range(struct layout_lib *lib, const struct layout *l, const char *name,
		  uint64_t *start, uint64_t *end, struct c2c_mark at, struct c2c_err *err)
{
	struct lref r;

	for (uint32_t i = 0; i < l->nr_groups; i++) {
		if (!strcmp(l->groups[i].name, name)) {
			*start = l->groups[i].start;
			*end = l->groups[i].end;
			return true;
		}
	}
	if (!layout_find(lib, l, name, &r, at, err))
		return false;
	*start = r.offset;
	*end = r.offset + (r.size ? r.size : 1);
	return true;
}
