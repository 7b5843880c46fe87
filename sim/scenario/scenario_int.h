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
	uint64_t pcpu_next; /* next free offset in the per-cpu unit */
	GArray *heaps;      /* struct heap: allocation cursors per (node, cache) */
	uint64_t chunk_next[C2C_MAX_SOCKETS]; /* per node: where the next heap chunk starts */
	struct c2c_err *err;
};


/* scn_add_site - register a code site name (owned by the loader from here).  Return: its id. */
uint32_t scn_add_site(struct loader *ld, char *name);

/* scn_parse_target - resolve an op's target; see scenario_objs.c. */
bool scn_parse_target(const struct variant *v, const struct yt_node *n, const char *what,
		      uint32_t *size, uint64_t *addr, uint64_t *stride, struct c2c_err *err);

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
