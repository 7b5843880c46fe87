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

/* Does the row of prefetch @rq on line @idx, which its core does not hold, only drop it?
 * On skylake-sp-2s a store's buddy prefetch of a line Modified elsewhere does
 * (rfo_buddy_modified: drop): a third of contended-80's prefetches. */
static bool pf_drops(const struct mem *m, const struct req *rq, uint32_t idx)
{
	return m->rows[MESI_I][mem_others(m, idx, rq->core, MESI_I)][rq->event].acts ==
	       1u << ACT_DROP_PF;
}

/* Run prefetch @rq (mem_request_ways), then count what it did.  A buddy is often a line the
 * core lost to another one: the directory, asked once (the buddy's region is the demand
 * line's, which it remembers), says whether the core may hold it (mem_check_line).  If not,
 * its L2 is not searched, and a row that only drops it is done here as mem_request_ways()
 * and acct_prefetch() would -- the action counted, the buddy's pf_dropped, nothing touched,
 * no cost -- without the request.  Check mode searches and runs the row, and reports a
 * directory that lies. */
static void pf_request(struct mem *m, const struct req *rq)
{
	uint32_t idx = dir_lookup(&m->dir, rq->la);
	struct cway *w2 = NULL;
	struct outcome o;

	if (m->check || (idx != DIR_NONE && dir_has(&m->dir, idx, rq->core))) {
		w2 = pcache_lookup(&m->core[rq->core].l2, rq->la);
	} else if (idx != DIR_NONE && pf_drops(m, rq, idx)) {
		m->act_count[ACT_DROP_PF]++;
		acct_pf_dropped(&m->st, idx);
		return;
	}
	if (w2)
		mem_request_ways(m, rq, w2, NULL, &o);
	else /* a buddy the directory lacks is touched first now: made, not looked up again */
		mem_request_absent(m, rq, idx != DIR_NONE ? idx : mem_line_new(m, rq->la), &o);
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
