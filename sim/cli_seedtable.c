/*
 * cli_seedtable.c - `c2csim seed-table SUMMARY...`: the published-vs-simulated table of the
 * Show items (report/show.h) of each summary's scenario, and the known-gaps table, printed,
 * written into a README between marker comments (--write) or compared with it (--check).
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report/headline.h"
#include "report/metrics.h"
#include "report/show.h"

#define TABLE_BEGIN "<!-- seed-table begin -->\n"
#define TABLE_END "<!-- seed-table end -->"
#define GAPS_BEGIN "<!-- seed-gaps begin -->\n"
#define GAPS_END "<!-- seed-gaps end -->"

struct seedtable_args {
	char *write, *check;
};

static GOptionEntry *seedtable_options(void *args)
{
	struct seedtable_args *a = args;
	GOptionEntry e[] = {
		{"write", 0, 0, G_OPTION_ARG_FILENAME, &a->write,
		 "Rewrite the tables between FILE's seed-table and seed-gaps markers", "FILE"},
		{"check", 0, 0, G_OPTION_ARG_FILENAME, &a->check,
		 "Exit 1 when FILE's tables are not what the summaries give", "FILE"},
		G_OPTION_ENTRY_NULL};

	return g_memdup2(e, sizeof e);
}

/* One summary with its scenario's Show items, judged. */
struct seed_doc {
	struct msummary s;
	struct yt_node *scenario;   /* the scenario file's tree */
	struct hl_set hs;
	struct show_set ss;
	struct show_result *res;
	char *seed;
};

static void seed_doc_free(struct seed_doc *d)
{
	show_set_free(&d->ss);
	hl_set_free(&d->hs);
	yt_free(d->scenario);
	msummary_free(&d->s);
	g_free(d->res);
	g_free(d->seed);
}

/* Load @arg (a summary.yaml or its directory) and its scenario file (as the summary names it,
 * relative to the working directory), and judge the items. */
static bool seed_doc_load(struct seed_doc *d, const char *arg, struct c2c_err *err)
{
	g_autofree char *path = g_file_test(arg, G_FILE_TEST_IS_DIR)
					? g_build_filename(arg, "summary.yaml", NULL) : g_strdup(arg);
	const struct yt_node *file;
	const char *dash;

	if (!msummary_load_file(&d->s, path, err))
		return false;
	file = yt_get(d->s.root, "scenario_file");
	if (!file || file->kind != YT_SCALAR) {
		err_setf(err, "%s: no scenario_file (expected a c2csim run's summary.yaml)", path);
		return false;
	}
	if (!(d->scenario = yt_load_file(file->str, err)) ||
	    !hl_load_seq(yt_get(d->scenario, "headline"), &d->hs, err) ||
	    !show_load(yt_get(d->scenario, "headline"), &d->hs, &d->ss, err))
		return false;
	d->res = g_new0(struct show_result, d->ss.nr ? d->ss.nr : 1);
	for (uint32_t i = 0; i < d->ss.nr; i++)
		show_eval(&d->ss.v[i], &d->s, &d->res[i]);
	dash = d->s.scenario ? strchr(d->s.scenario, '-') : NULL;
	d->seed = dash ? g_strndup(d->s.scenario, (size_t)(dash - d->s.scenario))
		       : g_strdup(d->s.scenario ? d->s.scenario : "?");
	return true;
}

/* Each item whose result disagrees with its declaration, on stderr.  Return: how many. */
static uint32_t seed_doc_disagreements(const struct seed_doc *d)
{
	uint32_t n = 0;
	char v[48];

	for (uint32_t i = 0; i < d->ss.nr; i++) {
		const struct show_item *it = &d->ss.v[i];
		const struct show_result *r = &d->res[i];

		if (show_agrees(it, r))
			continue;
		n++;
		fprintf(stderr, "%s:%d:%d: Show item \"%s\": ", it->mark.file, it->mark.line,
			it->mark.col, it->figure);
		metric_fmt(v, sizeof(v), r->value);
		if (r->status == SHOW_HOLDS)
			fprintf(stderr, "holds (%s) but is declared a known gap (expected no gap:, "
				"and the tables rewritten)\n", v);
		else if (r->status == SHOW_UNMEASURED)
			fprintf(stderr, "not measured: %s (expected the variants and metrics it "
				"names)\n", r->why);
		else
			fprintf(stderr, "does not hold (%s, published %s) and is not a known gap "
				"(expected a gap: saying why, or a model that reproduces it)\n", v,
				it->published);
	}
	return n;
}

/* @text with the lines between @begin and @end replaced by @body; NULL with @err when the
 * markers are not there once each, in order. */
static char *replace_block(const char *text, const char *name, const char *begin,
			   const char *end, const char *body, struct c2c_err *err)
{
	const char *b = strstr(text, begin), *e = b ? strstr(b, end) : NULL;

	if (!b || !e || strstr(b + 1, begin) || strstr(e + 1, end)) {
		err_setf(err, "%s:1:1: no seed tables (expected one '%.*s' line and, after it, one "
			 "'%s' line)", name,
			 (int)strlen(begin) - 1, begin, end);
		return NULL;
	}
	b += strlen(begin);
	return g_strdup_printf("%.*s%s%s", (int)(b - text), text, body, e);
}

/* The README @path with both tables replaced, into *@out.  Return: false with @err. */
static bool readme_with(const char *path, const GString *table, const GString *gaps,
			char **old, char **out, struct c2c_err *err)
{
	g_autoptr(GError) ge = NULL;
	g_autofree char *mid = NULL;

	if (!g_file_get_contents(path, old, NULL, &ge)) {
		err_setf(err, "%s:1:1: %s (expected the README with the seed tables)", path,
			 ge->message);
		return false;
	}
	mid = replace_block(*old, path, TABLE_BEGIN, TABLE_END, table->str, err);
	*out = mid ? replace_block(mid, path, GAPS_BEGIN, GAPS_END, gaps->str, err) : NULL;
	return *out != NULL;
}

static int seedtable_output(const struct seedtable_args *a, const GString *table,
			    const GString *gaps, struct c2c_err *err)
{
	const char *path = a->write ? a->write : a->check;
	g_autofree char *old = NULL, *text = NULL;
	g_autoptr(GError) ge = NULL;

	if (!path) {
		printf("%s\n%s", table->str, gaps->str);
		return 0;
	}
	if (!readme_with(path, table, gaps, &old, &text, err))
		return 2;
	if (a->check) {
		if (!strcmp(old, text))
			return 0;
		fprintf(stderr, "%s: the seed tables are not what the summaries give (expected "
			"them rewritten: tools/seed-table)\n", path);
		return 1;
	}
	if (strcmp(old, text) && !g_file_set_contents(path, text, -1, &ge)) {
		err_setf(err, "%s: %s", path, ge->message);
		return 2;
	}
	return 0;
}

static int seedtable_go(const struct seedtable_args *a, int argc, char **argv,
			struct c2c_err *err)
{
	struct seed_doc *d = g_new0(struct seed_doc, (size_t)argc);
	struct show_doc *docs = g_new0(struct show_doc, (size_t)argc);
	g_autoptr(GString) table = g_string_new(NULL);
	g_autoptr(GString) gaps = g_string_new(NULL);
	uint32_t disagree = 0;
	int n = 0, status = 2;

	for (; n < argc - 1; n++) {
		if (!seed_doc_load(&d[n], argv[n + 1], err)) {
			n++;
			goto out;
		}
		docs[n] = (struct show_doc){d[n].seed, &d[n].ss, d[n].res};
		disagree += seed_doc_disagreements(&d[n]);
	}
	show_tables(docs, (uint32_t)n, table, gaps);
	status = seedtable_output(a, table, gaps, err);
	if (status == 0 && disagree)
		status = 1;
out:
	for (int i = 0; i < n; i++)
		seed_doc_free(&d[i]);
	g_free(d);
	g_free(docs);
	return status;
}

static int cli_seedtable(const struct cli_cmd *cmd, const char *prog, int argc, char **argv)
{
	struct seedtable_args a = {0};
	struct c2c_err err = {0};
	int status = cli_parse(cmd, prog, &a, &argc, &argv);

	if (status < 0 && argc < 2)
		status = cli_usage_error(prog, "expected one or more summary.yaml files or results "
					 "directories");
	if (status < 0 && a.write && a.check)
		status = cli_usage_error(prog, "--write and --check exclude each other");
	if (status < 0)
		status = seedtable_go(&a, argc, argv, &err);
	fflush(stdout);
	if (err.set)
		fprintf(stderr, "%s\n", err.msg);
	g_free(a.write);
	g_free(a.check);
	return status;
}

const struct cli_cmd cli_seedtable_cmd = {
	"seed-table", "SUMMARY...",
	"The published-vs-simulated table of the scenarios' Show items, and the known gaps",
	"Each SUMMARY (a summary.yaml or a results directory) is judged against the Show items "
	"(headline[].show) of the scenario file it names, relative to the working directory.  "
	"Without options the two markdown tables are printed; --write rewrites them between "
	"'<!-- seed-table begin -->' / '<!-- seed-table end -->' and '<!-- seed-gaps begin -->' / "
	"'<!-- seed-gaps end -->' in FILE; --check compares.  An item that holds but is declared "
	"a gap, or fails and is not one, is reported on stderr as file:line:col.\n"
	"Exit status: 0 every item agrees with its declaration (and FILE matches), 1 one does "
	"not (or FILE differs), 2 bad input.",
	seedtable_options, sizeof(struct seedtable_args), cli_seedtable, NULL};
