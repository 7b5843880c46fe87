/* testutil.c - see testutil.h */
#include "testutil.h"

#include <glib.h>
#include <string.h>
#include <sys/wait.h>

#include "yaml/ytree.h"

char *tu_src_path(const char *rel)
{
	const char *src = getenv("C2CSIM_SRCDIR");

	ck_assert_msg(src != NULL, "C2CSIM_SRCDIR is not set (run the tests with meson test)");
	return g_build_filename(src, rel, NULL);
}

void tu_spawn_c2csim(const char *const *args, int *status, char **out, char **err)
{
	const char *bin = getenv("C2CSIM_BIN");
	GPtrArray *argv = g_ptr_array_new();
	g_autofree char *src = tu_src_path(".");
	g_autoptr(GError) gerr = NULL;
	int wait;

	ck_assert_msg(bin != NULL, "C2CSIM_BIN is not set (run the tests with meson test)");
	g_ptr_array_add(argv, (char *)bin);
	for (; *args; args++)
		g_ptr_array_add(argv, (char *)*args);
	g_ptr_array_add(argv, NULL);
	ck_assert_msg(g_spawn_sync(src, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
				   out, err, &wait, &gerr), "%s", gerr ? gerr->message : "");
	*status = WIFEXITED(wait) ? WEXITSTATUS(wait) : 128;
	g_ptr_array_free(argv, TRUE);
}

GPtrArray *tu_shipped_scenarios(void)
{
	static const char *const dirs[] = {"scenarios", "scenarios/seeds", "scenarios/bench"};
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);

	for (size_t d = 0; d < G_N_ELEMENTS(dirs); d++) {
		g_autofree char *dir = tu_src_path(dirs[d]);
		GDir *gd = g_dir_open(dir, 0, NULL);
		const char *name;

		ck_assert_msg(gd != NULL, "no %s", dir);
		while ((name = g_dir_read_name(gd)))
			if (g_str_has_suffix(name, ".yaml"))
				g_ptr_array_add(paths, g_build_filename(dir, name, NULL));
		g_dir_close(gd);
	}
	return paths;
}

void tu_machine(struct machine *m, const char *name, const char *const *overrides)
{
	g_autofree char *rel = g_strdup_printf("models/machines/%s.yaml", name);
	g_autofree char *path = tu_src_path(rel);
	struct c2c_err err = {0};
	struct yt_node *t = yt_load_file(path, &err);

	ck_assert_msg(t != NULL, "%s", err.msg);
	for (; overrides && *overrides; overrides++) {
		g_auto(GStrv) kv = g_strsplit(*overrides, "=", 2);

		ck_assert_msg(yt_set_path(t, kv[0], kv[1], "test", &err), "%s", err.msg);
	}
	ck_assert_msg(machine_load(m, t, &err), "%s", err.msg);
	yt_free(t);
}

struct scenario *tu_load_scenario(const char *rel_path, const char *const *sets)
{
	g_autofree char *path = tu_src_path(rel_path);
	uint32_t n = sets ? g_strv_length((char **)sets) : 0;
	g_autofree struct override *ov = g_new0(struct override, n + 1);
	g_autofree char ***kv = g_new0(char **, n + 1);
	struct c2c_err err = {0};
	struct scenario *sc;

	for (uint32_t i = 0; i < n; i++) {
		kv[i] = g_strsplit(sets[i], "=", 2);
		ov[i] = (struct override){kv[i][0], kv[i][1]};
	}
	sc = scenario_load(path, ov, n, false, 0, &err);
	for (uint32_t i = 0; i < n; i++)
		g_strfreev(kv[i]);
	ck_assert_msg(sc != NULL, "%s", err.msg);
	return sc;
}

uint32_t tu_variant(const struct scenario *sc, const char *name)
{
	for (uint32_t i = 0; i < sc->nr_variants; i++)
		if (!strcmp(sc->v[i].name, name))
			return i;
	ck_abort_msg("no variant %s", name);
	return 0;
}

struct run_result *tu_run_variant(const struct scenario *sc, uint32_t v)
{
	struct c2c_err err = {0};
	struct run_result *r = run_variant(sc, v, true, &err);

	ck_assert_msg(r != NULL, "%s: %s", sc->v[v].name, err.msg);
	return r;
}

struct run_result *tu_run_scenario(const char *rel_path, const char *const *sets,
				   uint32_t variant, struct scenario **sc_out)
{
	struct scenario *sc = tu_load_scenario(rel_path, sets);

	*sc_out = sc;
	return tu_run_variant(sc, variant);
}

int32_t tu_entity(const struct run_result *r, const char *name)
{
	const struct entities *e = r->world->ents;

	for (uint32_t i = 0; i < e->nr; i++)
		if (!strcmp(e->name[i], name))
			return (int32_t)i;
	ck_abort_msg("no entity %s", name);
	return -1;
}

const struct counterstat *tu_counter(const struct run_result *r, const char *name)
{
	for (uint32_t i = 0; i < r->prog->nr_counters; i++)
		if (!strcmp(r->prog->counters[i], name))
			return &r->world->cstats[i];
	ck_abort_msg("no counter %s", name);
	return NULL;
}

uint64_t tu_line_hitm(const struct run_result *r, uint64_t addr)
{
	uint32_t l = mem_line(r->mem, addr);

	if (l == DIR_NONE)
		return 0;
	return stats_line(r->mem, l, LS_HITM_LCL) + stats_line(r->mem, l, LS_HITM_RMT);
}

simtime_t tu_hammer(struct mem *m, const int *cpus, const uint64_t *addrs, int n,
		    enum mem_op op, uint64_t iters)
{
	g_autofree simtime_t *next = g_new0(simtime_t, n);
	g_autofree uint64_t *left = g_new(uint64_t, n);
	simtime_t end = 0;

	for (int i = 0; i < n; i++)
		left[i] = iters;
	for (;;) {
		int best = -1;

		for (int i = 0; i < n; i++)
			if (left[i] && (best < 0 || next[i] < next[best]))
				best = i;
		if (best < 0)
			break;
		next[best] = mem_access(m, cpus[best], addrs[best], 8, op, 0, next[best]);
		tu_require(!m->failed, "%s", m->fail_msg);
		left[best]--;
		if (next[best] > end)
			end = next[best];
	}
	return end;
}

uint64_t tu_sum(const struct mem *m, int lstat)
{
	uint64_t tot[LS_COUNT];

	stats_totals(m, tot);
	return tot[lstat];
}

void tu_c2csim(struct tu_cmd *c, const char *const *args)
{
	tu_spawn_c2csim(args, &c->status, &c->out, &c->err);
}

void tu_cmd_free(struct tu_cmd *c)
{
	g_free(c->out);
	g_free(c->err);
}

int tu_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
