/* cli.c - `c2csim run` and `c2csim protocol`; see cli.h. */
#include "cli.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "c2csim_config.h"
#include "core/limits.h"
#include "cli_table.h"
#include "mem/protocol.h"
#include "report/expect.h"
#include "report/headline.h"
#include "report/outdir.h"
#include "report/output.h"
#include "report/verdict.h"
#include "report/plot.h"
#include "report/report.h"
#include "scenario/run.h"
#include "scenario/runwatch.h"
#include "scenario/scenario.h"
#include "yaml/ytree.h"

struct run_args {
	/* bound to the option table (run_options) */
	char *seed_text, *out, *sort, *baseline;
	char **sets, **variants;
	gboolean check, quiet, pair, callers, brief, expect, plot, no_run_ahead, all_lines;
	int jobs;
	/* derived */
	const char *scenario;
	GArray *ov;          /* struct override; keys and values point into sets or ov_text */
	GPtrArray *ov_text;  /* strings we made (owned) */
	bool seed_set;
	uint64_t seed;
	struct c2c_limits limits;
};

char *find_data_file(const char *rel)
{
	if (g_file_test(rel, G_FILE_TEST_IS_REGULAR))
		return g_strdup(rel);
	return g_build_filename(C2CSIM_SRCDIR, rel, NULL);
}

static GOptionEntry *run_options(void *args)
{
	struct run_args *a = args;
	GOptionEntry e[] = {
		{"seed", 0, 0, G_OPTION_ARG_STRING, &a->seed_text,
		 "Override the scenario's seed", "N"},
		{"out", 0, 0, G_OPTION_ARG_FILENAME, &a->out,
		 "Results directory (default results/<scenario name>)", "DIR"},
		{"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->sets,
		 "Override a parameter in every variant (repeatable), e.g. end.time_us=50",
		 "KEY=VALUE"},
		{"variant", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->variants,
		 "Run only this variant (repeatable; default: all)", "NAME"},
		{"check", 0, 0, G_OPTION_ARG_NONE, &a->check,
		 "Check the SWMR and data-value invariants (also: C2CSIM_CHECK=1)", NULL},
		{"quiet", 0, 0, G_OPTION_ARG_NONE, &a->quiet,
		 "Do not print the report (the results directory is written)", NULL},
		{"plot", 0, 0, G_OPTION_ARG_NONE, &a->plot,
		 "Also draw the pictures into DIR/plots (c2csim plot)", NULL},
		{"pair", 0, 0, G_OPTION_ARG_NONE, &a->pair,
		 "Group the cacheline table by 128-byte pair (perf c2c --double-cl)", NULL},
		{"callers", 0, 0, G_OPTION_ARG_NONE, &a->callers,
		 "Split the Pareto rows by caller, one frame up (perf c2c -g)", NULL},
		{"sort", 0, 0, G_OPTION_ARG_STRING, &a->sort,
		 "Sort the cacheline table by total, local or remote HITMs", "tot|lcl|rmt"},
		{"baseline", 0, 0, G_OPTION_ARG_STRING, &a->baseline,
		 "The variant the others are judged against (default: report.baseline, else the "
		 "first)", "NAME"},
		{"brief", 0, 0, G_OPTION_ARG_NONE, &a->brief,
		 "Print only the first screen: headline, verdicts, published figures", NULL},
		{"expect", 0, 0, G_OPTION_ARG_NONE, &a->expect,
		 "Exit 1 when an expectation of the scenario fails (one line each on stderr)", NULL},
		{"no-run-ahead", 0, 0, G_OPTION_ARG_NONE, &a->no_run_ahead,
		 "Put every step through the event queue (the results are the same; for tests)",
		 NULL},
		{"jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs,
		 "Variants run at a time (default: one per host CPU; the results are the same)",
		 "N"},
		{"all-lines", 0, 0, G_OPTION_ARG_NONE, &a->all_lines,
		 "Every line keeps its own counters from its first touch (default: from when it "
		 "becomes shared; more host memory)", NULL},
		G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

bool cli_overrides(const char *prog, char *const *sets, GArray *ov, GPtrArray *keys)
{
	for (char *const *kv = sets; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '=');
		struct override o;

		if (!eq || eq == *kv) {
			cli_usage_error(prog, "--set '%s' (expected KEY=VALUE)", *kv);
			return false;
		}
		g_ptr_array_add(keys, g_strndup(*kv, (size_t)(eq - *kv)));
		o = (struct override){.key = keys->pdata[keys->len - 1], .value = eq + 1};
		g_array_append_val(ov, o);
	}
	return true;
}

static void add_override(struct run_args *a, const char *key, const char *value)
{
	struct override o = {.key = key, .value = value};

	g_array_append_val(a->ov, o);
}

/* The options after parsing: values checked (an error names its option), --set, --pair,
 * --callers and --sort as overrides.  Return: false after printing the error. */
static bool run_args_finish(struct run_args *a, const char *prog, int argc, char **argv)
{
	if (argc > 2) {
		cli_usage_error(prog, "more than one scenario ('%s' and '%s')", argv[1], argv[2]);
		return false;
	}
	a->scenario = argc == 2 ? argv[1] : NULL;
	if (a->seed_text) {
		const char *t = a->seed_text;
		bool hex = g_str_has_prefix(t, "0x") || g_str_has_prefix(t, "0X");

		/* Decimal or 0x-hex, as in the scenario file; too large is an error, not 2^64-1. */
		a->seed_set = true;
		if (!g_ascii_string_to_unsigned(t + (hex ? 2 : 0), hex ? 16 : 10, 0, UINT64_MAX,
						&a->seed, NULL)) {
			cli_usage_error(prog, "--seed '%s' (expected an integer in [0, "
					"18446744073709551615])", t);
			return false;
		}
	}
	if (a->sort && strcmp(a->sort, "tot") && strcmp(a->sort, "lcl") && strcmp(a->sort, "rmt")) {
		cli_usage_error(prog, "--sort '%s' (expected tot, lcl or rmt)", a->sort);
		return false;
	}
	if (!cli_overrides(prog, a->sets, a->ov, a->ov_text))
		return false;
	if (a->pair)
		add_override(a, "report.group", "pair");
	if (a->callers)
		add_override(a, "report.callers", "true");
	if (a->sort)
		add_override(a, "report.sort", a->sort);
	return true;
}

static void run_args_clear(struct run_args *a)
{
	g_free(a->seed_text);
	g_free(a->out);
	g_free(a->sort);
	g_free(a->baseline);
	g_strfreev(a->sets);
	g_strfreev(a->variants);
	g_array_free(a->ov, TRUE);
	g_ptr_array_free(a->ov_text, TRUE);
}

/* The headline, expectations and verdict options of @sc; false with @err set. */
static bool load_answer(struct run_args *a, const struct scenario *sc, struct hl_set *hs,
			struct expect_set *es, struct verdict_opts *vo, struct c2c_err *err)
{
	*vo = (struct verdict_opts){.baseline = a->baseline};
	return hl_load(sc, hs, err) && expect_load(sc, hs, es, err) &&
	       verdict_opts_load(vo, sc, err);
}

/* The report text: the answer first (verdict_report); an interrupted run's first line says
 * where it stopped.  NULL with @err set on an internal error. */
static char *make_report(const struct scenario *sc, struct run_result **runs, uint32_t nr,
			 int signo, const struct verdict_opts *vo, const struct expect_set *es,
			 bool brief, uint32_t *failed, struct c2c_err *err)
{
	g_autofree char *body = verdict_report(sc, runs, nr, vo, es, brief, failed, NULL, err);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!body)
		return NULL;
	f = open_memstream(&text, &len);
	if (!output_complete(sc, runs, nr))
		output_incomplete_line(f, sc, runs, nr, runwatch_signame(signo));
	fputs(body, f);
	fclose(f);
	return text;
}

static int run_scenario(struct run_args *a, struct c2c_err *err)
{
	g_autofree char *path = a->scenario ? g_strdup(a->scenario)
					    : find_data_file("scenarios/default.yaml");
	g_autofree char *out = NULL, *text = NULL;
	struct hl_set hs = {0};
	struct expect_set es = {0};
	struct verdict_opts vo;
	struct scenario *sc;
	struct run_result **runs;
	uint32_t failed = 0, nr = 0;
	int status = 0, signo;

	sc = scenario_load_only(path, (struct override *)(void *)a->ov->data, a->ov->len,
				a->seed_set, a->seed, (const char *const *)a->variants, &a->limits,
				err);
	if (!sc)
		return err->limit ? 1 : 2;
	sc->no_run_ahead = a->no_run_ahead;
	sc->track_all_lines = a->all_lines;
	out = a->out ? g_strdup(a->out) : g_build_filename("results", sc->name, NULL);
	/* Everything that can be refused is refused before simulating, not after. */
	if (!load_answer(a, sc, &hs, &es, &vo, err) || !outdir_check(out, err)) {
		hl_set_free(&hs);
		expect_set_free(&es);
		scenario_free(sc);
		return 2;
	}
	runwatch_begin(!a->quiet);
	if (!(runs = cli_run_variants(sc, a->check, a->jobs ? a->jobs : (int)g_get_num_processors(),
				      &nr, err)))
		status = 1;
	signo = runwatch_end();
	if (!status && !(text = make_report(sc, runs, nr, signo, &vo, &es, a->brief, &failed,
					    err)))
		status = 1;
	if (!status) {
		if (!output_write(out, sc, runs, nr, text, err))
			status = err->limit ? 1 : 2;
		else if (!output_complete(sc, runs, nr))
			status = 128 + signo; /* 130 for SIGINT, 143 for SIGTERM */
	}
	if (!status && a->plot && !plot_dir(out, NULL, PLOT_PNG | PLOT_SVG, err))
		status = 2; /* the results are written; only the pictures are missing */
	if ((!status || status > 128) && !a->quiet)
		fputs(text, stdout);
	/* stdout first: in a captured log the stderr lines must not land inside the report. */
	fflush(stdout);
	if (!status || status > 128)
		fprintf(stderr, "c2csim: %sresults in %s\n", status ? "incomplete " : "", out);
	if (!status && a->expect && failed) {
		g_free(verdict_report(sc, runs, nr, &vo, &es, true, NULL, stderr, err));
		status = 1;
	}
	cli_runs_free(runs, runs ? sc->nr_variants : 0);
	hl_set_free(&hs);
	expect_set_free(&es);
	scenario_free(sc);
	return status;
}

static int cli_run(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	struct run_args a = {.ov = g_array_new(FALSE, FALSE, sizeof(struct override)),
			     .ov_text = g_ptr_array_new_with_free_func(g_free)};
	struct c2c_err err = {0};
	int status;

	/* The --max-* limits first (core/limits.h, their own table): the rest is run's. */
	limits_default(&a.limits);
	if (!limits_parse_args(&a.limits, &argc, argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		run_args_clear(&a);
		return 2;
	}
	status = cli_parse(cmd, prog, &a, &argc, &argv);
	/* C2CSIM_CHECK=1 turns the invariant checks on for every run (the test suite sets it). */
	a.check |= g_strcmp0(g_getenv("C2CSIM_CHECK"), "1") == 0;
	if (status < 0)
		status = run_args_finish(&a, prog, argc, argv) ? run_scenario(&a, &err) : 2;
	if (err.set) {
		fflush(stdout);
		fprintf(stderr, "%s\n", err.msg);
	}
	run_args_clear(&a);
	return status;
}

static int cli_protocol(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	int status = cli_parse(cmd, prog, NULL, &argc, &argv);

	if (status >= 0)
		return status;
	if (argc > 1)
		return cli_usage_error(prog, "unexpected argument '%s'", argv[1]);
	proto_print(stdout);
	return 0;
}

const struct cli_cmd cli_run_cmd = {
	"run", "[SCENARIO]",
	"Run a scenario (default scenarios/default.yaml); print and write the results",
	"The report begins with the answer: scenario, machine, variants, the headline table with "
	"verdicts and published figures, the expectations; the perf-c2c tables follow.\n"
	"Resource limits: --max-events N, --max-time-us N, --max-lines N, --max-entities N, "
	"--max-trace-lines N, --max-output-mib N (README, \"Resource limits\").\n"
	"Exit status: 0 success, 1 the simulation failed, a resource limit was reached (or, with "
	"--expect, an expectation failed), 2 bad input, 130 / 143 interrupted by SIGINT / SIGTERM.",
	run_options, sizeof(struct run_args), cli_run, NULL};

const struct cli_cmd cli_protocol_cmd = {
	"protocol", "", "Print the MESI + adjacent-line prefetch protocol table", NULL,
	NULL, 0, cli_protocol, NULL};
