/* check_cache.c - unit tests for cache.c: set index, lookup, empty ways first, LRU victims. */
#include <check.h>
#include <glib.h>
#include <stdlib.h>

#include "mem/cache.h"
#include "testutil.h"

/* Fill @line_addr into @c the way mem.c does: pick the victim, set the tag, touch it. */
static struct cway *fill(struct pcache *c, uint64_t line_addr)
{
	struct cway *w = pcache_victim(c, line_addr);

	pcache_set_tag(c, w, line_addr + 1);
	w->state = 1;
	pcache_touch(c, w);
	return w;
}

/* ---- pcache_init / pcache_release -------------------------------------------------------- */

START_TEST(pcache_init_geometry)
{
	static const struct {
		uint32_t sets, ways, shift;
	} cases[] = {{1, 1, 6}, {64, 8, 6}, {1024, 16, 6}, {512, 8, 7}};

	/* Each geometry without and with value epochs (check mode's, zero like the rest). */
	for (size_t i = 0; i < 2 * G_N_ELEMENTS(cases); i++) {
		uint32_t sets = cases[i / 2].sets, ways = cases[i / 2].ways;
		bool epochs = i & 1;
		struct pcache c;

		pcache_init(&c, sets, ways, cases[i / 2].shift, epochs);
		ck_assert_uint_eq(c.sets, sets);
		ck_assert_uint_eq(c.ways, ways);
		ck_assert_uint_eq(c.set_mask, sets - 1);
		ck_assert_uint_eq(c.shift, cases[i / 2].shift);
		ck_assert_uint_eq(c.clock, 0);
		ck_assert(epochs == (c.epoch != NULL));
		for (uint32_t w = 0; w < sets * ways; w++) {
			ck_assert_uint_eq(c.tags[w], 0);
			ck_assert_uint_eq(c.lru[w], 0);
			ck_assert(!epochs || c.epoch[w] == 0);
		}
		pcache_release(&c);
		ck_assert_ptr_null(c.way);
	}
}
END_TEST

/* ---- pcache_set -------------------------------------------------------------------------- */

/* The set index is (address >> shift) & mask: 64-byte lines use bit 6 up, 128-byte granules
 * bit 7 up, so a pair's two lines share a set only with shift 7. */
START_TEST(pcache_set_index_shift)
{
	static const struct {
		uint32_t shift;
		uint64_t addr;
		uint32_t set;
	} cases[] = {
		{6, 0x0, 0},    {6, 0x40, 1},   {6, 0x80, 2},   {6, 0xc0, 3},
		{6, 0x100, 4},  {6, 0x3c0, 15}, {6, 0x400, 0},  {6, 0x12345640, 9},
		{7, 0x0, 0},    {7, 0x40, 0},   {7, 0x80, 1},   {7, 0xc0, 1},
		{7, 0x780, 15}, {7, 0x800, 0},  {7, 0x12345680, 13},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct pcache c;

		pcache_init(&c, 16, 4, cases[i].shift, false);
		ck_assert_msg(pcache_set(&c, cases[i].addr) == &c.way[cases[i].set * 4],
			      "shift %u addr 0x%lx: expected set %u, got %ld", cases[i].shift,
			      (unsigned long)cases[i].addr, cases[i].set,
			      (long)((pcache_set(&c, cases[i].addr) - c.way) / 4));
		pcache_release(&c);
	}
}
END_TEST

/* ---- pcache_lookup ----------------------------------------------------------------------- */

START_TEST(pcache_lookup_hit_and_miss)
{
	struct pcache c;
	struct cway *w0, *w1;

	pcache_init(&c, 4, 2, 6, false);
	ck_assert_ptr_null(pcache_lookup(&c, 0x0));
	/* Line address 0 is a valid line: its tag is 1, never the empty 0. */
	w0 = fill(&c, 0x0);
	w1 = fill(&c, 0x100); /* same set (4 sets of 64 bytes: 0x100 wraps to set 0) */
	ck_assert_ptr_eq(pcache_lookup(&c, 0x0), w0);
	ck_assert_ptr_eq(pcache_lookup(&c, 0x100), w1);
	ck_assert_uint_eq(pcache_addr(&c, w0), 0x0);
	ck_assert_uint_eq(pcache_addr(&c, w1), 0x100);
	ck_assert_ptr_null(pcache_lookup(&c, 0x40));
	ck_assert_ptr_null(pcache_lookup(&c, 0x200));
	/* Lookups do not touch. */
	ck_assert_uint_eq(pcache_stamp(&c, w0), 1);
	ck_assert_uint_eq(pcache_stamp(&c, w1), 2);
	pcache_release(&c);
}
END_TEST

/* With 128-byte granules both halves of a pair are one line; with 64-byte lines they are
 * two lines in neighbouring sets. */
START_TEST(pcache_lookup_granule)
{
	struct pcache c64, c128;

	pcache_init(&c64, 8, 2, 6, false);
	pcache_init(&c128, 8, 2, 7, false);
	fill(&c64, 0x1000);
	fill(&c64, 0x1040);
	fill(&c128, 0x1000);
	ck_assert_ptr_nonnull(pcache_lookup(&c64, 0x1000));
	ck_assert_ptr_nonnull(pcache_lookup(&c64, 0x1040));
	ck_assert_ptr_ne(pcache_set(&c64, 0x1000), pcache_set(&c64, 0x1040));
	ck_assert_ptr_eq(pcache_set(&c128, 0x1000), pcache_set(&c128, 0x1040));
	ck_assert_ptr_nonnull(pcache_lookup(&c128, 0x1000));
	ck_assert_ptr_null(pcache_lookup(&c128, 0x1080));
	pcache_release(&c64);
	pcache_release(&c128);
}
END_TEST

/* ---- pcache_victim ----------------------------------------------------------------------- */

/* Empty ways are used first, in way order, before anything is evicted. */
START_TEST(pcache_victim_empty_first)
{
	struct pcache c;
	struct cway *set;

	pcache_init(&c, 4, 4, 6, false);
	set = pcache_set(&c, 0x0);
	for (uint32_t i = 0; i < 4; i++) {
		struct cway *v = pcache_victim(&c, i * 0x100);

		ck_assert_ptr_eq(v, &set[i]);
		ck_assert_uint_eq(pcache_tag(&c, v), 0);
		fill(&c, i * 0x100);
	}
	/* An emptied way is preferred to the LRU one. */
	pcache_set_tag(&c, &set[2], 0);
	ck_assert_ptr_eq(pcache_victim(&c, 0x400), &set[2]);
	/* Other sets are untouched. */
	ck_assert_ptr_eq(pcache_victim(&c, 0x40), pcache_set(&c, 0x40));
	pcache_release(&c);
}
END_TEST

/* A full set evicts the least recently touched way. */
START_TEST(pcache_victim_lru)
{
	struct pcache c;
	struct cway *w[4], *v;

	pcache_init(&c, 2, 4, 6, false);
	for (int i = 0; i < 4; i++)
		w[i] = fill(&c, (uint64_t)i * 0x80); /* set 0 of 2 */
	ck_assert_ptr_eq(pcache_victim(&c, 0x200), w[0]);
	pcache_touch(&c, w[0]);
	ck_assert_ptr_eq(pcache_victim(&c, 0x200), w[1]);
	pcache_touch(&c, w[2]);
	pcache_touch(&c, w[1]);
	ck_assert_ptr_eq(pcache_victim(&c, 0x200), w[3]);
	/* Replace the victim: the new line is the most recent, the next victim is w[0]. */
	v = fill(&c, 0x200);
	ck_assert_ptr_eq(v, w[3]);
	ck_assert_ptr_null(pcache_lookup(&c, 0x180));
	ck_assert_ptr_eq(pcache_lookup(&c, 0x200), w[3]);
	ck_assert_ptr_eq(pcache_victim(&c, 0x280), w[0]);
	pcache_release(&c);
}
END_TEST

/* An LRU walk over a long access sequence: the victim is always the way with the oldest use,
 * checked against a model that records the last use of every line. */
START_TEST(pcache_victim_lru_sequence)
{
	enum { WAYS = 8, LINES = 13 };
	struct pcache c;
	uint64_t last_use[LINES] = {0}, clock = 0;
	uint32_t x = 1;

	pcache_init(&c, 1, WAYS, 6, false);
	for (int step = 0; step < 2000; step++) {
		uint64_t line, addr;
		struct cway *w;

		x = x * 1103515245u + 12345u;
		line = (x >> 16) % LINES;
		addr = line * 0x40;
		w = pcache_lookup(&c, addr);
		if (!w) {
			uint64_t oldest = UINT64_MAX;
			int cached = 0;

			for (uint64_t l = 0; l < LINES; l++)
				if (pcache_lookup(&c, l * 0x40)) {
					cached++;
					if (last_use[l] < oldest)
						oldest = last_use[l];
				}
			w = pcache_victim(&c, addr);
			if (cached == WAYS)
				ck_assert_uint_eq(pcache_stamp(&c, w), oldest);
			else
				ck_assert_uint_eq(pcache_tag(&c, w), 0);
			pcache_set_tag(&c, w, addr + 1);
		}
		pcache_touch(&c, w);
		last_use[line] = ++clock;
		ck_assert_uint_eq(pcache_stamp(&c, w), clock);
	}
	pcache_release(&c);
}
END_TEST

/* ---- pcache_touch ------------------------------------------------------------------------ */

START_TEST(pcache_touch_clock)
{
	struct pcache c;
	struct cway *a, *b;

	pcache_init(&c, 1, 2, 6, false);
	a = fill(&c, 0x0);
	b = fill(&c, 0x40);
	ck_assert_uint_eq(c.clock, 2);
	ck_assert_uint_lt(pcache_stamp(&c, a), pcache_stamp(&c, b));
	pcache_touch(&c, a);
	ck_assert_uint_eq(pcache_stamp(&c, a), 3);
	ck_assert_uint_gt(pcache_stamp(&c, a), pcache_stamp(&c, b));
	ck_assert_uint_eq(c.clock, 3);
	pcache_release(&c);
}
END_TEST

/* ---- pcache_lookup, pcache_victim, pcache_set_tag --------------------------------------- */

/* Under random fills (into pcache_victim's way), touches and drops of 16 lines in a 2-set,
 * 4-way cache: exactly the lines a model says are held are found, each in a way whose tag
 * names it. */
START_TEST(pcache_tags_model)
{
	struct pcache c;
	bool held[16] = {false};
	uint64_t x = 12345;

	pcache_init(&c, 2, 4, 6, false);
	for (int step = 0; step < 2000; step++) {
		uint64_t addr, r;
		struct cway *v = NULL, *w;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		r = x >> 33;
		addr = (r % 16) * 0x40;
		w = pcache_lookup(&c, addr);
		if (!w) {
			v = pcache_victim(&c, addr);
			if (pcache_tag(&c, v))
				held[pcache_addr(&c, v) / 0x40] = false;
			pcache_set_tag(&c, v, addr + 1);
			pcache_touch(&c, v);
			held[r % 16] = true;
		} else if (r / 16 % 4 == 0) {
			pcache_set_tag(&c, w, 0);
			held[r % 16] = false;
		} else {
			pcache_touch(&c, w);
		}
		for (uint64_t l = 0; l < 16; l++) {
			w = pcache_lookup(&c, l * 0x40);
			ck_assert(held[l] == (w != NULL));
			ck_assert(!w || pcache_addr(&c, w) == l * 0x40);
		}
	}
	pcache_release(&c);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc;

	tc = tcase(s, "pcache_init");
	tcase_add_test(tc, pcache_init_geometry);
	tc = tcase(s, "pcache_set");
	tcase_add_test(tc, pcache_set_index_shift);
	tc = tcase(s, "pcache_lookup");
	tcase_add_test(tc, pcache_lookup_hit_and_miss);
	tcase_add_test(tc, pcache_lookup_granule);
	tc = tcase(s, "pcache_victim");
	tcase_add_test(tc, pcache_victim_empty_first);
	tcase_add_test(tc, pcache_victim_lru);
	tcase_add_test(tc, pcache_victim_lru_sequence);
	tc = tcase(s, "pcache_touch");
	tcase_add_test(tc, pcache_touch_clock);
	tc = tcase(s, "pcache_tags");
	tcase_add_test(tc, pcache_tags_model);
	return s;
}

int main(void)
{
	return tu_run(cache_suite());
}
