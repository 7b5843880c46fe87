/* cli.c - `c2csim run` and `c2csim bench`; see cli.h and the usage text in main.c. */
#include "cli.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "c2csim_config.h"
#include "report/output.h"
#include "report/report.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

struct run_args {
	const char *scenario;
	const char *out;
	GArray *ov;          /* struct override; keys and values point into argv or ov_text */
	GPtrArray *ov_text;  /* strings we made (owned) */
	GPtrArray *only;     /* --variant names (point into argv), NULL-terminated when used */
	bool seed_set, check, quiet;
	uint64_t seed;
};

/* A file under the working directory, else under the source tree (so `c2csim` works from
 * anywhere in a checkout and from the build directory). */
static char *find_data_file(const char *rel)
{
	if (g_file_test(rel, G_FILE_TEST_IS_REGULAR))
		return g_strdup(rel);
	return g_build_filename(C2CSIM_SRCDIR, rel, NULL);
}

static bool add_override(struct run_args *a, const char *kv, struct c2c_err *err)
{
	const char *eq = strchr(kv, '=');
	struct override o;
	char *key;

	if (!eq || eq == kv) {
		err_setf(err, "c2csim run: --set '%s' (expected KEY=VALUE)", kv);
		return false;
	}
	key = g_strndup(kv, (size_t)(eq - kv));
	g_ptr_array_add(a->ov_text, key);
	o.key = key;
	o.value = eq + 1;
	g_array_append_val(a->ov, o);
	return true;
}

static bool parse_run_args(int argc, char **argv, struct run_args *a, struct c2c_err *err)
{
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];
		bool has_val = i + 1 < argc;
		char *end;

		if (!strcmp(opt, "--check")) {
			a->check = true;
		} else if (!strcmp(opt, "--quiet")) {
			a->quiet = true;
		} else if (!strcmp(opt, "--pair")) {
			add_override(a, "report.group=pair", err);
		} else if (!strcmp(opt, "--callers")) {
			add_override(a, "report.callers=true", err);
		} else if ((!strcmp(opt, "--seed") || !strcmp(opt, "--out") ||
			    !strcmp(opt, "--set") || !strcmp(opt, "--sort") ||
			    !strcmp(opt, "--variant")) && !has_val) {
			err_setf(err, "c2csim run: %s needs a value (see c2csim --help)", opt);
			return false;
		} else if (!strcmp(opt, "--seed")) {
			a->seed = g_ascii_strtoull(argv[++i], &end, 0);
			a->seed_set = true;
			if (!*argv[i] || *end || argv[i][0] == '-') {
				err_setf(err, "c2csim run: --seed '%s' (expected a non-negative integer)",
					 argv[i]);
				return false;
			}
		} else if (!strcmp(opt, "--out")) {
			a->out = argv[++i];
		} else if (!strcmp(opt, "--variant")) {
			g_ptr_array_add(a->only, argv[++i]);
		} else if (!strcmp(opt, "--set")) {
			if (!add_override(a, argv[++i], err))
				return false;
		} else if (!strcmp(opt, "--sort")) {
			char *kv = g_strconcat("report.sort=", argv[++i], NULL);

			g_ptr_array_add(a->ov_text, kv);
			add_override(a, kv, err);
		} else if (opt[0] == '-') {
			err_setf(err, "c2csim run: unknown option '%s' (expected --seed, --out, --set, "
				 "--variant, --check, --quiet, --pair, --callers or --sort)", opt);
			return false;
		} else if (a->scenario) {
			err_setf(err, "c2csim run: more than one scenario ('%s' and '%s')",
				 a->scenario, opt);
			return false;
		} else {
			a->scenario = opt;
		}
	}
	return true;
}

/* Print every variant's report (and the comparison) into one text. */
static char *make_report(const struct scenario *sc, struct run_result **runs)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (uint32_t i = 0; i < sc->nr_variants; i++)
		report_print(f, sc, &sc->v[i], runs[i]);
	if (sc->nr_variants > 1)
		report_compare(f, runs, sc->nr_variants);
	fclose(f);
	return text;
}

static int run_scenario(struct run_args *a, struct c2c_err *err)
{
	g_autofree char *path = a->scenario ? g_strdup(a->scenario)
					    : find_data_file("scenarios/default.yaml");
	g_autofree char *out = NULL, *text = NULL;
	struct scenario *sc;
	struct run_result **runs;
	int status = 0;

	if (a->only->len)
		g_ptr_array_add(a->only, NULL);
	sc = scenario_load_only(path, (struct override *)(void *)a->ov->data, a->ov->len,
				a->seed_set, a->seed,
				a->only->len ? (const char *const *)a->only->pdata : NULL, err);
	if (!sc)
		return 2;
	runs = g_new0(struct run_result *, sc->nr_variants);
	for (uint32_t i = 0; i < sc->nr_variants && !status; i++)
		if (!(runs[i] = run_variant(sc, i, a->check, err)))
			status = 1;
	if (!status) {
		text = make_report(sc, runs);
		out = a->out ? g_strdup(a->out) : g_build_filename("results", sc->name, NULL);
		if (!output_write(out, sc, runs, sc->nr_variants, text, err))
			status = 2;
	}
	if (!status && !a->quiet)
		fputs(text, stdout);
	if (!status)
		fprintf(stderr, "c2csim: results in %s\n", out);
	for (uint32_t i = 0; i < sc->nr_variants; i++)
		run_result_free(runs[i]);
	g_free(runs);
	scenario_free(sc);
	return status;
}

int cli_run(int argc, char **argv)
{
	struct run_args a = {.ov = g_array_new(FALSE, FALSE, sizeof(struct override)),
			     .ov_text = g_ptr_array_new_with_free_func(g_free),
			     .only = g_ptr_array_new()};
	struct c2c_err err = {0};
	int status;

	/* C2CSIM_CHECK=1 turns the invariant checks on for every run (the test suite sets it). */
	a.check = g_strcmp0(g_getenv("C2CSIM_CHECK"), "1") == 0;
	status = parse_run_args(argc, argv, &a, &err) ? run_scenario(&a, &err) : 2;

	if (err.set)
		fprintf(stderr, "%s\n", err.msg);
	g_array_free(a.ov, TRUE);
	g_ptr_array_free(a.ov_text, TRUE);
	g_ptr_array_free(a.only, TRUE);
	return status;
}

/* ------------------------------------------------------------------ bench */

static double host_seconds(void)
{
	struct timespec ts;

	/* Host time measures the simulator, never the simulation: it is printed, not simulated. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench_one(const char *name, uint64_t scale)
{
	g_autofree char *rel = g_strdup_printf("scenarios/bench/%s.yaml", name);
	g_autofree char *path = find_data_file(rel);
	struct c2c_err err = {0};
	struct scenario *sc = scenario_load(path, NULL, 0, false, 0, &err);
	struct run_result *r;
	double t0, t;

	if (!sc) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	sc->v[0].end_time *= scale;
	t0 = host_seconds();
	r = run_variant(sc, 0, false, &err);
	t = host_seconds() - t0;
	if (!r) {
		fprintf(stderr, "%s\n", err.msg);
		scenario_free(sc);
		return 1;
	}
	printf("%-16s %5d %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %10.1f %8.3f %10.2f\n",
	       name, sc->v[0].mc.nr_cpus, stats_accesses(r->mem), r->events,
	       (double)r->sim_time / 1e6, t, (double)stats_accesses(r->mem) / t / 1e6);
	run_result_free(r);
	scenario_free(sc);
	return 0;
}

int cli_bench(int argc, char **argv)
{
	static const char *const workloads[] = {"contended-80", "uncontended-80"};
	uint64_t scale = 1;
	int status = 0;
	char *end;

	if (argc == 3 && !strcmp(argv[1], "--scale")) {
		scale = g_ascii_strtoull(argv[2], &end, 10);
		if (!scale || *end) {
			fprintf(stderr, "c2csim bench: --scale '%s' (expected a positive integer)\n",
				argv[2]);
			return 2;
		}
	} else if (argc != 1) {
		fprintf(stderr, "c2csim bench: bad arguments (expected [--scale N])\n");
		return 2;
	}
	printf("%-16s %5s %12s %12s %10s %8s %10s\n", "workload", "cpus", "accesses", "events",
	       "sim_us", "host_s", "Macc/s");
	for (size_t i = 0; i < G_N_ELEMENTS(workloads) && !status; i++)
		status = bench_one(workloads[i], scale);
	return status;
}
