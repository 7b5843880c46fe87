/*
 * expr.h - integer expressions of the path language, compiled to postfix code.
 *
 * Grammar (C precedence): integers (decimal, 0x), names, ( ), unary - and !, * / %, + -,
 * < <= > >=, == !=, &&, ||, and the functions abs(x), min(a, b), max(a, b).  Names resolve at
 * compile time through a callback to a local slot, a constant (folded) or a builtin read at
 * run time (nr_cpus, nr_nodes, cpu, node).  Evaluation is int64 with wrap-around; division or
 * modulo by zero gives 0 (no exceptions in a simulation, and the model author sees it in the
 * results).  No floating point anywhere.
 */
#ifndef C2C_EXPR_H
#define C2C_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"

enum expr_builtin { EB_NR_CPUS, EB_NR_NODES, EB_CPU, EB_NODE, EB_COUNT };

enum expr_ref_kind { EREF_LOCAL, EREF_CONST, EREF_BUILTIN };

struct expr_ref {
	uint8_t kind;  /* enum expr_ref_kind */
	int64_t v;     /* local slot, constant value, or builtin id */
};

/* Resolve @name; return false when unknown (the compiler reports it with suggestions). */
typedef bool (*expr_resolve_fn)(void *data, const char *name, struct expr_ref *out);

struct expr;

/*
 * expr_compile - compile @text.  @names lists the names in scope (NULL-terminated) for
 * "did you mean" suggestions.  Return: the expression, or NULL with @err at @at:
 * "EXPR: unknown name 'x' (expected a local, parameter or constant; did you mean 'y'?)",
 * "EXPR: unexpected 'x' at column N (expected an operand)".
 */
struct expr *expr_compile(const char *text, struct c2c_mark at, expr_resolve_fn resolve,
			  void *data, const char *const *names, struct c2c_err *err);
void expr_free(struct expr *e);

/* expr_const - true (and *v) when @e is a constant after folding. */
bool expr_const(const struct expr *e, int64_t *v);

/* expr_locals - bit l set when @e reads local l (locals 0..63).  NULL gives 0. */
uint64_t expr_locals(const struct expr *e);

/* expr_eval - the value of @e.  Can't fail. */
int64_t expr_eval(const struct expr *e, const int64_t *locals, const int64_t *builtins);

#endif
