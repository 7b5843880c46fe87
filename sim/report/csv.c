/* csv.c - RFC 4180 fields and tables; see csv.h. */
#include "report/csv.h"
#include "core/infile.h"

#include <glib.h>
#include <string.h>

void csv_put(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The reader's position: @p walks the text, @line and @col say where for messages. */
struct csv_rd {
	const char *p, *end, *path;
	int line, col;
};

static void rd_step(struct csv_rd *r)
{
	if (*r->p == '\n') {
		r->line++;
		r->col = 1;
	} else {
		r->col++;
	}
	r->p++;
}

/* One field into @out; stops before the comma or line end.  Return: false for an
 * unterminated quote. */
static bool rd_field(struct csv_rd *r, GString *out, struct c2c_err *err)
{
	struct c2c_mark at = {r->path, r->line, r->col};

	g_string_truncate(out, 0);
	if (r->p < r->end && *r->p == '"') {
		rd_step(r);
		for (;;) {
			if (r->p >= r->end) {
				err_set(err, at, "unterminated quoted field (expected a closing '\"')");
				return false;
			}
			if (*r->p == '"' && (r->p + 1 >= r->end || r->p[1] != '"')) {
				rd_step(r);
				return true;
			}
			if (*r->p == '"')
				rd_step(r);
			g_string_append_c(out, *r->p);
			rd_step(r);
		}
	}
	while (r->p < r->end && *r->p != ',' && *r->p != '\n' &&
	       !(*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n')) {
		g_string_append_c(out, *r->p);
		rd_step(r);
	}
	return true;
}

/* One row into @fields (owned strings).  Return: false on a bad field. */
static bool rd_row(struct csv_rd *r, GPtrArray *fields, struct c2c_err *err)
{
	GString *s = g_string_new(NULL);
	bool ok = true;

	for (;;) {
		if (!(ok = rd_field(r, s, err)))
			break;
		g_ptr_array_add(fields, g_strdup(s->str));
		if (r->p < r->end && *r->p == ',') {
			rd_step(r);
			continue;
		}
		if (r->p < r->end && *r->p == '\r')
			rd_step(r);
		if (r->p < r->end)
			rd_step(r); /* the '\n' */
		break;
	}
	g_string_free(s, TRUE);
	return ok;
}

static char **take_row(GPtrArray *fields)
{
	g_ptr_array_add(fields, NULL);
	return (char **)g_ptr_array_free(fields, FALSE);
}

struct csv *csv_load(const char *path, struct c2c_err *err)
{
	g_autofree char *text = NULL;
	size_t len = 0;
	char why[INFILE_WHY_MAX];
	struct csv_rd r = {.path = path, .line = 1, .col = 1};
	GPtrArray *rows = g_ptr_array_new();
	struct csv *c = g_new0(struct csv, 1);
	bool ok = true;

	if (!infile_read(path, INFILE_MAX_TRACE, &text, &len, why)) {
		err_set(err, (struct c2c_mark){path, 1, 1}, "%s (expected a regular CSV file of at "
			"most %zu MiB)", why, INFILE_MIB(INFILE_MAX_TRACE));
		g_ptr_array_free(rows, TRUE);
		g_free(c);
		return NULL;
	}
	r.p = text;
	r.end = text + len;
	while (ok && r.p < r.end) {
		GPtrArray *fields = g_ptr_array_new_with_free_func(g_free);
		int line = r.line;

		ok = rd_row(&r, fields, err);
		if (ok && c->head && fields->len != c->ncol) {
			err_set(err, (struct c2c_mark){path, line, 1}, "%u fields (expected %u, as "
				"in the header)", fields->len, c->ncol);
			ok = false;
		}
		if (!ok) {
			g_ptr_array_free(fields, TRUE);
		} else if (!c->head) {
			c->ncol = fields->len;
			c->head = take_row(fields);
		} else {
			g_ptr_array_add(rows, take_row(fields));
		}
	}
	c->nrow = rows->len;
	c->rows = (char ***)g_ptr_array_free(rows, FALSE);
	if (!ok) {
		csv_free(c);
		return NULL;
	}
	return c;
}

void csv_free(struct csv *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->nrow; i++)
		g_strfreev(c->rows[i]);
	g_free(c->rows);
	g_strfreev(c->head);
	g_free(c);
}

int csv_col(const struct csv *c, const char *name)
{
	for (uint32_t j = 0; c && j < c->ncol; j++)
		if (!strcmp(c->head[j], name))
			return (int)j;
	return -1;
}

const char *csv_get(const struct csv *c, uint32_t row, int col)
{
	if (!c || col < 0 || (uint32_t)col >= c->ncol || row >= c->nrow)
		return "";
	return c->rows[row][col];
}

uint64_t csv_u64(const struct csv *c, uint32_t row, int col)
{
	const char *s = csv_get(c, row, col);
	char *end;
	guint64 v = g_ascii_strtoull(s, &end, 0); /* decimal, or 0x-hex addresses */

	return *s && !*end && *s != '-' ? v : 0;
}
