/* layout_write.c - write a layout as YAML; the format is the design comment in layout.h. */
#include "layout/layout.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "yaml/ytree.h"

/*
 * put_word - a name or member path, plain when it is an identifier path ("lruvec.lru_lock")
 * that YAML cannot mistake for anything else; quoted otherwise ("state[14]": brackets end
 * flow collections, "null" would read as a null).
 */
static void put_word(FILE *f, const char *s)
{
	bool plain = s[0] && (g_ascii_isalpha(s[0]) || s[0] == '_') && !yt_needs_quotes(s);

	for (const char *p = s; plain && *p; p++)
		plain = g_ascii_isalnum(*p) || *p == '_' || *p == '.';
	if (plain)
		fputs(s, f);
	else
		yt_emit_quoted(f, s);
}

static void put_dims(FILE *f, const struct lmember *m)
{
	fputs("dims: [", f);
	for (int d = 0; d < m->nr_dims; d++)
		fprintf(f, "%s%" PRIu32, d ? ", " : "", m->dims[d]);
	fputc(']', f);
}

/* One field as a flow mapping, keys in the order of layout.h. */
static void write_field(FILE *f, const struct lmember *m, bool with_offsets)
{
	fputs("{name: ", f);
	put_word(f, m->name ? m->name : "");
	if (m->type) {
		fputs(", type: ", f);
		yt_emit_quoted(f, m->type);
	}
	if (with_offsets)
		fprintf(f, ", offset: %" PRIu64, m->offset);
	fprintf(f, ", size: %" PRIu64, m->size);
	if (m->nr_dims) {
		fputs(", ", f);
		put_dims(f, m);
	}
	if (m->align)
		fprintf(f, ", align: %" PRIu32, m->align);
	if (m->bits) {
		if (with_offsets)
			fprintf(f, ", bit_offset: %u", m->bit_offset);
		fprintf(f, ", bits: %u", m->bits);
	}
	if (m->layout) {
		fputs(", layout: ", f);
		put_word(f, m->layout);
	}
	fputs("}\n", f);
}

static void write_pad(FILE *f, const struct lmember *m, bool with_offsets)
{
	fputs("{kind: pad", f);
	if (m->name) {
		fputs(", name: ", f);
		put_word(f, m->name);
	}
	/* A typeless zero-size pad reads back as CACHELINE_PADDING (layout_abi.c). */
	if (m->type && strcmp(m->type, "struct cacheline_padding")) {
		fputs(", type: ", f);
		yt_emit_quoted(f, m->type);
	}
	if (with_offsets)
		fprintf(f, ", offset: %" PRIu64, m->offset);
	fprintf(f, ", size: %" PRIu64, m->size);
	if (m->align)
		fprintf(f, ", align: %" PRIu32, m->align);
	fputs("}\n", f);
}

static void write_members(FILE *f, const struct lmember *arr, uint32_t nr, int indent,
			  bool with_offsets);

/* An inline struct or union: a block mapping under "- ", its members nested 2 deeper. */
static void write_inline(FILE *f, const struct lmember *m, int indent, bool with_offsets)
{
	int in = indent + 2; /* the column of the keys after "- " */

	fprintf(f, "kind: %s\n", lm_kind_names[m->kind]);
	if (m->name) {
		fprintf(f, "%*sname: ", in, "");
		put_word(f, m->name);
		fputc('\n', f);
	}
	if (with_offsets)
		fprintf(f, "%*soffset: %" PRIu64 "\n", in, "", m->offset);
	fprintf(f, "%*ssize: %" PRIu64 "\n", in, "", m->size);
	if (m->nr_dims) {
		fprintf(f, "%*s", in, "");
		put_dims(f, m);
		fputc('\n', f);
	}
	if (m->align)
		fprintf(f, "%*salign: %" PRIu32 "\n", in, "", m->align);
	fprintf(f, "%*smembers:", in, "");
	write_members(f, m->sub, m->nr_sub, in + 2, with_offsets);
}

/* write_members - the rest of a "members:" line: a block sequence at @indent, or " []". */
static void write_members(FILE *f, const struct lmember *arr, uint32_t nr, int indent,
			  bool with_offsets)
{
	fputs(nr ? "\n" : " []\n", f);
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *m = &arr[i];

		fprintf(f, "%*s- ", indent, "");
		if (m->kind == LM_STRUCT || m->kind == LM_UNION)
			write_inline(f, m, indent, with_offsets);
		else if (m->kind == LM_PAD)
			write_pad(f, m, with_offsets);
		else
			write_field(f, m, with_offsets);
	}
}

static void write_groups(FILE *f, const struct layout *l)
{
	if (!l->nr_groups)
		return;
	fputs("groups:\n", f);
	for (uint32_t i = 0; i < l->nr_groups; i++) {
		const struct lgroup *g = &l->groups[i];

		fputs("  - {name: ", f);
		put_word(f, g->name ? g->name : "");
		fputs(", first: ", f);
		put_word(f, g->first ? g->first : "");
		fputs(", last: ", f);
		put_word(f, g->last ? g->last : "");
		fprintf(f, ", aligned: %s}\n", g->aligned ? "true" : "false");
	}
}

/* Asserts: {KIND: [A, B]}; a group size is [GROUP, LIMIT]. */
static void write_asserts(FILE *f, const struct layout *l)
{
	if (!l->nr_asserts)
		return;
	fputs("asserts:\n", f);
	for (uint32_t i = 0; i < l->nr_asserts; i++) {
		const struct lassert *a = &l->asserts[i];

		fprintf(f, "  - {%s: [", lassert_kind_names[a->kind]);
		put_word(f, a->a ? a->a : "");
		fputs(", ", f);
		if (a->kind == LA_GROUP_SIZE)
			fprintf(f, "%" PRIu64, a->limit);
		else
			put_word(f, a->b ? a->b : "");
		fputs("]}\n", f);
	}
}

/**
 * layout_write - write @l to @f in the layout file format of layout.h.
 * @f:            the stream (errors are the stream's)
 * @l:            the layout
 * @with_offsets: write every `offset` and `bit_offset` (imported layouts); false leaves them
 *                out for computed layouts, whose offsets the reader recomputes
 *
 * Fields are one-line flow mappings with keys in a fixed order, so equal layouts give equal
 * bytes: the output can be diffed and committed.
 */
void layout_write(FILE *f, const struct layout *l, bool with_offsets)
{
	fputs("struct: ", f);
	put_word(f, l->name ? l->name : "");
	fprintf(f, "\nsize: %" PRIu64 "\n", l->size);
	if (l->align)
		fprintf(f, "align: %" PRIu32 "\n", l->align);
	if (l->source) {
		fputs("source: ", f);
		yt_emit_quoted(f, l->source);
		fputc('\n', f);
	}
	if (l->estimated)
		fputs("estimated: true\n", f);
	fputs("members:", f);
	write_members(f, l->m, l->nr, 2, with_offsets);
	write_groups(f, l);
	write_asserts(f, l);
}

bool layout_write_file(const struct layout *l, const char *path, struct c2c_err *err)
{
	g_autofree char *tmp = g_strdup_printf("%s.tmp-%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");

	if (!f) {
		err_setf(err, "cannot write %s: %s", path, g_strerror(errno));
		return false;
	}
	layout_write(f, l, true);
	if (fclose(f) || g_rename(tmp, path)) {
		err_setf(err, "cannot write %s: %s", path, g_strerror(errno));
		g_unlink(tmp);
		return false;
	}
	return true;
}
