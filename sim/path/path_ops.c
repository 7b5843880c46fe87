/* path_ops.c - compile operations and control flow of path bodies; see path.h. */
#include <string.h>

#include "path/path_int.h"

static const char *const rmw_keys[] = {"add", "sub", "set", NULL};

static int local_for(struct pcomp *pc, const struct yt_node *n, const char *what)
{
	const char *name;
	int l;

	if (!n)
		return -1;
	if (!yt_str(n, what, &name, pc->err))
		return -2;
	if ((l = pc_local(pc, name, -1, true)) < 0) {
		err_set(pc->err, n->mark, "%s: too many locals (expected at most %d)", what,
			PATH_MAX_LOCALS);
		return -2;
	}
	return l;
}

/* Accesses: load, store, rmw, atomic, cmpxchg, lock, unlock, trylock. */
static bool op_access(struct pcomp *pc, uint8_t op, const struct yt_node *v, const char *opname)
{
	static const char *const keys[] = {"at", "into", "value", "add", "sub", "set", "old",
					   "new", "size", NULL};
	const struct yt_node *at = v->kind == YT_SCALAR ? v : yt_get(v, "at"), *k;
	struct pinsn in = {.op = op, .dst = -1, .mark = v->mark};
	int64_t size = 0;

	if (v->kind != YT_SCALAR && !yt_expect_map(v, opname, keys, pc->err))
		return false;
	if (v->kind != YT_SCALAR && (k = yt_get(v, "size")) &&
	    !yt_int(k, "size", 1, 64, &size, pc->err))
		return false;
	if (!pc_addr(pc, at, (uint32_t)size, &in.addr))
		return false;
	if (v->kind == YT_MAP) {
		if ((in.dst = (int16_t)local_for(pc, yt_get(v, "into"), "into")) == -2)
			goto fail;
		if (op == P_LOAD && in.dst >= 0)  /* a loaded pointer can address (P->MEMBER) */
			pc->local_ptr[in.dst] = pc_pointee(pc);
		if (op == P_STORE && !(in.a = pc_expr(pc, yt_get(v, "value"), "store.value")))
			goto fail;
		if (op == P_RMW || op == P_ATOMIC) {
			for (int i = 0; rmw_keys[i] && !in.a; i++)
				if ((k = yt_get(v, rmw_keys[i]))) {
					in.kind = (uint8_t)i;
					if (!(in.a = pc_expr(pc, k, rmw_keys[i])))
						goto fail;
				}
			if (!in.a) {
				err_set(pc->err, v->mark, "%s: expected one of add, sub or set", opname);
				goto fail;
			}
		}
		if (op == P_CMPXCHG && (!(in.a = pc_expr(pc, yt_get(v, "old"), "cmpxchg.old")) ||
					!(in.b = pc_expr(pc, yt_get(v, "new"), "cmpxchg.new"))))
			goto fail;
	} else if (op != P_LOAD && op != P_LOCK && op != P_UNLOCK) {
		err_set(pc->err, v->mark, "%s: expected a mapping with at: and the operands", opname);
		goto fail;
	}
	in.site = pc_site(pc, opname, at->str);
	g_array_append_val(pc->code, in);
	return true;
fail:
	pinsn_release(&in);
	return false;
}

static bool op_delay(struct pcomp *pc, const struct yt_node *v)
{
	static const char *const keys[] = {"ns", "cycles", NULL};
	const struct yt_node *ns = yt_get(v, "ns"), *cyc = yt_get(v, "cycles");
	struct pinsn *in;
	struct expr *e;

	if (!yt_expect_map(v, "delay", keys, pc->err))
		return false;
	if (!!ns == !!cyc) {
		err_set(pc->err, v->mark, "delay: expected one of ns or cycles");
		return false;
	}
	if (!(e = pc_expr(pc, ns ? ns : cyc, "delay")))
		return false;
	in = pc_emit(pc, P_DELAY, v->mark);
	in->a = e;
	in->delay_cycles = !ns;
	return true;
}

static bool op_work(struct pcomp *pc, const struct yt_node *v)
{
	static const char *const keys[] = {"bytes", "op", NULL};
	static const char *const ops[] = {"load", "store", NULL};
	const struct yt_node *k;
	struct expr *e;
	struct pinsn *in;
	int op = 1;

	if (!yt_expect_map(v, "work", keys, pc->err) ||
	    !(e = pc_expr(pc, yt_get(v, "bytes"), "work.bytes")))
		return false;
	if ((k = yt_get(v, "op")) && !yt_enum(k, "work.op", ops, &op, pc->err)) {
		expr_free(e);
		return false;
	}
	in = pc_emit(pc, P_WORK, v->mark);
	in->a = e;
	in->kind = (uint8_t)op;
	in->site = pc_site(pc, "work", op ? "store" : "load");
	return true;
}

/* "name" or "name:kind": a typed local holds an entity (an id popped from an update list,
 * say) and can then be used in addresses, loops and calls like a parameter of that kind. */
static int set_target(struct pcomp *pc, const struct yt_node *key)
{
	const char *colon = strchr(key->str, ':');
	g_autofree char *name = NULL;
	int kind = -1, l;

	if (!colon)
		return local_for(pc, key, "set");
	name = g_strndup(key->str, (size_t)(colon - key->str));
	for (uint32_t k = 0; k < pc->prog->nr_kinds; k++)
		if (!strcmp(pc->prog->kinds[k].name, colon + 1))
			kind = (int)k;
	if (kind < 0) {
		err_set(pc->err, key->mark, "set: unknown kind '%s' (expected NAME:KIND with a kind "
			"declared under kinds:)", colon + 1);
		return -2;
	}
	l = pc_local(pc, name, (int16_t)kind, true);
	if (l < 0 || pc->local_kind[l] != kind) {
		err_set(pc->err, key->mark, "set: '%s' %s", name, l < 0 ? "does not fit (too many "
			"locals)" : "is already a local of another kind");
		return -2;
	}
	return l;
}

static bool op_set(struct pcomp *pc, const struct yt_node *v)
{
	if (!yt_expect_map(v, "set", NULL, pc->err))
		return false;
	for (size_t i = 0; i < v->len; i++) {
		struct expr *e = pc_expr(pc, v->pairs[i].val, v->pairs[i].key->str);
		struct pinsn *in;
		int l;

		if (!e)
			return false;
		if ((l = set_target(pc, v->pairs[i].key)) < 0) {
			expr_free(e);
			return false;
		}
		in = pc_emit(pc, P_SET, v->pairs[i].key->mark);
		in->dst = (int16_t)l;
		in->a = e;
	}
	return true;
}

static bool op_if(struct pcomp *pc, const struct yt_node *map)
{
	static const char *const keys[] = {"if", "then", "else", NULL};
	const struct yt_node *t = yt_get(map, "then"), *e = yt_get(map, "else");
	struct expr *cond;
	uint32_t jf, jend;

	if (!yt_expect_map(map, "if", keys, pc->err) || !(cond = pc_expr(pc, yt_get(map, "if"), "if")))
		return false;
	jf = pc_here(pc);
	pc_emit(pc, P_JUMP_IF_NOT, map->mark)->a = cond;
	if (t && !pc_body(pc, t))
		return false;
	if (!e) {
		g_array_index(pc->code, struct pinsn, jf).target = pc_here(pc);
		return true;
	}
	jend = pc_here(pc);
	pc_emit(pc, P_JUMP, map->mark);
	g_array_index(pc->code, struct pinsn, jf).target = pc_here(pc);
	if (!pc_body(pc, e))
		return false;
	g_array_index(pc->code, struct pinsn, jend).target = pc_here(pc);
	return true;
}

static const char *const iter_names[] = {"range", "cpus", "nodes", "ancestors", "children", NULL};

/* "range(a, b)", "cpus", "nodes", "ancestors(E)", "children(E)" */
static bool parse_iter(struct pcomp *pc, const struct yt_node *n, struct pinsn *in,
		       int16_t *kind)
{
	const char *s = n->str, *open = strchr(s, '(');
	g_autofree char *fname = open ? g_strndup(s, (size_t)(open - s)) : g_strdup(s);
	g_autofree char *args = NULL;
	int it = -1;

	g_strstrip(fname);
	for (int i = 0; iter_names[i]; i++)
		if (!strcmp(iter_names[i], fname))
			it = i;
	if (it < 0 || (it == IT_CPUS || it == IT_NODES) != !open || (open && !strchr(open, ')'))) {
		err_set(pc->err, n->mark, "for.in: '%s' (expected range(A, B), cpus, nodes, "
			"ancestors(E) or children(E))", s);
		return false;
	}
	in->kind = (uint8_t)it;
	*kind = -1;
	if (!open)
		return true;
	args = g_strndup(open + 1, (size_t)(strrchr(open, ')') - open - 1));
	if (it == IT_RANGE) {
		g_auto(GStrv) ab = g_strsplit(args, ",", 2);

		if (!ab[1]) {
			err_set(pc->err, n->mark, "for.in: '%s' (expected range(A, B))", s);
			return false;
		}
		return (in->a = pc_expr_text(pc, ab[0], n->mark)) &&
		       (in->b = pc_expr_text(pc, ab[1], n->mark));
	}
	{
		int l = pc_local(pc, g_strstrip(args), -1, false);

		if (l < 0 || pc->local_kind[l] < 0) {
			err_set(pc->err, n->mark, "for.in: '%s' is not an entity (expected a "
				"parameter or loop variable of a kind)", args);
			return false;
		}
		*kind = pc->local_kind[l];
		return (in->a = pc_expr_text(pc, args, n->mark)) != NULL;
	}
}

/* Does a walk of @it over entities of @kind follow pointers in memory (the kind's links)? */
static uint8_t walk_links(const struct pcomp *pc, uint8_t it, int16_t kind)
{
	const struct kind *k = kind >= 0 ? &pc->prog->kinds[kind] : NULL;

	return k && ((it == IT_ANCESTORS && k->link[KLINK_PARENT].set) ||
		     (it == IT_CHILDREN && k->link[KLINK_CHILDREN].set));
}

/* loop_body - the `do` of the loop whose P_FOR_NEXT is at @top, with break and continue
 * bound to it, then the jump back to @top and every exit patched to the code after it.
 * Return: false with pc->err set. */
static bool loop_body(struct pcomp *pc, const struct yt_node *map, uint32_t top)
{
	struct pcloop *lp = &pc->loops[pc->nr_loops++];

	lp->breaks = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	lp->cont = top;
	if (!pc_body(pc, yt_get(map, "do"))) {
		g_array_free(pc->loops[--pc->nr_loops].breaks, TRUE);
		return false;
	}
	pc_emit(pc, P_JUMP, map->mark)->target = top;
	lp = &pc->loops[--pc->nr_loops];
	g_array_index(pc->code, struct pinsn, top).target = pc_here(pc);
	for (guint i = 0; i < lp->breaks->len; i++)
		g_array_index(pc->code, struct pinsn, g_array_index(lp->breaks, uint32_t, i)).target =
			pc_here(pc);
	g_array_free(lp->breaks, TRUE);
	return true;
}

static bool op_for(struct pcomp *pc, const struct yt_node *map)
{
	static const char *const keys[] = {"for", "do", NULL};
	static const char *const fkeys[] = {"var", "in", NULL};
	const struct yt_node *f = yt_get(map, "for"), *k;
	struct pinsn init = {.op = P_FOR_INIT, .dst = -1, .mark = map->mark};
	uint32_t top;
	int16_t kind;
	int cursor, var;
	const char *vname;

	if (!yt_expect_map(map, "for", keys, pc->err) || !yt_expect_map(f, "for", fkeys, pc->err) ||
	    !(k = yt_require(f, "in", "for", pc->err)) || !parse_iter(pc, k, &init, &kind) ||
	    !(k = yt_require(f, "var", "for", pc->err)) || !yt_str(k, "for.var", &vname, pc->err))
		goto fail;
	if (pc->nr_loops == PC_MAX_LOOPS) {
		err_set(pc->err, map->mark, "for: loops nested too deep (expected at most %d)",
			PC_MAX_LOOPS);
		goto fail;
	}
	cursor = pc_hidden(pc);
	pc_hidden(pc); /* the limit, right after the cursor */
	var = pc_local(pc, vname, kind, true);
	if (cursor < 0 || var < 0 || pc->local_kind[var] != kind) {
		err_set(pc->err, k->mark, "for.var: '%s' %s", vname, var < 0 || cursor < 0
			? "does not fit (too many locals)" : "is already used for another kind");
		goto fail;
	}
	init.callee = (uint32_t)cursor;
	init.walk_mem = walk_links(pc, init.kind, kind);
	if (init.walk_mem && init.kind == IT_CHILDREN)
		init.site = pc_site(pc, "walk", yt_get(f, "in")->str); /* children.next */
	g_array_append_val(pc->code, init);
	top = pc_here(pc);
	{
		struct pinsn *next = pc_emit(pc, P_FOR_NEXT, map->mark);

		next->kind = init.kind;
		next->dst = (int16_t)var;
		next->callee = (uint32_t)cursor;
		next->walk_mem = init.walk_mem;
		if (next->walk_mem)  /* loads the parent pointer or sibling.next */
			next->site = pc_site(pc, "walk", yt_get(f, "in")->str);
	}
	return loop_body(pc, map, top);
fail:	/* the bounds parse_iter() compiled are not in the code yet */
	pinsn_release(&init);
	return false;
}

/* (the interpreter's calls find the callee in the instruction, not through the program) */
void pc_link_calls(struct program *pr)
{
	for (uint32_t i = 0; i < pr->nr_paths; i++) {
		for (uint32_t j = 0; j < pr->paths[i].nr_code; j++) {
			struct pinsn *in = &pr->paths[i].code[j];

			if (in->op != P_CALL)
				continue;
			in->callee_code = pr->paths[in->callee].code;
			in->callee_locals = pr->paths[in->callee].nr_locals;
		}
	}
}

static bool op_call(struct pcomp *pc, const struct yt_node *v)
{
	static const char *const keys[] = {"path", "args", "into", NULL};
	const struct yt_node *k, *args;
	const char *name;
	struct pinsn in = {.op = P_CALL, .dst = -1, .mark = v->mark};
	int idx;
	const struct path *callee;

	if (!yt_expect_map(v, "call", keys, pc->err) ||
	    !(k = yt_require(v, "path", "call", pc->err)) || !yt_str(k, "call.path", &name, pc->err))
		return false;
	if ((idx = program_find(pc->prog, name)) < 0) {
		g_autofree const char **names = g_new0(const char *, pc->prog->nr_paths + 1);
		const char *close;

		for (uint32_t i = 0; i < pc->prog->nr_paths; i++)
			names[i] = pc->prog->paths[i].name;
		close = err_closest(name, names);
		err_set(pc->err, k->mark, "call: unknown path '%s' (expected a path of the loaded "
			"models%s%s%s)", name, close ? "; did you mean '" : "", close ? close : "",
			close ? "'?" : "");
		return false;
	}
	callee = &pc->prog->paths[idx];
	args = yt_get(v, "args");
	if (args && !yt_expect_seq(args, "call.args", pc->err))
		return false;
	if ((args ? args->len : 0) != callee->nr_params) {
		err_set(pc->err, v->mark, "call %s: %zu arguments (expected %u)", name,
			args ? args->len : 0, callee->nr_params);
		return false;
	}
	in.callee = (uint32_t)idx;
	in.nr_args = callee->nr_params;
	in.args = g_new0(struct expr *, in.nr_args ? in.nr_args : 1);
	for (uint8_t i = 0; i < in.nr_args; i++) {
		const struct yt_node *a = args->items[i];
		int l = a->kind == YT_SCALAR ? pc_local(pc, a->str, -1, false) : -1;
		int16_t want = callee->param_kind[i], got = l >= 0 ? pc->local_kind[l] : -1;

		if (want >= 0 && got != want) {
			err_set(pc->err, a->mark, "call %s: argument %u must be an entity of kind %s "
				"(expected a parameter or loop variable of that kind)", name, i + 1,
				pc->prog->kinds[want].name);
			goto fail;
		}
		if (!(in.args[i] = pc_expr(pc, a, "call.args")))
			goto fail;
	}
	if ((in.dst = (int16_t)local_for(pc, yt_get(v, "into"), "into")) == -2)
		goto fail;
	in.site = pc_site(pc, "call", name);   /* the callee's accesses name it as their caller */
	g_array_append_val(pc->code, in);
	return true;
fail:
	pinsn_release(&in);   /* args is zeroed: the ones not compiled yet are NULL */
	return false;
}

static uint32_t intern(char ***v, uint32_t *nr, const char *name)
{
	for (uint32_t i = 0; i < *nr; i++)
		if (!strcmp((*v)[i], name))
			return i;
	*v = g_renew(char *, *v, *nr + 1);
	(*v)[*nr] = g_strdup(name);
	return (*nr)++;
}

static bool op_list(struct pcomp *pc, const struct yt_node *v, uint8_t lop, const char *opname)
{
	static const char *const keys[] = {"list", "cpu", "item", "into", NULL};
	const struct yt_node *k;
	const char *name;
	struct pinsn in = {.op = P_LIST, .kind = lop, .dst = -1, .mark = v->mark};

	if (!yt_expect_map(v, opname, keys, pc->err) ||
	    !(k = yt_require(v, "list", opname, pc->err)) || !yt_str(k, opname, &name, pc->err) ||
	    !(in.a = pc_expr(pc, yt_get(v, "cpu"), "cpu")))
		return false;
	in.callee = intern(&pc->prog->lists, &pc->prog->nr_lists, name);
	if (lop == LIST_ADD && !(in.b = pc_expr(pc, yt_get(v, "item"), "item")))
		goto fail;
	if (lop != LIST_ADD && (in.dst = (int16_t)local_for(pc, yt_get(v, "into"), "into")) < 0) {
		if (!pc->err->set)
			err_set(pc->err, v->mark, "%s: missing key 'into'", opname);
		goto fail;
	}
	g_array_append_val(pc->code, in);
	return true;
fail:
	pinsn_release(&in);
	return false;
}

static bool op_counter(struct pcomp *pc, const struct yt_node *v, uint8_t op, const char *opname)
{
	static const char *const keys[] = {"counter", "add", "value", NULL};
	const struct yt_node *k;
	const char *name;
	struct expr *e;
	struct pinsn *in;

	if (!yt_expect_map(v, opname, keys, pc->err) ||
	    !(k = yt_require(v, "counter", opname, pc->err)) || !yt_str(k, opname, &name, pc->err) ||
	    !(e = pc_expr(pc, yt_get(v, op == P_TRUTH ? "add" : "value"), opname)))
		return false;
	in = pc_emit(pc, op, v->mark);
	in->a = e;
	in->callee = intern(&pc->prog->counters, &pc->prog->nr_counters, name);
	return true;
}

/* Bare words: break, continue, return, irq_off, irq_on. */
static bool op_word(struct pcomp *pc, const struct yt_node *n)
{
	if (!strcmp(n->str, "irq_off") || !strcmp(n->str, "irq_on")) {
		pc_emit(pc, P_IRQ, n->mark)->kind = !strcmp(n->str, "irq_on");
		return true;
	}
	if (!strcmp(n->str, "return")) {
		pc_emit(pc, P_RETURN, n->mark);
		return true;
	}
	if (strcmp(n->str, "break") && strcmp(n->str, "continue")) {
		err_set(pc->err, n->mark, "unknown operation '%s' (expected load, store, rmw, atomic, "
			"cmpxchg, lock, unlock, trylock, delay, work, set, if, for, call, return, "
			"break, continue, irq_off, irq_on, list_add, list_pop, list_empty, truth or "
			"observe)", n->str);
		return false;
	}
	if (!pc->nr_loops) {
		err_set(pc->err, n->mark, "%s outside a loop (expected inside for: ... do:)", n->str);
		return false;
	}
	if (n->str[0] == 'c') {
		pc_emit(pc, P_JUMP, n->mark)->target = pc->loops[pc->nr_loops - 1].cont;
	} else {
		/* The loop's end is not known yet: remember the jump, op_for patches it. */
		uint32_t here = pc_here(pc);

		g_array_append_val(pc->loops[pc->nr_loops - 1].breaks, here);
		pc_emit(pc, P_JUMP, n->mark);
	}
	return true;
}

static const char *const op_keys[] = {
	"load", "store", "rmw", "atomic", "cmpxchg", "lock", "unlock", "trylock", "delay",
	"work", "set", "if", "for", "call", "return", "list_add", "list_pop", "list_empty",
	"truth", "observe", NULL};

static bool op_one(struct pcomp *pc, const struct yt_node *n)
{
	const struct yt_node *v;
	const char *key;
	struct pinsn *in;

	if (n->kind == YT_SCALAR)
		return op_word(pc, n);
	if (n->kind != YT_MAP || !n->len) {
		err_set(pc->err, n->mark, "expected an operation (a mapping such as {load: ...})");
		return false;
	}
	if (yt_get(n, "if"))
		return op_if(pc, n);
	if (yt_get(n, "for"))
		return op_for(pc, n);
	if (!yt_expect_map(n, "operation", op_keys, pc->err))
		return false;
	if (n->len != 1) {
		err_set(pc->err, n->mark, "%zu keys in one operation (expected one, e.g. {load: ...})",
			n->len);
		return false;
	}
	key = n->pairs[0].key->str;
	v = n->pairs[0].val;
	for (uint8_t op = P_LOAD; op <= P_TRYLOCK; op++)
		if (!strcmp(key, pop_names[op]))
			return op_access(pc, op, v, key);
	if (!strcmp(key, "delay"))
		return op_delay(pc, v);
	if (!strcmp(key, "work"))
		return op_work(pc, v);
	if (!strcmp(key, "set"))
		return op_set(pc, v);
	if (!strcmp(key, "call"))
		return op_call(pc, v);
	if (!strcmp(key, "truth") || !strcmp(key, "observe"))
		return op_counter(pc, v, key[0] == 't' ? P_TRUTH : P_OBSERVE, key);
	if (g_str_has_prefix(key, "list_"))
		return op_list(pc, v, !strcmp(key, "list_add") ? LIST_ADD : !strcmp(key, "list_pop")
				      ? LIST_POP : LIST_EMPTY, key);
	/* return: EXPR */
	{
		struct expr *e = pc_expr(pc, v, "return");

		if (!e)
			return false;
		in = pc_emit(pc, P_RETURN, n->mark);
		in->a = e;
		return true;
	}
}

bool pc_body(struct pcomp *pc, const struct yt_node *seq)
{
	if (!seq) {
		err_set(pc->err, pc->mark, "missing body (expected a list of operations)");
		return false;
	}
	if (!yt_expect_seq(seq, "body", pc->err))
		return false;
	for (size_t i = 0; i < seq->len; i++)
		if (!op_one(pc, seq->items[i]))
			return false;
	return true;
}
