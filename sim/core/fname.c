/* fname.c - plain file names; see fname.h. */
#include "core/fname.h"

#include <string.h>

const char *fname_why(const char *s)
{
	size_t len = strlen(s);

	if (!len)
		return "is empty";
	if (len > FNAME_MAX)
		return "is longer than 200 bytes";
	for (const char *p = s; *p; p++) {
		if (*p == '/')
			return "contains '/'";
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "contains a control character";
	}
	return s[0] == '.' ? "starts with '.'" : NULL;
}
