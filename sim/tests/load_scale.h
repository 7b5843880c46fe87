/*
 * load_scale.h - inputs of a chosen size for the loaders that used to be quadratic (issue 10,
 * item 12): many entities, a long YAML mapping, a long trace, a long variant `set:`.  check_hostile.c bounds their
 * time and bench_load.c prints it for two sizes, so linear growth shows as a ratio near the
 * size ratio.
 */
#ifndef C2C_LOAD_SCALE_H
#define C2C_LOAD_SCALE_H

#include <stdint.h>

enum ls_kind {
	LS_ENTITIES,   /* one scenario entity with count: N (children of one root) */
	LS_MAP_KEYS,   /* one YAML mapping of N keys, parsed */
	LS_TRACE,      /* a trace of N accesses, each its own code site on 8 lines, run */
	LS_SET_KEYS,   /* N overrides (a variant's `set:`) adding keys to one mapping */
	LS_KIND_COUNT
};

extern const char *const ls_kind_names[LS_KIND_COUNT];

/* ls_seconds - write the input of @kind with @n items under @dir, then load it (and run it,
 * for a trace) and return the host seconds that took; fails the test (or aborts, outside
 * Check) when loading fails. */
double ls_seconds(enum ls_kind kind, uint32_t n, const char *dir);

#endif
