/* layout_check.c - evaluate layout assertions at a placement; see layout.h (asserts). */
#include "layout/layout_check.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

/* Lines (of @unit bytes) that [start, end) touches when the object starts at @placement. */
static void units(uint64_t placement, uint64_t start, uint64_t end, uint64_t unit,
		  uint64_t *first, uint64_t *last)
{
	*first = (placement + start) / unit;
	*last = (placement + end - 1) / unit;
}

static void describe(GString *s, const char *name, uint64_t start, uint64_t end)
{
	g_string_append_printf(s, "%s (offset %" PRIu64 ", size %" PRIu64 ")", name, start,
			       end - start);
}

/* Two ranges against one another in @unit-byte units: do they share one? */
static bool share_unit(uint64_t placement, uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1,
		       uint64_t unit, uint64_t *which)
{
	uint64_t af, al, bf, bl;

	units(placement, a0, a1, unit, &af, &al);
	units(placement, b0, b1, unit, &bf, &bl);
	*which = af > bf ? af : bf;
	return af <= bl && bf <= al;
}

int layout_check_one(struct layout_lib *lib, const struct layout *l, const struct lassert *a,
		     uint64_t placement, GString *fail, struct c2c_err *err)
{
	const char *kind = lassert_kind_names[a->kind];
	uint64_t a0, a1, b0 = 0, b1 = 0, u;
	bool ok;

	if (!layout_range(lib, l, a->a, &a0, &a1, a->mark, err) ||
	    (a->b && !layout_range(lib, l, a->b, &b0, &b1, a->mark, err)))
		return -1;
	g_string_append_printf(fail, "%s:%d:%d: %s: ", a->mark.file, a->mark.line, a->mark.col,
			       kind);
	switch (a->kind) {
	case LA_MEMBER_IN_GROUP:
		ok = b0 >= a0 && b1 <= a1;
		describe(fail, a->b, b0, b1);
		g_string_append_printf(fail, " is outside group %s (bytes %" PRIu64 "-%" PRIu64 ")",
				       a->a, a0, a1);
		break;
	case LA_GROUP_SIZE:
		ok = a1 - a0 <= a->limit;
		g_string_append_printf(fail, "group %s is %" PRIu64 " bytes (bytes %" PRIu64 "-%"
				       PRIu64 "), over the limit of %" PRIu64, a->a, a1 - a0, a0,
				       a1, a->limit);
		break;
	case LA_SAME_LINE:
		ok = share_unit(placement, a0, a1, b0, b1, 64, &u);
		describe(fail, a->a, a0, a1);
		g_string_append(fail, " and ");
		describe(fail, a->b, b0, b1);
		g_string_append_printf(fail, " share no 64-byte line at placement %" PRIu64, placement);
		break;
	default: {
		uint64_t unit = a->kind == LA_NOT_SAME_LINE ? 64 : 128;

		ok = !share_unit(placement, a0, a1, b0, b1, unit, &u);
		describe(fail, a->a, a0, a1);
		g_string_append(fail, " and ");
		describe(fail, a->b, b0, b1);
		g_string_append_printf(fail, " share %s %" PRIu64 " at placement %" PRIu64,
				       unit == 64 ? "64-byte line" : "128-byte pair", u, placement);
		break;
	}
	}
	if (ok)
		g_string_truncate(fail, 0);
	return ok ? 1 : 0;
}
