/* pahole.c - the pahole output importer; see the design comment in pahole.h. */
#include "layout/pahole.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#define MAX_DEPTH 32 /* nesting of inline aggregates; real structs stay below 5 */

#define MEMBER_EXPECTED "expected 'TYPE NAME; /* OFFSET SIZE */'"
#define SUMMARY_EXPECTED "expected '/* size: N, cachelines: C, members: M */'"

/*
 * One open brace.  @agg points into the parent's member array: safe because members are
 * only ever appended to the innermost frame, so a parent's array never moves while a child
 * is open.
 */
struct frame {
	struct lmember *agg;   /* the inline aggregate, NULL for the struct itself */
	struct lmember **arr;  /* where this frame's members go */
	uint32_t *nr;
	struct c2c_mark open;  /* the '{' */
};

struct parser {
	const char *file;      /* interned: marks outlive the text and the layout */
	struct c2c_err *err;
	struct layout *l;
	struct frame stack[MAX_DEPTH];
	int depth;             /* open braces */
	int line;              /* current line number */
	bool started, done;
	bool in_comment;       /* inside a comment spanning lines */
	struct c2c_mark comment_open;
	bool have_summary;
	uint64_t summary_size;
	uint64_t summary_members;
	struct c2c_mark summary_mark;
	uint32_t max_align;    /* largest explicit __aligned__ seen, for the struct's align */
};

/* Attributes after a member or a closing brace. */
struct attrs {
	uint32_t align;
	bool packed;
};

/* ---- small lexing helpers ------------------------------------------------------------- */

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool is_ident_start(char c)
{
	return g_ascii_isalpha(c) || c == '_';
}

static bool is_ident_char(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

/* lit - skip blanks, then consume @word if it is next. */
static bool lit(const char **sp, const char *word)
{
	const char *s = skip_ws(*sp);
	size_t n = strlen(word);

	if (strncmp(s, word, n))
		return false;
	*sp = s + n;
	return true;
}

/* number - skip blanks, then a decimal number (pahole's default output; no sign, no hex). */
static bool number(const char **sp, uint64_t *out)
{
	const char *s = skip_ws(*sp);
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

/* ident - skip blanks, then a C identifier, returned as a new string. */
static char *ident(const char **sp)
{
	const char *s = skip_ws(*sp), *start = s;

	if (!is_ident_start(*s))
		return NULL;
	while (is_ident_char(*s))
		s++;
	*sp = s;
	return g_strndup(start, (gsize)(s - start));
}

static bool at_end(const char *s)
{
	return !*skip_ws(s);
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

	if (!lit(&s, "__attribute__(("))
		return false;
	if (lit(&s, "__packed__))")) {
		a->packed = true;
	} else if (lit(&s, "__aligned__(") && number(&s, &n) && lit(&s, ")))") &&
		   n && n <= UINT32_MAX && !(n & (n - 1))) {
		if (n > a->align)
			a->align = (uint32_t)n;
	} else {
		return false;
	}
	*sp = s;
	return true;
}

static void attrs_all(const char **sp, struct attrs *a)
{
	while (attr(sp, a))
		;
}

/* dims - zero or more [N] or [] (a flexible array: 0) into @m; false when malformed. */
static bool dims(const char **sp, struct lmember *m)
{
	const char *s = *sp;
	uint64_t n;

	while (lit(&s, "[")) {
		if (lit(&s, "]")) {
			n = 0;
		} else if (!number(&s, &n) || n > UINT32_MAX || !lit(&s, "]")) {
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
 * offset_comment - pahole's trailing comment at @s: "/ * OFF SIZE * /" or, for a bitfield,
 * "/ * OFF:BIT SIZE * /", with any blanks between; nothing may follow.  @bit is -1 when
 * absent.
 */
static bool offset_comment(const char *s, uint64_t *off, int64_t *bit, uint64_t *size)
{
	uint64_t b;

	*bit = -1;
	if (!lit(&s, "/*") || !number(&s, off))
		return false;
	if (lit(&s, ":")) {
		if (!number(&s, &b) || b > UINT16_MAX)
			return false;
		*bit = (int64_t)b;
	}
	return number(&s, size) && lit(&s, "*/") && at_end(s);
}

/* trailing_comment - where the last comment of @t starts, or NULL when @t has none. */
static const char *trailing_comment(const char *t)
{
	const char *c = NULL, *p;

	for (p = strstr(t, "/*"); p; p = strstr(p + 2, "/*"))
		c = p;
	return c;
}

/* ---- errors and marks ----------------------------------------------------------------- */

static struct c2c_mark mark_at(const struct parser *p, const char *line, const char *at)
{
	return (struct c2c_mark){ .file = p->file, .line = p->line,
				  .col = (int)(at - line) + 1 };
}

static bool fail_member(struct parser *p, const char *line, const char *t)
{
	err_set(p->err, mark_at(p, line, t), "pahole: cannot parse member line (%s)",
		MEMBER_EXPECTED);
	return false;
}

static const char *member_label(const struct lmember *m)
{
	if (m->name)
		return m->name;
	return m->kind == LM_UNION ? "anonymous union" : "anonymous struct";
}

/* ---- members -------------------------------------------------------------------------- */

static struct frame *top(struct parser *p)
{
	return &p->stack[p->depth - 1];
}

/* struct_tag - X when @type is exactly "struct X" (the layout that would describe it). */
static char *struct_tag(const char *type)
{
	const char *s = type;
	char *name;

	if (strncmp(s, "struct ", 7))
		return NULL;
	s += 7;
	name = ident(&s);
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

	m->name = ident(&s);
	if (!m->name || !dims(&s, m))
		return false;
	rest = skip_ws(s);
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
	while (name_start > decl && is_ident_char(name_start[-1]))
		name_start--;
	if (name_start == name_end || !is_ident_start(*name_start))
		return false;
	s = name_end;
	if (!dims(&s, m) || s != end)
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
		attrs_all(&s, a);
		if (!at_end(s) || a->packed)
			return false;
		*len = (size_t)(at - decl);
	}
	colon = memchr(decl, ':', *len);
	if (!colon)
		return true;
	if (colon == decl || !(is_ident_char(colon[-1]) || colon[-1] == ']'))
		return false; /* a bitfield needs a name: "TYPE :N" lines carry no offsets */
	s = colon + 1;
	if (!number(&s, &bits) || !bits || bits > UINT16_MAX || (size_t)(skip_ws(s) - decl) < *len)
		return false;
	m->bits = (uint16_t)bits;
	*len = (size_t)(colon - decl);
	return true;
}

/* parse_decl - fill @m from "TYPE NAME[D]:BITS ATTRS" (the text before ';'). */
static bool parse_decl(char *decl, struct lmember *m, struct attrs *a)
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

/* hole_line - pahole's comment-less "TYPE :N;" lines (bit holes, forced padding). */
static bool hole_line(const char *t)
{
	const char *colon = strrchr(t, ':'), *s;
	uint64_t n;

	if (!colon || colon == t || (colon[-1] != ' ' && colon[-1] != '\t'))
		return false;
	s = colon + 1;
	return number(&s, &n) && lit(&s, ";") && at_end(s);
}

static void note_align(struct parser *p, uint32_t align)
{
	if (align > p->max_align)
		p->max_align = align;
}

/* finish_field - what follows from the type: padding markers and embedded layouts. */
static void finish_field(struct lmember *m)
{
	if (!strcmp(m->type, "struct cacheline_padding"))
		m->kind = LM_PAD;
	else
		m->layout = struct_tag(m->type);
}

/* member_line - a field line "DECL; {OFF SIZE}" at @t. */
static bool member_line(struct parser *p, const char *line, const char *t)
{
	const char *c = trailing_comment(t), *semi;
	struct lmember tmp = { 0 }, *m;
	struct attrs a = { 0 };
	g_autofree char *decl = NULL;
	int64_t bit;

	if (!c)
		return hole_line(t) || fail_member(p, line, t);
	semi = c;
	while (semi > t && (semi[-1] == ' ' || semi[-1] == '\t'))
		semi--;
	decl = g_strndup(t, (gsize)(semi > t ? semi - 1 - t : 0));
	if (semi == t || semi[-1] != ';' || !offset_comment(c, &tmp.offset, &bit, &tmp.size) ||
	    !parse_decl(decl, &tmp, &a) || (bit >= 0) != (tmp.bits != 0)) {
		lmember_release(&tmp);
		return fail_member(p, line, t);
	}
	tmp.bit_offset = bit >= 0 ? (uint16_t)bit : 0;
	tmp.align = a.align;
	tmp.has_offset = true;
	tmp.mark = mark_at(p, line, t);
	note_align(p, a.align);
	finish_field(&tmp);
	m = lmember_append(top(p)->arr, top(p)->nr);
	*m = tmp;
	return true;
}

/* ---- braces --------------------------------------------------------------------------- */

static bool push(struct parser *p, struct lmember *agg, struct lmember **arr, uint32_t *nr,
		 struct c2c_mark open)
{
	if (p->depth == MAX_DEPTH) {
		err_set(p->err, open, "pahole: inline structs nested too deep (expected at most %d "
			"levels)", MAX_DEPTH);
		return false;
	}
	p->stack[p->depth++] = (struct frame){ agg, arr, nr, open };
	return true;
}

/* header - "struct NAME {", the first non-blank line. */
static bool header(struct parser *p, const char *line, const char *t)
{
	const char *s = t, *brace;
	g_autofree char *name = NULL;

	if (lit(&s, "struct ") && (name = ident(&s)) && (brace = skip_ws(s)) && lit(&s, "{") &&
	    at_end(s)) {
		p->l = layout_new(name);
		p->l->source = g_strdup("pahole");
		p->started = true;
		return push(p, NULL, &p->l->m, &p->l->nr, mark_at(p, line, brace));
	}
	err_set(p->err, mark_at(p, line, t), "pahole: missing 'struct NAME {' header (expected "
		"the output of pahole -C NAME)");
	return false;
}

/* open_inline - "union {", "struct {" or "struct TAG {": an inline aggregate starts. */
static bool open_inline(struct parser *p, const char *line, const char *t)
{
	const char *s = t;
	bool is_union = lit(&s, "union");
	g_autofree char *tag = NULL;
	struct lmember *agg;

	if (!is_union && !lit(&s, "struct"))
		return fail_member(p, line, t);
	if (is_ident_char(*s))
		return fail_member(p, line, t); /* "structure {" */
	tag = ident(&s);
	if (!lit(&s, "{") || !at_end(s))
		return fail_member(p, line, t);
	agg = lmember_append(top(p)->arr, top(p)->nr);
	agg->kind = is_union ? LM_UNION : LM_STRUCT;
	agg->has_offset = true;
	agg->mark = mark_at(p, line, t);
	return push(p, agg, &agg->sub, &agg->nr_sub, mark_at(p, line, strchr(t, '{')));
}

/* pointer_to_anon - `} * NAME;`: the member is a pointer; the body described the target. */
static void pointer_to_anon(struct lmember *agg, int stars)
{
	const char *what = agg->kind == LM_UNION ? "union" : "struct";

	for (uint32_t i = 0; i < agg->nr_sub; i++)
		lmember_release(&agg->sub[i]);
	g_free(agg->sub);
	agg->sub = NULL;
	agg->nr_sub = 0;
	agg->type = g_strdup_printf("%s {...} %.*s", what, 2 * stars - 1, "* * * * * * * *");
	agg->kind = LM_FIELD;
}

/* close_inline - "} ATTRS [*]NAME[D] ATTRS; {OFF SIZE}" ends the innermost aggregate. */
static bool close_inline(struct parser *p, const char *line, const char *t)
{
	struct lmember *agg = top(p)->agg;
	const char *s = t + 1;
	struct attrs a = { 0 };
	int64_t bit;
	int stars = 0;

	attrs_all(&s, &a);
	while (lit(&s, "*"))
		stars++;
	agg->name = ident(&s);
	if ((stars && !agg->name) || stars > 8 || !dims(&s, agg))
		goto bad;
	attrs_all(&s, &a);
	if (!lit(&s, ";") || !offset_comment(s, &agg->offset, &bit, &agg->size) || bit >= 0)
		goto bad;
	agg->align = a.align ? a.align : a.packed ? 1 : 0;
	note_align(p, a.align);
	if (stars)
		pointer_to_anon(agg, stars);
	p->depth--;
	return true;
bad:
	err_set(p->err, mark_at(p, line, t), "pahole: cannot parse end of inline %s (expected "
		"'} NAME; /* OFFSET SIZE */')", agg->kind == LM_UNION ? "union" : "struct");
	return false;
}

/* close_struct - "} ATTRS;" ends the struct: the summary must have been seen. */
static bool close_struct(struct parser *p, const char *line, const char *t)
{
	const char *s = t + 1;
	struct attrs a = { 0 };

	attrs_all(&s, &a);
	if (!lit(&s, ";") || !at_end(s)) {
		err_set(p->err, mark_at(p, line, t), "pahole: cannot parse end of struct %s "
			"(expected '};' or '} __attribute__((__aligned__(N)));')", p->l->name);
		return false;
	}
	if (!p->have_summary) {
		err_set(p->err, mark_at(p, line, t), "pahole: missing size summary (%s before "
			"the closing '}')", SUMMARY_EXPECTED);
		return false;
	}
	if (p->summary_members != p->l->nr) {
		err_set(p->err, p->summary_mark, "pahole: size summary says %" PRIu64 " members, "
			"found %u (expected one line per member)", p->summary_members, p->l->nr);
		return false;
	}
	p->l->size = p->summary_size;
	p->l->align = a.align ? a.align : a.packed ? 1 : p->max_align;
	p->depth = 0;
	p->done = true;
	return true;
}

/* ---- comments and lines --------------------------------------------------------------- */

/* summary - "size: N, cachelines: C, members: M[, static members: S]" in a comment. */
static bool summary(struct parser *p, const char *line, const char *t)
{
	const char *s = t;
	uint64_t lines, stat;

	p->summary_mark = mark_at(p, line, t);
	if (lit(&s, "/*") && lit(&s, "size:") && number(&s, &p->summary_size) &&
	    lit(&s, ",") && lit(&s, "cachelines:") && number(&s, &lines) && lit(&s, ",") &&
	    lit(&s, "members:") && number(&s, &p->summary_members) &&
	    (!lit(&s, ",") || (lit(&s, "static members:") && number(&s, &stat))) &&
	    lit(&s, "*/") && at_end(s)) {
		p->have_summary = true;
		return true;
	}
	err_set(p->err, p->summary_mark, "pahole: cannot parse size summary (%s)",
		SUMMARY_EXPECTED);
	return false;
}

/* comment_line - cacheline markers, hole notes and the summary; may span lines. */
static bool comment_line(struct parser *p, const char *line, const char *t)
{
	const char *s = t + 2;

	if (!strstr(s, "*/")) {
		p->in_comment = true;
		p->comment_open = mark_at(p, line, t);
		return true;
	}
	if (p->depth == 1 && lit(&s, "size:"))
		return summary(p, line, t);
	return true;
}

static bool after_end(struct parser *p, const char *line, const char *t)
{
	if (*t == '}')
		err_set(p->err, mark_at(p, line, t), "pahole: unbalanced braces: '}' after the end "
			"of struct %s (expected nothing after the closing '};')", p->l->name);
	else
		err_set(p->err, mark_at(p, line, t), "pahole: unexpected text after the end of "
			"struct %s (expected the output for one struct)", p->l->name);
	return false;
}

static bool process_line(struct parser *p, const char *line)
{
	const char *t = skip_ws(line);
	size_t len = strlen(t);

	if (p->in_comment) {
		p->in_comment = !strstr(t, "*/");
		return true;
	}
	if (!*t)
		return true;
	if (!p->started)
		return header(p, line, t);
	if (p->done)
		return after_end(p, line, t);
	if (!strncmp(t, "/*", 2))
		return comment_line(p, line, t);
	if (*t == '}')
		return p->depth == 1 ? close_struct(p, line, t) : close_inline(p, line, t);
	while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
		len--;
	if (t[len - 1] == '{')
		return open_inline(p, line, t);
	return member_line(p, line, t);
}

/* ---- whole text ----------------------------------------------------------------------- */

/* check_extent - every member must end inside the struct (pahole's offsets are absolute). */
static bool check_extent(struct parser *p, const struct lmember *arr, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *m = &arr[i];

		if (m->offset > p->l->size || m->size > p->l->size - m->offset) {
			err_set(p->err, m->mark, "pahole: member '%s' at offset %" PRIu64
				" size %" PRIu64 " ends beyond the struct size %" PRIu64
				" (expected OFFSET + SIZE <= %" PRIu64 ")", member_label(m),
				m->offset, m->size, p->l->size, p->l->size);
			return false;
		}
		if (!check_extent(p, m->sub, m->nr_sub))
			return false;
	}
	return true;
}

/* finish - what can only be checked at the end of the text. */
static bool finish(struct parser *p)
{
	if (p->in_comment) {
		err_set(p->err, p->comment_open, "pahole: unterminated comment (expected '*/')");
		return false;
	}
	if (!p->started) {
		err_set(p->err, (struct c2c_mark){ p->file, 1, 1 }, "pahole: missing 'struct NAME "
			"{' header (expected the output of pahole -C NAME)");
		return false;
	}
	if (!p->done) {
		err_set(p->err, top(p)->open, "pahole: unbalanced braces: '{' is never closed "
			"(expected a matching '}')");
		return false;
	}
	return check_extent(p, p->l->m, p->l->nr);
}

/* The layout is written as YAML, which must be UTF-8: text that is not is refused here, at
 * the first bad byte, rather than imported into a file no loader accepts. */
static bool utf8_ok(const struct parser *p, const char *text)
{
	const char *bad, *bol = text;
	int line = 1;

	if (g_utf8_validate(text, -1, &bad))
		return true;
	for (const char *s = text; s < bad; s++)
		if (*s == '\n') {
			line++;
			bol = s + 1;
		}
	err_set(p->err, (struct c2c_mark){p->file, line, (int)(bad - bol) + 1}, "pahole: byte "
		"0x%02x is not UTF-8 (expected UTF-8 text)", (unsigned char)*bad);
	return false;
}

struct layout *pahole_parse(const char *file, const char *text, struct c2c_err *err)
{
	struct parser p = { .file = g_intern_string(file ? file : "<pahole>"), .err = err };
	g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
	bool ok = utf8_ok(&p, text ? text : "");

	for (int i = 0; ok && lines[i]; i++) {
		size_t len = strlen(lines[i]);

		if (len && lines[i][len - 1] == '\r')
			lines[i][len - 1] = '\0';
		p.line = i + 1;
		ok = process_line(&p, lines[i]);
	}
	if (ok)
		ok = finish(&p);
	if (!ok) {
		if (err && !err->set)
			err_setf(err, "%s: pahole: import failed", p.file);
		layout_free(p.l);
		return NULL;
	}
	return p.l;
}
