/*
 * layout_suggest.h - `c2csim layout suggest`: search layouts of one struct for a scenario by
 * running it.
 *
 * Design
 * ------
 * A deterministic greedy search over edit lists (layout_edit.h), in three parts:
 *
 * Today (layout_suggest.c, layout_suggest_gen.c).  Today's layout runs once, in-process.  Its
 * metrics are read back from the summary it writes (metrics.h), and its statistics profile the
 * struct's top-level members over every object of the struct: from the Pareto rows (line,
 * offset, code site, caller) the demand loads and stores on each member, the CPUs that load
 * and that store it, the stores of code sites that also load the byte (read-modify-writes:
 * atomics and locked ops), and the functions whose loads read it (the site's name before
 * ':'); from the lines, the coherence traffic of the lines it sits on (HITMs, RFOs that found
 * the line Modified, HITMs the pair prefetcher caused on the buddy).  A member is read-mostly
 * with SUGGEST_READ_MOSTLY loads or more per store, a hot write when it is stored, not
 * read-mostly, and its lines have traffic.
 *
 * Candidates (layout_suggest_gen.c), each the best list so far plus one step:
 *   - each hot write, read-modify-written ones first, isolated: on its own line (pad before it
 *     and before the next member to 64), its own pair (to 128), or one of those pads alone,
 *     moved first, moved last;
 *   - each read-mostly member on a line or pair with a hot write moved away: after a
 *     read-mostly member read by the same function that is not near one, first, last;
 *   - the read-mostly members grouped (an aligned group: their own line), and per reading
 *     function the read-mostly members it reads grouped (next to each other).
 * A candidate is not run when its recomputed layout is larger than the size limit
 * (--keep-size, --max-size), breaks one of the struct's assertions (CACHELINE_ASSERT_*, at
 * placement 0), changes which top-level members one of today's __cacheline_groups holds
 * (or its alignment), or equals a layout already tried.
 *
 * Runs (layout_suggest_eval.c).  A round's candidates are one sweep (sweep.h,
 * sweep_run_points): a grid of today's variant by the candidates' edit lists as a
 * `layout_edits.STRUCT` override, exactly what a variant would say; -j workers run `c2csim
 * run` points in a temporary directory, and each point's summary.yaml gives its metrics.
 * Results are taken in point order, so the outcome does not depend on -j.  The round's best
 * is kept if it beats the best so far; the search stops at a round where nothing does (a
 * local optimum of these steps), when nothing new is left, or when the run budget is spent.
 *
 * Metrics: `throughput` (default), the completed actor-loop iterations per simulated second
 * (summary.yaml's throughput.ops_per_sec), higher is better; `hitm`, a headline metric the
 * search adds to every run (demand HITMs on the lines of the struct's objects, per
 * iteration), lower is better; or any headline metric of the scenario, by its 1-based index
 * in `headline:`, its id or its name.  Verdicts (metrics.h, verdict_of on metric_norm: per
 * iteration where the metric has it) are printed against today's layout for every headline
 * metric and throughput; a change under SUGGEST_SAME_PCT percent is "same": one seed's run is
 * one sample, not a distribution.
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
