/*
 * cli.h - the commands of the c2csim program, each a row of the command tables (see
 * cli_table.h for how a command or an option is added); main.c lists them.
 */
#ifndef C2C_CLI_H
#define C2C_CLI_H

#include <stdbool.h>

#include "cli_table.h"
#include "core/err.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

extern const struct cli_cmd cli_run_cmd;      /* cli.c */
extern const struct cli_cmd cli_bench_cmd;    /* cli_bench.c */
extern const struct cli_cmd cli_protocol_cmd; /* cli.c */
extern const struct cli_cmd cli_layout_cmd;   /* layout_cmd.c */
extern const struct cli_cmd cli_compare_cmd;  /* cli_compare.c */
extern const struct cli_cmd cli_check_cmd;    /* cli_compare.c */
extern const struct cli_cmd cli_seedtable_cmd; /* cli_seedtable.c */
extern const struct cli_cmd cli_plot_cmd;     /* cli_sweep.c */
extern const struct cli_cmd cli_sweep_cmd;    /* cli_sweep.c */
extern const struct cli_cmd cli_merge_cmd;    /* cli_sweep.c */

/* cli_overrides - `--set KEY=VALUE` options @sets as struct override entries appended to @ov
 * (the keys made are kept in @keys, which owns them).  Return: false after printing the
 * error (a missing '='). */
bool cli_overrides(const char *prog, char *const *sets, GArray *ov, GPtrArray *keys);

/* cli_run_variants - run every variant of @sc, @jobs at a time (< 1: all at once; the
 * results do not depend on it), as if in order until a signal stops them (runwatch.h); *@nr
 * (may be NULL) gets how many ran.  Return: the results (free with cli_runs_free(runs,
 * sc->nr_variants)), or NULL with @err set when one failed (exit 1): the first in variant
 * order. */
struct run_result **cli_run_variants(const struct scenario *sc, bool check, int jobs,
				     uint32_t *nr, struct c2c_err *err);
void cli_runs_free(struct run_result **runs, uint32_t nr);

/* find_data_file - @rel under the working directory if it is there, else under the source
 * tree (so `c2csim` works from anywhere in a checkout and from the build directory).  Return:
 * a newly allocated path (g_free); the file may not exist.  Can't fail. */
char *find_data_file(const char *rel);

#endif
