/*
 * check_expr.c - the path language's expressions (expr.c) at their edges: every operator at
 * INT64_MIN, INT64_MAX, 0 and -1; the two divisions x86 refuses (by zero, INT64_MIN / -1)
 * as faults at run time and as bad input when folded; short-circuit && and ||; nesting and
 * stack limits; and what is not in the language (shifts, bitwise operators).
 *
 * The arithmetic asserted is the kernel's (expr.h): two's-complement wrapping, as
 * -fno-strict-overflow (= -fwrapv in GCC >= 8) makes it, and C's truncating division.
 * Every case is evaluated twice: with its operands in locals (run time) and written as
 * constants (folded at compile time), and both must agree.
 */
#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "path/expr.h"
#include "testutil.h"

#define TXT_MIN "(-9223372036854775807 - 1)"
#define TXT_MAX "9223372036854775807"

static const char *const scope[] = {"x", "y", "K", "cpu", NULL};

/* x and y are locals 0 and 1, K the constant 10, cpu a builtin. */
static bool resolve(void *data, const char *name, struct expr_ref *out)
{
	if (!strcmp(name, "x") || !strcmp(name, "y"))
		*out = (struct expr_ref){EREF_LOCAL, name[0] == 'y'};
	else if (!strcmp(name, "K"))
		*out = (struct expr_ref){EREF_CONST, 10};
	else if (!strcmp(name, "cpu"))
		*out = (struct expr_ref){EREF_BUILTIN, EB_CPU};
	else
		return false;
	return true;
}

static struct expr *compile(const char *text, struct c2c_err *err)
{
	memset(err, 0, sizeof(*err));
	return expr_compile(text, (struct c2c_mark){"t.yaml", 3, 7}, resolve, NULL, scope, err);
}

/* The value of @text with x = @x, y = @y; *@fault gets the fault. */
static int64_t eval(const char *text, int64_t x, int64_t y, enum expr_fault *fault)
{
	struct c2c_err err;
	struct expr *e = compile(text, &err);
	int64_t locals[2] = {x, y}, builtins[EB_COUNT] = {4, 2, 3, 1}, v;

	ck_assert_msg(e, "%s: %s", text, err.msg);
	*fault = EXPR_OK;
	v = expr_eval(e, locals, builtins, fault);
	expr_free(e);
	return v;
}

/* @run with x = @x, y = @y, and @folded (the same in constants) both give @want. */
static void agree(const char *run, int64_t x, int64_t y, const char *folded, int64_t want)
{
	enum expr_fault f;
	struct c2c_err err;
	struct expr *e;
	int64_t v = eval(run, x, y, &f);

	ck_assert_msg(f == EXPR_OK && v == want, "%s with x = %" PRId64 ", y = %" PRId64 ": %"
		      PRId64 " (fault %d), expected %" PRId64, run, x, y, v, f, want);
	e = compile(folded, &err);
	ck_assert_msg(e && expr_const(e, &v) && v == want, "%s folds to %" PRId64 " (%s)",
		      folded, v, err.msg);
	expr_free(e);
}

/* A binary case: `x OP y` at run time, and `(A) OP (B)` folded, both give @want. */
static void binary(const char *op, const char *a, int64_t x, const char *b, int64_t y,
		   int64_t want)
{
	g_autofree char *run = g_strdup_printf("x %s y", op);
	g_autofree char *folded = g_strdup_printf("(%s) %s (%s)", a, op, b);

	agree(run, x, y, folded, want);
}

/* A division that faults: @fault at run time, and bad input naming it when folded. */
static void faults(const char *op, const char *a, int64_t x, const char *b, int64_t y,
		   enum expr_fault fault)
{
	g_autofree char *run = g_strdup_printf("x %s y", op);
	g_autofree char *folded = g_strdup_printf("%s %s %s", a, op, b);
	enum expr_fault f;
	struct c2c_err err;
	int64_t v = eval(run, x, y, &f);

	ck_assert_msg(f == fault && v == 0, "%" PRId64 " %s %" PRId64 ": fault %d value %" PRId64,
		      x, op, y, f, v);
	ck_assert_ptr_null(compile(folded, &err));
	ck_assert_msg(g_str_has_prefix(err.msg, "t.yaml:3:7: '") &&
		      strstr(err.msg, expr_fault_what(fault)), "%s", err.msg);
}

START_TEST(add_sub_wrap)
{
	binary("+", TXT_MAX, INT64_MAX, "1", 1, INT64_MIN);
	binary("+", TXT_MIN, INT64_MIN, "-1", -1, INT64_MAX);
	binary("+", TXT_MIN, INT64_MIN, TXT_MIN, INT64_MIN, 0);
	binary("+", TXT_MAX, INT64_MAX, TXT_MAX, INT64_MAX, -2);
	binary("-", TXT_MIN, INT64_MIN, "1", 1, INT64_MAX);
	binary("-", "0", 0, TXT_MIN, INT64_MIN, INT64_MIN);
	binary("-", TXT_MAX, INT64_MAX, "-1", -1, INT64_MIN);
	binary("-", "-1", -1, TXT_MAX, INT64_MAX, INT64_MIN);
}
END_TEST

START_TEST(mul_wrap)
{
	binary("*", TXT_MAX, INT64_MAX, "2", 2, -2);
	binary("*", TXT_MIN, INT64_MIN, "-1", -1, INT64_MIN);
	binary("*", TXT_MIN, INT64_MIN, "2", 2, 0);
	binary("*", "4294967296", 4294967296, "4294967296", 4294967296, 0);
	binary("*", TXT_MAX, INT64_MAX, TXT_MAX, INT64_MAX, 1);
	binary("*", "-3", -3, "7", 7, -21);
	binary("*", TXT_MIN, INT64_MIN, "0", 0, 0);
}
END_TEST

/* C's division: quotients truncate toward zero, the remainder takes the dividend's sign. */
START_TEST(div_mod_truncate)
{
	binary("/", "7", 7, "2", 2, 3);
	binary("/", "-7", -7, "2", 2, -3);
	binary("/", "7", 7, "-2", -2, -3);
	binary("/", "-7", -7, "-2", -2, 3);
	binary("/", TXT_MIN, INT64_MIN, "1", 1, INT64_MIN);
	binary("/", TXT_MIN, INT64_MIN, TXT_MIN, INT64_MIN, 1);
	binary("/", TXT_MAX, INT64_MAX, TXT_MIN, INT64_MIN, 0);
	binary("/", TXT_MIN, INT64_MIN, TXT_MAX, INT64_MAX, -1);
	binary("/", TXT_MIN, INT64_MIN, "2", 2, INT64_MIN / 2);
	binary("%", "-7", -7, "2", 2, -1);
	binary("%", "7", 7, "-2", -2, 1);
	binary("%", TXT_MIN, INT64_MIN, "2", 2, 0);
	binary("%", TXT_MIN, INT64_MIN, TXT_MAX, INT64_MAX, -1);
	binary("%", TXT_MAX, INT64_MAX, TXT_MIN, INT64_MIN, INT64_MAX);
	binary("%", "0", 0, "-1", -1, 0);
	binary("%", TXT_MAX, INT64_MAX, "-1", -1, 0);
}
END_TEST

/* Where x86's idiv raises #DE (a kernel oops), the model is wrong: a fault, not a value. */
START_TEST(div_mod_faults)
{
	faults("/", "1", 1, "0", 0, EXPR_DIV_ZERO);
	faults("/", "0", 0, "0", 0, EXPR_DIV_ZERO);
	faults("/", TXT_MIN, INT64_MIN, "0", 0, EXPR_DIV_ZERO);
	faults("%", "1", 1, "0", 0, EXPR_DIV_ZERO);
	faults("%", TXT_MAX, INT64_MAX, "(1 - 1)", 0, EXPR_DIV_ZERO);
	faults("/", TXT_MIN, INT64_MIN, "-1", -1, EXPR_DIV_OVERFLOW);
	faults("%", TXT_MIN, INT64_MIN, "-1", -1, EXPR_DIV_OVERFLOW);
	faults("/", TXT_MIN, INT64_MIN, "(0 - 1)", -1, EXPR_DIV_OVERFLOW);
}
END_TEST

/* The constant parts of a larger expression fold (the interpreter then reads `x OP y`),
 * but not a division that faults: the run reports it, if it is evaluated at all. */
START_TEST(constant_parts_fold)
{
	struct c2c_err err;
	struct expr_ref x, y;
	enum expr_fault f;
	uint8_t op;
	struct expr *e = compile("2 * K + x", &err);

	ck_assert(e && expr_binary(e, &op, &x, &y) && op == EBIN_ADD);
	ck_assert(x.kind == EREF_CONST && x.v == 20 && y.kind == EREF_LOCAL && y.v == 0);
	expr_free(e);
	e = compile("y < -(2 - 5) * min(4, abs(-7))", &err);
	ck_assert(e && expr_binary(e, &op, &x, &y) && op == EBIN_LT);
	ck_assert(x.kind == EREF_LOCAL && x.v == 1 && y.kind == EREF_CONST && y.v == 12);
	expr_free(e);
	ck_assert_int_eq(eval("x && 1 / 0", 0, 0, &f), 0);
	ck_assert_int_eq(f, EXPR_OK);
	ck_assert_int_eq(eval("x && 1 / 0", 1, 0, &f), 0);
	ck_assert_int_eq(f, EXPR_DIV_ZERO);
}
END_TEST

/* The forms of code evaluated without the stack machine (one or two operators on operands,
 * a unary operator first) keep the order of their operands and operators and the fault of
 * the inner operator. */
START_TEST(short_forms)
{
	static const struct {
		const char *text;
		int64_t x, y, want;
		enum expr_fault fault;
	} cases[] = {
		{"x - y", 3, 1, 2, EXPR_OK}, {"x - y - K", 3, 1, -8, EXPR_OK},
		{"x - y < K", 3, 1, 1, EXPR_OK}, {"x - (y - K)", 3, 1, 12, EXPR_OK},
		{"x > K * cpu", 31, 0, 1, EXPR_OK}, {"x > K * cpu", 30, 0, 0, EXPR_OK},
		{"-x", 3, 0, -3, EXPR_OK}, {"abs(y)", 0, -5, 5, EXPR_OK}, {"!x", 3, 0, 0, EXPR_OK},
		{"abs(x) - y", -3, 1, 2, EXPR_OK}, {"min(x, y) - K", 4, 7, -6, EXPR_OK},
		{"x / y + 1", 5, 0, 1, EXPR_DIV_ZERO},
		{"K / (x / y)", INT64_MIN, -1, 0, EXPR_DIV_OVERFLOW},
		{"K % (x - y)", 7, 3, 2, EXPR_OK},
	};
	enum expr_fault f;

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		ck_assert_int_eq(eval(cases[i].text, cases[i].x, cases[i].y, &f), cases[i].want);
		ck_assert_int_eq(f, cases[i].fault);
	}
}
END_TEST

/* The first fault is kept, evaluation goes on (the faulting division gives 0). */
START_TEST(fault_first_kept)
{
	enum expr_fault f;

	ck_assert_int_eq(eval("x / y + 5", 1, 0, &f), 5);
	ck_assert_int_eq(f, EXPR_DIV_ZERO);
	ck_assert_int_eq(eval("x / 0 + x / y", INT64_MIN, -1, &f), 0);
	ck_assert_int_eq(f, EXPR_DIV_ZERO);
	ck_assert_int_eq(eval("x / y + x / 0", INT64_MIN, -1, &f), 0);
	ck_assert_int_eq(f, EXPR_DIV_OVERFLOW);
}
END_TEST

START_TEST(unary_and_abs)
{
	enum expr_fault f;
	struct c2c_err err;
	struct expr *e;
	int64_t v;

	ck_assert_int_eq(eval("-x", INT64_MIN, 0, &f), INT64_MIN);
	ck_assert_int_eq(eval("-x", INT64_MAX, 0, &f), -INT64_MAX);
	ck_assert_int_eq(eval("-x", 0, 0, &f), 0);
	ck_assert_int_eq(eval("- -x", 5, 0, &f), 5);
	ck_assert_int_eq(eval("abs(x)", INT64_MIN, 0, &f), INT64_MIN);
	ck_assert_int_eq(eval("abs(x)", INT64_MAX, 0, &f), INT64_MAX);
	ck_assert_int_eq(eval("abs(x)", -INT64_MAX, 0, &f), INT64_MAX);
	ck_assert_int_eq(eval("abs(x)", -5, 0, &f), 5);
	ck_assert_int_eq(eval("abs(x)", 0, 0, &f), 0);
	ck_assert_int_eq(eval("!x", 0, 0, &f), 1);
	ck_assert_int_eq(eval("!x", INT64_MIN, 0, &f), 0);
	ck_assert_int_eq(eval("!x", -1, 0, &f), 0);
	ck_assert_int_eq(eval("!!x", 7, 0, &f), 1);
	ck_assert_int_eq(f, EXPR_OK);
	e = compile("abs(" TXT_MIN ")", &err);
	ck_assert(e && expr_const(e, &v) && v == INT64_MIN);
	expr_free(e);
	e = compile("-" TXT_MIN, &err);
	ck_assert(e && expr_const(e, &v) && v == INT64_MIN);
	expr_free(e);
}
END_TEST

/* A function of two arguments: `F(x, y)` at run time and `F((A), (B))` folded give @want. */
static void func(const char *fn, const char *a, int64_t x, const char *b, int64_t y,
		 int64_t want)
{
	g_autofree char *run = g_strdup_printf("%s(x, y)", fn);
	g_autofree char *folded = g_strdup_printf("%s((%s), (%s))", fn, a, b);

	agree(run, x, y, folded, want);
}

START_TEST(min_max)
{
	func("min", TXT_MIN, INT64_MIN, TXT_MAX, INT64_MAX, INT64_MIN);
	func("min", TXT_MAX, INT64_MAX, TXT_MIN, INT64_MIN, INT64_MIN);
	func("max", TXT_MIN, INT64_MIN, TXT_MAX, INT64_MAX, INT64_MAX);
	func("max", TXT_MAX, INT64_MAX, TXT_MIN, INT64_MIN, INT64_MAX);
	func("min", "-1", -1, "0", 0, -1); /* signed */
	func("max", "-1", -1, "0", 0, 0);
	func("min", TXT_MIN, INT64_MIN, TXT_MIN, INT64_MIN, INT64_MIN);
	func("max", TXT_MAX, INT64_MAX, TXT_MAX, INT64_MAX, INT64_MAX);
}
END_TEST

/* Comparisons are signed and give 0 or 1. */
START_TEST(comparisons)
{
	static const struct {
		const char *op;
		int64_t lt, eq, gt; /* MIN op MAX, MAX op MAX, MAX op MIN */
	} cases[] = {
		{"<", 1, 0, 0}, {"<=", 1, 1, 0}, {">", 0, 0, 1}, {">=", 0, 1, 1},
		{"==", 0, 1, 0}, {"!=", 1, 0, 1},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		binary(cases[i].op, TXT_MIN, INT64_MIN, TXT_MAX, INT64_MAX, cases[i].lt);
		binary(cases[i].op, TXT_MAX, INT64_MAX, TXT_MAX, INT64_MAX, cases[i].eq);
		binary(cases[i].op, TXT_MAX, INT64_MAX, TXT_MIN, INT64_MIN, cases[i].gt);
		binary(cases[i].op, "-1", -1, "0", 0, cases[i].lt); /* signed, not unsigned */
	}
}
END_TEST

/* && and || give 0 or 1 and short-circuit as in C: the guard makes the division safe. */
START_TEST(logical_short_circuit)
{
	enum expr_fault f;
	struct c2c_err err;
	struct expr *e;
	int64_t v;

	binary("&&", "5", 5, "7", 7, 1);
	binary("&&", TXT_MIN, INT64_MIN, "0", 0, 0);
	binary("&&", "0", 0, TXT_MAX, INT64_MAX, 0);
	binary("||", "0", 0, "-3", -3, 1);
	binary("||", "0", 0, "0", 0, 0);
	binary("||", TXT_MIN, INT64_MIN, "0", 0, 1);
	ck_assert_int_eq(eval("y != 0 && x / y > 3", 100, 0, &f), 0);
	ck_assert_int_eq(f, EXPR_OK);
	ck_assert_int_eq(eval("y != 0 && x / y > 3", 100, 20, &f), 1);
	ck_assert_int_eq(eval("y == 0 || x / y > 3", 100, 0, &f), 1);
	ck_assert_int_eq(f, EXPR_OK);
	ck_assert_int_eq(eval("y && x / y", 7, 0, &f), 0);
	ck_assert_int_eq(f, EXPR_OK);
	ck_assert_int_eq(eval("1 && x / y", 7, 0, &f), 0);
	ck_assert_int_eq(f, EXPR_DIV_ZERO);
	/* In a chain each operand is tested once; && binds tighter than ||. */
	ck_assert_int_eq(eval("x || y && 0", 1, 1, &f), 1);
	ck_assert_int_eq(eval("(x || y) && 0", 1, 1, &f), 0);
	ck_assert_int_eq(eval("x && y && x / y", 1, 0, &f), 0);
	ck_assert_int_eq(f, EXPR_OK);
	ck_assert_int_eq(eval("x + (y && 1) * 10", 1, 5, &f), 11);
	e = compile("0 && 1 / 0", &err);
	ck_assert(e && expr_const(e, &v) && v == 0);
	expr_free(e);
	e = compile("1 || " TXT_MIN " / -1", &err);
	ck_assert(e && expr_const(e, &v) && v == 1);
	expr_free(e);
	ck_assert_ptr_null(compile("1 && 1 / 0", &err));
	ck_assert(strstr(err.msg, "division by zero"));
}
END_TEST

START_TEST(precedence)
{
	enum expr_fault f;

	ck_assert_int_eq(eval("1 + 2 * 3", 0, 0, &f), 7);
	ck_assert_int_eq(eval("1 - 2 - 3", 0, 0, &f), -4);
	ck_assert_int_eq(eval("64 / 4 / 2", 0, 0, &f), 8);
	ck_assert_int_eq(eval("7 % 4 * 3", 0, 0, &f), 9);
	ck_assert_int_eq(eval("1 < 2 == 1", 0, 0, &f), 1);
	ck_assert_int_eq(eval("-x * y", 3, 4, &f), -12);
	ck_assert_int_eq(eval("K * cpu + 0x10", 0, 0, &f), 46);
}
END_TEST

/* @n copies of @open, "1", @n copies of @close. */
static char *nested(const char *open, const char *close, int n)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < n; i++)
		g_string_append(s, open);
	g_string_append(s, "1");
	for (int i = 0; i < n; i++)
		g_string_append(s, close);
	return g_string_free(s, FALSE);
}

/* One line, at the expression's position, naming the limit. */
static void assert_limit(const struct c2c_err *err, const char *limit)
{
	ck_assert_msg(g_str_has_prefix(err->msg, "t.yaml:3:7: '") && strstr(err->msg, limit) &&
		      !strchr(err->msg, '\n') && strlen(err->msg) < 400, "%s", err->msg);
}

/* Brackets, unary operators and calls nest at most EXPR_MAX_NESTING deep, counted together;
 * 10^5 of them is an error, not a stack overflow. */
START_TEST(nesting_limit)
{
	static const struct {
		const char *open, *close;
	} kinds[] = {{"(", ")"}, {"-", ""}, {"!", ""}, {"abs(", ")"}, {"-(", ")"}};
	struct c2c_err err;

	for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
		int per = k == 4 ? 2 : 1; /* "-(" is two levels */
		g_autofree char *ok = nested(kinds[k].open, kinds[k].close, EXPR_MAX_NESTING / per);
		g_autofree char *deep = nested(kinds[k].open, kinds[k].close,
					       EXPR_MAX_NESTING / per + 1);
		g_autofree char *huge = nested(kinds[k].open, kinds[k].close, 100000);
		struct expr *e = compile(ok, &err);
		int64_t v;

		ck_assert_msg(e && expr_const(e, &v), "%s: %s", ok, err.msg);
		expr_free(e);
		ck_assert_ptr_null(compile(deep, &err));
		assert_limit(&err, "EXPR_MAX_NESTING = 64");
		ck_assert_ptr_null(compile(huge, &err));
		assert_limit(&err, k ? "nested deeper than 64 at column" :
				       "nested deeper than 64 at column 65 ");
	}
	/* Siblings do not add up: depth is what is open at once. */
	{
		g_autofree char *one = nested("(", ")", 60);
		g_autofree char *two = g_strdup_printf("%s + %s", one, one);
		struct expr *e = compile(two, &err);
		int64_t v;

		ck_assert(e && expr_const(e, &v) && v == 2);
		expr_free(e);
	}
}
END_TEST

/* Operands pending at once are bounded by the evaluation stack (EXPR_MAX_STACK). */
START_TEST(stack_limit)
{
	GString *s = g_string_new(NULL);
	struct c2c_err err;
	struct expr *e;
	int64_t v;

	/* x+(x+(...(x+x))): n additions keep n + 1 operands pending. */
	for (int i = 0; i < EXPR_MAX_STACK - 1; i++)
		g_string_append(s, "x+(");
	g_string_append(s, "x");
	for (int i = 0; i < EXPR_MAX_STACK - 1; i++)
		g_string_append(s, ")");
	e = compile(s->str, &err);
	ck_assert_msg(e != NULL, "%s", err.msg);
	{
		int64_t locals[2] = {2, 0}, b[EB_COUNT] = {0};
		enum expr_fault f = EXPR_OK;

		ck_assert_int_eq(expr_eval(e, locals, b, &f), 2 * EXPR_MAX_STACK);
	}
	expr_free(e);
	g_string_prepend(s, "x+(");
	g_string_append(s, ")");
	ck_assert_ptr_null(compile(s->str, &err));
	assert_limit(&err, "EXPR_MAX_STACK = 32");
	/* The same expression in constants folds: it never needs a run-time stack. */
	g_string_free(s, TRUE);
	e = compile("((((1 + 2) * 3) - 4) / 5) % 6", &err);
	ck_assert(e && expr_const(e, &v) && v == 1);
	expr_free(e);
}
END_TEST

/* Shifts and bitwise operators are not in the language: rejected, never misread. */
START_TEST(not_in_language)
{
	static const char *const bad[] = {"1 << 3", "x >> 1", "x & 1", "x | 1", "x ^ 1", "~x",
					  "x ** 2", "x = 1", "x ? 1 : 2", "1 +", "(1", "1)",
					  "abs(1, 2)", "min(1)", "sqrt(4)", "", "x\n+ 1", NULL};
	struct c2c_err err;

	for (const char *const *b = bad; *b; b++) {
		ck_assert_msg(!compile(*b, &err), "'%s' compiled", *b);
		ck_assert_msg(g_str_has_prefix(err.msg, "t.yaml:3:7: ") && !strchr(err.msg, '\n'),
			      "%s", err.msg);
	}
}
END_TEST

/* A long expression is quoted cut short in messages, so the line stays readable. */
START_TEST(long_text_quoted_short)
{
	g_autofree char *text = g_strnfill(5000, 'x');
	struct c2c_err err;

	ck_assert_ptr_null(compile(text, &err));
	ck_assert_msg(strlen(err.msg) < 300 && strstr(err.msg, "...': unknown name"), "%s",
		      err.msg);
}
END_TEST

static Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");
	TCase *tc = tcase_create("arithmetic");

	tcase_add_test(tc, add_sub_wrap);
	tcase_add_test(tc, mul_wrap);
	tcase_add_test(tc, div_mod_truncate);
	tcase_add_test(tc, div_mod_faults);
	tcase_add_test(tc, fault_first_kept);
	tcase_add_test(tc, constant_parts_fold);
	tcase_add_test(tc, short_forms);
	tcase_add_test(tc, unary_and_abs);
	tcase_add_test(tc, min_max);
	tcase_add_test(tc, comparisons);
	tcase_add_test(tc, logical_short_circuit);
	tcase_add_test(tc, precedence);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, nesting_limit);
	tcase_add_test(tc, stack_limit);
	tcase_add_test(tc, not_in_language);
	tcase_add_test(tc, long_text_quoted_short);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(expr_suite());
}
