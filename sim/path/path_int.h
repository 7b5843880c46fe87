/*
 * path_int.h - the path compiler's shared state (path.c: files, kinds, names, code;
 * path_addr.c: addresses; path_ops.c: operations and control flow; path_operand.c: what the
 * interpreter reads of them).  Not for other modules.
 */
#ifndef C2C_PATH_INT_H
#define C2C_PATH_INT_H

#include <glib.h>

#include "path/path.h"

#define PC_MAX_LOOPS 16

struct pcloop {
	GArray *breaks;        /* instruction indexes of jumps to patch to the loop's end */
	uint32_t cont;         /* where `continue` goes */
};

struct pcomp {
	struct program *prog;
	struct layout_lib *lib;
	struct path *p;
	GArray *code;          /* struct pinsn */
	char *locals[PATH_MAX_LOCALS];
	int16_t local_kind[PATH_MAX_LOCALS];
	const struct layout *local_ptr[PATH_MAX_LOCALS]; /* loaded from a `struct X *` member */
	const char *last_type; /* C type of the member pc_addr resolved last (NULL: none) */
	uint8_t nr_locals;
	struct pcloop loops[PC_MAX_LOOPS];
	int nr_loops;
	GPtrArray *sites;
	uint32_t site_base;
	struct c2c_mark mark;
	struct c2c_err *err;
};

int pc_local(struct pcomp *pc, const char *name, int16_t kind, bool create);
int pc_hidden(struct pcomp *pc);
struct expr *pc_expr(struct pcomp *pc, const struct yt_node *n, const char *what);
struct expr *pc_expr_text(struct pcomp *pc, const char *text, struct c2c_mark at);
struct pinsn *pc_emit(struct pcomp *pc, uint8_t op, struct c2c_mark at);
uint32_t pc_here(const struct pcomp *pc);
uint32_t pc_site(struct pcomp *pc, const char *op, const char *at);

/* pc_addr - compile the address text of @n into @a; @size overrides the member's size (0:
 * the member's).  Return: false with pc->err set and nothing left allocated in @a. */
bool pc_addr(struct pcomp *pc, const struct yt_node *n, uint32_t size, struct member_ref *a);

/* pc_pointee - the layout the member pc_addr resolved last points to (`struct X *` with X's
 * layout loadable), or NULL. */
const struct layout *pc_pointee(struct pcomp *pc);

/* pc_body - compile a sequence of operations. */
bool pc_body(struct pcomp *pc, const struct yt_node *seq);

/* pc_link_calls - give every call of @pr its callee's code and number of locals, once every
 * path is compiled (a call may name a path compiled after it). */
void pc_link_calls(struct program *pr);

/* pc_insn_resolve - @in's expressions as operands, the locals it reads, its address's form
 * and what the interpreter dispatches on (path_operand.c). */
void pc_insn_resolve(struct pinsn *in);
/* member_ref_form - the form of address @a (enum addr_form). */
uint8_t member_ref_form(const struct member_ref *a);
/* member_ref_release - free the expressions of an address (and forget them: safe to repeat). */
void member_ref_release(struct member_ref *a);

/* pinsn_release - free what an instruction owns: its address, operands and call arguments.
 * Compilers of one operation call it on their half-built instruction when they fail. */
void pinsn_release(struct pinsn *in);

#endif
