/*
 * compare.h - two results directories side by side: `c2csim compare BASE NEW`.
 *
 * Every metric of every variant (metrics.h: the headline, the HITM and access totals, the
 * top lines, lock wait and hold, path costs, throughput, counter error) of NEW is set against
 * the same variant's in BASE, per operation where the metric is normalisable.  A metric
 * regresses when its verdict is "worse" by more than its threshold:
 *
 *   --threshold PATTERN=PCT   PATTERN a glob over metric keys ("ops_per_sec",
 *                             "headline:*", "lock:*"); the last matching one wins
 *   default                   COMPARE_DEFAULT_PCT (2%) for every metric
 *
 * Metrics present on one side only are reported ("new", "gone") and do not regress; a
 * variant only in NEW is all "new", one only in BASE (left out with --variant) is named once
 * and not compared.  The JUnit file (JUnit XML as GitLab, Jenkins and GitHub's test reporters read it)
 * has one testsuite per variant and one testcase per variant x metric, failed when the metric
 * regressed.
 */
#ifndef C2C_COMPARE_H
#define C2C_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/err.h"
#include "report/metrics.h"

#define COMPARE_DEFAULT_PCT 2.0

struct compare_threshold {
	const char *pattern;
	double pct;
};

struct compare_opts {
	const struct compare_threshold *thr;  /* in command-line order */
	uint32_t nr_thr;
	bool all;                             /* print unchanged metrics too */
};

/* compare_threshold_parse - "PATTERN=PCT" into @t (pattern points into @text).  Return:
 * false with @err naming --threshold. */
bool compare_threshold_parse(const char *text, struct compare_threshold *t, struct c2c_err *err);

/*
 * compare_run - compare @base with @cur: the table to @f, the JUnit XML to @junit (may be
 * NULL).  @base_name and @cur_name label the columns and the JUnit file.  Return: the number
 * of regressions.  Can't fail (write errors are the streams').
 */
uint32_t compare_run(FILE *f, FILE *junit, const struct msummary *base,
		     const struct msummary *cur, const char *base_name, const char *cur_name,
		     const struct compare_opts *o);

#endif
