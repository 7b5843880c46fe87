/*
 * path.h - kernel path models: the language, its compiled form, and the programs.
 *
 * Design
 * ------
 * A kernel path (try_charge, css_rstat_flush, ...) is data: a YAML file under
 * models/paths/<era>/ lists paths, each a sequence of operations on members of objects.
 * Files are compiled once, at load time, into an array of instructions per path (struct pinsn)
 * with expressions in postfix form (expr.h) and member paths resolved to (object slot, byte
 * offset, index strides).  The interpreter (interp.c) never looks at YAML.
 *
 * File format (models/paths/<era>/<file>.yaml):
 *
 *   era: "6.18"
 *   constants: {MEMCG_CHARGE_BATCH: 64}      # integers; scenarios may override them
 *   kinds:                                   # what one entity of a kind is made of
 *     memcg:
 *       objects:
 *         memcg:  {layout: mem_cgroup}                      # one per entity (kmalloc)
 *         pn:     {layout: mem_cgroup_per_node, per: node}   # one per NUMA node
 *         statc:  {layout: memcg_vmstats_percpu, alloc: percpu}
 *         memcg:  {layout: mem_cgroup, flex: nodes}   # room for nodeinfo[nr_node_ids]
 *         pn:     {layout: mem_cgroup_per_node, per: node, placement: 64}  # where it lands
 *       links:                               # the pointers walks follow (optional)
 *         parent: memcg.css.parent           #   points at the parent's enclosing struct
 *         children: memcg.css.children       #   list_head: next -> first child's sibling
 *         sibling: memcg.css.sibling         #   list_head: next sibling, or parent's head
 *       init:                                # what the kernel leaves in memory at creation
 *         memcg.memory.max: PAGE_COUNTER_MAX #   an integer expression of constants
 *         memcg.memory.parent: "&parent.memcg.memory"  # an address (NULL at the root)
 *         "memcg.nodeinfo[NODE]": "&pn[NODE]"          # once per node
 *         pn.memcg: "&memcg"                 #   per-node object: every node's instance
 *         memcg.vmstats_percpu: "&statc"     #   per-cpu object: its CPU 0 instance
 *     memcg:                                 # in another file: no objects, more init:
 *       init: {pn.lruvec_stats_percpu: "&lstatc[NODE]"}   # (members its layouts have)
 *   globals:                                 # objects that exist once
 *     stock: {layout: memcg_stock_pcp, alloc: percpu}
 *   paths:
 *     - name: memcg_rstat_updated
 *       cite: "mm/memcontrol.c: memcg_rstat_updated() (6.18)"
 *       simplifies: "what the model leaves out"
 *       params: [{memcg: memcg}, val]        # {name: kind} for entities, bare names for ints
 *       body:
 *         - for: {var: m, in: "ancestors(memcg)"}
 *           do:
 *             - load: {at: m.vmstats.stats_updates, into: shared}
 *             - if: "shared > MEMCG_CHARGE_BATCH * nr_cpus"
 *               then: [break]
 *             - rmw: {at: m.statc.stats_updates, add: "abs(val)", into: n}
 *             - if: "n < MEMCG_CHARGE_BATCH"
 *               then: [continue]
 *             - rmw: {at: m.statc.stats_updates, set: 0}
 *             - atomic: {at: m.vmstats.stats_updates, add: n}
 *
 * Addresses (`at:`): ENTITY.OBJECT[.MEMBER...] or GLOBAL[.MEMBER...], where ENTITY is a
 * parameter or loop variable of a kind, OBJECT one of the kind's objects, MEMBER a member path
 * of the object's layout.  Indexes may be expressions: `m.pn[nid].lruvec.lists[lru]`,
 * `m.statc.state[idx]`.  Per-cpu objects mean the executing CPU's instance; `OBJ@EXPR` names
 * another CPU's (`m.statc@c.state[i]` in a flush loop).
 *
 * Operations (one key each; EXPR is an integer expression, see expr.h; `into` stores a result
 * in a local):
 *   load:    {at, into}                  plain load
 *   store:   {at, value}                 plain store (store buffer)
 *   rmw:     {at, add|sub|set, into}     this_cpu_* RMW, no LOCK; into = new value (add/sub)
 *                                        or old value (set = xchg)
 *   atomic:  {at, add|sub|set, into}     atomic_* (LOCK); same results
 *   cmpxchg: {at, old, new, into}        LOCK cmpxchg; into = the old value found
 *   lock: AT / unlock: AT                spin_lock/unlock (scenario `lock_kind`: ticket|queued)
 *   trylock: {at, into}                  into = 1 when taken
 *   irq_off / irq_on                     local_irq_save/disable, local_irq_restore/enable
 *                                        (machine latency.irq_off_cycles / irq_on_cycles,
 *                                        2 cycles each by default)
 *   delay: {ns|cycles: EXPR}             compute
 *   work: {bytes: EXPR, op: load|store}  stream through the CPU's private buffer (page zeroing)
 *   set: {VAR: EXPR, ...}                locals; "VAR:KIND" makes VAR an entity of KIND (an
 *                                        id from list_pop or memory becomes addressable)
 *   if: EXPR, then: [...], else: [...]
 *   for: {var, in: RANGE}, do: [...]     RANGE: "range(a, b)", cpus, nodes, "ancestors(E)",
 *                                        "children(E)"
 *   break / continue / return: EXPR
 *   call: {path, args: [EXPR...], into}  another path; entity args by variable name
 *   list_add: {list, cpu, item}          per-cpu update lists (rstat): simulator-side state,
 *   list_pop: {list, cpu, into}          the memory traffic of the list heads is written as
 *   list_empty: {list, cpu, into}        ordinary accesses next to these operations
 *   truth: {counter, add}                the exact value of an approximate counter
 *   observe: {counter, value}            an approximate read: error against the truth
 *
 * Initial memory: memory is zero except what `init:` writes before time 0: the kind's entries
 * in file order for each entity, then the scenario's `init:` (ENTITY.OBJECT.MEMBER: VALUE,
 * same values, e.g. `init: {child.memcg.memory.max: 512}`).  A per-cpu target is written in
 * every CPU's instance; a pointer to a per-cpu object is its CPU 0 instance (the kernel's
 * __percpu pointer; OBJ@c is that plus c units).  Members of at most 8 bytes, no bitfields.
 *
 * Pointers: a local loaded from a member of type `struct X *` (X's layout loadable) addresses
 * `P->MEMBER`, so the access waits for that load under mlp > 1 (a pointer chase, found from
 * the data flow, no annotation); P == 0 stops the run (a model error, like the kernel's
 * oops).  ancestors(E)/children(E) of a kind with `links:` load the parent pointer (each
 * step after the first) and children.next / sibling.next: the next entity is the one whose
 * link the loaded value points at, and the loop variable is ready when that load completes.
 * Kinds without links walk the scenario's tree without memory accesses (2.6.31's memcg).
 *
 * Values: every byte of simulated memory has a value (the directory keeps each line's 64
 * bytes), so loads see what stores and atomics wrote, in simulated time order.  Locals are
 * int64 in the path's frame; entity handles are integers too (typed at compile time).
 */
#ifndef C2C_PATH_H
#define C2C_PATH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "path/expr.h"
#include "layout/layout_lib.h"
#include "yaml/ytree.h"

#define PATH_MAX_LOCALS 48
#define PATH_MAX_PARAMS 8
#define PATH_MAX_IDX 4

enum pop {
	P_LOAD,      /* load at -> local */
	P_STORE,     /* store value at */
	P_RMW,       /* this_cpu RMW */
	P_ATOMIC,    /* LOCK RMW */
	P_CMPXCHG,   /* LOCK cmpxchg */
	P_LOCK,
	P_UNLOCK,
	P_TRYLOCK,
	P_IRQ,       /* irq_off / irq_on */
	P_DELAY,
	P_WORK,
	P_SET,       /* local = expr */
	P_JUMP,      /* goto target */
	P_JUMP_IF_NOT, /* if !expr goto target */
	P_FOR_INIT,  /* set up an iterator in a local */
	P_FOR_NEXT,  /* advance: local = next item, or goto target when done */
	P_CALL,
	P_RETURN,
	P_LIST,      /* list_add / list_pop / list_empty */
	P_TRUTH,
	P_OBSERVE,
	P_OP_COUNT
};

extern const char *const pop_names[P_OP_COUNT + 1];

enum rmw_kind { RMW_ADD, RMW_SUB, RMW_SET, RMW_KIND_COUNT };
enum iter_kind { IT_RANGE, IT_CPUS, IT_NODES, IT_ANCESTORS, IT_CHILDREN, IT_KIND_COUNT };
enum list_op { LIST_ADD, LIST_POP, LIST_EMPTY, LIST_OP_COUNT };

/* An expression as an instruction holds it for the interpreter: a constant, a local or a
 * builtin (most operands and indexes) is read from here, without touching the compiled
 * expression, which costs the host a cache miss or two on every access; anything else is
 * evaluated (OPND_EXPR).  The expression itself stays where the compiler put it (its
 * owner). */
enum opnd_kind { OPND_NONE, OPND_EXPR, OPND_CONST, OPND_LOCAL, OPND_BUILTIN,
		 OPND_LOC_CONST, OPND_CONST_LOC, OPND_LOC_LOC, /* `x OP y` (expr_binary) */
		 OPND_LOC_CB,      /* `x OP (C OP2 b)`, b a builtin (expr_scaled): a machine-sized
				    * bound (`shared > MEMCG_CHARGE_BATCH * nr_cpus`) */
		 OPND_ABS_CONST }; /* `abs(x) OP C` (expr_abs_binary) */

struct operand {
	union {
		int64_t v;            /* OPND_CONST: the value; OPND_LOCAL/BUILTIN: its slot;
				       * OPND_LOC_CONST, OPND_CONST_LOC, OPND_LOC_CB,
				       * OPND_ABS_CONST: the constant */
		const struct expr *e; /* OPND_EXPR */
	};
	uint8_t kind;                 /* enum opnd_kind: OPND_NONE for no expression */
	uint8_t bop;                  /* OPND_LOC_*, OPND_CONST_LOC, OPND_ABS_CONST: enum
				       * expr_binop */
	uint8_t x, y;                 /* their locals: x the first, y a second (OPND_LOC_LOC);
				       * OPND_LOC_CB: y the builtin */
	uint8_t bop2;                 /* OPND_LOC_CB: the inner operator (C OP2 b) */
};

/* The parts an address has (member_ref.form), known when it is compiled: the interpreter
 * branches once on the form, to code that has only those parts, where it tested each part
 * at every access.  AF_PTR is a form of its own (a pointer's address has none of the others);
 * an entity's address has AF_ENT, and AF_NODE, AF_PERCPU as its object of the kind compiled
 * against is per node, per cpu (a handle of another kind takes the general way). */
enum addr_form { AF_ENT = 1, AF_NODE = 2, AF_PERCPU = 4, AF_PTR = 8 };

/* pinsn.xop of a load: PX_LOAD + member_ref.form, past the ops. */
#define PX_LOAD P_OP_COUNT
#define PX_COUNT (PX_LOAD + AF_PTR + 1)

/* A compiled address: base of (entity in local @ent or a global) object @obj, plus @off,
 * plus each index expression times its stride; a per-cpu object takes the executing CPU or
 * the CPU expression @cpu. */
struct member_ref {
	int16_t ent;          /* local holding the entity handle, -1 for a global object */
	uint16_t obj;         /* object slot in the kind (or global index) */
	int16_t ptr;          /* `P->MEMBER`: local holding the object's address, -1 none */
	uint8_t nr_idx;
	uint8_t percpu;       /* the object is per cpu (in kind @kind, or the global) */
	uint32_t off;         /* constant byte offset of the member */
	uint8_t size;         /* bytes accessed (at most 64) */
	uint8_t form;         /* enum addr_form bits (member_ref_form) */
	int16_t kind;         /* the entity local's kind when compiled, -1 for a global */
	struct operand nodev, cpuv;     /* node and cpu as operands */
	uint32_t stride[PATH_MAX_IDX];
	uint32_t bound[PATH_MAX_IDX];   /* index must be below (0: unchecked, flexible) */
	struct operand idxv[PATH_MAX_IDX]; /* idx as operands */
	struct expr *cpu;     /* OBJ@EXPR, or NULL for the executing CPU */
	struct expr *node;    /* per-node object index (OBJ[EXPR] on a per: node object) */
	struct expr *idx[PATH_MAX_IDX];
};

/* One instruction.  The interpreter runs a thread's next instruction or two between other
 * threads' memory traffic, so each host cache line of an instruction it reads is usually a
 * miss: a path's code is 64-byte aligned (path.c), and an instruction takes PINSN_LINES
 * whole lines, what every instruction reads in the first, a memory operation's object,
 * offset, node and CPU in the second, its index bounds and operands in the third, what only
 * the compiler and messages read last. */
#define PINSN_LINES 5
struct pinsn {
	uint8_t op;           /* enum pop */
	uint8_t kind;         /* rmw_kind, iter_kind, list_op, irq on(1)/off(0), work store(1) */
	int16_t dst;          /* local written, -1 none */
	uint8_t walk_mem;     /* P_FOR_INIT/NEXT of ancestors/children: follow the kind's
			       * links in simulated memory (a load per step) */
	uint8_t nr_args;
	uint8_t delay_cycles; /* P_DELAY: a is in cycles (1) or ns (0) */
	uint8_t xop;          /* what the interpreter dispatches on: @op, but a load's is
			       * PX_LOAD + its address's form (one branch for both) */
	uint32_t site;        /* code site id (report attribution) */
	uint64_t deps;        /* locals the instruction reads (the scoreboard, interp.h) */
	struct operand av, bv; /* a and b as operands */
	uint32_t target;      /* jumps: instruction index */
	uint32_t callee;      /* P_CALL: path index; P_LIST/TRUTH/OBSERVE: list or counter id */
	struct member_ref addr;
	struct operand *argv; /* args as operands */
	struct expr *a, *b;   /* operands (value, old/new, bounds, args...) */
	struct expr **args;   /* P_CALL arguments */
	struct c2c_mark mark;
	const struct pinsn *callee_code; /* P_CALL: the callee's code and number of locals, */
	uint8_t callee_locals;           /* linked when every path is compiled (pc_link_calls) */
	uint8_t spare[7];     /* to PINSN_LINES lines */
};
_Static_assert(sizeof(struct pinsn) == 64 * PINSN_LINES, "struct pinsn fills its lines");

struct path {
	char *name;
	char *cite, *simplifies;
	char *file;
	uint8_t nr_params;
	int16_t param_kind[PATH_MAX_PARAMS]; /* entity kind index, -1 for an integer */
	uint8_t nr_locals;
	struct pinsn *code;
	uint32_t nr_code;
	struct c2c_mark mark;
};

/* An entity kind: its objects (layout, per-cpu or not, per node or not). */
struct kobj {
	char *name;
	const struct layout *layout;
	bool percpu, per_node;
	uint8_t alloc;        /* scenario allocation rule (kmalloc, kmem_cache) */
	int32_t flex;         /* elements of the trailing flexible array: >= 0 a count,
			       * -1 one per CPU (`flex: cpus`), -2 one per node (`flex: nodes`) */
	int32_t placement;    /* bytes past a 128-byte boundary (`placement:`), -1 by the rule */
};

/* An initial value of a kind's member (`init:`), written when an entity is created. */
enum kinit_ref {
	KINIT_VALUE,  /* the integer @value */
	KINIT_SELF,   /* the address of a member of this entity's object @ref_obj */
	KINIT_PARENT, /* the same in the parent entity; NULL (0) at the root */
	KINIT_REF_COUNT
};

struct kinit {
	uint16_t obj;           /* target object of the kind */
	uint32_t off, size;     /* member: offset (node 0) and bytes */
	uint32_t node_stride;   /* `[NODE]` in the member path: bytes per node */
	bool each_node;         /* written once per NUMA node (per-node object or NODE used) */
	uint8_t ref;            /* enum kinit_ref */
	uint16_t ref_obj;
	uint32_t ref_off, ref_node_stride;
	int64_t value;
	struct c2c_mark mark;
};

/* A pointer the kernel follows to walk the hierarchy (`links:`): the member at @off of
 * object @obj; for `parent` it points at the parent's member @to_off of the same object
 * (css.parent -> the parent's css), for `children`/`sibling` they are list_heads. */
struct klink {
	bool set;
	uint16_t obj;
	uint32_t off, to_off;
};

enum klink_kind { KLINK_PARENT, KLINK_CHILDREN, KLINK_SIBLING, KLINK_COUNT };

struct kind {
	char *name;
	struct kobj *obj;
	uint32_t nr_obj;
	struct kinit *init;     /* in file order: a later entry overwrites an earlier one */
	uint32_t nr_init;
	struct klink link[KLINK_COUNT];
};

struct program {
	struct path *paths;
	uint32_t nr_paths;
	struct kind *kinds;
	uint32_t nr_kinds;
	struct kobj *globals;
	uint32_t nr_globals;
	char **consts;        /* name=value table for expressions */
	int64_t *const_vals;
	uint32_t nr_consts;
	char **lists;         /* per-cpu update list names */
	uint32_t nr_lists;
	char **counters;      /* counters with truth/observe */
	uint32_t nr_counters;
	char **site_names;    /* "path:op# op at" for reports (appended to the scenario's) */
	uint32_t nr_sites;
};

/*
 * program_load - compile the path files @files (NULL-terminated; files or directories of
 * .yaml files, loaded in name order) with struct layouts from @lib, constants overridden by
 * @consts (a YAML mapping, may be NULL).  Site ids start at @site_base.
 * Return: the program, or NULL with @err at the offending node: unknown member (with the
 * closest names), unknown path, local or kind, a wrong number of arguments, a malformed
 * expression.
 */
struct program *program_load(const char *const *files, struct layout_lib *lib,
			     const struct yt_node *consts, uint32_t site_base, struct c2c_err *err);
void program_free(struct program *p);

/*
 * kinit_compile - compile one initial value of kind @k: @key is "OBJ[.MEMBER]" (NODE in an
 * index or a per-node object: once per node), @val an integer expression of @pr's constants
 * or "&[parent.]OBJ[.MEMBER]".  Also used for a scenario's `init:` entries.
 * Return: false with @err at the offending node (unknown object or member, a member over 8
 * bytes or a bitfield, a value that is not constant).
 */
bool kinit_compile(struct program *pr, struct layout_lib *lib, const struct kind *k,
		   const struct yt_node *key, const struct yt_node *val, struct kinit *ki,
		   struct c2c_err *err);

/* kinds_load_init - `init:` and `links:` of the kinds in the `kinds:` mapping @kinds (the
 * kinds are declared already; constants are final).  Return: false with @err set. */
bool kinds_load_init(struct program *pr, const struct yt_node *kinds, struct layout_lib *lib,
		     struct c2c_err *err);

/* program_find - the index of path @name, or -1. */
int program_find(const struct program *p, const char *name);

#endif
