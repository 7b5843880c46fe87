/* plot.c - `c2csim plot`: options, the script frame, running gnuplot; see plot.h. */
#include "report/plot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "yaml/ytree.h"

void gp_quote(GString *s, const char *text)
{
	g_string_append_c(s, '\'');
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '\'')
			g_string_append(s, "''");   /* the only escape of a single-quoted string */
		else if (*p == '\n')
			g_string_append(s, "\\n");  /* literal backslash-n: single quotes keep it */
		else if (*p == '\t')
			g_string_append(s, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			g_string_append_printf(s, "\\x%02x", *p);
		else
			g_string_append_c(s, (char)*p);
	}
	g_string_append_c(s, '\'');
}

/* Write @text to @dir/@name.  Return: false with @err set. */
static bool put_file(const char *dir, const char *name, const GString *text, struct c2c_err *err)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) gerr = NULL;

	if (g_file_set_contents(path, text ? text->str : "", text ? (gssize)text->len : 0, &gerr))
		return true;
	err_setf(err, "c2csim plot: %s", gerr->message);
	return false;
}

static const struct {
	unsigned bit;
	const char *ext, *terminal;
} plot_formats[] = {
	{PLOT_PNG, "png", "pngcairo size %d,%d noenhanced font 'sans,10'"},
	{PLOT_SVG, "svg", "svg size %d,%d noenhanced dynamic font 'sans,10' background '#ffffff'"},
};

bool plot_add(struct plot_set *ps, const char *name, int width, int height, const GString *body,
	      const GString *data, struct c2c_err *err)
{
	g_autofree char *gp = g_strconcat(name, ".gp", NULL);
	g_autofree char *dat = g_strconcat(name, ".dat", NULL);
	GString *s = g_string_new(NULL);
	bool ok;

	g_string_append_printf(s, "# %s.gp - written by c2csim plot; restyle it and run "
			       "`gnuplot %s.gp` in this directory.\n# The numbers are in %s.dat.\n"
			       "dat = '%s'\nformats = '", name, name, name, dat);
	for (size_t i = 0, n = 0; i < G_N_ELEMENTS(plot_formats); i++)
		if (ps->formats & plot_formats[i].bit)
			g_string_append_printf(s, "%s%s", n++ ? " " : "", plot_formats[i].ext);
	g_string_append(s, "'\ndo for [fmt in formats] {\nreset\n");
	for (size_t i = 0; i < G_N_ELEMENTS(plot_formats); i++) {
		g_string_append_printf(s, "if (fmt eq '%s') { set terminal ", plot_formats[i].ext);
		g_string_append_printf(s, plot_formats[i].terminal, width, height);
		g_string_append(s, " }\n");
	}
	g_string_append_printf(s, "set output '%s.'.fmt\n", name);
	g_string_append_len(s, body->str, (gssize)body->len);
	g_string_append(s, "unset output\n}\n");
	ok = (!data || put_file(ps->dir, dat, data, err)) && put_file(ps->dir, gp, s, err);
	if (ok)
		g_ptr_array_add(ps->scripts, g_steal_pointer(&gp));
	g_string_free(s, TRUE);
	return ok;
}

/* Run every script in the plot directory.  Return: false with gnuplot's first error line. */
static bool run_gnuplot(const struct plot_set *ps, const char *gnuplot, struct c2c_err *err)
{
	for (guint i = 0; i < ps->scripts->len; i++) {
		const char *argv[] = {gnuplot, ps->scripts->pdata[i], NULL};
		g_autofree char *out = NULL, *errs = NULL;
		g_autoptr(GError) gerr = NULL;
		int status = 0;

		if (!g_spawn_sync(ps->dir, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				  &errs, &status, &gerr)) {
			err_setf(err, "c2csim plot: cannot run %s: %s", gnuplot, gerr->message);
			return false;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			g_strdelimit(errs, "\n", ' ');
			err_setf(err, "c2csim plot: gnuplot failed on %s/%s: %s", ps->dir,
				 (char *)ps->scripts->pdata[i], g_strstrip(errs));
			return false;
		}
	}
	return true;
}

/* The file name of the scenario @dir's sweep.yaml sweeps, or NULL (a merge of points has
 * no sweep.yaml; a damaged one only loses the title). */
static char *swept_scenario(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "sweep.yaml", NULL);
	struct c2c_err ignored = {0};
	struct yt_node *root = g_file_test(path, G_FILE_TEST_EXISTS) ?
				       yt_load_file(path, &ignored) : NULL;
	const struct yt_node *sc = root && root->kind == YT_MAP ? yt_get(root, "scenario") : NULL;
	char *name = sc && sc->kind == YT_SCALAR ? g_path_get_basename(sc->str) : NULL;

	yt_free(root);
	return name;
}

/* The pictures of a results directory, or of a sweep when @dir has sweep.csv. */
static bool draw_all(struct plot_set *ps, const char *dir, struct c2c_err *err)
{
	g_autofree char *sweep_csv = g_build_filename(dir, "sweep.csv", NULL);
	struct presults *pr;
	bool ok;

	if (g_file_test(sweep_csv, G_FILE_TEST_EXISTS)) {
		struct csv *c = csv_load(sweep_csv, err);
		g_autofree char *scenario = swept_scenario(dir);

		ok = c && plot_sweep(ps, c, scenario, err);
		csv_free(c);
		return ok;
	}
	if (!(pr = presults_load(dir, err)))
		return false;
	ok = plot_hitm_lines(ps, pr, err) && plot_pareto(ps, pr, err) && plot_layout(ps, pr, err) &&
	     plot_locks(ps, pr, err);
	presults_free(pr);
	return ok;
}

bool plot_dir(const char *dir, const char *out, unsigned formats, struct c2c_err *err)
{
	g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
	struct plot_set ps = {.formats = formats, .scripts = g_ptr_array_new_with_free_func(g_free)};
	bool ok;

	ps.dir = out ? g_strdup(out) : g_build_filename(dir, "plots", NULL);
	if (!gnuplot) {
		err_setf(err, "c2csim plot: gnuplot not found in PATH (expected the gnuplot "
			 "package: plot needs it, nothing else does)");
		ok = false;
	} else if (g_mkdir_with_parents(ps.dir, 0777)) {
		err_setf(err, "c2csim plot: cannot create directory %s: %s", ps.dir,
			 g_strerror(errno));
		ok = false;
	} else {
		ok = draw_all(&ps, dir, err) && run_gnuplot(&ps, gnuplot, err);
	}
	g_ptr_array_free(ps.scripts, TRUE);
	g_free(ps.dir);
	return ok;
}

/* "png,svg" as a bit set.  Return: 0 for an unknown name. */
static unsigned parse_formats(const char *list)
{
	g_auto(GStrv) names = g_strsplit(list, ",", -1);
	unsigned bits = 0;

	for (char **n = names; *n; n++) {
		unsigned bit = 0;

		for (size_t i = 0; i < G_N_ELEMENTS(plot_formats); i++)
			if (!strcmp(*n, plot_formats[i].ext))
				bit = plot_formats[i].bit;
		if (!bit)
			return 0;
		bits |= bit;
	}
	return bits;
}

int plot_main(int argc, char **argv)
{
	g_autofree char *out = NULL, *fmt = NULL;
	g_auto(GStrv) rest = NULL;
	GOptionEntry entries[] = {
		{"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "plot directory "
		 "(default RESULT_DIR/plots)", "DIR"},
		{"format", 0, 0, G_OPTION_ARG_STRING, &fmt, "png, svg or png,svg (default)", "LIST"},
		{G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	GOptionContext *ctx = g_option_context_new("RESULT_DIR - draw the pictures of a results "
						   "or sweep directory with gnuplot");
	g_autoptr(GError) gerr = NULL;
	struct c2c_err err = {0};
	unsigned formats = PLOT_PNG | PLOT_SVG;
	bool ok;

	g_option_context_add_main_entries(ctx, entries, NULL);
	ok = g_option_context_parse(ctx, &argc, &argv, &gerr);
	g_option_context_free(ctx);
	if (!ok) {
		fprintf(stderr, "c2csim plot: %s (see c2csim plot --help)\n", gerr->message);
		return 2;
	}
	if (fmt && !(formats = parse_formats(fmt))) {
		fprintf(stderr, "c2csim plot: --format '%s' (expected png, svg or png,svg)\n", fmt);
		return 2;
	}
	if (!rest || !rest[0] || rest[1]) {
		fprintf(stderr, "c2csim plot: expected one RESULT_DIR (see c2csim plot --help)\n");
		return 2;
	}
	if (!plot_dir(rest[0], out, formats, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	fprintf(stderr, "c2csim: plots in %s%s\n", out ? out : rest[0], out ? "" : "/plots");
	return 0;
}
