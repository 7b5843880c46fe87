/*
 * expect.h - a scenario's expectations: relations between its variants' metrics that a run
 * must show, checked by `c2csim run --expect` and `c2csim check`.
 *
 *   expect:
 *     - "after.pn0_stat_hitm < before.pn0_stat_hitm / 50"
 *     - that: "after.ops_per_sec > before.ops_per_sec * 1.05"
 *       note: "published +20% (shmem, 20 threads)"
 *     - that: "after-80.ops_per_sec / before-80.ops_per_sec < after.ops_per_sec / before.ops_per_sec"
 *       gap: "the model's 80-thread run lacks the published run's cap (seeds README)"
 *
 * Grammar:  expectation := expr CMP expr          CMP: < <= > >= ==
 *           expr := prod (('+' | ' -') prod)*     ('-' after a space: "after-80" is a name)
 *           prod := term (('*' | '/') term)*      term := NUMBER | REF | '(' expr ')'
 *           REF  := VARIANT '.' METRIC ['.per_op']
 * METRIC is a headline id (headline.h) or one of the run's totals: hitm.local, hitm.remote,
 * hitm.prefetch, loads, stores, ops_per_sec (metrics.h).  `.per_op` divides by the variant's
 * actor-loop iterations.
 *
 * An expectation with `gap:` states a published direction the model does not reproduce yet
 * (a known gap): it is evaluated and reported, but never fails a check.  An expectation whose
 * variants were not run (`--variant`) is skipped.
 */
#ifndef C2C_EXPECT_H
#define C2C_EXPECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "report/headline.h"
#include "report/metrics.h"
#include "scenario/scenario.h"

struct expectation {
	const char *text;      /* the relation (points into the scenario tree) */
	const char *gap;       /* why the model disagrees (a known gap), or NULL */
	const char *note;      /* where the direction comes from, or NULL */
	struct c2c_mark mark;
};

struct expect_set {
	struct expectation *v;
	uint32_t nr;
};

enum expect_status {
	EXPECT_HOLDS,
	EXPECT_FAILS,
	EXPECT_SKIPPED,   /* a variant it names was not run */
	EXPECT_STATUS_COUNT
};

struct expect_result {
	enum expect_status status;
	double lhs, rhs;
	char why[128];        /* EXPECT_SKIPPED: what is missing */
};

/*
 * expect_load - the expectations of @sc (`expect:` of its first variant's tree), each checked
 * for syntax and for metric names (@hs: the scenario's headline).  Return: false with @err at
 * the expectation.  Free with expect_set_free (accepts a zeroed set).
 */
bool expect_load(const struct scenario *sc, const struct hl_set *hs, struct expect_set *es,
		 struct c2c_err *err);
void expect_set_free(struct expect_set *es);

/*
 * expect_value - the value of @text, an expression of the grammar above (expr, no relation),
 * on the metrics of @s; with @s NULL only its syntax and metric names (against @hs) are
 * checked.  Return: true with *@out, or false with the problem in @why (size @n) and
 * *@missing (may be NULL) true when a variant or metric it names is not in @s.
 */
bool expect_value(const char *text, const struct msummary *s, const struct hl_set *hs,
		  double *out, bool *missing, char *why, size_t n);

/* expect_eval - evaluate @e on the metrics of @s.  Can't fail. */
void expect_eval(const struct expectation *e, const struct msummary *s,
		 struct expect_result *res);

/*
 * expect_report - evaluate every expectation of @es on @s; print a summary line and one line
 * per failure, known gap or skip to @f (nothing when there are none; @f NULL prints nothing
 * there).  With @fail_out, also
 * print each failure as `file:line:col: expectation failed: ...` there.  Return: the number of
 * failed expectations (known gaps and skips excluded).
 */
uint32_t expect_report(FILE *f, const struct expect_set *es, const struct msummary *s,
		       FILE *fail_out);

#endif
