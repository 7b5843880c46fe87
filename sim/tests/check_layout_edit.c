/*
 * check_layout_edit.c - layout edit lists (layout_edit*.c, `c2csim layout edit`, a variant's
 * `layout_edits:`), the C struct they print (checked by compiling it with gcc), implied
 * alignments of embedded imports, the layout commands' resolution order and `layout show`'s
 * order.
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cmdutil.h"
#include "layout/layout_edit.h"
#include "layout/layout_lib.h"
#include "testutil.h"

#define PN "layouts/linux-6.18/mem_cgroup_per_node.yaml"

/* layout_fields of struct @name as @lib has it. */
static char *fields_of(struct layout_lib *lib, const char *name)
{
	struct c2c_err err = {0};
	const struct layout *l = layout_lib_get(lib, name, (struct c2c_mark){"t", 1, 1}, &err);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_msg(l != NULL, "%s", err.msg);
	fprintf(f, "size %lu align %u\n", (unsigned long)l->size, l->align);
	layout_fields(f, lib, l);
	fclose(f);
	return text;
}

/* The same edits from the command line and from a scenario variant: the same layout, and the
 * variant's object is laid out by it. */
START_TEST(cli_and_variant_edits_are_identical)
{
	g_autofree char *dir = tmpdir(), *out = g_build_filename(dir, "pn.yaml", NULL);
	g_autofree char *cli = NULL, *var = NULL, *before = NULL, *lin = tu_src_path("layouts/linux-6.18");
	struct scenario *sc = tu_load_scenario("sim/tests/data/layout-edits.yaml", NULL);
	const struct variant *v = &sc->v[tu_variant(sc, "split")];
	struct layout_lib *lib = layout_lib_new();
	struct c2c_err err = {0};
	struct cmd c = {0};
	struct obj o;

	c2csim(&c, (const char *[]){"layout", "edit", PN, "--move", "on_tree:after:memcg", "--pad",
				    "lruvec:128", "--group", "read_mostly:memcg,lruvec_stats_percpu:aligned",
				    "--swap", "shrinker_info:tree_node", "--align", "iter:64", "-o", out,
				    NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	cmd_free(&c);
	layout_lib_add_dir(lib, lin);
	ck_assert_msg(layout_lib_load_file(lib, out, &err), "%s", err.msg);
	cli = fields_of(lib, "mem_cgroup_per_node");
	var = fields_of(v->lib, "mem_cgroup_per_node");
	before = fields_of(sc->v[tu_variant(sc, "before")].lib, "mem_cgroup_per_node");
	ck_assert_str_eq(cli, var);
	ck_assert_str_ne(cli, before);
	/* The group starts a line, on_tree follows memcg, the pad puts lruvec on a pair. */
	ck_assert_ptr_nonnull(strstr(var, "\nmemcg\t0\t8\nlruvec_stats_percpu\t8\t8\non_tree\t64\t1\n"));
	ck_assert_ptr_nonnull(strstr(var, "\nlruvec.lists[0].next\t128\t8\n"));
	ck_assert(objmap_get(&v->objs, 0, &o));
	ck_assert_uint_eq(o.layout->size,
			  layout_lib_get(v->lib, "mem_cgroup_per_node", (struct c2c_mark){0}, &err)->size);
	layout_lib_free(lib);
	scenario_free(sc);
	rm_rf(dir);
}
END_TEST

START_TEST(edit_errors_are_one_line)
{
	struct cmd c = {0};
	g_autofree char *run_out = NULL;

	c2csim(&c, (const char *[]){"layout", "edit", PN, "--move", "on_tre:after:memcg", NULL});
	assert_one_line_error(&c, "<command-line>", "did you mean 'on_tree'?");
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "edit", PN, "--move", "on_tree:memcg", NULL});
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "--move 'on_tree:memcg' (expected X:after:Y"));
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "edit", PN, "--align", "lruvec.lru_lock:64", NULL});
	assert_one_line_error(&c, "<command-line>", "is inside an embedded struct");
	cmd_free(&c);
	c2csim(&c, (const char *[]){"run", "sim/tests/data/layout-edits-typo.yaml", NULL});
	assert_one_line_error(&c, "layout-edits-typo.yaml:9:7", "unknown member 'on_tre'");
	cmd_free(&c);
}
END_TEST

/* Malformed edit lists: one error at the entry, naming what was expected; the YAML form
 * written back (ledits_to_yaml) reads as the same list. */
START_TEST(edit_lists_read_and_written)
{
	static const struct {
		const char *yaml, *msg;
	} bad[] = {
		{"[{pad: {before: x}}]", "t:1:8: missing key 'to' in pad"},
		{"[{pad: {before: x, to: 48}}]", "t:1:24: pad.to: 48 is not a power of two"},
		{"[{mvoe: {member: x, after: y}}]", "did you mean 'move'?"},
		{"[{swap: [x]}]", "t:1:9: swap: 1 members (expected two"},
		{"[{move: {member: x, after: y}, swap: [a, b]}]", "2 keys (expected one edit"},
		{"[{group: {name: g, members: []}}]", "group.members: empty"},
	};
	const char *good = "[{move: {member: a, before: b}}, {swap: [c, d]}, {pad: {before: e, to: 128}},"
			   " {align: {member: f, to: 16}}, {group: {name: g, members: [h, i], "
			   "aligned: true}}]";
	struct yt_node *n;
	struct ledits e;
	g_autofree char *y = NULL, *d1 = NULL, *d2 = NULL;

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct c2c_err err = {0};

		n = yt_load_string("t", bad[i].yaml, strlen(bad[i].yaml), &err);
		ck_assert_msg(n != NULL, "%s", err.msg);
		ledits_init(&e);
		ck_assert(!ledits_from_tree(&e, n, &err));
		ck_assert_msg(strstr(err.msg, bad[i].msg), "case %zu: %s", i, err.msg);
		ledits_release(&e);
		yt_free(n);
	}
	n = yt_load_string("t", good, strlen(good), &(struct c2c_err){0});
	ledits_init(&e);
	ck_assert(ledits_from_tree(&e, n, &(struct c2c_err){0}));
	yt_free(n);
	d1 = ledits_describe(&e);
	ck_assert_str_eq(d1, "move a before b; swap c d; pad before e to 128; align f to 16; "
			 "aligned group g: h,i");
	y = ledits_to_yaml(&e);
	ledits_release(&e);
	n = yt_load_string("t", y, strlen(y), &(struct c2c_err){0});
	ledits_init(&e);
	ck_assert_msg(n && ledits_from_tree(&e, n, &(struct c2c_err){0}), "%s", y);
	d2 = ledits_describe(&e);
	ck_assert_str_eq(d1, d2);
	ledits_release(&e);
	yt_free(n);
}
END_TEST

/* The prelude for compiling --as-patch output: the kernel's cache.h macros (6.x) and the test
 * structs it embeds. */
static const char prelude[] =
	"#include <stddef.h>\n#include <stdio.h>\n"
	"typedef unsigned char __u8;\n"
	"#define SMP_CACHE_BYTES 64\n"
	"struct cacheline_padding { char x[0]; } __attribute__((__aligned__(SMP_CACHE_BYTES)));\n"
	"#define CACHELINE_PADDING(name) struct cacheline_padding name\n"
	"#define __cacheline_group_begin(G) __u8 __cacheline_group_begin__##G[0]\n"
	"#define __cacheline_group_end(G) __u8 __cacheline_group_end__##G[0]\n"
	"#define __cacheline_group_begin_aligned(G) __cacheline_group_begin(G) "
	"__attribute__((__aligned__(SMP_CACHE_BYTES)))\n"
	"#define __cacheline_group_end_aligned(G) __cacheline_group_end(G) "
	"__attribute__((__aligned__(sizeof(long)))); struct { } __cacheline_group_pad__##G "
	"__attribute__((__aligned__(SMP_CACHE_BYTES)))\n";

/* "OFFSET SIZE" of top-level member @name in `layout show` output. */
static char *shown(const char *show, const char *name)
{
	g_autofree char *pat = g_strdup_printf("^\\t[^\\t/].*[ *(]%s(\\[|;|:| __attr|\\)).*/\\* +"
					       "([0-9]+) +([0-9]+) \\*/$", name);
	g_autoptr(GRegex) re = g_regex_new(pat, G_REGEX_MULTILINE, 0, NULL);
	GMatchInfo *mi = NULL;
	char *r;

	ck_assert_msg(g_regex_match(re, show, 0, &mi), "no line for %s in:\n%s", name, show);
	{
		g_autofree char *off = g_match_info_fetch(mi, 2), *size = g_match_info_fetch(mi, 3);

		r = g_strdup_printf("%s %s", off, size);
	}
	g_match_info_free(mi);
	return r;
}

/* --as-patch output compiles with gcc and gcc's offsetof/sizeof are what layout show prints,
 * for an import edited with every kind of edit. */
START_TEST(as_patch_compiles_with_the_offsets_show_prints)
{
	g_autofree char *dir = tmpdir(), *outer = g_build_filename(dir, "outer.yaml", NULL);
	g_autofree char *edited = g_build_filename(dir, "edited.yaml", NULL);
	g_autofree char *csrc = g_build_filename(dir, "t.c", NULL), *exe = g_build_filename(dir, "t", NULL);
	g_autofree char *structs = tu_src_path("sim/tests/data/structs/structs.c");
	const char *edits[] = {"--move", "hot:after:tag", "--swap", "in:arr", "--pad", "fn:64",
			       "--group", "g:u,named:aligned", "--align", "bf:32", "--pad", "arr:16"};
	const char *names[] = {"tag", "hot", "arr", "in", "u", "named", "fn", "bf"};
	GPtrArray *av = g_ptr_array_new();
	GString *prog = g_string_new(prelude);
	g_autofree char *patch = NULL, *show = NULL, *out = NULL;
	struct cmd c = {0};
	int status;

	c2csim(&c, (const char *[]){"layout", "import", "--from", getenv("C2CSIM_STRUCTS_OBJ"),
				    "-C", "outer", "--recursive", "-o", dir, NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	cmd_free(&c);
	for (int pass = 0; pass < 3; pass++) {
		g_ptr_array_set_size(av, 0);
		g_ptr_array_add(av, pass < 2 ? "layout" : "layout");
		g_ptr_array_add(av, pass < 2 ? "edit" : "show");
		g_ptr_array_add(av, pass < 2 ? outer : edited);
		for (int i = 0; pass < 2 && i < (int)G_N_ELEMENTS(edits); i++)
			g_ptr_array_add(av, (char *)edits[i]);
		g_ptr_array_add(av, pass == 0 ? "--as-patch" : pass == 1 ? "-o" : NULL);
		g_ptr_array_add(av, pass == 1 ? edited : NULL);
		g_ptr_array_add(av, NULL);
		c2csim(&c, (const char *const *)av->pdata);
		ck_assert_msg(c.status == 0, "%s", c.err);
		if (pass == 0)
			patch = g_steal_pointer(&c.out);
		if (pass == 2)
			show = g_steal_pointer(&c.out);
		cmd_free(&c);
	}
	ck_assert_ptr_nonnull(strstr(patch, "__cacheline_group_begin_aligned(g);"));
	ck_assert_ptr_nonnull(strstr(patch, "CACHELINE_PADDING(_pad_fn_);"));
	/* The structs it embeds, then the patch as a struct of its own name. */
	g_string_append_printf(prog, "#include \"%s\"\n", structs);
	g_string_append(prog, strstr(patch, "struct outer {") + strlen("struct outer"));
	g_string_insert(prog, prog->len - strlen(strstr(patch, "struct outer {") + 12),
			"struct outer_edited");
	g_string_append(prog, "int main(void)\n{\n");
	for (int i = 0; i < (int)G_N_ELEMENTS(names); i++)
		g_string_append_printf(prog, "\tprintf(\"%s %%zu %%zu\\n\", offsetof(struct "
				       "outer_edited, %s), sizeof(((struct outer_edited *)0)->%s));\n",
				       names[i], names[i], names[i]);
	g_string_append(prog, "\treturn 0;\n}\n");
	ck_assert(g_file_set_contents(csrc, prog->str, -1, NULL));
	{
		const char *cc[] = {getenv("C2CSIM_GCC"), "-Wall", "-Werror", "-o", exe, csrc, NULL};
		const char *run[] = {exe, NULL};
		g_autofree char *cerr = NULL;

		ck_assert(g_spawn_sync(NULL, (char **)cc, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL,
				       &cerr, &status, NULL));
		ck_assert_msg(status == 0, "gcc: %s\n%s", cerr, prog->str);
		ck_assert(g_spawn_sync(NULL, (char **)run, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				       NULL, &status, NULL));
	}
	for (int i = 0; i < (int)G_N_ELEMENTS(names); i++) {
		g_autofree char *want = shown(show, names[i]);
		g_autofree char *line = g_strdup_printf("%s %s\n", names[i], want);

		ck_assert_msg(strstr(out, line), "gcc has not '%s' in:\n%s\nshow:\n%s", line, out,
			      show);
	}
	g_string_free(prog, TRUE);
	g_ptr_array_free(av, TRUE);
	rm_rf(dir);
}
END_TEST

static void write_file(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	ck_assert(g_file_set_contents(path, text, -1, NULL));
}

/* An imported struct without align: embedded in a computed layout takes the alignment its
 * members imply (lruvec: 8, from its list heads), not 1; an implied alignment its size
 * contradicts is an error at the embedding member. */
START_TEST(embedded_import_takes_its_implied_alignment)
{
	g_autofree char *dir = tmpdir(), *holder = g_build_filename(dir, "holder.yaml", NULL);
	g_autofree char *odd = g_build_filename(dir, "odd_holder.yaml", NULL);
	struct cmd c = {0};

	write_file(dir, "holder.yaml", "struct: holder\nmembers:\n  - {name: flag, type: bool}\n"
		   "  - {name: lruvec, type: \"struct lruvec\", layout: lruvec}\n");
	write_file(dir, "odd.yaml", "struct: odd\nsize: 12\nmembers:\n"
		   "  - {name: a, type: long, offset: 0, size: 8}\n"
		   "  - {name: b, type: int, offset: 8, size: 4}\n");
	write_file(dir, "odd_holder.yaml", "struct: odd_holder\nmembers:\n  - {name: c, type: char}\n"
		   "  - {name: o, type: \"struct odd\", layout: odd}\n");
	c2csim(&c, (const char *[]){"layout", "fields", holder, "--layouts", "layouts/linux-6.18",
				    NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_ptr_nonnull(strstr(c.out, "\nlruvec.lists[0].next\t8\t8\n"));
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "show", odd, NULL});
	assert_one_line_error(&c, "odd_holder.yaml:4:5", "size 12 is not a multiple of the "
			      "alignment 8 its members imply");
	cmd_free(&c);
	rm_rf(dir);
}
END_TEST

/* A FILE's embedded structs come from its own directory and --layouts, never silently from
 * the default kernel; a STRUCT name without --layouts comes from the default. */
START_TEST(one_resolution_order)
{
	g_autofree char *dir = tmpdir(), *holder = g_build_filename(dir, "holder.yaml", NULL);
	struct cmd c = {0};

	write_file(dir, "holder.yaml", "struct: holder\nmembers:\n"
		   "  - {name: swap, type: \"struct page_counter\", layout: page_counter}\n");
	c2csim(&c, (const char *[]){"layout", "show", holder, NULL});
	assert_one_line_error(&c, "holder.yaml:3:5", "no layout for struct page_counter");
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "show", holder, "--layouts", "layouts/linux-6.18",
				    NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "show", "page_counter", NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	cmd_free(&c);
	rm_rf(dir);
}
END_TEST

/* pahole's order: the hole after lruvec (224-256), then the cacheline 4 boundary at 256;
 * a boundary inside a member is "was N bytes ago" from the next member; tabs only. */
START_TEST(show_prints_in_paholes_order)
{
	struct cmd c = {0};
	const char *hole, *boundary;

	c2csim(&c, (const char *[]){"layout", "show", "mem_cgroup_per_node", NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	hole = strstr(c.out, "\t/* XXX 32 bytes hole */\n");
	boundary = strstr(c.out, "\t/* --- cacheline 4 boundary (256 bytes) --- */\n");
	ck_assert(hole && boundary && hole < boundary);
	ck_assert_ptr_nonnull(strstr(c.out, "/* --- cacheline 7 boundary (448 bytes) was 8 bytes "
				     "ago --- */\n\tstruct mem_cgroup_reclaim_iter"));
	ck_assert_ptr_null(strstr(c.out, "\n "));
	cmd_free(&c);
}
END_TEST

static Suite *layout_edit_suite(void)
{
	Suite *s = suite_create("layout_edit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, cli_and_variant_edits_are_identical);
	tcase_add_test(tc, edit_errors_are_one_line);
	tcase_add_test(tc, edit_lists_read_and_written);
	tcase_add_test(tc, as_patch_compiles_with_the_offsets_show_prints);
	tcase_add_test(tc, embedded_import_takes_its_implied_alignment);
	tcase_add_test(tc, one_resolution_order);
	tcase_add_test(tc, show_prints_in_paholes_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(layout_edit_suite());
}
