/* sweep_grid.c - a sweep's grid: parsing, canonical text, points; see sweep.h. */
#include "sweep/sweep.h"

#include <stdio.h>
#include <string.h>

#include "yaml/ytree.h"

struct sweep_grid *sweep_grid_new(const char *scenario)
{
	struct sweep_grid *g = g_new0(struct sweep_grid, 1);

	g->scenario = g_canonicalize_filename(scenario, NULL);
	g->sets = g_ptr_array_new_with_free_func(g_free);
	g->axes = g_array_new(FALSE, TRUE, sizeof(struct sweep_axis));
	return g;
}

void sweep_grid_free(struct sweep_grid *g)
{
	if (!g)
		return;
	for (guint i = 0; i < g->axes->len; i++) {
		g_free(g_array_index(g->axes, struct sweep_axis, i).key);
		g_ptr_array_free(g_array_index(g->axes, struct sweep_axis, i).values, TRUE);
	}
	g_array_free(g->axes, TRUE);
	g_ptr_array_free(g->sets, TRUE);
	g_free(g->scenario);
	g_free(g);
}

static struct sweep_axis *add_axis(struct sweep_grid *g, const char *key)
{
	struct sweep_axis a = {g_strdup(key), g_ptr_array_new_with_free_func(g_free)};

	g_array_append_val(g->axes, a);
	return &g_array_index(g->axes, struct sweep_axis, g->axes->len - 1);
}

bool sweep_grid_add_axis(struct sweep_grid *g, const char *spec, struct c2c_err *err)
{
	const char *eq = strchr(spec, '=');
	g_autofree char *key = eq ? g_strndup(spec, (size_t)(eq - spec)) : NULL;
	g_auto(GStrv) values = NULL;
	struct sweep_axis *a;

	if (!eq || eq == spec || !eq[1]) {
		err_setf(err, "c2csim sweep: --axis '%s' (expected KEY=VALUE|VALUE|..., e.g. "
			 "'variant=before|after')", spec);
		return false;
	}
	values = g_strsplit(eq + 1, "|", -1);
	a = add_axis(g, key);
	for (char **v = values; *v; v++)
		g_ptr_array_add(a->values, g_strdup(*v));
	return true;
}

static bool load_axes(struct sweep_grid *g, const struct yt_node *axes, struct c2c_err *err)
{
	if (!yt_expect_map(axes, "axes", NULL, err))
		return false;
	for (size_t i = 0; i < axes->len; i++) {
		const struct yt_node *vals = axes->pairs[i].val;
		struct sweep_axis *a;

		if (!yt_expect_seq(vals, axes->pairs[i].key->str, err))
			return false;
		a = add_axis(g, axes->pairs[i].key->str);
		for (size_t k = 0; k < vals->len; k++) {
			const char *s;

			if (!yt_str(vals->items[k], a->key, &s, err))
				return false;
			g_ptr_array_add(a->values, g_strdup(s));
		}
	}
	return true;
}

static bool load_sets(struct sweep_grid *g, const struct yt_node *set, struct c2c_err *err)
{
	if (!set)
		return true;
	if (!yt_expect_map(set, "set", NULL, err))
		return false;
	for (size_t i = 0; i < set->len; i++) {
		const char *v;

		if (!yt_str(set->pairs[i].val, set->pairs[i].key->str, &v, err))
			return false;
		g_ptr_array_add(g->sets, g_strdup_printf("%s=%s", set->pairs[i].key->str, v));
	}
	return true;
}

/* A relative scenario path: from the working directory, as `c2csim run` takes it. */
struct sweep_grid *sweep_grid_load(const char *path, struct c2c_err *err)
{
	static const char *const keys[] = {"scenario", "set", "axes", NULL};
	struct yt_node *root = yt_load_file(path, err);
	const struct yt_node *sc, *axes;
	const char *scenario;
	struct sweep_grid *g = NULL;

	if (root && yt_expect_map(root, "sweep", keys, err) &&
	    (sc = yt_require(root, "scenario", "sweep", err)) &&
	    yt_str(sc, "scenario", &scenario, err) &&
	    (axes = yt_require(root, "axes", "sweep", err))) {
		g = sweep_grid_new(scenario);
		if (!load_sets(g, yt_get(root, "set"), err) || !load_axes(g, axes, err) ||
		    !sweep_grid_seal(g, err)) {
			sweep_grid_free(g);
			g = NULL;
		}
	}
	yt_free(root);
	return g;
}

bool sweep_grid_seal(struct sweep_grid *g, struct c2c_err *err)
{
	uint64_t n = 1;

	if (!g->axes->len) {
		err_setf(err, "c2csim sweep: no axis (expected axes: in the sweep file, or --axis "
			 "KEY=V1|V2)");
		return false;
	}
	for (guint i = 0; i < g->axes->len; i++) {
		const struct sweep_axis *a = &g_array_index(g->axes, struct sweep_axis, i);

		for (guint k = 0; k < i; k++)
			if (!strcmp(a->key, g_array_index(g->axes, struct sweep_axis, k).key)) {
				err_setf(err, "c2csim sweep: axis '%s' given twice (expected each "
					 "key once)", a->key);
				return false;
			}
		if (!a->values->len) {
			err_setf(err, "c2csim sweep: axis '%s' has no value (expected at least "
				 "one)", a->key);
			return false;
		}
		n *= a->values->len;
		if (n > SWEEP_MAX_POINTS) {
			err_setf(err, "c2csim sweep: more than %d points (expected a smaller grid: "
				 "SWEEP_MAX_POINTS)", SWEEP_MAX_POINTS);
			return false;
		}
	}
	g->nr_points = (uint32_t)n;
	return true;
}

/* A YAML double-quoted scalar (the canonical text quotes every string). */
static void quoted(FILE *f, const char *s)
{
	yt_emit_quoted(f, s);
}

char *sweep_grid_text(const struct sweep_grid *g)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fputs("# c2csim sweep grid: `c2csim sweep THIS_FILE --out DIR` runs or resumes it\n"
	      "scenario: ", f);
	quoted(f, g->scenario);
	fputs(g->sets->len ? "\nset:\n" : "\nset: {}\n", f);
	for (guint i = 0; i < g->sets->len; i++) {
		const char *kv = g->sets->pdata[i], *eq = strchr(kv, '=');
		g_autofree char *key = g_strndup(kv, (size_t)(eq - kv));

		fputs("  ", f);
		quoted(f, key);
		fputs(": ", f);
		quoted(f, eq + 1);
		fputc('\n', f);
	}
	fputs("axes:\n", f);
	for (guint i = 0; i < g->axes->len; i++) {
		const struct sweep_axis *a = &g_array_index(g->axes, struct sweep_axis, i);

		fputs("  ", f);
		quoted(f, a->key);
		fputs(": [", f);
		for (guint k = 0; k < a->values->len; k++) {
			fputs(k ? ", " : "", f);
			quoted(f, a->values->pdata[k]);
		}
		fputs("]\n", f);
	}
	fclose(f);
	return text;
}

const char *sweep_point_value(const struct sweep_grid *g, uint32_t point, uint32_t axis)
{
	uint32_t stride = 1;

	for (guint i = g->axes->len; i-- > axis + 1;)
		stride *= g_array_index(g->axes, struct sweep_axis, i).values->len;
	const struct sweep_axis *a = &g_array_index(g->axes, struct sweep_axis, axis);

	return a->values->pdata[(point / stride) % a->values->len];
}

char **sweep_point_argv(const struct sweep_grid *g, uint32_t point, const char *exe,
			const char *dir)
{
	GPtrArray *v = g_ptr_array_new();

	g_ptr_array_add(v, g_strdup(exe));
	g_ptr_array_add(v, g_strdup("run"));
	g_ptr_array_add(v, g_strdup(g->scenario));
	g_ptr_array_add(v, g_strdup("--quiet"));
	g_ptr_array_add(v, g_strdup("--out"));
	g_ptr_array_add(v, g_strdup(dir));
	for (guint i = 0; i < g->sets->len; i++) {
		g_ptr_array_add(v, g_strdup("--set"));
		g_ptr_array_add(v, g_strdup(g->sets->pdata[i]));
	}
	for (guint i = 0; i < g->axes->len; i++) {
		const char *key = g_array_index(g->axes, struct sweep_axis, i).key;
		const char *val = sweep_point_value(g, point, i);

		g_ptr_array_add(v, g_strdup(strcmp(key, "variant") ? "--set" : "--variant"));
		g_ptr_array_add(v, strcmp(key, "variant") ? g_strdup_printf("%s=%s", key, val)
							  : g_strdup(val));
	}
	g_ptr_array_add(v, NULL);
	return (char **)g_ptr_array_free(v, FALSE);
}

char *sweep_point_dir(const char *dir, uint32_t point)
{
	char name[32];

	snprintf(name, sizeof(name), "%0*u", SWEEP_POINT_DIGITS, point);
	return g_build_filename(dir, "points", name, NULL);
}

bool sweep_point_finish(const struct sweep_grid *g, uint32_t point, const char *pdir,
			struct c2c_err *err)
{
	g_autofree char *path = g_build_filename(pdir, "point.yaml", NULL);
	g_autoptr(GError) gerr = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool ok;

	fprintf(f, "point: %u\nof: %u\naxes:\n", point, g->nr_points);
	for (guint i = 0; i < g->axes->len; i++) {
		fputs("  ", f);
		quoted(f, g_array_index(g->axes, struct sweep_axis, i).key);
		fputs(": ", f);
		quoted(f, sweep_point_value(g, point, i));
		fputc('\n', f);
	}
	fclose(f);
	/* g_file_set_contents writes a temporary file and renames it: atomic. */
	ok = g_file_set_contents(path, text, (gssize)len, &gerr);
	if (!ok)
		err_setf(err, "c2csim sweep: %s", gerr->message);
	free(text);
	return ok;
}

bool sweep_point_done(const char *pdir)
{
	g_autofree char *p = g_build_filename(pdir, "point.yaml", NULL);
	g_autofree char *s = g_build_filename(pdir, "summary.yaml", NULL);

	return g_file_test(p, G_FILE_TEST_IS_REGULAR) && g_file_test(s, G_FILE_TEST_IS_REGULAR);
}
