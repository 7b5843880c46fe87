/* path_operand.c - what the interpreter reads of an instruction's expressions and address,
 * resolved when its path is compiled (struct operand, pinsn.deps, pinsn.xop); see path.h. */
#include "path/path_int.h"

/* @e, which is not one operand, as the interpreter reads it: `x OP y` of a local and a
 * constant or of two locals in the compiled form (struct operand), else the expression. */
static struct operand binary_operand_of(const struct expr *e)
{
	struct expr_ref x, y;
	uint8_t op;

	if (!expr_binary(e, &op, &x, &y) || (x.kind != EREF_LOCAL && y.kind != EREF_LOCAL) ||
	    x.kind == EREF_BUILTIN || y.kind == EREF_BUILTIN)
		return (struct operand){.e = e, .kind = OPND_EXPR};
	if (x.kind == EREF_LOCAL && y.kind == EREF_LOCAL)
		return (struct operand){.kind = OPND_LOC_LOC, .bop = op, .x = (uint8_t)x.v,
					.y = (uint8_t)y.v};
	if (x.kind == EREF_LOCAL)
		return (struct operand){.v = y.v, .kind = OPND_LOC_CONST, .bop = op,
					.x = (uint8_t)x.v};
	return (struct operand){.v = x.v, .kind = OPND_CONST_LOC, .bop = op, .x = (uint8_t)y.v};
}

/* @e, of none of binary_operand_of's forms: `x OP (C OP2 b)` or `abs(x) OP C` (x a local, b
 * a builtin), else the expression. */
static struct operand shaped_operand_of(const struct expr *e)
{
	struct expr_ref r[3];
	uint8_t op[2];

	if (expr_scaled(e, op, r) && r[0].kind == EREF_LOCAL) {
		/* (C * b, b * C: a commutative inner operator takes either order) */
		if (r[1].kind == EREF_BUILTIN && r[2].kind == EREF_CONST &&
		    (op[0] == EBIN_MUL || op[0] == EBIN_ADD)) {
			struct expr_ref b = r[1];

			r[1] = r[2];
			r[2] = b;
		}
		if (r[1].kind == EREF_CONST && r[2].kind == EREF_BUILTIN)
			return (struct operand){.v = r[1].v, .kind = OPND_LOC_CB, .bop = op[1],
						.x = (uint8_t)r[0].v, .y = (uint8_t)r[2].v,
						.bop2 = op[0]};
	}
	if (expr_abs_binary(e, op, &r[0], &r[1]) && r[0].kind == EREF_LOCAL &&
	    r[1].kind == EREF_CONST)
		return (struct operand){.v = r[1].v, .kind = OPND_ABS_CONST, .bop = op[0],
					.x = (uint8_t)r[0].v};
	return (struct operand){.e = e, .kind = OPND_EXPR};
}

/* @e as the interpreter reads it (struct operand). */
static struct operand operand_of(const struct expr *e)
{
	static const uint8_t kind_of[] = {[EREF_LOCAL] = OPND_LOCAL, [EREF_CONST] = OPND_CONST,
					  [EREF_BUILTIN] = OPND_BUILTIN};
	struct expr_ref r;
	struct operand o;

	if (!e)
		return (struct operand){.kind = OPND_NONE};
	if (expr_operand(e, &r))
		return (struct operand){.v = r.v, .kind = kind_of[r.kind]};
	o = binary_operand_of(e);
	return o.kind == OPND_EXPR ? shaped_operand_of(e) : o;
}

/* The locals an instruction reads: its operands, arguments and address; and its
 * expressions as operands. */
void pc_insn_resolve(struct pinsn *in)
{
	struct member_ref *a = &in->addr;

	in->av = operand_of(in->a);
	in->bv = operand_of(in->b);
	a->cpuv = operand_of(a->cpu);
	a->nodev = operand_of(a->node);
	for (int i = 0; i < a->nr_idx; i++)
		a->idxv[i] = operand_of(a->idx[i]);
	a->form = member_ref_form(a);
	in->xop = in->op == P_LOAD ? (uint8_t)(PX_LOAD + a->form) : in->op;
	if (in->nr_args)
		in->argv = g_new(struct operand, in->nr_args);
	for (uint8_t i = 0; i < in->nr_args; i++)
		in->argv[i] = operand_of(in->args[i]);

	in->deps = expr_locals(in->a) | expr_locals(in->b) | expr_locals(a->cpu) |
		   expr_locals(a->node);
	for (int i = 0; i < a->nr_idx; i++)
		in->deps |= expr_locals(a->idx[i]);
	for (uint8_t i = 0; i < in->nr_args; i++)
		in->deps |= expr_locals(in->args[i]);
	if (in->op <= P_TRYLOCK && a->ent >= 0)
		in->deps |= 1ull << a->ent;
	if (in->op <= P_TRYLOCK && a->ptr >= 0)
		in->deps |= 1ull << a->ptr;
	if (in->op == P_FOR_NEXT)
		in->deps |= 3ull << in->callee; /* the cursor and the limit */
}

