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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/dir.h"
#include "mem/stats.h"

struct mem;
struct objmap;

/*
 * The CPUs that made demand accesses to a line or a Pareto row: most are touched by one CPU,
 * so a set is one word (cpuset_t) holding either nothing, that one CPU, or where a words_cpu
 * bitset starts in a pool (its first word's index: no multiply on the access path), taken
 * when a second CPU comes.
 */
typedef uint32_t cpuset_t;
#define CPUSET_NONE UINT32_MAX
#define CPUSET_ONE 0x80000000u /* with the CPU number in the low bits */

/*
 * The stored counters are 32-bit words: most lines and rows are private and small, and the
 * per-line record is most of a touched line's host memory.  A word that would carry takes
 * the record a high-word block from a pool (hi, DIR_NONE until then), so every figure is
 * still the exact 64-bit sum; readers get them through the stats_* copies below.
 */
struct line_rec {
	uint32_t c[LS_COUNT];
	uint32_t first_orow; /* head of this line's Pareto rows, DIR_NONE for none */
	uint32_t hi;         /* its LS_COUNT high words in mstats.line_hi, or DIR_NONE */
};

struct orow_rec {
	uint32_t c[OS_COUNT];
	uint32_t line;
	uint32_t site;
	uint32_t caller; /* call site of the path that ran @site, DIR_NONE for a top-level path */
	uint32_t next;   /* next row of the same line */
	uint32_t hi;     /* its OS_COUNT high words in mstats.orow_hi, or DIR_NONE */
	uint8_t off;
};

/*
 * Which lines have counters of their own.  A replay touches millions of lines that one CPU
 * alone reads or writes (per-cpu copies summed by a reader), and the reports show only shared
 * lines, so a line gets its record and Pareto rows when it becomes shared: at the demand
 * access of a second CPU, or at a HITM on it (demand, RFO or prefetch).  Until then what its
 * requests did is added to `untracked`, so every total stays exact; a shared line's own
 * figures count from the access that made it shared (README "Which lines have statistics of their own").
 * Lines that a headline metric filters on, and with `all` every line, have their record from
 * the first touch (mstats_track_objects), so no headline figure depends on when a line
 * became shared.
 */
struct mstats {
	uint32_t *rec_of;        /* per line: its record in @line, DIR_NONE while untracked */
	cpuset_t *cpus;          /* per line: CPUs that made a demand access to it */
	uint32_t *obj;           /* per line: object index (objmap), OBJ_NONE when unknown */
	uint32_t nr, cap, words_cpu;
	struct line_rec *line;   /* per tracked line */
	uint32_t nr_recs, cap_recs;
	uint64_t untracked[LS_COUNT]; /* the counters of the lines without a record */
	bool track_all;          /* every line has a record from its first touch (the default) */
	uint64_t *track;         /* sorted disjoint [lo, hi) pairs: objects tracked from the start */
	uint32_t nr_track;
	struct orow_rec *orow;   /* Pareto rows: (line, offset, site, caller) of tracked lines */
	cpuset_t *orow_cpus;     /* per row */
	uint32_t nr_orows, cap_orows;
	uint64_t *cpu_pool;      /* words_cpu per set of two or more CPUs */
	uint32_t nr_pool, cap_pool;
	uint64_t *orow_slot;     /* open-addressing index of all rows (mstats_orow), or NULL:
				  * a slot is (key hash << 32 | row), row DIR_NONE when empty */
	uint32_t orow_mask;      /* its slots - 1 */
	uint32_t *orow_memo;     /* recent rows by key hash, DIR_NONE when empty (mstats_orow) */
	uint32_t *line_hi, *orow_hi; /* high-word blocks (struct line_rec.hi, orow_rec.hi) */
	uint32_t nr_line_hi, cap_line_hi, nr_orow_hi, cap_orow_hi;
	uint64_t accesses;       /* demand accesses (split accesses count once per line) */
};

/* mstats_carry_line, mstats_carry_orow - add @hi to high word @k of record or row @i. */
__attribute__((cold)) void mstats_carry_line(struct mstats *s, uint32_t i, unsigned k, uint32_t hi);
__attribute__((cold)) void mstats_carry_orow(struct mstats *s, uint32_t i, unsigned k, uint32_t hi);

/* mstats_line_get, mstats_orow_get - counter @k of line (Pareto row) @i, all 64 bits. */
uint64_t mstats_line_get(const struct mstats *s, uint32_t i, enum lstat k);
uint64_t mstats_orow_get(const struct mstats *s, uint32_t i, enum ostat k);

/*
 * mstats_word_add - add @d to the stored word @w of a counter (&line[i].c[k], &orow[i].c[k]).
 * Return: what carried out of it (nonzero only past 2^32), for rec_carry (os_carry).  A
 * request's counters are added word by word through one pointer to the record's words (no
 * store to a word makes the compiler load the record again), their carries ORed and tested
 * once: the access path then calls nothing.
 */
static inline uint64_t mstats_word_add(uint32_t *w, uint64_t d)
{
	uint64_t v = *w + d;

	*w = (uint32_t)v;
	return v >> 32;
}

/*
 * rec_carry, os_carry - @d was just added to the word of counter @k of record (row) @i: give
 * what carried out of it to the high word.  The carry is found again from the word (the word
 * before was the word less @d, mod 2^32), so it is exact as long as nothing else was added to
 * that counter since: a request adds to each counter once.
 */
static inline void rec_carry(struct mstats *s, uint32_t i, unsigned k, uint64_t d)
{
	uint64_t v = (uint64_t)(uint32_t)(s->line[i].c[k] - (uint32_t)d) + d;

	if (v >> 32 != 0)
		mstats_carry_line(s, i, k, (uint32_t)(v >> 32));
}

static inline void os_carry(struct mstats *s, uint32_t i, unsigned k, uint64_t d)
{
	uint64_t v = (uint64_t)(uint32_t)(s->orow[i].c[k] - (uint32_t)d) + d;

	if (v >> 32 != 0)
		mstats_carry_orow(s, i, k, (uint32_t)(v >> 32));
}

/* rec_add - add @d to counter @k of record @i (a line's s->rec_of[]; DIR_NONE: the line has
 * none, and it goes to the totals).  Can't fail. */
static inline void rec_add(struct mstats *s, uint32_t i, unsigned k, uint64_t d)
{
	if (i == DIR_NONE) {
		s->untracked[k] += d;
		return;
	}
	if (__builtin_expect(mstats_word_add(&s->line[i].c[k], d) != 0, 0))
		rec_carry(s, i, k, d);
}

/* ls_add, os_add - add @d to counter @k of line (Pareto row) @l.  Can't fail. */
static inline void ls_add(struct mstats *s, uint32_t l, unsigned k, uint64_t d)
{
	rec_add(s, s->rec_of[l], k, d);
}

static inline void os_add(struct mstats *s, uint32_t i, unsigned k, uint64_t d)
{
	if (__builtin_expect(mstats_word_add(&s->orow[i].c[k], d) != 0, 0))
		os_carry(s, i, k, d);
}

/* mstats_init - empty statistics for @nr_cpus CPUs.  Can't fail.  mstats_release frees. */
void mstats_init(struct mstats *s, int nr_cpus);
void mstats_release(struct mstats *s);

/* mstats_add_line - line @idx (the next one: idx == s->nr), bytes [@lo, @hi), was touched
 * for the first time; it belongs to object @obj.  Can't fail. */
void mstats_add_line(struct mstats *s, uint32_t idx, uint32_t obj, uint64_t lo, uint64_t hi);

/* mstats_tracked - does line @l have counters of its own (see struct mstats)? */
static inline bool mstats_tracked(const struct mstats *s, uint32_t l)
{
	return s->rec_of[l] != DIR_NONE;
}

/* mstats_track - give line @l its record (zeroed) if it has none.  Can't fail. */
void mstats_track(struct mstats *s, uint32_t l);

/* mstats_track_objects - from now on only shared lines get records, and those holding a byte
 * of an object @flag marks (per objmap index; @om NULL or @flag NULL: none); with @all, every
 * line.  Call before the first access.  Can't fail. */
void mstats_track_objects(struct mstats *s, const struct objmap *om, const uint8_t *flag,
			  bool all);

/* mstats_orow - the Pareto row of (@line, @off, @site, @caller) of a tracked line, made
 * (zeroed, first in its line's list) if new.  Amortized O(1) however many rows a line has.
 * Can't fail. */
uint32_t mstats_orow(struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
		     uint32_t caller);

/* The Pareto rows' memo (mstats_orow): a power of two, 16 KiB, which stays in the host's L1/L2. */
#define ORW_MEMO 4096

/* mstats_orow_hash - the key's hash, which places a row in the index. */
static inline uint32_t mstats_orow_hash(uint32_t line, uint8_t off, uint32_t site, uint32_t caller)
{
	uint64_t x = ((uint64_t)line << 32 | site) * 0x9e3779b97f4a7c15ull;

	x ^= ((uint64_t)caller << 8 | off) * 0xc2b2ae3d27d4eb4full;
	return (uint32_t)(x >> 32);
}

static inline bool mstats_orow_is(const struct orow_rec *r, uint32_t line, uint8_t off,
				  uint32_t site, uint32_t caller)
{
	/* Site and caller as one word: adjacent in the row (and in a request), one load. */
	return r->line == line && r->off == off &&
	       ((uint64_t)r->caller << 32 | r->site) == ((uint64_t)caller << 32 | site);
}

/* mstats_orow_memo_at - the key's place in the memo: one multiply (Fibonacci hashing of the
 * fields folded into a 64-bit word, site and caller read as one), cheaper than its hash, which only a memo miss needs.  Where
 * keys share a place only costs time: a place's row is checked against the key. */
static inline uint32_t mstats_orow_memo_at(uint32_t line, uint8_t off, uint32_t site,
					   uint32_t caller)
{
	uint64_t x = ((uint64_t)line << 32 | off) ^ ((uint64_t)caller << 32 | site);

	return (uint32_t)(x * 0x9e3779b97f4a7c15ull >> 52); /* ORW_MEMO is 2^12 */
}

/* mstats_orow_memo - the row of that key if the memo remembers it (at @at,
 * mstats_orow_memo_at), else DIR_NONE: the test that answers most accesses, inline
 * (mstats_orow does the rest). */
static inline uint32_t mstats_orow_memo(const struct mstats *s, uint32_t at, uint32_t line,
					uint8_t off, uint32_t site, uint32_t caller)
{
	uint32_t r = s->orow_memo[at];

	if (r != DIR_NONE && mstats_orow_is(&s->orow[r], line, off, site, caller))
		return r;
	return DIR_NONE;
}

/* mstats_orow_find - that row if it exists, else DIR_NONE (nothing is made).  Can't fail. */
uint32_t mstats_orow_find(const struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
			  uint32_t caller);

/* mstats_cpuset_grow - @set holds one CPU and @cpu is another: give it a pool bitset. */
void mstats_cpuset_grow(struct mstats *s, cpuset_t *set, int cpu);

/* mstats_add_cpu_fast - mstats_add_cpu() unless @set needs a pool bitset: false then, and
 * nothing changed (the caller calls mstats_add_cpu, out of its fast path).  A bitset first
 * (CPUSET_NONE has the CPUSET_ONE bit): most accesses that get here are to a shared line or
 * row, and one test then finds it. */
static inline bool mstats_add_cpu_fast(struct mstats *s, cpuset_t *set, int cpu)
{
	if (!(*set & CPUSET_ONE))
		s->cpu_pool[*set + (uint32_t)(cpu >> 6)] |= 1ull << (cpu & 63);
	else if (*set == CPUSET_NONE)
		*set = CPUSET_ONE | (uint32_t)cpu;
	else if (*set != (CPUSET_ONE | (uint32_t)cpu))
		return false;
	return true;
}

/* mstats_add_cpu - @cpu accessed what @set describes.  Can't fail. */
static inline void mstats_add_cpu(struct mstats *s, cpuset_t *set, int cpu)
{
	if (!mstats_add_cpu_fast(s, set, cpu))
		mstats_cpuset_grow(s, set, cpu);
}

/* mstats_bytes - host bytes of the statistics of the touched lines and their rows. */
uint64_t mstats_bytes(const struct mstats *s);

/* mstats_reset_counts - zero every counter, high words included (the end of a warm-up). */
void mstats_reset_counts(struct mstats *s);

/* mstats_reset_cpus - forget which CPUs touched what (the end of a warm-up). */
void mstats_reset_cpus(struct mstats *s);

/* The query API (stats.c's registry names the counters). */
uint32_t stats_nr_lines(const struct mem *m);
uint64_t stats_accesses(const struct mem *m);
/* stats_totals - every counter summed over all lines, those without a record included. */
void stats_totals(const struct mem *m, uint64_t tot[LS_COUNT]);
/* stats_line_tracked - does line @l have figures of its own (else stats_line gives 0 and it
 * has no Pareto rows; its requests are in stats_totals)? */
bool stats_line_tracked(const struct mem *m, uint32_t l);
/* stats_line - counter @k of line @l (0 <= l < stats_nr_lines); stats_line_all copies all
 * LS_COUNT of them into @out. */
uint64_t stats_line(const struct mem *m, uint32_t l, enum lstat k);
void stats_line_all(const struct mem *m, uint32_t l, struct line_stats *out);
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
/* stats_orow - Pareto row @o (0 <= o < stats_nr_orows), copied into @out. */
void stats_orow(const struct mem *m, uint32_t o, struct orow *out);
/* stats_orow_get - counter @k of row @o; stats_orow_next - the next row of its line. */
uint64_t stats_orow_get(const struct mem *m, uint32_t o, enum ostat k);
uint32_t stats_orow_next(const struct mem *m, uint32_t o);
/* stats_orow_cpus - add the CPUs that accessed Pareto row @o to @bits. */
void stats_orow_cpus(const struct mem *m, uint32_t o, uint64_t *bits);
uint32_t stats_orow_nr_cpus(const struct mem *m, uint32_t o);

#endif
