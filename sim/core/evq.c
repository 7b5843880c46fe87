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

void evq_push_from(struct evq *q, simtime_t time, simtime_t ptime, ev_fn fn, void *data,
		   uint64_t arg)
{
	size_t i;
	struct event ev = {time, ptime, q->next_seq++, fn, data, arg};

	assert(ptime >= q->now);
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
	struct event last;
	size_t i = 0;

	if (!q->len)
		return false;
	*ev = q->heap[0];
	q->now = ev->time;
	last = q->heap[--q->len];
	/* Sift down the last element from the root. */
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->len)
			break;
		if (c + 1 < q->len && ev_before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!ev_before(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->len)
		q->heap[i] = last;
	q->dispatched++;
	return true;
}

simtime_t evq_peek_time(const struct evq *q)
{
	assert(q->len > 0);
	return q->heap[0].time;
}
