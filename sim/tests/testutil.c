/* testutil.c - see testutil.h */
#include "testutil.h"

#include <glib.h>

#include "ytree.h"

char *tu_src_path(const char *rel)
{
	const char *src = getenv("C2CSIM_SRCDIR");

	ck_assert_msg(src != NULL, "C2CSIM_SRCDIR is not set (run the tests with meson test)");
	return g_build_filename(src, rel, NULL);
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
		ck_assert_msg(!m->failed, "%s", m->fail_msg);
		left[best]--;
		if (next[best] > end)
			end = next[best];
	}
	return end;
}

uint64_t tu_sum(const struct mem *m, int lstat)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < m->dir.nr; i++)
		s += m->dir.stats[i].c[lstat];
	return s;
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
