/*
 * metrics.h - the named metrics of a results summary (summary.yaml), and verdicts on them.
 *
 * Design
 * ------
 * The verdicts of `c2csim run` (each variant against the baseline variant) and of
 * `c2csim compare` (each variant of a new results directory against the same variant of a
 * base one) read the same thing: summary.yaml, parsed.  So a comparison made today against a
 * baseline committed months ago uses exactly the numbers the run wrote.  Per variant:
 *
 *   key                          from summary.yaml                    better  per_op
 *   headline:ID                  headline[] (value, per_op, unit)     metric's
 *   hitm.local, hitm.remote,     hitm: {local, remote, prefetch}      lower   yes
 *   hitm.prefetch
 *   loads, stores                loads, stores                        lower   yes
 *   ops_per_sec                  throughput.ops_per_sec               higher  no
 *   line:OBJ:N:hitm              lines[] (the first 5), local+remote  lower   yes
 *   lock:NAME:wait, lock:NAME:hold   locks[] wait/hold_total_ps (ns)  lower   yes
 *   path:NAME:mean               paths[] mean_ps (ns)                 lower   no
 *   counter:NAME:error           counters[] max_abs_error             lower   no
 *
 * per_op divides by the variant's completed actor-loop iterations (summed over actors):
 * with a fixed simulated time a faster layout does more work and collects more of
 * everything, so counts are compared per operation.  Verdicts compare per_op where a metric
 * has it, else the value.  Runs are deterministic, so "same" means equal to the last digit
 * unless a tolerance is given.  Doubles appear only here, in ratios of integer totals; every
 * figure is printed with a fixed precision, so output stays byte-identical on IEEE-754 hosts.
 */
#ifndef C2C_METRICS_H
#define C2C_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "yaml/ytree.h"

struct metric {
	char *key;           /* "headline:pn0_stat_hitm", "hitm.local", "path:try_charge:mean" */
	char *name;          /* what a reader is shown: the headline's name, else the key */
	const char *unit;    /* "HITMs", "ns", "ops/s", ... (static or from the tree) */
	double value;
	double per_op;       /* valid when has_per_op */
	bool has_per_op;
	bool higher_better;
	bool headline;
	const struct yt_node *published; /* a scalar, or NULL */
};

struct mvariant {
	const char *name;    /* points into the tree */
	const char *machine;
	uint64_t iterations; /* completed actor-loop iterations, all actors */
	uint64_t sim_time_ps;
	struct metric *m;
	uint32_t nr, cap;
};

struct msummary {
	struct yt_node *root; /* the parsed summary.yaml (owned) */
	const char *scenario;
	struct mvariant *v;
	uint32_t nr;
};

/*
 * msummary_load - parse a summary.yaml text (@name for messages) into @s.  Return: false with
 * @err set (`name:line:col: ...`) when it is not a c2csim summary.  Free with msummary_free
 * (accepts a zeroed struct).
 */
bool msummary_load(struct msummary *s, const char *name, const char *text, size_t len,
		   struct c2c_err *err);
bool msummary_load_file(struct msummary *s, const char *path, struct c2c_err *err);
void msummary_free(struct msummary *s);

/* The variant named @name, or NULL; the metric keyed @key of @v, or NULL. */
const struct mvariant *msummary_variant(const struct msummary *s, const char *name);
const struct metric *mvariant_metric(const struct mvariant *v, const char *key);

enum verdict {
	VERDICT_SAME,    /* equal (within the tolerance) */
	VERDICT_BETTER,
	VERDICT_WORSE,
	VERDICT_NEW,     /* only in the new run */
	VERDICT_GONE,    /* only in the base run */
	VERDICT_COUNT
};

extern const char *const verdict_names[VERDICT_COUNT + 1];

/* The number a verdict compares: per_op when the metric has it, else the value. */
double metric_norm(const struct metric *m);

/*
 * verdict_of - @cur against @base (either may be NULL: new, gone), "same" when the change is
 * within @tol_pct percent (0: equal to the last digit).  @change_pct is the relative change
 * of metric_norm() in percent (0 when the base is 0 and so is the new value; +/-HUGE_VAL when
 * only the base is 0).  Can't fail.
 */
enum verdict verdict_of(const struct metric *base, const struct metric *cur, double tol_pct,
			double *change_pct);

/* verdict_text - "better -12.3%", "same", "worse +inf" into @buf (size @n). */
const char *verdict_text(char *buf, size_t n, enum verdict v, double change_pct);

/* metric_fmt - a value as the reports show it: integers without decimals, up to three
 * significant decimals otherwise ("1236.5", "0.0312"). */
const char *metric_fmt(char *buf, size_t n, double x);

#endif
