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

void hier_touch(struct hier *h, uint64_t la)
{
	struct cway *w1, *w2 = hier_lookup(h, la, &w1);
	struct hier_ways w = hier_ways_of(h, w2, w1);

	hier_touch_ways(h, &w);
}
