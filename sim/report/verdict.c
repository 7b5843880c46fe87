/* verdict.c - the first screen and the variants-against-baseline table; see verdict.h. */
#include "report/verdict.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "report/headline.h"
#include "report/report.h"

#define SCREEN_WIDTH 119   /* the first screen stays under 120 columns */

static bool has_variant(const struct scenario *sc, const char *name)
{
	for (uint32_t i = 0; i < sc->nr_variants; i++)
		if (!g_strcmp0(sc->v[i].name ? sc->v[i].name : "default", name))
			return true;
	return false;
}

bool verdict_opts_load(struct verdict_opts *o, const struct scenario *sc, struct c2c_err *err)
{
	const struct yt_node *rep = sc->nr_variants ? yt_get(sc->v[0].tree, "report") : NULL;
	const struct yt_node *k;
	int64_t tol;

	if (o->baseline && !has_variant(sc, o->baseline)) {
		err_setf(err, "--baseline '%s': no such variant was run (expected one of the "
			 "scenario's variants, and not left out by --variant)", o->baseline);
		return false;
	}
	if (!o->baseline && rep && (k = yt_get(rep, "baseline"))) {
		if (!yt_str(k, "report.baseline", &o->baseline, err))
			return false;
		if (!yt_get(sc->v[0].tree, "variants") || !sc->has_variants) {
			err_set(err, k->mark, "report.baseline: '%s' but the scenario has no variants "
				"(expected variants)", o->baseline);
			return false;
		}
		/* A baseline left out by --variant: the first variant run stands in. */
		if (!has_variant(sc, o->baseline))
			o->baseline = NULL;
	}
	if (rep && (k = yt_get(rep, "tolerance_pct"))) {
		if (!yt_int(k, "report.tolerance_pct", 0, 100, &tol, err))
			return false;
		o->tol_pct = (double)tol;
	}
	return true;
}

static const struct mvariant *baseline_of(const struct msummary *s, const struct verdict_opts *o)
{
	const struct mvariant *b = o->baseline ? msummary_variant(s, o->baseline) : NULL;

	return b ? b : s->nr ? &s->v[0] : NULL;
}

/* Counts are shown per 1,000 operations, times per operation. */
static bool per_k(const struct metric *m)
{
	return strcmp(m->unit, "ns") != 0;
}

static const char *published_text(const struct metric *m)
{
	return m && m->published ? m->published->str : "-";
}

/* The header: scenario and description, machine, seed, time, baseline (each line cut). */
static void screen_head(FILE *f, const struct scenario *sc, const struct msummary *s,
			const struct mvariant *base)
{
	const struct yt_node *d = sc->nr_variants ? yt_get(sc->v[0].tree, "description") : NULL;
	const struct yt_node *seed = yt_get(s->root, "seed");
	g_autofree char *l1 = g_strdup_printf("c2csim: %s%s%s", s->scenario,
					      d && d->kind == YT_SCALAR ? " - " : "",
					      d && d->kind == YT_SCALAR ? d->str : "");
	g_autofree char *l2 = NULL;
	GString *names = g_string_new(NULL);

	for (uint32_t i = 0; i < s->nr; i++)
		g_string_append_printf(names, "%s%s", i ? ", " : "", s->v[i].name);
	l2 = g_strdup_printf("machine %s, seed %s, %" PRIu64 ".%03" PRIu64 " us simulated, "
			     "baseline %s", base->machine, seed ? seed->str : "-",
			     base->sim_time_ps / 1000000, base->sim_time_ps / 1000 % 1000,
			     base->name);
	fprintf(f, "%.*s\n%.*s\nvariants: %.*s\n\n", SCREEN_WIDTH, l1, SCREEN_WIDTH, l2,
		SCREEN_WIDTH - 10, names->str);
	g_string_free(names, TRUE);
}

static void screen_row(FILE *f, const struct mvariant *v, const struct metric *m,
		       const struct metric *bm, const struct verdict_opts *o, bool is_base)
{
	char val[32], po[32], vt[48];
	double ch;
	enum verdict vd;

	if (!m) {
		fprintf(f, "    %-24.24s %14s\n", v->name, "-");
		return;
	}
	metric_fmt(val, sizeof(val), m->value);
	if (m->has_per_op)
		metric_fmt(po, sizeof(po), per_k(m) ? m->per_op * 1000 : m->per_op);
	else
		g_strlcpy(po, "-", sizeof(po));
	vd = verdict_of(bm, m, o->tol_pct, &ch);
	fprintf(f, "    %-24.24s %14s %12s %22.22s  %s\n", v->name, val, po, published_text(m),
		is_base ? "baseline" : verdict_text(vt, sizeof(vt), vd, ch));
}

/* Headline rows the first screen has room for; beyond, each block lists only the baseline
 * and the variants with a published figure (the table after the perf-c2c sections has all). */
#define SCREEN_ROWS 27

static uint32_t nr_headline(const struct mvariant *base)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < base->nr; k++)
		n += base->m[k].headline;
	return n;
}

/* The variant a headline block compares with: its `vs:` when that variant ran, else @base. */
static const struct mvariant *block_base(const struct hl_set *hs, const struct msummary *s,
					 const struct metric *m, const struct mvariant *base)
{
	for (uint32_t i = 0; i < hs->nr; i++) {
		g_autofree char *key = g_strdup_printf("headline:%s", hs->v[i].id);
		const struct mvariant *v = hs->v[i].vs ? msummary_variant(s, hs->v[i].vs) : NULL;

		if (!strcmp(key, m->key) && v)
			return v;
	}
	return base;
}

static void screen_block(FILE *f, const struct msummary *s, const struct metric *bm,
			 const struct mvariant *bb, const struct mvariant *base,
			 const struct verdict_opts *o, bool all)
{
	uint32_t left = 0;

	fprintf(f, "  %.*s (%s%s; %s is better%s%s)\n", SCREEN_WIDTH - 60, bm->name, bm->unit,
		bm->has_per_op && per_k(bm) ? ", per op: per 1k ops" : "",
		bm->higher_better ? "higher" : "lower", bb != base ? ", vs " : "",
		bb != base ? bb->name : "");
	for (uint32_t i = 0; i < s->nr; i++) {
		const struct metric *m = mvariant_metric(&s->v[i], bm->key);

		if (all || &s->v[i] == bb || (m && m->published))
			screen_row(f, &s->v[i], m, bm, o, &s->v[i] == bb);
		else
			left++;
	}
	if (left)
		fprintf(f, "    (%u more variants: see \"Variants against the baseline\")\n", left);
}

void verdict_screen(FILE *f, const struct scenario *sc, const struct msummary *s,
		    const struct verdict_opts *o, const struct expect_set *es)
{
	const struct mvariant *base = baseline_of(s, o);
	struct c2c_err err = {0};
	struct hl_set hs = {0};
	bool all;

	if (!base)
		return;
	/* Loaded (and checked) before the run already: a failure here means no `vs:`. */
	if (!hl_load(sc, &hs, &err))
		hs = (struct hl_set){0};
	all = nr_headline(base) * (s->nr + 1) <= SCREEN_ROWS;
	screen_head(f, sc, s, base);
	fprintf(f, "  %-26s %14s %12s %22s  verdict vs %s\n", "headline / variant", "simulated",
		"per op", "published", base->name);
	for (uint32_t k = 0; k < base->nr; k++) {
		const struct mvariant *bb;
		const struct metric *bm;

		if (!base->m[k].headline)
			continue;
		bb = block_base(&hs, s, &base->m[k], base);
		bm = mvariant_metric(bb, base->m[k].key);
		screen_block(f, s, bm ? bm : &base->m[k], bb, base, o, all);
	}
	hl_set_free(&hs);
	if (!base->nr || !base->m[0].headline)
		fputs("  (the scenario declares no headline metrics)\n", f);
	fputc('\n', f);
	if (es && es->nr) {
		expect_report(f, es, s, NULL);
		fputc('\n', f);
	}
}

/* ------------------------------------------------------------------ the table */

static void table_variant(FILE *f, const struct mvariant *base, const struct mvariant *v,
			  const struct verdict_opts *o)
{
	char a[32], b[32], vt[48];

	fprintf(f, "%s vs %s\n", v->name, base->name);
	fprintf(f, "  %-52s %14s %14s  %s\n", "metric (per 1k ops where normalised)", base->name,
		v->name, "verdict");
	for (uint32_t k = 0; k < base->nr; k++) {
		const struct metric *bm = &base->m[k], *m = mvariant_metric(v, bm->key);
		double ch, scale = bm->has_per_op && per_k(bm) ? 1000 : 1;
		enum verdict vd = verdict_of(bm, m, o->tol_pct, &ch);

		fprintf(f, "  %-52.52s %14s %14s  %s\n", bm->key,
			metric_fmt(a, sizeof(a), metric_norm(bm) * scale),
			m ? metric_fmt(b, sizeof(b), metric_norm(m) * scale) : "-",
			verdict_text(vt, sizeof(vt), vd, ch));
	}
	for (uint32_t k = 0; k < v->nr; k++)
		if (!mvariant_metric(base, v->m[k].key))
			fprintf(f, "  %-52.52s %14s %14s  %s\n", v->m[k].key, "-",
				metric_fmt(b, sizeof(b), metric_norm(&v->m[k])), "new");
	fputc('\n', f);
}

void verdict_table(FILE *f, const struct msummary *s, const struct verdict_opts *o)
{
	const struct mvariant *base = baseline_of(s, o);

	if (!base || s->nr < 2)
		return;
	report_section(f, "Variants against the baseline");
	for (uint32_t i = 0; i < s->nr; i++)
		if (&s->v[i] != base)
			table_variant(f, base, &s->v[i], o);
}
