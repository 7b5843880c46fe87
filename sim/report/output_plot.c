/* output_plot.c - locks_hist.csv and layout.csv; see output_plot.h for the formats. */
#include "report/output_plot.h"

#include <glib.h>
#include <inttypes.h>

#include "layout/layout_lib.h"
#include "layout/objmap.h"
#include "path/interp.h"
#include "report/csv.h"
#include "report/report.h"

/* Results count lines of 64 bytes from the object's start (output.h, `line`). */
#define OUT_LINE_BYTES 64

/* ------------------------------------------------------------------ locks_hist.csv */

/* The bucket of @v: 0 for [0, 1), k + 1 for [2^k, 2^(k+1)). */
static unsigned hist_bucket(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}

static void hist_rows(FILE *f, const char *variant, const char *lock, const char *kind,
		      const struct samples *s)
{
	uint64_t count[65] = {0};
	unsigned lo = 64, hi = 0;

	for (uint32_t i = 0; i < s->nr; i++) {
		unsigned b = hist_bucket(s->v[i]);

		count[b]++;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	for (unsigned b = lo; s->nr && b <= hi; b++) {
		uint64_t from = b ? UINT64_C(1) << (b - 1) : 0;
		uint64_t to = b == 64 ? UINT64_MAX : (b ? UINT64_C(1) << b : 1);

		csv_put(f, variant);
		fputc(',', f);
		csv_put(f, lock);
		fprintf(f, ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", kind, from, to, count[b]);
	}
}

static void write_locks_hist(FILE *f, struct run_result *const *runs, uint32_t nr)
{
	fputs("variant,lock,kind,lo_ps,hi_ps,count\n", f);
	for (uint32_t i = 0; i < nr; i++) {
		const struct run_result *r = runs[i];
		const char *variant = r->variant ? r->variant : "default";

		for (uint32_t k = 0; r->world && k < r->world->nr_locks; k++) {
			const struct lockstat *ls = &r->world->locks[k];
			char *name;

			if (!ls->acquisitions)
				continue;
			name = report_lock_name(r, ls->addr);
			hist_rows(f, variant, name, "wait", &ls->wait);
			hist_rows(f, variant, name, "hold", &ls->hold);
			g_free(name);
		}
	}
}

/* ------------------------------------------------------------------ layout.csv */

struct lay_row {
	FILE *f;
	const char *head;       /* variant,object,struct,base, of every row of the object */
	struct layout_lib *lib;
};

/* The layout a struct member embeds, if it is a struct the library knows. */
static const struct layout *embedded(struct layout_lib *lib, const struct lmember *m)
{
	struct c2c_err err = {0};

	return m->layout && lib && !m->nr_dims ? layout_lib_get(lib, m->layout, m->mark, &err)
					       : NULL;
}

/* The rows of members @m[0..@nr) at @base, their names after @path (which is extended for
 * each member and restored): one string grown in place, not one formatted per row (seed
 * 000 writes 280,000 rows). */
static void lay_members(const struct lay_row *lr, const struct lmember *m, uint32_t nr,
			GString *path, uint64_t base)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct lmember *x = &m[i];
		const struct layout *sub;
		size_t len = path->len;

		if (x->kind == LM_PAD)
			continue;
		/* Anonymous structs and unions are transparent; their offsets are the
		 * enclosing struct's already (layout.h). */
		if (!x->name) {
			lay_members(lr, x->sub, x->nr_sub, path, base);
			continue;
		}
		if (len)
			g_string_append_c(path, '.');
		g_string_append(path, x->name);
		if (x->size > OUT_LINE_BYTES && x->kind == LM_STRUCT && x->sub) {
			lay_members(lr, x->sub, x->nr_sub, path, base);
		} else if (x->size > OUT_LINE_BYTES && (sub = embedded(lr->lib, x))) {
			/* Asked only for a member that spans lines: a struct the library lacks
			 * is looked for on disk, in every layout directory, each time.  An
			 * embedded layout's offsets count from its own start. */
			lay_members(lr, sub->m, sub->nr, path, base + x->offset);
		} else {
			fputs(lr->head, lr->f);
			csv_put(lr->f, path->str);
			fprintf(lr->f, ",%" PRIu64 ",%" PRIu64 "\n", base + x->offset, x->size);
		}
		g_string_truncate(path, len);
	}
}

/* The columns every row of object @obj (@o) starts with, up to its member. */
static char *lay_head(const char *variant, const char *name, const struct obj *o)
{
	char *head = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&head, &n);

	if (!f)
		g_error("layout.csv: out of memory");
	csv_put(f, variant);
	fputc(',', f);
	csv_put(f, name);
	fputc(',', f);
	csv_put(f, o->type ? o->type : "-");
	fprintf(f, ",0x%" PRIx64 ",", o->base);
	fclose(f);
	return head;
}

static void write_layout(FILE *f, struct run_result *const *runs, uint32_t nr)
{
	GString *path = g_string_new(NULL);

	fputs("variant,object,struct,base,member,offset,size\n", f);
	for (uint32_t i = 0; i < nr; i++) {
		const struct run_result *r = runs[i];
		const struct objmap *om = r->objs ? r->objs : r->mem->objs;
		GHashTable *seen = g_hash_table_new(NULL, NULL);

		for (uint32_t l = 0; om && l < stats_nr_lines(r->mem); l++) {
			uint32_t obj = stats_line_obj(r->mem, l);
			g_autofree char *name = NULL, *head = NULL;
			struct obj ob;

			if (obj == OBJ_NONE || obj >= om->nr || !report_line_shared(r->mem, l) ||
			    !g_hash_table_add(seen, GUINT_TO_POINTER(obj + 1)))
				continue;
			objmap_get(om, obj, &ob);
			name = objmap_name(om, obj);
			head = lay_head(r->variant ? r->variant : "default", name, &ob);
			g_string_truncate(path, 0);
			if (ob.layout)
				lay_members(&(struct lay_row){f, head, om->lib}, ob.layout->m,
					    ob.layout->nr, path, 0);
		}
		g_hash_table_destroy(seen);
	}
	g_string_free(path, TRUE);
}

const struct output_table output_plot_tables[] = {
	{"locks_hist.csv", write_locks_hist},
	{"layout.csv", write_layout},
	{NULL, NULL},
};
