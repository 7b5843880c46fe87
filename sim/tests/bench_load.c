/*
 * bench_load.c - `meson test --benchmark load-scaling`: host time of the loaders that used
 * to be quadratic (issue 10, item 12), at two sizes four times apart.  Linear loading shows
 * a ratio near 4 (a quadratic one was near 16).
 */
#include <glib.h>
#include <stdio.h>

#include "load_scale.h"
#include "testutil.h"

static const uint32_t sizes[LS_KIND_COUNT] = {65536, 40000, 100000, 40000};

START_TEST(bench_load_scaling)
{
	g_autofree char *dir = g_dir_make_tmp("c2csim-bench-XXXXXX", NULL);
	g_autofree char *cmd = NULL;

	printf("%-12s %9s %9s %9s %9s %7s\n", "workload", "n", "n_s", "4n", "4n_s", "ratio");
	for (int k = 0; k < LS_KIND_COUNT; k++) {
		double t1 = ls_seconds((enum ls_kind)k, sizes[k], dir);
		double t4 = ls_seconds((enum ls_kind)k, 4 * sizes[k], dir);

		printf("%-12s %9u %9.3f %9u %9.3f %7.2f\n", ls_kind_names[k], sizes[k], t1,
		       4 * sizes[k], t4, t4 / t1);
	}
	fflush(stdout);
	cmd = g_strdup_printf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bench_load");
	TCase *tc = tcase_create("scaling");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, bench_load_scaling);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
