/* layout_diff.c - which members of a struct moved line or pair between two layouts; see
 * layout_show.h. */
#include "layout/layout_show.h"

#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>

#include "layout/layout_lib.h"

/* The leaf listing of @l as path -> offset + 1 in @off, plus the paths in order. */
static GPtrArray *leaves(struct layout_lib *lib, const struct layout *l, GHashTable *off)
{
	char *text = NULL, **lines;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	GPtrArray *order = g_ptr_array_new_with_free_func(g_free);

	layout_fields(f, lib, l);
	fclose(f);
	lines = g_strsplit(text, "\n", -1);
	for (char **p = lines; *p && **p; p++) {
		char **col = g_strsplit(*p, "\t", 3);

		g_ptr_array_add(order, g_strdup(col[0]));
		g_hash_table_insert(off, g_strdup(col[0]),
				    GUINT_TO_POINTER(g_ascii_strtoull(col[1], NULL, 10) + 1));
		g_strfreev(col);
	}
	g_strfreev(lines);
	free(text);
	return order;
}

void layout_print_diff(FILE *f, struct layout_lib *la, const struct layout *a,
		       struct layout_lib *lb, const struct layout *b, uint64_t placement)
{
	GHashTable *oa = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTable *ob = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *pa = leaves(la, a, oa), *pb = leaves(lb, b, ob);
	uint64_t p = placement % 128;

	for (guint i = 0; i < pa->len; i++) {
		const char *path = pa->pdata[i];
		uint64_t x = GPOINTER_TO_UINT(g_hash_table_lookup(oa, path)) - 1;
		uint64_t y = GPOINTER_TO_UINT(g_hash_table_lookup(ob, path));

		if (!y) {
			fprintf(f, "only in A: %s (offset %" PRIu64 ")\n", path, x);
			continue;
		}
		y--;
		if ((p + x) / 64 != (p + y) / 64 || (p + x) / 128 != (p + y) / 128)
			fprintf(f, "%s: offset %" PRIu64 " -> %" PRIu64 ", line %" PRIu64 " -> %" PRIu64
				", pair %" PRIu64 " -> %" PRIu64 "\n", path, x, y, (p + x) / 64 - p / 64,
				(p + y) / 64 - p / 64, (p + x) / 128, (p + y) / 128);
	}
	for (guint i = 0; i < pb->len; i++)
		if (!g_hash_table_contains(oa, pb->pdata[i]))
			fprintf(f, "only in B: %s (offset %" PRIu64 ")\n", (char *)pb->pdata[i],
				(uint64_t)GPOINTER_TO_UINT(g_hash_table_lookup(ob, pb->pdata[i])) - 1);
	g_ptr_array_free(pa, TRUE);
	g_ptr_array_free(pb, TRUE);
	g_hash_table_destroy(oa);
	g_hash_table_destroy(ob);
}
