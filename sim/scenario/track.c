/*
 * track.c - which lines of a run keep statistics of their own (mem_track_lines, mstats.h).
 *
 * Shared lines always do.  A headline metric that filters on an object or struct counts the
 * Pareto rows of those objects' lines, which may be private (a per-cpu copy), so they keep
 * theirs from the first touch; one that filters on a line, member, site or caller alone may
 * count any line, so then every line does.  No headline figure then depends on when a line
 * became shared.  The headline is checked where it is loaded (report/headline.c); here only
 * its filters are read.
 */
#include <glib.h>

#include "scenario/run.h"
#include "scenario/scenario.h"

static const char *filter(const struct yt_node *item, const char *key)
{
	const struct yt_node *k = yt_get(item, key);

	return k && k->kind == YT_SCALAR ? k->str : NULL;
}

/* Mark in @flag the objects of @om that headline item @item selects; false when it selects
 * lines by a filter that no object names (then every line must be tracked). */
static bool mark_item(const struct yt_node *item, const struct objmap *om, uint8_t *flag)
{
	const char *obj = filter(item, "object"), *type = filter(item, "struct");

	if (!obj && !type)
		return !yt_get(item, "line") && !yt_get(item, "member") && !yt_get(item, "site") &&
		       !yt_get(item, "caller");
	for (uint32_t i = 0; i < om->nr; i++) {
		g_autofree char *name = obj ? objmap_name(om, i) : NULL;
		struct obj o;

		if (objmap_get(om, i, &o) && (!obj || g_pattern_match_simple(obj, name)) &&
		    (!type || (o.type && g_pattern_match_simple(type, o.type))))
			flag[i] = 1;
	}
	return true;
}

void run_track_lines(struct mem *m, const struct scenario *sc, const struct variant *v)
{
	const struct yt_node *seq = sc->nr_variants ? yt_get(sc->v[0].tree, "headline") : NULL;
	uint8_t *flag = g_new0(uint8_t, v->objs.nr ? v->objs.nr : 1);
	bool all = sc->track_all_lines;

	for (size_t i = 0; !all && seq && seq->kind == YT_SEQ && i < seq->len; i++)
		if (seq->items[i]->kind == YT_MAP)
			all = !mark_item(seq->items[i], &v->objs, flag);
	mem_track_lines(m, flag, all);
	g_free(flag);
}
