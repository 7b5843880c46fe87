/* plot_sweep.c - sweep curves from sweep.csv; see plot.h and sweep.h (the columns). */
#include "report/plot.h"

#include <math.h>
#include <string.h>

/* Panels before the headline metrics: column, title, scale to the unit shown. */
static const struct {
	const char *col, *title;
	double scale;
} fixed_panels[] = {
	{"ops_per_sec", "throughput (actor-loop iterations per simulated second)", 1},
	{"lock_wait_total_ps", "lock wait, all locks (us of contended waiting)", 1e-6},
	{"hitm_local", "local HITMs", 1},
	{"hitm_remote", "remote HITMs", 1},
};

/* A numeric field, NAN when empty or not a number. */
static double field_num(const struct csv *c, uint32_t r, int col)
{
	const char *s = csv_get(c, r, col);
	char *end;
	double v = g_ascii_strtod(s, &end);

	return *s && !*end ? v : NAN;
}

/* The x of each row: the first axis as a number when every value is one; else the thread
 * count when it varies; else the position of the value among the axis's distinct values. */
static const char *x_values(const struct csv *c, int ax, double *x, GString *tics)
{
	int ct = csv_col(c, "threads");
	GPtrArray *seen = g_ptr_array_new();
	bool numeric = ax >= 0, threads = false;

	for (uint32_t r = 0; r < c->nrow; r++) {
		numeric = numeric && !isnan(field_num(c, r, ax));
		threads = threads || (ct >= 0 && csv_u64(c, r, ct) != csv_u64(c, 0, ct));
	}
	threads = threads && !numeric;
	for (uint32_t r = 0; r < c->nrow; r++) {
		guint k = 0;

		if (numeric || threads) {
			x[r] = numeric ? field_num(c, r, ax) : (double)csv_u64(c, r, ct);
			continue;
		}
		while (k < seen->len && strcmp(seen->pdata[k], csv_get(c, r, ax)))
			k++;
		if (k == seen->len) {
			g_ptr_array_add(seen, (char *)csv_get(c, r, ax));
			g_string_append(tics, k ? ", " : "");
			gp_quote(tics, csv_get(c, r, ax));
			g_string_append_printf(tics, " %u", k);
		}
		x[r] = k;
	}
	g_ptr_array_free(seen, TRUE);
	return ax < 0 ? "point" : numeric ? c->head[ax] : threads ? "threads" : c->head[ax];
}

/* The curve of row @r: the variant and every axis but the first, as "before, k=v". */
static char *series_of(const struct csv *c, uint32_t r, int first_ax, int cvar)
{
	GString *s = g_string_new(csv_get(c, r, cvar));

	for (int j = first_ax + 1; j > 0 && j < cvar; j++)
		g_string_append_printf(s, ", %s=%s", c->head[j], csv_get(c, r, j));
	return g_string_free(s, FALSE);
}

/* One panel of column @col: a data block per series, rows in x order of the file. */
static void sweep_panel(GString *data, GString *body, const struct csv *c, int col,
			const char *title, double scale, const double *x, GPtrArray *series,
			const char *const *row_series, int *block)
{
	GString *plot = g_string_new(NULL);

	g_string_append(body, "set title ");
	gp_quote(body, title);
	g_string_append(body, "\n");
	for (guint s = 0; s < series->len; s++) {
		g_string_append_printf(data, "# %s\n", c->head[col]);
		for (uint32_t r = 0; r < c->nrow; r++)
			if (!strcmp(row_series[r], series->pdata[s]))
				g_string_append_printf(data, "%.6g %.6g\n", x[r],
						       field_num(c, r, col) * scale);
		g_string_append(data, "\n\n");
		g_string_append_printf(plot, "%s dat index %d using 1:2 with linespoints pt 7 "
				       "title ", s ? ", \\\n    " : "plot", (*block)++);
		gp_quote(plot, series->pdata[s]);
	}
	g_string_append_printf(body, "%s\n", plot->str);
	g_string_free(plot, TRUE);
}

bool plot_sweep(struct plot_set *ps, const struct csv *c, const char *scenario,
		struct c2c_err *err)
{
	int cpoint = csv_col(c, "point"), cvar = csv_col(c, "variant");
	int ccomplete = csv_col(c, "complete"), ax = cvar > cpoint + 1 ? cpoint + 1 : -1;
	double *x = g_new0(double, c->nrow + 1);
	const char **row_series = g_new0(const char *, c->nrow + 1);
	GPtrArray *series = g_ptr_array_new_with_free_func(g_free);
	GString *data = g_string_new(NULL), *body = g_string_new(NULL), *tics = g_string_new(NULL);
	const char *xlabel = x_values(c, ax, x, tics);
	int panels = 0, block = 0;
	bool ok;

	for (uint32_t r = 0; r < c->nrow; r++) {
		char *s = series_of(c, r, ax, cvar);
		guint k = 0;

		while (k < series->len && strcmp(series->pdata[k], s))
			k++;
		if (k == series->len)
			g_ptr_array_add(series, s);
		else
			g_free(s);
		row_series[r] = series->pdata[k];
	}
	for (size_t i = 0; i < G_N_ELEMENTS(fixed_panels); i++)
		panels += csv_col(c, fixed_panels[i].col) >= 0;
	panels += ccomplete >= 0 ? (int)c->ncol - ccomplete - 1 : 0;
	g_autofree char *title = g_strconcat("Sweep", scenario ? " of " : "", scenario, NULL);

	g_string_append_printf(body, "set multiplot layout %d,2 title ", (panels + 1) / 2);
	gp_quote(body, title);
	g_string_append(body, "\nset grid\nset key top left font ',8'\nset yrange [0:*]\n"
			"set xlabel ");
	gp_quote(body, xlabel);
	g_string_append_printf(body, "\n%s%s%s", tics->len ? "set xtics (" : "", tics->str,
			       tics->len ? ")\n" : "");
	for (size_t i = 0; i < G_N_ELEMENTS(fixed_panels); i++)
		if (csv_col(c, fixed_panels[i].col) >= 0)
			sweep_panel(data, body, c, csv_col(c, fixed_panels[i].col),
				    fixed_panels[i].title, fixed_panels[i].scale, x, series,
				    row_series, &block);
	for (int j = ccomplete + 1; ccomplete >= 0 && j < (int)c->ncol; j++)
		sweep_panel(data, body, c, j, c->head[j], 1, x, series, row_series, &block);
	g_string_append(body, "unset multiplot\n");
	ok = plot_add(ps, "sweep", 1100, 60 + 300 * ((panels + 1) / 2), body, data, err);
	g_ptr_array_free(series, TRUE);
	g_free(row_series);
	g_free(x);
	g_string_free(data, TRUE);
	g_string_free(body, TRUE);
	g_string_free(tics, TRUE);
	return ok;
}
