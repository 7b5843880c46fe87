/* sweep.c - `c2csim sweep`: options, the sweep directory, local workers; see sweep.h. */
#include "sweep/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report/outdir.h"
#include "report/output.h"
#include "report/plot.h"

struct sweep_opts {
	char *out, *emit_jobs, *emit_slurm;
	char **axes, **sets, **rest;
	int jobs, point;
	gboolean no_resume, no_plot;
};

/* Set by SIGINT/SIGTERM: start nothing new, stop the workers, keep what finished. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static void catch_signals(void)
{
	struct sigaction sa = {.sa_handler = on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The grid of the command line: a sweep file, or a scenario with --axis. */
static struct sweep_grid *grid_of(const struct sweep_opts *o, struct c2c_err *err)
{
	struct sweep_grid *g;

	if (!o->rest || !o->rest[0] || o->rest[1]) {
		err_setf(err, "c2csim sweep: expected one SWEEP.yaml or SCENARIO (see c2csim sweep "
			 "--help)");
		return NULL;
	}
	if (!o->axes) {
		if (!(g = sweep_grid_load(o->rest[0], err)))
			return NULL;
	} else {
		g = sweep_grid_new(o->rest[0]);
		for (char **a = o->axes; *a; a++)
			if (!sweep_grid_add_axis(g, *a, err)) {
				sweep_grid_free(g);
				return NULL;
			}
	}
	for (char **s = o->sets; s && *s; s++) {
		if (!strchr(*s, '=') || **s == '=') {
			err_setf(err, "c2csim sweep: --set '%s' (expected KEY=VALUE)", *s);
			sweep_grid_free(g);
			return NULL;
		}
		g_ptr_array_add(g->sets, g_strdup(*s));
	}
	if (!sweep_grid_seal(g, err)) {
		sweep_grid_free(g);
		return NULL;
	}
	return g;
}

/* Remove what killed workers left: output.c's `.NNNN.tmp-PID` and `.NNNN.old-PID`. */
static void remove_leftovers(const char *points)
{
	GDir *d = g_dir_open(points, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(points, name, NULL);

		if (name[0] == '.' && g_ascii_isdigit(name[1]) &&
		    (strstr(name, ".tmp-") || strstr(name, ".old-")))
			outdir_rm_tree(path);
	}
	if (d)
		g_dir_close(d);
}

/*
 * Make @dir a sweep directory of @g: create it with sweep.yaml, or check the sweep.yaml it
 * has describes @g (then finished points are kept: resume).  A directory holding something
 * else is refused.  With @clean, what killed workers left is removed: only a local sweep
 * does that, as emitted jobs run side by side and one must not take another's temporary
 * directory.  Return: false with @err set.
 */
static bool prepare_dir(const struct sweep_grid *g, const char *dir, bool clean,
			struct c2c_err *err)
{
	g_autofree char *yaml = g_build_filename(dir, "sweep.yaml", NULL);
	g_autofree char *points = g_build_filename(dir, "points", NULL);
	g_autofree char *want = sweep_grid_text(g), *have = NULL;
	g_autoptr(GError) gerr = NULL;
	GDir *d;
	bool empty = true;

	if (g_file_get_contents(yaml, &have, NULL, NULL)) {
		if (strcmp(have, want)) {
			err_setf(err, "c2csim sweep: %s holds a sweep of another grid (expected the "
				 "same scenario, --set and axes; or another --out)", dir);
			return false;
		}
	} else if ((d = g_dir_open(dir, 0, NULL))) {
		empty = !g_dir_read_name(d);
		g_dir_close(d);
		if (!empty) {
			err_setf(err, "c2csim sweep: %s exists and is not a sweep directory (no "
				 "sweep.yaml); refusing to write into it", dir);
			return false;
		}
	}
	if (g_mkdir_with_parents(points, 0777)) {
		err_setf(err, "c2csim sweep: cannot create %s: %s", points, g_strerror(errno));
		return false;
	}
	if (!have && !g_file_set_contents(yaml, want, -1, &gerr)) {
		err_setf(err, "c2csim sweep: %s", gerr->message);
		return false;
	}
	if (clean)
		remove_leftovers(points);
	return true;
}

/* ------------------------------------------------------------------ workers */

struct worker {
	GPid pid;
	uint32_t point;
};

struct runner {
	const struct sweep_grid *g;
	const char *dir, *exe;
	GArray *pending;   /* uint32_t points still to run, in order */
	struct worker *w;  /* running, [0, nr_running) */
	int jobs, nr_running;
	uint32_t done, total, started, failed_point;
	int failed_status;  /* the failed worker's exit status (2: bad input) */
	bool failed, tty, verbose; /* tty: a progress bar; verbose: else a line per point */
	gint64 t0;
};

static char *log_path(const char *dir, uint32_t point)
{
	g_autofree char *pdir = sweep_point_dir(dir, point);

	return g_strconcat(pdir, ".log", NULL);
}

static bool spawn_point(struct runner *r, uint32_t point, struct c2c_err *err)
{
	g_autofree char *pdir = sweep_point_dir(r->dir, point);
	g_autofree char *log = log_path(r->dir, point);
	g_auto(GStrv) argv = sweep_point_argv(r->g, point, r->exe, pdir);
	g_autoptr(GError) gerr = NULL;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	GPid pid;
	bool ok = fd >= 0 &&
		  g_spawn_async_with_fds(NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
					 &pid, -1, fd, fd, &gerr);

	if (fd < 0)
		err_setf(err, "c2csim sweep: cannot create %s: %s", log, g_strerror(errno));
	else if (!ok)
		err_setf(err, "c2csim sweep: cannot start %s: %s", r->exe, gerr->message);
	if (fd >= 0)
		close(fd);
	if (ok)
		r->w[r->nr_running++] = (struct worker){pid, point};
	return ok;
}

/* A worker ended with @status: finish its point, or record the failure. */
static void reap(struct runner *r, int k, int status, struct c2c_err *err)
{
	uint32_t point = r->w[k].point;
	g_autofree char *pdir = sweep_point_dir(r->dir, point);
	g_autofree char *log = log_path(r->dir, point);

	r->w[k] = r->w[--r->nr_running];
	if (WIFEXITED(status) && !WEXITSTATUS(status) &&
	    sweep_point_finish(r->g, point, pdir, err)) {
		unlink(log);
		r->done++;
		if (!r->tty && r->verbose)
			fprintf(stderr, "c2csim sweep: point %u done (%u/%u)\n", point, r->done,
				r->total);
		return;
	}
	if (!interrupted && !r->failed) {
		r->failed = true;
		r->failed_point = point;
		r->failed_status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
}

/* The progress bar: points done, running, and an estimate from this run's pace. */
static void progress(const struct runner *r)
{
	enum { WIDTH = 30 };
	char bar[WIDTH + 1];
	uint32_t fill = r->total ? r->done * WIDTH / r->total : WIDTH;
	uint32_t finished_here = r->started - (uint32_t)r->nr_running;
	double el = (double)(g_get_monotonic_time() - r->t0) / 1e6;
	/* This run's pace, all workers together, times what is left. */
	double eta = finished_here ? el / finished_here * (r->total - r->done) : 0;

	if (!r->tty)
		return;
	memset(bar, '#', fill);
	memset(bar + fill, '.', WIDTH - fill);
	bar[WIDTH] = 0;
	fprintf(stderr, "\r[%s] %u/%u done, %d running, ", bar, r->done, r->total, r->nr_running);
	if (finished_here)
		fprintf(stderr, "~%d:%02d left  ", (int)eta / 60, (int)eta % 60);
	else
		fputs("estimating    ", stderr);
}

static void stop_workers(struct runner *r)
{
	for (int k = 0; k < r->nr_running; k++)
		kill(r->w[k].pid, SIGINT);
}

/* Run the pending points on r->jobs workers until all ended, one failed (r->failed) or a
 * signal came (interrupted); then wait for the running ones.  Can't fail: a worker that
 * cannot start sets r->failed and @err. */
static void run_pending(struct runner *r, struct c2c_err *err)
{
	guint next = 0;
	bool stopping = false;
	struct timespec nap = {0, 50 * 1000 * 1000};

	while (next < r->pending->len || r->nr_running) {
		int status;
		pid_t pid;

		while (!interrupted && !r->failed && r->nr_running < r->jobs &&
		       next < r->pending->len) {
			if (!spawn_point(r, g_array_index(r->pending, uint32_t, next++), err))
				r->failed = true;
			else
				r->started++;
		}
		if ((interrupted || r->failed) && !stopping) {
			stopping = true;
			next = r->pending->len;
			if (interrupted)
				stop_workers(r);
		}
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			for (int k = 0; k < r->nr_running; k++)
				if (r->w[k].pid == pid) {
					reap(r, k, status, err);
					break;
				}
		progress(r);
		if (r->nr_running)
			nanosleep(&nap, NULL);
	}
	if (r->tty)
		fputc('\n', stderr);
}

/* The binary workers run: this very program. */
static char *self_exe(void)
{
	char *exe = g_file_read_link("/proc/self/exe", NULL);

	return exe ? exe : g_strdup("c2csim");
}

/* Merge into DIR/sweep.csv and draw the sweep curves when gnuplot is there. */
static int finish_sweep(const struct sweep_opts *o, const char *dir, uint32_t total)
{
	g_autofree char *csv = g_build_filename(dir, "sweep.csv", NULL);
	g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
	const char *dirs[] = {dir};
	struct c2c_err err = {0};
	int n = sweep_merge(dirs, 1, csv, NULL, &err);

	if (n < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	fprintf(stderr, "c2csim: %d of %u points in %s\n", n, total, csv);
	if (o->no_plot)
		return 0;
	if (!gnuplot) {
		fprintf(stderr, "c2csim sweep: gnuplot not found; no plots (install gnuplot, then "
			"c2csim plot %s)\n", dir);
		return 0;
	}
	if (!plot_dir(dir, NULL, PLOT_PNG | PLOT_SVG, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	return 0;
}

/* The failure of r->failed_point into @err: the last line of its log.  Return: the status. */
static int report_failure(const struct runner *r, struct c2c_err *err)
{
	g_autofree char *log = log_path(r->dir, r->failed_point);
	g_autofree char *text = NULL;
	char *last;

	g_file_get_contents(log, &text, NULL, NULL);
	last = text ? g_strstrip(text) : NULL;
	if (last && strrchr(last, '\n'))
		last = strrchr(last, '\n') + 1;
	err_setf(err, "c2csim sweep: point %u failed: %s (log: %s)", r->failed_point,
		 last && *last ? last : "no output", log);
	return r->failed_status == 2 ? 2 : 1;
}

/* Run every unfinished point of @g in @dir (all of them, or only @point >= 0) on @jobs
 * workers (0: one per CPU).  Return: 0, or 1, 2, 130 with @err set. */
static int run_points(const struct sweep_grid *g, const char *dir, int jobs, int point,
		      bool verbose, struct c2c_err *err)
{
	g_autofree char *exe = self_exe();
	struct runner r = {.g = g, .dir = dir, .exe = exe,
			   .total = point >= 0 ? 1 : g->nr_points,
			   .jobs = jobs > 0 ? jobs : (int)g_get_num_processors(),
			   .tty = verbose && isatty(STDERR_FILENO) && point < 0,
			   .verbose = verbose, .t0 = g_get_monotonic_time()};
	int status = 0;

	r.pending = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	for (uint32_t p = 0; p < g->nr_points; p++) {
		g_autofree char *pdir = sweep_point_dir(dir, p);

		if (point >= 0 && (uint32_t)point != p)
			continue;
		if (sweep_point_done(pdir))
			r.done++;
		else
			g_array_append_val(r.pending, p);
	}
	if (r.done && point < 0 && verbose)
		fprintf(stderr, "c2csim sweep: resuming %s: %u of %u points already done\n", dir,
			r.done, r.total);
	r.w = g_new0(struct worker, r.jobs);
	catch_signals();
	run_pending(&r, err);
	if (interrupted) {
		err_setf(err, "c2csim sweep: interrupted; %u of %u points done (rerun the same "
			 "command to finish)", r.done, r.total);
		status = 130;
	} else if (r.failed) {
		status = err->set ? 2 : report_failure(&r, err);
	}
	g_array_free(r.pending, TRUE);
	g_free(r.w);
	return status;
}

int sweep_run_points(const struct sweep_grid *g, const char *dir, int jobs, bool verbose,
		     struct c2c_err *err)
{
	return prepare_dir(g, dir, true, err) ? run_points(g, dir, jobs, -1, verbose, err) : 2;
}

/* Run the points of the command line, then merge (unless it ran only --point N). */
static int run_sweep(const struct sweep_opts *o, const struct sweep_grid *g, const char *dir)
{
	struct c2c_err err = {0};
	int status = run_points(g, dir, o->jobs, o->point, true, &err);

	if (status) {
		fprintf(stderr, "%s\n", err.msg);
		return status;
	}
	return o->point >= 0 ? 0 : finish_sweep(o, dir, g->nr_points);
}

/* The default sweep directory: results/sweep-<scenario file name without .yaml>. */
static char *default_out(const struct sweep_grid *g)
{
	g_autofree char *base = g_path_get_basename(g->scenario);
	char *dot = strrchr(base, '.');

	if (dot && !strcmp(dot, ".yaml"))
		*dot = 0;
	return g_strdup_printf("results/sweep-%s", base);
}

static bool is_sweep_dir(const char *dir)
{
	g_autofree char *yaml = g_build_filename(dir, "sweep.yaml", NULL);

	return g_file_test(yaml, G_FILE_TEST_IS_REGULAR);
}

static int sweep_with(const struct sweep_opts *o, struct sweep_grid *g)
{
	g_autofree char *out = o->out ? g_strdup(o->out) : default_out(g);
	g_autofree char *dir = g_canonicalize_filename(out, NULL);
	g_autofree char *exe = self_exe();
	struct c2c_err err = {0};

	if (o->point >= 0 && (uint32_t)o->point >= g->nr_points) {
		fprintf(stderr, "c2csim sweep: --point %d (expected 0 to %u)\n", o->point,
			g->nr_points - 1);
		return 2;
	}
	if (o->no_resume && o->point < 0 && is_sweep_dir(dir))
		outdir_rm_tree(dir); /* only a sweep: a mistyped --out must not be deleted */
	if (!prepare_dir(g, dir, o->point < 0 && !o->emit_jobs && !o->emit_slurm, &err) ||
	    (o->emit_jobs && !sweep_emit(g, exe, dir, o->emit_jobs, false, &err)) ||
	    (o->emit_slurm && !sweep_emit(g, exe, dir, o->emit_slurm, true, &err))) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	if (o->emit_jobs || o->emit_slurm) {
		fprintf(stderr, "c2csim sweep: %u points of %s written to %s; after they ran: "
			"c2csim merge %s\n", g->nr_points, dir,
			o->emit_jobs ? o->emit_jobs : o->emit_slurm, dir);
		return 0;
	}
	return run_sweep(o, g, dir);
}

int sweep_main(int argc, char **argv)
{
	struct sweep_opts o = {.point = -1};
	GOptionEntry entries[] = {
		{"jobs", 'j', 0, G_OPTION_ARG_INT, &o.jobs, "worker processes (default: the "
		 "number of CPUs)", "N"},
		{"out", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "sweep directory (default "
		 "results/sweep-SCENARIO)", "DIR"},
		{"axis", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.axes, "an axis: a --set key or "
		 "'variant', with its values (repeatable)", "KEY=V1|V2|..."},
		{"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "override for every point "
		 "(repeatable)", "KEY=VALUE"},
		{"emit-jobs", 0, 0, G_OPTION_ARG_FILENAME, &o.emit_jobs, "write one command line "
		 "per point for GNU parallel, run nothing", "FILE"},
		{"emit-slurm", 0, 0, G_OPTION_ARG_FILENAME, &o.emit_slurm, "write a Slurm job-array "
		 "script (task N runs point N), run nothing", "FILE.sbatch"},
		{"point", 0, 0, G_OPTION_ARG_INT, &o.point, "run only point N (what emitted jobs "
		 "do)", "N"},
		{"no-resume", 0, 0, G_OPTION_ARG_NONE, &o.no_resume, "start over: remove the sweep "
		 "directory first", NULL},
		{"no-plot", 0, 0, G_OPTION_ARG_NONE, &o.no_plot, "do not draw the sweep curves", NULL},
		{G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.rest, NULL, NULL},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	GOptionContext *ctx = g_option_context_new("SWEEP.yaml|SCENARIO - run a grid of points "
						   "and merge them into sweep.csv");
	g_autoptr(GError) gerr = NULL;
	struct c2c_err err = {0};
	struct sweep_grid *g = NULL;
	int status = 2;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &gerr))
		fprintf(stderr, "c2csim sweep: %s (see c2csim sweep --help)\n", gerr->message);
	else if (!(g = grid_of(&o, &err)))
		fprintf(stderr, "%s\n", err.msg);
	else
		status = sweep_with(&o, g);
	g_option_context_free(ctx);
	sweep_grid_free(g);
	g_free(o.out);
	g_free(o.emit_jobs);
	g_free(o.emit_slurm);
	g_strfreev(o.axes);
	g_strfreev(o.sets);
	g_strfreev(o.rest);
	return status;
}
