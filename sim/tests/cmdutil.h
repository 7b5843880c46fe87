/*
 * cmdutil.h - running the c2csim program from a test: exit status and output, scratch
 * directories, and the one-line error check (shared by the end-to-end suites).
 */
#ifndef C2C_CMDUTIL_H
#define C2C_CMDUTIL_H

struct cmd {
	int status;
	char *out, *err;
};

/* Run c2csim (C2CSIM_BIN) with @args (NULL-terminated) in the source tree; fills @c. */
void c2csim(struct cmd *c, const char *const *args);
void cmd_free(struct cmd *c);

/* A new scratch directory (caller frees the name; rm_rf removes it). */
char *tmpdir(void);
void rm_rf(const char *path);

/* The contents of @dir/@file; fails the test when it is missing.  Caller frees. */
char *slurp(const char *dir, const char *file);

/* The run exited 2 with one line `file:line:col: message` on stderr, naming @file_part and
 * @what, and printed nothing on stdout. */
void assert_one_line_error(const struct cmd *c, const char *file_part, const char *what);

#endif
