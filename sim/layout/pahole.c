/* pahole.c - the pahole output importer: the line grammar (header, members, inline braces,
 * comments, the size summary) and the whole-text checks; the tokens and declarations of a
 * line are pahole_decl.c's.  See the design comment in pahole.h. */
#include "layout/pahole_int.h"

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

static void note_align(struct parser *p, uint32_t align)
{
	if (align > p->max_align)
		p->max_align = align;
}


/* member_line - a field line "DECL; {OFF SIZE}" at @t. */
static bool member_line(struct parser *p, const char *line, const char *t)
{
	const char *c = tok_trailing_comment(t), *semi;
	struct lmember tmp = { 0 }, *m;
	struct attrs a = { 0 };
	g_autofree char *decl = NULL;
	int64_t bit;

	if (!c)
		return decl_hole_line(t) || fail_member(p, line, t);
	semi = c;
	while (semi > t && (semi[-1] == ' ' || semi[-1] == '\t'))
		semi--;
	decl = g_strndup(t, (gsize)(semi > t ? semi - 1 - t : 0));
	if (semi == t || semi[-1] != ';' || !tok_offset_comment(c, &tmp.offset, &bit, &tmp.size) ||
	    !decl_parse(decl, &tmp, &a) || (bit >= 0) != (tmp.bits != 0)) {
		lmember_release(&tmp);
		return fail_member(p, line, t);
	}
	tmp.bit_offset = bit >= 0 ? (uint16_t)bit : 0;
	tmp.align = a.align;
	tmp.has_offset = true;
	tmp.mark = mark_at(p, line, t);
	note_align(p, a.align);
	decl_finish_field(&tmp);
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

	if (tok_lit(&s, "struct ") && (name = tok_ident(&s)) && (brace = tok_skip_ws(s)) &&
	    tok_lit(&s, "{") && tok_at_end(s)) {
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
	bool is_union = tok_lit(&s, "union");
	g_autofree char *tag = NULL;
	struct lmember *agg;

	if (!is_union && !tok_lit(&s, "struct"))
		return fail_member(p, line, t);
	if (tok_ident_char(*s))
		return fail_member(p, line, t); /* "structure {" */
	tag = tok_ident(&s);
	if (!tok_lit(&s, "{") || !tok_at_end(s))
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

	tok_attrs(&s, &a);
	while (tok_lit(&s, "*"))
		stars++;
	agg->name = tok_ident(&s);
	if ((stars && !agg->name) || stars > 8 || !tok_dims(&s, agg))
		goto bad;
	tok_attrs(&s, &a);
	if (!tok_lit(&s, ";") || !tok_offset_comment(s, &agg->offset, &bit, &agg->size) || bit >= 0)
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

	tok_attrs(&s, &a);
	if (!tok_lit(&s, ";") || !tok_at_end(s)) {
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
	if (tok_lit(&s, "/*") && tok_lit(&s, "size:") && tok_number(&s, &p->summary_size) &&
	    tok_lit(&s, ",") && tok_lit(&s, "cachelines:") && tok_number(&s, &lines) &&
	    tok_lit(&s, ",") && tok_lit(&s, "members:") && tok_number(&s, &p->summary_members) &&
	    (!tok_lit(&s, ",") || (tok_lit(&s, "static members:") && tok_number(&s, &stat))) &&
	    tok_lit(&s, "*/") && tok_at_end(s)) {
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
	if (p->depth == 1 && tok_lit(&s, "size:"))
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
	const char *t = tok_skip_ws(line);
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
