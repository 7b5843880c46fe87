/* output.c - the results directory, written atomically; see output.h for the design. */
#include "report/output.h"

#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c2csim_config.h"
#include "core/infile.h"
#include "report/outdir.h"
#include "path/interp.h"
#include "report/headline.h"
#include "report/csv.h"
#include "report/output_plot.h"
#include "report/report.h"

/* Everything one output_write() call needs. */
struct wctx {
	const struct scenario *sc;
	struct run_result *const *runs;
	uint32_t nr;
	const char *report_text;
	char *scenario_text;  /* the scenario file, read before anything is created */
	size_t scenario_len;
	struct outdir od;     /* the directory being written; od.why holds the first failure */
	struct limits_budget budget; /* what --max-output-mib still allows */
};

/* Record "@what @path: strerror(errno)" unless a reason is already there.  Return: false. */
static bool fail_errno(struct wctx *w, const char *what, const char *path)
{
	int e = errno;

	if (!w->od.why[0])
		snprintf(w->od.why, sizeof(w->od.why), "%s %s: %s", what, path, g_strerror(e));
	return false;
}

/* ------------------------------------------------------------------ value writers */

/* A YAML scalar: plain when it reads back as the same string, else double-quoted. */
static void y_str(FILE *f, const char *s)
{
	if (!yt_needs_quotes(s)) {
		fputs(s, f);
		return;
	}
	yt_emit_quoted(f, s);
}

/* An RFC 4180 field: quoted, with quotes doubled, when it holds a comma, quote or break. */
static void csv_str(FILE *f, const char *s)
{
	csv_put(f, s);
}

static const struct objmap *run_objs(const struct run_result *r)
{
	return r->objs ? r->objs : r->mem->objs;
}

static const char *site_name(const struct run_result *r, uint32_t site)
{
	return site < r->nr_sites && r->site_names && r->site_names[site] ? r->site_names[site]
									  : "?";
}

/* The variant @r ran: by name, else by position. */
static const struct variant *run_variant_of(const struct scenario *sc,
					    const struct run_result *r, uint32_t i)
{
	for (uint32_t k = 0; sc && r->variant && k < sc->nr_variants; k++)
		if (sc->v[k].name && !strcmp(sc->v[k].name, r->variant))
			return &sc->v[k];
	return sc && i < sc->nr_variants ? &sc->v[i] : NULL;
}

/* ------------------------------------------------------------------ summary.yaml */

/* qsort_r order of summary lines: HITMs, prefetch HITMs, stores (descending), address. */
static int hot_cmp(const void *pa, const void *pb, void *data)
{
	const struct mem *m = data;
	struct line_stats sa, sb;
	const uint64_t *a = sa.c, *b = sb.c;
	uint64_t ha, hb;

	stats_line_all(m, *(const uint32_t *)pa, &sa);
	stats_line_all(m, *(const uint32_t *)pb, &sb);
	ha = a[LS_HITM_LCL] + a[LS_HITM_RMT];
	hb = b[LS_HITM_LCL] + b[LS_HITM_RMT];
	uint64_t xa = stats_line_addr(m, *(const uint32_t *)pa);
	uint64_t xb = stats_line_addr(m, *(const uint32_t *)pb);

	if (ha != hb)
		return ha < hb ? 1 : -1;
	if (a[LS_PF_HITM] != b[LS_PF_HITM])
		return a[LS_PF_HITM] < b[LS_PF_HITM] ? 1 : -1;
	if (a[LS_STORES] != b[LS_STORES])
		return a[LS_STORES] < b[LS_STORES] ? 1 : -1;
	return xa < xb ? -1 : xa > xb; /* addresses are unique: a total order */
}

/* The counters printed first, in this order; the rest of the registry follows `cpus`. */
static const int summary_first[] = {LS_HITM_LCL, LS_HITM_RMT, LS_PF_HITM, LS_LOADS, LS_STORES,
				    LS_ST_L1MISS};

static bool summary_first_has(int k)
{
	for (size_t i = 0; i < G_N_ELEMENTS(summary_first); i++)
		if (summary_first[i] == k)
			return true;
	return false;
}

static void summary_line(FILE *f, const struct run_result *r, uint32_t idx)
{
	uint64_t la = stats_line_addr(r->mem, idx);
	struct line_stats ls;
	const uint64_t *c = ls.c;
	struct obj ob;
	const struct obj *o = objmap_get(run_objs(r), stats_line_obj(r->mem, idx), &ob) ? &ob : NULL;
	g_autofree char *name = objmap_name(run_objs(r), stats_line_obj(r->mem, idx));
	char addr[32];

	stats_line_all(r->mem, idx, &ls);
	snprintf(addr, sizeof(addr), "0x%" PRIx64, la);
	fputs("      - {address: ", f);
	y_str(f, addr);
	fputs(", object: ", f);
	y_str(f, name ? name : "-");
	fputs(", struct: ", f);
	y_str(f, o && o->type ? o->type : "-");
	fprintf(f, ", line: %" PRId64, o ? (int64_t)((la - o->base) / 64) : -1);
	for (size_t i = 0; i < G_N_ELEMENTS(summary_first); i++)
		fprintf(f, ", %s: %" PRIu64, lstat_info[summary_first[i]].key, c[summary_first[i]]);
	fprintf(f, ", cpus: %" PRIu32, stats_line_nr_cpus(r->mem, idx));
	for (int k = 0; k < LS_COUNT; k++)
		if (!summary_first_has(k))
			fprintf(f, ", %s: %" PRIu64, lstat_info[k].key, c[k]);
	fputs("}\n", f);
}

static void summary_lines(FILE *f, const struct run_result *r)
{
	const struct mem *m = r->mem;
	uint32_t *idx = g_new(uint32_t, stats_nr_lines(m) ? stats_nr_lines(m) : 1), n = 0;

	for (uint32_t i = 0; i < stats_nr_lines(m); i++)
		if (report_line_shared(m, i))
			idx[n++] = i;
	qsort_r(idx, n, sizeof(*idx), hot_cmp, (void *)m);
	fputs(n ? "    lines:\n" : "    lines: []\n", f);
	for (uint32_t i = 0; i < n && i < OUTPUT_SUMMARY_LINES; i++)
		summary_line(f, r, idx[i]);
	g_free(idx);
}

/* Always written, from the actors' iterations, so the key exists for raw-access runs too. */
static void summary_throughput(FILE *f, const struct run_result *r)
{
	fprintf(f, "    throughput: {ops_per_sec: %" PRIu64 ", actors: [",
		report_ops_per_sec(report_iterations(r), r->sim_time));
	for (uint32_t i = 0; i < r->nr_actors; i++) {
		fputs(i ? ", {name: " : "{name: ", f);
		y_str(f, r->actors[i].name);
		fprintf(f, ", ops_per_sec: %" PRIu64 "}",
			report_ops_per_sec(r->actors[i].iterations, r->sim_time));
	}
	fputs("]}\n", f);
}

/* `    KEY:` or `    KEY: []`, so a reader always finds the key. */
static void summary_key(FILE *f, const char *key, uint32_t n)
{
	fprintf(f, "    %s:%s\n", key, n ? "" : " []");
}

static void summary_lock(FILE *f, const struct run_result *r, const struct lockstat *ls)
{
	struct report_dist w, h;
	char *name = report_lock_name(r, ls->addr), addr[32];

	report_dist_of(&ls->wait, &w);
	report_dist_of(&ls->hold, &h);
	snprintf(addr, sizeof(addr), "0x%" PRIx64, ls->addr);
	fputs("      - {name: ", f);
	y_str(f, name);
	fputs(", address: ", f);
	y_str(f, addr);
	fprintf(f, ", acquisitions: %" PRIu64 ", contentions: %" PRIu64 ", con_bounces: %" PRIu64
		", acq_bounces: %" PRIu64, ls->acquisitions, ls->contentions, ls->con_bounces,
		ls->acq_bounces);
	fprintf(f, ", wait_min_ps: %" PRIu64 ", wait_avg_ps: %" PRIu64 ", wait_max_ps: %" PRIu64
		", wait_total_ps: %" PRIu64, w.min, w.avg, w.max, w.total);
	fprintf(f, ", hold_min_ps: %" PRIu64 ", hold_avg_ps: %" PRIu64 ", hold_max_ps: %" PRIu64
		", hold_total_ps: %" PRIu64, h.min, h.avg, h.max, h.total);
	fprintf(f, ", wait_p50_ps: %" PRIu64 ", wait_p99_ps: %" PRIu64 ", hold_p50_ps: %" PRIu64
		", hold_p99_ps: %" PRIu64 "}\n", w.p50, w.p99, h.p50, h.p99);
	g_free(name);
}

/* Locks that were taken, in first-use order. */
static void summary_locks(FILE *f, const struct run_result *r)
{
	const struct world *w = r->world;
	uint32_t n = 0;

	for (uint32_t i = 0; w && i < w->nr_locks; i++)
		n += w->locks[i].acquisitions != 0;
	summary_key(f, "locks", n);
	for (uint32_t i = 0; w && i < w->nr_locks; i++)
		if (w->locks[i].acquisitions)
			summary_lock(f, r, &w->locks[i]);
}

/* Paths that were called, in program order; lines and remote fetches are totals over the
 * top-level calls (divide by top_calls for a per-call cost). */
static void summary_paths(FILE *f, const struct run_result *r)
{
	const struct program *p = report_prog(r);
	uint32_t nr = r->world && p ? p->nr_paths : 0, n = 0;

	for (uint32_t i = 0; i < nr; i++)
		n += r->world->pstats[i].calls != 0;
	summary_key(f, "paths", n);
	for (uint32_t i = 0; i < nr; i++) {
		const struct pathstat *ps = &r->world->pstats[i];
		struct report_dist d;

		if (!ps->calls)
			continue;
		report_dist_of(&ps->lat, &d);
		fputs("      - {name: ", f);
		y_str(f, p->paths[i].name);
		fprintf(f, ", calls: %" PRIu64 ", mean_ps: %" PRIu64 ", p50_ps: %" PRIu64
			", p99_ps: %" PRIu64 ", max_ps: %" PRIu64 ", top_calls: %" PRIu64
			", lines_touched: %" PRIu64 ", remote_fetches: %" PRIu64 "}\n", ps->calls,
			d.avg, d.p50, d.p99, d.max, ps->top_calls, ps->lines, ps->remote);
	}
}

/* Counters that were read, in program order. */
static void summary_counters(FILE *f, const struct run_result *r)
{
	const struct program *p = report_prog(r);
	uint32_t nr = r->world && p ? p->nr_counters : 0, n = 0;

	for (uint32_t i = 0; i < nr; i++)
		n += r->world->cstats[i].reads != 0;
	summary_key(f, "counters", n);
	for (uint32_t i = 0; i < nr; i++) {
		const struct counterstat *c = &r->world->cstats[i];

		if (!c->reads)
			continue;
		fputs("      - {name: ", f);
		y_str(f, p->counters[i]);
		fprintf(f, ", reads: %" PRIu64 ", truth: %" PRId64 ", read: %" PRId64
			", max_abs_error: %" PRIu64 "}\n", c->reads, c->last_truth, c->last_read,
			c->max_abs_error);
	}
}

static void summary_variant(FILE *f, const struct scenario *sc, const struct run_result *r,
			    const struct variant *v)
{
	uint64_t tot[LS_COUNT];

	report_totals(r->mem, tot);
	fputs("  ", f);
	y_str(f, r->variant ? r->variant : "default");
	fprintf(f, ":\n    complete: %s\n    machine: ", r->interrupted ? "false" : "true");
	y_str(f, r->mc && r->mc->name ? r->mc->name : "-");
	fprintf(f, "\n    seed: %" PRIu64 "\n", v ? v->seed : 0);
	fprintf(f, "    sim_time_ps: %" PRIu64 "\n", (uint64_t)r->sim_time);
	fprintf(f, "    events: %" PRIu64 "\n", r->events);
	fprintf(f, "    accesses: %" PRIu64 "\n", stats_accesses(r->mem));
	fprintf(f, "    hitm: {local: %" PRIu64 ", remote: %" PRIu64 ", prefetch: %" PRIu64 "}\n",
		tot[LS_HITM_LCL], tot[LS_HITM_RMT], tot[LS_PF_HITM]);
	fprintf(f, "    %s: %" PRIu64 "\n", lstat_info[LS_LOADS].key, tot[LS_LOADS]);
	fprintf(f, "    %s: %" PRIu64 "\n", lstat_info[LS_STORES].key, tot[LS_STORES]);
	hl_write_yaml(f, sc, r);
	fputs(r->nr_actors ? "    actors:\n" : "    actors: []\n", f);
	for (uint32_t i = 0; i < r->nr_actors; i++) {
		fputs("      - {name: ", f);
		y_str(f, r->actors[i].name);
		fprintf(f, ", threads: %" PRIu32 ", iterations: %" PRIu64 "}\n",
			r->actors[i].nr_threads, r->actors[i].iterations);
	}
	summary_throughput(f, r);
	summary_locks(f, r);
	summary_paths(f, r);
	summary_counters(f, r);
	summary_lines(f, r);
}

bool output_complete(const struct scenario *sc, struct run_result *const *runs, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		if (runs[i]->interrupted)
			return false;
	return !sc || nr >= sc->nr_variants;
}

void output_incomplete_line(FILE *f, const struct scenario *sc, struct run_result *const *runs,
			    uint32_t nr, const char *why)
{
	const struct run_result *last = nr ? runs[nr - 1] : NULL;

	fprintf(f, "INCOMPLETE (complete: false): interrupted by %s", why);
	if (last && last->interrupted) {
		const struct variant *v = run_variant_of(sc, last, nr - 1);

		fprintf(f, " in variant %s at %.3f us", last->variant ? last->variant : "default",
			(double)last->sim_time / 1e6);
		if (v && v->end_time)
			fprintf(f, " of %.3f us", (double)v->end_time / 1e6);
		fputs(" simulated", f);
	}
	for (uint32_t i = nr; sc && i < sc->nr_variants; i++)
		fprintf(f, "%s%s", i == nr ? "; not run: " : ", ", sc->v[i].name);
	fputc('\n', f);
}

static void write_summary(FILE *f, const struct wctx *w, const void *arg)
{
	const struct variant *v0 = w->nr ? run_variant_of(w->sc, w->runs[0], 0) : NULL;

	fputs("c2csim_version: ", f);
	y_str(f, C2CSIM_VERSION);
	fputs("\nscenario: ", f);
	y_str(f, w->sc && w->sc->name ? w->sc->name : "");
	fputs("\nscenario_file: ", f);
	y_str(f, w->sc && w->sc->path ? w->sc->path : "");
	fprintf(f, "\nseed: %" PRIu64 "\n", v0 ? v0->seed : 0);
	fprintf(f, "complete: %s\n", output_complete(w->sc, w->runs, w->nr) ? "true" : "false");
	fputs(w->nr ? "variants:\n" : "variants: {}\n", f);
	for (uint32_t i = 0; i < w->nr; i++)
		summary_variant(f, w->sc, w->runs[i], run_variant_of(w->sc, w->runs[i], i));
}

void output_summary(FILE *f, const struct scenario *sc, struct run_result *const *runs,
		    uint32_t nr)
{
	struct wctx w = {.sc = sc, .runs = runs, .nr = nr};

	write_summary(f, &w, NULL);
}

/* ------------------------------------------------------------------ CSV tables */

/* The columns every row starts with: variant, line address, name of object @obj. */
static void csv_lead(FILE *f, const struct run_result *r, uint64_t addr, uint32_t obj)
{
	g_autofree char *name = objmap_name(run_objs(r), obj);

	csv_str(f, r->variant ? r->variant : "default");
	fprintf(f, ",0x%" PRIx64 ",", addr);
	csv_str(f, name ? name : "-");
}

static bool line_touched(const struct mem *m, uint32_t l)
{
	for (int k = 0; k < LS_COUNT; k++)
		if (stats_line(m, l, k))
			return true;
	return false;
}

/* Line @l of @r's run, a row of lines.csv. */
static void write_line_row(FILE *f, const struct run_result *r, uint32_t l)
{
	uint32_t obj = stats_line_obj(r->mem, l);
	struct obj ob;
	const struct obj *o = objmap_get(run_objs(r), obj, &ob) ? &ob : NULL;
	uint64_t la = stats_line_addr(r->mem, l);

	csv_lead(f, r, la, obj);
	fprintf(f, ",%" PRId64 ",%" PRIu32, o ? (int64_t)((la - o->base) / 64) : -1,
		stats_line_nr_cpus(r->mem, l));
	for (int k = 0; k < LS_COUNT; k++)
		fprintf(f, ",%" PRIu64, stats_line(r->mem, l, k));
	fputc('\n', f);
}

static void write_lines_csv(FILE *f, const struct wctx *w, const void *arg)
{
	fputs("variant,address,object,line,cpus", f);
	for (int k = 0; k < LS_COUNT; k++)
		fprintf(f, ",%s", lstat_info[k].key);
	fputc('\n', f);
	for (uint32_t i = 0; i < w->nr; i++)
		for (uint32_t l = 0; l < stats_nr_lines(w->runs[i]->mem); l++)
			/* A line only one CPU touched shares nothing: it is in the totals, not
			 * here (a thousand memcgs on 256 CPUs would otherwise write gigabytes). */
			if (report_line_shared(w->runs[i]->mem, l) && line_touched(w->runs[i]->mem, l))
				write_line_row(f, w->runs[i], l);
}

static int orow_cmp(const void *pa, const void *pb, void *data)
{
	struct orow ra, rb;
	const struct orow *a = &ra, *b = &rb;

	stats_orow(data, *(const uint32_t *)pa, &ra);
	stats_orow(data, *(const uint32_t *)pb, &rb);

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->site != b->site)
		return a->site < b->site ? -1 : 1;
	return a->caller < b->caller ? -1 : a->caller > b->caller;   /* DIR_NONE last */
}

static void offsets_row(FILE *f, const struct run_result *r, uint32_t o)
{
	const struct mem *m = r->mem;
	struct orow rc;
	const struct orow *row = &rc;
	uint64_t la;
	const struct objmap *om = run_objs(r);
	uint32_t obj, cpus = stats_orow_nr_cpus(m, o);
	char *member;

	stats_orow(m, o, &rc);
	la = stats_line_addr(m, row->line);
	/* The object holding this very byte: a line may hold several (that is false sharing). */
	obj = om ? objmap_find(om, la + row->off) : stats_line_obj(m, row->line);
	csv_lead(f, r, la, obj);
	member = objmap_member(om, obj, la + row->off);
	fputc(',', f);
	csv_str(f, member ? member : "-");
	g_free(member);
	fprintf(f, ",%u,", row->off);
	csv_str(f, site_name(r, row->site));
	fputc(',', f);
	csv_str(f, row->caller == DIR_NONE ? "-" : site_name(r, row->caller));
	fprintf(f, ",%" PRIu32, cpus);
	for (int k = 0; k < OS_COUNT; k++)
		fprintf(f, ",%" PRIu64, row->c[k]);
	fputc('\n', f);
}

static void write_offsets_csv(FILE *f, const struct wctx *w, const void *arg)
{
	fputs("variant,address,object,member,offset,site,caller,cpus", f);
	for (int k = 0; k < OS_COUNT; k++)
		fprintf(f, ",%s", ostat_info[k].key);
	fputc('\n', f);
	for (uint32_t i = 0; i < w->nr; i++) {
		const struct mem *m = w->runs[i]->mem;
		uint32_t *rows = g_new(uint32_t, stats_nr_orows(m) ? stats_nr_orows(m) : 1);

		for (uint32_t l = 0; l < stats_nr_lines(m); l++) {
			uint32_t n = 0;

			if (!report_line_shared(m, l))
				continue;
			for (uint32_t o = stats_line_first_orow(m, l); o != DIR_NONE;
			     o = stats_orow_next(m, o))
				rows[n++] = o;
			qsort_r(rows, n, sizeof(*rows), orow_cmp, (void *)m);
			for (uint32_t k = 0; k < n; k++)
				offsets_row(f, w->runs[i], rows[k]);
		}
		g_free(rows);
	}
}

/* ------------------------------------------------------------------ files */

static void write_text(FILE *f, const struct wctx *w, const void *arg)
{
	const char *text = arg;

	fputs(text ? text : "", f);
}

static void write_scenario(FILE *f, const struct wctx *w, const void *arg)
{
	fwrite(w->scenario_text, 1, w->scenario_len, f);
}

static void write_params(FILE *f, const struct wctx *w, const void *arg)
{
	const struct variant *v = arg;

	if (v && v->tree)
		yt_emit(f, v->tree, 0);
	else
		fputs("{}\n", f);
}

/* A table of output_plot.h: @arg is its struct output_table. */
static void write_table(FILE *f, const struct wctx *w, const void *arg)
{
	((const struct output_table *)arg)->fill(f, w->runs, w->nr);
}

typedef void (*fill_fn)(FILE *f, const struct wctx *w, const void *arg);

/* Create @name under the temporary directory with @fill's output, flushed to disk. */
static bool write_file(struct wctx *w, const char *name, fill_fn fill, const void *arg)
{
	char *path = g_build_filename(w->od.tmp, name, NULL);
	FILE *f = limits_fopen(path, &w->budget);
	bool ok;

	if (!f) {
		fail_errno(w, "cannot create", path);
		g_free(path);
		return false;
	}
	fill(f, w, arg);
	ok = !fflush(f) && !ferror(f);
	if (!ok)
		fail_errno(w, "cannot write", path);
	if (fclose(f) && ok)
		ok = fail_errno(w, "cannot write", path);
	outdir_wrote(&w->od, name);
	g_free(path);
	return ok;
}

/* A variant name as a file name: only [A-Za-z0-9._-], never hidden, never "..". */
static char *param_file_name(const char *name)
{
	char *s = g_strdup(name && *name ? name : "_");

	for (char *p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("._-", *p))
			*p = '_';
	if (s[0] == '.')
		s[0] = '_';
	return s;
}

static bool write_all(struct wctx *w)
{
	char *params = g_build_filename(w->od.tmp, "params", NULL);
	bool ok = write_file(w, "summary.yaml", write_summary, NULL) &&
		  write_file(w, "lines.csv", write_lines_csv, NULL) &&
		  write_file(w, "offsets.csv", write_offsets_csv, NULL) &&
		  write_file(w, "report.txt", write_text, w->report_text) &&
		  (!w->scenario_text || write_file(w, "scenario.yaml", write_scenario, NULL));

	for (const struct output_table *t = output_plot_tables; ok && t->name; t++)
		ok = write_file(w, t->name, write_table, t);

	if (ok && mkdir(params, 0777))
		ok = fail_errno(w, "cannot create directory", params);
	for (uint32_t i = 0; ok && i < w->nr; i++) {
		const struct variant *v = run_variant_of(w->sc, w->runs[i], i);
		char *base = param_file_name(w->runs[i]->variant);
		char *name = g_strdup_printf("params/%s.yaml", base);

		ok = write_file(w, name, write_params, v);
		g_free(name);
		g_free(base);
	}
	g_free(params);
	return ok;
}

static bool read_scenario(struct wctx *w)
{
	char why[INFILE_WHY_MAX];

	if (!w->sc || !w->sc->path)
		return true;
	if (infile_read(w->sc->path, INFILE_MAX_YAML, &w->scenario_text, &w->scenario_len, why))
		return true;
	snprintf(w->od.why, sizeof(w->od.why), "cannot copy the scenario file: %s", why);
	return false;
}

bool output_write(const char *dir, const struct scenario *sc, struct run_result *const *runs,
		  uint32_t nr, const char *report_text, struct c2c_err *err)
{
	struct wctx w = {.sc = sc, .runs = runs, .nr = nr, .report_text = report_text,
			 .budget = {sc ? limits_output_bytes(&sc->limits) : UINT64_MAX, false}};
	bool ok = read_scenario(&w) && outdir_open(&w.od, dir) && write_all(&w) &&
		  outdir_commit(&w.od);

	if (!ok && w.budget.over)
		limits_fail(w.od.why, sizeof(w.od.why), &sc->limits, LIMIT_OF(output_mib),
			    "written");
	if (!ok) {
		err_setf(err, "cannot write results to %s: %s", dir, w.od.why);
		err->limit = w.budget.over;
	}
	g_free(w.scenario_text);
	outdir_close(&w.od);
	return ok;
}
