/* scenario.c - load scenario files into runnable variants; see scenario.h for the format. */
#include "scenario.h"

#include <glib.h>
#include <string.h>

#include "c2csim_config.h"
#include "layout_lib.h"

const char *const op_kind_names[OP_KIND_COUNT + 1] = {"load", "store", "rmw", "locked_rmw",
						      "delay", NULL};
const char *const report_group_names[GROUP_COUNT + 1] = {"line", "pair", NULL};
const char *const report_sort_names[SORT_COUNT + 1] = {"tot", "lcl", "rmt", NULL};

/* Where regions without an explicit address start: far from page zero, line aligned. */
#define REGION_BASE 0x10000000ull
#define MAX_OPS 4096

/* ------------------------------------------------------------------ small parsers */

bool parse_cpu_list(const struct yt_node *node, const char *what, int nr_cpus, int **cpus,
		    uint32_t *nr, struct c2c_err *err)
{
	g_autofree bool *seen = g_new0(bool, nr_cpus);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(int));
	g_auto(GStrv) parts = NULL;
	bool ok = true;

	if (node->kind == YT_SEQ) {
		for (size_t i = 0; i < node->len && ok; i++) {
			int64_t c;

			ok = yt_int(node->items[i], what, 0, nr_cpus - 1, &c, err);
			if (ok && seen[c]) {
				err_set(err, node->items[i]->mark, "%s: CPU %d listed twice "
					"(expected each CPU once)", what, (int)c);
				ok = false;
			}
			if (ok)
				seen[c] = true;
		}
	} else if (node->kind == YT_SCALAR) {
		parts = g_strsplit(node->str, ",", -1);
		for (char **p = parts; *p && ok; p++) {
			char *dash, *end1, *end2;
			long lo, hi;

			g_strstrip(*p);
			dash = strchr(*p, '-');
			lo = strtol(*p, &end1, 10);
			hi = dash ? strtol(dash + 1, &end2, 10) : lo;
			if (end1 == *p || (dash ? (end1 != dash || *end2 || end2 == dash + 1)
					       : *end1) || lo > hi) {
				err_set(err, node->mark, "%s: '%s' is not a CPU list "
					"(expected e.g. 0-3,8,10-11)", what, node->str);
				ok = false;
				break;
			}
			if (lo < 0 || hi >= nr_cpus) {
				err_set(err, node->mark, "%s: CPU %ld does not exist "
					"(expected CPUs 0-%d on this machine)", what,
					lo < 0 ? lo : hi, nr_cpus - 1);
				ok = false;
				break;
			}
			for (long c = lo; c <= hi && ok; c++) {
				if (seen[c]) {
					err_set(err, node->mark, "%s: CPU %ld listed twice "
						"(expected each CPU once)", what, c);
					ok = false;
				}
				seen[c] = true;
			}
		}
	} else {
		err_set(err, node->mark, "%s: expected a CPU list (got a mapping)", what);
		ok = false;
	}
	for (int c = 0; ok && c < nr_cpus; c++)
		if (seen[c])
			g_array_append_val(out, c);
	*nr = out->len;
	*cpus = (int *)g_array_free(out, FALSE);
	if (ok && !*nr) {
		err_set(err, node->mark, "%s: empty CPU list (expected at least one CPU)", what);
		ok = false;
	}
	if (!ok) {
		g_free(*cpus);
		*cpus = NULL;
	}
	return ok;
}

/* The object named @name: exact ("pn", "pn[1]", "counter"), or a per-cpu object by its bare
 * name, resolved through the CPU 0 instance (*stride tells the distance between CPUs). */
static const struct obj *find_object(const struct variant *v, const char *name,
				     uint64_t *stride)
{
	size_t nl = strlen(name);

	*stride = 0;
	for (uint32_t i = 0; i < v->objs.nr; i++) {
		const struct obj *o = &v->objs.v[i];

		if (!strcmp(o->name, name) && !o->per_cpu)
			return o;
		if (o->per_cpu && !strncmp(o->name, name, nl) &&
		    (!strcmp(o->name + nl, "[0]") || !strcmp(o->name, name))) {
			*stride = strcmp(o->name, name) ? PERCPU_UNIT : 0;
			return o;
		}
	}
	return NULL;
}

static void err_unknown_object(const struct variant *v, const struct yt_node *n,
			       const char *what, const char *name, struct c2c_err *err)
{
	g_autofree const char **names = g_new0(const char *, v->objs.nr + 1);
	const char *close;

	for (uint32_t i = 0; i < v->objs.nr; i++)
		names[i] = v->objs.v[i].name;
	close = err_closest(name, names);
	err_set(err, n->mark, "%s: unknown object '%s' (expected a region or object name, or an "
		"address%s%s%s)", what, name, close ? "; did you mean '" : "", close ? close : "",
		close ? "'?" : "");
}

/*
 * parse_target - "counter", "counter+8", "pn.lruvec.lru_lock", "pn[1].memcg", "stats.state[3]"
 * (this CPU's per-cpu instance), "stats[5].state[3]" (CPU 5's), or a raw address.  *size in:
 * the op's size or 0; out: that, or the member's size (8 for a bare object).
 */
static bool parse_target(const struct variant *v, const struct yt_node *n, const char *what,
			 uint32_t *size, uint64_t *addr, uint64_t *stride, struct c2c_err *err)
{
	g_autofree char *name = NULL;
	const struct obj *o;
	const char *rest;
	uint64_t off = 0, msize = 8;
	char *end;

	*stride = 0;
	if (n->kind != YT_SCALAR) {
		err_set(err, n->mark, "%s: expected a target such as counter+8, pn.memcg or 0x1000",
			what);
		return false;
	}
	if (g_ascii_isdigit(n->str[0])) {
		if (!*size)
			*size = 8;
		return yt_u64(n, what, addr, err);
	}
	rest = n->str + strcspn(n->str, ".+");
	name = g_strndup(n->str, (size_t)(rest - n->str));
	if (!(o = find_object(v, name, stride))) {
		err_unknown_object(v, n, what, name, err);
		return false;
	}
	if (*rest == '.') {
		struct lref r;

		if (!o->layout) {
			err_set(err, n->mark, "%s: %s has no layout (expected NAME+OFFSET for a plain "
				"region)", what, name);
			return false;
		}
		if (!layout_find(v->lib, o->layout, rest + 1, &r, n->mark, err))
			return false;
		off = r.offset;
		msize = r.size ? r.size : 8;
	} else if (*rest == '+') {
		off = g_ascii_strtoull(rest + 1, &end, 0);
		if (end == rest + 1 || *end) {
			err_set(err, n->mark, "%s: bad offset in '%s' (expected NAME+OFFSET)", what,
				n->str);
			return false;
		}
	}
	if (!*size)
		*size = (uint32_t)(msize < 4096 ? msize : 4096);
	if (off > o->size || *size > o->size - off) {
		err_set(err, n->mark, "%s: %s at offset %" G_GUINT64_FORMAT " size %u is past the end "
			"of %s (expected an offset below %" G_GUINT64_FORMAT ")", what, n->str, off,
			*size, name, o->size);
		return false;
	}
	*addr = o->base + off;
	return true;
}

/* ------------------------------------------------------------------ loader context */

struct loader {
	struct variant *v;
	GPtrArray *sites;
	GArray *actors;
	const char *dir; /* directory of the scenario file, for relative paths */
	uint64_t pcpu_next; /* next free offset in the per-cpu unit */
	GArray *heaps;      /* struct heap: allocation cursors per (node, cache) */
	struct c2c_err *err;
};

static uint32_t add_site(struct loader *ld, char *name)
{
	g_ptr_array_add(ld->sites, name);
	return ld->sites->len - 1;
}

static bool load_delay(struct loader *ld, const struct yt_node *n, const char *what,
		       struct op *op)
{
	struct yt_node *ns = yt_get(n, "ns"), *cyc = yt_get(n, "cycles");
	char name[160];

	snprintf(name, sizeof(name), "%s.%s", what, ns ? "ns" : "cycles");
	if (!!ns == !!cyc) {
		err_set(ld->err, n->mark, "%s: a delay needs one of ns or cycles", what);
		return false;
	}
	if (cyc) {
		if (!yt_duration(cyc, name, ld->v->mc.cycle, &op->delay_min, ld->err))
			return false;
		op->delay_max = op->delay_min;
		return true;
	}
	if (ns->kind == YT_SEQ) {
		if (ns->len != 2) {
			err_set(ld->err, ns->mark, "%s: expected [min, max]", name);
			return false;
		}
		if (!yt_duration(ns->items[0], name, PS_PER_NS, &op->delay_min, ld->err) ||
		    !yt_duration(ns->items[1], name, PS_PER_NS, &op->delay_max, ld->err))
			return false;
		if (op->delay_max < op->delay_min) {
			err_set(ld->err, ns->mark, "%s: max below min (expected [min, max])", name);
			return false;
		}
		return true;
	}
	if (!yt_duration(ns, name, PS_PER_NS, &op->delay_min, ld->err))
		return false;
	op->delay_max = op->delay_min;
	return true;
}

static bool load_op(struct loader *ld, const struct yt_node *n, const char *actor, uint32_t i,
		    struct op *op)
{
	static const char *const keys[] = {"op", "at", "size", "ns", "cycles", NULL};
	char what[128];
	struct yt_node *k, *at;
	int kind;
	int64_t size = 0;

	snprintf(what, sizeof(what), "actors.%s.loop[%u]", actor, i);
	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "op", what, ld->err)) ||
	    !yt_enum(k, what, op_kind_names, &kind, ld->err))
		return false;
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	if (kind == OP_DELAY) {
		if ((at = yt_get(n, "at")) || (at = yt_get(n, "size"))) {
			err_set(ld->err, at->mark, "%s: a delay takes no target or size", what);
			return false;
		}
		op->site = UINT32_MAX;
		return load_delay(ld, n, what, op);
	}
	if ((k = yt_get(n, "ns")) || (k = yt_get(n, "cycles"))) {
		err_set(ld->err, k->mark, "%s: only delays take ns or cycles", what);
		return false;
	}
	if ((k = yt_get(n, "size")) && !yt_int(k, what, 1, 4096, &size, ld->err))
		return false;
	op->size = (uint32_t)size;
	if (!(at = yt_require(n, "at", what, ld->err)) ||
	    !parse_target(ld->v, at, what, &op->size, &op->addr, &op->cpu_stride, ld->err))
		return false;
	op->site = add_site(ld, g_strdup_printf("%s:%u %s %s", actor, i, op_kind_names[kind],
						at->str));
	return true;
}

static bool load_actor(struct loader *ld, const struct yt_node *n, uint32_t i, int *cpu_owner)
{
	static const char *const keys[] = {"name", "cpus", "loop", NULL};
	struct actor a = {0};
	char what[64];
	struct yt_node *k, *loop;
	const char *name;

	snprintf(what, sizeof(what), "actors[%u]", i);
	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "name", what, ld->err)) || !yt_str(k, what, &name, ld->err))
		return false;
	a.name = g_strdup(name);
	g_array_append_val(ld->actors, a); /* owned by the array from here on, freed with it */
	if (!(k = yt_require(n, "cpus", what, ld->err)) ||
	    !parse_cpu_list(k, what, ld->v->mc.nr_cpus, &a.cpus, &a.nr_cpus, ld->err))
		return false;
	g_array_index(ld->actors, struct actor, ld->actors->len - 1) = a;
	for (uint32_t c = 0; c < a.nr_cpus; c++) {
		if (cpu_owner[a.cpus[c]] >= 0) {
			err_set(ld->err, k->mark, "%s: CPU %d already runs actor %s "
				"(expected one actor per CPU)", what, a.cpus[c],
				g_array_index(ld->actors, struct actor, cpu_owner[a.cpus[c]]).name);
			return false;
		}
		cpu_owner[a.cpus[c]] = (int)ld->actors->len - 1;
	}
	if (!(loop = yt_require(n, "loop", what, ld->err)) || !yt_expect_seq(loop, what, ld->err))
		return false;
	if (!loop->len || loop->len > MAX_OPS) {
		err_set(ld->err, loop->mark, "%s.loop: %zu operations (expected 1 to %d)", what,
			loop->len, MAX_OPS);
		return false;
	}
	a.ops = g_new0(struct op, loop->len);
	a.nr_ops = (uint32_t)loop->len;
	g_array_index(ld->actors, struct actor, ld->actors->len - 1) = a;
	for (uint32_t o = 0; o < a.nr_ops; o++)
		if (!load_op(ld, loop->items[o], a.name, o, &a.ops[o]))
			return false;
	return true;
}

/* One instance per CPU, homed on the CPU's node, at the same offset of every CPU's unit. */
static bool add_percpu_region(struct loader *ld, const struct yt_node *n, const char *what,
			      const char *name, uint64_t size, uint64_t align)
{
	const struct machine *mc = &ld->v->mc;
	uint64_t off = (ld->pcpu_next + align - 1) & ~(align - 1);
	struct yt_node *k;

	if ((k = yt_get(n, "address")) || (k = yt_get(n, "node"))) {
		err_set(ld->err, k->mark, "%s: a per-cpu region takes no address or node (its "
			"instances live in each CPU's per-cpu unit on the CPU's node)", what);
		return false;
	}
	if (off + size > PERCPU_UNIT) {
		err_set(ld->err, n->mark, "%s: per-cpu regions need %" G_GUINT64_FORMAT " bytes "
			"(expected at most %llu per CPU)", what, off + size, PERCPU_UNIT);
		return false;
	}
	for (int c = 0; c < mc->nr_cpus; c++) {
		g_autofree char *inst = g_strdup_printf("%s[%d]", name, c);

		uint32_t o = objmap_add(&ld->v->objs, inst, NULL,
					PERCPU_BASE + (uint64_t)c * PERCPU_UNIT + off, size,
					(uint16_t)machine_socket_node(mc, machine_cpu_socket(mc, c)));

		ld->v->objs.v[o].per_cpu = true;
	}
	ld->pcpu_next = off + size;
	return true;
}

static bool load_region(struct loader *ld, const struct yt_node *n, uint32_t i, uint64_t *next)
{
	static const char *const keys[] = {"name", "size", "node", "align", "address", "per_cpu",
					   NULL};
	char what[64];
	struct yt_node *k;
	const char *name;
	int64_t size, node = 0, align = 64;
	uint64_t addr;
	bool per_cpu = false;

	snprintf(what, sizeof(what), "regions[%u]", i);
	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "name", what, ld->err)) || !yt_str(k, what, &name, ld->err) ||
	    !(k = yt_require(n, "size", what, ld->err)) ||
	    !yt_int(k, what, 1, 1ll << 40, &size, ld->err))
		return false;
	if ((k = yt_get(n, "node")) &&
	    !yt_int(k, what, 0, ld->v->mc.numa_nodes - 1, &node, ld->err))
		return false;
	if ((k = yt_get(n, "align")) && (!yt_int(k, what, 1, 1ll << 30, &align, ld->err) ||
					 (align & (align - 1)))) {
		if (!ld->err->set)
			err_set(ld->err, k->mark, "%s: align %" G_GINT64_FORMAT " (expected a power "
				"of two)", what, align);
		return false;
	}
	if ((k = yt_get(n, "per_cpu")) && !yt_bool(k, what, &per_cpu, ld->err))
		return false;
	for (uint32_t o = 0; o < ld->v->objs.nr; o++) {
		if (!strcmp(ld->v->objs.v[o].name, name) ||
		    (g_str_has_prefix(ld->v->objs.v[o].name, name) &&
		     ld->v->objs.v[o].name[strlen(name)] == '[')) {
			err_set(ld->err, n->mark, "%s: region '%s' defined twice", what, name);
			return false;
		}
	}
	if (per_cpu)
		return add_percpu_region(ld, n, what, name, (uint64_t)size, (uint64_t)align);
	addr = (*next + (uint64_t)align - 1) & ~((uint64_t)align - 1);
	if ((k = yt_get(n, "address")) && !yt_u64(k, what, &addr, ld->err))
		return false;
	objmap_add(&ld->v->objs, name, NULL, addr, (uint64_t)size, (uint16_t)node);
	if (addr + (uint64_t)size > *next)
		*next = addr + (uint64_t)size;
	return true;
}

/* ------------------------------------------------------------------ traces */

/* One trace line "cpu op address size" (or "cpu delay ns") into @op; @cpu gets the CPU. */
static bool trace_line(struct loader *ld, const char *file, int lineno, char *text, int *cpu,
		       struct op *op)
{
	g_auto(GStrv) f = g_strsplit_set(g_strstrip(text), " \t", -1);
	struct c2c_mark mark = {file, lineno, 1};
	struct yt_node fake = {.kind = YT_SCALAR, .mark = mark};
	char *end;
	int kind = -1, n = 0;
	long c;

	for (char **p = f; *p; p++)
		if (**p)
			f[n++] = *p;
	f[n] = NULL;
	if (n >= 2)
		for (int k = 0; k < OP_KIND_COUNT; k++)
			if (!strcmp(f[1], op_kind_names[k]))
				kind = k;
	c = n ? strtol(f[0], &end, 0) : -1;
	if (n < 2 || *end || kind < 0 || n != (kind == OP_DELAY ? 3 : 4)) {
		err_set(ld->err, mark, "trace: bad line (expected 'CPU OP ADDRESS SIZE' with OP one "
			"of load, store, rmw, locked_rmw, or 'CPU delay NS')");
		return false;
	}
	if (c < 0 || c >= ld->v->mc.nr_cpus) {
		err_set(ld->err, mark, "trace: CPU %ld does not exist (expected 0-%d)", c,
			ld->v->mc.nr_cpus - 1);
		return false;
	}
	*cpu = (int)c;
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	fake.str = f[2];
	if (kind == OP_DELAY) {
		op->site = UINT32_MAX;
		if (!yt_duration(&fake, "trace delay", PS_PER_NS, &op->delay_min, ld->err))
			return false;
		op->delay_max = op->delay_min;
		return true;
	}
	op->size = (uint32_t)strtoul(f[3], &end, 0);
	if (*end || !op->size || op->size > 4096) {
		err_set(ld->err, mark, "trace: size '%s' (expected 1 to 4096 bytes)", f[3]);
		return false;
	}
	if (!parse_target(ld->v, &fake, "trace", &op->size, &op->addr, &op->cpu_stride, ld->err))
		return false;
	op->site = add_site(ld, g_strdup_printf("trace:%d %s %s", lineno, f[1], f[2]));
	return true;
}

static bool load_trace(struct loader *ld, const struct yt_node *n, int *cpu_owner)
{
	static const char *const keys[] = {"file", "loops", NULL};
	g_autofree char *text = NULL, *path = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GError) gerr = NULL;
	GArray *per_cpu[C2C_MAX_CPUS] = {0};
	struct yt_node *k;
	const char *file;
	int64_t loops = 1;
	bool ok = true;

	if (!yt_expect_map(n, "trace", keys, ld->err) ||
	    !(k = yt_require(n, "file", "trace", ld->err)) || !yt_str(k, "trace.file", &file, ld->err))
		return false;
	if ((k = yt_get(n, "loops")) && !yt_int(k, "trace.loops", 1, INT64_MAX, &loops, ld->err))
		return false;
	path = g_path_is_absolute(file) ? g_strdup(file) : g_build_filename(ld->dir, file, NULL);
	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		err_set(ld->err, yt_get(n, "file")->mark, "trace.file: cannot read %s: %s "
			"(expected a readable trace file)", path, gerr->message);
		return false;
	}
	lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i] && ok; i++) {
		struct op op;
		int cpu;
		char *hash = strchr(lines[i], '#');

		if (hash)
			*hash = 0;
		if (!*g_strstrip(lines[i]))
			continue;
		ok = trace_line(ld, path, i + 1, lines[i], &cpu, &op);
		if (ok && cpu_owner[cpu] >= 0 && !per_cpu[cpu]) {
			err_set(ld->err, (struct c2c_mark){path, i + 1, 1}, "trace: CPU %d already "
				"runs an actor (expected one actor per CPU)", cpu);
			ok = false;
		}
		if (!ok)
			break;
		if (!per_cpu[cpu])
			per_cpu[cpu] = g_array_new(FALSE, FALSE, sizeof(struct op));
		g_array_append_val(per_cpu[cpu], op);
		cpu_owner[cpu] = INT32_MAX; /* taken by the trace */
	}
	for (int c = 0; c < C2C_MAX_CPUS; c++) {
		struct actor a = {0};

		if (!per_cpu[c])
			continue;
		a.name = g_strdup_printf("trace-cpu%d", c);
		a.cpus = g_new(int, 1);
		a.cpus[0] = c;
		a.nr_cpus = 1;
		a.nr_ops = per_cpu[c]->len;
		a.ops = (struct op *)g_array_free(per_cpu[c], FALSE);
		a.loops = (uint64_t)loops;
		g_array_append_val(ld->actors, a);
	}
	return ok;
}

/* ------------------------------------------------------------------ top level */

static bool load_end(struct variant *v, const struct yt_node *n, struct c2c_err *err)
{
	static const char *const keys[] = {"time_us", "time_ns", "iterations", NULL};
	struct yt_node *k;
	int64_t it;

	if (!yt_expect_map(n, "end", keys, err))
		return false;
	if ((k = yt_get(n, "time_us")) && !yt_duration(k, "end.time_us", PS_PER_US, &v->end_time, err))
		return false;
	if ((k = yt_get(n, "time_ns")) && !yt_duration(k, "end.time_ns", PS_PER_NS, &v->end_time, err))
		return false;
	if ((k = yt_get(n, "iterations"))) {
		if (!yt_int(k, "end.iterations", 1, INT64_MAX, &it, err))
			return false;
		v->end_iterations = (uint64_t)it;
	}
	if (!v->end_time && !v->end_iterations) {
		err_set(err, n->mark, "end: no end condition (expected time_us, time_ns or "
			"iterations greater than zero)");
		return false;
	}
	return true;
}

static bool load_report(struct variant *v, const struct yt_node *n, struct c2c_err *err)
{
	static const char *const keys[] = {"group", "sort", "lines", NULL};
	struct yt_node *k;
	int e;
	int64_t lines;

	if (!yt_expect_map(n, "report", keys, err))
		return false;
	if ((k = yt_get(n, "group"))) {
		if (!yt_enum(k, "report.group", report_group_names, &e, err))
			return false;
		v->report.group = (enum report_group)e;
	}
	if ((k = yt_get(n, "sort"))) {
		if (!yt_enum(k, "report.sort", report_sort_names, &e, err))
			return false;
		v->report.sort = (enum report_sort)e;
	}
	if ((k = yt_get(n, "lines"))) {
		if (!yt_int(k, "report.lines", 1, 100000, &lines, err))
			return false;
		v->report.lines = (uint32_t)lines;
	}
	return true;
}

/* ------------------------------------------------------------------ objects with layouts */

/* Slab-like heaps: one per (node, cache); every cache starts on its own 2 MiB boundary. */
#define HEAP_BASE 0x1000000000ull
#define HEAP_CHUNK 0x200000ull

struct heap {
	uint16_t node;
	char *cache;           /* "kmalloc-512", "mem_cgroup_per_node" */
	uint64_t next;
};

enum alloc_kind { ALLOC_KMALLOC, ALLOC_KMEM_CACHE, ALLOC_PERCPU, ALLOC_STATIC, ALLOC_COUNT };
static const char *const alloc_names[ALLOC_COUNT + 1] = {"kmalloc", "kmem_cache", "percpu",
							 "static", NULL};

/* kmalloc's size classes: powers of two plus 96 and 192.  Objects of a class sit one class
 * size apart in their slab, so their alignment is the class's lowest set bit. */
static uint64_t kmalloc_class(uint64_t size)
{
	uint64_t c = 8;

	if (size > 64 && size <= 96)
		return 96;
	if (size > 128 && size <= 192)
		return 192;
	while (c < size)
		c <<= 1;
	return c;
}

static uint64_t heap_alloc(struct loader *ld, uint16_t node, const char *cache, uint64_t stride)
{
	struct heap *h = NULL;

	for (guint i = 0; i < ld->heaps->len && !h; i++) {
		struct heap *c = &g_array_index(ld->heaps, struct heap, i);

		if (c->node == node && !strcmp(c->cache, cache))
			h = c;
	}
	if (!h) {
		struct heap nh = {node, g_strdup(cache),
				  HEAP_BASE * (node + 1ull) + ld->heaps->len * HEAP_CHUNK};

		g_array_append_val(ld->heaps, nh);
		h = &g_array_index(ld->heaps, struct heap, ld->heaps->len - 1);
	}
	h->next += stride;
	return h->next - stride;
}

static bool load_layout_dirs(struct loader *ld, const struct yt_node *root)
{
	struct yt_node *seq = yt_get(root, "layouts");

	if (!seq)
		return true;
	if (!yt_expect_seq(seq, "layouts", ld->err))
		return false;
	for (size_t i = 0; i < seq->len; i++) {
		g_autofree char *here = NULL, *src = NULL;
		const char *d;

		if (!yt_str(seq->items[i], "layouts[]", &d, ld->err))
			return false;
		here = g_path_is_absolute(d) ? g_strdup(d) : g_build_filename(ld->dir, d, NULL);
		src = g_build_filename(C2CSIM_SRCDIR, d, NULL);
		if (!g_file_test(here, G_FILE_TEST_IS_DIR) && !g_path_is_absolute(d) &&
		    g_file_test(src, G_FILE_TEST_IS_DIR))
			layout_lib_add_dir(ld->v->lib, src);
		else if (g_file_test(here, G_FILE_TEST_IS_DIR))
			layout_lib_add_dir(ld->v->lib, here);
		else {
			err_set(ld->err, seq->items[i]->mark, "layouts[%zu]: no directory '%s' "
				"(expected a directory of layout files, relative to the scenario or "
				"the repository)", i, d);
			return false;
		}
	}
	return true;
}

/* Where the next instance of @l goes, by its allocation rule (or at @placement). */
static uint64_t place_object(struct loader *ld, const struct layout *l, int alloc,
			     uint16_t node, bool placed, uint64_t placement)
{
	uint64_t stride, base;
	g_autofree char *cache = NULL;

	if (alloc == ALLOC_KMALLOC) {
		stride = kmalloc_class(l->size);
		cache = g_strdup_printf("kmalloc-%" G_GUINT64_FORMAT, stride);
	} else {
		/* SLAB_HWCACHE_ALIGN: objects start on cache lines (or the struct's alignment). */
		uint64_t align = l->align > 64 ? l->align : 64;

		stride = (l->size + align - 1) & ~(align - 1);
		cache = g_strdup(l->name);
	}
	if (!placed)
		return heap_alloc(ld, node, cache, stride ? stride : 64);
	/* An explicit placement: the object starts @placement bytes past a 128-byte boundary,
	 * in a cache of its own so the rest of the slab is not disturbed. */
	cache = (g_free(cache), g_strdup_printf("%s@%" G_GUINT64_FORMAT, l->name, placement));
	base = heap_alloc(ld, node, cache, ((l->size + 127) & ~127ull) + 128);
	return base + placement;
}

static bool load_object(struct loader *ld, const struct yt_node *n, uint32_t i)
{
	static const char *const keys[] = {"name", "layout", "alloc", "node", "placement",
					   "address", "count", NULL};
	const struct machine *mc = &ld->v->mc;
	char what[64];
	struct yt_node *k;
	const char *name, *lname;
	const struct layout *l;
	int alloc = ALLOC_KMALLOC;
	int64_t node = 0, placement = 0, count = 1;
	uint64_t addr = 0;

	snprintf(what, sizeof(what), "objects[%u]", i);
	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "name", what, ld->err)) || !yt_str(k, what, &name, ld->err) ||
	    !(k = yt_require(n, "layout", what, ld->err)) || !yt_str(k, what, &lname, ld->err) ||
	    !(l = layout_lib_get(ld->v->lib, lname, k->mark, ld->err)) ||
	    ((k = yt_get(n, "alloc")) && !yt_enum(k, what, alloc_names, &alloc, ld->err)) ||
	    ((k = yt_get(n, "node")) && !yt_int(k, what, 0, mc->numa_nodes - 1, &node, ld->err)) ||
	    ((k = yt_get(n, "placement")) && !yt_int(k, what, 0, 127, &placement, ld->err)) ||
	    ((k = yt_get(n, "count")) && !yt_int(k, what, 1, 1 << 20, &count, ld->err)) ||
	    ((k = yt_get(n, "address")) && !yt_u64(k, what, &addr, ld->err)))
		return false;
	if ((alloc == ALLOC_STATIC) != (yt_get(n, "address") != NULL)) {
		err_set(ld->err, n->mark, "%s: alloc static goes with address (and only it)", what);
		return false;
	}
	for (int64_t c = 0; c < (alloc == ALLOC_PERCPU ? mc->nr_cpus : count); c++) {
		g_autofree char *inst = alloc == ALLOC_PERCPU || count > 1
						? g_strdup_printf("%s[%" G_GINT64_FORMAT "]", name, c)
						: g_strdup(name);
		uint64_t base = addr + (uint64_t)c * ((l->size + 63) & ~63ull);
		uint16_t home = (uint16_t)node;
		uint32_t o;

		if (alloc == ALLOC_PERCPU) {
			uint64_t al = l->align > 8 ? l->align : 8;

			base = PERCPU_BASE + (uint64_t)c * PERCPU_UNIT +
			       ((ld->pcpu_next + al - 1) & ~(al - 1));
			home = (uint16_t)machine_socket_node(mc, machine_cpu_socket(mc, (int)c));
		} else if (alloc != ALLOC_STATIC) {
			base = place_object(ld, l, alloc, home, yt_get(n, "placement") != NULL,
					    (uint64_t)placement);
		}
		o = objmap_add(&ld->v->objs, inst, l->name, base, l->size ? l->size : 1, home);
		ld->v->objs.v[o].layout = l;
		ld->v->objs.v[o].per_cpu = alloc == ALLOC_PERCPU;
	}
	if (alloc == ALLOC_PERCPU) {
		uint64_t al = l->align > 8 ? l->align : 8;

		ld->pcpu_next = ((ld->pcpu_next + al - 1) & ~(al - 1)) + l->size;
		if (ld->pcpu_next > PERCPU_UNIT) {
			err_set(ld->err, n->mark, "%s: per-cpu objects need %" G_GUINT64_FORMAT
				" bytes (expected at most %llu per CPU)", what, ld->pcpu_next,
				PERCPU_UNIT);
			return false;
		}
	}
	return true;
}

static bool load_objects(struct loader *ld, const struct yt_node *root)
{
	struct yt_node *regions = yt_get(root, "regions"), *objects;
	uint64_t next = REGION_BASE;
	uint32_t bad;

	if (regions) {
		if (!yt_expect_seq(regions, "regions", ld->err))
			return false;
		for (uint32_t i = 0; i < regions->len; i++)
			if (!load_region(ld, regions->items[i], i, &next))
				return false;
	}
	if (!load_layout_dirs(ld, root))
		return false;
	if ((objects = yt_get(root, "objects"))) {
		if (!yt_expect_seq(objects, "objects", ld->err))
			return false;
		for (uint32_t i = 0; i < objects->len; i++)
			if (!load_object(ld, objects->items[i], i))
				return false;
	}
	bad = objmap_seal(&ld->v->objs);
	if (bad != OBJ_NONE) {
		err_set(ld->err, root->mark, "scenario: '%s' overlaps the object before it in memory "
			"(expected disjoint regions and objects)", ld->v->objs.v[bad].name);
		return false;
	}
	return true;
}

static bool load_actors(struct loader *ld, const struct yt_node *root)
{
	struct yt_node *actors = yt_get(root, "actors"), *trace = yt_get(root, "trace");
	g_autofree int *cpu_owner = g_new(int, C2C_MAX_CPUS);

	memset(cpu_owner, 0xff, sizeof(int) * C2C_MAX_CPUS);
	if (!actors && !trace) {
		err_set(ld->err, root->mark, "scenario: nothing to run (expected actors or trace)");
		return false;
	}
	if (actors) {
		if (!yt_expect_seq(actors, "actors", ld->err))
			return false;
		for (uint32_t i = 0; i < actors->len; i++)
			if (!load_actor(ld, actors->items[i], i, cpu_owner))
				return false;
	}
	if (trace && !load_trace(ld, trace, cpu_owner))
		return false;
	if (!ld->actors->len) {
		err_set(ld->err, (actors ? actors : trace)->mark, "scenario: nothing to run "
			"(expected actors or trace)");
		return false;
	}
	return true;
}

/* Read one variant's effective tree into @v. */
static bool load_variant(struct variant *v, const char *dir, struct c2c_err *err)
{
	static const char *const keys[] = {"name", "description", "machine", "seed", "end",
					   "layouts", "regions", "objects", "actors", "trace",
					   "report", "variants", NULL};
	struct loader ld = {.v = v, .dir = dir, .err = err};
	struct yt_node *root = v->tree, *k;
	bool ok;

	v->report = (struct report_opts){GROUP_LINE, SORT_TOT, 10};
	objmap_init(&v->objs);
	v->lib = layout_lib_new();
	v->objs.lib = v->lib;
	if (!yt_expect_map(root, "scenario", keys, err) ||
	    !(k = yt_require(root, "machine", "scenario", err)) || !machine_load(&v->mc, k, err) ||
	    !(k = yt_require(root, "seed", "scenario", err)) || !yt_u64(k, "seed", &v->seed, err) ||
	    !(k = yt_require(root, "end", "scenario", err)) || !load_end(v, k, err) ||
	    ((k = yt_get(root, "report")) && !load_report(v, k, err)) ||
	    ((k = yt_get(root, "description")) && k->kind != YT_SCALAR &&
	     !yt_str(k, "description", &(const char *){NULL}, err)))
		return false;
	ld.sites = g_ptr_array_new();
	ld.actors = g_array_new(FALSE, TRUE, sizeof(struct actor));
	ld.heaps = g_array_new(FALSE, TRUE, sizeof(struct heap));
	ok = load_objects(&ld, root) && load_actors(&ld, root);
	for (guint i = 0; i < ld.heaps->len; i++)
		g_free(g_array_index(ld.heaps, struct heap, i).cache);
	g_array_free(ld.heaps, TRUE);
	v->nr_sites = ld.sites->len;
	v->site_names = (char **)g_ptr_array_free(ld.sites, FALSE);
	v->nr_actors = ld.actors->len;
	v->actors = (struct actor *)g_array_free(ld.actors, FALSE);
	return ok;
}

char *scenario_find_machine(const char *name, const char *from_dir)
{
	g_autofree char *dir = g_canonicalize_filename(from_dir, NULL);
	g_autofree char *file = g_strconcat(name, ".yaml", NULL);
	char *path;

	for (;;) {
		g_autofree char *parent = NULL;

		path = g_build_filename(dir, "models", "machines", file, NULL);
		if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
			return path;
		g_free(path);
		parent = g_path_get_dirname(dir);
		if (!strcmp(parent, dir))
			break;
		g_free(dir);
		dir = g_steal_pointer(&parent);
	}
	path = g_build_filename(C2CSIM_SRCDIR, "models", "machines", file, NULL);
	if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
		return path;
	g_free(path);
	return NULL;
}

/* Replace the `machine: NAME` scalar by the model file's tree. */
static bool graft_machine(struct yt_node *root, const char *dir, struct c2c_err *err)
{
	struct yt_node *n = yt_get(root, "machine"), *mt;
	g_autofree char *path = NULL;

	if (!n || n->kind != YT_SCALAR)
		return true; /* inline mapping, or missing: load_variant reports it */
	if (strchr(n->str, '/') || g_str_has_suffix(n->str, ".yaml"))
		path = g_path_is_absolute(n->str) ? g_strdup(n->str)
						  : g_build_filename(dir, n->str, NULL);
	else
		path = scenario_find_machine(n->str, dir);
	if (!path) {
		err_set(err, n->mark, "machine: unknown machine model '%s' (expected a file in "
			"models/machines/, e.g. skylake-sp-2s, nehalem-ex-24, zen3-epyc-2s)", n->str);
		return false;
	}
	if (!(mt = yt_load_file(path, err)))
		return false;
	yt_replace(n, mt);
	yt_free(mt);
	return true;
}

static bool apply_overrides(struct yt_node *root, const struct override *ov, uint32_t nr,
			    bool machine_only, struct c2c_err *err)
{
	for (uint32_t i = 0; i < nr; i++) {
		bool is_machine = !strcmp(ov[i].key, "machine");

		if (is_machine == machine_only &&
		    !yt_set_path(root, ov[i].key, ov[i].value, "--set", err))
			return false;
	}
	return true;
}

/* A variant's `set:` mapping, applied with the file's own marks. */
static bool apply_variant_set(struct yt_node *root, const struct yt_node *set, const char *what,
			      struct c2c_err *err)
{
	if (!yt_expect_map(set, what, NULL, err))
		return false;
	for (size_t i = 0; i < set->len; i++)
		if (!yt_set_path_node(root, set->pairs[i].key->str, set->pairs[i].val, what, err))
			return false;
	return true;
}

static bool valid_variant_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("_.-", *s))
			return false;
	return true;
}

/* The scenario's default name: the file name without directory and .yaml. */
static char *base_name(const char *path)
{
	char *b = g_path_get_basename(path), *dot = strrchr(b, '.');

	if (dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml")))
		*dot = 0;
	return b;
}

/* Build variant @v from the base tree: copy, the variant's own set, then --set and --seed. */
static bool make_variant(struct scenario *sc, struct variant *v, const struct yt_node *base,
			 const struct yt_node *vnode, uint32_t i, const struct override *ov,
			 uint32_t nr_ov, bool seed_set, uint64_t seed, const char *dir,
			 struct c2c_err *err)
{
	static const char *const keys[] = {"name", "description", "set", NULL};
	char what[64];
	const char *name = "default";
	struct yt_node *k;

	v->tree = yt_copy(base);
	snprintf(what, sizeof(what), "variants[%u]", i);
	if (vnode) {
		if (!yt_expect_map(vnode, what, keys, err) ||
		    !(k = yt_require(vnode, "name", what, err)) || !yt_str(k, what, &name, err))
			return false;
		if (!valid_variant_name(name)) {
			err_set(err, k->mark, "%s: bad variant name '%s' (expected letters, digits, "
				"'_', '.' or '-')", what, name);
			return false;
		}
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(sc->v[j].name, name)) {
				err_set(err, k->mark, "%s: variant '%s' defined twice", what, name);
				return false;
			}
		snprintf(what, sizeof(what), "variants[%u].set", i);
		if ((k = yt_get(vnode, "set")) && !apply_variant_set(v->tree, k, what, err))
			return false;
	}
	v->name = g_strdup(name);
	if (!apply_overrides(v->tree, ov, nr_ov, false, err))
		return false;
	if (seed_set) {
		char text[32];

		snprintf(text, sizeof(text), "%" G_GUINT64_FORMAT, seed);
		if (!yt_set_path(v->tree, "seed", text, "--seed", err))
			return false;
	}
	return load_variant(v, dir, err);
}

struct scenario *scenario_load(const char *path, const struct override *ov, uint32_t nr_ov,
			       bool seed_set, uint64_t seed, struct c2c_err *err)
{
	struct scenario *sc = g_new0(struct scenario, 1);
	g_autofree char *dir = g_path_get_dirname(path);
	struct yt_node *root = yt_load_file(path, err), *vars, *k;
	bool ok = root != NULL;
	const char *name;

	sc->path = g_strdup(path);
	if (ok && root->kind != YT_MAP) {
		err_set(err, root->mark, "scenario: expected a mapping at the top");
		ok = false;
	}
	ok = ok && apply_overrides(root, ov, nr_ov, true, err) && graft_machine(root, dir, err);
	if (ok && (k = yt_get(root, "name")) && yt_str(k, "name", &name, err))
		sc->name = g_strdup(name);
	else if (ok && !err->set)
		sc->name = base_name(path);
	ok = ok && !err->set;
	vars = ok ? yt_get(root, "variants") : NULL;
	if (vars && (!yt_expect_seq(vars, "variants", err) || !vars->len)) {
		if (!err->set)
			err_set(err, vars->mark, "variants: empty list (expected at least one variant)");
		ok = false;
	}
	sc->has_variants = vars != NULL;
	sc->nr_variants = vars ? (uint32_t)vars->len : 1;
	sc->v = g_new0(struct variant, sc->nr_variants);
	for (uint32_t i = 0; ok && i < sc->nr_variants; i++)
		ok = make_variant(sc, &sc->v[i], root, vars ? vars->items[i] : NULL, i, ov, nr_ov,
				  seed_set, seed, dir, err);
	yt_free(root);
	if (!ok) {
		scenario_free(sc);
		return NULL;
	}
	return sc;
}

static void variant_release(struct variant *v)
{
	for (uint32_t a = 0; a < v->nr_actors; a++) {
		g_free(v->actors[a].name);
		g_free(v->actors[a].cpus);
		g_free(v->actors[a].ops);
	}
	g_free(v->actors);
	for (uint32_t s = 0; s < v->nr_sites; s++)
		g_free(v->site_names[s]);
	g_free(v->site_names);
	objmap_release(&v->objs);
	layout_lib_free(v->lib);
	machine_release(&v->mc);
	yt_free(v->tree);
	g_free(v->name);
}

void scenario_free(struct scenario *sc)
{
	if (!sc)
		return;
	for (uint32_t i = 0; i < sc->nr_variants; i++)
		variant_release(&sc->v[i]);
	g_free(sc->v);
	g_free(sc->path);
	g_free(sc->name);
	g_free(sc);
}
