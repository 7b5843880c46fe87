/*
 * outdir.h - the results directory's life: may DIR be replaced, the temporary it is written
 * in, the atomic swap, and what a killed run leaves behind.
 *
 * Design
 * ------
 * Rules (README "Output directory"):
 *  - DIR may be replaced only when it is an empty directory or one c2csim wrote: it carries
 *    the marker file OUTDIR_MARKER (the version and the list of files written) and holds
 *    nothing else.  A directory without the marker, a file, a symlink, or a results directory
 *    to which anything was added is refused, before the simulation starts, and never touched.
 *  - Everything is written into `<parent>/.<name>.tmp-<pid>`, marker last, then swapped in:
 *    renameat2(RENAME_EXCHANGE) exchanges the two directories in one step, and the old results
 *    (now at the temporary name) are removed.  Where the file system cannot exchange (EINVAL),
 *    the fallback is two renames: DIR to `<parent>/.<name>.old-<pid>`, the temporary to DIR.
 *    What was moved away is checked again after the move, so a foreign DIR that appeared
 *    during the run is put back, never removed.
 *  - A killed run leaves only those dot-directories.  The next run for the same DIR (at its
 *    check and again at its write) removes `.tmp-PID` and `.old-PID` of processes that no
 *    longer exist (kill(pid, 0) fails with ESRCH), except that an `.old-PID` is renamed back
 *    to DIR when DIR is missing: that is a fallback swap killed between its two renames.
 *    Leftovers of live processes (another run writing the same DIR) are left alone.
 */
#ifndef C2C_OUTDIR_H
#define C2C_OUTDIR_H

#include <glib.h>
#include <stdbool.h>

#include "core/err.h"

/* The marker file of a results directory. */
#define OUTDIR_MARKER ".c2csim-results"

struct outdir {
	char *path;         /* DIR without trailing slashes */
	char *parent, *base;
	char *tmp, *old;    /* the dot-prefixed siblings, with our pid */
	bool tmp_ours;      /* tmp exists and holds what we wrote (removed by outdir_close) */
	bool no_exchange;   /* swap with the two-rename fallback even where RENAME_EXCHANGE
			     * works (set by tests, so the fallback is exercised everywhere) */
	GPtrArray *files;   /* paths written under tmp, relative, for the marker */
	char why[C2C_ERR_MAX]; /* the first failure's reason */
};

/*
 * outdir_check - could results be written to @dir now?  Run before simulating: @dir must be
 * a name one can replace (not "/", "." or ".."), fit the file system's name and path lengths
 * with the temporary's suffix, be missing or replaceable (see above), and its nearest
 * existing ancestor must be a writable directory.  Stale leftovers of dead runs are cleaned
 * up.  Nothing is created.
 * Return: true, or false with @err set to "cannot write results to DIR: reason".
 */
bool outdir_check(const char *dir, struct c2c_err *err);

/* outdir_rm_tree - remove @path and everything under it; symlinks are removed, never
 * followed.  Best effort (it only removes what we wrote or what a dead run of ours left);
 * can't fail. */
void outdir_rm_tree(const char *path);

/*
 * outdir_open - start writing @dir: the checks of outdir_check(), missing parents created, the
 * temporary directory made (od->tmp).  Return: true, or false with od->why set.  Either way
 * outdir_close() releases @od.
 */
bool outdir_open(struct outdir *od, const char *dir);

/* outdir_wrote - record that @rel (relative to the temporary) was written. */
void outdir_wrote(struct outdir *od, const char *rel);

/* outdir_commit - write the marker and swap the temporary in as DIR (old results removed).
 * Return: true, or false with od->why set and the old DIR in place. */
bool outdir_commit(struct outdir *od);

/* outdir_close - remove the temporary if it is still there and free @od's names. */
void outdir_close(struct outdir *od);

#endif
