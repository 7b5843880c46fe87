/* answer.c - the report in the order a reader wants it: the answer first; see verdict.h. */
#include <glib.h>
#include <stdlib.h>

#include "report/output.h"
#include "report/report.h"
#include "report/verdict.h"

bool verdict_summary(const struct scenario *sc, struct run_result *const *runs, uint32_t nr,
		     struct msummary *s, struct c2c_err *err)
{
	char *sum = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sum, &len);
	bool ok;

	/* The verdicts read the summary the run writes, so both always agree. */
	output_summary(f, sc, runs, nr);
	fclose(f);
	ok = msummary_load(s, sc->path ? sc->path : "<summary>", sum, len, err);
	free(sum);
	return ok;
}

char *verdict_report(const struct scenario *sc, struct run_result *const *runs, uint32_t nr,
		     const struct verdict_opts *o, const struct expect_set *es, bool brief,
		     uint32_t *failed_out, FILE *fail_log, struct c2c_err *err)
{
	char *text = NULL;
	size_t len = 0;
	struct msummary s;
	uint32_t failed;
	FILE *f;

	if (!verdict_summary(sc, runs, nr, &s, err))
		return NULL;
	f = open_memstream(&text, &len);
	verdict_screen(f, sc, &s, o, es);
	for (uint32_t i = 0; !brief && i < nr; i++)
		report_print(f, sc, &sc->v[i], runs[i]);
	if (!brief)
		verdict_table(f, &s, o);
	fclose(f);
	/* Counted again without printing: the screen shows the same lines already. */
	failed = es ? expect_report(NULL, es, &s, fail_log) : 0;
	if (failed_out)
		*failed_out = failed;
	msummary_free(&s);
	return text;
}
