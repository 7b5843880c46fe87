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

#include <stdint.h>

#include "mem/stats.h"

struct mem;

struct mstats {
	struct line_stats *line; /* per line */
	uint64_t *cpus;          /* words_cpu per line: CPUs that made a demand access to it */
	uint32_t *obj;           /* per line: object index (objmap), OBJ_NONE when unknown */
	uint32_t nr, cap, words_cpu;
	struct orow *orow;       /* Pareto rows: (line, offset, site, caller) */
	uint64_t *orow_cpus;     /* words_cpu per row */
	uint32_t nr_orows, cap_orows;
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

/* The query API (stats.c's registry names the counters). */
uint32_t stats_nr_lines(const struct mem *m);
uint64_t stats_accesses(const struct mem *m);
/* stats_line - the LS_COUNT counters of line @l (0 <= l < stats_nr_lines). */
const uint64_t *stats_line(const struct mem *m, uint32_t l);
uint64_t stats_line_addr(const struct mem *m, uint32_t l);
unsigned stats_line_home(const struct mem *m, uint32_t l);
uint32_t stats_line_obj(const struct mem *m, uint32_t l);
/* stats_line_cpus - the bitset (stats_cpu_words words) of CPUs that accessed line @l. */
const uint64_t *stats_line_cpus(const struct mem *m, uint32_t l);
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
const uint64_t *stats_orow_cpus(const struct mem *m, uint32_t o);

#endif
