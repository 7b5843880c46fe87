/*
 * fname.h - names that become a file or directory name c2csim creates.
 *
 * A scenario's name picks its results directory (results/NAME) and a variant's name its
 * params/NAME.yaml, so either one could otherwise point outside the results folder
 * ("../../x") or hide there (".x").  Such a name must be a plain file name:
 *   1 to FNAME_MAX bytes, no '/', no control character (0x00-0x1f, 0x7f), not starting with
 *   '.' (so never "." or ".." either).
 * Bytes above 0x7f are allowed (YAML input is UTF-8 already).
 */
#ifndef C2C_FNAME_H
#define C2C_FNAME_H

/* The longest plain name: leaves room under NAME_MAX (255) for ".NAME.tmp-PID". */
#define FNAME_MAX 200

/* What a plain name is, for "(expected ...)" in messages. */
#define FNAME_EXPECTED "a plain file name: 1 to 200 bytes, no '/', no control character, " \
		       "not starting with '.'"

/* fname_why - why @s is not a plain file name ("contains '/'", ...), or NULL when it is.
 * The reason never quotes @s, so a message stays one line whatever @s holds. */
const char *fname_why(const char *s);

#endif
