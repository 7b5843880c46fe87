/*
 * report_fixture.h - the run check_report.c and check_output.c share: the skylake-sp-2s
 * machine from the source tree, three objects and three actors simulated by hand (no scenario
 * loader), and on request the path statistics the interpreter would leave in r->world.
 */
#ifndef C2C_REPORT_FIXTURE_H
#define C2C_REPORT_FIXTURE_H

#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>

#include "path/interp.h"
#include "mem/machine.h"
#include "mem/mem.h"
#include "layout/objmap.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "yaml/ytree.h"

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

static inline struct yt_node *load_machine_tree(void)
{
	const char *src = getenv("C2CSIM_SRCDIR");
	struct c2c_err err = {0};
	struct yt_node *root;
	char *path;

	ck_assert_msg(src != NULL, "C2CSIM_SRCDIR is not set (the test harness sets it to the "
		      "source tree, e.g. C2CSIM_SRCDIR=$PWD in a checkout)");
	path = g_build_filename(src, "models", "machines", "skylake-sp-2s.yaml", NULL);
	root = yt_load_file(path, &err);
	ck_assert_msg(root != NULL, "%s", err.msg);
	g_free(path);
	/* The fill-triggered prefetch rules the fixture was written for: a read prefetch of the
	 * flag's line steals it from CPU 20, so the flag line is shared and has its rows (with
	 * the machine's RFO rules the flag would stay private to its writer). */
	ck_assert(yt_set_path(root, "prefetch.store_buddy", "read", "fixture", &err));
	ck_assert(yt_set_path(root, "prefetch.upgrade_prefetch", "false", "fixture", &err));
	return root;
}

/* Run the accesses: CPUs 0 and 1 alternate locked RMWs on the counter; every 10th round CPU
 * 20 stores to the flag next to it; CPU 0 reads its private line. */
static inline void simulate(struct run_result *r)
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

static inline struct run_result *run_new(struct variant *v, const char *name)
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

static inline void run_free(struct run_result *r)
{
	for (uint32_t i = 0; i < r->nr_actors; i++)
		g_free(r->actors[i].name);
	g_free(r->actors);
	mem_free(r->mem);
	g_free(r->variant);
	g_free(r);
}

static inline struct fix *fix_new(void)
{
	struct fix *fx = g_new0(struct fix, 1);
	struct c2c_err err = {0};
	struct variant *v;
	GError *gerr = NULL;

	fx->mtree = load_machine_tree(); /* first: a missing C2CSIM_SRCDIR leaves nothing behind */
	fx->dir = g_dir_make_tmp("check_report-XXXXXX", &gerr);
	ck_assert_msg(fx->dir != NULL, "%s", gerr ? gerr->message : "");
	fx->sc = g_new0(struct scenario, 1);
	limits_default(&fx->sc->limits);
	fx->sc->name = g_strdup("two-counters");
	fx->sc->path = g_build_filename(fx->dir, "two-counters.yaml", NULL);
	ck_assert(g_file_set_contents(fx->sc->path, "name: two-counters\nseed: 7\n", -1, NULL));
	fx->sc->nr_variants = 1;
	fx->sc->v = v = g_new0(struct variant, 1);
	v->name = g_strdup("default");
	v->seed = 7;
	v->report = (struct report_opts){.group = GROUP_LINE, .sort = SORT_TOT, .lines = 10};
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
static inline void rm_rf(const char *path)
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

static inline void samples_set(struct samples *s, const uint64_t *v, uint32_t n)
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
static inline void add_world(struct run_result *r)
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

static inline void drop_world(struct run_result *r)
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

static inline void fix_free(struct fix *fx)
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

static inline struct line_stats stats_of(const struct fix *fx, uint64_t addr)
{
	uint32_t idx = mem_line(fx->r->mem, addr);
	struct line_stats ls;

	ck_assert_uint_ne(idx, DIR_NONE);
	stats_line_all(fx->r->mem, idx, &ls);
	return ls;
}

/* 310 iterations of the three actors, per simulated second, computed here independently. */
static inline uint64_t want_ops(const struct run_result *r, uint64_t iterations)
{
	return (uint64_t)((unsigned __int128)iterations * 1000000000000ull / r->sim_time);
}

#endif
