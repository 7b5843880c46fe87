/*
 * check_seed_table.c - Show items (report/show.h) and `c2csim seed-table`: the loader's
 * errors, the judgement rules on a hand-made summary, the tables' rows, the README rewrite
 * between its markers, and the committed scenarios/seeds/README.md tables being exactly what
 * the golden baselines give (results/baselines/<seed>/summary.yaml: no runs, so a stale
 * table fails CI at no cost).
 */
#include <glib.h>
#include <string.h>

#include "cmdutil.h"
#include "report/headline.h"
#include "report/metrics.h"
#include "report/show.h"
#include "testutil.h"

/* A headline list with @show as the show: list of a path_mean metric `lat`. */
static bool load_show(const char *show, struct yt_node **tree, struct hl_set *hs,
		      struct show_set *ss, struct c2c_err *err)
{
	g_autofree char *text = g_strdup_printf("headline:\n  - id: lat\n    metric: path_mean\n"
						"    path: p\n    show:\n%s", show);

	*tree = yt_load_string("t.yaml", text, strlen(text), err);
	ck_assert_msg(*tree != NULL, "%s", err->msg);
	*ss = (struct show_set){0};
	return hl_load_seq(yt_get(*tree, "headline"), hs, err) &&
	       show_load(yt_get(*tree, "headline"), hs, ss, err);
}

struct bad_show {
	const char *yaml, *what;
};

static const struct bad_show bad_shows[] = {
	{"      - {value: \"a.lat\", published: 1}\n", "missing key 'figure'"},
	{"      - {figure: f, published: 1}\n", "neither value nor test"},
	{"      - {figure: f, value: \"a.lat\", test: t, published: 1}\n", "both value and test"},
	{"      - {figure: f, value: \"a.lat\"}\n", "missing key 'published'"},
	{"      - {figure: f, value: \"a.lat\", published: big}\n", "nothing to judge 'big' by"},
	{"      - {figure: f, value: \"a.lat\", published: big, within: 2}\n",
	 "is not a non-zero number"},
	{"      - {figure: f, value: \"a.lat\", published: 0}\n", "nothing to judge '0' by"},
	{"      - {figure: f, value: \"a.lat\", published: 1, within: 0.5}\n",
	 "expected a factor >= 1"},
	{"      - {figure: f, value: \"a.lat\", published: 1, at_most: x}\n",
	 "at_most: 'x' (expected a number)"},
	{"      - {figure: f, value: \"a.hitz\", published: 1}\n", "no metric 'hitz'"},
	{"      - {figure: f, value: \"a.lat <\", published: 1}\n", "after the expression"},
	{"      - {figure: f, value: \"a.lat\", published: 1, as: pct}\n", "as"},
	{"      - {figure: f, value: \"a.lat\", published: 1, why: x}\n", "why"},
};

/* Every malformed item is refused at its node, naming what is wrong. */
START_TEST(show_load_errors)
{
	const struct bad_show *b = &bad_shows[_i];
	struct c2c_err err = {0};
	struct yt_node *t;
	struct hl_set hs = {0};
	struct show_set ss;

	ck_assert_msg(!load_show(b->yaml, &t, &hs, &ss, &err), "accepted: %s", b->yaml);
	ck_assert_msg(strstr(err.msg, b->what) && g_str_has_prefix(err.msg, "t.yaml:"), "%s: %s",
		      b->yaml, err.msg);
	hl_set_free(&hs);
	yt_free(t);
}
END_TEST

/* A two-variant summary: lat 100 ns before, 60 ns after; ops 10 and 12 ops/s. */
static const char summary[] =
	"c2csim_version: \"0.1.0\"\nscenario: \"007-demo\"\nvariants:\n"
	"  before:\n    headline:\n      - {id: lat, name: lat, metric: path_mean, value: 100.000, "
	"unit: ns}\n    throughput: {ops_per_sec: 10}\n"
	"  after:\n    headline:\n      - {id: lat, name: lat, metric: path_mean, value: 60.000, "
	"unit: ns}\n    throughput: {ops_per_sec: 12}\n";

struct judged {
	const char *yaml;
	enum show_status status;
	bool agrees;
};

static const struct judged judged[] = {
	/* -40% against a published -50%: same sign, within 2x */
	{"{figure: f, value: \"after.lat / before.lat - 1\", published: -0.5}", SHOW_HOLDS, true},
	/* the right size with the wrong sign never holds */
	{"{figure: f, value: \"after.lat / before.lat - 1\", published: 0.4}", SHOW_FAILS, false},
	/* 0.6 is 3.75x the published 0.16: outside 2x, inside 4x */
	{"{figure: f, value: \"after.lat / before.lat\", published: 0.16}", SHOW_FAILS, false},
	{"{figure: f, value: \"after.lat / before.lat\", published: 0.16, within: 4}", SHOW_HOLDS,
	 true},
	/* bounds are inclusive, and all must hold */
	{"{figure: f, value: \"after.ops_per_sec\", published: more, at_least: 12}", SHOW_HOLDS,
	 true},
	{"{figure: f, value: \"after.ops_per_sec\", published: x, at_least: 11, at_most: 11.5}",
	 SHOW_FAILS, false},
	/* a declared gap agrees only while the item fails */
	{"{figure: f, value: \"after.lat / before.lat\", published: 0.16, gap: why}", SHOW_FAILS,
	 true},
	{"{figure: f, value: \"after.lat / before.lat\", published: 0.5, gap: why}", SHOW_HOLDS,
	 false},
	/* a variant the summary lacks: not measured, so not holding */
	{"{figure: f, value: \"after-80.lat / before.lat\", published: 0.5}", SHOW_UNMEASURED,
	 false},
	{"{figure: f, published: linear, test: check_x}", SHOW_BY_TEST, true},
};

START_TEST(show_judgement)
{
	const struct judged *j = &judged[_i];
	g_autofree char *item = g_strdup_printf("      - %s\n", j->yaml);
	struct c2c_err err = {0};
	struct msummary s;
	struct show_result r;
	struct yt_node *t;
	struct hl_set hs;
	struct show_set ss;

	ck_assert_msg(load_show(item, &t, &hs, &ss, &err), "%s", err.msg);
	ck_assert_msg(msummary_load(&s, "s.yaml", summary, sizeof(summary) - 1, &err), "%s",
		      err.msg);
	ck_assert_uint_eq(ss.nr, 1);
	show_eval(&ss.v[0], &s, &r);
	ck_assert_msg(r.status == j->status, "%s: status %d, value %g", j->yaml, r.status, r.value);
	ck_assert_int_eq(show_agrees(&ss.v[0], &r), j->agrees);
	msummary_free(&s);
	show_set_free(&ss);
	hl_set_free(&hs);
	yt_free(t);
}
END_TEST

/* The rows as the README shows them: a percentage item that holds, a ratio that is a known
 * gap (in both tables, with its reason), a test item (only in the first). */
START_TEST(show_table_rows)
{
	static const char items[] =
		"      - {figure: gain, value: \"before.lat / after.lat - 1\", published: 0.5, "
		"as: percent}\n"
		"      - {figure: ratio, value: \"after.lat / before.lat\", published: 0.2, gap: "
		"\"one miss | in flight\"}\n"
		"      - {figure: scaling, published: linear, test: check_x}\n";
	struct c2c_err err = {0};
	struct msummary s;
	struct show_result r[3];
	struct yt_node *t;
	struct hl_set hs;
	struct show_set ss;
	struct show_doc doc;
	g_autoptr(GString) table = g_string_new(NULL);
	g_autoptr(GString) gaps = g_string_new(NULL);

	ck_assert_msg(load_show(items, &t, &hs, &ss, &err), "%s", err.msg);
	ck_assert(msummary_load(&s, "s.yaml", summary, sizeof(summary) - 1, &err));
	for (uint32_t i = 0; i < ss.nr; i++)
		show_eval(&ss.v[i], &s, &r[i]);
	doc = (struct show_doc){"007", &ss, r};
	show_tables(&doc, 1, table, gaps);
	ck_assert_msg(strstr(table->str, "| 007 | gain | +50.0% | +66.7% | 1.33 | same sign, "
			     "within 2× | yes |\n"), "%s", table->str);
	ck_assert_msg(strstr(table->str, "| 007 | ratio | 0.2 | 0.6 | 3.00 | same sign, within 2× "
			     "| **no** (known gap) |\n"), "%s", table->str);
	ck_assert_msg(strstr(table->str, "| 007 | scaling | linear | – | – | its test | checked "
			     "by check_x |\n"), "%s", table->str);
	ck_assert_msg(!strcmp(gaps->str, "| seed | Show item | published | simulated | why |\n"
			      "|---|---|---|---|---|\n| 007 | ratio | 0.2 | 0.6 | one miss / in "
			      "flight |\n"), "%s", gaps->str);
	msummary_free(&s);
	show_set_free(&ss);
	hl_set_free(&hs);
	yt_free(t);
}
END_TEST

/* A scenario file, its summary (naming the file) and a README, in @dir. */
static void write_fixture(const char *dir, const char *gap)
{
	g_autofree char *sc = g_build_filename(dir, "s.yaml", NULL);
	g_autofree char *sum = g_build_filename(dir, "summary.yaml", NULL);
	g_autofree char *readme = g_build_filename(dir, "README.md", NULL);
	g_autofree char *sc_text = g_strdup_printf(
		"headline:\n  - id: lat\n    metric: path_mean\n    path: p\n    show:\n"
		"      - figure: ratio\n        value: \"after.lat / before.lat\"\n"
		"        published: 0.5\n%s", gap);
	g_autofree char *sum_text = g_strdup_printf("%sscenario_file: %s\n", summary, sc);

	ck_assert(g_file_set_contents(sc, sc_text, -1, NULL));
	ck_assert(g_file_set_contents(sum, sum_text, -1, NULL));
	ck_assert(g_file_set_contents(readme, "# t\n\n<!-- seed-table begin -->\nold\n"
				      "<!-- seed-table end -->\n\ntext\n<!-- seed-gaps begin -->\n"
				      "<!-- seed-gaps end -->\nend\n", -1, NULL));
}

/* --write rewrites only between the markers, --check then agrees, a hand edit fails it; a
 * gap that holds is named at its item; a README without markers is bad input. */
START_TEST(cli_write_check)
{
	g_autofree char *tmp = tmpdir();
	g_autofree char *readme = g_build_filename(tmp, "README.md", NULL);
	g_autofree char *text = NULL;
	const char *wr[] = {"seed-table", "--write", readme, tmp, NULL};
	const char *ck[] = {"seed-table", "--check", readme, tmp, NULL};
	struct cmd c;

	write_fixture(tmp, "");
	c2csim(&c, wr);
	ck_assert_msg(c.status == 0 && !*c.err, "exit %d: %s", c.status, c.err);
	cmd_free(&c);
	text = slurp(tmp, "README.md");
	ck_assert_msg(g_str_has_prefix(text, "# t\n\n<!-- seed-table begin -->\n| seed | Show "
				       "item |") && strstr(text, "| 007 | ratio | 0.5 | 0.6 | 1.20 |") &&
		      g_str_has_suffix(text, "<!-- seed-gaps end -->\nend\n") &&
		      strstr(text, "<!-- seed-table end -->\n\ntext\n<!-- seed-gaps begin -->\n"),
		      "%s", text);
	c2csim(&c, ck);
	ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
	cmd_free(&c);
	ck_assert(g_file_set_contents(readme, "<!-- seed-table begin -->\nstale\n<!-- seed-table "
				      "end -->\n<!-- seed-gaps begin -->\n<!-- seed-gaps end -->\n",
				      -1, NULL));
	c2csim(&c, ck);
	ck_assert_msg(c.status == 1 && strstr(c.err, "not what the summaries give"), "exit %d: %s",
		      c.status, c.err);
	cmd_free(&c);
	write_fixture(tmp, "        gap: \"closed\"\n");
	c2csim(&c, wr);
	ck_assert_msg(c.status == 1 && strstr(c.err, "s.yaml:6:9: Show item \"ratio\": holds "
					      "(0.6) but is declared a known gap"),
		      "exit %d: %s", c.status, c.err);
	cmd_free(&c);
	ck_assert(g_file_set_contents(readme, "no markers\n", -1, NULL));
	c2csim(&c, ck);
	ck_assert_msg(c.status == 2 && strstr(c.err, "README.md:1:1: no seed tables (expected "
					      "one '<!-- seed-table begin -->' line"), "exit %d: %s", c.status, c.err);
	cmd_free(&c);
	rm_rf(tmp);
}
END_TEST

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The committed tables are what the golden baselines give, and every Show item of every
 * seed replay agrees with its declaration there (a gap fails, everything else holds). */
START_TEST(readme_matches_baselines)
{
	g_autofree char *seeds = tu_src_path("scenarios/seeds");
	GDir *d = g_dir_open(seeds, 0, NULL);
	GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *name;
	struct cmd c;

	ck_assert_ptr_nonnull(d);
	while ((name = g_dir_read_name(d)))
		if (g_str_has_suffix(name, ".yaml"))
			g_ptr_array_add(names, g_strndup(name, strlen(name) - strlen(".yaml")));
	g_dir_close(d);
	g_ptr_array_sort(names, by_name);
	ck_assert_uint_eq(names->len, 5);
	g_ptr_array_add(args, g_strdup("seed-table"));
	g_ptr_array_add(args, g_strdup("--check"));
	g_ptr_array_add(args, g_strdup("scenarios/seeds/README.md"));
	for (guint i = 0; i < names->len; i++)
		g_ptr_array_add(args, g_strdup_printf("results/baselines/%s/summary.yaml",
						      (char *)names->pdata[i]));
	g_ptr_array_add(args, NULL);
	c2csim(&c, (const char *const *)args->pdata);
	ck_assert_msg(c.status == 0 && !*c.err, "exit %d: %s", c.status, c.err);
	cmd_free(&c);
	g_ptr_array_free(args, TRUE);
	g_ptr_array_free(names, TRUE);
}
END_TEST

static Suite *seed_table_suite(void)
{
	Suite *s = suite_create("seed_table");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, show_load_errors, 0, G_N_ELEMENTS(bad_shows));
	tcase_add_loop_test(tc, show_judgement, 0, G_N_ELEMENTS(judged));
	tcase_add_test(tc, show_table_rows);
	tcase_add_test(tc, cli_write_check);
	tcase_add_test(tc, readme_matches_baselines);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(seed_table_suite());
}
