/* limits.c - the table of resource limits and their options; see limits.h. */
#include "core/limits.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The defaults let every shipped scenario run with room to spare: seed 000's replay touches
 * about 2.6e6 lines (2.8 GB of host memory) in 0.36 s simulated, the benchmarks dispatch
 * 1.7e7 events (README, "Resource limits"). */
const struct limit_def limit_table[] = {
	{"--max-events", LIMIT_OF(events), 2000000000ull, "events",
	 "events dispatched per variant"},
	{"--max-time-us", LIMIT_OF(time_us), 10000000ull, "us",
	 "simulated microseconds per variant"},
	{"--max-lines", LIMIT_OF(lines), 4194304ull, "lines",
	 "cache lines in the directory per variant (host memory)"},
	{"--max-entities", LIMIT_OF(entities), 1048576ull, "entities",
	 "entity instances per variant"},
	{"--max-trace-lines", LIMIT_OF(trace_lines), 4194304ull, "lines",
	 "accesses in a trace file"},
	{"--max-output-mib", LIMIT_OF(output_mib), 1024ull, "MiB",
	 "MiB written to the results directory"},
};
const size_t limit_table_len = G_N_ELEMENTS(limit_table);
G_STATIC_ASSERT(G_N_ELEMENTS(limit_table) == sizeof(struct c2c_limits) / sizeof(uint64_t));

static uint64_t *field(struct c2c_limits *l, const struct limit_def *d)
{
	return (uint64_t *)(void *)((char *)l + d->offset);
}

static const struct limit_def *find_option(const char *name)
{
	for (size_t i = 0; i < limit_table_len; i++)
		if (!strcmp(limit_table[i].option, name))
			return &limit_table[i];
	return NULL;
}

void limits_default(struct c2c_limits *l)
{
	for (size_t i = 0; i < limit_table_len; i++)
		*field(l, &limit_table[i]) = limit_table[i].def;
}

simtime_t limits_time_ps(const struct c2c_limits *l)
{
	return l->time_us > UINT64_MAX / PS_PER_US ? UINT64_MAX : l->time_us * PS_PER_US;
}

uint64_t limits_output_bytes(const struct c2c_limits *l)
{
	return l->output_mib > UINT64_MAX >> 20 ? UINT64_MAX : l->output_mib << 20;
}

/* A positive decimal integer that fits in 64 bits, nothing else (no sign, no octal). */
static bool parse_count(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (!g_ascii_isdigit(*s) || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return v > 0;
}

static gboolean on_option(const char *name, const char *value, gpointer data, GError **gerr)
{
	const struct limit_def *d = find_option(name);
	uint64_t v;

	if (!d || !parse_count(value, &v)) {
		g_set_error(gerr, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s '%s' (expected a "
			    "positive integer, the most %s)", name, value, d ? d->what : "");
		return FALSE;
	}
	*field(data, d) = v;
	return TRUE;
}

GOptionGroup *limits_option_group(struct c2c_limits *l)
{
	GOptionGroup *g = g_option_group_new("limits", "Resource limits (reaching one: exit 1)",
					     "Show the resource limit options", l, NULL);
	GOptionEntry e[G_N_ELEMENTS(limit_table) + 1] = {{0}};

	for (size_t i = 0; i < limit_table_len; i++)
		e[i] = (GOptionEntry){limit_table[i].option + 2, 0, 0, G_OPTION_ARG_CALLBACK,
				      (gpointer)on_option, limit_table[i].what, "N"};
	g_option_group_add_entries(g, e);
	return g;
}

bool limits_parse_args(struct c2c_limits *l, int *argc, char **argv, struct c2c_err *err)
{
	GOptionContext *ctx = g_option_context_new(NULL);
	GError *gerr = NULL;
	bool ok;

	/* Only the limit options are ours: everything else stays for the caller's parser. */
	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_set_ignore_unknown_options(ctx, TRUE);
	g_option_context_set_main_group(ctx, limits_option_group(l));
	ok = g_option_context_parse(ctx, argc, &argv, &gerr);
	if (!ok)
		err_setf(err, "c2csim run: %s", gerr->message);
	g_clear_error(&gerr);
	g_option_context_free(ctx);
	return ok;
}

char *limits_fail(char *buf, size_t size, const struct c2c_limits *l, size_t offset,
		  const char *what)
{
	const struct limit_def *d = NULL;

	for (size_t i = 0; i < limit_table_len && !d; i++)
		if (limit_table[i].offset == offset)
			d = &limit_table[i];
	g_assert(d);
	snprintf(buf, size, "limit %s reached: more than %" G_GUINT64_FORMAT " %s %s (raise it "
		 "with %s N)", d->option, *field((struct c2c_limits *)(void *)l, d), d->unit, what,
		 d->option);
	return buf;
}

/* ------------------------------------------------------------------ output budget */

struct budget_file {
	int fd;
	struct limits_budget *b;
};

static ssize_t budget_write(void *cookie, const char *buf, size_t len)
{
	struct budget_file *bf = cookie;
	size_t done = 0;

	if (len > bf->b->left) {
		bf->b->over = true;
		errno = EFBIG;
		return -1;
	}
	while (done < len) {
		ssize_t n = write(bf->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (ssize_t)done : -1;
		done += (size_t)n;
	}
	bf->b->left -= len;
	return (ssize_t)len;
}

static int budget_close(void *cookie)
{
	struct budget_file *bf = cookie;
	int r = fsync(bf->fd) | close(bf->fd);

	g_free(bf);
	return r ? -1 : 0;
}

FILE *limits_fopen(const char *path, struct limits_budget *b)
{
	struct budget_file *bf = g_new(struct budget_file, 1);
	FILE *f;

	bf->b = b;
	if ((bf->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0) {
		g_free(bf);
		return NULL;
	}
	f = fopencookie(bf, "w", (cookie_io_functions_t){.write = budget_write,
							 .close = budget_close});
	if (!f) {
		close(bf->fd);
		g_free(bf);
	}
	return f;
}
