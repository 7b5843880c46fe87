/*
 * testutil.h - helpers shared by the Check suites: machines from the source tree or from
 * inline YAML, and a tiny deterministic driver that lets CPUs issue operations in turn.
 */
#ifndef C2C_TESTUTIL_H
#define C2C_TESTUTIL_H

#include <check.h>
#include <stdlib.h>

#include "machine.h"
#include "mem.h"

/* A path under the source tree (C2CSIM_SRCDIR is set by meson test).  Caller frees. */
char *tu_src_path(const char *rel);

/* Load models/machines/NAME.yaml, with optional overrides "key=value" (NULL-terminated),
 * into @m; fails the test on error. */
void tu_machine(struct machine *m, const char *name, const char *const *overrides);

/* Run @n CPUs, each issuing @op on @addrs[i] @iters times, a CPU issuing again as soon as the
 * memory system lets it; the CPU with the earliest next time goes first (ties: lower index).
 * Return: the time at which the last operation completed. */
simtime_t tu_hammer(struct mem *m, const int *cpus, const uint64_t *addrs, int n,
		    enum mem_op op, uint64_t iters);

/* Sum of one line statistic over all lines. */
uint64_t tu_sum(const struct mem *m, int lstat);

/* Run a suite with Check; return the exit status for main(). */
int tu_run(Suite *s);

#endif
