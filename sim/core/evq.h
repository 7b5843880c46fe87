/*
 * evq.h - the event queue: a binary min-heap with a total, deterministic order.
 *
 * Events are ordered by (time, seq) where seq is a counter assigned when the event is pushed,
 * so events at the same simulated time run in the order they were scheduled (FIFO ties) and
 * nothing else — no pointer values, no host timing — can decide the order.  Between the two
 * each event carries ptime, the time of the event whose handler pushed it (evq_now then):
 * handlers run in time order, so ptime never decreases with seq and (time, ptime, seq) is the
 * same order.  evq_push_from() gives an event a later ptime: the time of a step a handler
 * ran ahead of the queue (scenario/run.c), which would have pushed it then.  Handlers that push
 * events while running never see them dispatched inside the same evq_pop() step.
 */
#ifndef C2C_EVQ_H
#define C2C_EVQ_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

struct sim;
typedef void (*ev_fn)(struct sim *sim, void *data, uint64_t arg);

struct event {
	simtime_t time;
	simtime_t ptime;    /* when its pusher ran */
	uint64_t seq;
	ev_fn fn;
	void *data;
	uint64_t arg;
};

struct evq {
	struct event *heap;
	size_t len, cap;
	uint64_t next_seq;
	uint64_t dispatched;
	simtime_t now;      /* time of the event being dispatched */
	/* The last pop left heap[0] free and the len queued events are heap[1..len]; the
	 * next push, pop or peek fills it.  Events' keys are unique, so the heap's shape
	 * never decides the order. */
	bool root_free;
};

/* evq_new - an empty queue.  Can't fail (aborts on OOM).  Free with evq_free (accepts NULL). */
struct evq *evq_new(void);
void evq_free(struct evq *q);

/* evq_push_from - schedule @fn(@data, @arg) at @time, as pushed by an event at @ptime
 * (@ptime >= evq_now(q)).  Can't fail. */
void evq_push_from(struct evq *q, simtime_t time, simtime_t ptime, ev_fn fn, void *data,
		   uint64_t arg);

/* evq_push - schedule @fn(@data, @arg) at @time, pushed now.  Can't fail. */
static inline void evq_push(struct evq *q, simtime_t time, ev_fn fn, void *data, uint64_t arg)
{
	evq_push_from(q, time, q->now, fn, data, arg);
}

/* evq_pop - remove the first event into @ev.  Return: false when the queue is empty. */
bool evq_pop(struct evq *q, struct event *ev);

/* evq_push_pop - evq_push_from() then evq_pop() into @ev, as one operation: the pushed
 * event, when it comes first, is dispatched without entering the heap; else it takes the
 * first's place there.  Can't fail. */
void evq_push_pop(struct evq *q, simtime_t time, simtime_t ptime, ev_fn fn, void *data,
		  uint64_t arg, struct event *ev);

/* evq_peek_time - time of the first event; the queue must not be empty. */
static inline simtime_t evq_peek_time(const struct evq *q)
{
	assert(q->len > 0);
	if (!q->root_free)
		return q->heap[0].time;
	/* The root is free: the first event is the earlier of its children, heap[1..len]. */
	if (q->len >= 2 && q->heap[2].time < q->heap[1].time)
		return q->heap[2].time;
	return q->heap[1].time;
}

/* evq_dispatch_first - account an event at @time that was never pushed, if it comes before
 * every queued one (at a tie the queued one goes first; run-ahead, scenario/run.c): it
 * becomes the current time and counts as dispatched, exactly as if it had been pushed and
 * popped.  Else nothing.  Return: whether it did. */
static inline bool evq_dispatch_first(struct evq *q, simtime_t time)
{
	if (q->len && time >= evq_peek_time(q))
		return false;
	q->now = time;
	q->dispatched++;
	return true;
}

/* evq_now - the time of the event last popped (the current simulated time). */
static inline simtime_t evq_now(const struct evq *q)
{
	return q->now;
}

#endif
