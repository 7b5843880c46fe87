/*
 * main.c - the c2csim command line.
 *
 *   c2csim run [SCENARIO] [--seed N] [--out DIR] [--set KEY=VALUE]... [--variant NAME]...
 *              [--check] [--quiet]
 *              [--pair] [--callers] [--sort tot|lcl|rmt] [--max-events N] [--max-*...]
 *   c2csim protocol          print the coherence protocol table
 *   c2csim bench [--scale N] simulated accesses per host second on the benchmark scenarios
 *   c2csim --help | --version
 *
 * Exit status: 0 success, 1 the simulation failed (an invariant violation), 2 bad input or
 * usage.  Errors are one line on stderr: `file:line:col: what is wrong (what was expected)`.
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "c2csim_config.h"
#include "cli.h"
#include "layout_cmd.h"
#include "mem/protocol.h"

static const char usage[] =
	"usage: c2csim COMMAND [ARGS]\n"
	"\n"
	"commands:\n"
	"  run [SCENARIO] [OPTIONS]  run a scenario (default scenarios/default.yaml); print the\n"
	"                            perf-c2c-style report and write the results directory\n"
	"      --seed N              override the scenario's seed\n"
	"      --out DIR             results directory (default results/<scenario name>)\n"
	"      --set KEY=VALUE       override any parameter, e.g. machine.prefetch.adjacent_line=false\n"
	"                            or end.time_us=50; repeatable; applies to every variant run\n"
	"      --variant NAME        run only this variant (repeatable; default: all)\n"
	"      --check               check the SWMR and data-value invariants on every transition\n"
	"                            (also on when the environment has C2CSIM_CHECK=1)\n"
	"      --quiet               do not print the report (the results directory is written)\n"
	"      --pair                group the cacheline table by 128-byte pair (perf c2c --double-cl)\n"
	"      --callers             split the Pareto rows by caller, the call site one frame up\n"
	"                            (perf c2c -g)\n"
	"      --sort tot|lcl|rmt    sort the cacheline table by total, local or remote HITMs\n"
	"      --max-events N, --max-time-us N, --max-lines N, --max-entities N,\n"
	"      --max-trace-lines N, --max-output-mib N\n"
	"                            resource limits (README, \"Resource limits\"); reaching one\n"
	"                            stops the run with exit status 1\n"
	"  layout COMMAND ...        struct layouts: import (pahole), show, fields, check, diff\n"
	"                            (c2csim layout --help)\n"
	"  protocol                  print the MESI + adjacent-line prefetch protocol table\n"
	"  bench [--scale N]         simulated accesses per host second (contended and uncontended\n"
	"                            80-CPU workloads); N multiplies the run length\n"
	"\n"
	"  --help                    this text\n"
	"  --version                 the version\n"
	"\n"
	"exit status: 0 success, 1 simulation failure or a resource limit reached, 2 bad input or\n"
	"usage\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("c2csim %s\n", C2CSIM_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cli_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "layout"))
		return cli_layout(argc - 1, argv + 1);
	if (!strcmp(argv[1], "bench"))
		return cli_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "protocol")) {
		proto_print(stdout);
		return 0;
	}
	fprintf(stderr, "c2csim: unknown command '%s' (expected run, protocol, bench, --help or "
		"--version)\n", argv[1]);
	return 2;
}
