/*
 * check_cli_table.c - the command line as tables (cli_table.c): every command and layout
 * subcommand answers --help, --opt=value parses, option errors name the option, and the man
 * page has a section per command.
 */
#include <glib.h>
#include <string.h>

#include "cmdutil.h"
#include "testutil.h"

/* The commands named by the unknown-command message of @prefix ("" or "layout"), each with
 * @prefix before it: "run", "layout import", ...  Caller frees. */
static GPtrArray *commands_of(const char *prefix)
{
	const char *top[] = {"no-such-command", NULL}, *sub[] = {prefix, "no-such-command", NULL};
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GRegex) re = g_regex_new("\\(expected ([^;]+);", 0, 0, NULL);
	g_autoptr(GMatchInfo) mi = NULL;
	g_autofree char *list = NULL;
	g_auto(GStrv) words = NULL;
	struct cmd c;

	c2csim(&c, *prefix ? sub : top);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(g_regex_match(re, c.err, 0, &mi), "%s", c.err);
	list = g_match_info_fetch(mi, 1);
	words = g_regex_split_simple(", | or ", list, 0, 0);
	for (char **w = words; *w; w++)
		g_ptr_array_add(names, *prefix ? g_strdup_printf("%s %s", prefix, *w)
					       : g_strdup(*w));
	cmd_free(&c);
	return names;
}

/* Every command and subcommand the program names answers --help on stdout, exit 0, with its
 * usage line; options in --opt=value form parse. */
START_TEST(main_every_command_help)
{
	g_autoptr(GPtrArray) names = commands_of("");
	g_autoptr(GPtrArray) layout = commands_of("layout");
	const char *eq[] = {"run", "--sort=rmt", "--seed=x", NULL};
	struct cmd c;

	ck_assert_uint_ge(names->len, 4);
	ck_assert_uint_ge(layout->len, 5);
	g_ptr_array_extend_and_steal(names, g_steal_pointer(&layout));
	for (guint i = 0; i < names->len; i++) {
		g_auto(GStrv) argv = g_strsplit(names->pdata[i], " ", -1);
		g_autofree char *usage = g_strdup_printf("c2csim %s", (char *)names->pdata[i]);
		GStrvBuilder *b = g_strv_builder_new();
		g_auto(GStrv) args = NULL;

		g_strv_builder_addv(b, (const char **)argv);
		g_strv_builder_add(b, "--help");
		args = g_strv_builder_end(b);
		g_strv_builder_unref(b);
		c2csim(&c, (const char *const *)args);
		ck_assert_msg(c.status == 0, "%s --help: exit %d, %s", usage, c.status, c.err);
		ck_assert_msg(strstr(c.out, usage) != NULL, "%s --help: %s", usage, c.out);
		cmd_free(&c);
	}
	/* --opt=value: the value reaches the option's own check, which names it. */
	c2csim(&c, eq);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(strstr(c.err, "--seed 'x'") != NULL, "%s", c.err);
	cmd_free(&c);
}
END_TEST

/* An option's error names the option, not a parameter override. */
START_TEST(main_option_errors_name_the_option)
{
	const char *sort[] = {"run", "--sort", "foo", NULL};
	const char *scale[] = {"bench", "--scale", "x", NULL};
	const char *missing[] = {"run", "--seed", NULL};
	struct cmd c;

	c2csim(&c, sort);
	ck_assert_int_eq(c.status, 2);
	ck_assert_str_eq(c.err, "c2csim run: --sort 'foo' (expected tot, lcl or rmt)\n");
	cmd_free(&c);
	c2csim(&c, scale);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(strstr(c.err, "c2csim bench:") && strstr(c.err, "--scale"), "%s", c.err);
	cmd_free(&c);
	c2csim(&c, missing);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(strstr(c.err, "--seed") != NULL, "%s", c.err);
	cmd_free(&c);
}
END_TEST

/* The man page is written from the same tables: every command has its section. */
START_TEST(main_man_page)
{
	const char *man[] = {"--man", NULL};
	g_autoptr(GPtrArray) names = commands_of("");
	struct cmd c;

	c2csim(&c, man);
	ck_assert_int_eq(c.status, 0);
	ck_assert_ptr_nonnull(strstr(c.out, ".TH C2CSIM 1"));
	ck_assert_ptr_nonnull(strstr(c.out, "\\fB\\-\\-seed\\fR=\\fIN\\fR"));
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *ss = g_strdup_printf(".SS \"%s", (char *)names->pdata[i]);

		ck_assert_msg(strstr(c.out, ss) != NULL, "no section for %s", ss);
	}
	cmd_free(&c);
}
END_TEST

static Suite *cli_table_suite(void)
{
	Suite *s = suite_create("cli_table");
	TCase *tc = tcase_create("main");

	tcase_add_test(tc, main_every_command_help);
	tcase_add_test(tc, main_option_errors_name_the_option);
	tcase_add_test(tc, main_man_page);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(cli_table_suite());
}
