/*
 * csv.h - RFC 4180 tables: the field writer every CSV of the results directory uses, and the
 * reader `c2csim plot` and `c2csim merge` load them with.
 *
 * Format: LF line ends (CRLF read too), a header row, fields separated by commas; a field
 * holding a comma, a quote or a line break is quoted, with quotes doubled.  Every row has as
 * many fields as the header.
 */
#ifndef C2C_CSV_H
#define C2C_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

/* csv_put - write @s as one field.  Can't fail (errors are the stream's). */
void csv_put(FILE *f, const char *s);

struct csv {
	char **head;      /* column names */
	uint32_t ncol;
	char ***rows;     /* rows[i][j]: field j of row i (never NULL) */
	uint32_t nrow;
};

/* csv_load - read the table in @path.  Return: the table (free with csv_free, NULL ok), or
 * NULL with @err "path:line:col: what (expected ...)" for a missing file, an unterminated
 * quote or a row with the wrong number of fields. */
struct csv *csv_load(const char *path, struct c2c_err *err);
void csv_free(struct csv *c);

/* csv_col - the index of column @name, or -1. */
int csv_col(const struct csv *c, const char *name);

/* csv_get - field @col of row @row; "" when @col is -1.  Can't fail. */
const char *csv_get(const struct csv *c, uint32_t row, int col);

/* csv_u64 - field @col of row @row as an unsigned integer; 0 when empty or not a number. */
uint64_t csv_u64(const struct csv *c, uint32_t row, int col);

#endif
