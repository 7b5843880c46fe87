/*
 * check_path.c - the path compiler: programs from files, and every kind of bad path file
 * giving one `file:line:col: message` with suggestions for unknown names.
 */
#include <glib.h>
#include <string.h>

#include "path/interp_int.h"
#include "path/path.h"
#include "testutil.h"

static struct program *load(const char *rel, struct c2c_err *err)
{
	g_autofree char *path = g_strdup_printf("%s/sim/tests/data/%s", getenv("C2CSIM_SRCDIR"), rel);
	g_autofree char *lay = tu_src_path("layouts/linux-2.6.31");
	struct layout_lib *lib = layout_lib_new();
	const char *files[] = {path, NULL};
	struct program *p;

	layout_lib_add_dir(lib, lay);
	p = program_load(files, lib, NULL, 0, err);
	layout_lib_free(lib);
	/* Bad files only: a good program would keep pointers into the freed library. */
	ck_assert_ptr_null(p);
	return NULL;
}

START_TEST(program_load_example)
{
	struct c2c_err err = {0};
	g_autofree char *path = tu_src_path("sim/tests/data/paths/res_counter.yaml");
	g_autofree char *lay = tu_src_path("layouts/linux-2.6.31");
	struct layout_lib *lib = layout_lib_new();
	const char *files[] = {path, NULL};
	struct program *p;
	int charge;

	layout_lib_add_dir(lib, lay);
	p = program_load(files, lib, NULL, 0, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	ck_assert_uint_eq(p->nr_paths, 6);
	charge = program_find(p, "charge");
	ck_assert_int_eq(charge, 0);
	ck_assert_int_eq(program_find(p, "nope"), -1);
	ck_assert_uint_eq(p->paths[charge].nr_params, 1);
	ck_assert_int_eq(p->paths[charge].param_kind[0], 0);
	ck_assert_uint_eq(p->nr_counters, 1);
	/* Sites name the path, the instruction and the target, for the reports. */
	ck_assert_ptr_nonnull(strstr(p->site_names[0], "charge:"));
	ck_assert_ptr_nonnull(strstr(p->site_names[0], "c.rc.lock"));
	program_free(p);
	layout_lib_free(lib);
}
END_TEST

/* Values where wrap-around and sign show. */
static const int64_t edge[] = {INT64_MIN, -8, -1, 0, 1, 7, 8, INT64_MAX};

/* Does every operand @o of @e in a compiled form (OPND_LOC_CONST, OPND_CONST_LOC,
 * OPND_LOC_LOC, OPND_LOC_CB, OPND_ABS_CONST) give what the expression gives, for locals x and
 * y at the edges?  Return: 1 for an operand in such a form, 0 for one left to the evaluator. */
static int binary_form_agrees(const struct operand *o, const struct expr *e)
{
	int64_t builtins[EB_COUNT] = {4, 2, 3, 1};
	struct ptask t = {0};

	memcpy(t.builtins, builtins, sizeof(builtins));
	if (o->kind != OPND_LOC_CONST && o->kind != OPND_CONST_LOC && o->kind != OPND_LOC_LOC &&
	    o->kind != OPND_LOC_CB && o->kind != OPND_ABS_CONST)
		return 0;
	for (size_t i = 0; i < G_N_ELEMENTS(edge); i++)
		for (size_t j = 0; j < G_N_ELEMENTS(edge); j++) {
			int64_t loc[PATH_MAX_LOCALS] = {edge[i], edge[j]};
			enum expr_fault f = EXPR_OK;
			int64_t want = expr_eval(e, loc, builtins, &f);

			ck_assert_msg(f == EXPR_OK && it_val(&t, o, loc) == want, "'%s'",
				      expr_text(e));
		}
	return 1;
}

/* One operator on a local and a constant, or two locals, that cannot fault is compiled for
 * the interpreter (no postfix code at run time) and gives what the expression does, and so
 * are a local against a constant times a builtin and abs() of a local against a constant;
 * the rest (a division, other three operands, a builtin, a function of one alone, another
 * unary operator) is left to the evaluator. */
START_TEST(program_binary_forms)
{
	struct c2c_err err = {0};
	g_autofree char *path = tu_src_path("sim/tests/data/paths/binary_forms.yaml");
	struct layout_lib *lib = layout_lib_new();
	const char *files[] = {path, NULL};
	struct program *p = program_load(files, lib, NULL, 0, &err);
	struct ptask t = {0};
	int64_t loc[PATH_MAX_LOCALS] = {10, 3};
	int forms = 0;

	ck_assert_msg(p != NULL, "%s", err.msg);
	for (uint32_t i = 0; i < p->paths[0].nr_code; i++) {
		const struct pinsn *in = &p->paths[0].code[i];

		if (in->a)
			forms += binary_form_agrees(&in->av, in->a);
		if (in->b)
			forms += binary_form_agrees(&in->bv, in->b);
	}
	/* x - K, K - x, x - y, y < x, K * x, max(K, y); x > K * nr_cpus, x <= nr_cpus * K,
	 * abs(x) > K, abs(x) - 8; K - y */
	ck_assert_int_eq(forms, 11);
	/* Which side the constant is on matters: 7 - x, not x - 7. */
	ck_assert_int_eq(p->paths[0].code[1].av.kind, OPND_CONST_LOC);
	ck_assert_int_eq(it_val(&t, &p->paths[0].code[1].av, loc), -3);
	ck_assert_int_eq(it_val(&t, &p->paths[0].code[0].av, loc), 3);
	program_free(p);
	layout_lib_free(lib);
}
END_TEST

struct bad {
	const char *file, *msg;
};

static const struct bad bads[] = {
	{"unknown-member.yaml", "unknown-member.yaml:9:15: unknown member 'usgae' in struct "
	 "res_counter (expected one of: usage, max_usage, limit, failcnt, lock, parent; did you "
	 "mean 'usage'?)"},
	{"unknown-path.yaml", "unknown-path.yaml:9:22: call: unknown path 'chrage' (expected a "
	 "path of the loaded models; did you mean 'charge'?)"},
	{"unknown-name.yaml", "unknown-name.yaml:10:40: 'PAGE_SIZ * 2': unknown name 'PAGE_SIZ' "
	 "(expected a local, parameter or constant; did you mean 'PAGE_SIZE'?)"},
	{"bad-expr.yaml", "bad-expr.yaml:9:40: '1 + * 2': unexpected '*' at column 5 (expected "
	 "an operand)"},
	{"bad-op.yaml", "bad-op.yaml:9:9: operation: unknown key 'laod'"},
	{"arg-count.yaml", "arg-count.yaml:13:15: call charge: 1 arguments (expected 2)"},
	{"unknown-object.yaml", "unknown-object.yaml:9:15: unknown object 'rx' (expected one of: "
	 "rc; did you mean 'rc'?)"},
	{"break-outside.yaml", "break-outside.yaml:9:9: break outside a loop (expected inside "
	 "for: ... do:)"},
	/* an index bracket never closed (used to read before the string: found by fuzzing) */
	{"unclosed-index.yaml", "unclosed-index.yaml:9:15: 'usage[': '[' without its ']' "
	 "(expected NAME[INDEX])"},
	/* a CPU expression compiles, the member does not: nothing compiled may leak (ASan) */
	{"cpu-then-bad-member.yaml", "cpu-then-bad-member.yaml:9:15: unknown member 'usgae' in "
	 "struct res_counter"},
	/* the lower bound compiles, the upper does not: nothing compiled may leak (ASan build) */
	{"bad-range.yaml", "bad-range.yaml:9:27: ' )p': unexpected ')' at column 2 (expected an "
	 "operand)"},
};

START_TEST(program_load_bad)
{
	struct c2c_err err = {0};
	g_autofree char *rel = g_strdup_printf("paths-bad/%s", bads[_i].file);

	ck_assert_ptr_null(load(rel, &err));
	ck_assert_msg(strstr(err.msg, bads[_i].msg) != NULL, "got: %s", err.msg);
}
END_TEST

static Suite *path_suite(void)
{
	Suite *s = suite_create("path");
	TCase *tc = tcase_create("program_load");

	tcase_add_test(tc, program_load_example);
	tcase_add_test(tc, program_binary_forms);
	tcase_add_loop_test(tc, program_load_bad, 0, G_N_ELEMENTS(bads));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(path_suite());
}
