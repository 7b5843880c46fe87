/*
 * run.h - one run of one scenario variant, and what it leaves for the reports.
 *
 * run_variant() builds the memory system from a loaded scenario, starts one thread per CPU of
 * every actor (or per CPU of a trace), dispatches events until the end condition, and returns
 * a struct run_result that owns everything the reports read.  Reports never re-run anything.
 */
#ifndef C2C_RUN_H
#define C2C_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/machine.h"
#include "mem/mem.h"
#include "layout/objmap.h"

struct world;
struct program;

struct scenario;
struct variant;

struct actor_result {
	char *name;
	uint32_t nr_threads;
	uint64_t iterations;   /* completed loop iterations, all threads */
};

struct run_result {
	char *variant;             /* "default" when the scenario has no variants */
	const struct machine *mc;  /* the variant's machine (owned by the scenario) */
	const struct objmap *objs; /* named objects (owned by the scenario) */
	struct mem *mem;           /* caches, directory and all statistics (owned) */
	char **site_names;         /* code sites: "inc:0 locked_rmw counter+0" (shared, not owned) */
	uint32_t nr_sites;
	simtime_t sim_time;        /* the measured window, ps: from the end of the warm-up (or 0)
				    * to the end (reached, when interrupted) */
	simtime_t warmup;          /* end.warmup_us: excluded from every statistic */
	bool interrupted;          /* stopped early by SIGINT/SIGTERM (runwatch.h): incomplete */
	uint64_t events;           /* events dispatched */
	uint64_t ran_ahead;        /* of them, steps run ahead of queued events (runahead.h);
				    * in no output: run-ahead changes no result */
	struct actor_result *actors;
	uint32_t nr_actors;
	struct world *world;       /* path execution state and its statistics (owned), or NULL
				    * when the scenario runs raw accesses only */
	const struct program *prog; /* the variant's path program (owned by the scenario) */
};

/* run_result_init - @r (zeroed) named and sized for variant @v, before its run. */
void run_result_init(struct run_result *r, const struct variant *v);

/* run_track_lines - tell @m which lines of variant @v keep statistics of their own: the
 * shared ones, and those its headline metrics filter on (track.c).  Can't fail. */
void run_track_lines(struct mem *m, const struct scenario *sc, const struct variant *v);

/* run_variant - simulate variant @v of @sc.  Return: the result (free with run_result_free),
 * or NULL with @err set when the simulation failed, exit status 1: an invariant violation
 * (err holds the report), a run-time model error (`file:line:col: model error ...` of the
 * path operation, interp.h), a clock that would pass SIMTIME_MAX in a run without an end
 * time, or one of sc->limits reached (err->limit set).  The end time cuts threads, also in
 * the middle of a path call (the iteration that was cut is not counted). */
struct run_result *run_variant(const struct scenario *sc, uint32_t v, bool check,
			       struct c2c_err *err);

void run_result_free(struct run_result *r);

#endif
