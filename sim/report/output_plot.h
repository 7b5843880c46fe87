/*
 * output_plot.h - the two tables of the results directory that only the plots read.
 *
 * output.c writes them beside summary.yaml (see output.h for the directory); `c2csim plot`
 * (plot.h) draws the lock distributions and the layout picture from them.
 *
 *   locks_hist.csv  `variant,lock,kind,lo_ps,hi_ps,count`: the wait (contended acquisitions
 *                   only, as in summary.yaml) and hold times of every lock taken, in
 *                   power-of-two buckets [lo_ps, hi_ps); every bucket from the lowest to the
 *                   highest non-empty one is written, empty ones with count 0, so a curve
 *                   drawn from it has no gaps.  A 0 ps sample falls in [0, 1).  Locks in
 *                   first-use order, wait before hold.
 *   layout.csv      `variant,object,struct,base,member,offset,size`: the members of every
 *                   object that holds a shared line (report_line_shared), objects in the order
 *                   their first shared line was touched.  Members are the layout's top-level
 *                   ones (anonymous structs and unions are transparent, as in C); a struct
 *                   member larger than one 64-byte line is replaced by its own members
 *                   ("lruvec.lru_lock"), so every line of the picture names what is on it.
 *                   base is the object's address, offset and size are in bytes from it.
 *                   Objects without a layout (plain regions) have no rows.
 */
#ifndef C2C_OUTPUT_PLOT_H
#define C2C_OUTPUT_PLOT_H

#include <stdint.h>
#include <stdio.h>

#include "scenario/run.h"

typedef void (*output_table_fn)(FILE *f, struct run_result *const *runs, uint32_t nr);

struct output_table {
	const char *name;     /* file name in the results directory */
	output_table_fn fill; /* writes the whole file; can't fail (errors are the stream's) */
};

/* The tables above, ended by {NULL, NULL}. */
extern const struct output_table output_plot_tables[];

#endif
