/*
 * report.h - the stdout report: what `perf c2c report --stdio` shows, for one simulated run.
 *
 * Design
 * ------
 * The report reads a finished struct run_result and never re-runs anything.  Sections, in
 * order (perf c2c's names, so kernel developers find their way):
 *
 *   header                       scenario, variant, machine, seed, simulated time, events
 *   Trace Event Information      every per-line counter of the registry (stats.h), summed
 *   Global Shared Cache Line ... how many lines were touched, shared, HITM'd
 *   Shared Data Cache Line Table one row per shared line (or 128-byte pair, --double-cl)
 *   Shared Cache Line Distribution Pareto
 *                                per row of the table, its (offset, code site) rows
 *
 * A line is "shared" (report_line_shared) when demand accesses came from more than one CPU or
 * it saw a HITM or a prefetch HITM: the last catches a line written by one CPU whose copy the
 * adjacent-line prefetcher of another core stole.  With report.group = pair, lines whose
 * addresses differ only in bit 6 are merged (perf c2c --double-cl); offsets are then within
 * the 128-byte pair.
 *
 * Determinism: byte-identical output on every host is a requirement, so there is no floating
 * point (percentages are tenths computed with integers and truncated, averages are integer
 * divisions), every sort ends on the line address (unique), and nothing host-dependent
 * (pointers, locale, terminal width) is printed.  Column widths are fixed, except the
 * object and code-site columns, which are as wide as their longest entry in this run.
 */
#ifndef C2C_REPORT_H
#define C2C_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mem.h"
#include "run.h"
#include "scenario.h"
#include "stats.h"

/*
 * report_print - write the perf-c2c-style report of run @r (variant @v of @sc) to @f.
 * Uses v->report: group (line or 128-byte pair), sort (tot, lcl or rmt HITMs, descending,
 * ties by address) and lines (rows of the cacheline table; 0 means no limit).
 * Can't fail; write errors are the stream's (check ferror(@f)).  Nothing is kept.
 */
void report_print(FILE *f, const struct scenario *sc, const struct variant *v,
		  const struct run_result *r);

/*
 * report_compare - write a side-by-side table of the totals of @runs[0..nr) (the variants of
 * one scenario): one row per metric, one column per run, and the ratio last/first with
 * three decimals ("-" when the first is 0).  Actors are matched by name; an actor missing in
 * a run prints "-".  Can't fail; does nothing for @nr == 0.
 */
void report_compare(FILE *f, struct run_result *const *runs, uint32_t nr);

/* report_totals - @tot[i] = the sum of counter i over every line of @m.  Can't fail. */
void report_totals(const struct mem *m, uint64_t tot[LS_COUNT]);

/*
 * report_line_shared - does directory line @idx of @m belong in the reports?  True when
 * demand accesses came from more than one CPU, or the line saw a (demand or prefetch) HITM.
 * The cacheline table, the Pareto and summary.yaml all select lines with this.
 */
bool report_line_shared(const struct mem *m, uint32_t idx);

#endif
