/*
 * err.h - one-line input errors in the form `file:line:col: what is wrong (what was expected)`.
 *
 * Every loader reports bad input through a struct c2c_err filled by err_set(); the CLI prints
 * err->msg as the only line on stderr and exits with status 2.  Nothing here allocates.
 */
#ifndef C2C_ERR_H
#define C2C_ERR_H

#include <stdbool.h>
#include <stddef.h>

#define C2C_ERR_MAX 1024

struct c2c_err {
	bool set;
	bool limit;   /* a resource limit was reached (exit 1, core/limits.h), not bad input */
	char msg[C2C_ERR_MAX];
};

/* A place in an input file; line and col are 1-based (0 when unknown). */
struct c2c_mark {
	const char *file;
	int line;
	int col;
};

/*
 * err_set - record an error at @mark, formatted as "file:line:col: message".
 * Only the first error is kept: later calls are ignored so the root cause is reported.
 */
void err_set(struct c2c_err *err, struct c2c_mark mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* err_setf - an error with no position (usage errors, internal failures). */
void err_setf(struct c2c_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* err_text_nul - a NUL byte in @text[0..@len) would silently end a text input early: when
 * there is one, set @err at its line and column of @file and return false. */
bool err_text_nul(const char *file, const char *text, size_t len, const char *what,
		  struct c2c_err *err);

/* err_closest - the name in @names (NULL-terminated) closest to @word by edit distance,
 * or NULL when none is reasonably close.  Used for "did you mean" suggestions. */
const char *err_closest(const char *word, const char *const *names);

#endif
