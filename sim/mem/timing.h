/*
 * timing.h - latencies and line occupancy: the one writer of a line's busy_until.
 *
 * ZSim's convention: a request takes its issue time and returns its completion time (done >=
 * now).  The actions of a protocol row (xact.c) ask this module what their data costs; the
 * request's cost is the slowest of its parallel parts (data and invalidations).  A request that
 * reaches the home starts at max(now, busy_until): a cache-to-cache transfer or an invalidation
 * holds the line until it completes, a memory fill holds it for dir_occupancy, and a locked RMW
 * holds it until the locked operation completes (tm_hold).  Hits on a copy whose fill is still
 * in flight complete when its data arrives (tm_ready).  See mem.h for the figures.
 */
#ifndef C2C_TIMING_H
#define C2C_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "core/types.h"
#include "mem/dir.h"
#include "mem/machine.h"

/* Where a load's data came from (perf c2c's columns; LFB: a fill buffer still waiting for the
 * data of an earlier miss to the line). */
enum ld_src {
	SRC_L1, SRC_L2, SRC_LLC, SRC_RMT_HIT, SRC_HITM_LCL, SRC_HITM_RMT, SRC_DRAM_LCL,
	SRC_DRAM_RMT, SRC_LFB, SRC_COUNT
};

/* tm_fill_mem - memory supplies line @dl to @socket: its LLC, another socket's LLC, or DRAM
 * (local when the line's home node is on @socket).  *src gets which. */
simtime_t tm_fill_mem(const struct machine *mc, const struct dline *dl, int socket, int *src);

/* tm_fill_sharer - a clean copy held by sharers (@sharers, bitset of cores) reaches @core on
 * @socket: the socket's LLC, a sharer on the socket, or one on another socket. */
simtime_t tm_fill_sharer(const struct machine *mc, const struct dline *dl,
			 const uint64_t *sharers, int core, int socket, int *src);

/* tm_hitm_src - the load source of a HITM from an owner on @osocket seen from @socket. */
static inline int tm_hitm_src(int osocket, int socket)
{
	return osocket == socket ? SRC_HITM_LCL : SRC_HITM_RMT;
}

/* tm_fwd - the owner on @osocket sends its copy to @socket: a HITM (@hitm, the row said so)
 * or a clean transfer (*src set only then; a HITM's source was set by its count action).
 * Remote HITMs pay the home-node term: homed on the owner's node or elsewhere. */
static inline simtime_t tm_fwd(const struct machine *mc, int osocket, int socket, unsigned home,
			       bool hitm, int *src)
{
	if (osocket == socket) {
		if (!hitm)
			*src = SRC_LLC;
		return hitm ? mc->hitm_local : mc->clean_local;
	}
	if (!hitm) {
		*src = SRC_RMT_HIT;
		return mc->clean_remote;
	}
	return (unsigned)machine_socket_node(mc, osocket) == home ? mc->hitm_remote_owner_home
								  : mc->hitm_remote_reader_home;
}

/* tm_inv - invalidating @n copies, @remote when any is on another socket. */
static inline simtime_t tm_inv(const struct machine *mc, bool remote, uint32_t n)
{
	return (remote ? mc->inv_remote : mc->inv_local) + mc->inv_per_sharer * n;
}

/* tm_ready - a request served by a copy whose data arrives at @ready_at would complete at
 * @done.  Return: the completion, no earlier than the data (the fill-buffer merge of a hit on
 * a line whose miss is still outstanding; the same for an upgrade of such a copy). */
static inline simtime_t tm_ready(simtime_t done, simtime_t ready_at)
{
	return done > ready_at ? done : ready_at;
}

/* tm_charge - completion of a request of cost @lat issued at @now; one that reaches the home
 * (@home) queues behind busy_until and then holds the line: until done for a transfer or an
 * invalidation (@c2c), for dir_occupancy otherwise.  Can't fail.  Inline: every request of the
 * table path ends here. */
static inline simtime_t tm_charge(const struct machine *mc, struct dline *dl, simtime_t now,
				  simtime_t lat, bool home, bool c2c)
{
	simtime_t start, done;

	if (!home)
		return now + lat;
	start = now > dl->busy_until ? now : dl->busy_until;
	done = start + lat;
	if (c2c)
		dl->busy_until = done;
	else if (start + mc->dir_occupancy > dl->busy_until)
		dl->busy_until = start + mc->dir_occupancy;
	return done;
}

/* tm_hold - the line stays with its owner until @until (a locked RMW in progress). */
static inline void tm_hold(struct dline *dl, simtime_t until)
{
	if (dl->busy_until < until)
		dl->busy_until = until;
}

#endif
