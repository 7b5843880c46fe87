/*
 * pahole_int.h - inside the pahole importer: the tokens and declarations of one line
 * (pahole_decl.c), shared with the line grammar (pahole.c).  Not for other modules: they
 * use pahole.h.  The tok_ functions skip blanks first and, on success, advance *@sp past
 * what they read; on failure they leave *@sp alone.  None of them can fail otherwise.
 */
#ifndef C2C_PAHOLE_INT_H
#define C2C_PAHOLE_INT_H

#include "layout/pahole.h"

#include <glib.h>

/* Attributes after a member or a closing brace. */
struct attrs {
	uint32_t align;
	bool packed;
};

const char *tok_skip_ws(const char *s);
bool tok_ident_char(char c);
/* tok_lit - consume @word if it is next. */
bool tok_lit(const char **sp, const char *word);
/* tok_number - a decimal number (pahole's default output; no sign, no hex). */
bool tok_number(const char **sp, uint64_t *out);
/* tok_ident - a C identifier, returned as a new string; NULL when none is next. */
char *tok_ident(const char **sp);
/* tok_at_end - nothing but blanks left in @s. */
bool tok_at_end(const char *s);
/* tok_attrs - any __aligned__(N) / __packed__ attributes, merged into @a. */
void tok_attrs(const char **sp, struct attrs *a);
/* tok_dims - zero or more [N] or [] (a flexible array: 0) into @m; false when malformed. */
bool tok_dims(const char **sp, struct lmember *m);
/* tok_offset_comment - pahole's trailing "OFF SIZE" or "OFF:BIT SIZE" comment at @s. */
bool tok_offset_comment(const char *s, uint64_t *off, int64_t *bit, uint64_t *size);
/* tok_trailing_comment - where the last comment of @t starts, or NULL when @t has none. */
const char *tok_trailing_comment(const char *t);

/* decl_parse - fill @m from "TYPE NAME[D]:BITS ATTRS" (the text before ';'; modified). */
bool decl_parse(char *decl, struct lmember *m, struct attrs *a);
/* decl_hole_line - pahole's comment-less "TYPE :N;" lines (bit holes, forced padding). */
bool decl_hole_line(const char *t);
/* decl_finish_field - what follows from the type: padding markers and embedded layouts. */
void decl_finish_field(struct lmember *m);

#endif
