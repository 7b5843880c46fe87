/*
 * check_cli_bench.c - `c2csim bench` (cli_bench.c) and tools/limit-probe: option errors, the
 * cost figures' rows, and a probe whose work is the same in every run.
 */
#include <glib.h>
#include <string.h>

#include "cmdutil.h"
#include "testutil.h"

START_TEST(bench_usage_errors)
{
	const char *runs[] = {"bench", "--runs", "0", NULL};
	const char *wl[] = {"bench", "--workload", "no-such", NULL};
	struct cmd c;

	c2csim(&c, runs);
	ck_assert_int_eq(c.status, 2);
	ck_assert_str_eq(c.err, "c2csim bench: --runs 0 (expected 1 to 100)\n");
	cmd_free(&c);
	c2csim(&c, wl);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(strstr(c.err, "unknown workload 'no-such'") && !strchr(c.err, '\n')[1],
		      "%s", c.err);
	ck_assert_str_eq(c.out, "");
	cmd_free(&c);
}
END_TEST

/* The row of @name in @out: its actors' CPUs, the machine's and the accesses; fails the test
 * when it is missing. */
static void bench_row(const char *out, const char *name, int *cpus, int *machine,
		      guint64 *accesses)
{
	g_autofree char *key = g_strdup_printf("\n%s ", name);
	const char *row = strstr(out, key);

	ck_assert_msg(row, "no row %s in:\n%s", name, out);
	ck_assert_int_eq(sscanf(row + strlen(key), "%d/%d %" G_GUINT64_FORMAT, cpus, machine,
				accesses), 3);
}

/* cpus: the same loop on 16 and on 256 CPUs of one machine, each row saying how many CPUs ran
 * it; the shared counter serializes both, so they do about as many accesses (within 2x). */
START_TEST(bench_cpus_rows)
{
	const char *args[] = {"bench", "--workload", "cpus", "--runs", "1", NULL};
	guint64 a16, a256;
	int c16, c256, m16, m256;
	double ratio = 0;
	const char *line;
	struct cmd c;

	c2csim(&c, args);
	ck_assert_msg(c.status == 0, "%s", c.err);
	bench_row(c.out, "cpus-16", &c16, &m16, &a16);
	bench_row(c.out, "cpus-256", &c256, &m256, &a256);
	ck_assert_int_eq(c16, 16);
	ck_assert_int_eq(c256, 256);
	ck_assert_int_eq(m16, 256);
	ck_assert_int_eq(m256, 256);
	ck_assert_msg(a16 < 2 * a256 && a256 < 2 * a16, "%" G_GUINT64_FORMAT " vs %"
		      G_GUINT64_FORMAT, a16, a256);
	line = strstr(c.out, "\ncpus: 256 CPUs cost x");
	ck_assert_msg(line && sscanf(line, "\ncpus: 256 CPUs cost x%lf", &ratio) == 1 && ratio > 0,
		      "%s", c.out);
	cmd_free(&c);
}
END_TEST

/* Without its yardstick --vs-limit stops before running anything. */
START_TEST(bench_vs_limit_needs_probe)
{
	const char *args[] = {"bench", "--vs-limit", "--runs", "1", NULL};
	struct cmd c;

	g_setenv("C2CSIM_LIMIT_PROBE", "/nonexistent/limit-probe", TRUE);
	c2csim(&c, args);
	g_unsetenv("C2CSIM_LIMIT_PROBE");
	ck_assert_int_eq(c.status, 2);
	ck_assert_str_eq(c.err, "c2csim bench: /nonexistent/limit-probe: no such program (expected "
			 "tools/limit-probe, built with c2csim, or $C2CSIM_LIMIT_PROBE)\n");
	ck_assert_str_eq(c.out, "");
	cmd_free(&c);
}
END_TEST

/* The probe's output without its host time: the accesses and the directory's checksum. */
static char *probe_work(const char *probe, const char *n)
{
	const char *argv[] = {probe, "--accesses", n, NULL};
	g_autofree char *out = NULL;
	int wst = 0;
	char *p;

	ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
			       &wst, NULL));
	ck_assert_int_eq(wst, 0);
	p = strstr(out, " host_s ");
	ck_assert_msg(p && strstr(out, " sharers_checksum "), "%s", out);
	return g_strdup_printf("%.*s%s", (int)(p - out), out, strstr(out, " sharers_checksum "));
}

/* The probe does the accesses asked, and the same work each time (a deterministic DES). */
START_TEST(limit_probe_deterministic)
{
	const char *probe = g_getenv("C2CSIM_LIMIT_PROBE_BIN");
	g_autofree char *a = probe_work(probe, "100000");
	g_autofree char *b = probe_work(probe, "100000");

	ck_assert_msg(g_str_has_prefix(a, "accesses 100000 sharers_checksum "), "%s", a);
	ck_assert_str_eq(a, b);
}
END_TEST

static Suite *cli_bench_suite(void)
{
	Suite *s = suite_create("cli_bench");
	TCase *tc = tcase_create("bench");

	tcase_add_test(tc, bench_usage_errors);
	tcase_add_test(tc, bench_cpus_rows);
	tcase_add_test(tc, bench_vs_limit_needs_probe);
	tcase_add_test(tc, limit_probe_deterministic);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(cli_bench_suite());
}
