/*
 * layout_suggest_int.h - what the parts of `c2csim layout suggest` share: the search state,
 * the candidates, the member profile of today's run.  layout_suggest.c drives the rounds and
 * prints the report, layout_suggest_gen.c profiles today's run and proposes candidates,
 * layout_suggest_eval.c runs candidates through the sweep machinery and reads their metrics.
 */
#ifndef C2C_LAYOUT_SUGGEST_INT_H
#define C2C_LAYOUT_SUGGEST_INT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "layout/layout_edit.h"
#include "layout_suggest.h"
#include "report/metrics.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

/* A member is read-mostly when it has at least this many demand loads per demand store. */
#define SUGGEST_READ_MOSTLY 100

/* One metric of one run, as its summary.yaml says (metrics.h). */
struct mval {
	double value, per_op;
	bool has_per_op, present;
};

/* One layout tried. */
struct cand {
	struct ledits e;
	struct layout *l;      /* its recomputed layout (NULL for today's) */
	struct mval *mv;       /* per tracked metric (search.keys) */
	uint32_t order;        /* when it ran: ties go to the earlier */
};

/* What today's run says about one top-level member of the struct, over all its objects. */
struct mprof {
	uint64_t loads, stores, rmw;  /* rmw: stores by code sites that also load the byte */
	uint64_t hitm;          /* HITMs of loads and RFOs on its bytes, and prefetch-caused ones */
	uint64_t heat;          /* coherence traffic of the lines it sits on */
	uint32_t nr_readers, nr_writers;   /* CPUs */
	GPtrArray *read_by;     /* functions whose loads read it (sorted, unique, owned) */
	GPtrArray *written_by;  /* functions whose stores write it (the same) */
	bool read_mostly, hot_write;
};

struct search {
	const struct suggest_opts *o;
	struct scenario *sc;   /* today's variant, loaded once */
	const struct variant *v;
	const struct layout *today;
	uint64_t size_limit;   /* 0: none */
	GHashTable *seen;      /* layout_fields text of every layout considered */
	GPtrArray *ran;        /* struct cand *, in run order (owned) */
	GPtrArray *hot;        /* member names, by line traffic (not owned) */
	struct mprof *prof;    /* per member of @today */
	struct override ov[1]; /* the overrides every run takes (the hitm metric's headline) */
	uint32_t nr_ov;
	char *ov_text;
	/* The metrics: those of today's summary that are tracked, the optimised one @obj. */
	struct msummary base;  /* today's run, read back from its summary (owns the keys) */
	GPtrArray *keys;       /* const struct metric * of base (not owned) */
	uint32_t obj;
	char *tmp;             /* the sweep directories of the rounds */
	uint32_t runs, batches, skip_size, skip_assert, skip_group, skip_same, skip_bad;
	struct c2c_err *err;
};

void cand_free(struct cand *c);

/* The objective metric of @c (metric_norm's number) and whether @a beats @b by it. */
double cand_norm(const struct search *s, const struct cand *c, uint32_t key);
bool cand_better(const struct search *s, const struct cand *a, const struct cand *b);

/* layout_suggest_gen.c */
/* The `layout fields` text of @l: what makes two layouts the same. */
char *suggest_fields_text(struct layout_lib *lib, const struct layout *l);
bool suggest_profile(struct search *s, const struct run_result *r);
void suggest_print_profile(const struct search *s);
void suggest_profile_free(struct search *s);
/* The candidates one step from @best (layout @bl), new and within every rule. */
GPtrArray *suggest_candidates(struct search *s, const struct ledits *best,
			      const struct layout *bl);

/* layout_suggest_eval.c */
/* Pick the metric (--metric) and the tracked ones from today's summary.  Return: false
 * with s->err set. */
bool suggest_metrics(struct search *s);
/* The override the `hitm` metric needs (a headline metric of the struct's HITMs), or none:
 * set before any run.  Return: false with s->err set. */
bool suggest_overrides(struct search *s, const char *path);
/* Is every --compare a variant of the scenario?  Return: false with s->err set. */
bool suggest_check_compare(const struct search *s);
/* Fill @c's metrics from the summary @sum, variant @variant. */
void suggest_read_metrics(const struct search *s, const struct msummary *sum,
			  const char *variant, struct cand *c);
/* Run @c[0..n) (edit lists of the struct on today's variant), or with @variants (and @c
 * without edits) those variants, through one sweep.  Return: false with s->err set. */
bool suggest_run(struct search *s, struct cand **c, uint32_t n, const char *const *variants);

#endif
