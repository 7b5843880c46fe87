/*
 * stats.h - the statistics registry: every counter has one id, one short name and one
 * description, and reports, CSV headers and plot columns all print through these tables, so a
 * new counter appears everywhere at once.
 *
 * Per cacheline (struct line_stats) and per (line, byte offset, code site, caller) (struct orow,
 * the perf-c2c Pareto row, split by the call site one frame up as perf c2c -g does).  Latency
 * totals are in picoseconds; report code converts to cycles of the machine ("cycles" as perf
 * c2c prints them).
 */
#ifndef C2C_STATS_H
#define C2C_STATS_H

#include <stdint.h>

enum lstat {
	LS_LOADS,          /* demand loads, including the load half of RMWs */
	LS_LD_L1,          /* ... served by L1d */
	LS_LD_L2,          /* ... served by L2 */
	LS_LD_FB,          /* ... by a fill buffer: a private copy whose data is still in flight */
	LS_LD_LLC,         /* ... served on the socket: LLC or a clean copy in another core */
	LS_LD_RMT_HIT,     /* ... clean copy from another socket's cache */
	LS_HITM_LCL,       /* ... found Modified in another core of the socket (local HITM) */
	LS_HITM_RMT,       /* ... found Modified in a core of another socket (remote HITM) */
	LS_LD_DRAM_LCL,    /* ... from DRAM of the requester's node */
	LS_LD_DRAM_RMT,    /* ... from DRAM of another node */
	LS_STORES,         /* demand stores, including the store half of RMWs */
	LS_ST_L1HIT,       /* ... that found the line owned in L1d */
	LS_ST_L1MISS,      /* ... that did not */
	LS_ST_RFO_HITM,    /* ... whose RFO found the line Modified in another core */
	LS_LOCKED,         /* LOCK-prefixed RMWs */
	LS_INV_SENT,       /* invalidations sent by demand requests for this line */
	LS_INV_RECV,       /* copies of this line invalidated (by demand or prefetch) */
	LS_PF_FILLS,       /* prefetches that filled this line as a buddy */
	LS_PF_HITM,        /* prefetches that found this line Modified elsewhere and took it */
	LS_PF_XFER,        /* prefetches that took a clean copy of this line from another cache */
	LS_PF_INV,         /* copies of this line invalidated by RFO prefetches */
	LS_PF_DROPPED,     /* prefetches of this line that were dropped */
	LS_PF_USEFUL,      /* prefetched copies of this line later used by a demand access */
	LS_PF_CAUSED_HITM, /* HITMs that demand misses on this line caused on its buddy */
	LS_PF_CAUSED_INV,  /* invalidations that demand misses on this line caused on its buddy */
	LS_CYC_HITM_LCL,   /* total latency of local HITM loads, ps */
	LS_CYC_HITM_RMT,   /* total latency of remote HITM loads, ps */
	LS_CYC_LOAD,       /* total latency of all loads, ps */
	LS_COUNT
};

enum ostat {
	OS_LOADS,
	OS_HITM_LCL,
	OS_HITM_RMT,
	OS_STORES,
	OS_ST_L1HIT,
	OS_ST_L1MISS,
	OS_PF_CAUSED_HITM,
	OS_CYC_HITM_LCL,
	OS_CYC_HITM_RMT,
	OS_CYC_LOAD,
	OS_COUNT
};

struct stat_info {
	const char *key;  /* stable CSV/summary key */
	const char *desc; /* one line for docs and --help */
};

extern const struct stat_info lstat_info[LS_COUNT];
extern const struct stat_info ostat_info[OS_COUNT];

/* What the query API hands out (by copy: mstats.h stores them in 32-bit words). */
struct line_stats {
	uint64_t c[LS_COUNT];
};

struct orow {
	uint64_t c[OS_COUNT];
	uint32_t line;
	uint32_t site;
	uint32_t caller; /* call site of the path that ran @site, DIR_NONE for a top-level path */
	uint32_t next; /* next row of the same line */
	uint8_t off;
};

static inline uint64_t ls_hitm(const struct line_stats *s)
{
	return s->c[LS_HITM_LCL] + s->c[LS_HITM_RMT];
}

#endif
