/* expr.c - compile and evaluate path-language expressions; see expr.h. */
#include "path/expr.h"

#include <glib.h>
#include <string.h>

/* Postfix instructions.  E_AND and E_OR only name the operators while parsing: the code
 * has the skips and E_BOOL instead (C's short circuit). */
enum eop {
	E_CONST, E_LOCAL, E_BUILTIN, E_NEG, E_NOT, E_MUL, E_DIV, E_MOD, E_ADD, E_SUB, E_LT, E_LE,
	E_GT, E_GE, E_EQ, E_NE, E_AND, E_OR, E_ABS, E_MIN, E_MAX,
	E_AND_SKIP,  /* &&: a false left operand is the result (jump to v), else drop it */
	E_OR_SKIP,   /* ||: a true left operand gives 1 (jump to v), else drop it */
	E_BOOL,      /* the right operand of && or || as 0 or 1 */
};

struct einsn {
	uint8_t op;
	int64_t v;
};

/* The forms of code expr_eval answers without the stack machine (a, b, c: operands; op, op2:
 * binary operators; un: a unary one), most operands and conditions of the shipped paths. */
enum eshape {
	SH_STACK,     /* anything else */
	SH_A,         /* a */
	SH_AB,        /* a b op: a op b */
	SH_AB_C,      /* a b op c op2: (a op b) op2 c */
	SH_A_BC,      /* a b c op op2: a op2 (b op c) */
	SH_A_UN,      /* a un */
	SH_A_UN_C,    /* a un c op2: un(a) op2 c */
};

struct expr {
	struct einsn *code;   /* right after the struct once compiled (pack) */
	uint32_t len, cap;
	uint8_t shape;        /* enum eshape */
	char *text;
};
_Static_assert(sizeof(struct expr) % _Alignof(struct einsn) == 0,
	       "code packed after struct expr is aligned");

struct parser {
	const char *text, *p;
	struct expr *e;
	struct c2c_mark at;
	expr_resolve_fn resolve;
	void *data;
	const char *const *names;
	struct c2c_err *err;
	int nesting;           /* brackets, unary operators and calls open around ps->p */
	char shown[64];        /* the text as messages quote it (long ones cut short) */
};

static uint32_t emit(struct parser *ps, uint8_t op, int64_t v)
{
	struct expr *e = ps->e;

	if (e->len == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 8;
		e->code = g_renew(struct einsn, e->code, e->cap);
	}
	e->code[e->len] = (struct einsn){op, v};
	return e->len++;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static int column(const struct parser *ps)
{
	return (int)(ps->p - ps->text) + 1;
}

static bool fail(struct parser *ps, const char *what)
{
	unsigned char c = (unsigned char)*ps->p;

	if (c && c < ' ')
		err_set(ps->err, ps->at, "'%s': unexpected character 0x%02x at column %d "
			"(expected %s)", ps->shown, c, column(ps), what);
	else
		err_set(ps->err, ps->at, "'%s': unexpected %s%.*s%s at column %d (expected %s)",
			ps->shown, c ? "'" : "end", c ? 1 : 0, ps->p, c ? "'" : "", column(ps),
			what);
	return false;
}

/* Enter one level of brackets, unary operator or call: the parser recurses, so the depth is
 * bounded as YAML nesting is. */
static bool nest(struct parser *ps)
{
	if (++ps->nesting <= EXPR_MAX_NESTING)
		return true;
	err_set(ps->err, ps->at, "'%s': nested deeper than %d at column %d (expected at most "
		"EXPR_MAX_NESTING = %d brackets, unary operators and calls inside each other)",
		ps->shown, EXPR_MAX_NESTING, column(ps), EXPR_MAX_NESTING);
	return false;
}

static bool parse_expr(struct parser *ps, int min_prec);
static void fold_last(struct parser *ps);

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
			err_set(ps->err, ps->at, "'%s': unknown function '%.40s' (expected abs, min or "
				"max)", ps->shown, name);
			return false;
		}
		if (!nest(ps))
			return false;
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
		ps->nesting--;
		emit(ps, (uint8_t)(E_ABS + f), 0);
		fold_last(ps);
		return true;
	}
	if (!ps->resolve(ps->data, name, &r)) {
		const char *close = err_closest(name, ps->names);

		err_set(ps->err, ps->at, "'%s': unknown name '%.40s' (expected a local, parameter or "
			"constant%s%s%s)", ps->shown, name, close ? "; did you mean '" : "",
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
		if (!nest(ps))
			return false;
		ps->p++;
		if (!parse_expr(ps, 0))
			return false;
		skip_ws(ps);
		if (*ps->p != ')')
			return fail(ps, "')'");
		ps->p++;
		ps->nesting--;
		return true;
	}
	if (*ps->p == '-' || *ps->p == '!') {
		uint8_t op = *ps->p == '-' ? E_NEG : E_NOT;

		if (!nest(ps))
			return false;
		ps->p++;
		if (!parse_primary(ps))
			return false;
		ps->nesting--;
		emit(ps, op, 0);
		fold_last(ps);
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

/* Precedence climbing: operands, then binary operators binding tighter than @min_prec.
 * && and || compile to a conditional skip over their right operand (C's short circuit). */
static bool parse_expr(struct parser *ps, int min_prec)
{
	if (!parse_primary(ps))
		return false;
	for (;;) {
		const struct binop *b = NULL;
		uint32_t skip = UINT32_MAX;

		skip_ws(ps);
		for (size_t i = 0; i < G_N_ELEMENTS(binops) && !b; i++)
			if (!strncmp(ps->p, binops[i].tok, strlen(binops[i].tok)))
				b = &binops[i];
		if (!b || b->prec <= min_prec)
			return true;
		ps->p += strlen(b->tok);
		if (b->op == E_AND || b->op == E_OR)
			skip = emit(ps, b->op == E_AND ? E_AND_SKIP : E_OR_SKIP, 0);
		if (!parse_expr(ps, b->prec))
			return false;
		if (skip == UINT32_MAX) {
			emit(ps, b->op, 0);
			fold_last(ps);
			continue;
		}
		emit(ps, E_BOOL, 0);
		ps->e->code[skip].v = ps->e->len;
	}
}

/* The quotient (or remainder) as the kernel computes it; the cases where x86's idiv raises
 * #DE are faults (expr.h). */
static int64_t divide(uint8_t op, int64_t x, int64_t y, enum expr_fault *fault)
{
	enum expr_fault f = !y ? EXPR_DIV_ZERO : x == INT64_MIN && y == -1 ? EXPR_DIV_OVERFLOW
									  : EXPR_OK;

	if (f != EXPR_OK) {
		if (*fault == EXPR_OK)
			*fault = f;
		return 0;
	}
	return op == E_DIV ? x / y : x % y;
}

/* The public binary operator (enum expr_binop) of each postfix one that has one, plus 1. */
static const uint8_t binop_of[] = {
	[E_MUL] = EBIN_MUL + 1, [E_ADD] = EBIN_ADD + 1, [E_SUB] = EBIN_SUB + 1,
	[E_LT] = EBIN_LT + 1, [E_LE] = EBIN_LE + 1, [E_GT] = EBIN_GT + 1, [E_GE] = EBIN_GE + 1,
	[E_EQ] = EBIN_EQ + 1, [E_NE] = EBIN_NE + 1, [E_MIN] = EBIN_MIN + 1, [E_MAX] = EBIN_MAX + 1,
};

static inline int64_t apply(uint8_t op, int64_t x, int64_t y, enum expr_fault *fault)
{
	if (op == E_DIV || op == E_MOD)
		return divide(op, x, y, fault);
	return expr_binop_apply((uint8_t)(binop_of[op] - 1), x, y);
}

/* Unary operators: negation wraps (-INT64_MIN is INT64_MIN, and so is its abs()). */
static int64_t unary(uint8_t op, int64_t x)
{
	uint64_t neg = 0 - (uint64_t)x;

	switch (op) {
	case E_NEG: return (int64_t)neg;
	case E_NOT: return !x;
	case E_ABS: return x < 0 ? (int64_t)neg : x;
	default: return x != 0; /* E_BOOL */
	}
}

/* The value of operand @in (E_CONST, E_LOCAL or E_BUILTIN). */
static int64_t operand(const struct einsn *in, const int64_t *locals, const int64_t *builtins)
{
	return in->op == E_CONST ? in->v : in->op == E_LOCAL ? locals[in->v] : builtins[in->v];
}

/* The value of @e, of a form other than SH_STACK.  An operator waits for its operands, so
 * a fault of the inner one is the first. */
static int64_t eval_shape(const struct expr *e, const int64_t *locals, const int64_t *builtins,
			  enum expr_fault *fault)
{
	const struct einsn *c = e->code;
	int64_t a = operand(&c[0], locals, builtins), v;

	switch (e->shape) {
	case SH_A: return a;
	case SH_AB: return apply(c[2].op, a, operand(&c[1], locals, builtins), fault);
	case SH_AB_C:
		v = apply(c[2].op, a, operand(&c[1], locals, builtins), fault);
		return apply(c[4].op, v, operand(&c[3], locals, builtins), fault);
	case SH_A_BC:
		v = apply(c[3].op, operand(&c[1], locals, builtins), operand(&c[2], locals, builtins),
			  fault);
		return apply(c[4].op, a, v, fault);
	case SH_A_UN: return unary(c[1].op, a);
	default: /* SH_A_UN_C */
		return apply(c[3].op, unary(c[1].op, a), operand(&c[2], locals, builtins), fault);
	}
}

int64_t expr_eval(const struct expr *e, const int64_t *locals, const int64_t *builtins,
		  enum expr_fault *fault)
{
	int64_t stack[EXPR_MAX_STACK];
	int sp = 0;

	if (e->shape != SH_STACK)
		return eval_shape(e, locals, builtins, fault);
	for (uint32_t i = 0; i < e->len; i++) {
		const struct einsn *in = &e->code[i];

		switch (in->op) {
		case E_CONST: stack[sp++] = in->v; break;
		case E_LOCAL: stack[sp++] = locals[in->v]; break;
		case E_BUILTIN: stack[sp++] = builtins[in->v]; break;
		case E_NEG:
		case E_NOT:
		case E_ABS:
		case E_BOOL: stack[sp - 1] = unary(in->op, stack[sp - 1]); break;
		case E_AND_SKIP:
		case E_OR_SKIP:
			if (!stack[sp - 1] == (in->op == E_AND_SKIP)) {
				stack[sp - 1] = in->op == E_OR_SKIP;
				i = (uint32_t)in->v - 1;
			} else {
				sp--;
			}
			break;
		default:
			sp--;
			stack[sp - 1] = apply(in->op, stack[sp - 1], stack[sp], fault);
		}
	}
	return sp ? stack[0] : 0;
}

const char *expr_fault_what(enum expr_fault f)
{
	switch (f) {
	case EXPR_DIV_ZERO: return "division by zero (expected a divisor other than 0)";
	case EXPR_DIV_OVERFLOW: return "INT64_MIN divided by -1 does not fit in 64 bits (expected "
				       "a quotient the x86 divide instruction can produce)";
	default: return "no fault";
	}
}

/* Fold a constant-only expression to one instruction.  Return: false with @err set when the
 * constant faults (a division by zero written into the model). */
static bool fold(struct parser *ps)
{
	struct expr *e = ps->e;
	enum expr_fault fault = EXPR_OK;
	int64_t v;

	for (uint32_t i = 0; i < e->len; i++)
		if (e->code[i].op == E_LOCAL || e->code[i].op == E_BUILTIN)
			return true;
	v = expr_eval(e, NULL, NULL, &fault);
	if (fault != EXPR_OK) {
		err_set(ps->err, ps->at, "'%s': %s", ps->shown, expr_fault_what(fault));
		return false;
	}
	e->len = 1;
	e->code[0] = (struct einsn){E_CONST, v};
	return true;
}

/* Fold the operator just emitted when its operands are constants (an operand that ends in
 * a constant is that constant: anything longer ends in an operator), so that only what
 * reads a local or a builtin is left for run time: `ZONE_NORMAL * NR_LRU_LISTS + lru` is
 * then `x OP y` (expr_binary).  A division that faults stays, for the run to report if it
 * is evaluated at all (`n && 1 / 0`); a skip of && or || never points into the folded
 * operands, only at the first, where their value goes. */
static void fold_last(struct parser *ps)
{
	struct expr *e = ps->e;
	const uint8_t op = e->code[e->len - 1].op;
	const uint32_t n = op == E_NEG || op == E_NOT || op == E_ABS ? 1 : 2;
	enum expr_fault fault = EXPR_OK;
	struct einsn *x = &e->code[e->len - 1 - n];
	int64_t v;

	if (x->op != E_CONST || x[n - 1].op != E_CONST)
		return;
	v = n == 1 ? unary(op, x->v) : apply(op, x->v, x[1].v, &fault);
	if (fault != EXPR_OK)
		return;
	*x = (struct einsn){E_CONST, v};
	e->len -= n;
}

/* Depth the postfix code needs: evaluation has a fixed stack.  A skip of && or || leaves the
 * stack as deep as its right operand does, so the straight-line count is the maximum. */
static int depth(const struct expr *e)
{
	int d = 0, max = 0;

	for (uint32_t i = 0; i < e->len; i++) {
		uint8_t op = e->code[i].op;

		if (op <= E_BUILTIN)
			d++;
		else if (op != E_NEG && op != E_NOT && op != E_ABS && op != E_BOOL)
			d--;
		max = d > max ? d : max;
	}
	return max;
}

static bool is_operand(uint8_t op)
{
	return op <= E_BUILTIN;
}

/* A binary operator of the code (&& and || are skips there). */
static bool is_binary(uint8_t op)
{
	return (op >= E_MUL && op <= E_NE) || op == E_MIN || op == E_MAX;
}

static bool is_unary(uint8_t op)
{
	return op == E_NEG || op == E_NOT || op == E_ABS;
}

/* The form of @e's code (enum eshape). */
static uint8_t shape_of(const struct expr *e)
{
	const struct einsn *c = e->code;

	if (!e->len || !is_operand(c[0].op))
		return SH_STACK;
	switch (e->len) {
	case 1: return SH_A;
	case 2: return is_unary(c[1].op) ? SH_A_UN : SH_STACK;
	case 3: return is_operand(c[1].op) && is_binary(c[2].op) ? SH_AB : SH_STACK;
	case 4:
		return is_unary(c[1].op) && is_operand(c[2].op) && is_binary(c[3].op) ? SH_A_UN_C
										  : SH_STACK;
	case 5:
		if (!is_operand(c[1].op) || !is_binary(c[4].op))
			return SH_STACK;
		if (is_binary(c[2].op) && is_operand(c[3].op))
			return SH_AB_C;
		return is_operand(c[2].op) && is_binary(c[3].op) ? SH_A_BC : SH_STACK;
	default: return SH_STACK;
	}
}

/* @e in one block with its code right after it: evaluating it then reads one place in the
 * host's memory, not two (the interpreter evaluates between other threads' memory traffic,
 * so each is usually a cache miss). */
static struct expr *pack(struct expr *e)
{
	struct expr *p = g_malloc(sizeof(*p) + sizeof(struct einsn) * e->len);

	*p = *e;
	p->code = (struct einsn *)(void *)(p + 1);
	p->cap = e->len;
	memcpy(p->code, e->code, sizeof(struct einsn) * e->len);
	g_free(e->code);
	g_free(e);
	return p;
}

struct expr *expr_compile(const char *text, struct c2c_mark at, expr_resolve_fn resolve,
			  void *data, const char *const *names, struct c2c_err *err)
{
	struct parser ps = {.text = text, .p = text, .e = g_new0(struct expr, 1), .at = at,
			    .resolve = resolve, .data = data, .names = names, .err = err};

	g_snprintf(ps.shown, sizeof(ps.shown), "%.*s%s", (int)sizeof(ps.shown) - 4, text,
		   strlen(text) > sizeof(ps.shown) - 4 ? "..." : "");
	for (char *c = ps.shown; *c; c++)
		if ((unsigned char)*c < ' ')
			*c = ' '; /* messages are one line */
	if (!parse_expr(&ps, 0) || (skip_ws(&ps), *ps.p && !fail(&ps, "an operator or the end"))) {
		expr_free(ps.e);
		return NULL;
	}
	if (depth(ps.e) > EXPR_MAX_STACK) {
		err_set(err, at, "'%s': too deeply nested (expected at most EXPR_MAX_STACK = %d "
			"operands pending at once)", ps.shown, EXPR_MAX_STACK);
		expr_free(ps.e);
		return NULL;
	}
	if (!fold(&ps)) {
		expr_free(ps.e);
		return NULL;
	}
	ps.e->text = g_strdup(ps.shown);
	ps.e->shape = shape_of(ps.e);
	return pack(ps.e);
}

bool expr_const(const struct expr *e, int64_t *v)
{
	if (e->len != 1 || e->code[0].op != E_CONST)
		return false;
	*v = e->code[0].v;
	return true;
}

bool expr_operand(const struct expr *e, struct expr_ref *out)
{
	static const uint8_t ref_of[] = {[E_CONST] = EREF_CONST, [E_LOCAL] = EREF_LOCAL,
					 [E_BUILTIN] = EREF_BUILTIN};

	if (e->len != 1 || e->code[0].op > E_BUILTIN)
		return false;
	out->kind = ref_of[e->code[0].op];
	out->v = e->code[0].v;
	return true;
}

/* Code @i of @e as an operand (expr_operand), a binary operator that cannot fault. */
static bool ref_at(const struct expr *e, uint32_t i, struct expr_ref *r)
{
	return expr_operand(&(struct expr){.len = 1, .code = &e->code[i]}, r);
}

static bool binop_at(const struct expr *e, uint32_t i, uint8_t *op)
{
	if (e->code[i].op >= G_N_ELEMENTS(binop_of) || !binop_of[e->code[i].op])
		return false;
	*op = (uint8_t)(binop_of[e->code[i].op] - 1);
	return true;
}

bool expr_binary(const struct expr *e, uint8_t *op, struct expr_ref *x, struct expr_ref *y)
{
	return e->len == 3 && binop_at(e, 2, op) && ref_at(e, 0, x) && ref_at(e, 1, y);
}

bool expr_scaled(const struct expr *e, uint8_t op[2], struct expr_ref r[3])
{
	return e->shape == SH_A_BC && binop_at(e, 3, &op[0]) && binop_at(e, 4, &op[1]) &&
	       ref_at(e, 0, &r[0]) && ref_at(e, 1, &r[1]) && ref_at(e, 2, &r[2]);
}

bool expr_abs_binary(const struct expr *e, uint8_t *op, struct expr_ref *x, struct expr_ref *y)
{
	return e->shape == SH_A_UN_C && e->code[1].op == E_ABS && binop_at(e, 3, op) &&
	       ref_at(e, 0, x) && ref_at(e, 2, y);
}

const char *expr_text(const struct expr *e)
{
	return e->text;
}

void expr_free(struct expr *e)
{
	if (!e)
		return;
	if (e->code != (struct einsn *)(void *)(e + 1)) /* not packed: compiling failed */
		g_free(e->code);
	g_free(e->text);
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
