/* layout_suggest.c - the layout search of `c2csim layout suggest`; see layout_suggest.h. */
#include "layout_suggest.h"

#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "layout/layout_check.h"
#include "layout/layout_edit.h"
#include "layout/layout_lib.h"
#include "layout/layout_show.h"
#include "mem/mem.h"
#include "report/report.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

#define LINE 64

enum metric { M_THROUGHPUT, M_HITM };

static const char *const metric_names[] = {"throughput", "hitm", NULL};
static const char *const metric_units[] = {"ops/s", "HITMs per 1000 iterations"};
/* Digits after the point each metric is printed with. */
static const int metric_digits[] = {0, 2};

/* One layout tried. */
struct cand {
	struct ledits e;
	struct layout *l;      /* its recomputed layout (NULL for today's) */
	double value;
	uint32_t order;        /* when it ran: ties go to the earlier */
};

struct search {
	const struct suggest_opts *o;
	enum metric metric;
	struct scenario *sc;   /* today's variant, loaded once */
	const struct variant *v;
	const struct layout *today;
	uint64_t size_limit;   /* 0: none */
	GHashTable *seen;      /* layout_fields text of every layout considered */
	GPtrArray *ran;        /* struct cand *, in run order (owned) */
	GPtrArray *hot;        /* member names, hottest first (not owned) */
	uint32_t runs, skip_size, skip_assert, skip_same, skip_bad;
	struct c2c_err *err;
};

/* ------------------------------------------------------------------ metrics */

/* Traffic of the line at @addr that a layout change can remove. */
static uint64_t line_traffic(const struct mem *m, uint64_t addr)
{
	uint32_t l = mem_line(m, addr);
	const uint64_t *c;

	if (l == DIR_NONE)
		return 0;
	c = stats_line(m, l);
	return c[LS_HITM_LCL] + c[LS_HITM_RMT] + c[LS_ST_RFO_HITM] + c[LS_PF_CAUSED_HITM];
}

static uint64_t line_hitm(const struct mem *m, uint64_t addr)
{
	uint32_t l = mem_line(m, addr);

	if (l == DIR_NONE)
		return 0;
	return stats_line(m, l)[LS_HITM_LCL] + stats_line(m, l)[LS_HITM_RMT] +
	       stats_line(m, l)[LS_PF_HITM];
}

static bool is_struct(const struct obj *ob, const char *name)
{
	return ob->type && !strcmp(ob->type, name);
}

static double metric_of(const struct search *s, const struct run_result *r)
{
	uint64_t hitm = 0, iters = report_iterations(r);

	if (s->metric == M_THROUGHPUT)
		return (double)report_ops_per_sec(iters, r->sim_time);
	for (uint32_t i = 0; i < r->objs->nr; i++) {
		const struct obj *ob = &r->objs->v[i];

		if (is_struct(ob, s->o->strct))
			for (uint64_t a = ob->base / LINE * LINE; a < ob->base + ob->size; a += LINE)
				hitm += line_hitm(r->mem, a);
	}
	/* Per iteration: a faster layout must not look worse for doing more work. */
	return iters ? 1000.0 * (double)hitm / (double)iters : 0;
}

/* Is @a better than @b? */
static bool better(const struct search *s, double a, double b)
{
	return s->metric == M_THROUGHPUT ? a > b : a < b;
}

static double change_pct(double from, double to)
{
	return from ? 100.0 * (to - from) / from : 0;
}

/* ------------------------------------------------------------------ running */

/* Load the scenario's variant with @e as its edit list of the struct (NULL: as it is) and run
 * it.  Return: false with @err set. */
static bool run_once(const struct search *s, const char *variant, const struct ledits *e,
		     double *value, struct c2c_err *err)
{
	g_autofree char *key = g_strdup_printf("layout_edits.%s", s->o->strct);
	g_autofree char *yaml = e ? ledits_to_yaml(e) : NULL;
	struct override ov = {key, yaml};
	const char *only[] = {variant, NULL};
	struct scenario *sc = scenario_load_only(s->o->scenario, &ov, e ? 1 : 0, false, 0, only,
						 NULL, err);
	struct run_result *r = sc ? run_variant(sc, 0, false, err) : NULL;

	if (r)
		*value = metric_of(s, r);
	run_result_free(r);
	scenario_free(sc);
	return r != NULL;
}

/* Run @n candidates, @jobs at a time in child processes; each child writes its metric or
 * its error down a pipe.  Results land in the candidates in order. */
static bool run_batch(struct search *s, struct cand **c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i += s->o->jobs) {
		uint32_t k = MIN(s->o->jobs, n - i);
		int fd[64];
		pid_t pid[64];

		fflush(stdout);
		for (uint32_t j = 0; j < k; j++) {
			int p[2];

			if (pipe(p) || (pid[j] = fork()) < 0) {
				err_setf(s->err, "layout suggest: cannot start a run: %s",
					 g_strerror(errno));
				return false;
			}
			if (!pid[j]) {
				struct c2c_err e = {0};
				double v = 0;
				g_autofree char *msg = NULL;

				close(p[0]);
				msg = run_once(s, s->v->name, &c[i + j]->e, &v, &e)
				      ? g_strdup_printf("ok %.17g", v) : g_strdup_printf("error %s", e.msg);
				_exit(write(p[1], msg, strlen(msg)) == (ssize_t)strlen(msg) ? 0 : 3);
			}
			close(p[1]);
			fd[j] = p[0];
		}
		for (uint32_t j = 0; j < k; j++) {
			char buf[C2C_ERR_MAX + 16] = {0};
			ssize_t got = read(fd[j], buf, sizeof(buf) - 1), all = got;

			while (got > 0 && all < (ssize_t)sizeof(buf) - 1 &&
			       (got = read(fd[j], buf + all, sizeof(buf) - 1 - (size_t)all)) > 0)
				all += got;
			close(fd[j]);
			waitpid(pid[j], NULL, 0);
			if (strncmp(buf, "ok ", 3)) {
				err_setf(s->err, "layout suggest: %s", *buf ? buf + 6 : "a run died");
				return false;
			}
			c[i + j]->value = g_ascii_strtod(buf + 3, NULL);
			c[i + j]->order = s->runs++;
			g_ptr_array_add(s->ran, c[i + j]);
			c[i + j] = NULL;
		}
	}
	return true;
}

/* ------------------------------------------------------------------ candidates */

static void cand_free(struct cand *c)
{
	if (!c)
		return;
	ledits_release(&c->e);
	layout_free(c->l);
	g_free(c);
}

static char *fields_text(struct layout_lib *lib, const struct layout *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	layout_fields(f, lib, l);
	fclose(f);
	return text;
}

static bool asserts_hold(struct layout_lib *lib, const struct layout *l)
{
	for (uint32_t i = 0; i < l->nr_asserts; i++) {
		g_autoptr(GString) fail = g_string_new(NULL);
		struct c2c_err e = {0};

		if (layout_check_one(lib, l, &l->asserts[i], 0, fail, &e) != 1)
			return false;
	}
	return true;
}

/* @base plus @d, when its layout is new, within the size limit and keeps the assertions. */
static struct cand *propose(struct search *s, const struct ledits *base, const struct ledit *d)
{
	struct cand *c = g_new0(struct cand, 1);
	struct c2c_err e = {0};
	char *key;

	ledits_init(&c->e);
	for (guint i = 0; i < base->v->len; i++)
		ledits_push(&c->e, &g_array_index(base->v, struct ledit, i));
	ledits_push(&c->e, d);
	if (!(c->l = layout_edit(s->v->lib, s->today, &c->e, &e))) {
		s->skip_bad++;
	} else if (s->size_limit && c->l->size > s->size_limit) {
		s->skip_size++;
	} else if (!asserts_hold(s->v->lib, c->l)) {
		s->skip_assert++;
	} else if (g_hash_table_contains(s->seen, key = fields_text(s->v->lib, c->l))) {
		free(key);
		s->skip_same++;
	} else {
		g_hash_table_add(s->seen, key);
		return c;
	}
	cand_free(c);
	return NULL;
}

/* The top-level member after @name in @l, or NULL. */
static const char *next_member(const struct layout *l, const char *name)
{
	for (uint32_t i = 0; i + 1 < l->nr; i++)
		if (l->m[i].name && !strcmp(l->m[i].name, name))
			return l->m[i + 1].name;
	return NULL;
}

/* This round's candidates from the best list so far (@best, its layout @bl). */
static GPtrArray *round_candidates(struct search *s, const struct ledits *best,
				   const struct layout *bl)
{
	GPtrArray *out = g_ptr_array_new();
	const char *first = bl->m[0].name, *last = bl->m[bl->nr - 1].name;

	for (guint i = 0; i < s->hot->len; i++) {
		char *x = s->hot->pdata[i];
		const char *nx = next_member(bl, x);
		struct ledit d[] = {
			{.kind = LE_PAD, .member = x, .to = 64},
			{.kind = LE_PAD, .member = (char *)nx, .to = 64},
			{.kind = LE_PAD, .member = x, .to = 128},
			{.kind = LE_MOVE, .member = x, .ref = (char *)first, .before = true},
			{.kind = LE_MOVE, .member = x, .ref = (char *)last},
		};

		for (size_t j = 0; j < G_N_ELEMENTS(d); j++) {
			struct cand *c;

			if (!d[j].member || (d[j].kind == LE_MOVE && (!d[j].ref || !strcmp(d[j].ref, x))))
				continue;
			d[j].mark = (struct c2c_mark){"layout suggest", 1, 1};
			if ((c = propose(s, best, &d[j])))
				g_ptr_array_add(out, c);
		}
	}
	return out;
}

/* Rank the struct's named top-level members by the traffic of their lines in today's run
 * (members without traffic are left out, unless no member has any). */
static bool rank_members(struct search *s, const struct run_result *r)
{
	const struct layout *l = s->today;
	g_autofree uint64_t *heat = g_new0(uint64_t, l->nr);
	bool any = false;

	for (uint32_t i = 0; i < r->objs->nr; i++) {
		const struct obj *ob = &r->objs->v[i];

		for (uint32_t m = 0; is_struct(ob, s->o->strct) && m < l->nr; m++) {
			uint64_t lo = ob->base + l->m[m].offset;
			uint64_t hi = lo + MAX(l->m[m].size, 1);

			for (uint64_t a = lo / LINE * LINE; a < hi; a += LINE)
				heat[m] += line_traffic(r->mem, a);
		}
	}
	for (uint32_t m = 0; m < l->nr; m++)
		any = any || heat[m];
	for (uint64_t round = 0; round < l->nr; round++) {
		uint32_t top = l->nr;

		for (uint32_t m = 0; m < l->nr; m++)
			if (heat[m] != UINT64_MAX && l->m[m].name && l->m[m].kind != LM_PAD &&
			    (top == l->nr || heat[m] > heat[top]))
				top = m;
		if (top == l->nr || (any && !heat[top]))
			break;
		g_ptr_array_add(s->hot, l->m[top].name);
		heat[top] = UINT64_MAX;
	}
	return true;
}

/* ------------------------------------------------------------------ the search */

/* Today's layout, run in-process: its metric, and the members ranked by its traffic. */
static bool baseline(struct search *s)
{
	const char *only[] = {s->o->variant, NULL};
	struct run_result *r;
	struct cand *c;

	s->sc = scenario_load_only(s->o->scenario, NULL, 0, false, 0,
				   s->o->variant ? only : NULL, NULL, s->err);
	if (!s->sc)
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
	if (!(r = run_variant(s->sc, 0, false, s->err)))
		return false;
	c = g_new0(struct cand, 1);
	ledits_init(&c->e);
	c->value = metric_of(s, r);
	c->order = s->runs++;
	g_ptr_array_add(s->ran, c);
	g_hash_table_add(s->seen, fields_text(s->v->lib, s->today));
	rank_members(s, r);
	run_result_free(r);
	return true;
}

/* One round: run the candidates the budget allows (*@spent when it cut the round short).
 * Return: the round's best, or NULL (*@failed when a run failed). */
static const struct cand *one_round(struct search *s, const struct cand *best, bool *spent,
				    bool *failed, uint32_t *nr)
{
	GPtrArray *c = round_candidates(s, &best->e, best->l ? best->l : s->today);
	uint32_t n = MIN(c->len, s->o->budget - s->runs), first = s->ran->len;
	const struct cand *top = NULL;

	*spent = n < c->len;
	*nr = n;
	*failed = !run_batch(s, (struct cand **)c->pdata, n);
	for (guint i = 0; i < c->len; i++)
		cand_free(c->pdata[i]); /* run_batch took those it ran */
	g_ptr_array_free(c, TRUE);
	for (guint i = first; !*failed && i < s->ran->len; i++)
		if (!top || better(s, ((struct cand *)s->ran->pdata[i])->value, top->value))
			top = s->ran->pdata[i];
	return top;
}

static void print_edits(const struct ledits *e)
{
	g_autofree char *d = ledits_describe(e);

	printf("%s", *d ? d : "(no edits: today's layout)");
}

/* Rounds until one brings nothing better or the budget is spent.  Return: the best. */
static const struct cand *search(struct search *s, bool *failed)
{
	const struct cand *best = s->ran->pdata[0], *top;
	bool spent = s->runs >= s->o->budget;
	uint32_t round = 0, n;

	*failed = false;
	while (!spent) {
		top = one_round(s, best, &spent, failed, &n);
		if (*failed)
			return NULL;
		round++;
		printf("round %u: %u layouts run", round, n);
		if (top) {
			printf(", best %.*f %s: ", metric_digits[s->metric], top->value,
			       metric_units[s->metric]);
			print_edits(&top->e);
		}
		printf("\n");
		if (!top) {
			printf("stopped after round %u: every layout one edit away was tried or "
			       "skipped\n", round);
			return best;
		}
		if (!better(s, top->value, best->value)) {
			printf("stopped after round %u: no layout of this round beats the best so far "
			       "(a local optimum of these edits)\n", round);
			return best;
		}
		best = top;
	}
	printf("stopped: the budget of %u runs is spent\n", s->o->budget);
	return best;
}

/* ------------------------------------------------------------------ the report */

static const char *verdict(const struct search *s, double today, double v)
{
	double pct = change_pct(today, v);

	if (fabs(pct) < SUGGEST_SAME_PCT)
		return "same";
	return better(s, v, today) ? "better" : "worse";
}

static int by_value(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct cand *x = *(struct cand *const *)a, *y = *(struct cand *const *)b;

	if (better(data, x->value, y->value))
		return -1;
	if (better(data, y->value, x->value))
		return 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void print_one(struct search *s, const struct cand *c, int rank, double today)
{
	printf("\n#%d: ", rank);
	print_edits(&c->e);
	printf("\n    %s: today's %.*f %s, this layout %.*f %s (%+.1f%%, %s); size %" PRIu64
	       " -> %" PRIu64 "\n", metric_names[s->metric], metric_digits[s->metric], today,
	       metric_units[s->metric], metric_digits[s->metric], c->value, metric_units[s->metric], change_pct(today, c->value),
	       verdict(s, today, c->value), s->today->size, c->l ? c->l->size : s->today->size);
	if (!c->l)
		return;
	printf("    layout diff (members that change line or pair, placement 0):\n");
	layout_print_diff(stdout, s->v->lib, s->today, s->v->lib, c->l, 0);
	if (rank == 1)
		layout_print_c(stdout, c->l);
}

static void report(struct search *s, const struct cand *best, double compare)
{
	double today = ((struct cand *)s->ran->pdata[0])->value;
	g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new(s->ran->len); /* not owning */

	printf("tried %u layouts, one run each, today's included; not run: %u larger than the "
	       "size limit, %u breaking an assertion, %u equal to one tried, %u that cannot be "
	       "laid out\n", s->runs, s->skip_size, s->skip_assert, s->skip_same, s->skip_bad);
	for (guint i = 0; i < s->ran->len; i++)
		g_ptr_array_add(sorted, s->ran->pdata[i]);
	g_ptr_array_sort_with_data(sorted, by_value, s);
	for (guint i = 0; i < sorted->len && i < SUGGEST_SHOW; i++)
		print_one(s, sorted->pdata[i], (int)i + 1, today);
	if (s->o->compare)
		printf("\nvariant %s: %.*f %s; the best layout gets %+.1f%% of the way from today's "
		       "(%.*f) to it\n", s->o->compare, metric_digits[s->metric], compare,
		       metric_units[s->metric],
		       compare != today ? 100.0 * (best->value - today) / (compare - today) : 0.0,
		       metric_digits[s->metric], today);
}

int layout_suggest(const struct suggest_opts *o, struct c2c_err *err)
{
	struct search s = {.o = o, .err = err, .ran = g_ptr_array_new_with_free_func(
				   (GDestroyNotify)cand_free), .hot = g_ptr_array_new(),
			   .seen = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL)};
	const struct cand *best = NULL;
	double compare = 0;
	int status = 2;
	bool failed = false;

	if (o->metric && strcmp(o->metric, "throughput") && strcmp(o->metric, "hitm")) {
		err_setf(err, "layout suggest: --metric '%s' (expected throughput or hitm)", o->metric);
	} else if ((s.metric = o->metric && !strcmp(o->metric, "hitm") ? M_HITM : M_THROUGHPUT,
		    baseline(&s))) {
		s.size_limit = o->keep_size ? s.today->size : o->max_size;
		printf("layout suggest: struct %s in %s, variant %s; metric %s (%s, %s is better); "
		       "budget %u runs\n", o->strct, o->scenario, s.v->name, metric_names[s.metric],
		       metric_units[s.metric], s.metric == M_THROUGHPUT ? "higher" : "lower", o->budget);
		printf("today's layout: %.*f %s; members by line traffic:", metric_digits[s.metric],
		       s.ran->len ?
		       ((struct cand *)s.ran->pdata[0])->value : 0, metric_units[s.metric]);
		for (guint i = 0; i < s.hot->len; i++)
			printf(" %s", (char *)s.hot->pdata[i]);
		printf("\n");
		best = search(&s, &failed);
		if (!failed && (!o->compare || run_once(&s, o->compare, NULL, &compare, err))) {
			report(&s, best, compare);
			status = o->out && !layout_write_file(best->l ? best->l : s.today, o->out, err) ? 2 : 0;
		} else {
			status = 1;
		}
	}
	scenario_free(s.sc);
	g_ptr_array_free(s.ran, TRUE);
	g_ptr_array_free(s.hot, TRUE);
	g_hash_table_destroy(s.seen);
	return status;
}
