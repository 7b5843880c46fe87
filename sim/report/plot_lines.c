/* plot_lines.c - the per-line HITM bars and the per-member Pareto; see plot.h. */
#include "report/plot.h"

#include <string.h>

#define HOT_PAIRS 6             /* pairs drawn, hottest first */
#define LABEL_MEMBERS 3         /* member names in a line's label */
#define PARETO_MEMBERS 12       /* members drawn per variant, most HITMs first */
#define PLOT_VARIANTS 4         /* panels of one picture */

/* A 128-byte pair of one object: the unit the bars are grouped by. */
struct hpair {
	const char *object, *type;
	int64_t pair;     /* line / 2 */
	uint64_t weight;  /* most HITMs one variant saw on the pair */
};

static uint64_t l64_hitm(const struct pr_l64 *e)
{
	return e ? e->hitm_lcl + e->hitm_rmt + e->hitm_pf : 0;
}

static int hpair_cmp(const void *pa, const void *pb)
{
	const struct hpair *a = pa, *b = pb;
	int c = strcmp(a->object, b->object);

	if (a->weight != b->weight)
		return a->weight < b->weight ? 1 : -1;
	return c ? c : (a->pair > b->pair) - (a->pair < b->pair);
}

static void add_pair(GArray *pairs, const struct presults *pr, const char *object,
		     const char *type, int64_t line)
{
	struct hpair p = {object, type, line / PLOT_PAIR_LINES, 0};

	for (guint i = 0; i < pairs->len; i++) {
		const struct hpair *q = &g_array_index(pairs, struct hpair, i);

		if (q->pair == p.pair && !strcmp(q->object, p.object))
			return;
	}
	for (uint32_t v = 0; v < pr->nr; v++) {
		uint64_t w = 0;

		for (int k = 0; k < PLOT_PAIR_LINES; k++)
			w += l64_hitm(pr_find_l64(pr, v, object, p.pair * PLOT_PAIR_LINES + k));
		p.weight = w > p.weight ? w : p.weight;
	}
	g_array_append_val(pairs, p);
}

/* The pairs holding lines with HITMs, most HITMs (in one variant) first; with no HITM at
 * all, the pair of each variant's first summary line. */
static GArray *hot_pairs(const struct presults *pr)
{
	GArray *pairs = g_array_new(FALSE, FALSE, sizeof(struct hpair));

	for (guint i = 0; i < pr->l64->len; i++) {
		const struct pr_l64 *e = &g_array_index(pr->l64, struct pr_l64, i);

		if (l64_hitm(e))
			add_pair(pairs, pr, e->object, e->type, e->line);
	}
	for (uint32_t v = 0; !pairs->len && v < pr->nr; v++)
		if (pr->v[v].nr_lines && pr->v[v].lines[0].line >= 0)
			add_pair(pairs, pr, pr->v[v].lines[0].object, pr->v[v].lines[0].type,
				 pr->v[v].lines[0].line);
	g_array_sort(pairs, hpair_cmp);
	if (pairs->len > HOT_PAIRS)
		g_array_set_size(pairs, HOT_PAIRS);
	return pairs;
}

/* `struct line N (members...)`, the members of the first variant whose layout.csv has them. */
static char *line_label(const struct presults *pr, const struct hpair *p, int64_t line)
{
	g_autofree char *m = NULL;

	for (uint32_t v = 0; v < pr->nr && (!m || !*m); v++) {
		g_free(m);
		m = pr_line_members(pr, pr->v[v].name, p->object, line, LABEL_MEMBERS);
	}
	/* A plain region has no struct: its object names it. */
	return g_strdup_printf("%s line %" G_GINT64_FORMAT "%s%s%s",
			       strcmp(p->type, "-") ? p->type : p->object, line,
			       m && *m ? " (" : "", m ? m : "", m && *m ? ")" : "");
}

/* One line's bars: a row per variant in each of the three data blocks. */
static void line_bars(GString *blk[3], GString *gp, const struct presults *pr,
		      const char *object, int64_t line, double y, uint64_t *max)
{
	for (uint32_t v = 0; v < pr->nr; v++, y += 1) {
		const struct pr_l64 *e = pr_find_l64(pr, v, object, line);
		uint64_t part[3] = {e ? e->hitm_lcl : 0, e ? e->hitm_rmt : 0, e ? e->hitm_pf : 0};
		uint64_t x = 0;
		g_autofree char *txt = NULL;

		for (int k = 0; k < 3; k++) {
			g_string_append_printf(blk[k], "%.1f %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
					       "\n", y, x, x + part[k]);
			x += part[k];
		}
		*max = x > *max ? x : *max;
		txt = g_strdup_printf("%s %" G_GUINT64_FORMAT, pr->v[v].name, x);
		g_string_append(gp, "set label ");
		gp_quote(gp, txt);
		g_string_append_printf(gp, " at first %" G_GUINT64_FORMAT ", first %.1f offset "
				       "char 0.5,0 font ',8'\n", x, y);
	}
}

/* One pair: a shaded band with its name, then its two lines.  Return: the next free y. */
static double pair_bars(GString *blk[3], GString *gp, GString *tics, const struct presults *pr,
			const struct hpair *p, double y, uint64_t *max, int obj)
{
	double y0 = y;
	g_autofree char *name = g_strdup_printf("%s, 128-byte pair %" G_GINT64_FORMAT
						" (lines %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT ")",
						p->object, p->pair, p->pair * 2, p->pair * 2 + 1);

	for (int k = 0; k < PLOT_PAIR_LINES; k++) {
		int64_t line = p->pair * PLOT_PAIR_LINES + k;
		g_autofree char *label = line_label(pr, p, line);

		line_bars(blk, gp, pr, p->object, line, y, max);
		g_string_append_printf(tics, "%s", tics->len ? ", " : "");
		gp_quote(tics, label);
		g_string_append_printf(tics, " %.1f", y + (pr->nr - 1) / 2.0);
		y += pr->nr + 0.5;
	}
	g_string_append_printf(gp, "set object %d rect from graph 0, first %.1f to graph 1, "
			       "first %.1f behind fc rgb '#e8e8f0' fs solid noborder\n", obj,
			       y0 - 1.3, y - 1.0);
	g_string_append(gp, "set label ");
	gp_quote(gp, name);
	g_string_append_printf(gp, " at graph 0.99, first %.1f right font ',8' tc rgb '#555577'\n",
			       y0 - 0.85);
	return y + 1.0;
}

bool plot_hitm_lines(struct plot_set *ps, const struct presults *pr, struct c2c_err *err)
{
	GArray *pairs = hot_pairs(pr);
	GString *blk[3] = {g_string_new("# y x_from x_to: local HITMs\n"),
			   g_string_new("\n\n# remote HITMs\n"), g_string_new("\n\n# prefetch HITMs\n")};
	GString *gp = g_string_new(NULL), *tics = g_string_new(NULL), *body = g_string_new(NULL);
	uint64_t max = 0;
	double y = 1.0;
	bool ok;

	for (guint i = 0; i < pairs->len; i++)
		y = pair_bars(blk, gp, tics, pr, &g_array_index(pairs, struct hpair, i), y, &max,
			      (int)i + 1);
	g_string_append(body, "set title 'HITMs per cache line (hottest 128-byte pairs; bars: "
			"variants)'\nset xlabel 'HITMs'\nset style fill solid 0.9 border -1\n"
			"set grid xtics\nset key outside bottom left horizontal\nset bmargin 5\n");
	g_string_append_printf(body, "set yrange [%.1f:-0.6]\nset xrange [0:%" G_GUINT64_FORMAT
			       "]\nset ytics scale 0 font ',9' (%s)\n", y - 1.5, max + max / 4 + 1,
			       tics->str);
	g_string_append(body, gp->str);
	g_string_append(body, "plot dat index 0 using (($2+$3)/2):1:2:3:($1-0.4):($1+0.4) with "
			"boxxyerror lc rgb '#c0392b' title 'local HITM', \\\n"
			"     dat index 1 using (($2+$3)/2):1:2:3:($1-0.4):($1+0.4) with boxxyerror "
			"lc rgb '#5b2c6f' title 'remote HITM', \\\n"
			"     dat index 2 using (($2+$3)/2):1:2:3:($1-0.4):($1+0.4) with boxxyerror "
			"lc rgb '#f39c12' title 'prefetch HITM'\n");
	g_string_append(blk[0], blk[1]->str);
	g_string_append(blk[0], blk[2]->str);
	ok = plot_add(ps, "hitm_lines", 1300, 160 + (int)(y * 16), body, blk[0], err);
	for (int k = 0; k < 3; k++)
		g_string_free(blk[k], TRUE);
	g_string_free(gp, TRUE);
	g_string_free(tics, TRUE);
	g_string_free(body, TRUE);
	g_array_free(pairs, TRUE);
	return ok;
}

/* ------------------------------------------------------------------ Pareto */

struct pmember {
	const char *name;
	uint64_t hitm, st_miss;
};

static int pmember_cmp(const void *pa, const void *pb)
{
	const struct pmember *a = pa, *b = pb;

	if (a->hitm != b->hitm)
		return a->hitm < b->hitm ? 1 : -1;
	if (a->st_miss != b->st_miss)
		return a->st_miss < b->st_miss ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* HITMs and store misses per member of line @l of variant @v, most HITMs first; @span gets
 * the bytes the rows reach (past 64 when the run's coherence unit was the 128-byte pair). */
static GArray *line_members(const struct presults *pr, const char *v, const struct pr_line *l,
			    uint64_t *span)
{
	const struct csv *c = pr->offsets;
	int cv = csv_col(c, "variant"), ca = csv_col(c, "address"), co = csv_col(c, "offset");
	int cm = csv_col(c, "member"), cobj = csv_col(c, "object");
	int hl = csv_col(c, "hitm_local"), hr = csv_col(c, "hitm_remote");
	int sm = csv_col(c, "store_l1_miss");
	GArray *ms = g_array_new(FALSE, FALSE, sizeof(struct pmember));

	for (uint32_t r = 0; r < c->nrow; r++) {
		uint64_t addr = csv_u64(c, r, ca) + csv_u64(c, r, co);
		const char *name;
		struct pmember *m = NULL;

		if (strcmp(csv_get(c, r, cv), v) || csv_u64(c, r, ca) != l->addr)
			continue;
		*span = csv_u64(c, r, co) + 1 > *span ? csv_u64(c, r, co) + 1 : *span;
		name = pr_member_at(pr, v, csv_get(c, r, cobj), addr);
		name = name ? name : csv_get(c, r, cm);
		for (guint i = 0; i < ms->len && !m; i++)
			if (!strcmp(g_array_index(ms, struct pmember, i).name, name))
				m = &g_array_index(ms, struct pmember, i);
		if (!m) {
			g_array_append_val(ms, ((struct pmember){name, 0, 0}));
			m = &g_array_index(ms, struct pmember, ms->len - 1);
		}
		m->hitm += csv_u64(c, r, hl) + csv_u64(c, r, hr);
		m->st_miss += csv_u64(c, r, sm);
	}
	g_array_sort(ms, pmember_cmp);
	if (ms->len > PARETO_MEMBERS)
		g_array_set_size(ms, PARETO_MEMBERS);
	return ms;
}

/* One panel: data block @idx and the script lines that draw it. */
static void pareto_panel(GString *data, GString *body, const struct presults *pr,
			 const struct pr_variant *v, int idx)
{
	const struct pr_line *l = &v->lines[0];
	uint64_t total = 0, cum = 0, span = 0;
	GArray *ms = line_members(pr, v->name, l, &span);
	g_autofree char *title = span > PLOT_LINE_BYTES
		? g_strdup_printf("%s: %s lines %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " (%s; one "
				  "128-byte coherence unit)", v->name, l->type, l->line,
				  l->line + 1, l->object)
		: g_strdup_printf("%s: %s line %" G_GINT64_FORMAT " (%s)", v->name, l->type, l->line,
				  l->object);

	for (guint i = 0; i < ms->len; i++)
		total += g_array_index(ms, struct pmember, i).hitm;
	g_string_append_printf(data, "%s# member_index hitm store_l1_miss cumulative_hitm_pct\n",
			       idx ? "\n\n" : "");
	g_string_append(body, "set title ");
	gp_quote(body, title);
	g_string_append(body, "\nset xtics rotate by -30 left font ',8' (");
	for (guint i = 0; i < ms->len; i++) {
		const struct pmember *m = &g_array_index(ms, struct pmember, i);

		cum += m->hitm;
		g_string_append_printf(data, "%u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %.1f\n",
				       i, m->hitm, m->st_miss, total ? 100.0 * cum / total : 0.0);
		g_string_append(body, i ? ", " : "");
		gp_quote(body, m->name);
		g_string_append_printf(body, " %u", i);
	}
	if (!ms->len)
		g_string_append(data, "0 0 0 0\n");
	g_string_append_printf(body, ")\nset xrange [-0.6:%u.6]\nplot dat index %d using ($1-0.2):2 "
			       "with boxes lc rgb '#c0392b' title 'HITMs', dat index %d using "
			       "($1+0.2):3 with boxes lc rgb '#2874a6' title 'store L1 misses', dat "
			       "index %d using 1:4 axes x1y2 with linespoints pt 7 lc rgb '#333333' "
			       "title 'cumulative HITM %%'\n", ms->len ? ms->len - 1 : 0, idx, idx,
			       idx);
	g_array_free(ms, TRUE);
}

bool plot_pareto(struct plot_set *ps, const struct presults *pr, struct c2c_err *err)
{
	GString *data = g_string_new(NULL), *body = g_string_new(NULL);
	int n = 0;
	bool ok;

	for (uint32_t v = 0; v < pr->nr && n < PLOT_VARIANTS; v++)
		n += pr->v[v].nr_lines > 0;
	g_string_append_printf(body, "set multiplot layout %d,1 title 'Pareto of the hottest "
			       "line of each variant'\nset style fill solid 0.9 border -1\n"
			       "set boxwidth 0.4\nset ylabel 'events'\nset y2label 'cumulative "
			       "HITMs (%%)'\nset y2range [0:105]\nset y2tics 25\nset ytics nomirror\n"
			       "set yrange [0:*]\nset grid ytics\nset key outside right top "
			       "vertical font ',8'\nset bmargin 7\n", n ? n : 1);
	n = 0;
	for (uint32_t v = 0; v < pr->nr && n < PLOT_VARIANTS; v++)
		if (pr->v[v].nr_lines)
			pareto_panel(data, body, pr, &pr->v[v], n++);
	if (!n)
		g_string_append(body, "set label 'no shared lines' at graph 0.5,0.5 center\n"
				"plot NaN notitle\n");
	g_string_append(body, "unset multiplot\n");
	ok = plot_add(ps, "pareto", 1100, 120 + 340 * (n ? n : 1), body, n ? data : NULL, err);
	g_string_free(data, TRUE);
	g_string_free(body, TRUE);
	return ok;
}
