/*
 * layout_cmd.c - `c2csim layout ...`: import pahole output, show, list fields, check
 * assertions, diff two layouts.
 *
 * The subcommands and their options are the tables at the end (see cli_table.h):
 *
 *   c2csim layout import PAHOLE.txt [-o FILE.yaml]
 *   c2csim layout show FILE|STRUCT [--pair] [--placement N] [--layouts DIR]
 *   c2csim layout fields FILE|STRUCT [--layouts DIR]
 *   c2csim layout check FILE... [--placement N]
 *   c2csim layout diff A B [--placement N]
 *
 * Exit status: 0 success (check: every assertion holds), 1 check: an assertion failed,
 * 2 bad input or usage.
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
#include "layout/layout_lib.h"
#include "layout/pahole.h"

#define DEFAULT_LAYOUTS "layouts/linux-6.18"

struct lopts {
	/* bound to the option tables */
	char **dirs;          /* --layouts */
	char *out;            /* -o */
	char *placement_text; /* --placement */
	gboolean pair;
	/* derived */
	GPtrArray *args;      /* positional arguments (not owned) */
	uint64_t placement;
	bool placement_set;
};

#define OPT_LAYOUTS {"layouts", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->dirs, \
	"Look STRUCT names up in DIR (repeatable; default " DEFAULT_LAYOUTS ")", "DIR"}
#define OPT_PLACEMENT {"placement", 0, 0, G_OPTION_ARG_STRING, &o->placement_text, \
	"The object starts N bytes past a 128-byte boundary (default 0)", "N"}
#define OPT_PAIR {"pair", 0, 0, G_OPTION_ARG_NONE, &o->pair, \
	"Mark the 128-byte pairs the adjacent-line prefetcher fetches together", NULL}

static GOptionEntry *import_options(void *args)
{
	struct lopts *o = args;
	GOptionEntry e[] = {
		{"output", 'o', 0, G_OPTION_ARG_FILENAME, &o->out,
		 "Write the layout to FILE.yaml (default: standard output)", "FILE.yaml"},
		G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

static GOptionEntry *show_options(void *args)
{
	struct lopts *o = args;
	GOptionEntry e[] = {OPT_PAIR, OPT_PLACEMENT, OPT_LAYOUTS, G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

static GOptionEntry *fields_options(void *args)
{
	struct lopts *o = args;
	GOptionEntry e[] = {OPT_LAYOUTS, G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

static GOptionEntry *placement_options(void *args)
{
	struct lopts *o = args;
	GOptionEntry e[] = {OPT_PLACEMENT, G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

/* The options after parsing: --placement checked, positional arguments collected. */
static bool lopts_finish(struct lopts *o, const char *prog, int argc, char **argv)
{
	char *end;

	for (int i = 1; i < argc; i++)
		g_ptr_array_add(o->args, argv[i]);
	if (!o->placement_text)
		return true;
	o->placement = g_ascii_strtoull(o->placement_text, &end, 0);
	o->placement_set = true;
	if (*end || !*o->placement_text || o->placement_text[0] == '-') {
		cli_usage_error(prog, "--placement '%s' (expected bytes past a 128-byte boundary, "
				"e.g. 0 or 64)", o->placement_text);
		return false;
	}
	return true;
}

/* A library searching --layouts DIRs, else the default kernel's directory. */
static struct layout_lib *make_lib(const struct lopts *o)
{
	struct layout_lib *lib = layout_lib_new();

	for (char **d = o->dirs; d && *d; d++)
		layout_lib_add_dir(lib, *d);
	if (!o->dirs || !*o->dirs) {
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
	if (strchr(arg, '/') || g_str_has_suffix(arg, ".yaml"))
		return layout_lib_load_file(lib, arg, err);
	return layout_lib_get(lib, arg, (struct c2c_mark){"<command-line>", 1, 1}, err);
}

/* ------------------------------------------------------------------ import */

static int cmd_import(const struct lopts *o, struct layout_lib *lib, struct c2c_err *err)
{
	g_autofree char *text = NULL;
	char why[INFILE_WHY_MAX];
	struct layout *l;
	FILE *f = stdout;
	g_autofree char *tmp = NULL;
	const char *in;

	if (o->args->len != 1) {
		err_setf(err, "c2csim layout import: expected one pahole output file");
		return 2;
	}
	in = o->args->pdata[0];
	if (!infile_read(in, INFILE_MAX_PAHOLE, &text, NULL, why)) {
		err_setf(err, "%s:1:1: %s (expected pahole -C output, a regular file of at most "
			 "%zu MiB)", in, why, INFILE_MIB(INFILE_MAX_PAHOLE));
		return 2;
	}
	if (!(l = pahole_parse(in, text, err)))
		return 2;
	{
		/* Provenance: the fixture's directory names the kernel ("linux-6.18.44"). */
		g_autofree char *dir = g_path_get_dirname(in), *kdir = g_path_get_basename(dir);
		g_autofree char *base = g_path_get_basename(in);

		g_free(l->source);
		l->source = g_strdup_printf("pahole -C %s (%s/%s)", l->name, kdir, base);
	}
	if (o->out) {
		/* Write beside the target and rename: never a half-written layout file. */
		tmp = g_strdup_printf("%s.tmp-%d", o->out, (int)getpid());
		if (!(f = fopen(tmp, "w"))) {
			err_setf(err, "cannot write %s: %s", o->out, g_strerror(errno));
			layout_free(l);
			return 2;
		}
	}
	layout_write(f, l, true);
	layout_free(l);
	if (o->out && (fclose(f) || g_rename(tmp, o->out))) {
		err_setf(err, "cannot write %s: %s", o->out, g_strerror(errno));
		g_unlink(tmp);
		return 2;
	}
	return 0;
}

/* ------------------------------------------------------------------ show */

struct show {
	FILE *f;
	const struct layout *l;
	uint64_t placement;   /* object start, bytes past a 128-byte boundary */
	bool pair;
	uint64_t cursor;      /* next byte after what was printed */
	uint64_t next_b;      /* offset of the next line boundary to show */
};

/* Boundary markers for every 64-byte line that starts at or before @off and was not shown
 * yet; as pahole does, a boundary inside a member is shown before the next member. */
static void show_boundaries(struct show *s, uint64_t off, int depth)
{
	uint64_t p = s->placement % 128;

	for (; s->next_b <= off; s->next_b += 64) {
		uint64_t b = s->next_b, line = (p + b) / 64 - p / 64;
		bool pair = s->pair && (p + b) % 128 == 0;

		fprintf(s->f, "%*s/* %s cacheline %" PRIu64 " boundary (%" PRIu64 " bytes)", depth * 8,
			"", pair ? "===" : "---", line, b);
		if (s->cursor > b)
			fprintf(s->f, " was %" PRIu64 " bytes ago", s->cursor - b);
		fprintf(s->f, "%s %s */\n", pair ? ", 128-byte pair boundary" : "",
			pair ? "===" : "---");
	}
}

static void show_groups(struct show *s, const struct lmember *c, bool begin, int depth)
{
	for (uint32_t i = 0; i < s->l->nr_groups; i++) {
		const struct lgroup *g = &s->l->groups[i];

		if (c->name && !strcmp(begin ? g->first : g->last, c->name))
			fprintf(s->f, "%*s/* --- group %s %s (bytes %" PRIu64 "-%" PRIu64 ")%s --- */\n",
				depth * 8, "", g->name, begin ? "begins" : "ends", g->start, g->end,
				g->aligned ? ", aligned" : "");
	}
}

static void show_level(struct show *s, const struct lmember *m, uint32_t nr, int depth,
		       bool in_union)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *c = &m[i];
		GString *decl = g_string_new(NULL);

		show_boundaries(s, c->offset, depth);
		if (!in_union && c->offset > s->cursor && depth == 1)
			fprintf(s->f, "\n%*s/* XXX %" PRIu64 " bytes hole */\n\n", depth * 8, "",
				c->offset - s->cursor);
		show_groups(s, c, true, depth);
		if (c->kind == LM_STRUCT || c->kind == LM_UNION) {
			fprintf(s->f, "%*s%s {\n", depth * 8, "", lm_kind_names[c->kind]);
			show_level(s, c->sub, c->nr_sub, depth + 1, c->kind == LM_UNION);
			g_string_append_printf(decl, "}%s%s", c->name ? " " : "", c->name ? c->name : "");
		} else {
			g_string_append_printf(decl, "%-26s %s", c->type ? c->type : c->kind == LM_PAD
					       ? "struct cacheline_padding" : "", c->name);
			for (int d = 0; d < c->nr_dims; d++)
				g_string_append_printf(decl, c->dims[d] ? "[%u]" : "[]", c->dims[d]);
			if (c->bits)
				g_string_append_printf(decl, ":%u", c->bits);
		}
		if (c->align)
			g_string_append_printf(decl, " __attribute__((__aligned__(%u)))", c->align);
		g_string_append_c(decl, ';');
		if (c->bits)
			fprintf(s->f, "%*s%-48s /* %5" PRIu64 ":%2u %4" PRIu64 " */\n", depth * 8, "",
				decl->str, c->offset, c->bit_offset, c->size);
		else
			fprintf(s->f, "%*s%-48s /* %5" PRIu64 " %5" PRIu64 " */\n", depth * 8, "",
				decl->str, c->offset, c->size);
		g_string_free(decl, TRUE);
		if (c->offset + c->size > s->cursor)
			s->cursor = c->offset + c->size;
		show_groups(s, c, false, depth);
	}
}

static void show_pairs(struct show *s)
{
	uint64_t p = s->placement % 128, first = p / 64, last = (p + s->l->size - 1) / 64;

	fprintf(s->f, "\t/* placement %" PRIu64 " (start %% 128): lines pair up as", p);
	for (uint64_t line = first & ~1ull; line <= last; line += 2) {
		int64_t a = (int64_t)line - (int64_t)first, b = a + 1;

		if (a < 0)
			fprintf(s->f, " [-1]+%" PRId64, b);
		else if ((uint64_t)b > last - first)
			fprintf(s->f, " %" PRId64 "+[next]", a);
		else
			fprintf(s->f, " %" PRId64 "+%" PRId64, a, b);
	}
	fprintf(s->f, " */\n");
}

static int cmd_show(const struct lopts *o, struct layout_lib *lib, struct c2c_err *err)
{
	const struct layout *l;
	struct show s = {.f = stdout, .placement = o->placement, .pair = o->pair,
			 .next_b = 64 - o->placement % 64};

	if (o->args->len != 1 || !(l = load_arg(lib, o->args->pdata[0], err))) {
		if (!err->set)
			err_setf(err, "c2csim layout show: expected one layout file or struct name");
		return 2;
	}
	s.l = l;
	printf("struct %s {%s%s%s\n", l->name, l->file ? "  /* " : "", l->file ? l->file : "",
	       l->file ? " */" : "");
	show_level(&s, l->m, l->nr, 1, false);
	if (l->size > s.cursor)
		printf("\n\t/* padding: %" PRIu64 " */\n", l->size - s.cursor);
	printf("\n\t/* size: %" PRIu64 ", cachelines: %" PRIu64 ", members: %u */\n", l->size,
	       (l->size + 63) / 64, l->nr);
	if (o->pair)
		show_pairs(&s);
	if (l->align)
		printf("} __attribute__((__aligned__(%u)));\n", l->align);
	else
		printf("};\n");
	return 0;
}

/* ------------------------------------------------------------------ fields */

static int cmd_fields(const struct lopts *o, struct layout_lib *lib, struct c2c_err *err)
{
	const struct layout *l;

	if (o->args->len != 1 || !(l = load_arg(lib, o->args->pdata[0], err))) {
		if (!err->set)
			err_setf(err, "c2csim layout fields: expected one layout file or struct name");
		return 2;
	}
	layout_fields(stdout, lib, l);
	return 0;
}

/* ------------------------------------------------------------------ check */

/* The layout an assertion file is about: `layout: PATH` (relative to the file) or
 * `struct: NAME` looked up in `layouts: [DIR, ...]` (a list, as in scenarios; one DIR is
 * accepted too), searched in that order before the default directories. */
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

		/* Last first, each in front: the list's order is the search order. */
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
	struct layout_lib *lib = make_lib(o);
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

static int cmd_check(const struct lopts *o, struct layout_lib *lib, struct c2c_err *err)
{
	uint32_t failed = 0, total = 0;

	if (!o->args->len) {
		err_setf(err, "c2csim layout check: expected layout or assertion files");
		return 2;
	}
	for (guint i = 0; i < o->args->len; i++)
		if (!check_file(o, o->args->pdata[i], &failed, &total, err))
			return 2;
	fprintf(stderr, "c2csim layout check: %u of %u assertions hold\n", total - failed, total);
	return failed ? 1 : 0;
}

/* ------------------------------------------------------------------ diff */

/* The leaf listing of @l as path -> "offset size" (a GHashTable owned by the caller) plus the
 * paths in order. */
static GPtrArray *leaves(struct layout_lib *lib, const struct layout *l, GHashTable *off)
{
	char *text = NULL, **lines;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	GPtrArray *order = g_ptr_array_new_with_free_func(g_free);

	layout_fields(f, lib, l);
	fclose(f);
	lines = g_strsplit(text, "\n", -1);
	for (char **p = lines; *p && **p; p++) {
		char **col = g_strsplit(*p, "\t", 3);

		g_ptr_array_add(order, g_strdup(col[0]));
		g_hash_table_insert(off, g_strdup(col[0]),
				    GUINT_TO_POINTER(g_ascii_strtoull(col[1], NULL, 10) + 1));
		g_strfreev(col);
	}
	g_strfreev(lines);
	free(text);
	return order;
}

static int cmd_diff(const struct lopts *o, struct layout_lib *lib, struct c2c_err *err)
{
	struct layout_lib *la = make_lib(o), *lb = make_lib(o);
	const struct layout *a, *b;
	GHashTable *oa = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTable *ob = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *pa = NULL, *pb = NULL;
	uint64_t p = o->placement % 128;
	int status = 0;

	if (o->args->len != 2) {
		err_setf(err, "c2csim layout diff: expected two layout files");
		status = 2;
	} else if (!(a = layout_lib_load_file(la, o->args->pdata[0], err)) ||
		   !(b = layout_lib_load_file(lb, o->args->pdata[1], err))) {
		status = 2;
	} else {
		pa = leaves(la, a, oa);
		pb = leaves(lb, b, ob);
		printf("# struct %s: %s -> %s at placement %" PRIu64 "\n", a->name,
		       (char *)o->args->pdata[0], (char *)o->args->pdata[1], p);
		for (guint i = 0; i < pa->len; i++) {
			const char *path = pa->pdata[i];
			uint64_t x = GPOINTER_TO_UINT(g_hash_table_lookup(oa, path)) - 1;
			uint64_t y = GPOINTER_TO_UINT(g_hash_table_lookup(ob, path));

			if (!y) {
				printf("only in A: %s (offset %" PRIu64 ")\n", path, x);
				continue;
			}
			y--;
			if ((p + x) / 64 != (p + y) / 64 || (p + x) / 128 != (p + y) / 128)
				printf("%s: offset %" PRIu64 " -> %" PRIu64 ", line %" PRIu64 " -> %"
				       PRIu64 ", pair %" PRIu64 " -> %" PRIu64 "\n", path, x, y,
				       (p + x) / 64 - p / 64, (p + y) / 64 - p / 64, (p + x) / 128,
				       (p + y) / 128);
		}
		for (guint i = 0; i < pb->len; i++)
			if (!g_hash_table_contains(oa, pb->pdata[i]))
				printf("only in B: %s (offset %" PRIu64 ")\n", (char *)pb->pdata[i],
				       (uint64_t)GPOINTER_TO_UINT(
					       g_hash_table_lookup(ob, pb->pdata[i])) - 1);
	}
	if (pa)
		g_ptr_array_free(pa, TRUE);
	if (pb)
		g_ptr_array_free(pb, TRUE);
	g_hash_table_destroy(oa);
	g_hash_table_destroy(ob);
	layout_lib_free(la);
	layout_lib_free(lb);
	return status;
}

/* ------------------------------------------------------------------ dispatch */

typedef int (*layout_fn)(const struct lopts *o, struct layout_lib *lib, struct c2c_err *err);

/* Parse @cmd's options, run @fn with the library its --layouts name.  Return: exit status. */
static int layout_run(const struct cli_cmd *cmd, const char *prog, int argc, char **argv,
		      layout_fn fn)
{
	struct lopts o = {.args = g_ptr_array_new()};
	struct c2c_err err = {0};
	struct layout_lib *lib = NULL;
	int status = cli_parse(cmd, prog, &o, &argc, &argv);

	if (status < 0 && !lopts_finish(&o, prog, argc, argv))
		status = 2;
	if (status < 0) {
		lib = make_lib(&o);
		status = fn(&o, lib, &err);
	}
	if (err.set) {
		fflush(stdout);
		fprintf(stderr, "%s\n", err.msg);
	}
	layout_lib_free(lib);
	g_ptr_array_free(o.args, TRUE);
	g_strfreev(o.dirs);
	g_free(o.out);
	g_free(o.placement_text);
	return status;
}

#define LAYOUT_MAIN(name) \
	static int main_##name(const struct cli_cmd *cmd, const char *prog, int argc, \
			       char **argv) \
	{ \
		return layout_run(cmd, prog, argc, argv, cmd_##name); \
	}
LAYOUT_MAIN(import)
LAYOUT_MAIN(show)
LAYOUT_MAIN(fields)
LAYOUT_MAIN(check)
LAYOUT_MAIN(diff)

static const struct cli_cmd layout_import_cmd = {
	"import", "PAHOLE.txt", "Convert pahole -C output to a layout file (exact offsets)", NULL,
	import_options, sizeof(struct lopts), main_import, NULL};
static const struct cli_cmd layout_show_cmd = {
	"show", "FILE|STRUCT", "A pahole-like view of a layout: lines, pairs, holes, groups", NULL,
	show_options, sizeof(struct lopts), main_show, NULL};
static const struct cli_cmd layout_fields_cmd = {
	"fields", "FILE|STRUCT", "One line per leaf member: PATH OFFSET SIZE [BIT BITS]", NULL,
	fields_options, sizeof(struct lopts), main_fields, NULL};
static const struct cli_cmd layout_check_cmd = {
	"check", "FILE...", "Evaluate a layout's or an assertion file's assertions",
	"Exit status: 0 every assertion holds, 1 an assertion failed, 2 bad input.",
	placement_options, sizeof(struct lopts), main_check, NULL};
static const struct cli_cmd layout_diff_cmd = {
	"diff", "A B", "List the members that moved to another line or pair", NULL,
	placement_options, sizeof(struct lopts), main_diff, NULL};

static const struct cli_cmd *const layout_commands[] = {
	&layout_import_cmd, &layout_show_cmd, &layout_fields_cmd, &layout_check_cmd,
	&layout_diff_cmd, NULL};

const struct cli_cmd cli_layout_cmd = {
	"layout", "COMMAND", "Struct layouts: import (pahole), show, fields, check, diff", NULL,
	NULL, 0, NULL, layout_commands};
