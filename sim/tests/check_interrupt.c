/*
 * check_interrupt.c - SIGINT and SIGTERM during `c2csim run` (issue 10): the run stops within
 * a second, what was measured is written marked `complete: false` (summary.yaml and the
 * report's first line), and the exit status is 128 + the signal; progress shows on a
 * terminal only, never with --quiet.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include "spawn_util.h"

extern char **environ;

/* Host seconds after which the signal is sent: loading takes milliseconds, the run many
 * seconds, so the signal comes while it simulates. */
#define SIGNAL_AFTER_S 1.5

/* Start c2csim with @args, stdout to @out_fd and stderr to @err_fd.  Return: its pid. */
static pid_t start(const char *const *args, int out_fd, int err_fd)
{
	GPtrArray *argv = g_ptr_array_new();
	posix_spawn_file_actions_t fa;
	pid_t pid;

	g_ptr_array_add(argv, (char *)su_bin());
	for (; *args; args++)
		g_ptr_array_add(argv, (char *)*args);
	g_ptr_array_add(argv, NULL);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	ck_assert_int_eq(posix_spawn(&pid, su_bin(), &fa, NULL, (char **)argv->pdata, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	g_ptr_array_free(argv, TRUE);
	return pid;
}

static int open_out(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ck_assert_int_ge(fd, 0);
	return fd;
}

/* Run c2csim with @args (stdout and stderr into @tmp), send @signo after SIGNAL_AFTER_S and
 * check that it stops within a second with exit status 128 + @signo. */
static void signal_run(const char *const *args, const char *tmp, int signo)
{
	int fo = open_out(tmp, "stdout"), fe = open_out(tmp, "stderr"), wait;
	pid_t pid = start(args, fo, fe);
	double t0;

	close(fo);
	close(fe);
	g_usleep((gulong)(SIGNAL_AFTER_S * G_USEC_PER_SEC));
	ck_assert_int_eq(kill(pid, signo), 0);
	t0 = su_seconds();
	ck_assert_int_eq(waitpid(pid, &wait, 0), pid);
	ck_assert_msg(su_seconds() - t0 < 1.0, "stopped %.2f s after the signal",
		      su_seconds() - t0);
	ck_assert_int_eq(su_status(wait), 128 + signo);
}

/* Run slow-variants.yaml, send @signo after SIGNAL_AFTER_S, and check what it left. */
static void interrupt_run(int signo, const char *signame)
{
	g_autofree char *tmp = su_tmpdir(), *out = g_build_filename(tmp, "res", NULL);
	g_autofree char *scen = tu_src_path("sim/tests/data/hostile/slow-variants.yaml");
	g_autofree char *sum = NULL, *rep = NULL, *so = NULL, *se = NULL, *first = NULL;
	g_autofree char *want_err = g_strdup_printf("c2csim: incomplete results in %s\n", out);
	const char *args[] = {"run", scen, "--out", out, NULL};
	signal_run(args, tmp, signo);

	sum = su_slurp(out, "summary.yaml");
	ck_assert_msg(strstr(sum, "\ncomplete: false\nvariants:\n  first:\n    complete: false\n"),
		      "%s", sum);
	ck_assert_ptr_null(strstr(sum, "second:")); /* never started */
	rep = su_slurp(out, "report.txt");
	first = g_strdup_printf("INCOMPLETE (complete: false): interrupted by %s in variant first "
				"at ", signame);
	ck_assert_msg(g_str_has_prefix(rep, first), "%.200s", rep);
	ck_assert_ptr_nonnull(strstr(rep, " of 2000000.000 us simulated; not run: second\n"));
	so = su_slurp(tmp, "stdout");
	ck_assert_str_eq(so, rep);
	/* stderr is no terminal: no progress, only where the results are. */
	se = su_slurp(tmp, "stderr");
	ck_assert_str_eq(se, want_err);
	su_rm_rf(tmp);
}

/* A signal stops a path call that would run for hours (10^15 bytes of `work`, no end time,
 * no time limit) within a second too: the interpreter reads the flag between instructions. */
START_TEST(interrupt_stops_a_long_call)
{
	g_autofree char *tmp = su_tmpdir(), *out = g_build_filename(tmp, "res", NULL);
	g_autofree char *scen = tu_src_path("sim/tests/data/hostile/model.yaml");
	g_autofree char *sum = NULL;
	const char *args[] = {"run", scen, "--quiet", "--out", out, "--max-time-us",
			      "18446744073709551615", "--set", "actors[0].loop[0].call=work", "--set",
			      "actors[0].loop[0].args=[root, 1000000000000000]", "--set",
			      "end={iterations: 1}", NULL};
	signal_run(args, tmp, SIGINT);
	sum = su_slurp(out, "summary.yaml");
	ck_assert_msg(strstr(sum, "\ncomplete: false\n"), "%s", sum);
	su_rm_rf(tmp);
}
END_TEST

START_TEST(interrupt_sigint_writes_incomplete)
{
	interrupt_run(SIGINT, "SIGINT");
}
END_TEST

START_TEST(interrupt_sigterm_writes_incomplete)
{
	interrupt_run(SIGTERM, "SIGTERM");
}
END_TEST

/* Everything c2csim writes to the terminal @master until it exits. */
static char *read_pty(int master, pid_t pid, int *status)
{
	GString *s = g_string_new(NULL);
	char buf[4096];
	ssize_t got;
	int wait;

	/* EIO once the child has closed the other end. */
	while ((got = read(master, buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			g_string_append_len(s, buf, got);
	ck_assert_int_eq(waitpid(pid, &wait, 0), pid);
	*status = su_status(wait);
	return g_string_free(s, FALSE);
}

/* Run c2csim with @args, stderr on a pseudo-terminal, for 3 s, then SIGINT: what the
 * terminal showed.  The run must end with 130. */
static char *tty_run(const char *const *args)
{
	int master, slave, status, null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid_t pid;
	char *seen;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	pid = start(args, null, slave);
	close(slave);
	close(null);
	g_usleep(3 * G_USEC_PER_SEC);
	ck_assert_int_eq(kill(pid, SIGINT), 0);
	seen = read_pty(master, pid, &status);
	close(master);
	ck_assert_int_eq(status, 130);
	return seen;
}

/* Progress on stderr when it is a terminal and the run lasts over 2 s; none with --quiet. */
START_TEST(interrupt_progress_on_terminal)
{
	g_autofree char *tmp = su_tmpdir(), *out = g_build_filename(tmp, "res", NULL);
	g_autofree char *scen = tu_src_path("sim/tests/data/hostile/slow-variants.yaml");
	const char *loud[] = {"run", scen, "--out", out, NULL};
	const char *hush[] = {"run", scen, "--out", out, "--quiet", NULL};
	g_autofree char *seen = tty_run(loud), *quiet = tty_run(hush);

	ck_assert_msg(strstr(seen, "\rc2csim: first: ") && strstr(seen, " of 2000000.0 us "
		      "simulated, ") && strstr(seen, " events, about ") && strstr(seen, " s left"),
		      "%s", seen);
	/* Erased before the last line. */
	ck_assert_ptr_nonnull(strstr(seen, "\r\033[Kc2csim: incomplete results in "));
	ck_assert_ptr_null(strstr(quiet, "simulated"));
	su_rm_rf(tmp);
}
END_TEST

static Suite *interrupt_suite(void)
{
	Suite *s = suite_create("interrupt");
	TCase *tc = tcase_create("signals");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, interrupt_sigint_writes_incomplete);
	tcase_add_test(tc, interrupt_sigterm_writes_incomplete);
	tcase_add_test(tc, interrupt_progress_on_terminal);
	tcase_add_test(tc, interrupt_stops_a_long_call);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(interrupt_suite());
}
