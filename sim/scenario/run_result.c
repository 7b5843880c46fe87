/*
 * run_result.c - a variant's run result: set up from the variant before the run, freed with
 * everything the run left in it (its memory system, its world); see run.h.
 */
#include <glib.h>

#include "path/interp.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

void run_result_init(struct run_result *r, const struct variant *v)
{
	r->variant = g_strdup(v->name);
	r->mc = &v->mc;
	r->objs = &v->objs;
	r->site_names = v->site_names;
	r->nr_sites = v->nr_sites;
	r->nr_actors = v->nr_actors;
	r->actors = g_new0(struct actor_result, v->nr_actors);
	for (uint32_t a = 0; a < v->nr_actors; a++) {
		r->actors[a].name = g_strdup(v->actors[a].name);
		r->actors[a].nr_threads = v->actors[a].nr_cpus;
	}
}

void run_result_free(struct run_result *r)
{
	if (!r)
		return;
	for (uint32_t a = 0; a < r->nr_actors; a++)
		g_free(r->actors[a].name);
	g_free(r->actors);
	if (r->world) {
		world_release(r->world);
		g_free(r->world);
	}
	mem_free(r->mem);
	g_free(r->variant);
	g_free(r);
}
