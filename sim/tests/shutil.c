/* shutil.c - see shutil.h. */
#include "shutil.h"

#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "testutil.h"

int sh_run(const char *cmd, char **out)
{
	const char *bin = getenv("C2CSIM_BIN");
	g_autofree char *src = tu_src_path(".");
	g_autofree char *full = NULL;
	g_autoptr(GError) gerr = NULL;
	const char *argv[] = {"sh", "-c", NULL, NULL};
	char *text = NULL;
	int wait = 0;

	ck_assert_msg(bin != NULL, "C2CSIM_BIN is not set (run the tests with meson test)");
	full = g_strdup_printf("C2CSIM='%s'; export C2CSIM; exec 2>&1; %s", bin, cmd);
	argv[2] = full;
	ck_assert_msg(g_spawn_sync(src, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
				   &text, NULL, &wait, &gerr), "%s", gerr ? gerr->message : "");
	if (out)
		*out = text;
	else
		g_free(text);
	if (WIFSIGNALED(wait))
		return 128 + WTERMSIG(wait);
	return WEXITSTATUS(wait);
}

char *sh_tmpdir(void)
{
	g_autoptr(GError) gerr = NULL;
	char *d = g_dir_make_tmp("c2csim-test-XXXXXX", &gerr);

	ck_assert_msg(d != NULL, "%s", gerr ? gerr->message : "");
	return d;
}

char *sh_file(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) gerr = NULL;
	char *text = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, NULL, &gerr), "%s", gerr->message);
	return text;
}

void sh_put(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *parent = g_path_get_dirname(path);
	g_autoptr(GError) gerr = NULL;

	ck_assert_int_eq(g_mkdir_with_parents(parent, 0777), 0);
	ck_assert_msg(g_file_set_contents(path, text, -1, &gerr), "%s", gerr->message);
}

void sh_rm(const char *dir)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);

	ck_assert_int_eq(sh_run(cmd, NULL), 0);
}
