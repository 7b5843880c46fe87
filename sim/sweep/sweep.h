/*
 * sweep.h - `c2csim sweep` and `c2csim merge`: a grid of runs, on local workers or on
 * existing engines (GNU parallel, Slurm), merged into one table.
 *
 * Design
 * ------
 * A grid is a scenario, base overrides (`--set`) and axes: each a `--set` key with its values,
 * or `variant` (run only that variant).  Points are the Cartesian product, numbered from 0 in
 * row-major order (the last axis changes fastest).  A point is one `c2csim run` of the same
 * binary as a worker process, so points share nothing and a point's results are the same
 * whichever worker, host or -j ran it.  The sweep directory:
 *
 *   sweep.yaml           the grid, canonical (absolute scenario path): `c2csim sweep
 *                        DIR/sweep.yaml --out DIR` reruns or resumes it anywhere
 *   points/NNNN/         point NNNN's results directory (output.h), plus
 *   points/NNNN/point.yaml   `point: N`, `of: POINTS` (the grid's size) and `axes: {KEY:
 *                        VALUE, ...}`, written last and atomically: a point is finished
 *                        exactly when this file exists
 *   points/NNNN.log      a worker's stdout and stderr, kept only when the point failed
 *   sweep.csv            the merge (below); plots/ the sweep curves (plot.h)
 *
 * sweep.csv: one row per (point, variant the point ran), in point order, then the variants'
 * order in its summary.yaml.  Columns: `point`, one per axis other than variant (its values),
 * `variant`, the totals (sweep_total_cols below, from summary.yaml), `complete` (the top-level
 * key of summary.yaml, empty when absent), then one column per headline metric name (the
 * variants' `headline:` entries, `value`; names in first-seen order; empty where a variant has
 * none).  plot_sweep() relies on this order: axes between `point` and `variant`, headline
 * metrics after `complete`.
 *
 * Resume: a sweep into a directory holding the same grid's sweep.yaml skips finished points;
 * a different grid is refused.  SIGINT or SIGTERM: no new point starts, the running workers
 * get SIGINT (their results directories are written atomically, so a killed point leaves only
 * dot-directories, which the next start removes), exit status 130.
 */
#ifndef C2C_SWEEP_H
#define C2C_SWEEP_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"

/* Limits, named: points of one grid, values of one axis. */
#define SWEEP_MAX_POINTS 100000
#define SWEEP_POINT_DIGITS 4 /* points/NNNN: at least this many digits */

struct sweep_axis {
	char *key;        /* a --set key, or "variant" */
	GPtrArray *values; /* owned strings */
};

struct sweep_grid {
	char *scenario;   /* absolute path */
	GPtrArray *sets;  /* base overrides "KEY=VALUE", owned */
	GArray *axes;     /* struct sweep_axis */
	uint32_t nr_points;
};

/* sweep_main - `c2csim sweep`; argv[0] is "sweep".  Return: 0, 1 (a point failed), 2 (bad
 * input or usage), 130 (interrupted). */
int sweep_main(int argc, char **argv);

/* merge_main - `c2csim merge [--out DIR] DIR...`.  Return: 0 or 2. */
int merge_main(int argc, char **argv);

/* sweep_run_points - make @dir a sweep directory of @g (or resume the one it is) and run its
 * unfinished points on @jobs local workers (0: one per CPU), without merging them; progress
 * on stderr when @verbose.  Workers are this program (`c2csim run`), so a point is what `c2csim
 * sweep` would make of it.  Return: 0; 1 (a point failed), 2 (bad input or a directory that
 * cannot be written), 130 (interrupted), each with @err set. */
int sweep_run_points(const struct sweep_grid *g, const char *dir, int jobs, bool verbose,
		     struct c2c_err *err);

/* sweep_grid_load - the grid of the sweep file @path.  Return: NULL with @err set. */
struct sweep_grid *sweep_grid_load(const char *path, struct c2c_err *err);

/* sweep_grid_new - an empty grid of @scenario (made absolute).  Can't fail. */
struct sweep_grid *sweep_grid_new(const char *scenario);

/* sweep_grid_add_axis - "KEY=V1|V2|..." (--axis).  Return: false with @err set. */
bool sweep_grid_add_axis(struct sweep_grid *g, const char *spec, struct c2c_err *err);

/* sweep_grid_seal - count the points.  Return: false with @err for no axis, an empty axis,
 * a key given twice or more than SWEEP_MAX_POINTS points. */
bool sweep_grid_seal(struct sweep_grid *g, struct c2c_err *err);

void sweep_grid_free(struct sweep_grid *g);

/* sweep_grid_text - the canonical sweep.yaml of @g.  Caller g_free()s. */
char *sweep_grid_text(const struct sweep_grid *g);

/* sweep_point_value - the value of axis @axis at point @point. */
const char *sweep_point_value(const struct sweep_grid *g, uint32_t point, uint32_t axis);

/* sweep_point_argv - the `c2csim run` command line of @point (argv[0] is @exe), writing into
 * @dir.  Caller g_strfreev()s. */
char **sweep_point_argv(const struct sweep_grid *g, uint32_t point, const char *exe,
			const char *dir);

/* sweep_point_dir - DIR/points/NNNN.  Caller g_free()s. */
char *sweep_point_dir(const char *dir, uint32_t point);

/* sweep_point_finish - write @pdir/point.yaml (atomically) for @point.  Return: false with
 * @err set. */
bool sweep_point_finish(const struct sweep_grid *g, uint32_t point, const char *pdir,
			struct c2c_err *err);

/* sweep_point_done - does @pdir hold a finished point? */
bool sweep_point_done(const char *pdir);

/* sweep_merge - merge the points found in @dirs (sweep or point directories) into
 * @csv_path, written atomically.  @missing (may be NULL) gets the numbers of the grid's
 * points that were not found ("2, 5, 7"; empty when none or the grid size is unknown).
 * Return: the number of points merged, or -1 with @err set (no point, a point twice, points
 * of different axes, a bad summary.yaml). */
int sweep_merge(const char *const *dirs, uint32_t nr, const char *csv_path, GString *missing,
		struct c2c_err *err);

/* sweep_emit - write the job list (@slurm false: one command line per point for GNU parallel)
 * or the Slurm array script (@slurm true) for the sweep in @dir to @path.  Return: false
 * with @err set. */
bool sweep_emit(const struct sweep_grid *g, const char *exe, const char *dir, const char *path,
		bool slurm, struct c2c_err *err);

#endif
