/* sweep_merge.c - sweep.csv from the points' directories, and `c2csim merge`; see sweep.h. */
#include "sweep/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"
#include "yaml/ytree.h"

/* The totals columns of sweep.csv: a dotted path in a variant of summary.yaml. */
static const struct {
	const char *col, *path;
} sweep_total_cols[] = {
	{"ops_per_sec", "throughput.ops_per_sec"},
	{"sim_time_ps", "sim_time_ps"},
	{"events", "events"},
	{"accesses", "accesses"},
	{"hitm_local", "hitm.local"},
	{"hitm_remote", "hitm.remote"},
	{"hitm_prefetch", "hitm.prefetch"},
	{"loads", "loads"},
	{"stores", "stores"},
};

/* Sums over the variant's locks: column, lock key. */
static const struct {
	const char *col, *key;
} sweep_lock_cols[] = {
	{"lock_acquisitions", "acquisitions"},
	{"lock_contentions", "contentions"},
	{"lock_wait_total_ps", "wait_total_ps"},
	{"lock_hold_total_ps", "hold_total_ps"},
};

struct mpoint {
	uint32_t index;
	char *dir;
	uint32_t of;          /* the grid's number of points (0: not recorded) */
	struct yt_node *point, *summary;
};

static void mpoint_clear(void *p)
{
	struct mpoint *m = p;

	g_free(m->dir);
	yt_free(m->point);
	yt_free(m->summary);
}

static int mpoint_cmp(const void *a, const void *b)
{
	const struct mpoint *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static bool add_point(GArray *pts, const char *pdir, struct c2c_err *err)
{
	g_autofree char *pp = g_build_filename(pdir, "point.yaml", NULL);
	g_autofree char *sp = g_build_filename(pdir, "summary.yaml", NULL);
	struct mpoint m = {0};
	const struct yt_node *n;
	int64_t idx;

	if (!(m.point = yt_load_file(pp, err)) ||
	    !(n = yt_require(m.point, "point", "point.yaml", err)) ||
	    !yt_int(n, "point", 0, SWEEP_MAX_POINTS, &idx, err) ||
	    !(n = yt_require(m.point, "axes", "point.yaml", err)) ||
	    !yt_expect_map(n, "axes", NULL, err) || !(m.summary = yt_load_file(sp, err)) ||
	    !(n = yt_require(m.summary, "variants", "summary", err)) ||
	    !yt_expect_map(n, "variants", NULL, err)) {
		mpoint_clear(&m);
		return false;
	}
	m.index = (uint32_t)idx;
	if ((n = yt_get(m.point, "of")) && !yt_int(n, "of", 1, SWEEP_MAX_POINTS, &idx, err)) {
		mpoint_clear(&m);
		return false;
	}
	m.of = n ? (uint32_t)idx : 0;
	m.dir = g_strdup(pdir);
	g_array_append_val(pts, m);
	return true;
}

/* Every finished point under @dir/points, or @dir itself when it is a point. */
static bool collect(GArray *pts, const char *dir, struct c2c_err *err)
{
	g_autofree char *pp = g_build_filename(dir, "point.yaml", NULL);
	g_autofree char *points = g_build_filename(dir, "points", NULL);
	GDir *d;
	const char *name;
	bool ok = true;

	if (g_file_test(pp, G_FILE_TEST_EXISTS))
		return add_point(pts, dir, err);
	if (!(d = g_dir_open(points, 0, NULL))) {
		err_setf(err, "c2csim merge: %s is neither a sweep directory nor a point (expected "
			 "points/ or point.yaml in it)", dir);
		return false;
	}
	while (ok && (name = g_dir_read_name(d))) {
		g_autofree char *pdir = g_build_filename(points, name, NULL);

		if (g_ascii_isdigit(name[0]) && sweep_point_done(pdir))
			ok = add_point(pts, pdir, err);
	}
	g_dir_close(d);
	return ok;
}

/* The scalar at dotted @path under @map, or NULL. */
static const char *at_path(const struct yt_node *map, const char *path)
{
	g_auto(GStrv) parts = g_strsplit(path, ".", -1);
	const struct yt_node *n = map;

	for (char **p = parts; n && *p; p++)
		n = n->kind == YT_MAP ? yt_get(n, *p) : NULL;
	return n && n->kind == YT_SCALAR ? n->str : NULL;
}

/* Headline names in first-seen order over every point and variant. */
static GPtrArray *headline_names(const GArray *pts)
{
	GPtrArray *names = g_ptr_array_new();

	for (guint i = 0; i < pts->len; i++) {
		const struct yt_node *vs = yt_get(g_array_index(pts, struct mpoint, i).summary,
						  "variants");

		for (size_t v = 0; v < vs->len; v++) {
			const struct yt_node *h = yt_get(vs->pairs[v].val, "headline");

			for (size_t k = 0; h && h->kind == YT_SEQ && k < h->len; k++) {
				const char *name = at_path(h->items[k], "name");
				bool seen = !name;

				for (guint j = 0; j < names->len && !seen; j++)
					seen = !strcmp(names->pdata[j], name);
				if (!seen)
					g_ptr_array_add(names, (char *)name);
			}
		}
	}
	return names;
}

static void write_header(FILE *f, const struct yt_node *axes, const GPtrArray *heads)
{
	fputs("point", f);
	for (size_t i = 0; i < axes->len; i++)
		if (strcmp(axes->pairs[i].key->str, "variant")) {
			fputc(',', f);
			csv_put(f, axes->pairs[i].key->str);
		}
	fputs(",variant,threads", f);
	for (size_t i = 0; i < G_N_ELEMENTS(sweep_total_cols); i++)
		fprintf(f, ",%s", sweep_total_cols[i].col);
	for (size_t i = 0; i < G_N_ELEMENTS(sweep_lock_cols); i++)
		fprintf(f, ",%s", sweep_lock_cols[i].col);
	fputs(",complete", f);
	for (guint i = 0; i < heads->len; i++) {
		fputc(',', f);
		csv_put(f, heads->pdata[i]);
	}
	fputc('\n', f);
}

/* Sum of @key over the sequence @seq of mappings (actors, locks). */
static uint64_t seq_sum(const struct yt_node *seq, const char *key)
{
	uint64_t sum = 0;

	for (size_t i = 0; seq && seq->kind == YT_SEQ && i < seq->len; i++) {
		const char *s = at_path(seq->items[i], key);

		sum += s ? g_ascii_strtoull(s, NULL, 10) : 0;
	}
	return sum;
}

static void write_row(FILE *f, const struct mpoint *m, const struct yt_node *var,
		      const char *vname, const GPtrArray *heads)
{
	const struct yt_node *axes = yt_get(m->point, "axes"), *h = yt_get(var, "headline");
	const char *complete = at_path(m->summary, "complete");

	fprintf(f, "%u", m->index);
	for (size_t i = 0; i < axes->len; i++)
		if (strcmp(axes->pairs[i].key->str, "variant")) {
			fputc(',', f);
			csv_put(f, axes->pairs[i].val->str);
		}
	fputc(',', f);
	csv_put(f, vname);
	fprintf(f, ",%" G_GUINT64_FORMAT, seq_sum(yt_get(var, "actors"), "threads"));
	for (size_t i = 0; i < G_N_ELEMENTS(sweep_total_cols); i++) {
		const char *s = at_path(var, sweep_total_cols[i].path);

		fputc(',', f);
		csv_put(f, s ? s : "");
	}
	for (size_t i = 0; i < G_N_ELEMENTS(sweep_lock_cols); i++)
		fprintf(f, ",%" G_GUINT64_FORMAT, seq_sum(yt_get(var, "locks"),
							   sweep_lock_cols[i].key));
	fputc(',', f);
	csv_put(f, complete ? complete : "");
	for (guint j = 0; j < heads->len; j++) {
		const char *val = NULL;

		for (size_t k = 0; h && h->kind == YT_SEQ && k < h->len && !val; k++)
			if (!g_strcmp0(at_path(h->items[k], "name"), heads->pdata[j]))
				val = at_path(h->items[k], "value");
		fputc(',', f);
		csv_put(f, val ? val : "");
	}
	fputc('\n', f);
}

/* Same axis keys in the same order at every point, no index twice. */
static bool check_points(const GArray *pts, struct c2c_err *err)
{
	const struct yt_node *a0 = yt_get(g_array_index(pts, struct mpoint, 0).point, "axes");

	for (guint i = 0; i < pts->len; i++) {
		const struct mpoint *m = &g_array_index(pts, struct mpoint, i);
		const struct yt_node *a = yt_get(m->point, "axes");
		bool same = a->len == a0->len;

		for (size_t k = 0; same && k < a->len; k++)
			same = !strcmp(a->pairs[k].key->str, a0->pairs[k].key->str);
		if (!same) {
			err_setf(err, "c2csim merge: %s has other axes than %s (expected points of "
				 "one grid)", m->dir, g_array_index(pts, struct mpoint, 0).dir);
			return false;
		}
		if (i && m->index == g_array_index(pts, struct mpoint, i - 1).index) {
			err_setf(err, "c2csim merge: point %u twice (%s and %s)", m->index,
				 g_array_index(pts, struct mpoint, i - 1).dir, m->dir);
			return false;
		}
	}
	return true;
}

static bool write_csv(const GArray *pts, const char *csv_path, struct c2c_err *err)
{
	GPtrArray *heads = headline_names(pts);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	g_autoptr(GError) gerr = NULL;
	bool ok;

	write_header(f, yt_get(g_array_index(pts, struct mpoint, 0).point, "axes"), heads);
	for (guint i = 0; i < pts->len; i++) {
		const struct mpoint *m = &g_array_index(pts, struct mpoint, i);
		const struct yt_node *vs = yt_get(m->summary, "variants");

		for (size_t v = 0; v < vs->len; v++)
			write_row(f, m, vs->pairs[v].val, vs->pairs[v].key->str, heads);
	}
	fclose(f);
	ok = g_file_set_contents(csv_path, text, (gssize)len, &gerr);
	if (!ok)
		err_setf(err, "c2csim merge: %s", gerr->message);
	free(text);
	g_ptr_array_free(heads, TRUE);
	return ok;
}

/* The grid's points not in @pts (sorted), as "2, 5, 7", when the points say the grid size. */
static void list_missing(const GArray *pts, GString *missing)
{
	uint32_t of = g_array_index(pts, struct mpoint, 0).of, p = 0;

	for (guint i = 0; i <= pts->len && p < of; p++) {
		if (i < pts->len && g_array_index(pts, struct mpoint, i).index == p) {
			i++;
			continue;
		}
		g_string_append_printf(missing, "%s%u", missing->len ? ", " : "", p);
	}
}

int sweep_merge(const char *const *dirs, uint32_t nr, const char *csv_path, GString *missing,
		struct c2c_err *err)
{
	GArray *pts = g_array_new(FALSE, TRUE, sizeof(struct mpoint));
	bool ok = true;
	int n;

	g_array_set_clear_func(pts, mpoint_clear);
	for (uint32_t i = 0; ok && i < nr; i++)
		ok = collect(pts, dirs[i], err);
	if (ok && !pts->len) {
		err_setf(err, "c2csim merge: no finished point (expected points/NNNN/point.yaml)");
		ok = false;
	}
	if (ok) {
		g_array_sort(pts, mpoint_cmp);
		ok = check_points(pts, err) && write_csv(pts, csv_path, err);
		if (ok && missing)
			list_missing(pts, missing);
	}
	n = ok ? (int)pts->len : -1;
	g_array_free(pts, TRUE);
	return n;
}

int merge_main(int argc, char **argv)
{
	g_autofree char *out = NULL;
	g_auto(GStrv) dirs = NULL;
	GOptionEntry entries[] = {
		{"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "directory for sweep.csv (default: "
		 "the first DIR)", "DIR"},
		{G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &dirs, NULL, NULL},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	GOptionContext *ctx = g_option_context_new("DIR... - merge sweep or point directories "
						   "into sweep.csv");
	g_autoptr(GError) gerr = NULL;
	g_autofree char *csv = NULL;
	struct c2c_err err = {0};
	GString *missing;
	int n;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &gerr)) {
		g_option_context_free(ctx);
		fprintf(stderr, "c2csim merge: %s (see c2csim merge --help)\n", gerr->message);
		return 2;
	}
	g_option_context_free(ctx);
	if (!dirs || !dirs[0]) {
		fprintf(stderr, "c2csim merge: expected at least one DIR (see c2csim merge --help)\n");
		return 2;
	}
	csv = g_build_filename(out ? out : dirs[0], "sweep.csv", NULL);
	if (out && g_mkdir_with_parents(out, 0777)) {
		fprintf(stderr, "c2csim merge: cannot create %s: %s\n", out, g_strerror(errno));
		return 2;
	}
	missing = g_string_new(NULL);
	n = sweep_merge((const char *const *)dirs, g_strv_length(dirs), csv, missing, &err);
	if (n < 0)
		fprintf(stderr, "%s\n", err.msg);
	else if (missing->len) /* a partial table is still written: a sweep may be running */
		fprintf(stderr, "c2csim: %d points merged into %s; missing: %s (not finished, "
			"failed, or in a directory not given)\n", n, csv, missing->str);
	else
		fprintf(stderr, "c2csim: %d points merged into %s\n", n, csv);
	g_string_free(missing, TRUE);
	return n < 0 ? 2 : 0;
}
