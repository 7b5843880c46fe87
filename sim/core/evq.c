/* evq.c - see evq.h for the ordering contract. */
#include "core/evq.h"

#include <assert.h>
#include <glib.h>

struct evq *evq_new(void)
{
	struct evq *q = g_new0(struct evq, 1);

	q->cap = 64;
	q->heap = g_new(struct event, q->cap);
	return q;
}

void evq_free(struct evq *q)
{
	if (!q)
		return;
	g_free(q->heap);
	g_free(q);
}

static inline bool ev_before(const struct event *a, const struct event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->ptime < b->ptime || (a->ptime == b->ptime && a->seq < b->seq);
}

/* Sift @ev down from slot @i, which is free, into the heap's first @n slots.  Inlined: @ev
 * stays in registers instead of being copied for a call. */
static inline __attribute__((always_inline)) void sift_down(struct evq *q, struct event ev,
							     size_t i, size_t n)
{
	struct event *h = q->heap; /* read once: the stores into it cannot change it */

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_before(&h[c + 1], &h[c]))
			c++;
		if (!ev_before(&h[c], &ev))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = ev;
}

/* Fill the root a pop left free with the last event (the classic pop's second half). */
static void fill_root(struct evq *q)
{
	q->root_free = false;
	if (q->len)
		sift_down(q, q->heap[q->len], 0, q->len);
}

void evq_push_from(struct evq *q, simtime_t time, simtime_t ptime, ev_fn fn, void *data,
		   uint64_t arg)
{
	size_t i;
	struct event ev = {time, ptime, q->next_seq++, fn, data, arg};

	assert(ptime >= q->now);
	if (q->root_free) {
		/* A handler pushes its thread's next step after the pop that ran it: one sift
		 * down from the free root instead of one for the pop and one up for the push. */
		q->root_free = false;
		sift_down(q, ev, 0, ++q->len);
		return;
	}
	if (q->len == q->cap) {
		q->cap *= 2;
		q->heap = g_renew(struct event, q->heap, q->cap);
	}
	/* Sift up: move parents down until @ev fits. */
	for (i = q->len++; i > 0; ) {
		size_t parent = (i - 1) / 2;

		if (!ev_before(&ev, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = ev;
}

bool evq_pop(struct evq *q, struct event *ev)
{
	if (q->root_free)
		fill_root(q);
	if (!q->len)
		return false;
	*ev = q->heap[0];
	q->now = ev->time;
	/* The root stays free until the next push fills it, or the next pop or peek. */
	q->root_free = true;
	q->len--;
	q->dispatched++;
	return true;
}

void evq_push_pop(struct evq *q, simtime_t time, simtime_t ptime, ev_fn fn, void *data,
		  uint64_t arg, struct event *ev)
{
	struct event e = {time, ptime, q->next_seq++, fn, data, arg}, *h = q->heap;
	size_t c = q->root_free, n = q->len + c; /* the first's slot: the root or its child */

	assert(ptime >= q->now);
	if (c && q->len >= 2 && ev_before(&h[2], &h[1]))
		c = 2;
	if (!q->len || ev_before(&e, &h[c])) {
		*ev = e; /* it comes first: it is dispatched at once, the heap stays as it is */
	} else {
		*ev = h[c]; /* it takes the first's place: one sift down from there */
		sift_down(q, e, c, n);
	}
	q->now = ev->time;
	q->dispatched++;
}
