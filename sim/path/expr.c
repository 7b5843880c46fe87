/* expr.c - compile and evaluate path-language expressions; see expr.h. */
#include "path/expr.h"

#include <glib.h>
#include <string.h>

enum eop {
	E_CONST, E_LOCAL, E_BUILTIN, E_NEG, E_NOT, E_MUL, E_DIV, E_MOD, E_ADD, E_SUB, E_LT, E_LE,
	E_GT, E_GE, E_EQ, E_NE, E_AND, E_OR, E_ABS, E_MIN, E_MAX
};

struct einsn {
	uint8_t op;
	int64_t v;
};

struct expr {
	struct einsn *code;
	uint32_t len, cap;
};

struct parser {
	const char *text, *p;
	struct expr *e;
	struct c2c_mark at;
	expr_resolve_fn resolve;
	void *data;
	const char *const *names;
	struct c2c_err *err;
};

static void emit(struct parser *ps, uint8_t op, int64_t v)
{
	struct expr *e = ps->e;

	if (e->len == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 8;
		e->code = g_renew(struct einsn, e->code, e->cap);
	}
	e->code[e->len++] = (struct einsn){op, v};
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static bool fail(struct parser *ps, const char *what)
{
	err_set(ps->err, ps->at, "'%s': unexpected %s%.*s%s at column %d (expected %s)", ps->text,
		*ps->p ? "'" : "end", *ps->p ? 1 : 0, ps->p, *ps->p ? "'" : "",
		(int)(ps->p - ps->text) + 1, what);
	return false;
}

static bool parse_expr(struct parser *ps, int min_prec);

/* An integer literal: decimal (a leading 0 is not octal) or 0x-hex, at most INT64_MAX; a
 * larger one is an error, never a wrapped value. */
static bool parse_literal(struct parser *ps)
{
	bool hex = ps->p[0] == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X');
	const char *s = ps->p + (hex ? 2 : 0);
	uint64_t v = 0;
	int d;

	if (hex && g_ascii_xdigit_value(*s) < 0)
		return ps->p = s, fail(ps, "hex digits after 0x");
	for (; (d = hex ? g_ascii_xdigit_value(*s) : g_ascii_digit_value(*s)) >= 0; s++) {
		if (v > ((uint64_t)INT64_MAX - (uint64_t)d) / (hex ? 16 : 10))
			return fail(ps, "an integer literal of at most 9223372036854775807");
		v = v * (hex ? 16 : 10) + (uint64_t)d;
	}
	ps->p = s;
	emit(ps, E_CONST, (int64_t)v);
	return true;
}

static bool parse_name(struct parser *ps)
{
	const char *s = ps->p;
	g_autofree char *name = NULL;
	struct expr_ref r;
	static const char *const funcs[] = {"abs", "min", "max", NULL};

	while (g_ascii_isalnum(*ps->p) || *ps->p == '_')
		ps->p++;
	name = g_strndup(s, (size_t)(ps->p - s));
	skip_ws(ps);
	if (*ps->p == '(') {
		int f = -1, args = 0;

		for (int i = 0; funcs[i]; i++)
			if (!strcmp(funcs[i], name))
				f = i;
		if (f < 0) {
			err_set(ps->err, ps->at, "'%s': unknown function '%s' (expected abs, min or "
				"max)", ps->text, name);
			return false;
		}
		ps->p++;
		do {
			if (!parse_expr(ps, 0))
				return false;
			args++;
			skip_ws(ps);
		} while (*ps->p == ',' && ps->p++);
		if (*ps->p != ')' || args != (f ? 2 : 1))
			return fail(ps, f ? "two arguments and ')'" : "one argument and ')'");
		ps->p++;
		emit(ps, (uint8_t)(E_ABS + f), 0);
		return true;
	}
	if (!ps->resolve(ps->data, name, &r)) {
		const char *close = err_closest(name, ps->names);

		err_set(ps->err, ps->at, "'%s': unknown name '%s' (expected a local, parameter or "
			"constant%s%s%s)", ps->text, name, close ? "; did you mean '" : "",
			close ? close : "", close ? "'?" : "");
		return false;
	}
	emit(ps, (uint8_t)(r.kind == EREF_LOCAL ? E_LOCAL : r.kind == EREF_CONST ? E_CONST
									    : E_BUILTIN), r.v);
	return true;
}

static bool parse_primary(struct parser *ps)
{
	skip_ws(ps);
	if (*ps->p == '(') {
		ps->p++;
		if (!parse_expr(ps, 0))
			return false;
		skip_ws(ps);
		if (*ps->p != ')')
			return fail(ps, "')'");
		ps->p++;
		return true;
	}
	if (*ps->p == '-' || *ps->p == '!') {
		uint8_t op = *ps->p++ == '-' ? E_NEG : E_NOT;

		if (!parse_primary(ps))
			return false;
		emit(ps, op, 0);
		return true;
	}
	if (g_ascii_isdigit(*ps->p))
		return parse_literal(ps);
	if (g_ascii_isalpha(*ps->p) || *ps->p == '_')
		return parse_name(ps);
	return fail(ps, "an operand");
}

struct binop {
	const char *tok;
	uint8_t op, prec;
};

/* Longest tokens first so "<=" is not read as "<". */
static const struct binop binops[] = {
	{"||", E_OR, 1}, {"&&", E_AND, 2}, {"==", E_EQ, 3}, {"!=", E_NE, 3}, {"<=", E_LE, 4},
	{">=", E_GE, 4}, {"<", E_LT, 4}, {">", E_GT, 4}, {"+", E_ADD, 5}, {"-", E_SUB, 5},
	{"*", E_MUL, 6}, {"/", E_DIV, 6}, {"%", E_MOD, 6},
};

/* Precedence climbing: operands, then binary operators binding tighter than @min_prec. */
static bool parse_expr(struct parser *ps, int min_prec)
{
	if (!parse_primary(ps))
		return false;
	for (;;) {
		const struct binop *b = NULL;

		skip_ws(ps);
		for (size_t i = 0; i < G_N_ELEMENTS(binops) && !b; i++)
			if (!strncmp(ps->p, binops[i].tok, strlen(binops[i].tok)))
				b = &binops[i];
		if (!b || b->prec <= min_prec)
			return true;
		ps->p += strlen(b->tok);
		if (!parse_expr(ps, b->prec))
			return false;
		emit(ps, b->op, 0);
	}
}

static int64_t apply(uint8_t op, int64_t x, int64_t y)
{
	switch (op) {
	case E_MUL: return (int64_t)((uint64_t)x * (uint64_t)y);
	case E_DIV: return y ? x / y : 0;
	case E_MOD: return y ? x % y : 0;
	case E_ADD: return (int64_t)((uint64_t)x + (uint64_t)y);
	case E_SUB: return (int64_t)((uint64_t)x - (uint64_t)y);
	case E_LT: return x < y;
	case E_LE: return x <= y;
	case E_GT: return x > y;
	case E_GE: return x >= y;
	case E_EQ: return x == y;
	case E_NE: return x != y;
	case E_AND: return x && y;
	case E_OR: return x || y;
	case E_MIN: return x < y ? x : y;
	case E_MAX: return x > y ? x : y;
	default: return 0;
	}
}

int64_t expr_eval(const struct expr *e, const int64_t *locals, const int64_t *builtins)
{
	int64_t stack[32];
	int sp = 0;

	for (uint32_t i = 0; i < e->len; i++) {
		const struct einsn *in = &e->code[i];

		switch (in->op) {
		case E_CONST: stack[sp++] = in->v; break;
		case E_LOCAL: stack[sp++] = locals[in->v]; break;
		case E_BUILTIN: stack[sp++] = builtins[in->v]; break;
		case E_NEG: stack[sp - 1] = (int64_t)(0 - (uint64_t)stack[sp - 1]); break;
		case E_NOT: stack[sp - 1] = !stack[sp - 1]; break;
		case E_ABS: stack[sp - 1] = stack[sp - 1] < 0 ? -stack[sp - 1] : stack[sp - 1]; break;
		default:
			sp--;
			stack[sp - 1] = apply(in->op, stack[sp - 1], stack[sp]);
		}
	}
	return sp ? stack[0] : 0;
}

/* Fold a constant-only expression to one instruction. */
static void fold(struct expr *e)
{
	int64_t v;

	for (uint32_t i = 0; i < e->len; i++)
		if (e->code[i].op == E_LOCAL || e->code[i].op == E_BUILTIN)
			return;
	v = expr_eval(e, NULL, NULL);
	e->len = 1;
	e->code[0] = (struct einsn){E_CONST, v};
}

/* Depth the postfix code needs: evaluation has a fixed stack. */
static int depth(const struct expr *e)
{
	int d = 0, max = 0;

	for (uint32_t i = 0; i < e->len; i++) {
		uint8_t op = e->code[i].op;

		d += op <= E_BUILTIN ? 1 : (op == E_NEG || op == E_NOT || op == E_ABS) ? 0 : -1;
		max = d > max ? d : max;
	}
	return max;
}

struct expr *expr_compile(const char *text, struct c2c_mark at, expr_resolve_fn resolve,
			  void *data, const char *const *names, struct c2c_err *err)
{
	struct parser ps = {text, text, g_new0(struct expr, 1), at, resolve, data, names, err};

	if (!parse_expr(&ps, 0) || (skip_ws(&ps), *ps.p && !fail(&ps, "an operator or the end"))) {
		expr_free(ps.e);
		return NULL;
	}
	if (depth(ps.e) > 32) {
		err_set(err, at, "'%s': too deeply nested (expected a simpler expression)", text);
		expr_free(ps.e);
		return NULL;
	}
	fold(ps.e);
	return ps.e;
}

bool expr_const(const struct expr *e, int64_t *v)
{
	if (e->len != 1 || e->code[0].op != E_CONST)
		return false;
	*v = e->code[0].v;
	return true;
}

void expr_free(struct expr *e)
{
	if (!e)
		return;
	g_free(e->code);
	g_free(e);
}

uint64_t expr_locals(const struct expr *e)
{
	uint64_t m = 0;

	for (uint32_t i = 0; e && i < e->len; i++)
		if (e->code[i].op == E_LOCAL && e->code[i].v < 64)
			m |= 1ull << e->code[i].v;
	return m;
}
