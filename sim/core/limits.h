/*
 * limits.h - resource guards: how far one run may go before c2csim stops it.
 *
 * c2csim runs unattended on scenarios nobody reviewed, so every quantity an input can make
 * grow without bound has a named limit.  The limits live in one struct, each field with its
 * default, its option and its unit in one table (limit_table in limits.c), which the command
 * line and the error messages read (the README repeats it):
 *
 *   field        option              default        what it bounds
 *   events       --max-events N      2000000000     events dispatched, per variant
 *   time_us      --max-time-us N     10000000       simulated time, per variant (10 s)
 *   lines        --max-lines N       4194304        cache lines in the directory, per variant
 *                                                   (host memory: about 1.1 KiB per line)
 *   entities     --max-entities N    1048576        entity instances, per variant
 *   trace_lines  --max-trace-lines N 4194304        accesses in a trace file
 *   output_mib   --max-output-mib N  1024           MiB written to the results directory
 *
 * Reaching a limit is not bad input: the scenario is legal but larger than this run allows.
 * It stops the run (or the load) with exit status 1 and one line that names the limit and the
 * option that raises it (limits_fail).  Zero is not a valid limit (a run that may do nothing
 * is a usage error); there is no "unlimited": pass a large number.
 */
#ifndef C2C_LIMITS_H
#define C2C_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

#include "core/err.h"
#include "core/types.h"

struct c2c_limits {
	uint64_t events;       /* events dispatched per variant */
	uint64_t time_us;      /* simulated microseconds per variant */
	uint64_t lines;        /* cache lines the directory may hold per variant */
	uint64_t entities;     /* entity instances per variant */
	uint64_t trace_lines;  /* accesses (non-blank, non-comment lines) in a trace file */
	uint64_t output_mib;   /* MiB written to the results directory (all files) */
};

/* One row of the table: a field of struct c2c_limits and how it is set and documented. */
struct limit_def {
	const char *option;    /* "--max-events" */
	size_t offset;         /* offsetof(struct c2c_limits, field) */
	uint64_t def;          /* default */
	const char *unit;      /* what one unit of the value is */
	const char *what;      /* what it bounds, for --help and messages */
};

extern const struct limit_def limit_table[];
extern const size_t limit_table_len;

/* limits_default - every limit at its default.  Can't fail. */
void limits_default(struct c2c_limits *l);

/* limits_time_ps - the time limit in picoseconds (saturating).  Can't fail. */
simtime_t limits_time_ps(const struct c2c_limits *l);

/* limits_output_bytes - the output limit in bytes (saturating).  Can't fail. */
uint64_t limits_output_bytes(const struct c2c_limits *l);

/* limits_option_group - the limit options as a GOption group that parses into @l (which must
 * outlive it), for a command line built with GOptionContext.  Free with g_option_group_unref
 * (or let the context own it). */
GOptionGroup *limits_option_group(struct c2c_limits *l);

/*
 * limits_parse_args - take every limit option (`--max-events N` or `--max-events=N`) out of
 * @argv (@argc updated; other arguments keep their order) into @l.  Return: false with @err
 * set ("c2csim run: --max-events 'x' (expected ...)") for a bad or missing value.
 */
bool limits_parse_args(struct c2c_limits *l, int *argc, char **argv, struct c2c_err *err);

/*
 * limits_fail - the message for reaching the limit whose field is at @offset, after @what
 * (e.g. "at 1234 us"), into @buf: "limit --max-events (N events dispatched) reached at ...
 * (raise it with --max-events N)".  Return: @buf.
 */
char *limits_fail(char *buf, size_t size, const struct c2c_limits *l, size_t offset,
		  const char *what);

/* The bytes a set of files may still take (--max-output-mib), shared by limits_fopen files. */
struct limits_budget {
	uint64_t left;
	bool over;             /* a write would have passed it (and failed) */
};

/*
 * limits_fopen - create (or truncate) @path for writing, every write charged to @b: a write
 * that would pass it fails with EFBIG and sets b->over, so a run can never put more on disk
 * than the limit allows.  fclose() syncs the file to disk.  Return: the stream, or NULL with
 * errno set.
 */
FILE *limits_fopen(const char *path, struct limits_budget *b);

/* LIMIT_OF - the row offset of a field, for limits_fail(). */
#define LIMIT_OF(field) offsetof(struct c2c_limits, field)

#endif
