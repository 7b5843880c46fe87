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
 * then, from report_paths.c, for every run with actors (raw accesses or kernel paths):
 *
 *   Throughput                   actor-loop iterations per simulated second, total and per actor
 *
 * and, when the run executed kernel paths (run_result.world is set):
 *
 *   Lock statistics              /proc/lock_stat's columns per lock (named by objmap_label),
 *                                plus wait and hold percentiles; locks never taken are left out
 *   Path costs                   per path called: calls, latency mean/p50/p99/max, lines touched
 *                                and remote fetches per top-level call
 *   Counter accuracy             per approximate counter read: the last truth and read value,
 *                                and the largest error any read saw
 *
 * Times there are nanoseconds with two decimals and per-call ratios have one, both truncated
 * integer divisions of picosecond totals.  Percentiles take the rank samples_percentile()
 * (interp.h) takes, on a sorted copy: a report never reorders the run it is given.
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

#include "mem/mem.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "mem/stats.h"

/*
 * report_print - write the perf-c2c-style report of run @r (variant @v of @sc) to @f.
 * Uses v->report: group (line or 128-byte pair), sort (tot, lcl or rmt HITMs, descending,
 * ties by address) and lines (rows of the cacheline table; 0 means no limit).
 * Can't fail; write errors are the stream's (check ferror(@f)).  Nothing is kept.
 */
void report_print(FILE *f, const struct scenario *sc, const struct variant *v,
		  const struct run_result *r);

/* The distribution of a struct samples (interp.h) as the reports print it; all 0 when empty. */
struct report_dist {
	uint64_t nr, min, max, total, avg, p50, p99;
};

struct samples;
struct program;

/* report_dist_of - fill @d from @s without touching @s.  Can't fail. */
void report_dist_of(const struct samples *s, struct report_dist *d);

/* report_iterations - completed actor-loop iterations of @r, all actors. */
uint64_t report_iterations(const struct run_result *r);

/* report_ops_per_sec - @iterations per simulated second of @sim_time ps: integer math,
 * truncated, 0 for no time, saturating at UINT64_MAX. */
uint64_t report_ops_per_sec(uint64_t iterations, simtime_t sim_time);

/* report_prog - the program the statistics of @r->world are indexed by (the world's, else
 * @r->prog), or NULL. */
const struct program *report_prog(const struct run_result *r);

/* report_lock_name - the lock at @addr as the reports name it: "root.pn[0].lruvec.lru_lock",
 * "obj+0x8" or "-".  Caller g_free()s. */
char *report_lock_name(const struct run_result *r, uint64_t addr);

/* report_totals - @tot[i] = the sum of counter i over every line of @m.  Can't fail. */
void report_totals(const struct mem *m, uint64_t tot[LS_COUNT]);

/*
 * report_line_shared - does directory line @idx of @m belong in the reports?  True when
 * demand accesses came from more than one CPU, or the line saw a (demand or prefetch) HITM.
 * The cacheline table, the Pareto and summary.yaml all select lines with this.
 */
bool report_line_shared(const struct mem *m, uint32_t idx);

/* ---- shared by report.c, report_paths.c and report_table.c only ----------------------- */

#define REPORT_CELL 32 /* a formatted number or percentage, with room to spare */
/* the rule under a table's titles and the dashes of its group line */
#define REPORT_DASHES "----------------------------------------------------------------------"

/* One column of a fixed-width table. */
struct report_col {
	const char *group; /* title over a run of columns with the same group, "" for none */
	const char *title;
	int width;         /* the last column may be 0: printed unpadded */
	bool left;         /* text, left-aligned; numbers are right-aligned */
};

void report_section(FILE *f, const char *title);
/* The group line (left out when no column has a group), the titles, and a rule. */
void report_table_head(FILE *f, const struct report_col *cols, int n);
void report_table_row(FILE *f, const struct report_col *cols, int n, const char *const *cells);

/* report_print_world - Throughput (any run with actors), then the sections of a path run
 * (those only when @r->world is set). */
void report_print_world(FILE *f, const struct run_result *r);

#endif
