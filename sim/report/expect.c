/* expect.c - expectations: parse, check names, evaluate; see expect.h. */
#include "report/expect.h"

#include <glib.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* The totals an expectation may name besides the headline ids (metrics.h keys). */
static const char *const totals[] = {"hitm.local", "hitm.remote", "hitm.prefetch", "loads",
				     "stores", "ops_per_sec", NULL};

/* A recursive-descent reader of one expectation.  With @s NULL it only checks the text (and
 * the metric names against @hs); otherwise it evaluates. */
struct xp {
	const char *p;            /* next character */
	const struct msummary *s; /* NULL: check only */
	const struct hl_set *hs;  /* check only */
	bool failed;
	char why[128];            /* the first problem */
	bool missing;             /* a variant or metric was not in the summary (skip) */
};

static void xp_fail(struct xp *x, bool missing, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void xp_fail(struct xp *x, bool missing, const char *fmt, ...)
{
	va_list ap;

	if (x->failed)
		return;
	x->failed = true;
	x->missing = missing;
	va_start(ap, fmt);
	g_vsnprintf(x->why, sizeof(x->why), fmt, ap);
	va_end(ap);
}

static void xp_space(struct xp *x)
{
	while (*x->p == ' ' || *x->p == '\t')
		x->p++;
}

static bool known_metric(const struct hl_set *hs, const char *m)
{
	for (uint32_t i = 0; hs && i < hs->nr; i++)
		if (!strcmp(hs->v[i].id, m))
			return true;
	for (const char *const *t = totals; *t; t++)
		if (!strcmp(*t, m))
			return true;
	return false;
}

/* REF: VARIANT.METRIC[.per_op], the word at x->p. */
static double xp_ref(struct xp *x, const char *word)
{
	const char *dot = strchr(word, '.');
	g_autofree char *variant = dot ? g_strndup(word, (size_t)(dot - word)) : NULL;
	g_autofree char *metric = dot ? g_strdup(dot + 1) : NULL;
	g_autofree char *key = NULL;
	bool per_op = metric && g_str_has_suffix(metric, ".per_op");
	const struct mvariant *v;
	const struct metric *m;

	if (!dot || !dot[1] || dot == word) {
		xp_fail(x, false, "'%s' (expected VARIANT.METRIC)", word);
		return 0;
	}
	if (per_op)
		metric[strlen(metric) - strlen(".per_op")] = 0;
	if (!x->s) {
		if (!known_metric(x->hs, metric))
			xp_fail(x, false, "'%s': no metric '%s' (expected a headline id or a "
				"total: ops_per_sec, hitm.local, ...)", word, metric);
		return 1;
	}
	if (!(v = msummary_variant(x->s, variant))) {
		xp_fail(x, true, "variant %s not run", variant);
		return 0;
	}
	key = g_strdup_printf("headline:%s", metric);
	if (!(m = mvariant_metric(v, key)) && !(m = mvariant_metric(v, metric))) {
		xp_fail(x, true, "%s has no metric %s", variant, metric);
		return 0;
	}
	if (per_op && !m->has_per_op)
		xp_fail(x, false, "%s has no per_op", word);
	return per_op ? m->per_op : m->value;
}

static double xp_expr(struct xp *x);
static double xp_product(struct xp *x);

static double xp_term(struct xp *x)
{
	const char *start;
	g_autofree char *word = NULL;
	double v;

	xp_space(x);
	if (*x->p == '(') {
		x->p++;
		v = xp_expr(x);
		xp_space(x);
		if (*x->p != ')')
			xp_fail(x, false, "'(' not closed (expected ')')");
		else
			x->p++;
		return v;
	}
	start = x->p;
	while (*x->p && !strchr(" \t*/+()<>=!", *x->p))
		x->p++;
	if (x->p == start) {
		xp_fail(x, false, "'%s' (expected a number or VARIANT.METRIC)", start);
		return 0;
	}
	word = g_strndup(start, (size_t)(x->p - start));
	if (g_ascii_isdigit(*word)) {
		char *end;

		v = g_ascii_strtod(word, &end);
		if (*end)
			xp_fail(x, false, "'%s' is not a number", word);
		return v;
	}
	return xp_ref(x, word);
}

static double xp_product(struct xp *x)
{
	double v = xp_term(x);

	for (;;) {
		xp_space(x);
		if (*x->p == '*') {
			x->p++;
			v *= xp_term(x);
		} else if (*x->p == '/') {
			double d;

			x->p++;
			d = xp_term(x);
			v = d != 0 ? v / d : (v == 0 ? 0 : HUGE_VAL);
		} else {
			return v;
		}
	}
}

/* A sum of products; '-' is an operator only after a space ("after-80" is a variant). */
static double xp_expr(struct xp *x)
{
	double v = xp_product(x);

	for (;;) {
		xp_space(x);
		if (*x->p == '+') {
			x->p++;
			v += xp_product(x);
		} else if (*x->p == '-' && x->p[-1] == ' ') {
			x->p++;
			v -= xp_product(x);
		} else {
			return v;
		}
	}
}

static const char *const cmp_ops[] = {"<=", ">=", "==", "<", ">", NULL};

/* The whole relation, its sides in @lhs and @rhs, the comparison's index in cmp_ops in @op.
 * Return: false when x->failed. */
static bool xp_relation(struct xp *x, double *lhs, double *rhs, int *op)
{
	*lhs = xp_expr(x);
	xp_space(x);
	for (*op = 0; cmp_ops[*op] && !g_str_has_prefix(x->p, cmp_ops[*op]); (*op)++)
		;
	if (!cmp_ops[*op]) {
		xp_fail(x, false, "'%s' (expected <, <=, >, >= or ==)", x->p);
		return false;
	}
	x->p += strlen(cmp_ops[*op]);
	*rhs = xp_expr(x);
	xp_space(x);
	if (*x->p)
		xp_fail(x, false, "'%s' after the relation (expected the end)", x->p);
	return !x->failed;
}

static bool expect_load_one(const struct yt_node *item, const char *what,
			    const struct hl_set *hs, struct expectation *e, struct c2c_err *err)
{
	static const char *const keys[] = {"that", "gap", "note", NULL};
	const struct yt_node *k = item;
	struct xp x = {.hs = hs};
	double l, r;
	int op;

	*e = (struct expectation){.mark = item->mark};
	if (item->kind == YT_MAP) {
		const struct yt_node *gap = yt_get(item, "gap"), *note = yt_get(item, "note");

		if (!yt_expect_map(item, what, keys, err) ||
		    !(k = yt_require(item, "that", what, err)) ||
		    (gap && !yt_str(gap, "gap", &e->gap, err)) ||
		    (note && !yt_str(note, "note", &e->note, err)))
			return false;
	}
	if (!yt_str(k, what, &e->text, err))
		return false;
	e->mark = k->mark;
	x.p = e->text;
	if (!xp_relation(&x, &l, &r, &op)) {
		err_set(err, k->mark, "%s: %s", what, x.why);
		return false;
	}
	return true;
}

bool expect_load(const struct scenario *sc, const struct hl_set *hs, struct expect_set *es,
		 struct c2c_err *err)
{
	const struct yt_node *seq = sc->nr_variants ? yt_get(sc->v[0].tree, "expect") : NULL;

	*es = (struct expect_set){0};
	if (!seq)
		return true;
	if (!yt_expect_seq(seq, "expect", err))
		return false;
	es->v = g_new0(struct expectation, seq->len ? seq->len : 1);
	for (size_t i = 0; i < seq->len; i++) {
		g_autofree char *what = g_strdup_printf("expect[%zu]", i);

		if (!expect_load_one(seq->items[i], what, hs, &es->v[i], err)) {
			expect_set_free(es);
			return false;
		}
		es->nr++;
	}
	return true;
}

void expect_set_free(struct expect_set *es)
{
	g_free(es->v);
	*es = (struct expect_set){0};
}

bool expect_value(const char *text, const struct msummary *s, const struct hl_set *hs,
		  double *out, bool *missing, char *why, size_t n)
{
	struct xp x = {.p = text, .s = s, .hs = hs};

	*out = xp_expr(&x);
	xp_space(&x);
	if (!x.failed && *x.p)
		xp_fail(&x, false, "'%s' after the expression (expected the end)", x.p);
	if (missing)
		*missing = x.missing;
	if (x.failed)
		g_strlcpy(why, x.why, n);
	return !x.failed;
}

void expect_eval(const struct expectation *e, const struct msummary *s,
		 struct expect_result *res)
{
	struct xp x = {.p = e->text, .s = s};
	bool holds = false;
	int op;

	*res = (struct expect_result){0};
	if (!xp_relation(&x, &res->lhs, &res->rhs, &op)) {
		res->status = x.missing ? EXPECT_SKIPPED : EXPECT_FAILS;
		g_strlcpy(res->why, x.why, sizeof(res->why));
		return;
	}
	switch (op) {
	case 0: holds = res->lhs <= res->rhs; break;
	case 1: holds = res->lhs >= res->rhs; break;
	case 2: holds = res->lhs == res->rhs; break;
	case 3: holds = res->lhs < res->rhs; break;
	default: holds = res->lhs > res->rhs; break;
	}
	res->status = holds ? EXPECT_HOLDS : EXPECT_FAILS;
}

uint32_t expect_report(FILE *f, const struct expect_set *es, const struct msummary *s,
		       FILE *fail_out)
{
	uint32_t n[EXPECT_STATUS_COUNT] = {0}, gaps = 0, failed = 0;
	struct expect_result *res = g_new0(struct expect_result, es->nr ? es->nr : 1);
	char a[32], b[32];

	for (uint32_t i = 0; i < es->nr; i++) {
		expect_eval(&es->v[i], s, &res[i]);
		if (es->v[i].gap && res[i].status == EXPECT_FAILS)
			gaps++;
		else
			n[res[i].status]++;
	}
	failed = n[EXPECT_FAILS];
	if (es->nr && f)
		fprintf(f, "Expectations: %u of %u hold, %u failed, %u known gap%s, %u skipped\n",
			n[EXPECT_HOLDS], es->nr, failed, gaps, gaps == 1 ? "" : "s",
			n[EXPECT_SKIPPED]);
	for (uint32_t i = 0; i < es->nr; i++) {
		const struct expectation *e = &es->v[i];
		const char *tag = res[i].status == EXPECT_HOLDS ? NULL
				  : res[i].status == EXPECT_SKIPPED ? "skip"
				  : e->gap ? "gap" : "FAIL";

		if (!tag)
			continue;
		if (!f)
			;
		else if (res[i].status == EXPECT_SKIPPED || res[i].why[0])
			fprintf(f, "  %-4s  %s (%s)\n", tag, e->text, res[i].why);
		else
			fprintf(f, "  %-4s  %s (%s vs %s)\n", tag, e->text,
				metric_fmt(a, sizeof(a), res[i].lhs), metric_fmt(b, sizeof(b),
										res[i].rhs));
		if (fail_out && !strcmp(tag, "FAIL"))
			fprintf(fail_out, "%s:%d:%d: expectation failed: %s (%s vs %s)\n",
				e->mark.file, e->mark.line, e->mark.col, e->text,
				metric_fmt(a, sizeof(a), res[i].lhs), metric_fmt(b, sizeof(b),
										res[i].rhs));
	}
	g_free(res);
	return failed;
}
