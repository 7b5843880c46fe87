/*
 * check_seed_gaps.c - the known gaps of scenarios/seeds/README.md are what the model does
 * today: each seed replay is run (all variants, full length, as `tools/seed-table` runs it)
 * and every Show item it declares (headline[].show, report/show.h) is judged on the run's
 * summary.yaml by `c2csim seed-table`.  The test fails when an item that is not a declared
 * gap does not hold, and when a declared gap holds (the model closed it: its declaration and
 * the README tables must change with it), so the set of items that fail is exactly the
 * known-gaps list.  meson runs each seed's TCase on its own (CK_RUN_CASE); the failure
 * message names each disagreeing item by file:line:col.
 */
#include <glib.h>
#include <string.h>

#include "cmdutil.h"
#include "testutil.h"

static void judge_replay(const char *scenario)
{
	g_autofree char *tmp = tmpdir();
	const char *run[] = {"run", "--quiet", "--out", tmp, scenario, NULL};
	const char *judge[] = {"seed-table", tmp, NULL};
	struct cmd c;

	c2csim(&c, run);
	ck_assert_msg(c.status == 0, "c2csim run %s: exit %d: %s", scenario, c.status, c.err);
	cmd_free(&c);
	c2csim(&c, judge);
	ck_assert_msg(c.status == 0, "%s: the items that do not hold are not the declared gaps "
		      "(exit %d):\n%s\n%s", scenario, c.status, c.err, c.out);
	cmd_free(&c);
	rm_rf(tmp);
}

START_TEST(gaps_seed000)
{
	judge_replay("scenarios/seeds/000-rstat-local-stats.yaml");
}
END_TEST

START_TEST(gaps_seed001)
{
	judge_replay("scenarios/seeds/001-root-res-counter.yaml");
}
END_TEST

START_TEST(gaps_seed002)
{
	judge_replay("scenarios/seeds/002-lruvec-prefetch.yaml");
}
END_TEST

START_TEST(gaps_seed003)
{
	judge_replay("scenarios/seeds/003-rstat-speculative-flush.yaml");
}
END_TEST

START_TEST(gaps_seed004)
{
	judge_replay("scenarios/seeds/004-percpu-counter-atomic.yaml");
}
END_TEST

/* One TCase per seed, named as meson's CK_RUN_CASE selects it. */
static void add_case(Suite *s, const char *name, const TTest *test)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test);
	suite_add_tcase(s, tc);
}

static Suite *gaps_suite(void)
{
	Suite *s = suite_create("seed_gaps");

	add_case(s, "seed000", gaps_seed000);
	add_case(s, "seed001", gaps_seed001);
	add_case(s, "seed002", gaps_seed002);
	add_case(s, "seed003", gaps_seed003);
	add_case(s, "seed004", gaps_seed004);
	return s;
}

int main(void)
{
	return tu_run(gaps_suite());
}
