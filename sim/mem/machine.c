/* machine.c - load a machine model; see machine.h and models/machines/README.md. */
#include "mem/machine.h"

#include <glib.h>
#include <string.h>

#include "yaml/ytree.h"

const char *const pf_buddy_modified_names[PF_BUDDY_COUNT + 1] = {"steal", "drop", NULL};
const char *const pf_store_buddy_names[PF_STORE_COUNT + 1] = {"read", "rfo", NULL};
const char *const pf_rfo_shared_names[PF_RFO_SHARED_COUNT + 1] = {"keep", "invalidate", NULL};
const char *const pf_rfo_install_names[PF_RFO_INSTALL_COUNT + 1] = {"exclusive", "modified",
								    NULL};

static bool get_int(const struct yt_node *map, const char *key, const char *what, int64_t min,
		    int64_t max, int64_t *out, struct c2c_err *err)
{
	char name[128];
	struct yt_node *n = yt_require(map, key, what, err);

	snprintf(name, sizeof(name), "%s.%s", what, key);
	return n && yt_int(n, name, min, max, out, err);
}

static bool get_time(const struct yt_node *map, const char *key, const char *what,
		     uint64_t unit_ps, simtime_t *out, struct c2c_err *err)
{
	char name[128];
	struct yt_node *n = yt_require(map, key, what, err);

	snprintf(name, sizeof(name), "%s.%s", what, key);
	return n && yt_duration(n, name, unit_ps, out, err);
}

/* Convert a cycle count to ps in place.  No latency of a memory system reaches a second;
 * refusing more also keeps every later sum of latencies far from overflowing. */
static bool cycles_to_ps(const struct machine *m, simtime_t *v, const struct yt_node *n,
			 const char *what, struct c2c_err *err)
{
	if (*v > PS_PER_S / m->cycle) {
		err_set(err, n->mark, "%s: %" G_GUINT64_FORMAT " cycles is over a second "
			"(expected a latency below 1 s)", what, *v);
		return false;
	}
	*v *= m->cycle;
	return true;
}

static bool check_ns(simtime_t v, const struct yt_node *n, const char *what,
		     struct c2c_err *err)
{
	if (v > PS_PER_S) {
		err_set(err, n->mark, "%s: %" G_GUINT64_FORMAT " ps is over a second (expected a "
			"latency below 1 s)", what, v);
		return false;
	}
	return true;
}

static bool load_topology(struct machine *m, const struct yt_node *t, struct c2c_err *err)
{
	static const char *const keys[] = {"sockets", "cores_per_socket", "smt", "numa_nodes",
					   "freq_mhz", NULL};
	int64_t v[5];

	if (!yt_expect_map(t, "topology", keys, err))
		return false;
	for (int i = 0; i < 5; i++)
		if (!get_int(t, keys[i], "topology", 1, i == 4 ? 100000 : C2C_MAX_CPUS, &v[i], err))
			return false;
	m->sockets = (int)v[0];
	m->cores_per_socket = (int)v[1];
	m->smt = (int)v[2];
	m->numa_nodes = (int)v[3];
	m->freq_mhz = (uint32_t)v[4];
	m->nr_cores = m->sockets * m->cores_per_socket;
	m->nr_cpus = m->nr_cores * m->smt;
	if (m->sockets > C2C_MAX_SOCKETS || m->nr_cpus > C2C_MAX_CPUS) {
		err_set(err, t->mark,
			"topology: %d sockets x %d cores x %d SMT = %d CPUs is impossible here "
			"(expected at most %d CPUs and %d sockets)", m->sockets, m->cores_per_socket,
			m->smt, m->nr_cpus, C2C_MAX_CPUS, C2C_MAX_SOCKETS);
		return false;
	}
	if (m->numa_nodes > m->sockets || m->sockets % m->numa_nodes) {
		err_set(err, yt_get(t, "numa_nodes")->mark,
			"topology.numa_nodes: %d nodes cannot be spread over %d sockets "
			"(expected a divisor of the socket count)", m->numa_nodes, m->sockets);
		return false;
	}
	/* One cycle in ps, rounded: cycle figures are converted once, here. */
	m->cycle = (1000000 + m->freq_mhz / 2) / m->freq_mhz;
	return true;
}

static bool load_cache(struct machine *m, const struct yt_node *caches, const char *key,
		       struct cache_geom *g, struct c2c_err *err)
{
	static const char *const keys[] = {"size_kib", "ways", "latency_cycles", NULL};
	char what[64], lat[96];
	int64_t size, ways;
	simtime_t cycles;
	struct yt_node *n = yt_require(caches, key, "caches", err);

	snprintf(what, sizeof(what), "caches.%s", key);
	if (!n || !yt_expect_map(n, what, keys, err) ||
	    !get_int(n, "size_kib", what, 1, 1 << 22, &size, err) ||
	    !get_int(n, "ways", what, 1, 64, &ways, err) ||
	    !get_time(n, "latency_cycles", what, 1, &cycles, err))
		return false;
	g->size_kib = (uint32_t)size;
	g->ways = (uint32_t)ways;
	g->sets = (uint32_t)((uint64_t)size * 1024 / ((uint64_t)ways * m->line_size));
	g->latency = cycles;
	snprintf(lat, sizeof(lat), "caches.%s.latency_cycles", key);
	if (!cycles_to_ps(m, &g->latency, yt_get(n, "latency_cycles"), lat, err))
		return false;
	/* The LLC is a latency tier only (its capacity is not modelled), so only private caches
	 * need a power-of-two set count for their index function. */
	if (strcmp(key, "llc") && (g->sets == 0 || (g->sets & (g->sets - 1)))) {
		err_set(err, n->mark,
			"%s: %u KiB / %u ways / %u-byte lines gives %u sets (expected a power of two)",
			what, g->size_kib, g->ways, m->line_size, g->sets);
		return false;
	}
	return true;
}

static bool load_caches(struct machine *m, const struct yt_node *c, struct c2c_err *err)
{
	static const char *const keys[] = {"line_size", "l1d", "l2", "llc", NULL};
	int64_t line;

	if (!yt_expect_map(c, "caches", keys, err) ||
	    !get_int(c, "line_size", "caches", 64, 64, &line, err))
		return false;
	m->line_size = (uint32_t)line;
	return load_cache(m, c, "l1d", &m->l1d, err) && load_cache(m, c, "l2", &m->l2, err) &&
	       load_cache(m, c, "llc", &m->llc, err);
}

static bool load_latency(struct machine *m, const struct yt_node *l, struct c2c_err *err)
{
	static const char *const keys[] = {
		"clean_local_ns", "clean_remote_ns", "hitm_local_ns", "hitm_remote_owner_home_ns",
		"hitm_remote_reader_home_ns", "dram_local_ns", "dram_remote_ns", "locked_rmw_cycles",
		"inv_local_ns", "inv_remote_ns", "inv_per_sharer_ns", "dir_occupancy_ns",
		"irq_off_cycles", "irq_on_cycles", NULL};
	simtime_t *dst[] = {&m->clean_local, &m->clean_remote, &m->hitm_local,
			    &m->hitm_remote_owner_home, &m->hitm_remote_reader_home, &m->dram_local,
			    &m->dram_remote, &m->locked_rmw, &m->inv_local, &m->inv_remote,
			    &m->inv_per_sharer, &m->dir_occupancy};
	simtime_t *irq[] = {&m->irq_off, &m->irq_on};

	if (!yt_expect_map(l, "latency", keys, err))
		return false;
	/* The keys with a destination in dst[] are required; the irq ones after them are not. */
	for (size_t i = 0; i < G_N_ELEMENTS(dst); i++) {
		bool cycles = g_str_has_suffix(keys[i], "_cycles");

		if (!get_time(l, keys[i], "latency", cycles ? 1 : 1000, dst[i], err))
			return false;
		char name[64];

		snprintf(name, sizeof(name), "latency.%s", keys[i]);
		if (cycles ? !cycles_to_ps(m, dst[i], yt_get(l, keys[i]), name, err)
			   : !check_ns(*dst[i], yt_get(l, keys[i]), name, err))
			return false;
	}
	/* Optional: what an irq_off / irq_on of a path model costs.  The 2-cycle default is
	 * what every path was charged before the key existed; whole cycles, as the other
	 * cycle figures.  Masking interrupts is a few core cycles, never a memory latency, so
	 * 1000 is a generous bound. */
	for (size_t i = 0; i < G_N_ELEMENTS(irq); i++) {
		const char *key = keys[G_N_ELEMENTS(dst) + i];
		struct yt_node *n = yt_get(l, key);
		int64_t v = 2;
		char name[64];

		snprintf(name, sizeof(name), "latency.%s", key);
		if (n && !yt_int(n, name, 0, 1000, &v, err))
			return false;
		*irq[i] = (simtime_t)v * m->cycle;
	}
	return true;
}

/* An optional enum key of prefetch: (absent: *v keeps its default). */
static bool opt_enum(const struct yt_node *p, const char *key, const char *const *names, int *v,
		     struct c2c_err *err)
{
	char name[64];
	struct yt_node *n = yt_get(p, key);

	snprintf(name, sizeof(name), "prefetch.%s", key);
	return !n || yt_enum(n, name, names, v, err);
}

/* The optional rule parameters (protocol.h, the guards): absent, each keeps the rule the
 * table had before it existed, so a machine file that names none behaves as it always did. */
static bool load_prefetch_rules(struct machine *m, const struct yt_node *p, struct c2c_err *err)
{
	struct yt_node *n = yt_get(p, "upgrade_prefetch");
	int rfo_mod = (int)m->pf.buddy_modified, shared = 0, install = 0;

	if (n && !yt_bool(n, "prefetch.upgrade_prefetch", &m->pf.upgrade_prefetch, err))
		return false;
	if (!opt_enum(p, "rfo_buddy_modified", pf_buddy_modified_names, &rfo_mod, err) ||
	    !opt_enum(p, "rfo_buddy_shared", pf_rfo_shared_names, &shared, err) ||
	    !opt_enum(p, "rfo_install", pf_rfo_install_names, &install, err))
		return false;
	m->pf.rfo_buddy_modified = (enum pf_buddy_modified)rfo_mod;
	m->pf.rfo_buddy_shared = (enum pf_rfo_shared)shared;
	m->pf.rfo_install = (enum pf_rfo_install)install;
	return true;
}

static bool load_prefetch(struct machine *m, const struct yt_node *p, struct c2c_err *err)
{
	static const char *const keys[] = {"adjacent_line", "buddy_modified", "store_buddy",
					   "pair_granule", "upgrade_prefetch", "rfo_buddy_modified",
					   "rfo_buddy_shared", "rfo_install", NULL};
	struct yt_node *n;
	int v;

	if (!yt_expect_map(p, "prefetch", keys, err))
		return false;
	if (!(n = yt_require(p, "adjacent_line", "prefetch", err)) ||
	    !yt_bool(n, "prefetch.adjacent_line", &m->pf.adjacent_line, err))
		return false;
	if (!(n = yt_require(p, "buddy_modified", "prefetch", err)) ||
	    !yt_enum(n, "prefetch.buddy_modified", pf_buddy_modified_names, &v, err))
		return false;
	m->pf.buddy_modified = (enum pf_buddy_modified)v;
	if (!(n = yt_require(p, "store_buddy", "prefetch", err)) ||
	    !yt_enum(n, "prefetch.store_buddy", pf_store_buddy_names, &v, err))
		return false;
	m->pf.store_buddy = (enum pf_store_buddy)v;
	return (n = yt_require(p, "pair_granule", "prefetch", err)) &&
	       yt_bool(n, "prefetch.pair_granule", &m->pf.pair_granule, err) &&
	       load_prefetch_rules(m, p, err);
}

bool machine_load(struct machine *m, const struct yt_node *node, struct c2c_err *err)
{
	static const char *const keys[] = {"name", "description", "topology", "caches",
					   "latency", "store_buffer", "prefetch", "mlp", "smt_compute_pct",
					   NULL};
	static const char *const sb_keys[] = {"entries", NULL};
	const char *name;
	struct yt_node *n, *sb;
	int64_t entries;

	memset(m, 0, sizeof(*m));
	if (!yt_expect_map(node, "machine", keys, err) ||
	    !(n = yt_require(node, "name", "machine", err)) || !yt_str(n, "machine.name", &name, err))
		return false;
	m->name = g_strdup(name);
	if ((n = yt_get(node, "description")) && !yt_str(n, "machine.description", &name, err))
		return false;
	if (!(n = yt_require(node, "topology", "machine", err)) || !load_topology(m, n, err) ||
	    !(n = yt_require(node, "caches", "machine", err)) || !load_caches(m, n, err) ||
	    !(n = yt_require(node, "latency", "machine", err)) || !load_latency(m, n, err) ||
	    !(n = yt_require(node, "prefetch", "machine", err)) || !load_prefetch(m, n, err))
		return false;
	if (!(sb = yt_require(node, "store_buffer", "machine", err)) ||
	    !yt_expect_map(sb, "store_buffer", sb_keys, err) ||
	    !get_int(sb, "entries", "store_buffer", 1, 4096, &entries, err))
		return false;
	m->store_buffer = (uint32_t)entries;
	/* Optional: memory-level parallelism of path models (interp.h); 1 keeps loads blocking. */
	m->mlp = 1;
	if ((n = yt_get(node, "mlp"))) {
		int64_t v;

		if (!yt_int(n, "machine.mlp", 1, MACHINE_MAX_MLP, &v, err))
			return false;
		m->mlp = (uint32_t)v;
	}
	/* Optional: SMT siblings share the core's execution units, so compute (delays) of a
	 * thread whose sibling also runs takes longer; 100 keeps them independent. */
	m->smt_compute_pct = 100;
	if ((n = yt_get(node, "smt_compute_pct"))) {
		int64_t v;

		if (!yt_int(n, "machine.smt_compute_pct", 100, 400, &v, err))
			return false;
		m->smt_compute_pct = (uint32_t)v;
	}
	return true;
}

void machine_release(struct machine *m)
{
	if (!m)
		return;
	g_free(m->name);
	m->name = NULL;
}
