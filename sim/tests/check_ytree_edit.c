/* check_ytree_edit.c - unit tests for ytree.c: copies, overrides (yt_set_path, yt_replace)
 * and emit (yt_emit, yt_needs_quotes). */
#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "yaml/ytree.h"
#include "testutil.h"
#include "ytree_helpers.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* Structural equality: kinds, texts, quoted flags, order; marks are not compared. */
static bool tree_equal(const struct yt_node *a, const struct yt_node *b)
{
	size_t i;

	if (a->kind != b->kind || a->len != b->len)
		return false;
	if (a->kind == YT_SCALAR)
		return !strcmp(a->str, b->str) && a->quoted == b->quoted;
	for (i = 0; i < a->len; i++) {
		if (a->kind == YT_MAP && (!tree_equal(a->pairs[i].key, b->pairs[i].key) ||
					  !tree_equal(a->pairs[i].val, b->pairs[i].val)))
			return false;
		if (a->kind == YT_SEQ && !tree_equal(a->items[i], b->items[i]))
			return false;
	}
	return true;
}

/* yt_emit into a string. */
static char *emit_str(const struct yt_node *n, int indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	yt_emit(f, n, indent);
	fclose(f);
	return buf;
}

/* Emit @root, parse it back and require the same tree. */
static void assert_round_trip(const struct yt_node *root)
{
	char *text = emit_str(root, 0);
	struct c2c_err err = { 0 };
	struct yt_node *back = yt_load_string("emitted", text, strlen(text), &err);

	ck_assert_msg(back != NULL, "re-parse failed: %s\n%s", err.msg, text);
	ck_assert_msg(tree_equal(root, back), "round trip differs:\n%s", text);
	yt_free(back);
	free(text);
}

/* ---- yt_copy ----------------------------------------------------------------------------- */

START_TEST(yt_copy_independent)
{
	struct yt_node *root = load_ok("a: {b: [1, \"2\"]}\nc: 3\n");
	struct yt_node *copy = yt_copy(root);
	struct yt_node *b;

	ck_assert(tree_equal(root, copy));
	ck_assert_ptr_ne(copy, root);
	ck_assert_ptr_ne(yt_get(copy, "a"), yt_get(root, "a"));
	g_free(yt_get(copy, "c")->str);
	yt_get(copy, "c")->str = g_strdup("changed");
	ck_assert_str_eq(yt_get(root, "c")->str, "3");
	yt_free(root);
	/* The copy's marks must outlive the original tree. */
	b = yt_get(yt_get(copy, "a"), "b");
	assert_mark(b, "t.yaml", 1, 8);
	ck_assert(b->items[1]->quoted);
	yt_free(copy);
}
END_TEST

START_TEST(yt_copy_subtree_null)
{
	struct yt_node *root = load_ok("a: {b: 1}\n");
	struct yt_node *sub = yt_copy(yt_get(root, "a"));

	ck_assert_ptr_null(yt_copy(NULL));
	yt_free(root);
	assert_mark(yt_get(sub, "b"), "t.yaml", 1, 8);
	yt_free(sub);
}
END_TEST

/* ---- yt_set_path ------------------------------------------------------------------------- */

static const char scenario[] = "a:\n  b: 1\n  s: x\nactors:\n  - {name: p0, cpus: [0]}\n"
			       "  - {name: p1, cpus: [1]}\n";

START_TEST(yt_set_path_replace_existing)
{
	struct yt_node *root = load_ok(scenario);
	struct yt_node *b = yt_get(yt_get(root, "a"), "b");
	struct c2c_err err = { 0 };

	ck_assert(yt_set_path(root, "a.b", "7.5", "--set", &err));
	ck_assert(!err.set);
	ck_assert_ptr_eq(yt_get(yt_get(root, "a"), "b"), b); /* replaced in place */
	ck_assert_str_eq(b->str, "7.5");
	assert_mark(b, "--set", 1, 1);
	/* The key keeps its source mark; the tree still has two keys under a. */
	assert_mark(yt_get(root, "a")->pairs[0].key, "t.yaml", 2, 3);
	ck_assert_uint_eq(yt_get(root, "a")->len, 2);
	yt_free(root);
}
END_TEST

START_TEST(yt_set_path_create_nested)
{
	struct yt_node *root = load_ok(scenario);
	struct c2c_err err = { 0 };
	struct yt_node *z;

	ck_assert(yt_set_path(root, "x.y.z", "{k: [1, 2]}", "variants[1].set", &err));
	z = yt_get(yt_get(yt_get(root, "x"), "y"), "z");
	ck_assert_int_eq(z->kind, YT_MAP);
	ck_assert_str_eq(yt_get(z, "k")->items[1]->str, "2");
	assert_mark(z, "variants[1].set", 1, 1);
	assert_mark(yt_get(root, "x"), "variants[1].set", 1, 1);
	assert_mark(yt_get(z, "k")->items[1], "variants[1].set", 1, 9);
	ck_assert(yt_set_path(root, "a.new", "\"12\"", "--set", &err));
	ck_assert(yt_get(yt_get(root, "a"), "new")->quoted);
	ck_assert(yt_set_path(root, "a.empty", "", "--set", &err));
	ck_assert_str_eq(yt_get(yt_get(root, "a"), "empty")->str, "");
	ck_assert(!err.set);
	yt_free(root);
}
END_TEST

START_TEST(yt_set_path_index_into_seq)
{
	struct yt_node *root = load_ok(scenario);
	struct c2c_err err = { 0 };
	struct yt_node *cpus, *actors;

	ck_assert(yt_set_path(root, "actors[1].cpus", "[4, 5]", "--set", &err));
	actors = yt_get(root, "actors");
	cpus = yt_get(actors->items[1], "cpus");
	ck_assert_uint_eq(cpus->len, 2);
	ck_assert_str_eq(cpus->items[0]->str, "4");
	ck_assert(yt_set_path(root, "actors[0].cpus[0]", "9", "--set", &err));
	ck_assert_str_eq(yt_get(actors->items[0], "cpus")->items[0]->str, "9");
	ck_assert(yt_set_path(root, "actors[0].prio", "3", "--set", &err));
	ck_assert_str_eq(yt_get(actors->items[0], "prio")->str, "3");
	ck_assert(!err.set);
	yt_free(root);
}
END_TEST

/* yt_set_path on a fresh scenario that must fail with @msg and leave the tree unchanged. */
static void set_fails(const char *path, const char *value, const char *msg)
{
	struct yt_node *root = load_ok(scenario), *orig = yt_copy(root);
	struct c2c_err err = { 0 };

	ck_assert(!yt_set_path(root, path, value, "--set", &err));
	ASSERT_ERR(err, msg);
	ck_assert(tree_equal(root, orig));
	yt_free(root);
	yt_free(orig);
}

START_TEST(yt_set_path_errors)
{
	set_fails("a.b.c", "1", "--set:1:1: path 'a.b.c': cannot descend into 'a.b' (a scalar) "
				"(expected a mapping)");
	set_fails("actors.x", "1", "--set:1:1: path 'actors.x': cannot descend into 'actors' "
				   "(a sequence) (expected a mapping)");
	set_fails("actors[2].cpus", "1", "--set:1:1: path 'actors[2].cpus': index 2 is out of "
					 "range for 'actors' (expected an index below 2)");
	set_fails("a[0]", "1", "--set:1:1: path 'a[0]': cannot index 'a' (a mapping) "
			       "(expected a sequence)");
	set_fails("a.q.r[0]", "1", "--set:1:1: path 'a.q.r[0]': 'a.q.r' does not exist "
				   "(expected an existing sequence to index)");
	set_fails("a..b", "1", "--set:1:1: bad path 'a..b' (expected keys like a.b[0].c)");
	set_fails("a.b[x]", "1", "--set:1:1: bad path 'a.b[x]' (expected keys like a.b[0].c)");
	set_fails("", "1", "--set:1:1: bad path '' (expected keys like a.b[0].c)");
	/* libyaml ends an unterminated last line before reporting, hence line 2. */
	set_fails("a.b", "[1,", "--set:2:1: did not find expected node content while parsing a "
				"flow node at 2:1 (expected valid YAML)");
	set_fails("a.b", "a: b: c", "--set:1:5: mapping values are not allowed in this context "
				    "(expected valid YAML)");
}
END_TEST

START_TEST(yt_set_path_root_not_a_map)
{
	struct yt_node *root = load_ok("[1, 2]");
	struct c2c_err err = { 0 };

	ck_assert(!yt_set_path(root, "a", "1", "--set", &err));
	ASSERT_ERR(err, "--set:1:1: path 'a': cannot descend into the root (a sequence) "
			"(expected a mapping)");
	yt_free(root);
}
END_TEST

/* ---- yt_replace -------------------------------------------------------------------------- */

START_TEST(yt_replace_graft_other_tree)
{
	struct yt_node *scen = load_ok("machine: m.yaml\nx: 1\n");
	struct c2c_err err = { 0 };
	const char *text = "cores: 4\nl1: {size: 32}\n";
	struct yt_node *mach = yt_load_string("m.yaml", text, strlen(text), &err);
	struct yt_node *slot = yt_get(scen, "machine");

	ck_assert_ptr_nonnull(mach);
	yt_replace(slot, mach);
	yt_free(mach);
	ck_assert_ptr_eq(yt_get(scen, "machine"), slot);
	ck_assert_int_eq(slot->kind, YT_MAP);
	assert_mark(slot, "m.yaml", 1, 1);
	assert_mark(yt_get(yt_get(slot, "l1"), "size"), "m.yaml", 2, 12);
	assert_mark(scen->pairs[0].key, "t.yaml", 1, 1);
	yt_free(scen);
}
END_TEST

START_TEST(yt_replace_with_own_child)
{
	struct yt_node *root = load_ok("a: {b: {c: 1}}\n");
	struct yt_node *a = yt_get(root, "a");

	yt_replace(a, yt_get(a, "b"));
	ck_assert_str_eq(yt_get(a, "c")->str, "1");
	ck_assert_ptr_null(yt_get(a, "b"));
	yt_free(root);
}
END_TEST

/* ---- yt_emit ----------------------------------------------------------------------------- */

START_TEST(yt_emit_exact_text)
{
	struct yt_node *root = load_ok("a: 1\nb: [x, {c: \"2\"}, [3, 4]]\nd: {}\ne: []\nf:\n"
				       "g: {h: {i: [j]}}\n");
	char *text = emit_str(root, 0);

	ck_assert_str_eq(text, "a: 1\n"
			       "b:\n"
			       "  - x\n"
			       "  - c: \"2\"\n"
			       "  - - 3\n"
			       "    - 4\n"
			       "d: {}\n"
			       "e: []\n"
			       "f:\n"
			       "g:\n"
			       "  h:\n"
			       "    i:\n"
			       "      - j\n");
	free(text);
	yt_free(root);
}
END_TEST

START_TEST(yt_emit_round_trip)
{
	static const char *const docs[] = {
		"a: 1\nb: \"1\"\nc: 'true'\nd: true\ne: \"\"\nf:\ng: ~\n",
		"list:\n  - {name: p0, cpus: [0, 1], opts: {}}\n  - [a, [b, []]]\n  - \"x: y\"\n",
		"s: \"line1\\nline2\\ttab \\\"q\\\" back\\\\slash\"\n\"key: odd\": v\n'#k': ' lead'\n",
		"u: \"caf\xc3\xa9\"\nbell: \"\\x07\"\nlit: |\n  two\n  lines\n",
		"url: http://x/y\nhash: a#b\ndash: -x\nneg: -3\nflow: x,y\n",
		"- 1\n- - 2\n  - {}\n- k: v\n  m:\n    - n\n",
		"just a scalar",
		"[]",
		"{}",
		"\"12\"",
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(docs); i++) {
		struct yt_node *root = load_ok(docs[i]);

		assert_round_trip(root);
		yt_free(root);
	}
}
END_TEST

START_TEST(yt_emit_indent_and_set_path)
{
	struct yt_node *root = load_ok(scenario);
	struct c2c_err err = { 0 };
	struct yt_node *back;
	char *text;

	ck_assert(yt_set_path(root, "x.y", "{k: \"on\"}", "--set", &err));
	text = emit_str(root, 4);
	ck_assert(!strncmp(text, "    a:\n      b: 1\n", 18));
	back = yt_load_string("e", text, strlen(text), &err);
	ck_assert_msg(back != NULL, "%s", err.msg);
	ck_assert(tree_equal(root, back));
	yt_free(back);
	free(text);
	yt_free(root);
}
END_TEST

/* ---- yt_needs_quotes --------------------------------------------------------------------- */

START_TEST(yt_needs_quotes_cases)
{
	static const char *const yes[] = { "", " a", "a ", "a:b", "#x", "x#", "{", "}", "[", "]",
					   ",", "&a", "*a", "!a", "|", ">", "'", "\"", "%", "@",
					   "`", "a\nb", "true", "FALSE", "Yes", "no", "ON", "off",
					   "null", "~", "12", "0x1F", "-3", ".5", "-", "?x", NULL };
	static const char *const no[] = { "hello", "a b", "mesi", "x1", "caf\xc3\xa9", "a_b",
					  "nil", "t", NULL };
	size_t i;

	for (i = 0; yes[i]; i++)
		ck_assert_msg(yt_needs_quotes(yes[i]), "'%s' should need quotes", yes[i]);
	for (i = 0; no[i]; i++)
		ck_assert_msg(!yt_needs_quotes(no[i]), "'%s' should not need quotes", no[i]);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *ytree_edit_suite(void)
{
	Suite *s = suite_create("ytree_edit");
	TCase *tc;

	tc = tcase(s, "yt_copy");
	tcase_add_test(tc, yt_copy_independent);
	tcase_add_test(tc, yt_copy_subtree_null);
	tc = tcase(s, "yt_set_path");
	tcase_add_test(tc, yt_set_path_replace_existing);
	tcase_add_test(tc, yt_set_path_create_nested);
	tcase_add_test(tc, yt_set_path_index_into_seq);
	tcase_add_test(tc, yt_set_path_errors);
	tcase_add_test(tc, yt_set_path_root_not_a_map);
	tc = tcase(s, "yt_replace");
	tcase_add_test(tc, yt_replace_graft_other_tree);
	tcase_add_test(tc, yt_replace_with_own_child);
	tc = tcase(s, "yt_emit");
	tcase_add_test(tc, yt_emit_exact_text);
	tcase_add_test(tc, yt_emit_round_trip);
	tcase_add_test(tc, yt_emit_indent_and_set_path);
	tc = tcase(s, "yt_needs_quotes");
	tcase_add_test(tc, yt_needs_quotes_cases);
	return s;
}

int main(void)
{
	return tu_run(ytree_edit_suite());
}
