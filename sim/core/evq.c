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

/* Fill the root a pop left free with the last event (the classic pop's second half). */
static void fill_root(struct evq *q)
{
	q->root_free = false;
	if (q->len)
		evq_sift_down(q, q->heap[q->len], 0, q->len);
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
		evq_sift_down(q, ev, 0, ++q->len);
		return;
	}
	if (q->len == q->cap) {
		q->cap *= 2;
		q->heap = g_renew(struct event, q->heap, q->cap);
	}
	/* Sift up: move parents down until @ev fits. */
	for (i = q->len++; i > 0; ) {
		size_t parent = (i - 1) / 2;

		if (!evq_before(&ev, &q->heap[parent]))
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
