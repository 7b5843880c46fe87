/*
 * cli_table.h - the command line as tables: commands, their subcommands and their options
 * (GLib's GOptionEntry), from which the dispatcher, every `--help` text, the unknown-command
 * message and the man page (c2csim.1) are all made.
 *
 * Adding a subcommand is one row, defined beside the command's code and declared in cli.h,
 *
 *	const struct cli_cmd cli_plot_cmd = {
 *		"plot", "RESULTS_DIR", "Draw the results directory's plots", NULL,
 *		plot_options, sizeof(struct plot_args), cli_plot, NULL};
 *
 * and one line, `&cli_plot_cmd,`, in a command table: `commands[]` in main.c, or a command's
 * `sub` table such as `layout_commands[]` in layout_cmd.c.
 *
 * Adding an option is one entry in the command's options function, bound to a field of its
 * argument struct:
 *
 *	{"max-events", 0, 0, G_OPTION_ARG_INT64, &a->max_events, "stop after N events", "N"},
 *
 * A command's main() calls cli_parse() first, with its argument struct; options may come
 * before or after the positional arguments, as `--opt value` or `--opt=value`.  `-h`/`--help`
 * is added to every command's table by cli_parse().
 */
#ifndef C2C_CLI_TABLE_H
#define C2C_CLI_TABLE_H

#include <glib.h>
#include <stdio.h>

struct cli_cmd;

/* A command's entry point: @prog is the command's full name ("c2csim layout show"), argv[0]
 * is the command's own name.  Return: the exit status (0, 1 or 2). */
typedef int (*cli_main_fn)(const struct cli_cmd *cmd, const char *prog, int argc, char **argv);

/* The option table of a command bound to @args (a struct of the command's own type, of
 * cli_cmd.args_size bytes), ending with G_OPTION_ENTRY_NULL.  The caller g_free()s it. */
typedef GOptionEntry *(*cli_options_fn)(void *args);

struct cli_cmd {
	const char *name;         /* "run" */
	const char *params;       /* positional arguments for the usage line, "[SCENARIO]" */
	const char *summary;      /* one line for the command list */
	const char *description;  /* text after the options in --help and the man page, or NULL */
	cli_options_fn options;   /* NULL: the command takes no options but --help */
	size_t args_size;         /* sizeof the struct options() binds */
	cli_main_fn main;         /* NULL for a command that only dispatches to @sub */
	const struct cli_cmd *const *sub; /* subcommands (a NULL-terminated table), or NULL */
};

/*
 * cli_dispatch - run the command of @table named by argv[1] (argv[0] is @prog's last word):
 * `--help`, `-h` or `help [COMMAND]` print the list or a command's help (exit 0); no command
 * prints the list on stderr (exit 2); an unknown command names every command (exit 2).
 * Return: the exit status.
 */
int cli_dispatch(const struct cli_cmd *const *table, const char *prog, int argc, char **argv);

/*
 * cli_parse - parse @cmd's options from @argc and @argv into @args; on return argv holds the
 * command name followed by the positional arguments.  Return: -1 to go on running, 0 when the
 * help was printed (`--help`), 2 after printing a one-line error that names the option.
 */
int cli_parse(const struct cli_cmd *cmd, const char *prog, void *args, int *argc, char ***argv);

/* cli_usage_error - print "PROG: MESSAGE" on stderr (stdout flushed first).  Return: 2. */
int cli_usage_error(const char *prog, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* cli_print_list - the command list of @table (usage line and one line per command). */
void cli_print_list(FILE *f, const struct cli_cmd *const *table, const char *prog);

/* cli_man - write the man page of @table (roff, section 1) to @f; @tail is roff text for the
 * sections after the commands (exit status, files, examples), or NULL. */
void cli_man(FILE *f, const struct cli_cmd *const *table, const char *prog, const char *version,
	     const char *tail);

#endif
