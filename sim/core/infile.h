/*
 * infile.h - the one place c2csim reads an input file: regular files only, of bounded size.
 *
 * Every input (scenario, machine, layout and path-model YAML, traces, pahole text, and the
 * scenario copy in the results) is read whole through infile_read().  Hostile inputs are
 * refused before any byte is read: a FIFO would block forever, /dev/zero would fill memory,
 * and a directory reads as an error only on some systems.  The file is opened non-blocking
 * (a FIFO without a writer opens at once) and checked with fstat() on the open descriptor,
 * so a file swapped after the check cannot slip through; the size is checked again while
 * reading, since a regular file may grow (or report size 0, as /proc files do).
 *
 * Limits (bytes); each is named in the error and documented in the README ("Input limits").
 */
#ifndef C2C_INFILE_H
#define C2C_INFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Scenario, machine, layout and path-model files: the shipped ones are below 16 KiB. */
#define INFILE_MAX_YAML ((size_t)16 << 20)
/* Trace files: ten million accesses of about 25 bytes. */
#define INFILE_MAX_TRACE ((size_t)256 << 20)
/* `pahole -C STRUCT` output: one struct is a few KiB, a whole kernel's about 100 MiB. */
#define INFILE_MAX_PAHOLE ((size_t)16 << 20)

/* Room for a reason from infile_read(). */
#define INFILE_WHY_MAX 160

/*
 * infile_read - read all of the regular file @path, at most @limit bytes.
 * Return: true with *@text (NUL-terminated, free with g_free) and *@len (may be NULL); false
 * with @why holding the reason, e.g. "cannot open: No such file or directory", "is a FIFO,
 * not a regular file" or "too large: 20000000 bytes", and *@text
 * NULL.  The caller adds the position and what was expected.
 */
bool infile_read(const char *path, size_t limit, char **text, size_t *len,
		 char why[INFILE_WHY_MAX]);

/* A limit in MiB, for messages (every limit above is a whole number of MiB). */
#define INFILE_MIB(limit) ((limit) >> 20)

#endif
