/*
 * layout_abi_build.h - what check_layout_abi.c and check_layout_abi_types.c share: layouts
 * built in memory (members from a compact spec), a resolver for embedded layouts by name, and
 * compiling and running a C program with the system cc.
 */
#ifndef C2C_LAYOUT_ABI_BUILD_H
#define C2C_LAYOUT_ABI_BUILD_H

#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "layout/layout.h"

/* ---- building layouts in memory --------------------------------------------------------- */

#define TOP(l) &(l)->m, &(l)->nr
#define IN(a) &(a)->sub, &(a)->nr_sub

static const struct c2c_mark AT = { "t.yaml", 3, 5 };

/* Append a member.  Note: appending may move earlier siblings, so callers finish one
 * aggregate before adding the next sibling. */
static inline struct lmember *add(struct lmember **arr, uint32_t *nr, int kind, const char *name,
				  const char *type)
{
	struct lmember *m = lmember_append(arr, nr);

	m->kind = (uint8_t)kind;
	m->name = g_strdup(name);
	m->type = g_strdup(type);
	m->mark = AT;
	return m;
}

static inline struct lmember *fld(struct lmember **arr, uint32_t *nr, const char *name,
				  const char *type)
{
	return add(arr, nr, LM_FIELD, name, type);
}

/* Append fields from "NAME[D]..:BITS@ALIGN=SIZE TYPE, ..." (NAME "_": an unnamed bitfield;
 * TYPE "-": none). */
static inline void fields(struct lmember **arr, uint32_t *nr, const char *spec)
{
	g_auto(GStrv) items = g_strsplit(spec, ",", -1);

	for (char **it = items; *it; it++) {
		char *s = g_strstrip(*it), *type = strchr(s, ' '), *p, sep;
		struct lmember *m;

		ck_assert_ptr_nonnull(type);
		*type++ = '\0';
		p = s + strcspn(s, "[:@=");
		sep = *p;
		*p = '\0';
		m = fld(arr, nr, strcmp(s, "_") ? s : NULL, strcmp(type, "-") ? type : NULL);
		while (sep) {
			unsigned long v = strtoul(p + 1, &p, 10);

			if (sep == '[' && *p++ == ']')
				m->dims[m->nr_dims++] = (uint32_t)v;
			else if (sep == ':')
				m->bits = (uint16_t)v;
			else if (sep == '=')
				m->size = v;
			else
				m->align = (uint32_t)v;
			sep = *p;
		}
	}
}

static inline struct lmember *embed(struct lmember **arr, uint32_t *nr, const char *name,
				    const char *layout)
{
	g_autofree char *type = g_strdup_printf("struct %s", layout);
	struct lmember *m = fld(arr, nr, name, type);

	m->layout = g_strdup(layout);
	return m;
}

static inline void group(struct layout *l, const char *name, const char *first, const char *last)
{
	struct lgroup *g;

	l->groups = g_renew(struct lgroup, l->groups, l->nr_groups + 1);
	g = &l->groups[l->nr_groups++];
	memset(g, 0, sizeof(*g));
	g->name = g_strdup(name);
	g->first = g_strdup(first);
	g->last = g_strdup(last);
	g->aligned = true;
	g->mark = AT;
}

/* ---- the resolver: a few embedded layouts by name --------------------------------------- */

struct lib {
	struct layout *e[4];
	uint32_t given[4];      /* their align before computing: the struct's __aligned__ */
	int n;
};

static inline const struct layout *resolve(void *data, const char *name, struct c2c_mark at,
					   struct c2c_err *err)
{
	struct lib *lib = data;

	for (int i = 0; lib && i < lib->n; i++)
		if (!strcmp(lib->e[i]->name, name))
			return lib->e[i];
	err_set(err, at, "no layout '%s' in the test library", name);
	return NULL;
}

static inline void lib_add(struct lib *lib, struct layout *l)
{
	struct c2c_err err = { 0 };

	lib->given[lib->n] = l->align;
	ck_assert_msg(layout_compute(l, resolve, lib, &err), "%s", err.msg);
	lib->e[lib->n++] = l;
}

static inline void lib_free(struct lib *lib)
{
	for (int i = 0; i < lib->n; i++)
		layout_free(lib->e[i]);
}

/* ---- compile and run -------------------------------------------------------------------- */

/* Run @argv; false unless it exits with 0 (@errs: its stderr, or why it did not start). */
static inline bool spawn(char **argv, char **out, char **errs)
{
	GError *error = NULL;
	int status = -1;

	if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, errs, &status,
			  &error)) {
		*errs = g_strdup(error->message);
		g_error_free(error);
		return false;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Compile @src with cc and return what the program prints.  Caller frees.  The scratch
 * directory goes before any assertion, so a failing test leaves nothing behind. */
static inline char *cc_run(const char *src)
{
	g_autofree char *dir = g_dir_make_tmp("check_layout_abi-XXXXXX", NULL);
	g_autofree char *c = NULL, *exe = NULL, *cout = NULL, *cerr = NULL, *rerr = NULL;
	char *out = NULL;
	bool built, ran;

	ck_assert_ptr_nonnull(dir);
	c = g_build_filename(dir, "x.c", NULL);
	exe = g_build_filename(dir, "x", NULL);
	built = g_file_set_contents(c, src, -1, NULL) &&
		spawn((char *[]){ "cc", "-std=gnu11", "-o", exe, c, NULL }, &cout, &cerr);
	ran = built && spawn((char *[]){ exe, NULL }, &out, &rerr);
	g_unlink(exe);
	g_unlink(c);
	g_rmdir(dir);
	ck_assert_msg(built, "cc failed:\n%s\n--- source ---\n%s", cerr, src);
	ck_assert_msg(ran, "%s failed: %s", exe, rerr);
	return out;
}

#endif
