/* layout_abi.c - offsets by the x86-64 C ABI; see layout.h. */
/*
 * Conventions (what a computed layout holds, chosen to match pahole on the same struct):
 *
 * - Offsets are bytes from the start of the outermost layout, also inside inline structs and
 *   unions (pahole's convention).  Members are laid out relative to their aggregate first and
 *   shifted once the aggregate's own offset is known.
 * - Bitfields: `offset` is the byte offset of the storage unit holding the field, i.e. the
 *   field's first bit rounded down to a multiple of the declared type's size, and
 *   `bit_offset` counts bits from that unit's least significant bit (memory order on x86-64);
 *   `size` is sizeof(declared type).  This is what pahole >= 1.18 prints ("OFF:BIT SIZE",
 *   dwarves class__fixup_btf_bitfields: byte_offset = bit_offset / bit_size * bit_size / 8).
 *   Placement is GCC's for x86-64: a field stays at the next free bit unless it would cross
 *   a boundary of its type's alignment, in which case it starts on that boundary; an
 *   explicit `align` first moves it to that boundary (GCC accepts aligned bitfields).
 *   An unnamed LM_FIELD (name NULL) is an unnamed bitfield; with `bits` 0 it is the
 *   zero-width `T :0`, which only moves the next field to a boundary of T.  Unnamed
 *   bitfields do not raise the struct's alignment (psABI 3.1.2).
 * - Aligned groups follow the kernel's macros: __cacheline_group_begin_aligned(G) is a
 *   zero-size member aligned to SMP_CACHE_BYTES (64) right before the group's first member;
 *   __cacheline_group_end_aligned(G) is a zero-size end marker aligned to sizeof(long) after
 *   the last member plus an empty `struct { }` aligned to 64, so the next member starts on a
 *   new line and the struct's alignment becomes 64.  Groups match members by dotted path
 *   ("stats.count" inside a named inline struct; anonymous aggregates are transparent).
 *   Group start/end are left to the group resolver.
 * - An LM_PAD without a type and with size 0 and no align is CACHELINE_PADDING
 *   (`struct cacheline_padding`: size 0, aligned to 64), the only zero-size padding marker
 *   pahole prints; with a type it is that type; otherwise size and align as given.
 * - An inline struct/union's `align` is on its type, as in pahole's
 *   `} __attribute__((__aligned__(64)));`: its size rounds up to it.
 * - A field with a known C type or a layout that also gives `size` must agree with it (the
 *   table is non-debug x86-64; a lockdep spinlock_t is not 4 bytes, so a mismatch is an
 *   error rather than silently one or the other).
 */
#include "layout/layout.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#define SMP_CACHE_BYTES 64
#define LONG_BYTES 8
#define LAYOUT_MAX_DEPTH 16 /* embedded structs followed for an implied alignment */
/* Sizes are bounded so that bit positions (bytes * 8) can never overflow. */
#define MAX_BYTES ((uint64_t)1 << 40)

#define EXPECT_TYPE "expected a C type such as u64, a pointer, or struct NAME with layout:"

/* A C type of the table: size and alignment in bytes; widest bitfield (0: not an integer). */
struct ctype {
	const char *name;
	uint8_t size, align, bits;
};

#define INT_T(n, sz) { n, sz, sz, 8 * (sz) }
#define OPAQUE(n, sz, al) { n, sz, al, 0 }

static const struct ctype ctypes[] = {
	INT_T("char", 1), INT_T("signed char", 1), INT_T("unsigned char", 1), INT_T("u8", 1),
	INT_T("s8", 1), INT_T("__u8", 1), INT_T("__s8", 1), INT_T("uint8_t", 1),
	INT_T("int8_t", 1), { "bool", 1, 1, 1 }, { "_Bool", 1, 1, 1 },
	INT_T("short", 2), INT_T("short int", 2), INT_T("signed short", 2),
	INT_T("unsigned short", 2), INT_T("short unsigned int", 2),
	INT_T("unsigned short int", 2), INT_T("u16", 2), INT_T("s16", 2), INT_T("__u16", 2),
	INT_T("__s16", 2), INT_T("uint16_t", 2), INT_T("int16_t", 2),
	INT_T("int", 4), INT_T("signed", 4), INT_T("signed int", 4), INT_T("unsigned", 4),
	INT_T("unsigned int", 4), INT_T("u32", 4), INT_T("s32", 4), INT_T("__u32", 4),
	INT_T("__s32", 4), INT_T("uint32_t", 4), INT_T("int32_t", 4),
	INT_T("long", 8), INT_T("long int", 8), INT_T("signed long", 8),
	INT_T("unsigned long", 8), INT_T("long unsigned int", 8), INT_T("unsigned long int", 8),
	INT_T("long long", 8), INT_T("long long int", 8), INT_T("unsigned long long", 8),
	INT_T("long long unsigned int", 8), INT_T("unsigned long long int", 8),
	INT_T("u64", 8), INT_T("s64", 8), INT_T("__u64", 8), INT_T("__s64", 8),
	INT_T("uint64_t", 8), INT_T("int64_t", 8), INT_T("size_t", 8), INT_T("ssize_t", 8),
	INT_T("loff_t", 8), INT_T("phys_addr_t", 8), INT_T("uintptr_t", 8),
	INT_T("intptr_t", 8), INT_T("ptrdiff_t", 8),
	/* Kernel types as pahole shows them on a non-debug x86-64 SMP kernel (no lockdep). */
	OPAQUE("atomic_t", 4, 4), OPAQUE("atomic64_t", 8, 8), OPAQUE("atomic_long_t", 8, 8),
	OPAQUE("refcount_t", 4, 4), OPAQUE("seqcount_t", 4, 4),
	OPAQUE("spinlock_t", 4, 4), OPAQUE("raw_spinlock_t", 4, 4),
	OPAQUE("arch_spinlock_t", 4, 4), OPAQUE("struct spinlock", 4, 4),
	OPAQUE("struct raw_spinlock", 4, 4), OPAQUE("struct qspinlock", 4, 4),
	OPAQUE("struct list_head", 16, 8), OPAQUE("struct hlist_head", 8, 8),
	OPAQUE("struct hlist_node", 16, 8), OPAQUE("struct llist_head", 8, 8),
	OPAQUE("struct llist_node", 8, 8), OPAQUE("struct rb_node", 24, 8),
	OPAQUE("struct rb_root", 8, 8), OPAQUE("struct callback_head", 16, 8),
	OPAQUE("struct rcu_head", 16, 8), OPAQUE("struct percpu_ref", 16, 8),
	/* `struct cacheline_padding { char x[0]; } ____cacheline_internodealigned_in_smp`. */
	OPAQUE("struct cacheline_padding", 0, SMP_CACHE_BYTES),
};

#define NR_CTYPES (sizeof(ctypes) / sizeof(ctypes[0]))

/* Collapse whitespace runs to one space and trim, so "unsigned   int " matches the table.
 * Longer names than @cap are cut short; no table name is that long, so they stay unknown. */
static void normalise(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	bool gap = false;

	for (; *in; in++) {
		if (g_ascii_isspace(*in)) {
			gap = n > 0;
			continue;
		}
		if (gap && n + 1 < cap)
			out[n++] = ' ';
		gap = false;
		if (n + 1 < cap)
			out[n++] = *in;
	}
	out[n] = '\0';
}

/* Pointers: "T *" in any spacing, and function pointers "R (*)(ARGS)" as pahole writes. */
static bool is_pointer(const char *type)
{
	size_t n = strlen(type);

	while (n && g_ascii_isspace(type[n - 1]))
		n--;
	return n && (type[n - 1] == '*' || (type[n - 1] == ')' && strstr(type, "(*")));
}

/* The table entry of @type (one shared entry for every pointer), NULL when unknown. */
static const struct ctype *ctype_find(const char *type)
{
	static const struct ctype pointer = { "*", 8, 8, 0 };
	char norm[64];

	if (!type)
		return NULL;
	if (is_pointer(type))
		return &pointer;
	normalise(type, norm, sizeof(norm));
	for (size_t i = 0; i < NR_CTYPES; i++)
		if (!strcmp(norm, ctypes[i].name))
			return &ctypes[i];
	return NULL;
}

bool layout_c_type(const char *type, uint64_t *size, uint32_t *align)
{
	const struct ctype *t = ctype_find(type);

	if (!t)
		return false;
	*size = t->size;
	*align = t->align;
	return true;
}

/* ------------------------------------------------------------------ placement */

/* State of one layout computation. */
struct abi {
	const struct layout *l;
	layout_resolve_fn resolve;
	void *data;
	struct c2c_err *err;
	GString *path;      /* dotted path of the member being placed: groups and messages */
	uint8_t *seen;      /* per group: 1 = first member met, 2 = last member met */
};

/* Where the next member of one aggregate goes. */
struct cursor {
	uint64_t bit;       /* struct: next free bit */
	uint64_t bytes;     /* bytes used so far (a union's widest member) */
	uint32_t align;
	bool is_union;
};

/* The element type of a field: size and alignment, widest bitfield, whether @size is the
 * member's total size as written (`size:` + `align:` without a known type). */
struct etype {
	uint64_t size;
	uint32_t align;
	unsigned bits;
	bool total;
	const char *what;   /* type name for messages */
};

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static const char *who(const struct abi *a)
{
	return a->path->len ? a->path->str : "(unnamed)";
}

static uint64_t cursor_bytes(const struct cursor *c)
{
	return MAX(c->bytes, round_up(c->bit, 8) / 8);
}

/* Room for @size bytes at @align: its offset within the aggregate.  False past MAX_BYTES. */
static bool place(struct abi *a, struct cursor *c, const struct lmember *m, uint64_t size,
		  uint32_t align, uint64_t *off)
{
	*off = c->is_union ? 0 : round_up(cursor_bytes(c), align);
	if (size > MAX_BYTES || *off + size > MAX_BYTES) {
		err_set(a->err, m->mark, "%s: ends past %" PRIu64 " bytes (expected a smaller "
			"struct)", who(a), MAX_BYTES);
		return false;
	}
	c->align = MAX(c->align, align);
	c->bytes = MAX(c->bytes, *off + size);
	if (!c->is_union)
		c->bit = (*off + size) * 8;
	return true;
}

/* A zero-size marker aligned to @align (cacheline group begin/end/pad). */
static void marker(struct cursor *c, uint32_t align)
{
	c->align = MAX(c->align, align);
	if (!c->is_union)
		c->bit = round_up(c->bit, (uint64_t)align * 8);
}

/* Aligned groups beginning (@begin) or ending at the member just named in a->path. */
static void group_markers(struct abi *a, struct cursor *c, bool begin)
{
	for (uint32_t i = 0; i < a->l->nr_groups; i++) {
		const struct lgroup *g = &a->l->groups[i];
		const char *p = begin ? g->first : g->last;

		if (!g->aligned || !p || strcmp(p, a->path->str))
			continue;
		a->seen[i] |= begin ? 1 : 2;
		if (!begin)
			marker(c, LONG_BYTES);
		marker(c, SMP_CACHE_BYTES);
	}
}

/* Number of array elements of @m, false when the product overflows. */
static bool elems_of(const struct lmember *m, uint64_t *n)
{
	*n = 1;
	for (int d = 0; d < m->nr_dims && d < LAYOUT_MAX_DIMS; d++)
		if (__builtin_mul_overflow(*n, (uint64_t)m->dims[d], n))
			return false;
	return true;
}

uint32_t layout_offset_align(uint64_t offset, uint64_t elem_size)
{
	uint32_t a = LONG_BYTES;

	while (a > 1 && ((offset % a) || (elem_size % a)))
		a /= 2;
	return a;
}

static uint32_t implied_align(struct abi *a, const struct layout *e, int depth);

/* The alignment of an imported member: explicit, of its type, or what its offset implies. */
static uint32_t member_align(struct abi *a, const struct lmember *m, int depth)
{
	const struct ctype *c = ctype_find(m->type);
	struct c2c_err ignore = {0};
	const struct layout *e;
	uint32_t al = m->align;

	if (m->kind == LM_STRUCT || m->kind == LM_UNION) {
		for (uint32_t i = 0; i < m->nr_sub; i++)
			al = MAX(al, member_align(a, &m->sub[i], depth));
		return al;
	}
	if (c)
		return MAX(al, c->align);
	if (m->layout && a->resolve && depth < LAYOUT_MAX_DEPTH &&
	    (e = a->resolve(a->data, m->layout, m->mark, &ignore)))
		return MAX(al, e->align ? e->align : implied_align(a, e, depth + 1));
	if (m->type_align)
		return MAX(al, m->type_align);
	return MAX(al, layout_offset_align(m->offset, m->size / MAX(lmember_elems(m), 1)));
}

/* The alignment of an imported struct that gives no `align:`: its members' largest. */
static uint32_t implied_align(struct abi *a, const struct layout *e, int depth)
{
	uint32_t al = 1;

	for (uint32_t i = 0; i < e->nr; i++)
		al = MAX(al, member_align(a, &e->m[i], depth));
	return al;
}

/* An embedded `struct X` with `layout: X`: size and alignment of the resolved layout; a
 * layout without `align:` (imported) takes the one its members imply.  When no layout file
 * exists, an edited import falls back to its size and the alignment its offsets implied. */
static bool embedded_type(struct abi *a, const struct lmember *m, struct etype *t)
{
	const struct layout *e = NULL;
	struct c2c_err missing = {0};

	if (a->resolve)
		e = a->resolve(a->data, m->layout, m->mark, m->type_align ? &missing : a->err);
	if (!e && m->type_align && m->size) {
		t->size = m->size;
		t->align = m->type_align;
		t->total = true;
		return true;
	}
	if (!e) {
		err_set(a->err, m->mark, "%s: unknown layout '%s' (expected the name of a loaded "
			"layout)", who(a), m->layout);
		return false;
	}
	t->size = e->size;
	t->align = e->align ? e->align : implied_align(a, e, 0);
	t->what = m->type ? m->type : m->layout;
	if (e->size % t->align) {
		err_set(a->err, m->mark, "%s: struct %s gives no align: and its size %" PRIu64 " is "
			"not a multiple of the alignment %u its members imply (expected align: N in "
			"its layout file)", who(a), e->name, e->size, t->align);
		return false;
	}
	return true;
}

/* A type the table does not know: `size:` + `align:` (a zero-length or flexible array needs
 * only `align:`), else an error with a suggestion. */
static bool sized_type(struct abi *a, const struct lmember *m, struct etype *t)
{
	const char *names[NR_CTYPES + 1], *near;
	uint64_t elems = 1;

	if ((m->size || (elems_of(m, &elems) && !elems)) && (m->align || m->type_align)) {
		t->size = m->size;
		t->align = MAX(m->align, m->type_align);
		t->total = true;
		return true;
	}
	if (m->size) {
		err_set(a->err, m->mark, "%s: size %" PRIu64 " without align (expected align: "
			"1, 2, 4, 8, ... next to size: for a type that is not a known C type)",
			who(a), m->size);
		return false;
	}
	if (!m->type) {
		err_set(a->err, m->mark, "%s: missing type (" EXPECT_TYPE ")", who(a));
		return false;
	}
	for (size_t i = 0; i < NR_CTYPES; i++)
		names[i] = ctypes[i].name;
	names[NR_CTYPES] = NULL;
	near = err_closest(m->type, names);
	err_set(a->err, m->mark, "%s: unknown type '%s' (" EXPECT_TYPE "%s%s%s)", who(a),
		m->type, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
	return false;
}

/* The element type of an LM_FIELD or LM_PAD. */
static bool element_type(struct abi *a, const struct lmember *m, struct etype *t)
{
	const struct ctype *c;

	memset(t, 0, sizeof(*t));
	t->what = m->type;
	if (m->layout)
		return embedded_type(a, m, t);
	if ((c = ctype_find(m->type))) {
		t->size = c->size;
		t->align = c->align;
		t->bits = c->bits;
		return true;
	}
	if (m->kind == LM_PAD && !m->type) {
		/* A bare zero-size pad is CACHELINE_PADDING; a sized one is bytes. */
		t->size = m->size;
		t->align = m->align ? m->align : m->size ? 1 : SMP_CACHE_BYTES;
		t->total = true;
		return true;
	}
	return sized_type(a, m, t);
}

/* Bitfield checks: an integer type, no wider than it, not an array. */
static bool bitfield_ok(struct abi *a, const struct lmember *m, const struct etype *t)
{
	if (!t->bits) {
		err_set(a->err, m->mark, "%s: bitfield of type '%s' (expected an integer type "
			"such as unsigned int or u8)", who(a), t->what ? t->what : "?");
		return false;
	}
	if (m->bits > t->bits) {
		err_set(a->err, m->mark, "%s: bitfield width %u exceeds type '%s' (expected at "
			"most %u bit%s)", who(a), m->bits, t->what, t->bits,
			t->bits > 1 ? "s" : "");
		return false;
	}
	if (m->nr_dims) {
		err_set(a->err, m->mark, "%s: a bitfield cannot be an array (expected no dims: "
			"with bits:)", who(a));
		return false;
	}
	return true;
}

/* Place a bitfield (or an unnamed zero-width one) by GCC's x86-64 rules; see the top. */
static bool place_bits(struct abi *a, struct cursor *c, struct lmember *m,
		       const struct etype *t)
{
	uint64_t unit = t->size * 8, pos = c->is_union ? 0 : c->bit;

	if (!bitfield_ok(a, m, t))
		return false;
	if (m->align)
		pos = round_up(pos, (uint64_t)m->align * 8);
	if (!m->bits) {
		if (!c->is_union)
			c->bit = round_up(pos, unit);
		m->offset = round_up(pos, unit) / 8;
		m->bit_offset = 0;
		m->size = 0;
		return true;
	}
	if (pos / unit != (pos + m->bits - 1) / unit)
		pos = round_up(pos, unit);
	m->offset = pos / unit * t->size;
	m->bit_offset = (uint16_t)(pos - m->offset * 8);
	m->size = t->size;
	if (m->name || m->align)
		c->align = MAX(c->align, MAX(t->align, m->align));
	c->bytes = MAX(c->bytes, round_up(pos + m->bits, 8) / 8);
	if (!c->is_union)
		c->bit = pos + m->bits;
	return true;
}

/* A field or pad: type, array size, alignment, then its place. */
static bool place_field(struct abi *a, struct cursor *c, struct lmember *m)
{
	struct etype t;
	uint64_t elems, size = 0;

	if (!element_type(a, m, &t))
		return false;
	if (m->kind == LM_FIELD && (m->bits || !m->name))
		return place_bits(a, c, m, &t);
	if (!elems_of(m, &elems) || (!t.total && __builtin_mul_overflow(elems, t.size, &size)))
		size = UINT64_MAX;
	if (t.total)
		size = m->size;
	if (!t.total && m->size && m->size != size) {
		err_set(a->err, m->mark, "%s: size %" PRIu64 " does not match type '%s' (expected "
			"%" PRIu64 ")", who(a), m->size, t.what, size);
		return false;
	}
	if (!place(a, c, m, size, MAX(t.align, m->align), &m->offset))
		return false;
	m->size = size;
	m->bit_offset = 0;
	return true;
}

static bool lay_members(struct abi *a, struct cursor *c, struct lmember *m, uint32_t nr);

/* Add @delta to the offsets of @m and everything inside (relative -> absolute). */
static void shift(struct lmember *m, uint32_t nr, uint64_t delta)
{
	for (uint32_t i = 0; i < nr; i++) {
		m[i].offset += delta;
		shift(m[i].sub, m[i].nr_sub, delta);
	}
}

/* An inline struct or union: its members from 0, then the whole at its own place. */
static bool place_aggregate(struct abi *a, struct cursor *c, struct lmember *m)
{
	struct cursor in = { .align = 1, .is_union = m->kind == LM_UNION };
	uint64_t elems, size;
	uint32_t align;

	if (m->name)
		g_string_append_c(a->path, '.');
	if (!lay_members(a, &in, m->sub, m->nr_sub))
		return false;
	if (m->name)
		g_string_truncate(a->path, a->path->len - 1);
	align = MAX(in.align, m->align);
	if (!elems_of(m, &elems) ||
	    __builtin_mul_overflow(round_up(cursor_bytes(&in), align), elems, &size))
		size = UINT64_MAX;
	if (!place(a, c, m, size, align, &m->offset))
		return false;
	m->size = size;
	shift(m->sub, m->nr_sub, m->offset);
	return true;
}

/* Place @nr members into @c in order (a union puts them all at 0), offsets relative. */
static bool lay_members(struct abi *a, struct cursor *c, struct lmember *m, uint32_t nr)
{
	size_t base = a->path->len;

	for (uint32_t i = 0; i < nr; i++) {
		struct lmember *cur = &m[i];
		bool ok;

		if (cur->name)
			g_string_append(a->path, cur->name);
		if (cur->align && !pow2(cur->align)) {
			err_set(a->err, cur->mark, "%s: align %u is not a power of two "
				"(expected 1, 2, 4, 8, ...)", who(a), cur->align);
			return false;
		}
		if (cur->name)
			group_markers(a, c, true);
		if (cur->kind == LM_STRUCT || cur->kind == LM_UNION)
			ok = place_aggregate(a, c, cur);
		else
			ok = place_field(a, c, cur);
		if (!ok)
			return false;
		if (cur->name)
			group_markers(a, c, false);
		g_string_truncate(a->path, base);
	}
	return true;
}

/* Every aligned group must have met its first and last member. */
static bool groups_found(struct abi *a)
{
	for (uint32_t i = 0; i < a->l->nr_groups; i++) {
		const struct lgroup *g = &a->l->groups[i];

		if (!g->aligned || a->seen[i] == 3)
			continue;
		err_set(a->err, g->mark, "%s: aligned group member '%s' not found (expected a "
			"member of %s)", g->name, !(a->seen[i] & 1) ? g->first : g->last,
			a->l->name);
		return false;
	}
	return true;
}

/* Members with offsets: all of them (an imported layout) or an error at the first without. */
static const struct lmember *offsets_given(const struct lmember *m, uint32_t nr, bool want)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *r = m[i].has_offset == want ? &m[i] : NULL;

		if (r || (r = offsets_given(m[i].sub, m[i].nr_sub, want)))
			return r;
	}
	return NULL;
}

bool layout_compute(struct layout *l, layout_resolve_fn resolve, void *data,
		    struct c2c_err *err)
{
	struct abi a = { .l = l, .resolve = resolve, .data = data, .err = err };
	struct cursor c = { .align = 1 };
	const struct lmember *without;
	bool ok;

	if (offsets_given(l->m, l->nr, true)) {
		if (!(without = offsets_given(l->m, l->nr, false)))
			return true; /* imported: nothing to compute */
		err_set(err, without->mark, "%s: no offset while other members give one "
			"(expected every member with offset, or none to have them computed)",
			without->name ? without->name : lm_kind_names[without->kind]);
		return false;
	}
	if (l->align && !pow2(l->align)) {
		err_setf(err, "%s: align %u is not a power of two (expected 1, 2, 4, 8, ...)",
			 l->name, l->align);
		return false;
	}
	a.path = g_string_new(NULL);
	a.seen = g_new0(uint8_t, l->nr_groups);
	ok = lay_members(&a, &c, l->m, l->nr) && groups_found(&a);
	if (ok) {
		l->align = MAX(c.align, l->align);
		l->size = round_up(cursor_bytes(&c), l->align);
		l->computed = true;
	}
	g_string_free(a.path, TRUE);
	g_free(a.seen);
	return ok;
}
