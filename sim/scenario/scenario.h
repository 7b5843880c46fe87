/*
 * scenario.h - scenario files: machine, objects, actors, end condition, seed, variants.
 *
 * File format (documented with examples in README.md):
 *
 *   name: two-counters            # optional; default: the file's base name
 *   description: "..."            # optional
 *   machine: skylake-sp-2s        # a model name (models/machines/NAME.yaml), a path, or a mapping
 *   seed: 1
 *   end: {time_us: 200}           # and/or iterations: N (per thread); whichever comes first
 *   regions:                      # named byte ranges ("objects" before layouts exist)
 *     - {name: counter, size: 64, node: 0, align: 64, address: 0x10000000}
 *     - {name: stats, size: 64, per_cpu: true}  # one instance per CPU; `at: stats` is the
 *                                               # executing CPU's own instance
 *   actors:
 *     - name: inc
 *       cpus: 0-19                # "0-3,8" or a sequence of integers
 *       loop:
 *         - {op: locked_rmw, at: counter, size: 8}    # load | store | rmw | locked_rmw
 *         - {op: delay, ns: 20}                       # or ns: [min, max], or cycles: N
 *   trace: {file: accesses.trace, loops: 1}           # optional: "cpu op address size" lines
 *   report: {group: line, sort: tot, lines: 10, callers: false}   # group line|pair,
 *                                                     # sort tot|lcl|rmt
 *   variants:                                         # optional, run side by side
 *     - {name: no-prefetch, set: {machine.prefetch.adjacent_line: false}}
 *
 * Loading: the file is parsed into a ytree; `--set` overrides of `machine` are applied, the
 * machine file is grafted in under `machine`, then each variant's `set` and the remaining
 * `--set` overrides are applied to a copy of the tree, which the typed loader reads.  So
 * every parameter, machine ones included, can be overridden, and the tree each variant ran
 * with is written to the output directory as it was used.
 */
#ifndef C2C_SCENARIO_H
#define C2C_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "core/limits.h"
#include "mem/machine.h"
#include "mem/mem.h"
#include "path/interp.h"
#include "layout/objmap.h"
#include "path/path.h"
#include "yaml/ytree.h"

enum op_kind {
	OP_LOAD = MEM_LOAD,
	OP_STORE = MEM_STORE,
	OP_RMW = MEM_RMW,
	OP_LOCKED_RMW = MEM_LOCKED_RMW,
	OP_DELAY,       /* compute for a fixed or random time */
	OP_CALL,        /* run a kernel path model */
	OP_KIND_COUNT
};

extern const char *const op_kind_names[OP_KIND_COUNT + 1];

struct op {
	uint8_t kind;          /* enum op_kind */
	uint32_t size;
	uint32_t site;         /* index into scenario site_names */
	uint64_t addr;
	uint64_t cpu_stride;   /* per-cpu target: the CPU's instance is addr + cpu * cpu_stride */
	simtime_t delay_min, delay_max; /* OP_DELAY; equal for a fixed delay */
	int32_t call;          /* OP_CALL: path index */
	uint8_t nr_args;
	int64_t args[PATH_MAX_PARAMS]; /* entity ids or integers */
};

struct actor {
	char *name;
	int *cpus;
	uint32_t nr_cpus;
	struct op *ops;        /* the loop body; for trace actors, one CPU's whole trace */
	uint32_t nr_ops;
	uint64_t loops;        /* trace actors: how many times to replay (0 = use end) */
};

enum report_group { GROUP_LINE, GROUP_PAIR, GROUP_COUNT };
enum report_sort { SORT_TOT, SORT_LCL, SORT_RMT, SORT_COUNT };

extern const char *const report_group_names[GROUP_COUNT + 1];
extern const char *const report_sort_names[SORT_COUNT + 1];

struct report_opts {
	enum report_group group;
	enum report_sort sort;
	uint32_t lines;        /* rows of the cacheline table (and lines in the Pareto) */
	bool callers;          /* Pareto rows per caller too (perf c2c -g), not only per site */
};

/* One variant, fully loaded: what run_variant() needs. */

struct variant {
	char *name;
	struct yt_node *tree;   /* the effective scenario tree (machine grafted, overrides applied) */
	struct layout_lib *lib; /* struct layouts of this variant's objects (owned) */
	struct machine mc;
	struct objmap objs;
	struct actor *actors;
	uint32_t nr_actors;
	char **site_names;
	uint32_t nr_sites;
	uint64_t seed;
	simtime_t end_time;    /* 0 = no time limit */
	uint64_t end_iterations; /* 0 = no iteration limit */
	simtime_t warmup;      /* end.warmup_us: statistics start here (0 = from the start) */
	struct report_opts report;
	struct program *prog;  /* kernel path models (NULL when the scenario has none) */
	struct entities ents;  /* entity instances (memcgs, mms) and their objects */
	enum lock_kind lock_kind;
};

struct scenario {
	char *path;            /* as given */
	char *name;
	struct variant *v;
	uint32_t nr_variants;
	bool has_variants;     /* the file declared variants (else one named "default") */
	struct c2c_limits limits; /* resource limits of loading, running and writing it */
	bool no_run_ahead;     /* --no-run-ahead: every step goes through the event queue (run.c) */
	bool track_all_lines;  /* every line keeps its own statistics, shared or not (track.c) */
};

struct override {
	const char *key;       /* dotted path */
	const char *value;     /* YAML text */
};

/*
 * scenario_load - load @path with command-line overrides @ov[0..nr_ov) (applied last, to
 * every variant) and an optional @seed override (@seed_set).  Return: the scenario, or NULL
 * with @err set to a one-line `file:line:col: message`.
 */
struct scenario *scenario_load(const char *path, const struct override *ov, uint32_t nr_ov,
			       bool seed_set, uint64_t seed, struct c2c_err *err);
void scenario_free(struct scenario *sc);

/* scenario_load_only - as scenario_load, keeping only the variants named in @only
 * (NULL-terminated; NULL keeps all), in file order; overrides apply to those only.  A name
 * that is not a variant is an error.  @lim: the resource limits (NULL: the defaults); one
 * reached while loading sets err->limit. */
struct scenario *scenario_load_only(const char *path, const struct override *ov, uint32_t nr_ov,
				    bool seed_set, uint64_t seed, const char *const *only,
				    const struct c2c_limits *lim, struct c2c_err *err);

/* scenario_find_machine - resolve a machine model name to a file path: NAME.yaml under
 * models/machines/ found by walking up from @from_dir, else under the source tree's
 * models/machines.  Return: a newly allocated path (g_free), or NULL when not found. */
char *scenario_find_machine(const char *name, const char *from_dir);

/* parse_cpu_list - "0-3,8,10-11" into a sorted, duplicate-free array.  Return: false with
 * @err at @node for bad syntax, CPUs >= @nr_cpus, or duplicates. */
bool parse_cpu_list(const struct yt_node *node, const char *what, int nr_cpus, int **cpus,
		    uint32_t *nr, struct c2c_err *err);

#endif
