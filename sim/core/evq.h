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

/* The order of events: by time, then pusher time, then push (evq.h's contract).  Inline,
 * with the sift and evq_push_pop, into the run loop's one step per event. */
static inline bool evq_before(const struct event *a, const struct event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->ptime < b->ptime || (a->ptime == b->ptime && a->seq < b->seq);
}

/* evq_sift_down - sift @ev down from slot @i, which is free, into the heap's first @n
 * slots.  Inlined: @ev stays in registers instead of being copied for a call. */
static inline __attribute__((always_inline)) void evq_sift_down(struct evq *q, struct event ev,
								 size_t i, size_t n)
{
	struct event *h = q->heap; /* read once: the stores into it cannot change it */

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && evq_before(&h[c + 1], &h[c]))
			c++;
		if (!evq_before(&h[c], &ev))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = ev;
}

/* evq_push_pop - evq_push_from() then evq_pop() into @ev, as one operation: the pushed
 * event, when it comes first, is dispatched without entering the heap; else it takes the
 * first's place there (a sift down from there, which a step's next step, usually among the
 * next few, leaves after a level or two).  Inline: the run loop does it once per event, and
 * a call's saves and argument copies cost about as much as the sift.  Can't fail. */
static inline void evq_push_pop(struct evq *q, simtime_t time, simtime_t ptime, ev_fn fn,
				void *data, uint64_t arg, struct event *ev)
{
	struct event e = {time, ptime, q->next_seq++, fn, data, arg}, *h = q->heap;
	size_t c = q->root_free, n = q->len + c; /* the first's slot: the root or its child */

	assert(ptime >= q->now);
	if (c && q->len >= 2 && evq_before(&h[2], &h[1]))
		c = 2;
	if (!q->len || evq_before(&e, &h[c])) {
		*ev = e; /* it comes first: it is dispatched at once, the heap stays as it is */
	} else {
		*ev = h[c]; /* it takes the first's place: one sift down from there */
		evq_sift_down(q, e, c, n);
	}
	q->now = ev->time;
	q->dispatched++;
}

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

/* evq_now - the time of the event last popped (the current simulated time). */
static inline simtime_t evq_now(const struct evq *q)
{
	return q->now;
}

#endif
