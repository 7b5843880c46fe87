/*
 * runahead.h - threads whose steps commute with every other event, for run-ahead (run.c).
 *
 * Run-ahead in two forms, both leaving every result as the event queue alone gives it:
 *   1. A step earlier than every queued event is the event the queue would return next: it
 *      runs at once, without a push and a pop.  Always exact.
 *   2. A thread whose steps touch nothing any other thread touches (runahead_private) runs
 *      its next steps at once even past queued events, as long as each step makes nothing
 *      new (mem_access_known: no first touch of a line, no new Pareto row, whose order is
 *      the order of first touch), stays before the warm-up's end (which zeroes statistics)
 *      and within the end time and the run limits.  What such a step changes is its own CPU's
 *      caches, store buffer, random stream and clock, and sums of statistics, so doing it
 *      early changes nothing another event sees.  The one thing that could differ is the
 *      order of a tie: the step that stops run-ahead is pushed now, earlier than the queue
 *      would have pushed it, so an event pushed at the same time by an event dispatched
 *      before that virtual push would lose a tie it should win.  run.c notices any push at
 *      the time of such a pending step before its virtual pusher's time, stops, and runs the
 *      variant again without run-ahead: the results are the queue's in every case.
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
 * have put it before a step in the table at the same time?  The queue orders by pusher time
 * first (core/evq.h), so only a step pushed by a step at the same time, of another core,
 * needs telling; each thread's step is pushed by its own step before, so the queue's order
 * is that of the threads' step times going back, then of their start.  Return: true when @x
 * goes first or RA_HISTORY steps do not tell (the run must go again without run-ahead).
 * The threads of one core push in the queue's order: among them there is nothing to tell. */
bool ra_tie(const struct ra_pending *p, const struct ra_thread *x, simtime_t time,
	    simtime_t pusher);

/* runahead_private - per thread of @v (actor order, then CPU order, as run.c starts them;
 * @nr_threads of them): 1 when the thread may run ahead of queued events.  None may when
 * the variant has path calls.  Return: an array to g_free.  Can't fail. */
uint8_t *runahead_private(const struct variant *v, uint32_t nr_threads);

#endif
