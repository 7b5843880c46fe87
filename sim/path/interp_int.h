/* interp_int.h - shared by interp.c, interp_addr.c and interp_lock.c only. */
#ifndef C2C_INTERP_INT_H
#define C2C_INTERP_INT_H

#include "path/interp.h"
#include "scenario/scenario.h"

#define PERCPU_STRIDE PERCPU_UNIT
#define WORK_SIZE 0x100000ull  /* each CPU streams `work` through 1 MiB of its own */

/* The address of @a for the thread's current frame; *cpu gets the instance's CPU. */
uint64_t it_addr(struct ptask *t, const struct member_ref *a, int *cpu);

/* A timed access that also counts lines and remote fetches of the current top-level call. */
simtime_t it_access(struct ptask *t, uint64_t addr, uint32_t size, enum mem_op op,
		    uint32_t site, simtime_t now);

/* it_in_range - is @v a valid index below @n?  Else a model error naming @what ("CPU",
 * "entity"); the caller goes on with a valid stand-in until the run stops, so nothing
 * outside the model's memory is touched. */
bool it_in_range(struct ptask *t, int64_t v, int64_t n, const char *what);

/* it_eval - the value of @e in the current frame (@loc: its locals); a division fault is a
 * model error at the running instruction. */
int64_t it_eval(struct ptask *t, const struct expr *e, const int64_t *loc);

/* it_model_error - stop the run with a model error at instruction @in of the running path
 * (see interp.h for the message).  Only the first error is kept. */
void it_model_error(struct ptask *t, const struct pinsn *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void it_sample(struct samples *s, uint64_t v);

/* Park the thread until @addr's line is written. */
void it_park(struct ptask *t, uint64_t addr);

/* it_lock - run the lock instruction @in (P_LOCK, P_UNLOCK, P_TRYLOCK).  Return: the time to
 * continue (the instruction is finished when t->lock_phase is back to 0), or INTERP_PARKED. */
simtime_t it_lock(struct ptask *t, const struct pinsn *in, simtime_t now);

#endif
