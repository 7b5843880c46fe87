/*
 * main.c - the c2csim command line: the table of commands (each defined beside its code, see
 * cli.h), dispatched by cli_table.c, which also makes every --help and the man page.
 *
 *   c2csim COMMAND [OPTION...] [ARGS]     c2csim --help, c2csim COMMAND --help
 *   c2csim --version                      the version
 *   c2csim --man                          the man page c2csim.1 (roff), built by meson
 *
 * Exit status: 0 success, 1 the simulation failed (an invariant violation, or a run-time
 * model error at its path operation) or a check or comparison failed, 2 bad input or usage,
 * 128 + signal when SIGINT or SIGTERM stopped a run (runwatch.h: the results so far are
 * written, marked complete: false).  Errors are one line on stderr: `file:line:col: what is
 * wrong (what was expected)`, or `c2csim CMD: --opt ...`.
 */
#include <glib.h>
#include <stdio.h>
#include <malloc.h>
#include <string.h>

#include "c2csim_config.h"
#include "cli.h"

/* Every command, in the order --help lists them.  Add a command here (one line). */
static const struct cli_cmd *const commands[] = {
	&cli_run_cmd,
	&cli_check_cmd,
	&cli_compare_cmd,
	&cli_seedtable_cmd,
	&cli_layout_cmd,
	&cli_plot_cmd,
	&cli_sweep_cmd,
	&cli_merge_cmd,
	&cli_protocol_cmd,
	&cli_bench_cmd,
	NULL,
};

static const char man_tail[] =
	".SH EXIT STATUS\n"
	"0 success; 1 the simulation failed (an invariant violation), an assertion, expectation "
	"or comparison failed; 2 bad input or usage; 130 / 143 a run interrupted by SIGINT / "
	"SIGTERM (the results so far are written, marked complete: false).  A resource limit "
	"reached (--max-events ...) exits 1 with a line naming the limit and its option.\n"
	".SH DIAGNOSTICS\n"
	"Bad input is reported as one line on standard error, "
	"\\fIfile\\fR:\\fIline\\fR:\\fIcol\\fR: what is wrong (what was expected), "
	"and nothing is written.\n"
	".SH ENVIRONMENT\n"
	".TP\n.B C2CSIM_CHECK=1\n"
	"Check the SWMR and data-value invariants on every transition of every run.\n"
	".SH FILES\n"
	".TP\n.I scenarios/\nShipped scenarios and the seed replays.\n"
	".TP\n.I models/machines/\nMachine models (latencies in ps, topology, prefetcher).\n"
	".TP\n.I results/\nResults directories (summary.yaml, CSV tables, the report).\n"
	".SH SEE ALSO\n"
	".BR perf-c2c (1)\n";

int main(int argc, char **argv)
{
	/* Blocks of 1 MiB and more (the directory, caches, statistics arrays) are mappings of
	 * their own, whatever was freed before: glibc's threshold otherwise rises after the first
	 * large free, and an array doubling inside the heap leaves its old copy resident. */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("c2csim %s\n", C2CSIM_VERSION);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--man")) {
		cli_man(stdout, commands, "c2csim", C2CSIM_VERSION, man_tail);
		return 0;
	}
	return cli_dispatch(commands, "c2csim", argc, argv);
}
