/*
 * expr.h - integer expressions of the path language, compiled to postfix code.
 *
 * Grammar (C precedence): integers (decimal, 0x), names, ( ), unary - and !, * / %, + -,
 * < <= > >=, == !=, &&, ||, and the functions abs(x), min(a, b), max(a, b).  There are no
 * shifts and no bitwise operators.  Names resolve at compile time through a callback to a
 * local slot, a constant (folded) or a builtin read at run time (nr_cpus, nr_nodes, cpu,
 * node).  No floating point anywhere.
 *
 * Arithmetic is the kernel's: int64 with two's-complement wrap-around.  The kernel builds
 * with -fno-strict-overflow (top-level Makefile: KBUILD_CFLAGS += -fno-strict-overflow),
 * which GCC (since 8) defines as -fwrapv -fwrapv-pointer (GCC manual, Optimize Options,
 * -fstrict-overflow: "negated as -fwrapv -fwrapv-pointer"), so kernel code that overflows
 * a signed + - * or a negation gets the wrapped value and a kernel developer reads a model
 * the same way:
 *   INT64_MAX + 1 == INT64_MIN, -INT64_MIN == INT64_MIN, abs(INT64_MIN) == INT64_MIN
 *   (the kernel's abs() is `x < 0 ? -x : x` on the s64), INT64_MIN * -1 == INT64_MIN.
 * Division and modulo truncate toward zero as in C (-7 / 2 == -3, -7 % 2 == -1).  The two
 * cases where the x86 divide instruction raises #DE (a kernel oops) are model errors, not
 * values: a divisor of 0, and INT64_MIN / -1 or INT64_MIN % -1 (the quotient 2^63 does not
 * fit).  Found while folding constants they are bad input at the expression's position;
 * at run time the interpreter stops the run with the operation's position (interp.h).
 * Comparisons and ! give 0 or 1.  && and || short-circuit as in C, so `n && total / n` is
 * safe, and give 0 or 1.
 *
 * Nesting (brackets, unary operators, function calls, counted together) is bounded by
 * EXPR_MAX_NESTING, and the operand stack the postfix code needs by EXPR_MAX_STACK: deeper
 * input is bad input with its position, as YAML nesting is (the parser recurses).
 */
#ifndef C2C_EXPR_H
#define C2C_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"

#define EXPR_MAX_NESTING 64
#define EXPR_MAX_STACK 32

enum expr_builtin { EB_NR_CPUS, EB_NR_NODES, EB_CPU, EB_NODE, EB_COUNT };

enum expr_ref_kind { EREF_LOCAL, EREF_CONST, EREF_BUILTIN };

struct expr_ref {
	uint8_t kind;  /* enum expr_ref_kind */
	int64_t v;     /* local slot, constant value, or builtin id */
};

/* The binary operators that cannot fault (all but / and %), for the interpreter's compiled
 * form of `x OP y` on two operands (expr_binary): evaluating it then costs a switch, not a
 * call into the postfix code (most conditions and increments of the shipped paths). */
enum expr_binop { EBIN_MUL, EBIN_ADD, EBIN_SUB, EBIN_LT, EBIN_LE, EBIN_GT, EBIN_GE, EBIN_EQ,
		  EBIN_NE, EBIN_MIN, EBIN_MAX, EBIN_COUNT };

/* expr_binop_apply - @x OP @y, with the wrap-around arithmetic described above. */
static inline int64_t expr_binop_apply(uint8_t op, int64_t x, int64_t y)
{
	switch (op) {
	case EBIN_MUL: return (int64_t)((uint64_t)x * (uint64_t)y);
	case EBIN_ADD: return (int64_t)((uint64_t)x + (uint64_t)y);
	case EBIN_SUB: return (int64_t)((uint64_t)x - (uint64_t)y);
	case EBIN_LT: return x < y;
	case EBIN_LE: return x <= y;
	case EBIN_GT: return x > y;
	case EBIN_GE: return x >= y;
	case EBIN_EQ: return x == y;
	case EBIN_NE: return x != y;
	case EBIN_MIN: return x < y ? x : y;
	default: return x > y ? x : y; /* EBIN_MAX */
	}
}

/* What went wrong evaluating an expression (the first fault is kept). */
enum expr_fault { EXPR_OK, EXPR_DIV_ZERO, EXPR_DIV_OVERFLOW };

/* Resolve @name; return false when unknown (the compiler reports it with suggestions). */
typedef bool (*expr_resolve_fn)(void *data, const char *name, struct expr_ref *out);

struct expr;

/*
 * expr_compile - compile @text.  @names lists the names in scope (NULL-terminated) for
 * "did you mean" suggestions.  Return: the expression, or NULL with @err at @at:
 * "EXPR: unknown name 'x' (expected a local, parameter or constant; did you mean 'y'?)",
 * "EXPR: unexpected 'x' at column N (expected an operand)", "EXPR: division by zero ...",
 * "EXPR: nested deeper than 64 at column N ...".
 */
struct expr *expr_compile(const char *text, struct c2c_mark at, expr_resolve_fn resolve,
			  void *data, const char *const *names, struct c2c_err *err);
void expr_free(struct expr *e);

/* expr_const - true (and *v) when @e is a constant after folding. */
bool expr_const(const struct expr *e, int64_t *v);

/* expr_operand - true (and *@out: a constant's value, a local slot or a builtin id) when @e
 * is one operand, which evaluating it only reads. */
bool expr_operand(const struct expr *e, struct expr_ref *out);

/* expr_binary - true (and *@op, *@x, *@y) when @e is `x OP y`: two operands (a constant, a
 * local or a builtin each) and a binary operator that cannot fault (enum expr_binop). */
bool expr_binary(const struct expr *e, uint8_t *op, struct expr_ref *x, struct expr_ref *y);

/* expr_scaled - true (and @op[0], @op[1], @r[0..2]) when @e is `x OP2 (y OP z)` of three
 * operands and binary operators that cannot fault: op[0] is OP, op[1] OP2. */
bool expr_scaled(const struct expr *e, uint8_t op[2], struct expr_ref r[3]);

/* expr_abs_binary - true (and *@op, *@x, *@y) when @e is `abs(x) OP y` of two operands and
 * a binary operator that cannot fault. */
bool expr_abs_binary(const struct expr *e, uint8_t *op, struct expr_ref *x, struct expr_ref *y);

/* expr_locals - bit l set when @e reads local l (locals 0..63).  NULL gives 0. */
uint64_t expr_locals(const struct expr *e);

/* expr_eval - the value of @e.  A division fault gives 0 for that division, evaluation goes
 * on, and *@fault (when still EXPR_OK) records it. */
int64_t expr_eval(const struct expr *e, const int64_t *locals, const int64_t *builtins,
		  enum expr_fault *fault);

/* expr_text - the source text of @e (for messages). */
const char *expr_text(const struct expr *e);

/* expr_fault_what - "division by zero" and the like, with what was expected. */
const char *expr_fault_what(enum expr_fault f);

#endif
