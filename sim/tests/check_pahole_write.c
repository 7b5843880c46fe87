/* check_pahole_write.c - unit tests for pahole.c on malformed input, and for layout_write.c
 * (the YAML writer) on the fixtures of pahole_fixtures.h and on layouts built by hand. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "layout/pahole.h"
#include "pahole_fixtures.h"
#include "testutil.h"
#include "yaml/ytree.h"

/* ---- pahole_parse: malformed input ------------------------------------------------------ */

#define HEAD "struct s {\n"
#define A4 "\tint a; /* 0 4 */\n"
#define SUM1 "\n\t/* size: 4, cachelines: 1, members: 1 */\n"
#define MEMBER_MSG "pahole: cannot parse member line (expected 'TYPE NAME; /* OFFSET SIZE */')"
#define HEADER_MSG "pahole: missing 'struct NAME {' header (expected the output of pahole -C NAME)"

static const struct bad_case {
	const char *text;
	const char *msg;
} bad_cases[] = {
	{ "", "bad.txt:1:1: " HEADER_MSG },
	{ "\n  int a; /* 0 4 */\n", "bad.txt:2:3: " HEADER_MSG },
	{ "union u {\n", "bad.txt:1:1: " HEADER_MSG },
	{ "struct s\n", "bad.txt:1:1: " HEADER_MSG },
	{ HEAD "\tint a /* 0 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a;\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a; /* 0 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint; /* 0 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a:3; /* 0 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a; /* 0: 3 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint :3; /* 0: 3 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a[1][1][1][1][1]; /* 0 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a[x]; /* 0 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a __attribute__((__aligned__(48))); /* 0 4 */\n",
	  "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a __attribute__((__packed__)); /* 0 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a; /* 99999999999999999999999 4 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tint a; /* 0 4 */ x\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tenum {\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD "\tvoid (*)(int); /* 0 8 */\n", "bad.txt:2:2: " MEMBER_MSG },
	{ HEAD A4 "};\n", "bad.txt:3:1: pahole: missing size summary (expected '/* size: N, "
	  "cachelines: C, members: M */' before the closing '}')" },
	{ HEAD A4 "\t/* size: 4, cachelines: 1 */\n};\n", "bad.txt:3:2: pahole: cannot parse "
	  "size summary (expected '/* size: N, cachelines: C, members: M */')" },
	{ HEAD A4 "\t/* size: 4, cachelines: 1, members: 2 */\n};\n", "bad.txt:3:2: pahole: size "
	  "summary says 2 members, found 1 (expected one line per member)" },
	{ HEAD "\tint a; /* 2 4 */\n" SUM1 "};\n", "bad.txt:2:2: pahole: member 'a' at offset 2 "
	  "size 4 ends beyond the struct size 4 (expected OFFSET + SIZE <= 4)" },
	{ HEAD "\tunion {\n\t\tint a; /* 0 4 */\n\t\tlong b; /* 0 8 */\n\t}; /* 0 4 */\n" SUM1
	  "};\n", "bad.txt:4:3: pahole: member 'b' at offset 0 size 8 ends beyond the struct "
	  "size 4 (expected OFFSET + SIZE <= 4)" },
	{ HEAD "\tunion {\n\t\tint a; /* 0 4 */\n\t}; /* 2 4 */\n" SUM1 "};\n", "bad.txt:2:2: "
	  "pahole: member 'anonymous union' at offset 2 size 4 ends beyond the struct size 4 "
	  "(expected OFFSET + SIZE <= 4)" },
	{ HEAD A4 SUM1, "bad.txt:1:10: pahole: unbalanced braces: '{' is never closed (expected "
	  "a matching '}')" },
	{ HEAD "\tunion {\n\t\tint a; /* 0 4 */\n", "bad.txt:2:8: pahole: unbalanced braces: '{' "
	  "is never closed (expected a matching '}')" },
	{ HEAD A4 SUM1 "};\n};\n", "bad.txt:6:1: pahole: unbalanced braces: '}' after the end of "
	  "struct s (expected nothing after the closing '};')" },
	{ HEAD A4 SUM1 "};\nstruct t {\n", "bad.txt:6:1: pahole: unexpected text after the end "
	  "of struct s (expected the output for one struct)" },
	{ HEAD "\tunion {\n\t\tint a; /* 0 4 */\n\t} x /* 0 4 */\n", "bad.txt:4:2: pahole: "
	  "cannot parse end of inline union (expected '} NAME; /* OFFSET SIZE */')" },
	{ HEAD "\tstruct {\n\t\tint a; /* 0 4 */\n\t};\n", "bad.txt:4:2: pahole: cannot parse "
	  "end of inline struct (expected '} NAME; /* OFFSET SIZE */')" },
	{ HEAD "\tstruct {\n\t\tint a; /* 0 4 */\n\t} *; /* 0 8 */\n", "bad.txt:4:2: pahole: "
	  "cannot parse end of inline struct (expected '} NAME; /* OFFSET SIZE */')" },
	{ HEAD A4 SUM1 "} s;\n", "bad.txt:5:1: pahole: cannot parse end of struct s (expected "
	  "'};' or '} __attribute__((__aligned__(N)));')" },
	{ HEAD A4 "\t/* XXX\n\tstill a comment\n", "bad.txt:3:2: pahole: unterminated comment "
	  "(expected '*/')" },
};

START_TEST(pahole_parse_malformed)
{
	const struct bad_case *c = &bad_cases[_i];
	struct c2c_err err = { 0 };
	struct layout *l = pahole_parse("bad.txt", c->text, &err);

	ck_assert_msg(l == NULL, "case %d parsed", _i);
	ck_assert(err.set);
	ck_assert_str_eq(err.msg, c->msg);
}
END_TEST

/* A multi-line comment is skipped whole, and the summary may name static members. */
START_TEST(pahole_parse_comment_forms)
{
	const char *text = HEAD A4 "\t/* XXX a comment\n\t   over lines */\n"
			   "\t/* size: 4, cachelines: 1, members: 1, static members: 2 */\n};\n";
	struct c2c_err err = { 0 };
	struct layout *l = pahole_parse("t.txt", text, &err);

	ck_assert_msg(l != NULL, "%s", err.msg);
	ck_assert_uint_eq(l->size, 4);
	layout_free(l);
}
END_TEST

/* ---- layout_write ----------------------------------------------------------------------- */

static char *write_to_string(const struct layout *l, bool with_offsets)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	layout_write(f, l, with_offsets);
	fclose(f);
	return buf;
}

static uint64_t get_u64(const struct yt_node *map, const char *key)
{
	struct c2c_err err = { 0 };
	uint64_t v = 0;

	ck_assert_msg(yt_u64(yt_get(map, key), key, &v, &err), "%s", err.msg);
	return v;
}

static const char *get_str(const struct yt_node *map, const char *key)
{
	const struct yt_node *n = yt_get(map, key);

	ck_assert_msg(n && n->kind == YT_SCALAR, "no scalar %s", key);
	return n->str;
}

/* Compare the written members (a YAML sequence) with the layout's, recursively. */
static void compare_members(const struct yt_node *seq, const struct lmember *arr, uint32_t nr)
{
	ck_assert_int_eq(seq->kind, YT_SEQ);
	ck_assert_uint_eq(seq->len, nr);
	for (uint32_t i = 0; i < nr; i++) {
		const struct yt_node *it = seq->items[i];
		const struct lmember *m = &arr[i];
		const struct yt_node *kind = yt_get(it, "kind");

		ck_assert_uint_eq(get_u64(it, "offset"), m->offset);
		ck_assert_uint_eq(get_u64(it, "size"), m->size);
		if (m->name)
			ck_assert_str_eq(get_str(it, "name"), m->name);
		ck_assert_str_eq(kind ? kind->str : "field", lm_kind_names[m->kind]);
		if (m->kind == LM_FIELD) {
			ck_assert_str_eq(get_str(it, "type"), m->type);
			ck_assert(yt_get(it, "type")->quoted);
		}
		if (m->nr_dims)
			ck_assert_uint_eq(yt_get(it, "dims")->len, m->nr_dims);
		if (m->bits)
			ck_assert_uint_eq(get_u64(it, "bit_offset"), m->bit_offset);
		if (m->layout)
			ck_assert_str_eq(get_str(it, "layout"), m->layout);
		if (m->kind == LM_STRUCT || m->kind == LM_UNION)
			compare_members(yt_get(it, "members"), m->sub, m->nr_sub);
	}
}

static void compare_tree(const struct yt_node *root, const struct layout *l)
{
	ck_assert_int_eq(root->kind, YT_MAP);
	ck_assert_str_eq(get_str(root, "struct"), l->name);
	ck_assert_uint_eq(get_u64(root, "size"), l->size);
	if (l->align)
		ck_assert_uint_eq(get_u64(root, "align"), l->align);
	else
		ck_assert_ptr_null(yt_get(root, "align"));
	ck_assert_str_eq(get_str(root, "source"), "pahole");
	compare_members(yt_get(root, "members"), l->m, l->nr);
}

START_TEST(layout_write_fixtures_parse_back)
{
	GPtrArray *names = linux_fixtures();

	g_ptr_array_add(names, g_strdup("synthetic/bitfields.txt"));
	g_ptr_array_add(names, g_strdup("synthetic/multidim.txt"));
	g_ptr_array_add(names, g_strdup("synthetic/nested.txt"));
	g_ptr_array_add(names, g_strdup("synthetic/packed.txt"));
	for (guint i = 0; i < names->len; i++) {
		struct layout *l = import(names->pdata[i], NULL);
		g_autofree char *out = write_to_string(l, true);
		g_autofree char *again = write_to_string(l, true);
		struct c2c_err err = { 0 };
		struct yt_node *root = yt_load_string("out.yaml", out, strlen(out), &err);

		ck_assert_msg(root != NULL, "%s: %s\n%s", (char *)names->pdata[i], err.msg, out);
		compare_tree(root, l);
		ck_assert_str_eq(out, again); /* deterministic */
		yt_free(root);
		layout_free(l);
	}
	g_ptr_array_unref(names);
}
END_TEST

START_TEST(layout_write_file_loads)
{
	struct layout *l = import(LINUX_DIR "/mem_cgroup.txt", NULL);
	g_autofree char *path = NULL;
	struct c2c_err err = { 0 };
	int fd = g_file_open_tmp("check_pahole-XXXXXX.yaml", &path, NULL);
	FILE *f = fdopen(fd, "w");
	struct yt_node *root;

	ck_assert_ptr_nonnull(f);
	layout_write(f, l, true);
	fclose(f);
	root = yt_load_file(path, &err);
	ck_assert_msg(root != NULL, "%s", err.msg);
	compare_tree(root, l);
	/* The union is the 4th member: line 9 (after 5 header lines and 3 fields). */
	ck_assert_int_eq(yt_get(yt_get(root, "members")->items[3], "kind")->mark.line, 9);
	yt_free(root);
	g_unlink(path);
	layout_free(l);
}
END_TEST

/* A layout with every feature, built by hand, and the exact text it must produce. */
static struct layout *full_layout(void)
{
	struct layout *l = layout_new("demo");
	struct lmember *m, *u;

	l->size = 128;
	l->align = 64;
	l->source = g_strdup("pahole 1.24, \"linux\"");
	l->estimated = true;
	m = lmember_append(&l->m, &l->nr);
	*m = (struct lmember){ .name = g_strdup("flags"), .type = g_strdup("unsigned int"),
			       .offset = 4, .size = 4, .bit_offset = 3, .bits = 5 };
	m = lmember_append(&l->m, &l->nr);
	*m = (struct lmember){ .name = g_strdup("lv"), .type = g_strdup("struct lruvec"),
			       .layout = g_strdup("lruvec"), .offset = 8, .size = 48, .align = 8,
			       .dims = { 2, 3 }, .nr_dims = 2 };
	u = lmember_append(&l->m, &l->nr);
	*u = (struct lmember){ .name = g_strdup("u"), .kind = LM_UNION, .offset = 64,
			       .size = 8, .align = 64 };
	m = lmember_append(&u->sub, &u->nr_sub);
	*m = (struct lmember){ .name = g_strdup("null"), .type = g_strdup("u64"), .offset = 64,
			       .size = 8 };
	m = lmember_append(&l->m, &l->nr);
	*m = (struct lmember){ .name = g_strdup("_pad_"), .kind = LM_PAD, .offset = 72 };
	l->groups = g_new0(struct lgroup, 1);
	l->nr_groups = 1;
	l->groups[0] = (struct lgroup){ g_strdup("hot"), g_strdup("flags"), g_strdup("lv[1]"),
					true, 0, 0, { 0 } };
	l->asserts = g_new0(struct lassert, 2);
	l->nr_asserts = 2;
	l->asserts[0] = (struct lassert){ LA_NOT_SAME_LINE, g_strdup("flags"),
					  g_strdup("u.null"), 0, { 0 } };
	l->asserts[1] = (struct lassert){ LA_GROUP_SIZE, g_strdup("hot"), NULL, 64, { 0 } };
	return l;
}

START_TEST(layout_write_exact_text)
{
	struct layout *l = full_layout();
	g_autofree char *out = write_to_string(l, true);
	g_autofree char *bare = write_to_string(l, false);
	struct c2c_err err = { 0 };
	struct yt_node *root;

	ck_assert_str_eq(out,
		"struct: demo\nsize: 128\nalign: 64\nsource: \"pahole 1.24, \\\"linux\\\"\"\n"
		"estimated: true\nmembers:\n"
		"  - {name: flags, type: \"unsigned int\", offset: 4, size: 4, bit_offset: 3, "
		"bits: 5}\n"
		"  - {name: lv, type: \"struct lruvec\", offset: 8, size: 48, dims: [2, 3], "
		"align: 8, layout: lruvec}\n"
		"  - kind: union\n    name: u\n    offset: 64\n    size: 8\n    align: 64\n"
		"    members:\n"
		"      - {name: \"null\", type: \"u64\", offset: 64, size: 8}\n"
		"  - {kind: pad, name: _pad_, offset: 72, size: 0}\n"
		"groups:\n  - {name: hot, first: flags, last: \"lv[1]\", aligned: true}\n"
		"asserts:\n  - {not_same_line: [flags, u.null]}\n  - {group_size: [hot, 64]}\n");
	ck_assert_str_eq(bare,
		"struct: demo\nsize: 128\nalign: 64\nsource: \"pahole 1.24, \\\"linux\\\"\"\n"
		"estimated: true\nmembers:\n"
		"  - {name: flags, type: \"unsigned int\", size: 4, bits: 5}\n"
		"  - {name: lv, type: \"struct lruvec\", size: 48, dims: [2, 3], align: 8, "
		"layout: lruvec}\n"
		"  - kind: union\n    name: u\n    size: 8\n    align: 64\n    members:\n"
		"      - {name: \"null\", type: \"u64\", size: 8}\n"
		"  - {kind: pad, name: _pad_, size: 0}\n"
		"groups:\n  - {name: hot, first: flags, last: \"lv[1]\", aligned: true}\n"
		"asserts:\n  - {not_same_line: [flags, u.null]}\n  - {group_size: [hot, 64]}\n");
	root = yt_load_string("out.yaml", out, strlen(out), &err);
	ck_assert_msg(root != NULL, "%s", err.msg);
	ck_assert_str_eq(get_str(root, "source"), "pahole 1.24, \"linux\"");
	ck_assert_str_eq(get_str(root, "estimated"), "true");
	ck_assert_str_eq(get_str(yt_get(yt_get(root, "members")->items[2], "members")->items[0],
				 "name"), "null");
	yt_free(root);
	layout_free(l);
}
END_TEST

START_TEST(layout_write_empty_layout)
{
	struct layout *l = layout_new("empty");
	g_autofree char *out = write_to_string(l, true);
	struct c2c_err err = { 0 };
	struct yt_node *root = yt_load_string("out.yaml", out, strlen(out), &err);

	ck_assert_str_eq(out, "struct: empty\nsize: 0\nmembers: []\n");
	ck_assert_msg(root != NULL, "%s", err.msg);
	yt_free(root);
	layout_free(l);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------ */

static Suite *pahole_write_suite(void)
{
	Suite *s = suite_create("pahole_write");
	TCase *tc = tcase_create("pahole_parse");

	tcase_add_loop_test(tc, pahole_parse_malformed, 0, (int)G_N_ELEMENTS(bad_cases));
	tcase_add_test(tc, pahole_parse_comment_forms);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout_write");
	tcase_add_test(tc, layout_write_fixtures_parse_back);
	tcase_add_test(tc, layout_write_file_loads);
	tcase_add_test(tc, layout_write_exact_text);
	tcase_add_test(tc, layout_write_empty_layout);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(pahole_write_suite());
}
