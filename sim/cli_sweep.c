/*
 * cli_sweep.c - the rows of `c2csim plot`, `c2csim sweep` and `c2csim merge` in the command
 * table (cli.h).  Each command parses its own options with its own GOptionContext
 * (report/plot.h, sweep/sweep.h), so its --help comes from there; the table gives the
 * command list, the dispatch and the man page's summary line.
 */
#include "cli.h"

#include <glib.h>

#include "report/plot.h"
#include "sweep/sweep.h"

static int cli_plot(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	g_set_prgname(prog); /* the usage line says "c2csim plot" */
	return plot_main(argc, argv);
}

static int cli_sweep(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	g_set_prgname(prog); /* the usage line says "c2csim sweep" */
	return sweep_main(argc, argv);
}

static int cli_merge(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	g_set_prgname(prog); /* the usage line says "c2csim merge" */
	return merge_main(argc, argv);
}

const struct cli_cmd cli_plot_cmd = {
	"plot", "RESULT_DIR [-o DIR] [--format png,svg]",
	"Draw gnuplot pictures (and their scripts) of a results or sweep directory",
	"See `c2csim plot --help` for the options.", NULL, 0, cli_plot, NULL};

const struct cli_cmd cli_sweep_cmd = {
	"sweep", "SWEEP.yaml|SCENARIO [--axis KEY=V1|V2]... [-j N] [--out DIR]",
	"Run a grid of points on local workers; --emit-jobs (GNU parallel), --emit-slurm (Slurm)",
	"See `c2csim sweep --help` for the options.", NULL, 0, cli_sweep, NULL};

const struct cli_cmd cli_merge_cmd = {
	"merge", "DIR...", "Merge sweep or point directories into one sweep.csv",
	"See `c2csim merge --help` for the options.", NULL, 0, cli_merge, NULL};
