/* shutil.h - shell helpers of the plot and sweep suites: they drive the c2csim program,
 * gnuplot, GNU parallel and bash the way a user does. */
#ifndef C2C_SHUTIL_H
#define C2C_SHUTIL_H

/* sh_run - run @cmd with `sh -c` in the source tree (C2CSIM_SRCDIR), with $C2CSIM set to
 * the program under test.  @out (may be NULL) gets stdout and stderr together.
 * Return: the exit status (128 + signal when killed). */
int sh_run(const char *cmd, char **out);

/* sh_tmpdir - a new empty directory under the system's temporary directory. */
char *sh_tmpdir(void);

/* sh_file - the contents of @dir/@name; fails the test when unreadable.  Caller g_free()s. */
char *sh_file(const char *dir, const char *name);

/* sh_put - write @text to @dir/@name; fails the test on error. */
void sh_put(const char *dir, const char *name, const char *text);

/* sh_rm - remove @dir and everything in it. */
void sh_rm(const char *dir);

#endif
