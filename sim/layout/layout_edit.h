/*
 * layout_edit.h - layout edits as data: reorder, pad, align and group the members of a
 * struct and get the offsets the compiler would give.
 *
 * Design
 * ------
 * An edit list is applied to a copy of any layout, imported (pahole's offsets) or computed;
 * then every offset is dropped and recomputed by the x86-64 ABI rules (layout_abi.c), so a
 * what-if never needs a hand-written copy of the struct.  The edits, in YAML (a scenario
 * variant's `set: {layout_edits: {STRUCT: [...]}}`, see layout_edits_apply) and on the
 * command line (`c2csim layout edit`, ledit_parse_arg):
 *
 *   move:  {member: X, after: Y}      --move X:after:Y     (or before: Y, X:before:Y)
 *   swap:  [X, Y]                     --swap X:Y
 *   pad:   {before: X, to: 64}        --pad X:64           a zero-size marker aligned to N
 *                                                          (64: CACHELINE_PADDING)
 *   align: {member: X, to: 64}        --align X:64         __attribute__((__aligned__(N)))
 *   group: {name: G, members: [A, B], aligned: true}
 *                                     --group G:A,B[:aligned]
 *                                     the members become contiguous, in the order given, where
 *                                     A was; aligned: __cacheline_group_begin/end_aligned
 *
 * Members are dotted paths inside the struct ("named.s" in a named inline struct; anonymous
 * aggregates are transparent); the two members of a move or swap, and all of a group, must
 * be in the same aggregate.  Members of an embedded struct (lruvec.lru_lock) belong to that
 * struct's own layout and are edited there.
 *
 * Alignment of imported members: the ABI tables know scalars, pointers and common kernel
 * types, and embedded structs with a layout give theirs (layout_abi.c; one without `align:`
 * takes the alignment its members imply).  A member whose type is neither (an embedded
 * struct with no layout file, an enum) takes the alignment pahole's offsets imply: the
 * largest power of two, at most 8, dividing both its offset and its element size.  That is
 * an upper bound of the real one; import the struct with --recursive for the exact value.
 */
#ifndef C2C_LAYOUT_EDIT_H
#define C2C_LAYOUT_EDIT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "layout/layout_lib.h"
#include "yaml/ytree.h"

enum ledit_kind { LE_MOVE, LE_SWAP, LE_PAD, LE_ALIGN, LE_GROUP, LE_KIND_COUNT };

extern const char *const ledit_kind_names[LE_KIND_COUNT + 1];

struct ledit {
	uint8_t kind;          /* enum ledit_kind */
	bool before;           /* LE_MOVE: before @ref rather than after */
	bool aligned;          /* LE_GROUP */
	char *member;          /* MOVE, SWAP (first), PAD (before), ALIGN */
	char *ref;             /* MOVE: the member to go after/before; SWAP: the second */
	char *group;           /* LE_GROUP: its name */
	GPtrArray *members;    /* LE_GROUP: char * member paths */
	uint32_t to;           /* PAD, ALIGN: a power of two */
	struct c2c_mark mark;
};

struct ledits {
	GArray *v;             /* struct ledit */
};

void ledits_init(struct ledits *e);
void ledits_release(struct ledits *e);

/* ledits_from_tree - append the edits of the YAML sequence @seq.  Return: false with @err at
 * the offending entry (unknown kind, missing or bad operands). */
bool ledits_from_tree(struct ledits *e, const struct yt_node *seq, struct c2c_err *err);

/* ledit_parse_arg - append the edit of a command-line option @kind with value @arg (the forms
 * above).  Return: false with @err naming the option. */
bool ledit_parse_arg(struct ledits *e, enum ledit_kind kind, const char *arg,
		     struct c2c_err *err);

/* ledits_describe - the edits in one line ("move on_tree after memcg; pad before lruvec to
 * 64"), for a layout's `source:`.  Caller frees. */
char *ledits_describe(const struct ledits *e);

/* ledits_to_yaml - the edits as a flow YAML sequence, the form ledits_from_tree reads (for a
 * `--set layout_edits.STRUCT=...` override).  Caller frees. */
char *ledits_to_yaml(const struct ledits *e);

/* ledits_push - append a copy of @d (an edit of another list) to @e. */
void ledits_push(struct ledits *e, const struct ledit *d);

/* layout_edit - a new layout: @l with @e applied and every offset recomputed (embedded
 * structs resolve through @lib).  Return: NULL with @err at the edit that cannot apply
 * (unknown member, with suggestions; members in different aggregates) or at the member whose
 * type cannot be placed. */
struct layout *layout_edit(struct layout_lib *lib, const struct layout *l, const struct ledits *e,
			   struct c2c_err *err);

/* layout_edits_apply - a scenario's `layout_edits: {STRUCT: [EDIT...]}`: each STRUCT is
 * loaded from @lib, edited, and replaces the library's layout of STRUCT, so objects and
 * paths of the scenario see the edited one.  @map may be NULL (nothing to do).  Return:
 * false with @err set. */
bool layout_edits_apply(struct layout_lib *lib, const struct yt_node *map, struct c2c_err *err);

#endif
