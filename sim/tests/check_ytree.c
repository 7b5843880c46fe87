/* check_ytree.c - unit tests for ytree.c: parsing, marks, typed getters, overrides, emit. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ytree.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static struct yt_node *load(const char *text, struct c2c_err *err)
{
	return yt_load_string("t.yaml", text, strlen(text), err);
}

/* Parse @text that must be valid; fails the test otherwise. */
static struct yt_node *load_ok(const char *text)
{
	struct c2c_err err = { 0 };
	struct yt_node *root = load(text, &err);

	ck_assert_msg(root != NULL, "parse failed: %s", err.msg);
	ck_assert(!err.set);
	return root;
}

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

static void assert_mark(const struct yt_node *n, const char *file, int line, int col)
{
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->mark.file, file);
	ck_assert_int_eq(n->mark.line, line);
	ck_assert_int_eq(n->mark.col, col);
}

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

/* Parse "v: TEXT" and return the root; the value is yt_get(root, "v"). */
#define VAL(root) yt_get((root), "v")

#define ASSERT_ERR(err, text)                        \
	do {                                         \
		ck_assert((err).set);                \
		ck_assert_str_eq((err).msg, (text)); \
	} while (0)

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
			"(expected a readable file)");
}
END_TEST

START_TEST(yt_load_file_directory)
{
	struct c2c_err err = { 0 };
	const char *dir = g_get_tmp_dir();
	char *want = g_strdup_printf("%s:1:1: cannot read: Is a directory "
				     "(expected a readable file)", dir);

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

/* ---- yt_int ------------------------------------------------------------------------------ */

/* yt_int on "v: TEXT"; returns the error message ("" on success) in @msg. */
static bool int_of(const char *text, int64_t min, int64_t max, int64_t *out, char *msg)
{
	char *doc = g_strdup_printf("v: %s\n", text);
	struct yt_node *root = load_ok(doc);
	struct c2c_err err = { 0 };
	bool ok = yt_int(VAL(root), "x.n", min, max, out, &err);

	strcpy(msg, err.set ? err.msg : "");
	ck_assert(ok != err.set);
	yt_free(root);
	g_free(doc);
	return ok;
}

START_TEST(yt_int_valid)
{
	char msg[C2C_ERR_MAX];
	int64_t v = 0;

	ck_assert(int_of("42", -100, 100, &v, msg) && v == 42);
	ck_assert(int_of("-42", -100, 100, &v, msg) && v == -42);
	ck_assert(int_of("0x1F", 0, 100, &v, msg) && v == 31);
	ck_assert(int_of("-0x10", -100, 100, &v, msg) && v == -16);
	ck_assert(int_of("1_000", 0, 10000, &v, msg) && v == 1000);
	ck_assert(int_of("-9223372036854775808", INT64_MIN, INT64_MAX, &v, msg) && v == INT64_MIN);
	ck_assert(int_of("9223372036854775807", INT64_MIN, INT64_MAX, &v, msg) && v == INT64_MAX);
	ck_assert(int_of("0", 0, 0, &v, msg) && v == 0);
}
END_TEST

START_TEST(yt_int_out_of_range)
{
	char msg[C2C_ERR_MAX];
	int64_t v = 7;

	ck_assert(!int_of("101", -100, 100, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: x.n: 101 is out of range (expected an integer in "
			      "[-100, 100])");
	ck_assert(!int_of("-101", -100, 100, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: x.n: -101 is out of range (expected an integer in "
			      "[-100, 100])");
	ck_assert(!int_of("9223372036854775808", INT64_MIN, INT64_MAX, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: x.n: 9223372036854775808 is out of range (expected an "
			      "integer in [-9223372036854775808, 9223372036854775807])");
	ck_assert(!int_of("99999999999999999999999", 0, 10, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: x.n: 99999999999999999999999 is out of range "
			      "(expected an integer in [0, 10])");
	ck_assert_int_eq(v, 7);
}
END_TEST

START_TEST(yt_int_not_an_integer)
{
	static const char *const bad[] = { "abc", "1.5", "1__0", "_1", "1_", "0x", "+3", "0xG",
					   "1 2", NULL };
	char msg[C2C_ERR_MAX], *want;
	int64_t v;
	int i;

	ck_assert(!int_of("abc", 0, 10, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: x.n: 'abc' is not an integer (expected an integer in "
			      "[0, 10])");
	for (i = 1; bad[i]; i++) {
		want = g_strdup_printf("t.yaml:1:4: x.n: '%s' is not an integer (expected an "
				       "integer in [0, 10])", bad[i]);
		ck_assert(!int_of(bad[i], 0, 10, &v, msg));
		ck_assert_str_eq(msg, want);
		g_free(want);
	}
	/* An empty value ("v:") sits right after the colon. */
	ck_assert(!int_of("", 0, 10, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:3: x.n: '' is not an integer (expected an integer in "
			      "[0, 10])");
}
END_TEST

START_TEST(yt_int_quoted)
{
	char msg[C2C_ERR_MAX];
	int64_t v;

	ck_assert(!int_of("\"12\"", 0, 100, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: x.n: '\"12\"' is a quoted string (expected an integer "
			      "in [0, 100])");
}
END_TEST

START_TEST(yt_int_not_a_scalar)
{
	char msg[C2C_ERR_MAX];
	int64_t v;

	ck_assert(!int_of("{a: 1}", 0, 100, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: x.n: expected a scalar (got a mapping)");
	ck_assert(!int_of("[1]", 0, 100, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: x.n: expected a scalar (got a sequence)");
}
END_TEST

/* ---- yt_u64 ------------------------------------------------------------------------------ */

static bool u64_of(const char *text, uint64_t *out, char *msg)
{
	char *doc = g_strdup_printf("v: %s\n", text);
	struct yt_node *root = load_ok(doc);
	struct c2c_err err = { 0 };
	bool ok = yt_u64(VAL(root), "size", out, &err);

	strcpy(msg, err.set ? err.msg : "");
	ck_assert(ok != err.set);
	yt_free(root);
	g_free(doc);
	return ok;
}

START_TEST(yt_u64_valid)
{
	char msg[C2C_ERR_MAX];
	uint64_t v = 0;

	ck_assert(u64_of("18446744073709551615", &v, msg) && v == UINT64_MAX);
	ck_assert(u64_of("0xFFFF_FFFF_FFFF_FFFF", &v, msg) && v == UINT64_MAX);
	ck_assert(u64_of("0x40", &v, msg) && v == 64);
	ck_assert(u64_of("-0", &v, msg) && v == 0);
}
END_TEST

START_TEST(yt_u64_errors)
{
	char msg[C2C_ERR_MAX];
	uint64_t v;

	ck_assert(!u64_of("18446744073709551616", &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: size: 18446744073709551616 is out of range (expected "
			      "an integer in [0, 18446744073709551615])");
	ck_assert(!u64_of("-1", &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: size: -1 is out of range (expected an integer in "
			      "[0, 18446744073709551615])");
	ck_assert(!u64_of("4k", &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: size: '4k' is not an integer (expected an integer in "
			      "[0, 18446744073709551615])");
	ck_assert(!u64_of("'4'", &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: size: '\"4\"' is a quoted string (expected an integer "
			      "in [0, 18446744073709551615])");
	ck_assert(!u64_of("[4]", &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: size: expected a scalar (got a sequence)");
}
END_TEST

/* ---- yt_bool ----------------------------------------------------------------------------- */

START_TEST(yt_bool_valid)
{
	struct yt_node *root = load_ok("[true, False, YES, no, On, off]");
	static const bool want[] = { true, false, true, false, true, false };
	struct c2c_err err = { 0 };
	size_t i;

	for (i = 0; i < root->len; i++) {
		bool b = !want[i];

		ck_assert(yt_bool(root->items[i], "flag", &b, &err));
		ck_assert_int_eq(b, want[i]);
	}
	ck_assert(!err.set);
	yt_free(root);
}
END_TEST

START_TEST(yt_bool_errors)
{
	struct yt_node *root = load_ok("a: maybe\nb: \"true\"\nc: {}\n");
	struct c2c_err err = { 0 };
	bool b;

	ck_assert(!yt_bool(yt_get(root, "a"), "opt.a", &b, &err));
	ASSERT_ERR(err, "t.yaml:1:4: opt.a: 'maybe' is not a boolean (expected true or false)");
	err.set = false;
	ck_assert(!yt_bool(yt_get(root, "b"), "opt.b", &b, &err));
	ASSERT_ERR(err, "t.yaml:2:4: opt.b: '\"true\"' is a quoted string (expected true or false)");
	err.set = false;
	ck_assert(!yt_bool(yt_get(root, "c"), "opt.c", &b, &err));
	ASSERT_ERR(err, "t.yaml:3:4: opt.c: expected a scalar (got a mapping)");
	yt_free(root);
}
END_TEST

/* ---- yt_str ------------------------------------------------------------------------------ */

START_TEST(yt_str_valid)
{
	struct yt_node *root = load_ok("a: plain text\nb: \"12\"\nc: ''\n");
	struct c2c_err err = { 0 };
	const char *s = NULL;

	ck_assert(yt_str(yt_get(root, "a"), "a", &s, &err));
	ck_assert_str_eq(s, "plain text");
	ck_assert(yt_str(yt_get(root, "b"), "b", &s, &err));
	ck_assert_str_eq(s, "12");
	ck_assert(yt_str(yt_get(root, "c"), "c", &s, &err));
	ck_assert_str_eq(s, "");
	ck_assert(!err.set);
	yt_free(root);
}
END_TEST

START_TEST(yt_str_not_a_scalar)
{
	struct yt_node *root = load_ok("name:\n  - x\n");
	struct c2c_err err = { 0 };
	const char *s = NULL;

	ck_assert(!yt_str(yt_get(root, "name"), "name", &s, &err));
	ASSERT_ERR(err, "t.yaml:2:3: name: expected a scalar (got a sequence)");
	ck_assert_ptr_null(s);
	yt_free(root);
}
END_TEST

/* ---- yt_enum ----------------------------------------------------------------------------- */

static const char *const protocols[] = { "msi", "mesi", "moesi", NULL };

START_TEST(yt_enum_valid)
{
	struct yt_node *root = load_ok("[moesi, \"msi\"]");
	struct c2c_err err = { 0 };
	int v = -1;

	ck_assert(yt_enum(root->items[0], "protocol", protocols, &v, &err));
	ck_assert_int_eq(v, 2);
	ck_assert(yt_enum(root->items[1], "protocol", protocols, &v, &err));
	ck_assert_int_eq(v, 0);
	yt_free(root);
}
END_TEST

START_TEST(yt_enum_unknown)
{
	struct yt_node *root = load_ok("a: mesif\nb: dragon\nc: [x]\n");
	struct c2c_err err = { 0 };
	int v = -1;

	ck_assert(!yt_enum(yt_get(root, "a"), "protocol", protocols, &v, &err));
	ASSERT_ERR(err, "t.yaml:1:4: protocol: unknown value 'mesif' (expected one of: msi, mesi, "
			"moesi; did you mean 'mesi'?)");
	err.set = false;
	ck_assert(!yt_enum(yt_get(root, "b"), "protocol", protocols, &v, &err));
	ASSERT_ERR(err, "t.yaml:2:4: protocol: unknown value 'dragon' (expected one of: msi, "
			"mesi, moesi)");
	err.set = false;
	ck_assert(!yt_enum(yt_get(root, "c"), "protocol", protocols, &v, &err));
	ASSERT_ERR(err, "t.yaml:3:4: protocol: expected a scalar (got a sequence)");
	ck_assert_int_eq(v, -1);
	yt_free(root);
}
END_TEST

/* ---- yt_duration ------------------------------------------------------------------------- */

static bool dur_of(const char *text, uint64_t unit, uint64_t *out, char *msg)
{
	char *doc = g_strdup_printf("v: %s\n", text);
	struct yt_node *root = load_ok(doc);
	struct c2c_err err = { 0 };
	bool ok = yt_duration(VAL(root), "lat", unit, out, &err);

	strcpy(msg, err.set ? err.msg : "");
	ck_assert(ok != err.set);
	yt_free(root);
	g_free(doc);
	return ok;
}

START_TEST(yt_duration_valid)
{
	char msg[C2C_ERR_MAX];
	uint64_t v = 0;

	ck_assert(dur_of("7.5", 1000, &v, msg) && v == 7500);
	ck_assert(dur_of("0.001", 1000, &v, msg) && v == 1);
	ck_assert(dur_of("12", 1000, &v, msg) && v == 12000);
	ck_assert(dur_of("1.25", 1000, &v, msg) && v == 1250);
	ck_assert(dur_of("0", 1000, &v, msg) && v == 0);
	ck_assert(dur_of("1_000", 1, &v, msg) && v == 1000);
	ck_assert(dur_of("2.5", 1000000, &v, msg) && v == 2500000);
	ck_assert(dur_of("18446744073709551.615", 1000, &v, msg) && v == UINT64_MAX);
}
END_TEST

START_TEST(yt_duration_too_many_decimals)
{
	char msg[C2C_ERR_MAX];
	uint64_t v;

	ck_assert(!dur_of("1.2345", 1000, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: '1.2345' has more than 3 decimals (expected a "
			      "duration >= 0 with at most 3 decimals)");
}
END_TEST

START_TEST(yt_duration_negative)
{
	char msg[C2C_ERR_MAX];
	uint64_t v;

	ck_assert(!dur_of("-3", 1000, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: negative value -3 (expected a duration >= 0)");
}
END_TEST

START_TEST(yt_duration_overflow)
{
	char msg[C2C_ERR_MAX];
	uint64_t v;

	ck_assert(!dur_of("18446744073709552", 1000, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: 18446744073709552 is out of range (expected a "
			      "duration >= 0 below 2^64 ps)");
	ck_assert(!dur_of("99999999999999999999", 1, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: 99999999999999999999 is out of range (expected a "
			      "duration >= 0 below 2^64 ps)");
}
END_TEST

START_TEST(yt_duration_malformed)
{
	static const char *const bad[] = { "abc", "7.", ".5", "7ns", "1.2.3", "1.x", NULL };
	char msg[C2C_ERR_MAX], *want;
	uint64_t v;
	int i;

	for (i = 0; bad[i]; i++) {
		want = g_strdup_printf("t.yaml:1:4: lat: '%s' is not a duration (expected a "
				       "duration >= 0)", bad[i]);
		ck_assert(!dur_of(bad[i], 1000, &v, msg));
		ck_assert_str_eq(msg, want);
		g_free(want);
	}
	ck_assert(!dur_of("0.5", 1, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: 0.5 is finer than 1 ps (expected a whole number "
			      "of picoseconds)");
	ck_assert(!dur_of("\"5\"", 1000, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: '\"5\"' is a quoted string (expected a duration "
			      ">= 0)");
	ck_assert(!dur_of("{a: 1}", 1000, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: expected a scalar (got a mapping)");
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
	tc = tcase(s, "yt_copy");
	tcase_add_test(tc, yt_copy_independent);
	tcase_add_test(tc, yt_copy_subtree_null);
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
	tc = tcase(s, "yt_int");
	tcase_add_test(tc, yt_int_valid);
	tcase_add_test(tc, yt_int_out_of_range);
	tcase_add_test(tc, yt_int_not_an_integer);
	tcase_add_test(tc, yt_int_quoted);
	tcase_add_test(tc, yt_int_not_a_scalar);
	tc = tcase(s, "yt_u64");
	tcase_add_test(tc, yt_u64_valid);
	tcase_add_test(tc, yt_u64_errors);
	tc = tcase(s, "yt_bool");
	tcase_add_test(tc, yt_bool_valid);
	tcase_add_test(tc, yt_bool_errors);
	tc = tcase(s, "yt_str");
	tcase_add_test(tc, yt_str_valid);
	tcase_add_test(tc, yt_str_not_a_scalar);
	tc = tcase(s, "yt_enum");
	tcase_add_test(tc, yt_enum_valid);
	tcase_add_test(tc, yt_enum_unknown);
	tc = tcase(s, "yt_duration");
	tcase_add_test(tc, yt_duration_valid);
	tcase_add_test(tc, yt_duration_too_many_decimals);
	tcase_add_test(tc, yt_duration_negative);
	tcase_add_test(tc, yt_duration_overflow);
	tcase_add_test(tc, yt_duration_malformed);
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
	SRunner *sr = srunner_create(ytree_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
