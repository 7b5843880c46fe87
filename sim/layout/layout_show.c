/* layout_show.c - pahole's view of a layout and its C spelling; see layout_show.h. */
#include "layout/layout_show.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#define SMP_CACHE_BYTES 64

struct show {
	FILE *f;
	const struct layout *l;
	uint64_t placement;   /* object start, bytes past a 128-byte boundary */
	bool pair;
	uint64_t cursor;      /* next byte after what was printed */
	uint64_t next_b;      /* offset of the next line boundary to show */
};

static void indent(FILE *f, int depth)
{
	for (int i = 0; i < depth; i++)
		fputc('\t', f);
}

/* Boundary markers for every 64-byte line that starts before @upto (or at it, @at_too) and
 * was not shown yet: as pahole does, before the member at @off, "was N bytes ago" when it
 * starts past the boundary. */
static void show_boundaries(struct show *s, uint64_t upto, bool at_too, uint64_t off, int depth)
{
	uint64_t p = s->placement % 128;

	for (; s->next_b < upto || (at_too && s->next_b == upto); s->next_b += 64) {
		uint64_t b = s->next_b, line = (p + b) / 64 - p / 64;
		bool pair = s->pair && (p + b) % 128 == 0;

		indent(s->f, depth);
		fprintf(s->f, "/* %s cacheline %" PRIu64 " boundary (%" PRIu64 " bytes)",
			pair ? "===" : "---", line, b);
		if (off > b)
			fprintf(s->f, " was %" PRIu64 " bytes ago", off - b);
		fprintf(s->f, "%s %s */\n", pair ? ", 128-byte pair boundary" : "",
			pair ? "===" : "---");
	}
}

static void show_groups(struct show *s, const struct lmember *c, bool begin, int depth)
{
	for (uint32_t i = 0; i < s->l->nr_groups; i++) {
		const struct lgroup *g = &s->l->groups[i];

		if (!c->name || strcmp(begin ? g->first : g->last, c->name))
			continue;
		indent(s->f, depth);
		fprintf(s->f, "/* --- group %s %s (bytes %" PRIu64 "-%" PRIu64 ")%s --- */\n",
			g->name, begin ? "begins" : "ends", g->start, g->end,
			g->aligned ? ", aligned" : "");
	}
}

/* "TYPE NAME[D]:BITS" of a field or pad (function pointers: "RET (*NAME)(ARGS)"). */
static void declarator(GString *d, const struct lmember *c, bool c_syntax)
{
	const char *type = c->type ? c->type : c->kind == LM_PAD ? "struct cacheline_padding" : "";
	const char *star = c_syntax ? strstr(type, "(*)") : NULL;

	if (star)
		g_string_append_printf(d, "%.*s(*%s", (int)(star - type), type, c->name);
	else
		g_string_append_printf(d, c_syntax ? "%s %s" : "%-26s %s", type, c->name);
	for (int i = 0; i < c->nr_dims; i++)
		g_string_append_printf(d, c->dims[i] ? "[%u]" : "[]", c->dims[i]);
	if (star)
		g_string_append(d, star + 2);
	if (c->bits)
		g_string_append_printf(d, ":%u", c->bits);
}

static void show_level(struct show *s, const struct lmember *m, uint32_t nr, int depth,
		       bool in_union)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *c = &m[i];
		GString *decl = g_string_new(NULL);

		if (!in_union && c->offset > s->cursor && depth == 1) {
			/* Lines starting inside the member before, then the hole, then the rest. */
			show_boundaries(s, s->cursor, false, c->offset, depth);
			fputc('\n', s->f);
			indent(s->f, depth);
			fprintf(s->f, "/* XXX %" PRIu64 " bytes hole */\n\n", c->offset - s->cursor);
		}
		show_boundaries(s, c->offset, true, c->offset, depth);
		show_groups(s, c, true, depth);
		if (c->kind == LM_STRUCT || c->kind == LM_UNION) {
			indent(s->f, depth);
			fprintf(s->f, "%s {\n", lm_kind_names[c->kind]);
			show_level(s, c->sub, c->nr_sub, depth + 1, c->kind == LM_UNION);
			g_string_append_printf(decl, "}%s%s", c->name ? " " : "", c->name ? c->name : "");
		} else {
			declarator(decl, c, false);
		}
		if (c->align)
			g_string_append_printf(decl, " __attribute__((__aligned__(%u)))", c->align);
		g_string_append_c(decl, ';');
		indent(s->f, depth);
		if (c->bits)
			fprintf(s->f, "%-48s /* %5" PRIu64 ":%2u %4" PRIu64 " */\n", decl->str,
				c->offset, c->bit_offset, c->size);
		else
			fprintf(s->f, "%-48s /* %5" PRIu64 " %5" PRIu64 " */\n", decl->str, c->offset,
				c->size);
		g_string_free(decl, TRUE);
		if (c->offset + c->size > s->cursor)
			s->cursor = c->offset + c->size;
		show_groups(s, c, false, depth);
	}
}

static void show_pairs(struct show *s)
{
	uint64_t p = s->placement % 128, first = p / 64, last = (p + s->l->size - 1) / 64;

	fprintf(s->f, "\t/* placement %" PRIu64 " (start %% 128): lines pair up as", p);
	for (uint64_t line = first & ~1ull; line <= last; line += 2) {
		int64_t a = (int64_t)line - (int64_t)first, b = a + 1;

		if (a < 0)
			fprintf(s->f, " [-1]+%" PRId64, b);
		else if ((uint64_t)b > last - first)
			fprintf(s->f, " %" PRId64 "+[next]", a);
		else
			fprintf(s->f, " %" PRId64 "+%" PRId64, a, b);
	}
	fprintf(s->f, " */\n");
}

void layout_show(FILE *f, const struct layout *l, uint64_t placement, bool pair)
{
	struct show s = {.f = f, .l = l, .placement = placement, .pair = pair,
			 .next_b = 64 - placement % 64};

	fprintf(f, "struct %s {%s%s%s\n", l->name, l->file ? "  /* " : "", l->file ? l->file : "",
		l->file ? " */" : "");
	show_level(&s, l->m, l->nr, 1, false);
	if (l->size > s.cursor)
		fprintf(f, "\n\t/* padding: %" PRIu64 " */\n", l->size - s.cursor);
	fprintf(f, "\n\t/* size: %" PRIu64 ", cachelines: %" PRIu64 ", members: %u */\n", l->size,
		(l->size + 63) / 64, l->nr);
	if (pair)
		show_pairs(&s);
	if (l->align)
		fprintf(f, "} __attribute__((__aligned__(%u)));\n", l->align);
	else
		fprintf(f, "};\n");
}

/* ------------------------------------------------------------------ C */

/* The group markers at member @c (by its name at the top level), as include/linux/cache.h
 * spells them. */
static void c_groups(FILE *f, const struct layout *l, const struct lmember *c, bool begin)
{
	for (uint32_t i = 0; i < l->nr_groups; i++) {
		const struct lgroup *g = &l->groups[i];

		if (c->name && !strcmp(begin ? g->first : g->last, c->name))
			fprintf(f, "\t__cacheline_group_%s%s(%s);\n", begin ? "begin" : "end",
				g->aligned ? "_aligned" : "", g->name);
	}
}

static void c_level(FILE *f, const struct layout *l, const struct lmember *m, uint32_t nr,
		    int depth)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *c = &m[i];
		GString *d = g_string_new(NULL);
		bool padding = c->kind == LM_PAD && !c->size &&
			       (!c->type || !strcmp(c->type, "struct cacheline_padding")) &&
			       (!c->align || c->align == SMP_CACHE_BYTES);

		if (depth == 1)
			c_groups(f, l, c, true);
		indent(f, depth);
		if (c->kind == LM_STRUCT || c->kind == LM_UNION) {
			fprintf(f, "%s {\n", lm_kind_names[c->kind]);
			c_level(f, l, c->sub, c->nr_sub, depth + 1);
			indent(f, depth);
			g_string_append_printf(d, "}%s%s", c->name ? " " : "", c->name ? c->name : "");
		} else if (padding) {
			g_string_append_printf(d, "CACHELINE_PADDING(%s)", c->name);
		} else if (c->kind == LM_PAD && !c->type) {
			g_string_append_printf(d, "char %s[%" PRIu64 "]", c->name, c->size);
		} else {
			declarator(d, c, true);
		}
		if (c->align && !padding)
			g_string_append_printf(d, " __attribute__((__aligned__(%u)))", c->align);
		fprintf(f, "%s;%*s/* %5" PRIu64 " %5" PRIu64 " */\n", d->str,
			d->len < 48 ? (int)(48 - d->len) : 1, "", c->offset, c->size);
		g_string_free(d, TRUE);
		if (depth == 1)
			c_groups(f, l, c, false);
	}
}

void layout_print_c(FILE *f, const struct layout *l)
{
	fprintf(f, "struct %s {\n", l->name);
	c_level(f, l, l->m, l->nr, 1);
	/* Beyond any natural alignment: the struct's own attribute (harmless when a member
	 * already forces it). */
	if (l->align > 8)
		fprintf(f, "} __attribute__((__aligned__(%u)));\n", l->align);
	else
		fprintf(f, "};\n");
	fprintf(f, "/* size: %" PRIu64 ", cachelines: %" PRIu64 " */\n", l->size,
		(l->size + 63) / 64);
}
