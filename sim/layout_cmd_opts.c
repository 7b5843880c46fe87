/*
 * layout_cmd_opts.c - the options of each `c2csim layout` subcommand: one GOption table per
 * subcommand, pointed into a struct lopts, and the parse of the command line into it
 * (--placement checked, edit options kept in command-line order).  The subcommands that
 * use them are layout_cmd.c's.
 */
#include "layout_cmd.h"

#include <string.h>

/* --move, --swap, --pad, --align, --group: one edit each, in the order given. */
static gboolean edit_option(const gchar *name, const gchar *value, gpointer data, GError **gerr)
{
	struct lopts *o = data;

	for (int k = 0; k < LE_KIND_COUNT; k++)
		if (!strcmp(name + 2, ledit_kind_names[k])) {
			if (ledit_parse_arg(&o->edits, k, value, &o->err))
				return TRUE;
			g_set_error_literal(gerr, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
					    o->err.msg);
			return FALSE;
		}
	return FALSE;
}

#define E_DIRS {"layouts", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, "where STRUCT names and " \
		"embedded structs are looked up, after a FILE's own directory (repeatable; " \
		"without it a STRUCT name is looked up in " DEFAULT_LAYOUTS ")", "DIR"}
#define E_PLACE {"placement", 0, 0, G_OPTION_ARG_STRING, NULL, "the object starts N bytes " \
		 "past a 128-byte boundary", "N"}
#define E_OUT(what) {"output", 'o', 0, G_OPTION_ARG_FILENAME, NULL, what, "PATH"}
#define E_EDIT(name, what, form) {name, 0, 0, G_OPTION_ARG_CALLBACK, (gpointer)edit_option, \
				  what, form}
#define E_END {NULL, 0, 0, 0, NULL, NULL, NULL}

/* Each subcommand's options; entries_of points them into a struct lopts. */
static GOptionEntry import_opts[] = {
	{"from", 0, 0, G_OPTION_ARG_FILENAME, NULL, "run pahole on this ELF object, "
	 "module or vmlinux (DWARF)", "OBJECT"},
	{"btf", 0, 0, G_OPTION_ARG_FILENAME, NULL, "run pahole on this BTF file, e.g. "
	 "/sys/kernel/btf/vmlinux", "FILE"},
	{"struct", 'C', 0, G_OPTION_ARG_STRING, NULL, "the structs to import", "S[,S...]"},
	{"recursive", 0, 0, G_OPTION_ARG_NONE, NULL, "also the structs they embed", NULL},
	E_OUT("layout file, or a directory for several structs"), E_END};
static GOptionEntry show_opts[] = {
	{"pair", 0, 0, G_OPTION_ARG_NONE, NULL, "mark 128-byte pair boundaries", NULL},
	E_PLACE, E_DIRS, E_END};
static GOptionEntry fields_opts[] = {E_DIRS, E_END};
static GOptionEntry check_opts[] = {E_PLACE, E_DIRS, E_END};
static GOptionEntry edit_opts[] = {
	E_EDIT("move", "move X after (or before) Y", "X:after:Y"),
	E_EDIT("swap", "swap X and Y", "X:Y"),
	E_EDIT("pad", "pad before X to an N-byte boundary (64: CACHELINE_PADDING)", "X:N"),
	E_EDIT("align", "__aligned__(N) on X", "X:N"),
	E_EDIT("group", "make A, B, ... a cacheline group", "G:A,B[:aligned]"),
	{"as-patch", 0, 0, G_OPTION_ARG_NONE, NULL, "print the C struct instead", NULL},
	E_OUT("write the edited layout here"), E_DIRS, E_END};
static GOptionEntry suggest_opts[] = {
	{"struct", 0, 0, G_OPTION_ARG_STRING, NULL, "the struct to lay out", "S"},
	{"variant", 0, 0, G_OPTION_ARG_STRING, NULL, "the variant with today's layout "
	 "(default: the first)", "V"},
	{"metric", 0, 0, G_OPTION_ARG_STRING, NULL, "throughput (default), hitm, or a headline "
	 "metric of the scenario (its index, id or name)", "M"},
	{"keep-size", 0, 0, G_OPTION_ARG_NONE, NULL, "no layout larger than today's", NULL},
	{"max-size", 0, 0, G_OPTION_ARG_INT, NULL, "no layout larger than N bytes", "N"},
	{"budget", 0, 0, G_OPTION_ARG_INT, NULL, "runs at most (default 200)", "RUNS"},
	{"jobs", 'j', 0, G_OPTION_ARG_INT, NULL, "runs at a time (default 1)", "N"},
	{"compare", 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL, "also run this variant and say how "
	 "close the best layout gets to it (repeatable)", "V"},
	E_OUT("write the best layout here"), E_END};

/* The options of @cmd, pointing into @o; NULL for an unknown command. */
static GOptionEntry *entries_of(const char *cmd, struct lopts *o, const char **params)
{
	GOptionEntry *e = NULL;

	if (!strcmp(cmd, "suggest")) {
		void *data[] = {&o->structs, &o->variant, &o->metric, &o->keep_size, &o->max_size,
				&o->budget, &o->jobs, &o->compare, &o->out};

		for (size_t i = 0; i < G_N_ELEMENTS(data); i++)
			suggest_opts[i].arg_data = data[i];
		e = suggest_opts;
		*params = "SCENARIO";
	} else if (!strcmp(cmd, "import")) {
		e = import_opts;
		import_opts[0].arg_data = &o->from, import_opts[1].arg_data = &o->btf;
		import_opts[2].arg_data = &o->structs, import_opts[3].arg_data = &o->recursive;
		import_opts[4].arg_data = &o->out;
		*params = "[PAHOLE.txt]";
	} else if (!strcmp(cmd, "show")) {
		e = show_opts;
		show_opts[0].arg_data = &o->pair, show_opts[1].arg_data = &o->placement_arg;
		show_opts[2].arg_data = &o->dirs;
		*params = "FILE|STRUCT";
	} else if (!strcmp(cmd, "fields")) {
		e = fields_opts;
		fields_opts[0].arg_data = &o->dirs;
		*params = "FILE|STRUCT";
	} else if (!strcmp(cmd, "check") || !strcmp(cmd, "diff")) {
		e = check_opts;
		check_opts[0].arg_data = &o->placement_arg, check_opts[1].arg_data = &o->dirs;
		*params = !strcmp(cmd, "diff") ? "A B" : "FILE...";
	} else if (!strcmp(cmd, "edit")) {
		e = edit_opts;
		edit_opts[5].arg_data = &o->as_patch, edit_opts[6].arg_data = &o->out;
		edit_opts[7].arg_data = &o->dirs;
		*params = "FILE|STRUCT";
	}
	return e;
}

bool lopts_parse(int argc, char **argv, struct lopts *o, struct c2c_err *err)
{
	GOptionEntry rest[] = {{G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->args,
				NULL, NULL}, E_END};
	const char *params = "";
	GOptionEntry *e = entries_of(o->cmd, o, &params);
	g_autofree char *prog = g_strdup_printf("c2csim layout %s", o->cmd);
	g_autoptr(GOptionContext) ctx = g_option_context_new(params);
	g_autoptr(GError) gerr = NULL;
	GOptionGroup *g;
	char **av = g_new0(char *, argc + 1);
	int ac = argc - 1;
	bool ok;

	if (!e) {
		err_setf(err, "c2csim layout: unknown command '%s' (expected import, show, fields, "
			 "check, diff, edit or suggest; see c2csim layout --help)", o->cmd);
		g_free(av);
		return false;
	}
	g_set_prgname(prog); /* the usage line of --help says "c2csim layout CMD" */
	g = g_option_group_new("layout", prog, prog, o, NULL);
	g_option_group_add_entries(g, e);
	g_option_group_add_entries(g, rest);
	g_option_context_set_main_group(ctx, g);
	av[0] = prog;
	memcpy(av + 1, argv + 2, (size_t)(argc - 2) * sizeof(*av));
	ok = g_option_context_parse(ctx, &ac, &av, &gerr);
	g_free(av);
	if (!ok) {
		if (o->err.set)
			*err = o->err;
		else
			err_setf(err, "%s: %s (see %s --help)", prog, gerr->message, prog);
		return false;
	}
	if (o->placement_arg) {
		char *end;

		o->placement = g_ascii_strtoull(o->placement_arg, &end, 0);
		o->placement_set = true;
		if (*end || !*o->placement_arg || o->placement_arg[0] == '-') {
			err_setf(err, "%s: --placement '%s' (expected bytes past a 128-byte boundary, "
				 "e.g. 0 or 64)", prog, o->placement_arg);
			return false;
		}
	}
	return true;
}
