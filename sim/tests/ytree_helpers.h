/*
 * ytree_helpers.h - small helpers shared by the ytree suites (check_ytree.c,
 * check_ytree_getters.c, check_ytree_edit.c): parse a string, parse one that must be valid,
 * check a node's mark, check an error's message.
 */
#ifndef C2C_YTREE_HELPERS_H
#define C2C_YTREE_HELPERS_H

#include <check.h>
#include <string.h>

#include "yaml/ytree.h"

/* Parse @text as the file "t.yaml". */
static inline struct yt_node *load(const char *text, struct c2c_err *err)
{
	return yt_load_string("t.yaml", text, strlen(text), err);
}

/* Parse @text that must be valid; fails the test otherwise. */
static inline struct yt_node *load_ok(const char *text)
{
	struct c2c_err err = { 0 };
	struct yt_node *root = load(text, &err);

	ck_assert_msg(root != NULL, "parse failed: %s", err.msg);
	ck_assert(!err.set);
	return root;
}

/* @n exists and its mark is @file:@line:@col. */
static inline void assert_mark(const struct yt_node *n, const char *file, int line, int col)
{
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->mark.file, file);
	ck_assert_int_eq(n->mark.line, line);
	ck_assert_int_eq(n->mark.col, col);
}

/* @err (a struct c2c_err) is set, with exactly the message @text. */
#define ASSERT_ERR(err, text)                        \
	do {                                         \
		ck_assert((err).set);                \
		ck_assert_str_eq((err).msg, (text)); \
	} while (0)

#endif
