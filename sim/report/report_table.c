/* report_table.c - the fixed-width tables and section titles of the reports (report.c and
 * report_paths.c print through these); see report.h for the design. */
#include "report/report.h"

#include <glib.h>
#include <string.h>

#define RULE "================================================="
#define DASHES REPORT_DASHES

void report_section(FILE *f, const char *title)
{
	int pad = ((int)strlen(RULE) - (int)strlen(title)) / 2;

	fprintf(f, "%s\n%*s%s\n%s\n", RULE, pad > 0 ? pad : 0, "", title, RULE);
}

static void put_cell(GString *s, const struct report_col *c, const char *text, bool last)
{
	g_string_append(s, "  ");
	if (c->left && last)
		g_string_append(s, text);
	else
		g_string_append_printf(s, c->left ? "%-*s" : "%*s", c->width, text);
}

/* Print @s without trailing blanks (padding of an empty last cell), then a newline. */
static void put_line(FILE *f, GString *s)
{
	while (s->len && s->str[s->len - 1] == ' ')
		g_string_truncate(s, s->len - 1);
	fprintf(f, "%s\n", s->str);
	g_string_truncate(s, 0);
}

void report_table_row(FILE *f, const struct report_col *cols, int n, const char *const *cells)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < n; i++)
		put_cell(s, &cols[i], cells[i], i == n - 1);
	put_line(f, s);
	g_string_free(s, TRUE);
}

/* The group line ("---- HITM ----" over Tot, Lcl, Rmt), the titles, and a rule. */
void report_table_head(FILE *f, const struct report_col *cols, int n)
{
	GString *s = g_string_new(NULL);
	const char **titles = g_new(const char *, n);
	int total = 0, grouped = 0;

	for (int i = 0; i < n; i++)
		grouped |= *cols[i].group != 0;
	for (int i = 0, j; grouped && i < n; i = j) {
		int span = cols[i].width, dashes;

		for (j = i + 1; j < n && !strcmp(cols[j].group, cols[i].group); j++)
			span += 2 + cols[j].width;
		dashes = span - (int)strlen(cols[i].group) - 2;
		if (!*cols[i].group || dashes < 0) {
			g_string_append_printf(s, "  %-*s", span, cols[i].group);
			continue;
		}
		g_string_append_printf(s, "  %.*s %s %.*s", dashes / 2, DASHES, cols[i].group,
				       dashes - dashes / 2, DASHES);
	}
	if (grouped)
		put_line(f, s);
	for (int i = 0; i < n; i++) {
		titles[i] = cols[i].title;
		total += 2 + (cols[i].width ? cols[i].width : (int)strlen(cols[i].title));
	}
	report_table_row(f, cols, n, titles);
	g_free(titles);
	g_string_append(s, "  ");
	for (int i = 2; i < total; i++)
		g_string_append_c(s, '-');
	put_line(f, s);
	g_string_free(s, TRUE);
}
