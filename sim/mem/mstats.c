/* mstats.c - the statistics layer and its query API; see mstats.h. */
#include "mem/mstats.h"

#include <glib.h>
#include <string.h>

#include "layout/objmap.h"
#include "mem/mem.h"

void mstats_init(struct mstats *s, int nr_cpus)
{
	memset(s, 0, sizeof(*s));
	s->words_cpu = (uint32_t)(nr_cpus + 63) / 64;
	s->track_all = true;
	s->orow_memo = g_new(uint32_t, ORW_MEMO);
	memset(s->orow_memo, 0xff, sizeof(uint32_t) * ORW_MEMO);
}

void mstats_release(struct mstats *s)
{
	g_free(s->rec_of);
	g_free(s->line);
	g_free(s->track);
	g_free(s->cpus);
	g_free(s->obj);
	g_free(s->orow);
	g_free(s->orow_cpus);
	g_free(s->orow_slot);
	g_free(s->cpu_pool);
	g_free(s->orow_memo);
	g_free(s->line_hi);
	g_free(s->orow_hi);
	memset(s, 0, sizeof(*s));
}

void mstats_track(struct mstats *s, uint32_t l)
{
	struct line_rec *r;

	if (s->rec_of[l] != DIR_NONE)
		return;
	if (s->nr_recs == s->cap_recs) {
		s->cap_recs = s->cap_recs ? 2 * s->cap_recs : 1024;
		s->line = g_renew(struct line_rec, s->line, s->cap_recs);
	}
	r = &s->line[s->nr_recs];
	memset(r, 0, sizeof(*r));
	r->first_orow = r->hi = DIR_NONE;
	s->rec_of[l] = s->nr_recs++;
}

static int range_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void mstats_track_objects(struct mstats *s, const struct objmap *om, const uint8_t *flag,
			  bool all)
{
	struct obj o;

	g_assert(s->nr == 0);
	s->track_all = all;
	for (uint32_t i = 0; om && flag && i < om->nr; i++)
		if (flag[i] && objmap_get(om, i, &o)) {
			s->track = g_renew(uint64_t, s->track, 2 * (s->nr_track + 1));
			s->track[2 * s->nr_track] = o.base;
			s->track[2 * s->nr_track++ + 1] = o.base + (o.size ? o.size : 1);
		}
	/* Objects never overlap (objmap_seal): sorted by start, the ranges are disjoint. */
	if (s->nr_track)
		qsort(s->track, s->nr_track, 2 * sizeof(uint64_t), range_cmp);
}

/* Does [@lo, @hi) hold a byte of an object tracked from the start?  The ranges are sorted
 * and disjoint: the last one starting below @hi decides. */
static bool track_from_start(const struct mstats *s, uint64_t lo, uint64_t hi)
{
	uint32_t a = 0, b = s->nr_track;

	if (s->track_all)
		return true;
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;

		if (s->track[2 * mid] < hi)
			a = mid + 1;
		else
			b = mid;
	}
	return a && s->track[2 * (a - 1) + 1] > lo;
}

void mstats_add_line(struct mstats *s, uint32_t idx, uint32_t obj, uint64_t lo, uint64_t hi)
{
	g_assert(idx == s->nr);
	if (s->nr == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->rec_of = g_renew(uint32_t, s->rec_of, s->cap);
		s->obj = g_renew(uint32_t, s->obj, s->cap);
		s->cpus = g_renew(cpuset_t, s->cpus, s->cap);
	}
	s->rec_of[idx] = DIR_NONE;
	s->cpus[idx] = CPUSET_NONE;
	s->obj[idx] = obj;
	s->nr++;
	if (track_from_start(s, lo, hi))
		mstats_track(s, idx);
}

uint32_t stats_nr_lines(const struct mem *m)
{
	return m->st.nr;
}

uint64_t stats_accesses(const struct mem *m)
{
	return m->st.accesses;
}

/* A new zeroed block of @n high words in @pool; its index. */
static uint32_t hi_block(uint32_t **pool, uint32_t *nr, uint32_t *cap, unsigned n)
{
	if (*nr == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*pool = g_renew(uint32_t, *pool, (size_t)*cap * n);
	}
	memset(&(*pool)[(size_t)*nr * n], 0, sizeof(uint32_t) * n);
	return (*nr)++;
}

void mstats_carry_line(struct mstats *s, uint32_t i, unsigned k, uint32_t hi)
{
	if (s->line[i].hi == DIR_NONE)
		s->line[i].hi = hi_block(&s->line_hi, &s->nr_line_hi, &s->cap_line_hi, LS_COUNT);
	s->line_hi[(size_t)s->line[i].hi * LS_COUNT + k] += hi;
}

void mstats_carry_orow(struct mstats *s, uint32_t i, unsigned k, uint32_t hi)
{
	if (s->orow[i].hi == DIR_NONE)
		s->orow[i].hi = hi_block(&s->orow_hi, &s->nr_orow_hi, &s->cap_orow_hi, OS_COUNT);
	s->orow_hi[(size_t)s->orow[i].hi * OS_COUNT + k] += hi;
}

/* Counter @k of record @i as stored (all 64 bits). */
static uint64_t rec_word(const struct mstats *s, uint32_t i, unsigned k)
{
	const struct line_rec *r = &s->line[i];
	uint64_t hi = r->hi == DIR_NONE ? 0 : s->line_hi[(size_t)r->hi * LS_COUNT + k];

	return hi << 32 | r->c[k];
}

/* The stored words of record @i into @w. */
static void rec_words(const struct mstats *s, uint32_t i, uint64_t w[LS_COUNT])
{
	for (unsigned k = 0; k < LS_COUNT; k++)
		w[k] = rec_word(s, i, k);
}

/* Sums the engine does not keep (account.c adds to each part exactly when to the whole): a
 * load is served by exactly one source, a store is an L1 hit or a miss, and a copy is
 * invalidated by a demand request (inv_sent) or by an RFO prefetch (pf_inv). */
static uint64_t derived(const uint64_t w[LS_COUNT], enum lstat k)
{
	uint64_t sum = 0;

	switch (k) {
	case LS_LOADS:
		for (enum lstat p = LS_LD_L1; p <= LS_LD_DRAM_RMT; p++)
			sum += w[p];
		return sum;
	case LS_STORES:
		return w[LS_ST_L1HIT] + w[LS_ST_L1MISS];
	case LS_INV_RECV:
		return w[LS_INV_SENT] + w[LS_PF_INV];
	default:
		return w[k];
	}
}

uint64_t mstats_line_get(const struct mstats *s, uint32_t l, enum lstat k)
{
	uint32_t i = s->rec_of[l];
	uint64_t w[LS_COUNT];

	if (i == DIR_NONE)
		return 0;
	if (k != LS_LOADS && k != LS_STORES && k != LS_INV_RECV)
		return rec_word(s, i, k);
	rec_words(s, i, w);
	return derived(w, k);
}

void stats_totals(const struct mem *m, uint64_t tot[LS_COUNT])
{
	const struct mstats *s = &m->st;
	uint64_t w[LS_COUNT], sum[LS_COUNT];

	memcpy(sum, s->untracked, sizeof(sum));
	for (uint32_t i = 0; i < s->nr_recs; i++) {
		rec_words(s, i, w);
		for (unsigned k = 0; k < LS_COUNT; k++)
			sum[k] += w[k];
	}
	for (unsigned k = 0; k < LS_COUNT; k++)
		tot[k] = derived(sum, k);
}

bool stats_line_tracked(const struct mem *m, uint32_t l)
{
	return mstats_tracked(&m->st, l);
}

static uint64_t orow_word(const struct mstats *s, uint32_t o, enum ostat k)
{
	const struct orow_rec *r = &s->orow[o];
	uint64_t hi = r->hi == DIR_NONE ? 0 : s->orow_hi[(size_t)r->hi * OS_COUNT + k];

	return hi << 32 | r->c[k];
}

uint64_t mstats_orow_get(const struct mstats *s, uint32_t o, enum ostat k)
{
	if (k == OS_STORES)
		return orow_word(s, o, OS_ST_L1HIT) + orow_word(s, o, OS_ST_L1MISS);
	return orow_word(s, o, k);
}

uint64_t stats_line(const struct mem *m, uint32_t l, enum lstat k)
{
	return mstats_line_get(&m->st, l, k);
}

void stats_line_all(const struct mem *m, uint32_t l, struct line_stats *out)
{
	uint64_t w[LS_COUNT] = {0};

	if (m->st.rec_of[l] != DIR_NONE)
		rec_words(&m->st, m->st.rec_of[l], w);
	for (unsigned k = 0; k < LS_COUNT; k++)
		out->c[k] = derived(w, k);
}

uint64_t stats_line_addr(const struct mem *m, uint32_t l)
{
	return m->dir.line[l].addr;
}

unsigned stats_line_home(const struct mem *m, uint32_t l)
{
	return m->dir.line[l].home;
}

uint32_t stats_line_obj(const struct mem *m, uint32_t l)
{
	return m->st.obj[l];
}

void mstats_cpuset_grow(struct mstats *s, cpuset_t *set, int cpu)
{
	uint32_t one = *set & ~CPUSET_ONE;
	uint64_t *w;

	if (s->nr_pool == s->cap_pool) {
		s->cap_pool = s->cap_pool ? 2 * s->cap_pool : 256;
		s->cpu_pool = g_renew(uint64_t, s->cpu_pool, (size_t)s->cap_pool * s->words_cpu);
	}
	w = &s->cpu_pool[(size_t)s->nr_pool * s->words_cpu];
	memset(w, 0, sizeof(uint64_t) * s->words_cpu);
	w[one >> 6] |= 1ull << (one & 63);
	w[cpu >> 6] |= 1ull << (cpu & 63);
	g_assert((uint64_t)s->nr_pool * s->words_cpu < CPUSET_ONE);
	*set = s->nr_pool++ * s->words_cpu;
}

void mstats_reset_counts(struct mstats *s)
{
	memset(s->untracked, 0, sizeof(s->untracked));
	for (uint32_t i = 0; i < s->nr_recs; i++) {
		memset(s->line[i].c, 0, sizeof(s->line[i].c));
		s->line[i].hi = DIR_NONE;
	}
	for (uint32_t r = 0; r < s->nr_orows; r++) {
		memset(s->orow[r].c, 0, sizeof(s->orow[r].c));
		s->orow[r].hi = DIR_NONE;
	}
	s->nr_line_hi = s->nr_orow_hi = 0;
}

void mstats_reset_cpus(struct mstats *s)
{
	if (s->nr)
		memset(s->cpus, 0xff, sizeof(cpuset_t) * s->nr);
	if (s->nr_orows)
		memset(s->orow_cpus, 0xff, sizeof(cpuset_t) * s->nr_orows);
	s->nr_pool = 0;
}

uint64_t mstats_bytes(const struct mstats *s)
{
	return (uint64_t)s->nr * (sizeof(uint32_t) + sizeof(cpuset_t) + sizeof(uint32_t)) +
	       (uint64_t)s->nr_recs * sizeof(struct line_rec) +
	       sizeof(uint64_t) * 2 * (uint64_t)s->nr_track +
	       (uint64_t)s->nr_orows * (sizeof(struct orow_rec) + sizeof(cpuset_t)) +
	       (s->orow_slot ? sizeof(uint64_t) * ((uint64_t)s->orow_mask + 1) : 0) +
	       sizeof(uint32_t) * ((uint64_t)s->nr_line_hi * LS_COUNT +
				   (uint64_t)s->nr_orow_hi * OS_COUNT) +
	       sizeof(uint64_t) * (uint64_t)s->nr_pool * s->words_cpu;
}

/* Add the CPUs of @set to @bits. */
static void cpuset_or(const struct mstats *s, cpuset_t set, uint64_t *bits)
{
	if (set == CPUSET_NONE)
		return;
	if (set & CPUSET_ONE) {
		set &= ~CPUSET_ONE;
		bits[set >> 6] |= 1ull << (set & 63);
		return;
	}
	for (uint32_t w = 0; w < s->words_cpu; w++)
		bits[w] |= s->cpu_pool[set + w];
}

static uint32_t cpuset_count(const struct mstats *s, cpuset_t set)
{
	if (set == CPUSET_NONE || set & CPUSET_ONE)
		return set != CPUSET_NONE;
	return c2c_popcount_words(&s->cpu_pool[set], s->words_cpu);
}

void stats_line_cpus(const struct mem *m, uint32_t l, uint64_t *bits)
{
	cpuset_or(&m->st, m->st.cpus[l], bits);
}

uint32_t stats_line_nr_cpus(const struct mem *m, uint32_t l)
{
	return cpuset_count(&m->st, m->st.cpus[l]);
}

uint32_t stats_cpu_words(const struct mem *m)
{
	return m->st.words_cpu;
}

uint32_t stats_find_line(const struct mem *m, uint64_t addr)
{
	return mem_line(m, addr);
}

uint64_t stats_line_size(const struct mem *m)
{
	return m->gsize;
}

uint32_t stats_line_first_orow(const struct mem *m, uint32_t l)
{
	uint32_t i = m->st.rec_of[l];

	return i == DIR_NONE ? DIR_NONE : m->st.line[i].first_orow;
}

uint32_t stats_nr_orows(const struct mem *m)
{
	return m->st.nr_orows;
}

uint64_t stats_orow_get(const struct mem *m, uint32_t o, enum ostat k)
{
	return mstats_orow_get(&m->st, o, k);
}

uint32_t stats_orow_next(const struct mem *m, uint32_t o)
{
	return m->st.orow[o].next;
}

void stats_orow(const struct mem *m, uint32_t o, struct orow *out)
{
	const struct orow_rec *r = &m->st.orow[o];

	memset(out, 0, sizeof(*out));
	for (unsigned k = 0; k < OS_COUNT; k++)
		out->c[k] = stats_orow_get(m, o, k);
	out->line = r->line;
	out->site = r->site;
	out->caller = r->caller;
	out->next = r->next;
	out->off = r->off;
}

void stats_orow_cpus(const struct mem *m, uint32_t o, uint64_t *bits)
{
	cpuset_or(&m->st, m->st.orow_cpus[o], bits);
}

uint32_t stats_orow_nr_cpus(const struct mem *m, uint32_t o)
{
	return cpuset_count(&m->st, m->st.orow_cpus[o]);
}

/* ------------------------------------------------------------------ Pareto rows */

/*
 * Rows of a line form a list, newest first, which the reports walk.  Finding a row tries, in
 * order (each answer checked against the row itself, so the order changes no answer):
 *  - a small direct-mapped memo of recent rows, indexed by the key's hash, which stays in the
 *    host's caches (the index of a large run is megabytes, and a probe of it misses them);
 *  - the line's first ORW_WALK rows: a line touched for the first time has none, so nothing
 *    is probed, and a line's few recent rows are still cached;
 *  - an open-addressing index of all rows, linear probing, at most 3/4 full, whose slots hold
 *    a row's number and its key's 32-bit hash: a probe compares hashes inside the slot array
 *    and reads a row only when the hash matches, and growing re-places slots without reading
 *    a single row.  It keeps a line that many sites touch (a trace gives every line its own
 *    site) from making the walk quadratic.
 * The row found is the one the caller adds to next, so reading it is not wasted.
 */
#define ORW_WALK 4
#define ORW_LOAD_NUM 3
#define ORW_LOAD_DEN 4

static uint32_t slot_row(uint64_t slot)
{
	return (uint32_t)slot;
}

static uint32_t slot_hash(uint64_t slot)
{
	return (uint32_t)(slot >> 32);
}

static void slot_put(uint64_t *slots, uint32_t mask, uint32_t hash, uint32_t r)
{
	uint32_t k = hash & mask;

	while (slot_row(slots[k]) != DIR_NONE)
		k = (k + 1) & mask;
	slots[k] = (uint64_t)hash << 32 | r;
}

/* Twice the slots (the first 1024), every row re-placed from its slot alone. */
static void slots_grow(struct mstats *s)
{
	uint32_t n = s->orow_slot ? 2 * (s->orow_mask + 1) : 1024, mask = n - 1;
	uint64_t *slots = g_new(uint64_t, n);

	memset(slots, 0xff, sizeof(uint64_t) * n);
	for (uint32_t k = 0; s->orow_slot && k <= s->orow_mask; k++)
		if (slot_row(s->orow_slot[k]) != DIR_NONE)
			slot_put(slots, mask, slot_hash(s->orow_slot[k]), slot_row(s->orow_slot[k]));
	g_free(s->orow_slot);
	s->orow_slot = slots;
	s->orow_mask = mask;
}

static uint32_t slot_find(const struct mstats *s, uint32_t hash, uint32_t line, uint8_t off,
			  uint32_t site, uint32_t caller)
{
	uint32_t k = hash & s->orow_mask, r;
	uint64_t slot;

	while ((r = slot_row(slot = s->orow_slot[k])) != DIR_NONE &&
	       (slot_hash(slot) != hash || !mstats_orow_is(&s->orow[r], line, off, site, caller)))
		k = (k + 1) & s->orow_mask;
	return r;
}

/* The memo, the line's first rows, then the index (see above). */
static uint32_t orow_lookup(const struct mstats *s, uint32_t hash, uint32_t line, uint8_t off,
			    uint32_t site, uint32_t caller)
{
	uint32_t memo = mstats_orow_memo(s, mstats_orow_memo_at(line, off, site, caller), line,
					 off, site, caller), r, n;

	if (memo != DIR_NONE)
		return memo;
	for (r = s->line[s->rec_of[line]].first_orow, n = 0; r != DIR_NONE && n < ORW_WALK;
	     r = s->orow[r].next, n++)
		if (mstats_orow_is(&s->orow[r], line, off, site, caller))
			return r;
	return r != DIR_NONE ? slot_find(s, hash, line, off, site, caller) : DIR_NONE;
}

uint32_t mstats_orow_find(const struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
			  uint32_t caller)
{
	return orow_lookup(s, mstats_orow_hash(line, off, site, caller), line, off, site, caller);
}

/* mstats_orow() past its memo: the row found or made, which the memo @memo remembers. */
static __attribute__((noinline)) uint32_t orow_get(struct mstats *s, uint32_t *memo,
						   uint32_t hash, uint32_t line, uint8_t off,
						   uint32_t site, uint32_t caller)
{
	struct line_rec *ls = &s->line[s->rec_of[line]];
	uint32_t r = orow_lookup(s, hash, line, off, site, caller);

	if (r != DIR_NONE)
		return *memo = r;
	if ((uint64_t)(s->nr_orows + 1) * ORW_LOAD_DEN >
	    (s->orow_slot ? (uint64_t)s->orow_mask + 1 : 0) * ORW_LOAD_NUM)
		slots_grow(s);
	if (s->nr_orows == s->cap_orows) {
		s->cap_orows = s->cap_orows ? 2 * s->cap_orows : 256;
		s->orow = g_renew(struct orow_rec, s->orow, s->cap_orows);
		s->orow_cpus = g_renew(cpuset_t, s->orow_cpus, s->cap_orows);
	}
	r = s->nr_orows++;
	memset(&s->orow[r], 0, sizeof(s->orow[r]));
	s->orow_cpus[r] = CPUSET_NONE;
	s->orow[r].line = line;
	s->orow[r].off = off;
	s->orow[r].site = site;
	s->orow[r].caller = caller;
	s->orow[r].hi = DIR_NONE;
	s->orow[r].next = ls->first_orow;
	ls->first_orow = r;
	slot_put(s->orow_slot, s->orow_mask, hash, r);
	return *memo = r;
}

/* The memo answers most calls: that test alone here, the rest out of line (orow_get), so
 * that a call the memo answers saves no registers. */
uint32_t mstats_orow(struct mstats *s, uint32_t line, uint8_t off, uint32_t site,
		     uint32_t caller)
{
	uint32_t at = mstats_orow_memo_at(line, off, site, caller);
	uint32_t r = mstats_orow_memo(s, at, line, off, site, caller);

	if (r != DIR_NONE)
		return r;
	return orow_get(s, &s->orow_memo[at], mstats_orow_hash(line, off, site, caller), line, off,
			site, caller);
}
