/*
 * check_layout.c - the layout library: loading (imported and computed), member paths,
 * offsets back to members, leaf listings, groups and assertions at a placement, bad files.
 */
#include <glib.h>
#include <string.h>

#include "layout/layout_check.h"
#include "layout/layout_lib.h"
#include "testutil.h"

static struct layout_lib *lib;

static void setup(void)
{
	g_autofree char *dir = tu_src_path("layouts/linux-6.18");

	lib = layout_lib_new();
	layout_lib_add_dir(lib, dir);
}

static void teardown(void)
{
	layout_lib_free(lib);
}

static const struct layout *get(const char *name)
{
	struct c2c_err err = {0};
	const struct layout *l = layout_lib_get(lib, name, (struct c2c_mark){"test", 1, 1}, &err);

	ck_assert_msg(l != NULL, "%s", err.msg);
	return l;
}

struct os {
	uint64_t off, size;
};

/* (offset, size) of every line of pahole output that ends in an offset/size comment. */
static GArray *scan_pahole(const char *text)
{
	g_autoptr(GRegex) re = g_regex_new("/\\*\\s+([0-9]+)(:\\s*[0-9]+)?\\s+([0-9]+)\\s+\\*/\\s*$",
					   G_REGEX_MULTILINE, 0, NULL);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct os));
	GMatchInfo *mi;

	g_regex_match(re, text, 0, &mi);
	for (; g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
		g_autofree char *o = g_match_info_fetch(mi, 1), *s = g_match_info_fetch(mi, 3);
		struct os v = {g_ascii_strtoull(o, NULL, 10), g_ascii_strtoull(s, NULL, 10)};

		g_array_append_val(out, v);
	}
	g_match_info_free(mi);
	return out;
}

/* The layout's members in pahole's print order: an inline aggregate after its members. */
static void walk(const struct lmember *m, uint32_t nr, GArray *out)
{
	for (uint32_t i = 0; i < nr; i++) {
		struct os v = {m[i].offset, m[i].size};

		if (m[i].kind == LM_STRUCT || m[i].kind == LM_UNION)
			walk(m[i].sub, m[i].nr_sub, out);
		g_array_append_val(out, v);
	}
}

/* Every imported 6.18 layout file holds exactly pahole's offsets and sizes. */
START_TEST(layout_lib_get_matches_pahole)
{
	g_autofree char *dir = tu_src_path("sim/tests/data/pahole/linux-6.18.44");
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *f;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((f = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, f, NULL), *text = NULL;
		g_autofree char *name = g_strndup(f, strlen(f) - 4);
		const struct layout *l = get(name);
		GArray *want, *got = g_array_new(FALSE, FALSE, sizeof(struct os));
		g_autofree char *summary = NULL;

		ck_assert(g_file_get_contents(path, &text, NULL, NULL));
		want = scan_pahole(text);
		walk(l->m, l->nr, got);
		ck_assert_msg(want->len == got->len, "%s: %u pahole members, %u in the layout", f,
			      want->len, got->len);
		for (guint i = 0; i < want->len; i++) {
			struct os *w = &g_array_index(want, struct os, i);
			struct os *g = &g_array_index(got, struct os, i);

			ck_assert_msg(w->off == g->off && w->size == g->size, "%s member %u: pahole %"
				      G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ", layout %" G_GUINT64_FORMAT
				      "/%" G_GUINT64_FORMAT, f, i, w->off, w->size, g->off, g->size);
		}
		summary = g_strdup_printf("/* size: %" G_GUINT64_FORMAT ",", l->size);
		ck_assert_msg(strstr(text, summary) != NULL, "%s: size %" G_GUINT64_FORMAT, f,
			      l->size);
		g_array_free(want, TRUE);
		g_array_free(got, TRUE);
		n++;
	}
	g_dir_close(d);
	ck_assert_int_eq(n, 19);
}
END_TEST

struct path_case {
	const char *layout, *path;
	uint64_t offset, size;
};

static const struct path_case paths[] = {
	{"mem_cgroup_per_node", "memcg", 0, 8},
	{"mem_cgroup_per_node", "lruvec.lru_lock", 152, 4},
	{"mem_cgroup_per_node", "lruvec.lists[2].prev", 112, 8},
	{"mem_cgroup_per_node", "lruvec.pgdat", 208, 8},
	{"mem_cgroup_per_node", "lru_zone_size[3]", 280, 8},
	{"mem_cgroup", "vmstats", 1024, 8},
	{"mem_cgroup", "memory.usage", 256, 8},
	{"mem_cgroup", "nodeinfo[1]", 2144, 8},
	{"memcg_vmstats_percpu", "state[14]", 24 + 14 * 8, 8},
	{"mm_struct", "rss_stat[2].count", 968 + 2 * 40 + 8, 8},
	{"qspinlock", "tail", 2, 2},
	{"obj_cgroup", "rcu", 32, 16},
};

START_TEST(layout_find_paths)
{
	const struct path_case *c = &paths[_i];
	struct c2c_err err = {0};
	struct lref r;

	ck_assert_msg(layout_find(lib, get(c->layout), c->path, &r, (struct c2c_mark){"t", 1, 1},
				  &err), "%s", err.msg);
	ck_assert_uint_eq(r.offset, c->offset);
	ck_assert_uint_eq(r.size, c->size);
}
END_TEST

START_TEST(layout_find_errors)
{
	struct c2c_err err = {0};
	struct lref r;
	const struct layout *pn = get("mem_cgroup_per_node");
	struct c2c_mark at = {"s.yaml", 3, 9};

	ck_assert(!layout_find(lib, pn, "lruvec.lru_lok", &r, at, &err));
	ck_assert_str_eq(err.msg, "s.yaml:3:9: unknown member 'lru_lok' in struct lruvec (expected "
			 "one of: lists, lru_lock, anon_cost, file_cost, nonresident_age, refaults, "
			 "flags, pgdat, zswap_lruvec_state; did you mean 'lru_lock'?)");
	memset(&err, 0, sizeof(err));
	ck_assert(!layout_find(lib, pn, "lru_zone_size[25]", &r, at, &err));
	ck_assert_str_eq(err.msg, "s.yaml:3:9: lru_zone_size[25]: index out of range (expected "
			 "below 25)");
	memset(&err, 0, sizeof(err));
	ck_assert(!layout_find(lib, pn, "memcg.css", &r, at, &err));
	ck_assert_str_eq(err.msg, "s.yaml:3:9: memcg is not a struct (a struct mem_cgroup *; "
			 "expected the path to end there)");
}
END_TEST

START_TEST(layout_member_at_names)
{
	const struct layout *pn = get("mem_cgroup_per_node");
	struct { uint64_t off; const char *want; } cases[] = {
		{0, "memcg"}, {60, "usage_in_excess"}, {65, NULL}, {152, "lruvec.lru_lock"},
		{90, "lruvec.lists[1].next"}, {300, "lru_zone_size[5]"}, {459, "iter"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = layout_member_at(lib, pn, cases[i].off);

		if (cases[i].want)
			ck_assert_msg(got && !strcmp(got, cases[i].want), "offset %" G_GUINT64_FORMAT
				      ": %s", cases[i].off, got ? got : "(null)");
		else
			ck_assert_msg(!got, "offset %" G_GUINT64_FORMAT " is a hole, got %s",
				      cases[i].off, got);
	}
}
END_TEST

static const struct layout *load_data(const char *file, struct c2c_err *err)
{
	g_autofree char *path = g_strdup_printf("%s/sim/tests/data/layouts/%s",
						getenv("C2CSIM_SRCDIR"), file);

	return layout_lib_load_file(lib, path, err);
}

START_TEST(layout_fields_computed_sketch)
{
	struct c2c_err err = {0};
	const struct layout *l = load_data("sketch.yaml", &err);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_msg(l != NULL, "%s", err.msg);
	f = open_memstream(&text, &len);
	layout_fields(f, lib, l);
	fclose(f);
	/* Aligned groups: the LRU group starts a new line; bitfields share one unsigned int. */
	ck_assert_ptr_nonnull(strstr(text, "memcg\t0\t8\n"));
	ck_assert_ptr_nonnull(strstr(text, "lists\t64\t80\n"));
	ck_assert_ptr_nonnull(strstr(text, "lru_lock\t144\t4\n"));
	ck_assert_ptr_nonnull(strstr(text, "flags\t192\t4\t0\t3\n"));
	ck_assert_ptr_nonnull(strstr(text, "more\t192\t4\t3\t7\n"));
	free(text);
}
END_TEST

START_TEST(layout_check_one_pair_placement)
{
	struct c2c_err err = {0};
	const struct layout *pn = get("mem_cgroup_per_node");
	struct lassert a = {.kind = LA_NOT_SAME_PAIR, .a = "memcg", .b = "lruvec.lists",
			    .mark = {"a.yaml", 5, 5}};
	g_autoptr(GString) fail = g_string_new(NULL);

	ck_assert_int_eq(layout_check_one(lib, pn, &a, 0, fail, &err), 0);
	ck_assert_str_eq(fail->str, "a.yaml:5:5: not_same_pair: memcg (offset 0, size 8) and "
			 "lruvec.lists (offset 72, size 80) share 128-byte pair 0 at placement 0");
	ck_assert_int_eq(layout_check_one(lib, pn, &a, 64, fail, &err), 1);
	a.kind = LA_NOT_SAME_LINE;
	ck_assert_int_eq(layout_check_one(lib, pn, &a, 0, fail, &err), 1);
	a.b = "no_such";
	ck_assert_int_eq(layout_check_one(lib, pn, &a, 0, fail, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "unknown member 'no_such'"));
}
END_TEST

START_TEST(layout_check_one_sketch_asserts)
{
	struct c2c_err err = {0};
	const struct layout *l = load_data("sketch.yaml", &err);
	g_autoptr(GString) fail = g_string_new(NULL);

	ck_assert_msg(l != NULL, "%s", err.msg);
	ck_assert_uint_eq(l->nr_asserts, 4);
	for (uint32_t i = 0; i < l->nr_asserts; i++)
		ck_assert_msg(layout_check_one(lib, l, &l->asserts[i], 0, fail, &err) == 1, "%s%s",
			      fail->str, err.msg);
}
END_TEST

struct bad_case {
	const char *file, *msg;
};

static const struct bad_case bads[] = {
	{"overlap.yaml", "overlap.yaml:5:5: b: offset 4 overlaps a at 0-8 (expected members in "
	 "order, without overlap)"},
	{"past-end.yaml", "past-end.yaml:5:5: b: bytes 12-20 are past the end of past_end (expected "
	 "within 0-16)"},
	{"unknown-type.yaml", "unknown-type.yaml:4:5: b: unknown type 'u46'"},
	{"bad-align.yaml", "bad-align.yaml:3:33: members[0]: align 24 is not a power of two"},
};

START_TEST(layout_lib_load_file_bad)
{
	struct c2c_err err = {0};

	ck_assert_ptr_null(load_data(bads[_i].file, &err));
	ck_assert_msg(strstr(err.msg, bads[_i].msg) != NULL, "got: %s", err.msg);
}
END_TEST

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc;

	tc = tcase_create("layout_lib_get");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, layout_lib_get_matches_pahole);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout_find");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, layout_find_paths, 0, G_N_ELEMENTS(paths));
	tcase_add_test(tc, layout_find_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout_member_at");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, layout_member_at_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout_fields");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, layout_fields_computed_sketch);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout_check_one");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, layout_check_one_pair_placement);
	tcase_add_test(tc, layout_check_one_sketch_asserts);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout_lib_load_file");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, layout_lib_load_file_bad, 0, G_N_ELEMENTS(bads));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(layout_suite());
}
