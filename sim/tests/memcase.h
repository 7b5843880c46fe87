/*
 * memcase.h - the harness of the memory-system case table (check_mem.c): the addresses, the
 * steps a case issues, what a run of them leaves for the case's check, and the shorthand the
 * table rows are written in.  The cases are split by topic between check_mem.c (store buffer,
 * split accesses, values, the prefetcher, occupancy) and mem_cases_coherence.c (home node
 * and sockets, fills in flight, CPU sets); check_mem.c runs both tables.
 */
#ifndef C2C_MEMCASE_H
#define C2C_MEMCASE_H

#include <glib.h>

#include "mem/mem.h"
#include "testutil.h"

#define A 0x10000000ull   /* a line; its buddy is B */
#define B (A + 64)
#define C 0x10010000ull   /* lines far from A */
#define D 0x10020000ull
#define E 0x10030000ull
#define FAR 0x20000000ull /* an object homed on node 1 (see mem_for) */

enum step_op { S_LOAD, S_STORE, S_RMW, S_LOCKED, S_PF_LOAD, S_PF_STORE, S_EVICT, S_NONE };

struct step {
	uint8_t op;
	int cpu;
	uint64_t addr;
	uint32_t size;
	simtime_t at;   /* issue time; AFTER: the previous step's return */
};

#define AFTER UINT64_MAX
#define MAX_STEPS 8

struct run {
	const struct machine *mc;
	struct mem *m;
	simtime_t done[MAX_STEPS]; /* what each step returned */
	simtime_t at[MAX_STEPS];   /* when it was issued */
};

struct mcase {
	const char *id;
	const char *what;
	const char *ovr[5];
	struct step steps[MAX_STEPS];
	void (*check)(struct run *r);
};

#define PF_OFF "prefetch.adjacent_line=false"
#define PF_ON "prefetch.adjacent_line=true"
#define L(cpu, addr, at) {S_LOAD, cpu, addr, 8, at}
#define ST(cpu, addr, at) {S_STORE, cpu, addr, 8, at}
#define RMW(cpu, addr, at) {S_RMW, cpu, addr, 8, at}
#define END {S_NONE, 0, 0, 0, 0}

/* The statistic @k of the line at @addr, which the case must have touched. */
static inline uint64_t line_stat(const struct mem *m, uint64_t addr, int k)
{
	uint32_t idx = mem_line(m, addr);

	ck_assert_msg(idx != DIR_NONE, "line 0x%" G_GINT64_MODIFIER "x never touched", addr);
	return stats_line(m, idx, k);
}

/* What step @step took: its return less its issue time. */
static inline simtime_t latency(const struct run *r, int step)
{
	return r->done[step] - r->at[step];
}

/* The cases of mem_cases_coherence.c, in table order. */
extern const struct mcase mem_coherence_cases[];
extern const size_t mem_nr_coherence_cases;

#endif
