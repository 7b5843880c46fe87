/* plot_locks.c - lock wait and hold distributions per lock and variant; see plot.h. */
#include "report/plot.h"

#include <string.h>

#define PLOT_LOCKS 4 /* locks drawn, in first-use order */

static const char *const kinds[] = {"wait", "hold"};

/* The distinct lock names of locks_hist.csv in first-appearance order, at most PLOT_LOCKS. */
static GPtrArray *lock_names(const struct csv *c)
{
	GPtrArray *names = g_ptr_array_new();
	int cl = csv_col(c, "lock");

	for (uint32_t r = 0; r < c->nrow && names->len < PLOT_LOCKS; r++) {
		const char *name = csv_get(c, r, cl);
		bool seen = false;

		for (guint i = 0; i < names->len && !seen; i++)
			seen = !strcmp(names->pdata[i], name);
		if (!seen)
			g_ptr_array_add(names, (char *)name);
	}
	return names;
}

/* Data block of (@lock, @kind, @variant): bucket bounds in ns and the share of samples.
 * Return: false when the variant has no samples there (no block written). */
static bool dist_block(GString *data, const struct csv *c, const char *lock, const char *kind,
		       const char *variant)
{
	int cv = csv_col(c, "variant"), cl = csv_col(c, "lock"), ck = csv_col(c, "kind");
	int clo = csv_col(c, "lo_ps"), chi = csv_col(c, "hi_ps"), cn = csv_col(c, "count");
	uint64_t total = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t r = 0; r < c->nrow; r++) {
			double lo = (double)csv_u64(c, r, clo) / 1000, hi = (double)csv_u64(c, r, chi)
									    / 1000;

			if (strcmp(csv_get(c, r, cv), variant) || strcmp(csv_get(c, r, cl), lock) ||
			    strcmp(csv_get(c, r, ck), kind))
				continue;
			if (!pass) {
				total += csv_u64(c, r, cn);
				continue;
			}
			/* [0, 1 ps) has no left edge on a log axis: draw it from half its top. */
			g_string_append_printf(data, "%.4f %.4f %.3f\n", lo > 0 ? lo : hi / 2, hi,
					       100.0 * (double)csv_u64(c, r, cn) / (double)total);
		}
		if (!total)
			return false;
		if (!pass)
			g_string_append_printf(data, "# %s %s: lo_ns hi_ns percent_of_samples\n",
					       kind, variant);
	}
	g_string_append(data, "\n\n");
	return true;
}

static const char *const colours[] = {"#c0392b", "#2874a6", "#27ae60", "#8e44ad", "#d35400",
				      "#566573"};

/* The panel of (@lock, @kind): one translucent histogram per variant. */
static void dist_panel(GString *data, GString *body, const struct presults *pr,
		       const char *lock, const char *kind, int *block)
{
	g_autofree char *title = g_strdup_printf("%s: %s time", lock, kind);
	GString *plot = g_string_new(NULL);

	g_string_append(body, "set title ");
	gp_quote(body, title);
	g_string_append(body, "\n");
	for (uint32_t v = 0; v < pr->nr; v++) {
		if (!dist_block(data, pr->locks, lock, kind, pr->v[v].name))
			continue;
		g_string_append_printf(plot, "%s dat index %d using (sqrt($1*$2)):($3/2):1:2:(0):3 "
				       "with boxxyerror lc rgb '%s' fs transparent solid 0.35 border "
				       "title ", plot->len ? ", \\\n    " : "plot", (*block)++,
				       colours[v % G_N_ELEMENTS(colours)]);
		gp_quote(plot, pr->v[v].name);
	}
	if (!plot->len)
		g_string_append(plot, "set label 1 'no contended acquisitions' at graph 0.5,0.5 "
				"center\nplot NaN notitle\nunset label 1");
	g_string_append_printf(body, "%s\n", plot->str);
	g_string_free(plot, TRUE);
}

bool plot_locks(struct plot_set *ps, const struct presults *pr, struct c2c_err *err)
{
	GPtrArray *names;
	GString *data, *body;
	int block = 0;
	bool ok;

	if (!pr->locks || !pr->locks->nrow)
		return true; /* no lock was taken: nothing to draw */
	names = lock_names(pr->locks);
	data = g_string_new(NULL);
	body = g_string_new(NULL);
	g_string_append_printf(body, "set multiplot layout %u,2 title 'Lock wait (contended "
			       "acquisitions) and hold times'\nset logscale x\nset format x "
			       "'%%.0s%%c'\nset xlabel 'ns (log scale)'\nset ylabel '%% of "
			       "samples'\nset yrange [0:*]\nset grid\nset key top right font ',8'\n",
			       names->len);
	for (guint i = 0; i < names->len; i++)
		for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++)
			dist_panel(data, body, pr, names->pdata[i], kinds[k], &block);
	g_string_append(body, "unset multiplot\n");
	ok = plot_add(ps, "locks", 1100, 60 + 330 * (int)names->len, body, data, err);
	g_ptr_array_free(names, TRUE);
	g_string_free(data, TRUE);
	g_string_free(body, TRUE);
	return ok;
}
