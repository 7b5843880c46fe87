/* check_evq.c - unit tests for evq.c: the (time, pusher time, sequence) order, FIFO ties,
 * growth, dispatch without the queue. */
#include <check.h>
#include <glib.h>
#include <stdlib.h>

#include "core/evq.h"
#include "core/rng.h"
#include "testutil.h"

/* Events carry their push index in @arg; the handler is never called by these tests. */
static void ev_nop(struct sim *sim, void *data, uint64_t arg)
{
}

/* Pop the first event of @q, which must be at @time with @arg. */
static void pop_is(struct evq *q, simtime_t time, uint64_t arg)
{
	struct event ev;

	ck_assert(evq_pop(q, &ev));
	ck_assert_uint_eq(ev.time, time);
	ck_assert_uint_eq(ev.arg, arg);
}

/* ---- evq_new / evq_free ------------------------------------------------------------------ */

START_TEST(evq_new_empty)
{
	struct evq *q = evq_new();
	struct event ev = {0};

	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(q->len, 0);
	ck_assert_uint_ge(q->cap, 1);
	ck_assert_uint_eq(q->dispatched, 0);
	ck_assert_uint_eq(evq_now(q), 0);
	ck_assert(!evq_pop(q, &ev));
	ck_assert_uint_eq(q->dispatched, 0);
	evq_free(q);
}
END_TEST

START_TEST(evq_free_null)
{
	evq_free(NULL);
}
END_TEST

/* ---- evq_push ---------------------------------------------------------------------------- */

/* 1000 events at one time come out in push order. */
START_TEST(evq_push_tie_order)
{
	struct evq *q = evq_new();
	struct event ev;

	for (uint64_t i = 0; i < 1000; i++)
		evq_push(q, 5000, ev_nop, q, i);
	for (uint64_t i = 0; i < 1000; i++) {
		ck_assert(evq_pop(q, &ev));
		ck_assert_uint_eq(ev.arg, i);
		ck_assert_uint_eq(ev.time, 5000);
		ck_assert_uint_eq(ev.seq, i);
		ck_assert_ptr_eq(ev.data, q);
		ck_assert_ptr_eq(ev.fn, ev_nop);
	}
	ck_assert(!evq_pop(q, &ev));
	evq_free(q);
}
END_TEST

/* Events pushed in a random order, with many equal times, pop sorted by (time, push order). */
START_TEST(evq_push_total_order_random)
{
	enum { N = 5000 };
	struct evq *q = evq_new();
	struct rng r;
	simtime_t *time = g_new(simtime_t, N);
	struct event ev;
	simtime_t last_time = 0;
	uint64_t last_arg = 0;

	rng_seed(&r, 42, 0);
	for (uint64_t i = 0; i < N; i++) {
		time[i] = rng_below(&r, 100); /* about 50 events per time: many ties */
		evq_push(q, time[i], ev_nop, NULL, i);
	}
	for (uint64_t i = 0; i < N; i++) {
		ck_assert(evq_pop(q, &ev));
		ck_assert_uint_eq(ev.time, time[ev.arg]);
		ck_assert_uint_eq(ev.seq, ev.arg);
		if (i) {
			ck_assert_uint_ge(ev.time, last_time);
			if (ev.time == last_time)
				ck_assert_uint_gt(ev.arg, last_arg);
		}
		last_time = ev.time;
		last_arg = ev.arg;
	}
	ck_assert(!evq_pop(q, &ev));
	g_free(time);
	evq_free(q);
}
END_TEST

/* Pushes interleaved with pops (as handlers do) keep the order: a time in the past of the
 * queue's other events still goes first, a tie with a queued event goes after it. */
START_TEST(evq_push_interleaved)
{
	struct evq *q = evq_new();
	struct event ev;

	evq_push(q, 10, ev_nop, NULL, 0);
	evq_push(q, 20, ev_nop, NULL, 1);
	evq_push(q, 30, ev_nop, NULL, 2);
	ck_assert(evq_pop(q, &ev));
	ck_assert_uint_eq(ev.arg, 0);
	evq_push(q, 20, ev_nop, NULL, 3); /* ties with 1: after it */
	evq_push(q, 15, ev_nop, NULL, 4); /* before everything left */
	{
		static const uint64_t want[] = {4, 1, 3, 2};

		for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
			ck_assert(evq_pop(q, &ev));
			ck_assert_uint_eq(ev.arg, want[i]);
		}
	}
	ck_assert(!evq_pop(q, &ev));
	evq_free(q);
}
END_TEST

/* The heap grows far beyond its initial capacity without losing or reordering events. */
START_TEST(evq_push_growth)
{
	enum { N = 100000 };
	struct evq *q = evq_new();
	size_t cap0 = q->cap;
	struct event ev;

	/* Descending times: every push sifts to the root. */
	for (uint64_t i = 0; i < N; i++)
		evq_push(q, (simtime_t)(N - i), ev_nop, NULL, i);
	ck_assert_uint_eq(q->len, N);
	ck_assert_uint_gt(q->cap, cap0);
	ck_assert_uint_ge(q->cap, N);
	for (uint64_t i = 0; i < N; i++) {
		ck_assert(evq_pop(q, &ev));
		ck_assert_uint_eq(ev.time, i + 1);
		ck_assert_uint_eq(ev.arg, N - 1 - i);
	}
	ck_assert_uint_eq(q->len, 0);
	evq_free(q);
}
END_TEST

/* The first of @nr events by (time, pusher time, sequence). */
static size_t ref_first(const struct event *ref, size_t nr)
{
	size_t best = 0;

	for (size_t j = 1; j < nr; j++) {
		const struct event *a = &ref[j], *b = &ref[best];

		if (a->time != b->time ? a->time < b->time
		    : a->ptime != b->ptime ? a->ptime < b->ptime : a->seq < b->seq)
			best = j;
	}
	return best;
}

/* Handlers pop, peek, push (as pushed now or by a later step), and push and pop as one,
 * in every order: the queue gives what a plain scan for the smallest (time, pusher time,
 * sequence) gives, after every step. */
START_TEST(evq_mixed_ops_random)
{
	enum { N = 20000 };
	struct evq *q = evq_new();
	struct event *ref = g_new(struct event, N), ev;
	size_t nr = 0;
	struct rng r;

	rng_seed(&r, 7, 0);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t dice = rng_below(&r, 10);
		size_t best = ref_first(ref, nr);

		if (nr && dice < 4) {
			pop_is(q, ref[best].time, ref[best].arg);
			ref[best] = ref[--nr];
		} else if (nr && dice < 5) {
			ck_assert_uint_eq(evq_peek_time(q), ref[best].time);
		} else {
			/* ties with queued events, also of their pushers' times */
			simtime_t p = evq_now(q) + rng_below(&r, 3), t = p + rng_below(&r, 50);

			ref[nr++] = (struct event){.time = t, .ptime = p, .seq = q->next_seq, .arg = i};
			if (dice < 8) {
				evq_push_from(q, t, p, ev_nop, NULL, i);
			} else {
				best = ref_first(ref, nr);
				evq_push_pop(q, t, p, ev_nop, NULL, i, &ev);
				ck_assert_uint_eq(ev.time, ref[best].time);
				ck_assert_uint_eq(ev.arg, ref[best].arg);
				ck_assert_uint_eq(evq_now(q), ev.time);
				ref[best] = ref[--nr];
			}
		}
		ck_assert_uint_eq(q->len, nr);
	}
	while (nr) {
		size_t best = ref_first(ref, nr);

		pop_is(q, ref[best].time, ref[best].arg);
		ref[best] = ref[--nr];
	}
	ck_assert(!evq_pop(q, &ev));
	g_free(ref);
	evq_free(q);
}
END_TEST

/* ---- evq_pop ----------------------------------------------------------------------------- */

START_TEST(evq_pop_dispatched_count)
{
	struct evq *q = evq_new();
	struct event ev;

	for (int i = 0; i < 7; i++)
		evq_push(q, (simtime_t)i, ev_nop, NULL, 0);
	for (uint64_t i = 1; i <= 7; i++) {
		ck_assert(evq_pop(q, &ev));
		ck_assert_uint_eq(q->dispatched, i);
		ck_assert_uint_eq(q->len, 7 - i);
	}
	/* An empty pop dispatches nothing. */
	ck_assert(!evq_pop(q, &ev));
	ck_assert_uint_eq(q->dispatched, 7);
	/* Sequence numbers keep counting across pops. */
	evq_push(q, 100, ev_nop, NULL, 0);
	ck_assert(evq_pop(q, &ev));
	ck_assert_uint_eq(ev.seq, 7);
	ck_assert_uint_eq(q->dispatched, 8);
	evq_free(q);
}
END_TEST

START_TEST(evq_pop_empty_keeps_now)
{
	struct evq *q = evq_new();
	struct event ev;

	evq_push(q, 1234, ev_nop, NULL, 0);
	ck_assert(evq_pop(q, &ev));
	ck_assert(!evq_pop(q, &ev));
	ck_assert_uint_eq(evq_now(q), 1234);
	evq_free(q);
}
END_TEST

/* ---- evq_now ----------------------------------------------------------------------------- */

START_TEST(evq_now_tracks_pops)
{
	static const simtime_t times[] = {300, 100, 200, 100, 0, 5000000};
	static const simtime_t sorted[] = {0, 100, 100, 200, 300, 5000000};
	struct evq *q = evq_new();
	struct event ev;

	for (size_t i = 0; i < G_N_ELEMENTS(times); i++)
		evq_push(q, times[i], ev_nop, NULL, i);
	/* Pushing does not move the clock. */
	ck_assert_uint_eq(evq_now(q), 0);
	for (size_t i = 0; i < G_N_ELEMENTS(sorted); i++) {
		ck_assert(evq_pop(q, &ev));
		ck_assert_uint_eq(evq_now(q), sorted[i]);
		ck_assert_uint_eq(ev.time, sorted[i]);
	}
	evq_free(q);
}
END_TEST

/* ---- evq_peek_time ----------------------------------------------------------------------- */

START_TEST(evq_peek_time_first)
{
	struct evq *q = evq_new();
	struct event ev;

	evq_push(q, 50, ev_nop, NULL, 0);
	ck_assert_uint_eq(evq_peek_time(q), 50);
	evq_push(q, 20, ev_nop, NULL, 1);
	ck_assert_uint_eq(evq_peek_time(q), 20);
	evq_push(q, 20, ev_nop, NULL, 2);
	ck_assert_uint_eq(evq_peek_time(q), 20);
	ck_assert(evq_pop(q, &ev));
	ck_assert_uint_eq(ev.arg, 1);
	/* Peeking does not pop and does not move the clock. */
	ck_assert_uint_eq(evq_peek_time(q), 20);
	ck_assert_uint_eq(q->len, 2);
	ck_assert_uint_eq(q->dispatched, 1);
	evq_free(q);
}
END_TEST

/* ---- evq_push_from / evq_push_pop ---------------------------------------------------- */

/* At one time, an event pushed as by a later pusher goes after one pushed later by an
 * earlier pusher; equal pushers keep push order.  A handler at time 10 pushes 0 (as pushed
 * at 15) and 1 (at 10), then 2 (as at 15): at time 20 they come out 1, 0, 2. */
START_TEST(evq_push_from_pusher_order)
{
	struct evq *q = evq_new();

	evq_push(q, 10, ev_nop, q, 9);
	pop_is(q, 10, 9);
	evq_push_from(q, 20, 15, ev_nop, q, 0);
	evq_push(q, 20, ev_nop, q, 1);
	evq_push_from(q, 20, 15, ev_nop, q, 2);
	evq_push(q, 19, ev_nop, q, 3);
	pop_is(q, 19, 3);
	pop_is(q, 20, 1);
	pop_is(q, 20, 0);
	pop_is(q, 20, 2);
	evq_free(q);
}
END_TEST

/* evq_push is evq_push_from the current time: pushes by handlers in time order keep FIFO. */
START_TEST(evq_push_from_now_is_push)
{
	struct evq *q = evq_new();

	evq_push(q, 5, ev_nop, q, 0);
	pop_is(q, 5, 0);
	evq_push(q, 8, ev_nop, q, 1);
	evq_push_from(q, 8, 5, ev_nop, q, 2);
	evq_push(q, 8, ev_nop, q, 3);
	for (uint64_t i = 1; i <= 3; i++)
		pop_is(q, 8, i);
	evq_free(q);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *evq_suite(void)
{
	Suite *s = suite_create("evq");
	TCase *tc;

	tc = tcase(s, "evq_new");
	tcase_add_test(tc, evq_new_empty);
	tc = tcase(s, "evq_free");
	tcase_add_test(tc, evq_free_null);
	tc = tcase(s, "evq_push");
	tcase_add_test(tc, evq_push_tie_order);
	tcase_add_test(tc, evq_push_total_order_random);
	tcase_add_test(tc, evq_push_interleaved);
	tcase_add_test(tc, evq_push_growth);
	tcase_add_test(tc, evq_mixed_ops_random);
	tc = tcase(s, "evq_push_from");
	tcase_add_test(tc, evq_push_from_pusher_order);
	tcase_add_test(tc, evq_push_from_now_is_push);
	tc = tcase(s, "evq_pop");
	tcase_add_test(tc, evq_pop_dispatched_count);
	tcase_add_test(tc, evq_pop_empty_keeps_now);
	tc = tcase(s, "evq_now");
	tcase_add_test(tc, evq_now_tracks_pops);
	tc = tcase(s, "evq_peek_time");
	tcase_add_test(tc, evq_peek_time_first);
	return s;
}

int main(void)
{
	return tu_run(evq_suite());
}
