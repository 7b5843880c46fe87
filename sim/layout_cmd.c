/*
 * layout_cmd.c - `c2csim layout ...`: import pahole output, show, list fields, check
 * assertions, diff two layouts.
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
#include "layout_cmd.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "c2csim_config.h"
#include "layout/layout_check.h"
#include "layout/layout_lib.h"
#include "layout/pahole.h"

#define DEFAULT_LAYOUTS "layouts/linux-6.18"

struct lopts {
	GPtrArray *args;      /* positional arguments (not owned) */
	GPtrArray *dirs;      /* --layouts (not owned) */
	const char *out;      /* -o */
	uint64_t placement;
	bool placement_set, pair;
};

static bool parse_lopts(int argc, char **argv, struct lopts *o, struct c2c_err *err)
{
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		char *end;

		if (!strcmp(a, "--pair")) {
			o->pair = true;
		} else if ((!strcmp(a, "--placement") || !strcmp(a, "--layouts") ||
			    !strcmp(a, "-o")) && i + 1 >= argc) {
			err_setf(err, "c2csim layout: %s needs a value", a);
			return false;
		} else if (!strcmp(a, "--placement")) {
			o->placement = g_ascii_strtoull(argv[++i], &end, 0);
			o->placement_set = true;
			if (*end || !*argv[i] || argv[i][0] == '-') {
				err_setf(err, "c2csim layout: --placement '%s' (expected bytes past a "
					 "128-byte boundary, e.g. 0 or 64)", argv[i]);
				return false;
			}
		} else if (!strcmp(a, "--layouts")) {
			g_ptr_array_add(o->dirs, argv[++i]);
		} else if (!strcmp(a, "-o")) {
			o->out = argv[++i];
		} else if (a[0] == '-') {
			err_setf(err, "c2csim layout %s: unknown option '%s' (see c2csim layout --help)",
				 argv[1], a);
			return false;
		} else {
			g_ptr_array_add(o->args, (char *)a);
		}
	}
	return true;
}

/* A library searching --layouts DIRs, else the default kernel's directory. */
static struct layout_lib *make_lib(const struct lopts *o)
{
	struct layout_lib *lib = layout_lib_new();

	for (guint i = 0; i < o->dirs->len; i++)
		layout_lib_add_dir(lib, o->dirs->pdata[i]);
	if (!o->dirs->len) {
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

static int cmd_import(const struct lopts *o, struct c2c_err *err)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) gerr = NULL;
	struct layout *l;
	FILE *f = stdout;
	g_autofree char *tmp = NULL;
	const char *in;
	size_t len;

	if (o->args->len != 1) {
		err_setf(err, "c2csim layout import: expected one pahole output file");
		return 2;
	}
	in = o->args->pdata[0];
	if (!g_file_get_contents(in, &text, &len, &gerr)) {
		err_setf(err, "%s:1:1: cannot read: %s (expected pahole -C output)", in,
			 gerr->message);
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
		g_autofree char *path = NULL;

		if (!yt_str(k, "layouts", &s, err))
			return NULL;
		path = g_path_is_absolute(s) ? g_strdup(s) : g_build_filename(dir, s, NULL);
		layout_lib_add_dir(lib, path);
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

static int cmd_check(const struct lopts *o, struct c2c_err *err)
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

static int cmd_diff(const struct lopts *o, struct c2c_err *err)
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

static const char layout_usage[] =
	"usage: c2csim layout COMMAND ...\n"
	"  import PAHOLE.txt [-o FILE.yaml]      pahole -C output to a layout file (exact offsets)\n"
	"  show FILE|STRUCT [--pair] [--placement N]\n"
	"                                         pahole-like view: lines, pairs, holes, groups\n"
	"  fields FILE|STRUCT                    one line per leaf: PATH OFFSET SIZE [BIT BITS]\n"
	"  check FILE... [--placement N]         evaluate assertions (exit 1 if any fails)\n"
	"  diff A B [--placement N]              members that moved line or pair\n"
	"  --layouts DIR                         where STRUCT names are looked up (repeatable;\n"
	"                                         default " DEFAULT_LAYOUTS ")\n"
	"  --placement N                         the object starts N bytes past a 128-byte boundary\n";

int cli_layout(int argc, char **argv)
{
	struct lopts o = {.args = g_ptr_array_new(), .dirs = g_ptr_array_new()};
	struct c2c_err err = {0};
	struct layout_lib *lib = NULL;
	const char *cmd = argc > 1 ? argv[1] : "";
	int status = 2;

	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(layout_usage, stdout);
		status = 0;
	} else if (parse_lopts(argc, argv, &o, &err)) {
		lib = make_lib(&o);
		if (!strcmp(cmd, "import"))
			status = cmd_import(&o, &err);
		else if (!strcmp(cmd, "show"))
			status = cmd_show(&o, lib, &err);
		else if (!strcmp(cmd, "fields"))
			status = cmd_fields(&o, lib, &err);
		else if (!strcmp(cmd, "check"))
			status = cmd_check(&o, &err);
		else if (!strcmp(cmd, "diff"))
			status = cmd_diff(&o, &err);
		else
			err_setf(&err, "c2csim layout: unknown command '%s' "
				 "(expected import, show, fields, check or diff)", cmd);
	}
	if (err.set)
		fprintf(stderr, "%s\n", err.msg);
	else if (status == 2)
		fputs(layout_usage, stderr);
	layout_lib_free(lib);
	g_ptr_array_free(o.args, TRUE);
	g_ptr_array_free(o.dirs, TRUE);
	return status;
}
