/* metrics.c - the metrics of a parsed summary.yaml, and verdicts; see metrics.h. */
#include "report/metrics.h"
#include "core/infile.h"

#include <glib.h>
#include <math.h>
#include <string.h>

/* Top lines of each variant taken as metrics (the summary lists up to 64). */
#define METRIC_TOP_LINES 5

const char *const verdict_names[VERDICT_COUNT + 1] = {"same", "better", "worse", "new", "gone",
						      NULL};

/* A number of the tree: a scalar parsed as a double, 0 when missing or not a number. */
static double num(const struct yt_node *map, const char *key)
{
	const struct yt_node *k = map ? yt_get(map, key) : NULL;

	return k && k->kind == YT_SCALAR ? g_ascii_strtod(k->str, NULL) : 0;
}

static const char *str(const struct yt_node *map, const char *key)
{
	const struct yt_node *k = map ? yt_get(map, key) : NULL;

	return k && k->kind == YT_SCALAR ? k->str : "-";
}

/* Append a metric to @v; @name NULL shows the key.  Return: the new metric. */
static struct metric *add(struct mvariant *v, char *key, const char *name, const char *unit,
			  double value, bool per_op, bool higher_better)
{
	struct metric *m;

	if (v->nr == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 32;
		v->m = g_renew(struct metric, v->m, v->cap);
	}
	m = &v->m[v->nr++];
	*m = (struct metric){.key = key, .name = g_strdup(name ? name : key), .unit = unit,
			     .value = value, .higher_better = higher_better};
	if (per_op && v->iterations) {
		m->per_op = value / (double)v->iterations;
		m->has_per_op = true;
	}
	return m;
}

static void add_headline(struct mvariant *v, const struct yt_node *seq)
{
	for (size_t i = 0; seq && seq->kind == YT_SEQ && i < seq->len; i++) {
		const struct yt_node *h = seq->items[i];
		const struct yt_node *po = yt_get(h, "per_op"), *pub = yt_get(h, "published");
		struct metric *m = add(v, g_strdup_printf("headline:%s", str(h, "id")),
				       str(h, "name"), str(h, "unit"), num(h, "value"), false,
				       !strcmp(str(h, "metric"), "ops_per_sec"));

		m->headline = true;
		m->published = pub && pub->kind == YT_SCALAR ? pub : NULL;
		if (po && po->kind == YT_SCALAR) {
			m->per_op = g_ascii_strtod(po->str, NULL);
			m->has_per_op = true;
		}
	}
}

static void add_lists(struct mvariant *v, const struct yt_node *var)
{
	const struct yt_node *seq;

	seq = yt_get(var, "locks");
	for (size_t i = 0; seq && seq->kind == YT_SEQ && i < seq->len; i++) {
		const struct yt_node *l = seq->items[i];

		add(v, g_strdup_printf("lock:%s:wait", str(l, "name")), NULL, "ns",
		    num(l, "wait_total_ps") / 1000, true, false);
		add(v, g_strdup_printf("lock:%s:hold", str(l, "name")), NULL, "ns",
		    num(l, "hold_total_ps") / 1000, true, false);
	}
	seq = yt_get(var, "paths");
	for (size_t i = 0; seq && seq->kind == YT_SEQ && i < seq->len; i++)
		add(v, g_strdup_printf("path:%s:mean", str(seq->items[i], "name")), NULL, "ns",
		    num(seq->items[i], "mean_ps") / 1000, false, false);
	seq = yt_get(var, "counters");
	for (size_t i = 0; seq && seq->kind == YT_SEQ && i < seq->len; i++)
		add(v, g_strdup_printf("counter:%s:error", str(seq->items[i], "name")), NULL,
		    "count", num(seq->items[i], "max_abs_error"), false, false);
	seq = yt_get(var, "lines");
	for (size_t i = 0; seq && seq->kind == YT_SEQ && i < seq->len && i < METRIC_TOP_LINES;
	     i++) {
		const struct yt_node *l = seq->items[i];

		add(v, g_strdup_printf("line:%s:%s:hitm", str(l, "object"), str(l, "line")), NULL,
		    "HITMs", num(l, "hitm_local") + num(l, "hitm_remote"), true, false);
	}
}

static void load_variant(struct mvariant *v, const struct yt_node *key,
			 const struct yt_node *var)
{
	const struct yt_node *actors = yt_get(var, "actors"), *hitm = yt_get(var, "hitm");

	*v = (struct mvariant){.name = key->str, .machine = str(var, "machine"),
			       .sim_time_ps = (uint64_t)num(var, "sim_time_ps")};
	for (size_t i = 0; actors && actors->kind == YT_SEQ && i < actors->len; i++)
		v->iterations += (uint64_t)num(actors->items[i], "iterations");
	add_headline(v, yt_get(var, "headline"));
	add(v, g_strdup("hitm.local"), NULL, "HITMs", num(hitm, "local"), true, false);
	add(v, g_strdup("hitm.remote"), NULL, "HITMs", num(hitm, "remote"), true, false);
	add(v, g_strdup("hitm.prefetch"), NULL, "HITMs", num(hitm, "prefetch"), true, false);
	add(v, g_strdup("loads"), NULL, "loads", num(var, "loads"), true, false);
	add(v, g_strdup("stores"), NULL, "stores", num(var, "stores"), true, false);
	add(v, g_strdup("ops_per_sec"), NULL, "ops/s", num(yt_get(var, "throughput"),
							    "ops_per_sec"), false, true);
	add_lists(v, var);
}

bool msummary_load(struct msummary *s, const char *name, const char *text, size_t len,
		   struct c2c_err *err)
{
	const struct yt_node *vars;

	*s = (struct msummary){0};
	if (!(s->root = yt_load_string(name, text, len, err)))
		return false;
	if (s->root->kind != YT_MAP || !(vars = yt_get(s->root, "variants")) ||
	    vars->kind != YT_MAP || !yt_get(s->root, "c2csim_version")) {
		err_set(err, s->root->mark, "not a c2csim summary (expected c2csim_version and "
			"variants, as `c2csim run` writes them)");
		msummary_free(s);
		return false;
	}
	s->scenario = str(s->root, "scenario");
	s->v = g_new0(struct mvariant, vars->len ? vars->len : 1);
	for (size_t i = 0; i < vars->len; i++)
		load_variant(&s->v[s->nr++], vars->pairs[i].key, vars->pairs[i].val);
	return true;
}

bool msummary_load_file(struct msummary *s, const char *path, struct c2c_err *err)
{
	g_autofree char *text = NULL;
	char why[INFILE_WHY_MAX];
	size_t len;

	*s = (struct msummary){0};
	/* A results directory can come from anywhere (a branch's baselines): no FIFO, no giant. */
	if (!infile_read(path, INFILE_MAX_YAML, &text, &len, why)) {
		err_setf(err, "%s:1:1: %s (expected a results directory's summary.yaml, a regular "
			 "file of at most %zu MiB)", path, why, INFILE_MIB(INFILE_MAX_YAML));
		return false;
	}
	return msummary_load(s, path, text, len, err);
}

void msummary_free(struct msummary *s)
{
	for (uint32_t i = 0; i < s->nr; i++) {
		for (uint32_t k = 0; k < s->v[i].nr; k++) {
			g_free(s->v[i].m[k].key);
			g_free(s->v[i].m[k].name);
		}
		g_free(s->v[i].m);
	}
	g_free(s->v);
	yt_free(s->root);
	*s = (struct msummary){0};
}

const struct mvariant *msummary_variant(const struct msummary *s, const char *name)
{
	for (uint32_t i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

const struct metric *mvariant_metric(const struct mvariant *v, const char *key)
{
	for (uint32_t i = 0; v && i < v->nr; i++)
		if (!strcmp(v->m[i].key, key))
			return &v->m[i];
	return NULL;
}

/* ------------------------------------------------------------------ verdicts */

double metric_norm(const struct metric *m)
{
	return m->has_per_op ? m->per_op : m->value;
}

enum verdict verdict_of(const struct metric *base, const struct metric *cur, double tol_pct,
			double *change_pct)
{
	double b, c, ch;

	*change_pct = 0;
	if (!base || !cur)
		return base ? VERDICT_GONE : VERDICT_NEW;
	b = metric_norm(base);
	c = metric_norm(cur);
	if (b == c)
		return VERDICT_SAME;
	ch = b != 0 ? (c - b) / fabs(b) * 100 : (c > b ? HUGE_VAL : -HUGE_VAL);
	*change_pct = ch;
	if (fabs(ch) <= tol_pct)
		return VERDICT_SAME;
	return (c > b) == base->higher_better ? VERDICT_BETTER : VERDICT_WORSE;
}

const char *verdict_text(char *buf, size_t n, enum verdict v, double change_pct)
{
	if (v == VERDICT_NEW || v == VERDICT_GONE || (v == VERDICT_SAME && change_pct == 0))
		snprintf(buf, n, "%s", verdict_names[v]);
	else if (isinf(change_pct))
		snprintf(buf, n, "%s (was 0)", verdict_names[v]);
	else
		snprintf(buf, n, "%s %+.1f%%", verdict_names[v], change_pct);
	return buf;
}

const char *metric_fmt(char *buf, size_t n, double x)
{
	double a = fabs(x);

	if (x == floor(x) && a < 1e15)
		snprintf(buf, n, "%.0f", x);
	else if (a >= 100)
		snprintf(buf, n, "%.1f", x);
	else if (a >= 1)
		snprintf(buf, n, "%.3f", x);
	else
		snprintf(buf, n, "%.3g", x);
	return buf;
}
