/*
 * prefetch.c - the L2 adjacent-line ("spatial") prefetcher, all of it.
 *
 * A fill row of the protocol table (a demand miss that fills the L2), or with upgrade_prefetch
 * an upgrade row (a store's RFO for a line held Shared), asks for the buddy line (address XOR
 * the coherence unit) with its pf_buddy action, for reading, or with pf_buddy_rfo for
 * ownership: which one the table decides by the row's store_buddy guard.  What the prefetch
 * then does to the buddy is the PF_LOAD / PF_STORE rows' business, under their guards
 * (buddy_modified, rfo_buddy_modified, rfo_buddy_shared, rfo_install: protocol.h).  This module runs
 * that request once the demand request is complete and accounted, if the prefetcher is on
 * (prefetch.adjacent_line) and the buddy is a line of its own (not in pair-granule mode).  The
 * prefetch is a request flagged prefetch (ZSim's MemReq::PREFETCH) that fills only the L2 and
 * costs the requester nothing; it holds the buddy line like any transfer.  What it did is
 * counted on the buddy (pf_*) and on the demand line and Pareto row that caused it.
 */
#include "mem/mem_int.h"

#include <assert.h>

void pf_after_demand(struct mem *m, const struct req *dem, const struct outcome *o,
		     uint32_t orow)
{
	struct req rq;
	struct outcome po;

	if (o->pf_event == EV_COUNT || !mem_pf_enabled(m))
		return;
	rq = *dem;
	rq.la = dem->la ^ m->gsize;
	rq.prefetch = true;
	rq.event = o->pf_event;
	rq.cause = o->line;
	rq.cause_orow = orow;
	mem_request(m, &rq, &po);
	acct_prefetch(m, &rq, &po);
}

void mem_prefetch(struct mem *m, int cpu, uint64_t addr, int event, simtime_t now)
{
	int core = machine_cpu_core(m->mc, cpu);
	struct req rq = {.cpu = cpu, .core = core, .socket = mem_core_socket(m, core),
			 .la = mem_line_addr(m, addr), .event = (uint8_t)event, .prefetch = true,
			 .cause = DIR_NONE, .cause_orow = DIR_NONE, .now = now};
	struct outcome o;

	assert(event == EV_PF_LOAD || event == EV_PF_STORE);
	mem_request(m, &rq, &o);
	acct_prefetch(m, &rq, &o);
}
