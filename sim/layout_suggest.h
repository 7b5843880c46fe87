/*
 * layout_suggest.h - `c2csim layout suggest`: search layouts of one struct for a scenario by
 * running it.
 *
 * Design
 * ------
 * A deterministic greedy search over edit lists (layout_edit.h).  Today's layout is run once,
 * in-process; its coherence statistics rank the struct's top-level members by the traffic of
 * the lines they sit on (HITMs, RFOs that found the line Modified, and HITMs the pair
 * prefetcher caused on the buddy line), summed over every object of the struct.  Each round
 * proposes, for every member with traffic (hottest first), the edits that move it away from
 * its neighbours: start it on a new line (pad before it to 64), end its line (pad before the
 * next member to 64), start it on a new 128-byte pair (pad to 128), move it first, move it
 * last.  A candidate is the best list so far plus one edit; it is skipped without running
 * when its recomputed layout is larger than the size limit, breaks one of the struct's
 * assertions (CACHELINE_ASSERT_*, at placement 0), or equals a layout already tried.  The
 * others run through the scenario loader (`layout_edits.STRUCT` as an override, exactly what a
 * variant would say), up to @jobs at a time in forked processes; results are taken in
 * candidate order, so the outcome does not depend on @jobs.  The round's best is kept if it
 * beats the best so far; the search stops at a round where nothing does (a local optimum of
 * these moves) or when the run budget is spent.
 *
 * Metrics (until the scenario's headline metrics exist, these are what it uses):
 *   throughput  completed actor-loop iterations of all actors per simulated second (the
 *               `throughput.ops_per_sec` of summary.yaml); higher is better
 *   hitm        HITMs (local + remote demand loads, and prefetches that took a Modified line)
 *               on the lines of every object of the struct, per 1000 completed iterations
 *               (so a layout is not penalised for doing more work); lower is better
 * A difference under SUGGEST_SAME_PCT percent is reported as "same": one seed's run is one
 * sample, not a distribution.
 */
#ifndef C2C_LAYOUT_SUGGEST_H
#define C2C_LAYOUT_SUGGEST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"

#define SUGGEST_SAME_PCT 0.5   /* |change| below this is "same" */
#define SUGGEST_SHOW 3         /* layouts printed at the end */

struct suggest_opts {
	const char *scenario;
	const char *strct;     /* --struct */
	const char *variant;   /* --variant (default: the first) */
	const char *const *compare; /* --compare V (repeatable, NULL-terminated, or NULL): run
				    * them and say how close the best layout gets to each */
	const char *metric;    /* throughput (default) | hitm | a headline metric (index, id, name) */
	const char *out;       /* -o BEST.yaml */
	bool keep_size;
	uint64_t max_size;     /* 0: no limit */
	uint32_t budget;       /* runs, today's included */
	uint32_t jobs;
};

/* layout_suggest - run the search and print its report on stdout.  Return: the exit status
 * (0; 2 with @err set for bad input, 1 when a run fails). */
int layout_suggest(const struct suggest_opts *o, struct c2c_err *err);

#endif
