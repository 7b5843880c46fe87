/*
 * verdict.h - the report's answer: the first screen (scenario, machine, variants, headline
 * table with verdicts and published figures, expectations) and the variants-against-baseline
 * table that follows the perf-c2c sections.
 *
 * Both read the run's own summary (metrics.h), so they show exactly what summary.yaml holds.
 * The baseline is `--baseline NAME`, else the scenario's `report: {baseline: NAME}`, else the
 * first variant; `report: {tolerance_pct: P}` lets changes within P percent count as "same"
 * (default 0: runs are deterministic, so same means equal to the last digit).
 *
 * First screen (under 40 lines and 120 columns for the shipped scenarios):
 *
 *   c2csim: 002-lruvec-prefetch - seed 002: pn line 0 pulled in pairs ...
 *   machine skylake-sp-2s, seed 1, 2000.000 us simulated, baseline before
 *
 *   headline / variant            simulated   per 1k ops    published  vs before
 *   pn line 0 HITMs from the stat update paths (HITMs, lower is better)
 *     before                          12863       1236.0         2350  baseline
 *     after                               0            0           10  better -100.0%
 *   ...
 *   Expectations: 6 of 7 hold, 0 failed, 1 known gap, 0 skipped
 *     gap   after-80.ops_per_sec / ... (1.20 vs 1.09)
 */
#ifndef C2C_VERDICT_H
#define C2C_VERDICT_H

#include <stdio.h>

#include "report/expect.h"
#include "report/metrics.h"
#include "scenario/scenario.h"

/* The report options the verdicts take from the scenario and the command line. */
struct verdict_opts {
	const char *baseline; /* variant name; NULL: the scenario's report.baseline, else first */
	double tol_pct;       /* a change within this counts as same */
};

/*
 * verdict_opts_load - fill @o from @sc's `report:` (baseline, tolerance_pct), keeping a
 * baseline already set (the command line's).  Return: false with @err set when the baseline
 * is not a variant of @sc, or the tolerance is not a number in [0, 100].
 */
bool verdict_opts_load(struct verdict_opts *o, const struct scenario *sc, struct c2c_err *err);

/* verdict_screen - the first screen of the report, to @f.  Can't fail. */
void verdict_screen(FILE *f, const struct scenario *sc, const struct msummary *s,
		    const struct verdict_opts *o, const struct expect_set *es);

/* verdict_table - each variant against the baseline, metric by metric, to @f (nothing for a
 * single variant).  Can't fail. */
void verdict_table(FILE *f, const struct msummary *s, const struct verdict_opts *o);

struct run_result;

/* verdict_summary - the metrics of @runs[0..nr) read back from the summary.yaml text they
 * write (output.h), into @s.  Return: false with @err set (an internal error). */
bool verdict_summary(const struct scenario *sc, struct run_result *const *runs, uint32_t nr,
		     struct msummary *s, struct c2c_err *err);

/*
 * verdict_report - the whole stdout report of @runs[0..nr) (the variants of @sc): the first
 * screen, then (unless @brief) each variant's perf-c2c report and the variants-against-
 * baseline table.  @failed_out (may be NULL) receives the number of failed expectations, and
 * with @fail_log each failure is also printed there as `file:line:col: expectation failed`.
 * Return: the text (caller frees), or NULL with @err set when the run's own summary cannot be
 * read back (an internal error).
 */
char *verdict_report(const struct scenario *sc, struct run_result *const *runs, uint32_t nr,
		     const struct verdict_opts *o, const struct expect_set *es, bool brief,
		     uint32_t *failed_out, FILE *fail_log, struct c2c_err *err);

#endif
