/*
 * layout_cmd.h - what the parts of `c2csim layout` share: the options of a subcommand, as
 * layout_cmd_opts.c parses them and layout_cmd.c runs them.
 */
#ifndef C2C_LAYOUT_CMD_H
#define C2C_LAYOUT_CMD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "layout/layout_edit.h"

#define DEFAULT_LAYOUTS "layouts/linux-6.18"

/* The command line of one `c2csim layout` subcommand (lopts_parse fills it). */
struct lopts {
	const char *cmd;
	char **args;          /* positional arguments */
	char **dirs;          /* --layouts */
	char *out;            /* -o */
	char *from, *btf;     /* import --from OBJECT, --btf FILE */
	char *structs;        /* import -C STRUCT[,STRUCT...] */
	char *placement_arg;
	gboolean pair, recursive, as_patch, keep_size;
	char *variant, *metric, **compare; /* suggest */
	gint budget, jobs, max_size;
	uint64_t placement;
	bool placement_set;
	struct ledits edits;  /* edit: in command-line order */
	struct c2c_err err;   /* an edit option's error, kept for the one-line message */
};

/* lopts_parse - the options and arguments of subcommand o->cmd from argv[1..] (argv[1] the
 * subcommand) into @o, which the caller set up (o->cmd, o->edits) and releases.  Return:
 * false with @err set (an unknown subcommand, a bad option or --placement). */
bool lopts_parse(int argc, char **argv, struct lopts *o, struct c2c_err *err);

#endif
