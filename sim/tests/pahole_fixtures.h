/*
 * pahole_fixtures.h - reading the fixtures under sim/tests/data/pahole/, shared by
 * check_pahole.c and check_pahole_write.c.
 */
#ifndef C2C_PAHOLE_FIXTURES_H
#define C2C_PAHOLE_FIXTURES_H

#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "layout/pahole.h"

#define LINUX_DIR "linux-6.18.44"

/* A path under sim/tests/data/pahole/ (C2CSIM_SRCDIR is set by meson test).  Caller frees. */
static inline char *data_path(const char *rel)
{
	const char *src = getenv("C2CSIM_SRCDIR");

	ck_assert_msg(src != NULL, "C2CSIM_SRCDIR is not set (run the tests with meson test)");
	return g_build_filename(src, "sim", "tests", "data", "pahole", rel, NULL);
}

/* Import a fixture that must parse; @text_out (optional) gets the raw text. */
static inline struct layout *import(const char *rel, char **text_out)
{
	g_autofree char *path = data_path(rel);
	char *text = NULL;
	struct c2c_err err = { 0 };
	struct layout *l;

	ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "cannot read %s", path);
	l = pahole_parse(path, text, &err);

	ck_assert_msg(l != NULL, "%s: %s", rel, err.msg);
	ck_assert(!err.set);
	if (text_out)
		*text_out = text;
	else
		g_free(text);
	return l;
}

/* g_ptr_array_sort passes pointers to the elements. */
static inline int cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The linux fixtures, sorted (the directory order is not). */
static inline GPtrArray *linux_fixtures(void)
{
	g_autofree char *dir_path = data_path(LINUX_DIR);
	GDir *dir = g_dir_open(dir_path, 0, NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *n;

	ck_assert_msg(dir != NULL, "cannot open %s", dir_path);
	while ((n = g_dir_read_name(dir)))
		if (g_str_has_suffix(n, ".txt"))
			g_ptr_array_add(names, g_build_filename(LINUX_DIR, n, NULL));
	g_dir_close(dir);
	g_ptr_array_sort(names, cmp_strp);
	return names;
}

#endif
