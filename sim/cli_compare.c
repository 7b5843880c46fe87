/*
 * cli_compare.c - `c2csim compare BASE NEW` (two results directories, report/compare.h) and
 * `c2csim check SCENARIO...` (run scenarios, check their expectations, report/expect.h).
 */
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report/compare.h"
#include "report/expect.h"
#include "report/headline.h"
#include "report/metrics.h"
#include "report/verdict.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

/* ------------------------------------------------------------------ compare */

struct compare_args {
	char **thresholds;
	char *junit;
	gboolean all;
};

static GOptionEntry *compare_options(void *args)
{
	struct compare_args *a = args;
	GOptionEntry e[] = {
		{"threshold", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->thresholds,
		 "Regression threshold of the metrics matching a glob (repeatable; default 2)",
		 "METRIC=PCT"},
		{"junit", 0, 0, G_OPTION_ARG_FILENAME, &a->junit,
		 "Also write JUnit XML, one testcase per variant and metric", "FILE"},
		{"all", 0, 0, G_OPTION_ARG_NONE, &a->all, "List unchanged metrics too", NULL},
		G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

/* DIR/summary.yaml, or the file itself when @arg names one. */
static char *summary_path(const char *arg)
{
	if (g_file_test(arg, G_FILE_TEST_IS_DIR))
		return g_build_filename(arg, "summary.yaml", NULL);
	return g_strdup(arg);
}

static int compare_go(struct compare_args *a, const char *prog, char **argv,
		      struct c2c_err *err)
{
	g_autofree char *bp = summary_path(argv[1]), *np = summary_path(argv[2]);
	struct compare_threshold *thr = g_new0(struct compare_threshold,
					       a->thresholds ? g_strv_length(a->thresholds) + 1 : 1);
	struct compare_opts o = {.thr = thr, .all = a->all};
	struct msummary base = {0}, cur = {0};
	FILE *junit = NULL;
	int status = 2;

	for (char **t = a->thresholds; t && *t; t++)
		if (!compare_threshold_parse(*t, &thr[o.nr_thr++], err))
			goto out;
	if (!msummary_load_file(&base, bp, err) || !msummary_load_file(&cur, np, err))
		goto out;
	if (a->junit && !(junit = fopen(a->junit, "w"))) {
		err_setf(err, "%s: cannot write the JUnit file: %s", a->junit, g_strerror(errno));
		goto out;
	}
	status = compare_run(stdout, junit, &base, &cur, argv[1], argv[2], &o) ? 1 : 0;
	if (junit && fclose(junit)) {
		err_setf(err, "%s: cannot write the JUnit file: %s", a->junit, g_strerror(errno));
		status = 2;
	}
out:
	msummary_free(&base);
	msummary_free(&cur);
	g_free(thr);
	return status;
}

static int cli_compare(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	struct compare_args a = {0};
	struct c2c_err err = {0};
	int status = cli_parse(cmd, prog, &a, &argc, &argv);

	if (status < 0 && argc != 3)
		status = cli_usage_error(prog, "expected two results directories, BASE and NEW "
					 "(got %d)", argc - 1);
	if (status < 0)
		status = compare_go(&a, prog, argv, &err);
	fflush(stdout);
	if (err.set)
		fprintf(stderr, "%s\n", err.msg);
	g_strfreev(a.thresholds);
	g_free(a.junit);
	return status;
}

const struct cli_cmd cli_compare_cmd = {
	"compare", "BASE_DIR NEW_DIR",
	"Compare two results directories metric by metric; exit 1 on a regression",
	"Each variant of NEW against the same variant of BASE: headline metrics, HITM and access "
	"totals, top lines, lock wait and hold, path costs, throughput, counter error, per "
	"operation where normalisable.  A metric regresses when it is worse by more than its "
	"threshold (default 2%).\nExit status: 0 no regression, 1 a regression, 2 bad input.",
	compare_options, sizeof(struct compare_args), cli_compare, NULL};

/* ------------------------------------------------------------------ check */

struct check_args {
	char **sets;
};

static GOptionEntry *check_options(void *args)
{
	struct check_args *a = args;
	GOptionEntry e[] = {
		{"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->sets,
		 "Override a parameter in every variant (repeatable), e.g. end.time_us=50",
		 "KEY=VALUE"},
		G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

/* Run @path and check its expectations.  Return: 0 all hold, 1 one failed, 2 bad input. */
static int check_one(const char *path, GArray *ov, struct c2c_err *err)
{
	struct scenario *sc = scenario_load(path, (struct override *)(void *)ov->data, ov->len,
					    false, 0, err);
	struct run_result **runs = NULL;
	struct hl_set hs = {0};
	struct expect_set es = {0};
	struct msummary s = {0};
	int status = 0;

	if (!sc)
		return 2;
	if (!hl_load(sc, &hs, err) || !expect_load(sc, &hs, &es, err))
		status = 2;
	if (!status && !(runs = cli_run_variants(sc, g_strcmp0(g_getenv("C2CSIM_CHECK"), "1") == 0,
						     (int)g_get_num_processors(), NULL, err)))
		status = 1;
	if (!status && !verdict_summary(sc, runs, sc->nr_variants, &s, err))
		status = 1;
	if (!status) {
		printf("%s: ", path);
		if (!es.nr)
			printf("no expectations\n");
		status = expect_report(stdout, &es, &s, stderr) ? 1 : 0;
	}
	msummary_free(&s);
	cli_runs_free(runs, runs ? sc->nr_variants : 0);
	hl_set_free(&hs);
	expect_set_free(&es);
	scenario_free(sc);
	return status;
}

static int cli_check(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	struct check_args a = {0};
	GArray *ov = g_array_new(FALSE, FALSE, sizeof(struct override));
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
	int status = cli_parse(cmd, prog, &a, &argc, &argv);

	if (status < 0 && argc < 2)
		status = cli_usage_error(prog, "expected one or more scenario files");
	if (status < 0 && !cli_overrides(prog, a.sets, ov, keys))
		status = 2;
	/* Every scenario is checked; the exit status is the worst one (2 over 1 over 0). */
	for (int i = 1, worst = 0; status < 0 && i < argc; i++) {
		struct c2c_err err = {0};
		int st = check_one(argv[i], ov, &err);

		fflush(stdout);
		if (err.set)
			fprintf(stderr, "%s\n", err.msg);
		worst = st > worst ? st : worst;
		if (i == argc - 1)
			status = worst;
	}
	g_strfreev(a.sets);
	g_array_free(ov, TRUE);
	g_ptr_array_free(keys, TRUE);
	return status;
}

const struct cli_cmd cli_check_cmd = {
	"check", "SCENARIO...",
	"Run scenarios and check their expectations; exit 1 when one fails",
	"One line per scenario, and one per failed expectation, known gap or skip; each failure "
	"also on stderr as file:line:col.  Known gaps (expect: {gap: ...}) never fail.\n"
	"Exit status: 0 every expectation holds, 1 one failed (or a run failed), 2 bad input.",
	check_options, sizeof(struct check_args), cli_check, NULL};
