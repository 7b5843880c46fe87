/*
 * rng.h - seeded random streams, one per actor.
 *
 * xoshiro256** seeded through splitmix64 from (scenario seed, stream id), so every actor's
 * stream depends only on the seed and its own id: adding an actor never shifts another's
 * numbers, and no host state (time, addresses, threads) enters.
 */
#ifndef C2C_RNG_H
#define C2C_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* rng_seed - derive the stream @stream of scenario seed @seed.  Can't fail. */
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);

uint64_t rng_next(struct rng *r);

/* rng_below - uniform in [0, n) without modulo bias; n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);

#endif
