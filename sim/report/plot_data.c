/* plot_data.c - a results directory as the plots read it; see plot.h. */
#include "report/plot.h"

#include <string.h>

/* An unsigned scalar at @key of @map; 0 when missing or not a number (plots draw what the
 * file holds, they do not validate it: output.c wrote it). */
static uint64_t node_u64(const struct yt_node *map, const char *key)
{
	const struct yt_node *n = map ? yt_get(map, key) : NULL;
	char *end;
	uint64_t v;

	if (!n || n->kind != YT_SCALAR)
		return 0;
	v = g_ascii_strtoull(n->str, &end, 0);
	return *end ? 0 : v;
}

static const char *node_str(const struct yt_node *map, const char *key, const char *dflt)
{
	const struct yt_node *n = map ? yt_get(map, key) : NULL;

	return n && n->kind == YT_SCALAR ? n->str : dflt;
}

static void read_line(struct pr_line *l, const struct yt_node *m)
{
	const struct yt_node *line = yt_get(m, "line");

	l->object = node_str(m, "object", "-");
	l->type = node_str(m, "struct", "-");
	l->line = line && line->kind == YT_SCALAR ? g_ascii_strtoll(line->str, NULL, 10) : -1;
	l->addr = node_u64(m, "address");
	l->hitm_lcl = node_u64(m, "hitm_local");
	l->hitm_rmt = node_u64(m, "hitm_remote");
	l->hitm_pf = node_u64(m, "hitm_prefetch");
	l->stores = node_u64(m, "stores");
	l->st_miss = node_u64(m, "store_l1_miss");
}

static bool read_variants(struct presults *pr, const char *path, struct c2c_err *err)
{
	const struct yt_node *vs = yt_get(pr->summary, "variants");

	if (!vs || vs->kind != YT_MAP) {
		err_set(err, pr->summary->mark, "%s: no 'variants' mapping (expected a c2csim "
			"summary.yaml)", path);
		return false;
	}
	pr->nr = (uint32_t)vs->len;
	pr->v = g_new0(struct pr_variant, pr->nr ? pr->nr : 1);
	for (uint32_t i = 0; i < pr->nr; i++) {
		const struct yt_node *lines = yt_get(vs->pairs[i].val, "lines");
		struct pr_variant *v = &pr->v[i];

		v->name = vs->pairs[i].key->str;
		v->nr_lines = lines && lines->kind == YT_SEQ ? (uint32_t)lines->len : 0;
		v->lines = g_new0(struct pr_line, v->nr_lines ? v->nr_lines : 1);
		for (uint32_t k = 0; k < v->nr_lines; k++)
			read_line(&v->lines[k], lines->items[k]);
	}
	return true;
}

/* @dir/@name as a table; absent optional tables are NULL without an error. */
static bool load_table(const char *dir, const char *name, bool optional, struct csv **out,
		       struct c2c_err *err)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	*out = NULL;
	if (optional && !g_file_test(path, G_FILE_TEST_EXISTS))
		return true;
	return (*out = csv_load(path, err)) != NULL;
}

/* The base address of @object in variant @v: from its summary lines, else layout.csv.
 * Return: false when neither knows the object. */
static bool object_base(const struct presults *pr, uint32_t v, const char *object,
			uint64_t *base, const char **type)
{
	const struct csv *c = pr->layout;
	int cv = csv_col(c, "variant"), co = csv_col(c, "object"), cb = csv_col(c, "base");
	int ct = csv_col(c, "struct");

	for (uint32_t i = 0; i < pr->v[v].nr_lines; i++) {
		const struct pr_line *l = &pr->v[v].lines[i];

		if (l->line >= 0 && !strcmp(l->object, object)) {
			*base = l->addr - (uint64_t)l->line * PLOT_LINE_BYTES;
			*type = l->type;
			return true;
		}
	}
	for (uint32_t r = 0; c && r < c->nrow; r++)
		if (!strcmp(csv_get(c, r, cv), pr->v[v].name) && !strcmp(csv_get(c, r, co), object)) {
			*base = csv_u64(c, r, cb);
			*type = csv_get(c, r, ct);
			return true;
		}
	return false;
}

static struct pr_l64 *l64_get(struct presults *pr, uint32_t v, const char *object,
			      const char *type, int64_t line)
{
	struct pr_l64 *e = (struct pr_l64 *)pr_find_l64(pr, v, object, line), n = {v, object, type,
										   line, 0, 0, 0};

	if (e)
		return e;
	g_array_append_val(pr->l64, n);
	return &g_array_index(pr->l64, struct pr_l64, pr->l64->len - 1);
}

static void build_l64(struct presults *pr)
{
	const struct csv *c = pr->offsets;
	int cv = csv_col(c, "variant"), co = csv_col(c, "object"), ca = csv_col(c, "address");
	int coff = csv_col(c, "offset"), hl = csv_col(c, "hitm_local");
	int hr = csv_col(c, "hitm_remote");

	/* Rows come line by line, so the last row's object is usually this row's: remember
	 * it rather than search the summary and layout.csv again. */
	const struct pr_variant *last_v = NULL;
	const char *last_obj = NULL, *type = "-";
	bool known = false;
	uint64_t base = 0;

	pr->l64 = g_array_new(FALSE, FALSE, sizeof(struct pr_l64));
	for (uint32_t r = 0; r < c->nrow; r++) {
		const struct pr_variant *pv = presults_variant(pr, csv_get(c, r, cv));
		const char *obj = csv_get(c, r, co);
		uint64_t at = csv_u64(c, r, ca) + csv_u64(c, r, coff);
		struct pr_l64 *e;

		if (pv && (pv != last_v || !last_obj || strcmp(obj, last_obj))) {
			known = object_base(pr, (uint32_t)(pv - pr->v), obj, &base, &type);
			last_v = pv;
			last_obj = obj;
		}
		if (!pv || !known || at < base)
			continue;
		e = l64_get(pr, (uint32_t)(pv - pr->v), obj, type,
			    (int64_t)((at - base) / PLOT_LINE_BYTES));
		e->hitm_lcl += csv_u64(c, r, hl);
		e->hitm_rmt += csv_u64(c, r, hr);
	}
	for (uint32_t v = 0; v < pr->nr; v++)
		for (uint32_t i = 0; i < pr->v[v].nr_lines; i++) {
			const struct pr_line *l = &pr->v[v].lines[i];

			if (l->line >= 0 && l->hitm_pf)
				l64_get(pr, v, l->object, l->type, l->line)->hitm_pf += l->hitm_pf;
		}
}

const struct pr_l64 *pr_find_l64(const struct presults *pr, uint32_t v, const char *object,
				 int64_t line)
{
	for (guint i = 0; i < pr->l64->len; i++) {
		const struct pr_l64 *e = &g_array_index(pr->l64, struct pr_l64, i);

		if (e->variant == v && e->line == line && !strcmp(e->object, object))
			return e;
	}
	return NULL;
}

struct presults *presults_load(const char *dir, struct c2c_err *err)
{
	g_autofree char *path = g_build_filename(dir, "summary.yaml", NULL);
	struct presults *pr = g_new0(struct presults, 1);

	pr->summary = yt_load_file(path, err);
	if (!pr->summary || !read_variants(pr, path, err) ||
	    !load_table(dir, "offsets.csv", false, &pr->offsets, err) ||
	    !load_table(dir, "layout.csv", true, &pr->layout, err) ||
	    !load_table(dir, "locks_hist.csv", true, &pr->locks, err)) {
		presults_free(pr);
		return NULL;
	}
	build_l64(pr);
	return pr;
}

void presults_free(struct presults *pr)
{
	if (!pr)
		return;
	for (uint32_t i = 0; i < pr->nr; i++)
		g_free(pr->v[i].lines);
	g_free(pr->v);
	if (pr->l64)
		g_array_free(pr->l64, TRUE);
	csv_free(pr->offsets);
	csv_free(pr->layout);
	csv_free(pr->locks);
	yt_free(pr->summary);
	g_free(pr);
}

const struct pr_variant *presults_variant(const struct presults *pr, const char *name)
{
	for (uint32_t i = 0; i < pr->nr; i++)
		if (!strcmp(pr->v[i].name, name))
			return &pr->v[i];
	return NULL;
}

char *pr_line_members(const struct presults *pr, const char *variant, const char *object,
		      int64_t line, int max)
{
	const struct csv *c = pr->layout;
	int cv = csv_col(c, "variant"), co = csv_col(c, "object");
	int coff = csv_col(c, "offset"), csz = csv_col(c, "size"), cm = csv_col(c, "member");
	uint64_t lo = (uint64_t)line * PLOT_LINE_BYTES, hi = lo + PLOT_LINE_BYTES;
	GString *s = g_string_new(NULL);
	int n = 0;

	for (uint32_t r = 0; c && line >= 0 && r < c->nrow; r++) {
		uint64_t off = csv_u64(c, r, coff), end = off + csv_u64(c, r, csz);

		if (strcmp(csv_get(c, r, cv), variant) || strcmp(csv_get(c, r, co), object) ||
		    end <= lo || off >= hi)
			continue;
		if (n++ == max) {
			g_string_append(s, ", ...");
			break;
		}
		g_string_append_printf(s, "%s%s", s->len ? ", " : "", csv_get(c, r, cm));
	}
	return g_string_free(s, FALSE);
}

const char *pr_member_at(const struct presults *pr, const char *variant, const char *object,
			 uint64_t addr)
{
	const struct csv *c = pr->layout;
	int cv = csv_col(c, "variant"), co = csv_col(c, "object"), cb = csv_col(c, "base");
	int coff = csv_col(c, "offset"), csz = csv_col(c, "size"), cm = csv_col(c, "member");

	for (uint32_t r = 0; c && r < c->nrow; r++) {
		uint64_t lo = csv_u64(c, r, cb) + csv_u64(c, r, coff);

		if (addr >= lo && addr < lo + csv_u64(c, r, csz) &&
		    !strcmp(csv_get(c, r, cv), variant) && !strcmp(csv_get(c, r, co), object))
			return csv_get(c, r, cm);
	}
	return NULL;
}
