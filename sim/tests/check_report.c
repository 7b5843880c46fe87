/* check_report.c - unit tests for report.c and output.c: the stdout report, the comparison
 * table and the results directory, on a small run built by hand (no scenario loader). */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interp.h"
#include "machine.h"
#include "mem.h"
#include "objmap.h"
#include "output.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "ytree.h"

#define COUNTER 0x10000000ull /* line 0 of "counter": CPUs 0 and 1 fight over it */
#define FLAG 0x10000040ull    /* the buddy line, "flag": stored to by CPU 20 (socket 1) */
#define PRIV 0x20000000ull    /* "priv": CPU 0 alone */
#define ROUNDS 100

/* ---- a small run, built by hand ------------------------------------------------------- */

struct fix {
	struct yt_node *mtree;
	struct scenario *sc;
	struct run_result *r;
	char *dir;            /* a scratch directory, removed by fix_free */
};

static char *site_names[] = {"inc:0 locked_rmw counter+0", "flag:0 store flag+0, \"x\"",
			     "priv:0 load priv+0"};

static struct yt_node *load_machine_tree(void)
{
	const char *src = getenv("C2CSIM_SRCDIR");
	struct c2c_err err = {0};
	struct yt_node *root;
	char *path;

	ck_assert_msg(src != NULL, "C2CSIM_SRCDIR is not set (the test harness sets it to the "
		      "source tree, e.g. C2CSIM_SRCDIR=/work/main)");
	path = g_build_filename(src, "models", "machines", "skylake-sp-2s.yaml", NULL);
	root = yt_load_file(path, &err);
	ck_assert_msg(root != NULL, "%s", err.msg);
	g_free(path);
	return root;
}

/* Run the accesses: CPUs 0 and 1 alternate locked RMWs on the counter; every 10th round CPU
 * 20 stores to the flag next to it; CPU 0 reads its private line. */
static void simulate(struct run_result *r)
{
	simtime_t t = 0;

	for (int i = 0; i < ROUNDS; i++) {
		t = mem_access(r->mem, 0, COUNTER, 8, MEM_LOCKED_RMW, 0, t);
		t = mem_access(r->mem, 1, COUNTER, 8, MEM_LOCKED_RMW, 0, t);
		if (i % 10 == 0)
			t = mem_access(r->mem, 20, FLAG, 8, MEM_STORE, 1, t);
		t = mem_access(r->mem, 0, PRIV, 8, MEM_LOAD, 2, t);
	}
	ck_assert_msg(!r->mem->failed, "%s", r->mem->fail_msg);
	r->sim_time = t;
	r->events = 3 * ROUNDS;
}

static struct run_result *run_new(struct variant *v, const char *name)
{
	struct run_result *r = g_new0(struct run_result, 1);

	r->variant = g_strdup(name);
	r->mc = &v->mc;
	r->objs = &v->objs;
	r->mem = mem_new(&v->mc, &v->objs, true);
	r->site_names = site_names;
	r->nr_sites = G_N_ELEMENTS(site_names);
	r->nr_actors = 3;
	r->actors = g_new0(struct actor_result, r->nr_actors);
	r->actors[0] = (struct actor_result){g_strdup("inc"), 2, 2 * ROUNDS};
	r->actors[1] = (struct actor_result){g_strdup("flag"), 1, ROUNDS / 10};
	r->actors[2] = (struct actor_result){g_strdup("priv"), 1, ROUNDS};
	simulate(r);
	return r;
}

static void run_free(struct run_result *r)
{
	for (uint32_t i = 0; i < r->nr_actors; i++)
		g_free(r->actors[i].name);
	g_free(r->actors);
	mem_free(r->mem);
	g_free(r->variant);
	g_free(r);
}

static struct fix *fix_new(void)
{
	struct fix *fx = g_new0(struct fix, 1);
	struct c2c_err err = {0};
	struct variant *v;
	GError *gerr = NULL;

	fx->mtree = load_machine_tree(); /* first: a missing C2CSIM_SRCDIR leaves nothing behind */
	fx->dir = g_dir_make_tmp("check_report-XXXXXX", &gerr);
	ck_assert_msg(fx->dir != NULL, "%s", gerr ? gerr->message : "");
	fx->sc = g_new0(struct scenario, 1);
	fx->sc->name = g_strdup("two-counters");
	fx->sc->path = g_build_filename(fx->dir, "two-counters.yaml", NULL);
	ck_assert(g_file_set_contents(fx->sc->path, "name: two-counters\nseed: 7\n", -1, NULL));
	fx->sc->nr_variants = 1;
	fx->sc->v = v = g_new0(struct variant, 1);
	v->name = g_strdup("default");
	v->seed = 7;
	v->report = (struct report_opts){GROUP_LINE, SORT_TOT, 10};
	v->tree = yt_copy(fx->mtree);
	ck_assert_msg(machine_load(&v->mc, fx->mtree, &err), "%s", err.msg);
	objmap_init(&v->objs);
	objmap_add(&v->objs, "counter", NULL, COUNTER, 64, 0);
	objmap_add(&v->objs, "flag", NULL, FLAG, 64, 1);
	objmap_add(&v->objs, "priv", NULL, PRIV, 64, 0);
	ck_assert_uint_eq(objmap_seal(&v->objs), OBJ_NONE);
	fx->r = run_new(v, "default");
	return fx;
}

/* Remove a scratch tree (test-only; the library's own removal is what is under test). */
static void rm_rf(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		char *child = g_build_filename(path, name, NULL);

		if (g_file_test(child, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(child, G_FILE_TEST_IS_SYMLINK))
			rm_rf(child);
		else
			g_unlink(child);
		g_free(child);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(path);
}

/* ---- a path run's statistics, built by hand: what the interpreter leaves in r->world ---- */

#define LOCK (COUNTER + 8)

static void samples_set(struct samples *s, const uint64_t *v, uint32_t n)
{
	s->v = g_new(uint64_t, n);
	s->nr = s->cap = n;
	for (uint32_t i = 0; i < n; i++) {
		s->v[i] = v[i];
		s->total += v[i];
		s->max = MAX(s->max, v[i]);
		s->min = i ? MIN(s->min, v[i]) : v[i];
	}
}

/* Locks: LOCK (taken) and COUNTER+16 (never taken).  Paths: charge (top-level), idle (never
 * called), callee (called from paths only).  Counters: nr_pages (read), unread. */
static void add_world(struct run_result *r)
{
	static const uint64_t wait[] = {50000, 2000, 12345, 7000, 900000}, hold[] = {3000, 1000};
	static const uint64_t charge[] = {10000, 1000, 3000, 2000}, callee[] = {500, 700};
	static const char *const paths[] = {"charge", "idle", "callee"};
	struct program *p = g_new0(struct program, 1);
	struct world *w = g_new0(struct world, 1);

	p->nr_paths = 3;
	p->paths = g_new0(struct path, 3);
	for (int i = 0; i < 3; i++)
		p->paths[i].name = g_strdup(paths[i]);
	p->nr_counters = 2;
	p->counters = g_new0(char *, 3);
	p->counters[0] = g_strdup("nr_pages");
	p->counters[1] = g_strdup("unread");
	w->prog = p;
	w->nr_locks = w->cap_locks = 2;
	w->locks = g_new0(struct lockstat, 2);
	w->locks[0] = (struct lockstat){.addr = LOCK, .acquisitions = 10, .contentions = 5,
					.con_bounces = 2, .acq_bounces = 4};
	samples_set(&w->locks[0].wait, wait, G_N_ELEMENTS(wait));
	samples_set(&w->locks[0].hold, hold, G_N_ELEMENTS(hold));
	w->locks[1].addr = COUNTER + 16;
	w->pstats = g_new0(struct pathstat, 3);
	w->pstats[0] = (struct pathstat){.calls = 4, .lines = 10, .remote = 5, .top_calls = 3};
	samples_set(&w->pstats[0].lat, charge, G_N_ELEMENTS(charge));
	w->pstats[2].calls = 2;
	samples_set(&w->pstats[2].lat, callee, G_N_ELEMENTS(callee));
	w->cstats = g_new0(struct counterstat, 2);
	w->cstats[0] = (struct counterstat){.truth = 123, .last_read = 96, .last_truth = 100,
					    .reads = 7, .max_abs_error = 9};
	r->world = w;
	r->prog = p;
}

static void drop_world(struct run_result *r)
{
	struct world *w = r->world;
	struct program *p = (struct program *)w->prog;

	for (uint32_t i = 0; i < w->nr_locks; i++) {
		g_free(w->locks[i].wait.v);
		g_free(w->locks[i].hold.v);
	}
	for (uint32_t i = 0; i < p->nr_paths; i++) {
		g_free(w->pstats[i].lat.v);
		g_free(p->paths[i].name);
	}
	g_free(w->locks);
	g_free(w->pstats);
	g_free(w->cstats);
	g_free(w);
	g_free(p->paths);
	g_strfreev(p->counters);
	g_free(p);
	r->world = NULL;
	r->prog = NULL;
}

static void fix_free(struct fix *fx)
{
	struct variant *v = &fx->sc->v[0];

	if (fx->r->world)
		drop_world(fx->r);
	run_free(fx->r);
	objmap_release(&v->objs);
	machine_release(&v->mc);
	yt_free(v->tree);
	g_free(v->name);
	g_free(fx->sc->v);
	g_free(fx->sc->name);
	g_free(fx->sc->path);
	g_free(fx->sc);
	yt_free(fx->mtree);
	rm_rf(fx->dir);
	g_free(fx->dir);
	g_free(fx);
}

static char *report_text(const struct fix *fx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	report_print(f, fx->sc, &fx->sc->v[0], fx->r);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static char *compare_text(struct run_result *const *runs, uint32_t nr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	report_compare(f, runs, nr);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/* The whitespace-separated fields of the first line of @text starting with @prefix, or NULL. */
static char **row_fields(const char *text, const char *prefix)
{
	char **lines = g_strsplit(text, "\n", -1), **fields = NULL;

	for (char **l = lines; *l && !fields; l++)
		if (g_str_has_prefix(*l, prefix))
			fields = g_strsplit_set(g_strstrip(*l), " ", -1);
	g_strfreev(lines);
	if (fields) { /* drop the empty strings runs of blanks leave */
		char **out = fields, **in = fields;

		for (; *in; in++) {
			if (**in)
				*out++ = *in;
			else
				g_free(*in);
		}
		*out = NULL;
	}
	return fields;
}

static const struct line_stats *stats_of(const struct fix *fx, uint64_t addr)
{
	uint32_t idx = mem_line(fx->r->mem, addr);

	ck_assert_uint_ne(idx, DIR_NONE);
	return &fx->r->mem->dir.stats[idx];
}

static char *u64s(uint64_t x)
{
	return g_strdup_printf("%" PRIu64, x);
}

static void assert_field(char **fields, int i, uint64_t want)
{
	char *s = u64s(want);

	ck_assert_ptr_nonnull(fields);
	ck_assert_uint_gt(g_strv_length(fields), (guint)i);
	ck_assert_str_eq(fields[i], s);
	g_free(s);
}

/* ---- report_print ------------------------------------------------------------------------ */

START_TEST(report_print_table)
{
	struct fix *fx = fix_new();
	const struct line_stats *ls = stats_of(fx, COUNTER);
	char *text = report_text(fx);
	char **row;

	ck_assert_uint_gt(ls->c[LS_HITM_LCL], 0);
	ck_assert_ptr_nonnull(strstr(text, "Shared Data Cache Line Table"));
	ck_assert_ptr_nonnull(strstr(text, "Shared Cache Line Distribution Pareto"));
	ck_assert_ptr_nonnull(strstr(text, "Trace Event Information"));
	ck_assert_ptr_nonnull(strstr(text, "two-counters"));
	/* Row 0 is the counter: Index Address Object Node Tot Lcl Rmt PfHitm PfCaused Records. */
	row = row_fields(text, "      0  0x10000000");
	ck_assert_ptr_nonnull(row);
	ck_assert_str_eq(row[2], "counter+0x0");
	assert_field(row, 3, 0);
	assert_field(row, 4, ls_hitm(ls));
	assert_field(row, 5, ls->c[LS_HITM_LCL]);
	assert_field(row, 6, ls->c[LS_HITM_RMT]);
	assert_field(row, 9, ls->c[LS_LOADS] + ls->c[LS_STORES]);
	assert_field(row, 19, 2);
	/* The private line is not shared: no row for it. */
	ck_assert_ptr_null(strstr(text, "priv+0x0  "));
	g_strfreev(row);
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_pareto)
{
	struct fix *fx = fix_new();
	char *text = report_text(fx);
	char **row;

	/* One site at offset 0 takes every HITM of the counter line. */
	row = row_fields(text, "     0.0%   100.0%");
	ck_assert_ptr_nonnull(row);
	ck_assert_str_eq(row[4], "0x0");
	ck_assert_str_eq(row[5], "inc:0");
	ck_assert_str_eq(row[g_strv_length(row) - 1], "counter+0x0");
	g_strfreev(row);
	/* No floating point: every percentage has exactly one decimal. */
	ck_assert_ptr_null(strstr(text, "0.00"));
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_pair)
{
	struct fix *fx = fix_new();
	const struct line_stats *a = stats_of(fx, COUNTER), *b = stats_of(fx, FLAG);
	char *text, **row;

	fx->sc->v[0].report.group = GROUP_PAIR;
	text = report_text(fx);
	ck_assert_ptr_nonnull(strstr(text, "128-byte pairs"));
	row = row_fields(text, "      0  0x10000000");
	ck_assert_ptr_nonnull(row);
	/* The pair straddles two objects: both are named. */
	ck_assert_str_eq(row[2], "counter+0x0|flag+0x0");
	assert_field(row, 4, ls_hitm(a) + ls_hitm(b));
	assert_field(row, 10, a->c[LS_LOADS] + b->c[LS_LOADS]);
	assert_field(row, 11, a->c[LS_STORES] + b->c[LS_STORES]);
	g_strfreev(row);
	ck_assert_ptr_null(strstr(text, "0x10000040  "));
	/* The flag's store site appears in the pair's Pareto at offset 0x40. */
	row = row_fields(text, "     0.0%     0.0%");
	ck_assert_ptr_nonnull(row);
	ck_assert_str_eq(row[4], "0x40");
	ck_assert_str_eq(row[g_strv_length(row) - 1], "flag+0x0");
	g_strfreev(row);
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_lines_limit)
{
	struct fix *fx = fix_new();
	char *text;

	fx->sc->v[0].report.lines = 1;
	text = report_text(fx);
	ck_assert_ptr_nonnull(strstr(text, "      0  0x10000000"));
	ck_assert_ptr_null(strstr(text, "      1  0x"));
	free(text);
	fix_free(fx);
}
END_TEST

START_TEST(report_print_deterministic)
{
	struct fix *a = fix_new(), *b = fix_new();
	char *ta = report_text(a), *tb = report_text(b);

	ck_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	fix_free(a);
	fix_free(b);
}
END_TEST

START_TEST(report_print_empty_run)
{
	struct fix *fx = fix_new();
	struct mem *busy = fx->r->mem;
	char *text;

	fx->r->mem = mem_new(fx->r->mc, fx->r->objs, true); /* nothing ever touched */
	text = report_text(fx);
	ck_assert_ptr_nonnull(strstr(text, "Shared Data Cache Line Table"));
	ck_assert_ptr_null(strstr(text, "      0  0x"));
	ck_assert_ptr_nonnull(strstr(text, "(avg 0 cycles)"));
	mem_free(fx->r->mem);
	fx->r->mem = busy;
	free(text);
	fix_free(fx);
}
END_TEST

/* Byte-identical on every host starts with: ASCII only, no trailing blanks. */
START_TEST(report_print_plain_ascii)
{
	struct fix *fx = fix_new();
	char *text = report_text(fx);

	for (const char *p = text; *p; p++) {
		ck_assert_msg((unsigned char)*p < 0x80, "non-ASCII byte at %td", p - text);
		ck_assert_msg(!(*p == ' ' && (p[1] == '\n' || !p[1])), "trailing blank at %td",
			      p - text);
	}
	free(text);
	fix_free(fx);
}
END_TEST

/* 310 iterations of the three actors, per simulated second, computed here independently. */
static uint64_t want_ops(const struct run_result *r, uint64_t iterations)
{
	return (uint64_t)((unsigned __int128)iterations * 1000000000000ull / r->sim_time);
}

START_TEST(report_print_world_sections)
{
	struct fix *fx = fix_new();
	const char *order[] = {"Shared Cache Line Distribution Pareto", "Throughput",
			       "Lock statistics", "Path costs", "Counter accuracy"};
	const char *lock[] = {"counter+0x8", "2", "5", "2.00", "900.00", "971.34", "194.26",
			      "4", "10", "1.00", "3.00", "4.00", "2.00", "12.34", "50.00",
			      "1.00", "1.00"};
	/* calls, mean/p50/p99/max ns, lines and remote fetches per top-level call */
	const char *charge[] = {"charge", "4", "4.00", "2.00", "3.00", "10.00", "3.3", "1.6"};
	char *text, **row;
	const char *at = NULL;

	add_world(fx->r);
	text = report_text(fx);
	for (size_t i = 0; i < G_N_ELEMENTS(order); i++) {
		const char *p = strstr(text, order[i]);

		ck_assert_msg(p && p > at, "%s missing or out of order", order[i]);
		at = p;
	}
	row = row_fields(text, "  Ops per second");
	assert_field(row, 4, want_ops(fx->r, 3 * ROUNDS + ROUNDS / 10));
	g_strfreev(row);
	row = row_fields(text, "  inc ");
	assert_field(row, 2, 2 * ROUNDS);
	assert_field(row, 3, want_ops(fx->r, 2 * ROUNDS));
	g_strfreev(row);
	/* lock_stat's columns, times in ns truncated to two decimals from ps. */
	row = row_fields(text, "  counter+0x8 ");
	ck_assert_ptr_nonnull(row);
	ck_assert_uint_eq(g_strv_length(row), G_N_ELEMENTS(lock));
	for (size_t i = 0; i < G_N_ELEMENTS(lock); i++)
		ck_assert_str_eq(row[i], lock[i]);
	g_strfreev(row);
	ck_assert_ptr_null(strstr(text, "counter+0x10")); /* never taken */
	ck_assert_ptr_null(strstr(text, "  idle"));       /* never called */
	ck_assert_ptr_null(strstr(text, "  unread"));     /* never read */
	row = row_fields(text, "  charge ");
	ck_assert_ptr_nonnull(row);
	ck_assert_uint_eq(g_strv_length(row), G_N_ELEMENTS(charge));
	for (size_t i = 0; i < G_N_ELEMENTS(charge); i++)
		ck_assert_str_eq(row[i], charge[i]);
	g_strfreev(row);
	row = row_fields(text, "  callee ");
	ck_assert_str_eq(row[6], "-"); /* no top-level call to divide by */
	g_strfreev(row);
	row = row_fields(text, "  nr_pages ");
	ck_assert_str_eq(row[2], "100");
	ck_assert_str_eq(row[3], "96");
	ck_assert_str_eq(row[4], "9");
	g_strfreev(row);
	/* The report sorted copies: the run's own sample vectors keep their order. */
	ck_assert_uint_eq(fx->r->world->locks[0].wait.v[0], 50000);
	ck_assert_uint_eq(fx->r->world->pstats[0].lat.v[0], 10000);
	free(text);
	fix_free(fx);
}
END_TEST

/* A raw-access run prints none of the path sections. */
START_TEST(report_print_no_world)
{
	struct fix *fx = fix_new();
	char *text = report_text(fx);

	ck_assert_ptr_null(strstr(text, "Throughput"));
	ck_assert_ptr_null(strstr(text, "Lock statistics"));
	ck_assert_ptr_null(strstr(text, "Path costs"));
	ck_assert_ptr_null(strstr(text, "Counter accuracy"));
	free(text);
	fix_free(fx);
}
END_TEST

/* ---- report_compare ---------------------------------------------------------------------- */

START_TEST(report_compare_ratio)
{
	struct fix *a = fix_new(), *b = fix_new();
	struct run_result *runs[2] = {a->r, b->r};
	char *text, **row;

	g_free(b->r->variant);
	b->r->variant = g_strdup("no-prefetch");
	text = compare_text(runs, 2);
	ck_assert_ptr_nonnull(strstr(text, "ratio last/first"));
	ck_assert_ptr_nonnull(strstr(text, "no-prefetch"));
	row = row_fields(text, "  hitm_local ");
	assert_field(row, 1, stats_of(a, COUNTER)->c[LS_HITM_LCL]);
	ck_assert_str_eq(row[3], "1.000");
	g_strfreev(row);
	row = row_fields(text, "  iterations:inc ");
	assert_field(row, 1, 2 * ROUNDS);
	ck_assert_str_eq(row[3], "1.000");
	g_strfreev(row);
	free(text);
	fix_free(a);
	fix_free(b);
}
END_TEST

START_TEST(report_compare_missing_actor)
{
	struct fix *a = fix_new(), *b = fix_new();
	struct run_result *runs[2] = {a->r, b->r};
	char *text, **row;

	b->r->actors[0].iterations = 3 * ROUNDS;
	b->r->nr_actors = 1; /* run b has only "inc"; run_free still frees all three names */
	text = compare_text(runs, 2);
	row = row_fields(text, "  iterations:flag ");
	ck_assert_ptr_nonnull(row);
	ck_assert_str_eq(row[2], "-");
	ck_assert_str_eq(row[3], "-");
	g_strfreev(row);
	row = row_fields(text, "  iterations:inc ");
	ck_assert_str_eq(row[3], "1.500");
	g_strfreev(row);
	b->r->nr_actors = 3;
	free(text);
	fix_free(a);
	fix_free(b);
}
END_TEST

START_TEST(report_compare_world_rows)
{
	struct fix *a = fix_new(), *b = fix_new(), *c = fix_new();
	struct run_result *runs[3] = {a->r, b->r, c->r};
	char *text, **row;

	add_world(a->r);
	add_world(b->r);
	b->r->world->pstats[0].lat.total *= 2;
	text = compare_text(runs, 2);
	row = row_fields(text, "  ops_per_sec ");
	assert_field(row, 1, want_ops(a->r, 3 * ROUNDS + ROUNDS / 10));
	ck_assert_str_eq(row[3], "1.000");
	g_strfreev(row);
	row = row_fields(text, "  path:charge:mean_ps ");
	assert_field(row, 1, 4000);
	assert_field(row, 2, 8000);
	ck_assert_str_eq(row[3], "2.000");
	g_strfreev(row);
	ck_assert_ptr_nonnull(strstr(text, "  path:callee:mean_ps "));
	ck_assert_ptr_null(strstr(text, "path:idle"));
	free(text);
	/* A run without paths: "-" for its path rows. */
	runs[1] = c->r;
	text = compare_text(runs, 2);
	row = row_fields(text, "  path:charge:mean_ps ");
	ck_assert_str_eq(row[2], "-");
	ck_assert_str_eq(row[3], "-");
	g_strfreev(row);
	free(text);
	/* No run with paths: the comparison is as it was. */
	runs[0] = c->r;
	text = compare_text(runs, 2);
	ck_assert_ptr_null(strstr(text, "ops_per_sec"));
	ck_assert_ptr_null(strstr(text, "path:"));
	free(text);
	fix_free(a);
	fix_free(b);
	fix_free(c);
}
END_TEST

START_TEST(report_compare_empty)
{
	char *text = compare_text(NULL, 0);

	ck_assert_str_eq(text, "");
	free(text);
}
END_TEST

/* ---- report_totals and report_line_shared ------------------------------------------------ */

START_TEST(report_totals_sum)
{
	struct fix *fx = fix_new();
	const struct mem *m = fx->r->mem;
	uint64_t tot[LS_COUNT], want_loads = 0;

	report_totals(m, tot);
	for (uint32_t i = 0; i < m->dir.nr; i++)
		want_loads += m->dir.stats[i].c[LS_LOADS];
	ck_assert_uint_eq(tot[LS_LOADS], want_loads);
	/* 200 locked RMWs on the counter and 100 private loads; RMWs count as loads too. */
	ck_assert_uint_eq(tot[LS_LOADS], 3 * ROUNDS);
	ck_assert_uint_eq(tot[LS_STORES], 2 * ROUNDS + ROUNDS / 10);
	ck_assert_uint_eq(tot[LS_LOCKED], 2 * ROUNDS);
	fix_free(fx);
}
END_TEST

START_TEST(report_line_shared_rule)
{
	struct fix *fx = fix_new();
	const struct mem *m = fx->r->mem;

	ck_assert(report_line_shared(m, mem_line(m, COUNTER)));
	ck_assert(!report_line_shared(m, mem_line(m, PRIV)));
	fix_free(fx);
}
END_TEST

/* ---- output_write ------------------------------------------------------------------------ */

static char *slurp(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL), *text = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "cannot read %s", path);
	g_free(path);
	return text;
}

static char *write_results(struct fix *fx, const char *name, const char *report)
{
	struct c2c_err err = {0};
	char *out = g_build_filename(fx->dir, name, NULL);
	struct run_result *runs[1] = {fx->r};

	ck_assert_msg(output_write(out, fx->sc, runs, 1, report, &err), "%s", err.msg);
	ck_assert(!err.set);
	return out;
}

/* Entries of @dir whose names start with a dot. */
static int dot_entries(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((name = g_dir_read_name(d)))
		n += name[0] == '.';
	g_dir_close(d);
	return n;
}

START_TEST(output_write_files)
{
	static const char *const files[] = {"summary.yaml", "lines.csv", "offsets.csv",
					    "report.txt", "scenario.yaml", "params/default.yaml"};
	struct fix *fx = fix_new();
	char *out = write_results(fx, "deep/er/out/", "the report\n");
	char *text, *path;
	struct c2c_err err = {0};
	struct yt_node *sum, *n;
	const struct line_stats *ls = stats_of(fx, COUNTER);
	uint64_t tot[LS_COUNT], x;

	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		path = g_build_filename(out, files[i], NULL);
		ck_assert_msg(g_file_test(path, G_FILE_TEST_IS_REGULAR), "missing %s", path);
		g_free(path);
	}
	text = slurp(out, "report.txt");
	ck_assert_str_eq(text, "the report\n");
	g_free(text);
	text = slurp(out, "scenario.yaml");
	ck_assert_str_eq(text, "name: two-counters\nseed: 7\n");
	g_free(text);

	path = g_build_filename(out, "summary.yaml", NULL);
	sum = yt_load_file(path, &err);
	ck_assert_msg(sum != NULL, "%s", err.msg);
	report_totals(fx->r->mem, tot);
	n = yt_get(yt_get(yt_get(yt_get(sum, "variants"), "default"), "hitm"), "local");
	ck_assert_ptr_nonnull(n);
	ck_assert(yt_u64(n, "hitm.local", &x, &err));
	ck_assert_uint_eq(x, tot[LS_HITM_LCL]);
	ck_assert_str_eq(yt_get(sum, "c2csim_version")->str, "0.1.0");
	ck_assert_str_eq(yt_get(sum, "scenario")->str, "two-counters");
	ck_assert_str_eq(yt_get(sum, "seed")->str, "7");
	n = yt_get(yt_get(yt_get(sum, "variants"), "default"), "lines");
	ck_assert_int_eq(n->kind, YT_SEQ);
	/* The counter is the hottest line; every registry counter is there, by its key. */
	ck_assert_str_eq(yt_get(n->items[0], "address")->str, "0x10000000");
	ck_assert_str_eq(yt_get(n->items[0], "object")->str, "counter");
	ck_assert_str_eq(yt_get(n->items[0], "line")->str, "0");
	for (int k = 0; k < LS_COUNT; k++) {
		ck_assert_msg(yt_get(n->items[0], lstat_info[k].key), "no %s", lstat_info[k].key);
		ck_assert(yt_u64(yt_get(n->items[0], lstat_info[k].key), "k", &x, &err));
		ck_assert_uint_eq(x, ls->c[k]);
	}
	x = 0;
	for (uint32_t i = 0; i < fx->r->mem->dir.nr; i++)
		x += report_line_shared(fx->r->mem, i);
	ck_assert_uint_eq(n->len, x);
	yt_free(sum);
	g_free(path);
	ck_assert_int_eq(dot_entries(fx->dir), 0);
	path = g_build_filename(fx->dir, "deep", "er", NULL);
	ck_assert_int_eq(dot_entries(path), 0);
	g_free(path);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_summary_world)
{
	struct fix *fx = fix_new();
	char *out, *text, *want;
	struct c2c_err err = {0};
	struct yt_node *sum, *var;
	uint64_t x;

	add_world(fx->r);
	out = write_results(fx, "out", "");
	text = slurp(out, "summary.yaml");
	want = g_strdup_printf(
		"    throughput: {ops_per_sec: %" PRIu64 ", actors: [{name: inc, ops_per_sec: %"
		PRIu64 "}, {name: flag, ops_per_sec: %" PRIu64 "}, {name: priv, ops_per_sec: %"
		PRIu64 "}]}\n"
		"    locks:\n"
		"      - {name: counter+0x8, address: \"0x10000008\", acquisitions: 10, "
		"contentions: 5, con_bounces: 2, acq_bounces: 4, wait_min_ps: 2000, "
		"wait_avg_ps: 194269, wait_max_ps: 900000, wait_total_ps: 971345, "
		"hold_min_ps: 1000, hold_avg_ps: 2000, hold_max_ps: 3000, hold_total_ps: 4000, "
		"wait_p50_ps: 12345, wait_p99_ps: 50000, hold_p50_ps: 1000, hold_p99_ps: 1000}\n"
		"    paths:\n"
		"      - {name: charge, calls: 4, mean_ps: 4000, p50_ps: 2000, p99_ps: 3000, "
		"max_ps: 10000, top_calls: 3, lines_touched: 10, remote_fetches: 5}\n"
		"      - {name: callee, calls: 2, mean_ps: 600, p50_ps: 500, p99_ps: 500, "
		"max_ps: 700, top_calls: 0, lines_touched: 0, remote_fetches: 0}\n"
		"    counters:\n"
		"      - {name: nr_pages, reads: 7, truth: 100, read: 96, max_abs_error: 9}\n"
		"    lines:\n",
		want_ops(fx->r, 3 * ROUNDS + ROUNDS / 10), want_ops(fx->r, 2 * ROUNDS),
		want_ops(fx->r, ROUNDS / 10), want_ops(fx->r, ROUNDS));
	ck_assert_msg(strstr(text, want), "summary.yaml lacks\n%s\nin\n%s", want, text);
	g_free(want);
	g_free(text);
	/* It still reads back as YAML, with the sections where a script looks for them. */
	text = g_build_filename(out, "summary.yaml", NULL);
	sum = yt_load_file(text, &err);
	ck_assert_msg(sum != NULL, "%s", err.msg);
	var = yt_get(yt_get(sum, "variants"), "default");
	ck_assert_str_eq(yt_get(yt_get(var, "locks")->items[0], "name")->str, "counter+0x8");
	ck_assert_uint_eq(yt_get(var, "paths")->len, 2);
	ck_assert(yt_u64(yt_get(yt_get(var, "throughput"), "ops_per_sec"), "ops", &x, &err));
	ck_assert_uint_eq(x, want_ops(fx->r, 3 * ROUNDS + ROUNDS / 10));
	yt_free(sum);
	g_free(text);
	g_free(out);
	fix_free(fx);
}
END_TEST

/* Raw-access runs: the keys are there, empty, so readers need no special case. */
START_TEST(output_write_summary_no_world)
{
	struct fix *fx = fix_new();
	char *out = write_results(fx, "out", ""), *text = slurp(out, "summary.yaml");
	char *want = g_strdup_printf("      - {name: priv, threads: 1, iterations: %d}\n"
				     "    throughput: {ops_per_sec: %" PRIu64 ", actors: [{name: "
				     "inc, ops_per_sec: %" PRIu64 "}, {name: flag, ops_per_sec: %"
				     PRIu64 "}, {name: priv, ops_per_sec: %" PRIu64 "}]}\n"
				     "    locks: []\n    paths: []\n    counters: []\n    lines:\n",
				     ROUNDS, want_ops(fx->r, 3 * ROUNDS + ROUNDS / 10),
				     want_ops(fx->r, 2 * ROUNDS), want_ops(fx->r, ROUNDS / 10),
				     want_ops(fx->r, ROUNDS));

	ck_assert_msg(strstr(text, want), "summary.yaml lacks\n%s\nin\n%s", want, text);
	g_free(want);
	g_free(text);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_csv)
{
	struct fix *fx = fix_new();
	char *out = write_results(fx, "out", "");
	char *text = slurp(out, "lines.csv"), **rows;
	GString *head = g_string_new("variant,address,object,line,cpus");

	for (int k = 0; k < LS_COUNT; k++)
		g_string_append_printf(head, ",%s", lstat_info[k].key);
	rows = g_strsplit(text, "\n", -1);
	ck_assert_str_eq(rows[0], head->str);
	/* One row per directory line, in first-touch order, then the final empty string. */
	ck_assert_uint_eq(g_strv_length(rows), fx->r->mem->dir.nr + 2);
	ck_assert(g_str_has_prefix(rows[1], "default,0x10000000,counter,0,2,"));
	g_strfreev(rows);
	g_free(text);

	text = slurp(out, "offsets.csv");
	g_string_assign(head, "variant,address,object,member,offset,site,cpus");
	for (int k = 0; k < OS_COUNT; k++)
		g_string_append_printf(head, ",%s", ostat_info[k].key);
	ck_assert(g_str_has_prefix(text, head->str));
	ck_assert_ptr_nonnull(
		strstr(text, "\ndefault,0x10000000,counter,-,0,inc:0 locked_rmw counter+0,2,"));
	/* RFC 4180: a field with a comma or quote is quoted, quotes doubled. */
	ck_assert_ptr_nonnull(strstr(text, ",flag,-,0,\"flag:0 store flag+0, \"\"x\"\"\",1,"));
	g_free(text);
	g_string_free(head, TRUE);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_replace)
{
	struct fix *fx = fix_new();
	char *out = write_results(fx, "out", "first\n"), *junk, *text;

	junk = g_build_filename(out, "junk", NULL);
	ck_assert(g_file_set_contents(junk, "x", -1, NULL));
	g_free(write_results(fx, "out", "second\n"));
	ck_assert(!g_file_test(junk, G_FILE_TEST_EXISTS));
	text = slurp(out, "report.txt");
	ck_assert_str_eq(text, "second\n");
	ck_assert_int_eq(dot_entries(fx->dir), 0);
	g_free(text);
	g_free(junk);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_unwritable)
{
	struct fix *fx = fix_new();
	char *file = g_build_filename(fx->dir, "plain", NULL);
	char *out = g_build_filename(file, "sub", "out", NULL), *want;
	struct run_result *runs[1] = {fx->r};
	struct c2c_err err = {0};

	ck_assert(g_file_set_contents(file, "x", -1, NULL));
	ck_assert(!output_write(out, fx->sc, runs, 1, "r", &err));
	ck_assert(err.set);
	want = g_strdup_printf("cannot write results to %s: cannot create directory ", out);
	ck_assert_msg(g_str_has_prefix(err.msg, want), "%s", err.msg);
	ck_assert_int_eq(dot_entries(fx->dir), 0);
	g_free(want);
	g_free(out);
	g_free(file);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_refuses_foreign_dir)
{
	struct fix *fx = fix_new();
	char *out = g_build_filename(fx->dir, "src", NULL), *keep, *want;
	struct run_result *runs[1] = {fx->r};
	struct c2c_err err = {0};

	ck_assert_int_eq(g_mkdir(out, 0777), 0);
	keep = g_build_filename(out, "precious.c", NULL);
	ck_assert(g_file_set_contents(keep, "int x;\n", -1, NULL));
	ck_assert(!output_write(out, fx->sc, runs, 1, "r", &err));
	want = g_strdup_printf("cannot write results to %s: %s exists and is not a results "
			       "directory (no summary.yaml); refusing to replace it", out, out);
	ck_assert_str_eq(err.msg, want);
	ck_assert(g_file_test(keep, G_FILE_TEST_IS_REGULAR));
	ck_assert_int_eq(dot_entries(fx->dir), 0);
	g_free(want);
	g_free(keep);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_missing_scenario)
{
	struct fix *fx = fix_new();
	char *out = g_build_filename(fx->dir, "out", NULL);
	struct run_result *runs[1] = {fx->r};
	struct c2c_err err = {0};

	g_unlink(fx->sc->path);
	ck_assert(!output_write(out, fx->sc, runs, 1, "r", &err));
	ck_assert_msg(strstr(err.msg, "cannot copy the scenario file: "), "%s", err.msg);
	ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
	ck_assert_int_eq(dot_entries(fx->dir), 0);
	g_free(out);
	fix_free(fx);
}
END_TEST

START_TEST(output_write_deterministic)
{
	static const char *const files[] = {"summary.yaml", "lines.csv", "offsets.csv",
					    "params/default.yaml"};
	struct fix *a = fix_new(), *b = fix_new();
	char *oa, *ob;

	/* Same scenario path in both, so scenario_file matches too. */
	g_free(b->sc->path);
	b->sc->path = g_strdup(a->sc->path);
	oa = write_results(a, "out", "r");
	ob = write_results(b, "out", "r");
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		char *ta = slurp(oa, files[i]), *tb = slurp(ob, files[i]);

		ck_assert_msg(!strcmp(ta, tb), "%s differs", files[i]);
		g_free(ta);
		g_free(tb);
	}
	g_free(oa);
	g_free(ob);
	fix_free(b);
	fix_free(a);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc;

	tc = tcase_create("report_print");
	tcase_add_test(tc, report_print_table);
	tcase_add_test(tc, report_print_pareto);
	tcase_add_test(tc, report_print_pair);
	tcase_add_test(tc, report_print_lines_limit);
	tcase_add_test(tc, report_print_deterministic);
	tcase_add_test(tc, report_print_empty_run);
	tcase_add_test(tc, report_print_plain_ascii);
	tcase_add_test(tc, report_print_world_sections);
	tcase_add_test(tc, report_print_no_world);
	suite_add_tcase(s, tc);

	tc = tcase_create("report_compare");
	tcase_add_test(tc, report_compare_ratio);
	tcase_add_test(tc, report_compare_missing_actor);
	tcase_add_test(tc, report_compare_world_rows);
	tcase_add_test(tc, report_compare_empty);
	suite_add_tcase(s, tc);

	tc = tcase_create("report_totals");
	tcase_add_test(tc, report_totals_sum);
	suite_add_tcase(s, tc);

	tc = tcase_create("report_line_shared");
	tcase_add_test(tc, report_line_shared_rule);
	suite_add_tcase(s, tc);

	tc = tcase_create("output_write");
	tcase_add_test(tc, output_write_files);
	tcase_add_test(tc, output_write_summary_world);
	tcase_add_test(tc, output_write_summary_no_world);
	tcase_add_test(tc, output_write_csv);
	tcase_add_test(tc, output_write_replace);
	tcase_add_test(tc, output_write_unwritable);
	tcase_add_test(tc, output_write_refuses_foreign_dir);
	tcase_add_test(tc, output_write_missing_scenario);
	tcase_add_test(tc, output_write_deterministic);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(report_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
