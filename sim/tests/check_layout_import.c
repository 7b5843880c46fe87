/*
 * check_layout_import.c - layouts imported straight from binaries (pahole_run.c, `layout
 * import --from/--btf`) against the compiler and against pahole's own numbers.
 *
 * The structs are in data/structs/structs.c; meson compiles it with `gcc -g` (structs.o,
 * C2CSIM_STRUCTS_OBJ) and as a probe printing gcc's offsetof/sizeof and every bitfield's bits
 * (C2CSIM_STRUCTS_PROBE).  Imported layouts are written as layout files and loaded back, so
 * what is checked is what a scenario would use.
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cmdutil.h"
#include "layout/layout_lib.h"
#include "layout/pahole.h"
#include "layout/pahole_run.h"
#include "testutil.h"

static char *const structs[] = {"bf_combined", "bf_mixed", "outer", NULL};

static const char *env(const char *name)
{
	const char *v = getenv(name);

	ck_assert_msg(v != NULL, "%s is not set (run the tests with meson test)", name);
	return v;
}

/* Import @structs (recursively) from the test object into files in a new directory. */
static char *import_to_dir(void)
{
	g_autoptr(GPtrArray) ls = g_ptr_array_new_with_free_func((GDestroyNotify)layout_free);
	struct c2c_err err = {0};
	char *dir = tmpdir();

	ck_assert_msg(pahole_import(env("C2CSIM_STRUCTS_OBJ"), false, structs, true, ls, &err),
		      "%s", err.msg);
	ck_assert_uint_eq(ls->len, 4); /* + struct inner, embedded by outer */
	for (guint i = 0; i < ls->len; i++) {
		const struct layout *l = ls->pdata[i];
		g_autofree char *file = g_strconcat(l->name, ".yaml", NULL);
		g_autofree char *path = g_build_filename(dir, file, NULL);
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		layout_write(f, l, true);
		ck_assert_int_eq(fclose(f), 0);
	}
	return dir;
}

static char *probe_output(void)
{
	const char *argv[] = {env("C2CSIM_STRUCTS_PROBE"), NULL};
	char *out = NULL;
	int status;

	ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
			       &status, NULL));
	ck_assert_int_eq(status, 0);
	return out;
}

/* Every offsetof, sizeof and bitfield position gcc compiled equals the loaded layout's. */
START_TEST(imported_layouts_match_gcc)
{
	g_autofree char *dir = import_to_dir(), *probe = probe_output();
	g_auto(GStrv) lines = g_strsplit(probe, "\n", -1);
	struct layout_lib *lib = layout_lib_new();
	int checked = 0, bitfields = 0;

	layout_lib_add_dir(lib, dir);
	for (char **p = lines; *p && **p; p++) {
		g_auto(GStrv) f = g_strsplit(*p, "\t", -1);
		struct c2c_err err = {0};
		struct c2c_mark at = {"probe", 1, 1};
		const struct layout *l = layout_lib_get(lib, f[0], at, &err);
		struct lref r;

		ck_assert_msg(l != NULL, "%s", err.msg);
		if (!strcmp(f[2], "size")) {
			ck_assert_uint_eq(l->size, g_ascii_strtoull(f[3], NULL, 10));
			continue;
		}
		ck_assert_msg(layout_find(lib, l, f[1], &r, at, &err), "%s", err.msg);
		if (!strcmp(f[2], "bits")) {
			ck_assert_msg(r.offset * 8 + r.bit_offset == g_ascii_strtoull(f[3], NULL, 10),
				      "%s.%s: bit %lu, gcc %s", f[0], f[1],
				      (unsigned long)(r.offset * 8 + r.bit_offset), f[3]);
			ck_assert_uint_eq(r.bits, g_ascii_strtoull(f[4], NULL, 10));
			bitfields++;
		} else {
			ck_assert_msg(r.offset == g_ascii_strtoull(f[2], NULL, 10) &&
				      r.size == g_ascii_strtoull(f[3], NULL, 10),
				      "%s.%s: %lu+%lu, gcc %s+%s", f[0], f[1], (unsigned long)r.offset,
				      (unsigned long)r.size, f[2], f[3]);
		}
		checked++;
	}
	ck_assert_int_ge(checked, 35);
	ck_assert_int_ge(bitfields, 11);
	layout_lib_free(lib);
	rm_rf(dir);
}
END_TEST

/* pahole's "Bitfield combined with next fields": name[] at byte 13 sits inside x's storage
 * unit (12-15) but not in its bits (byte 12); byte 13 is name's, as in the compiled code. */
START_TEST(bitfield_combined_bytes_belong_to_the_next_member)
{
	g_autofree char *dir = import_to_dir();
	struct layout_lib *lib = layout_lib_new();
	struct c2c_err err = {0};
	const struct layout *l;
	g_autofree char *at12 = NULL, *at13 = NULL, *at27 = NULL;

	layout_lib_add_dir(lib, dir);
	l = layout_lib_get(lib, "bf_combined", (struct c2c_mark){"t", 1, 1}, &err);
	ck_assert_msg(l != NULL, "%s", err.msg);
	at12 = layout_member_at(lib, l, 12);
	at13 = layout_member_at(lib, l, 13);
	at27 = layout_member_at(lib, l, 27);
	ck_assert_str_eq(at12, "x");
	ck_assert_str_eq(at13, "name[0]");
	ck_assert_str_eq(at27, "c");
	layout_lib_free(lib);
	rm_rf(dir);
}
END_TEST

/* The "OFF SIZE" / "OFF:BIT SIZE" numbers of pahole's member lines, in print order, read
 * with a regular expression (independently of pahole.c); inline aggregates close after
 * their members. */
static GPtrArray *pahole_numbers(const char *text, uint64_t *size)
{
	g_autoptr(GRegex) re = g_regex_new("; +/\\* +([0-9]+)(:[ 0-9]+)? +([0-9]+) \\*/$",
					   G_REGEX_MULTILINE, 0, NULL);
	g_autoptr(GRegex) sz = g_regex_new("/\\* size: ([0-9]+),", 0, 0, NULL);
	GPtrArray *nums = g_ptr_array_new_with_free_func(g_free);
	GMatchInfo *mi = NULL;

	for (g_regex_match(re, text, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
		g_autofree char *off = g_match_info_fetch(mi, 1), *bit = g_match_info_fetch(mi, 2);
		g_autofree char *len = g_match_info_fetch(mi, 3);

		/* pahole pads the bit column (": 0"): drop the blanks. */
		for (char *r = bit, *w = bit;; r++)
			if (*r != ' ' && !(*w++ = *r))
				break;
		g_ptr_array_add(nums, g_strdup_printf("%s%s %s", off, bit, len));
	}
	g_match_info_free(mi);
	ck_assert(g_regex_match(sz, text, 0, &mi));
	{
		g_autofree char *n = g_match_info_fetch(mi, 1);

		*size = g_ascii_strtoull(n, NULL, 10);
	}
	g_match_info_free(mi);
	return nums;
}

static void layout_numbers(const struct lmember *m, uint32_t nr, GPtrArray *out)
{
	for (uint32_t i = 0; i < nr; i++) {
		layout_numbers(m[i].sub, m[i].nr_sub, out);
		if (m[i].bits)
			g_ptr_array_add(out, g_strdup_printf("%lu:%u %lu", (unsigned long)m[i].offset,
							     m[i].bit_offset, (unsigned long)m[i].size));
		else
			g_ptr_array_add(out, g_strdup_printf("%lu %lu", (unsigned long)m[i].offset,
							     (unsigned long)m[i].size));
	}
}

/* The written and reloaded layout holds every offset and size pahole printed. */
START_TEST(import_reproduces_every_pahole_number)
{
	g_autofree char *dir = import_to_dir();
	struct layout_lib *lib = layout_lib_new();
	const char *names[] = {"bf_combined", "bf_mixed", "outer", "inner"};

	layout_lib_add_dir(lib, dir);
	for (int i = 0; i < 4; i++) {
		struct c2c_err err = {0};
		g_autofree char *text = pahole_output(env("C2CSIM_STRUCTS_OBJ"), false, names[i],
						      &err);
		const struct layout *l = layout_lib_get(lib, names[i], (struct c2c_mark){"t", 1, 1},
							&err);
		g_autoptr(GPtrArray) want = NULL, got = g_ptr_array_new_with_free_func(g_free);
		uint64_t size;

		ck_assert_msg(text && l, "%s", err.msg);
		want = pahole_numbers(text, &size);
		layout_numbers(l->m, l->nr, got);
		ck_assert_uint_eq(l->size, size);
		ck_assert_uint_eq(got->len, want->len);
		for (guint j = 0; j < want->len; j++)
			ck_assert_str_eq(got->pdata[j], want->pdata[j]);
	}
	layout_lib_free(lib);
	rm_rf(dir);
}
END_TEST

/* The command: one struct to stdout, the same bytes the library writes; several to a
 * directory, --recursive adding what they embed. */
START_TEST(cli_import_from_object)
{
	g_autofree char *dir = tmpdir(), *outer = NULL, *inner = NULL;
	struct cmd c = {0};

	c2csim(&c, (const char *[]){"layout", "import", "--from", env("C2CSIM_STRUCTS_OBJ"), "-C",
				    "outer,bf_mixed", "--recursive", "-o", dir, NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	outer = slurp(dir, "outer.yaml");
	inner = slurp(dir, "inner.yaml");
	g_free(slurp(dir, "bf_combined.yaml"));
	g_free(slurp(dir, "bf_mixed.yaml"));
	ck_assert_ptr_nonnull(strstr(outer, "{name: in, type: \"struct inner\", offset: 8, size: 16, "
				 "layout: inner}"));
	ck_assert_ptr_nonnull(strstr(outer, "source: \"pahole -C outer structs.o\""));
	ck_assert_ptr_nonnull(strstr(inner, "size: 16\n"));
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "import", "--from", env("C2CSIM_STRUCTS_OBJ"), "-C",
				    "outer", NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_str_eq(c.out, outer);
	cmd_free(&c);
	rm_rf(dir);
}
END_TEST

START_TEST(cli_import_errors_are_one_line)
{
	g_autofree char *src = tu_src_path("sim/tests/data/structs/structs.c");
	struct cmd c = {0};

	c2csim(&c, (const char *[]){"layout", "import", "--from", env("C2CSIM_STRUCTS_OBJ"), "-C",
				    "nosuch", NULL});
	assert_one_line_error(&c, "structs.o", "type 'nosuch' not found");
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "import", "--from", src, "-C", "outer", NULL});
	assert_one_line_error(&c, "structs.c", "pahole -C outer failed");
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "import", "--from", env("C2CSIM_STRUCTS_OBJ"), "-C",
				    "outer,inner", NULL});
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "expected -o DIR"));
	cmd_free(&c);
}
END_TEST

/* BTF: pahole -J encodes the object's DWARF as BTF; importing that gives the same layout. */
START_TEST(btf_import_matches_dwarf)
{
	g_autofree char *dir = tmpdir(), *copy = g_build_filename(dir, "structs.o", NULL);
	g_autofree char *bytes = NULL, *dwarf = NULL, *btf = NULL;
	const char *argv[] = {"pahole", "-J", copy, NULL};
	struct cmd c = {0};
	int status;

	gsize len;

	ck_assert(g_file_get_contents(env("C2CSIM_STRUCTS_OBJ"), &bytes, &len, NULL));
	ck_assert(g_file_set_contents(copy, bytes, (gssize)len, NULL));
	ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH |
			       G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
			       NULL, NULL, &status, NULL));
	ck_assert_int_eq(status, 0);
	c2csim(&c, (const char *[]){"layout", "import", "--from", copy, "-C", "bf_combined", NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	dwarf = g_steal_pointer(&c.out);
	cmd_free(&c);
	c2csim(&c, (const char *[]){"layout", "import", "--btf", copy, "-C", "bf_combined", NULL});
	ck_assert_msg(c.status == 0, "%s", c.err);
	btf = g_steal_pointer(&c.out);
	cmd_free(&c);
	ck_assert_ptr_nonnull(strstr(btf, "source: \"pahole -F btf -C bf_combined structs.o\""));
	/* Everything but the provenance line is the same. */
	ck_assert_str_eq(strstr(btf, "members:"), strstr(dwarf, "members:"));
	rm_rf(dir);
}
END_TEST

static Suite *layout_import_suite(void)
{
	Suite *s = suite_create("layout_import");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, imported_layouts_match_gcc);
	tcase_add_test(tc, bitfield_combined_bytes_belong_to_the_next_member);
	tcase_add_test(tc, import_reproduces_every_pahole_number);
	tcase_add_test(tc, cli_import_from_object);
	tcase_add_test(tc, cli_import_errors_are_one_line);
	tcase_add_test(tc, btf_import_matches_dwarf);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(layout_import_suite());
}
