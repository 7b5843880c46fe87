/* sweep_emit.c - a sweep for engines that exist: GNU parallel job lines, a Slurm job array;
 * see sweep.h. */
#include "sweep/sweep.h"

#include <stdio.h>
#include <stdlib.h>

/* The command that runs point @point ("%s" for the Slurm task id when @point < 0). */
static void point_cmd(GString *s, const char *exe, const char *dir, int64_t point)
{
	g_autofree char *yaml = g_build_filename(dir, "sweep.yaml", NULL);
	g_autofree char *qe = g_shell_quote(exe), *qy = g_shell_quote(yaml);
	g_autofree char *qd = g_shell_quote(dir);

	g_string_append_printf(s, "%s sweep %s --out %s --no-plot --point ", qe, qy, qd);
	if (point < 0)
		g_string_append(s, "\"$SLURM_ARRAY_TASK_ID\"");
	else
		g_string_append_printf(s, "%" G_GINT64_FORMAT, point);
}

bool sweep_emit(const struct sweep_grid *g, const char *exe, const char *dir, const char *path,
		bool slurm, struct c2c_err *err)
{
	GString *s = g_string_new(NULL);
	g_autoptr(GError) gerr = NULL;
	bool ok;

	if (!slurm) {
		for (uint32_t p = 0; p < g->nr_points; p++) {
			point_cmd(s, exe, dir, p);
			g_string_append_c(s, '\n');
		}
	} else {
		g_autofree char *logs = g_build_filename(dir, "points", "slurm-%A_%a.log", NULL);

		g_string_append_printf(s, "#!/bin/bash\n# c2csim sweep of %s: %u points, array task "
				       "N runs point N.\n# Submit with `sbatch THIS_FILE`, then "
				       "`c2csim merge DIR` when the array is done.\n"
				       "#SBATCH --job-name=c2csim-sweep\n#SBATCH --array=0-%u\n"
				       "#SBATCH --output=%s\nset -eu\n"
				       ": \"${SLURM_ARRAY_TASK_ID:?not set: submit with sbatch, or "
				       "set it to a point number}\"\nexec ", dir, g->nr_points,
				       g->nr_points - 1, logs);
		point_cmd(s, exe, dir, -1);
		g_string_append_c(s, '\n');
	}
	ok = g_file_set_contents(path, s->str, (gssize)s->len, &gerr);
	if (!ok)
		err_setf(err, "c2csim sweep: %s", gerr->message);
	g_string_free(s, TRUE);
	return ok;
}
