/*
 * mstats.h - the statistics layer: per-line and per-(line, offset, site, caller) accounting,
 * and the query API the reports read.
 *
 * The engine (account.c) adds what each request did, as the protocol row's actions recorded
 * it; reports, output files and tests read the figures only through the stats_* functions
 * below, never the engine's structures.  Lines are numbered in the order of first touch (the
 * directory's index), which makes every walk over them deterministic.  What the counters mean
 * is the registry in stats.h.  The directory keeps only what the home knows (sharers, owner,
 * home node); which CPUs touched a line and which object it belongs to live here.
 */
#ifndef C2C_MSTATS_H
#define C2C_MSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "mem/stats.h"

struct mem;

/*
 * The CPUs that made demand accesses to a line or a Pareto row: most are touched by one CPU,
 * so a set is one word (cpuset_t) holding either nothing, that one CPU, or the index of a
 * words_cpu bitset in a pool, taken when a second CPU comes.
 */
typedef uint32_t cpuset_t;
#define CPUSET_NONE UINT32_MAX
#define CPUSET_ONE 0x80000000u /* with the CPU number in the low bits */

struct mstats {
	struct line_stats *line; /* per line */
	cpuset_t *cpus;          /* per line: CPUs that made a demand access to it */
	uint32_t *obj;           /* per line: object index (objmap), OBJ_NONE when unknown */
	uint32_t nr, cap, words_cpu;
	struct orow *orow;       /* Pareto rows: (line, offset, site, caller) */
	cpuset_t *orow_cpus;     /* per row */
	uint32_t nr_orows, cap_orows;
	uint64_t *cpu_pool;      /* words_cpu per set of two or more CPUs */
	uint32_t nr_pool, cap_pool;
	uint64_t *orow_slot;     /* open-addressing index of all rows (mstats_orow), or NULL:
				  * a slot is (key hash << 32 | row), row DIR_NONE when empty */
	uint32_t orow_mask;      /* its slots - 1 */
	uint32_t *orow_memo;     /* recent rows by key hash, DIR_NONE when empty (mstats_orow) */
	uint64_t accesses;       /* demand accesses (split accesses count once per line) */
};

/* mstats_init - empty statistics for @nr_cpus CPUs.  Can't fail.  mstats_release frees. */
void mstats_init(struct mstats *s, int nr_cpus);
void mstats_release(struct mstats *s);

/* mstats_add_line - line @idx (the next one: idx == s->nr) was touched for the first time;
 * it belongs to object @obj.  Can't fail. */
void mstats_add_line(struct mstats *s, uint32_t idx, uint32_t obj);

/* mstats_orow - the Pareto row of (@line, @off, @site, @caller), made (zeroed, first in its
 * line's list) if new.  Amortized O(1) however many rows a line has.  Can't fail. */
uint32_t mstats_orow(struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
		     uint32_t caller);
/* mstats_orow_find - that row if it exists, else DIR_NONE (nothing is made).  Can't fail. */
uint32_t mstats_orow_find(const struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
			  uint32_t caller);

/* mstats_cpuset_grow - @set holds one CPU and @cpu is another: give it a pool bitset. */
void mstats_cpuset_grow(struct mstats *s, cpuset_t *set, int cpu);

/* mstats_add_cpu - @cpu accessed what @set describes.  Can't fail. */
static inline void mstats_add_cpu(struct mstats *s, cpuset_t *set, int cpu)
{
	if (*set == CPUSET_NONE)
		*set = CPUSET_ONE | (uint32_t)cpu;
	else if (!(*set & CPUSET_ONE))
		s->cpu_pool[(size_t)*set * s->words_cpu + (cpu >> 6)] |= 1ull << (cpu & 63);
	else if (*set != (CPUSET_ONE | (uint32_t)cpu))
		mstats_cpuset_grow(s, set, cpu);
}

/* mstats_bytes - host bytes of the statistics of the touched lines and their rows. */
uint64_t mstats_bytes(const struct mstats *s);

/* mstats_reset_cpus - forget which CPUs touched what (the end of a warm-up). */
void mstats_reset_cpus(struct mstats *s);

/* The query API (stats.c's registry names the counters). */
uint32_t stats_nr_lines(const struct mem *m);
uint64_t stats_accesses(const struct mem *m);
/* stats_line - the LS_COUNT counters of line @l (0 <= l < stats_nr_lines). */
const uint64_t *stats_line(const struct mem *m, uint32_t l);
uint64_t stats_line_addr(const struct mem *m, uint32_t l);
unsigned stats_line_home(const struct mem *m, uint32_t l);
uint32_t stats_line_obj(const struct mem *m, uint32_t l);
/* stats_line_cpus - add the CPUs that accessed line @l to the bitset @bits (stats_cpu_words
 * words). */
void stats_line_cpus(const struct mem *m, uint32_t l, uint64_t *bits);
uint32_t stats_line_nr_cpus(const struct mem *m, uint32_t l);
uint32_t stats_cpu_words(const struct mem *m);
/* stats_find_line - the line holding @addr, DIR_NONE if never touched. */
uint32_t stats_find_line(const struct mem *m, uint64_t addr);
/* stats_line_size - the coherence unit: 64, or 128 with prefetch.pair_granule. */
uint64_t stats_line_size(const struct mem *m);
/* Pareto rows: those of line @l form a list from stats_line_first_orow through orow.next. */
uint32_t stats_line_first_orow(const struct mem *m, uint32_t l);
uint32_t stats_nr_orows(const struct mem *m);
const struct orow *stats_orows(const struct mem *m);
/* stats_orow_cpus - add the CPUs that accessed Pareto row @o to @bits. */
void stats_orow_cpus(const struct mem *m, uint32_t o, uint64_t *bits);
uint32_t stats_orow_nr_cpus(const struct mem *m, uint32_t o);

#endif
