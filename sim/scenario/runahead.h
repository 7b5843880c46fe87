/*
 * runahead.h - cores whose steps commute with every other core's events, and the order of
 * the ties they leave, for run-ahead (run.c).
 *
 * Run-ahead in two forms, both leaving every result as the event queue alone gives it:
 *   1. A step earlier than every queued event is the event the queue would return next: it
 *      runs at once, without a push and a pop (inside a path call, without leaving the
 *      interpreter: world->step_on, run.c).  Always exact.
 *   2. The threads of a core whose lines no other core touches (runahead_private; raw
 *      operations only) run their next steps at once, past other cores' queued events, in
 *      the queue's order among themselves (by time, then by push), as long as each step
 *      makes nothing new (mem_access_known: no first touch of a line, no new Pareto row,
 *      whose order is the order of first touch), stays before the warm-up's end (which
 *      zeroes statistics) and within the end time and the run limits.  Such a step changes
 *      only its core's caches, its CPU's store buffer, random stream and clock, and sums of
 *      statistics, so doing it early changes nothing another core's events see.
 * What could differ is the order of ties.  The step that ends a run-ahead is queued as
 * pushed by the step before it, at that step's time (evq_push_from), and the queue orders
 * equal times by pusher time first, so it meets every other event where the queue would
 * have put it, except another core's step at the same time pushed by a step at the same
 * time: ra_tie() tells those apart by the threads' last RA_HISTORY step times, as the queue
 * would, and when it cannot, run.c stops and runs the variant again without run-ahead.
 * Most ties need no telling.  A thread is settled once every operation of its loop is known
 * (raw operations touch a fixed set of lines and rows, which are never removed): from then
 * on each of its steps commutes with every other core's events.  A tie swapped against the
 * queue's order swaps only the sequence numbers of the two steps' pushes, so what can come
 * out of order later is only the same two threads' later steps, again a pair with a settled
 * thread in it; the order of every pair of unsettled steps stays the queue's.  So ra_tie()
 * tells only ties of two unsettled threads (in practice: first touches in a run's first
 * iterations), settled threads keep no step history and put nothing in the pending table.
 */
#ifndef C2C_RUNAHEAD_H
#define C2C_RUNAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/types.h"

struct variant;

/* Steps back that ra_tie() compares: a run of fixed-latency hits makes threads of different
 * cores agree on several step times in a row. */
#define RA_HISTORY 16

/* What the tie bookkeeping knows of a thread (part of run.c's thread). */
struct ra_thread {
	uint32_t idx;               /* start order */
	uint64_t *core_seq;         /* its core's count of pushes (run.c), shared: names the core */
	simtime_t pusher;           /* the time of the step that pushed its queued step */
	uint64_t nr_steps;          /* steps run */
	simtime_t hist[RA_HISTORY]; /* the times of the last ones, a ring */
	bool settled;               /* every step it will run commutes with other cores' events,
				     * or no tie is told in its run (run_threads.c) */
	bool pending;               /* its queued step is in the pending table */
	simtime_t pend_time;        /* that step's time, its key there */
	struct ra_thread *pend_next; /* the next one queued at pend_time so */
};

/* The queued steps that steps run ahead pushed, by time. */
struct ra_pending;

/* ra_step - @t runs a step at @now.  Can't fail. */
static inline void ra_step(struct ra_thread *t, simtime_t now)
{
	t->hist[t->nr_steps++ % RA_HISTORY] = now;
}

/* ra_pending_new - an empty table.  Can't fail.  Free with ra_pending_free (NULL is fine). */
struct ra_pending *ra_pending_new(void);
void ra_pending_free(struct ra_pending *p);

/* ra_pending_add - @t's step at @time, just queued, was pushed by a step run ahead (at
 * t->pusher).  Can't fail. */
void ra_pending_add(struct ra_pending *p, struct ra_thread *t, simtime_t time);

/* ra_pending_del - @t's queued step leaves the queue (dispatched or run ahead); no-op when
 * it is not in the table.  Can't fail. */
void ra_pending_del(struct ra_pending *p, struct ra_thread *t);

/* ra_tie - a push at @time by @x's step at @pusher (@x NULL: by a waker): might the queue
 * have put it before a step in the table at the same time, where that order can matter?
 * The queue orders by pusher time first (core/evq.h), so only a step pushed by a step at the
 * same time, of another core, needs telling; each thread's step is pushed by its own step
 * before, so the queue's order is that of the threads' step times going back, then of their
 * start.  A settled thread's steps (and so all their descendants, its own later steps)
 * commute with every other core's events: a tie with one orders nothing that shows, and is
 * not told.  Return: true when neither is settled and @x goes first or RA_HISTORY steps do
 * not tell (the run must go again without run-ahead).  The threads of one core push in the
 * queue's order: among them there is nothing to tell. */
bool ra_tie(const struct ra_pending *p, const struct ra_thread *x, simtime_t time,
	    simtime_t pusher);

/* runahead_private - per thread of @v (actor order, then CPU order, as run.c starts them;
 * @nr_threads of them): 1 when the thread may run ahead of queued events.  None may when
 * the variant has path calls.  Return: an array to g_free.  Can't fail. */
uint8_t *runahead_private(const struct variant *v, uint32_t nr_threads);

#endif
