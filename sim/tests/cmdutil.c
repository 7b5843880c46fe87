/* cmdutil.c - running the c2csim program from a test; see cmdutil.h. */
#include "cmdutil.h"

#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"

/* Run c2csim with @args (NULL-terminated) in the source tree; fills @c. */
void c2csim(struct cmd *c, const char *const *args)
{
	tu_spawn_c2csim(args, &c->status, &c->out, &c->err);
}

void cmd_free(struct cmd *c)
{
	g_free(c->out);
	g_free(c->err);
}

char *tmpdir(void)
{
	g_autoptr(GError) gerr = NULL;
	char *d = g_dir_make_tmp("c2csim-test-XXXXXX", &gerr);

	ck_assert_msg(d != NULL, "%s", gerr ? gerr->message : "");
	return d;
}

void rm_rf(const char *path)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", path);

	ck_assert_int_eq(system(cmd), 0);
}

char *slurp(const char *dir, const char *file)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	char *text = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "missing %s", path);
	return text;
}

/* The error is one line of the form file:line:col: message (expected ...). */
void assert_one_line_error(const struct cmd *c, const char *file_part, const char *what)
{
	g_autoptr(GRegex) re = g_regex_new("^[^:\\n]+:[0-9]+:[0-9]+: [^\\n]+\\n$", 0, 0, NULL);

	ck_assert_msg(c->status == 2, "exit %d, stderr: %s", c->status, c->err);
	ck_assert_msg(g_regex_match(re, c->err, 0, NULL), "not one file:line:col line: %s", c->err);
	ck_assert_msg(strstr(c->err, file_part) && strstr(c->err, what), "stderr: %s", c->err);
	ck_assert_str_eq(c->out, "");
}
