/*
 * run_int.h - what the run loop (run.c) and its threads' set-up (run_threads.c) share; nothing
 * else includes it.
 */
#ifndef C2C_RUN_INT_H
#define C2C_RUN_INT_H

#include "scenario/run.h"

#include "core/evq.h"
#include "core/rng.h"
#include "path/interp.h"
#include "scenario/runahead.h"

/* A time past SIMTIME_MAX, for a sum that overflowed; below the interpreter's sentinels. */
#define TIME_PAST_MAX (UINT64_MAX - 2)

struct thread {
	const struct actor *a;
	struct actor_result *res;
	struct rng rng;
	uint64_t iter;
	uint32_t pc;
	int cpu;
	bool in_call;          /* a path call of the loop is running */
	bool calls;            /* its loop has a path call (else no op of it is looked up for one) */
	/* run-ahead past queued events (runahead.h) */
	bool priv;             /* its core's steps commute with every other core's */
	uint8_t *known;        /* per op: mem_access_known said yes (it stays yes) */
	struct mem_memo *memo; /* per op: its access worked out once (mem_access_memo) */
	uint32_t nr_settled;   /* its ops before this one are all known (or delays) */
	struct thread *sib;    /* the next thread on its core (a ring; itself when alone) */
	uint64_t lseq;         /* that count at the push of its next step: ties in the ring */
	simtime_t ptime;       /* the time of its next step, when live */
	bool live;             /* it has a next step */
	bool queued;           /* that step is in the queue (or held: sim->held) */
	uint64_t gen;          /* its queued event's arg; a step run ahead makes it stale */
	struct ra_thread ra;   /* its step times, and its queued step if a step run ahead
				* pushed it (runahead.h) */
	struct ptask pt;       /* its interpreter state (large: after what every step reads) */
};

struct sim {
	struct evq *q;
	struct world *world;
	const bool *model_err; /* the world's model error flag, or a clear one without a world */
	uint8_t *cpu_shared;  /* per CPU: every SMT thread of its core runs an actor */
	struct mem *mem;
	const struct variant *v;
	simtime_t end;       /* the last time any thread finished or was cut */
	bool cut;            /* the end time stopped at least one thread */
	struct c2c_err clock_err; /* set: the clock would pass SIMTIME_MAX (run stopped) */
	const struct c2c_limits *lim;
	simtime_t max_time;  /* lim->time_us in ps */
	bool run_ahead;      /* a step earlier than the whole queue skips it (dispatch_next()) */
	struct thread *held; /* the thread of the push that waits for the next pop, or NULL */
	simtime_t held_time, held_pusher; /* that push's time and pusher (schedule()) */
	struct ra_pending *pending; /* queued steps that steps run ahead pushed, or NULL */
	bool tie;            /* a tie run-ahead cannot order as the queue would: run again */
	bool warm_pending;   /* the warm-up's end is still queued */
	simtime_t early_end; /* run_early() runs no step at or past it (early_horizon()) */
	simtime_t step_on_end; /* nor a path call's step (world.step_on): early_end, or 0 when
				* no step of a call runs on (no run-ahead, or step times kept) */
	simtime_t end_at;    /* the end time, UINT64_MAX without one (past every step's time:
			      * INTERP_DONE, the largest, is never one) */
	uint64_t budget;     /* nor one once this many events are dispatched (early_budget()) */
	uint64_t nr_stale;   /* queued events of steps run ahead (skipped, uncounted) */
	uint64_t *core_seq;  /* per core: pushes of its threads' steps (thread.lseq) */
	uint64_t ran_ahead;  /* steps run ahead of queued events */
};

/* thread_step - the event of a thread's step (run.c). */
void thread_step(struct sim *sim, void *data, uint64_t arg);

/* smt_sharing - per CPU of @v: every SMT thread of its core runs an actor.  Decided once,
 * from the scenario, so it cannot depend on timing.  Return: an array to g_free. */
uint8_t *smt_sharing(const struct variant *v);

/* sim_step_on_end - sim->step_on_end from sim->early_end, after it or sim->pending changed:
 * 0 without run-ahead, and in a run that keeps step times to tell ties (sim->pending: never
 * one with path calls, whose threads all count as settled, so that a step run on inside a
 * call needs no ra_step()). */
static inline void sim_step_on_end(struct sim *sim)
{
	sim->step_on_end = sim->run_ahead && !sim->pending ? sim->early_end : 0;
}

/* sim_step_on_until - the time before which a path call's next step goes on at once
 * (world.step_on, form 1 of run-ahead: sim->step_on_end and the queue's first event).  A
 * thread's ptime is read only in cores that run ahead (form 2, raw operations only): a
 * call's steps leave it as is. */
static inline simtime_t sim_step_on_until(const struct sim *sim)
{
	simtime_t first;

	if (!sim->q->len || (first = evq_peek_time(sim->q)) > sim->step_on_end)
		return sim->step_on_end;
	return first;
}

/* early_horizon - the time from which run_early() runs no step: the end time, the clock's
 * end, the run's time limit, the warm-up's end while it is queued (run_threads.c). */
simtime_t early_horizon(const struct sim *sim);

/* warmup_done - the event of the warm-up's end (end.warmup_us), @data the run's result:
 * what happened so far is not measured; the caches, locks and values stay. */
void warmup_done(struct sim *sim, void *data, uint64_t arg);

/* world_start - the world of the variant's paths for @sim, kept in @r (run_threads.c). */
void world_start(struct sim *sim, struct run_result *r);

/* threads_start - one thread per CPU of every actor, each with its first step queued at
 * time 0, in actor order then CPU order; *@nr gets their count (and sim_step_on_end(), as
 * sim->pending is decided).  sim_release frees them. */
struct thread *threads_start(struct sim *sim, struct run_result *r, uint32_t *nr);

/* sim_release - what a run leaves behind but its result: the queue, the @nr threads @th,
 * the caches (no report reads them). */
void sim_release(struct sim *sim, struct thread *th, uint32_t nr);

#endif
