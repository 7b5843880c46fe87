/* show.c - Show items: loaded from a scenario's headline, judged on a summary; see show.h. */
#include "report/show.h"

#include <math.h>
#include <string.h>

#include "report/expect.h"

/* A scalar that is a number as written (not quoted), into *@out. */
static bool num_of(const struct yt_node *n, double *out)
{
	char *end;

	if (!n || n->kind != YT_SCALAR || n->quoted || !*n->str)
		return false;
	*out = g_ascii_strtod(n->str, &end);
	return !*end && isfinite(*out);
}

static bool show_num(const struct yt_node *item, const char *key, const char *what, double *out,
		     bool *has, struct c2c_err *err)
{
	const struct yt_node *n = yt_get(item, key);

	if (has)
		*has = n != NULL;
	if (!n)
		return true;
	if (num_of(n, out))
		return true;
	err_set(err, n->mark, "%s.%s: '%s' (expected a number)", what, key,
		n->kind == YT_SCALAR ? n->str : "a collection");
	return false;
}

/* The judgement keys: within/at_least/at_most, with within 2 for a numeric figure that has
 * none. */
static bool show_judgement(const struct yt_node *item, const char *what, struct show_item *it,
			   struct c2c_err *err)
{
	bool has_within;

	if (!show_num(item, "within", what, &it->within, &has_within, err) ||
	    !show_num(item, "at_least", what, &it->lo, &it->has_lo, err) ||
	    !show_num(item, "at_most", what, &it->hi, &it->has_hi, err))
		return false;
	if (has_within && !(it->within >= 1)) {
		err_set(err, yt_get(item, "within")->mark, "%s.within: %g (expected a factor >= 1)",
			what, it->within);
		return false;
	}
	if (has_within && (!it->pub_num || it->pub == 0)) {
		err_set(err, yt_get(item, "within")->mark, "%s.within: the published figure '%s' is "
			"not a non-zero number (expected at_least or at_most instead)", what,
			it->published);
		return false;
	}
	if (!has_within && !it->has_lo && !it->has_hi) {
		if (!it->pub_num || it->pub == 0) {
			err_set(err, item->mark, "%s: nothing to judge '%s' by (expected within, "
				"at_least or at_most)", what, it->published);
			return false;
		}
		it->within = SHOW_DEFAULT_WITHIN;
	}
	return true;
}

static bool show_load_one(const struct yt_node *item, const char *what, const struct hl_set *hs,
			  struct show_item *it, struct c2c_err *err)
{
	static const char *const keys[] = {"figure", "value", "test", "published", "within",
					   "at_least", "at_most", "as", "gap", NULL};
	static const char *const as_names[] = {"number", "percent", NULL};
	const struct yt_node *k, *pub;
	char why[128];
	double v;
	int as = 0;

	if (!yt_expect_map(item, what, keys, err) ||
	    !(k = yt_require(item, "figure", what, err)) || !yt_str(k, "figure", &it->figure, err) ||
	    !(pub = yt_require(item, "published", what, err)) ||
	    !yt_str(pub, "published", &it->published, err) ||
	    ((k = yt_get(item, "value")) && !yt_str(k, "value", &it->expr, err)) ||
	    ((k = yt_get(item, "test")) && !yt_str(k, "test", &it->test, err)) ||
	    ((k = yt_get(item, "gap")) && !yt_str(k, "gap", &it->gap, err)) ||
	    ((k = yt_get(item, "as")) && !yt_enum(k, "as", as_names, &as, err)))
		return false;
	it->mark = item->mark;
	it->percent = as == 1;
	it->pub_num = num_of(pub, &it->pub);
	if (!it->expr == !it->test) {
		err_set(err, item->mark, "%s: %s (expected one of value: EXPR or test: NAME)", what,
			it->expr ? "both value and test" : "neither value nor test");
		return false;
	}
	if (it->test)
		return true;
	if (!expect_value(it->expr, NULL, hs, &v, NULL, why, sizeof(why))) {
		err_set(err, yt_get(item, "value")->mark, "%s.value: %s", what, why);
		return false;
	}
	return show_judgement(item, what, it, err);
}

bool show_load(const struct yt_node *headline, const struct hl_set *hs, struct show_set *ss,
	       struct c2c_err *err)
{
	uint32_t n = 0;

	*ss = (struct show_set){0};
	if (!headline || headline->kind != YT_SEQ || headline->len != hs->nr)
		return true;
	for (size_t i = 0; i < headline->len; i++) {
		const struct yt_node *seq = yt_get(headline->items[i], "show");

		if (seq && !yt_expect_seq(seq, "show", err))
			return false;
		n += seq ? (uint32_t)seq->len : 0;
	}
	ss->v = g_new0(struct show_item, n ? n : 1);
	for (size_t i = 0; i < headline->len; i++) {
		const struct yt_node *seq = yt_get(headline->items[i], "show");

		for (size_t j = 0; seq && j < seq->len; j++) {
			g_autofree char *what = g_strdup_printf("headline[%zu].show[%zu]", i, j);
			struct show_item *it = &ss->v[ss->nr];

			*it = (struct show_item){.metric = hs->v[i].id};
			if (!show_load_one(seq->items[j], what, hs, it, err)) {
				show_set_free(ss);
				return false;
			}
			ss->nr++;
		}
	}
	return true;
}

void show_set_free(struct show_set *ss)
{
	g_free(ss->v);
	*ss = (struct show_set){0};
}

/* ------------------------------------------------------------------ judging */

static bool within(double v, double pub, double f)
{
	double r = v / pub;

	return v != 0 && (v > 0) == (pub > 0) && r <= f && r >= 1 / f;
}

void show_eval(const struct show_item *it, const struct msummary *s, struct show_result *res)
{
	bool missing = false, ok;

	*res = (struct show_result){0};
	if (it->test) {
		res->status = SHOW_BY_TEST;
		return;
	}
	if (!expect_value(it->expr, s, NULL, &res->value, &missing, res->why, sizeof(res->why))) {
		res->status = SHOW_UNMEASURED;
		return;
	}
	ok = !isnan(res->value);
	if (it->within > 0)
		ok = ok && within(res->value, it->pub, it->within);
	if (it->has_lo)
		ok = ok && res->value >= it->lo;
	if (it->has_hi)
		ok = ok && res->value <= it->hi;
	res->status = ok ? SHOW_HOLDS : SHOW_FAILS;
}

bool show_agrees(const struct show_item *it, const struct show_result *res)
{
	if (res->status == SHOW_BY_TEST)
		return true;
	return (res->status == SHOW_HOLDS) == !it->gap;
}

/* ------------------------------------------------------------------ tables */

/* A figure as the tables show it: a signed percentage, or metric_fmt's form. */
static const char *show_fmt(char *buf, size_t n, double x, bool percent)
{
	if (!isfinite(x))
		return g_strlcpy(buf, x > 0 ? "inf" : "-inf", n), buf;
	if (percent)
		return g_snprintf(buf, n, "%+.1f%%", x * 100), buf;
	return metric_fmt(buf, n, x);
}

/* Markdown cell text: no '|' or newline. */
static void cell(GString *out, const char *s)
{
	g_string_append(out, "| ");
	for (; *s; s++)
		g_string_append_c(out, *s == '|' ? '/' : *s == '\n' ? ' ' : *s);
	g_string_append_c(out, ' ');
}

static void cell_published(GString *out, const struct show_item *it)
{
	char b[48];

	cell(out, it->pub_num && it->percent ? show_fmt(b, sizeof(b), it->pub, true)
					     : it->published);
}

static void cell_judged(GString *out, const struct show_item *it)
{
	g_autoptr(GString) s = g_string_new(NULL);
	char b[48];

	if (it->within > 0)
		g_string_append_printf(s, "same sign, within %s×", metric_fmt(b, sizeof(b),
									       it->within));
	if (it->has_lo)
		g_string_append_printf(s, "%s≥ %s", s->len ? "; " : "",
				       show_fmt(b, sizeof(b), it->lo, it->percent));
	if (it->has_hi)
		g_string_append_printf(s, "%s≤ %s", s->len ? "; " : "",
				       show_fmt(b, sizeof(b), it->hi, it->percent));
	cell(out, it->test ? "its test" : s->str);
}

static void cell_holds(GString *out, const struct show_item *it, const struct show_result *r)
{
	g_autofree char *t = NULL;

	switch (r->status) {
	case SHOW_BY_TEST: t = g_strdup_printf("checked by %s", it->test); break;
	case SHOW_HOLDS: t = g_strdup(it->gap ? "yes (**declared a gap**)" : "yes"); break;
	case SHOW_UNMEASURED: t = g_strdup_printf("**not measured** (%s)", r->why); break;
	default: t = g_strdup(it->gap ? "**no** (known gap)" : "**no** (not declared a gap)");
	}
	cell(out, t);
}

static void cell_value(GString *out, const struct show_item *it, const struct show_result *r)
{
	char b[48];

	cell(out, r->status == SHOW_HOLDS || r->status == SHOW_FAILS
			  ? show_fmt(b, sizeof(b), r->value, it->percent) : "–");
}

static void cell_ratio(GString *out, const struct show_item *it, const struct show_result *r)
{
	char b[48];
	bool measured = r->status == SHOW_HOLDS || r->status == SHOW_FAILS;

	if (measured && it->pub_num && it->pub != 0 && isfinite(r->value))
		g_snprintf(b, sizeof(b), "%.2f", r->value / it->pub);
	cell(out, measured && it->pub_num && it->pub != 0 && isfinite(r->value) ? b : "–");
}

void show_tables(const struct show_doc *docs, uint32_t nr, GString *table, GString *gaps)
{
	g_string_append(table, "| seed | Show item | published | simulated | sim/pub | judged by "
			"| holds? |\n|---|---|---|---|---|---|---|\n");
	g_string_append(gaps, "| seed | Show item | published | simulated | why |\n"
			"|---|---|---|---|---|\n");
	for (uint32_t d = 0; d < nr; d++) {
		for (uint32_t i = 0; i < docs[d].ss->nr; i++) {
			const struct show_item *it = &docs[d].ss->v[i];
			const struct show_result *r = &docs[d].res[i];

			cell(table, docs[d].seed);
			cell(table, it->figure);
			cell_published(table, it);
			cell_value(table, it, r);
			cell_ratio(table, it, r);
			cell_judged(table, it);
			cell_holds(table, it, r);
			g_string_append(table, "|\n");
			if (r->status == SHOW_HOLDS || r->status == SHOW_BY_TEST)
				continue;
			cell(gaps, docs[d].seed);
			cell(gaps, it->figure);
			cell_published(gaps, it);
			cell_value(gaps, it, r);
			cell(gaps, it->gap ? it->gap : "**not declared a gap**");
			g_string_append(gaps, "|\n");
		}
	}
}
