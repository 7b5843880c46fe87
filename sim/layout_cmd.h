/* layout_cmd.h - `c2csim layout` (layout_cmd.c). */
#ifndef C2C_LAYOUT_CMD_H
#define C2C_LAYOUT_CMD_H

/* cli_layout - argv[0] is "layout", argv[1] the subcommand.  Return: the exit status. */
int cli_layout(int argc, char **argv);

#endif
