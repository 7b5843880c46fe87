/* layout_suggest_gen.c - what today's run says about the struct's members, and the candidate
 * layouts it leads to; see layout_suggest.h. */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "layout/layout_check.h"
#include "layout/layout_show.h"
#include "layout_suggest_int.h"
#include "mem/mem.h"

#define LINE 64
#define PAIR 128

/* ------------------------------------------------------------------ the profile */

/* The top-level member of @l holding byte @off, or l->nr. */
static uint32_t member_at(const struct layout *l, uint64_t off)
{
	for (uint32_t m = 0; m < l->nr; m++)
		if (l->m[m].size && off >= l->m[m].offset && off < l->m[m].offset + l->m[m].size)
			return m;
	return l->nr;
}

/* The function of code site @site ("lruvec_stat_mod_folio:3 load ..." -> its name). */
static char *site_fn(const struct run_result *r, uint32_t site)
{
	const char *name = site < r->nr_sites && r->site_names ? r->site_names[site] : NULL;
	const char *colon = name ? strchr(name, ':') : NULL;

	return name ? g_strndup(name, colon ? (size_t)(colon - name) : strlen(name)) : NULL;
}

static void add_fn(GPtrArray *fns, char *fn)
{
	for (guint i = 0; i < fns->len; i++)
		if (!strcmp(fns->pdata[i], fn)) {
			g_free(fn);
			return;
		}
	g_ptr_array_add(fns, fn);
}

static uint64_t line_traffic(const struct mem *m, uint32_t l)
{
	return stats_line(m, l, LS_HITM_LCL) + stats_line(m, l, LS_HITM_RMT) +
	       stats_line(m, l, LS_ST_RFO_HITM) + stats_line(m, l, LS_PF_CAUSED_HITM);
}

/* One Pareto row on byte @off of member @p: loads from sites that only load are reads (by
 * their function); a site that stores is a writer, one that also loads the byte an RMW. */
static void add_row(const struct run_result *r, const struct orow *o, uint32_t row,
		    struct mprof *p, uint64_t *rd, uint64_t *wr)
{
	p->loads += o->c[OS_LOADS];
	p->stores += o->c[OS_STORES];
	p->hitm += o->c[OS_HITM_LCL] + o->c[OS_HITM_RMT] + o->c[OS_PF_CAUSED_HITM];
	if (o->c[OS_STORES] && o->c[OS_LOADS])
		p->rmw += o->c[OS_STORES];
	if (o->c[OS_LOADS])
		stats_orow_cpus(r->mem, row, rd);
	if (o->c[OS_STORES])
		stats_orow_cpus(r->mem, row, wr);
	if (o->c[OS_LOADS] || o->c[OS_STORES]) {
		char *fn = site_fn(r, o->site);

		if (fn)
			add_fn(o->c[OS_STORES] ? p->written_by : p->read_by, fn);
	}
}

static int by_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The coherence traffic of the lines (coherence units) each member sits on, summed over the
 * struct's objects. */
static void heat(struct search *s, const struct run_result *r)
{
	const struct layout *l = s->today;
	uint64_t unit = stats_line_size(r->mem);

	for (uint32_t i = 0; i < r->objs->nr; i++) {
		struct obj obj, *ob = &obj;

		objmap_get(r->objs, i, ob);
		for (uint32_t m = 0; ob->type && !strcmp(ob->type, s->o->strct) && m < l->nr; m++) {
			uint64_t lo = ob->base + l->m[m].offset, hi = lo + MAX(l->m[m].size, 1);

			for (uint64_t a = lo / unit * unit; a < hi; a += unit) {
				uint32_t line = mem_line(r->mem, a);

				if (line != DIR_NONE)
					s->prof[m].heat += line_traffic(r->mem, line);
			}
		}
	}
}

/* Every Pareto row and line of today's run on an object of the struct, per member. */
bool suggest_profile(struct search *s, const struct run_result *r)
{
	const struct layout *l = s->today;
	uint32_t words = stats_cpu_words(r->mem);
	g_autofree uint64_t *rd = g_new0(uint64_t, (size_t)words * l->nr);
	g_autofree uint64_t *wr = g_new0(uint64_t, (size_t)words * l->nr);

	s->prof = g_new0(struct mprof, l->nr);
	for (uint32_t m = 0; m < l->nr; m++) {
		s->prof[m].read_by = g_ptr_array_new_with_free_func(g_free);
		s->prof[m].written_by = g_ptr_array_new_with_free_func(g_free);
	}
	for (uint32_t line = 0; line < stats_nr_lines(r->mem); line++) {
		uint64_t base = stats_line_addr(r->mem, line);

		for (uint32_t o = stats_line_first_orow(r->mem, line); o != DIR_NONE;
		     o = stats_orow_next(r->mem, o)) {
			struct orow row;
			uint64_t a;

			stats_orow(r->mem, o, &row);
			a = base + row.off;
			uint32_t i = objmap_find(r->objs, a), m;
			struct obj obj;
			const struct obj *ob = objmap_get(r->objs, i, &obj) ? &obj : NULL;

			if (ob && ob->type && !strcmp(ob->type, s->o->strct) &&
			    (m = member_at(l, a - ob->base)) < l->nr)
				add_row(r, &row, o, &s->prof[m], rd + (size_t)m * words,
					wr + (size_t)m * words);
		}
	}
	heat(s, r);
	for (uint32_t m = 0; m < l->nr; m++) {
		struct mprof *p = &s->prof[m];

		p->nr_readers = c2c_popcount_words(rd + (size_t)m * words, words);
		p->nr_writers = c2c_popcount_words(wr + (size_t)m * words, words);
		p->read_mostly = p->loads && p->stores * SUGGEST_READ_MOSTLY <= p->loads;
		p->hot_write = p->stores && !p->read_mostly && p->heat;
		g_ptr_array_sort(p->read_by, by_str);
		g_ptr_array_sort(p->written_by, by_str);
	}
	return true;
}

void suggest_profile_free(struct search *s)
{
	for (uint32_t m = 0; s->prof && m < s->today->nr; m++) {
		g_ptr_array_free(s->prof[m].read_by, TRUE);
		g_ptr_array_free(s->prof[m].written_by, TRUE);
	}
	g_free(s->prof);
}

/* @what and the first three of @fns, if any. */
static void print_fns(const char *what, const GPtrArray *fns)
{
	for (guint i = 0; i < fns->len && i < 3; i++)
		printf("%s%s", i ? ", " : what, (char *)fns->pdata[i]);
	printf("%s", fns->len > 3 ? ", ..." : "");
}

void suggest_print_profile(const struct search *s)
{
	printf("what today's run says (all objects of struct %s; read-mostly: %d loads or more "
	       "per store):\n", s->o->strct, SUGGEST_READ_MOSTLY);
	for (uint32_t m = 0; m < s->today->nr; m++) {
		const struct mprof *p = &s->prof[m];

		if (!p->loads && !p->stores)
			continue;
		printf("  %-24s %-11s %" PRIu64 " loads by %u CPUs, %" PRIu64 " stores by %u CPUs"
		       "%s, %" PRIu64 " HITMs, line traffic %" PRIu64, s->today->m[m].name,
		       p->read_mostly ? "read-mostly" : p->hot_write ? "hot write" : "written",
		       p->loads, p->nr_readers, p->stores, p->nr_writers, p->rmw ? " (RMW)" : "",
		       p->hitm, p->heat);
		print_fns("; read by ", p->read_by);
		print_fns("; written by ", p->written_by);
		printf("\n");
	}
}

/* ------------------------------------------------------------------ the rules */

char *suggest_fields_text(struct layout_lib *lib, const struct layout *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	layout_fields(f, lib, l);
	fclose(f);
	return text;
}

static bool asserts_hold(struct layout_lib *lib, const struct layout *l)
{
	for (uint32_t i = 0; i < l->nr_asserts; i++) {
		g_autoptr(GString) fail = g_string_new(NULL);
		struct c2c_err e = {0};

		if (layout_check_one(lib, l, &l->asserts[i], 0, fail, &e) != 1)
			return false;
	}
	return true;
}

/* The top-level members inside group @g of @l, sorted by name, as one string. */
static char *group_members(const struct layout *l, const struct lgroup *g)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	GString *out = g_string_new(NULL);

	for (uint32_t m = 0; m < l->nr; m++)
		if (l->m[m].name && l->m[m].offset >= g->start && l->m[m].offset < g->end &&
		    l->m[m].kind != LM_PAD)
			g_ptr_array_add(names, l->m[m].name);
	g_ptr_array_sort(names, by_str);
	for (guint i = 0; i < names->len; i++)
		g_string_append_printf(out, "%s ", (char *)names->pdata[i]);
	return g_string_free(out, FALSE);
}

/* Does every __cacheline_group of @today hold the same members in @l (in any order)? */
static bool groups_hold(const struct layout *today, const struct layout *l)
{
	for (uint32_t i = 0; i < today->nr_groups; i++) {
		const struct lgroup *g = NULL;
		g_autofree char *want = group_members(today, &today->groups[i]), *have = NULL;

		for (uint32_t k = 0; k < l->nr_groups && !g; k++)
			if (!strcmp(l->groups[k].name, today->groups[i].name))
				g = &l->groups[k];
		if (!g || g->aligned != today->groups[i].aligned ||
		    strcmp(want, have = group_members(l, g)))
			return false;
	}
	return true;
}

/* @base plus @d[0..n), when its layout is new, within the size limit and every rule. */
static struct cand *propose(struct search *s, const struct ledits *base, const struct ledit *d,
			    uint32_t n)
{
	struct cand *c = g_new0(struct cand, 1);
	struct c2c_err e = {0};
	char *key;

	ledits_init(&c->e);
	for (guint i = 0; i < base->v->len; i++)
		ledits_push(&c->e, &g_array_index(base->v, struct ledit, i));
	for (uint32_t i = 0; i < n; i++)
		ledits_push(&c->e, &d[i]);
	if (!(c->l = layout_edit(s->v->lib, s->today, &c->e, &e))) {
		s->skip_bad++;
	} else if (s->size_limit && c->l->size > s->size_limit) {
		s->skip_size++;
	} else if (!asserts_hold(s->v->lib, c->l)) {
		s->skip_assert++;
	} else if (!groups_hold(s->today, c->l)) {
		s->skip_group++;
	} else if (g_hash_table_contains(s->seen, key = suggest_fields_text(s->v->lib, c->l))) {
		free(key);
		s->skip_same++;
	} else {
		g_hash_table_add(s->seen, key);
		return c;
	}
	cand_free(c);
	return NULL;
}

/* ------------------------------------------------------------------ the candidates */

#define MARK ((struct c2c_mark){"layout suggest", 1, 1})
#define PAD(x, n) ((struct ledit){.kind = LE_PAD, .member = (char *)(x), .to = (n), .mark = MARK})
#define MOVE(x, y, bef) ((struct ledit){.kind = LE_MOVE, .member = (char *)(x), \
					.ref = (char *)(y), .before = (bef), .mark = MARK})

static void try_add(struct search *s, GPtrArray *out, const struct ledits *best,
		    const struct ledit *d, uint32_t n)
{
	struct cand *c;

	for (uint32_t i = 0; i < n; i++)
		if ((d[i].kind != LE_GROUP && !d[i].member) || (d[i].kind == LE_MOVE && (!d[i].ref ||
							      !strcmp(d[i].ref, d[i].member))))
			return;
	if ((c = propose(s, best, d, n)))
		g_ptr_array_add(out, c);
}

/* The index in @l of top-level member @name, or l->nr. */
static uint32_t index_of(const struct layout *l, const char *name)
{
	for (uint32_t i = 0; i < l->nr; i++)
		if (l->m[i].name && !strcmp(l->m[i].name, name))
			return i;
	return l->nr;
}

/* Is member @name of @l on a line (@unit 64) or pair (128) with a hot write of today's run? */
static bool near_hot_write(const struct search *s, const struct layout *l, const char *name,
			   uint64_t unit)
{
	uint32_t x = index_of(l, name);

	for (uint32_t i = 0; x < l->nr && i < l->nr; i++) {
		uint32_t t = l->m[i].name ? index_of(s->today, l->m[i].name) : s->today->nr;
		uint64_t lo = l->m[i].offset, hi = lo + MAX(l->m[i].size, 1);
		uint64_t xlo = l->m[x].offset, xhi = xlo + MAX(l->m[x].size, 1);

		if (i != x && t < s->today->nr && s->prof[t].hot_write &&
		    lo / unit <= (xhi - 1) / unit && xlo / unit <= (hi - 1) / unit)
			return true;
	}
	return false;
}

/* Isolate the hot write @x: on its own line, its own pair; or away from the others. */
static void isolate(struct search *s, GPtrArray *out, const struct ledits *best,
		    const struct layout *bl, uint32_t i)
{
	const char *x = bl->m[i].name, *nx = i + 1 < bl->nr ? bl->m[i + 1].name : NULL;
	const struct ledit own_line[] = {PAD(x, LINE), PAD(nx, LINE)};
	const struct ledit own_pair[] = {PAD(x, PAIR), PAD(nx, PAIR)};
	const struct ledit one[] = {PAD(x, LINE), PAD(nx, LINE), PAD(x, PAIR), PAD(nx, PAIR),
				    MOVE(x, bl->m[0].name, true), MOVE(x, bl->m[bl->nr - 1].name,
								      false)};

	try_add(s, out, best, own_line, nx ? 2 : 1);
	try_add(s, out, best, own_pair, nx ? 2 : 1);
	for (size_t k = 0; k < G_N_ELEMENTS(one); k++)
		try_add(s, out, best, &one[k], 1);
}

static bool shares_fn(const struct mprof *a, const struct mprof *b)
{
	for (guint i = 0; i < a->read_by->len; i++)
		for (guint k = 0; k < b->read_by->len; k++)
			if (!strcmp(a->read_by->pdata[i], b->read_by->pdata[k]))
				return true;
	return false;
}

/* Move the read-mostly member @x (near a hot write) away: next to a read-mostly member read
 * by the same code that is not near one, first, or last. */
static void rehome(struct search *s, GPtrArray *out, const struct ledits *best,
		   const struct layout *bl, uint32_t i)
{
	const char *x = bl->m[i].name;
	const struct mprof *px = &s->prof[index_of(s->today, x)];
	const struct ledit ends[] = {MOVE(x, bl->m[0].name, true),
				     MOVE(x, bl->m[bl->nr - 1].name, false)};

	for (uint32_t k = 0; k < bl->nr; k++) {
		uint32_t t = bl->m[k].name ? index_of(s->today, bl->m[k].name) : s->today->nr;
		const struct ledit d[] = {MOVE(x, bl->m[k].name, false)};

		if (k != i && t < s->today->nr && s->prof[t].read_mostly && shares_fn(px, &s->prof[t]) &&
		    !near_hot_write(s, bl, bl->m[k].name, PAIR)) {
			try_add(s, out, best, d, 1);
			break;
		}
	}
	for (size_t k = 0; k < G_N_ELEMENTS(ends); k++)
		try_add(s, out, best, &ends[k], 1);
}

/* Group @names (in @bl's order) as @g: the read-mostly members on their own line(s), or the
 * members one function reads, next to each other. */
static void group(struct search *s, GPtrArray *out, const struct ledits *best, const char *g,
		  GPtrArray *names, bool aligned)
{
	struct ledit d = {.kind = LE_GROUP, .group = (char *)g, .members = names,
			  .aligned = aligned, .mark = MARK};

	if (names->len >= 2)
		try_add(s, out, best, &d, 1);
}

/* Groups: every read-mostly member (aligned), and per function the read-mostly members it
 * reads (functions in name order). */
static void groups(struct search *s, GPtrArray *out, const struct ledits *best,
		   const struct layout *bl)
{
	g_autoptr(GPtrArray) rm = g_ptr_array_new(), fns = g_ptr_array_new();

	for (uint32_t k = 0; k < bl->nr; k++) {
		uint32_t t = bl->m[k].name ? index_of(s->today, bl->m[k].name) : s->today->nr;

		if (t < s->today->nr && s->prof[t].read_mostly) {
			g_ptr_array_add(rm, bl->m[k].name);
			for (guint f = 0; f < s->prof[t].read_by->len; f++)
				if (!g_ptr_array_find_with_equal_func(fns, s->prof[t].read_by->pdata[f],
								      g_str_equal, NULL))
					g_ptr_array_add(fns, s->prof[t].read_by->pdata[f]);
		}
	}
	group(s, out, best, "read_mostly", rm, true);
	g_ptr_array_sort(fns, by_str);
	for (guint f = 0; f < fns->len; f++) {
		g_autoptr(GPtrArray) by = g_ptr_array_new();
		g_autofree char *name = g_strdup_printf("read_by_%s", (char *)fns->pdata[f]);

		for (guint k = 0; k < rm->len; k++)
			if (g_ptr_array_find_with_equal_func(
				    s->prof[index_of(s->today, rm->pdata[k])].read_by, fns->pdata[f],
				    g_str_equal, NULL))
				g_ptr_array_add(by, rm->pdata[k]);
		if (by->len < rm->len)
			group(s, out, best, name, by, false);
	}
}

GPtrArray *suggest_candidates(struct search *s, const struct ledits *best,
			      const struct layout *bl)
{
	GPtrArray *out = g_ptr_array_new();

	/* Hot writes by today's traffic (s->hot order), RMWs (atomics) first. */
	for (int pass = 0; pass < 2; pass++)
		for (guint h = 0; h < s->hot->len; h++) {
			uint32_t t = index_of(s->today, s->hot->pdata[h]), i = index_of(bl, s->hot->pdata[h]);

			if (i < bl->nr && s->prof[t].hot_write && (s->prof[t].rmw == 0) == pass)
				isolate(s, out, best, bl, i);
		}
	for (uint32_t i = 0; i < bl->nr; i++) {
		uint32_t t = bl->m[i].name ? index_of(s->today, bl->m[i].name) : s->today->nr;

		if (t < s->today->nr && s->prof[t].read_mostly &&
		    near_hot_write(s, bl, bl->m[i].name, PAIR))
			rehome(s, out, best, bl, i);
	}
	groups(s, out, best, bl);
	return out;
}
