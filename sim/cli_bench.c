/*
 * cli_bench.c - `c2csim bench`: how fast the simulator runs, on fixed workloads.
 *
 * Each run of a workload happens in a child process of its own (fork), so that its peak
 * memory is its own (wait4's ru_maxrss) and one workload's heap does not inflate the next.
 * The child loads the scenario, times run_variant() alone on its own CPU clock (loading and
 * reporting are not the simulator's speed; CPU time, not wall time, so that other programs on
 * a shared machine slow the figure less), and sends its figures back through a pipe.  Every
 * printed figure is the median of --runs runs.  Host time measures the simulator, never the
 * simulation: nothing here reaches a simulated figure.
 */
#include "cli.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "c2csim_config.h"
#include "mem/mstats.h"

/* A workload: a scenario file, the variant to run (NULL: all, in order), and overrides. */
struct bench_wl {
	const char *name;
	const char *file;
	const char *variant;
	struct override set[3]; /* applied as `--set KEY=VALUE` (key NULL: none) */
	uint64_t time_div;    /* the simulated time is the scenario's end time / time_div */
};

/* What one run measured (sent from the child through a pipe, so plain data only). */
struct bench_fig {
	int status;           /* 0, else the exit status of a failed load (2) or run (1) */
	int cpus;             /* CPUs that run an actor */
	int machine_cpus;     /* CPUs of the machine */
	uint64_t accesses, events, lines;
	simtime_t sim_time;
	double host_s;        /* CPU seconds of run_variant() */
	long rss_before_kib;  /* resident set before loading */
	long peak_kib;        /* the child's peak resident set (filled in by the parent) */
};

#define CONTENDED "scenarios/bench/contended-80.yaml"

static const struct bench_wl wl_table[] = {
	{"contended-80", CONTENDED, NULL, {{0}}, 1},
	{"uncontended-80", "scenarios/bench/uncontended-80.yaml", NULL, {{0}}, 1},
	/* hit-dominated kernel paths: the seed-002 replay's `before`, its length fixed here */
	{"default-before", "scenarios/default.yaml", "before", {{"end.time_us", "2000"}}, 1},
	/* 256 CPUs x 1000 memcgs: the seed-000 replay, both variants (its length is its own) */
	{"seed-000", "scenarios/seeds/000-rstat-local-stats.yaml", NULL, {{0}}, 1},
};

/* The cost figures: linearity (one tenth of contended-80 against all of it), and the
 * contended-80 loop on 16 and on 256 CPUs of one machine for the same time: the shared
 * counter serializes both, so they make about as many accesses. */
static const struct bench_wl wl_tenth = {"contended-80/10", CONTENDED, NULL, {{0}}, 10};
static const struct bench_wl wl_cpus256 = {"cpus-256", CONTENDED, NULL,
	{{"machine", "sapphire-rapids-2s-256"}, {"actors[0].cpus", "0-255"},
	 {"end.time_us", "20000"}}, 1};
static const struct bench_wl wl_cpus16 = {"cpus-16", CONTENDED, NULL,
	{{"machine", "sapphire-rapids-2s-256"}, {"actors[0].cpus", "0-15"},
	 {"end.time_us", "20000"}}, 1};

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The resident set now, in KiB (0 when /proc cannot say). */
static long rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Load @wl and scale its run length and run limits by @scale (the benchmark's own length). */
static struct scenario *bench_load(const struct bench_wl *wl, uint64_t scale,
				   struct c2c_err *err)
{
	g_autofree char *path = find_data_file(wl->file);
	uint32_t nr_ov = 0;
	const char *only[] = {wl->variant, NULL};
	struct scenario *sc;

	while (nr_ov < G_N_ELEMENTS(wl->set) && wl->set[nr_ov].key)
		nr_ov++;
	sc = scenario_load_only(path, wl->set, nr_ov, false, 0,
				wl->variant ? only : NULL, NULL, err);
	if (!sc)
		return NULL;
	for (uint32_t v = 0; v < sc->nr_variants; v++)
		sc->v[v].end_time = sc->v[v].end_time * scale / wl->time_div;
	if (!g_uint64_checked_mul(&sc->limits.events, sc->limits.events, scale))
		sc->limits.events = UINT64_MAX;
	if (!g_uint64_checked_mul(&sc->limits.time_us, sc->limits.time_us, scale))
		sc->limits.time_us = UINT64_MAX;
	return sc;
}

static uint32_t actor_cpus(const struct variant *v)
{
	uint32_t n = 0;

	for (uint32_t a = 0; a < v->nr_actors; a++)
		n += v->actors[a].nr_cpus;
	return n;
}

/* One run of @wl in this process: every variant in turn, the figures summed. */
static struct bench_fig bench_here(const struct bench_wl *wl, uint64_t scale)
{
	struct bench_fig f = {.rss_before_kib = rss_kib()};
	struct c2c_err err = {0};
	struct scenario *sc = bench_load(wl, scale, &err);

	if (!sc) {
		fprintf(stderr, "%s\n", err.msg);
		f.status = 2;
		return f;
	}
	for (uint32_t v = 0; v < sc->nr_variants && !f.status; v++) {
		double t0 = cpu_seconds();
		struct run_result *r = run_variant(sc, v, false, &err);

		f.host_s += cpu_seconds() - t0;
		if (!r) {
			fprintf(stderr, "%s\n", err.msg);
			f.status = 1;
			break;
		}
		f.cpus = MAX(f.cpus, (int)actor_cpus(&sc->v[v]));
		f.machine_cpus = MAX(f.machine_cpus, sc->v[v].mc.nr_cpus);
		f.accesses += stats_accesses(r->mem);
		f.lines += stats_nr_lines(r->mem);
		f.events += r->events;
		f.sim_time += r->sim_time;
		run_result_free(r);
	}
	scenario_free(sc);
	return f;
}

/* One run of @wl in a child process.  Return: its figures, status 1 if the child died. */
static struct bench_fig bench_child(const struct bench_wl *wl, uint64_t scale)
{
	struct bench_fig f = {.status = 1};
	struct rusage ru;
	int fd[2], wst;
	pid_t pid;

	fflush(stdout);
	if (pipe(fd) < 0 || (pid = fork()) < 0) {
		fprintf(stderr, "c2csim: bench: cannot start a run: %s\n", g_strerror(errno));
		return f;
	}
	if (pid == 0) {
		close(fd[0]);
		f = bench_here(wl, scale);
		_exit(write(fd[1], &f, sizeof f) == (ssize_t)sizeof f ? 0 : 1);
	}
	close(fd[1]);
	if (read(fd[0], &f, sizeof f) != (ssize_t)sizeof f)
		f.status = 1;
	close(fd[0]);
	if (wait4(pid, &wst, 0, &ru) < 0 || !WIFEXITED(wst) || WEXITSTATUS(wst))
		f.status = f.status ? f.status : 1;
	f.peak_kib = ru.ru_maxrss;
	return f;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n values (sorts them). */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* @runs runs of @wl: the figures of the first, with host_s and peak_kib their medians. */
static struct bench_fig bench_median(const struct bench_wl *wl, uint64_t scale, int runs)
{
	g_autofree double *t = g_new(double, runs);
	g_autofree double *peak = g_new(double, runs);
	struct bench_fig first = {0};

	for (int i = 0; i < runs; i++) {
		struct bench_fig f = bench_child(wl, scale);

		if (f.status)
			return f;
		if (i == 0)
			first = f;
		t[i] = f.host_s;
		peak[i] = (double)f.peak_kib;
	}
	first.host_s = median(t, runs);
	first.peak_kib = (long)median(peak, runs);
	return first;
}

static void print_header(void)
{
	printf("%-16s %7s %10s %10s %9s %8s %8s %8s %9s %7s\n", "workload", "cpus", "accesses",
	       "events", "sim_us", "host_s", "Macc/s", "Mev/s", "peak_MiB", "B/line");
}

/* Bytes per touched line: what the run added to the resident set, per coherence unit. */
static void print_row(const char *name, const struct bench_fig *f)
{
	long grown = MAX(0, f->peak_kib - f->rss_before_kib);

	g_autofree char *cpus = g_strdup_printf("%d/%d", f->cpus, f->machine_cpus);

	printf("%-16s %7s %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %9.1f %8.3f %8.2f "
	       "%8.2f %9.1f %7.0f\n", name, cpus, f->accesses, f->events,
	       (double)f->sim_time / 1e6, f->host_s, (double)f->accesses / f->host_s / 1e6,
	       (double)f->events / f->host_s / 1e6, (double)f->peak_kib / 1024,
	       f->lines ? (double)grown * 1024 / (double)f->lines : 0.0);
}

/*
 * @runs runs of @a and of @b in turn (a b a b ...), their medians into *@fa and *@fb.
 * Return: the median, pair by pair, of b's host time per access over a's (so that a machine
 * whose speed drifts still gives a fair ratio), or -1 with *@fb's status set on a failure.
 */
static double bench_pair(const struct bench_wl *a, const struct bench_wl *b, uint64_t scale,
			 int runs, struct bench_fig *fa, struct bench_fig *fb)
{
	g_autofree double *ta = g_new(double, runs);
	g_autofree double *tb = g_new(double, runs);
	g_autofree double *ratio = g_new(double, runs);

	for (int i = 0; i < runs; i++) {
		struct bench_fig x = bench_child(a, scale);
		struct bench_fig y = x.status ? x : bench_child(b, scale);

		if (y.status) {
			fb->status = y.status;
			return -1;
		}
		if (i == 0) {
			*fa = x;
			*fb = y;
		}
		ta[i] = x.host_s;
		tb[i] = y.host_s;
		ratio[i] = (y.host_s / (double)y.accesses) / (x.host_s / (double)x.accesses);
	}
	fa->host_s = median(ta, runs);
	fb->host_s = median(tb, runs);
	return median(ratio, runs);
}

/* x10 events must cost at most x11 host time: one tenth of contended-80 against all of it. */
static int bench_linear(uint64_t scale, int runs)
{
	struct bench_fig a = {0}, b = {0};
	double per_access = bench_pair(&wl_tenth, &wl_table[0], scale, runs, &a, &b);

	if (per_access < 0)
		return b.status;
	print_row(wl_tenth.name, &a);
	print_row(wl_table[0].name, &b);
	printf("linear: x%.2f events cost x%.2f host time (at most x11 for x10)\n",
	       (double)b.events / (double)a.events,
	       per_access * (double)b.accesses / (double)a.accesses);
	return 0;
}

/* 256 simulated CPUs must cost at most twice as much per access as 16. */
static int bench_cpus(uint64_t scale, int runs)
{
	struct bench_fig a = {0}, b = {0};
	double per_access = bench_pair(&wl_cpus16, &wl_cpus256, scale, runs, &a, &b);

	if (per_access < 0)
		return b.status;
	print_row(wl_cpus16.name, &a);
	print_row(wl_cpus256.name, &b);
	printf("cpus: 256 CPUs cost x%.2f host time per access of 16 (at most x2)\n", per_access);
	return 0;
}

/* The limit probe's program: $C2CSIM_LIMIT_PROBE, else the one built beside c2csim. */
static char *probe_path(void)
{
	const char *env = g_getenv("C2CSIM_LIMIT_PROBE");

	return g_strdup(env ? env : C2CSIM_BUILDDIR "/limit-probe");
}

/* One run of the limit probe for @accesses accesses.  Return: its accesses per CPU second,
 * or 0 after saying why on stderr. */
static double probe_run(const char *probe, uint64_t accesses)
{
	g_autofree char *n = g_strdup_printf("%" G_GUINT64_FORMAT, accesses);
	g_autofree char *out = NULL;
	char *argv[] = {(char *)probe, "--accesses", n, NULL};
	g_autoptr(GError) gerr = NULL;
	uint64_t done = 0;
	double s = 0;
	int wst = 0;

	fflush(stdout);
	if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &wst, &gerr) ||
	    !g_spawn_check_wait_status(wst, &gerr)) {
		fprintf(stderr, "c2csim: bench: %s: %s\n", probe, gerr->message);
		return 0;
	}
	if (sscanf(out, "accesses %" G_GUINT64_FORMAT " host_s %lf", &done, &s) != 2 || s <= 0) {
		fprintf(stderr, "c2csim: bench: %s printed no figures\n", probe);
		return 0;
	}
	return (double)done / s;
}

/* contended-80 and the limit probe in turn, @runs pairs; the ratio is taken pair by pair so
 * that a machine whose speed drifts during the benchmark still gives a meaningful one. */
static int bench_vs_limit(uint64_t scale, int runs)
{
	g_autofree char *probe = probe_path();
	g_autofree double *c2c = g_new(double, runs);
	g_autofree double *lim = g_new(double, runs);
	g_autofree double *ratio = g_new(double, runs);

	if (!g_file_test(probe, G_FILE_TEST_IS_EXECUTABLE)) {
		fprintf(stderr, "c2csim bench: %s: no such program (expected tools/limit-probe, built "
			"with c2csim, or $C2CSIM_LIMIT_PROBE)\n", probe);
		return 2;
	}
	printf("%-16s %10s %10s %8s\n", "pair", "c2c_Macc/s", "lim_Macc/s", "ratio");
	for (int i = 0; i < runs; i++) {
		struct bench_fig f = bench_child(&wl_table[0], scale);

		if (f.status)
			return f.status;
		c2c[i] = (double)f.accesses / f.host_s;
		if (!(lim[i] = probe_run(probe, f.accesses)))
			return 1;
		ratio[i] = c2c[i] / lim[i];
		printf("%-16d %10.2f %10.2f %8.3f\n", i + 1, c2c[i] / 1e6, lim[i] / 1e6, ratio[i]);
	}
	printf("vs-limit: contended-80 %.2f M accesses/s, limit probe %.2f M/s, ratio %.3f "
	       "(medians of %d)\n", median(c2c, runs) / 1e6, median(lim, runs) / 1e6,
	       median(ratio, runs), runs);
	return 0;
}

struct bench_args {
	int scale, runs;
	gboolean vs_limit;
	char **only;
};

static GOptionEntry *bench_options(void *args)
{
	struct bench_args *a = args;
	GOptionEntry e[] = {
		{"scale", 0, 0, G_OPTION_ARG_INT, &a->scale,
		 "Multiply the simulated time of each workload by N (default 1)", "N"},
		{"runs", 0, 0, G_OPTION_ARG_INT, &a->runs,
		 "Run each workload N times and print the medians (default 5)", "N"},
		{"workload", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->only,
		 "Run only this workload, or linear, or cpus (repeatable; default: all)", "NAME"},
		{"vs-limit", 0, 0, G_OPTION_ARG_NONE, &a->vs_limit,
		 "Run contended-80 and tools/limit-probe in turn and print their ratio", NULL},
		G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

static bool wanted(const struct bench_args *a, const char *name)
{
	return !a->only || g_strv_contains((const char *const *)a->only, name);
}

/* A --workload NAME that is none of the benchmark's.  Return: it, or NULL. */
static const char *unknown_workload(const struct bench_args *a)
{
	for (char **p = a->only; p && *p; p++) {
		bool known = !strcmp(*p, "linear") || !strcmp(*p, "cpus") ||
			     !strcmp(*p, "line-bytes");

		for (size_t i = 0; i < G_N_ELEMENTS(wl_table); i++)
			known |= !strcmp(*p, wl_table[i].name);
		if (!known)
			return *p;
	}
	return NULL;
}

/*
 * The host memory of line state at scale: 256 CPUs (sapphire-rapids-2s-256) each load and
 * store 4096 lines of their own, 1 M lines in all, as per-CPU counters are; every 8th line is
 * then read by a second CPU, as a reader summing them does.  Printed: the bytes the memory
 * system holds per touched line (mem_line_bytes: directory, values, statistics).
 */
#define BENCH_LINES_PER_CPU 4096u

static int bench_line_bytes(void)
{
	g_autofree char *path = find_data_file("models/machines/sapphire-rapids-2s-256.yaml");
	struct c2c_err err = {0};
	struct yt_node *t = yt_load_file(path, &err);
	struct machine mc;
	struct mem *m;
	simtime_t now = 0;

	if (!t || !machine_load(&mc, t, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		yt_free(t);
		return 2;
	}
	m = mem_new(&mc, NULL, false);
	mem_track_lines(m, NULL, false); /* as runs do: shared lines keep their own counters */
	for (uint32_t i = 0; i < BENCH_LINES_PER_CPU; i++)
		for (int cpu = 0; cpu < mc.nr_cpus; cpu++, now += mc.cycle) {
			uint64_t a = ((uint64_t)cpu * BENCH_LINES_PER_CPU + i) << 6;

			now = mem_access(m, cpu, a, 8, MEM_LOAD, 0, now);
			now = mem_access(m, cpu, a, 8, MEM_STORE, 1, now);
			if (!(i & 7))
				now = mem_access(m, (cpu + 1) % mc.nr_cpus, a, 8, MEM_LOAD, 2, now);
		}
	printf("line state: %u lines touched by %d CPUs, %.1f bytes per line\n",
	       stats_nr_lines(m), mc.nr_cpus, (double)mem_line_bytes(m) / stats_nr_lines(m));
	mem_free(m);
	machine_release(&mc);
	yt_free(t);
	return 0;
}

static int bench_all(const struct bench_args *a)
{
	uint64_t scale = (uint64_t)a->scale;
	int status = 0;

	print_header();
	for (size_t i = 0; i < G_N_ELEMENTS(wl_table) && !status; i++) {
		struct bench_fig f;

		if (!wanted(a, wl_table[i].name))
			continue;
		f = bench_median(&wl_table[i], scale, a->runs);
		if (!(status = f.status))
			print_row(wl_table[i].name, &f);
	}
	if (!status && wanted(a, "linear"))
		status = bench_linear(scale, a->runs);
	if (!status && wanted(a, "cpus"))
		status = bench_cpus(scale, a->runs);
	if (!status && wanted(a, "line-bytes"))
		status = bench_line_bytes();
	return status;
}

static int cli_bench(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	struct bench_args a = {.scale = 1, .runs = 5};
	int status = cli_parse(cmd, prog, &a, &argc, &argv);
	const char *bad;

	if (status < 0) {
		if (a.scale < 1)
			status = cli_usage_error(prog, "--scale %d (expected a positive integer)",
						 a.scale);
		else if (a.runs < 1 || a.runs > 100)
			status = cli_usage_error(prog, "--runs %d (expected 1 to 100)", a.runs);
		else if ((bad = unknown_workload(&a)))
			status = cli_usage_error(prog, "unknown workload '%s' (expected contended-80, "
						 "uncontended-80, default-before, seed-000, linear, "
						 "cpus or line-bytes)", bad);
		else if (argc > 1)
			status = cli_usage_error(prog, "unexpected argument '%s'", argv[1]);
		else
			status = a.vs_limit ? bench_vs_limit((uint64_t)a.scale, a.runs) : bench_all(&a);
	}
	g_strfreev(a.only);
	return status;
}

const struct cli_cmd cli_bench_cmd = {
	"bench", "",
	"How fast the simulator runs: accesses and events per host second, memory, cost figures",
	"Workloads: contended-80 and uncontended-80 (scenarios/bench/), default-before (the "
	"default scenario's `before` variant), seed-000 (256 CPUs x 1000 memcgs).  Columns: "
	"simulated accesses and events, simulated microseconds, host CPU seconds of the run alone "
	"(loading and reporting excluded), millions of accesses and events per host second, the "
	"run's peak resident memory and what it grew per touched line.  Each figure is the median "
	"of --runs runs, each run in a process of its own.  Then `linear` (one tenth of "
	"contended-80 against all of it: x10 events must cost at most x11 time) and `cpus` (the "
	"contended loop on 256 CPUs against 16: at most x2 host time per access).\n"
	"--vs-limit runs only contended-80 and tools/limit-probe (a minimal directory DES; "
	"$C2CSIM_LIMIT_PROBE, else the one built with c2csim) in turn and prints the ratio of "
	"their accesses per second.",
	bench_options, sizeof(struct bench_args), cli_bench, NULL};
