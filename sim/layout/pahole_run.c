/* pahole_run.c - run pahole on a binary and import what it prints; see pahole_run.h. */
#include "layout/pahole_run.h"

#include <string.h>

#include "layout/pahole.h"

#define MAX_STDERR 400 /* characters of pahole's stderr quoted in an error */

/* pahole's stderr as one line: trimmed, newlines as "; ", cut at MAX_STDERR. */
static char *one_line(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
	GString *s = g_string_new(NULL);

	for (char **p = lines; *p; p++) {
		g_strstrip(*p);
		if (**p)
			g_string_append_printf(s, "%s%s", s->len ? "; " : "", *p);
	}
	if (s->len > MAX_STDERR)
		g_string_truncate(s, MAX_STDERR);
	return g_string_free(s, FALSE);
}

char *pahole_output(const char *object, bool btf, const char *name, struct c2c_err *err)
{
	const char *argv[] = {"pahole", "-C", name, object, NULL, NULL, NULL};
	struct c2c_mark at = {object, 1, 1};
	g_autofree char *out = NULL, *errs = NULL, *msg = NULL;
	g_autoptr(GError) gerr = NULL;
	int status = 0;

	if (btf) { /* pahole -F btf -C NAME FILE */
		argv[1] = "-F", argv[2] = "btf", argv[3] = "-C", argv[4] = name, argv[5] = object;
	}
	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
			  &errs, &status, &gerr)) {
		err_set(err, at, "cannot run pahole: %s (expected pahole from the dwarves package "
			"on PATH; tools/setup installs it)", gerr->message);
		return NULL;
	}
	msg = one_line(errs);
	if (!g_spawn_check_wait_status(status, &gerr)) {
		err_set(err, at, "pahole -C %s failed (%s): %s (expected an ELF object with %s)",
			name, gerr->message, *msg ? msg : "no message", btf ? "BTF" : "DWARF (gcc -g)");
		return NULL;
	}
	if (!out || !*g_strstrip(out)) {
		err_set(err, at, "pahole -C %s printed nothing%s%s (expected struct %s in the %s "
			"of %s)", name, *msg ? ": " : "", msg, name, btf ? "BTF" : "DWARF", object);
		return NULL;
	}
	return g_steal_pointer(&out);
}

/* The structs @m embeds by value (fields with `layout:`), appended to @queue when new. */
static void embedded(const struct lmember *m, uint32_t nr, GPtrArray *queue, GHashTable *seen)
{
	for (uint32_t i = 0; i < nr; i++) {
		if (m[i].layout && !g_hash_table_contains(seen, m[i].layout)) {
			g_hash_table_add(seen, m[i].layout);
			g_ptr_array_add(queue, m[i].layout);
		}
		embedded(m[i].sub, m[i].nr_sub, queue, seen);
	}
}

bool pahole_import(const char *object, bool btf, char *const *names, bool recursive,
		   GPtrArray *out, struct c2c_err *err)
{
	g_autoptr(GPtrArray) queue = g_ptr_array_new();
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	g_autofree char *base = g_path_get_basename(object);

	for (char *const *n = names; *n; n++)
		if (!g_hash_table_contains(seen, *n)) {
			g_hash_table_add(seen, *n);
			g_ptr_array_add(queue, *n);
		}
	/* The queue grows while it is walked: names point into layouts already in @out. */
	for (guint i = 0; i < queue->len; i++) {
		const char *name = queue->pdata[i];
		g_autofree char *text = pahole_output(object, btf, name, err);
		g_autofree char *file = g_strdup_printf("pahole -C %s %s", name, object);
		struct layout *l = text ? pahole_parse(file, text, err) : NULL;

		if (!l)
			return false;
		g_free(l->source);
		l->source = g_strdup_printf("pahole %s-C %s %s", btf ? "-F btf " : "", name, base);
		g_ptr_array_add(out, l);
		if (recursive)
			embedded(l->m, l->nr, queue, seen);
	}
	return true;
}
