/*
 * scenario_int.h - what the scenario loader's three files share (scenario.c: the file, its
 * variants and overrides; scenario_objs.c: regions and objects; scenario_ops.c: actors, ops
 * and traces).  Not for other modules.
 */
#ifndef C2C_SCENARIO_INT_H
#define C2C_SCENARIO_INT_H

#include "scenario/scenario.h"

/* The state of loading one variant. */
struct loader {
	struct variant *v;
	GPtrArray *sites;
	GArray *actors;
	const char *dir; /* directory of the scenario file, for relative paths */
	const struct c2c_limits *lim; /* the scenario's resource limits */
	uint64_t pcpu_next; /* next free offset in the per-cpu unit */
	GArray *heaps;      /* struct heap: allocation cursors per (node, cache) */
	uint64_t chunk_next[C2C_MAX_SOCKETS]; /* per node: where the next heap chunk starts */
	GHashTable *ent_ids;   /* entity name (owned by v->ents) -> id + 1 */
	int32_t *last_child;   /* per entity: its youngest child (-1: none), for O(1) appends */
	uint32_t ent_cap, base_cap; /* room in v->ents' per-entity and base arrays */
	uint16_t *cpu_nodes; /* per CPU: the home node of its per-cpu unit (scn_cpu_nodes) */
	struct c2c_err *err;
};


/* scn_add_site - register a code site name (owned by the loader from here).  Return: its id. */
uint32_t scn_add_site(struct loader *ld, char *name);

/* scn_parse_target - resolve an op's target; see scenario_objs.c. */
bool scn_parse_target(const struct variant *v, const struct yt_node *n, const char *what,
		      uint32_t *size, uint64_t *addr, uint64_t *stride, struct c2c_err *err);

enum alloc_kind { ALLOC_KMALLOC, ALLOC_KMEM_CACHE, ALLOC_PERCPU, ALLOC_STATIC, ALLOC_COUNT };

/* scn_place_object - where the next instance of @l goes, by its allocation rule @alloc (or
 * @placement bytes past a 128-byte boundary when @placed).  Can't fail.  (scenario_objs.c) */
uint64_t scn_place_object(struct loader *ld, const struct layout *l, int alloc, uint16_t node,
			  bool placed, uint64_t placement, uint64_t size);

/* scn_cpu_nodes - per CPU, the home node of its per-cpu unit (the loader's, made once).
 * Can't fail.  (scenario_objs.c) */
const uint16_t *scn_cpu_nodes(struct loader *ld);

/* scn_add_qnodes - the per-CPU MCS nodes of queued spinlocks, as objects. (scenario_objs.c) */
void scn_add_qnodes(struct loader *ld);

/* scn_entity_find - the id of the entity named @name, -1 for none. (scenario_ents.c) */
int32_t scn_entity_find(const struct loader *ld, const char *name);

/* scn_load_objects - `layouts`, `regions` and `objects` of the scenario tree @root. */
bool scn_load_objects(struct loader *ld, const struct yt_node *root);

/* scn_load_entities - the program's global objects and the scenario's `entities`. */
bool scn_load_entities(struct loader *ld, const struct yt_node *root);

/* scn_init_entities - the entities' initial memory (links, kinds' and the scenario's
 * `init:`) into ents.init, and the link targets into ents.by_addr; see scenario_init.c. */
bool scn_init_entities(struct loader *ld, const struct yt_node *root);

/* scn_loader_release - what the loader allocated for itself (allocation cursors). */
void scn_loader_release(struct loader *ld);

/* scn_load_actors - `actors` and `trace` of @root (objects must be loaded). */
bool scn_load_actors(struct loader *ld, const struct yt_node *root);

#endif
