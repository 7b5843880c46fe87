/* check_dir.c - unit tests for dir.c: insert/find, growth, stable indexes, sharer
 * bookkeeping and the per-line CPU sets; the statistics' 32-bit counter words (mstats). */
#include <check.h>
#include <glib.h>
#include <stdlib.h>

#include "mem/dir.h"
#include "mem/mstats.h"
#include "testutil.h"

/* A line address for the i-th line: scattered over a wide range, so hash probes collide. */
static uint64_t line_addr(uint32_t i)
{
	return 0x10000000ull + (uint64_t)i * 64 * 3 + ((uint64_t)(i & 7) << 32);
}

/* ---- dir_init / dir_release -------------------------------------------------------------- */

START_TEST(dir_init_words)
{
	static const struct {
		int cores;
		uint32_t wcore;
	} cases[] = {{1, 1}, {24, 1}, {40, 1}, {64, 1}, {65, 2}, {512, 8}};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct dir d;

		dir_init(&d, cases[i].cores);
		ck_assert_uint_eq(d.words_core, cases[i].wcore);
		ck_assert_uint_eq(d.nr, 0);
		ck_assert_uint_eq(dir_find(&d, 0x1000), DIR_NONE);
		dir_release(&d);
		ck_assert_ptr_null(d.line);
		ck_assert_ptr_null(d.slot);
		ck_assert_uint_eq(d.nr, 0);
	}
}
END_TEST

/* ---- dir_insert -------------------------------------------------------------------------- */

START_TEST(dir_insert_fields)
{
	uint64_t tmp[C2C_MAX_CPUS / 64] = {0};
	struct dir d;
	uint32_t a, b;

	dir_init(&d, 4);
	a = dir_insert(&d, 0x1000, 1);
	b = dir_insert(&d, 0x0, 0); /* address 0 is a line like any other */
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 1);
	ck_assert_uint_eq(d.nr, 2);
	ck_assert_uint_eq(d.line[a].addr, 0x1000);
	ck_assert_uint_eq(d.line[a].home, 1);
	ck_assert_int_eq(d.line[a].owner, -1);
	ck_assert_uint_eq(d.line[a].nr_sharers, 0);
	ck_assert_uint_eq(d.line[a].version, 0);
	ck_assert_uint_eq(d.line[a].busy_until, 0);
	ck_assert_uint_eq(d.line[a].llc_valid, 0);
	ck_assert_uint_eq(d.line[a].dirty, 0);
	ck_assert_uint_eq(dir_sharer_set(&d, a, tmp)[0], 0);
	ck_assert_uint_eq(dir_find(&d, 0x1000), a);
	ck_assert_uint_eq(dir_find(&d, 0x0), b);
	ck_assert_uint_eq(dir_find(&d, 0x1040), DIR_NONE);
	dir_release(&d);
}
END_TEST

/* 100k lines: far past the initial capacity.  Indexes are the order of first touch, every
 * line stays findable, and what was stored before a growth survives it. */
START_TEST(dir_insert_growth)
{
	enum { N = 100000 };
	struct dir d;
	uint32_t cap0;

	dir_init(&d, 80);
	cap0 = d.cap;
	for (uint32_t i = 0; i < N; i++) {
		uint32_t idx = dir_insert(&d, line_addr(i), (uint16_t)(i & 3));

		tu_require(idx == i, "line %u got index %u", i, idx);
		/* Bookkeeping that must move with the entry when the arrays grow. */
		d.line[idx].version = i;
		dir_add_sharer(&d, idx, (int)(i % 80));
	}
	ck_assert_uint_eq(d.nr, N);
	ck_assert_uint_gt(d.cap, cap0);
	ck_assert_uint_ge(d.cap, N);
	for (uint32_t i = 0; i < N; i++) {
		tu_require(dir_find(&d, line_addr(i)) == i, "line %u not found", i);
		tu_require(d.line[i].addr == line_addr(i) && d.line[i].home == (i & 3) &&
				   d.line[i].version == i && d.line[i].nr_sharers == 1,
			   "line %u: fields moved", i);
		tu_require(dir_has(&d, i, (int)(i % 80)) && !dir_has(&d, i, (int)((i + 1) % 80)),
			   "line %u: sharers moved", i);
	}
	/* Absent lines: neighbours of present ones. */
	for (uint32_t i = 0; i < 1000; i++)
		tu_require(dir_find(&d, line_addr(i) + 64) == DIR_NONE, "absent line %u found", i);
	dir_release(&d);
}
END_TEST

/* ---- dir_find ---------------------------------------------------------------------------- */

/* Slots filled to their growth point (half full, so probe chains are long), one line in each
 * region, still find every line and end on absent ones, in a present region or not; the next
 * region grows them and every line keeps its index. */
START_TEST(dir_find_full_table)
{
	struct dir d;
	uint32_t n, slots;

	dir_init(&d, 2);
	slots = d.slot_mask + 1;
	n = slots / 2;
	for (uint32_t i = 0; i < n; i++)
		ck_assert_uint_eq(dir_insert(&d, (uint64_t)i * DIR_REGION_BYTES, 0), i);
	ck_assert_uint_eq(d.slot_mask + 1, slots);
	ck_assert_uint_eq(d.nr_reg, n);
	for (uint32_t i = 0; i < n; i++) {
		ck_assert_uint_eq(dir_find(&d, (uint64_t)i * DIR_REGION_BYTES), i);
		ck_assert_uint_eq(dir_find(&d, (uint64_t)i * DIR_REGION_BYTES + 64), DIR_NONE);
	}
	for (uint32_t i = n; i < 4 * n; i++)
		ck_assert_uint_eq(dir_find(&d, (uint64_t)i * DIR_REGION_BYTES), DIR_NONE);
	ck_assert_uint_eq(dir_insert(&d, (uint64_t)n * DIR_REGION_BYTES, 0), n);
	ck_assert_uint_eq(d.slot_mask + 1, 2 * slots);
	for (uint32_t i = 0; i <= n; i++)
		ck_assert_uint_eq(dir_find(&d, (uint64_t)i * DIR_REGION_BYTES), i);
	dir_release(&d);
}
END_TEST

/* Every line of a region has an entry of its own: all DIR_REGION_LINES lines of many
 * regions, inserted in an order that fills each region out of order, across the growths of
 * the regions and their slots, and found by dir_find; lines of the next region stay absent. */
START_TEST(dir_find_region_lines)
{
	enum { REGIONS = 3000 };
	struct dir d;
	uint32_t n = 0;

	dir_init(&d, 4);
	for (uint32_t k = 0; k < DIR_REGION_LINES; k++)
		for (uint32_t r = 0; r < REGIONS; r++) {
			uint64_t a = 0x7000000000ull + (uint64_t)r * 5 * DIR_REGION_BYTES +
				     (uint64_t)((k * 3 + r) % DIR_REGION_LINES) * 64;

			tu_require(dir_insert(&d, a, 0) == n++, "line %u of region %u: index", k, r);
		}
	ck_assert_uint_eq(d.nr_reg, REGIONS);
	n = 0;
	for (uint32_t k = 0; k < DIR_REGION_LINES; k++)
		for (uint32_t r = 0; r < REGIONS; r++) {
			uint64_t a = 0x7000000000ull + (uint64_t)r * 5 * DIR_REGION_BYTES +
				     (uint64_t)((k * 3 + r) % DIR_REGION_LINES) * 64;

			tu_require(dir_find(&d, a) == n++ && d.line[n - 1].addr == a,
				   "line %u of region %u lost", k, r);
			tu_require(dir_find(&d, a + DIR_REGION_BYTES) == DIR_NONE,
				   "line %u of region %u found in the next region", k, r);
		}
	dir_release(&d);
}
END_TEST

/* ---- dir_lookup -------------------------------------------------------------------------- */

/* A first touch as the memory system makes it: looked up (absent), looked up again,
 * inserted; then the line, its region's neighbour (absent until inserted) and a line of
 * another region of the same page, in turn: what dir_lookup remembers (the line, its region)
 * answers only for them.  Every line keeps its index across the growths. */
START_TEST(dir_lookup_then_insert)
{
	enum { N = 5000 };
	struct dir d;
	uint32_t n = 0;

	dir_init(&d, 4);
	for (uint32_t i = 0; i < N; i++) {
		uint64_t a = 0x900000000000ull + (uint64_t)i * 4096, b = a + 64,
			 c = a + DIR_REGION_BYTES;
		uint32_t ia, ib, ic;

		tu_require(dir_lookup(&d, a) == DIR_NONE, "line %u present early", i);
		tu_require(dir_lookup(&d, a) == DIR_NONE, "line %u present early", i);
		tu_require((ia = dir_insert(&d, a, 0)) == n++, "line %u: index", i);
		tu_require(dir_lookup(&d, b) == DIR_NONE && dir_lookup(&d, a) == ia &&
				   dir_lookup(&d, b) == DIR_NONE,
			   "line %u: its neighbour present early", i);
		tu_require((ib = dir_insert(&d, b, 0)) == n++, "line %u: neighbour's index", i);
		tu_require(dir_lookup(&d, c) == DIR_NONE && dir_lookup(&d, a) == ia,
			   "line %u: the next region present early", i);
		tu_require((ic = dir_insert(&d, c, 0)) == n++, "line %u: next region's index", i);
		tu_require(dir_lookup(&d, a) == ia && dir_lookup(&d, b) == ib &&
				   dir_lookup(&d, c) == ic && dir_lookup(&d, a) == ia,
			   "line %u: a remembered line or region answered for another", i);
	}
	ck_assert_uint_ge(d.slot_mask + 1, 4 * N); /* they grew */
	n = 0;
	for (uint32_t i = 0; i < N; i++)
		for (uint32_t k = 0; k < 3; k++) {
			uint64_t a = 0x900000000000ull + (uint64_t)i * 4096;

			a += k == 1 ? 64 : k == 2 ? DIR_REGION_BYTES : 0;
			tu_require(dir_find(&d, a) == n++, "line %u/%u not found", i, k);
		}
	dir_release(&d);
}
END_TEST

/* ---- dir_add_sharer / dir_del_sharer ----------------------------------------------------- */

START_TEST(dir_add_sharer_counts_once)
{
	uint64_t tmp[C2C_MAX_CPUS / 64] = {0};
	struct dir d;
	uint32_t idx;

	dir_init(&d, 130);
	idx = dir_insert(&d, 0x40, 0);
	dir_add_sharer(&d, idx, 0);
	dir_add_sharer(&d, idx, 0);
	ck_assert_uint_eq(d.line[idx].nr_sharers, 1);
	dir_add_sharer(&d, idx, 63);
	dir_add_sharer(&d, idx, 64);
	dir_add_sharer(&d, idx, 129);
	dir_add_sharer(&d, idx, 129);
	ck_assert_uint_eq(d.line[idx].nr_sharers, 4);
	ck_assert(dir_has(&d, idx, 0));
	ck_assert(dir_has(&d, idx, 63));
	ck_assert(dir_has(&d, idx, 64));
	ck_assert(dir_has(&d, idx, 129));
	ck_assert(!dir_has(&d, idx, 1));
	ck_assert(!dir_has(&d, idx, 128));
	ck_assert_uint_eq(dir_sharer_set(&d, idx, tmp)[0], 1ull | 1ull << 63);
	ck_assert_uint_eq(dir_sharer_set(&d, idx, tmp)[1], 1ull);
	ck_assert_uint_eq(dir_sharer_set(&d, idx, tmp)[2], 1ull << 1);
	dir_release(&d);
}
END_TEST

START_TEST(dir_del_sharer_bookkeeping)
{
	uint64_t tmp[C2C_MAX_CPUS / 64] = {0};
	struct dir d;
	uint32_t a, b;

	dir_init(&d, 80);
	a = dir_insert(&d, 0x40, 0);
	b = dir_insert(&d, 0x80, 0);
	dir_add_sharer(&d, a, 3);
	dir_add_sharer(&d, a, 70);
	dir_add_sharer(&d, b, 3);
	/* Deleting a core that holds no copy changes nothing. */
	dir_del_sharer(&d, a, 5);
	ck_assert_uint_eq(d.line[a].nr_sharers, 2);
	dir_del_sharer(&d, a, 70);
	ck_assert_uint_eq(d.line[a].nr_sharers, 1);
	ck_assert(!dir_has(&d, a, 70));
	ck_assert(dir_has(&d, a, 3));
	dir_del_sharer(&d, a, 70);
	ck_assert_uint_eq(d.line[a].nr_sharers, 1);
	/* The other line's sharers are its own. */
	ck_assert(dir_has(&d, b, 3));
	ck_assert_uint_eq(d.line[b].nr_sharers, 1);
	dir_del_sharer(&d, a, 3);
	ck_assert_uint_eq(d.line[a].nr_sharers, 0);
	ck_assert_uint_eq(dir_sharer_set(&d, a, tmp)[0] | dir_sharer_set(&d, a, tmp)[1], 0);
	ck_assert(dir_has(&d, b, 3));
	dir_release(&d);
}
END_TEST

/* Deleting the owner clears owner and dirty; deleting another sharer keeps them. */
START_TEST(dir_del_sharer_owner_cleared)
{
	struct dir d;
	uint32_t idx;

	dir_init(&d, 80);
	idx = dir_insert(&d, 0x40, 0);
	dir_add_sharer(&d, idx, 66);
	d.line[idx].owner = 66;
	d.line[idx].dirty = 1;
	dir_del_sharer(&d, idx, 1); /* not a sharer, not the owner */
	ck_assert_int_eq(d.line[idx].owner, 66);
	ck_assert_uint_eq(d.line[idx].dirty, 1);
	dir_del_sharer(&d, idx, 66);
	ck_assert_int_eq(d.line[idx].owner, -1);
	ck_assert_uint_eq(d.line[idx].dirty, 0);
	ck_assert_uint_eq(d.line[idx].nr_sharers, 0);
	dir_release(&d);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

/* ---- mstats counters: 32-bit words, exact 64-bit sums ---------------------------------- */

/* Adds that carry out of the stored word (one at a time, and one add of more than 2^32) keep
 * the exact sum on the counter they hit and no other; a warm-up reset starts from zero. */
START_TEST(mstats_counter_carry)
{
	static const uint64_t adds[] = {UINT32_MAX, 1, 5, (uint64_t)3 << 32 | 7, UINT32_MAX};
	struct mstats s;
	uint64_t want = 0;
	uint32_t o;

	mstats_init(&s, 4);
	mstats_add_line(&s, 0, 0, 0, 64);
	mstats_add_line(&s, 1, 0, 64, 128);
	o = mstats_orow(&s, 1, 8, 3, DIR_NONE);
	for (size_t i = 0; i < G_N_ELEMENTS(adds); i++) {
		ls_add(&s, 1, LS_CYC_LOAD, adds[i]);
		os_add(&s, o, OS_CYC_LOAD, adds[i]);
		ls_add(&s, 1, LS_LD_L1, 1);
		want += adds[i];
		ck_assert_uint_eq(mstats_line_get(&s, 1, LS_CYC_LOAD), want);
		ck_assert_uint_eq(mstats_orow_get(&s, o, OS_CYC_LOAD), want);
	}
	ck_assert_uint_eq(mstats_line_get(&s, 1, LS_LD_L1), G_N_ELEMENTS(adds));
	ck_assert_uint_eq(mstats_line_get(&s, 1, LS_LOADS), G_N_ELEMENTS(adds));
	for (int k = 0; k < LS_COUNT; k++)
		ck_assert_uint_eq(mstats_line_get(&s, 0, k), 0);
	ck_assert_uint_eq(mstats_line_get(&s, 1, LS_CYC_HITM_LCL), 0);
	ck_assert_uint_eq(mstats_orow_get(&s, o, OS_LOADS), 0);
	mstats_reset_counts(&s);
	ls_add(&s, 1, LS_CYC_LOAD, 2);
	ck_assert_uint_eq(mstats_line_get(&s, 1, LS_CYC_LOAD), 2);
	ck_assert_uint_eq(mstats_orow_get(&s, o, OS_CYC_LOAD), 0);
	mstats_release(&s);
}
END_TEST

/* Every (line, offset, site, caller) has its own Pareto row, asked for again in another order
 * than it was made: far more keys than mstats_orow's memo has slots, so keys share slots and
 * the memo must not answer for another key than its row's. */
START_TEST(mstats_orow_keys)
{
	enum { LINES = 64, SITES = 96 };
	static uint32_t row[LINES][SITES][2];
	struct mstats s;

	mstats_init(&s, 4);
	for (uint32_t l = 0; l < LINES; l++)
		mstats_add_line(&s, l, 0, 64 * (uint64_t)l, 64 * (uint64_t)l + 64);
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t k = 0; k < LINES * SITES * 2; k++) {
			/* pass 1 walks the keys backwards, by another stride */
			uint32_t j = pass ? (LINES * SITES * 2 - 1 - k) * 7 % (LINES * SITES * 2) : k;
			uint32_t l = j % LINES, site = j / LINES % SITES, c = j / (LINES * SITES);
			uint32_t r = mstats_orow(&s, l, (uint8_t)(8 * c), site, c ? 5 : DIR_NONE);

			ck_assert(s.orow[r].line == l && s.orow[r].site == site &&
				  s.orow[r].off == 8 * c && s.orow[r].caller == (c ? 5 : DIR_NONE));
			if (!pass)
				row[l][site][c] = r;
			ck_assert_uint_eq(r, row[l][site][c]);
		}
	ck_assert_uint_eq(s.nr_orows, LINES * SITES * 2);
	mstats_release(&s);
}
END_TEST

static Suite *dir_suite(void)
{
	Suite *s = suite_create("dir");
	TCase *tc;

	tc = tcase(s, "dir_init");
	tcase_add_test(tc, dir_init_words);
	tcase_add_test(tc, mstats_counter_carry);
	tcase_add_test(tc, mstats_orow_keys);
	tc = tcase(s, "dir_insert");
	tcase_add_test(tc, dir_insert_fields);
	tcase_add_test(tc, dir_insert_growth);
	tc = tcase(s, "dir_find");
	tcase_add_test(tc, dir_find_full_table);
	tcase_add_test(tc, dir_find_region_lines);
	tc = tcase(s, "dir_lookup");
	tcase_add_test(tc, dir_lookup_then_insert);
	tc = tcase(s, "dir_add_sharer");
	tcase_add_test(tc, dir_add_sharer_counts_once);
	tc = tcase(s, "dir_del_sharer");
	tcase_add_test(tc, dir_del_sharer_bookkeeping);
	tcase_add_test(tc, dir_del_sharer_owner_cleared);
	return s;
}

int main(void)
{
	return tu_run(dir_suite());
}
