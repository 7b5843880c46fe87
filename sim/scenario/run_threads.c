/* run_threads.c - the threads of a run and what they share, set up before the first event
 * and freed after the last, and the run's bounds in time: the early horizon and the warm-up's
 * end (see run.c). */
#include "scenario/run_int.h"

#include <glib.h>
#include <string.h>

#include "scenario/runwatch.h"
#include "scenario/scenario.h"

/* Which CPUs share their core with another running thread: every SMT thread of the core is
 * given to some actor.  Decided once, from the scenario, so it cannot depend on timing. */
uint8_t *smt_sharing(const struct variant *v)
{
	const struct machine *mc = &v->mc;
	uint8_t *busy = g_new0(uint8_t, mc->nr_cpus), *shared = g_new0(uint8_t, mc->nr_cpus);

	for (uint32_t a = 0; a < v->nr_actors; a++)
		for (uint32_t c = 0; c < v->actors[a].nr_cpus; c++)
			busy[v->actors[a].cpus[c]] = 1;
	for (int c = 0; c < mc->nr_cpus && mc->smt > 1; c++) {
		int all = busy[c];

		for (int s = 0; s < mc->smt; s++)
			all &= busy[machine_cpu_core(mc, c) + s * mc->nr_cores];
		shared[c] = (uint8_t)all;
	}
	g_free(busy);
	return shared;
}

/* Link the threads of each core into a ring (sib), sharing the core's push count, in start
 * order: the queue's order of their first steps. */
static void core_rings(struct sim *sim, struct thread *th, uint32_t nr)
{
	struct thread **last = g_new0(struct thread *, sim->v->mc.nr_cores);

	sim->core_seq = g_new0(uint64_t, sim->v->mc.nr_cores);
	for (uint32_t i = 0; i < nr; i++) {
		int core = machine_cpu_core(&sim->v->mc, th[i].cpu);
		struct thread *prev = last[core];

		th[i].ra.core_seq = &sim->core_seq[core];
		th[i].lseq = ++sim->core_seq[core];
		th[i].sib = prev ? prev->sib : &th[i];
		if (prev)
			prev->sib = &th[i];
		last[core] = &th[i];
	}
	g_free(last);
}

/* The memos of @t's memory operations (mem_access_memo): at its CPU's instance. */
static void thread_memos(struct sim *sim, struct thread *t)
{
	const struct actor *a = t->a;

	t->memo = g_new0(struct mem_memo, a->nr_ops);
	for (uint32_t i = 0; i < a->nr_ops; i++) {
		const struct op *op = &a->ops[i];

		t->calls |= op->kind == OP_CALL;
		if (op->kind <= OP_LOCKED_RMW)
			mem_memo_init(sim->mem, &t->memo[i], t->cpu,
				      op->addr + (uint64_t)t->cpu * op->cpu_stride, op->size,
				      (enum mem_op)op->kind, op->site);
	}
}

/* One thread per CPU of every actor, each with its first step queued at time 0, in actor
 * order then CPU order; the ones that may run ahead of the queue are marked (runahead.h). */
struct thread *threads_start(struct sim *sim, struct run_result *r, uint32_t *nr)
{
	const struct variant *v = sim->v;
	uint32_t n = 0;
	struct thread *th;
	uint8_t *priv;

	*nr = 0;
	for (uint32_t a = 0; a < v->nr_actors; a++)
		*nr += v->actors[a].nr_cpus;
	th = g_new0(struct thread, *nr);
	/* The invariant checks keep a trail of transitions in order: no run-ahead past them. */
	priv = sim->pending && !sim->mem->check ? runahead_private(v, *nr) : g_new0(uint8_t, *nr);
	for (uint32_t a = 0; a < v->nr_actors; a++) {
		for (uint32_t c = 0; c < v->actors[a].nr_cpus; c++, n++) {
			th[n] = (struct thread){.a = &v->actors[a], .res = &r->actors[a],
						.cpu = v->actors[a].cpus[c], .priv = priv[n],
						.ra.idx = n};
			rng_seed(&th[n].rng, v->seed, (uint64_t)a * C2C_MAX_CPUS + (uint64_t)th[n].cpu);
			if (sim->world)
				pthread_init(&th[n].pt, sim->world, &th[n], th[n].cpu);
			if (th[n].priv)
				th[n].known = g_new0(uint8_t, v->actors[a].nr_ops);
			thread_memos(sim, &th[n]);
			th[n].live = th[n].queued = true;
			evq_push(sim->q, 0, thread_step, &th[n], 0);
		}
	}
	/* Without a thread that may run ahead, no step is pushed by a step run ahead: no tie to
	 * tell (only form 1 of runahead.h, always exact), no table to keep and no step times:
	 * every thread counts as settled. */
	if (!memchr(priv, 1, *nr)) {
		ra_pending_free(sim->pending);
		sim->pending = NULL;
		for (uint32_t i = 0; i < *nr; i++)
			th[i].ra.settled = true;
	}
	g_free(priv);
	core_rings(sim, th, *nr);
	sim_step_on_end(sim);
	return th;
}

/* The @nr threads of threads_start() and what each holds. */
static void threads_free(struct sim *sim, struct thread *th, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		if (sim->world)
			pthread_release(&th[i].pt);
		g_free(th[i].known);
		g_free(th[i].memo);
	}
	g_free(th);
}

/* What a run leaves behind but its result: the queue, the threads, the caches (no report
 * reads them). */
void sim_release(struct sim *sim, struct thread *th, uint32_t nr_threads)
{
	evq_free(sim->q);
	mem_retire(sim->mem);
	g_free(sim->cpu_shared);
	g_free(sim->core_seq);
	ra_pending_free(sim->pending);
	threads_free(sim, th, nr_threads);
	if (sim->world) { /* the queue is gone */
		sim->world->wake = NULL;
		sim->world->step_on = (struct step_on){0};
	}
}

/* world->wake: a parked thread continues at @when. */
static void wake_thread(void *data, void *thread, simtime_t when)
{
	struct sim *sim = data;

	sim->tie |= sim->pending && ra_tie(sim->pending, NULL, when, evq_now(sim->q));
	evq_push(sim->q, when, thread_step, thread, 0);
	/* Pushed inside a call's step: that call's next step goes on only before it. */
	if (sim->world->step_on.until > when)
		sim->world->step_on.until = when;
	if (sim->tie)
		sim->world->step_on.until = 0;
}

void world_start(struct sim *sim, struct run_result *r)
{
	const struct variant *v = sim->v;

	r->prog = v->prog;
	sim->world = r->world = g_new0(struct world, 1);
	sim->model_err = &sim->world->model_err.set;
	world_init(sim->world, v->prog, sim->mem, &v->mc, &v->ents, v->lock_kind,
		   PERCPU_BASE + PERCPU_QNODE, WORK_BASE);
	sim->world->stop = runwatch_flag();
	sim->world->wake = wake_thread;
	sim->world->step_on = (struct step_on){.count = &sim->q->dispatched,
						.budget = &sim->budget, .now = &sim->q->now};
	sim->world->wake_data = sim;
	sim->world->cpu_shared = sim->cpu_shared;
	/* `work` and delays stop at the end time; without one, just past the simulated time
	 * limit, where the run then stops as a limit (no call runs unbounded). */
	sim->world->end_time = v->end_time ? v->end_time
			     : sim->max_time < SIMTIME_MAX ? sim->max_time + 1 : 0;
}

/* The time from which run_early() runs no step: the end time, the clock's end, the run's
 * time limit, the warm-up's end while it is queued. */
simtime_t early_horizon(const struct sim *sim)
{
	simtime_t h = SIMTIME_MAX + 1;

	if (sim->v->end_time && sim->v->end_time < h)
		h = sim->v->end_time;
	if (sim->max_time < h)
		h = sim->max_time + 1;
	if (sim->warm_pending && sim->v->warmup < h)
		h = sim->v->warmup;
	return h;
}

/* The end of the warm-up (end.warmup_us): what happened so far is not measured, as
 * will-it-scale and perf measure a steady state; the caches, locks and values stay. */
void warmup_done(struct sim *sim, void *data, uint64_t arg)
{
	struct run_result *r = data;

	(void)arg;
	sim->warm_pending = false;
	sim->early_end = early_horizon(sim);
	sim_step_on_end(sim);
	if (sim->q->len == sim->nr_stale)
		return; /* every thread finished before the warm-up ended: all of it is measured */
	mem_stats_reset(sim->mem);
	if (sim->world)
		world_stats_reset(sim->world);
	for (uint32_t a = 0; a < r->nr_actors; a++)
		r->actors[a].iterations = 0;
}
