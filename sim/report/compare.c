/* compare.c - two results side by side, the regressions, the JUnit file; see compare.h. */
#include "report/compare.h"

#include <glib.h>
#include <math.h>
#include <string.h>

bool compare_threshold_parse(const char *text, struct compare_threshold *t, struct c2c_err *err)
{
	const char *eq = strrchr(text, '=');
	char *end;

	if (!eq || eq == text) {
		err_setf(err, "c2csim compare: --threshold '%s' (expected METRIC=PCT, e.g. "
			 "ops_per_sec=5)", text);
		return false;
	}
	t->pct = g_ascii_strtod(eq + 1, &end);
	if (!eq[1] || *end || t->pct < 0 || !isfinite(t->pct)) {
		err_setf(err, "c2csim compare: --threshold '%s' (expected a percentage >= 0 after "
			 "'=')", text);
		return false;
	}
	t->pattern = text;
	return true;
}

/* The threshold of @key: the last --threshold whose pattern matches, else the default. */
static double threshold_of(const struct compare_opts *o, const char *key)
{
	double pct = COMPARE_DEFAULT_PCT;

	for (uint32_t i = 0; i < o->nr_thr; i++) {
		const char *eq = strrchr(o->thr[i].pattern, '=');
		g_autofree char *pat = g_strndup(o->thr[i].pattern,
						 (size_t)(eq - o->thr[i].pattern));

		if (g_pattern_match_simple(pat, key))
			pct = o->thr[i].pct;
	}
	return pct;
}

/* One compared metric. */
struct crow {
	const char *variant, *key, *unit;
	const struct metric *base, *cur;
	enum verdict v;
	double change, threshold;
	bool regressed;
};

static void crow_make(struct crow *r, const char *variant, const struct metric *b,
		      const struct metric *c, const struct compare_opts *o)
{
	const struct metric *m = b ? b : c;

	*r = (struct crow){.variant = variant, .key = m->key, .unit = m->unit, .base = b, .cur = c};
	r->threshold = threshold_of(o, m->key);
	r->v = verdict_of(b, c, 0, &r->change);
	r->regressed = r->v == VERDICT_WORSE && fabs(r->change) > r->threshold;
}

/* Every (variant, metric) of @base and @cur, base order first.  Caller frees. */
static GArray *compare_rows(const struct msummary *base, const struct msummary *cur,
			    const struct compare_opts *o)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct crow));
	struct crow r;

	for (uint32_t i = 0; i < cur->nr; i++) {
		const struct mvariant *cv = &cur->v[i], *bv = msummary_variant(base, cv->name);

		for (uint32_t k = 0; bv && k < bv->nr; k++) {
			crow_make(&r, cv->name, &bv->m[k], mvariant_metric(cv, bv->m[k].key), o);
			g_array_append_val(rows, r);
		}
		for (uint32_t k = 0; k < cv->nr; k++)
			if (!mvariant_metric(bv, cv->m[k].key)) {
				crow_make(&r, cv->name, NULL, &cv->m[k], o);
				g_array_append_val(rows, r);
			}
	}
	/* A base variant the new run left out (`--variant`) is noted once, not compared. */
	return rows;
}

static const char *norm_text(char *buf, size_t n, const struct metric *m)
{
	return m ? metric_fmt(buf, n, m->has_per_op && strcmp(m->unit, "ns") ? metric_norm(m) * 1000
									   : metric_norm(m))
		 : "-";
}

static void print_rows(FILE *f, const GArray *rows, const char *bn, const char *cn,
		       const struct compare_opts *o)
{
	char a[32], b[32], vt[48];

	fprintf(f, "  %-16s %-44s %14.14s %14.14s  %s\n", "variant",
		"metric (per 1k ops where normalised)", bn, cn, "verdict");
	for (guint i = 0; i < rows->len; i++) {
		const struct crow *r = &g_array_index(rows, struct crow, i);

		if (!o->all && r->v == VERDICT_SAME)
			continue;
		fprintf(f, "  %-16.16s %-44.44s %14s %14s  %s%s\n", r->variant, r->key,
			norm_text(a, sizeof(a), r->base), norm_text(b, sizeof(b), r->cur),
			verdict_text(vt, sizeof(vt), r->v, r->change),
			r->regressed ? "  REGRESSION" : "");
	}
}

static void junit_case(FILE *j, const struct crow *r, const char *scenario)
{
	g_autofree char *cls = g_markup_printf_escaped("c2csim.%s.%s", scenario, r->variant);
	g_autofree char *name = g_markup_escape_text(r->key, -1);
	char a[32], b[32], vt[48];

	fprintf(j, "    <testcase classname=\"%s\" name=\"%s\" time=\"0\">\n", cls, name);
	if (r->regressed) {
		g_autofree char *msg = g_markup_printf_escaped(
			"%s beyond the %.1f%% threshold", verdict_text(vt, sizeof(vt), r->v,
								      r->change), r->threshold);

		fprintf(j, "      <failure type=\"regression\" message=\"%s\">base %s, new %s "
			"(%s)</failure>\n", msg, norm_text(a, sizeof(a), r->base),
			norm_text(b, sizeof(b), r->cur), r->unit);
	} else if (r->v == VERDICT_NEW || r->v == VERDICT_GONE) {
		fprintf(j, "      <system-out>%s</system-out>\n", verdict_names[r->v]);
	}
	fputs("    </testcase>\n", j);
}

static void junit_write(FILE *j, const GArray *rows, const char *scenario, uint32_t failures)
{
	g_autofree char *scen = g_markup_escape_text(scenario, -1);

	fprintf(j, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"c2csim compare\" tests=\"%u\" failures=\"%u\">\n",
		rows->len, failures);
	for (guint i = 0; i < rows->len;) {
		const char *variant = g_array_index(rows, struct crow, i).variant;
		g_autofree char *vname = g_markup_escape_text(variant, -1);
		guint end = i, fails = 0;

		while (end < rows->len && !strcmp(g_array_index(rows, struct crow, end).variant,
						  variant))
			fails += g_array_index(rows, struct crow, end++).regressed;
		fprintf(j, "  <testsuite name=\"%s/%s\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
			"skipped=\"0\">\n", scen, vname, end - i, fails);
		for (; i < end; i++)
			junit_case(j, &g_array_index(rows, struct crow, i), scenario);
		fputs("  </testsuite>\n", j);
	}
	fputs("</testsuites>\n", j);
}

uint32_t compare_run(FILE *f, FILE *junit, const struct msummary *base,
		     const struct msummary *cur, const char *base_name, const char *cur_name,
		     const struct compare_opts *o)
{
	GArray *rows = compare_rows(base, cur, o);
	uint32_t n[VERDICT_COUNT] = {0}, regressions = 0;

	for (guint i = 0; i < rows->len; i++) {
		const struct crow *r = &g_array_index(rows, struct crow, i);

		n[r->v]++;
		regressions += r->regressed;
	}
	fprintf(f, "c2csim compare: %s (%s) -> %s (%s)\n", base_name, base->scenario, cur_name,
		cur->scenario);
	if (strcmp(base->scenario, cur->scenario))
		fprintf(f, "note: different scenarios; variants are matched by name\n");
	fprintf(f, "%u metrics: %u same, %u better, %u worse, %u new, %u gone; %u regression%s "
		"beyond threshold (default %.0f%%)\n", rows->len, n[VERDICT_SAME],
		n[VERDICT_BETTER], n[VERDICT_WORSE], n[VERDICT_NEW], n[VERDICT_GONE], regressions,
		regressions == 1 ? "" : "s", COMPARE_DEFAULT_PCT);
	for (uint32_t i = 0, k = 0; i < base->nr; i++)
		if (!msummary_variant(cur, base->v[i].name))
			fprintf(f, "%s%s", k++ ? ", " : "variants only in base, not compared: ",
				base->v[i].name);
	for (uint32_t i = 0; i < base->nr; i++)
		if (!msummary_variant(cur, base->v[i].name)) {
			fputc('\n', f);
			break;
		}
	if (rows->len != n[VERDICT_SAME] || o->all) {
		fputc('\n', f);
		print_rows(f, rows, "base", "new", o);
	}
	if (junit)
		junit_write(junit, rows, cur->scenario, regressions);
	g_array_free(rows, TRUE);
	return regressions;
}
