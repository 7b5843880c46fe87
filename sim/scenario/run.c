/*
 * run.c - one variant's simulation: threads of actors as events on the queue; see run.h.
 *
 * Each CPU of an actor is a thread that runs the actor's loop.  A thread has exactly one
 * pending event: "issue my next operation", scheduled at the time the memory system says the
 * CPU can go on.  Threads start at time 0 in actor order then CPU order, so ties at a time are
 * broken by that order (evq's FIFO on scheduling).  Delays draw from the thread's own random
 * stream, seeded from (scenario seed, actor, CPU).  The end time cuts a thread at its first
 * step at or past it, also inside a path call; a clock that would pass SIMTIME_MAX stops
 * the run (types.h).
 */
#include "scenario/run.h"

#include <glib.h>

#include "core/evq.h"
#include "core/rng.h"
#include "scenario/run_int.h"
#include "scenario/runwatch.h"
#include "scenario/scenario.h"

/* Compute time of @cpu stretched when its core's SMT threads all run (machine parameter);
 * past SIMTIME_MAX it saturates there and beyond (the clock check stops the run). */
static simtime_t smt_scale(const struct sim *sim, int cpu, simtime_t d)
{
	simtime_t x;

	if (!sim->cpu_shared[cpu])
		return d;
	return simtime_pct(d, sim->v->mc.smt_compute_pct, &x) ? x : TIME_PAST_MAX;
}

/* thread_done - has the thread run all it was asked to, after finishing an iteration? */
static bool thread_done(const struct sim *sim, const struct thread *t)
{
	if (t->a->loops)
		return t->iter >= t->a->loops;
	return sim->v->end_iterations && t->iter >= sim->v->end_iterations;
}

/* The run stops on an invariant violation, a model error or a clock overflow (one branch). */
static bool sim_stopped(const struct sim *sim)
{
	return sim->mem->failed | *sim->model_err | sim->clock_err.set | sim->tie;
}

/* Is @when at or past the end time?  Then the thread is cut there. */
static bool past_end(struct sim *sim, simtime_t when)
{
	if (when < sim->end_at)
		return false;
	sim->cut = true;
	return true;
}

/* Does @t's clock pass SIMTIME_MAX at @next, after its step at @now?  Then the end time cuts
 * the thread, or, in a run without one, the run stops with a message. */
static bool clock_passes_max(struct sim *sim, const struct thread *t, simtime_t now,
			     simtime_t next)
{
	if (next <= SIMTIME_MAX || past_end(sim, next))
		return next > SIMTIME_MAX;
	err_setf(&sim->clock_err, "the simulated clock of cpu %d (actor %s) would pass "
		 "SIMTIME_MAX = %" G_GUINT64_FORMAT " ps (about 106 days) after %" G_GUINT64_FORMAT
		 " ps; the run stops (expected an end time or durations that fit)", t->cpu,
		 t->a->name, SIMTIME_MAX, now);
	return true;
}

/* Does @t's op @pc make nothing new (mem_access_known; delays touch nothing)?  Cached. */
static bool op_known(struct sim *sim, struct thread *t, uint32_t pc)
{
	const struct op *op = &t->a->ops[pc];

	if (op->kind == OP_DELAY || t->known[pc])
		return true;
	if (!mem_access_known(sim->mem, t->cpu, op->addr + (uint64_t)t->cpu * op->cpu_stride,
			      op->size, op->site, DIR_NONE))
		return false;
	t->known[pc] = 1;
	return true;
}

/* Is @t (its core may run ahead) settled: every op of its loop known, so that each step it
 * will run commutes with other cores' events (runahead.h)?  One op looked at per call. */
static bool thread_settled(struct sim *sim, struct thread *t)
{
	if (t->ra.settled)
		return true;
	while (t->nr_settled < t->a->nr_ops && op_known(sim, t, t->nr_settled))
		t->nr_settled++;
	return t->ra.settled = t->nr_settled == t->a->nr_ops;
}

/* Schedule @t's next step at @next, pushed by its step at @pusher, unless the end time cuts
 * it or the clock overflows.  The push waits as sim->held for the run loop's next pop, with
 * which it goes as one (evq_push_pop: a step that comes first never enters the heap); a
 * second push in the step pushes the first.  A step pushed by a step run ahead (@pusher past
 * the queue's time) goes into the pending table (ra_tie()). */
static inline __attribute__((always_inline)) void
schedule(struct sim *sim, struct thread *t, simtime_t next, simtime_t pusher)
{
	struct thread *h = sim->held;

	t->live = false;
	if (past_end(sim, next) || clock_passes_max(sim, t, pusher, next))
		return;
	t->live = t->queued = true;
	t->ptime = next;
	t->ra.pusher = pusher;
	if (t->priv)
		thread_settled(sim, t);
	if (sim->pending)
		sim->tie |= ra_tie(sim->pending, &t->ra, next, pusher);
	if (h)
		evq_push_from(sim->q, sim->held_time, sim->held_pusher, thread_step, h, h->gen);
	sim->held = t;
	sim->held_time = next;
	sim->held_pusher = pusher;
	/* Only a step run ahead of the queue (form 2: a priv thread's) pushes past its time. */
	if (pusher > evq_now(sim->q) && !t->ra.settled)
		ra_pending_add(sim->pending, &t->ra, next);
}

/* May a step at @next be dispatched now, without the queue, as far as the run's bounds go?
 * Not past sim->early_end (end time, clock's end, limits, warm-up's end), not past
 * sim->budget (the event limit, the host watch's next look), not once the run has stopped. */
static bool early_bounds(struct sim *sim, simtime_t next)
{
	return next < sim->early_end && sim->q->dispatched < sim->budget && !sim_stopped(sim);
}

/* The count of dispatched events below which a step may be dispatched without the queue,
 * from a look of the host watch at @d events (a multiple of RUNWATCH_EVENTS) to the next. */
static uint64_t early_budget(const struct sim *sim, uint64_t d)
{
	return d + RUNWATCH_EVENTS < sim->lim->events ? d + RUNWATCH_EVENTS : sim->lim->events;
}

/* Form 1 of run-ahead (runahead.h): may the step at @next of a thread whose step just
 * ended run at once, as the event the run loop would dispatch next?  Within early_bounds(),
 * before every queued event, whose first time, *@first (no later than the early end, which
 * only warmup_done() moves: one test), is looked up again only after a push (a waker's:
 * *@seq, the queue's count of pushes, changed).  It then counts as dispatched. */
static inline bool dispatch_next(struct sim *sim, simtime_t next, simtime_t *first,
				 uint64_t *seq)
{
	struct evq *q = sim->q;

	if (*seq != q->next_seq) {
		*seq = q->next_seq;
		*first = q->len ? evq_peek_time(q) : UINT64_MAX;
		if (*first > sim->early_end)
			*first = sim->early_end;
	}
	if (next >= *first || q->dispatched >= sim->budget || sim_stopped(sim))
		return false;
	q->now = next;
	q->dispatched++;
	return true;
}

/* May @t's next step, at @next, run now, ahead of queued events (runahead.h)?  Within
 * early_bounds(), a settled thread's ops all known.  It counts as dispatched, as its event. */
static bool run_early(struct sim *sim, struct thread *t, simtime_t next)
{
	if (!t->priv || !t->live || !early_bounds(sim, next) ||
	    (!t->ra.settled && !op_known(sim, t, t->pc)))
		return false;
	sim->q->dispatched++;
	sim->ran_ahead++;
	return true;
}

/* The next event to dispatch: the held push's and the pop's, or the pop's; stale ones skipped. */
static bool next_event(struct sim *sim, struct event *ev)
{
	struct thread *h = sim->held;
	bool got = true;

	sim->held = NULL;
	if (h)
		evq_push_pop(sim->q, sim->held_time, sim->held_pusher, thread_step, h, h->gen, ev);
	else
		got = evq_pop(sim->q, ev);
	for (; got; got = evq_pop(sim->q, ev)) {
		const struct thread *t = ev->data;

		if (ev->fn != thread_step || ev->arg == t->gen)
			return true;
		sim->q->dispatched--; /* its step ran ahead and was counted then */
		sim->nr_stale--;
	}
	return false;
}

/* @t's operation at pc, at @now, is over: its next step is at @next (at least a step later).
 * Return: false when the thread stops here (finished, or the clock's end); else true with
 * *next_out. */
static inline __attribute__((always_inline)) bool
op_done(struct sim *sim, struct thread *t, simtime_t now, simtime_t next, simtime_t *next_out)
{
	/* Time must advance, or a loop of zero delays would never reach the end time. */
	if (next == now)
		next++;
	if (clock_passes_max(sim, t, now, next))
		return false; /* not even a last iteration may finish past the clock's end */
	if (++t->pc == t->a->nr_ops) {
		t->pc = 0;
		t->iter++;
		t->res->iterations++;
		if (thread_done(sim, t)) {
			if (next > sim->end)
				sim->end = next;
			return false;
		}
	}
	*next_out = next;
	return true;
}

/* A path call's step at @now (thread_op()).  When the call returns, its operation is over
 * at its last step, which world.step_on may have taken past @now (ptask.now). */
static inline __attribute__((always_inline)) bool
call_op(struct sim *sim, struct thread *t, simtime_t now, simtime_t *next_out)
{
	simtime_t next;

	if (!t->in_call) {
		const struct op *op = &t->a->ops[t->pc];

		interp_call(&t->pt, (uint32_t)op->call, op->args, now);
		t->in_call = true;
	}
	sim->world->step_on.until = sim_step_on_until(sim);
	next = interp_run(&t->pt, now);
	if (next == INTERP_PARKED || next == INTERP_STOPPED)
		return false; /* world->wake reschedules it, or the run is over */
	if (next != INTERP_DONE) {
		*next_out = next; /* the end time cuts the call, uncounted */
		return true;
	}
	t->in_call = false;
	return op_done(sim, t, t->pt.now, t->pt.now, next_out);
}

/* The memos' entry points (mem_memo_op) by operation: one load, not up to three tests. */
static simtime_t (*const memo_entry[])(struct mem *, struct mem_memo *, simtime_t) = {
	mem_memo_load, mem_memo_store, mem_memo_rmw, mem_memo_locked};

/* Run @t's operation at pc, at @now (@raw: a step of a settled core's thread, so a raw
 * operation and no step time to keep; @nocall: its loop has no path call; constants).  Return:
 * false when the thread stops here (finished, cut, parked, run over); else true, *@next_out. */
static inline __attribute__((always_inline)) bool
thread_op(struct sim *sim, struct thread *t, simtime_t now, simtime_t *next_out, bool raw,
	  bool nocall)
{
	struct mem_memo *mm;
	const struct op *op;
	simtime_t next, d;

	if (!raw && !t->ra.settled)
		ra_step(&t->ra, now); /* only unsettled threads' ties are told (ra_tie) */
	/* A call's later steps (the most steps that get here) need not look its op up. */
	if (!raw && !nocall && t->calls && (t->in_call || t->a->ops[t->pc].kind == OP_CALL))
		return call_op(sim, t, now, next_out);
	mm = &t->memo[t->pc];
	/* An ok memo (one line; a delay's is all zero) serves its step, others refuse all. */
	if (mm->ok && (next = memo_entry[mm->op](sim->mem, mm, now)) != MEM_MEMO_REFUSED)
		return op_done(sim, t, now, next, next_out);
	op = &t->a->ops[t->pc];
	if (op->kind == OP_DELAY) {
		/* Durations are at most SIMTIME_MAX (2^63 - 1), so max - min + 1 fits; the
		 * stretch and the sum with the clock are checked. */
		d = smt_scale(sim, t->cpu, op->delay_min +
			      (op->delay_max > op->delay_min
				       ? rng_below(&t->rng, op->delay_max - op->delay_min + 1) : 0));
		if (__builtin_add_overflow(now, d, &next))
			next = TIME_PAST_MAX;
	} else { /* the memo refused it, or is not ok (memo_full()): no memo asked again */
		next = mem_access(sim->mem, t->cpu, op->addr + (uint64_t)t->cpu * op->cpu_stride,
				  op->size, (enum mem_op)op->kind, op->site, now);
	}
	return op_done(sim, t, now, next, next_out);
}

/* Does @u's next step come before @b's, as the queue orders them: by time, then by push? */
static inline bool goes_before(const struct thread *u, const struct thread *b)
{
	return u->ptime < b->ptime || (u->ptime == b->ptime && u->lseq < b->lseq);
}

/* The thread of @t's core whose next step comes first (goes_before); NULL when none has
 * one. */
static inline struct thread *core_first(struct thread *t)
{
	struct thread *best = NULL, *u = t->sib;

	if (u->sib == t) { /* a core of one or two threads, as on every shipped machine */
		if (!t->live)
			return u->live ? u : NULL;
		return u->live && goes_before(u, t) ? u : t;
	}
	u = t;
	do {
		if (u->live && (!best || goes_before(u, best)))
			best = u;
		u = u->sib;
	} while (u != t);
	return best;
}

/* @t's step ran (it was dispatched or unqueued: not queued); @ok: it has a next one at
 * @next, which the step at @now pushes. */
static void step_pushed(struct thread *t, bool ok, simtime_t now, simtime_t next)
{
	t->live = ok;
	t->ptime = next;
	t->ra.pusher = now;
	t->lseq = ++*t->ra.core_seq;
}

/* Push the next steps of @t's core that ran ahead, in the order they were pushed. */
static void core_schedule(struct sim *sim, struct thread *t)
{
	struct thread *u;

	while ((u = NULL, 1)) {
		struct thread *v = t;

		do {
			if (v->live && !v->queued && (!u || v->lseq < u->lseq))
				u = v;
			v = v->sib;
		} while (v != t);
		if (!u)
			return;
		schedule(sim, u, u->ptime, u->ra.pusher);
	}
}

/* Take @u's next step out of the queue, to run it ahead: its queued event goes stale. */
static inline void unqueue(struct sim *sim, struct thread *u)
{
	if (!u->queued)
		return;
	u->queued = false;
	u->gen++;
	sim->nr_stale++;
	if (sim->pending)
		ra_pending_del(sim->pending, &u->ra);
}

/* Is every thread of @t's core settled (runahead.h)?  Then none records step times or goes
 * into the pending table, and each of their steps may run ahead as long as run_early()'s
 * bounds of time, events and failure allow. */
static bool core_settled(const struct thread *t)
{
	const struct thread *u = t;

	do {
		if (!u->ra.settled)
			return false;
		u = u->sib;
	} while (u != t);
	return true;
}

/* The steps of a settled core (core_settled()) after @t's, in the queue's order, as
 * thread_step()'s loop runs them, with run_early()'s tests that cannot change among them
 * (which threads may, which are settled, the budget of events) made once.  Only the memory
 * system's failure and the clock's end, in a step that stops its thread, can stop the run
 * here (no path calls, no ties).  Return: the thread that ran last. */
static struct thread *core_run_settled(struct sim *sim, struct thread *t)
{
	const simtime_t horizon = sim->early_end;
	const uint64_t budget = sim->budget, first = sim->q->dispatched;
	const bool *failed = &sim->mem->failed, *clock_err = &sim->clock_err.set;
	uint64_t d = first; /* the queue's count, kept here: no step reads it */
	struct thread *u;
	simtime_t next = 0;
	bool ok;

	while ((u = core_first(t)) && u->ptime < horizon && d < budget && !*failed) {
		unqueue(sim, u);
		d++;
		t = u;
		ok = thread_op(sim, t, t->ptime, &next, true, true);
		step_pushed(t, ok, t->ptime, next);
		if (!ok && *clock_err)
			break;
	}
	sim->q->dispatched = d;
	sim->ran_ahead += d - first;
	return t;
}

/* The step at @now of @t, whose core may run ahead, then its threads' next steps in the
 * queue's order as long as each may (run_early); then the next steps are scheduled.  Not
 * inline: the other threads' steps (thread_step) then save none of its registers. */
static __attribute__((noinline)) void core_steps(struct sim *sim, struct thread *t,
						  simtime_t now)
{
	struct thread *u;
	simtime_t next = 0;
	bool ok;

	for (;;) {
		ok = thread_op(sim, t, now, &next, false, false);
		step_pushed(t, ok, now, next);
		if (core_settled(t) && !sim_stopped(sim)) {
			t = core_run_settled(sim, t);
			break;
		}
		if (!(u = core_first(t)) || !run_early(sim, u, u->ptime))
			break;
		unqueue(sim, u);
		t = u;
		now = t->ptime;
	}
	core_schedule(sim, t);
}

/* dispatch_next()'s loop for @t, a thread without path calls, its next step at *@next: raw
 * operations push no event and stop the run only by the memory system's failure (the clock's
 * end stops the thread), so the queue's first time, the stop flags and the budget are looked
 * up once, its count and time kept here.  Return: false when the thread stops; else true. */
static inline __attribute__((always_inline)) bool run_raw(struct sim *sim, struct thread *t,
							   simtime_t *next)
{
	struct evq *q = sim->q;
	const bool *failed = &sim->mem->failed;
	const uint64_t budget = sim->budget;
	simtime_t first = q->len ? evq_peek_time(q) : UINT64_MAX, now = q->now;
	uint64_t d = q->dispatched;
	bool ok = true;

	if (first > sim->early_end)
		first = sim->early_end;
	if (sim_stopped(sim))
		return true;
	while (*next < first && d < budget && !*failed) {
		now = *next;
		d++;
		if (!(ok = thread_op(sim, t, now, next, false, true)))
			break;
	}
	q->now = now;
	q->dispatched = d;
	return ok;
}

/* A thread's step: its operation, then its next step is scheduled (core_steps() for a core
 * that may run ahead).  Inline into the run loop (dispatch()) and thread_step. */
static inline __attribute__((always_inline)) void thread_run(struct sim *sim, struct thread *t)
{
	simtime_t now = evq_now(sim->q), next = 0;

	t->queued = t->live = false;
	if (sim->pending)
		ra_pending_del(sim->pending, &t->ra);
	/* A thread woken past the end time (a lock waiter) stops there too. */
	if (past_end(sim, now))
		return;
	if (t->priv) {
		core_steps(sim, t, now);
		return;
	}
	if (!thread_op(sim, t, now, &next, false, false))
		return;
	if (!t->calls && sim->run_ahead) {
		if (!run_raw(sim, t, &next))
			return;
	} else if (!t->in_call && sim->run_ahead) {
		simtime_t first = 0;
		uint64_t seq = 0; /* no first time yet (dispatch_next): the queue has had a push */

		/* Its next steps run at once while each comes first (a path call's: step_on). */
		while (dispatch_next(sim, next, &first, &seq)) {
			now = t->ptime = next;
			if (!thread_op(sim, t, now, &next, false, false))
				return;
			if (t->in_call)
				break;
		}
	}
	/* pushed by the step run last: a path call's may have gone on (step_on) */
	schedule(sim, t, next, evq_now(sim->q));
}

void thread_step(struct sim *sim, void *data, uint64_t arg)
{
	(void)arg;
	thread_run(sim, data);
}

/* Run the handler of @ev: a thread's step (most events) without the call of thread_step. */
static inline __attribute__((always_inline)) void dispatch(struct sim *sim,
							    const struct event *ev)
{
	if (ev->fn == thread_step)
		thread_run(sim, ev->data);
	else
		ev->fn(sim, ev->data, ev->arg);
}

/* May @ev, just popped, be dispatched within the scenario's event and time limits?  If not,
 * the run stops as a failure of the memory system would (mem->failed), marked as a limit. */
static bool within_limits(struct sim *sim, const struct event *ev)
{
	struct mem *m = sim->mem;

	if (sim->q->dispatched > sim->lim->events)
		limits_fail(m->fail_msg, sizeof(m->fail_msg), sim->lim, LIMIT_OF(events),
			    "dispatched");
	else if (ev->time > sim->max_time)
		limits_fail(m->fail_msg, sizeof(m->fail_msg), sim->lim, LIMIT_OF(time_us),
			    "simulated");
	else
		return true;
	m->failed = m->limit_reached = true;
	return false;
}

/* run_variant() once, with or without @run_ahead.  Return NULL with *tie set when run-ahead
 * met a tie it cannot order (runahead.h): nothing of that run is kept. */
static struct run_result *run_once(const struct scenario *sc, uint32_t vi, bool check,
				   bool run_ahead, bool *tie, struct c2c_err *err)
{
	const struct variant *v = &sc->v[vi];
	struct run_result *r = g_new0(struct run_result, 1);
	struct sim sim = {.q = evq_new(), .v = v, .lim = &sc->limits,
			  .max_time = limits_time_ps(&sc->limits), .run_ahead = run_ahead,
			  .end_at = v->end_time ? v->end_time : UINT64_MAX,
			  .model_err = &(const bool){false},
			  .warm_pending = v->warmup != 0};
	uint32_t nr_threads;
	struct thread *th;
	struct event ev;

	run_result_init(r, v);
	sim.mem = r->mem = mem_new(&v->mc, &v->objs, check);
	sim.mem->lim = &sc->limits;
	run_track_lines(sim.mem, sc, v);
	sim.cpu_shared = smt_sharing(v);
	if (run_ahead)
		sim.pending = ra_pending_new();
	sim.early_end = early_horizon(&sim);
	sim.budget = early_budget(&sim, 0);
	if (v->prog)
		world_start(&sim, r);
	th = threads_start(&sim, r, &nr_threads);
	if (v->warmup)
		evq_push(sim.q, v->warmup, warmup_done, r, 0);
	while (!sim_stopped(&sim) && next_event(&sim, &ev) && within_limits(&sim, &ev)) {
		dispatch(&sim, &ev);
		/* The host's watch (runwatch.h): a signal stops the run between two events. */
		if (sim.q->dispatched % RUNWATCH_EVENTS)
			continue;
		sim.budget = early_budget(&sim, sim.q->dispatched);
		if (runwatch_poll(v->name, vi, evq_now(sim.q), v->end_time, sim.q->dispatched)) {
			r->interrupted = true;
			break;
		}
	}
	/* A signal that stopped a call (world.stop) may have emptied the queue before a poll. */
	r->interrupted |= runwatch_signal() != 0;
	r->events = sim.q->dispatched;
	r->ran_ahead = sim.ran_ahead;
	r->sim_time = r->interrupted ? evq_now(sim.q)
		    : sim.cut && v->end_time > sim.end ? v->end_time : sim.end;
	r->warmup = v->warmup < r->sim_time ? v->warmup : 0;
	r->sim_time -= r->warmup; /* throughput is over the measured window */
	sim_release(&sim, th, nr_threads);
	*tie = sim.tie && !r->interrupted;
	if (*tie || (sim_stopped(&sim) && !sim.tie)) {
		/* A model error names its path operation first; err keeps the first message. */
		if (!*tie && sim.world && sim.world->model_err.set)
			err_setf(err, "%s (variant %s)", sim.world->model_err.msg, v->name);
		if (!*tie)
			err_setf(err, "%s: variant %s: %s", sc->path, v->name,
				 sim.clock_err.set ? sim.clock_err.msg : sim.mem->fail_msg);
		err->limit = !*tie && sim.mem->limit_reached;
		run_result_free(r);
		return NULL;
	}
	return r;
}

struct run_result *run_variant(const struct scenario *sc, uint32_t vi, bool check,
			       struct c2c_err *err)
{
	bool tie = false;
	struct run_result *r = run_once(sc, vi, check, !sc->no_run_ahead, &tie, err);

	/* Run-ahead gives the queue's results or none: then the queue alone gives them. */
	if (tie)
		r = run_once(sc, vi, check, false, &tie, err);
	return r;
}
