/*
 * spawn_util.h - running the c2csim program from a test, in a directory of the test's
 * choice, and looking at what it left on disk (check_hostile.c, check_interrupt.c,
 * check_output.c).
 */
#ifndef C2C_SPAWN_UTIL_H
#define C2C_SPAWN_UTIL_H

#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "testutil.h"

struct run {
	int status; /* the exit status, or 128 + signal */
	char *out, *err;
};

static inline const char *su_bin(void)
{
	const char *bin = getenv("C2CSIM_BIN");

	ck_assert_msg(bin != NULL, "C2CSIM_BIN is not set (run the tests with meson test)");
	return bin;
}

static inline int su_status(int wait)
{
	return WIFEXITED(wait) ? WEXITSTATUS(wait) : 128 + WTERMSIG(wait);
}

/* Run c2csim with @args (NULL-terminated) in @cwd; fills @r (free with su_free). */
static inline void su_run(struct run *r, const char *cwd, const char *const *args)
{
	GPtrArray *argv = g_ptr_array_new();
	g_autoptr(GError) gerr = NULL;
	int wait;

	g_ptr_array_add(argv, (char *)su_bin());
	for (; *args; args++)
		g_ptr_array_add(argv, (char *)*args);
	g_ptr_array_add(argv, NULL);
	ck_assert_msg(g_spawn_sync(cwd, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
				   &r->out, &r->err, &wait, &gerr), "%s", gerr ? gerr->message : "");
	r->status = su_status(wait);
	g_ptr_array_free(argv, TRUE);
}

static inline void su_free(struct run *r)
{
	g_free(r->out);
	g_free(r->err);
}

static inline char *su_tmpdir(void)
{
	g_autoptr(GError) gerr = NULL;
	char *d = g_dir_make_tmp("c2csim-hostile-XXXXXX", &gerr);

	ck_assert_msg(d != NULL, "%s", gerr ? gerr->message : "");
	return d;
}

static inline void su_rm_rf(const char *path)
{
	g_autofree char *q = g_shell_quote(path);
	g_autofree char *cmd = g_strdup_printf("chmod -R u+w %s; rm -rf %s", q, q);

	ck_assert_int_eq(system(cmd), 0);
}

static inline char *su_slurp(const char *dir, const char *file)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	char *text = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "missing %s", path);
	return text;
}

/* Every entry under @dir, recursively, as "relative/path" (dirs end in '/'), sorted, one a
 * line: a fingerprint of what is on disk. */
static inline void su_list_into(GPtrArray *acc, const char *dir, const char *rel)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	ck_assert_msg(d != NULL, "cannot list %s", dir);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_autofree char *r = *rel ? g_strconcat(rel, "/", name, NULL) : g_strdup(name);

		if (g_file_test(path, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
			g_ptr_array_add(acc, g_strconcat(r, "/", NULL));
			su_list_into(acc, path, r);
		} else {
			g_ptr_array_add(acc, g_strdup(r));
		}
	}
	g_dir_close(d);
}

static inline int su_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline char *su_list(const char *dir)
{
	GPtrArray *acc = g_ptr_array_new_with_free_func(g_free);
	GString *s = g_string_new(NULL);

	su_list_into(acc, dir, "");
	g_ptr_array_sort(acc, su_cmp);
	for (guint i = 0; i < acc->len; i++)
		g_string_append_printf(s, "%s\n", (char *)acc->pdata[i]);
	g_ptr_array_free(acc, TRUE);
	return g_string_free(s, FALSE);
}

/* The bad-input contract: exit 2, nothing on stdout, one line on stderr that starts with
 * @prefix ("file:line:col: ") and holds @what. */
static inline void su_assert_bad_input(const struct run *r, const char *prefix, const char *what)
{
	const char *nl = strchr(r->err, '\n');

	ck_assert_msg(r->status == 2, "exit %d, stderr: %s", r->status, r->err);
	ck_assert_msg(nl && !nl[1], "not one line: %s", r->err);
	ck_assert_msg(g_str_has_prefix(r->err, prefix), "want %s..., got %s", prefix, r->err);
	ck_assert_msg(strstr(r->err, what), "want ...%s..., got %s", what, r->err);
	ck_assert_str_eq(r->out, "");
}

/* Entries of @dir whose names start with a dot (leftover temporaries). */
static inline int su_dot_entries(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((name = g_dir_read_name(d)))
		n += name[0] == '.';
	g_dir_close(d);
	return n;
}

static inline double su_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
