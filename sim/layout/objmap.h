/*
 * objmap.h - named objects at addresses: what reports print instead of raw addresses.
 *
 * A scenario places objects (regions of bytes now; instances of struct layouts later) at
 * addresses with a home NUMA node.  The memory system asks objmap_find() once per line, when
 * the line is first touched, and stores the answer in the directory entry.
 */
#ifndef C2C_OBJMAP_H
#define C2C_OBJMAP_H

#include <stdbool.h>
#include <stdint.h>

struct layout;
struct layout_lib;

#define OBJ_NONE UINT32_MAX

struct obj {
	char *name;     /* "counter", "memcg[3].pn[1]" */
	char *type;     /* struct name, or NULL for a plain region */
	uint64_t base, size;
	uint16_t node;  /* home NUMA node */
	const struct layout *layout; /* the struct's layout (owned by objmap->lib), or NULL */
	bool per_cpu;   /* an instance "NAME[cpu]" of a per-cpu object (others are a unit apart) */
};

struct objmap {
	struct obj *v;
	uint32_t *by_addr; /* indexes sorted by base, built by objmap_seal() */
	uint64_t *base_sorted; /* base of by_addr[i], for a binary search in one array */
	uint32_t *near;    /* where in by_addr the last lookup ended: a cache that changes no
			    * answer, so lookups through a const map may update it */
	uint32_t nr, cap;
	struct layout_lib *lib; /* resolves embedded structs for member names (not owned) */
};

void objmap_init(struct objmap *om);
void objmap_release(struct objmap *om);

/* objmap_add - register an object.  Return: its index.  Can't fail; overlaps are checked by
 * objmap_seal(). */
uint32_t objmap_add(struct objmap *om, const char *name, const char *type, uint64_t base,
		    uint64_t size, uint16_t node);

/* objmap_seal - sort for lookups.  Return: OBJ_NONE when no two objects overlap, else the
 * index of an object that overlaps the one before it in address order. */
uint32_t objmap_seal(struct objmap *om);

/* objmap_find - the object containing @addr, or OBJ_NONE. */
uint32_t objmap_find(const struct objmap *om, uint64_t addr);

/* objmap_find_in - the object containing @lo, else the first one starting in [@lo, @hi), else
 * OBJ_NONE: which object's memory a coherence unit that begins in padding belongs to. */
uint32_t objmap_find_in(const struct objmap *om, uint64_t lo, uint64_t hi);

/* objmap_member - the member path of @addr in object @obj ("lruvec.lru_lock"), or NULL when
 * the object has no layout or the byte is a hole.  Caller g_free()s. */
char *objmap_member(const struct objmap *om, uint32_t obj, uint64_t addr);

/* objmap_label - how reports name a byte: "pn.lruvec.lru_lock" when a member holds it, else
 * "pn+0x98"; "-" outside every object.  Caller g_free()s. */
char *objmap_label(const struct objmap *om, uint32_t obj, uint64_t addr);

#endif
