/* scenario_tests.h - what the two files of the `scenario` suite share: check_scenario.c (the
 * loader on good input) and scenario_errors.c (its error messages). */
#ifndef C2C_SCENARIO_TESTS_H
#define C2C_SCENARIO_TESTS_H

#include <check.h>

/* The header every error case starts from: lines 1-6. */
#define HEAD "machine: skylake-sp-2s\nseed: 1\nend: {iterations: 1}\nregions:\n" \
	     "  - {name: counter, size: 64}\n  - {name: stats, size: 64, per_cpu: true}\n"

/* tmp_dir - a new temporary directory; remove it with rm_tree.  Fails the test on error. */
char *tmp_dir(void);
/* put_file - write @text to @dir/@rel (creating directories); return the path (g_free). */
char *put_file(const char *dir, const char *rel, const char *text);
/* rm_tree - remove @path and, when it is a directory, everything in it. */
void rm_tree(const char *path);

/* scenario_errors_add - add scenario_errors.c's tests to @tc, in their order. */
void scenario_errors_add(TCase *tc);

#endif
