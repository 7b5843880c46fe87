/* infile.c - checked whole-file reads; see infile.h. */
#include "core/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "a special file";
}

/* Read @fd to the end into a buffer that never holds more than @limit + 1 bytes. */
static bool read_all(int fd, size_t hint, size_t limit, char **text, size_t *len,
		     char why[INFILE_WHY_MAX])
{
	size_t cap = (hint < limit ? hint : limit) + 2, n = 0;
	char *buf = g_malloc(cap);

	for (;;) {
		ssize_t got;

		if (n + 1 == cap) {
			if (n > limit)
				break;
			cap = cap > limit / 2 ? limit + 2 : cap * 2;
			buf = g_realloc(buf, cap);
		}
		got = read(fd, buf + n, cap - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(why, INFILE_WHY_MAX, "cannot read: %s", g_strerror(errno));
			g_free(buf);
			return false;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	if (n > limit) {
		snprintf(why, INFILE_WHY_MAX, "too large: more than %zu bytes", limit);
		g_free(buf);
		return false;
	}
	buf[n] = 0;
	*text = buf;
	if (len)
		*len = n;
	return true;
}

bool infile_read(const char *path, size_t limit, char **text, size_t *len,
		 char why[INFILE_WHY_MAX])
{
	/* Non-blocking: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	bool ok;

	*text = NULL;
	if (fd < 0) {
		snprintf(why, INFILE_WHY_MAX, "cannot open: %s", g_strerror(errno));
		return false;
	}
	if (fstat(fd, &st)) {
		snprintf(why, INFILE_WHY_MAX, "cannot read: %s", g_strerror(errno));
		ok = false;
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(why, INFILE_WHY_MAX, "is %s, not a regular file", kind_of(st.st_mode));
		ok = false;
	} else if ((uintmax_t)st.st_size > limit) {
		snprintf(why, INFILE_WHY_MAX, "too large: %jd bytes", (intmax_t)st.st_size);
		ok = false;
	} else {
		ok = read_all(fd, (size_t)st.st_size, limit, text, len, why);
	}
	close(fd);
	return ok;
}
