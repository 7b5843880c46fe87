/* interp_work.c - `work` (P_WORK): a CPU streams through its private buffer (interp.h), page
 * zeroing when it stores. */
#include "path/interp_int.h"

#include <glib.h>

/* The stores of a `work` (it_work): the lines from the cursor on, up to @lines of them, in
 * runs of the memory system's (mem_store_run: one request for the run, not a call each),
 * each counted as thread_access() counts an access (it_count_access).  Return: as it_work.
 * Default-before: 655 thousand stores, 2,296 -> 2,261 M instructions. */
static simtime_t work_stores(struct ptask *t, uint32_t site, uint64_t lines, simtime_t now)
{
	const struct world *w = t->w;
	uint64_t *cur = &w->work_cursor[t->cpu];
	const uint64_t buf = w->work_base + (uint64_t)t->cpu * WORK_SIZE;
	struct mem_run run;

	while (lines && !world_stopped(w)) {
		/* (a run stops at the buffer's end, where the cursor comes round) */
		uint64_t n = MIN(MIN(lines, MEM_RUN_MAX), (WORK_SIZE - *cur) / 64);
		uint32_t k = mem_store_run(w->mem, t->cpu, buf + *cur, (uint32_t)n, 64, 8, site,
					   t->top->caller_site, &now, w->end_time, w->stop, &run);

		for (uint32_t i = 0; i < k; i++)
			it_count_access(t, run.line[i], run.src[i]);
		*cur = (*cur + 64 * k) % WORK_SIZE;
		lines -= k;
		if (k < n) /* the end time, a failure or a signal: world_stopped() or the end */
			break;
	}
	return now;
}

simtime_t it_work(struct ptask *t, const struct pinsn *in, int64_t *loc, simtime_t now)
{
	int64_t bytes = it_val(t, &in->av, loc);
	const struct world *w = t->w;
	uint64_t *cur = &w->work_cursor[t->cpu];
	const uint64_t buf = w->work_base + (uint64_t)t->cpu * WORK_SIZE;

	/* The buffer is the CPU's own: nothing else touches it, so its lines run back to back,
	 * up to the end time (the run loop cuts the thread there).  A page is 64 lines in a
	 * row: stores (page zeroing) go in runs, loads one by one, each access inlined
	 * (thread_access) with the loop's invariants hoisted. */
	if (in->kind)
		return bytes > 0 ? work_stores(t, in->site, ((uint64_t)bytes + 63) / 64, now) : now;
	for (int64_t b = 0; b < bytes && !world_stopped(w); b += 64) {
		if (w->end_time && now >= w->end_time)
			break;
		now = thread_access(t, buf + *cur, 8, MEM_LOAD, in->site, now);
		*cur = (*cur + 64) % WORK_SIZE;
	}
	return now;
}
