/*
 * check_machine_facts.c - one machine per real machine: no shipped scenario changes what the
 * machine model says of the hardware.
 *
 * mlp, SMT sharing and the prefetcher's rules are facts of a machine, set once in its
 * models/machines/NAME.yaml from published figures (issue 12, item 4).  A scenario may change
 * what an experiment changes (layouts, paths, thread counts and placement) and, as a BIOS
 * experiment does, switch the prefetcher off: `machine.prefetch.adjacent_line: false` in a
 * variant's `set:`.  Every other machine key in a variant's set, or a machine given inline
 * instead of by name, fails here, for every shipped scenario.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "testutil.h"
#include "yaml/ytree.h"

/* Why the `set:` entry @key = @val is a forbidden machine override, or NULL. */
static const char *override_why(const char *key, const struct yt_node *val)
{
	if (strcmp(key, "machine") && !g_str_has_prefix(key, "machine."))
		return NULL;
	if (!strcmp(key, "machine.prefetch.adjacent_line") && val->kind == YT_SCALAR &&
	    !strcmp(val->str, "false"))
		return NULL;
	return "a machine override (only machine.prefetch.adjacent_line: false is allowed)";
}

/* The forbidden overrides of one scenario file, one line each ("" for none). */
static GString *file_overrides(const char *path)
{
	struct c2c_err err = {0};
	struct yt_node *root = yt_load_file(path, &err), *m, *vs;
	GString *bad = g_string_new("");

	ck_assert_msg(root != NULL, "%s", err.msg);
	m = yt_get(root, "machine");
	if (m && m->kind != YT_SCALAR)
		g_string_append_printf(bad, "%s:%u: the machine is given inline, not by name\n", path,
				       m->mark.line);
	vs = yt_get(root, "variants");
	for (size_t i = 0; vs && vs->kind == YT_SEQ && i < vs->len; i++) {
		const struct yt_node *set = yt_get(vs->items[i], "set");

		for (size_t k = 0; set && set->kind == YT_MAP && k < set->len; k++) {
			const char *why = override_why(set->pairs[k].key->str, set->pairs[k].val);

			if (why)
				g_string_append_printf(bad, "%s:%u: %s: %s\n", path,
						       set->pairs[k].key->mark.line,
						       set->pairs[k].key->str, why);
		}
	}
	yt_free(root);
	return bad;
}

START_TEST(shipped_scenarios_keep_the_machine)
{
	g_autoptr(GPtrArray) paths = tu_shipped_scenarios();
	g_autoptr(GString) bad = g_string_new("");

	for (guint i = 0; i < paths->len; i++) {
		g_autoptr(GString) b = file_overrides(paths->pdata[i]);

		g_string_append(bad, b->str);
	}
	ck_assert_uint_ge(paths->len, 10);
	ck_assert_msg(bad->len == 0, "%s", bad->str);
}
END_TEST

/* The check itself: it finds an override where there is one, top-level or in a variant. */
START_TEST(override_check_finds_overrides)
{
	static const char *const text =
		"name: x\nmachine: {name: y}\nvariants:\n"
		"  - {name: a, set: {machine.mlp: 10, end.time_us: 5}}\n"
		"  - {name: b, set: {machine.prefetch.adjacent_line: false}}\n"
		"  - {name: c, set: {machine.prefetch.adjacent_line: true}}\n";
	g_autofree char *dir = g_dir_make_tmp("c2c-facts-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "s.yaml", NULL);
	g_autoptr(GString) bad = NULL;

	ck_assert(g_file_set_contents(path, text, -1, NULL));
	bad = file_overrides(path);
	ck_assert_ptr_nonnull(strstr(bad->str, "inline"));
	ck_assert_ptr_nonnull(strstr(bad->str, "machine.mlp"));
	ck_assert_ptr_nonnull(strstr(bad->str, ":6: machine.prefetch.adjacent_line"));
	ck_assert_ptr_null(strstr(bad->str, ":5:"));
	ck_assert_ptr_null(strstr(bad->str, "end.time_us"));
	g_unlink(path);
	g_rmdir(dir);
}
END_TEST

static Suite *facts_suite(void)
{
	Suite *s = suite_create("machine_facts");
	TCase *tc = tcase_create("shipped");

	tcase_add_test(tc, shipped_scenarios_keep_the_machine);
	tcase_add_test(tc, override_check_finds_overrides);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(facts_suite());
}
