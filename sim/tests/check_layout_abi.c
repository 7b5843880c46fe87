/*
 * check_layout_abi.c - unit tests for layout_abi.c: every computed layout is checked against
 * gcc itself.  Each case builds a layout in memory, computes it, writes the equivalent C
 * declaration with a main() that prints offsetof/sizeof (bit positions for bitfields), has
 * the system `cc` compile and run it, and compares the output with the computed values.
 * The errors and the C type table are in check_layout_abi_types.c.
 */
#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "layout_abi_build.h"
#include "testutil.h"

/* ---- C text for a layout ---------------------------------------------------------------- */

static const char prelude[] =
	"#include <stdbool.h>\n#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n"
	"typedef unsigned char u8; typedef signed char s8; typedef unsigned short u16;\n"
	"typedef short s16; typedef unsigned int u32; typedef int s32;\n"
	"typedef unsigned long long u64; typedef long long s64;\n"
	"typedef struct { int counter; } atomic_t;\n"
	"typedef struct { long counter; } atomic_long_t;\n"
	"typedef struct { union { unsigned int val; struct { u8 locked, pending; }; }; }"
	" spinlock_t;\n"
	"struct cacheline_padding { char x[0]; } __attribute__((aligned(64)));\n"
	"static void bits(const void *p, size_t n, const char *what)\n{\n"
	"\tconst unsigned char *b = p;\n\tint first = -1, count = 0;\n"
	"\tfor (size_t i = 0; i < n * 8; i++)\n"
	"\t\tif (b[i / 8] >> (i % 8) & 1) {\n\t\t\tif (first < 0)\n\t\t\t\tfirst = (int)i;\n"
	"\t\t\tcount++;\n\t\t}\n"
	"\tprintf(\"B %s %d %d\\n\", what, first, count);\n}\n";

static void gen_members(GString *out, const struct layout *l, const struct lmember *m,
			uint32_t nr, const char *prefix, bool top);

/* Aligned group markers the kernel's macros put before @path (begin) or after it. */
static void gen_markers(GString *out, const struct layout *l, const char *path, bool begin)
{
	for (uint32_t i = 0; i < l->nr_groups; i++) {
		const struct lgroup *g = &l->groups[i];

		if (begin && !strcmp(g->first, path))
			g_string_append_printf(out, "unsigned char __cacheline_group_begin__%s[0] "
					       "__attribute__((aligned(64)));\n", g->name);
		if (!begin && !strcmp(g->last, path))
			g_string_append_printf(out, "unsigned char __cacheline_group_end__%s[0] "
					       "__attribute__((aligned(8)));\nstruct { } "
					       "__cacheline_group_pad__%s "
					       "__attribute__((aligned(64)));\n", g->name, g->name);
	}
}

/* "[3][4]", "[]" for a flexible array at the end of the struct, "[0]" elsewhere. */
static void gen_dims(GString *out, const struct lmember *m, bool flex)
{
	for (int d = 0; d < m->nr_dims; d++)
		if (m->dims[d] || !flex)
			g_string_append_printf(out, "[%u]", m->dims[d]);
		else
			g_string_append(out, "[]");
}

static void gen_align(GString *out, uint32_t align)
{
	if (align)
		g_string_append_printf(out, " __attribute__((aligned(%u)))", align);
}

static bool known_type(const char *type)
{
	uint64_t size;
	uint32_t align;

	return layout_c_type(type, &size, &align);
}

static void gen_member(GString *out, const struct layout *l, const struct lmember *m,
		       const char *path, bool flex)
{
	if (m->kind == LM_STRUCT || m->kind == LM_UNION) {
		g_autofree char *sub = m->name ? g_strdup_printf("%s.", path) : g_strdup(path);

		g_string_append(out, m->kind == LM_STRUCT ? "struct {\n" : "union {\n");
		gen_members(out, l, m->sub, m->nr_sub, sub, false);
		g_string_append(out, "}");
		gen_align(out, m->align);
		g_string_append_printf(out, " %s", m->name ? m->name : "");
		gen_dims(out, m, false);
	} else if (m->kind == LM_PAD && !m->type && !m->size && !m->align) {
		g_string_append_printf(out, "struct cacheline_padding %s", m->name);
	} else if (!m->type || m->kind == LM_PAD || (!m->layout && !known_type(m->type))) {
		g_string_append_printf(out, "unsigned char %s[%" PRIu64 "]", m->name, m->size);
		gen_align(out, m->align);
	} else {
		g_string_append_printf(out, "%s %s", m->type, m->name ? m->name : "");
		if (m->bits || !m->name)
			g_string_append_printf(out, ":%u", m->bits);
		gen_dims(out, m, flex);
		gen_align(out, m->align);
	}
	g_string_append(out, ";\n");
}

static void gen_members(GString *out, const struct layout *l, const struct lmember *m,
			uint32_t nr, const char *prefix, bool top)
{
	for (uint32_t i = 0; i < nr; i++) {
		g_autofree char *path = g_strconcat(prefix, m[i].name ? m[i].name : "", NULL);

		if (m[i].name)
			gen_markers(out, l, path, true);
		gen_member(out, l, &m[i], path, top && i + 1 == nr);
		if (m[i].name)
			gen_markers(out, l, path, false);
	}
}

/* struct NAME { ... } with @align the struct's own __aligned__ (0: none), not the computed
 * one, so that gcc works the alignment out for itself. */
static void gen_struct(GString *out, const struct layout *l, uint32_t align)
{
	g_string_append_printf(out, "struct %s {\n", l->name);
	gen_members(out, l, l->m, l->nr, "", true);
	g_string_append(out, "}");
	gen_align(out, align);
	g_string_append(out, ";\n");
}

/* Definitions of the embedded structs @m uses (theirs first), each once. */
static void gen_embedded(GString *out, const struct lmember *m, uint32_t nr, struct lib *lib,
			 GString *code, GString *expect)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct layout *e;
		g_autofree char *head = g_strdup_printf("struct %s {", m[i].layout);
		int k = 0;

		gen_embedded(out, m[i].sub, m[i].nr_sub, lib, code, expect);
		if (!m[i].layout || strstr(out->str, head))
			continue;
		while (k < lib->n && strcmp(lib->e[k]->name, m[i].layout))
			k++;
		ck_assert_int_lt(k, lib->n);
		e = lib->e[k];
		gen_embedded(out, e->m, e->nr, lib, code, expect);
		gen_struct(out, e, lib->given[k]);
		g_string_append_printf(code, "\tprintf(\"E %s %%zu %%zu\\n\", sizeof(struct %s), "
				       "_Alignof(struct %s));\n", e->name, e->name, e->name);
		g_string_append_printf(expect, "E %s %" PRIu64 " %u\n", e->name, e->size,
				       e->align);
	}
}

/* The main() lines that print what gcc did for every named member, and what we expect. */
static void gen_checks(GString *code, GString *expect, const char *sname,
		       const struct lmember *m, uint32_t nr, const char *desig, bool top)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *c = &m[i];
		g_autofree char *d = g_strconcat(desig, c->name ? c->name : "", NULL);
		bool flex = top && i + 1 == nr && c->nr_dims && !c->dims[0];

		if (c->bits && c->name) {
			g_string_append_printf(code, "\t{ struct %s s; memset(&s, 0, sizeof(s)); "
					       "s.%s = -1; bits(&s, sizeof(s), \"%s\"); }\n",
					       sname, d, d);
			g_string_append_printf(expect, "B %s %" PRIu64 " %u\n", d,
					       c->offset * 8 + c->bit_offset, c->bits);
		} else if (c->name) {
			g_autofree char *size = flex ? g_strdup("(size_t)0") :
				g_strdup_printf("sizeof(((struct %s *)0)->%s)", sname, d);

			g_string_append_printf(code, "\tprintf(\"M %s %%zu %%zu\\n\", offsetof("
					       "struct %s, %s), %s);\n", d, sname, d, size);
			g_string_append_printf(expect, "M %s %" PRIu64 " %" PRIu64 "\n", d,
					       c->offset, c->size);
		}
		if (c->kind == LM_STRUCT || c->kind == LM_UNION) {
			GString *sub = g_string_new(d);

			for (int k = 0; c->name && k < c->nr_dims; k++)
				g_string_append(sub, "[0]");
			if (c->name)
				g_string_append_c(sub, '.');
			gen_checks(code, expect, sname, c->sub, c->nr_sub, sub->str, false);
			g_string_free(sub, TRUE);
		}
	}
}

/* Compare the computed @l (embedded structs from @lib) with what gcc does. */
static void assert_gcc_agrees(const struct layout *l, uint32_t given, struct lib *lib)
{
	GString *src = g_string_new(prelude), *code = g_string_new(NULL);
	GString *expect = g_string_new(NULL);
	g_autofree char *out = NULL;

	gen_embedded(src, l->m, l->nr, lib, code, expect);
	gen_struct(src, l, given);
	gen_checks(code, expect, l->name, l->m, l->nr, "", true);
	g_string_append_printf(code, "\tprintf(\"S %%zu %%zu\\n\", sizeof(struct %s), "
			       "_Alignof(struct %s));\n", l->name, l->name);
	g_string_append_printf(expect, "S %" PRIu64 " %u\n", l->size, l->align);
	g_string_append_printf(src, "int main(void)\n{\n%s\treturn 0;\n}\n", code->str);
	out = cc_run(src->str);
	ck_assert_msg(!strcmp(out, expect->str), "%s: gcc says\n%s\nlayout_compute says\n%s\n"
		      "--- source ---\n%s", l->name, out, expect->str, src->str);
	g_string_free(src, TRUE);
	g_string_free(code, TRUE);
	g_string_free(expect, TRUE);
}

/* ---- the cases -------------------------------------------------------------------------- */

static struct layout *case_nested(struct lib *lib)
{
	struct layout *l = layout_new("nested");
	struct lmember *u, *s;

	fields(TOP(l), "a u8");
	u = add(TOP(l), LM_UNION, NULL, NULL);
	fields(IN(u), "b u64, e[12] u8");
	s = add(IN(u), LM_STRUCT, NULL, NULL);
	fields(IN(s), "c u16, d u32");
	fields(TOP(l), "f u16");
	s = add(TOP(l), LM_STRUCT, "st", NULL);
	fields(IN(s), "g u8");
	u = add(IN(s), LM_UNION, "un", NULL);
	fields(IN(u), "h u32, i u16");
	s = add(TOP(l), LM_STRUCT, NULL, NULL);
	s->align = 64;
	fields(IN(s), "cnt atomic_t");
	s = add(TOP(l), LM_STRUCT, "arr", NULL);
	s->dims[0] = 3;
	s->nr_dims = 1;
	fields(IN(s), "x u32, y u8");
	fields(TOP(l), "z u8");
	return l;
}

/* The kernel's qspinlock, as pahole shows it: an anonymous union of anonymous structs. */
static struct layout *case_qspinlock(struct lib *lib)
{
	struct layout *l = layout_new("qspinlock_like");
	struct lmember *u = add(TOP(l), LM_UNION, NULL, NULL), *s;

	fields(IN(u), "val atomic_t");
	s = add(IN(u), LM_STRUCT, NULL, NULL);
	fields(IN(s), "locked u8, pending u8");
	s = add(IN(u), LM_STRUCT, NULL, NULL);
	fields(IN(s), "locked_pending u16, tail u16");
	return l;
}

/* page_counter of linux-6.18.44 (CACHELINE_PADDING markers as bare zero-size pads). */
static struct layout *page_counter(void)
{
	struct layout *l = layout_new("page_counter");

	fields(TOP(l), "usage atomic_long_t, failcnt long unsigned int");
	add(TOP(l), LM_PAD, "_pad1_", NULL);
	fields(TOP(l), "emin long unsigned int, min_usage atomic_long_t, children_min_usage "
	       "atomic_long_t, elow long unsigned int, low_usage atomic_long_t, "
	       "children_low_usage atomic_long_t, watermark long unsigned int, "
	       "local_watermark long unsigned int");
	add(TOP(l), LM_PAD, "_pad2_", NULL);
	fields(TOP(l), "protection_support bool, track_failcnt bool, min long unsigned int, "
	       "low long unsigned int, high long unsigned int, max long unsigned int, "
	       "parent struct page_counter *");
	return l;
}

static struct layout *case_embedded(struct lib *lib)
{
	struct layout *l = layout_new("embedded"), *node = layout_new("lnode");

	fields(TOP(node), "next struct lnode *, prev struct lnode *");
	lib_add(lib, node);
	lib_add(lib, page_counter());
	fields(TOP(l), "x u32");
	embed(TOP(l), "list", "lnode");
	fields(TOP(l), "flag bool");
	embed(TOP(l), "pc", "page_counter");
	embed(TOP(l), "lists", "lnode")->dims[0] = 3;
	l->m[l->nr - 1].nr_dims = 1;
	fields(TOP(l), "tail int");
	return l;
}

/* b shares the int at 0 with a[]; g is an aligned bitfield; a union of bitfields. */
static struct layout *case_bitfields_mixed(struct lib *lib)
{
	struct layout *l = layout_new("bitfields_mixed");
	struct lmember *u;

	fields(TOP(l), "a[3] char, b:8 int, c:20 int, d:4 short, e:31 s32, f:1 u64, g:3@8 int, "
	       "h:3 char");
	u = add(TOP(l), LM_UNION, "u", NULL);
	fields(IN(u), "x:3 unsigned int, y u8, z:9 u16");
	fields(TOP(l), "w:60 long long unsigned int");
	return l;
}

static struct layout *case_group(struct lib *lib)
{
	struct layout *l = layout_new("group");
	struct lmember *s;

	fields(TOP(l), "a u64, b u32, c u64, d u8");
	s = add(TOP(l), LM_STRUCT, "in", NULL);
	fields(IN(s), "p u8, q u16, r u8");
	fields(TOP(l), "e u8");
	group(l, "hot", "b", "c");
	group(l, "inner", "in.q", "in.q");
	return l;
}

/* Members given by size and align only (a flexible array by align), and a sized pad. */
static struct layout *case_sized(struct lib *lib)
{
	struct layout *l = layout_new("sized");
	struct lmember *m;

	fields(TOP(l), "a u8");
	m = fld(TOP(l), "opaque", NULL);
	m->size = 24;
	m->align = 8;
	m = add(TOP(l), LM_PAD, "pad", NULL);
	m->size = 6;
	m->align = 2;
	m = fld(TOP(l), "other", "struct not_in_table");
	m->size = 12;
	m->align = 4;
	fields(TOP(l), "z u8, tail[0]@8 struct opaque_elem");
	return l;
}

/* The cases: flat ones as a fields() spec (and the struct's own __aligned__), the others
 * built by a function. */
static const struct {
	const char *name, *spec;
	uint32_t align;
	struct layout *(*build)(struct lib *lib);
} cases[] = {
	{ "scalars", "a char, b u64, c short, d int, e bool, f long unsigned int, g u8, "
	  "h struct scalars *, i atomic_t, j spinlock_t, k u16", 0, NULL },
	{ "arrays", "a[3] u8, b[5] u32, c char, d[2] u64, e[7] short, f[9] atomic_long_t", 0,
	  NULL },
	{ "multidim", "a[3][5] u16, b u8, c[2][3][4] u64, d[2][2] int, e[2][1][3][1] char", 0,
	  NULL },
	/* explicit member alignment, raising it and not */
	{ "aligned", "a u64, b@64 u64, c u8, d@16 int, e[3]@128 u8, f@1 u8, g@4 u64", 0, NULL },
	/* h crosses its 64-bit unit and k its byte: both start the next unit */
	{ "bitfields", "a:3 unsigned int, b:5 unsigned int, c:24 unsigned int, "
	  "d:1 unsigned int, e u8, f:9 unsigned short, g:40 u64, h:30 u64, i char, "
	  "j:7 u8, k:2 u8, l:1 bool", 0, NULL },
	/* unnamed ("_"): zero-width ones move to a boundary, none adds alignment */
	{ "bitfields_unnamed", "a char, _:0 unsigned int, b char, c:4 unsigned int, "
	  "_:5 unsigned int, d:4 unsigned int, _:0 long, e:2 u8, _:3 long long, f char, "
	  "_:0 short", 0, NULL },
	/* a zero-length array in the middle, a flexible one at the end */
	{ "flexible", "n u32, empty[0] u16, m u16, data[0] u64", 0, NULL },
	{ "struct_align", "a u64, b u8", 64, NULL },
	{ "nested", NULL, 0, case_nested }, { "qspinlock", NULL, 0, case_qspinlock },
	{ "embedded", NULL, 0, case_embedded },
	{ "bitfields_mixed", NULL, 0, case_bitfields_mixed }, { "group", NULL, 0, case_group },
	{ "sized", NULL, 0, case_sized },
};

#define NR_CASES ((int)(sizeof(cases) / sizeof(cases[0])))

/* Every case: computed, and gcc agrees on every offset, size, bit and the struct. */
START_TEST(layout_compute_matches_gcc)
{
	struct lib lib = { 0 };
	struct c2c_err err = { 0 };
	struct layout *l = cases[_i].build ? cases[_i].build(&lib) : layout_new(cases[_i].name);
	uint32_t given;

	if (cases[_i].spec) {
		l->align = cases[_i].align;
		fields(TOP(l), cases[_i].spec);
	}
	given = l->align;
	ck_assert_msg(layout_compute(l, resolve, &lib, &err), "%s: %s", cases[_i].name, err.msg);
	ck_assert(l->computed);
	assert_gcc_agrees(l, given, &lib);
	layout_free(l);
	lib_free(&lib);
}
END_TEST

/* ---- layout_compute: pahole's own numbers ----------------------------------------------- */

static void assert_member(const struct lmember *m, const char *name, uint64_t off,
			  uint64_t size)
{
	ck_assert_str_eq(m->name, name);
	ck_assert_msg(m->offset == off && m->size == size, "%s: %" PRIu64 " %" PRIu64
		      " (pahole: %" PRIu64 " %" PRIu64 ")", name, m->offset, m->size, off, size);
}

/* page_counter.txt of linux-6.18.44, member by member. */
START_TEST(layout_compute_page_counter_as_pahole)
{
	static const struct { const char *name; uint64_t off, size; } want[] = {
		{ "usage", 0, 8 }, { "failcnt", 8, 8 }, { "_pad1_", 64, 0 }, { "emin", 64, 8 },
		{ "min_usage", 72, 8 }, { "children_min_usage", 80, 8 }, { "elow", 88, 8 },
		{ "low_usage", 96, 8 }, { "children_low_usage", 104, 8 }, { "watermark", 112, 8 },
		{ "local_watermark", 120, 8 }, { "_pad2_", 128, 0 },
		{ "protection_support", 128, 1 }, { "track_failcnt", 129, 1 }, { "min", 136, 8 },
		{ "low", 144, 8 }, { "high", 152, 8 }, { "max", 160, 8 }, { "parent", 168, 8 },
	};
	struct layout *l = page_counter();
	struct c2c_err err = { 0 };

	ck_assert_msg(layout_compute(l, resolve, NULL, &err), "%s", err.msg);
	ck_assert_uint_eq(l->nr, G_N_ELEMENTS(want));
	for (uint32_t i = 0; i < l->nr; i++)
		assert_member(&l->m[i], want[i].name, want[i].off, want[i].size);
	ck_assert_uint_eq(l->size, 192);
	ck_assert_uint_eq(l->align, 64);
	layout_free(l);
}
END_TEST

/* qspinlock.txt: members of the anonymous structs carry offsets in the outer struct. */
START_TEST(layout_compute_qspinlock_as_pahole)
{
	struct layout *l = case_qspinlock(NULL);
	struct c2c_err err = { 0 };
	const struct lmember *u;

	ck_assert_msg(layout_compute(l, resolve, NULL, &err), "%s", err.msg);
	u = &l->m[0];
	ck_assert_uint_eq(u->offset, 0);
	ck_assert_uint_eq(u->size, 4);
	assert_member(&u->sub[0], "val", 0, 4);
	assert_member(&u->sub[1].sub[0], "locked", 0, 1);
	assert_member(&u->sub[1].sub[1], "pending", 1, 1);
	ck_assert_uint_eq(u->sub[1].size, 2);
	assert_member(&u->sub[2].sub[0], "locked_pending", 0, 2);
	assert_member(&u->sub[2].sub[1], "tail", 2, 2);
	ck_assert_uint_eq(l->size, 4);
	layout_free(l);
}
END_TEST

/* Bitfields: the storage unit's byte offset (rounded down to the type size) + bit in it. */
START_TEST(layout_compute_bitfield_convention)
{
	struct layout *l = layout_new("bits");
	struct c2c_err err = { 0 };

	/* b at bit 40: unit at 4, bit 8 ("4:8" in pahole); c at bit 44: unit at 4, bit 12;
	 * d would cross bit 64: next unit. */
	fields(TOP(l), "a[5] char, b:4 unsigned int, c:3 u16, d:60 u64");
	ck_assert_msg(layout_compute(l, resolve, NULL, &err), "%s", err.msg);
	ck_assert_uint_eq(l->m[1].offset, 4);
	ck_assert_uint_eq(l->m[1].bit_offset, 8);
	ck_assert_uint_eq(l->m[1].size, 4);
	ck_assert_uint_eq(l->m[2].offset, 4);
	ck_assert_uint_eq(l->m[2].bit_offset, 12);
	ck_assert_uint_eq(l->m[2].size, 2);
	ck_assert_uint_eq(l->m[3].offset, 8);
	ck_assert_uint_eq(l->m[3].bit_offset, 0);
	ck_assert_uint_eq(l->size, 16);
	layout_free(l);
}
END_TEST

/* Aligned groups: the first member on a new line, the next member after the group too. */
START_TEST(layout_compute_aligned_group)
{
	struct layout *l = case_group(NULL);
	struct c2c_err err = { 0 };

	ck_assert_msg(layout_compute(l, resolve, NULL, &err), "%s", err.msg);
	assert_member(&l->m[1], "b", 64, 4);
	assert_member(&l->m[2], "c", 72, 8);
	assert_member(&l->m[3], "d", 128, 1);
	ck_assert_uint_eq(l->m[4].offset, 192);         /* in: aligned by its inner group */
	ck_assert_uint_eq(l->m[4].sub[1].offset, 256);  /* in.q: its own aligned group */
	ck_assert_uint_eq(l->m[4].sub[2].offset, 320);
	assert_member(&l->m[5], "e", 384, 1);
	ck_assert_uint_eq(l->size, 448);
	ck_assert_uint_eq(l->align, 64);
	layout_free(l);
}
END_TEST

START_TEST(layout_compute_empty)
{
	struct layout *l = layout_new("empty");
	struct c2c_err err = { 0 };

	ck_assert(layout_compute(l, resolve, NULL, &err));
	ck_assert_uint_eq(l->size, 0);
	ck_assert_uint_eq(l->align, 1);
	ck_assert(l->computed);
	layout_free(l);
}
END_TEST

/* A second run gives the same numbers (sizes written by the first must agree). */
START_TEST(layout_compute_twice)
{
	struct lib lib = { 0 };
	struct layout *l = case_embedded(&lib);
	struct c2c_err err = { 0 };
	uint64_t off[16], size;

	ck_assert_msg(layout_compute(l, resolve, &lib, &err), "%s", err.msg);
	for (uint32_t i = 0; i < l->nr; i++)
		off[i] = l->m[i].offset;
	size = l->size;
	ck_assert_msg(layout_compute(l, resolve, &lib, &err), "%s", err.msg);
	for (uint32_t i = 0; i < l->nr; i++)
		ck_assert_uint_eq(l->m[i].offset, off[i]);
	ck_assert_uint_eq(l->size, size);
	layout_free(l);
	lib_free(&lib);
}
END_TEST

/* An imported layout (every offset given) is left alone. */
START_TEST(layout_compute_imported_untouched)
{
	struct layout *l = layout_new("imported");
	struct lmember *m = fld(TOP(l), "a", "u8");
	struct c2c_err err = { 0 };

	m->has_offset = true;
	m->offset = 7;
	l->size = 8;
	ck_assert(layout_compute(l, resolve, NULL, &err));
	ck_assert(!l->computed);
	ck_assert_uint_eq(l->m[0].offset, 7);
	ck_assert_uint_eq(l->size, 8);
	layout_free(l);
}
END_TEST

static Suite *layout_abi_suite(void)
{
	Suite *s = suite_create("layout_abi");
	TCase *tc = tcase_create("layout_compute");

	tcase_add_loop_test(tc, layout_compute_matches_gcc, 0, NR_CASES);
	tcase_add_test(tc, layout_compute_page_counter_as_pahole);
	tcase_add_test(tc, layout_compute_qspinlock_as_pahole);
	tcase_add_test(tc, layout_compute_bitfield_convention);
	tcase_add_test(tc, layout_compute_aligned_group);
	tcase_add_test(tc, layout_compute_empty);
	tcase_add_test(tc, layout_compute_twice);
	tcase_add_test(tc, layout_compute_imported_untouched);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(layout_abi_suite());
}
