/*
 * hwprobe - measure this host's core-to-core costs and print them beside c2csim's for a
 * machine model, so a user can check a model against the box before trusting it.
 *
 * For each pair of CPUs the process may run on (sched_getaffinity), two threads pinned to
 * them measure:
 *   cas        one-way latency of a CAS ping-pong on one word (each thread waits for its
 *              turn, then LOCK cmpxchg hands the word over): elapsed / handoffs;
 *   lock D     LOCK xadd by both threads at once on two words D bytes apart (D = 0: the same
 *              word), ns per increment of the slower thread;
 *   plain D    the same with plain increments (load, add, store: this_cpu_inc's shape).
 * With --model NAME the same figures come from c2csim: a generated scenario (raw accesses for
 * the increments, a path model for the ping-pong) run through the simulator library on the
 * model's CPUs that stand in the same relation (another core of the socket, the SMT sibling,
 * another socket), and the table shows model / host.
 *
 * Host timing uses CLOCK_MONOTONIC (this is a measuring tool, not the simulator) over batches
 * of 256 operations, and keeps only the batches during which the other thread finished one to
 * eight batches (a shared or virtual machine time-slices its vCPUs: two threads taking turns
 * never bounce a line, and a thread preempted mid-batch sees the other finish many); the
 * figure is the median kept batch.  --repeat multiplies the operations.
 */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scenario/run.h"
#include "scenario/scenario.h"

enum probe { PR_CAS, PR_LOCK, PR_PLAIN, PR_COUNT };

static const int distances[] = {0, 8, 64, 128, 256, 4096};
#define NR_DIST ((int)G_N_ELEMENTS(distances))
#define NR_ROWS (1 + 2 * NR_DIST)

struct opts {
	const char *model;
	int64_t ops, rounds, repeat;
};

/* What hwprobe needs of the model's topology to pick its CPUs. */
struct topo {
	int sockets, nr_cores, smt;
};

/* ------------------------------------------------------------------ host */

#define BATCH 256

struct job {
	int cpu, me;
	enum probe kind;
	int64_t n;
	_Atomic uint64_t *word;     /* cas: the shared flag; lock/plain: this thread's counter */
	_Atomic int64_t *done;      /* batches finished, per thread (own lines) */
	pthread_barrier_t *start;
	double *sample;             /* out: ns per op of each batch the other thread shared */
	int64_t nr_sample;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void one_op(struct job *j, int64_t i)
{
	volatile uint64_t *plain = (volatile uint64_t *)j->word;

	switch (j->kind) {
	case PR_CAS: {
		uint64_t want = 2 * (uint64_t)i + (uint64_t)j->me;

		while (atomic_load_explicit(j->word, memory_order_acquire) != want)
			;
		atomic_compare_exchange_strong(j->word, &want, want + 1);
		break;
	}
	case PR_LOCK:
		atomic_fetch_add(j->word, 1);
		break;
	default:
		(*plain)++;
	}
}

/* Batches of BATCH operations; a batch counts only when the other thread finished one
 * meanwhile, i.e. both really ran at once (a loaded or virtual host time-slices them, and
 * two threads taking turns never bounce a line). */
static void *job_run(void *arg)
{
	struct job *j = arg;
	_Atomic int64_t *other = &j->done[(1 - j->me) * 8];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(j->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_barrier_wait(j->start);
	for (int64_t b = 0; b < j->n / BATCH; b++) {
		int64_t seen = atomic_load(other);
		double t0 = now_ns();

		for (int64_t i = b * BATCH; i < (b + 1) * BATCH; i++)
			one_op(j, i);
		/* the other finished 1 to 8 batches meanwhile: both ran; many more means this
		 * thread was preempted while the other went on alone */
		int64_t d = atomic_load(other) - seen;

		if ((d >= 1 && d <= 8) || j->kind == PR_CAS)
			j->sample[j->nr_sample++] = (now_ns() - t0) / BATCH;
		atomic_fetch_add(&j->done[j->me * 8], 1);
	}
	return NULL;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* One figure on CPUs @a, @b: the median over the shared batches of both threads, in ns per
 * operation (cas: per one-way handoff, half a round trip).  Return: -1 when the threads never
 * ran at the same time. */
static double host_measure(int a, int b, enum probe kind, int dist, const struct opts *o)
{
	_Atomic uint64_t *buf = aligned_alloc(4096, 8192);
	_Atomic int64_t *done = aligned_alloc(64, 128);
	int64_t n = (kind == PR_CAS ? o->rounds : o->ops) * o->repeat;
	g_autofree double *all = g_new(double, 2 * (n / BATCH + 1));
	pthread_barrier_t start;
	pthread_t th[2];
	struct job j[2];
	int64_t nr = 0;
	double med;

	memset((void *)buf, 0, 8192);
	memset((void *)done, 0, 128);
	pthread_barrier_init(&start, NULL, 2);
	for (int i = 0; i < 2; i++) {
		j[i] = (struct job){.cpu = i ? b : a, .me = i, .kind = kind, .start = &start, .n = n,
				    .word = kind == PR_CAS ? buf : buf + (i ? dist / 8 : 0),
				    .done = done, .sample = all + i * (n / BATCH + 1)};
		pthread_create(&th[i], NULL, job_run, &j[i]);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	free((void *)buf);
	free((void *)done);
	memmove(all + j[0].nr_sample, all + (n / BATCH + 1), sizeof(double) * (size_t)j[1].nr_sample);
	nr = j[0].nr_sample + j[1].nr_sample;
	if (nr < 4)
		return -1;
	qsort(all, (size_t)nr, sizeof(double), cmp_double);
	med = all[nr / 2];
	return kind == PR_CAS ? med / 2 : med;
}

/* ------------------------------------------------------------------ model */

static const char pong_layout[] =
	"struct: hwprobe_flag\n"
	"source: \"tools/hwprobe: one word\"\n"
	"members:\n"
	"  - {name: v, type: \"long unsigned int\"}\n";

static const char pong_paths[] =
	"era: hwprobe\n"
	"globals:\n"
	"  flag: {layout: hwprobe_flag}\n"
	"paths:\n"
	"  - name: pong\n"
	"    cite: \"tools/hwprobe: wait for my turn (flag % 2 == me), then LOCK cmpxchg it on\"\n"
	"    params: [me]\n"
	"    body:\n"
	"      - for: {var: s, in: \"range(0, 100000000)\"}\n"
	"        do:\n"
	"          - load: {at: flag.v, into: x}\n"
	"          - if: \"x % 2 == me\"\n"
	"            then: [break]\n"
	"      - cmpxchg: {at: flag.v, old: x, new: \"x + 1\"}\n";

/* Write @text to @dir/@name.  Return: false with a message on stderr. */
static bool put_file(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) e = NULL;

	if (g_file_set_contents(path, text, -1, &e))
		return true;
	fprintf(stderr, "hwprobe: %s\n", e->message);
	return false;
}

/* The scenario for @kind at @dist on model CPUs @a, @b (c2csim's YAML). */
static char *model_scenario(const char *model, enum probe kind, int dist, int a, int b)
{
	GString *s = g_string_new(NULL);
	const char *op = kind == PR_LOCK ? "locked_rmw" : "rmw";

	g_string_append_printf(s, "name: hwprobe\nmachine: %s\nseed: 1\n"
			       "end: {time_us: %d, warmup_us: 20}\n", model,
			       kind == PR_CAS ? 400 : 200);
	if (kind == PR_CAS) {
		g_string_append(s, "layouts: [.]\npaths: [pong.yaml]\nactors:\n");
		for (int i = 0; i < 2; i++)
			g_string_append_printf(s, "  - {name: t%d, cpus: %d, loop: [{call: pong, "
					       "args: [%d]}]}\n", i, i ? b : a, i);
		return g_string_free(s, FALSE);
	}
	g_string_append(s, "regions:\n  - {name: buf, size: 8192, align: 4096}\nactors:\n");
	for (int i = 0; i < 2; i++)
		g_string_append_printf(s, "  - {name: t%d, cpus: %d, loop: [{op: %s, at: buf+%d, "
				       "size: 8}]}\n", i, i ? b : a, op, i ? dist : 0);
	return g_string_free(s, FALSE);
}

/* c2csim's figure for @kind at @dist on model CPUs @a, @b, or a negative value on error. */
static double model_run(const char *dir, const char *model, enum probe kind, int dist, int a,
			int b)
{
	g_autofree char *text = model_scenario(model, kind, dist, a, b);
	g_autofree char *path = g_build_filename(dir, "probe.yaml", NULL);
	struct c2c_err err = {0};
	struct scenario *sc;
	struct run_result *r;
	double v;

	if (!put_file(dir, "probe.yaml", text))
		return -1;
	if (!(sc = scenario_load(path, NULL, 0, false, 0, &err)) ||
	    !(r = run_variant(sc, 0, false, &err))) {
		fprintf(stderr, "hwprobe: %s\n", err.msg);
		scenario_free(sc);
		return -1;
	}
	if (kind == PR_CAS)
		v = (double)r->sim_time / 1e3 /
		    (double)(r->actors[0].iterations + r->actors[1].iterations);
	else
		v = (double)r->sim_time / 1e3 /
		    (double)MIN(r->actors[0].iterations, r->actors[1].iterations);
	run_result_free(r);
	scenario_free(sc);
	return v;
}

/* ------------------------------------------------------------------ topology and table */

/* What @b is to @a on this host: "smt", "core" (another core of the socket) or "socket". */
static const char *host_relation(int a, int b)
{
	char p[128];
	g_autofree char *pa = NULL, *pb = NULL, *sa = NULL;

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", a);
	g_file_get_contents(p, &pa, NULL, NULL);
	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", b);
	g_file_get_contents(p, &pb, NULL, NULL);
	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/core_cpus_list", a);
	if (!g_file_get_contents(p, &sa, NULL, NULL)) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 a);
		g_file_get_contents(p, &sa, NULL, NULL);
	}
	if (pa && pb && strcmp(pa, pb))
		return "socket";
	if (sa) {
		g_auto(GStrv) parts = g_strsplit_set(g_strstrip(sa), ",-", -1);

		for (int i = 1; parts[i]; i++)
			if (atoi(parts[i]) == b)
				return "smt";
	}
	return "core";
}

/* The model's CPU standing in @rel to its CPU 0 (c2csim numbers cores first, then SMT). */
static int model_peer(const struct topo *mc, const char *rel)
{
	if (!strcmp(rel, "smt"))
		return mc->smt > 1 ? mc->nr_cores : 1;
	if (!strcmp(rel, "socket"))
		return mc->nr_cores / mc->sockets;
	return 1;
}

static const char *row_name(int row, char *buf, size_t n)
{
	int d = distances[(row - 1) % NR_DIST];

	if (row == 0)
		return "cas one-way";
	snprintf(buf, n, "%s %s", row <= NR_DIST ? "lock" : "plain",
		 d == 0 ? "same word" : d < 64 ? "same line (8 B)" : "");
	if (d >= 64)
		snprintf(buf, n, "%s %d B apart", row <= NR_DIST ? "lock" : "plain", d);
	return buf;
}

static void probe_pair(int a, int b, const struct opts *o, const char *dir,
		       const struct topo *mc)
{
	const char *rel = host_relation(a, b);
	int peer = mc ? model_peer(mc, rel) : -1;
	char name[64];

	printf("\nCPUs %d and %d (%s)", a, b, !strcmp(rel, "smt") ? "SMT siblings" :
	       !strcmp(rel, "core") ? "two cores of one socket" : "two sockets");
	if (mc)
		printf("; model %s CPUs 0 and %d", o->model, peer);
	printf("\n%-24s %10s", "probe", "host ns");
	if (mc)
		printf(" %10s %8s", "model ns", "model/host");
	printf("\n");
	for (int row = 0; row < NR_ROWS; row++) {
		enum probe kind = row == 0 ? PR_CAS : row <= NR_DIST ? PR_LOCK : PR_PLAIN;
		int d = row ? distances[(row - 1) % NR_DIST] : 0;
		double h = -1;

		for (int tries = 0; tries < 4 && h < 0; tries++) /* a busy host: try again */
			h = host_measure(a, b, kind, d, o);

		if (h < 0)
			printf("%-24s %10s", row_name(row, name, sizeof(name)), "n/a");
		else
			printf("%-24s %10.2f", row_name(row, name, sizeof(name)), h);
		if (mc) {
			double m = model_run(dir, o->model, kind, d, 0, peer);

			if (h > 0)
				printf(" %10.2f %8.2f", m, m / h);
			else
				printf(" %10.2f %8s", m, "-");
		}
		printf("\n");
		fflush(stdout);
	}
}

/* The machine of model @name (through a scenario that only names it), or false. */
static bool load_model(const char *dir, const char *name, struct topo *out)
{
	g_autofree char *text = model_scenario(name, PR_LOCK, 8, 0, 1);
	g_autofree char *path = g_build_filename(dir, "probe.yaml", NULL);
	struct c2c_err err = {0};
	struct scenario *sc;

	if (!put_file(dir, "probe.yaml", text) || !put_file(dir, "pong.yaml", pong_paths) ||
	    !put_file(dir, "hwprobe_flag.yaml", pong_layout))
		return false;
	if (!(sc = scenario_load(path, NULL, 0, false, 0, &err))) {
		fprintf(stderr, "hwprobe: --model %s: %s\n", name, err.msg);
		return false;
	}
	*out = (struct topo){sc->v[0].mc.sockets, sc->v[0].mc.nr_cores, sc->v[0].mc.smt};
	scenario_free(sc);
	return true;
}

int main(int argc, char **argv)
{
	struct opts o = {.ops = 2000000, .rounds = 200000, .repeat = 5};
	gint64 ops = o.ops, rounds = o.rounds, repeat = o.repeat;
	gchar *model = NULL;
	GOptionEntry entries[] = {
		{"model", 'm', 0, G_OPTION_ARG_STRING, &model, "c2csim machine model to compare "
		 "with (a name under models/machines)", "NAME"},
		{"ops", 0, 0, G_OPTION_ARG_INT64, &ops, "increments per thread (default 2000000)",
		 "N"},
		{"rounds", 0, 0, G_OPTION_ARG_INT64, &rounds, "ping-pong round trips (default "
		 "200000)", "N"},
		{"repeat", 0, 0, G_OPTION_ARG_INT64, &repeat, "multiply the operations by N "
		 "(default 5)", "N"},
		{NULL, 0, 0, 0, NULL, NULL, NULL}};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- host core-to-core costs beside "
							     "a c2csim model's");
	g_autoptr(GError) e = NULL;
	g_autofree char *dir = NULL;
	struct topo mc = {0};
	cpu_set_t set;
	int cpus[CPU_SETSIZE], n = 0;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &e) || ops < 1 || rounds < 1 ||
	    repeat < 1) {
		fprintf(stderr, "hwprobe: %s (expected --model NAME, --ops/--rounds/--repeat N >= "
			"1)\n", e ? e->message : "a count below 1");
		return 2;
	}
	o = (struct opts){.model = model, .ops = ops, .rounds = rounds, .repeat = repeat};
	if (sched_getaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "hwprobe: sched_getaffinity: %s\n", strerror(errno));
		return 1;
	}
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	if (n < 2) {
		fprintf(stderr, "hwprobe: only %d CPU to run on (expected at least 2)\n", n);
		return 1;
	}
	if (model && (!(dir = g_dir_make_tmp("hwprobe-XXXXXX", &e)) ||
		      !load_model(dir, model, &mc))) {
		if (e)
			fprintf(stderr, "hwprobe: %s\n", e->message);
		return 2;
	}
	printf("hwprobe: %d CPUs; %" G_GINT64_FORMAT " increments per thread, %" G_GINT64_FORMAT
	       " ping-pong round trips; median of the batches of %d both threads ran\n", n,
	       o.ops * o.repeat, o.rounds * o.repeat, BATCH);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			probe_pair(cpus[i], cpus[j], &o, dir, model ? &mc : NULL);
	if (dir) {
		const char *files[] = {"probe.yaml", "pong.yaml", "hwprobe_flag.yaml"};

		for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
			g_autofree char *p = g_build_filename(dir, files[i], NULL);

			g_unlink(p);
		}
		g_rmdir(dir);
	}
	g_free(model);
	return 0;
}
