/*
 * pahole_decl.c - the tokens and C declarations of one line of pahole output: blanks,
 * literals, numbers, identifiers, attributes, array dimensions, the offset comment, and the
 * split of a member declaration into type, name, dimensions and bitfield width.  The line
 * grammar (braces, comments, the summary) is pahole.c's; see the design comment in pahole.h.
 */
#include "layout/pahole_int.h"

#include <string.h>

/* ---- tokens --------------------------------------------------------------------------- */

const char *tok_skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool is_ident_start(char c)
{
	return g_ascii_isalpha(c) || c == '_';
}

bool tok_ident_char(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

/* tok_lit - skip blanks, then consume @word if it is next. */
bool tok_lit(const char **sp, const char *word)
{
	const char *s = tok_skip_ws(*sp);
	size_t n = strlen(word);

	if (strncmp(s, word, n))
		return false;
	*sp = s + n;
	return true;
}

/* tok_number - skip blanks, then a decimal number (pahole's default output; no sign, no hex). */
bool tok_number(const char **sp, uint64_t *out)
{
	const char *s = tok_skip_ws(*sp);
	uint64_t v = 0;

	if (!g_ascii_isdigit(*s))
		return false;
	for (; g_ascii_isdigit(*s); s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	*sp = s;
	return true;
}

/* tok_ident - skip blanks, then a C identifier, returned as a new string. */
char *tok_ident(const char **sp)
{
	const char *s = tok_skip_ws(*sp), *start = s;

	if (!is_ident_start(*s))
		return NULL;
	while (tok_ident_char(*s))
		s++;
	*sp = s;
	return g_strndup(start, (gsize)(s - start));
}

bool tok_at_end(const char *s)
{
	return !*tok_skip_ws(s);
}

/* squash - @s[0..len) trimmed, each run of blanks made one space (pahole pads columns). */
static char *squash(const char *s, size_t len)
{
	GString *out = g_string_sized_new(len);

	for (size_t i = 0; i < len; i++) {
		bool blank = s[i] == ' ' || s[i] == '\t';

		if (!blank)
			g_string_append_c(out, s[i]);
		else if (out->len && out->str[out->len - 1] != ' ')
			g_string_append_c(out, ' ');
	}
	if (out->len && out->str[out->len - 1] == ' ')
		g_string_truncate(out, out->len - 1);
	return g_string_free(out, FALSE);
}

/* attr - one __attribute__((__aligned__(N))) (N a power of two) or ((__packed__)). */
static bool attr(const char **sp, struct attrs *a)
{
	const char *s = *sp;
	uint64_t n;

	if (!tok_lit(&s, "__attribute__(("))
		return false;
	if (tok_lit(&s, "__packed__))")) {
		a->packed = true;
	} else if (tok_lit(&s, "__aligned__(") && tok_number(&s, &n) && tok_lit(&s, ")))") &&
		   n && n <= UINT32_MAX && !(n & (n - 1))) {
		if (n > a->align)
			a->align = (uint32_t)n;
	} else {
		return false;
	}
	*sp = s;
	return true;
}

void tok_attrs(const char **sp, struct attrs *a)
{
	while (attr(sp, a))
		;
}

/* tok_dims - zero or more [N] or [] (a flexible array: 0) into @m; false when malformed. */
bool tok_dims(const char **sp, struct lmember *m)
{
	const char *s = *sp;
	uint64_t n;

	while (tok_lit(&s, "[")) {
		if (tok_lit(&s, "]")) {
			n = 0;
		} else if (!tok_number(&s, &n) || n > UINT32_MAX || !tok_lit(&s, "]")) {
			return false;
		}
		if (m->nr_dims == LAYOUT_MAX_DIMS)
			return false;
		m->dims[m->nr_dims++] = (uint32_t)n;
	}
	*sp = s;
	return true;
}

/*
 * tok_offset_comment - pahole's trailing comment at @s: "/ * OFF SIZE * /" or, for a bitfield,
 * "/ * OFF:BIT SIZE * /", with any blanks between; nothing may follow.  @bit is -1 when
 * absent.
 */
bool tok_offset_comment(const char *s, uint64_t *off, int64_t *bit, uint64_t *size)
{
	uint64_t b;

	*bit = -1;
	if (!tok_lit(&s, "/*") || !tok_number(&s, off))
		return false;
	if (tok_lit(&s, ":")) {
		if (!tok_number(&s, &b) || b > UINT16_MAX)
			return false;
		*bit = (int64_t)b;
	}
	return tok_number(&s, size) && tok_lit(&s, "*/") && tok_at_end(s);
}

/* tok_trailing_comment - where the last comment of @t starts, or NULL when @t has none. */
const char *tok_trailing_comment(const char *t)
{
	const char *c = NULL, *p;

	for (p = strstr(t, "/*"); p; p = strstr(p + 2, "/*"))
		c = p;
	return c;
}

/* ---- declarations --------------------------------------------------------------------- */

/* struct_tag - X when @type is exactly "struct X" (the layout that would describe it). */
static char *struct_tag(const char *type)
{
	const char *s = type;
	char *name;

	if (strncmp(s, "struct ", 7))
		return NULL;
	s += 7;
	name = tok_ident(&s);
	if (name && *s) {
		g_free(name);
		return NULL;
	}
	return name;
}

/*
 * funcptr - split "RET (*NAME[D])(ARGS)" into name, dims and type "RET (*)(ARGS)".  @decl
 * holds the declaration without ';', attributes or bits; @star points at its "(*".
 */
static bool funcptr(const char *decl, const char *star, struct lmember *m)
{
	const char *s = star + 2, *rest;
	g_autofree char *type = NULL;

	m->name = tok_ident(&s);
	if (!m->name || !tok_dims(&s, m))
		return false;
	rest = tok_skip_ws(s);
	if (*rest != ')' || !strchr(rest, '('))
		return false;
	type = g_strdup_printf("%.*s(*%s", (int)(star - decl), decl, rest);
	m->type = squash(type, strlen(type));
	return true;
}

/* plain_decl - split "TYPE NAME[D1][D2]" into type, name and dims. */
static bool plain_decl(const char *decl, size_t len, struct lmember *m)
{
	const char *end = decl + len, *name_end, *name_start, *s;

	while (end > decl && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	/* Step back over the dimensions, then over the name. */
	name_end = end;
	while (name_end > decl && name_end[-1] == ']') {
		while (name_end > decl && name_end[-1] != '[')
			name_end--;
		if (name_end == decl)
			return false;
		name_end--;
		while (name_end > decl && (name_end[-1] == ' ' || name_end[-1] == '\t'))
			name_end--;
	}
	name_start = name_end;
	while (name_start > decl && tok_ident_char(name_start[-1]))
		name_start--;
	if (name_start == name_end || !is_ident_start(*name_start))
		return false;
	s = name_end;
	if (!tok_dims(&s, m) || s != end)
		return false;
	m->name = g_strndup(name_start, (gsize)(name_end - name_start));
	m->type = squash(decl, (size_t)(name_start - decl));
	return m->type[0] != '\0';
}

/*
 * split_tail - take the member attributes and a bitfield width off the end of @decl
 * (they follow the name in pahole's output) and return the length of what is left.
 */
static bool split_tail(const char *decl, size_t *len, struct lmember *m, struct attrs *a)
{
	const char *at = strstr(decl, "__attribute__(("), *s, *colon;
	uint64_t bits;

	*len = strlen(decl);
	if (at) {
		s = at;
		tok_attrs(&s, a);
		if (!tok_at_end(s) || a->packed)
			return false;
		*len = (size_t)(at - decl);
	}
	colon = memchr(decl, ':', *len);
	if (!colon)
		return true;
	if (colon == decl || !(tok_ident_char(colon[-1]) || colon[-1] == ']'))
		return false; /* a bitfield needs a name: "TYPE :N" lines carry no offsets */
	s = colon + 1;
	if (!tok_number(&s, &bits) || !bits || bits > UINT16_MAX ||
	    (size_t)(tok_skip_ws(s) - decl) < *len)
		return false;
	m->bits = (uint16_t)bits;
	*len = (size_t)(colon - decl);
	return true;
}

/* decl_parse - fill @m from "TYPE NAME[D]:BITS ATTRS" (the text before ';'). */
bool decl_parse(char *decl, struct lmember *m, struct attrs *a)
{
	size_t len;
	char *star;

	if (!split_tail(decl, &len, m, a))
		return false;
	decl[len] = '\0';
	star = strstr(decl, "(*");
	if (star)
		return funcptr(decl, star, m);
	return plain_decl(decl, len, m);
}

/* decl_hole_line - pahole's comment-less "TYPE :N;" lines (bit holes, forced padding). */
bool decl_hole_line(const char *t)
{
	const char *colon = strrchr(t, ':'), *s;
	uint64_t n;

	if (!colon || colon == t || (colon[-1] != ' ' && colon[-1] != '\t'))
		return false;
	s = colon + 1;
	return tok_number(&s, &n) && tok_lit(&s, ";") && tok_at_end(s);
}

/* decl_finish_field - what follows from the type: padding markers and embedded layouts. */
void decl_finish_field(struct lmember *m)
{
	if (!strcmp(m->type, "struct cacheline_padding"))
		m->kind = LM_PAD;
	else
		m->layout = struct_tag(m->type);
}
