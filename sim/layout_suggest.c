/* layout_suggest.c - the search of `c2csim layout suggest`: today's run, the rounds, the
 * report; see layout_suggest.h. */
#include "layout_suggest.h"

#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "layout/layout_lib.h"
#include "layout/layout_show.h"
#include "layout_suggest_int.h"
#include "report/outdir.h"
#include "report/verdict.h"

/* ------------------------------------------------------------------ candidates */

void cand_free(struct cand *c)
{
	if (!c)
		return;
	ledits_release(&c->e);
	layout_free(c->l);
	g_free(c->mv);
	g_free(c);
}

/* Tracked metric @key as a struct metric with @c's numbers (for metrics.h's verdicts). */
static struct metric metric_of(const struct search *s, const struct cand *c, uint32_t key)
{
	struct metric m = *(const struct metric *)s->keys->pdata[key];

	m.value = c->mv[key].value;
	m.per_op = c->mv[key].per_op;
	m.has_per_op = c->mv[key].has_per_op;
	return m;
}

double cand_norm(const struct search *s, const struct cand *c, uint32_t key)
{
	struct metric m = metric_of(s, c, key);

	return metric_norm(&m);
}

bool cand_better(const struct search *s, const struct cand *a, const struct cand *b)
{
	double x = cand_norm(s, a, s->obj), y = cand_norm(s, b, s->obj);

	return ((const struct metric *)s->keys->pdata[s->obj])->higher_better ? x > y : x < y;
}

/* What a tracked metric is called: a headline metric's name, or "throughput". */
static const char *name_of(const struct metric *k)
{
	return strcmp(k->key, "ops_per_sec") ? k->name : "throughput";
}

/* A metric's number as the report shows it: per 1000 iterations when it has per_op. */
static const char *shown(char *buf, size_t n, const struct search *s, const struct cand *c,
			 uint32_t key)
{
	const struct metric *k = s->keys->pdata[key];
	char num[64];

	metric_fmt(num, sizeof(num), c->mv[key].has_per_op ? 1000 * c->mv[key].per_op
							    : c->mv[key].value);
	snprintf(buf, n, "%s %s%s", num, k->unit, c->mv[key].has_per_op ? " per 1k ops" : "");
	return buf;
}

/* ------------------------------------------------------------------ today */

/* Members with line traffic, hottest first (ties: layout order); none have any: all. */
static void rank_members(struct search *s)
{
	const struct layout *l = s->today;
	g_autofree bool *taken = g_new0(bool, l->nr);
	bool any = false;

	for (uint32_t m = 0; m < l->nr; m++)
		any = any || s->prof[m].heat;
	for (uint32_t round = 0; round < l->nr; round++) {
		uint32_t top = l->nr;

		for (uint32_t m = 0; m < l->nr; m++)
			if (!taken[m] && l->m[m].name && l->m[m].kind != LM_PAD &&
			    (top == l->nr || s->prof[m].heat > s->prof[top].heat))
				top = m;
		if (top == l->nr || (any && !s->prof[top].heat))
			break;
		g_ptr_array_add(s->hot, l->m[top].name);
		taken[top] = true;
	}
}

/* Today's layout, run in-process: its metrics (from the summary it writes) and profile. */
static bool baseline(struct search *s)
{
	const char *only[] = {s->o->variant, NULL};
	struct run_result *r;
	struct cand *c;
	bool ok;

	if (!suggest_check_compare(s) || !suggest_overrides(s, s->o->scenario) ||
	    !(s->sc = scenario_load_only(s->o->scenario, s->ov, s->nr_ov, false, 0,
					 s->o->variant ? only : NULL, NULL, s->err)))
		return false;
	s->v = &s->sc->v[0];
	if (!(s->today = layout_lib_get(s->v->lib, s->o->strct,
					(struct c2c_mark){"<command-line>", 1, 1}, s->err)))
		return false;
	if (yt_get(yt_get(s->v->tree, "layout_edits"), s->o->strct)) {
		err_setf(s->err, "layout suggest: variant %s already edits struct %s (expected a "
			 "variant with today's layout)", s->v->name, s->o->strct);
		return false;
	}
	/* The profile reads every line's Pareto rows, private ones too (a member one CPU writes
	 * is as hot as any); the headline figures do not depend on it (track.c). */
	s->sc->track_all_lines = true;
	if (!(r = run_variant(s->sc, 0, false, s->err)))
		return false;
	ok = verdict_summary(s->sc, &r, 1, &s->base, s->err) && suggest_metrics(s) &&
	     suggest_profile(s, r);
	if (ok) {
		c = g_new0(struct cand, 1);
		ledits_init(&c->e);
		suggest_read_metrics(s, &s->base, s->v->name, c);
		c->order = s->runs++;
		g_ptr_array_add(s->ran, c);
		g_hash_table_add(s->seen, suggest_fields_text(s->v->lib, s->today));
		rank_members(s);
	}
	run_result_free(r);
	return ok;
}

/* ------------------------------------------------------------------ the search */

static void print_edits(const struct ledits *e)
{
	g_autofree char *d = ledits_describe(e);

	printf("%s", *d ? d : "(no edits: today's layout)");
}

/* One round: run the candidates the budget allows (*@spent when it cut the round short).
 * Return: the round's best, or NULL (*@failed when a run failed). */
static const struct cand *one_round(struct search *s, const struct cand *best, bool *spent,
				    bool *failed, uint32_t *nr)
{
	GPtrArray *c = suggest_candidates(s, &best->e, best->l ? best->l : s->today);
	uint32_t n = MIN(c->len, s->o->budget - s->runs);
	const struct cand *top = NULL;

	*spent = n < c->len || s->runs + n >= s->o->budget;
	*nr = n;
	*failed = n && !suggest_run(s, (struct cand **)c->pdata, n, NULL);
	for (guint i = 0; i < c->len; i++) {
		struct cand *x = c->pdata[i];

		if (i < n && !*failed) {
			x->order = s->runs++;
			g_ptr_array_add(s->ran, x);
			if (!top || cand_better(s, x, top))
				top = x;
		} else {
			cand_free(x);
		}
	}
	g_ptr_array_free(c, TRUE);
	return top;
}

/* Rounds until one brings nothing better or the budget is spent.  Return: the best. */
static const struct cand *search(struct search *s, bool *failed)
{
	const struct cand *best = s->ran->pdata[0], *top;
	bool spent = s->runs >= s->o->budget;
	uint32_t round = 0, n;
	char buf[96];

	*failed = false;
	while (!spent) {
		top = one_round(s, best, &spent, failed, &n);
		if (*failed)
			return NULL;
		printf("round %u: %u layouts run", ++round, n);
		if (top) {
			printf(", best %s: ", shown(buf, sizeof(buf), s, top, s->obj));
			print_edits(&top->e);
		}
		printf("\n");
		if (!top) {
			printf("stopped after round %u: every layout one step away was tried or "
			       "breaks a rule\n", round);
			return best;
		}
		if (!cand_better(s, top, best)) {
			printf("stopped after round %u: no layout of this round beats the best so far "
			       "(a local optimum of these steps)\n", round);
			return best;
		}
		best = top;
	}
	printf("stopped: the budget of %u runs is spent\n", s->o->budget);
	return best;
}

/* ------------------------------------------------------------------ the report */

static int by_value(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct cand *x = *(struct cand *const *)a, *y = *(struct cand *const *)b;

	if (cand_better(data, x, y))
		return -1;
	if (cand_better(data, y, x))
		return 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Each tracked metric of @c against @ref (named @what), the optimised one first. */
static void print_verdicts(const struct search *s, const struct cand *ref, const struct cand *c,
			   const char *what)
{
	for (guint n = 0; n < s->keys->len; n++) {
		uint32_t k = n ? n - (n <= s->obj) : s->obj;
		struct metric a = metric_of(s, ref, k), b = metric_of(s, c, k);
		char x[96], y[96], v[64];
		enum verdict vd;
		double pct;

		if (!ref->mv[k].present || !c->mv[k].present)
			continue;
		vd = verdict_of(&a, &b, SUGGEST_SAME_PCT, &pct);
		verdict_text(v, sizeof(v), vd, pct);
		printf("    %s%s: %s %s, this layout %s: %s\n", name_of(&a), k == s->obj ? " (optimised)"
		       : "", what, shown(x, sizeof(x), s, ref, k), shown(y, sizeof(y), s, c, k), v);
	}
}

static void print_one(struct search *s, const struct cand *c, int rank)
{
	printf("\n#%d: ", rank);
	print_edits(&c->e);
	printf("\n    size %" PRIu64 " -> %" PRIu64 "\n", s->today->size,
	       c->l ? c->l->size : s->today->size);
	print_verdicts(s, s->ran->pdata[0], c, "today's");
	if (!c->l)
		return;
	printf("    layout diff (members that change line or pair, placement 0):\n");
	layout_print_diff(stdout, s->v->lib, s->today, s->v->lib, c->l, 0);
	layout_print_c(stdout, c->l);
}

/* --compare: run those variants, and say how far the best layout gets towards each. */
static bool compare(struct search *s, const struct cand *best)
{
	const struct cand *today = s->ran->pdata[0];
	uint32_t n = g_strv_length((char **)s->o->compare);
	g_autofree struct cand **c = g_new0(struct cand *, n);
	bool ok;

	for (uint32_t i = 0; i < n; i++)
		c[i] = g_new0(struct cand, 1), ledits_init(&c[i]->e);
	ok = suggest_run(s, c, n, s->o->compare);
	for (uint32_t i = 0; ok && i < n; i++) {
		double t = cand_norm(s, today, s->obj), v = cand_norm(s, c[i], s->obj), pct;
		struct metric a = metric_of(s, c[i], s->obj), b = metric_of(s, best, s->obj);
		enum verdict vd = verdict_of(&a, &b, SUGGEST_SAME_PCT, &pct);
		char buf[96];

		printf("\nvariant %s: %s; the best layout is %s it", s->o->compare[i],
		       shown(buf, sizeof(buf), s, c[i], s->obj), vd == VERDICT_BETTER ? "better than"
		       : vd == VERDICT_WORSE ? "worse than" : "as good as");
		if (cand_better(s, c[i], today))
			printf(" and gets %.1f%% of the way from today's layout to it",
			       100.0 * (cand_norm(s, best, s->obj) - t) / (v - t));
		else
			printf(" (the variant is not better than today's layout)");
		printf("\n");
		print_verdicts(s, c[i], best, "the variant");
	}
	for (uint32_t i = 0; i < n; i++)
		cand_free(c[i]);
	return ok;
}

static void report(struct search *s)
{
	g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new(s->ran->len); /* not owning */

	printf("tried %u layouts, one run each, today's included; not run: %u larger than the "
	       "size limit, %u breaking an assertion, %u breaking a cacheline group, %u equal to "
	       "one tried, %u that cannot be laid out\n", s->runs, s->skip_size, s->skip_assert,
	       s->skip_group, s->skip_same, s->skip_bad);
	for (guint i = 0; i < s->ran->len; i++)
		g_ptr_array_add(sorted, s->ran->pdata[i]);
	g_ptr_array_sort_with_data(sorted, by_value, s);
	for (guint i = 0; i < sorted->len && i < SUGGEST_SHOW; i++)
		print_one(s, sorted->pdata[i], (int)i + 1);
}

static void print_head(const struct search *s)
{
	const struct metric *k = s->keys->pdata[s->obj];
	char buf[96];

	printf("layout suggest: struct %s in %s, variant %s; metric %s (%s, %s is better); "
	       "budget %u runs\n", s->o->strct, s->o->scenario, s->v->name, name_of(k),
	       k->unit, k->higher_better ? "higher" : "lower", s->o->budget);
	printf("today's layout: %s; members by line traffic:",
	       shown(buf, sizeof(buf), s, s->ran->pdata[0], s->obj));
	for (guint i = 0; i < s->hot->len; i++)
		printf(" %s", (char *)s->hot->pdata[i]);
	printf("\n");
	suggest_print_profile(s);
}

static int suggest(struct search *s)
{
	const struct cand *best;
	bool failed;

	if (!baseline(s))
		return 2;
	s->size_limit = s->o->keep_size ? s->today->size : s->o->max_size;
	print_head(s);
	best = search(s, &failed);
	if (failed)
		return 1;
	report(s);
	if (s->o->compare && !compare(s, best))
		return 1;
	if (s->o->out && !layout_write_file(best->l ? best->l : s->today, s->o->out, s->err))
		return 2;
	return 0;
}

int layout_suggest(const struct suggest_opts *o, struct c2c_err *err)
{
	g_autoptr(GError) gerr = NULL;
	struct search s = {.o = o, .err = err, .ran = g_ptr_array_new_with_free_func(
				   (GDestroyNotify)cand_free), .hot = g_ptr_array_new(),
			   .keys = g_ptr_array_new(),
			   .seen = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL)};
	int status = 2;

	if (!(s.tmp = g_dir_make_tmp("c2csim-suggest-XXXXXX", &gerr))) {
		err_setf(err, "layout suggest: cannot make a directory for the runs: %s",
			 gerr->message);
	} else {
		status = suggest(&s);
		/* A failed run's log names its place: keep them then. */
		if (status == 1)
			fprintf(stderr, "layout suggest: the runs are kept in %s\n", s.tmp);
		else
			outdir_rm_tree(s.tmp);
	}
	fflush(stdout);
	if (s.prof)
		suggest_profile_free(&s);
	scenario_free(s.sc);
	msummary_free(&s.base);
	g_ptr_array_free(s.ran, TRUE);
	g_ptr_array_free(s.hot, TRUE);
	g_ptr_array_free(s.keys, TRUE);
	g_hash_table_destroy(s.seen);
	g_free(s.ov_text);
	g_free(s.tmp);
	return status;
}
