/* check_rng.c - unit tests for rng.c: seeded streams, independence, rng_below's range. */
#include <check.h>
#include <glib.h>
#include <stdlib.h>

#include "core/rng.h"
#include "testutil.h"

/* ---- rng_seed ---------------------------------------------------------------------------- */

START_TEST(rng_seed_same_sequence)
{
	static const struct {
		uint64_t seed, stream;
	} cases[] = {{0, 0}, {1, 0}, {1, 1}, {7, 1024 * 3 + 5}, {UINT64_MAX, UINT64_MAX}};

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		struct rng a, b;

		rng_seed(&a, cases[c].seed, cases[c].stream);
		rng_seed(&b, cases[c].seed, cases[c].stream);
		for (int i = 0; i < 1000; i++)
			ck_assert_uint_eq(rng_next(&a), rng_next(&b));
	}
}
END_TEST

/* A seeded state is never all zero (xoshiro would then emit zeros forever). */
START_TEST(rng_seed_state_nonzero)
{
	for (uint64_t seed = 0; seed < 4; seed++)
		for (uint64_t stream = 0; stream < 4; stream++) {
			struct rng r;

			rng_seed(&r, seed, stream);
			ck_assert(r.s[0] | r.s[1] | r.s[2] | r.s[3]);
		}
}
END_TEST

/* Streams of one seed, and one stream of different seeds, are different sequences. */
START_TEST(rng_seed_streams_differ)
{
	enum { N = 64 };
	uint64_t v[6][N];
	struct rng r;
	static const struct {
		uint64_t seed, stream;
	} cases[] = {{1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}, {1, 1024}};

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		rng_seed(&r, cases[c].seed, cases[c].stream);
		for (int i = 0; i < N; i++)
			v[c][i] = rng_next(&r);
	}
	for (size_t a = 0; a < G_N_ELEMENTS(cases); a++)
		for (size_t b = a + 1; b < G_N_ELEMENTS(cases); b++) {
			int same = 0;

			for (int i = 0; i < N; i++)
				same += v[a][i] == v[b][i];
			ck_assert_msg(same == 0, "(seed %lu, stream %lu) and (seed %lu, stream %lu) "
				      "share %d of %d values", (unsigned long)cases[a].seed,
				      (unsigned long)cases[a].stream, (unsigned long)cases[b].seed,
				      (unsigned long)cases[b].stream, same, N);
		}
}
END_TEST

/* ---- rng_next ---------------------------------------------------------------------------- */

/* Pinned values (xoshiro256** seeded through splitmix64, as in rng.c): results are
 * byte-identical across versions only while these hold. */
START_TEST(rng_next_pinned_values)
{
	static const struct {
		uint64_t seed, stream, want[3];
	} cases[] = {
		{1, 0, {0x96886c6d9cc7f628ull, 0xe3b722e3aee6a7a6ull, 0x7b37da1e8369ee07ull}},
		{7, 1029, {0xf3667f873493da56ull, 0x315b475b5fa55d80ull, 0}},
	};

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		struct rng r;

		rng_seed(&r, cases[c].seed, cases[c].stream);
		for (int i = 0; i < 3 && cases[c].want[i]; i++)
			ck_assert_uint_eq(rng_next(&r), cases[c].want[i]);
	}
}
END_TEST

/* ---- rng_below --------------------------------------------------------------------------- */

START_TEST(rng_below_one_is_zero)
{
	struct rng r;

	rng_seed(&r, 3, 9);
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_eq(rng_below(&r, 1), 0);
}
END_TEST

START_TEST(rng_below_range)
{
	static const uint64_t ns[] = {2, 3, 7, 8, 10, 1000, 1ull << 32, (1ull << 63) + 1,
				      UINT64_MAX};
	struct rng r;

	rng_seed(&r, 11, 0);
	for (size_t c = 0; c < G_N_ELEMENTS(ns); c++)
		for (int i = 0; i < 10000; i++)
			ck_assert_uint_lt(rng_below(&r, ns[c]), ns[c]);
}
END_TEST

/* Small n: every value comes up, each within 5% of its expected count (deterministic: the
 * seed is fixed, so this is a property of this stream, not a statistical test that flakes). */
START_TEST(rng_below_rough_uniformity)
{
	static const uint64_t ns[] = {2, 3, 6, 8, 31};
	enum { PER_VALUE = 10000 };

	for (size_t c = 0; c < G_N_ELEMENTS(ns); c++) {
		uint64_t n = ns[c], count[32] = {0};
		struct rng r;

		rng_seed(&r, 2024, c);
		for (uint64_t i = 0; i < n * PER_VALUE; i++)
			count[rng_below(&r, n)]++;
		for (uint64_t k = 0; k < n; k++)
			ck_assert_msg(count[k] > PER_VALUE * 95 / 100 && count[k] < PER_VALUE * 105 / 100,
				      "n=%lu: value %lu came up %lu times (expected about %d)",
				      (unsigned long)n, (unsigned long)k, (unsigned long)count[k],
				      PER_VALUE);
	}
}
END_TEST

/* Same seed, same stream: the same draws (what run.c's random delays rely on). */
START_TEST(rng_below_deterministic)
{
	struct rng a, b;

	rng_seed(&a, 5, 17);
	rng_seed(&b, 5, 17);
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_eq(rng_below(&a, 30001), rng_below(&b, 30001));
}
END_TEST

START_TEST(rng_below_pinned_values)
{
	static const uint64_t want[] = {64, 78, 67, 11, 66};
	struct rng r;

	rng_seed(&r, 1, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
		ck_assert_uint_eq(rng_below(&r, 100), want[i]);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *tc;

	tc = tcase(s, "rng_seed");
	tcase_add_test(tc, rng_seed_same_sequence);
	tcase_add_test(tc, rng_seed_state_nonzero);
	tcase_add_test(tc, rng_seed_streams_differ);
	tc = tcase(s, "rng_next");
	tcase_add_test(tc, rng_next_pinned_values);
	tc = tcase(s, "rng_below");
	tcase_add_test(tc, rng_below_one_is_zero);
	tcase_add_test(tc, rng_below_range);
	tcase_add_test(tc, rng_below_rough_uniformity);
	tcase_add_test(tc, rng_below_deterministic);
	tcase_add_test(tc, rng_below_pinned_values);
	return s;
}

int main(void)
{
	return tu_run(rng_suite());
}
