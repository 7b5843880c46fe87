/* headline.c - a scenario's headline metrics, loaded and measured; see headline.h. */
#include "report/headline.h"

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "path/interp.h"
#include "report/report.h"
#include "report/show.h"

static const char *const HLF_ROWS[] = {"object", "struct", "line", "member", "site", "caller",
				     NULL};
static const char *const HLF_LINES[] = {"object", "struct", "line", NULL};
static const char *const HLF_ACTOR[] = {"actor", NULL};
static const char *const HLF_PATH[] = {"path", NULL};
static const char *const HLF_LOCK[] = {"lock", NULL};
static const char *const HLF_COUNTER[] = {"counter", NULL};

const struct hl_info hl_info[HL_COUNT] = {
	[HL_HITM] = {"hitm", "HITMs", false, true, HLF_ROWS, NULL},
	[HL_HITM_LOCAL] = {"hitm_local", "HITMs", false, true, HLF_ROWS, NULL},
	[HL_HITM_REMOTE] = {"hitm_remote", "HITMs", false, true, HLF_ROWS, NULL},
	[HL_LOADS] = {"loads", "loads", false, true, HLF_ROWS, NULL},
	[HL_STORES] = {"stores", "stores", false, true, HLF_ROWS, NULL},
	[HL_STORE_L1_MISS] = {"store_l1_miss", "stores", false, true, HLF_ROWS, NULL},
	[HL_HITM_PREFETCH] = {"hitm_prefetch", "HITMs", false, true, HLF_LINES, NULL},
	[HL_OPS_PER_SEC] = {"ops_per_sec", "ops/s", true, false, HLF_ACTOR, NULL},
	[HL_PATH_MEAN] = {"path_mean", "ns", false, false, HLF_PATH, "path"},
	[HL_PATH_P99] = {"path_p99", "ns", false, false, HLF_PATH, "path"},
	[HL_LOCK_WAIT] = {"lock_wait", "ns", false, true, HLF_LOCK, NULL},
	[HL_LOCK_HOLD] = {"lock_hold", "ns", false, true, HLF_LOCK, NULL},
	[HL_COUNTER_ERROR] = {"counter_error", "count", false, false, HLF_COUNTER, "counter"},
};

static const char *const metric_names[] = {"hitm", "hitm_local", "hitm_remote", "loads",
					   "stores", "store_l1_miss", "hitm_prefetch", "ops_per_sec", "path_mean", "path_p99",
					   "lock_wait", "lock_hold", "counter_error", NULL};
G_STATIC_ASSERT(G_N_ELEMENTS(metric_names) == HL_COUNT + 1);

static bool has(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* A filter's string at @key of @item, into *@out. */
static bool hl_filter(const struct yt_node *item, const char *key, const char **out,
		      struct c2c_err *err)
{
	const struct yt_node *k = yt_get(item, key);

	return !k || yt_str(k, key, out, err);
}

static bool hl_check_filters(const struct yt_node *item, const char *what, enum hl_metric m,
			     struct c2c_err *err)
{
	static const char *const plain[] = {"id", "name", "metric", "published", "vs", "show",
					    NULL};
	const struct hl_info *in = &hl_info[m];

	for (size_t i = 0; i < item->len; i++) {
		const struct yt_node *key = item->pairs[i].key;
		g_autofree char *allowed = NULL;

		if (has(plain, key->str) || has(in->filters, key->str))
			continue;
		allowed = g_strjoinv(", ", (char **)in->filters);
		err_set(err, key->mark, "%s.%s: metric %s takes no '%s' filter (expected %s)", what,
			key->str, in->key, key->str, allowed);
		return false;
	}
	if (in->required && !yt_get(item, in->required)) {
		err_set(err, item->mark, "%s: metric %s needs '%s' (expected %s: NAME)", what, in->key,
			in->required, in->required);
		return false;
	}
	return true;
}

static bool hl_id_ok(const char *id)
{
	for (const char *p = id; *p; p++)
		if (!g_ascii_islower(*p) && !g_ascii_isdigit(*p) && *p != '_')
			return false;
	return *id != 0;
}

static bool hl_load_one(const struct yt_node *item, const char *what, struct hl_def *d,
			struct c2c_err *err)
{
	static const char *const keys[] = {"id", "name", "metric", "published", "vs", "show",
					   "object", "struct", "line", "member", "site", "caller",
					   "actor", "path", "lock", "counter", NULL};
	const struct yt_node *k;
	int m;

	*d = (struct hl_def){.line = -1};
	if (!yt_expect_map(item, what, keys, err) ||
	    !(k = yt_require(item, "metric", what, err)) ||
	    !yt_enum(k, "metric", metric_names, &m, err) ||
	    !hl_check_filters(item, what, (enum hl_metric)m, err))
		return false;
	d->metric = (enum hl_metric)m;
	d->id = hl_info[m].key;
	if (((k = yt_get(item, "id")) && !yt_str(k, "id", &d->id, err)) ||
	    ((k = yt_get(item, "line")) && !yt_int(k, "line", 0, 1 << 24, &d->line, err)) ||
	    !hl_filter(item, "object", &d->object, err) || !hl_filter(item, "struct", &d->type, err) ||
	    !hl_filter(item, "member", &d->member, err) || !hl_filter(item, "site", &d->site, err) ||
	    !hl_filter(item, "caller", &d->caller, err) || !hl_filter(item, "actor", &d->actor, err) ||
	    !hl_filter(item, "path", &d->path, err) || !hl_filter(item, "lock", &d->lock, err) ||
	    !hl_filter(item, "counter", &d->counter, err) || !hl_filter(item, "vs", &d->vs, err))
		return false;
	if (!hl_id_ok(d->id)) {
		err_set(err, yt_get(item, "id")->mark, "%s.id: '%s' (expected lower-case letters, "
			"digits and '_')", what, d->id);
		return false;
	}
	d->name = d->id;
	if ((k = yt_get(item, "name")) && !yt_str(k, "name", &d->name, err))
		return false;
	d->published = yt_get(item, "published");
	if (d->published && d->published->kind == YT_SEQ) {
		err_set(err, d->published->mark, "%s.published: a sequence (expected a number, a "
			"string, or a mapping variant: value)", what);
		return false;
	}
	return true;
}

bool hl_load(const struct scenario *sc, struct hl_set *hs, struct c2c_err *err)
{
	const struct yt_node *seq = sc->nr_variants ? yt_get(sc->v[0].tree, "headline") : NULL;

	return hl_load_seq(seq, hs, err);
}

bool hl_load_seq(const struct yt_node *seq, struct hl_set *hs, struct c2c_err *err)
{
	struct show_set ss;

	*hs = (struct hl_set){0};
	if (!seq)
		return true;
	if (!yt_expect_seq(seq, "headline", err))
		return false;
	hs->v = g_new0(struct hl_def, seq->len ? seq->len : 1);
	for (size_t i = 0; i < seq->len; i++) {
		g_autofree char *what = g_strdup_printf("headline[%zu]", i);

		if (!hl_load_one(seq->items[i], what, &hs->v[i], err))
			goto fail;
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(hs->v[j].id, hs->v[i].id)) {
				err_set(err, seq->items[i]->mark, "%s: id '%s' used twice (expected an "
					"`id:` that tells them apart)", what, hs->v[i].id);
				goto fail;
			}
		hs->nr++;
	}
	/* The Show items (show.h) are checked with the metrics they name. */
	if (!show_load(seq, hs, &ss, err))
		goto fail;
	show_set_free(&ss);
	return true;
fail:
	hl_set_free(hs);
	return false;
}

void hl_set_free(struct hl_set *hs)
{
	g_free(hs->v);
	*hs = (struct hl_set){0};
}

const struct yt_node *hl_published(const struct hl_def *d, const char *variant)
{
	const struct yt_node *p = d->published;

	if (p && p->kind == YT_MAP)
		p = variant ? yt_get(p, variant) : NULL;
	return p && p->kind == YT_SCALAR ? p : NULL;
}

/* ------------------------------------------------------------------ measuring */

/* Does code site @site of @r match @want: its function (the name before ':') or its whole
 * name?  A row without the site (a top-level path has no caller) never matches. */
static bool site_match(const struct run_result *r, uint32_t site, const char *want)
{
	const char *name, *colon;

	if (!want)
		return true;
	if (site == DIR_NONE || site >= r->nr_sites || !r->site_names || !r->site_names[site])
		return false;
	name = r->site_names[site];
	colon = strchr(name, ':');
	return !strcmp(name, want) ||
	       (colon && strlen(want) == (size_t)(colon - name) && !strncmp(name, want, strlen(want)));
}

static bool obj_match(const struct hl_def *d, const struct objmap *om, uint64_t addr)
{
	uint32_t i = om ? objmap_find(om, addr) : OBJ_NONE;
	struct obj ob;
	const struct obj *o = objmap_get(om, i, &ob) ? &ob : NULL;
	g_autofree char *member = NULL, *name = NULL;

	if (!d->object && !d->type && d->line < 0 && !d->member)
		return true;
	if (o && d->object)
		name = objmap_name(om, i);
	if (!o || (d->object && !g_pattern_match_simple(d->object, name)) ||
	    (d->type && (!o->type || !g_pattern_match_simple(d->type, o->type))) ||
	    (d->line >= 0 && (addr - o->base) / 64 != (uint64_t)d->line))
		return false;
	if (!d->member)
		return true;
	member = objmap_member(om, i, addr);
	return member && g_str_has_prefix(member, d->member) &&
	       (member[strlen(d->member)] == 0 || member[strlen(d->member)] == '.' ||
		member[strlen(d->member)] == '[');
}

/*
 * The Pareto-row counters @os[0..n) summed over the rows @d selects, read through the
 * statistics layer's query API (mem/mstats.h).
 */
static uint64_t rows_sum(const struct hl_def *d, const struct run_result *r, const int *os, int n)
{
	const struct mem *m = r->mem;
	const struct objmap *om = r->objs ? r->objs : m->objs;
	uint64_t sum = 0;

	for (uint32_t i = 0; i < stats_nr_orows(m); i++) {
		struct orow row;
		const struct orow *o = &row;

		stats_orow(m, i, &row);
		if (!site_match(r, o->site, d->site) || !site_match(r, o->caller, d->caller) ||
		    !obj_match(d, om, stats_line_addr(m, o->line) + o->off))
			continue;
		for (int k = 0; k < n; k++)
			sum += o->c[os[k]];
	}
	return sum;
}

/* The per-line counter @ls summed over the lines whose first byte @d selects. */
static uint64_t lines_sum(const struct hl_def *d, const struct run_result *r, int ls)
{
	const struct mem *m = r->mem;
	const struct objmap *om = r->objs ? r->objs : m->objs;
	uint64_t sum = 0;

	for (uint32_t i = 0; i < stats_nr_lines(m); i++)
		if (obj_match(d, om, stats_line_addr(m, i)))
			sum += stats_line(m, i, ls);
	return sum;
}

static bool hl_filtered(const struct hl_def *d)
{
	return d->object || d->type || d->line >= 0 || d->member || d->site || d->caller;
}

static uint64_t hl_count(const struct hl_def *d, const struct run_result *r)
{
	static const int hitm[] = {OS_HITM_LCL, OS_HITM_RMT};
	uint64_t tot[LS_COUNT];

	if (hl_filtered(d)) {
		switch (d->metric) {
		case HL_HITM: return rows_sum(d, r, hitm, 2);
		case HL_HITM_LOCAL: return rows_sum(d, r, &hitm[0], 1);
		case HL_HITM_REMOTE: return rows_sum(d, r, &hitm[1], 1);
		case HL_LOADS: return rows_sum(d, r, (const int[]){OS_LOADS}, 1);
		case HL_STORE_L1_MISS: return rows_sum(d, r, (const int[]){OS_ST_L1MISS}, 1);
		case HL_HITM_PREFETCH: return lines_sum(d, r, LS_PF_HITM);
		default: return rows_sum(d, r, (const int[]){OS_STORES}, 1);
		}
	}
	report_totals(r->mem, tot);
	switch (d->metric) {
	case HL_HITM: return tot[LS_HITM_LCL] + tot[LS_HITM_RMT];
	case HL_HITM_LOCAL: return tot[LS_HITM_LCL];
	case HL_HITM_REMOTE: return tot[LS_HITM_RMT];
	case HL_LOADS: return tot[LS_LOADS];
	case HL_STORE_L1_MISS: return tot[LS_ST_L1MISS];
	case HL_HITM_PREFETCH: return tot[LS_PF_HITM];
	default: return tot[LS_STORES];
	}
}

static uint64_t hl_ops(const struct hl_def *d, const struct run_result *r)
{
	uint64_t it = 0;

	for (uint32_t i = 0; i < r->nr_actors; i++)
		if (!d->actor || g_pattern_match_simple(d->actor, r->actors[i].name))
			it += r->actors[i].iterations;
	return report_ops_per_sec(it, r->sim_time);
}

/* The path's latency (mean or p99) in ps; 0 when it was not called. */
static uint64_t hl_path_ps(const struct hl_def *d, const struct run_result *r)
{
	const struct program *p = report_prog(r);
	struct report_dist dist;
	int i = p && r->world ? program_find(p, d->path) : -1;

	if (i < 0)
		return 0;
	report_dist_of(&r->world->pstats[i].lat, &dist);
	return d->metric == HL_PATH_MEAN ? dist.avg : dist.p99;
}

static uint64_t hl_lock_ps(const struct hl_def *d, const struct run_result *r)
{
	const struct world *w = r->world;
	uint64_t ps = 0;

	for (uint32_t i = 0; w && i < w->nr_locks; i++) {
		g_autofree char *name = report_lock_name(r, w->locks[i].addr);
		struct report_dist dist;

		if (d->lock && !g_pattern_match_simple(d->lock, name))
			continue;
		report_dist_of(d->metric == HL_LOCK_WAIT ? &w->locks[i].wait : &w->locks[i].hold,
			       &dist);
		ps += dist.total;
	}
	return ps;
}

static uint64_t hl_counter(const struct hl_def *d, const struct run_result *r)
{
	const struct program *p = report_prog(r);

	for (uint32_t i = 0; p && r->world && i < p->nr_counters; i++)
		if (!strcmp(p->counters[i], d->counter))
			return r->world->cstats[i].max_abs_error;
	return 0;
}

double hl_value(const struct hl_def *d, const struct run_result *r, uint64_t *ps_out)
{
	uint64_t ps = 0;
	double v;

	switch (d->metric) {
	case HL_OPS_PER_SEC: v = (double)hl_ops(d, r); break;
	case HL_PATH_MEAN:
	case HL_PATH_P99: ps = hl_path_ps(d, r); v = (double)ps / 1000; break;
	case HL_LOCK_WAIT:
	case HL_LOCK_HOLD: ps = hl_lock_ps(d, r); v = (double)ps / 1000; break;
	case HL_COUNTER_ERROR: v = (double)hl_counter(d, r); break;
	default: v = (double)hl_count(d, r); break;
	}
	if (ps_out)
		*ps_out = ps;
	return v;
}

/* ------------------------------------------------------------------ summary.yaml */

static void y_str(FILE *f, const char *s)
{
	if (yt_needs_quotes(s))
		yt_emit_quoted(f, s);
	else
		fputs(s, f);
}

/* A published scalar: a number as it was written, anything else quoted. */
static void y_published(FILE *f, const struct yt_node *p)
{
	char *end;

	g_ascii_strtod(p->str, &end);
	if (!p->quoted && *p->str && !*end)
		fputs(p->str, f);
	else
		yt_emit_quoted(f, p->str);
}

static void hl_write_one(FILE *f, const struct hl_def *d, const struct run_result *r)
{
	const struct hl_info *in = &hl_info[d->metric];
	uint64_t ps, it = report_iterations(r);
	double v = hl_value(d, r, &ps);
	const struct yt_node *pub = hl_published(d, r->variant);

	fputs("      - {id: ", f);
	y_str(f, d->id);
	fputs(", name: ", f);
	y_str(f, d->name);
	fprintf(f, ", metric: %s, value: ", in->key);
	/* Nanoseconds exactly (three decimals of picoseconds), counts as integers. */
	if (!strcmp(in->unit, "ns"))
		fprintf(f, "%" PRIu64 ".%03" PRIu64, ps / 1000, ps % 1000);
	else
		fprintf(f, "%.0f", v);
	fprintf(f, ", unit: %s", in->unit);
	if (in->per_op)
		fprintf(f, ", per_op: %.6g", it ? v / (double)it : 0.0);
	if (pub) {
		fputs(", published: ", f);
		y_published(f, pub);
	}
	fputs("}\n", f);
}

void hl_write_yaml(FILE *f, const struct scenario *sc, const struct run_result *r)
{
	struct c2c_err err = {0};
	struct hl_set hs;

	/* The set was checked when the run was loaded; a failure here leaves an empty list. */
	if (!sc || !hl_load(sc, &hs, &err) || !hs.nr) {
		fputs("    headline: []\n", f);
		return;
	}
	fputs("    headline:\n", f);
	for (uint32_t i = 0; i < hs.nr; i++)
		hl_write_one(f, &hs.v[i], r);
	hl_set_free(&hs);
}
