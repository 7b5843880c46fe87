/* types.h - the few types every module shares. */
#ifndef C2C_TYPES_H
#define C2C_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* Simulated time in picoseconds.  An integer: nothing that decides event order is floating. */
typedef uint64_t simtime_t;

/* The latest simulated time a run may reach: 2^63 - 1 ps (106 days).  A duration or end time
 * above it is bad input, and a run whose clock would pass it stops (exit 1).  The headroom
 * up to 2^64 means a time plus a latency never wraps, and keeps the values near 2^64 free
 * for the interpreter's sentinels (interp.h). */
#define SIMTIME_MAX ((simtime_t)INT64_MAX)

/* c2c_popcount - the bits set in @x: one POPCNT instruction where meson found it (-mpopcnt,
 * meson.build), else the compiler's bit-twiddling fallback. */
static inline uint32_t c2c_popcount(uint64_t x)
{
	return (uint32_t)__builtin_popcountll(x);
}

/* c2c_popcount_words - the bits set in the @n words of the bitset @w (a CPU set). */
static inline uint32_t c2c_popcount_words(const uint64_t *w, uint32_t n)
{
	uint32_t bits = 0;

	for (uint32_t i = 0; i < n; i++)
		bits += c2c_popcount(w[i]);
	return bits;
}

/* simtime_add - *@out = @a + @b.  Return: false when the sum passes SIMTIME_MAX. */
static inline bool simtime_add(simtime_t a, simtime_t b, simtime_t *out)
{
	return !__builtin_add_overflow(a, b, out) && *out <= SIMTIME_MAX;
}

/* simtime_pct - *@out = @d * @pct / 100, rounded down, exact for any @d (no 64-bit product
 * that could wrap).  Return: false when the result passes SIMTIME_MAX. */
static inline bool simtime_pct(simtime_t d, uint64_t pct, simtime_t *out)
{
	return !__builtin_mul_overflow(d / 100, pct, out) &&
	       simtime_add(*out, d % 100 * pct / 100, out);
}

#define PS_PER_NS 1000ull
#define PS_PER_US 1000000ull
#define PS_PER_S 1000000000000ull

#endif
