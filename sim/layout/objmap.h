/*
 * objmap.h - named objects at addresses: what reports print instead of raw addresses.
 *
 * A scenario places objects (regions of bytes now; instances of struct layouts later) at
 * addresses with a home NUMA node.  The memory system asks objmap_find() once per line, when
 * the line is first touched, and stores the answer in the directory entry.
 *
 * Storage: objects are kept in runs.  A run is one object, or the instances of a per-cpu
 * object ("NAME@0" ... "NAME@255", or "NAME[0]" ...), a fixed stride apart, which share one
 * name, type, size and layout; only the home node is kept per object.  A 256-CPU scenario
 * with a thousand memcgs has a million per-cpu instances, and their names alone (one
 * allocation each) were most of its loading footprint.  Object indexes are insertion order,
 * instance by instance, as if each had been added alone.
 */
#ifndef C2C_OBJMAP_H
#define C2C_OBJMAP_H

#include <stdbool.h>
#include <stdint.h>

struct layout;
struct layout_lib;
struct _GStringChunk;

#define OBJ_NONE UINT32_MAX

/* One object as objmap_get() describes it (a copy; the strings belong to the map). */
struct obj {
	const char *name; /* "counter", "memcg[3].pn[1]"; with inst >= 0, the name's prefix */
	int32_t inst;     /* -1, or the instance number that ends the name (objmap_name()) */
	char sep;         /* inst >= 0: '@' for "NAME@3", '[' for "NAME[3]" */
	const char *type; /* struct name, or NULL for a plain region */
	uint64_t base, size;
	uint16_t node;    /* home NUMA node */
	const struct layout *layout; /* the struct's layout (owned by objmap->lib), or NULL */
	bool per_cpu;     /* an instance of a per-cpu object (the others are a unit apart) */
};

/* What is kept per object: its home node (its run is found from its index). */
struct obj_home {
	uint16_t node;    /* home NUMA node */
};

/* The instances first .. first + count - 1, at base + k * stride. */
struct obj_run {
	const char *name; /* the whole name (count 1, sep 0) or the instances' prefix */
	const char *type;
	uint64_t base, stride, size;
	const struct layout *layout;
	uint32_t first, count;
	char sep;         /* 0, '@' or '[' (struct obj.sep) */
	bool per_cpu;
};

/* An object of the address index that is not in a periodic run (objmap_seal()). */
struct obj_piece {
	uint64_t base;
	uint32_t idx, run;
};

/*
 * The address index (objmap_seal()).  Runs of the same count and stride whose first instance
 * lies in one stride-aligned window (the per-cpu objects: instance K in CPU K's unit) are
 * periodic: instance K of each is at the same offset of window K, so they are found by that
 * offset among the runs, sorted, with no entry per instance.  Every other object is a piece,
 * sorted by address.  Lookups answer as one sorted list of every object would (by base, then
 * index).
 */
struct obj_last {
	uint64_t base, size;
	uint32_t idx;
	/* The gap objmap_find last answered OBJ_NONE in: no object holds a byte of [gap_lo,
	 * gap_hi), and the first one past any of them is gap_next, based at gap_hi (OBJ_NONE,
	 * gap_hi UINT64_MAX: none).  Empty (gap_lo == gap_hi) until then.  A CPU's `work`
	 * buffer is in no object: its first touches, a page of lines in a row, all land here. */
	uint64_t gap_lo, gap_hi;
	uint32_t gap_next;
};

struct objmap {
	struct obj_home *v; /* per object, in index order */
	uint32_t nr, cap;
	struct obj_run *runs;
	uint32_t nr_runs, cap_runs;
	struct _GStringChunk *strs; /* the runs' names and types */
	struct obj_piece *flat; /* the pieces, by (base, index) */
	uint32_t nr_flat;
	uint32_t *per;     /* the periodic runs, by (base, first) */
	uint32_t nr_per;
	uint64_t per_lo, per_stride; /* window K is per_lo + K * per_stride, per_stride long */
	uint32_t per_count; /* windows (the periodic runs' count) */
	uint32_t *near;    /* where in flat and in per the last lookup ended: a cache that changes
			    * no answer, so lookups through a const map may update it */
	struct obj_last *last; /* the object objmap_find found last (size 0: none) and the gap
				* it found last, a cache like near; only in a map without
				* overlaps, where a byte inside an object is in it alone (NULL
				* otherwise) */
	struct layout_lib *lib; /* resolves embedded structs for member names (not owned) */
};

void objmap_init(struct objmap *om);
void objmap_release(struct objmap *om);

/* objmap_add - register an object (copies @name and @type).  Return: its index.  Can't fail;
 * overlaps are checked by objmap_seal(). */
uint32_t objmap_add(struct objmap *om, const char *name, const char *type, uint64_t base,
		    uint64_t size, uint16_t node);

/* objmap_add_run - register @count instances named @prefix followed by "@K" (@sep '@') or
 * "[K]" (@sep '['), instance K at @base + K * @stride with home node @nodes[K], all of @size
 * bytes.  They are per-cpu instances (obj.per_cpu).  Return: the first one's index (the
 * others follow it).  Can't fail. */
uint32_t objmap_add_run(struct objmap *om, const char *prefix, char sep, const char *type,
			uint64_t base, uint64_t stride, uint64_t size, uint32_t count,
			const uint16_t *nodes);

/* objmap_set_layout - the layout of object @i and of every instance of its run, and whether
 * they are per-cpu instances.  @i must exist. */
void objmap_set_layout(struct objmap *om, uint32_t i, const struct layout *layout,
		       bool per_cpu);

/* objmap_get - object @i into *@o.  Return: false (and *@o untouched) when there is no such
 * object (OBJ_NONE or past the end). */
bool objmap_get(const struct objmap *om, uint32_t i, struct obj *o);

/* objmap_name - the whole name of object @i ("counter", "memcg[3].vmstats_percpu@17"), or
 * NULL when there is none.  Caller g_free()s. */
char *objmap_name(const struct objmap *om, uint32_t i);

/* objmap_seal - sort for lookups.  Return: OBJ_NONE when no two objects overlap, else the
 * index of an object that overlaps the one before it in address order. */
uint32_t objmap_seal(struct objmap *om);

/* objmap_find - the object containing @addr, or OBJ_NONE. */
uint32_t objmap_find(const struct objmap *om, uint64_t addr);

/* objmap_find_in - the object containing @lo, else the first one starting in [@lo, @hi), else
 * OBJ_NONE: which object's memory a coherence unit that begins in padding belongs to. */
uint32_t objmap_find_in(const struct objmap *om, uint64_t lo, uint64_t hi);

/* objmap_find_unit - objmap_find(@lo), and objmap_find_in(@lo, @hi) in *@in, with one lookup
 * of @lo: a line's first touch asks both (its name, its home). */
uint32_t objmap_find_unit(const struct objmap *om, uint64_t lo, uint64_t hi, uint32_t *in);

/* objmap_member - the member path of @addr in object @obj ("lruvec.lru_lock"), or NULL when
 * the object has no layout or the byte is a hole.  Caller g_free()s. */
char *objmap_member(const struct objmap *om, uint32_t obj, uint64_t addr);

/* objmap_label - how reports name a byte: "pn.lruvec.lru_lock" when a member holds it, else
 * "pn+0x98"; "-" outside every object.  Caller g_free()s. */
char *objmap_label(const struct objmap *om, uint32_t obj, uint64_t addr);

#endif
