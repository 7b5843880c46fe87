/* check_pahole.c - unit tests for pahole.c (the importer) on its fixtures.
 *
 * The real fixtures are pahole 1.24 output for Linux 6.18.44 (copied unchanged from the shared
 * data); the synthetic ones are hand-written in pahole's format for what those lack
 * (bitfields, multi-dimensional arrays, named inline aggregates, packed structs).  Malformed
 * input and layout_write.c (the YAML writer) are in check_pahole_write.c. */
#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "layout/pahole.h"
#include "pahole_fixtures.h"
#include "testutil.h"

#define NR_LINUX_FIXTURES 19

/* ---- helpers ---------------------------------------------------------------------------- */

/* The member named @name among @arr, looking through anonymous aggregates as C does. */
static const struct lmember *find_in(const struct lmember *arr, uint32_t nr, const char *name)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *found;

		if (!g_strcmp0(arr[i].name, name))
			return &arr[i];
		if (!arr[i].name && (found = find_in(arr[i].sub, arr[i].nr_sub, name)))
			return found;
	}
	return NULL;
}

static const struct lmember *find(const struct layout *l, const char *name)
{
	const struct lmember *m = find_in(l->m, l->nr, name);

	ck_assert_msg(m != NULL, "%s: no member %s", l->name, name);
	return m;
}

static void assert_field(const struct lmember *m, const char *type, uint64_t off, uint64_t size)
{
	ck_assert_int_eq(m->kind, LM_FIELD);
	ck_assert_str_eq(m->type, type);
	ck_assert_uint_eq(m->offset, off);
	ck_assert_uint_eq(m->size, size);
	ck_assert(m->has_offset);
}

/* An inline struct or union (@kind) with @nr members. */
static void assert_agg(const struct lmember *m, int kind, uint64_t off, uint64_t size, uint32_t nr)
{
	ck_assert_int_eq(m->kind, kind);
	ck_assert_ptr_null(m->type);
	ck_assert_uint_eq(m->offset, off);
	ck_assert_uint_eq(m->size, size);
	ck_assert_uint_eq(m->nr_sub, nr);
	ck_assert(m->has_offset);
}

/* Dimensions, 0-terminated: assert_dims(m, 4, 2, 8, 0). */
static void assert_dims(const struct lmember *m, ...)
{
	va_list ap;
	int n = 0;
	unsigned d;

	va_start(ap, m);
	while ((d = va_arg(ap, unsigned)) && n < LAYOUT_MAX_DIMS)
		ck_assert_uint_eq(m->dims[n++], d);
	va_end(ap);
	ck_assert_int_eq(m->nr_dims, n);
}

static void assert_flexible(const struct lmember *m, uint64_t off)
{
	ck_assert_uint_eq(m->offset, off);
	ck_assert_uint_eq(m->size, 0);
	ck_assert_int_eq(m->nr_dims, 1);
	ck_assert_uint_eq(m->dims[0], 0);
}

/* ---- the independent scanner ------------------------------------------------------------ */

/* One "/ * OFF SIZE * /" line: the member's name (NULL for an anonymous aggregate), depth. */
struct entry {
	char *name;
	uint64_t off, size;
	int bit;   /* -1 when not a bitfield */
	int depth; /* 1 = a member of the struct itself */
};

static void entry_clear(gpointer p)
{
	g_free(((struct entry *)p)->name);
}

static GArray *entries_new(void)
{
	GArray *a = g_array_new(FALSE, TRUE, sizeof(struct entry));

	g_array_set_clear_func(a, entry_clear);
	return a;
}

static int count_char(const char *s, size_t len, char c)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += s[i] == c;
	return n;
}

/*
 * scan - a deliberately simple reading of the raw text, sharing no code with pahole.c: every
 * line ending in an offset comment is an entry; its name is the identifier before the ';'
 * (after dropping attributes, dims and bit widths); the depth comes from counting braces.
 */
static GArray *scan(const char *text, uint64_t *summary_size)
{
	GRegex *line_re = g_regex_new("^(.*?)\\s*/\\*\\s*(\\d+)(?::\\s*(\\d+))?\\s+(\\d+)\\s*\\*/"
				      "\\s*$", 0, 0, NULL);
	GRegex *attr_re = g_regex_new("__attribute__\\(\\(\\w+(\\(\\d+\\))?\\)\\)", 0, 0, NULL);
	GRegex *name_re = g_regex_new("(?:\\(\\*\\s*(\\w+)|\\b([A-Za-z_]\\w*))"
				      "\\s*(?:\\[\\d*\\]\\s*)*"
				      "(?::\\s*\\d+)?\\s*(?:\\)\\(.*\\))?\\s*;\\s*$", 0, 0, NULL);
	GRegex *size_re = g_regex_new("/\\*\\s*size:\\s*(\\d+),", 0, 0, NULL);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GArray *out = entries_new();
	int depth = 0;

	for (int i = 0; lines[i]; i++) {
		GMatchInfo *mi = NULL;

		if (g_regex_match(size_re, lines[i], 0, &mi)) {
			g_autofree char *n = g_match_info_fetch(mi, 1);

			*summary_size = g_ascii_strtoull(n, NULL, 10);
		}
		g_match_info_free(mi);
		if (!g_regex_match(line_re, lines[i], 0, &mi)) {
			depth += count_char(lines[i], strlen(lines[i]), '{');
			depth -= count_char(lines[i], strlen(lines[i]), '}');
			g_match_info_free(mi);
			continue;
		}
		g_autofree char *decl = g_match_info_fetch(mi, 1);
		g_autofree char *off = g_match_info_fetch(mi, 2);
		g_autofree char *bit = g_match_info_fetch(mi, 3);
		g_autofree char *size = g_match_info_fetch(mi, 4);
		g_autofree char *clean = g_regex_replace(attr_re, decl, -1, 0, "", 0, NULL);
		GMatchInfo *ni = NULL;
		struct entry e = { 0 };

		g_match_info_free(mi);
		depth -= count_char(decl, strlen(decl), '}');
		if (g_regex_match(name_re, clean, 0, &ni)) {
			char *fp = g_match_info_fetch(ni, 1), *plain = g_match_info_fetch(ni, 2);

			e.name = g_strdup(fp && *fp ? fp : plain);
			g_free(fp);
			g_free(plain);
		}
		g_match_info_free(ni);
		e.off = g_ascii_strtoull(off, NULL, 10);
		e.size = g_ascii_strtoull(size, NULL, 10);
		e.bit = bit && *bit ? atoi(bit) : -1;
		e.depth = depth;
		g_array_append_val(out, e);
	}
	g_regex_unref(line_re);
	g_regex_unref(attr_re);
	g_regex_unref(name_re);
	g_regex_unref(size_re);
	return out;
}

/* walk - the same sequence from the layout: inline aggregates after their members, as their
 * closing line comes after their members' lines. */
static void walk(const struct lmember *arr, uint32_t nr, int depth, GArray *out)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *m = &arr[i];
		struct entry e = { g_strdup(m->name), m->offset, m->size,
				   m->bits ? m->bit_offset : -1, depth };

		ck_assert(m->has_offset);
		walk(m->sub, m->nr_sub, depth + 1, out);
		g_array_append_val(out, e);
	}
}

static void compare_with_scanner(const char *rel)
{
	g_autofree char *text = NULL;
	struct layout *l = import(rel, &text);
	uint64_t summary = UINT64_MAX;
	GArray *want = scan(text, &summary), *got = entries_new();

	walk(l->m, l->nr, 1, got);
	ck_assert_msg(want->len > 0, "%s: the scanner found nothing", rel);
	ck_assert_uint_eq(got->len, want->len);
	for (guint i = 0; i < want->len; i++) {
		struct entry *w = &g_array_index(want, struct entry, i);
		struct entry *g = &g_array_index(got, struct entry, i);

		ck_assert_msg(!g_strcmp0(w->name, g->name) && w->off == g->off &&
			      w->size == g->size && w->bit == g->bit && w->depth == g->depth,
			      "%s entry %u: scanner %s %" PRIu64 ":%d %" PRIu64 " depth %d, import "
			      "%s %" PRIu64 ":%d %" PRIu64 " depth %d", rel, i, w->name, w->off,
			      w->bit, w->size, w->depth, g->name, g->off, g->bit, g->size,
			      g->depth);
	}
	ck_assert_uint_eq(summary, l->size);
	g_array_unref(want);
	g_array_unref(got);
	layout_free(l);
}

/* ---- pahole_parse: real fixtures -------------------------------------------------------- */

START_TEST(pahole_parse_linux_fixtures_match_scanner)
{
	GPtrArray *names = linux_fixtures();

	ck_assert_uint_eq(names->len, NR_LINUX_FIXTURES);
	for (guint i = 0; i < names->len; i++)
		compare_with_scanner(names->pdata[i]);
	g_ptr_array_unref(names);
}
END_TEST

START_TEST(pahole_parse_synthetic_fixtures_match_scanner)
{
	/* nested.txt is left out: its `} * ext;` member drops the body the scanner sees. */
	compare_with_scanner("synthetic/bitfields.txt");
	compare_with_scanner("synthetic/multidim.txt");
	compare_with_scanner("synthetic/packed.txt");
}
END_TEST

START_TEST(pahole_parse_mem_cgroup_per_node)
{
	struct layout *l = import(LINUX_DIR "/mem_cgroup_per_node.txt", NULL);
	const struct lmember *m;

	ck_assert_str_eq(l->name, "mem_cgroup_per_node");
	ck_assert_str_eq(l->source, "pahole");
	ck_assert_ptr_null(l->file);
	ck_assert(!l->computed && !l->estimated);
	ck_assert_uint_eq(l->size, 512);
	ck_assert_uint_eq(l->align, 64);
	ck_assert_uint_eq(l->nr, 11);
	m = find(l, "memcg");
	assert_field(m, "struct mem_cgroup *", 0, 8);
	ck_assert_ptr_null(m->layout);
	m = find(l, "lruvec");
	assert_field(m, "struct lruvec", 72, 152);
	ck_assert_str_eq(m->layout, "lruvec");
	ck_assert_int_eq(m->mark.line, 13);
	ck_assert_int_eq(m->mark.col, 2);
	ck_assert(g_str_has_suffix(m->mark.file, "mem_cgroup_per_node.txt"));
	m = find(l, "_pad2_");
	ck_assert_int_eq(m->kind, LM_PAD);
	ck_assert_uint_eq(m->offset, 256);
	ck_assert_uint_eq(m->size, 0);
	m = find(l, "lru_zone_size");
	assert_field(m, "long unsigned int", 256, 200);
	assert_dims(m, 25, 0);
	ck_assert_uint_eq(m->align, 64);
	ck_assert_uint_eq(lmember_elems(m), 25);
	assert_field(find(l, "lruvec_stats_percpu"), "struct lruvec_stats_percpu *", 8, 8);
	layout_free(l);
}
END_TEST

START_TEST(pahole_parse_mem_cgroup)
{
	struct layout *l = import(LINUX_DIR "/mem_cgroup.txt", NULL);
	const struct lmember *m, *u;

	ck_assert_uint_eq(l->size, 2176);
	ck_assert_uint_eq(l->align, 64);
	ck_assert_uint_eq(l->nr, 46);
	assert_field(find(l, "vmstats"), "struct memcg_vmstats *", 1024, 8);
	assert_field(find(l, "vmstats_percpu"), "struct memcg_vmstats_percpu *", 1224, 8);
	m = find(l, "nodeinfo");
	ck_assert_str_eq(m->type, "struct mem_cgroup_per_node *");
	assert_flexible(m, 2136);
	m = find(l, "memory");
	assert_field(m, "struct page_counter", 256, 192);
	ck_assert_uint_eq(m->align, 64);
	ck_assert_str_eq(m->layout, "page_counter");
	/* The anonymous union: its members carry offsets in mem_cgroup, as pahole prints. */
	u = &l->m[3];
	assert_agg(u, LM_UNION, 448, 192, 2);
	ck_assert_ptr_null(u->name);
	assert_field(&u->sub[0], "struct page_counter", 448, 192);
	ck_assert_str_eq(u->sub[0].name, "swap");
	ck_assert_str_eq(u->sub[1].name, "memsw");
	ck_assert_str_eq(u->sub[1].layout, "page_counter");
	ck_assert_ptr_eq(find(l, "memsw"), &u->sub[1]);
	ck_assert_int_eq(u->mark.line, 14);
	layout_free(l);
}
END_TEST

START_TEST(pahole_parse_qspinlock)
{
	struct layout *l = import(LINUX_DIR "/qspinlock.txt", NULL);
	const struct lmember *u, *s0, *s1;

	ck_assert_uint_eq(l->size, 4);
	ck_assert_uint_eq(l->align, 0); /* nothing in the text gives it */
	ck_assert_uint_eq(l->nr, 1);
	u = &l->m[0];
	assert_agg(u, LM_UNION, 0, 4, 3);
	assert_field(&u->sub[0], "atomic_t", 0, 4);
	s0 = &u->sub[1];
	s1 = &u->sub[2];
	assert_agg(s0, LM_STRUCT, 0, 2, 2);
	assert_field(&s0->sub[0], "u8", 0, 1);
	assert_field(&s0->sub[1], "u8", 1, 1);
	ck_assert_str_eq(s0->sub[1].name, "pending");
	assert_agg(s1, LM_STRUCT, 0, 4, 2);
	assert_field(&s1->sub[1], "u16", 2, 2);
	ck_assert_str_eq(s1->sub[1].name, "tail");
	layout_free(l);
}
END_TEST

START_TEST(pahole_parse_mm_struct)
{
	struct layout *l = import(LINUX_DIR "/mm_struct.txt", NULL);
	const struct lmember *s, *inner, *rss;

	ck_assert_uint_eq(l->size, 1472);
	ck_assert_uint_eq(l->align, 64); /* no closing attribute: from the inner struct */
	ck_assert_uint_eq(l->nr, 2);
	s = &l->m[0];
	assert_agg(s, LM_STRUCT, 0, 1472, 75);
	ck_assert_ptr_null(s->name);
	ck_assert_uint_eq(s->align, 64);
	inner = &s->sub[0];
	assert_agg(inner, LM_STRUCT, 0, 64, 1);
	ck_assert_uint_eq(inner->align, 64);
	assert_field(&inner->sub[0], "atomic_t", 0, 4);
	rss = find(l, "rss_stat");
	assert_field(rss, "struct percpu_counter", 968, 160);
	ck_assert_str_eq(rss->layout, "percpu_counter");
	assert_dims(rss, 4, 0);
	assert_field(find(l, "mm_id"), "mm_id_t", 1448, 4);
	assert_flexible(find(l, "cpu_bitmap"), 1472);
	layout_free(l);
}
END_TEST

/* page_counter and cgroup: cacheline padding markers, aligned members, flexible arrays. */
START_TEST(pahole_parse_page_counter_and_cgroup)
{
	struct layout *l = import(LINUX_DIR "/page_counter.txt", NULL);
	const struct lmember *m;

	ck_assert_uint_eq(l->size, 192);
	ck_assert_uint_eq(l->align, 64);
	ck_assert_int_eq(find(l, "_pad1_")->kind, LM_PAD);
	ck_assert_uint_eq(find(l, "_pad1_")->offset, 64);
	ck_assert_uint_eq(find(l, "emin")->align, 64);
	assert_field(find(l, "parent"), "struct page_counter *", 168, 8);
	layout_free(l);
	l = import(LINUX_DIR "/cgroup.txt", NULL);
	m = find(l, "subsys");

	ck_assert_uint_eq(l->size, 2240);
	assert_field(m, "struct cgroup_subsys_state *", 552, 96);
	ck_assert_ptr_null(m->layout);
	ck_assert_uint_eq(find(l, "last_bstat")->align, 64);
	ck_assert_int_eq(find(l, "_pad_")->kind, LM_PAD);
	assert_flexible(find(l, "ancestors"), 2224);
	ck_assert_str_eq(find(l, "e_csets")->layout, "list_head");
	layout_free(l);
}
END_TEST

/* ---- pahole_parse: synthetic fixtures --------------------------------------------------- */

START_TEST(pahole_parse_bitfields)
{
	struct layout *l = import("synthetic/bitfields.txt", NULL);
	static const struct { const char *name; uint64_t off, size; int bit, bits; } want[] = {
		{ "a", 0, 4, 0, 3 },  { "b", 0, 4, 3, 5 },     { "c", 0, 4, 12, 20 },
		{ "flag", 4, 1, 0, 0 }, { "wide", 8, 8, 0, 40 }, { "rest", 8, 8, 40, 24 },
	};

	ck_assert_uint_eq(l->nr, G_N_ELEMENTS(want)); /* the "TYPE :4;" hole line is skipped */
	for (uint32_t i = 0; i < l->nr; i++) {
		ck_assert_str_eq(l->m[i].name, want[i].name);
		ck_assert_uint_eq(l->m[i].offset, want[i].off);
		ck_assert_uint_eq(l->m[i].size, want[i].size);
		ck_assert_uint_eq(l->m[i].bit_offset, want[i].bit);
		ck_assert_uint_eq(l->m[i].bits, want[i].bits);
	}
	ck_assert_str_eq(l->m[5].type, "const u64");
	ck_assert_uint_eq(l->size, 16);
	layout_free(l);
}
END_TEST

START_TEST(pahole_parse_multidim)
{
	struct layout *l = import("synthetic/multidim.txt", NULL);
	const struct lmember *m = find(l, "names");

	assert_dims(m, 4, 2, 8, 0);
	ck_assert_uint_eq(lmember_elems(m), 64);
	assert_dims(find(l, "cells"), 2, 3, 0);
	m = find(l, "fn");
	assert_field(m, "void (*)(struct grid *, int)", 88, 8);
	ck_assert_ptr_null(m->layout);
	m = find(l, "heads");
	ck_assert_str_eq(m->layout, "list_head");
	assert_dims(m, 2, 2, 0);
	assert_flexible(find(l, "tail"), 160);
	layout_free(l);
}
END_TEST

START_TEST(pahole_parse_nested)
{
	struct layout *l = import("synthetic/nested.txt", NULL);
	const struct lmember *hdr = &l->m[0], *val = &l->m[1], *pts = &l->m[2], *ext = &l->m[3];

	ck_assert_uint_eq(l->size, 128);
	ck_assert_uint_eq(l->align, 64);
	ck_assert_uint_eq(l->nr, 5);
	assert_agg(hdr, LM_STRUCT, 0, 16, 2);
	ck_assert_str_eq(hdr->name, "hdr");
	assert_field(&hdr->sub[1], "u32", 8, 4);
	assert_agg(val, LM_UNION, 16, 8, 2);
	ck_assert_str_eq(val->name, "val");
	assert_agg(&val->sub[1], LM_STRUCT, 16, 8, 2);
	ck_assert_str_eq(val->sub[1].name, "parts");
	assert_field(&val->sub[1].sub[1], "u32", 20, 4);
	assert_agg(pts, LM_STRUCT, 24, 16, 2);
	assert_dims(pts, 2, 0);
	assert_field(ext, "struct {...} *", 40, 8);
	ck_assert_uint_eq(ext->nr_sub, 0);
	ck_assert_uint_eq(find(l, "hot")->align, 64);
	ck_assert_ptr_null(find_in(l->m, l->nr, "a")); /* hdr is named: not transparent */
	layout_free(l);
}
END_TEST

START_TEST(pahole_parse_packed)
{
	struct layout *l = import("synthetic/packed.txt", NULL);

	ck_assert_uint_eq(l->align, 1);
	ck_assert_uint_eq(l->m[2].align, 1);
	assert_field(find(l, "len"), "u32", 1, 4);
	assert_field(&l->m[2].sub[1], "u16", 6, 2);
	layout_free(l);
}
END_TEST

START_TEST(pahole_parse_blank_lines_and_crlf)
{
	const char *text = "\r\n\n  \nstruct s {\r\n\tint a;\t/* 0 4 */\r\n\r\n"
			   "\t/* size: 4, cachelines: 1, members: 1 */\r\n};\r\n\n\n";
	struct c2c_err err = { 0 };
	struct layout *l = pahole_parse("t.txt", text, &err);

	ck_assert_msg(l != NULL, "%s", err.msg);
	ck_assert_uint_eq(l->nr, 1);
	ck_assert_int_eq(l->m[0].mark.line, 5);
	ck_assert_str_eq(l->m[0].mark.file, "t.txt");
	layout_free(l);
	ck_assert_ptr_null(pahole_parse("t.txt", "", NULL)); /* no err: still fails cleanly */
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------ */

static Suite *pahole_suite(void)
{
	Suite *s = suite_create("pahole");
	TCase *tc = tcase_create("pahole_parse");

	tcase_add_test(tc, pahole_parse_linux_fixtures_match_scanner);
	tcase_add_test(tc, pahole_parse_synthetic_fixtures_match_scanner);
	tcase_add_test(tc, pahole_parse_mem_cgroup_per_node);
	tcase_add_test(tc, pahole_parse_mem_cgroup);
	tcase_add_test(tc, pahole_parse_page_counter_and_cgroup);
	tcase_add_test(tc, pahole_parse_qspinlock);
	tcase_add_test(tc, pahole_parse_mm_struct);
	tcase_add_test(tc, pahole_parse_bitfields);
	tcase_add_test(tc, pahole_parse_multidim);
	tcase_add_test(tc, pahole_parse_nested);
	tcase_add_test(tc, pahole_parse_packed);
	tcase_add_test(tc, pahole_parse_blank_lines_and_crlf);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(pahole_suite());
}
