/*
 * interp.h - running compiled paths: the world they act on and one thread's execution.
 *
 * Design
 * ------
 * A thread runs instructions until one takes simulated time (a memory access, a delay,
 * streaming work) and then yields with the time at which it continues; the run loop
 * schedules it.  Values are read and written at issue time, as coherence transitions are
 * (mem.h), so the order of effects is the order of issue in simulated time.
 *
 * Locks spin the way the kernel's do, without simulating every spin iteration: a waiter
 * parks on the line it spins on (mem_watch) and is woken when that line is written, then
 * re-reads it with an ordinary access — so each release (and each store into the lock's
 * line inside the critical section) costs the coherence traffic of re-reading by every
 * spinner.
 *   ticket: lock = LOCK xadd on the tail half of the lock word; spin reading the head half
 *           until it equals the ticket; unlock = add to the head (no LOCK), as x86 did.
 *   queued: qspinlock's slow path: a cmpxchg fast path; otherwise an MCS queue (LOCK xchg
 *           of the tail in the lock word, link into the predecessor's per-cpu node, spin on
 *           the CPU's own node); the queue head spins on the lock word until the locked byte
 *           clears, sets it, and hands the head over with a store into its successor's node;
 *           unlock is a release store of the locked byte.  The pending bit (the first waiter
 *           spinning on the lock word without queueing) is not modelled: every waiter queues.
 * lockstat columns are gathered per lock address.
 *
 * Memory-level parallelism (machine `mlp` > 1): a scoreboard instead of blocking loads.  A
 * load occupies one of `mlp` slots and the thread goes on after a cycle; the local it loads
 * into becomes ready when the data arrives.  An instruction that needs a local — an address,
 * an operand of a store, RMW, lock, delay or observe — waits until it is ready; assignments,
 * calls and returns pass readiness along, and branches do not wait (they are predicted).  So
 * independent loads (the per-cpu sums of a stat read, a flush's loads) overlap, and a
 * pointer chase (an address computed from a loaded value) does not.  With `mlp` 1 every load
 * blocks, as before.  The slots are the core's (its L1 fill buffers): when every SMT thread
 * of the core runs an actor, each thread gets mlp / smt of them (at least one).
 *
 * Run-time model errors: what the kernel could not do either -- a division that faults
 * (expr.h), calls nested deeper than INTERP_MAX_DEPTH (a path that calls itself), an index
 * past its array, an entity handle, CPU or node that does not exist, a delay that takes the
 * clock past SIMTIME_MAX -- stop the run.  world.model_err then holds one line,
 * "FILE:LINE:COL: model error in path P on cpu C at T ps: WHAT (expected ...)", with the
 * position of the path operation; the CLI prints it and exits 1.  Invariant violations of
 * the memory system (mem->failed) stay a separate report.
 *
 * The end time: the run loop cuts a thread whose next step is at or past world.end_time,
 * also in the middle of a path call (the loop iteration it was in is not counted), and
 * `work` stops streaming there.  Instructions that take no simulated time (arithmetic,
 * branches, list and counter updates) are free, but a thread that runs INTERP_FREE_INSNS of
 * them in a row yields and is charged a cycle for each: otherwise a loop without memory
 * accesses or delays would hold the clock still and never reach the end time.
 */
#ifndef C2C_INTERP_H
#define C2C_INTERP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "mem/mem.h"
#include "layout/objmap.h"
#include "path/path.h"

enum lock_kind { LOCK_TICKET, LOCK_QUEUED, LOCK_KIND_COUNT };
extern const char *const lock_kind_names[LOCK_KIND_COUNT + 1];

/* Per-cpu regions live in per-cpu units as the kernel's per-cpu allocator lays them out:
 * instances of one region for different CPUs are a unit apart, different regions of one CPU
 * are adjacent. */
#define PERCPU_BASE 0x400000000ull
#define PERCPU_UNIT 0x800000ull  /* 8 MiB: room for a thousand memcgs' per-cpu data */
/* The last line of each CPU's unit holds its MCS lock node (as the kernel's per-cpu qnodes);
 * scenario objects get the rest. */
#define PERCPU_QNODE (PERCPU_UNIT - 64)
/* Private buffers for `work` (page zeroing and the like), far from everything else. */
#define WORK_BASE 0x20000000000ull

/* A member's value when the run starts (kind and scenario `init:`, links; path.h), at @addr
 * and, for the @count instances of a per-cpu object, every PERCPU_UNIT after it: one entry
 * per value, not per CPU (seed 000 sets a quarter of a million per-cpu words). */
struct ent_init {
	uint64_t addr;
	uint32_t size;
	uint32_t count;         /* instances, a per-cpu unit apart (1: a plain object) */
	uint64_t value;
};

/* Entities: instances of kinds, with their objects' addresses. */
struct entities {
	uint32_t nr;
	char **name;
	uint16_t *kind;
	int32_t *parent, *first_child, *next_sibling;
	uint32_t *base_at;      /* entity -> first of its bases: base[base_at + obj * nodes + n] */
	uint64_t *base;         /* per-cpu objects: CPU 0's instance */
	uint32_t nr_base;
	uint64_t *global_base;  /* per global object and node: [g * nodes + n] */
	struct ent_init *init;  /* written into memory by world_init, in order */
	uint32_t nr_init, cap_init;
	struct _GHashTable *by_addr; /* address a link points at -> entity id + 1 */
};

/* A growable list of samples (latencies), sorted only when a report asks. */
struct samples {
	uint64_t *v;
	uint32_t nr, cap;
	uint64_t total, max, min;
};

struct lockstat {
	uint64_t addr;
	uint64_t acquisitions, contentions, con_bounces, acq_bounces;
	struct samples wait, hold;
	int last_cpu;           /* CPU that held it last */
	simtime_t acquired_at;
	int64_t holder;         /* CPU holding it, -1 free */
};

struct pathstat {
	uint64_t calls;
	struct samples lat;
	uint64_t lines, remote; /* top-level calls: distinct lines touched, remote fetches */
	uint64_t top_calls;
};

struct counterstat {
	int64_t truth;
	int64_t last_read, last_truth;
	uint64_t reads, max_abs_error;
};

/* What a thread's step needs to go on at once, as the run loop's next event (world.step_on):
 * @until is the earliest of the queued events' times and the run's bounds of time (the end
 * time, the limits, the warm-up's end), kept by the run loop as events are pushed. */
struct step_on {
	simtime_t until;
	uint64_t *count;        /* the queue's dispatched events */
	const uint64_t *budget; /* no step goes on once count reaches it */
	simtime_t *now;         /* the queue's time */
};

struct world {
	/* Set when a signal asks the run to stop (scenario/runwatch.h; world_init points it at
	 * a flag never set): a call that runs long stops at its next step (run_step: at most
	 * INTERP_FREE_INSNS instructions), not at its end. */
	const volatile sig_atomic_t *stop;
	const struct program *prog;
	struct mem *mem;
	const bool *mem_failed;  /* &mem->failed: world_stopped() reads it at every step */
	const struct machine *mc;
	const struct entities *ents; /* owned by the scenario variant */
	enum lock_kind lock_kind;
	uint64_t qnode_base;    /* per-cpu MCS nodes */
	uint64_t work_base;     /* per-cpu private buffers for `work` */
	struct lockstat *locks;  /* in first-use order */
	uint32_t nr_locks, cap_locks;
	uint32_t *lock_slot;     /* open-addressing index into locks (2 * cap_locks slots) */
	struct pathstat *pstats; /* per path */
	struct counterstat *cstats; /* per counter */
	uint64_t truth_gen;      /* bumped by every change of a counter's truth */
	/* per-cpu update lists: items[list][cpu] as plain growable arrays */
	int64_t **list_items;
	uint32_t *list_len, *list_cap;
	/* parked threads per watched line (indexes into waiters) */
	void (*wake)(void *data, void *thread, simtime_t when);
	void *wake_data;
	/* Form 1 of run-ahead inside a call (scenario/runahead.h), answered without a call:
	 * interp_run's next step, due at a time before step_on.until, goes on at once as the
	 * event the run loop would dispatch next, while fewer than *budget events are
	 * dispatched and the run has not failed; it then counts as dispatched, in *count, and
	 * sets the queue's clock, *now.  The run loop sets it (until: 0 never). */
	struct step_on step_on;
	struct ptask **parked; /* threads waiting for a line to be written */
	uint32_t nr_parked, cap_parked;
	uint64_t *work_cursor;  /* per cpu */
	const uint8_t *cpu_shared; /* per CPU: its core's SMT threads all run (run.c), or NULL;
				    * set before pthread_init() */
	simtime_t end_time;     /* the run's end time (0: none): `work` stops there */
	struct c2c_err model_err; /* set: a run-time model error stopped the run */
};

#define INTERP_MAX_DEPTH 16
#define INTERP_INFLIGHT (2 * MACHINE_MAX_MLP) /* room of ptask.inflight */
#define INTERP_FREE_INSNS 65536

struct frame {
	const struct pinsn *code; /* the path's */
	const struct pinsn *ip;   /* the next instruction: a pointer, not an index into code,
				   * so that each instruction's fetch is one load */
	uint32_t path;
	int16_t ret_dst;
	uint32_t caller_site;   /* the site of the call that pushed it, DIR_NONE at the top */
	simtime_t start;
	int64_t locals[PATH_MAX_LOCALS];
	simtime_t ready[PATH_MAX_LOCALS]; /* when each local's value exists (machine mlp > 1),
					   * for the locals in ready_set */
	uint64_t ready_set;     /* locals given a time (it_set_ready); the others' values are
				 * there from the frame's start, as if their times were 0, so a
				 * call need not clear ready[] (it_ready) */
	simtime_t ready_max;    /* no local gets its value later (it_set_ready) */
};

/* The lines (directory indexes) the thread's current top-level call touched: an open-
 * addressing set whose slots carry the call's stamp, so a new call empties it without
 * clearing.  It is as large as the most lines one call touched, not as the directory: a
 * per-line array per thread cost a realloc and memset at every directory growth and, on
 * the host, a cache miss per access (interp_lines.c).  A thread whose call touches more
 * than LINE_SET_MAX / 2 lines (a walk over every memcg) keeps the call's stamp per line
 * instead (by_line): there lines come in the order they were made, and a hashed set that
 * large would miss the host's cache at every access. */
struct line_slot {
	uint32_t idx, stamp; /* a stamp other than the call's: free */
};
struct line_set {
	struct line_slot *slot; /* NULL once by_line is used */
	uint32_t mask;       /* slots - 1, a power of 2 minus 1 */
	uint32_t *by_line;   /* per directory index: the stamp of the last call that touched it */
	uint32_t by_line_cap;
};

/* The execution state of one simulated thread running paths. */
struct ptask {
	struct world *w;
	void *owner;            /* the run loop's thread, passed back to world->wake */
	int cpu;
	int64_t builtins[EB_COUNT];
	struct frame frames[INTERP_MAX_DEPTH];
	int depth;
	struct frame *top;      /* &frames[depth - 1] while depth > 0 (a ptask is never copied):
				 * the running frame, read at every instruction without a multiply */
	simtime_t now;          /* issue time of the running instruction (model errors); after
				 * interp_run, the time of the step it ran last */
	/* a lock operation in progress */
	uint8_t lock_phase;
	int64_t ticket;
	uint64_t lock_addr;
	simtime_t lock_req;
	simtime_t lock_ready;   /* its own last lock access completes then */
	uint32_t park_line;     /* line being watched while parked, DIR_NONE when running */
	/* per top-level call: distinct lines and remote fetches */
	uint32_t stamp;
	struct line_set lines;
	uint64_t call_lines, call_remote;
	int64_t *truth_at_load;  /* per counter: the truth when the last load was issued */
	uint64_t truth_gen;      /* the world's truth_gen when truth_at_load was taken */
	/* completion times of the loads in flight, ascending, in [inflight_head, inflight_end)
	 * of inflight[], after an entry at or before the thread's clock (interp.c: load_slot);
	 * pointers, not indexes (a ptask is never copied): no index scaled at each load */
	simtime_t inflight[INTERP_INFLIGHT];
	simtime_t *inflight_head, *inflight_end;
	uint32_t mlp_slots;      /* its loads in flight at most: the machine's mlp, or its share
				  * while its core's SMT threads all run (world.cpu_shared, set
				  * before the threads: pthread_init decides) */
	/* What every access reads, here (pthread_init) and not behind the world: its memory
	 * system and the machine's settings (builtins[] has the CPUs and nodes an address reads). */
	bool mlp;                /* mlp > 1: loads overlap (the scoreboard) */
	struct mem *mem;         /* world.mem */
	simtime_t cycle;
};

#define INTERP_DONE UINT64_MAX    /* the top-level call returned */
#define INTERP_PARKED (UINT64_MAX - 1) /* waiting for a line to be written */
#define INTERP_STOPPED INTERP_PARKED /* a model error stopped the run: nothing to schedule */

/* world_init - set up @w for @prog on @mem with entities @ents (which must outlive it).
 * Can't fail. */
void world_init(struct world *w, const struct program *prog, struct mem *mem,
		const struct machine *mc, const struct entities *ents, enum lock_kind lk,
		uint64_t qnode_base, uint64_t work_base);
void world_release(struct world *w);

/* world_stats_reset - zero the lock, path and counter-read statistics, keeping the state
 * (who holds a lock, the counters' true values): the end of a warm-up.  Can't fail. */
void world_stats_reset(struct world *w);

/* pthread_init - a thread of @w on @cpu. */
void pthread_init(struct ptask *t, struct world *w, void *owner, int cpu);
void pthread_release(struct ptask *t);

/* interp_call - start path @path with @args (values: entity ids or integers) at @now. */
void interp_call(struct ptask *t, uint32_t path, const int64_t *args, simtime_t now);

/* interp_run - run until the thread must wait (and world->step_on does not let it go on
 * at once).  Return: when it continues, INTERP_PARKED, INTERP_DONE when the call started by
 * interp_call returned, or INTERP_STOPPED when the run stopped (world_stopped()). */
simtime_t interp_run(struct ptask *t, simtime_t now);

/* world_stopped - did an invariant violation, a model error or a signal stop the run? */
static inline bool world_stopped(const struct world *w)
{
	/* Three flags that are all clear in every run until the end: no branch for each. */
	return *w->mem_failed | w->model_err.set | (*w->stop != 0);
}

/* world_step_on - may a thread's next step, at @next, go on at once (world.step_on)?  Then
 * it counts as the run loop's next event.  Inline: most steps of a call ask (interp_run),
 * and about half go on. */
static inline bool world_step_on(struct world *w, simtime_t next)
{
	struct step_on *s = &w->step_on;

	if (next >= s->until || *s->count >= *s->budget || (*w->mem_failed | w->model_err.set))
		return false;
	*s->now = next;
	++*s->count;
	return true;
}

/* samples_percentile - the @pct-th percentile (0-100) of @s (sorts it). */
uint64_t samples_percentile(struct samples *s, unsigned pct);

/* entities_free - free what an entity table holds. */
void entities_free(struct entities *e);

#endif
