/*
 * machine.h - the machine model: topology, cache geometry, latencies, store buffer, prefetcher.
 *
 * Loaded from models/machines/NAME.yaml (schema in models/machines/README.md).  All latencies
 * are held in integer picoseconds; cycle figures are converted with freq_mhz at load time.
 *
 * CPU numbering follows Linux on Intel servers: CPU c runs on core c % nr_cores as hardware
 * thread c / nr_cores, and core k sits on socket k / cores_per_socket.  SMT siblings share the
 * core's L1d and L2, so the coherence agent is the core, not the CPU.
 */
#ifndef C2C_MACHINE_H
#define C2C_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
struct yt_node;

#define C2C_MAX_CPUS 1024
#define C2C_MAX_SOCKETS 32 /* a directory entry's LLC bits (mem/dir.h) */
#define MACHINE_MAX_MLP 32

#include "core/types.h"

struct cache_geom {
	uint32_t size_kib;
	uint32_t ways;
	uint32_t sets;        /* derived: size / (ways * line) */
	simtime_t latency;    /* hit latency, ps */
};

enum pf_buddy_modified {
	PF_BUDDY_STEAL, /* a buddy found Modified elsewhere is fetched: a HITM and a downgrade */
	PF_BUDDY_DROP,  /* ... the prefetch is dropped */
	PF_BUDDY_COUNT
};

enum pf_store_buddy {
	PF_STORE_READ, /* the buddy of a store miss is requested for reading */
	PF_STORE_RFO,  /* ... for ownership: it invalidates every other copy of the buddy */
	PF_STORE_COUNT
};

enum pf_rfo_shared {
	PF_RFO_SHARED_KEEP,       /* an RFO prefetch of a buddy present Shared is dropped */
	PF_RFO_SHARED_INVALIDATE, /* ... upgrades it: the other sharers are invalidated */
	PF_RFO_SHARED_COUNT
};

enum pf_rfo_install {
	PF_RFO_INSTALL_EXCLUSIVE, /* a buddy taken for ownership is installed Exclusive (clean) */
	PF_RFO_INSTALL_MODIFIED,  /* ... Modified: a reader's later load of it is a HITM */
	PF_RFO_INSTALL_COUNT
};

/* The prefetcher's semantics, one parameter per rule of the protocol table (protocol.h): what
 * Intel documents ("strives to complete every cache line fetched to the L2 with the pair
 * line") leaves the coherence side open, so each open choice is a named parameter. */
struct prefetch_params {
	bool adjacent_line;              /* L2 spatial prefetcher: fetch line ^ 64 on an L2 fill */
	enum pf_buddy_modified buddy_modified;     /* read prefetch, buddy Modified elsewhere */
	enum pf_store_buddy store_buddy;
	bool upgrade_prefetch;           /* a store's upgrade (S -> M) also fires the prefetcher */
	enum pf_buddy_modified rfo_buddy_modified; /* RFO prefetch, buddy Modified elsewhere */
	enum pf_rfo_shared rfo_buddy_shared;       /* RFO prefetch, buddy present Shared */
	enum pf_rfo_install rfo_install;           /* state of a buddy taken for ownership */
	bool pair_granule;               /* a 128-byte pair is one coherence granule */
};

struct machine {
	char *name;
	int sockets, cores_per_socket, smt, numa_nodes;
	int nr_cores, nr_cpus;
	uint32_t freq_mhz;
	uint32_t line_size;
	struct cache_geom l1d, l2, llc;
	simtime_t clean_local, clean_remote;
	simtime_t hitm_local, hitm_remote_owner_home, hitm_remote_reader_home;
	simtime_t dram_local, dram_remote;
	simtime_t locked_rmw;
	simtime_t inv_local, inv_remote, inv_per_sharer;
	simtime_t dir_occupancy;
	simtime_t irq_off, irq_on;       /* local_irq_save/disable, local_irq_restore/enable (ps) */
	simtime_t cycle;                 /* one core cycle, ps (rounded) */
	uint32_t store_buffer;
	uint32_t mlp;                    /* loads a core keeps in flight (1: every load blocks) */
	uint32_t smt_compute_pct;        /* compute time, in % of running alone, when every SMT
					  * thread of the core runs an actor (100: no sharing) */
	struct prefetch_params pf;
};

/* machine_load - fill @m from the mapping @node (a parsed machine file, possibly with
 * overrides applied).  Return: false with @err set at the offending node for unknown keys,
 * wrong types, negative or zero sizes, non-power-of-two sets, and impossible topologies
 * (more than C2C_MAX_CPUS CPUs, NUMA nodes not dividing sockets). */
bool machine_load(struct machine *m, const struct yt_node *node, struct c2c_err *err);

/* machine_release - free what machine_load allocated.  Accepts NULL. */
void machine_release(struct machine *m);

static inline int machine_cpu_core(const struct machine *m, int cpu)
{
	return cpu % m->nr_cores;
}

static inline int machine_core_socket(const struct machine *m, int core)
{
	return core / m->cores_per_socket;
}

static inline int machine_cpu_socket(const struct machine *m, int cpu)
{
	return machine_core_socket(m, machine_cpu_core(m, cpu));
}

static inline int machine_socket_node(const struct machine *m, int socket)
{
	return socket * m->numa_nodes / m->sockets;
}

static inline int machine_node_socket(const struct machine *m, int node)
{
	return node * m->sockets / m->numa_nodes;
}

extern const char *const pf_buddy_modified_names[PF_BUDDY_COUNT + 1];
extern const char *const pf_store_buddy_names[PF_STORE_COUNT + 1];
extern const char *const pf_rfo_shared_names[PF_RFO_SHARED_COUNT + 1];
extern const char *const pf_rfo_install_names[PF_RFO_INSTALL_COUNT + 1];

#endif
