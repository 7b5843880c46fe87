/*
 * limit-probe - a minimal directory-based coherence DES: the yardstick for c2csim's speed.
 *
 * It does only what any discrete-event simulator of a directory protocol must do for each
 * access, and nothing a real model adds (caches, timing tables, prefetch, statistics):
 *   - pop the earliest event from a binary heap ordered by (time, sequence number),
 *   - find the line's directory entry in an open-addressing table keyed by line address,
 *   - apply the MESI transition with an 80-bit sharer set (a load joins the sharers and
 *     downgrades a Modified owner; a store invalidates every other sharer and takes the line
 *     Modified), charging a latency that depends on what the directory found,
 *   - push the CPU's next access.
 * 80 CPUs access 4 hot lines, chosen per access by a per-CPU xorshift stream; one access in
 * four is a load.  With 80 CPUs on 4 lines nearly every access misses.  `c2csim bench
 * --vs-limit` runs it beside the contended-80 workload for as many accesses and prints the
 * ratio of their accesses per host CPU second.
 *
 * Usage: limit-probe [--accesses N]   (default 15000000)
 * Prints one line: "accesses N host_s S macc_s M sharers_checksum C" (the checksum keeps the
 * compiler from dropping the work and makes the run reproducible: it is the same every run).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NR_CPUS 80
#define NR_HOT 4
#define DIR_SLOTS 64 /* a power of two, at most half full */
#define SHARER_WORDS 2 /* 128 bits >= NR_CPUS */

enum mesi { I, S, E, M };

struct dirent {
	uint64_t addr; /* 0: empty slot */
	uint8_t state;
	uint8_t owner;
	uint64_t sharers[SHARER_WORDS];
};

struct event {
	uint64_t time, seq;
	uint32_t cpu;
};

struct heap {
	struct event v[NR_CPUS];
	uint32_t n;
};

static int ev_before(const struct event *a, const struct event *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

static void heap_push(struct heap *h, struct event e)
{
	uint32_t i = h->n++;

	while (i && ev_before(&e, &h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = e;
}

static struct event heap_pop(struct heap *h)
{
	struct event top = h->v[0], last = h->v[--h->n];
	uint32_t i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && ev_before(&h->v[c + 1], &h->v[c]))
			c++;
		if (!ev_before(&h->v[c], &last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	h->v[i] = last;
	return top;
}

static struct dirent *dir_lookup(struct dirent *dir, uint64_t addr)
{
	uint32_t k = (uint32_t)((addr >> 6) * 0x9e3779b97f4a7c15ull >> 58) & (DIR_SLOTS - 1);

	while (dir[k].addr && dir[k].addr != addr)
		k = (k + 1) & (DIR_SLOTS - 1);
	if (!dir[k].addr)
		dir[k].addr = addr;
	return &dir[k];
}

static int has(const struct dirent *d, uint32_t cpu)
{
	return (int)(d->sharers[cpu >> 6] >> (cpu & 63) & 1);
}

/* The MESI transition at the directory.  Return: the access's latency in ps. */
static uint64_t mesi_access(struct dirent *d, uint32_t cpu, int store)
{
	uint64_t lat;

	if (d->state == I) {
		lat = 80000; /* from memory */
	} else if (d->state == M && d->owner != cpu) {
		lat = 60000; /* HITM: the owner forwards it */
	} else if (has(d, cpu)) {
		lat = store && d->state == S ? 40000 : 1000; /* upgrade, or a hit */
	} else {
		lat = 40000; /* a clean copy from another cache */
	}
	if (store) {
		int others = 0;

		for (int w = 0; w < SHARER_WORDS; w++)
			others += __builtin_popcountll(d->sharers[w]);
		lat += others > 1 ? 10000 : 0; /* the invalidations, in parallel */
		memset(d->sharers, 0, sizeof d->sharers);
		d->state = M;
		d->owner = (uint8_t)cpu;
	} else if (d->state == I) {
		d->state = E; /* the only copy */
		d->owner = (uint8_t)cpu;
	} else if (d->state == S || d->owner != cpu) {
		d->state = S; /* an E or M owner keeps a shared copy */
	}
	d->sharers[cpu >> 6] |= 1ull << (cpu & 63);
	return lat;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static struct dirent dir[DIR_SLOTS];
	static struct heap h;
	uint64_t rng[NR_CPUS], accesses = 15000000, seq = 0, sum = 0;
	double t0, t;

	if (argc == 3 && !strcmp(argv[1], "--accesses"))
		accesses = strtoull(argv[2], NULL, 10);
	else if (argc != 1) {
		fprintf(stderr, "usage: limit-probe [--accesses N]\n");
		return 2;
	}
	for (uint32_t c = 0; c < NR_CPUS; c++) {
		rng[c] = 0x9e3779b97f4a7c15ull * (c + 1);
		heap_push(&h, (struct event){c, seq++, c});
	}
	t0 = cpu_seconds();
	for (uint64_t i = 0; i < accesses; i++) {
		struct event e = heap_pop(&h);
		uint64_t r = xorshift(&rng[e.cpu]);
		struct dirent *d = dir_lookup(dir, 0x10000 + (r % NR_HOT) * 64);

		e.time += mesi_access(d, e.cpu, (r >> 8) % 4 != 0);
		e.seq = seq++;
		heap_push(&h, e);
	}
	t = cpu_seconds() - t0;
	for (uint32_t k = 0; k < DIR_SLOTS; k++)
		sum += dir[k].sharers[0] ^ dir[k].sharers[1] ^ dir[k].owner;
	printf("accesses %llu host_s %.6f macc_s %.2f sharers_checksum %llu\n",
	       (unsigned long long)accesses, t, t > 0 ? (double)accesses / t / 1e6 : 0.0,
	       (unsigned long long)sum);
	return 0;
}
