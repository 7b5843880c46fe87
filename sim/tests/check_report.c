/* check_report.c - unit tests for report.c: the stdout report and the comparison table, on
 * a small run built by hand (report_fixture.h).  output.c is in check_output.c. */
#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report_fixture.h"
#include "testutil.h"

/* ---- reading the report ------------------------------------------------------------------ */

static char *report_text(const struct fix *fx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	report_print(f, fx->sc, &fx->sc->v[0], fx->r);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/* The whitespace-separated fields of the first line of @text starting with @prefix, or NULL. */
static char **row_fields(const char *text, const char *prefix)
{
	char **lines = g_strsplit(text, "\n", -1), **fields = NULL;

	for (char **l = lines; *l && !fields; l++)
		if (g_str_has_prefix(*l, prefix))
			fields = g_strsplit_set(g_strstrip(*l), " ", -1);
	g_strfreev(lines);
	if (fields) { /* drop the empty strings runs of blanks leave */
		char **out = fields, **in = fields;

		for (; *in; in++) {
			if (**in)
				*out++ = *in;
			else
				g_free(*in);
		}
		*out = NULL;
	}
	return fields;
}

static char *u64s(uint64_t x)
{
	return g_strdup_printf("%" PRIu64, x);
}

static void assert_field(char **fields, int i, uint64_t want)
{
	char *s = u64s(want);

	ck_assert_ptr_nonnull(fields);
	ck_assert_uint_gt(g_strv_length(fields), (guint)i);
	ck_assert_str_eq(fields[i], s);
	g_free(s);
}

/* ---- report_print ------------------------------------------------------------------------ */

START_TEST(report_print_table)
{
	struct fix *fx = fix_new();
	const struct line_stats lsv = stats_of(fx, COUNTER), *ls = &lsv;
	char *text = report_text(fx);
	char **row;

	ck_assert_uint_gt(ls->c[LS_HITM_LCL], 0);
	ck_assert_ptr_nonnull(strstr(text, "Shared Data Cache Line Table"));
	ck_assert_ptr_nonnull(strstr(text, "Shared Cache Line Distribution Pareto"));
	ck_assert_ptr_nonnull(strstr(text, "Trace Event Information"));
	ck_assert_ptr_nonnull(strstr(text, "two-counters"));
	/* Row 0 is the counter: Index Address Object Node Tot Lcl Rmt PfHitm PfCaused Records. */
	row = row_fields(text, "      0  0x10000000");
	ck_assert_ptr_nonnull(row);
	ck_assert_str_eq(row[2], "counter+0x0");
	assert_field(row, 3, 0);
	assert_field(row, 4, ls_hitm(ls));
	assert_field(row, 5, ls->c[LS_HITM_LCL]);
	assert_field(row, 6, ls->c[LS_HITM_RMT]);
	assert_field(row, 9, ls->c[LS_LOADS] + ls->c[LS_STORES]);
	assert_field(row, 19, 2);
	/* The private line is not shared: no row for it. */
	ck_assert_ptr_null(strstr(text, "priv+0x0  "));
	g_strfreev(row);
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_pareto)
{
	struct fix *fx = fix_new();
	char *text = report_text(fx);
	char **row;

	/* One site at offset 0 takes every HITM of the counter line. */
	row = row_fields(text, "     0.0%   100.0%");
	ck_assert_ptr_nonnull(row);
	ck_assert_str_eq(row[4], "0x0");
	ck_assert_str_eq(row[5], "inc:0");
	ck_assert_str_eq(row[g_strv_length(row) - 1], "counter+0x0");
	g_strfreev(row);
	/* No floating point: every percentage has exactly one decimal. */
	ck_assert_ptr_null(strstr(text, "0.00"));
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_pair)
{
	struct fix *fx = fix_new();
	const struct line_stats av = stats_of(fx, COUNTER), bv = stats_of(fx, FLAG);
	const struct line_stats *a = &av, *b = &bv;
	char *text, **row;

	fx->sc->v[0].report.group = GROUP_PAIR;
	text = report_text(fx);
	ck_assert_ptr_nonnull(strstr(text, "128-byte pairs"));
	row = row_fields(text, "      0  0x10000000");
	ck_assert_ptr_nonnull(row);
	/* The pair straddles two objects: both are named. */
	ck_assert_str_eq(row[2], "counter+0x0|flag+0x0");
	assert_field(row, 4, ls_hitm(a) + ls_hitm(b));
	assert_field(row, 10, a->c[LS_LOADS] + b->c[LS_LOADS]);
	assert_field(row, 11, a->c[LS_STORES] + b->c[LS_STORES]);
	g_strfreev(row);
	ck_assert_ptr_null(strstr(text, "0x10000040  "));
	/* The flag's store site appears in the pair's Pareto at offset 0x40. */
	row = row_fields(text, "     0.0%     0.0%");
	ck_assert_ptr_nonnull(row);
	ck_assert_str_eq(row[4], "0x40");
	ck_assert_str_eq(row[g_strv_length(row) - 1], "flag+0x0");
	g_strfreev(row);
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_lines_limit)
{
	struct fix *fx = fix_new();
	char *text;

	fx->sc->v[0].report.lines = 1;
	text = report_text(fx);
	ck_assert_ptr_nonnull(strstr(text, "      0  0x10000000"));
	ck_assert_ptr_null(strstr(text, "      1  0x"));
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_deterministic)
{
	struct fix *a = fix_new(), *b = fix_new();
	char *ta = report_text(a), *tb = report_text(b);

	ck_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	fix_free(a);
	fix_free(b);
}
END_TEST

START_TEST(report_print_empty_run)
{
	struct fix *fx = fix_new();
	struct mem *busy = fx->r->mem;
	char *text;

	fx->r->mem = mem_new(fx->r->mc, fx->r->objs, true); /* nothing ever touched */
	text = report_text(fx);
	ck_assert_ptr_nonnull(strstr(text, "Shared Data Cache Line Table"));
	ck_assert_ptr_null(strstr(text, "      0  0x"));
	ck_assert_ptr_nonnull(strstr(text, "(avg 0 cycles)"));
	mem_free(fx->r->mem);
	fx->r->mem = busy;
	free(text);
	fix_free(fx);
}
END_TEST

/* Byte-identical on every host starts with: ASCII only, no trailing blanks. */
START_TEST(report_print_plain_ascii)
{
	struct fix *fx = fix_new();
	char *text = report_text(fx);

	for (const char *p = text; *p; p++) {
		ck_assert_msg((unsigned char)*p < 0x80, "non-ASCII byte at %td", p - text);
		ck_assert_msg(!(*p == ' ' && (p[1] == '\n' || !p[1])), "trailing blank at %td",
			      p - text);
	}
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_world_sections)
{
	struct fix *fx = fix_new();
	const char *order[] = {"Shared Cache Line Distribution Pareto", "Throughput",
			       "Lock statistics", "Path costs", "Counter accuracy"};
	const char *lock[] = {"counter+0x8", "2", "5", "2.00", "900.00", "971.34", "194.26",
			      "4", "10", "1.00", "3.00", "4.00", "2.00", "12.34", "50.00",
			      "1.00", "1.00"};
	/* calls, mean/p50/p99/max ns, lines and remote fetches per top-level call */
	const char *charge[] = {"charge", "4", "4.00", "2.00", "3.00", "10.00", "3.3", "1.6"};
	char *text, **row;
	const char *at = NULL;

	add_world(fx->r);
	text = report_text(fx);
	for (size_t i = 0; i < G_N_ELEMENTS(order); i++) {
		const char *p = strstr(text, order[i]);

		ck_assert_msg(p && p > at, "%s missing or out of order", order[i]);
		at = p;
	}
	row = row_fields(text, "  Ops per second");
	assert_field(row, 4, want_ops(fx->r, 3 * ROUNDS + ROUNDS / 10));
	g_strfreev(row);
	row = row_fields(text, "  inc ");
	assert_field(row, 2, 2 * ROUNDS);
	assert_field(row, 3, want_ops(fx->r, 2 * ROUNDS));
	g_strfreev(row);
	/* lock_stat's columns, times in ns truncated to two decimals from ps. */
	row = row_fields(text, "  counter+0x8 ");
	ck_assert_ptr_nonnull(row);
	ck_assert_uint_eq(g_strv_length(row), G_N_ELEMENTS(lock));
	for (size_t i = 0; i < G_N_ELEMENTS(lock); i++)
		ck_assert_str_eq(row[i], lock[i]);
	g_strfreev(row);
	ck_assert_ptr_null(strstr(text, "counter+0x10")); /* never taken */
	ck_assert_ptr_null(strstr(text, "  idle"));       /* never called */
	ck_assert_ptr_null(strstr(text, "  unread"));     /* never read */
	row = row_fields(text, "  charge ");
	ck_assert_ptr_nonnull(row);
	ck_assert_uint_eq(g_strv_length(row), G_N_ELEMENTS(charge));
	for (size_t i = 0; i < G_N_ELEMENTS(charge); i++)
		ck_assert_str_eq(row[i], charge[i]);
	g_strfreev(row);
	row = row_fields(text, "  callee ");
	ck_assert_str_eq(row[6], "-"); /* no top-level call to divide by */
	g_strfreev(row);
	row = row_fields(text, "  nr_pages ");
	ck_assert_str_eq(row[2], "100");
	ck_assert_str_eq(row[3], "96");
	ck_assert_str_eq(row[4], "9");
	g_strfreev(row);
	/* The report sorted copies: the run's own sample vectors keep their order. */
	ck_assert_uint_eq(fx->r->world->locks[0].wait.v[0], 50000);
	ck_assert_uint_eq(fx->r->world->pstats[0].lat.v[0], 10000);
	free(text);
	fix_free(fx);
}
END_TEST

/* A raw-access run prints its throughput (its actors loop too) and none of the path
 * sections. */
START_TEST(report_print_no_world)
{
	struct fix *fx = fix_new();
	char *text = report_text(fx);

	ck_assert_uint_gt(fx->r->nr_actors, 0);
	ck_assert_ptr_nonnull(strstr(text, "Throughput"));
	ck_assert_ptr_null(strstr(text, "Lock statistics"));
	ck_assert_ptr_null(strstr(text, "Path costs"));
	ck_assert_ptr_null(strstr(text, "Counter accuracy"));
	free(text);
	fix_free(fx);
}
END_TEST

/* ---- report_totals and report_line_shared ------------------------------------------------ */

START_TEST(report_totals_sum)
{
	struct fix *fx = fix_new();
	const struct mem *m = fx->r->mem;
	uint64_t tot[LS_COUNT], want_loads = 0;

	report_totals(m, tot);
	for (uint32_t i = 0; i < stats_nr_lines(m); i++)
		want_loads += stats_line(m, i, LS_LOADS);
	ck_assert_uint_eq(tot[LS_LOADS], want_loads);
	/* 200 locked RMWs on the counter and 100 private loads; RMWs count as loads too. */
	ck_assert_uint_eq(tot[LS_LOADS], 3 * ROUNDS);
	ck_assert_uint_eq(tot[LS_STORES], 2 * ROUNDS + ROUNDS / 10);
	ck_assert_uint_eq(tot[LS_LOCKED], 2 * ROUNDS);
	fix_free(fx);
}
END_TEST

START_TEST(report_line_shared_rule)
{
	struct fix *fx = fix_new();
	const struct mem *m = fx->r->mem;

	ck_assert(report_line_shared(m, mem_line(m, COUNTER)));
	ck_assert(!report_line_shared(m, mem_line(m, PRIV)));
	fix_free(fx);
}
END_TEST

/* ---- report_dist_of ----------------------------------------------------------------------- */

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The percentiles are the sorted samples' values at samples_percentile()'s ranks, for any
 * count and any repeats, and the samples are left as they were. */
START_TEST(report_dist_percentiles)
{
	GRand *rnd = g_rand_new_with_seed(5);

	for (int round = 0; round < 400; round++) {
		uint32_t n = 1 + (uint32_t)g_rand_int_range(rnd, 0, round < 50 ? 4 : 300);
		uint64_t *v = g_new(uint64_t, n), *sorted = g_new(uint64_t, n);
		uint64_t span = (uint64_t)g_rand_int_range(rnd, 1, round % 3 ? 1000 : 3);
		struct samples smp = {.v = v, .nr = n, .cap = n};
		struct report_dist d;

		for (uint32_t i = 0; i < n; i++)
			smp.total += v[i] = (uint64_t)g_rand_int_range(rnd, 0, (gint32)span);
		memcpy(sorted, v, sizeof(uint64_t) * n);
		qsort(sorted, n, sizeof(uint64_t), cmp_u64);
		smp.min = sorted[0];
		smp.max = sorted[n - 1];
		report_dist_of(&smp, &d);
		ck_assert_uint_eq(d.p50, sorted[(uint64_t)(n - 1) * 50 / 100]);
		ck_assert_uint_eq(d.p99, sorted[(uint64_t)(n - 1) * 99 / 100]);
		ck_assert_uint_eq(d.nr, n);
		qsort(v, n, sizeof(uint64_t), cmp_u64);
		ck_assert(!memcmp(v, sorted, sizeof(uint64_t) * n)); /* the same samples */
		g_free(v);
		g_free(sorted);
	}
	g_rand_free(rnd);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc;

	tc = tcase_create("report_print");
	tcase_add_test(tc, report_print_table);
	tcase_add_test(tc, report_print_pareto);
	tcase_add_test(tc, report_print_pair);
	tcase_add_test(tc, report_print_lines_limit);
	tcase_add_test(tc, report_print_deterministic);
	tcase_add_test(tc, report_print_empty_run);
	tcase_add_test(tc, report_print_plain_ascii);
	tcase_add_test(tc, report_print_world_sections);
	tcase_add_test(tc, report_print_no_world);
	suite_add_tcase(s, tc);


	tc = tcase_create("report_totals");
	tcase_add_test(tc, report_totals_sum);
	suite_add_tcase(s, tc);

	tc = tcase_create("report_line_shared");
	tcase_add_test(tc, report_line_shared_rule);
	suite_add_tcase(s, tc);

	tc = tcase_create("report_dist");
	tcase_add_test(tc, report_dist_percentiles);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(report_suite());
}
