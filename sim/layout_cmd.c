/*
 * layout_cmd.c - `c2csim layout ...`: import from pahole output or straight from a binary,
 * show, list fields, check assertions, diff two layouts, edit one.
 *
 *   c2csim layout import PAHOLE.txt [-o FILE.yaml]
 *   c2csim layout import --from OBJECT | --btf FILE  -C STRUCT[,STRUCT...] [--recursive]
 *                        [-o FILE.yaml | -o DIR]
 *   c2csim layout show FILE|STRUCT [--pair] [--placement N] [--layouts DIR]
 *   c2csim layout fields FILE|STRUCT [--layouts DIR]
 *   c2csim layout check FILE... [--placement N] [--layouts DIR]
 *   c2csim layout diff A B [--placement N] [--layouts DIR]
 *   c2csim layout edit FILE|STRUCT [--move X:after:Y] [--swap X:Y] [--pad X:N] [--align X:N]
 *                      [--group G:A,B[:aligned]] [--layouts DIR] [-o NEW.yaml | --as-patch]
 *
 * Where structs are found, for every command alike: a FILE argument is read, and the
 * structs it embeds are looked up first in the FILE's own directory, then in each --layouts
 * DIR in order; a STRUCT name is looked up in the --layouts DIRs.  The default directory
 * (layouts/linux-6.18, under the working directory, then the source tree) is searched only
 * when no --layouts is given and the argument is a STRUCT name: a FILE's embedded structs
 * never come silently from another kernel.
 *
 * Options are parsed with GOption per subcommand (layout_cmd_opts.c).  Exit status: 0
 * success (check: every assertion holds), 1 check: an assertion failed, 2 bad input or usage.
 */
#include "cli.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "c2csim_config.h"
#include "core/infile.h"
#include "layout/layout_check.h"
#include "layout/layout_edit.h"
#include "layout/layout_lib.h"
#include "layout/layout_show.h"
#include "layout/pahole.h"
#include "layout/pahole_run.h"
#include "layout_cmd.h"
#include "layout_suggest.h"

static guint nr_args(const struct lopts *o)
{
	return o->args ? g_strv_length(o->args) : 0;
}

static bool is_file_arg(const char *arg)
{
	return strchr(arg, '/') || g_str_has_suffix(arg, ".yaml");
}

/* The library every command uses (see the top): --layouts DIRs in order; the default
 * kernel's directory only for a STRUCT name without --layouts.  A FILE's own directory goes
 * first when it is loaded (layout_lib_load_file). */
static struct layout_lib *make_lib(const struct lopts *o, const char *arg)
{
	struct layout_lib *lib = layout_lib_new();

	for (char **d = o->dirs; d && *d; d++)
		layout_lib_add_dir(lib, *d);
	if (!o->dirs && arg && !is_file_arg(arg)) {
		g_autofree char *src = g_build_filename(C2CSIM_SRCDIR, DEFAULT_LAYOUTS, NULL);

		layout_lib_add_dir(lib, DEFAULT_LAYOUTS);
		layout_lib_add_dir(lib, src);
	}
	return lib;
}

/* FILE (has a '/' or ends in .yaml) or a STRUCT name looked up in the library. */
static const struct layout *load_arg(struct layout_lib *lib, const char *arg,
				     struct c2c_err *err)
{
	if (is_file_arg(arg))
		return layout_lib_load_file(lib, arg, err);
	return layout_lib_get(lib, arg, (struct c2c_mark){"<command-line>", 1, 1}, err);
}

/* The one FILE|STRUCT argument of show, fields and edit, loaded into a new *@lib. */
static const struct layout *one_layout(const struct lopts *o, struct layout_lib **lib,
				       struct c2c_err *err)
{
	if (nr_args(o) != 1) {
		err_setf(err, "c2csim layout %s: expected one layout file or struct name", o->cmd);
		return NULL;
	}
	*lib = make_lib(o, o->args[0]);
	return load_arg(*lib, o->args[0], err);
}

/* ------------------------------------------------------------------ import */

/* Several layouts (or -o naming a directory): DIR/STRUCT.yaml each; one: -o FILE or stdout. */
static int write_imported(const struct lopts *o, GPtrArray *ls, struct c2c_err *err)
{
	bool to_dir = o->out && (ls->len > 1 || g_file_test(o->out, G_FILE_TEST_IS_DIR));

	if (ls->len > 1 && !o->out) {
		err_setf(err, "c2csim layout import: %u structs (expected -o DIR to write "
			 "DIR/STRUCT.yaml for each)", ls->len);
		return 2;
	}
	if (to_dir && g_mkdir_with_parents(o->out, 0777)) {
		err_setf(err, "cannot create %s: %s", o->out, g_strerror(errno));
		return 2;
	}
	for (guint i = 0; i < ls->len; i++) {
		const struct layout *l = ls->pdata[i];
		g_autofree char *file = g_strconcat(l->name, ".yaml", NULL);
		g_autofree char *path = to_dir ? g_build_filename(o->out, file, NULL) : NULL;

		if (!o->out)
			layout_write(stdout, l, true);
		else if (!layout_write_file(l, to_dir ? path : o->out, err))
			return 2;
	}
	return 0;
}

/* import --from OBJECT / --btf FILE -C S,... */
static int import_object(const struct lopts *o, struct c2c_err *err)
{
	g_autoptr(GPtrArray) ls = g_ptr_array_new_with_free_func((GDestroyNotify)layout_free);
	g_auto(GStrv) names = NULL;

	if ((o->from && o->btf) || !o->structs || nr_args(o)) {
		err_setf(err, "c2csim layout import: %s (expected --from OBJECT or --btf FILE, "
			 "with -C STRUCT[,STRUCT...])", o->from && o->btf ? "both --from and --btf"
			 : !o->structs ? "no -C STRUCT" : "a pahole text file and an object");
		return 2;
	}
	names = g_strsplit(o->structs, ",", -1);
	if (!pahole_import(o->from ? o->from : o->btf, o->btf != NULL, names, o->recursive, ls,
			   err))
		return 2;
	return write_imported(o, ls, err);
}

static int cmd_import(const struct lopts *o, struct c2c_err *err)
{
	g_autoptr(GPtrArray) ls = g_ptr_array_new_with_free_func((GDestroyNotify)layout_free);
	g_autofree char *text = NULL;
	char why[INFILE_WHY_MAX];
	struct layout *l;
	const char *in;
	size_t len;

	if (o->from || o->btf || o->structs || o->recursive)
		return import_object(o, err);
	if (nr_args(o) != 1) {
		err_setf(err, "c2csim layout import: expected one pahole output file, or --from "
			 "OBJECT -C STRUCT");
		return 2;
	}
	in = o->args[0];
	if (!infile_read(in, INFILE_MAX_PAHOLE, &text, &len, why)) {
		err_setf(err, "%s:1:1: %s (expected pahole -C output, a regular file of at most "
			 "%zu MiB)", in, why, INFILE_MIB(INFILE_MAX_PAHOLE));
		return 2;
	}
	if (!err_text_nul(in, text, len, "pahole", err) || !(l = pahole_parse(in, text, err)))
		return 2;
	{
		/* Provenance: the fixture's directory names the kernel ("linux-6.18.44"). */
		g_autofree char *dir = g_path_get_dirname(in), *kdir = g_path_get_basename(dir);
		g_autofree char *base = g_path_get_basename(in);

		g_free(l->source);
		l->source = g_strdup_printf("pahole -C %s (%s/%s)", l->name, kdir, base);
	}
	g_ptr_array_add(ls, l);
	return write_imported(o, ls, err);
}

/* ------------------------------------------------------------------ show */

static int cmd_show(const struct lopts *o, struct c2c_err *err)
{
	struct layout_lib *lib = NULL;
	const struct layout *l = one_layout(o, &lib, err);

	if (l)
		layout_show(stdout, l, o->placement, o->pair);
	layout_lib_free(lib);
	return l ? 0 : 2;
}

/* ------------------------------------------------------------------ edit */

static int cmd_edit(const struct lopts *o, struct c2c_err *err)
{
	struct layout_lib *lib = NULL;
	const struct layout *l = one_layout(o, &lib, err);
	struct layout *n = l ? layout_edit(lib, l, &o->edits, err) : NULL;
	int status = n ? 0 : 2;

	if (n && o->as_patch)
		layout_print_c(stdout, n);
	else if (n && o->out)
		status = layout_write_file(n, o->out, err) ? 0 : 2;
	else if (n)
		layout_write(stdout, n, true);
	layout_free(n);
	layout_lib_free(lib);
	return status;
}

/* ------------------------------------------------------------------ fields */

static int cmd_fields(const struct lopts *o, struct c2c_err *err)
{
	struct layout_lib *lib = NULL;
	const struct layout *l = one_layout(o, &lib, err);

	if (l)
		layout_fields(stdout, lib, l);
	layout_lib_free(lib);
	return l ? 0 : 2;
}

/* ------------------------------------------------------------------ check */

/* The layout an assertion file is about: `layout: PATH` (relative to the file) or
 * `struct: NAME` looked up in `layouts: DIR` and the default directories. */
static const struct layout *assert_target(struct layout_lib *lib, const char *file,
					  const struct yt_node *root, struct c2c_err *err)
{
	g_autofree char *dir = g_path_get_dirname(file);
	struct yt_node *k;
	const char *s;

	if ((k = yt_get(root, "layout"))) {
		g_autofree char *path = NULL;

		if (!yt_str(k, "layout", &s, err))
			return NULL;
		path = g_path_is_absolute(s) ? g_strdup(s) : g_build_filename(dir, s, NULL);
		return layout_lib_load_file(lib, path, err);
	}
	if ((k = yt_get(root, "layouts"))) {
		size_t n = k->kind == YT_SEQ ? k->len : 1;

		/* A list, as in scenarios (one DIR is accepted too); last first, each in
		 * front: the list's order is the search order. */
		for (size_t i = n; i-- > 0;) {
			const struct yt_node *d = k->kind == YT_SEQ ? k->items[i] : k;
			g_autofree char *path = NULL;

			if (!yt_str(d, "layouts", &s, err))
				return NULL;
			path = g_path_is_absolute(s) ? g_strdup(s) : g_build_filename(dir, s, NULL);
			layout_lib_add_dir_first(lib, path);
		}
	}
	if (!(k = yt_require(root, "struct", "assertions", err)) || !yt_str(k, "struct", &s, err))
		return NULL;
	return layout_lib_get(lib, s, k->mark, err);
}

/* Check one file; count failures in *failed.  Return: false on bad input. */
static bool check_file(const struct lopts *o, const char *file, uint32_t *failed,
		       uint32_t *total, struct c2c_err *err)
{
	static const char *const keys[] = {"layout", "layouts", "struct", "placement", "asserts",
					   NULL};
	g_autoptr(GString) fail = g_string_new(NULL);
	struct layout_lib *lib = make_lib(o, file);
	struct yt_node *root = yt_load_file(file, err), *k;
	struct layout *holder = layout_new("asserts");
	const struct layout *l = NULL;
	const struct lassert *as;
	uint32_t nr;
	int64_t placement = 0;
	bool ok = root != NULL;

	if (ok && yt_get(root, "members")) {
		ok = (l = layout_lib_load_file(lib, file, err)) != NULL;
	} else if (ok) {
		ok = yt_expect_map(root, "assertions", keys, err) &&
		     (l = assert_target(lib, file, root, err)) &&
		     (k = yt_require(root, "asserts", "assertions", err)) &&
		     layout_read_asserts(holder, k, err) &&
		     (!(k = yt_get(root, "placement")) ||
		      yt_int(k, "placement", 0, 1 << 20, &placement, err));
	}
	as = l && l->nr_asserts ? l->asserts : holder->asserts;
	nr = l && l->nr_asserts ? l->nr_asserts : holder->nr_asserts;
	for (uint32_t i = 0; ok && i < nr; i++) {
		int r = layout_check_one(lib, l, &as[i], o->placement_set ? o->placement
									  : (uint64_t)placement,
					 fail, err);

		ok = r >= 0;
		if (r == 0) {
			printf("%s\n", fail->str);
			(*failed)++;
		}
		(*total)++;
	}
	layout_free(holder);
	yt_free(root);
	layout_lib_free(lib);
	return ok;
}

static int cmd_check(const struct lopts *o, struct c2c_err *err)
{
	uint32_t failed = 0, total = 0;

	if (!nr_args(o)) {
		err_setf(err, "c2csim layout check: expected layout or assertion files");
		return 2;
	}
	for (guint i = 0; i < nr_args(o); i++)
		if (!check_file(o, o->args[i], &failed, &total, err))
			return 2;
	fprintf(stderr, "c2csim layout check: %u of %u assertions hold\n", total - failed, total);
	return failed ? 1 : 0;
}

/* ------------------------------------------------------------------ diff */

static int cmd_diff(const struct lopts *o, struct c2c_err *err)
{
	const char *fa = nr_args(o) == 2 ? o->args[0] : NULL, *fb = fa ? o->args[1] : NULL;
	struct layout_lib *la = make_lib(o, fa), *lb = make_lib(o, fb);
	const struct layout *a, *b;
	int status = 0;

	if (!fa) {
		err_setf(err, "c2csim layout diff: expected two layout files");
		status = 2;
	} else if (!(a = layout_lib_load_file(la, fa, err)) ||
		   !(b = layout_lib_load_file(lb, fb, err))) {
		status = 2;
	} else {
		printf("# struct %s: %s -> %s at placement %" PRIu64 "\n", a->name, fa, fb,
		       o->placement % 128);
		layout_print_diff(stdout, la, a, lb, b, o->placement);
	}
	layout_lib_free(la);
	layout_lib_free(lb);
	return status;
}

/* ------------------------------------------------------------------ suggest */

#define MAX_JOBS 64

static int cmd_suggest(const struct lopts *o, struct c2c_err *err)
{
	struct suggest_opts so = {.strct = o->structs, .variant = o->variant,
				  .compare = (const char *const *)o->compare,
				  .metric = o->metric, .out = o->out, .keep_size = o->keep_size,
				  .max_size = o->max_size > 0 ? (uint64_t)o->max_size : 0,
				  .budget = o->budget ? (uint32_t)o->budget : 200,
				  .jobs = o->jobs ? (uint32_t)o->jobs : 1};

	if (nr_args(o) != 1 || !o->structs || o->budget < 0 || o->jobs < 0 ||
	    o->jobs > MAX_JOBS || o->max_size < 0) {
		err_setf(err, "c2csim layout suggest: expected SCENARIO --struct S, with --budget "
			 "and -j positive (-j at most %d) and --max-size a size", MAX_JOBS);
		return 2;
	}
	so.scenario = o->args[0];
	return layout_suggest(&so, err);
}

/* ------------------------------------------------------------------ dispatch */

static const char layout_usage[] =
	"usage: c2csim layout COMMAND ... (c2csim layout COMMAND --help for its options)\n"
	"  import PAHOLE.txt [-o FILE.yaml]      pahole -C output to a layout file (exact offsets)\n"
	"  import --from OBJECT -C S[,S...] [--recursive] [-o FILE.yaml|DIR]\n"
	"  import --btf FILE -C S[,S...] ...      run pahole on a binary (DWARF) or BTF and import\n"
	"  show FILE|STRUCT [--pair] [--placement N]\n"
	"                                         pahole-like view: lines, pairs, holes, groups\n"
	"  fields FILE|STRUCT                    one line per leaf: PATH OFFSET SIZE [BIT BITS]\n"
	"  check FILE... [--placement N]         evaluate assertions (exit 1 if any fails)\n"
	"  diff A B [--placement N]              members that moved line or pair\n"
	"  edit FILE|STRUCT [--move X:after:Y] [--swap X:Y] [--pad X:N] [--align X:N]\n"
	"       [--group G:A,B[:aligned]] [-o NEW.yaml | --as-patch]\n"
	"                                         reorder/pad/align/group, offsets recomputed\n"
	"  suggest SCENARIO --struct S [--variant V] [--metric throughput|hitm|HEADLINE]\n"
	"       [--keep-size | --max-size N] [--budget RUNS] [-j N] [--compare V]...\n"
	"       [-o BEST.yaml]\n"
	"                                         search layouts of S by running the scenario\n"
	"  --layouts DIR                         where STRUCT names and embedded structs are\n"
	"                                         looked up, after a FILE's own directory\n"
	"                                         (repeatable; default " DEFAULT_LAYOUTS "\n"
	"                                         only for a STRUCT name)\n"
	"  --placement N                         the object starts N bytes past a 128-byte boundary\n";

/* `c2csim layout ...`: argv[0] is "layout", argv[1] the subcommand. */
static int cli_layout(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	struct lopts o = {.cmd = argc > 1 ? argv[1] : ""};
	struct c2c_err err = {0};
	int status = 2;

	ledits_init(&o.edits);
	if (!strcmp(o.cmd, "--help") || !strcmp(o.cmd, "-h")) {
		fputs(layout_usage, stdout);
		status = 0;
	} else if (argc > 1 && lopts_parse(argc, argv, &o, &err)) {
		if (o.edits.v->len && strcmp(o.cmd, "edit"))
			err_setf(&err, "c2csim layout %s: edits are for layout edit", o.cmd);
		else if (!strcmp(o.cmd, "import"))
			status = cmd_import(&o, &err);
		else if (!strcmp(o.cmd, "show"))
			status = cmd_show(&o, &err);
		else if (!strcmp(o.cmd, "fields"))
			status = cmd_fields(&o, &err);
		else if (!strcmp(o.cmd, "check"))
			status = cmd_check(&o, &err);
		else if (!strcmp(o.cmd, "diff"))
			status = cmd_diff(&o, &err);
		else if (!strcmp(o.cmd, "suggest"))
			status = cmd_suggest(&o, &err);
		else
			status = cmd_edit(&o, &err);
	}
	if (err.set)
		fprintf(stderr, "%s\n", err.msg);
	else if (status == 2)
		fputs(layout_usage, stderr);
	ledits_release(&o.edits);
	g_strfreev(o.args);
	g_strfreev(o.dirs);
	g_free(o.out);
	g_free(o.from);
	g_free(o.btf);
	g_free(o.structs);
	g_free(o.placement_arg);
	g_free(o.variant);
	g_strfreev(o.compare);
	g_free(o.metric);
	return status;
}

/* The layout subcommands parse their own options (lopts_parse), so the row has no table of
 * its own; its description is the subcommand list. */
const struct cli_cmd cli_layout_cmd = {
	"layout", "COMMAND [OPTION...]",
	"Struct layouts: import (pahole, binaries, BTF), show, fields, check, diff, edit, suggest",
	layout_usage, NULL, 0, cli_layout, NULL};
