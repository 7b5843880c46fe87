/*
 * cli_variants.c - run a scenario's variants, several at a time.
 *
 * Variants are independent simulations (each has its own memory system, world and event
 * queue, and reads the loaded scenario only), so they can run on parallel host threads and
 * give the same results as one after the other: each result lands at its variant's index,
 * and what is reported (the first failure, where a signal stopped) is decided in variant
 * order afterwards, as the sequential loop would.
 */
#include <glib.h>

#include "cli.h"
#include "scenario/run.h"
#include "scenario/runwatch.h"
#include "scenario/scenario.h"

struct vjobs {
	const struct scenario *sc;
	bool check;
	struct run_result **runs;
	struct c2c_err *errs;  /* per variant */
	gboolean *ran;         /* per variant: it was run (a signal skips the rest) */
	gint next;             /* the next variant to take */
};

/* Take variants in order until none is left or a signal came. */
static gpointer vworker(gpointer data)
{
	struct vjobs *j = data;

	for (;;) {
		gint i = g_atomic_int_add(&j->next, 1);

		if (i >= (gint)j->sc->nr_variants || runwatch_signal())
			return NULL;
		j->runs[i] = run_variant(j->sc, (uint32_t)i, j->check, &j->errs[i]);
		j->ran[i] = TRUE;
	}
}

/* How many variants count, in variant order: up to the first not run, or through the first
 * interrupted one (the loop stops there).  Return: that count, or -1 - i when variant i
 * failed first. */
static gint64 settle(const struct vjobs *j)
{
	uint32_t i;

	for (i = 0; i < j->sc->nr_variants && j->ran[i]; i++) {
		if (!j->runs[i])
			return -1 - (gint64)i;
		if (j->runs[i]->interrupted)
			return i + 1;
	}
	return i;
}

struct run_result **cli_run_variants(const struct scenario *sc, bool check, int jobs,
				     uint32_t *nr, struct c2c_err *err)
{
	uint32_t n = sc->nr_variants ? sc->nr_variants : 1;
	struct vjobs j = {sc, check, g_new0(struct run_result *, n), g_new0(struct c2c_err, n),
			  g_new0(gboolean, n), 0};
	GThread **t;
	gint64 got;

	if (jobs < 1 || (uint32_t)jobs > sc->nr_variants)
		jobs = sc->nr_variants ? (int)sc->nr_variants : 1;
	t = g_new0(GThread *, (size_t)jobs);
	for (int k = 1; k < jobs; k++)
		t[k] = g_thread_new("variant", vworker, &j);
	vworker(&j); /* the calling thread is one of the workers */
	for (int k = 1; k < jobs; k++)
		g_thread_join(t[k]);
	g_free(t);
	got = settle(&j);
	if (got < 0)
		*err = j.errs[-1 - got];
	for (uint32_t i = got < 0 ? 0 : (uint32_t)got; i < sc->nr_variants; i++) {
		run_result_free(j.runs[i]);
		j.runs[i] = NULL;
	}
	g_free(j.errs);
	g_free(j.ran);
	if (got < 0) {
		g_free(j.runs);
		return NULL;
	}
	if (nr)
		*nr = (uint32_t)got;
	return j.runs;
}

void cli_runs_free(struct run_result **runs, uint32_t nr)
{
	for (uint32_t i = 0; runs && i < nr; i++)
		run_result_free(runs[i]);
	g_free(runs);
}
