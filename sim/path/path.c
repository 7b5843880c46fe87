/* path.c - compile path model files into programs; see path.h for the language. */
#include "path/path.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "path/path_int.h"

const char *const pop_names[P_OP_COUNT + 1] = {
	"load", "store", "rmw", "atomic", "cmpxchg", "lock", "unlock", "trylock", "irq", "delay",
	"work", "set", "jump", "jump_if_not", "for_init", "for_next", "call", "return", "list",
	"truth", "observe", NULL};

static const char *const builtin_names[EB_COUNT] = {"nr_cpus", "nr_nodes", "cpu", "node"};

/* ------------------------------------------------------------------ names in scope */

int pc_local(struct pcomp *pc, const char *name, int16_t kind, bool create)
{
	for (int i = 0; i < pc->nr_locals; i++)
		if (!strcmp(pc->locals[i], name))
			return i;
	if (!create || pc->nr_locals >= PATH_MAX_LOCALS)
		return -1;
	pc->locals[pc->nr_locals] = g_strdup(name);
	pc->local_kind[pc->nr_locals] = kind;
	return pc->nr_locals++;
}

/* A hidden local for loop state (named so no model can collide with it). */
int pc_hidden(struct pcomp *pc)
{
	g_autofree char *n = g_strdup_printf(" tmp%d", pc->nr_locals);

	return pc_local(pc, n, -1, true);
}

static bool resolve_name(void *data, const char *name, struct expr_ref *out)
{
	struct pcomp *pc = data;
	int l = pc_local(pc, name, -1, false);

	if (l >= 0) {
		*out = (struct expr_ref){EREF_LOCAL, l};
		return true;
	}
	for (uint32_t i = 0; i < pc->prog->nr_consts; i++) {
		if (!strcmp(pc->prog->consts[i], name)) {
			*out = (struct expr_ref){EREF_CONST, pc->prog->const_vals[i]};
			return true;
		}
	}
	for (int i = 0; i < EB_COUNT; i++) {
		if (!strcmp(builtin_names[i], name)) {
			*out = (struct expr_ref){EREF_BUILTIN, i};
			return true;
		}
	}
	return false;
}

/* Every name an expression could use here, for suggestions. */
static const char **scope_names(struct pcomp *pc)
{
	const char **v = g_new0(const char *, pc->nr_locals + pc->prog->nr_consts + EB_COUNT + 1);
	int n = 0;

	for (int i = 0; i < pc->nr_locals; i++)
		if (pc->locals[i][0] != ' ')
			v[n++] = pc->locals[i];
	for (uint32_t i = 0; i < pc->prog->nr_consts; i++)
		v[n++] = pc->prog->consts[i];
	for (int i = 0; i < EB_COUNT; i++)
		v[n++] = builtin_names[i];
	return v;
}

/* pc_expr - compile the scalar @n (an integer or an expression). */
struct expr *pc_expr(struct pcomp *pc, const struct yt_node *n, const char *what)
{
	g_autofree const char **names = NULL;

	if (!n || n->kind != YT_SCALAR) {
		err_set(pc->err, n ? n->mark : pc->mark, "%s: expected an integer expression", what);
		return NULL;
	}
	names = scope_names(pc);
	return expr_compile(n->str, n->mark, resolve_name, pc, names, pc->err);
}

struct expr *pc_expr_text(struct pcomp *pc, const char *text, struct c2c_mark at)
{
	g_autofree const char **names = scope_names(pc);

	return expr_compile(text, at, resolve_name, pc, names, pc->err);
}

/* ------------------------------------------------------------------ code */

struct pinsn *pc_emit(struct pcomp *pc, uint8_t op, struct c2c_mark at)
{
	struct pinsn in = {.op = op, .dst = -1, .site = UINT32_MAX, .mark = at};

	g_array_append_val(pc->code, in);
	return &g_array_index(pc->code, struct pinsn, pc->code->len - 1);
}

uint32_t pc_here(const struct pcomp *pc)
{
	return pc->code->len;
}

/* A code site: "path:N op at" names what the reports attribute to this instruction. */
uint32_t pc_site(struct pcomp *pc, const char *op, const char *at)
{
	g_ptr_array_add(pc->sites, g_strdup_printf("%s:%u %s %s", pc->p->name, pc_here(pc), op,
						   at ? at : ""));
	return pc->site_base + pc->sites->len - 1;
}

/* ------------------------------------------------------------------ files */

/* A constant: files may repeat one with the same value; a scenario's override replaces. */
static bool add_const(struct program *pr, const struct yt_node *key, int64_t v, bool replace,
		      struct c2c_err *err)
{
	const char *name = key->str;

	for (uint32_t i = 0; i < pr->nr_consts; i++) {
		if (strcmp(pr->consts[i], name))
			continue;
		if (!replace && pr->const_vals[i] != v) {
			err_set(err, key->mark, "constant %s = %" G_GINT64_FORMAT " contradicts its "
				"earlier value %" G_GINT64_FORMAT " (expected one value per constant)",
				name, v, pr->const_vals[i]);
			return false;
		}
		pr->const_vals[i] = v;
		return true;
	}
	pr->consts = g_renew(char *, pr->consts, pr->nr_consts + 1);
	pr->const_vals = g_renew(int64_t, pr->const_vals, pr->nr_consts + 1);
	pr->consts[pr->nr_consts] = g_strdup(name);
	pr->const_vals[pr->nr_consts++] = v;
	return true;
}

static bool load_consts(struct program *pr, const struct yt_node *n, bool replace,
			struct c2c_err *err)
{
	if (!yt_expect_map(n, "constants", NULL, err))
		return false;
	for (size_t i = 0; i < n->len; i++) {
		int64_t v;

		if (!yt_int(n->pairs[i].val, n->pairs[i].key->str, INT64_MIN, INT64_MAX, &v, err) ||
		    !add_const(pr, n->pairs[i].key, v, replace, err))
			return false;
	}
	return true;
}

static bool load_kobj(struct kobj *o, const struct yt_node *key, const struct yt_node *v,
		      struct layout_lib *lib, struct c2c_err *err)
{
	static const char *const keys[] = {"layout", "alloc", "per", "flex", "placement", NULL};
	static const char *const allocs[] = {"kmalloc", "kmem_cache", "percpu", NULL};
	static const char *const pers[] = {"node", NULL};
	const struct yt_node *k;
	const char *lname;
	int a = 0, per;
	int64_t n;

	o->name = g_strdup(key->str);
	if (!yt_expect_map(v, key->str, keys, err) ||
	    !(k = yt_require(v, "layout", key->str, err)) || !yt_str(k, "layout", &lname, err) ||
	    !(o->layout = layout_lib_get(lib, lname, k->mark, err)) ||
	    ((k = yt_get(v, "alloc")) && !yt_enum(k, "alloc", allocs, &a, err)) ||
	    ((k = yt_get(v, "per")) && !yt_enum(k, "per", pers, &per, err)))
		return false;
	o->alloc = (uint8_t)a;
	o->percpu = a == 2;
	o->per_node = yt_get(v, "per") != NULL;
	o->placement = -1;
	if ((k = yt_get(v, "placement"))) {
		if (!yt_int(k, "placement", 0, 127, &n, err))
			return false;
		o->placement = (int32_t)n;
	}
	if (!(k = yt_get(v, "flex")))
		return true;
	if (k->kind == YT_SCALAR && (!strcmp(k->str, "cpus") || !strcmp(k->str, "nodes"))) {
		o->flex = k->str[0] == 'c' ? -1 : -2;
		return true;
	}
	if (!yt_int(k, "flex", 0, 1 << 20, &n, err))
		return false;
	o->flex = (int32_t)n;
	return true;
}

static bool load_objs(struct kobj **v, uint32_t *nr, const struct yt_node *map,
		      struct layout_lib *lib, struct c2c_err *err)
{
	if (!yt_expect_map(map, "objects", NULL, err))
		return false;
	for (size_t i = 0; i < map->len; i++) {
		*v = g_renew(struct kobj, *v, *nr + 1);
		memset(&(*v)[*nr], 0, sizeof(struct kobj));
		if (!load_kobj(&(*v)[(*nr)++], map->pairs[i].key, map->pairs[i].val, lib, err))
			return false;
	}
	return true;
}

static int find_kind(const struct program *pr, const char *name);

static bool load_kinds(struct program *pr, const struct yt_node *n, struct layout_lib *lib,
		       struct c2c_err *err)
{
	static const char *const keys[] = {"objects", "init", "links", NULL};

	if (!yt_expect_map(n, "kinds", NULL, err))
		return false;
	for (size_t i = 0; i < n->len; i++) {
		struct kind *k;
		const struct yt_node *o;

		/* A kind declared by another file, without objects: this file adds init: values
		 * for the members its own paths and layouts have (kinds_load_init). */
		if (find_kind(pr, n->pairs[i].key->str) >= 0 &&
		    yt_expect_map(n->pairs[i].val, n->pairs[i].key->str, keys, err) &&
		    !yt_get(n->pairs[i].val, "objects"))
			continue;
		if (err->set)
			return false;
		pr->kinds = g_renew(struct kind, pr->kinds, pr->nr_kinds + 1);
		k = &pr->kinds[pr->nr_kinds++];
		memset(k, 0, sizeof(*k));
		k->name = g_strdup(n->pairs[i].key->str);
		if (!yt_expect_map(n->pairs[i].val, k->name, keys, err) ||
		    !(o = yt_require(n->pairs[i].val, "objects", k->name, err)) ||
		    !load_objs(&k->obj, &k->nr_obj, o, lib, err))
			return false;
	}
	return true;
}

static int find_kind(const struct program *pr, const char *name)
{
	for (uint32_t i = 0; i < pr->nr_kinds; i++)
		if (!strcmp(pr->kinds[i].name, name))
			return (int)i;
	return -1;
}

int program_find(const struct program *p, const char *name)
{
	for (uint32_t i = 0; i < p->nr_paths; i++)
		if (!strcmp(p->paths[i].name, name))
			return (int)i;
	return -1;
}

/* Pass 1: a path's name and parameters, so calls can go to paths defined later. */
static bool declare_path(struct program *pr, const struct yt_node *n, const char *file,
			 struct c2c_err *err)
{
	static const char *const keys[] = {"name", "cite", "simplifies", "params", "body", NULL};
	const struct yt_node *k, *ps;
	struct path *p;
	const char *s;

	if (!yt_expect_map(n, "paths[]", keys, err) || !(k = yt_require(n, "name", "path", err)) ||
	    !yt_str(k, "path.name", &s, err))
		return false;
	if (program_find(pr, s) >= 0) {
		err_set(err, k->mark, "path %s defined twice (expected one definition per path)", s);
		return false;
	}
	pr->paths = g_renew(struct path, pr->paths, pr->nr_paths + 1);
	p = &pr->paths[pr->nr_paths++];
	memset(p, 0, sizeof(*p));
	p->name = g_strdup(s);
	p->file = g_strdup(file);
	p->mark = n->mark;
	if ((k = yt_get(n, "cite")) && yt_str(k, "cite", &s, err))
		p->cite = g_strdup(s);
	if ((k = yt_get(n, "simplifies")) && yt_str(k, "simplifies", &s, err))
		p->simplifies = g_strdup(s);
	if (!(ps = yt_get(n, "params")))
		return !err->set;
	if (!yt_expect_seq(ps, "params", err))
		return false;
	if (ps->len > PATH_MAX_PARAMS) {
		err_set(err, ps->mark, "params: %zu (expected at most %d)", ps->len, PATH_MAX_PARAMS);
		return false;
	}
	for (size_t i = 0; i < ps->len; i++) {
		const struct yt_node *a = ps->items[i];

		p->param_kind[i] = -1;
		if (a->kind == YT_MAP && a->len == 1) {
			int kd = find_kind(pr, a->pairs[0].val->str);

			if (kd < 0) {
				err_set(err, a->pairs[0].val->mark, "params: unknown kind '%s' (expected "
					"a kind declared under kinds:)", a->pairs[0].val->str);
				return false;
			}
			p->param_kind[i] = (int16_t)kd;
		} else if (a->kind != YT_SCALAR) {
			err_set(err, a->mark, "params: expected NAME or {NAME: KIND}");
			return false;
		}
	}
	p->nr_params = (uint8_t)ps->len;
	return !err->set;
}

/* Pass 2: a path's body. */
static bool compile_path(struct program *pr, struct path *p, const struct yt_node *n,
			 struct layout_lib *lib, GPtrArray *sites, uint32_t site_base,
			 struct c2c_err *err)
{
	struct pcomp pc = {.prog = pr, .lib = lib, .p = p, .sites = sites, .site_base = site_base,
			   .mark = n->mark, .err = err};
	const struct yt_node *ps = yt_get(n, "params");
	bool ok;

	pc.code = g_array_new(FALSE, FALSE, sizeof(struct pinsn));
	for (uint8_t i = 0; i < p->nr_params; i++) {
		const struct yt_node *a = ps->items[i];

		pc_local(&pc, a->kind == YT_MAP ? a->pairs[0].key->str : a->str, p->param_kind[i],
			 true);
	}
	ok = pc_body(&pc, yt_get(n, "body"));
	if (ok)
		pc_emit(&pc, P_RETURN, n->mark);
	for (guint i = 0; ok && i < pc.code->len; i++)
		pc_insn_resolve(&g_array_index(pc.code, struct pinsn, i));
	p->nr_locals = pc.nr_locals;
	p->nr_code = pc.code->len;
	/* Aligned, so that each instruction's lines are what struct pinsn says (path.h). */
	p->code = aligned_alloc(64, sizeof(struct pinsn) * (p->nr_code ? p->nr_code : 1));
	if (!p->code)
		g_error("path %s: out of memory for %u instructions", p->name, p->nr_code);
	if (p->nr_code)
		memcpy(p->code, pc.code->data, sizeof(struct pinsn) * p->nr_code);
	g_array_free(pc.code, TRUE);
	/* The file's tree (which owns the marks' file names) is freed after loading; run-time
	 * model errors still name the operation's position, through the path's own copy. */
	for (uint32_t i = 0; i < p->nr_code; i++)
		p->code[i].mark.file = p->file;
	p->mark.file = p->file;
	for (int i = 0; i < pc.nr_locals; i++)
		g_free(pc.locals[i]);
	for (int i = 0; i < pc.nr_loops; i++)
		g_array_free(pc.loops[i].breaks, TRUE);
	return ok;
}

/* Pass 0: a file's constants, kinds and globals (every file's, before any path). */
static bool load_file_types(struct program *pr, const struct yt_node *root,
			    struct layout_lib *lib, struct c2c_err *err)
{
	static const char *const keys[] = {"era", "constants", "kinds", "globals", "paths", NULL};
	const struct yt_node *k;

	if (!yt_expect_map(root, "path file", keys, err))
		return false;
	if ((k = yt_get(root, "constants")) && !load_consts(pr, k, false, err))
		return false;
	if ((k = yt_get(root, "kinds")) && !load_kinds(pr, k, lib, err))
		return false;
	return !(k = yt_get(root, "globals")) ||
	       load_objs(&pr->globals, &pr->nr_globals, k, lib, err);
}

static bool load_file_decls(struct program *pr, const struct yt_node *root, const char *file,
			    struct c2c_err *err)
{
	const struct yt_node *k;

	if ((k = yt_get(root, "paths"))) {
		if (!yt_expect_seq(k, "paths", err))
			return false;
		for (size_t i = 0; i < k->len; i++)
			if (!declare_path(pr, k->items[i], file, err))
				return false;
	}
	return true;
}

/* g_ptr_array_sort hands the comparator pointers to the elements. */
static gint cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .yaml files of @arg (a file, or a directory's files in name order). */
static void expand_files(const char *arg, GPtrArray *out)
{
	GDir *d;
	GPtrArray *names;
	const char *n;

	if (!g_file_test(arg, G_FILE_TEST_IS_DIR) || !(d = g_dir_open(arg, 0, NULL))) {
		g_ptr_array_add(out, g_strdup(arg));
		return;
	}
	names = g_ptr_array_new_with_free_func(g_free);
	while ((n = g_dir_read_name(d)))
		if (g_str_has_suffix(n, ".yaml"))
			g_ptr_array_add(names, g_build_filename(arg, n, NULL));
	g_dir_close(d);
	g_ptr_array_sort(names, cmp_names);
	for (guint i = 0; i < names->len; i++)
		g_ptr_array_add(out, g_strdup(names->pdata[i]));
	g_ptr_array_free(names, TRUE);
}

struct program *program_load(const char *const *files, struct layout_lib *lib,
			     const struct yt_node *consts, uint32_t site_base, struct c2c_err *err)
{
	struct program *pr = g_new0(struct program, 1);
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *trees = g_ptr_array_new_with_free_func((GDestroyNotify)yt_free);
	GPtrArray *sites = g_ptr_array_new();
	bool ok = true;
	uint32_t pi = 0;

	for (; files && *files; files++)
		expand_files(*files, paths);
	for (guint i = 0; ok && i < paths->len; i++) {
		struct yt_node *t = yt_load_file(paths->pdata[i], err);

		ok = t && load_file_types(pr, t, lib, err);
		g_ptr_array_add(trees, t);
	}
	for (guint i = 0; ok && i < trees->len; i++)
		ok = load_file_decls(pr, trees->pdata[i], paths->pdata[i], err);
	ok = ok && (!consts || load_consts(pr, consts, true, err));
	for (guint i = 0; ok && i < trees->len; i++)
		ok = kinds_load_init(pr, yt_get(trees->pdata[i], "kinds"), lib, err);
	for (guint i = 0; ok && i < trees->len; i++) {
		const struct yt_node *ps = yt_get(trees->pdata[i], "paths");

		for (size_t j = 0; ok && ps && j < ps->len; j++, pi++)
			ok = compile_path(pr, &pr->paths[pi], ps->items[j], lib, sites, site_base, err);
	}
	if (ok)
		pc_link_calls(pr);
	pr->nr_sites = sites->len;
	pr->site_names = (char **)g_ptr_array_free(sites, FALSE);
	g_ptr_array_free(trees, TRUE);
	g_ptr_array_free(paths, TRUE);
	if (!ok) {
		program_free(pr);
		return NULL;
	}
	return pr;
}

static void kobjs_free(struct kobj *v, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		g_free(v[i].name);
	g_free(v);
}

void pinsn_release(struct pinsn *in)
{
	member_ref_release(&in->addr);
	expr_free(in->a);
	expr_free(in->b);
	for (uint8_t a = 0; a < in->nr_args; a++)
		expr_free(in->args[a]);
	g_free(in->args);
	g_free(in->argv);
	in->a = in->b = NULL;
	in->args = NULL;
	in->argv = NULL;
	in->nr_args = 0;
}

void program_free(struct program *pr)
{
	if (!pr)
		return;
	for (uint32_t i = 0; i < pr->nr_paths; i++) {
		struct path *p = &pr->paths[i];

		for (uint32_t c = 0; c < p->nr_code; c++)
			pinsn_release(&p->code[c]);
		free(p->code);
		g_free(p->name);
		g_free(p->cite);
		g_free(p->simplifies);
		g_free(p->file);
	}
	g_free(pr->paths);
	for (uint32_t i = 0; i < pr->nr_kinds; i++) {
		kobjs_free(pr->kinds[i].obj, pr->kinds[i].nr_obj);
		g_free(pr->kinds[i].init);
		g_free(pr->kinds[i].name);
	}
	g_free(pr->kinds);
	kobjs_free(pr->globals, pr->nr_globals);
	for (uint32_t i = 0; i < pr->nr_consts; i++)
		g_free(pr->consts[i]);
	g_free(pr->consts);
	g_free(pr->const_vals);
	for (uint32_t i = 0; i < pr->nr_lists; i++)
		g_free(pr->lists[i]);
	g_free(pr->lists);
	for (uint32_t i = 0; i < pr->nr_counters; i++)
		g_free(pr->counters[i]);
	g_free(pr->counters);
	for (uint32_t i = 0; i < pr->nr_sites; i++)
		g_free(pr->site_names[i]);
	g_free(pr->site_names);
	g_free(pr);
}
