/*
 * output.h - the results directory: machine-readable, self-describing, written atomically.
 *
 * Design
 * ------
 * One directory per scenario run (all its variants), with stable keys so scripts and the
 * merge step can read it without knowing the simulator:
 *
 *   summary.yaml       version, scenario, seed; per variant: totals, actors, hottest lines
 *   lines.csv          every shared line (more than one CPU, or HITMs) of every variant: `variant,address,object,line,cpus,`
 *                      then one column per per-line counter of the registry (stats.h)
 *   offsets.csv        every (line, offset, code site, caller) row of those lines: `variant,
 *                      address,object,member,offset,site,caller,cpus,` and a column per
 *                      per-offset counter of the registry; caller is the call site one frame up, `-` for
 *                      a top-level path
 *   locks_hist.csv     lock wait and hold times in power-of-two buckets (output_plot.h)
 *   layout.csv         the members of the objects holding shared lines (output_plot.h)
 *   report.txt         the stdout report, verbatim
 *   scenario.yaml      a verbatim copy of the scenario file
 *   params/NAME.yaml   the effective parameter tree each variant ran with (overrides applied)
 *   .c2csim-results    the marker: c2csim's version and the files above (outdir.h)
 *
 * CSV and YAML keys come from the statistics registry (lstat_info, ostat_info), never retyped,
 * so a new counter appears in every file at once.  Row order is first-touch order of the
 * lines (deterministic), then offset, then code site, then caller; CSV fields holding a comma,
 * a quote or a line break are quoted as RFC 4180 says (lines end in LF).
 *
 * summary.yaml, in this order (strings double-quoted when yt_needs_quotes() says so):
 *
 *   c2csim_version: "0.1.0"
 *   scenario: NAME
 *   scenario_file: PATH
 *   seed: N                         # the first variant's seed
 *   complete: true                  # false: interrupted, the results so far
 *   variants:
 *     NAME:
 *       complete: true
 *       machine: skylake-sp-2s
 *       seed: N
 *       sim_time_ps: N
 *       events: N
 *       accesses: N
 *       hitm: {local: N, remote: N, prefetch: N}
 *       loads: N
 *       stores: N
 *       headline:                   # or "headline: []"; the scenario's (headline.h)
 *         - {id: ID, name: NAME, metric: hitm, value: N, unit: HITMs, per_op: X,
 *            published: N|"text"}   # per_op where normalisable, published where declared
 *       actors:                     # or "actors: []"
 *         - {name: inc, threads: N, iterations: N}
 *       throughput: {ops_per_sec: N, actors: [{name: inc, ops_per_sec: N}]}
 *       locks:                      # or "locks: []"; locks taken, in first-use order
 *         - {name: "root.pn[0].lruvec.lru_lock", address: "0x...", acquisitions: N,
 *            contentions: N, con_bounces: N, acq_bounces: N, wait_min_ps: N, wait_avg_ps: N,
 *            wait_max_ps: N, wait_total_ps: N, hold_min_ps: N, hold_avg_ps: N, hold_max_ps: N,
 *            hold_total_ps: N, wait_p50_ps: N, wait_p99_ps: N, hold_p50_ps: N,
 *            hold_p99_ps: N}
 *       paths:                      # or "paths: []"; paths called, in program order
 *         - {name: try_charge, calls: N, mean_ps: N, p50_ps: N, p99_ps: N, max_ps: N,
 *            top_calls: N, lines_touched: N, remote_fetches: N}
 *       counters:                   # or "counters: []"; counters read, in program order
 *         - {name: X, reads: N, truth: N, read: N, max_abs_error: N}
 *       lines:                      # or "lines: []"; at most 64, hottest first
 *         - {address: "0x10000000", object: counter, line: 0, hitm_local: N, hitm_remote: N,
 *            hitm_prefetch: N, loads: N, stores: N, store_l1_miss: N, cpus: N, <every other
 *            per-line counter of the registry, by its key>}
 *
 * `throughput` is completed actor-loop iterations per simulated second (integer, truncated).
 * locks, paths and counters come from the path interpreter (run_result.world) and are empty
 * for raw-access runs, but always present so the keys are stable.  Wait statistics are of
 * contended acquisitions only; percentiles are report_dist_of()'s.  lines_touched and
 * remote_fetches are totals over the top_calls top-level calls; truth and read are the last
 * observed read and the exact value at that moment.
 *
 * `lines` holds the lines report_line_shared() selects, sorted by local + remote HITMs, then
 * prefetch HITMs, then stores (all descending), then address.  `object` is the name of the
 * object the line starts in ("-" for none) and `line` the 64-byte line index inside it
 * (-1 for none).
 *
 * `complete` (top level and per variant) is true unless the run was interrupted (SIGINT or
 * SIGTERM, see runwatch.h): then the interrupted variant says false with the simulated time
 * it reached, variants not started are absent, and report.txt starts with an INCOMPLETE line.
 *
 * The directory itself (which DIR may be replaced, the marker file .c2csim-results, the
 * atomic swap and the cleanup after killed runs) is outdir.h's.
 */
#ifndef C2C_OUTPUT_H
#define C2C_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

/* Lines listed per variant in summary.yaml. */
#define OUTPUT_SUMMARY_LINES 64

/*
 * output_write - write the results directory @dir for @runs[0..nr) of @sc, where runs[i] is
 * the result of the variant named runs[i]->variant (else of sc->v[i]), and @report_text is
 * the stdout report (NULL: empty report.txt).  Missing parents of @dir are created; an
 * existing @dir is replaced as a whole when outdir.h's rules allow it, else refused.  scenario.yaml is copied from
 * sc->path (skipped when sc->path is NULL).
 * Return: true on success; false with @err set to "cannot write results to DIR: reason" and
 * nothing left behind (the temporary directory is removed; an old DIR is kept or restored).
 * The caller keeps ownership of everything passed in.
 */
bool output_write(const char *dir, const struct scenario *sc, struct run_result *const *runs,
		  uint32_t nr, const char *report_text, struct c2c_err *err);

/* output_summary - the summary.yaml text output_write() writes, to @f.  Can't fail. */
void output_summary(FILE *f, const struct scenario *sc, struct run_result *const *runs,
		    uint32_t nr);
/* output_complete - did @runs[0..nr) run to their end, every variant of @sc (NULL: any)?
 * False when a run was interrupted (run_result.interrupted) or variants were not run. */
bool output_complete(const struct scenario *sc, struct run_result *const *runs, uint32_t nr);

/* output_incomplete_line - the report's first line for an incomplete run, stopped by @why
 * ("SIGINT"): where the last run stopped and which variants did not run. */
void output_incomplete_line(FILE *f, const struct scenario *sc, struct run_result *const *runs,
			    uint32_t nr, const char *why);

#endif
