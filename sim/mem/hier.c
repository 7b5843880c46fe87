/* hier.c - a core's L1d and L2; see hier.h. */
#include "mem/hier.h"

#include <assert.h>

void hier_init(struct hier *h, uint32_t l1_sets, uint32_t l1_ways, uint32_t l2_sets,
	       uint32_t l2_ways, uint32_t shift, bool epochs)
{
	pcache_init(&h->l1, l1_sets, l1_ways, shift, epochs);
	pcache_init(&h->l2, l2_sets, l2_ways, shift, epochs);
}

void hier_release(struct hier *h)
{
	pcache_release(&h->l1);
	pcache_release(&h->l2);
}

void hier_drop_ways(struct hier *h, struct cway *w2, struct cway *w1)
{
	pcache_set_tag(&h->l2, w2, 0);
	if (w1)
		pcache_set_tag(&h->l1, w1, 0);
}

void hier_drop(struct hier *h, uint64_t la)
{
	struct cway *w1, *w2 = hier_lookup(h, la, &w1);

	if (w2) /* L1d holds only what L2 does */
		hier_drop_ways(h, w2, w1);
}

void hier_set(struct hier *h, uint64_t la, int state, const uint64_t *version)
{
	struct cway *w1, *w2 = hier_lookup(h, la, &w1);

	if (w2)
		hier_set_ways(h, w2, w1, state, version);
}

void hier_l1_fill(struct hier *h, uint64_t la, const struct cway *src)
{
	struct cway *v = pcache_victim(&h->l1, la);

	*v = *src;
	pcache_set_tag(&h->l1, v, la + 1);
	v->pf = 0;
	v->l2w = (uint8_t)(src - pcache_set(&h->l2, la));
	if (h->l1.epoch)
		h->l1.epoch[v - h->l1.way] = h->l2.epoch[src - h->l2.way];
	pcache_touch(&h->l1, v);
}

void hier_install(struct hier *h, struct cway *slot, uint64_t la, uint32_t line, int state,
		  uint64_t version, bool prefetch, simtime_t ready_at)
{
	assert(!pcache_tag(&h->l2, slot));
	*slot = (struct cway){.ready_at = ready_at, .line = line, .state = (uint8_t)state,
			      .pf = prefetch, .llc = 1};
	pcache_set_tag(&h->l2, slot, la + 1);
	if (h->l2.epoch)
		h->l2.epoch[slot - h->l2.way] = version;
	pcache_touch(&h->l2, slot);
	if (!prefetch)
		hier_l1_fill(h, la, slot);
}

void hier_touch(struct hier *h, uint64_t la)
{
	struct cway *w1, *w2 = hier_lookup(h, la, &w1);
	struct hier_ways w = hier_ways_of(h, w2, w1);

	hier_touch_ways(h, &w);
}
