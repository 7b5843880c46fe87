/*
 * cliutil.h - helpers of the end-to-end suites that run the c2csim program (C2CSIM_BIN) in
 * the source tree and look at its exit status, stdout and stderr.
 */
#ifndef C2C_CLIUTIL_H
#define C2C_CLIUTIL_H

struct cmd {
	int status;
	char *out, *err;
};

/* Run c2csim with @args (NULL-terminated) in the source tree; fills @c (free with cmd_free). */
void c2csim(struct cmd *c, const char *const *args);
void cmd_free(struct cmd *c);

/* A new temporary directory (caller frees the name; remove it with rm_rf). */
char *tmpdir(void);
void rm_rf(const char *path);

/* The contents of @dir/@file; fails the test when it is missing.  Caller frees. */
char *slurp(const char *dir, const char *file);

/* The error is one line `file:line:col: message` holding @file_part and @what, exit 2, no
 * stdout. */
void assert_one_line_error(const struct cmd *c, const char *file_part, const char *what);

#endif
