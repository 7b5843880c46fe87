/*
 * cli.h - the commands of the c2csim program, each a row of the command tables (see
 * cli_table.h for how a command or an option is added); main.c lists them.
 */
#ifndef C2C_CLI_H
#define C2C_CLI_H

#include "cli_table.h"

extern const struct cli_cmd cli_run_cmd;      /* cli.c */
extern const struct cli_cmd cli_bench_cmd;    /* cli.c */
extern const struct cli_cmd cli_protocol_cmd; /* cli.c */
extern const struct cli_cmd cli_layout_cmd;   /* layout_cmd.c */
extern const struct cli_cmd cli_compare_cmd;  /* cli_compare.c */
extern const struct cli_cmd cli_check_cmd;    /* cli_compare.c */
extern const struct cli_cmd cli_plot_cmd;     /* cli_sweep.c */
extern const struct cli_cmd cli_sweep_cmd;    /* cli_sweep.c */
extern const struct cli_cmd cli_merge_cmd;    /* cli_sweep.c */

#endif
