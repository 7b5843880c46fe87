/* check_ytree_getters.c - unit tests for ytree.c: the typed scalar getters (yt_int, yt_u64,
 * yt_bool, yt_str, yt_enum, yt_duration). */
#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "yaml/ytree.h"
#include "testutil.h"
#include "ytree_helpers.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* Parse "v: TEXT" and return the root; the value is yt_get(root, "v"). */
#define VAL(root) yt_get((root), "v")

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
	ck_assert(dur_of("9223372036854775.807", 1000, &v, msg) && v == INT64_MAX);
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
			      "duration >= 0 of at most 2^63 - 1 ps, SIMTIME_MAX)");
	ck_assert(!dur_of("99999999999999999999", 1, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: 99999999999999999999 is out of range (expected a "
			      "duration >= 0 of at most 2^63 - 1 ps, SIMTIME_MAX)");
	/* SIMTIME_MAX is the last representable time: 2^63 - 1 ps fits, one more does not. */
	ck_assert(dur_of("9223372036854775.807", 1000, &v, msg));
	ck_assert_uint_eq(v, INT64_MAX);
	ck_assert(!dur_of("9223372036854775.808", 1000, &v, msg));
	ck_assert_str_eq(msg, "t.yaml:1:4: lat: 9223372036854775.808 is out of range (expected a "
			      "duration >= 0 of at most 2^63 - 1 ps, SIMTIME_MAX)");
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

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *ytree_getters_suite(void)
{
	Suite *s = suite_create("ytree_getters");
	TCase *tc;

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
	return s;
}

int main(void)
{
	return tu_run(ytree_getters_suite());
}
