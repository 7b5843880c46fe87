/* cli_table.c - dispatch, --help and the man page from the command tables; see cli_table.h. */
#include "cli_table.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

static const struct cli_cmd *cli_find(const struct cli_cmd *const *table, const char *name)
{
	for (; *table; table++)
		if (!strcmp((*table)->name, name))
			return *table;
	return NULL;
}

/* "run, check, layout or bench": every command of @table, for messages. */
static char *cli_names(const struct cli_cmd *const *table)
{
	GString *s = g_string_new(NULL);

	for (const struct cli_cmd *const *c = table; *c; c++)
		g_string_append_printf(s, "%s%s", c == table ? "" : c[1] ? ", " : " or ",
				       (*c)->name);
	return g_string_free(s, FALSE);
}

int cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	/* A report on stdout must be complete before an error line follows it in a log. */
	fflush(stdout);
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}

void cli_print_list(FILE *f, const struct cli_cmd *const *table, const char *prog)
{
	fprintf(f, "Usage:\n  %s COMMAND [OPTION...] [ARGS]\n\nCommands:\n", prog);
	for (; *table; table++)
		fprintf(f, "  %-10s %s\n", (*table)->name, (*table)->summary);
	fprintf(f, "\nRun '%s COMMAND --help' for the options of a command.\n", prog);
}

/* The context of @cmd with its options bound to @args and -h/--help bound to @help; the
 * entries array is returned in @entries (the caller frees it after the context). */
static GOptionContext *cli_context(const struct cli_cmd *cmd, void *args, gboolean *help,
				   GOptionEntry **entries)
{
	GOptionEntry help_entry[] = {
		{"help", 'h', 0, G_OPTION_ARG_NONE, help, "Show this help", NULL},
		G_OPTION_ENTRY_NULL};
	GOptionContext *ctx = g_option_context_new(cmd->params);

	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_set_summary(ctx, cmd->summary);
	if (cmd->description)
		g_option_context_set_description(ctx, cmd->description);
	*entries = cmd->options ? cmd->options(args) : NULL;
	if (*entries)
		g_option_context_add_main_entries(ctx, *entries, NULL);
	g_option_context_add_main_entries(ctx, help_entry, NULL);
	return ctx;
}

static void cli_print_help(FILE *f, const struct cli_cmd *cmd, const char *prog)
{
	void *args = g_malloc0(cmd->args_size ? cmd->args_size : 1);
	gboolean help = FALSE;
	GOptionEntry *entries;
	GOptionContext *ctx;
	char *text;

	g_set_prgname(prog);
	ctx = cli_context(cmd, args, &help, &entries);
	text = g_option_context_get_help(ctx, TRUE, NULL);
	fputs(text, f);
	g_free(text);
	g_option_context_free(ctx);
	g_free(entries);
	g_free(args);
}

int cli_parse(const struct cli_cmd *cmd, const char *prog, void *args, int *argc, char ***argv)
{
	gboolean help = FALSE;
	GOptionEntry *entries;
	GOptionContext *ctx;
	GError *gerr = NULL;
	int status = -1;

	g_set_prgname(prog);
	ctx = cli_context(cmd, args, &help, &entries);
	if (!g_option_context_parse(ctx, argc, argv, &gerr)) {
		/* GLib's message names the option: "Unknown option --bogus", "Missing argument
		 * for --seed", "Cannot parse integer value “x” for --scale". */
		status = cli_usage_error(prog, "%s (see %s --help)", gerr->message, prog);
		g_error_free(gerr);
	} else if (help) {
		char *text = g_option_context_get_help(ctx, TRUE, NULL);

		fputs(text, stdout);
		g_free(text);
		status = 0;
	}
	g_option_context_free(ctx);
	g_free(entries);
	return status;
}

static int cli_help(const struct cli_cmd *const *table, const char *prog, int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc < 3) {
		cli_print_list(stdout, table, prog);
		return 0;
	}
	if (!(c = cli_find(table, argv[2]))) {
		g_autofree char *names = cli_names(table);

		fprintf(stderr, "%s help: unknown command '%s' (expected %s)\n", prog, argv[2],
			names);
		return 2;
	}
	if (c->sub) {
		g_autofree char *sub_prog = g_strdup_printf("%s %s", prog, c->name);

		return cli_help(c->sub, sub_prog, argc - 1, argv + 1);
	}
	{
		g_autofree char *cmd_prog = g_strdup_printf("%s %s", prog, c->name);

		cli_print_help(stdout, c, cmd_prog);
	}
	return 0;
}

int cli_dispatch(const struct cli_cmd *const *table, const char *prog, int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	g_autofree char *cmd_prog = NULL;
	const struct cli_cmd *c;

	if (!name) {
		cli_print_list(stderr, table, prog);
		return 2;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help"))
		return cli_help(table, prog, argc, argv);
	if (!(c = cli_find(table, name))) {
		g_autofree char *names = cli_names(table);

		fprintf(stderr, "%s: unknown command '%s' (expected %s; see %s --help)\n", prog,
			name, names, prog);
		return 2;
	}
	cmd_prog = g_strdup_printf("%s %s", prog, c->name);
	if (c->sub)
		return cli_dispatch(c->sub, cmd_prog, argc - 1, argv + 1);
	return c->main(c, cmd_prog, argc - 1, argv + 1);
}

/* ------------------------------------------------------------------ man page */

/* @text escaped for roff: backslashes and hyphens. */
static void man_escape(FILE *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '\\')
			fputs("\\e", f);
		else if (*p == '-')
			fputs("\\-", f);
		else
			fputc(*p, f);
	}
}

/* @text as roff lines: a line starting with '.' or '\'' guarded, an empty line a paragraph
 * break, an indented line kept as it is (no fill). */
static void man_text(FILE *f, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	bool nofill = false;

	for (char **l = lines; *l; l++) {
		bool indented = (*l)[0] == ' ';

		if (indented != nofill)
			fputs(indented ? ".nf\n" : ".fi\n", f);
		nofill = indented;
		if (!**l) {
			fputs(".PP\n", f);
			continue;
		}
		if (**l == '.' || **l == '\'')
			fputs("\\&", f);
		man_escape(f, *l);
		fputc('\n', f);
	}
	if (nofill)
		fputs(".fi\n", f);
}

static void man_options(FILE *f, const struct cli_cmd *c)
{
	void *args = g_malloc0(c->args_size ? c->args_size : 1);
	GOptionEntry *e = c->options ? c->options(args) : NULL;

	for (GOptionEntry *o = e; o && o->long_name; o++) {
		fputs(".TP\n", f);
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
		fputs("\\fB\\-\\-", f);
		man_escape(f, o->long_name);
		fputs("\\fR", f);
		if (o->arg_description) {
			fputs("=\\fI", f);
			man_escape(f, o->arg_description);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		man_text(f, o->description);
	}
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow the command's help.\n", f);
	g_free(e);
	g_free(args);
}

static void man_commands(FILE *f, const struct cli_cmd *const *table, const char *prefix)
{
	for (; *table; table++) {
		const struct cli_cmd *c = *table;
		g_autofree char *name = g_strdup_printf("%s%s%s", prefix, *prefix ? " " : "",
							c->name);

		if (c->sub) {
			man_commands(f, c->sub, name);
			continue;
		}
		fprintf(f, ".SS \"%s\"\n.B c2csim %s\n", name, name);
		if (c->params && *c->params) {
			fputs(".I ", f);
			man_escape(f, c->params);
			fputc('\n', f);
		}
		fputs(".PP\n", f);
		man_text(f, c->summary);
		if (c->description) {
			fputs(".PP\n", f);
			man_text(f, c->description);
		}
		man_options(f, c);
	}
}

void cli_man(FILE *f, const struct cli_cmd *const *table, const char *prog, const char *version,
	     const char *tail)
{
	fprintf(f, ".TH C2CSIM 1 \"\" \"%s %s\" \"User Commands\"\n", prog, version);
	fprintf(f, ".SH NAME\n%s \\- multicore cache-coherence simulator with perf c2c "
		"reports\n", prog);
	fprintf(f, ".SH SYNOPSIS\n.B %s\n\\fICOMMAND\\fR [\\fIOPTION\\fR...] "
		"[\\fIARGS\\fR]\n", prog);
	fputs(".SH DESCRIPTION\nA deterministic discrete-event simulator of multicore cache "
	      "coherence (MESI and the adjacent-line prefetcher) that runs modelled Linux kernel "
	      "statistics paths against struct layouts and reports perf-c2c and lockstat style "
	      "tables.  Every command answers \\fB\\-\\-help\\fR; options are given as "
	      "\\fB\\-\\-opt\\fR \\fIvalue\\fR or \\fB\\-\\-opt\\fR=\\fIvalue\\fR.\n"
	      ".SH COMMANDS\n", f);
	man_commands(f, table, "");
	if (tail)
		fputs(tail, f);
}
