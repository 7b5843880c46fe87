/* interp_int.h - shared by interp.c and interp_lock.c only. */
#ifndef C2C_INTERP_INT_H
#define C2C_INTERP_INT_H

#include "path/interp.h"

#define PERCPU_STRIDE PERCPU_UNIT
#define WORK_SIZE 0x100000ull  /* each CPU streams `work` through 1 MiB of its own */

/* The address of @a for the thread's current frame; *cpu gets the instance's CPU. */
uint64_t it_addr(struct ptask *t, const struct member_ref *a, int *cpu);

/* A timed access that also counts lines and remote fetches of the current top-level call. */
simtime_t it_access(struct ptask *t, uint64_t addr, uint32_t size, enum mem_op op,
		    uint32_t site, simtime_t now);

void it_sample(struct samples *s, uint64_t v);

/* Park the thread until @addr's line is written. */
void it_park(struct ptask *t, uint64_t addr);

/* it_lock - run the lock instruction @in (P_LOCK, P_UNLOCK, P_TRYLOCK).  Return: the time to
 * continue (the instruction is finished when t->lock_phase is back to 0), or INTERP_PARKED. */
simtime_t it_lock(struct ptask *t, const struct pinsn *in, simtime_t now);

#endif
