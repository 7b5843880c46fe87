/* plot_layout.c - the layout picture: members on 64-byte lines, shaded by HITMs; see plot.h. */
#include "report/plot.h"

#include <string.h>

#define LAYOUT_PAIRS_AROUND 3 /* pairs shown before and after the hottest line's pair */
#define LAYOUT_PANELS 4       /* variants side by side */
#define PAIR_GAP 0.35         /* vertical space between two 128-byte pairs, in lines */

/* One member of the object: its byte range and its HITMs. */
struct lmem {
	const char *name;
	uint64_t off, size, hitm;
};

/* Bytes drawn per accessed offset of an object without a layout (a plain region): the
 * results do not record access sizes, and 8 is the common one. */
#define REGION_ACCESS_BYTES 8

/* Add @hitm at byte @at to the member holding it; without a layout (@synth), make an
 * REGION_ACCESS_BYTES block "+0xOFF" for every accessed offset. */
static void add_hitm(GArray *ms, uint64_t at, uint64_t hitm, bool synth, GPtrArray *names)
{
	for (guint i = 0; i < ms->len; i++) {
		struct lmem *m = &g_array_index(ms, struct lmem, i);

		if (at >= m->off && at < m->off + m->size) {
			m->hitm += hitm;
			return;
		}
	}
	if (synth) {
		char *name = g_strdup_printf("+0x%" G_GINT64_MODIFIER "x", at);
		struct lmem m = {name, at, REGION_ACCESS_BYTES, hitm};

		g_ptr_array_add(names, name);
		g_array_append_val(ms, m);
	}
}

/* The members of @object (at @base) in @variant, from layout.csv, with the HITMs of
 * offsets.csv; the names of made-up members go to @names (owned). */
static GArray *object_members(const struct presults *pr, const char *variant,
			      const char *object, uint64_t base, GPtrArray *names)
{
	const struct csv *c = pr->layout, *o = pr->offsets;
	int cv = csv_col(c, "variant"), co = csv_col(c, "object");
	int coff = csv_col(c, "offset"), csz = csv_col(c, "size"), cm = csv_col(c, "member");
	int ov = csv_col(o, "variant"), oo = csv_col(o, "object"), oa = csv_col(o, "address");
	int ooff = csv_col(o, "offset"), hl = csv_col(o, "hitm_local");
	int hr = csv_col(o, "hitm_remote");
	GArray *ms = g_array_new(FALSE, FALSE, sizeof(struct lmem));
	bool synth;

	for (uint32_t r = 0; c && r < c->nrow; r++) {
		struct lmem m = {csv_get(c, r, cm), csv_u64(c, r, coff), csv_u64(c, r, csz), 0};

		if (!strcmp(csv_get(c, r, cv), variant) && !strcmp(csv_get(c, r, co), object))
			g_array_append_val(ms, m);
	}
	synth = !ms->len;
	for (uint32_t r = 0; r < o->nrow; r++) {
		uint64_t at = csv_u64(o, r, oa) + csv_u64(o, r, ooff);

		if (!strcmp(csv_get(o, r, ov), variant) && !strcmp(csv_get(o, r, oo), object) &&
		    at >= base)
			add_hitm(ms, at - base, csv_u64(o, r, hl) + csv_u64(o, r, hr), synth, names);
	}
	return ms;
}

/* The picture's y of 64-byte line @line: lines top down, a gap after every pair. */
static double line_y(int64_t line)
{
	return (double)line + (double)(line / PLOT_PAIR_LINES) * PAIR_GAP;
}

/* A member's name cut to what fits in @bytes of a 64-byte-wide row (a little under one
 * character per byte at the picture's size); NULL when not even three characters fit. */
static char *fit_name(const char *name, uint64_t bytes)
{
	size_t room = (size_t)(bytes * 9 / 10);
	const char *dot = strrchr(name, '.');
	const char *s = dot && strlen(name) > room ? dot + 1 : name;

	if (room < 3)
		return NULL;
	return strlen(s) <= room ? g_strdup(s) : g_strdup_printf("%.*s~", (int)room - 1, s);
}

/* Data rows (x y x0 x1 y0 y1 hitm) and labels of member @m on lines [@lo, @hi). */
static void member_boxes(GString *data, GString *body, const struct lmem *m, int64_t lo,
			 int64_t hi)
{
	for (int64_t line = lo; line < hi; line++) {
		uint64_t ls = (uint64_t)line * PLOT_LINE_BYTES, le = ls + PLOT_LINE_BYTES;
		uint64_t a = m->off > ls ? m->off : ls, b = m->off + m->size < le ? m->off + m->size
										   : le;
		g_autofree char *fit = NULL;
		double y = line_y(line);

		if (a >= b)
			continue;
		g_string_append_printf(data, "%.1f %.2f %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
				       " %.2f %.2f %" G_GUINT64_FORMAT "\n", (a + b - ls * 2) / 2.0,
				       y, a - ls, b - ls, y - 0.45, y + 0.45, m->hitm);
		if (!(fit = fit_name(m->name, b - a)))
			continue;
		g_string_append(body, "set label ");
		gp_quote(body, fit);
		g_string_append_printf(body, " at first %.1f, first %.2f center font ',7' front\n",
				       (a + b - ls * 2) / 2.0, y);
	}
}

/* One panel: the object of variant @v's hottest line, pairs around it. */
static void layout_panel(GString *data, GString *body, const struct presults *pr,
			 uint32_t vi, int idx, bool last)
{
	const struct pr_variant *v = &pr->v[vi];
	const struct pr_line *hot = &v->lines[0];
	uint64_t end = 0, base = hot->addr - (uint64_t)hot->line * PLOT_LINE_BYTES;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GArray *ms = object_members(pr, v->name, hot->object, base, names);
	int64_t pair = hot->line / PLOT_PAIR_LINES, lo, hi;
	g_autofree char *title = strcmp(hot->type, "-")
		? g_strdup_printf("%s: %s (struct %s)", v->name, hot->object, hot->type)
		: g_strdup_printf("%s: %s (no layout: accessed offsets)", v->name, hot->object);

	for (guint i = 0; i < ms->len; i++) {
		const struct lmem *m = &g_array_index(ms, struct lmem, i);

		end = m->off + m->size > end ? m->off + m->size : end;
	}
	lo = (pair > LAYOUT_PAIRS_AROUND ? pair - LAYOUT_PAIRS_AROUND : 0) * PLOT_PAIR_LINES;
	hi = (int64_t)((end + PLOT_LINE_BYTES - 1) / PLOT_LINE_BYTES);
	hi = hi < (pair + LAYOUT_PAIRS_AROUND + 1) * PLOT_PAIR_LINES ? hi
		: (pair + LAYOUT_PAIRS_AROUND + 1) * PLOT_PAIR_LINES;
	hi = hi > lo ? hi : lo + 1;
	g_string_append_printf(data, "%s# x y byte_from byte_to y_from y_to hitm\n",
			       idx ? "\n\n" : "");
	g_string_append_printf(body, "unset label\nunset object\n%s\nset title ",
			       last ? "set colorbox" : "unset colorbox");
	gp_quote(body, title);
	g_string_append_printf(body, "\nset yrange [%.2f:%.2f]\nset ytics (", line_y(hi - 1) + 0.7,
			       line_y(lo) - 0.7);
	for (int64_t line = lo; line < hi; line++)
		g_string_append_printf(body, "%s'line %" G_GINT64_FORMAT " +0x%" G_GINT64_MODIFIER
				       "x' %.2f", line > lo ? ", " : "", line,
				       line * PLOT_LINE_BYTES, line_y(line));
	g_string_append(body, ")\n");
	for (guint i = 0; i < ms->len; i++)
		member_boxes(data, body, &g_array_index(ms, struct lmem, i), lo, hi);
	for (int64_t line = lo - lo % PLOT_PAIR_LINES; line < hi; line += PLOT_PAIR_LINES)
		g_string_append_printf(body, "set object rect from first -0.5, first %.2f to first "
				       "%d.5, first %.2f fs empty border lc rgb '#222222' lw 2.5 "
				       "front\n", line_y(line) - 0.55, PLOT_LINE_BYTES,
				       line_y(line + 1) + 0.55);
	for (int64_t line = lo; line < hi; line++) {
		const struct pr_l64 *e = pr_find_l64(pr, vi, hot->object, line);

		g_string_append_printf(body, "set label '%" G_GUINT64_FORMAT " HITM' at first %d.5, "
				       "first %.2f left font ',8'\n",
				       e ? e->hitm_lcl + e->hitm_rmt + e->hitm_pf : 0,
				       PLOT_LINE_BYTES + 1, line_y(line));
	}
	g_string_append_printf(body, "plot dat index %d using 1:2:3:4:5:6:7 with boxxyerror fs "
			       "solid 1.0 noborder lc palette notitle, dat index %d using "
			       "1:2:3:4:5:6 with boxxyerror fs empty lc rgb '#555555' notitle\n",
			       idx, idx);
	if (!ms->len)
		g_string_append(data, "NaN NaN NaN NaN NaN NaN NaN\n");
	g_array_free(ms, TRUE);
	g_ptr_array_free(names, TRUE);
}

/* A variant gets a panel when its hottest line lies in an object. */
static bool has_panel(const struct pr_variant *v)
{
	return v->nr_lines && v->lines[0].line >= 0;
}

bool plot_layout(struct plot_set *ps, const struct presults *pr, struct c2c_err *err)
{
	GString *data = g_string_new(NULL), *body = g_string_new(NULL);
	uint64_t max = 1;
	int n = 0;
	bool ok;

	/* One scale for every panel (a member has at most its line's HITMs). */
	for (uint32_t v = 0; v < pr->nr; v++)
		if (pr->v[v].nr_lines && pr->v[v].lines[0].hitm_lcl + pr->v[v].lines[0].hitm_rmt > max)
			max = pr->v[v].lines[0].hitm_lcl + pr->v[v].lines[0].hitm_rmt;
	for (uint32_t v = 0; v < pr->nr && n < LAYOUT_PANELS; v++)
		n += has_panel(&pr->v[v]);
	g_string_append(body, "set multiplot layout 1,");
	g_string_append_printf(body, "%d title 'Struct layout: members on 64-byte lines, "
			       "128-byte pairs framed, shaded by HITMs'\n"
			       "set xrange [-1:%d]\nset xtics 0,8,%d font ',8'\nset xlabel 'byte "
			       "in the line'\nset palette defined (0 '#ffffff', 1 '#f5b7b1', 2 "
			       "'#e74c3c', 3 '#7b241c')\nset cbrange [0:%" G_GUINT64_FORMAT "]\n"
			       "set cblabel 'HITMs of the member'\nset ytics font ',8'\n",
			       n ? n : 1, PLOT_LINE_BYTES + 14, PLOT_LINE_BYTES, max);
	for (uint32_t v = 0, k = 0; v < pr->nr && k < (uint32_t)n; v++)
		if (has_panel(&pr->v[v])) {
			layout_panel(data, body, pr, v, (int)k, k + 1 == (uint32_t)n);
			k++;
		}
	if (!n)
		g_string_append(body, "set label 'no shared lines' at graph 0.5,0.5 center\n"
				"plot NaN notitle\n");
	g_string_append(body, "unset multiplot\n");
	ok = plot_add(ps, "layout", 660 * (n ? n : 1), 640, body, n ? data : NULL, err);
	g_string_free(data, TRUE);
	g_string_free(body, TRUE);
	return ok;
}
