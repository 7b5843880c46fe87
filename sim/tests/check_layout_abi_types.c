/*
 * check_layout_abi_types.c - unit tests for layout_abi.c: the errors of layout_compute (bad
 * types, widths, aligns, groups) and the C type table of layout_c_type, that table also
 * checked against the system `cc`.
 */
#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "layout_abi_build.h"
#include "testutil.h"

/* ---- layout_compute: errors ------------------------------------------------------------- */

static void compute_fails(struct layout *l, layout_resolve_fn fn, const char *msg)
{
	struct c2c_err err = { 0 };

	ck_assert(!layout_compute(l, fn, NULL, &err));
	ck_assert(err.set);
	ck_assert_str_eq(err.msg, msg);
	ck_assert(!l->computed);
	layout_free(l);
}

#define EXPECTED_TYPE "expected a C type such as u64, a pointer, or struct NAME with layout:"
#define EXPECTED_INT "(expected an integer type such as unsigned int or u8)"

/* One bad member x after "a u64" (fields() syntax) and the message it must give. */
static const struct {
	const char *spec, *msg;
} rejects[] = {
	{ "x atomic_lng_t", "x: unknown type 'atomic_lng_t' (" EXPECTED_TYPE "; did you mean "
	  "'atomic_long_t'?)" },
	{ "x struct mem_cgroup_reclaim_iter", "x: unknown type 'struct mem_cgroup_reclaim_iter' ("
	  EXPECTED_TYPE ")" },
	{ "x -", "x: missing type (" EXPECTED_TYPE ")" },
	{ "x@24 u32", "x: align 24 is not a power of two (expected 1, 2, 4, 8, ...)" },
	{ "x:9 u8", "x: bitfield width 9 exceeds type 'u8' (expected at most 8 bits)" },
	{ "x:2 bool", "x: bitfield width 2 exceeds type 'bool' (expected at most 1 bit)" },
	{ "x:3 atomic_t", "x: bitfield of type 'atomic_t' " EXPECTED_INT },
	{ "x:3 u8 *", "x: bitfield of type 'u8 *' " EXPECTED_INT },
	{ "x[2]:3 u32", "x: a bitfield cannot be an array (expected no dims: with bits:)" },
	{ "x=8 u32", "x: size 8 does not match type 'u32' (expected 4)" },
	{ "x=24 struct foo", "x: size 24 without align (expected align: 1, 2, 4, 8, ... next to "
	  "size: for a type that is not a known C type)" },
	{ "x[2147483648][2147483648][2147483648] u64", "x: ends past 1099511627776 bytes "
	  "(expected a smaller struct)" },
};

START_TEST(layout_compute_rejects)
{
	struct layout *l = layout_new("s");
	g_autofree char *spec = g_strdup_printf("a u64, %s", rejects[_i].spec);
	g_autofree char *msg = g_strdup_printf("t.yaml:3:5: %s", rejects[_i].msg);

	fields(TOP(l), spec);
	compute_fails(l, resolve, msg);
}
END_TEST

START_TEST(layout_compute_unknown_type_nested)
{
	struct layout *l = layout_new("s");
	struct lmember *s = add(TOP(l), LM_STRUCT, "st", NULL), *u;

	u = add(IN(s), LM_UNION, NULL, NULL);
	fld(IN(u), "y", "unsinged int");
	compute_fails(l, resolve, "t.yaml:3:5: st.y: unknown type 'unsinged int' ("
		      EXPECTED_TYPE "; did you mean 'unsigned int'?)");
}
END_TEST

START_TEST(layout_compute_bad_struct_align)
{
	struct layout *l = layout_new("s");

	l->align = 48;
	compute_fails(l, resolve, "s: align 48 is not a power of two (expected 1, 2, 4, 8, ...)");
}
END_TEST

START_TEST(layout_compute_unknown_layout)
{
	struct layout *l = layout_new("s");

	embed(TOP(l), "x", "nope");
	compute_fails(l, resolve, "t.yaml:3:5: no layout 'nope' in the test library");
	l = layout_new("s");
	embed(TOP(l), "x", "nope");
	compute_fails(l, NULL, "t.yaml:3:5: x: unknown layout 'nope' (expected the name of a "
		      "loaded layout)");
}
END_TEST

START_TEST(layout_compute_bad_group)
{
	struct layout *l = layout_new("s");

	fields(TOP(l), "a u64, x u32");
	group(l, "hot", "x", "zz");
	compute_fails(l, resolve, "t.yaml:3:5: hot: aligned group member 'zz' not found "
		      "(expected a member of s)");
}
END_TEST

START_TEST(layout_compute_mixed_offsets)
{
	struct layout *l = layout_new("s");

	fields(TOP(l), "a u64, x u32");
	l->m[0].has_offset = true;
	compute_fails(l, resolve, "t.yaml:3:5: x: no offset while other members give one "
		      "(expected every member with offset, or none to have them computed)");
}
END_TEST

/* ---- layout_c_type ---------------------------------------------------------------------- */

static void assert_c_type(const char *type, uint64_t size, uint32_t align)
{
	uint64_t s = 99;
	uint32_t a = 99;

	ck_assert_msg(layout_c_type(type, &s, &a), "'%s' unknown", type);
	ck_assert_msg(s == size && a == align, "'%s': %" PRIu64 " %u (expected %" PRIu64 " %u)",
		      type, s, a, size, align);
}

START_TEST(layout_c_type_table)
{
	static const struct { const char *type; uint64_t size; uint32_t align; } t[] = {
		{ "u8", 1, 1 }, { "s8", 1, 1 }, { "__u8", 1, 1 }, { "bool", 1, 1 },
		{ "u16", 2, 2 }, { "s16", 2, 2 }, { "__u16", 2, 2 },
		{ "u32", 4, 4 }, { "s32", 4, 4 }, { "__u32", 4, 4 },
		{ "u64", 8, 8 }, { "s64", 8, 8 }, { "__u64", 8, 8 }, { "loff_t", 8, 8 },
		{ "phys_addr_t", 8, 8 },
		/* As pahole shows them in sim/tests/data/pahole/linux-6.18.44. */
		{ "atomic_t", 4, 4 }, { "atomic64_t", 8, 8 }, { "atomic_long_t", 8, 8 },
		{ "spinlock_t", 4, 4 }, { "raw_spinlock_t", 4, 4 }, { "refcount_t", 4, 4 },
		{ "seqcount_t", 4, 4 }, { "struct qspinlock", 4, 4 },
		{ "struct list_head", 16, 8 }, { "struct hlist_head", 8, 8 },
		{ "struct hlist_node", 16, 8 }, { "struct rb_node", 24, 8 },
		{ "struct callback_head", 16, 8 }, { "struct rcu_head", 16, 8 },
		{ "struct percpu_ref", 16, 8 }, { "struct cacheline_padding", 0, 64 },
		{ "struct mem_cgroup *", 8, 8 }, { "void (*)(struct callback_head *)", 8, 8 },
		/* Whitespace variants. */
		{ "  unsigned   int ", 4, 4 }, { "long\tunsigned  int", 8, 8 },
		{ "struct  list_head", 16, 8 }, { "struct foo*", 8, 8 }, { "u8 * *", 8, 8 },
		{ "char **  ", 8, 8 }, { "\natomic_long_t\n", 8, 8 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(t); i++)
		assert_c_type(t[i].type, t[i].size, t[i].align);
}
END_TEST

START_TEST(layout_c_type_unknown)
{
	static const char *const bad[] = { "", " ", "struct foo", "u128", "unsigned float",
		"struct list_head_x", "list_head", "u 8", "*u8", "struct", "int int" };
	uint64_t s = 7;
	uint32_t a = 7;

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
		ck_assert_msg(!layout_c_type(bad[i], &s, &a), "'%s' known", bad[i]);
	ck_assert(!layout_c_type(NULL, &s, &a));
	ck_assert_uint_eq(s, 7);
	ck_assert_uint_eq(a, 7);
}
END_TEST

/* The C spellings of the table against sizeof and _Alignof of the system compiler. */
START_TEST(layout_c_type_matches_gcc)
{
	static const char *const types[] = { "char", "signed char", "unsigned char", "_Bool",
		"bool", "short", "short int", "signed short", "unsigned short",
		"short unsigned int", "unsigned short int", "int", "signed", "signed int",
		"unsigned", "unsigned int", "long", "long int", "signed long", "unsigned long",
		"long unsigned int", "unsigned long int", "long long", "long long int",
		"unsigned long long", "long long unsigned int", "unsigned long long int",
		"uint8_t", "int8_t", "uint16_t", "int16_t", "uint32_t", "int32_t", "uint64_t",
		"int64_t", "size_t", "ssize_t", "uintptr_t", "intptr_t", "ptrdiff_t", "void *",
		"char **", "void (*)(void)" };
	GString *src = g_string_new("#include <stdbool.h>\n#include <stddef.h>\n#include "
				    "<stdint.h>\n#include <stdio.h>\n#include <sys/types.h>\n"
				    "int main(void)\n{\n");
	GString *expect = g_string_new(NULL);
	g_autofree char *out = NULL;

	for (size_t i = 0; i < G_N_ELEMENTS(types); i++) {
		uint64_t size = 0;
		uint32_t align = 0;

		ck_assert_msg(layout_c_type(types[i], &size, &align), "'%s' unknown", types[i]);
		g_string_append_printf(src, "\tprintf(\"%s %%zu %%zu\\n\", sizeof(%s), "
				       "_Alignof(%s));\n", types[i], types[i], types[i]);
		g_string_append_printf(expect, "%s %" PRIu64 " %u\n", types[i], size, align);
	}
	g_string_append(src, "\treturn 0;\n}\n");
	out = cc_run(src->str);
	ck_assert_str_eq(out, expect->str);
	g_string_free(src, TRUE);
	g_string_free(expect, TRUE);
}
END_TEST

static Suite *layout_abi_types_suite(void)
{
	Suite *s = suite_create("layout_abi_types");
	TCase *tc = tcase_create("layout_compute");

	tcase_add_loop_test(tc, layout_compute_rejects, 0, G_N_ELEMENTS(rejects));
	tcase_add_test(tc, layout_compute_unknown_type_nested);
	tcase_add_test(tc, layout_compute_bad_struct_align);
	tcase_add_test(tc, layout_compute_unknown_layout);
	tcase_add_test(tc, layout_compute_bad_group);
	tcase_add_test(tc, layout_compute_mixed_offsets);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout_c_type");
	tcase_add_test(tc, layout_c_type_table);
	tcase_add_test(tc, layout_c_type_unknown);
	tcase_add_test(tc, layout_c_type_matches_gcc);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(layout_abi_types_suite());
}
