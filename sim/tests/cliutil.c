/* cliutil.c - running the c2csim program from the Check suites; see cliutil.h. */
#include "cliutil.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"

/* Run c2csim with @args (NULL-terminated) in the source tree; fills @c. */
void c2csim(struct cmd *c, const char *const *args)
{
	const char *bin = getenv("C2CSIM_BIN");
	GPtrArray *argv = g_ptr_array_new();
	g_autofree char *src = tu_src_path(".");
	g_autoptr(GError) gerr = NULL;
	int wait;

	ck_assert_msg(bin != NULL, "C2CSIM_BIN is not set (run the tests with meson test)");
	g_ptr_array_add(argv, (char *)bin);
	for (; *args; args++)
		g_ptr_array_add(argv, (char *)*args);
	g_ptr_array_add(argv, NULL);
	ck_assert_msg(g_spawn_sync(src, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
				   &c->out, &c->err, &wait, &gerr), "%s", gerr ? gerr->message : "");
	c->status = WIFEXITED(wait) ? WEXITSTATUS(wait) : 128;
	g_ptr_array_free(argv, TRUE);
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
