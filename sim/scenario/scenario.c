/* scenario.c - load scenario files into runnable variants; see scenario.h for the format. */
#include "scenario/scenario.h"

#include <glib.h>
#include <string.h>

#include "c2csim_config.h"
#include "core/fname.h"
#include "layout/layout_lib.h"
#include "scenario/scenario_int.h"

const char *const report_group_names[GROUP_COUNT + 1] = {"line", "pair", NULL};
const char *const report_sort_names[SORT_COUNT + 1] = {"tot", "lcl", "rmt", NULL};

/* A path-model file or directory named in `paths:`: relative to the scenario, else to the
 * source tree (so scenarios under scenarios/ can say models/paths/6.18). */
static char *model_path(const char *dir, const char *p)
{
	char *here = g_path_is_absolute(p) ? g_strdup(p) : g_build_filename(dir, p, NULL);

	if (g_file_test(here, G_FILE_TEST_EXISTS) || g_path_is_absolute(p))
		return here;
	g_free(here);
	return g_build_filename(C2CSIM_SRCDIR, p, NULL);
}

/* `paths`, `constants` and `lock_kind`, then the entities the paths act on. */
static bool load_program(struct loader *ld, const struct yt_node *root)
{
	const struct yt_node *seq = yt_get(root, "paths"), *k;
	GPtrArray *files;
	int lk = LOCK_QUEUED;
	bool ok = true;

	if (!seq) {
		if ((k = yt_get(root, "entities")) || (k = yt_get(root, "constants")) ||
		    (k = yt_get(root, "init")))
			err_set(ld->err, k->mark, "%s without paths (expected paths: [DIR...] of path "
				"models)", k == yt_get(root, "entities") ? "entities"
				: k == yt_get(root, "init") ? "init" : "constants");
		return !ld->err->set;
	}
	if (!yt_expect_seq(seq, "paths", ld->err) ||
	    ((k = yt_get(root, "lock_kind")) &&
	     !yt_enum(k, "lock_kind", lock_kind_names, &lk, ld->err)))
		return false;
	ld->v->lock_kind = (enum lock_kind)lk;
	files = g_ptr_array_new_with_free_func(g_free);
	for (size_t i = 0; ok && i < seq->len; i++) {
		const char *f;

		if ((ok = yt_str(seq->items[i], "paths[]", &f, ld->err))) {
			char *path = model_path(ld->dir, f);

			if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
				err_set(ld->err, seq->items[i]->mark, "paths[%zu]: no file or directory "
					"'%s' (expected path models)", i, f);
				ok = false;
			}
			g_ptr_array_add(files, path);
		}
	}
	g_ptr_array_add(files, NULL);
	if (ok)
		ld->v->prog = program_load((const char *const *)files->pdata, ld->v->lib,
					   yt_get(root, "constants"), ld->sites->len, ld->err);
	g_ptr_array_free(files, TRUE);
	if (!ld->v->prog)
		return false;
	for (uint32_t i = 0; i < ld->v->prog->nr_sites; i++)
		g_ptr_array_add(ld->sites, g_strdup(ld->v->prog->site_names[i]));
	return scn_load_entities(ld, root);
}

/* ------------------------------------------------------------------ top level */

static bool load_end(struct variant *v, const struct yt_node *n, struct c2c_err *err)
{
	static const char *const keys[] = {"time_us", "time_ns", "iterations", "warmup_us", NULL};
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
	if ((k = yt_get(n, "warmup_us"))) {
		if (!yt_duration(k, "end.warmup_us", PS_PER_US, &v->warmup, err))
			return false;
		if (v->end_time && v->warmup >= v->end_time) {
			err_set(err, k->mark, "end.warmup_us: not before the end time (expected a "
				"warm-up shorter than the run)");
			return false;
		}
	}
	return true;
}

static bool load_report(struct variant *v, const struct yt_node *n, struct c2c_err *err)
{
	/* baseline and tolerance_pct are read by the verdicts (report/verdict.h). */
	static const char *const keys[] = {"group", "sort", "lines", "callers", "baseline",
					   "tolerance_pct", NULL};
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
	if ((k = yt_get(n, "callers")) && !yt_bool(k, "report.callers", &v->report.callers, err))
		return false;
	return true;
}

static bool load_variant(struct variant *v, const char *dir, const struct c2c_limits *lim,
			 struct c2c_err *err)
{
	static const char *const keys[] = {"name", "description", "machine", "seed", "end",
					   "layouts", "regions", "objects", "paths", "constants",
					   "lock_kind", "entities", "init", "actors", "trace",
					   "report", "variants", "headline", "expect",
					   "layout_edits", NULL};
	struct loader ld = {.v = v, .dir = dir, .lim = lim, .err = err};
	struct yt_node *root = v->tree, *k;
	bool ok;

	v->report = (struct report_opts){.group = GROUP_LINE, .sort = SORT_TOT, .lines = 10};
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
	ok = scn_load_objects(&ld, root) && load_program(&ld, root) && scn_load_actors(&ld, root);
	scn_loader_release(&ld);
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

/* Overrides of `machine` and `name` apply to the file's tree before anything is read from it
 * (@early), the others to each variant's copy: the scenario's name picks the results
 * directory, so `--set name=X` must reach it. */
static bool apply_overrides(struct yt_node *root, const struct override *ov, uint32_t nr,
			    bool early, struct c2c_err *err)
{
	for (uint32_t i = 0; i < nr; i++) {
		bool is_early = !strcmp(ov[i].key, "machine") || !strcmp(ov[i].key, "name");

		if (is_early == early &&
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

/* Why @s cannot name a variant (it names params/NAME.yaml), or NULL. */
static const char *variant_name_why(const char *s)
{
	const char *why = fname_why(s);

	for (; !why && *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("_.-", *s))
			why = "holds a character other than a letter, digit, '_', '.' or '-'";
	return why;
}

/* The scenario's default name: the file name without directory and .yaml. */
static char *base_name(const char *path)
{
	char *b = g_path_get_basename(path), *dot = strrchr(b, '.');

	if (dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml")))
		*dot = 0;
	return b;
}

/* The scenario's name, from `name:` or the file name; it names the results directory. */
static bool scenario_name(struct scenario *sc, const struct yt_node *root, const char *path,
			  struct c2c_err *err)
{
	const struct yt_node *k = yt_get(root, "name");
	const char *name, *why;

	if (k && !yt_str(k, "name", &name, err))
		return false;
	sc->name = k ? g_strdup(name) : base_name(path);
	if (!(why = fname_why(sc->name)))
		return true;
	if (k)
		err_set(err, k->mark, "name: not a plain file name: it %s (expected %s)", why,
			FNAME_EXPECTED);
	else
		err_set(err, (struct c2c_mark){path, 1, 1}, "the scenario file's name is not a "
			"plain file name: it %s (expected a name: key, or a file named as %s)", why,
			FNAME_EXPECTED);
	return false;
}

/* Build variant @v from the base tree: copy, the variant's own set, then --set and --seed. */
static bool make_variant(struct scenario *sc, struct variant *v, const struct yt_node *base,
			 const struct yt_node *vnode, uint32_t i, const struct override *ov,
			 uint32_t nr_ov, bool seed_set, uint64_t seed, const char *dir,
			 struct c2c_err *err)
{
	static const char *const keys[] = {"name", "description", "set", NULL};
	char what[64];
	const char *name = "default", *why;
	struct yt_node *k;

	v->tree = yt_copy(base);
	snprintf(what, sizeof(what), "variants[%u]", i);
	if (vnode) {
		if (!yt_expect_map(vnode, what, keys, err) ||
		    !(k = yt_require(vnode, "name", what, err)) || !yt_str(k, what, &name, err))
			return false;
		if ((why = variant_name_why(name))) {
			err_set(err, k->mark, "%s: bad variant name: it %s (expected 1 to %d "
				"letters, digits, '_', '.' or '-', not starting with '.')", what, why,
				FNAME_MAX);
			return false;
		}
		for (uint32_t j = 0; j + 1 < sc->nr_variants; j++) /* those made before */
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
	return load_variant(v, dir, &sc->limits, err);
}

/* Is variant @vnode's name in @only (NULL: every variant is)? */
static bool selected(const struct yt_node *vnode, const char *const *only)
{
	const struct yt_node *n = vnode->kind == YT_MAP ? yt_get(vnode, "name") : NULL;

	for (; only && *only; only++)
		if (n && n->kind == YT_SCALAR && !strcmp(n->str, *only))
			return true;
	return !only || !n; /* a variant without a name is reported by make_variant */
}

/* Every name in @only names a variant. */
static bool check_selection(const struct scenario *sc, const struct yt_node *vars,
			    const char *const *only, struct c2c_err *err)
{
	for (; only && *only; only++) {
		bool found = false;

		for (uint32_t i = 0; i < sc->nr_variants && !found; i++)
			found = !strcmp(sc->v[i].name, *only);
		if (!found) {
			g_autoptr(GString) names = g_string_new(NULL);

			for (size_t i = 0; vars && i < vars->len; i++) {
				const struct yt_node *n = yt_get(vars->items[i], "name");

				g_string_append_printf(names, "%s%s", i ? ", " : "", n ? n->str : "?");
			}
			err_setf(err, "%s:1:1: no variant '%s' (expected one of: %s)", sc->path, *only,
				 vars ? names->str : "default");
			return false;
		}
	}
	return true;
}

struct scenario *scenario_load(const char *path, const struct override *ov, uint32_t nr_ov,
			       bool seed_set, uint64_t seed, struct c2c_err *err)
{
	return scenario_load_only(path, ov, nr_ov, seed_set, seed, NULL, NULL, err);
}

struct scenario *scenario_load_only(const char *path, const struct override *ov, uint32_t nr_ov,
				    bool seed_set, uint64_t seed, const char *const *only,
				    const struct c2c_limits *lim, struct c2c_err *err)
{
	struct scenario *sc = g_new0(struct scenario, 1);
	g_autofree char *dir = g_path_get_dirname(path);
	struct yt_node *root = yt_load_file(path, err), *vars;
	bool ok = root != NULL;

	sc->path = g_strdup(path);
	if (lim)
		sc->limits = *lim;
	else
		limits_default(&sc->limits);
	if (ok && root->kind != YT_MAP) {
		err_set(err, root->mark, "scenario: expected a mapping at the top");
		ok = false;
	}
	ok = ok && apply_overrides(root, ov, nr_ov, true, err) && graft_machine(root, dir, err);
	ok = ok && scenario_name(sc, root, path, err);
	vars = ok ? yt_get(root, "variants") : NULL;
	if (vars && (!yt_expect_seq(vars, "variants", err) || !vars->len)) {
		if (!err->set)
			err_set(err, vars->mark, "variants: empty list (expected at least one variant)");
		ok = false;
	}
	sc->has_variants = vars != NULL;
	sc->v = g_new0(struct variant, vars ? vars->len : 1);
	for (uint32_t i = 0; ok && i < (vars ? vars->len : 1); i++) {
		if (vars && !selected(vars->items[i], only))
			continue;
		/* Counted before it is made: scenario_free releases a half-made variant too. */
		sc->nr_variants++;
		ok = make_variant(sc, &sc->v[sc->nr_variants - 1], root, vars ? vars->items[i] : NULL,
				  i, ov, nr_ov, seed_set, seed, dir, err);
	}
	ok = ok && check_selection(sc, vars, only, err);
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
	program_free(v->prog);
	entities_free(&v->ents);
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

