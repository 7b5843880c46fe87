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

/* A prefetch of a buddy @rq's core does not hold (the directory does not list it: its L2 is
 * not searched) whose row only drops it: what mem_request_ways() does of it -- count the
 * action, touch nothing, cost nothing -- without running the request.  On skylake-sp-2s a
 * store's buddy prefetch of a line Modified elsewhere is one (rfo_buddy_modified: drop), a
 * third of contended-80's prefetches.  Check mode takes the full way, which checks the row.
 * Return: false when it is not such a prefetch (nothing done). */
static bool pf_drop_unheld(struct mem *m, const struct req *rq, struct outcome *o)
{
	uint32_t idx = dir_lookup(&m->dir, rq->la);

	if (m->check || idx == DIR_NONE || dir_has(&m->dir, idx, rq->core) ||
	    m->rows[MESI_I][mem_others(m, idx, rq->core, MESI_I)][rq->event].acts !=
		    1u << ACT_DROP_PF)
		return false;
	m->act_count[ACT_DROP_PF]++;
	*o = (struct outcome){.done = rq->now, .line = idx, .pf_event = EV_COUNT, .dropped = true};
	return true;
}

/* Run prefetch @rq (mem_request), then count what it did. */
static void pf_request(struct mem *m, const struct req *rq)
{
	struct outcome o;

	if (!pf_drop_unheld(m, rq, &o))
		mem_request(m, rq, &o);
	acct_prefetch(m, rq, &o);
}

void pf_after_demand(struct mem *m, const struct req *dem, const struct outcome *o,
		     uint32_t orow)
{
	struct req rq;

	if (o->pf_event == EV_COUNT || !mem_pf_enabled(m))
		return;
	rq = *dem;
	rq.la = dem->la ^ m->gsize;
	rq.prefetch = true;
	rq.event = o->pf_event;
	rq.cause = o->line;
	rq.cause_orow = orow;
	pf_request(m, &rq);
}

void mem_prefetch(struct mem *m, int cpu, uint64_t addr, int event, simtime_t now)
{
	int core = machine_cpu_core(m->mc, cpu);
	struct req rq = {.cpu = cpu, .core = core, .socket = mem_core_socket(m, core),
			 .la = mem_line_addr(m, addr), .event = (uint8_t)event, .prefetch = true,
			 .cause = DIR_NONE, .cause_orow = DIR_NONE, .now = now};

	assert(event == EV_PF_LOAD || event == EV_PF_STORE);
	pf_request(m, &rq);
}
