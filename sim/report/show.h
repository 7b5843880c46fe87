/*
 * show.h - published figures a scenario must reproduce ("Show items"), each declared under
 * the headline metric it is about, judged on a results summary, and written as the
 * published-vs-simulated and known-gaps tables of scenarios/seeds/README.md.
 *
 * Design
 * ------
 * A seed replay states what the thread it replays published; the table in the seeds README,
 * its known-gaps table and the tests that keep both true all read that one declaration:
 *
 *   headline:
 *     - id: read_ns
 *       metric: path_mean
 *       path: read_all_memory_stat_v1
 *       show:
 *         - figure: "v1 memory.stat of 1000 memcgs, read time after/before"
 *           value: "after.read_ns / before.read_ns"   # the expect grammar's expr (expect.h)
 *           published: 0.225                          # a number, or a string as published
 *           within: 2                                 # a factor (default 2, see below)
 *           gap: "why the model does not reproduce it"   # a known gap
 *         - figure: "before read cost vs CPUs (64/128/256)"
 *           published: linear
 *           test: "check_seed_000 read_cost_vs_cpus"  # not measurable from the replay
 *
 * Keys: figure (required); value or test (one of them); published (required); within F,
 * at_least X, at_most X (any of them, all must hold); as: percent (value and a numeric
 * published shown as signed percentages); gap.  A numeric published figure with no bound is
 * judged `within: 2`; a string one needs at_least or at_most.
 *
 * Judgement: `within F` holds when the value has the published figure's sign and is within a
 * factor F of it (so state a direction as a sign: a gain as `after.x / before.x - 1`);
 * at_least / at_most are inclusive bounds.  An item whose expression names a variant or a
 * metric the summary lacks does not hold.  An item holds or fails; whether it is a known gap
 * is declared (`gap:`), and show_agrees() is false when the two disagree, which is what the
 * tests (seed_table, seed_gaps) and `c2csim seed-table` check.
 */
#ifndef C2C_SHOW_H
#define C2C_SHOW_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "report/headline.h"
#include "report/metrics.h"
#include "yaml/ytree.h"

#define SHOW_DEFAULT_WITHIN 2.0

struct show_item {
	const char *metric;     /* the headline id it is declared under */
	const char *figure;     /* what the table calls it */
	const char *expr;       /* the simulated figure, or NULL (then @test) */
	const char *test;       /* the test that checks it instead, or NULL */
	const char *published;  /* the published figure as written */
	double pub;             /* its value, when pub_num */
	bool pub_num;
	double within;          /* judged within this factor of pub; 0: not */
	double lo, hi;          /* at_least, at_most */
	bool has_lo, has_hi;
	bool percent;           /* shown as signed percentages */
	const char *gap;        /* a known gap: why; or NULL */
	struct c2c_mark mark;
};

struct show_set {
	struct show_item *v;
	uint32_t nr;
};

/*
 * show_load - the Show items of the headline list @headline (a scenario's `headline:`, may be
 * NULL) whose metrics are @hs, each checked (keys, numbers, the expression's syntax and
 * metric names).  Return: false with @err at the offending node.  The set points into the
 * tree; free it with show_set_free (accepts a zeroed set).
 */
bool show_load(const struct yt_node *headline, const struct hl_set *hs, struct show_set *ss,
	       struct c2c_err *err);
void show_set_free(struct show_set *ss);

enum show_status {
	SHOW_HOLDS,
	SHOW_FAILS,
	SHOW_UNMEASURED,  /* a variant or metric it names is not in the summary */
	SHOW_BY_TEST,     /* checked by a test, not by the replay */
	SHOW_STATUS_COUNT
};

struct show_result {
	enum show_status status;
	double value;
	char why[128];    /* SHOW_UNMEASURED: what is missing */
};

/* show_eval - judge @it on @s.  Can't fail. */
void show_eval(const struct show_item *it, const struct msummary *s, struct show_result *res);

/* Does the result agree with the declaration: holds and no gap, or does not hold and a gap
 * (a test item always agrees)? */
bool show_agrees(const struct show_item *it, const struct show_result *res);

/* One scenario's items judged on its summary, as the tables list them. */
struct show_doc {
	const char *seed;           /* the table's first column (the scenario name's first word) */
	const struct show_set *ss;
	const struct show_result *res; /* ss->nr of them */
};

/* show_tables - the published-vs-simulated table of @docs and its known-gaps table (the
 * rows that do not hold), as markdown, into @table and @gaps.  Can't fail. */
void show_tables(const struct show_doc *docs, uint32_t nr, GString *table, GString *gaps);

#endif
