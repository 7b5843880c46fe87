/*
 * layout.h - struct layouts: members with offsets and sizes, cacheline groups, assertions.
 *
 * Design
 * ------
 * A layout is what pahole prints for one struct: an ordered tree of members.  A member is a
 * field (scalar, pointer, array, or an embedded struct/union type by name), or an inline
 * nested struct/union (anonymous or named) whose own members follow.  Offsets are in bytes
 * relative to the start of the layout (pahole's convention: members of an inline anonymous
 * struct or union carry offsets in the enclosing struct), bitfields add a bit offset and
 * width, arrays carry their dimensions (a flexible array member has one dimension of 0).
 * An embedded struct type may refer to another layout (`layout: lruvec`), so its members are
 * addressable (`lruvec.lru_lock`) without repeating them.
 *
 * Two ways to get offsets: imported from pahole (pahole.c; exact, offsets present) or
 * computed by the x86-64 C ABI rules from types and explicit alignment (layout_abi.c; offsets
 * absent in the file).  The YAML file format (layouts/<kernel-or-patch>/<struct>.yaml):
 *
 *   struct: mem_cgroup_per_node
 *   size: 512                 # required for imported layouts; computed otherwise
 *   align: 64                 # alignment of the struct (__aligned__ on the struct, or computed)
 *   source: "pahole 1.24, linux-6.18.44"     # optional provenance
 *   estimated: false          # optional: true when offsets or sizes are estimates
 *   members:
 *     - {name: memcg, type: "struct mem_cgroup *", offset: 0, size: 8}
 *     - {name: lruvec, type: "struct lruvec", offset: 72, size: 152, layout: lruvec}
 *     - {name: lru_zone_size, type: "long unsigned int", offset: 256, size: 200, dims: [25],
 *        align: 64}
 *     - {name: nodeinfo, type: "struct mem_cgroup_per_node *", offset: 2136, size: 0,
 *        dims: [0]}                                   # flexible array member
 *     - {name: flags, type: "unsigned int", offset: 4, size: 4, bit_offset: 3, bits: 5}
 *                         # a bitfield: offset and size of its storage unit; later members may
 *                         # use the unit's bytes its bits leave free (pahole: "Bitfield
 *                         # combined with next fields"), so overlaps are checked bit by bit
 *     - kind: union                                   # inline; name optional (anonymous)
 *       offset: 448
 *       size: 192
 *       members:
 *         - {name: swap, type: "struct page_counter", offset: 448, size: 192,
 *            layout: page_counter}
 *     - {kind: pad, name: _pad2_, offset: 256, size: 0}   # padding marker (CACHELINE_PADDING)
 *   groups:                   # __cacheline_group_begin/end(NAME) equivalents
 *     - {name: read_mostly, first: memcg, last: usage_in_excess, aligned: false}
 *   asserts:                  # CACHELINE_ASSERT_GROUP_MEMBER / _SIZE and line/pair checks
 *     - {member_in_group: [read_mostly, memcg]}
 *     - {group_size: [read_mostly, 64]}
 *     - {not_same_line: [memcg, lruvec.lru_lock]}
 *     - {not_same_pair: [memcg, lruvec.lists]}
 *     - {same_line: [memcg, lruvec_stats_percpu]}
 *
 * In a computed layout members give `type` (a C type: u8..u64, s8..s64, int, long, char,
 * bool, pointers "T *", atomic_t, atomic_long_t, spinlock_t, struct list_head, ... or
 * "struct NAME" with `layout: NAME`), or `size` and `align`, plus optional `dims`,
 * `align` (__aligned__), `bits`; no offsets.  A group with `aligned: true` starts on a
 * cacheline (the kernel's __cacheline_group_begin_aligned).
 *
 * Member paths: dotted names through nested and embedded structs, with [N] indexes for array
 * elements ("lruvec.lru_lock", "state[14]", "rss_stat[2].count").  Anonymous inline structs
 * and unions are transparent, as in C.
 */
#ifndef C2C_LAYOUT_H
#define C2C_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

#define LAYOUT_MAX_DIMS 4

enum lm_kind {
	LM_FIELD,  /* a field: scalar, pointer, array, or an embedded struct/union by type name */
	LM_STRUCT, /* an inline nested struct (sub holds its members) */
	LM_UNION,  /* an inline nested union (sub holds its members) */
	LM_PAD,    /* a zero-size (or sized) padding marker */
	LM_KIND_COUNT
};

struct lmember {
	char *name;            /* NULL for an anonymous inline struct or union */
	char *type;            /* C type as pahole prints it, NULL for inline struct/union */
	char *layout;          /* another layout this field embeds ("lruvec"), or NULL */
	uint64_t offset;       /* bytes from the start of the layout */
	uint64_t size;         /* bytes, all array elements included (0 for flexible arrays) */
	uint32_t align;        /* explicit __aligned__(N), 0 when none */
	uint32_t dims[LAYOUT_MAX_DIMS];
	uint8_t nr_dims;
	uint8_t kind;          /* enum lm_kind */
	uint16_t bit_offset;   /* bitfields: first bit, counted from byte @offset */
	uint16_t bits;         /* bitfields: width; 0 for an ordinary member */
	bool has_offset;       /* the file gave the offset (imported); else computed */
	uint32_t type_align;   /* alignment of a type the ABI tables do not know, as implied by
				  an import (layout_edit.h); 0 when not needed or unknown */
	struct lmember *sub;   /* LM_STRUCT, LM_UNION: members */
	uint32_t nr_sub;
	struct c2c_mark mark;  /* where the member was written (for errors) */
};

struct lgroup {
	char *name;
	char *first, *last;    /* member paths of the first and last member in the group */
	bool aligned;          /* __cacheline_group_begin_aligned */
	uint64_t start, end;   /* resolved byte range [start, end) */
	struct c2c_mark mark;
};

enum lassert_kind {
	LA_MEMBER_IN_GROUP, /* CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP, MEMBER) */
	LA_GROUP_SIZE,      /* CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE) */
	LA_NOT_SAME_LINE,   /* two members (or groups) do not share a 64-byte line */
	LA_NOT_SAME_PAIR,   /* ... do not share a 128-byte pair */
	LA_SAME_LINE,       /* ... do share a line */
	LA_KIND_COUNT
};

struct lassert {
	uint8_t kind;          /* enum lassert_kind */
	char *a, *b;           /* member paths or group names */
	uint64_t limit;        /* LA_GROUP_SIZE */
	struct c2c_mark mark;
};

struct layout {
	char *name;            /* struct name */
	char *file;            /* file it was loaded from (NULL when built in memory) */
	char *source;          /* provenance, or NULL */
	uint64_t size;
	uint32_t align;
	bool estimated;
	bool computed;         /* offsets were computed (no member gave one) */
	struct lmember *m;
	uint32_t nr;
	struct lgroup *groups;
	uint32_t nr_groups;
	struct lassert *asserts;
	uint32_t nr_asserts;
};

extern const char *const lm_kind_names[LM_KIND_COUNT + 1];
extern const char *const lassert_kind_names[LA_KIND_COUNT + 1];

/* layout_new - an empty layout named @name.  Can't fail.  Free with layout_free (NULL ok). */
struct layout *layout_new(const char *name);
void layout_free(struct layout *l);

/* lmember_release - free what a member owns (recursively); the member itself is not freed. */
void lmember_release(struct lmember *m);

/* layout_copy - a deep copy of @l (members, groups, assertions; marks shared).  Can't fail. */
struct layout *layout_copy(const struct layout *l);

/* lmember_append - append a zeroed member to @arr/@nr and return it.  Can't fail. */
struct lmember *lmember_append(struct lmember **arr, uint32_t *nr);

/* lmember_elems - number of array elements (product of dims; 1 when not an array). */
uint64_t lmember_elems(const struct lmember *m);

/* lmember_bits - the bits [*lo, *hi) of the layout that @m occupies: its bytes, or for a
 * bitfield only its own bits, not the rest of its storage unit (GCC packs later members into
 * the bytes a bitfield's unit does not use: pahole's "Bitfield combined with next fields"). */
void lmember_bits(const struct lmember *m, uint64_t *lo, uint64_t *hi);

/* layout_write - write @l in the YAML format above (imported layouts: every offset and size;
 * computed ones may omit offsets when @with_offsets is false).  Can't fail (stream errors are
 * the stream's). */
void layout_write(FILE *f, const struct layout *l, bool with_offsets);

/* layout_write_file - layout_write(@l, with offsets) to @path through a temporary file and a
 * rename: never a half-written layout file.  Return: false with @err set. */
bool layout_write_file(const struct layout *l, const char *path, struct c2c_err *err);

/* Resolves a layout name ("lruvec") to a loaded layout; NULL with @err set when unknown. */
typedef const struct layout *(*layout_resolve_fn)(void *data, const char *name,
						   struct c2c_mark at, struct c2c_err *err);

/*
 * layout_compute - fill offsets, sizes and alignments of @l by the x86-64 System V C ABI
 * (layout_abi.c): members without offsets are placed in order; explicit `align` and aligned
 * groups are honoured; bitfields pack as GCC does; unions overlay; struct size is rounded to
 * the struct's alignment.  Embedded `struct X` members take size and alignment from the
 * layout @resolve returns.  Return: false with @err at the offending member for unknown types
 * (with suggestions), bad alignments (not a power of two), or bitfields wider than their type.
 */
bool layout_compute(struct layout *l, layout_resolve_fn resolve, void *data,
		    struct c2c_err *err);

/* layout_offset_align - the alignment an import's offsets imply for a member of a type
 * nothing else describes: the largest power of two, at most 8 (the widest x86-64 scalar
 * alignment kernel structs use), dividing both its @offset and its @elem_size (an upper
 * bound of the real alignment). */
uint32_t layout_offset_align(uint64_t offset, uint64_t elem_size);

/* layout_c_type - size and alignment of a C type name known to the ABI tables ("u64",
 * "long unsigned int", "struct list_head", "spinlock_t", "u8 *").  Return: false when the
 * type is not a scalar/pointer/known kernel type (structs with layouts are resolved by the
 * caller). */
bool layout_c_type(const char *type, uint64_t *size, uint32_t *align);

#endif
