/*
 * ytree_int.h - shared by the ytree*.c files only (ytree.c: parsing, node lifecycle, string
 * pool and structure checks; ytree_value.c: typed scalar getters; ytree_edit.c: path
 * overrides and output).  Not for other modules; see ytree.h for the design.
 */
#ifndef C2C_YTREE_INT_H
#define C2C_YTREE_INT_H

#include "yaml/ytree.h"

/* struct yt_strpool stays opaque: only ytree.c's pool functions touch its fields. */

/* yt_pool_new - a pool naming the file @name, holding one reference (the caller's). */
struct yt_strpool *yt_pool_new(const char *name);

/* yt_pool_unref - drop one reference; the last one frees the pool.  Accepts NULL. */
void yt_pool_unref(struct yt_strpool *pool);

/* yt_node_new - an empty node of @kind marked at @line:@col of @pool's file; takes its own
 * reference on @pool (NULL: no file). */
struct yt_node *yt_node_new(enum yt_kind kind, struct yt_strpool *pool, int line, int col);

/* yt_kind_name - "a scalar", "a mapping" or "a sequence", for messages. */
const char *yt_kind_name(enum yt_kind kind);

/* yt_need_kind - check @n is present and of @kind: "WHAT: expected a mapping (got a sequence)". */
bool yt_need_kind(const struct yt_node *n, enum yt_kind kind, const char *what,
		  struct c2c_err *err);

/* yt_err_unknown - "WHAT: unknown NOUN 'w' (expected one of: a, b; did you mean 'a'?)" at @at. */
void yt_err_unknown(struct c2c_err *err, struct c2c_mark at, const char *what,
		    const char *noun, const char *word, const char *const *names);

/* yt_cap - the storage a map's pairs or a sequence's items have for @len entries: none for
 * none, else the next power of two of at least 4 (what the parser's doubling leaves), so an
 * append outside the parser grows geometrically and 40,000 `set:` keys cost linear time. */
static inline size_t yt_cap(size_t len)
{
	size_t c = 4;

	if (!len)
		return 0;
	while (c < len)
		c *= 2;
	return c;
}

#endif
