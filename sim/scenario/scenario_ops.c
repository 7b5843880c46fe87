/* scenario_ops.c - actors, their operations, CPU lists and traces; see scenario.h. */
#include <glib.h>
#include <string.h>

#include "c2csim_config.h"
#include "core/infile.h"
#include "layout/layout_lib.h"
#include "scenario/scenario_int.h"

#define MAX_OPS 4096

const char *const op_kind_names[OP_KIND_COUNT + 1] = {"load", "store", "rmw", "locked_rmw",
						      "delay", "call", NULL};

/* ------------------------------------------------------------------ small parsers */

/* cpu_ranges - a CPU list's scalar form, "0-3,8,10-11", into @seen.  Return: false with @err
 * set for a malformed list, a CPU that does not exist or one listed twice. */
static bool cpu_ranges(const struct yt_node *node, const char *what, int nr_cpus, bool *seen,
		       struct c2c_err *err)
{
	g_auto(GStrv) parts = g_strsplit(node->str, ",", -1);
	bool ok = true;

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
	return ok;
}

bool parse_cpu_list(const struct yt_node *node, const char *what, int nr_cpus, int **cpus,
		    uint32_t *nr, struct c2c_err *err)
{
	g_autofree bool *seen = g_new0(bool, nr_cpus);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(int));
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
		ok = cpu_ranges(node, what, nr_cpus, seen, err);
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
uint32_t scn_add_site(struct loader *ld, char *name)
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

/* An actor's `{call: PATH, args: [...]}`: entity names or integers. */
static bool load_call(struct loader *ld, const struct yt_node *n, const char *what,
		      struct op *op)
{
	static const char *const keys[] = {"call", "args", NULL};
	const struct program *pr = ld->v->prog;
	const struct yt_node *k, *args;
	const struct path *p;
	const char *name;
	int idx;

	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "call", what, ld->err)) || !yt_str(k, what, &name, ld->err))
		return false;
	if (!pr || (idx = program_find(pr, name)) < 0) {
		g_autofree const char **names = g_new0(const char *, pr ? pr->nr_paths + 1 : 1);
		const char *close;

		for (uint32_t i = 0; pr && i < pr->nr_paths; i++)
			names[i] = pr->paths[i].name;
		close = err_closest(name, names);
		err_set(ld->err, k->mark, "%s: unknown path '%s' (expected a path of the models "
			"named in paths:%s%s%s)", what, name, close ? "; did you mean '" : "",
			close ? close : "", close ? "'?" : "");
		return false;
	}
	p = &pr->paths[idx];
	args = yt_get(n, "args");
	if ((args && !yt_expect_seq(args, what, ld->err)) ||
	    (args ? args->len : 0) != p->nr_params) {
		if (!ld->err->set)
			err_set(ld->err, n->mark, "%s: %s takes %u arguments (got %zu)", what, name,
				p->nr_params, args ? args->len : 0);
		return false;
	}
	memset(op, 0, sizeof(*op));
	op->kind = OP_CALL;
	op->call = idx;
	op->nr_args = p->nr_params;
	for (uint8_t i = 0; i < op->nr_args; i++) {
		const struct yt_node *a = args->items[i];
		int32_t e = -1;

		if (p->param_kind[i] >= 0) {
			if (a->kind == YT_SCALAR)
				e = scn_entity_find(ld, a->str);
			if (e < 0 || ld->v->ents.kind[e] != p->param_kind[i]) {
				err_set(ld->err, a->mark, "%s: argument %u of %s must be an entity of kind "
					"%s (expected one of the scenario's entities)", what, i + 1, name,
					pr->kinds[p->param_kind[i]].name);
				return false;
			}
			op->args[i] = e;
		} else if (!yt_int(a, what, INT64_MIN, INT64_MAX, &op->args[i], ld->err)) {
			return false;
		}
	}
	op->site = UINT32_MAX;
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
	if (n->kind == YT_MAP && yt_get(n, "call"))
		return load_call(ld, n, what, op);
	if (!yt_expect_map(n, what, keys, ld->err) ||
	    !(k = yt_require(n, "op", what, ld->err)) ||
	    !yt_enum(k, what, op_kind_names, &kind, ld->err))
		return false;
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	if (kind == OP_CALL) {
		err_set(ld->err, k->mark, "%s: a call is written {call: PATH, args: [...]}", what);
		return false;
	}
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
	    !scn_parse_target(ld->v, at, what, &op->size, &op->addr, &op->cpu_stride, ld->err))
		return false;
	op->site = scn_add_site(ld, g_strdup_printf("%s:%u %s %s", actor, i, op_kind_names[kind],
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
/* ------------------------------------------------------------------ traces */

/* A trace line's fields (at most 5: one more than a line may have), each with its column. */
struct tfields {
	int n;
	char *s[5];
	int col[5];
};

/* Split @text in place at blanks.  Return: the number of fields (5 means "too many"). */
static int split_fields(char *text, struct tfields *f)
{
	char *p = text;

	f->n = 0;
	while (*p && f->n < 5) {
		p += strspn(p, " \t\r\v\f");
		if (!*p)
			break;
		f->s[f->n] = p;
		f->col[f->n++] = (int)(p - text) + 1;
		p += strcspn(p, " \t\r\v\f");
		if (*p)
			*p++ = 0;
	}
	return f->n;
}

/* Field @i of a trace line as a scalar node, so the YAML number rules (decimal or 0x-hex,
 * no octal, overflow an error) and their messages apply, with the field's own position. */
static struct yt_node trace_field(const struct tfields *f, int i, const char *file, int lineno)
{
	return (struct yt_node){.kind = YT_SCALAR, .str = f->s[i],
				.mark = {file, lineno, f->col[i]}};
}

/* One trace line "cpu op address size" (or "cpu delay ns") into @op; @cpu gets the CPU. */
static bool trace_line(struct loader *ld, const char *file, int lineno, char *text, int *cpu,
		       struct op *op)
{
	struct tfields f;
	struct yt_node fake;
	struct c2c_mark mark = {file, lineno, 1};
	int kind = -1, n = split_fields(text, &f);
	uint64_t c = 0;
	int64_t size;

	if (n >= 2)
		for (int k = 0; k < OP_KIND_COUNT; k++)
			/* A trace has no paths to call: no `call` (it would run no path). */
			if (k != OP_CALL && !strcmp(f.s[1], op_kind_names[k]))
				kind = k;
	fake = trace_field(&f, 0, file, lineno);
	if (n < 2 || !yt_u64(&fake, "trace", &c, &(struct c2c_err){0}) || kind < 0 ||
	    n != (kind == OP_DELAY ? 3 : 4)) {
		err_set(ld->err, mark, "trace: bad line (expected 'CPU OP ADDRESS SIZE' with OP one "
			"of load, store, rmw, locked_rmw, or 'CPU delay NS')");
		return false;
	}
	if (c >= (uint64_t)ld->v->mc.nr_cpus) {
		err_set(ld->err, mark, "trace: CPU %" G_GUINT64_FORMAT " does not exist (expected "
			"0-%d)", c, ld->v->mc.nr_cpus - 1);
		return false;
	}
	*cpu = (int)c;
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	fake = trace_field(&f, 2, file, lineno);
	if (kind == OP_DELAY) {
		op->site = UINT32_MAX;
		if (!yt_duration(&fake, "trace delay", PS_PER_NS, &op->delay_min, ld->err))
			return false;
		op->delay_max = op->delay_min;
		return true;
	}
	fake = trace_field(&f, 3, file, lineno);
	if (!yt_int(&fake, "trace size", 1, 4096, &size, &(struct c2c_err){0})) {
		err_set(ld->err, fake.mark, "trace: size '%s' (expected 1 to 4096 bytes)", f.s[3]);
		return false;
	}
	op->size = (uint32_t)size;
	fake = trace_field(&f, 2, file, lineno);
	if (!scn_parse_target(ld->v, &fake, "trace", &op->size, &op->addr, &op->cpu_stride, ld->err))
		return false;
	op->site = scn_add_site(ld, g_strdup_printf("trace:%d %s %s", lineno, f.s[1], f.s[2]));
	return true;
}

/* Give the trace's per-CPU accesses to actors "trace-cpuN", in CPU order. */
static void trace_actors(struct loader *ld, GArray **per_cpu, uint64_t loops)
{
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
		a.loops = loops;
		g_array_append_val(ld->actors, a);
	}
}

/* One access more in the trace: within --max-trace-lines?  Else that is the error. */
static bool trace_limit(struct loader *ld, const char *path, int lineno, uint64_t nr)
{
	char msg[256];

	if (nr <= ld->lim->trace_lines)
		return true;
	err_set(ld->err, (struct c2c_mark){path, lineno, 1}, "trace: %s", limits_fail(msg,
		sizeof(msg), ld->lim, LIMIT_OF(trace_lines), "in the trace"));
	ld->err->limit = true;
	return false;
}

static bool load_trace(struct loader *ld, const struct yt_node *n, int *cpu_owner)
{
	static const char *const keys[] = {"file", "loops", NULL};
	g_autofree char *text = NULL, *path = NULL;
	char why[INFILE_WHY_MAX];
	GArray *per_cpu[C2C_MAX_CPUS] = {0};
	struct yt_node *k;
	const char *file;
	int64_t loops = 1;
	uint64_t nr = 0;
	size_t len;
	int i = 0;
	bool ok = true;

	if (!yt_expect_map(n, "trace", keys, ld->err) ||
	    !(k = yt_require(n, "file", "trace", ld->err)) || !yt_str(k, "trace.file", &file, ld->err))
		return false;
	if ((k = yt_get(n, "loops")) && !yt_int(k, "trace.loops", 1, INT64_MAX, &loops, ld->err))
		return false;
	path = g_path_is_absolute(file) ? g_strdup(file) : g_build_filename(ld->dir, file, NULL);
	if (!infile_read(path, INFILE_MAX_TRACE, &text, &len, why)) {
		err_set(ld->err, yt_get(n, "file")->mark, "trace.file: %s: %s (expected a regular "
			"trace file of at most %zu MiB)", path, why, INFILE_MIB(INFILE_MAX_TRACE));
		return false;
	}
	if (!err_text_nul(path, text, len, "trace", ld->err))
		return false;
	/* Lines are cut in place (a split that searched the rest of the text for every line
	 * would be quadratic where strstr() is, as under ASan). */
	for (char *line = text, *next, *hash; line < text + len && ok; line = next, i++) {
		struct op op;
		int cpu;

		next = memchr(line, '\n', (size_t)(text + len - line));
		next = next ? (*next = 0, next + 1) : text + len;
		if ((hash = strchr(line, '#')))
			*hash = 0;
		if (!line[strspn(line, " \t\r\v\f")])
			continue;
		ok = trace_limit(ld, path, i + 1, ++nr) &&
		     trace_line(ld, path, i + 1, line, &cpu, &op);
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
	trace_actors(ld, per_cpu, (uint64_t)loops);
	return ok;
}

bool scn_load_actors(struct loader *ld, const struct yt_node *root)
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
