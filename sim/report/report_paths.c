/* report_paths.c - what a run of kernel paths adds to the reports: throughput, lock
 * statistics, path costs and counter accuracy; see report.h for the design. */
#include "report/report.h"

#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "path/interp.h"
#include "path/path.h"

#define CELL REPORT_CELL

/* ------------------------------------------------------------------ numbers */

static const char *fmt_u(char *b, uint64_t x)
{
	snprintf(b, CELL, "%" PRIu64, x);
	return b;
}

static const char *fmt_i(char *b, int64_t x)
{
	snprintf(b, CELL, "%" PRId64, x);
	return b;
}

/* Picoseconds as nanoseconds with two decimals, truncated: 12345 -> "12.34". */
static const char *fmt_ns(char *b, uint64_t ps)
{
	snprintf(b, CELL, "%" PRIu64 ".%02" PRIu64, (uint64_t)(ps / PS_PER_NS),
		 (uint64_t)(ps % PS_PER_NS / 10));
	return b;
}

/* @x / @n with one decimal, truncated; "-" for n == 0 (no top-level call to divide by). */
static const char *fmt_per(char *b, uint64_t x, uint64_t n)
{
	unsigned __int128 q;

	if (!n) {
		snprintf(b, CELL, "-");
		return b;
	}
	q = (unsigned __int128)x * 10 / n;
	snprintf(b, CELL, "%" PRIu64 ".%" PRIu64, (uint64_t)(q / 10), (uint64_t)(q % 10));
	return b;
}

/* The @k-th smallest of @v[0..@n) (0-based), moving the values around: Hoare's selection,
 * linear on average where a sort is n log n (a run keeps a latency sample per call). */
static uint64_t select_kth(uint64_t *v, int64_t n, int64_t k)
{
	int64_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint64_t pivot = v[lo + (hi - lo) / 2], x;
		int64_t i = lo, j = hi;

		/* After it, [lo, j] <= pivot <= [i, hi] and what lies between equals it. */
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				x = v[i];
				v[i++] = v[j];
				v[j--] = x;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

void report_dist_of(const struct samples *s, struct report_dist *d)
{
	uint64_t *v;

	memset(d, 0, sizeof(*d));
	if (!s->nr)
		return;
	/* A copy: the run is const to reports. */
	v = g_new(uint64_t, s->nr);
	memcpy(v, s->v, sizeof(uint64_t) * s->nr);
	*d = (struct report_dist){
		.nr = s->nr, .min = s->min, .max = s->max, .total = s->total,
		.avg = s->total / s->nr,
		/* samples_percentile()'s rank, so the numbers match the interpreter's own */
		.p50 = select_kth(v, (int64_t)s->nr, (int64_t)((s->nr - 1) * 50 / 100)),
		.p99 = select_kth(v, (int64_t)s->nr, (int64_t)((s->nr - 1) * 99 / 100)),
	};
	g_free(v);
}

uint64_t report_iterations(const struct run_result *r)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < r->nr_actors; i++)
		n += r->actors[i].iterations;
	return n;
}

uint64_t report_ops_per_sec(uint64_t iterations, simtime_t sim_time)
{
	unsigned __int128 q;

	if (!sim_time)
		return 0;
	q = (unsigned __int128)iterations * PS_PER_S / sim_time; /* no overflow before / */
	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

const struct program *report_prog(const struct run_result *r)
{
	return r->world && r->world->prog ? r->world->prog : r->prog;
}

char *report_lock_name(const struct run_result *r, uint64_t addr)
{
	const struct objmap *om = r->objs ? r->objs : r->mem ? r->mem->objs : NULL;

	return objmap_label(om, om ? objmap_find(om, addr) : OBJ_NONE, addr);
}

/* Paths with statistics: those the world counted (pstats has prog->nr_paths entries). */
static uint32_t nr_paths(const struct run_result *r)
{
	const struct program *p = report_prog(r);

	return r->world && p ? p->nr_paths : 0;
}

static uint32_t nr_counters(const struct run_result *r)
{
	const struct program *p = report_prog(r);

	return r->world && p ? p->nr_counters : 0;
}

/* ------------------------------------------------------------------ sections */

/* The first column's width: its title, or the longest of @names[0..n) if longer. */
static int name_width(const char *title, char **names, uint32_t n)
{
	int w = (int)strlen(title);

	for (uint32_t i = 0; i < n; i++)
		w = MAX(w, (int)strlen(names[i]));
	return w;
}

static void print_throughput(FILE *f, const struct run_result *r)
{
	struct report_col cols[4] = {
		{"", "Actor", 0, true}, {"", "Threads", 7, false},
		{"", "Iterations", 12, false}, {"", "Ops/sec", 14, false},
	};
	char **names = g_new0(char *, r->nr_actors + 1);
	char b[3][CELL];
	uint64_t it = report_iterations(r);

	for (uint32_t i = 0; i < r->nr_actors; i++)
		names[i] = r->actors[i].name;
	cols[0].width = name_width("Actor", names, r->nr_actors);
	report_section(f, "Throughput");
	fprintf(f, "  %-22s : %" PRIu64 "\n", "Iterations", it);
	fprintf(f, "  %-22s : %" PRIu64 "\n\n", "Ops per second",
		report_ops_per_sec(it, r->sim_time));
	report_table_head(f, cols, 4);
	for (uint32_t i = 0; i < r->nr_actors; i++) {
		const struct actor_result *a = &r->actors[i];
		const char *cells[4] = {
			a->name, fmt_u(b[0], a->nr_threads), fmt_u(b[1], a->iterations),
			fmt_u(b[2], report_ops_per_sec(a->iterations, r->sim_time)),
		};

		report_table_row(f, cols, 4, cells);
	}
	fputc('\n', f);
	g_free(names);
}

enum { LK_NAME, LK_NCOL = 17 };

/* /proc/lock_stat's columns, in its order and words, then the percentiles it lacks. */
static const struct report_col lock_cols[LK_NCOL] = {
	{"", "class name", 0, true},        {"", "con-bounces", 11, false},
	{"", "contentions", 11, false},     {"", "waittime-min", 12, false},
	{"", "waittime-max", 12, false},    {"", "waittime-total", 14, false},
	{"", "waittime-avg", 12, false},    {"", "acq-bounces", 11, false},
	{"", "acquisitions", 12, false},    {"", "holdtime-min", 12, false},
	{"", "holdtime-max", 12, false},    {"", "holdtime-total", 14, false},
	{"", "holdtime-avg", 12, false},    {"", "wait-p50", 10, false},
	{"", "wait-p99", 10, false},        {"", "hold-p50", 10, false},
	{"", "hold-p99", 10, false},
};

static void print_lock_row(FILE *f, const struct report_col *cols, const struct lockstat *ls,
			   const char *name)
{
	struct report_dist w, h;
	char b[LK_NCOL][CELL];
	const char *cells[LK_NCOL];

	report_dist_of(&ls->wait, &w);
	report_dist_of(&ls->hold, &h);
	cells[0] = name;
	cells[1] = fmt_u(b[1], ls->con_bounces);
	cells[2] = fmt_u(b[2], ls->contentions);
	cells[3] = fmt_ns(b[3], w.min);
	cells[4] = fmt_ns(b[4], w.max);
	cells[5] = fmt_ns(b[5], w.total);
	cells[6] = fmt_ns(b[6], w.avg);
	cells[7] = fmt_u(b[7], ls->acq_bounces);
	cells[8] = fmt_u(b[8], ls->acquisitions);
	cells[9] = fmt_ns(b[9], h.min);
	cells[10] = fmt_ns(b[10], h.max);
	cells[11] = fmt_ns(b[11], h.total);
	cells[12] = fmt_ns(b[12], h.avg);
	cells[13] = fmt_ns(b[13], w.p50);
	cells[14] = fmt_ns(b[14], w.p99);
	cells[15] = fmt_ns(b[15], h.p50);
	cells[16] = fmt_ns(b[16], h.p99);
	report_table_row(f, cols, LK_NCOL, cells);
}

/* Rows in the world's order (first use): the order lock_stat lists classes in is no help
 * for comparing runs, and first use is deterministic. */
static void print_locks(FILE *f, const struct run_result *r)
{
	const struct world *w = r->world;
	struct report_col cols[LK_NCOL];
	char **names = g_new0(char *, w->nr_locks + 1);
	uint32_t n = 0;

	for (uint32_t i = 0; i < w->nr_locks; i++)
		if (w->locks[i].acquisitions)
			names[n++] = report_lock_name(r, w->locks[i].addr);
	memcpy(cols, lock_cols, sizeof(cols));
	cols[LK_NAME].width = name_width("class name", names, n);
	report_section(f, "Lock statistics");
	fputs("  times in ns; wait times are of contended acquisitions\n\n", f);
	report_table_head(f, cols, LK_NCOL);
	for (uint32_t i = 0, k = 0; i < w->nr_locks; i++)
		if (w->locks[i].acquisitions)
			print_lock_row(f, cols, &w->locks[i], names[k++]);
	fputc('\n', f);
	g_strfreev(names);
}

enum { PC_NCOL = 8 };

static void print_path_row(FILE *f, const struct report_col *cols, const char *name,
			   const struct pathstat *ps, const struct report_dist *d)
{
	char b[PC_NCOL][CELL];
	const char *cells[PC_NCOL] = {
		name, fmt_u(b[1], ps->calls), fmt_ns(b[2], d->avg), fmt_ns(b[3], d->p50),
		fmt_ns(b[4], d->p99), fmt_ns(b[5], d->max), fmt_per(b[6], ps->lines, ps->top_calls),
		fmt_per(b[7], ps->remote, ps->top_calls),
	};

	report_table_row(f, cols, PC_NCOL, cells);
}

static void print_paths(FILE *f, const struct run_result *r)
{
	const struct program *p = report_prog(r);
	struct report_col cols[PC_NCOL] = {
		{"", "Path", 4, true},           {"", "Calls", 10, false},
		{"Latency ns", "mean", 10, false}, {"Latency ns", "p50", 10, false},
		{"Latency ns", "p99", 10, false},  {"Latency ns", "max", 10, false},
		{"Per top-level call", "lines", 10, false},
		{"Per top-level call", "remote", 10, false},
	};

	for (uint32_t i = 0; i < nr_paths(r); i++)
		if (r->world->pstats[i].calls)
			cols[0].width = MAX(cols[0].width, (int)strlen(p->paths[i].name));
	report_section(f, "Path costs");
	report_table_head(f, cols, PC_NCOL);
	for (uint32_t i = 0; i < nr_paths(r); i++) {
		const struct pathstat *ps = &r->world->pstats[i];
		struct report_dist d;

		if (!ps->calls)
			continue;
		report_dist_of(&ps->lat, &d);
		print_path_row(f, cols, p->paths[i].name, ps, &d);
	}
	fputc('\n', f);
}

static void print_counters(FILE *f, const struct run_result *r)
{
	const struct program *p = report_prog(r);
	struct report_col cols[5] = {
		{"", "Counter", 7, true},     {"", "Reads", 10, false}, {"", "Truth", 14, false},
		{"", "Read", 14, false}, {"", "Max abs error", 14, false},
	};
	char b[4][CELL];

	for (uint32_t i = 0; i < nr_counters(r); i++)
		if (r->world->cstats[i].reads)
			cols[0].width = MAX(cols[0].width, (int)strlen(p->counters[i]));
	report_section(f, "Counter accuracy");
	fputs("  truth and read: the last read and the exact value when it was made\n\n", f);
	report_table_head(f, cols, 5);
	for (uint32_t i = 0; i < nr_counters(r); i++) {
		const struct counterstat *c = &r->world->cstats[i];
		const char *cells[5] = {
			p->counters[i], fmt_u(b[0], c->reads), fmt_i(b[1], c->last_truth),
			fmt_i(b[2], c->last_read), fmt_u(b[3], c->max_abs_error),
		};

		if (c->reads)
			report_table_row(f, cols, 5, cells);
	}
	fputc('\n', f);
}

void report_print_world(FILE *f, const struct run_result *r)
{
	/* Raw-access runs have actors and iterations too: their throughput is shown as well. */
	if (r->nr_actors)
		print_throughput(f, r);
	if (!r->world)
		return;
	print_locks(f, r);
	print_paths(f, r);
	print_counters(f, r);
}
