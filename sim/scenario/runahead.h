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

#include <stdint.h>

struct variant;

/* runahead_private - per thread of @v (actor order, then CPU order, as run.c starts them;
 * @nr_threads of them): 1 when the thread may run ahead of queued events.  None may when
 * the variant has path calls.  Return: an array to g_free.  Can't fail. */
uint8_t *runahead_private(const struct variant *v, uint32_t nr_threads);

#endif
