/*
 * testutil.h - helpers shared by the Check suites: machines from the source tree or from
 * inline YAML, scenarios loaded with overrides and run, and a tiny deterministic driver that
 * lets CPUs issue operations in turn.
 */
#ifndef C2C_TESTUTIL_H
#define C2C_TESTUTIL_H

#include <check.h>
#include <stdlib.h>

#include "path/interp.h"
#include "mem/machine.h"
#include "mem/mem.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

/* tu_require - ck_assert_msg for assertions inside long loops.  Check's ck_assert_* record the
 * location of every assertion that passes (one write(2) to the runner's message file each), so
 * a loop that checks every step of a 6,000-step walk spent most of its time in the kernel; this
 * one reaches Check only when it fails, with ck_assert_msg's file, line and message. */
#define tu_require(expr, ...) \
	do { \
		if (!(expr)) \
			_ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", \
					  ##__VA_ARGS__); \
	} while (0)

/* A path under the source tree (C2CSIM_SRCDIR is set by meson test).  Caller frees. */
char *tu_src_path(const char *rel);
/* tu_shipped_scenarios - the paths of every shipped scenario (scenarios/, scenarios/seeds/,
 * scenarios/bench/, *.yaml), in directory order; free with g_ptr_array_unref. */
GPtrArray *tu_shipped_scenarios(void);

/* Run the c2csim binary (C2CSIM_BIN, set by meson test) with @args (NULL-terminated) in the
 * source tree; *@status gets the exit status (128 when killed by a signal), *@out and *@err
 * what it wrote (the caller frees them). */
void tu_spawn_c2csim(const char *const *args, int *status, char **out, char **err);

/* Load models/machines/NAME.yaml, with optional overrides "key=value" (NULL-terminated),
 * into @m; fails the test on error. */
void tu_machine(struct machine *m, const char *name, const char *const *overrides);

/* Load the scenario at @rel_path (relative to C2CSIM_SRCDIR) with overrides "key=value"
 * (@sets, NULL-terminated; NULL for none), as `c2csim run --set` would; fails the test with
 * the loader's message on error.  Free with scenario_free. */
struct scenario *tu_load_scenario(const char *rel_path, const char *const *sets);

/* Index of the variant named @name in @sc; fails the test if there is none. */
uint32_t tu_variant(const struct scenario *sc, const char *name);

/* Run variant @v of @sc with the invariant checks on; fails the test with "VARIANT: error
 * message" on failure.  Free with run_result_free. */
struct run_result *tu_run_variant(const struct scenario *sc, uint32_t v);

/* tu_load_scenario(@rel_path, @sets), then tu_run_variant() of its variant @variant; the
 * scenario is returned in @sc_out (the caller frees it after the result). */
struct run_result *tu_run_scenario(const char *rel_path, const char *const *sets,
				   uint32_t variant, struct scenario **sc_out);

/* Index of the entity named @name in @r's world; fails the test if there is none. */
int32_t tu_entity(const struct run_result *r, const char *name);

/* Statistics of the counter named @name in @r's world; fails the test if there is none. */
const struct counterstat *tu_counter(const struct run_result *r, const char *name);

/* HITMs of loads (and of the load half of RMWs) on the line of @addr; 0 if never touched. */
uint64_t tu_line_hitm(const struct run_result *r, uint64_t addr);

/* Run @n CPUs, each issuing @op on @addrs[i] @iters times, a CPU issuing again as soon as the
 * memory system lets it; the CPU with the earliest next time goes first (ties: lower index).
 * Return: the time at which the last operation completed. */
simtime_t tu_hammer(struct mem *m, const int *cpus, const uint64_t *addrs, int n,
		    enum mem_op op, uint64_t iters);

/* Sum of one line statistic over all lines. */
uint64_t tu_sum(const struct mem *m, int lstat);

/* What a run of the c2csim program left: its exit status (128 when killed) and output. */
struct tu_cmd {
	int status;
	char *out, *err;
};

/* Run the c2csim program (C2CSIM_BIN) with @args (NULL-terminated) in the source tree; fills
 * @c (free with tu_cmd_free).  Fails the test when it cannot be started. */
void tu_c2csim(struct tu_cmd *c, const char *const *args);
void tu_cmd_free(struct tu_cmd *c);

/* Run a suite with Check; return the exit status for main(). */
int tu_run(Suite *s);

#endif
