/*
 * check_hostile.c - hostile inputs to `c2csim run` and `c2csim layout` (issue 10): names that
 * would put results outside the output directory, directories that are not c2csim's, what a
 * killed run leaves behind, output that cannot be written, and inputs that are not regular
 * files or are too large.  Each case checks the exact contract: exit 2, one line on stderr
 * (`file:line:col: ...` for input, `cannot write results to DIR: ...` for the output), and
 * nothing written or removed anywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/outdir.h"
#include "spawn_util.h"

/* A fresh scratch tree: @tmp with the working directory @tmp/w/a/b, so a name climbing two
 * or more levels up would land inside @tmp where the test can see it. */
static char *work_dir(const char *tmp)
{
	char *cwd = g_build_filename(tmp, "w", "a", "b", NULL);

	ck_assert_int_eq(g_mkdir_with_parents(cwd, 0777), 0);
	return cwd;
}

/* ---- names -------------------------------------------------------------------------- */

static const struct {
	const char *file, *at, *what;
} bad_names[] = {
	{"name-escape.yaml", ":2:7: ", "name: not a plain file name: it contains '/'"},
	{"name-tmp.yaml", ":2:7: ", "name: not a plain file name: it contains '/'"},
	{"name-absolute.yaml", ":2:7: ", "name: not a plain file name: it contains '/'"},
	{"name-dotdot.yaml", ":2:7: ", "name: not a plain file name: it starts with '.'"},
	{"name-hidden.yaml", ":2:7: ", "name: not a plain file name: it starts with '.'"},
	{"name-newline.yaml", ":2:7: ", "it contains a control character"},
	{"name-long.yaml", ":2:7: ", "it is longer than 200 bytes"},
	{"variant-escape.yaml", ":11:12: ", "variants[0]: bad variant name: it contains '/'"},
	{"variant-dotdot.yaml", ":12:12: ", "variants[1]: bad variant name: it starts with '.'"},
	{".dot-name.yaml", ":1:1: ", "the scenario file's name is not a plain file name: it "
	 "starts with '.'"},
};

/* Each regression case of sim/tests/data/hostile is refused at its position, and nothing is
 * written: not in the working directory, not above it, not in /tmp. */
START_TEST(hostile_name_refused)
{
	g_autofree char *tmp = su_tmpdir(), *cwd = work_dir(tmp);
	g_autofree char *rel = g_build_filename("sim/tests/data/hostile", bad_names[_i].file, NULL);
	g_autofree char *path = tu_src_path(rel), *before = su_list(tmp), *after = NULL;
	g_autofree char *prefix = g_strconcat(path, bad_names[_i].at, NULL);
	const char *args[] = {"run", path, NULL};
	struct run r;

	su_run(&r, cwd, args);
	su_assert_bad_input(&r, prefix, bad_names[_i].what);
	after = su_list(tmp);
	ck_assert_str_eq(after, before);
	ck_assert(!g_file_test("/tmp/c2csim-escaped", G_FILE_TEST_EXISTS));
	ck_assert(!g_file_test("/tmp/c2csim-escaped-abs", G_FILE_TEST_EXISTS));
	su_free(&r);
	su_rm_rf(tmp);
}
END_TEST

/* @s as a YAML double-quoted scalar (control characters as \xNN). */
static char *yaml_quote(const char *s)
{
	GString *q = g_string_new("\"");

	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			g_string_append_printf(q, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			g_string_append_printf(q, "\\x%02x", (unsigned char)*s);
		else
			g_string_append_c(q, *s);
	}
	g_string_append_c(q, '"');
	return g_string_free(q, FALSE);
}

/* Names a hostile branch might try, and some odd but harmless ones. */
static const char *const probe_names[] = {
	"..", ".", "...", "../x", "a/../../b", "/tmp/c2csim-escaped", "x/", "/", "a\x01", "a\x7f",
	"\t", ".x", "~", "~root", "a b", "a..b", "-rf", "*", "$(touch pwned)", "\\", "%2e%2e",
	"\xc3\xbc", "results", "x\ny", "..\\..", NULL,
};

/* Run a generated scenario whose scenario name (@as_variant false) or only variant name is
 * @name; return what the scratch tree holds afterwards beyond the scenario file itself. */
static char *probe(const char *name, bool as_variant, int *status)
{
	g_autofree char *tmp = su_tmpdir(), *cwd = work_dir(tmp), *q = yaml_quote(name);
	g_autofree char *path = g_build_filename(tmp, "s.yaml", NULL), *text = NULL;
	g_autofree char *mpath = tu_src_path("models/machines/skylake-sp-2s.yaml");
	const char *args[] = {"run", path, "--quiet", NULL};
	struct run r;
	char *list;

	text = g_strdup_printf("name: %s\nmachine: %s\nseed: 1\nend: {time_us: 1}\n"
			       "regions: [{name: c, size: 64}]\n"
			       "actors: [{name: a, cpus: 0-1, loop: [{op: load, at: c}]}]\n%s%s%s",
			       as_variant ? "gen" : q, mpath, as_variant ? "variants: [{name: " : "",
			       as_variant ? q : "", as_variant ? "}]\n" : "");
	ck_assert(g_file_set_contents(path, text, -1, NULL));
	su_run(&r, cwd, args);
	ck_assert_msg(r.status == 0 || r.status == 2, "exit %d: %s", r.status, r.err);
	if (r.status == 2)
		su_assert_bad_input(&r, path, ": ");
	if (!r.status) {
		g_autofree char *res = g_build_filename(cwd, "results", as_variant ? "gen" : name,
							NULL);
		g_autofree char *sum = su_slurp(res, "summary.yaml");

		ck_assert(strstr(sum, "\ncomplete: true\n"));
	}
	ck_assert_int_eq(g_unlink(path), 0);
	*status = r.status;
	list = su_list(tmp);
	su_free(&r);
	su_rm_rf(tmp);
	return list;
}

/* No scenario or variant name makes c2csim write outside results/ under its working
 * directory: a name is refused (nothing written at all) or its results are exactly
 * results/NAME/ (results/gen/params/NAME.yaml for a variant). */
START_TEST(hostile_names_never_escape)
{
	static const char *const files[] = {".c2csim-results", "layout.csv", "lines.csv",
					    "locks_hist.csv", "offsets.csv",
					    "params/", "report.txt", "scenario.yaml", "summary.yaml"};
	int refused = 0;

	for (const char *const *n = probe_names; *n; n++) {
		for (int as_variant = 0; as_variant < 2; as_variant++) {
			int status;
			g_autofree char *list = probe(*n, as_variant, &status);
			g_autofree char *dir = g_strdup_printf("w/a/b/results/%s/",
							       as_variant ? "gen" : *n);
			GString *want = g_string_new("w/\nw/a/\nw/a/b/\n");

			if (!status) {
				g_string_append_printf(want, "w/a/b/results/\n%s\n", dir);
				for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
					g_string_append_printf(want, "%s%s\n", dir, files[i]);
					if (!strcmp(files[i], "params/"))
						g_string_append_printf(want, "%sparams/%s.yaml\n", dir,
								       as_variant ? *n : "default");
				}
			}
			refused += status != 0;
			ck_assert_msg(!strcmp(list, want->str), "name '%s' (%s): wrote\n%s", *n,
				      as_variant ? "variant" : "scenario", list);
			g_string_free(want, TRUE);
		}
	}
	/* The dangerous ones were refused, not sanitised into something else. */
	ck_assert_int_ge(refused, 2 * 14);
}
END_TEST

/* ---- the output directory ------------------------------------------------------------ */

/* Run slow-variants.yaml (many seconds of simulation) with --out @out; the refusal must come
 * before the simulation starts, so it must be quick. */
static void run_refused(const char *out, const char *what)
{
	g_autofree char *scen = tu_src_path("sim/tests/data/hostile/slow-variants.yaml");
	g_autofree char *want = g_strdup_printf("cannot write results to %s: %s\n", out, what);
	const char *args[] = {"run", scen, "--out", out, NULL};
	double t0 = su_seconds();
	struct run r;

	su_run(&r, NULL, args);
	ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.err);
	ck_assert_str_eq(r.err, want);
	ck_assert_str_eq(r.out, "");
	ck_assert_msg(su_seconds() - t0 < 2.0, "refused after %.1f s: after simulating",
		      su_seconds() - t0);
	su_free(&r);
}

/* A directory holding summary.yaml and other files, without the marker, is never replaced. */
START_TEST(hostile_foreign_dir_kept)
{
	g_autofree char *tmp = su_tmpdir(), *dir = g_build_filename(tmp, "mine", NULL);
	g_autofree char *src = g_build_filename(dir, "src", NULL), *before = NULL, *after = NULL;
	g_autofree char *why = g_strdup_printf("%s exists and was not written by c2csim (no "
					       ".c2csim-results marker); refusing to replace it "
					       "(remove it, or choose another --out)", dir);
	g_autofree char *link = g_build_filename(tmp, "link", NULL);
	g_autofree char *lwhy = g_strdup_printf("%s exists and is a symbolic link; refusing to "
						"replace it", link);
	const char *files[] = {"summary.yaml", "important.txt", "src/main.c"};

	ck_assert_int_eq(g_mkdir_with_parents(src, 0777), 0);
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *p = g_build_filename(dir, files[i], NULL);

		ck_assert(g_file_set_contents(p, files[i], -1, NULL));
	}
	before = su_list(tmp);
	run_refused(dir, why);
	/* A symlink to it is no directory of ours either, whatever it points to. */
	ck_assert_int_eq(symlink(dir, link), 0);
	g_free(before);
	before = su_list(tmp);
	run_refused(link, lwhy);
	after = su_list(tmp);
	ck_assert_str_eq(after, before);
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *text = su_slurp(dir, files[i]);

		ck_assert_str_eq(text, files[i]);
	}
	su_rm_rf(tmp);
}
END_TEST

/* Output that cannot be written is found before simulating. */
START_TEST(hostile_output_checked_first)
{
	g_autofree char *tmp = su_tmpdir(), *file = g_build_filename(tmp, "plain", NULL);
	g_autofree char *under = g_build_filename(file, "out", NULL), *why = NULL;
	g_autofree char *lname = g_strnfill(250, 'n'), *longd = g_build_filename(tmp, lname, NULL);
	g_autofree char *ro = g_build_filename(tmp, "ro", NULL);
	g_autofree char *rout = g_build_filename(ro, "out", NULL);

	ck_assert(g_file_set_contents(file, "x", -1, NULL));
	why = g_strdup_printf("%s is not a directory", file);
	run_refused(under, why);
	g_free(why);
	why = g_strdup_printf("the name %.40s... is 250 bytes (expected at most 238, to leave "
			      "room for the temporary .NAME.tmp-PID)", lname);
	run_refused(longd, why);
	g_free(why);
	/* Permissions bind everyone but root (who may write anywhere, so has nothing to find). */
	ck_assert_int_eq(g_mkdir(ro, 0555), 0);
	if (geteuid() != 0) {
		why = g_strdup_printf("cannot write in %s: %s", ro, g_strerror(EACCES));
		run_refused(rout, why);
		g_free(why);
	}
	why = su_list(tmp);
	ck_assert_str_eq(why, "plain\nro/\n");
	su_rm_rf(tmp);
}
END_TEST

/* A pid that is not running: a child that has exited and been reaped. */
static long dead_pid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	return pid;
}

static void put_dir(const char *parent, const char *name, const char *file)
{
	g_autofree char *d = g_build_filename(parent, name, NULL);
	g_autofree char *f = g_build_filename(d, file, NULL);

	ck_assert_int_eq(g_mkdir(d, 0777), 0);
	ck_assert(g_file_set_contents(f, "x", -1, NULL));
}

/* The names in @dir, sorted, one a line. */
static char *top_entries(const char *dir)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GDir *d = g_dir_open(dir, 0, NULL);
	GString *s = g_string_new(NULL);
	const char *name;

	ck_assert_ptr_nonnull(d);
	while ((name = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(name));
	g_dir_close(d);
	g_ptr_array_sort(names, su_cmp);
	for (guint i = 0; i < names->len; i++)
		g_string_append_printf(s, "%s\n", (char *)names->pdata[i]);
	g_ptr_array_free(names, TRUE);
	return g_string_free(s, FALSE);
}

/* Leftovers of a killed run are removed by the next one; those of a live process stay. */
START_TEST(hostile_stale_leftovers_cleaned)
{
	g_autofree char *tmp = su_tmpdir(), *out = g_build_filename(tmp, "res", NULL);
	g_autofree char *scen = tu_src_path("sim/tests/data/small.yaml");
	g_autofree char *dtmp = g_strdup_printf(".res.tmp-%ld", dead_pid());
	g_autofree char *dold = g_strdup_printf(".res.old-%ld", dead_pid());
	g_autofree char *live = g_strdup_printf(".res.tmp-%ld", (long)getpid());
	g_autofree char *want = g_strdup_printf("%s\nres\n", live), *list = NULL;
	const char *args[] = {"run", scen, "--quiet", "--out", out, NULL};
	struct run r;

	su_run(&r, NULL, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	su_free(&r);
	put_dir(tmp, dtmp, "half-written.csv");
	put_dir(tmp, dold, "summary.yaml");
	put_dir(tmp, live, "being-written.csv");
	su_run(&r, NULL, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	list = top_entries(tmp);
	ck_assert_str_eq(list, want);
	su_free(&r);
	su_rm_rf(tmp);
}
END_TEST

/* A fallback swap killed between its two renames left no DIR and DIR's old contents at
 * .DIR.old-PID: the next run's check puts them back. */
START_TEST(hostile_killed_swap_recovered)
{
	g_autofree char *tmp = su_tmpdir(), *out = g_build_filename(tmp, "res", NULL);
	g_autofree char *scen = tu_src_path("sim/tests/data/small.yaml");
	g_autofree char *old = g_strdup_printf("%s/.res.old-%ld", tmp, dead_pid());
	g_autofree char *before = NULL, *after = NULL;
	const char *args[] = {"run", scen, "--quiet", "--out", out, NULL};
	struct c2c_err err = {0};
	struct run r;

	su_run(&r, NULL, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	su_free(&r);
	before = su_list(out);
	ck_assert_int_eq(g_rename(out, old), 0);
	ck_assert_msg(outdir_check(out, &err), "%s", err.msg);
	ck_assert(!g_file_test(old, G_FILE_TEST_EXISTS));
	after = su_list(out);
	ck_assert_str_eq(after, before);
	su_rm_rf(tmp);
}
END_TEST

/* Start results in @dir through outdir (@no_exchange: the two-rename fallback): one file,
 * report.txt holding @text.  Return: true, with @od ready for outdir_commit(). */
static bool od_start(struct outdir *od, const char *dir, const char *text, bool no_exchange)
{
	g_autofree char *f = NULL;

	od->no_exchange = no_exchange;
	if (!outdir_open(od, dir))
		return false;
	f = g_build_filename(od->tmp, "report.txt", NULL);
	ck_assert(g_file_set_contents(f, text, -1, NULL));
	outdir_wrote(od, "report.txt");
	return true;
}

/* Both swaps replace c2csim's own results and leave nothing beside them. */
START_TEST(hostile_swap_replaces_own)
{
	g_autofree char *tmp = su_tmpdir(), *dir = g_build_filename(tmp, "res", NULL), *text = NULL;
	struct outdir od = {0};

	ck_assert_msg(od_start(&od, dir, "one", _i) && outdir_commit(&od), "%s", od.why);
	outdir_close(&od);
	ck_assert_msg(od_start(&od, dir, "two", _i) && outdir_commit(&od), "%s", od.why);
	outdir_close(&od);
	text = su_slurp(dir, "report.txt");
	ck_assert_str_eq(text, "two");
	ck_assert_int_eq(su_dot_entries(tmp), 0);
	su_rm_rf(tmp);
}
END_TEST

/* A foreign directory that appears at DIR while the run writes is put back, never removed:
 * what was moved away is checked after the move. */
START_TEST(hostile_swap_keeps_foreign)
{
	g_autofree char *tmp = su_tmpdir(), *dir = g_build_filename(tmp, "res", NULL);
	g_autofree char *mine = g_build_filename(dir, "precious.c", NULL), *text = NULL;
	g_autofree char *ours = g_build_filename(dir, "report.txt", NULL);
	g_autofree char *want = g_strdup_printf("%s exists and was not written by c2csim (no "
						".c2csim-results marker); refusing to replace it "
						"(remove it, or choose another --out)", dir);
	struct outdir od = {0};

	ck_assert_msg(od_start(&od, dir, "new", _i), "%s", od.why);
	ck_assert_int_eq(g_mkdir(dir, 0777), 0);
	ck_assert(g_file_set_contents(mine, "int x;", -1, NULL));
	ck_assert(!outdir_commit(&od));
	ck_assert_str_eq(od.why, want);
	outdir_close(&od);
	text = su_slurp(dir, "precious.c");
	ck_assert_str_eq(text, "int x;");
	ck_assert(!g_file_test(ours, G_FILE_TEST_EXISTS));
	ck_assert_int_eq(su_dot_entries(tmp), 0);
	su_rm_rf(tmp);
}
END_TEST

/* ---- inputs that are not regular files, or too large ---------------------------------- */

START_TEST(hostile_inputs_not_regular)
{
	g_autofree char *tmp = su_tmpdir(), *fifo = g_build_filename(tmp, "fifo", NULL);
	g_autofree char *big = g_build_filename(tmp, "big.yaml", NULL);
	g_autofree char *scen = g_build_filename(tmp, "t.yaml", NULL), *text = NULL;
	g_autofree char *mpath = tu_src_path("models/machines/skylake-sp-2s.yaml");
	g_autofree char *p_fifo = g_strconcat(fifo, ":1:1: ", NULL);
	g_autofree char *p_big = g_strconcat(big, ":1:1: ", NULL);
	g_autofree char *p_tmp = g_strconcat(tmp, ":1:1: ", NULL);
	g_autofree char *p_scen = g_strconcat(scen, ":4:15: ", NULL);
	g_autofree char *w_trace = g_strdup_printf("trace.file: %s: is a FIFO, not a regular file "
						   "(expected a regular trace file of at most 256 "
						   "MiB)", fifo);
	const struct {
		const char *args[5], *prefix, *what;
	} cases[] = {
		{{"run", "/dev/zero"}, "/dev/zero:1:1: ", "is a character device, not a regular "
		 "file (expected a regular file of at most 16 MiB)"},
		{{"run", fifo}, p_fifo, "is a FIFO, not a regular file"},
		{{"run", tmp}, p_tmp, "is a directory, not a regular file"},
		{{"run", big}, p_big, "too large: 16777217 bytes (expected a regular file of at most 16 MiB)"},
		{{"run", scen}, p_scen, w_trace},
		{{"layout", "import", fifo}, p_fifo, "is a FIFO, not a regular file (expected "
		 "pahole -C output, a regular file of at most 16 MiB)"},
		{{"layout", "show", "/dev/zero"}, "/dev/zero:1:1: ", "is a character device"},
	};
	int fd;

	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	fd = open(big, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, ((off_t)16 << 20) + 1), 0); /* sparse: no real bytes */
	close(fd);
	text = g_strdup_printf("machine: %s\nseed: 1\nend: {iterations: 1}\ntrace: {file: %s}\n",
			       mpath, fifo);
	ck_assert(g_file_set_contents(scen, text, -1, NULL));
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		double t0 = su_seconds();
		struct run r;

		su_run(&r, tmp, cases[i].args);
		su_assert_bad_input(&r, cases[i].prefix, cases[i].what);
		ck_assert_msg(su_seconds() - t0 < 5.0, "case %zu blocked", i);
		su_free(&r);
	}
	su_rm_rf(tmp);
}
END_TEST

static Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("names");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, hostile_name_refused, 0, G_N_ELEMENTS(bad_names));
	tcase_add_test(tc, hostile_names_never_escape);
	suite_add_tcase(s, tc);
	tc = tcase_create("outdir");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, hostile_foreign_dir_kept);
	tcase_add_test(tc, hostile_output_checked_first);
	tcase_add_test(tc, hostile_stale_leftovers_cleaned);
	tcase_add_test(tc, hostile_killed_swap_recovered);
	tcase_add_loop_test(tc, hostile_swap_replaces_own, 0, 2);
	tcase_add_loop_test(tc, hostile_swap_keeps_foreign, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("inputs");
	tcase_add_test(tc, hostile_inputs_not_regular);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(hostile_suite());
}
