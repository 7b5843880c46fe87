/* ytree_value.c - typed scalar getters and their number parsing; see ytree.h for the design. */
#include "yaml/ytree.h"
#include "core/types.h"
#include "yaml/ytree_int.h"

#include <inttypes.h>
#include <string.h>

#include <glib.h>

/* ---- Typed scalars --------------------------------------------------------------- */

/* A number-like getter wants a plain scalar: quotes are how a file says "this is text". */
static bool need_plain(const struct yt_node *n, const char *what, const char *expected,
		       struct c2c_err *err)
{
	if (!yt_need_kind(n, YT_SCALAR, what, err))
		return false;
	if (n->quoted) {
		err_set(err, n->mark, "%s: '\"%s\"' is a quoted string (expected %s)", what, n->str,
			expected);
		return false;
	}
	return true;
}

enum num_parse { NUM_BAD, NUM_OK, NUM_OVERFLOW };

/*
 * parse_magnitude - the unsigned number in @s[0..len): decimal, or 0x-hex when @hex, with
 * single '_' separators between digits.  Overflow is still a number (reported as out of
 * range rather than "not an integer").
 */
static enum num_parse parse_magnitude(const char *s, size_t len, bool hex, uint64_t *out)
{
	const char *end = s + len;
	unsigned int base = 10;
	bool prev_digit = false, overflow = false;
	uint64_t v = 0;

	if (hex && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (s == end)
		return NUM_BAD;
	for (; s < end; s++) {
		int d = base == 16 ? g_ascii_xdigit_value(*s) : g_ascii_digit_value(*s);

		if (*s == '_' && prev_digit && s + 1 < end) {
			prev_digit = false;
			continue;
		}
		if (d < 0)
			return NUM_BAD;
		if (!g_uint64_checked_mul(&v, v, base) || !g_uint64_checked_add(&v, v, (guint64)d))
			overflow = true;
		prev_digit = true;
	}
	if (!prev_digit)
		return NUM_BAD;
	*out = v;
	return overflow ? NUM_OVERFLOW : NUM_OK;
}

/*
 * read_integer - optional '-' and a magnitude, kept apart so each getter checks its own range.
 * Return: false with the error set when @n is no plain integer (an overflowing one is still
 * an integer: *@overflow is set and the caller reports "out of range").
 */
static bool read_integer(const struct yt_node *n, const char *what, const char *expected,
			 bool *neg, uint64_t *mag, bool *overflow, struct c2c_err *err)
{
	enum num_parse r;

	if (!need_plain(n, what, expected, err))
		return false;
	*neg = n->str[0] == '-';
	r = parse_magnitude(n->str + *neg, strlen(n->str + *neg), true, mag);
	if (r == NUM_BAD) {
		err_set(err, n->mark, "%s: '%s' is not an integer (expected %s)", what, n->str,
			expected);
		return false;
	}
	*overflow = r == NUM_OVERFLOW;
	return true;
}

static bool err_range(const struct yt_node *n, const char *what, const char *expected,
		      struct c2c_err *err)
{
	err_set(err, n->mark, "%s: %s is out of range (expected %s)", what, n->str, expected);
	return false;
}

bool yt_int(const struct yt_node *n, const char *what, int64_t min, int64_t max, int64_t *out,
	    struct c2c_err *err)
{
	char expected[96];
	bool neg, overflow;
	uint64_t mag = 0;
	int64_t v;

	g_snprintf(expected, sizeof(expected), "an integer in [%" PRId64 ", %" PRId64 "]", min,
		   max);
	if (!read_integer(n, what, expected, &neg, &mag, &overflow, err))
		return false;
	if (overflow || mag > (uint64_t)INT64_MAX + neg)
		return err_range(n, what, expected, err);
	/* -(int64_t)2^63 overflows, so negatives are built from the magnitude minus one. */
	v = !mag ? 0 : neg ? -(int64_t)(mag - 1) - 1 : (int64_t)mag;
	if (v < min || v > max)
		return err_range(n, what, expected, err);
	*out = v;
	return true;
}

bool yt_u64(const struct yt_node *n, const char *what, uint64_t *out, struct c2c_err *err)
{
	static const char expected[] = "an integer in [0, 18446744073709551615]";
	bool neg, overflow;
	uint64_t mag = 0;

	if (!read_integer(n, what, expected, &neg, &mag, &overflow, err))
		return false;
	if (overflow || (neg && mag))
		return err_range(n, what, expected, err);
	*out = mag;
	return true;
}

bool yt_bool(const struct yt_node *n, const char *what, bool *out, struct c2c_err *err)
{
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };
	size_t i;

	if (!need_plain(n, what, "true or false", err))
		return false;
	for (i = 0; yes[i]; i++) {
		if (!g_ascii_strcasecmp(n->str, yes[i]) || !g_ascii_strcasecmp(n->str, no[i])) {
			*out = !g_ascii_strcasecmp(n->str, yes[i]);
			return true;
		}
	}
	err_set(err, n->mark, "%s: '%s' is not a boolean (expected true or false)", what, n->str);
	return false;
}

bool yt_str(const struct yt_node *n, const char *what, const char **out, struct c2c_err *err)
{
	if (!yt_need_kind(n, YT_SCALAR, what, err))
		return false;
	*out = n->str;
	return true;
}

bool yt_enum(const struct yt_node *n, const char *what, const char *const *names, int *out,
	     struct c2c_err *err)
{
	int i;

	if (!yt_need_kind(n, YT_SCALAR, what, err))
		return false;
	for (i = 0; names && names[i]; i++) {
		if (!strcmp(n->str, names[i])) {
			*out = i;
			return true;
		}
	}
	yt_err_unknown(err, n->mark, what, "value", n->str, names);
	return false;
}

/*
 * parse_fraction - up to 3 decimals as thousandths ("5" -> 500, "001" -> 1).
 * Return: the digit count (0 = malformed), or 4 for "too many decimals".
 */
static int parse_fraction(const char *s, uint64_t *thousandths)
{
	int digits = 0;
	uint64_t v = 0;

	for (; *s; s++, digits++) {
		if (!g_ascii_isdigit(*s))
			return 0;
		if (digits < 3)
			v = v * 10 + (uint64_t)(*s - '0');
	}
	if (digits > 3)
		return 4;
	for (int i = digits; i < 3; i++)
		v *= 10;
	*thousandths = v;
	return digits;
}

bool yt_duration(const struct yt_node *n, const char *what, uint64_t unit_ps, uint64_t *out_ps,
		 struct c2c_err *err)
{
	static const char expected[] = "a duration >= 0";
	const char *s, *dot;
	uint64_t whole = 0, frac = 0, frac_ps, total;
	enum num_parse r;
	int digits = 1;

	if (!need_plain(n, what, expected, err))
		return false;
	s = n->str;
	if (s[0] == '-') {
		err_set(err, n->mark, "%s: negative value %s (expected %s)", what, s, expected);
		return false;
	}
	dot = strchr(s, '.');
	r = parse_magnitude(s, dot ? (size_t)(dot - s) : strlen(s), false, &whole);
	if (dot)
		digits = parse_fraction(dot + 1, &frac);
	if (r == NUM_BAD || digits == 0) {
		err_set(err, n->mark, "%s: '%s' is not a duration (expected %s)", what, s, expected);
		return false;
	}
	if (digits > 3) {
		err_set(err, n->mark, "%s: '%s' has more than 3 decimals (expected %s "
			"with at most 3 decimals)", what, s, expected);
		return false;
	}
	/* Exact integer arithmetic: a rounded duration could reorder simulated events. */
	if (r == NUM_OVERFLOW || !g_uint64_checked_mul(&total, whole, unit_ps) ||
	    !g_uint64_checked_mul(&frac_ps, frac, unit_ps) ||
	    !g_uint64_checked_add(&total, total, frac_ps / 1000) || total > SIMTIME_MAX) {
		err_set(err, n->mark, "%s: %s is out of range (expected %s of at most 2^63 - 1 ps, "
			"SIMTIME_MAX)", what, s, expected);
		return false;
	}
	if (frac_ps % 1000) {
		err_set(err, n->mark, "%s: %s is finer than 1 ps (expected a whole number of "
			"picoseconds)", what, s);
		return false;
	}
	*out_ps = total;
	return true;
}
