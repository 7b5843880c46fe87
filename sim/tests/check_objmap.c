/* check_objmap.c - unit tests for objmap.c: registration, sealing (sort and overlap
 * detection) and address lookup at and around object boundaries. */
#include <check.h>
#include <glib.h>
#include <stdlib.h>

#include "layout/objmap.h"
#include "testutil.h"

/* ---- objmap_init / objmap_release -------------------------------------------------------- */

START_TEST(objmap_init_empty)
{
	struct objmap om;

	objmap_init(&om);
	ck_assert_uint_eq(om.nr, 0);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	ck_assert_uint_eq(objmap_find(&om, 0), OBJ_NONE);
	ck_assert_uint_eq(objmap_find(&om, 0x10000000), OBJ_NONE);
	objmap_release(&om);
	ck_assert_ptr_null(om.v);
	ck_assert_ptr_null(om.flat);
	ck_assert_uint_eq(om.nr, 0);
	/* Releasing twice (a released map is an empty one) is harmless. */
	objmap_release(&om);
}
END_TEST

/* ---- objmap_add -------------------------------------------------------------------------- */

START_TEST(objmap_add_copies)
{
	struct objmap om;
	char name[] = "counter", type[] = "struct mem_cgroup";
	uint32_t a, b;
	struct obj o;

	objmap_init(&om);
	a = objmap_add(&om, name, NULL, 0x1000, 64, 0);
	b = objmap_add(&om, "memcg[3].pn[1]", type, 0x2000, 0x800, 1);
	name[0] = 'X';
	type[0] = 'X';
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 1);
	ck_assert(objmap_get(&om, a, &o));
	ck_assert_str_eq(o.name, "counter");
	ck_assert_int_eq(o.inst, -1);
	ck_assert_ptr_null(o.type);
	ck_assert_uint_eq(o.base, 0x1000);
	ck_assert_uint_eq(o.size, 64);
	ck_assert_uint_eq(o.node, 0);
	ck_assert(!o.per_cpu);
	ck_assert(objmap_get(&om, b, &o));
	ck_assert_str_eq(o.name, "memcg[3].pn[1]");
	ck_assert_str_eq(o.type, "struct mem_cgroup");
	ck_assert_uint_eq(o.node, 1);
	ck_assert(!objmap_get(&om, 2, &o) && !objmap_get(&om, OBJ_NONE, &o));
	ck_assert_ptr_null(objmap_name(&om, 2));
	objmap_release(&om);
}
END_TEST

/* Many objects (the array grows); indexes are insertion order. */
START_TEST(objmap_add_many)
{
	enum { N = 5000 };
	struct objmap om;

	objmap_init(&om);
	for (uint32_t i = 0; i < N; i++) {
		char name[32];

		snprintf(name, sizeof(name), "o[%u]", i);
		/* Inserted from the top address down. */
		ck_assert_uint_eq(objmap_add(&om, name, NULL, (uint64_t)(N - i) * 0x100, 0x80, 0), i);
	}
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	for (uint32_t i = 0; i < N; i++) {
		uint64_t base = (uint64_t)(N - i) * 0x100;

		ck_assert_uint_eq(objmap_find(&om, base), i);
		ck_assert_uint_eq(objmap_find(&om, base + 0x7f), i);
		ck_assert_uint_eq(objmap_find(&om, base + 0x80), OBJ_NONE);
	}
	{
		g_autofree char *last = objmap_name(&om, N - 1);

		ck_assert_str_eq(last, "o[4999]");
	}
	objmap_release(&om);
}
END_TEST

/* A run: the instances of a per-cpu object, indexes in order after what came before, each
 * its own object for lookups, names and homes; its layout set once for all. */
START_TEST(objmap_add_run_instances)
{
	static const uint16_t nodes[4] = {0, 1, 1, 0};
	struct objmap om;
	struct obj o;
	uint32_t first, last;

	objmap_init(&om);
	ck_assert_uint_eq(objmap_add(&om, "g", NULL, 0x100, 0x40, 1), 0);
	first = objmap_add_run(&om, "cg[7].stats", '@', "memcg_vmstats_percpu", 0x10000, 0x1000,
			       0x20, 4, nodes);
	ck_assert_uint_eq(first, 1);
	last = objmap_add_run(&om, "p", '[', NULL, 0x10040, 0x1000, 0x10, 4, nodes);
	ck_assert_uint_eq(last, 5);
	ck_assert_uint_eq(objmap_add(&om, "h", NULL, 0x200, 0x40, 0), 9);
	objmap_set_layout(&om, 3, NULL, true);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	for (uint32_t k = 0; k < 4; k++) {
		g_autofree char *n1 = objmap_name(&om, first + k), *n2 = objmap_name(&om, last + k);
		g_autofree char *w1 = g_strdup_printf("cg[7].stats@%u", k);
		g_autofree char *w2 = g_strdup_printf("p[%u]", k);

		ck_assert_str_eq(n1, w1);
		ck_assert_str_eq(n2, w2);
		ck_assert(objmap_get(&om, first + k, &o));
		ck_assert_str_eq(o.type, "memcg_vmstats_percpu");
		ck_assert_uint_eq(o.base, 0x10000 + 0x1000 * k);
		ck_assert_uint_eq(o.size, 0x20);
		ck_assert_uint_eq(o.node, nodes[k]);
		ck_assert_int_eq(o.inst, (int)k);
		ck_assert(o.per_cpu);
		ck_assert_uint_eq(om.v[first + k].node, nodes[k]);
		ck_assert_uint_eq(objmap_find(&om, 0x10000 + 0x1000 * k + 0x1f), first + k);
		ck_assert_uint_eq(objmap_find(&om, 0x10000 + 0x1000 * k + 0x20), OBJ_NONE);
		ck_assert_uint_eq(objmap_find(&om, 0x10040 + 0x1000 * k), last + k);
	}
	ck_assert_uint_eq(objmap_find(&om, 0x120), 0);
	ck_assert_uint_eq(objmap_find(&om, 0x200), 9);
	/* A run that overlaps: each instance of "q" runs into p[K]; p[0] is met first. */
	objmap_add_run(&om, "q", '@', NULL, 0x10038, 0x1000, 0x10, 3, nodes);
	ck_assert_uint_eq(objmap_seal(&om), 5);
	objmap_release(&om);
}
END_TEST

/* The reference: every object in one list sorted by (base, index), as the map answers. */
struct ref_obj {
	uint64_t base, size;
	uint32_t idx;
};

static int ref_cmp(const void *a, const void *b)
{
	const struct ref_obj *x = a, *y = b;

	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->idx < y->idx ? -1 : 1;
}

/* n objects at or below @addr in the sorted list */
static uint32_t ref_below(const struct ref_obj *r, uint32_t n, uint64_t addr)
{
	uint32_t k = 0;

	while (k < n && r[k].base <= addr)
		k++;
	return k;
}

/* Random maps of single objects and runs (some periodic, some not: other counts, strides
 * or windows), overlapping or not: seal, find and find_in answer as the sorted list does. */
START_TEST(objmap_index_matches_sorted_list)
{
	GRand *rng = g_rand_new_with_seed(11);

	for (int round = 0; round < 300; round++) {
		struct ref_obj ref[400];
		uint16_t nodes[16] = {0};
		struct objmap om;
		uint32_t n = 0, bad = OBJ_NONE;

		objmap_init(&om);
		for (int o = 0; o < 12; o++) {
			bool run = g_rand_boolean(rng);
			uint32_t count = run ? (g_rand_int_range(rng, 0, 4) ? 8 : 5) : 1;
			uint64_t stride = g_rand_int_range(rng, 0, 5) ? 0x1000 : 0x800;
			uint64_t size = (uint64_t)g_rand_int_range(rng, 1, 0x180);
			uint64_t base = (run && g_rand_int_range(rng, 0, 6) ? 0x40000 : 0x3f000) +
					(uint64_t)g_rand_int_range(rng, 0, 0x1000) / 8 * 8;

			if (!run)
				base = (uint64_t)g_rand_int_range(rng, 0x3e000, 0x4a000);
			if (run)
				objmap_add_run(&om, "r", '@', NULL, base, stride, size, count, nodes);
			else
				objmap_add(&om, "o", NULL, base, size, 0);
			for (uint32_t k = 0; k < count; k++)
				ref[n + k] = (struct ref_obj){base + k * stride, size, n + k};
			n += count;
		}
		qsort(ref, n, sizeof(ref[0]), ref_cmp);
		for (uint32_t k = 1; k < n && bad == OBJ_NONE; k++)
			if (ref[k - 1].base + ref[k - 1].size > ref[k].base)
				bad = ref[k].idx;
		ck_assert_uint_eq(objmap_seal(&om), bad);
		for (int q = 0; q < 200; q++) {
			uint64_t a = (uint64_t)g_rand_int_range(rng, 0x3d000, 0x4c000);
			uint32_t k = ref_below(ref, n, a), want = OBJ_NONE, want_in, got_in;

			if (k && a < ref[k - 1].base + ref[k - 1].size)
				want = ref[k - 1].idx;
			ck_assert_uint_eq(objmap_find(&om, a), want);
			want_in = want != OBJ_NONE ? want
				  : k < n && ref[k].base < a + 128 ? ref[k].idx : OBJ_NONE;
			ck_assert_uint_eq(objmap_find_in(&om, a, a + 128), want_in);
			got_in = ~0u;
			ck_assert_uint_eq(objmap_find_unit(&om, a, a + 128, &got_in), want);
			ck_assert_uint_eq(got_in, want_in);
		}
		/* A sweep, as first touches go: each lookup near the one before (objmap.h, last),
		 * inside objects and through the gaps between them (obj_last's gap); the first
		 * touch's one-lookup pair (objmap_find_unit) with them. */
		for (uint64_t a = 0x3d000; a < 0x4c000; a += 8) {
			uint32_t k = ref_below(ref, n, a), want = OBJ_NONE, want_in, got_in = ~0u;

			if (k && a < ref[k - 1].base + ref[k - 1].size)
				want = ref[k - 1].idx;
			ck_assert_uint_eq(objmap_find_unit(&om, a, a + 128, &got_in), want);
			ck_assert_uint_eq(objmap_find(&om, a), want);
			want_in = want;
			if (want == OBJ_NONE && k < n && ref[k].base < a + 128)
				want_in = ref[k].idx;
			ck_assert_uint_eq(got_in, want_in);
			ck_assert_uint_eq(objmap_find_in(&om, a, a + 128), want_in);
		}
		objmap_release(&om);
	}
	g_rand_free(rng);
}
END_TEST

/* ---- objmap_seal ------------------------------------------------------------------------- */

/* Overlap detection, table-driven: objects are added in the order given; the result is the
 * index of the object that overlaps the one before it in address order. */
START_TEST(objmap_seal_overlaps)
{
	static const struct {
		const char *what;
		uint64_t base[4], size[4];
		int n;
		uint32_t want;
	} cases[] = {
		{"disjoint, sorted", {0x1000, 0x1040, 0x2000}, {0x40, 0x40, 0x10}, 3, OBJ_NONE},
		{"touching, unsorted", {0x1040, 0x1000, 0x1080}, {0x40, 0x40, 0x40}, 3, OBJ_NONE},
		{"second overlaps first", {0x1000, 0x1020}, {0x40, 0x40}, 2, 1},
		{"first overlaps second (unsorted)", {0x1020, 0x1000}, {0x40, 0x40}, 2, 0},
		{"one byte overlap", {0x1000, 0x1040, 0x103f}, {0x40, 0x40, 0x1}, 3, 2},
		{"contained", {0x1000, 0x1010}, {0x100, 0x10}, 2, 1},
		{"same base: the later one", {0x1000, 0x1000}, {0x40, 0x40}, 2, 1},
		{"third overlaps, others fine", {0x3000, 0x1000, 0x3010, 0x2000},
		 {0x40, 0x40, 0x40, 0x40}, 4, 2},
	};

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		struct objmap om;
		uint32_t got;

		objmap_init(&om);
		for (int i = 0; i < cases[c].n; i++)
			objmap_add(&om, "o", NULL, cases[c].base[i], cases[c].size[i], 0);
		got = objmap_seal(&om);
		ck_assert_msg(got == cases[c].want, "%s: got %u, expected %u", cases[c].what, got,
			      cases[c].want);
		objmap_release(&om);
	}
}
END_TEST

/* Sealing again after more objects are added re-sorts everything. */
START_TEST(objmap_seal_twice)
{
	struct objmap om;

	objmap_init(&om);
	objmap_add(&om, "b", NULL, 0x2000, 0x40, 0);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	objmap_add(&om, "a", NULL, 0x1000, 0x40, 0);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	ck_assert_uint_eq(objmap_find(&om, 0x1000), 1);
	ck_assert_uint_eq(objmap_find(&om, 0x2000), 0);
	objmap_add(&om, "c", NULL, 0x1030, 0x40, 0);
	ck_assert_uint_eq(objmap_seal(&om), 2);
	objmap_release(&om);
}
END_TEST

/* ---- objmap_find ------------------------------------------------------------------------- */

START_TEST(objmap_find_boundaries)
{
	static const struct {
		uint64_t addr;
		uint32_t want;
	} cases[] = {
		{0x0, OBJ_NONE},     {0xfff, OBJ_NONE},   {0x1000, 1},       {0x1001, 1},
		{0x103f, 1},         {0x1040, 2},         {0x107f, 2},       {0x1080, OBJ_NONE},
		{0x1fff, OBJ_NONE},  {0x2000, 0},         {0x20ff, 0},       {0x2100, OBJ_NONE},
		{0x7fffffff, OBJ_NONE}, {UINT64_MAX - 0x40, 3}, {UINT64_MAX - 1, 3},
		{UINT64_MAX, OBJ_NONE},
	};
	struct objmap om;

	objmap_init(&om);
	/* Added out of address order. */
	objmap_add(&om, "b", NULL, 0x2000, 0x100, 1);
	objmap_add(&om, "a", NULL, 0x1000, 0x40, 0);
	objmap_add(&om, "a2", NULL, 0x1040, 0x40, 0);
	objmap_add(&om, "top", NULL, UINT64_MAX - 0x40, 0x40, 0);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		uint32_t got = objmap_find(&om, cases[i].addr);

		ck_assert_msg(got == cases[i].want, "0x%lx: got %u, expected %u",
			      (unsigned long)cases[i].addr, got, cases[i].want);
	}
	objmap_release(&om);
}
END_TEST

/* The last answer is tried first: the answers must not depend on the order of the lookups,
 * forwards, backwards, or the same cases again (each checked against a scan of every object). */
START_TEST(objmap_find_any_order)
{
	static const uint64_t addrs[] = {0x0, 0xfff, 0x1000, 0x103f, 0x1040, 0x107f, 0x1080,
					 0x1fff, 0x2000, 0x20ff, 0x2100, 0x2040, 0x1000, 0x3000};
	const size_t n = G_N_ELEMENTS(addrs);
	struct objmap om;

	objmap_init(&om);
	objmap_add(&om, "b", NULL, 0x2000, 0x100, 1);
	objmap_add(&om, "a", NULL, 0x1000, 0x40, 0);
	objmap_add(&om, "a2", NULL, 0x1040, 0x40, 0);
	objmap_add(&om, "c", NULL, 0x3000, 0x40, 0);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	for (size_t k = 0; k < 3 * n; k++) {
		/* forwards, then backwards, then every other one */
		uint64_t addr = addrs[k < n ? k : k < 2 * n ? 2 * n - 1 - k : (2 * k) % n];
		uint32_t want = OBJ_NONE;

		for (uint32_t o = 0; o < om.nr; o++) {
			struct obj ob;

			ck_assert(objmap_get(&om, o, &ob));
			if (addr >= ob.base && addr < ob.base + ob.size)
				want = o;
		}
		ck_assert_msg(objmap_find(&om, addr) == want, "lookup %zu, 0x%lx: expected %u", k,
			      (unsigned long)addr, want);
	}
	objmap_release(&om);
}
END_TEST

START_TEST(objmap_find_single)
{
	struct objmap om;

	objmap_init(&om);
	objmap_add(&om, "only", NULL, 0x40, 1, 0);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	ck_assert_uint_eq(objmap_find(&om, 0x3f), OBJ_NONE);
	ck_assert_uint_eq(objmap_find(&om, 0x40), 0);
	ck_assert_uint_eq(objmap_find(&om, 0x41), OBJ_NONE);
	objmap_release(&om);
}
END_TEST

/* A 128-byte unit that begins in padding belongs to the first object inside it. */
START_TEST(objmap_find_in_unit)
{
	static const struct {
		uint64_t lo, hi;
		uint32_t want;
	} cases[] = {                       /* object indexes: c 0, a 1, b 2 (added order) */
		{0x1000, 0x1080, 1},        /* starts inside a */
		{0x0f80, 0x1000, OBJ_NONE}, /* ends where a begins */
		{0x0fc0, 0x1040, 1},        /* padding, then a */
		{0x1040, 0x10c0, OBJ_NONE}, /* padding after a, nothing in the unit */
		{0x1f80, 0x2000, OBJ_NONE},
		{0x1fc0, 0x2040, 2},        /* padding, then b */
		{0x2040, 0x20c0, 0},        /* padding, then c */
		{0x3000, 0x3080, OBJ_NONE}, /* past every object */
	};
	struct objmap om;

	objmap_init(&om);
	objmap_add(&om, "c", NULL, 0x2080, 0x10, 1);
	objmap_add(&om, "a", NULL, 0x1000, 0x40, 0);
	objmap_add(&om, "b", NULL, 0x2000, 0x10, 1);
	ck_assert_uint_eq(objmap_seal(&om), OBJ_NONE);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		uint32_t got = objmap_find_in(&om, cases[i].lo, cases[i].hi);

		ck_assert_msg(got == cases[i].want, "[0x%lx, 0x%lx): got %u, expected %u",
			      (unsigned long)cases[i].lo, (unsigned long)cases[i].hi, got,
			      cases[i].want);
	}
	objmap_release(&om);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *objmap_suite(void)
{
	Suite *s = suite_create("objmap");
	TCase *tc;

	tc = tcase(s, "objmap_init");
	tcase_add_test(tc, objmap_init_empty);
	tc = tcase(s, "objmap_add");
	tcase_add_test(tc, objmap_add_copies);
	tcase_add_test(tc, objmap_add_many);
	tcase_add_test(tc, objmap_add_run_instances);
	tc = tcase(s, "objmap_seal");
	tcase_add_test(tc, objmap_seal_overlaps);
	tcase_add_test(tc, objmap_seal_twice);
	tcase_add_test(tc, objmap_index_matches_sorted_list);
	tc = tcase(s, "objmap_find");
	tcase_add_test(tc, objmap_find_boundaries);
	tcase_add_test(tc, objmap_find_single);
	tcase_add_test(tc, objmap_find_any_order);
	tcase_add_test(tc, objmap_find_in_unit);
	return s;
}

int main(void)
{
	return tu_run(objmap_suite());
}
