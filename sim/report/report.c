/* report.c - the perf-c2c-style stdout report; see report.h for the design. */
#include "report/report.h"

#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define DASHES REPORT_DASHES
#define CELL REPORT_CELL

/* One row of the cacheline table: a line, or a 128-byte pair of lines (--double-cl). */
struct rline {
	uint64_t addr;        /* line address, or pair address (bit 6 clear) */
	uint32_t idx[2];      /* member lines in address order; idx[1] is DIR_NONE for one */
	uint64_t c[LS_COUNT]; /* counters summed over the members */
	uint64_t key;         /* primary sort key, from report.sort */
	uint32_t cpus;        /* distinct CPUs with demand accesses */
	bool shared;          /* some member passes report_line_shared() */
};

/* ------------------------------------------------------------------ small formatters */

static const char *fmt_u(char *b, uint64_t x)
{
	snprintf(b, CELL, "%" PRIu64, x);
	return b;
}

/* x / tot in tenths of a percent, truncated: integers only, so every host prints the same. */
static const char *fmt_pct(char *b, uint64_t x, uint64_t tot)
{
	uint64_t q = tot ? x * 1000 / tot : 0;

	snprintf(b, CELL, "%" PRIu64 ".%" PRIu64 "%%", q / 10, q % 10);
	return b;
}

/* Average latency in cycles of the machine: @ps_total over @count accesses. */
static uint64_t avg_cycles(uint64_t ps_total, uint64_t count, const struct machine *mc)
{
	uint64_t cycle = mc && mc->cycle ? mc->cycle : 1;

	return count ? ps_total / count / cycle : 0;
}

static const struct objmap *run_objs(const struct run_result *r)
{
	return r->objs ? r->objs : r->mem->objs;
}

/* "name+0xOFF" for the start of a line inside object @obj, or "-".  Caller g_free()s. */
static char *obj_label(const struct objmap *om, uint32_t obj, uint64_t addr)
{
	g_autofree char *name = objmap_name(om, obj);
	struct obj o;

	if (!name || !objmap_get(om, obj, &o))
		return g_strdup("-");
	return g_strdup_printf("%s+0x%" PRIx64, name, addr - o.base);
}

/* ------------------------------------------------------------------ selecting lines */

void report_totals(const struct mem *m, uint64_t tot[LS_COUNT])
{
	stats_totals(m, tot);
}

bool report_line_shared(const struct mem *m, uint32_t idx)
{
	/* A shared line always has its own record (mem/mstats.h): most lines have none. */
	return stats_line_tracked(m, idx) && (stats_line_nr_cpus(m, idx) > 1 ||
	       stats_line(m, idx, LS_HITM_LCL) + stats_line(m, idx, LS_HITM_RMT) ||
	       stats_line(m, idx, LS_PF_HITM));
}

static uint32_t cpus_union(const struct mem *m, const uint32_t idx[2])
{
	uint64_t bits[C2C_MAX_CPUS / 64] = {0};
	stats_line_cpus(m, idx[0], bits);
	if (idx[1] != DIR_NONE)
		stats_line_cpus(m, idx[1], bits);
	return c2c_popcount_words(bits, stats_cpu_words(m));
}

static uint64_t sort_key(const struct rline *rl, enum report_sort sort)
{
	switch (sort) {
	case SORT_LCL:
		return rl->c[LS_HITM_LCL];
	case SORT_RMT:
		return rl->c[LS_HITM_RMT];
	default:
		return rl->c[LS_HITM_LCL] + rl->c[LS_HITM_RMT];
	}
}

static int cmp_desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a < b ? 1 : -1;
}

/* Hottest first; the address is unique, so the order is total and qsort's instability can't
 * show. */
static int rline_cmp(const void *pa, const void *pb)
{
	const struct rline *a = pa, *b = pb;
	int d;

	if ((d = cmp_desc(a->key, b->key)) ||
	    (d = cmp_desc(a->c[LS_HITM_LCL] + a->c[LS_HITM_RMT],
			  b->c[LS_HITM_LCL] + b->c[LS_HITM_RMT])) ||
	    (d = cmp_desc(a->c[LS_PF_HITM], b->c[LS_PF_HITM])) ||
	    (d = cmp_desc(a->c[LS_STORES], b->c[LS_STORES])))
		return d;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/*
 * build_rows - one struct rline per line (per pair with @pair) in first-touch order.  A pair
 * is created by whichever of its lines was touched first; the other joins it.  Only the shared
 * rows are kept (in first-touch order), then sorted: a replay touches millions of lines that
 * one CPU read, and the tables never show them.  Return: the array (g_free) of the *@nr_shared
 * shared rows; *@nr counts all rows.
 */
static struct rline *build_rows(const struct mem *m, bool pair, enum report_sort sort,
				uint32_t *nr, uint32_t *nr_shared)
{
	struct rline *v = NULL, rl;
	uint32_t n = 0, ns = 0, cap = 0;

	for (uint32_t i = 0; i < stats_nr_lines(m); i++) {
		uint64_t addr = stats_line_addr(m, i);
		uint32_t buddy = pair && stats_line_size(m) == 64 ? stats_find_line(m, addr ^ 64)
								  : DIR_NONE;

		if (buddy != DIR_NONE && buddy < i)
			continue; /* already in its pair */
		n++;
		memset(&rl, 0, sizeof(rl));
		rl.addr = pair ? addr & ~(uint64_t)127 : addr;
		rl.idx[0] = buddy != DIR_NONE && stats_line_addr(m, buddy) < addr ? buddy : i;
		rl.idx[1] = buddy == DIR_NONE ? DIR_NONE : rl.idx[0] == i ? buddy : i;
		for (int k = 0; k < 2 && rl.idx[k] != DIR_NONE; k++)
			rl.shared |= report_line_shared(m, rl.idx[k]);
		if (!rl.shared)
			continue;
		for (int k = 0; k < 2 && rl.idx[k] != DIR_NONE; k++)
			for (int s = 0; s < LS_COUNT; s++)
				rl.c[s] += stats_line(m, rl.idx[k], s);
		rl.cpus = cpus_union(m, rl.idx);
		rl.key = sort_key(&rl, sort);
		if (ns == cap) {
			cap = cap ? 2 * cap : 64;
			v = g_renew(struct rline, v, cap);
		}
		v[ns++] = rl;
	}
	if (ns)
		qsort(v, ns, sizeof(*v), rline_cmp);
	*nr = n;
	*nr_shared = ns;
	return v ? v : g_new0(struct rline, 1);
}

/* The object column of a table row: the lower line's label, and the upper line's too when
 * it belongs to another named object (a pair straddling two objects is where the prefetcher
 * makes false sharing). */
static char *row_label(const struct run_result *r, const struct rline *rl)
{
	const struct mem *m = r->mem;
	uint32_t lo = rl->idx[0], hi = rl->idx[1];
	char *a = obj_label(run_objs(r), stats_line_obj(m, lo), stats_line_addr(m, lo)), *b, *ab;

	if (hi == DIR_NONE)
		return a;
	if (stats_line_obj(m, hi) == stats_line_obj(m, lo) || stats_line_obj(m, hi) == OBJ_NONE)
		return a;
	b = obj_label(run_objs(r), stats_line_obj(m, hi), stats_line_addr(m, hi));
	ab = g_strdup_printf("%s|%s", a, b);
	g_free(a);
	g_free(b);
	return ab;
}

/* ------------------------------------------------------------------ sections */

static void print_header(FILE *f, const struct scenario *sc, const struct variant *v,
			 const struct run_result *r)
{
	report_section(f, "c2csim report");
	fprintf(f, "  %-22s : %s\n", "Scenario", sc && sc->name ? sc->name : "-");
	fprintf(f, "  %-22s : %s\n", "Variant", r->variant ? r->variant : v ? v->name : "-");
	fprintf(f, "  %-22s : %s\n", "Machine", r->mc && r->mc->name ? r->mc->name : "-");
	fprintf(f, "  %-22s : %" PRIu64 "\n", "Seed", v ? v->seed : 0);
	fprintf(f, "  %-22s : %" PRIu64 ".%03" PRIu64 " us\n", "Simulated time",
		(uint64_t)(r->sim_time / PS_PER_US),
		(uint64_t)(r->sim_time % PS_PER_US / PS_PER_NS));
	fprintf(f, "  %-22s : %" PRIu64 "\n", "Events", r->events);
	fprintf(f, "  %-22s : %" PRIu64 "\n", "Accesses", stats_accesses(r->mem));
	for (uint32_t i = 0; i < r->nr_actors; i++)
		fprintf(f, "  Actor %-16s : %" PRIu32 " threads, %" PRIu64 " iterations\n",
			r->actors[i].name, r->actors[i].nr_threads, r->actors[i].iterations);
	fputc('\n', f);
}

/* The counter that a latency total (ps) is averaged over, or -1 for a plain counter. */
static int lat_count(int k)
{
	switch (k) {
	case LS_CYC_HITM_LCL:
		return LS_HITM_LCL;
	case LS_CYC_HITM_RMT:
		return LS_HITM_RMT;
	case LS_CYC_LOAD:
		return LS_LOADS;
	default:
		return -1;
	}
}

/* Every counter of the registry, so a new one shows up here without touching this file. */
static void print_trace_events(FILE *f, const struct run_result *r, const uint64_t *tot)
{
	report_section(f, "Trace Event Information");
	for (int k = 0; k < LS_COUNT; k++) {
		int cnt = lat_count(k);

		if (cnt < 0) {
			fprintf(f, "  %-20s : %14" PRIu64 "  %s\n", lstat_info[k].key, tot[k],
				lstat_info[k].desc);
			continue;
		}
		/* The report speaks ns, rounded (and cycles, as perf c2c does); the registry's key
		 * and summary.yaml keep the exact ps. */
		char key[32];
		size_t n = strlen(lstat_info[k].key);

		snprintf(key, sizeof(key), "%.*s_ns", (int)(n > 3 ? n - 3 : n), lstat_info[k].key);
		fprintf(f, "  %-20s : %14" PRIu64 "  %s, ns (avg %" PRIu64 " cycles)\n", key,
			(tot[k] + 500) / 1000, lstat_info[k].desc, avg_cycles(tot[k], tot[cnt], r->mc));
	}
	fputc('\n', f);
}

static void global_row(FILE *f, const char *unit, const char *what, uint32_t n)
{
	char label[64];

	snprintf(label, sizeof(label), "%s %s", unit, what);
	fprintf(f, "  %-36s : %10" PRIu32 "\n", label, n);
}

static void print_global(FILE *f, const struct rline *rows, uint32_t nr, uint32_t nr_shared,
			 uint32_t shown, bool pair)
{
	const char *unit = pair ? "128-byte pairs" : "Cache lines";
	uint32_t hitm = 0, pf = 0;

	for (uint32_t i = 0; i < nr_shared; i++) {
		hitm += (rows[i].c[LS_HITM_LCL] + rows[i].c[LS_HITM_RMT]) != 0;
		pf += rows[i].c[LS_PF_HITM] != 0;
	}

	report_section(f, "Global Shared Cache Line Event Information");
	global_row(f, unit, "touched", nr);
	global_row(f, unit, "shared", nr_shared);
	global_row(f, unit, "with HITMs", hitm);
	global_row(f, unit, "with prefetch HITMs", pf);
	global_row(f, unit, "in the table", shown);
	fputc('\n', f);
}

enum { LT_INDEX, LT_ADDR, LT_OBJ, LT_NODE, LT_NCOL = 20 };

static const struct report_col line_cols[LT_NCOL] = {
	{"", "Index", 5, false},          {"", "Address", 18, true},
	{"", "Object", 6, true},          {"", "Node", 4, false},
	{"HITM", "Tot", 7, false},        {"HITM", "Lcl", 7, false},
	{"HITM", "Rmt", 7, false},        {"Prefetch", "Hitm", 7, false},
	{"Prefetch", "Caused", 7, false}, {"Total", "Records", 8, false},
	{"Total", "Loads", 8, false},     {"Total", "Stores", 8, false},
	{"Store", "L1Hit", 8, false},     {"Store", "L1Miss", 8, false},
	{"Load Hit", "LclHit", 8, false}, {"Load Hit", "RmtHit", 8, false},
	{"Dram", "Lcl", 8, false},        {"Dram", "Rmt", 8, false},
	{"", "Inv recv", 8, false},       {"", "CPUs", 4, false},
};

static void print_line_table(FILE *f, const struct run_result *r, const struct rline *rows,
			     uint32_t shown, char **labels)
{
	static const int8_t cnt[LT_NCOL] = {
		-1, -1, -1, -1, -1, LS_HITM_LCL, LS_HITM_RMT, LS_PF_HITM, LS_PF_CAUSED_HITM, -1,
		LS_LOADS, LS_STORES, LS_ST_L1HIT, LS_ST_L1MISS, LS_LD_LLC, LS_LD_RMT_HIT,
		LS_LD_DRAM_LCL, LS_LD_DRAM_RMT, LS_INV_RECV, -1,
	};
	struct report_col cols[LT_NCOL];
	char buf[LT_NCOL][CELL];
	const char *cells[LT_NCOL];

	memcpy(cols, line_cols, sizeof(cols));
	for (uint32_t i = 0; i < shown; i++)
		cols[LT_OBJ].width = MAX(cols[LT_OBJ].width, (int)strlen(labels[i]));
	report_section(f, "Shared Data Cache Line Table");
	report_table_head(f, cols, LT_NCOL);
	for (uint32_t i = 0; i < shown; i++) {
		const struct rline *rl = &rows[i];

		for (int k = 0; k < LT_NCOL; k++)
			cells[k] = cnt[k] >= 0 ? fmt_u(buf[k], rl->c[cnt[k]]) : buf[k];
		fmt_u(buf[LT_INDEX], i);
		snprintf(buf[LT_ADDR], CELL, "0x%" PRIx64, rl->addr);
		cells[LT_OBJ] = labels[i];
		fmt_u(buf[LT_NODE], stats_line_home(r->mem, rl->idx[0]));
		fmt_u(buf[4], rl->c[LS_HITM_LCL] + rl->c[LS_HITM_RMT]);
		fmt_u(buf[9], rl->c[LS_LOADS] + rl->c[LS_STORES]);
		fmt_u(buf[LT_NCOL - 1], rl->cpus);
		report_table_row(f, cols, LT_NCOL, cells);
	}
	fputc('\n', f);
}

/* One orow and its offset within the table row's line or pair.  A Pareto row is the run of
 * prows with one (offset, site), or with report.callers one (offset, site, caller). */
struct prow {
	uint32_t orow;
	uint32_t off;
	uint32_t site, caller;
};

static int prow_cmp(const void *pa, const void *pb)
{
	const struct prow *a = pa, *b = pb;

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->site != b->site)
		return a->site < b->site ? -1 : 1;
	return a->caller < b->caller ? -1 : a->caller > b->caller;
}

static bool same_prow(const struct prow *a, const struct prow *b, bool callers)
{
	return a->off == b->off && a->site == b->site && (!callers || a->caller == b->caller);
}

/* The rows of @rl sorted by offset, site, caller.  Return: *@n rows (g_free). */
static struct prow *collect_prows(const struct mem *m, const struct rline *rl, uint32_t *n)
{
	struct prow *v = NULL;
	uint32_t nr = 0, cap = 0;

	for (int k = 0; k < 2 && rl->idx[k] != DIR_NONE; k++) {
		uint64_t base = stats_line_addr(m, rl->idx[k]) - rl->addr;

		for (uint32_t o = stats_line_first_orow(m, rl->idx[k]); o != DIR_NONE;
		     o = stats_orow_next(m, o)) {
			struct orow row;

			if (nr == cap) {
				cap = cap ? 2 * cap : 16;
				v = g_renew(struct prow, v, cap);
			}
			stats_orow(m, o, &row);
			v[nr++] = (struct prow){o, (uint32_t)(base + row.off), row.site, row.caller};
		}
	}
	if (nr)
		qsort(v, nr, sizeof(*v), prow_cmp);
	*n = nr;
	return v;
}

enum { PT_OFF = 4, PT_SITE = 5, PT_NCOL = 11 };

static const struct report_col pareto_cols[PT_NCOL] = {
	{"HITM", "Rmt %", 7, false},        {"HITM", "Lcl %", 7, false},
	{"Store", "L1Hit", 9, false},       {"Store", "L1Miss", 9, false},
	{"", "Off", 5, false},              {"", "Code address", 12, true},
	{"cycles", "rmt hitm", 9, false},   {"cycles", "lcl hitm", 9, false},
	{"cycles", "load", 9, false},       {"", "cpu cnt", 7, false},
	{"", "Object", 0, true},
};

static const char *site_name(const struct run_result *r, uint32_t site)
{
	return site < r->nr_sites && r->site_names && r->site_names[site] ? r->site_names[site]
									  : "?";
}

/* The counters of the @n prows at @p summed into *@o; return: how many CPUs touched them. */
static uint32_t sum_prows(const struct mem *m, const struct prow *p, uint32_t n, struct orow *o)
{
	uint64_t bits[C2C_MAX_CPUS / 64] = {0};

	memset(o, 0, sizeof(*o));
	for (uint32_t k = 0; k < n; k++)
		for (int c = 0; c < OS_COUNT; c++)
			o->c[c] += stats_orow_get(m, p[k].orow, c);
	for (uint32_t k = 0; k < n; k++)
		stats_orow_cpus(m, p[k].orow, bits);
	return c2c_popcount_words(bits, stats_cpu_words(m));
}

/* The code address of a Pareto row: its site, or with @callers "site <- caller". */
static char *code_label(const struct run_result *r, const struct prow *p, bool callers)
{
	if (!callers || p->caller == DIR_NONE)
		return g_strdup(site_name(r, p->site));
	return g_strdup_printf("%s <- %s", site_name(r, p->site), site_name(r, p->caller));
}

/* The Pareto row of the @n prows at @p (one offset and site, and caller with @callers). */
static void print_prow(FILE *f, const struct report_col *cols, const struct run_result *r,
		       const struct rline *rl, const struct prow *p, uint32_t n, bool callers)
{
	g_autofree char *code = code_label(r, p, callers);
	struct orow sum;
	const struct orow *o = &sum;
	uint32_t cpus = sum_prows(r->mem, p, n, &sum);
	const struct objmap *om = run_objs(r);
	uint64_t addr = rl->addr + p->off;
	uint32_t obj = om ? objmap_find(om, addr) : OBJ_NONE;
	char buf[PT_NCOL][CELL], *label = objmap_label(om, obj, addr);
	const char *cells[PT_NCOL] = {
		fmt_pct(buf[0], o->c[OS_HITM_RMT], rl->c[LS_HITM_RMT]),
		fmt_pct(buf[1], o->c[OS_HITM_LCL], rl->c[LS_HITM_LCL]),
		fmt_u(buf[2], o->c[OS_ST_L1HIT]),
		fmt_u(buf[3], o->c[OS_ST_L1MISS]),
		buf[PT_OFF],
		code,
		fmt_u(buf[6], avg_cycles(o->c[OS_CYC_HITM_RMT], o->c[OS_HITM_RMT], r->mc)),
		fmt_u(buf[7], avg_cycles(o->c[OS_CYC_HITM_LCL], o->c[OS_HITM_LCL], r->mc)),
		fmt_u(buf[8], avg_cycles(o->c[OS_CYC_LOAD], o->c[OS_LOADS], r->mc)),
		buf[9],
		label,
	};

	snprintf(buf[PT_OFF], CELL, "0x%" PRIx32, p->off);
	fmt_u(buf[9], cpus);
	report_table_row(f, cols, PT_NCOL, cells);
	g_free(label);
}

/* " (mem_cgroup_per_node line 2)" into @buf for a line inside a struct instance, "" else. */
static const char *struct_line(const struct run_result *r, uint64_t addr, char *buf, size_t n)
{
	const struct objmap *om = run_objs(r);
	uint32_t i = om ? objmap_find(om, addr) : OBJ_NONE;
	struct obj o;

	buf[0] = 0;
	if (objmap_get(om, i, &o) && o.type)
		snprintf(buf, n, " (%s line %" PRIu64 ")", o.type, (addr - o.base) / 64);
	return buf;
}

/* The code address column's width: every site name, and with @callers every "site <- caller"
 * of the shown rows. */
static int code_width(const struct run_result *r, const struct rline *rows, uint32_t shown,
		      bool callers)
{
	int w = pareto_cols[PT_SITE].width;

	for (uint32_t s = 0; s < r->nr_sites; s++)
		w = MAX(w, (int)strlen(site_name(r, s)));
	for (uint32_t i = 0; callers && i < shown; i++) {
		uint32_t n;
		struct prow *p = collect_prows(r->mem, &rows[i], &n);

		for (uint32_t k = 0; k < n; k++) {
			g_autofree char *code = code_label(r, &p[k], true);

			w = MAX(w, (int)strlen(code));
		}
		g_free(p);
	}
	return w;
}

static void print_pareto(FILE *f, const struct run_result *r, const struct rline *rows,
			 uint32_t shown, char **labels, bool callers)
{
	struct report_col cols[PT_NCOL];

	memcpy(cols, pareto_cols, sizeof(cols));
	cols[PT_SITE].width = code_width(r, rows, shown, callers);
	report_section(f, "Shared Cache Line Distribution Pareto");
	report_table_head(f, cols, PT_NCOL);
	for (uint32_t i = 0; i < shown; i++) {
		const struct rline *rl = &rows[i];
		uint32_t n;
		struct prow *p = collect_prows(r->mem, rl, &n);
		char sl[160];

		fprintf(f, "\n  %s\n", DASHES);
		fprintf(f, "  %5" PRIu32 "  0x%" PRIx64 "  %s%s  node %u  Hitm %" PRIu64
			" (lcl %" PRIu64 ", rmt %" PRIu64 ")  Pf Hitm %" PRIu64 "  records %" PRIu64
			"\n", i, rl->addr, labels[i], struct_line(r, rl->addr, sl, sizeof(sl)),
			stats_line_home(r->mem, rl->idx[0]),
			rl->c[LS_HITM_LCL] + rl->c[LS_HITM_RMT], rl->c[LS_HITM_LCL],
			rl->c[LS_HITM_RMT], rl->c[LS_PF_HITM], rl->c[LS_LOADS] + rl->c[LS_STORES]);
		fprintf(f, "  %s\n", DASHES);
		for (uint32_t k = 0, e; k < n; k = e) {
			for (e = k + 1; e < n && same_prow(&p[e], &p[k], callers); e++)
				;
			print_prow(f, cols, r, rl, &p[k], e - k, callers);
		}
		g_free(p);
	}
	fputc('\n', f);
}

void report_print(FILE *f, const struct scenario *sc, const struct variant *v,
		  const struct run_result *r)
{
	bool pair = v && v->report.group == GROUP_PAIR;
	enum report_sort sort = v ? v->report.sort : SORT_TOT;
	uint32_t nr, nr_shared, shown;
	struct rline *rows = build_rows(r->mem, pair, sort, &nr, &nr_shared);
	uint64_t tot[LS_COUNT];
	char **labels;

	shown = v && v->report.lines && v->report.lines < nr_shared ? v->report.lines : nr_shared;
	labels = g_new0(char *, shown + 1);
	for (uint32_t i = 0; i < shown; i++)
		labels[i] = row_label(r, &rows[i]);
	report_totals(r->mem, tot);
	print_header(f, sc, v, r);
	print_trace_events(f, r, tot);
	print_global(f, rows, nr, nr_shared, shown, pair);
	print_line_table(f, r, rows, shown, labels);
	print_pareto(f, r, rows, shown, labels, v && v->report.callers);
	report_print_world(f, r);
	g_strfreev(labels);
	g_free(rows);
}
