/*
 * layout_show.h - a layout printed for people: pahole's view (`layout show`) and the member
 * order as a C struct body (`layout edit --as-patch`).
 */
#ifndef C2C_LAYOUT_SHOW_H
#define C2C_LAYOUT_SHOW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "layout/layout.h"

/*
 * layout_show - @l as pahole prints it: one line per member with "OFFSET SIZE" (bitfields
 * "OFFSET:BIT SIZE"), holes, cacheline boundaries, groups, the size summary.  Order as
 * pahole's: a hole is printed after the member before it, then the boundaries before the next
 * member ("was N bytes ago" when that member starts N bytes past the boundary).  Unlike pahole,
 * every 64-byte boundary is shown, also those inside a member.  The object starts @placement
 * bytes past a 128-byte boundary; @pair marks 128-byte pair boundaries.  Indentation is tabs.
 */
void layout_show(FILE *f, const struct layout *l, uint64_t placement, bool pair);

/*
 * layout_print_c - @l as a C struct definition in member order, ready to paste into the
 * kernel: types and names as pahole prints them, `__attribute__((__aligned__(N)))` where a
 * member has an explicit alignment, `CACHELINE_PADDING(NAME);` for 64-byte padding markers,
 * `__cacheline_group_begin[_aligned](G);` / `_end[_aligned](G);` around groups
 * (include/linux/cache.h), and each member's offset and size as a comment.  Types pahole
 * shows without a C spelling (a pointer to an anonymous aggregate, "struct {...} *") are
 * printed as they are and do not compile.
 */
void layout_print_c(FILE *f, const struct layout *l);

/* layout_print_diff - the leaf members of @a (library @la) whose 64-byte line or 128-byte
 * pair differs in @b (library @lb) at @placement, "PATH: offset X -> Y, line .. -> ..,
 * pair .. -> ..", then those only in one of them. */
struct layout_lib;
void layout_print_diff(FILE *f, struct layout_lib *la, const struct layout *a,
		       struct layout_lib *lb, const struct layout *b, uint64_t placement);

#endif
