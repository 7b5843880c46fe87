/* types.h - the few types every module shares. */
#ifndef C2C_TYPES_H
#define C2C_TYPES_H

#include <stdint.h>

/* Simulated time in picoseconds.  An integer: nothing that decides event order is floating. */
typedef uint64_t simtime_t;

#define PS_PER_NS 1000ull
#define PS_PER_US 1000000ull
#define PS_PER_S 1000000000000ull

#endif
