/* check_ytree.c - unit tests for ytree.c: parsing, marks, freeing and mapping access.
 * The typed getters are in check_ytree_getters.c; copies, overrides and emit in
 * check_ytree_edit.c. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "yaml/ytree.h"
#include "testutil.h"
#include "ytree_helpers.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* Parse @text that must fail with exactly @msg. */
static void load_fails(const char *text, const char *msg)
{
	struct c2c_err err = { 0 };
	struct yt_node *root = load(text, &err);

	ck_assert_ptr_null(root);
	ck_assert(err.set);
	ck_assert_str_eq(err.msg, msg);
}

/* A temporary file holding @text; the caller unlinks and frees the returned path. */
static char *write_tmp(const char *text)
{
	char *path = NULL;
	int fd = g_file_open_tmp("check_ytree-XXXXXX.yaml", &path, NULL);
	size_t len = strlen(text);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

static void remove_tmp(char *path)
{
	g_unlink(path);
	g_free(path);
}

/* ---- yt_load_file ------------------------------------------------------------------------ */

START_TEST(yt_load_file_nested_marks)
{
	char *path = write_tmp("top:\n  list:\n    - 1\n    - {a: x}\n  name: \"q\"\n");
	struct c2c_err err = { 0 };
	struct yt_node *root = yt_load_file(path, &err), *top, *list;

	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(root->kind, YT_MAP);
	assert_mark(root, path, 1, 1);
	assert_mark(root->pairs[0].key, path, 1, 1);
	top = yt_get(root, "top");
	assert_mark(top, path, 2, 3);
	list = yt_get(top, "list");
	ck_assert_int_eq(list->kind, YT_SEQ);
	ck_assert_uint_eq(list->len, 2);
	assert_mark(list, path, 3, 5);
	assert_mark(list->items[0], path, 3, 7);
	ck_assert_str_eq(list->items[0]->str, "1");
	ck_assert(!list->items[0]->quoted);
	assert_mark(list->items[1], path, 4, 7);
	assert_mark(yt_get(list->items[1], "a"), path, 4, 11);
	assert_mark(yt_get(top, "name"), path, 5, 9);
	ck_assert(yt_get(top, "name")->quoted);
	yt_free(root);
	remove_tmp(path);
}
END_TEST

START_TEST(yt_load_file_missing)
{
	struct c2c_err err = { 0 };

	ck_assert_ptr_null(yt_load_file("/nonexistent-c2c/x.yaml", &err));
	ASSERT_ERR(err, "/nonexistent-c2c/x.yaml:1:1: cannot open: No such file or directory "
			"(expected a regular file of at most 16 MiB)");
}
END_TEST

START_TEST(yt_load_file_directory)
{
	struct c2c_err err = { 0 };
	const char *dir = g_get_tmp_dir();
	char *want = g_strdup_printf("%s:1:1: is a directory, not a regular file "
				     "(expected a regular file of at most 16 MiB)", dir);

	ck_assert_ptr_null(yt_load_file(dir, &err));
	ASSERT_ERR(err, want);
	g_free(want);
}
END_TEST

START_TEST(yt_load_file_empty)
{
	char *path = write_tmp("");
	char *want = g_strdup_printf("%s:1:1: empty document (expected a mapping)", path);
	struct c2c_err err = { 0 };

	ck_assert_ptr_null(yt_load_file(path, &err));
	ASSERT_ERR(err, want);
	g_free(want);
	remove_tmp(path);
}
END_TEST

START_TEST(yt_load_file_syntax_error)
{
	char *path = write_tmp("a: 1\nb:\n  c: d: e\n");
	char *want = g_strdup_printf("%s:3:7: mapping values are not allowed in this context "
				     "(expected valid YAML)", path);
	struct c2c_err err = { 0 };

	ck_assert_ptr_null(yt_load_file(path, &err));
	ASSERT_ERR(err, want);
	g_free(want);
	remove_tmp(path);
}
END_TEST

/* ---- yt_load_string ---------------------------------------------------------------------- */

START_TEST(yt_load_string_flow_style)
{
	struct yt_node *root = load_ok("{a: [1, 2], b: {c: d}}");
	struct yt_node *a = yt_get(root, "a"), *b = yt_get(root, "b");

	ck_assert_int_eq(root->kind, YT_MAP);
	ck_assert_int_eq(a->kind, YT_SEQ);
	ck_assert_uint_eq(a->len, 2);
	ck_assert_str_eq(a->items[1]->str, "2");
	assert_mark(a, "t.yaml", 1, 5);
	assert_mark(a->items[1], "t.yaml", 1, 9);
	ck_assert_str_eq(yt_get(b, "c")->str, "d");
	assert_mark(yt_get(b, "c"), "t.yaml", 1, 20);
	yt_free(root);
}
END_TEST

START_TEST(yt_load_string_quoted_flags)
{
	struct yt_node *root = load_ok("a: \"12\"\nb: 12\nc: 'x'\nd: |\n  text\ne: !!str 5\nf:\n");

	ck_assert(yt_get(root, "a")->quoted);
	ck_assert(!yt_get(root, "b")->quoted);
	ck_assert(yt_get(root, "c")->quoted);
	ck_assert(yt_get(root, "d")->quoted);
	ck_assert_str_eq(yt_get(root, "d")->str, "text\n");
	ck_assert(yt_get(root, "e")->quoted);
	ck_assert_str_eq(yt_get(root, "f")->str, "");
	ck_assert(!yt_get(root, "f")->quoted);
	yt_free(root);
}
END_TEST

START_TEST(yt_load_string_scalar_root)
{
	struct yt_node *root = load_ok("hello");

	ck_assert_int_eq(root->kind, YT_SCALAR);
	ck_assert_str_eq(root->str, "hello");
	yt_free(root);
}
END_TEST

START_TEST(yt_load_string_duplicate_key)
{
	load_fails("a: 1\nb: 2\na: 3\n", "t.yaml:3:1: duplicate key 'a' (first at 1:1)");
	load_fails("x:\n  - {k: 1, k: 2}\n", "t.yaml:2:12: duplicate key 'k' (first at 2:6)");
}
END_TEST

START_TEST(yt_load_string_alias_rejected)
{
	load_fails("a: &x 1\nb: *x\n",
		   "t.yaml:1:4: anchors and aliases are not supported "
		   "(expected the value written out)");
	load_fails("a: *x\n", "t.yaml:1:4: anchors and aliases are not supported "
			      "(expected the value written out)");
}
END_TEST

START_TEST(yt_load_string_malformed)
{
	load_fails("a: b: c", "t.yaml:1:5: mapping values are not allowed in this context "
			      "(expected valid YAML)");
	load_fails("a: [1, 2\n", "t.yaml:2:1: did not find expected ',' or ']' while parsing a "
				 "flow sequence at 1:4 (expected valid YAML)");
	load_fails("a: 1\nb: \xff\n", "t.yaml:2:4: invalid leading UTF-8 octet "
				     "(expected valid YAML)");
}
END_TEST

START_TEST(yt_load_string_empty)
{
	load_fails("", "t.yaml:1:1: empty document (expected a mapping)");
	load_fails("# only a comment\n", "t.yaml:2:1: empty document (expected a mapping)");
	load_fails("---\n", "t.yaml:2:1: empty document (expected a mapping)");
}
END_TEST

START_TEST(yt_load_string_multiple_documents)
{
	load_fails("a: 1\n---\nb: 2\n", "t.yaml:2:1: multiple documents are not supported "
					"(expected a single document)");
}
END_TEST

START_TEST(yt_load_string_non_scalar_key)
{
	load_fails("{[a]: 1}", "t.yaml:1:2: mapping key is a sequence (expected a scalar key)");
	load_fails("? {k: v}\n: 1\n", "t.yaml:1:3: mapping key is a mapping "
				     "(expected a scalar key)");
}
END_TEST

START_TEST(yt_load_string_custom_tag)
{
	load_fails("a: !thing x\n",
		   "t.yaml:1:4: tag '!thing' is not supported (expected an untagged value)");
}
END_TEST

START_TEST(yt_load_string_too_deep)
{
	GString *s = g_string_new(NULL);
	struct c2c_err err = { 0 };
	int i;

	for (i = 0; i < 300; i++)
		g_string_append_c(s, '[');
	for (i = 0; i < 300; i++)
		g_string_append_c(s, ']');
	ck_assert_ptr_null(yt_load_string("t.yaml", s->str, s->len, &err));
	ASSERT_ERR(err, "t.yaml:1:202: nesting deeper than 200 levels "
			"(expected a flatter document)");
	g_string_free(s, TRUE);
}
END_TEST

START_TEST(yt_load_string_null_name)
{
	struct yt_node *root = yt_load_string(NULL, "a: 1", 4, NULL);

	assert_mark(root, "<string>", 1, 1);
	yt_free(root);
}
END_TEST

/* ---- yt_free ----------------------------------------------------------------------------- */

START_TEST(yt_free_null)
{
	yt_free(NULL);
}
END_TEST

START_TEST(yt_free_detached_subtree)
{
	struct yt_node *root = load_ok("a: {b: [1, 2]}\nc: 3\n");
	struct yt_node *sub = root->pairs[0].val;

	/* Detach "a"'s value, free it alone, then the rest. */
	root->pairs[0].val = load_ok("x");
	yt_free(sub);
	ck_assert_str_eq(yt_get(root, "a")->str, "x");
	yt_free(root);
}
END_TEST

/* ---- yt_get ------------------------------------------------------------------------------ */

START_TEST(yt_get_found_and_missing)
{
	struct yt_node *root = load_ok("a: 1\nb: [2]\n");

	ck_assert_str_eq(yt_get(root, "a")->str, "1");
	ck_assert_ptr_null(yt_get(root, "zz"));
	ck_assert_ptr_null(yt_get(yt_get(root, "b"), "a"));
	ck_assert_ptr_null(yt_get(NULL, "a"));
	yt_free(root);
}
END_TEST

/* ---- yt_expect_map ----------------------------------------------------------------------- */

static const char *const machine_keys[] = { "topology", "caches", "latency", NULL };

START_TEST(yt_expect_map_ok)
{
	struct yt_node *root = load_ok("topology: x\nlatency: 3\n");
	struct c2c_err err = { 0 };

	ck_assert(yt_expect_map(root, "machine", machine_keys, &err));
	ck_assert(yt_expect_map(root, "machine", NULL, &err));
	ck_assert(!err.set);
	yt_free(root);
}
END_TEST

START_TEST(yt_expect_map_unknown_key_suggestion)
{
	struct yt_node *root = load_ok("topology: x\nlatncy: 3\n");
	struct c2c_err err = { 0 };

	ck_assert(!yt_expect_map(root, "machine", machine_keys, &err));
	ASSERT_ERR(err, "t.yaml:2:1: machine: unknown key 'latncy' (expected one of: topology, "
			"caches, latency; did you mean 'latency'?)");
	yt_free(root);
}
END_TEST

START_TEST(yt_expect_map_unknown_key_no_suggestion)
{
	struct yt_node *root = load_ok("zzzzzzzzzz: 1\n");
	struct c2c_err err = { 0 };

	ck_assert(!yt_expect_map(root, "machine", machine_keys, &err));
	ASSERT_ERR(err, "t.yaml:1:1: machine: unknown key 'zzzzzzzzzz' (expected one of: "
			"topology, caches, latency)");
	yt_free(root);
}
END_TEST

START_TEST(yt_expect_map_not_a_mapping)
{
	struct yt_node *root = load_ok("machine:\n  - a\n");
	struct c2c_err err = { 0 };

	ck_assert(!yt_expect_map(yt_get(root, "machine"), "machine", machine_keys, &err));
	ASSERT_ERR(err, "t.yaml:2:3: machine: expected a mapping (got a sequence)");
	yt_free(root);
}
END_TEST

/* ---- yt_require -------------------------------------------------------------------------- */

START_TEST(yt_require_present)
{
	struct yt_node *root = load_ok("a: 1\n");
	struct c2c_err err = { 0 };

	ck_assert_str_eq(yt_require(root, "a", "scenario", &err)->str, "1");
	ck_assert(!err.set);
	yt_free(root);
}
END_TEST

START_TEST(yt_require_missing)
{
	struct yt_node *root = load_ok("x:\n  a: 1\n");
	struct c2c_err err = { 0 };

	ck_assert_ptr_null(yt_require(yt_get(root, "x"), "b", "x", &err));
	ASSERT_ERR(err, "t.yaml:2:3: missing key 'b' in x");
	yt_free(root);
}
END_TEST

START_TEST(yt_require_not_a_mapping)
{
	struct yt_node *root = load_ok("[1]");
	struct c2c_err err = { 0 };

	ck_assert_ptr_null(yt_require(root, "b", "scenario", &err));
	ASSERT_ERR(err, "t.yaml:1:1: scenario: expected a mapping (got a sequence)");
	yt_free(root);
}
END_TEST

/* ---- yt_expect_seq ----------------------------------------------------------------------- */

START_TEST(yt_expect_seq_ok)
{
	struct yt_node *root = load_ok("l: [1]\n");
	struct c2c_err err = { 0 };

	ck_assert(yt_expect_seq(yt_get(root, "l"), "l", &err));
	ck_assert(!err.set);
	yt_free(root);
}
END_TEST

START_TEST(yt_expect_seq_wrong_kind)
{
	struct yt_node *root = load_ok("list: {a: 1}\nname: x\n");
	struct c2c_err err = { 0 };

	ck_assert(!yt_expect_seq(yt_get(root, "list"), "list", &err));
	ASSERT_ERR(err, "t.yaml:1:7: list: expected a sequence (got a mapping)");
	err.set = false;
	ck_assert(!yt_expect_seq(yt_get(root, "name"), "name", &err));
	ASSERT_ERR(err, "t.yaml:2:7: name: expected a sequence (got a scalar)");
	ck_assert(!yt_expect_seq(NULL, "none", &err));
	yt_free(root);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *ytree_suite(void)
{
	Suite *s = suite_create("ytree");
	TCase *tc;

	tc = tcase(s, "yt_load_file");
	tcase_add_test(tc, yt_load_file_nested_marks);
	tcase_add_test(tc, yt_load_file_missing);
	tcase_add_test(tc, yt_load_file_directory);
	tcase_add_test(tc, yt_load_file_empty);
	tcase_add_test(tc, yt_load_file_syntax_error);
	tc = tcase(s, "yt_load_string");
	tcase_add_test(tc, yt_load_string_flow_style);
	tcase_add_test(tc, yt_load_string_quoted_flags);
	tcase_add_test(tc, yt_load_string_scalar_root);
	tcase_add_test(tc, yt_load_string_duplicate_key);
	tcase_add_test(tc, yt_load_string_alias_rejected);
	tcase_add_test(tc, yt_load_string_malformed);
	tcase_add_test(tc, yt_load_string_empty);
	tcase_add_test(tc, yt_load_string_multiple_documents);
	tcase_add_test(tc, yt_load_string_non_scalar_key);
	tcase_add_test(tc, yt_load_string_custom_tag);
	tcase_add_test(tc, yt_load_string_too_deep);
	tcase_add_test(tc, yt_load_string_null_name);
	tc = tcase(s, "yt_free");
	tcase_add_test(tc, yt_free_null);
	tcase_add_test(tc, yt_free_detached_subtree);
	tc = tcase(s, "yt_get");
	tcase_add_test(tc, yt_get_found_and_missing);
	tc = tcase(s, "yt_expect_map");
	tcase_add_test(tc, yt_expect_map_ok);
	tcase_add_test(tc, yt_expect_map_unknown_key_suggestion);
	tcase_add_test(tc, yt_expect_map_unknown_key_no_suggestion);
	tcase_add_test(tc, yt_expect_map_not_a_mapping);
	tc = tcase(s, "yt_require");
	tcase_add_test(tc, yt_require_present);
	tcase_add_test(tc, yt_require_missing);
	tcase_add_test(tc, yt_require_not_a_mapping);
	tc = tcase(s, "yt_expect_seq");
	tcase_add_test(tc, yt_expect_seq_ok);
	tcase_add_test(tc, yt_expect_seq_wrong_kind);
	return s;
}

int main(void)
{
	return tu_run(ytree_suite());
}
