/* runwatch.c - interruption and progress of a run; see runwatch.h. */
#include "scenario/runwatch.h"

#include <glib.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signo;
static struct sigaction saved_int, saved_term;

static struct {
	bool on, shown;
	double t0, last, vstart;  /* host seconds: begin, last line, this variant's start */
	double seen;              /* host seconds: this variant's last poll */
	const char *variant;
	uint32_t idx;             /* its index: of variants running at once, the first shows */
} pw;

/* A signal asks the loop to stop; a second one while it does ends the process. */
static void on_stop(int signo)
{
	if (stop_signo) {
		signal(signo, SIG_DFL);
		raise(signo);
		return;
	}
	stop_signo = signo;
}

/* Host time, for the progress line only: it never reaches the simulation. */
static double host_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void runwatch_begin(bool progress)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	stop_signo = 0;
	sigaction(SIGINT, &sa, &saved_int);
	sigaction(SIGTERM, &sa, &saved_term);
	memset(&pw, 0, sizeof(pw));
	pw.on = progress && isatty(STDERR_FILENO);
	pw.t0 = pw.on ? host_seconds() : 0;
}

int runwatch_end(void)
{
	sigaction(SIGINT, &saved_int, NULL);
	sigaction(SIGTERM, &saved_term, NULL);
	if (pw.shown)
		fputs("\r\033[K", stderr);
	memset(&pw, 0, sizeof(pw));
	return stop_signo;
}

int runwatch_signal(void)
{
	return stop_signo;
}

const char *runwatch_signame(int signo)
{
	static char other[24];

	if (signo == SIGINT)
		return "SIGINT";
	if (signo == SIGTERM)
		return "SIGTERM";
	snprintf(other, sizeof(other), "signal %d", signo);
	return other;
}

static void progress(const char *variant, uint32_t idx, simtime_t now, simtime_t end,
		     uint64_t events)
{
	double t = host_seconds();

	if (variant != pw.variant) {
		/* Another variant still polling, and before this one: it keeps the line. */
		if (pw.variant && idx > pw.idx && t - pw.seen < 2 * RUNWATCH_EVERY_S)
			return;
		pw.variant = variant;
		pw.idx = idx;
		pw.vstart = t;
	}
	pw.seen = t;
	if (t - pw.t0 < RUNWATCH_QUIET_S || t - pw.last < RUNWATCH_EVERY_S)
		return;
	pw.last = t;
	pw.shown = true;
	fprintf(stderr, "\rc2csim: %s: %.1f", variant ? variant : "default", (double)now / 1e6);
	if (end)
		fprintf(stderr, " of %.1f", (double)end / 1e6);
	fprintf(stderr, " us simulated, %" PRIu64 " events", events);
	if (end && now && now < end)
		fprintf(stderr, ", about %.0f s left", (t - pw.vstart) * (double)(end - now) / (double)now);
	fputs("\033[K", stderr);
	fflush(stderr);
}

bool runwatch_poll(const char *variant, uint32_t idx, simtime_t now, simtime_t end,
		   uint64_t events)
{
	static GMutex lock; /* variants may run on several threads (cli_run_variants) */

	if (stop_signo)
		return true;
	if (pw.on) {
		g_mutex_lock(&lock);
		progress(variant, idx, now, end, events);
		g_mutex_unlock(&lock);
	}
	return false;
}

const volatile sig_atomic_t *runwatch_flag(void)
{
	return &stop_signo;
}
