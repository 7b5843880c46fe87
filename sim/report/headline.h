/*
 * headline.h - what a scenario is about: its headline metrics, measured on each variant's run.
 *
 * Design
 * ------
 * A scenario declares a list of headline metrics; each is one number per variant, written to
 * summary.yaml under the variant's `headline:` and shown first in the report:
 *
 *   headline:
 *     - id: pn0_stat_hitm                 # [a-z0-9_]; default: the metric's name
 *       name: "pn line 0 HITMs from stat updates"   # default: the id
 *       metric: hitm                      # one of the table below
 *       object: "cg.pn[*]"                # filters, as the metric allows (glob: * and ?)
 *       line: 0
 *       caller: lruvec_stat_mod_folio
 *       published: {before: 2350, after: 10}   # or one value for every variant; a number
 *                                              # or a string ("~2350")
 *       vs: before                        # the variant this metric's verdicts compare
 *                                         # with (default: the report's baseline)
 *       show: [...]                       # published figures judged on it (show.h)
 *
 *   metric         value                                unit   per_op     filters
 *   hitm           demand HITMs (local + remote)        HITMs  per iter.  object struct line
 *   hitm_local     local HITMs                          HITMs  per iter.    member site caller
 *   hitm_remote    remote HITMs                         HITMs  per iter.  (same)
 *   loads          demand loads                         loads  per iter.  (same)
 *   stores         demand stores                        stores per iter.  (same)
 *   store_l1_miss  stores that missed the owned L1 copy stores per iter.  (same)
 *   hitm_prefetch  buddy prefetches that took a line    HITMs  per iter.  object struct line
 *                  Modified elsewhere (per line, by the line's first byte)
 *   ops_per_sec    actor-loop iterations per sim. s     ops/s  -          actor
 *   path_mean      mean latency of a path's calls       ns     -          path (required)
 *   path_p99       99th percentile of the same          ns     -          path (required)
 *   lock_wait      total contended wait on locks        ns     per iter.  lock (glob)
 *   lock_hold      total hold time of locks             ns     per iter.  lock (glob)
 *   counter_error  largest |read - truth| of a counter  count  -          counter (required)
 *
 * Filters select Pareto rows (line, offset, code site, caller): `object` and `struct` match
 * the object holding the byte (its name, e.g. "cg.pn[0]", or its struct type), `line` is the
 * 64-byte line index of the byte inside that object, `member` a prefix of the member path
 * ("lruvec" matches "lruvec.lru_lock"), `site` and `caller` the code site and the call site
 * one frame up, by function ("lruvec_stat_mod_folio") or by their whole name.  Without
 * filters, hitm/loads/stores are the run's totals.
 *
 * per_op divides by the completed actor-loop iterations (all actors), so variants that did
 * different amounts of work in the same simulated time compare per operation.  Which
 * direction is better is the metric's: higher for ops_per_sec, lower for every other.
 */
#ifndef C2C_HEADLINE_H
#define C2C_HEADLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "yaml/ytree.h"

enum hl_metric {
	HL_HITM,          /* demand HITMs, local + remote */
	HL_HITM_LOCAL,    /* local HITMs */
	HL_HITM_REMOTE,   /* remote HITMs */
	HL_LOADS,         /* demand loads */
	HL_STORES,        /* demand stores */
	HL_STORE_L1_MISS, /* demand stores that did not find the line owned in L1d */
	HL_HITM_PREFETCH, /* buddy prefetches that found the line Modified and took it */
	HL_OPS_PER_SEC,   /* actor-loop iterations per simulated second */
	HL_PATH_MEAN,     /* mean latency of a path's calls, ns */
	HL_PATH_P99,      /* 99th percentile latency of a path's calls, ns */
	HL_LOCK_WAIT,     /* total contended wait, ns */
	HL_LOCK_HOLD,     /* total hold time, ns */
	HL_COUNTER_ERROR, /* largest |read - truth| of an approximate counter */
	HL_COUNT
};

struct hl_info {
	const char *key;    /* the `metric:` name */
	const char *unit;
	bool higher_better; /* else lower is better */
	bool per_op;        /* normalisable per actor-loop iteration */
	const char *const *filters; /* the filter keys it takes */
	const char *required; /* a filter it needs, or NULL */
};

extern const struct hl_info hl_info[HL_COUNT];

/* One declared headline metric. */
struct hl_def {
	const char *id, *name;           /* point into the scenario tree */
	const char *vs;                  /* the verdicts' reference variant, or NULL */
	enum hl_metric metric;
	const char *object, *type, *member, *site, *caller, *actor, *path, *lock, *counter;
	int64_t line;                    /* -1: any */
	const struct yt_node *published; /* scalar or map variant -> scalar, or NULL */
};

struct hl_set {
	struct hl_def *v;
	uint32_t nr;
};

/*
 * hl_load - the headline metrics of @sc (its first variant's tree: `headline:`).  A scenario
 * without one has none (nr 0).  Return: false with @err at the offending node (an unknown
 * metric or filter, a filter the metric does not take, a duplicate id).  The set points
 * into the scenario's tree: free it with hl_set_free() before the scenario.
 */
bool hl_load(const struct scenario *sc, struct hl_set *hs, struct c2c_err *err);
/* The same from a `headline:` list @seq (NULL: none), e.g. read from a scenario file alone. */
bool hl_load_seq(const struct yt_node *seq, struct hl_set *hs, struct c2c_err *err);
void hl_set_free(struct hl_set *hs);

/* The published figure of @d for @variant (a scalar node), or NULL. */
const struct yt_node *hl_published(const struct hl_def *d, const char *variant);

/* hl_value - @d measured on @r, in hl_info[d->metric].unit; ns metrics exactly, as
 * picoseconds in @ps_out when it is not NULL (else 0).  Can't fail; 0 when nothing matches. */
double hl_value(const struct hl_def *d, const struct run_result *r, uint64_t *ps_out);

/* hl_write_yaml - the `    headline:` list of run @r (summary.yaml indentation); `[]` for
 * a scenario without headline metrics.  Can't fail. */
void hl_write_yaml(FILE *f, const struct scenario *sc, const struct run_result *r);

#endif
