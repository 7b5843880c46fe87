/*
 * check_plot.c - `c2csim plot`: names reach gnuplot escaped (an injection test), CSV round
 * trips, and the seed-002 pictures are valid PNG and SVG drawn by scripts gnuplot runs.
 */
#include <glib.h>
#include <string.h>

#include "report/csv.h"
#include "report/plot.h"
#include "shutil.h"
#include "testutil.h"

/* ------------------------------------------------------------------ gp_quote */

static const struct {
	const char *id, *in, *out;
} quote_cases[] = {
	{"quote-1", "plain", "'plain'"},
	{"quote-2", "it's", "'it''s'"},                       /* the one escape of '...' */
	{"quote-3", "a\nb", "'a\\nb'"},                       /* no line break survives */
	{"quote-4", "`touch x`", "'`touch x`'"},              /* kept, printed literally */
	{"quote-5", "x'.system('id').'", "'x''.system(''id'').'''"},
	{"quote-6", "\x01\t\r", "'\\x01\\t\\x0d'"},
	{"quote-7", "", "''"},
};

START_TEST(gp_quote_cases)
{
	GString *s = g_string_new(NULL);

	gp_quote(s, quote_cases[_i].in);
	ck_assert_msg(!strcmp(s->str, quote_cases[_i].out), "%s: got %s, expected %s",
		      quote_cases[_i].id, s->str, quote_cases[_i].out);
	ck_assert_ptr_null(strchr(s->str, '\n'));
	g_string_free(s, TRUE);
}
END_TEST

/* ------------------------------------------------------------------ csv */

START_TEST(csv_load_round_trip)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *path = g_build_filename(dir, "t.csv", NULL);
	const char *fields[] = {"a,b", "say \"hi\"", "two\nlines", "plain"};
	FILE *f = fopen(path, "w");
	struct c2c_err err = {0};
	struct csv *c;

	fputs("x,y,z,w\n", f);
	for (int i = 0; i < 4; i++) {
		csv_put(f, fields[i]);
		fputc(i < 3 ? ',' : '\n', f);
	}
	fclose(f);
	c = csv_load(path, &err);
	ck_assert_msg(c != NULL, "%s", err.msg);
	ck_assert_uint_eq(c->nrow, 1);
	for (int i = 0; i < 4; i++)
		ck_assert_str_eq(csv_get(c, 0, i), fields[i]);
	ck_assert_int_eq(csv_col(c, "w"), 3);
	ck_assert_int_eq(csv_col(c, "nope"), -1);
	csv_free(c);
	sh_put(dir, "t.csv", "x,y\n1,2\n3\n");
	ck_assert_ptr_null(csv_load(path, &err));
	ck_assert_msg(g_str_has_suffix(err.msg, "t.csv:3:1: 1 fields (expected 2, as in the "
					 "header)"), "%s", err.msg);
	sh_rm(dir);
}
END_TEST

/* ------------------------------------------------------------------ injection */

/* Each name would create a file named PWNED<n> in gnuplot's directory if executed. */
#define EVIL_VARIANT_YAML "v'; system(\\\"touch PWNED1\\\") #"
#define EVIL_VARIANT_CSV "\"v'; system(\"\"touch PWNED1\"\") #\""
#define EVIL_OBJECT "`touch PWNED2`"
#define EVIL_STRUCT "s\\\"; system(\\\"touch PWNED3\\\")"
#define EVIL_LOCK "l'.system('touch PWNED5').'"

static void write_evil_results(const char *dir)
{
	sh_put(dir, "summary.yaml",
	       "scenario: evil\nvariants:\n"
	       "  \"" EVIL_VARIANT_YAML "\":\n"
	       "    lines:\n"
	       "      - {address: \"0x1000\", object: \"" EVIL_OBJECT "\", struct: \""
	       EVIL_STRUCT "\\nprint 'PWNED6'\", line: 0, hitm_local: 10, hitm_remote: 2, "
	       "hitm_prefetch: 1, stores: 5, store_l1_miss: 3}\n");
	sh_put(dir, "offsets.csv",
	       "variant,address,object,member,offset,hitm_local,hitm_remote,store_l1_miss\n"
	       EVIL_VARIANT_CSV ",0x1000," EVIL_OBJECT ",\"m\nsystem(\"\"touch PWNED4\"\")\","
	       "8,10,2,3\n");
	sh_put(dir, "layout.csv",
	       "variant,object,struct,base,member,offset,size\n"
	       EVIL_VARIANT_CSV "," EVIL_OBJECT ",s,0x1000,\"m\nsystem(\"\"touch PWNED4\"\")\","
	       "0,64\n");
	sh_put(dir, "locks_hist.csv",
	       "variant,lock,kind,lo_ps,hi_ps,count\n"
	       EVIL_VARIANT_CSV "," EVIL_LOCK ",wait,1024,2048,3\n"
	       EVIL_VARIANT_CSV "," EVIL_LOCK ",hold,0,1,2\n");
}

START_TEST(plot_names_not_executed)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *cmd = g_strdup_printf("cd '%s' && \"$C2CSIM\" plot . && ls -a . plots",
					       dir);
	g_autofree char *out = NULL, *svg = NULL, *gp = NULL;

	write_evil_results(dir);
	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	ck_assert_msg(!strstr(out, "PWNED"), "a name was executed: %s", out);
	svg = sh_file(dir, "plots/hitm_lines.svg");
	ck_assert_msg(strstr(svg, "touch PWNED2"), "the object name is not printed literally");
	gp = sh_file(dir, "plots/locks.gp");
	ck_assert_msg(strstr(gp, "'l''.system(''touch PWNED5'').'': wait time'"), "%s", gp);
	sh_rm(dir);
}
END_TEST

/* ------------------------------------------------------------------ seed 002 */

static const char *const pictures[] = {"hitm_lines", "pareto", "layout", "locks"};

START_TEST(plot_seed002_files_valid)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *cmd = g_strdup_printf(
		"\"$C2CSIM\" run scenarios/seeds/002-lruvec-prefetch.yaml --variant before "
		"--variant after --set end.time_us=300 --quiet --plot --out '%s/r'", dir);
	g_autofree char *out = NULL;

	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	for (size_t i = 0; i < G_N_ELEMENTS(pictures); i++) {
		g_autofree char *png = g_strdup_printf("r/plots/%s.png", pictures[i]);
		g_autofree char *head = sh_file(dir, png);
		g_autofree char *check = g_strdup_printf(
			"cd '%s/r/plots' && xmllint --noout %s.svg && rm %s.png %s.svg && "
			"gnuplot %s.gp && test -s %s.png && test -s %s.svg", dir, pictures[i],
			pictures[i], pictures[i], pictures[i], pictures[i], pictures[i]);
		g_autofree char *log = NULL;

		ck_assert_msg(!memcmp(head, "\x89PNG\r\n\x1a\n", 8), "%s is not a PNG", png);
		ck_assert_msg(sh_run(check, &log) == 0, "%s: %s", pictures[i], log);
	}
	sh_rm(dir);
}
END_TEST

/* A sweep directory: curves per variant, headline columns after `complete`, evil axis values
 * (not numbers: the x axis is the thread count). */
START_TEST(plot_sweep_csv)
{
	g_autofree char *dir = sh_tmpdir();
	g_autofree char *cmd = g_strdup_printf("cd '%s' && \"$C2CSIM\" plot . && cd plots && "
					       "xmllint --noout sweep.svg && ls -a", dir);
	g_autofree char *out = NULL, *png = NULL, *gp = NULL;

	sh_put(dir, "sweep.csv",
	       "point,cpus,variant,threads,ops_per_sec,lock_wait_total_ps,hitm_local,complete,"
	       "speedup\n"
	       "0,\"`touch PWNED7`\",before,1,100,0,0,true,1.0\n"
	       "1,\"`touch PWNED7`\",after,1,110,0,0,true,1.1\n"
	       "2,\"x'.system('touch PWNED8').'\",before,4,300,5000000,40,true,1.0\n"
	       "3,\"x'.system('touch PWNED8').'\",after,4,390,2000000,20,true,1.3\n");
	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	ck_assert_msg(!strstr(out, "PWNED"), "a value was executed: %s", out);
	png = sh_file(dir, "plots/sweep.png");
	ck_assert_msg(!memcmp(png, "\x89PNG\r\n\x1a\n", 8), "sweep.png is not a PNG");
	gp = sh_file(dir, "plots/sweep.gp");
	ck_assert_msg(strstr(gp, "set xlabel 'threads'") && strstr(gp, "set title 'speedup'"),
		      "%s", gp);
	/* The title names the swept scenario, whose file name is input like any other. */
	ck_assert_msg(strstr(gp, "title 'Sweep'"), "%s", gp);
	g_free(out);
	g_free(gp);
	sh_put(dir, "sweep.yaml", "scenario: \"/x/it's-`touch PWNED9`.yaml\"\naxes: {}\n");
	ck_assert_msg(sh_run(cmd, &out) == 0, "%s", out);
	ck_assert_msg(!strstr(out, "PWNED"), "a name was executed: %s", out);
	gp = sh_file(dir, "plots/sweep.gp");
	ck_assert_msg(strstr(gp, "Sweep of it"), "%s", gp);
	sh_rm(dir);
}
END_TEST

START_TEST(plot_usage_errors)
{
	g_autofree char *out = NULL;

	ck_assert_int_eq(sh_run("\"$C2CSIM\" plot", &out), 2);
	ck_assert_str_eq(out, "c2csim plot: expected one RESULT_DIR (see c2csim plot --help)\n");
	g_free(out);
	ck_assert_int_eq(sh_run("\"$C2CSIM\" plot . --format gif", &out), 2);
	ck_assert_str_eq(out, "c2csim plot: --format 'gif' (expected png, svg or png,svg)\n");
	g_free(out);
	ck_assert_int_eq(sh_run("PATH=/nonexistent \"$C2CSIM\" plot .", &out), 2);
	ck_assert_msg(strstr(out, "gnuplot not found in PATH"), "%s", out);
}
END_TEST

static Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("gp_quote");

	tcase_add_loop_test(tc, gp_quote_cases, 0, G_N_ELEMENTS(quote_cases));
	suite_add_tcase(s, tc);
	tc = tcase_create("csv_load");
	tcase_add_test(tc, csv_load_round_trip);
	suite_add_tcase(s, tc);
	tc = tcase_create("plot_main");
	tcase_add_test(tc, plot_names_not_executed);
	tcase_add_test(tc, plot_seed002_files_valid);
	tcase_add_test(tc, plot_sweep_csv);
	tcase_add_test(tc, plot_usage_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(plot_suite());
}
