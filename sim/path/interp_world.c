/* interp_world.c - a world's and a thread's life: set-up (memory as the kernel leaves it, the
 * parking hook) and release, with the entities they run on; see interp.h for the design. */
#include "path/interp.h"

#include <glib.h>
#include <string.h>

#include "path/interp_int.h"

const char *const lock_kind_names[LOCK_KIND_COUNT + 1] = {"ticket", "queued", NULL};

void world_init(struct world *w, const struct program *prog, struct mem *mem,
		const struct machine *mc, const struct entities *ents, enum lock_kind lk,
		uint64_t qnode_base, uint64_t work_base)
{
	static const volatile sig_atomic_t no_signal;

	memset(w, 0, sizeof(*w));
	w->stop = &no_signal;
	w->prog = prog;
	w->mem = mem;
	w->mem_failed = &mem->failed;
	w->mc = mc;
	w->ents = ents;
	w->lock_kind = lk;
	w->qnode_base = qnode_base;
	w->work_base = work_base;
	w->pstats = g_new0(struct pathstat, prog->nr_paths ? prog->nr_paths : 1);
	w->cstats = g_new0(struct counterstat, prog->nr_counters ? prog->nr_counters : 1);
	w->list_items = g_new0(int64_t *, (size_t)prog->nr_lists * mc->nr_cpus + 1);
	w->list_len = g_new0(uint32_t, (size_t)prog->nr_lists * mc->nr_cpus + 1);
	w->list_cap = g_new0(uint32_t, (size_t)prog->nr_lists * mc->nr_cpus + 1);
	w->work_cursor = g_new0(uint64_t, mc->nr_cpus);
	mem->on_write = it_on_write;
	mem->on_write_data = w;
	/* Memory as the kernel leaves it when it creates the entities, before any access. */
	for (uint32_t i = 0; i < ents->nr_init; i++)
		for (uint32_t c = 0; c < ents->init[i].count; c++)
			mem_poke(mem, ents->init[i].addr + (uint64_t)c * PERCPU_UNIT,
				 ents->init[i].size, ents->init[i].value);
}

static void samples_release(struct samples *s)
{
	g_free(s->v);
}

void entities_free(struct entities *e)
{
	for (uint32_t i = 0; i < e->nr; i++)
		g_free(e->name[i]);
	g_free(e->name);
	g_free(e->kind);
	g_free(e->parent);
	g_free(e->first_child);
	g_free(e->next_sibling);
	g_free(e->base_at);
	g_free(e->base);
	g_free(e->global_base);
	g_free(e->init);
	if (e->by_addr)
		g_hash_table_destroy(e->by_addr);
	memset(e, 0, sizeof(*e));
}

void world_release(struct world *w)
{
	for (uint32_t i = 0; i < w->nr_locks; i++) {
		samples_release(&w->locks[i].wait);
		samples_release(&w->locks[i].hold);
	}
	g_free(w->locks);
	g_free(w->lock_slot);
	for (uint32_t i = 0; w->prog && i < w->prog->nr_paths; i++)
		samples_release(&w->pstats[i].lat);
	g_free(w->pstats);
	g_free(w->cstats);
	for (size_t i = 0; w->prog && i < (size_t)w->prog->nr_lists * w->mc->nr_cpus; i++)
		g_free(w->list_items[i]);
	g_free(w->list_items);
	g_free(w->list_len);
	g_free(w->list_cap);
	g_free(w->parked);
	g_free(w->work_cursor);
}

void pthread_init(struct ptask *t, struct world *w, void *owner, int cpu)
{
	memset(t, 0, sizeof(*t));
	t->w = w;
	t->owner = owner;
	t->cpu = cpu;
	t->park_line = DIR_NONE;
	t->inflight_head = t->inflight_end = &t->inflight[1]; /* after inflight[0], 0 */
	/* The slots are the core's: SMT threads that all run share them, each at least one. */
	t->mlp_slots = (uint32_t)w->mc->mlp;
	if (w->mc->smt > 1 && w->cpu_shared && w->cpu_shared[cpu])
		t->mlp_slots = w->mc->mlp / w->mc->smt ? (uint32_t)(w->mc->mlp / w->mc->smt) : 1;
	t->mem = w->mem;
	t->mlp = w->mc->mlp > 1;
	t->cycle = w->mc->cycle;
	t->builtins[EB_NR_CPUS] = w->mc->nr_cpus;
	t->builtins[EB_NR_NODES] = w->mc->numa_nodes;
	t->builtins[EB_CPU] = cpu;
	t->builtins[EB_NODE] = machine_socket_node(w->mc, machine_cpu_socket(w->mc, cpu));
	t->truth_at_load = g_new0(int64_t, w->prog->nr_counters ? w->prog->nr_counters : 1);
	it_lines_init(t);
}

void pthread_release(struct ptask *t)
{
	it_lines_release(t);
	g_free(t->truth_at_load);
	t->truth_at_load = NULL;
}
