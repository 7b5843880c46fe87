/* check_machine.c - unit tests for machine.c: every model in models/machines loads with sane
 * derived values, skylake-sp-2s figures in picoseconds, and the loader's error messages. */
#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "mem/machine.h"
#include "testutil.h"
#include "yaml/ytree.h"

/* An inline machine, one key per line so error marks are easy to read off:
 * the line of each key is given in the comment at its right. */
static const char base_yaml[] =
	"name: t\n"                                                   /* 1 */
	"topology:\n"                                                 /* 2 */
	"  sockets: 2\n"                                              /* 3 */
	"  cores_per_socket: 4\n"                                     /* 4 */
	"  smt: 2\n"                                                  /* 5 */
	"  numa_nodes: 2\n"                                           /* 6 */
	"  freq_mhz: 2000\n"                                          /* 7 */
	"caches:\n"                                                   /* 8 */
	"  line_size: 64\n"                                           /* 9 */
	"  l1d: {size_kib: 32, ways: 8, latency_cycles: 4}\n"         /* 10 */
	"  l2: {size_kib: 1024, ways: 16, latency_cycles: 14}\n"      /* 11 */
	"  llc: {size_kib: 8192, ways: 11, latency_cycles: 60}\n"     /* 12 */
	"latency:\n"                                                  /* 13 */
	"  clean_local_ns: 50\n"                                      /* 14 */
	"  clean_remote_ns: 100\n"                                    /* 15 */
	"  hitm_local_ns: 50.5\n"                                     /* 16 */
	"  hitm_remote_owner_home_ns: 100\n"                          /* 17 */
	"  hitm_remote_reader_home_ns: 150\n"                         /* 18 */
	"  dram_local_ns: 80\n"                                       /* 19 */
	"  dram_remote_ns: 130\n"                                     /* 20 */
	"  locked_rmw_cycles: 20\n"                                   /* 21 */
	"  inv_local_ns: 50\n"                                        /* 22 */
	"  inv_remote_ns: 100\n"                                      /* 23 */
	"  inv_per_sharer_ns: 2\n"                                    /* 24 */
	"  dir_occupancy_ns: 5\n"                                     /* 25 */
	"store_buffer:\n"                                             /* 26 */
	"  entries: 56\n"                                             /* 27 */
	"prefetch:\n"                                                 /* 28 */
	"  adjacent_line: true\n"                                     /* 29 */
	"  buddy_modified: steal\n"                                   /* 30 */
	"  store_buddy: read\n"                                       /* 31 */
	"  pair_granule: false\n";                                    /* 32 */

/* base_yaml with the first occurrence of each @from[i] replaced by @to[i]. */
static char *edit(const char *const *from, const char *const *to, int n)
{
	char *text = g_strdup(base_yaml);

	for (int i = 0; i < n; i++) {
		char *at = strstr(text, from[i]), *next;

		ck_assert_msg(at != NULL, "'%s' is not in the base machine", from[i]);
		*at = 0;
		next = g_strconcat(text, to[i], at + strlen(from[i]), NULL);
		g_free(text);
		text = next;
	}
	return text;
}

/* Load @text as machine "m.yaml": the tree and the result of machine_load. */
static bool load_text(const char *text, struct machine *m, struct c2c_err *err)
{
	struct yt_node *t = yt_load_string("m.yaml", text, strlen(text), err);
	bool ok;

	ck_assert_msg(t != NULL, "%s", err->msg);
	ok = machine_load(m, t, err);
	yt_free(t);
	return ok;
}

static bool is_pow2(uint32_t x)
{
	return x && !(x & (x - 1));
}

/* ---- machine_load ------------------------------------------------------------------------ */

/* Every models/machines/NAME.yaml loads, and its derived values are consistent. */
START_TEST(machine_load_all_models)
{
	char *dirpath = tu_src_path("models/machines");
	GDir *dir = g_dir_open(dirpath, 0, NULL);
	const char *f;
	int models = 0;

	ck_assert_ptr_nonnull(dir);
	while ((f = g_dir_read_name(dir))) {
		char *path, *base;
		struct c2c_err err = {0};
		struct yt_node *t;
		struct machine m;

		if (!g_str_has_suffix(f, ".yaml"))
			continue;
		path = g_build_filename(dirpath, f, NULL);
		base = g_strndup(f, strlen(f) - 5);
		t = yt_load_file(path, &err);
		ck_assert_msg(t != NULL, "%s", err.msg);
		ck_assert_msg(machine_load(&m, t, &err), "%s", err.msg);
		ck_assert_str_eq(m.name, base);
		ck_assert_int_eq(m.nr_cores, m.sockets * m.cores_per_socket);
		ck_assert_int_eq(m.nr_cpus, m.sockets * m.cores_per_socket * m.smt);
		ck_assert_int_le(m.nr_cpus, C2C_MAX_CPUS);
		ck_assert_int_eq(m.sockets % m.numa_nodes, 0);
		ck_assert_uint_eq(m.cycle, (1000000 + m.freq_mhz / 2) / m.freq_mhz);
		ck_assert_uint_eq(m.line_size, 64);
		ck_assert_msg(is_pow2(m.l1d.sets), "%s: l1d has %u sets", f, m.l1d.sets);
		ck_assert_msg(is_pow2(m.l2.sets), "%s: l2 has %u sets", f, m.l2.sets);
		ck_assert_uint_eq(m.l1d.sets, m.l1d.size_kib * 1024 / (m.l1d.ways * 64));
		ck_assert_uint_eq(m.l2.sets, m.l2.size_kib * 1024 / (m.l2.ways * 64));
		ck_assert_uint_gt(m.llc.sets, 0);
		/* Latency tiers are ordered as in any real machine. */
		ck_assert_uint_gt(m.l1d.latency, 0);
		ck_assert_uint_lt(m.l1d.latency, m.l2.latency);
		ck_assert_uint_lt(m.l2.latency, m.llc.latency);
		ck_assert_uint_le(m.clean_local, m.clean_remote);
		ck_assert_uint_le(m.hitm_local, m.hitm_remote_owner_home);
		ck_assert_uint_le(m.hitm_remote_owner_home, m.hitm_remote_reader_home);
		ck_assert_uint_le(m.dram_local, m.dram_remote);
		ck_assert_uint_le(m.inv_local, m.inv_remote);
		ck_assert_uint_gt(m.locked_rmw, 0);
		ck_assert_uint_eq(m.locked_rmw % m.cycle, 0);
		ck_assert_uint_gt(m.store_buffer, 0);
		machine_release(&m);
		yt_free(t);
		g_free(path);
		g_free(base);
		models++;
	}
	ck_assert_int_ge(models, 3);
	g_dir_close(dir);
	g_free(dirpath);
}
END_TEST

/* Every latency of every model is its YAML figure in ps: ns x 1000 or cycles x cycle. */
START_TEST(machine_load_latencies_match_yaml)
{
	static const char *const models[] = {"skylake-sp-2s", "nehalem-ex-24", "zen3-epyc-2s"};

	for (size_t i = 0; i < G_N_ELEMENTS(models); i++) {
		char *rel = g_strdup_printf("models/machines/%s.yaml", models[i]);
		char *path = tu_src_path(rel);
		struct c2c_err err = {0};
		struct yt_node *t = yt_load_file(path, &err), *lat;
		struct machine m;
		const simtime_t *got[] = {&m.clean_local, &m.clean_remote, &m.hitm_local,
					  &m.hitm_remote_owner_home, &m.hitm_remote_reader_home,
					  &m.dram_local, &m.dram_remote, &m.locked_rmw,
					  &m.inv_local, &m.inv_remote, &m.inv_per_sharer,
					  &m.dir_occupancy};
		static const char *const keys[] = {
			"clean_local_ns", "clean_remote_ns", "hitm_local_ns",
			"hitm_remote_owner_home_ns", "hitm_remote_reader_home_ns", "dram_local_ns",
			"dram_remote_ns", "locked_rmw_cycles", "inv_local_ns", "inv_remote_ns",
			"inv_per_sharer_ns", "dir_occupancy_ns"};

		ck_assert_msg(t != NULL, "%s", err.msg);
		tu_machine(&m, models[i], NULL);
		lat = yt_get(t, "latency");
		for (size_t k = 0; k < G_N_ELEMENTS(keys); k++) {
			bool cycles = g_str_has_suffix(keys[k], "_cycles");
			uint64_t want;

			ck_assert(yt_duration(yt_get(lat, keys[k]), keys[k], cycles ? 1 : 1000, &want,
					      &err));
			if (cycles)
				want *= m.cycle;
			ck_assert_msg(*got[k] == want, "%s %s: %lu ps (expected %lu)", models[i],
				      keys[k], (unsigned long)*got[k], (unsigned long)want);
		}
		machine_release(&m);
		yt_free(t);
		g_free(path);
		g_free(rel);
	}
}
END_TEST

/* skylake-sp-2s, by hand: 2.4 GHz rounds to a 417 ps cycle. */
START_TEST(machine_load_skylake_figures)
{
	struct machine m;

	tu_machine(&m, "skylake-sp-2s", NULL);
	ck_assert_str_eq(m.name, "skylake-sp-2s");
	ck_assert_int_eq(m.sockets, 2);
	ck_assert_int_eq(m.cores_per_socket, 20);
	ck_assert_int_eq(m.smt, 2);
	ck_assert_int_eq(m.numa_nodes, 2);
	ck_assert_int_eq(m.nr_cores, 40);
	ck_assert_int_eq(m.nr_cpus, 80);
	ck_assert_uint_eq(m.freq_mhz, 2400);
	ck_assert_uint_eq(m.cycle, 417);
	ck_assert_uint_eq(m.l1d.sets, 64);
	ck_assert_uint_eq(m.l1d.ways, 8);
	ck_assert_uint_eq(m.l1d.latency, 4 * 417);
	ck_assert_uint_eq(m.l2.sets, 1024);
	ck_assert_uint_eq(m.l2.latency, 14 * 417);
	ck_assert_uint_eq(m.llc.latency, 60 * 417);
	ck_assert_uint_eq(m.clean_local, 53000);
	ck_assert_uint_eq(m.clean_remote, 114000);
	ck_assert_uint_eq(m.hitm_local, 53000);
	ck_assert_uint_eq(m.hitm_remote_owner_home, 114000);
	ck_assert_uint_eq(m.hitm_remote_reader_home, 178000);
	ck_assert_uint_eq(m.dram_local, 81000);
	ck_assert_uint_eq(m.dram_remote, 131000);
	ck_assert_uint_eq(m.locked_rmw, 19 * 417);
	ck_assert_uint_eq(m.inv_local, 53000);
	ck_assert_uint_eq(m.inv_remote, 114000);
	ck_assert_uint_eq(m.inv_per_sharer, 2000);
	ck_assert_uint_eq(m.dir_occupancy, 5000);
	ck_assert_uint_eq(m.store_buffer, 56);
	ck_assert(m.pf.adjacent_line);
	ck_assert_int_eq(m.pf.buddy_modified, PF_BUDDY_STEAL);
	ck_assert_int_eq(m.pf.store_buddy, PF_STORE_RFO);
	ck_assert(m.pf.upgrade_prefetch);
	ck_assert_int_eq(m.pf.rfo_buddy_modified, PF_BUDDY_DROP);
	ck_assert_int_eq(m.pf.rfo_buddy_shared, PF_RFO_SHARED_INVALIDATE);
	ck_assert_int_eq(m.pf.rfo_install, PF_RFO_INSTALL_MODIFIED);
	ck_assert(!m.pf.pair_granule);
	ck_assert_uint_eq(m.mlp, 10);
	ck_assert_uint_eq(m.smt_compute_pct, 160);
	machine_release(&m);
}
END_TEST

START_TEST(machine_load_zen3_no_prefetch)
{
	struct machine m;

	tu_machine(&m, "zen3-epyc-2s", NULL);
	ck_assert(!m.pf.adjacent_line);
	ck_assert_int_eq(m.nr_cpus, 128);
	ck_assert_uint_eq(m.hitm_local, 97500); /* 97.5 ns: a fraction, exactly */
	machine_release(&m);
}
END_TEST

/* Overrides through the tree reach the loaded machine (what --set machine.X does). */
START_TEST(machine_load_overrides)
{
	static const char *const ov[] = {"prefetch.buddy_modified=drop", "prefetch.store_buddy=rfo",
					 "prefetch.pair_granule=true", "latency.hitm_local_ns=7.125",
					 "topology.smt=1", NULL};
	struct machine m;

	tu_machine(&m, "skylake-sp-2s", ov);
	ck_assert_int_eq(m.pf.buddy_modified, PF_BUDDY_DROP);
	ck_assert_int_eq(m.pf.store_buddy, PF_STORE_RFO);
	ck_assert(m.pf.pair_granule);
	ck_assert_int_eq(m.pf.rfo_buddy_modified, PF_BUDDY_DROP);
	ck_assert_uint_eq(m.hitm_local, 7125);
	ck_assert_int_eq(m.nr_cpus, 40);
	machine_release(&m);
}
END_TEST

/* The inline base machine loads: the error cases below differ from it in one place. */
START_TEST(machine_load_inline_base)
{
	struct machine m;
	struct c2c_err err = {0};

	ck_assert_msg(load_text(base_yaml, &m, &err), "%s", err.msg);
	ck_assert_int_eq(m.nr_cpus, 16);
	ck_assert_uint_eq(m.cycle, 500);
	ck_assert_uint_eq(m.hitm_local, 50500);
	ck_assert_uint_eq(m.locked_rmw, 10000);
	ck_assert_uint_eq(m.llc.sets, 8192 * 1024 / (11 * 64)); /* not a power of two: fine */
	/* No irq keys: 2 cycles each, what path models were charged before the keys existed. */
	ck_assert_uint_eq(m.irq_off, 2 * 500);
	ck_assert_uint_eq(m.irq_on, 2 * 500);
	/* No prefetch rule keys: the rules the table had before they existed. */
	ck_assert(!m.pf.upgrade_prefetch);
	ck_assert_int_eq(m.pf.rfo_buddy_modified, m.pf.buddy_modified);
	ck_assert_int_eq(m.pf.rfo_buddy_shared, PF_RFO_SHARED_KEEP);
	ck_assert_int_eq(m.pf.rfo_install, PF_RFO_INSTALL_EXCLUSIVE);
	machine_release(&m);
}
END_TEST

/* The optional irq costs are whole cycles, converted with the clock like the others; 0 is
 * allowed (a what-if with free interrupt masking). */
START_TEST(machine_load_irq_cycles)
{
	static const char *const from[] = {"  dir_occupancy_ns: 5\n"};
	static const char *const to[] = {"  dir_occupancy_ns: 5\n  irq_off_cycles: 10\n"
					 "  irq_on_cycles: 0\n"};
	static const char *const ov[] = {"latency.irq_on_cycles=7", NULL};
	char *text = edit(from, to, 1);
	struct c2c_err err = {0};
	struct machine m;

	ck_assert_msg(load_text(text, &m, &err), "%s", err.msg);
	ck_assert_uint_eq(m.irq_off, 10 * 500);
	ck_assert_uint_eq(m.irq_on, 0);
	machine_release(&m);
	g_free(text);
	tu_machine(&m, "skylake-sp-2s", ov);
	ck_assert_uint_eq(m.irq_off, 2 * 417);
	ck_assert_uint_eq(m.irq_on, 7 * 417);
	machine_release(&m);
}
END_TEST

/* Each case edits the base machine and expects exactly one message. */
START_TEST(machine_load_errors)
{
	static const struct {
		const char *from[2], *to[2];
		const char *msg;
	} cases[] = {
		{{"  dram_remote_ns: 130\n"}, {""},
		 "m.yaml:14:3: missing key 'dram_remote_ns' in latency"},
		{{"prefetch:\n"}, {"prefetc:\n"},
		 "m.yaml:28:1: machine: unknown key 'prefetc' (expected one of: name, description, "
		 "topology, caches, latency, store_buffer, prefetch, mlp, smt_compute_pct; did you mean "
		 "'prefetch'?)"},
		{{"hitm_local_ns"}, {"hitm_locl_ns"},
		 "m.yaml:16:3: latency: unknown key 'hitm_locl_ns' (expected one of: clean_local_ns, "
		 "clean_remote_ns, hitm_local_ns, hitm_remote_owner_home_ns, "
		 "hitm_remote_reader_home_ns, dram_local_ns, dram_remote_ns, locked_rmw_cycles, "
		 "inv_local_ns, inv_remote_ns, inv_per_sharer_ns, dir_occupancy_ns, irq_off_cycles, "
		 "irq_on_cycles; did you mean 'hitm_local_ns'?)"},
		{{"  dir_occupancy_ns: 5\n"}, {"  dir_occupancy_ns: 5\n  irq_off_cycles: -1\n"},
		 "m.yaml:26:19: latency.irq_off_cycles: -1 is out of range (expected an integer in "
		 "[0, 1000])"},
		{{"  dir_occupancy_ns: 5\n"}, {"  dir_occupancy_ns: 5\n  irq_on_cycles: 1.5\n"},
		 "m.yaml:26:18: latency.irq_on_cycles: '1.5' is not an integer (expected an integer "
		 "in [0, 1000])"},
		{{"  dir_occupancy_ns: 5\n"}, {"  dir_occupancy_ns: 5\n  irq_on_cycles: 1001\n"},
		 "m.yaml:26:18: latency.irq_on_cycles: 1001 is out of range (expected an integer in "
		 "[0, 1000])"},
		{{"  pair_granule: false\n"}, {"  pair_granule: false\n  rfo_install: dirty\n"},
		 "m.yaml:33:16: prefetch.rfo_install: unknown value 'dirty' (expected one of: "
		 "exclusive, modified)"},
		{{"dram_local_ns: 80"}, {"dram_local_ns: -5"},
		 "m.yaml:19:18: latency.dram_local_ns: negative value -5 (expected a duration >= 0)"},
		{{"locked_rmw_cycles: 20"}, {"locked_rmw_cycles: -1"},
		 "m.yaml:21:22: latency.locked_rmw_cycles: negative value -1 (expected a duration >= 0)"},
		{{"sockets: 2"}, {"sockets: 0"},
		 "m.yaml:3:12: topology.sockets: 0 is out of range (expected an integer in [1, 1024])"},
		{{"cores_per_socket: 4"}, {"cores_per_socket: 300"},
		 "m.yaml:3:3: topology: 2 sockets x 300 cores x 2 SMT = 1200 CPUs is impossible here "
		 "(expected at most 1024 CPUs and 32 sockets)"},
		{{"sockets: 2", "cores_per_socket: 4"}, {"sockets: 128", "cores_per_socket: 1"},
		 "m.yaml:3:3: topology: 128 sockets x 1 cores x 2 SMT = 256 CPUs is impossible here "
		 "(expected at most 1024 CPUs and 32 sockets)"},
		{{"numa_nodes: 2"}, {"numa_nodes: 3"},
		 "m.yaml:6:15: topology.numa_nodes: 3 nodes cannot be spread over 2 sockets "
		 "(expected a divisor of the socket count)"},
		{{"sockets: 2", "numa_nodes: 2"}, {"sockets: 6", "numa_nodes: 4"},
		 "m.yaml:6:15: topology.numa_nodes: 4 nodes cannot be spread over 6 sockets "
		 "(expected a divisor of the socket count)"},
		{{"l1d: {size_kib: 32"}, {"l1d: {size_kib: 48"},
		 "m.yaml:10:8: caches.l1d: 48 KiB / 8 ways / 64-byte lines gives 96 sets "
		 "(expected a power of two)"},
		{{"l2: {size_kib: 1024, ways: 16"}, {"l2: {size_kib: 1280, ways: 16"},
		 "m.yaml:11:7: caches.l2: 1280 KiB / 16 ways / 64-byte lines gives 1280 sets "
		 "(expected a power of two)"},
		{{"l1d: {size_kib: 32, ways: 8"}, {"l1d: {size_kib: 1, ways: 32"},
		 "m.yaml:10:8: caches.l1d: 1 KiB / 32 ways / 64-byte lines gives 0 sets "
		 "(expected a power of two)"},
		{{"buddy_modified: steal"}, {"buddy_modified: steel"},
		 "m.yaml:30:19: prefetch.buddy_modified: unknown value 'steel' (expected one of: "
		 "steal, drop; did you mean 'steal'?)"},
		{{"store_buddy: read"}, {"store_buddy: write"},
		 "m.yaml:31:16: prefetch.store_buddy: unknown value 'write' (expected one of: "
		 "read, rfo)"},
		{{"line_size: 64"}, {"line_size: 128"},
		 "m.yaml:9:14: caches.line_size: 128 is out of range (expected an integer in "
		 "[64, 64])"},
		{{"freq_mhz: 2000"}, {"freq_mhz: fast"},
		 "m.yaml:7:13: topology.freq_mhz: 'fast' is not an integer (expected an integer in "
		 "[1, 100000])"},
		{{"adjacent_line: true"}, {"adjacent_line: maybe"},
		 "m.yaml:29:18: prefetch.adjacent_line: 'maybe' is not a boolean (expected true or "
		 "false)"},
		{{"  entries: 56\n"}, {"  entries: 0\n"},
		 "m.yaml:27:12: store_buffer.entries: 0 is out of range (expected an integer in "
		 "[1, 4096])"},
		{{"store_buffer:\n  entries: 56\n"}, {""},
		 "m.yaml:1:1: missing key 'store_buffer' in machine"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		int n = cases[i].from[1] ? 2 : 1;
		char *text = edit(cases[i].from, cases[i].to, n);
		struct c2c_err err = {0};
		struct machine m;

		ck_assert_msg(!load_text(text, &m, &err), "case %zu loaded", i);
		ck_assert(err.set);
		ck_assert_msg(!strcmp(err.msg, cases[i].msg), "case %zu:\n got  %s\n want %s", i,
			      err.msg, cases[i].msg);
		machine_release(&m);
		g_free(text);
	}
}
END_TEST

/* Latencies over a second are refused (a cycle count whose picoseconds would not fit in 64
 * bits used to wrap around silently).  Messages name the key by its dotted path, like every
 * other machine error. */
START_TEST(machine_load_latency_over_a_second)
{
	static const struct {
		const char *from, *to, *msg;
	} cases[] = {
		{"locked_rmw_cycles: 20", "locked_rmw_cycles: 100000000000000000",
		 "m.yaml:21:22: latency.locked_rmw_cycles: 100000000000000000 cycles is over a "
		 "second (expected a latency below 1 s)"},
		{"latency_cycles: 4}", "latency_cycles: 100000000000000000}",
		 "m.yaml:10:48: caches.l1d.latency_cycles: 100000000000000000 cycles is over a "
		 "second (expected a latency below 1 s)"},
		{"dram_local_ns: 80", "dram_local_ns: 1000000001",
		 "m.yaml:19:18: latency.dram_local_ns: 1000000001000 ps is over a second (expected a "
		 "latency below 1 s)"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *text = edit(&cases[i].from, &cases[i].to, 1);
		struct c2c_err err = {0};
		struct machine m;
		bool ok = load_text(text, &m, &err);

		machine_release(&m);
		g_free(text);
		ck_assert_msg(!ok, "case %zu loaded", i);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(machine_load_not_a_mapping)
{
	struct c2c_err err = {0};
	struct machine m;

	ck_assert(!load_text("[1, 2]\n", &m, &err));
	ck_assert_str_eq(err.msg, "m.yaml:1:1: machine: expected a mapping (got a sequence)");
	machine_release(&m);
}
END_TEST

/* ---- machine_release --------------------------------------------------------------------- */

START_TEST(machine_release_null)
{
	struct machine m;

	machine_release(NULL);
	tu_machine(&m, "nehalem-ex-24", NULL);
	machine_release(&m);
	ck_assert_ptr_null(m.name);
	machine_release(&m); /* twice is harmless */
}
END_TEST

/* ---- machine_cpu_core / machine_cpu_socket / machine_socket_node ------------------------- */

/* Linux numbering on Intel servers: CPUs 0-19 socket 0, 20-39 socket 1, 40-79 siblings. */
START_TEST(machine_cpu_socket_numbering)
{
	static const struct {
		int cpu, core, socket, node;
	} cases[] = {{0, 0, 0, 0},   {19, 19, 0, 0},  {20, 20, 1, 1}, {39, 39, 1, 1},
		     {40, 0, 0, 0},  {59, 19, 0, 0},  {60, 20, 1, 1}, {79, 39, 1, 1}};
	struct machine m;

	tu_machine(&m, "skylake-sp-2s", NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		int core = machine_cpu_core(&m, cases[i].cpu);
		int socket = machine_cpu_socket(&m, cases[i].cpu);

		ck_assert_int_eq(core, cases[i].core);
		ck_assert_int_eq(machine_core_socket(&m, core), cases[i].socket);
		ck_assert_int_eq(socket, cases[i].socket);
		ck_assert_int_eq(machine_socket_node(&m, socket), cases[i].node);
		ck_assert_int_eq(machine_node_socket(&m, cases[i].node), cases[i].socket);
	}
	machine_release(&m);
}
END_TEST

/* Fewer NUMA nodes than sockets: sockets pair up on nodes. */
START_TEST(machine_socket_node_shared)
{
	static const char *const ov[] = {"topology.sockets=4", "topology.numa_nodes=2", NULL};
	struct machine m;

	tu_machine(&m, "skylake-sp-2s", ov);
	ck_assert_int_eq(m.nr_cpus, 160);
	ck_assert_int_eq(machine_socket_node(&m, 0), 0);
	ck_assert_int_eq(machine_socket_node(&m, 1), 0);
	ck_assert_int_eq(machine_socket_node(&m, 2), 1);
	ck_assert_int_eq(machine_socket_node(&m, 3), 1);
	ck_assert_int_eq(machine_node_socket(&m, 1), 2);
	ck_assert_int_eq(machine_cpu_socket(&m, 79), 3);
	ck_assert_int_eq(machine_cpu_socket(&m, 80), 0);
	machine_release(&m);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	suite_add_tcase(s, tc);
	return tc;
}

static Suite *machine_suite(void)
{
	Suite *s = suite_create("machine");
	TCase *tc;

	tc = tcase(s, "machine_load");
	tcase_add_test(tc, machine_load_all_models);
	tcase_add_test(tc, machine_load_latencies_match_yaml);
	tcase_add_test(tc, machine_load_skylake_figures);
	tcase_add_test(tc, machine_load_zen3_no_prefetch);
	tcase_add_test(tc, machine_load_overrides);
	tcase_add_test(tc, machine_load_inline_base);
	tcase_add_test(tc, machine_load_irq_cycles);
	tcase_add_test(tc, machine_load_errors);
	tcase_add_test(tc, machine_load_latency_over_a_second);
	tcase_add_test(tc, machine_load_not_a_mapping);
	tc = tcase(s, "machine_release");
	tcase_add_test(tc, machine_release_null);
	tc = tcase(s, "machine_cpu_socket");
	tcase_add_test(tc, machine_cpu_socket_numbering);
	tcase_add_test(tc, machine_socket_node_shared);
	return s;
}

int main(void)
{
	return tu_run(machine_suite());
}
