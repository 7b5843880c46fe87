/* hier.c - a core's L1d and L2; see hier.h. */
#include "mem/hier.h"

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
