/* err.c - see err.h */
#include "core/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void err_set(struct c2c_err *err, struct c2c_mark mark, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || err->set)
		return;
	err->set = true;
	n = snprintf(err->msg, sizeof(err->msg), "%s:%d:%d: ", mark.file ? mark.file : "<input>",
		     mark.line, mark.col);
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
}

void err_setf(struct c2c_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->set)
		return;
	err->set = true;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

bool err_text_nul(const char *file, const char *text, size_t len, const char *what,
		  struct c2c_err *err)
{
	const char *nul = memchr(text, 0, len), *bol = text;
	int line = 1;

	if (!nul)
		return true;
	for (const char *p = text; p < nul; p++)
		if (*p == '\n') {
			line++;
			bol = p + 1;
		}
	err_set(err, (struct c2c_mark){file, line, (int)(nul - bol) + 1}, "%s: NUL byte "
		"(expected text lines)", what);
	return false;
}

/* Levenshtein distance, capped: names are short keys, so a small stack row is enough. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], i, j;

	if (la >= 63 || lb >= 63)
		return 64;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *err_closest(const char *word, const char *const *names)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, limit = strlen(word) / 2 + 1;

	for (; names && *names; names++) {
		size_t d = edit_distance(word, *names);

		if (d < best_d) {
			best_d = d;
			best = *names;
		}
	}
	return best_d <= limit ? best : NULL;
}
