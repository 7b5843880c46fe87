/*
 * check_sweep.c - `c2csim sweep` and `c2csim merge`: the same sweep.csv whatever -j, through
 * GNU parallel and merge, point N of the Slurm array, resume after SIGINT, headline metrics.
 */
#include <glib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shutil.h"
#include "testutil.h"

/* The acceptance grid: seed 002, threads {1, 2, 4, 8, 16, 20} x {before, after}, short. */
#define SEED002_GRID "scenarios/seeds/002-lruvec-prefetch.yaml " \
	"--axis 'actors[0].cpus=0-0|0-1|0-3|0-7|0-15|0-19' --axis 'variant=before|after' " \
	"--set end.time_us=100 --set end.warmup_us=50"

/* sweep.csv of the acceptance grid run with @jobs workers into @dir/j@jobs. */
static char *sweep_csv(const char *dir, int jobs)
{
	g_autofree char *cmd = g_strdup_printf("\"$C2CSIM\" sweep " SEED002_GRID " --no-plot "
					       "--out '%s/j%d' -j %d", dir, jobs, jobs);
	g_autofree char *out = NULL, *sub = g_strdup_printf("j%d/sweep.csv", jobs);

	ck_assert_msg(sh_run(cmd, &out) == 0, "-j %d: %s", jobs, out);
	return sh_file(dir, sub);
}

/* Rows of @csv: the header and one per point (each runs one variant). */
static unsigned rows(const char *csv)
{
	unsigned n = 0;

	for (const char *p = csv; *p; p++)
		n += *p == '\n';
	return n;
}

START_TEST(sweep_same_csv_any_jobs)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *j1 = sweep_csv(dir, 1);
	g_autofree char *j2 = sweep_csv(dir, 2);
	g_autofree char *cmd = g_strdup_printf(
		"\"$C2CSIM\" sweep " SEED002_GRID " --out '%s/par' --emit-jobs '%s/jobs' && "
		"parallel -j 2 < '%s/jobs' && \"$C2CSIM\" merge '%s/par'", dir, dir, dir, dir);
	g_autofree char *out = NULL, *par = NULL;

	ck_assert_uint_eq(rows(j1), 13);
	ck_assert_msg(g_str_has_prefix(j1, "point,actors[0].cpus,variant,threads,ops_per_sec,"),
		      "%s", j1);
	ck_assert_str_eq(j1, j2);
	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	par = sh_file(dir, "par/sweep.csv");
	ck_assert_str_eq(j1, par);
	sh_rm(dir);
}
END_TEST

START_TEST(sweep_slurm_task_runs_its_point)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *cmd = g_strdup_printf(
		"\"$C2CSIM\" sweep " SEED002_GRID " --out '%s/s' --emit-slurm '%s/job.sbatch' && "
		"bash -n '%s/job.sbatch' && SLURM_ARRAY_TASK_ID=3 bash '%s/job.sbatch' && "
		"ls '%s/s/points'", dir, dir, dir, dir, dir);
	g_autofree char *out = NULL, *point = NULL, *script = NULL;

	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	ck_assert_msg(g_str_has_suffix(out, "\n0003\n"), "only point 3 ran: %s", out);
	point = sh_file(dir, "s/points/0003/point.yaml");
	ck_assert_str_eq(point, "point: 3\nof: 12\naxes:\n  \"actors[0].cpus\": \"0-1\"\n"
			 "  \"variant\": \"after\"\n");
	script = sh_file(dir, "job.sbatch");
	ck_assert_msg(strstr(script, "#SBATCH --array=0-11\n"), "%s", script);
	sh_rm(dir);
}
END_TEST

/* Start a sweep in the background, SIGINT it after its first point, rerun it. */
START_TEST(sweep_resumes_after_sigint)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *first = g_build_filename(dir, "s/points/0000/point.yaml", NULL);
	g_autofree char *marker = g_build_filename(dir, "s/points/0000/kept", NULL);
	g_autofree char *src = tu_src_path(".");
	g_autofree char *out_dir = g_build_filename(dir, "s", NULL);
	const char *argv[] = {getenv("C2CSIM_BIN"), "sweep",
			      "scenarios/seeds/002-lruvec-prefetch.yaml", "--axis",
			      "actors[0].cpus=0-0|0-1|0-3|0-7|0-15|0-19", "--axis",
			      "variant=before|after", "--set", "end.time_us=300", "-j", "1",
			      "--no-plot", "--out", out_dir, NULL};
	g_autofree char *cmd = g_strdup_printf(
		"\"$C2CSIM\" sweep scenarios/seeds/002-lruvec-prefetch.yaml --axis "
		"'actors[0].cpus=0-0|0-1|0-3|0-7|0-15|0-19' --axis 'variant=before|after' --set "
		"end.time_us=300 -j 2 --no-plot --out '%s/s'", dir);
	g_autofree char *out = NULL, *csv = NULL;
	g_autoptr(GError) gerr = NULL;
	GPid pid;
	int status, waited = 0;
	unsigned done = 0;

	ck_assert_msg(g_spawn_async(src, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
				    G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &gerr), "%s",
		      gerr ? gerr->message : "");
	while (!g_file_test(first, G_FILE_TEST_EXISTS) && waited++ < 6000)
		g_usleep(10 * 1000);
	ck_assert_int_eq(kill(pid, SIGINT), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 130, "status %d", status);
	for (int p = 0; p < 12; p++) {
		g_autofree char *pp = g_strdup_printf("%s/s/points/%04d/point.yaml", dir, p);

		done += g_file_test(pp, G_FILE_TEST_EXISTS);
	}
	ck_assert_msg(done >= 1 && done < 12, "%u points done at the interrupt", done);
	ck_assert(g_file_set_contents(marker, "", 0, NULL));
	/* The rerun (same grid; -j is not part of it) finishes without redoing point 0. */
	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	ck_assert_msg(strstr(out, "points already done"), "%s", out);
	ck_assert_msg(g_file_test(marker, G_FILE_TEST_EXISTS), "point 0 was run again");
	csv = sh_file(dir, "s/sweep.csv");
	ck_assert_uint_eq(rows(csv), 13);
	sh_rm(dir);
}
END_TEST

/* A point directory whose summary.yaml carries headline metrics and `complete`. */
static void fixture_point(const char *dir, int point, const char *variant, const char *speedup)
{
	g_autofree char *pdir = g_strdup_printf("%s/points/%04d", dir, point);
	g_autofree char *pyaml = g_strdup_printf("point: %d\nof: 4\naxes:\n  \"actors[0].cpus\": "
						 "\"0-%d\"\n  variant: %s\n", point, point,
						 variant);
	g_autofree char *summary = g_strdup_printf(
		"scenario: fixture\ncomplete: %s\nvariants:\n  %s:\n"
		"    sim_time_ps: 1000\n    events: 7\n    accesses: 9\n"
		"    hitm: {local: 3, remote: 2, prefetch: 1}\n    loads: 5\n    stores: 4\n"
		"    actors: [{name: a, threads: %d, iterations: 10}]\n"
		"    throughput: {ops_per_sec: 42, actors: [{name: a, ops_per_sec: 42}]}\n"
		"    locks: [{name: \"l, one\", acquisitions: 4, contentions: 2, wait_total_ps: 100,"
		" hold_total_ps: 50}, {name: l2, acquisitions: 1, contentions: 0, wait_total_ps: 0,"
		" hold_total_ps: 5}]\n"
		"    headline:\n"
		"      - {name: speedup, metric: ops_per_sec, value: %s, unit: x, per_op: 1, "
		"published: 1.3}\n%s",
		point ? "true" : "false", variant, point + 1, speedup,
		point ? "      - {name: \"pn line0 hitm\", metric: hitm, value: 7, unit: count}\n"
		      : "");

	sh_put(pdir, "point.yaml", pyaml);
	sh_put(pdir, "summary.yaml", summary);
}

START_TEST(merge_headline_columns)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *cmd = g_strdup_printf("\"$C2CSIM\" merge --out '%s/m' '%s/points/0001' "
					       "'%s'", dir, dir, dir);
	g_autofree char *out = NULL, *csv = NULL;

	fixture_point(dir, 1, "after", "1.25");
	fixture_point(dir, 0, "before", "1.0");
	ck_assert_msg(sh_run(cmd, &out) != 0, "point 1 given twice must fail: %s", out);
	g_free(cmd);
	cmd = g_strdup_printf("\"$C2CSIM\" merge --out '%s/m' '%s'", dir, dir);
	g_free(out);
	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	/* points 2 and 3 of the 4-point grid never finished: merged anyway, and named */
	ck_assert_msg(strstr(out, "2 points merged into") && strstr(out, "; missing: 2, 3 ("),
		      "%s", out);
	csv = sh_file(dir, "m/sweep.csv");
	ck_assert_str_eq(csv,
		"point,actors[0].cpus,variant,threads,ops_per_sec,sim_time_ps,events,accesses,"
		"hitm_local,hitm_remote,hitm_prefetch,loads,stores,lock_acquisitions,"
		"lock_contentions,lock_wait_total_ps,lock_hold_total_ps,complete,speedup,"
		"pn line0 hitm\n"
		"0,0-0,before,1,42,1000,7,9,3,2,1,5,4,5,2,100,55,false,1.0,\n"
		"1,0-1,after,2,42,1000,7,9,3,2,1,5,4,5,2,100,55,true,1.25,7\n");
	sh_rm(dir);
}
END_TEST

START_TEST(sweep_refuses_other_grid)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *cmd = g_strdup_printf(
		"\"$C2CSIM\" sweep " SEED002_GRID " --out '%s/s' --emit-jobs '%s/j' && "
		"\"$C2CSIM\" sweep scenarios/seeds/002-lruvec-prefetch.yaml --axis variant=before "
		"--out '%s/s'", dir, dir, dir);
	g_autofree char *out = NULL;

	ck_assert_int_eq(sh_run(cmd, &out), 2);
	ck_assert_msg(strstr(out, "holds a sweep of another grid"), "%s", out);
	sh_rm(dir);
}
END_TEST

/* A sweep file gives the grid --axis gives; a bad one is one line with its position. */
START_TEST(sweep_file_grid)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *cmd = g_strdup_printf(
		"\"$C2CSIM\" sweep '%s/grid.yaml' --out '%s/s' --emit-jobs '%s/j1' && "
		"\"$C2CSIM\" sweep scenarios/seeds/002-lruvec-prefetch.yaml --axis "
		"'actors[0].cpus=0-0|0-1' --axis 'variant=before|after' --set end.time_us=100 "
		"--set end.warmup_us=50 --out '%s/s' --emit-jobs '%s/j2' && cmp '%s/j1' '%s/j2' && "
		"wc -l < '%s/j1'",
		dir, dir, dir, dir, dir, dir, dir, dir);
	g_autofree char *bad = g_strdup_printf("\"$C2CSIM\" sweep '%s/bad.yaml'", dir);
	g_autofree char *out = NULL, *jobs = NULL;

	sh_put(dir, "grid.yaml", "scenario: scenarios/seeds/002-lruvec-prefetch.yaml\n"
	       "set: {end.time_us: 100, end.warmup_us: 50}\naxes:\n  actors[0].cpus: [0-0, 0-1]\n"
	       "  variant: [before, after]\n");
	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	ck_assert_msg(g_str_has_suffix(out, "\n4\n"), "4 job lines: %s", out);
	jobs = sh_file(dir, "j1");
	ck_assert_msg(strstr(jobs, " --point 3\n"), "%s", jobs);
	g_free(out);
	sh_put(dir, "bad.yaml", "scenario: x.yaml\naxes: [a]\n");
	ck_assert_int_eq(sh_run(bad, &out), 2);
	ck_assert_msg(strstr(out, "bad.yaml:2:7: axes: expected a mapping"), "%s", out);
	ck_assert_msg(rows(out) == 1, "one line: %s", out);
	sh_rm(dir);
}
END_TEST

static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep_main");

	tcase_add_test(tc, sweep_same_csv_any_jobs);
	tcase_add_test(tc, sweep_slurm_task_runs_its_point);
	tcase_add_test(tc, sweep_resumes_after_sigint);
	tcase_add_test(tc, sweep_refuses_other_grid);
	tcase_add_test(tc, sweep_file_grid);
	suite_add_tcase(s, tc);
	tc = tcase_create("merge_main");
	tcase_add_test(tc, merge_headline_columns);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(sweep_suite());
}
