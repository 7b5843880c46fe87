/* outdir.c - the results directory's life; see outdir.h for the rules. */
#include "report/outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c2csim_config.h"
#include "yaml/ytree.h"

/* Room the temporary's name needs beyond ".NAME": ".tmp-" and a pid of up to 10 digits. */
#define TMP_SUFFIX 16

/* Record "@what @path: strerror(errno)" unless a reason is already there.  Return: false. */
static bool od_fail_errno(struct outdir *od, const char *what, const char *path)
{
	int e = errno;

	if (!od->why[0])
		snprintf(od->why, sizeof(od->why), "%s %s: %s", what, path, g_strerror(e));
	return false;
}

static bool od_fail(struct outdir *od, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool od_fail(struct outdir *od, const char *fmt, ...)
{
	va_list ap;

	if (od->why[0])
		return false;
	va_start(ap, fmt);
	vsnprintf(od->why, sizeof(od->why), fmt, ap);
	va_end(ap);
	return false;
}

void outdir_rm_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		GDir *d = g_dir_open(path, 0, NULL);
		const char *name;

		while (d && (name = g_dir_read_name(d))) {
			char *child = g_build_filename(path, name, NULL);

			outdir_rm_tree(child);
			g_free(child);
		}
		if (d)
			g_dir_close(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

/* ------------------------------------------------------------------ what may be replaced */

/* The files the marker of @dir lists (a set), or NULL when it has no readable marker. */
static GHashTable *marker_files(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, OUTDIR_MARKER, NULL);
	struct c2c_err err = {0};
	struct stat st;
	struct yt_node *root, *files;
	GHashTable *set = NULL;

	if (lstat(path, &st) || !S_ISREG(st.st_mode) || !(root = yt_load_file(path, &err)))
		return NULL;
	files = yt_get(root, "files");
	if (yt_get(root, "c2csim_version") && files && files->kind == YT_SEQ) {
		set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		for (size_t i = 0; i < files->len; i++)
			if (files->items[i]->kind == YT_SCALAR)
				g_hash_table_add(set, g_strdup(files->items[i]->str));
	}
	yt_free(root);
	return set;
}

/* Does everything under @dir (named @rel from the top, "" there) appear in @listed?  Else
 * od->why names the first stranger. */
static bool only_listed(struct outdir *od, const char *dir, const char *rel, GHashTable *listed)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	bool ok = d != NULL;

	if (!d)
		od_fail_errno(od, "cannot read", dir);
	while (ok && (name = g_dir_read_name(d))) {
		g_autofree char *child = g_build_filename(dir, name, NULL);
		g_autofree char *crel = *rel ? g_strconcat(rel, "/", name, NULL) : g_strdup(name);
		struct stat st;

		if (!*rel && !strcmp(name, OUTDIR_MARKER))
			continue;
		if (lstat(child, &st))
			ok = od_fail_errno(od, "cannot read", child);
		else if (S_ISDIR(st.st_mode))
			ok = only_listed(od, child, crel, listed);
		else if (!S_ISREG(st.st_mode) || !g_hash_table_contains(listed, crel))
			ok = od_fail(od, "%s holds %s, which c2csim did not write; refusing to replace "
				     "it (move that away, or choose another --out)", od->path, crel);
	}
	if (d)
		g_dir_close(d);
	return ok;
}

static bool is_empty_dir(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	bool empty = d && !g_dir_read_name(d);

	if (d)
		g_dir_close(d);
	return empty;
}

/* May @path (described by @st, from lstat) be replaced?  Else od->why says why not. */
static bool replaceable(struct outdir *od, const char *path, const struct stat *st)
{
	GHashTable *listed;
	bool ok;

	if (!S_ISDIR(st->st_mode))
		return od_fail(od, "%s exists and is %s; refusing to replace it", od->path,
			       S_ISLNK(st->st_mode) ? "a symbolic link" : "not a directory");
	if (is_empty_dir(path))
		return true;
	if (!(listed = marker_files(path)))
		return od_fail(od, "%s exists and was not written by c2csim (no %s marker); "
			       "refusing to replace it (remove it, or choose another --out)",
			       od->path, OUTDIR_MARKER);
	ok = only_listed(od, path, "", listed);
	g_hash_table_destroy(listed);
	return ok;
}

/* ------------------------------------------------------------------ leftovers of dead runs */

static bool pid_alive(long pid)
{
	return pid > 0 && pid <= INT_MAX && (!kill((pid_t)pid, 0) || errno != ESRCH);
}

/* The pid of @name when it is ".<base>.<kind>-<pid>", else 0. */
static long leftover_pid(const struct outdir *od, const char *name, const char *kind)
{
	g_autofree char *prefix = g_strdup_printf(".%s.%s-", od->base, kind);
	const char *digits;
	char *end;
	long pid;

	if (!g_str_has_prefix(name, prefix))
		return 0;
	digits = name + strlen(prefix);
	if (!g_ascii_isdigit(*digits))
		return 0;
	pid = strtol(digits, &end, 10);
	return *end ? 0 : pid;
}

/* Remove the temporaries of dead runs; an old DIR moved away by a killed fallback swap goes
 * back to DIR when DIR is missing.  Our own pid's are a dead run's too (pids are reused). */
static void clean_stale(struct outdir *od)
{
	GDir *d = g_dir_open(od->parent, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		long tmp_pid = leftover_pid(od, name, "tmp"), old_pid = leftover_pid(od, name, "old");
		long pid = tmp_pid ? tmp_pid : old_pid;
		g_autofree char *path = NULL;
		struct stat st;

		if (!pid || (pid != getpid() && pid_alive(pid)))
			continue;
		path = g_build_filename(od->parent, name, NULL);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (old_pid && lstat(od->path, &st) && errno == ENOENT && !rename(path, od->path))
			continue; /* recovered */
		outdir_rm_tree(path);
	}
	if (d)
		g_dir_close(d);
}

/* ------------------------------------------------------------------ can it be written */

/* The nearest existing ancestor of DIR must be a directory we may write in. */
static bool ancestor_writable(struct outdir *od, char **ancestor)
{
	char *a = g_strdup(od->parent);
	struct stat st;

	while (lstat(a, &st) && (errno == ENOENT || errno == ENOTDIR) && strcmp(a, ".") &&
	       strcmp(a, "/")) {
		char *up = g_path_get_dirname(a);

		g_free(a);
		a = up;
	}
	*ancestor = a;
	if (stat(a, &st))
		return od_fail_errno(od, "cannot use", a);
	if (!S_ISDIR(st.st_mode))
		return od_fail(od, "%s is not a directory", a);
	if (access(a, W_OK | X_OK))
		return od_fail_errno(od, "cannot write in", a);
	return true;
}

/* Every name on the way fits the file system; the base leaves room for the temporary's. */
static bool lengths_fit(struct outdir *od, const char *ancestor)
{
	long name_max = pathconf(ancestor, _PC_NAME_MAX);
	g_auto(GStrv) parts = g_strsplit(od->path, "/", -1);

	if (name_max <= 0)
		name_max = 255;
	for (size_t i = 0; parts[i]; i++)
		if ((long)strlen(parts[i]) > name_max)
			return od_fail(od, "a name in the path is %zu bytes (expected at most %ld)",
				       strlen(parts[i]), name_max);
	if ((long)strlen(od->base) + 1 + TMP_SUFFIX > name_max)
		return od_fail(od, "the name %.40s... is %zu bytes (expected at most %ld, to leave "
			       "room for the temporary .NAME.tmp-PID)", od->base, strlen(od->base),
			       name_max - 1 - TMP_SUFFIX);
	if (strlen(od->path) + 1 + TMP_SUFFIX >= PATH_MAX)
		return od_fail(od, "the path is %zu bytes (expected less than %d)", strlen(od->path),
			       PATH_MAX - 1 - TMP_SUFFIX);
	return true;
}

/* Set up the names and check all but the parent's existence. */
static bool plan(struct outdir *od, const char *dir)
{
	size_t len = strlen(dir);
	g_autofree char *ancestor = NULL;
	struct stat st;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	od->path = g_strndup(dir, len);
	od->parent = g_path_get_dirname(od->path);
	od->base = g_path_get_basename(od->path);
	od->files = g_ptr_array_new_with_free_func(g_free);
	if (!*od->base || !strcmp(od->base, ".") || !strcmp(od->base, "..") ||
	    !strcmp(od->base, "/"))
		return od_fail(od, "not a directory name one can replace");
	od->tmp = g_strdup_printf("%s/.%s.tmp-%ld", od->parent, od->base, (long)getpid());
	od->old = g_strdup_printf("%s/.%s.old-%ld", od->parent, od->base, (long)getpid());
	if (!ancestor_writable(od, &ancestor) || !lengths_fit(od, ancestor))
		return false;
	clean_stale(od);
	return lstat(od->path, &st) || replaceable(od, od->path, &st);
}

bool outdir_check(const char *dir, struct c2c_err *err)
{
	struct outdir od = {0};
	bool ok = plan(&od, dir);

	if (!ok)
		err_setf(err, "cannot write results to %s: %s", dir, od.why);
	outdir_close(&od);
	return ok;
}

bool outdir_open(struct outdir *od, const char *dir)
{
	if (!plan(od, dir))
		return false;
	if (g_mkdir_with_parents(od->parent, 0777))
		return od_fail_errno(od, "cannot create directory", od->parent);
	if (mkdir(od->tmp, 0777))
		return od_fail_errno(od, "cannot create directory", od->tmp);
	od->tmp_ours = true;
	return true;
}

void outdir_wrote(struct outdir *od, const char *rel)
{
	g_ptr_array_add(od->files, g_strdup(rel));
}

/* ------------------------------------------------------------------ the swap */

/* The marker, last: a temporary that has it is complete. */
static bool write_marker(struct outdir *od)
{
	g_autofree char *path = g_build_filename(od->tmp, OUTDIR_MARKER, NULL);
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f)
		return od_fail_errno(od, "cannot create", path);
	fputs("# Written by c2csim: `c2csim run --out` may replace this directory, but only while "
	      "it holds\n# nothing except the files listed here.\nc2csim_version: ", f);
	yt_emit_quoted(f, C2CSIM_VERSION);
	fputs("\nfiles:\n", f);
	for (guint i = 0; i < od->files->len; i++) {
		fputs("  - ", f);
		yt_emit_quoted(f, od->files->pdata[i]);
		fputc('\n', f);
	}
	ok = !fflush(f) && !ferror(f) && !fsync(fileno(f));
	if (fclose(f) || !ok)
		return od_fail_errno(od, "cannot write", path);
	return true;
}

/* Make the renames durable: fsync the parent directory (best effort). */
static void sync_parent(const struct outdir *od)
{
	int fd = open(od->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* What was moved away to @moved must be replaceable still (checked after the move, so no
 * other process can change it in between). */
static bool moved_replaceable(struct outdir *od, const char *moved)
{
	struct stat st;

	return !lstat(moved, &st) && replaceable(od, moved, &st);
}

/* The fallback: DIR to .old-PID, the temporary to DIR, the old one removed. */
static bool swap_two_renames(struct outdir *od)
{
	bool existed = !rename(od->path, od->old);

	if (!existed && errno != ENOENT)
		return od_fail_errno(od, "cannot move away", od->path);
	if (existed && !moved_replaceable(od, od->old)) {
		rename(od->old, od->path);
		return false;
	}
	if (rename(od->tmp, od->path)) {
		od_fail_errno(od, "cannot rename to", od->path);
		if (existed)
			rename(od->old, od->path); /* put the old results back */
		return false;
	}
	od->tmp_ours = false;
	if (existed)
		outdir_rm_tree(od->old);
	return true;
}

static bool swap_in(struct outdir *od)
{
#ifdef RENAME_EXCHANGE
	if (!od->no_exchange &&
	    !renameat2(AT_FDCWD, od->tmp, AT_FDCWD, od->path, RENAME_EXCHANGE)) {
		/* The old results are at the temporary's name now. */
		if (!moved_replaceable(od, od->tmp)) {
			/* Not ours: exchange back; if even that fails, never remove it. */
			od->tmp_ours = !renameat2(AT_FDCWD, od->tmp, AT_FDCWD, od->path,
						  RENAME_EXCHANGE);
			return false;
		}
		outdir_rm_tree(od->tmp);
		od->tmp_ours = false;
		return true;
	}
	if (!od->no_exchange && errno != ENOENT && errno != EINVAL && errno != ENOSYS)
		return od_fail_errno(od, "cannot exchange with", od->path);
#endif
	return swap_two_renames(od);
}

bool outdir_commit(struct outdir *od)
{
	bool ok = write_marker(od) && swap_in(od);

	sync_parent(od);
	return ok;
}

void outdir_close(struct outdir *od)
{
	if (od->tmp_ours)
		outdir_rm_tree(od->tmp);
	g_free(od->path);
	g_free(od->parent);
	g_free(od->base);
	g_free(od->tmp);
	g_free(od->old);
	if (od->files)
		g_ptr_array_free(od->files, TRUE);
	memset(od, 0, sizeof(*od));
}
