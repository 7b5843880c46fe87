/*
 * plot.h - `c2csim plot`: gnuplot pictures of a results directory or of a sweep.
 *
 * Design
 * ------
 * plot reads only files: summary.yaml, offsets.csv, layout.csv and locks_hist.csv of a
 * results directory (output.h, output_plot.h), or sweep.csv of a sweep (sweep.h).  For every
 * picture NAME it writes into the plot directory (RESULT_DIR/plots by default):
 *
 *   NAME.dat   the numbers, gnuplot's plain format (blocks separated by two blank lines)
 *   NAME.gp    the script: `cd DIR && gnuplot NAME.gp` redraws it after a restyle
 *   NAME.png / NAME.svg   what gnuplot drew (the formats asked for)
 *
 * Pictures of a results directory:
 *   hitm_lines  per-line HITM bars of the hottest lines, local / remote / prefetch stacked,
 *               each hot line with its 128-byte buddy, pairs shaded, variants side by side
 *   pareto      per member of each variant's hottest line: HITMs and store misses, with the
 *               cumulative share of HITMs
 *   layout      the object holding each variant's hottest line: members on 64-byte lines,
 *               128-byte pairs framed, each member shaded by its HITMs
 *   locks       wait and hold time distributions (log time axis) per lock, one curve per
 *               variant (written only when a lock was taken)
 * and of a sweep:
 *   sweep       throughput, lock wait and every headline metric against the first swept
 *               parameter, one curve per variant (and per value of the other axes)
 *
 * Safety: gnuplot runs shell commands (system(), backquotes) and a line break ends a
 * command.  Names from input files (structs, members, objects, variants, locks, scenarios,
 * axis values) reach a script only through gp_quote(); .dat files hold numbers only; output
 * names are ours.  The terminal is `noenhanced`, so ^ _ { } @ in names print as themselves.
 */
#ifndef C2C_PLOT_H
#define C2C_PLOT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "report/csv.h"
#include "yaml/ytree.h"

/* What the results count lines and pairs in (output.h: `line` is a 64-byte line index). */
#define PLOT_LINE_BYTES 64
#define PLOT_PAIR_LINES 2

/* Output formats, a bit set. */
enum {
	PLOT_PNG = 1,
	PLOT_SVG = 2,
};

/*
 * plot_main - `c2csim plot RESULT_DIR [-o DIR] [--format png,svg]`; argv[0] is "plot".
 * Return: 0, or 2 with one line on stderr (bad usage or input, gnuplot missing or failing).
 */
int plot_main(int argc, char **argv);

/*
 * plot_dir - draw the pictures of the results or sweep directory @dir into @out (NULL:
 * DIR/plots) in @formats.  Return: false with @err set; gnuplot missing is
 * "gnuplot not found in PATH (expected the gnuplot package: plot needs it, nothing else does)".
 */
bool plot_dir(const char *dir, const char *out, unsigned formats, struct c2c_err *err);

/* ---- shared by plot*.c only ------------------------------------------------------------ */

/* gp_quote - append @text to @s as a gnuplot single-quoted string: quotes doubled, control
 * characters (a line break would end the command) as visible \n, \t or \xNN text; nothing
 * inside is substituted or executed.  Can't fail. */
void gp_quote(GString *s, const char *text);

/* gnuplot's pictures being written: each plot adds its script and data with plot_add(). */
struct plot_set {
	char *dir;          /* the plot directory */
	unsigned formats;
	GPtrArray *scripts; /* NAME.gp written so far (owned strings) */
};

/*
 * plot_add - write @name.dat (@data, may be NULL) and @name.gp: a loop over the formats
 * that sets the terminal (@width x @height pixels), the output @name.FMT, then @body.
 * Return: false with @err set when a file cannot be written.
 */
bool plot_add(struct plot_set *ps, const char *name, int width, int height, const GString *body,
	      const GString *data, struct c2c_err *err);

/* One line of summary.yaml `lines:` (the hottest first). */
struct pr_line {
	const char *object, *type; /* in the summary tree */
	int64_t line;              /* 64-byte line index in the object, -1 for none */
	uint64_t addr, hitm_lcl, hitm_rmt, hitm_pf, stores, st_miss;
};

struct pr_variant {
	const char *name;
	struct pr_line *lines;
	uint32_t nr_lines;
};

/* HITMs on one 64-byte line of an object, whatever the coherence unit of the run was (with
 * machine.prefetch.pair_granule a directory line is a 128-byte pair): demand HITMs from the
 * offsets the loads touched (offsets.csv), prefetch HITMs from the summary line they were
 * counted on. */
struct pr_l64 {
	uint32_t variant;
	const char *object, *type;
	int64_t line;
	uint64_t hitm_lcl, hitm_rmt, hitm_pf;
};

/* A results directory as the plots read it. */
struct presults {
	struct yt_node *summary;
	struct pr_variant *v;
	uint32_t nr;
	GArray *l64;  /* struct pr_l64, in first-seen order */
	struct csv *offsets, *layout, *locks; /* layout and locks NULL when absent */
};

/* presults_load - read @dir.  Return: NULL with @err set (file:line:col for bad files). */
struct presults *presults_load(const char *dir, struct c2c_err *err);
void presults_free(struct presults *pr);

/* The variant named @name in @pr, or NULL. */
const struct pr_variant *presults_variant(const struct presults *pr, const char *name);

/* The 64-byte line @line of @object in variant @v, or NULL. */
const struct pr_l64 *pr_find_l64(const struct presults *pr, uint32_t v, const char *object,
				 int64_t line);

/* Members of @object in variant @variant on 64-byte line @line (layout.csv), joined with
 * ", ", at most @max names then "..."; "" when unknown.  Caller g_free()s. */
char *pr_line_members(const struct presults *pr, const char *variant, const char *object,
		      int64_t line, int max);

/* The member (layout.csv) of @object in variant @variant holding byte @addr, or NULL. */
const char *pr_member_at(const struct presults *pr, const char *variant, const char *object,
			 uint64_t addr);

bool plot_hitm_lines(struct plot_set *ps, const struct presults *pr, struct c2c_err *err);
bool plot_pareto(struct plot_set *ps, const struct presults *pr, struct c2c_err *err);
bool plot_layout(struct plot_set *ps, const struct presults *pr, struct c2c_err *err);
bool plot_locks(struct plot_set *ps, const struct presults *pr, struct c2c_err *err);
/* @scenario: the swept scenario's file name for the title (NULL: unknown, e.g. a merge). */
bool plot_sweep(struct plot_set *ps, const struct csv *sweep, const char *scenario,
		struct c2c_err *err);

#endif
