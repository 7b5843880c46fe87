/* timing.c - latencies and line occupancy; see timing.h. */
#include "mem/timing.h"

simtime_t tm_fill_mem(const struct machine *mc, const struct dline *dl, int socket, int *src)
{
	if (dl->llc_valid >> socket & 1) {
		*src = SRC_LLC;
		return mc->llc.latency;
	}
	if (dl->llc_valid) {
		*src = SRC_RMT_HIT;
		return mc->clean_remote;
	}
	if (machine_node_socket(mc, dl->home) == socket ||
	    machine_socket_node(mc, socket) == dl->home) {
		*src = SRC_DRAM_LCL;
		return mc->dram_local;
	}
	*src = SRC_DRAM_RMT;
	return mc->dram_remote;
}

simtime_t tm_fill_sharer(const struct machine *mc, const struct dline *dl,
			 const uint64_t *sharers, int core, int socket, int *src)
{
	int first = socket * mc->cores_per_socket, last = first + mc->cores_per_socket;

	if (dl->llc_valid >> socket & 1) {
		*src = SRC_LLC;
		return mc->llc.latency;
	}
	/* The nearest sharer answers. */
	for (int c = first; c < last; c++) {
		if (c != core && (sharers[c >> 6] >> (c & 63) & 1)) {
			*src = SRC_LLC;
			return mc->clean_local;
		}
	}
	*src = SRC_RMT_HIT;
	return mc->clean_remote;
}
