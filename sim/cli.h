/* cli.h - the subcommands of the c2csim program (main.c dispatches to them). */
#ifndef C2C_CLI_H
#define C2C_CLI_H

/* cli_run - `c2csim run`; argv[0] is "run".  Return: the exit status (0, 1 or 2). */
int cli_run(int argc, char **argv);

/* cli_bench - `c2csim bench`.  Return: the exit status. */
int cli_bench(int argc, char **argv);

#endif
