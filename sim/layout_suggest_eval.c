/* layout_suggest_eval.c - the metrics of `layout suggest` and its runs, through the sweep
 * machinery; see layout_suggest.h. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "layout_suggest_int.h"
#include "report/headline.h"
#include "report/outdir.h"
#include "sweep/sweep.h"

/* The headline metric `--metric hitm` adds: demand HITMs on the lines of the struct's
 * objects, per iteration (headline.h). */
#define HITM_ID "suggest_struct_hitm"

bool suggest_overrides(struct search *s, const char *path)
{
	const char *only[] = {s->o->variant, NULL};
	struct scenario *sc;
	const struct yt_node *hl;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!s->o->metric || strcmp(s->o->metric, "hitm"))
		return true;
	if (!(sc = scenario_load_only(path, NULL, 0, false, 0, s->o->variant ? only : NULL, NULL,
				      s->err)))
		return false;
	hl = yt_get(sc->v[0].tree, "headline");
	f = open_memstream(&text, &len);
	if (hl && hl->len)
		yt_emit(f, hl, 0);
	fprintf(f, "%s{id: %s, name: \"HITMs on the lines of struct %s\", metric: hitm, "
		"struct: \"%s\"}%s\n", hl && hl->len ? "- " : "[", HITM_ID, s->o->strct,
		s->o->strct, hl && hl->len ? "" : "]");
	fclose(f);
	scenario_free(sc);
	s->ov_text = text;
	s->ov[0] = (struct override){"headline", s->ov_text};
	s->nr_ov = 1;
	return true;
}

bool suggest_check_compare(const struct search *s)
{
	struct yt_node *root = s->o->compare ? yt_load_file(s->o->scenario, s->err) : NULL;
	const struct yt_node *vs = yt_get(root, "variants");
	bool ok = !s->o->compare || root;

	for (const char *const *c = s->o->compare; c && *c; c++) {
		bool found = !vs && !strcmp(*c, "default"); /* a scenario without variants */

		for (size_t i = 0; vs && vs->kind == YT_SEQ && i < vs->len && !found; i++) {
			const struct yt_node *n = yt_get(vs->items[i], "name");

			found = n && n->kind == YT_SCALAR && !strcmp(n->str, *c);
		}
		if (ok && !found) {
			err_setf(s->err, "layout suggest: --compare %s: no such variant in %s "
				 "(expected one of its variants)", *c, s->o->scenario);
			ok = false;
		}
	}
	yt_free(root);
	return ok;
}

/* The metric --metric names: throughput, hitm, or a headline metric by id, name or index. */
static const char *objective_key(const struct search *s, const struct mvariant *v)
{
	const char *m = s->o->metric;
	uint32_t n = 0;
	char *end;
	guint64 idx;

	if (!m || !strcmp(m, "throughput"))
		return "ops_per_sec";
	if (!strcmp(m, "hitm"))
		return "headline:" HITM_ID;
	idx = g_ascii_strtoull(m, &end, 10);
	for (uint32_t i = 0; i < v->nr; i++) {
		if (!v->m[i].headline)
			continue;
		n++;
		if ((!*end && idx == n) || !strcmp(v->m[i].key + strlen("headline:"), m) ||
		    !strcmp(v->m[i].name, m))
			return v->m[i].key;
	}
	return NULL;
}

bool suggest_metrics(struct search *s)
{
	const struct mvariant *v = s->base.nr ? &s->base.v[0] : NULL;
	const char *key = v ? objective_key(s, v) : NULL;
	g_autoptr(GString) choice = g_string_new("throughput, hitm");
	uint32_t n = 0;

	for (uint32_t i = 0; v && i < v->nr; i++)
		if (v->m[i].headline || !strcmp(v->m[i].key, "ops_per_sec")) {
			if (key && !strcmp(v->m[i].key, key))
				s->obj = s->keys->len;
			g_ptr_array_add(s->keys, &v->m[i]);
			if (v->m[i].headline && ++n && strcmp(v->m[i].key, "headline:" HITM_ID))
				g_string_append_printf(choice, ", %u or %s", n,
						       v->m[i].key + strlen("headline:"));
		}
	if (!key) {
		err_setf(s->err, "layout suggest: --metric '%s' (expected %s%s)", s->o->metric,
			 choice->str, n ? ": a headline metric of the scenario by index, id or "
			 "name" : "");
		return false;
	}
	return true;
}

void suggest_read_metrics(const struct search *s, const struct msummary *sum,
			  const char *variant, struct cand *c)
{
	const struct mvariant *v = msummary_variant(sum, variant);

	c->mv = g_new0(struct mval, s->keys->len);
	for (guint i = 0; v && i < s->keys->len; i++) {
		const struct metric *m = mvariant_metric(v, ((struct metric *)s->keys->pdata[i])->key);

		if (m)
			c->mv[i] = (struct mval){m->value, m->per_op, m->has_per_op, true};
	}
}

/* The grid of one batch: today's variant (or @variants) and, per candidate, its edit list
 * as a `layout_edits.S` override; every run also takes the search's overrides. */
static struct sweep_grid *batch_grid(const struct search *s, struct cand **c, uint32_t n,
				     const char *const *variants, struct c2c_err *err)
{
	struct sweep_grid *g = sweep_grid_new(s->o->scenario);
	g_autoptr(GString) axis = g_string_new("variant=");
	g_autofree char *key = g_strdup_printf("layout_edits.%s", s->o->strct);
	struct sweep_axis *a;

	for (uint32_t i = 0; i < s->nr_ov; i++)
		g_ptr_array_add(g->sets, g_strdup_printf("%s=%s", s->ov[i].key, s->ov[i].value));
	for (const char *const *v = variants; v && *v; v++)
		g_string_append_printf(axis, "%s%s", v == variants ? "" : "|", *v);
	if (!variants)
		g_string_append(axis, s->v->name);
	sweep_grid_add_axis(g, axis->str, err);
	if (!variants) {
		sweep_grid_add_axis(g, "x=y", err); /* then its values are the edit lists */
		a = &g_array_index(g->axes, struct sweep_axis, 1);
		g_free(a->key);
		a->key = g_strdup(key);
		g_ptr_array_set_size(a->values, 0);
		for (uint32_t i = 0; i < n; i++)
			g_ptr_array_add(a->values, ledits_to_yaml(&c[i]->e));
	}
	if (!sweep_grid_seal(g, err)) {
		sweep_grid_free(g);
		return NULL;
	}
	return g;
}

bool suggest_run(struct search *s, struct cand **c, uint32_t n, const char *const *variants)
{
	g_autofree char *name = g_strdup_printf("batch-%u", s->batches++);
	g_autofree char *dir = g_build_filename(s->tmp, name, NULL);
	struct sweep_grid *g = batch_grid(s, c, n, variants, s->err);
	bool ok = g && !sweep_run_points(g, dir, (int)s->o->jobs, false, s->err);

	for (uint32_t i = 0; ok && i < g->nr_points; i++) {
		g_autofree char *pdir = sweep_point_dir(dir, i);
		g_autofree char *path = g_build_filename(pdir, "summary.yaml", NULL);
		struct msummary sum = {0};

		if (!(ok = msummary_load_file(&sum, path, s->err)))
			break;
		suggest_read_metrics(s, &sum, variants ? variants[i] : s->v->name, c[i]);
		msummary_free(&sum);
	}
	if (ok) /* a failed batch stays for its logs */
		outdir_rm_tree(dir);
	sweep_grid_free(g);
	return ok;
}
