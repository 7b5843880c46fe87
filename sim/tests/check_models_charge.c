/*
 * check_models_charge.c - the 6.18 charge, LRU and fault models (models/paths/6.18/charge.yaml,
 * lru.yaml, fault.yaml): seed 002's 80-thread shmem fault/free run, the charge stock's
 * batching, and uncharge balancing the charges.
 */
#include <glib.h>
#include <string.h>

#include "path/interp.h"
#include "layout/objmap.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testutil.h"

static uint64_t w_calls(const struct run_result *r, const char *path)
{
	int i = program_find(r->prog, path);

	ck_assert_msg(i >= 0, "no path %s", path);
	return r->world->pstats[i].calls;
}

/* Address of MEMBER in object OBJ (node 0's instance, CPU 0's for per-cpu) of entity @ent. */
static uint64_t ent_addr(const struct scenario *sc, const struct run_result *r, int32_t ent,
			 const char *obj, const char *member)
{
	const struct entities *e = r->world->ents;
	const struct kind *k = &r->prog->kinds[e->kind[ent]];
	struct c2c_err err = {0};
	struct lref ref;

	for (uint32_t o = 0; o < k->nr_obj; o++) {
		if (strcmp(k->obj[o].name, obj))
			continue;
		ck_assert_msg(layout_find(sc->v[0].lib, k->obj[o].layout, member, &ref,
					  (struct c2c_mark){0}, &err), "%s", err.msg);
		return e->base[e->base_at[ent] + o * (uint32_t)r->mc->numa_nodes] + ref.offset;
	}
	ck_abort_msg("no object %s", obj);
	return 0;
}

/* Pages of memcg @ent cached in CPU @cpu's charge stock (memcg_stock_pcp). */
static uint64_t stock_pages(const struct scenario *sc, const struct run_result *r, int32_t ent,
			    int cpu)
{
	const struct program *p = r->prog;
	struct c2c_err err = {0};
	struct lref nr, cached;
	uint64_t base = 0, sum = 0;
	uint32_t g;

	for (g = 0; g < p->nr_globals && strcmp(p->globals[g].name, "stock"); g++)
		;
	ck_assert_uint_lt(g, p->nr_globals);
	base = r->world->ents->global_base[g] + (uint64_t)cpu * PERCPU_UNIT;
	for (int i = 0; i < 7; i++) {
		g_autofree char *n = g_strdup_printf("nr_pages[%d]", i);
		g_autofree char *c = g_strdup_printf("cached[%d]", i);

		ck_assert(layout_find(sc->v[0].lib, p->globals[g].layout, n, &nr,
				      (struct c2c_mark){0}, &err));
		ck_assert(layout_find(sc->v[0].lib, p->globals[g].layout, c, &cached,
				      (struct c2c_mark){0}, &err));
		/* the models store a memcg "pointer" as its entity id + 1 */
		if (mem_peek(r->mem, base + cached.offset, 8) == (uint64_t)ent + 1)
			sum += mem_peek(r->mem, base + nr.offset, 1);
	}
	return sum;
}

/* Seed 002's acceptance: 80 threads of page_fault_shmem in one memcg run to completion with
 * the invariant checks on; the lru_lock is in the lock table; the paths have costs. */
START_TEST(models_charge_shmem_80)
{
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/models-charge.yaml", NULL, 0, &sc);
	const struct world *w = r->world;
	int fault = program_find(r->prog, "page_fault_shmem");
	int lock = -1;

	ck_assert_uint_eq(r->actors[0].nr_threads, 80);
	ck_assert_uint_gt(r->actors[0].iterations, 80);
	ck_assert_int_ge(fault, 0);
	ck_assert_uint_gt(w->pstats[fault].calls, 0);
	ck_assert_uint_gt(w->pstats[fault].lat.nr, 0);
	ck_assert_uint_gt(w->pstats[program_find(r->prog, "page_free")].calls, 0);
	for (uint32_t i = 0; i < w->nr_locks; i++) {
		uint32_t o = objmap_find(r->objs, w->locks[i].addr);
		g_autofree char *label = o == OBJ_NONE ? NULL
					 : objmap_label(r->objs, o, w->locks[i].addr);

		if (label && strstr(label, "pn[") && strstr(label, "lruvec.lru_lock")) {
			lock = (int)i;
			ck_assert_uint_gt(w->locks[i].acquisitions, 0);
		}
	}
	ck_assert_msg(lock >= 0, "no lruvec.lru_lock in the lock table (%u locks)", w->nr_locks);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

/* The CLI report names the HITM lines by member: mem_cgroup_per_node's lock line. */
START_TEST(models_charge_report_names_members)
{
	g_autofree char *scn = tu_src_path("sim/tests/data/models-charge.yaml");
	g_autofree char *dir = g_dir_make_tmp("c2c-charge-XXXXXX", NULL);
	g_autofree char *out = NULL, *errs = NULL;
	const char *argv[] = {getenv("C2CSIM_BIN"), "run", scn, "--out", dir, "--quiet", NULL};
	g_autofree char *report = NULL, *rpath = NULL;
	gint status = -1;

	ck_assert(argv[0] != NULL);
	ck_assert(dir != NULL);
	ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &errs,
			       &status, NULL));
	ck_assert_msg(status == 0, "c2csim run: %s", errs);
	rpath = g_build_filename(dir, "report.txt", NULL);
	ck_assert(g_file_get_contents(rpath, &report, NULL, NULL));
	ck_assert_msg(strstr(report, "pn[0].lruvec.lru_lock") != NULL, "%s", report);
	ck_assert(strstr(report, "Lock statistics") != NULL);
	ck_assert(strstr(report, "page_fault_shmem") != NULL);
	/* The lock line has HITMs: its Pareto rows attribute them to the lock's code sites. */
	ck_assert(strstr(report, "lock memcg.pn[nid].lruvec.lru_lock") != NULL);
	{
		g_autofree char *rm = g_strdup_printf("rm -rf '%s'", dir);

		ck_assert_int_eq(system(rm), 0);
	}
}
END_TEST

/* One CPU faulting N pages charges the page_counter MEMCG_CHARGE_BATCH (64) pages at a time:
 * usage is ceil(N / 64) * 64 at every level but the (uncharged) root's own try_charge, and the
 * stock holds the rest. */
static void charged_after(int pages)
{
	g_autofree char *it = g_strdup_printf("end.iterations=%d", pages);
	const char *sets[] = {it, NULL};
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/models-charge-one.yaml",
					       sets, 0, &sc);
	int32_t cg = tu_entity(r, "cg"), root = tu_entity(r, "root");
	uint64_t want = (uint64_t)(pages + 63) / 64 * 64;
	uint64_t usage = mem_peek(r->mem, ent_addr(sc, r, cg, "memcg", "memory.usage"), 8);
	uint64_t rusage = mem_peek(r->mem, ent_addr(sc, r, root, "memcg", "memory.usage"), 8);

	ck_assert_uint_eq(r->actors[0].iterations, (uint64_t)pages);
	ck_assert_msg(usage == want, "%d pages: cg usage %" G_GUINT64_FORMAT ", expected %"
		      G_GUINT64_FORMAT, pages, usage, want);
	ck_assert_uint_eq(rusage, want); /* the hierarchy: root's counter counts cg's charges */
	ck_assert_uint_eq(stock_pages(sc, r, cg, 0), want - (uint64_t)pages);
	/* the watermark followed usage up */
	ck_assert_uint_eq(mem_peek(r->mem, ent_addr(sc, r, cg, "memcg", "memory.watermark"), 8),
			  want);
	ck_assert_uint_eq(w_calls(r, "page_counter_try_charge"), want / 64);
	run_result_free(r);
	scenario_free(sc);
}

START_TEST(models_charge_stock_batches)
{
	charged_after(1);
	charged_after(63);
	charged_after(64);
	charged_after(65);
	charged_after(100);
	charged_after(200);
}
END_TEST

/* Faults and frees in balance: after the last free batch, cg's page_counter holds exactly what
 * the per-cpu stocks still cache (uncharge gave every freed page back), and so does root's. */
START_TEST(models_charge_uncharge_balances)
{
	struct scenario *sc;
	struct run_result *r = tu_run_scenario("sim/tests/data/models-charge-balance.yaml",
					       NULL, 0, &sc);
	int32_t cg = tu_entity(r, "cg"), root = tu_entity(r, "root");
	uint64_t cached = 0;
	int cpus[] = {0, 1, 20, 21};

	ck_assert_uint_eq(r->actors[0].iterations, 4 * 62);
	for (int i = 0; i < 4; i++)
		cached += stock_pages(sc, r, cg, cpus[i]);
	ck_assert_uint_eq(mem_peek(r->mem, ent_addr(sc, r, cg, "memcg", "memory.usage"), 8),
			  cached);
	ck_assert_uint_eq(mem_peek(r->mem, ent_addr(sc, r, root, "memcg", "memory.usage"), 8),
			  cached);
	ck_assert_uint_eq(w_calls(r, "uncharge"), 4 * 2);
	run_result_free(r);
	scenario_free(sc);
}
END_TEST

static Suite *models_charge_suite(void)
{
	Suite *s = suite_create("models_charge");
	TCase *tc = tcase_create("models_charge");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, models_charge_stock_batches);
	tcase_add_test(tc, models_charge_uncharge_balances);
	tcase_add_test(tc, models_charge_shmem_80);
	tcase_add_test(tc, models_charge_report_names_members);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(models_charge_suite());
}
