/*
 * structs.c - structs the layout tests compile with `gcc -g`, import with pahole and compare
 * with what gcc itself placed.  Built twice (sim/tests/meson.build): as structs.o for pahole,
 * and with -DPROBE as a program that prints gcc's own offsetof/sizeof of every member and the
 * bits every bitfield occupies, so the tests check the importer against the compiler, not
 * against pahole's text alone.
 */
#include <stddef.h>

/* pahole: "Bitfield combined with next fields": name[] starts in byte 13, inside the storage
 * unit (bytes 12-15) of x, whose 4 bits use only byte 12; c shares s's 2-byte unit. */
struct bf_combined {
	unsigned long a;
	unsigned int flag1:2;
	unsigned int flag2:18;
	unsigned int flag3:12;
	unsigned int x:4;
	char name[13];
	short s:3;
	char c;
	void *p;
};

/* A bitfield after a char (its unit starts before it), one crossing into a new unit, a wide
 * long bitfield, and a signed one. */
struct bf_mixed {
	char c;
	unsigned int a:4;
	unsigned short b:9;
	unsigned char d;
	long e:33;
	int f:7;
	char tail[3];
};

struct inner {
	long x;
	int y;
};

/* Embedded structs (by value, in arrays), inline unions and structs, a function pointer and
 * an explicitly aligned member: import --recursive follows `struct inner`. */
struct outer {
	char tag;
	struct inner in;
	struct inner arr[2];
	union {
		int i;
		char bytes[6];
	} u;
	struct {
		short s;
		unsigned char flags:3;
	} named;
	void (*fn)(int);
	long hot __attribute__((__aligned__(64)));
	struct bf_combined bf;
};

/* One object of each, so gcc emits their DWARF. */
struct outer outer_instance;
struct bf_mixed bf_mixed_instance;

#ifdef PROBE
#include <stdio.h>
#include <string.h>

/* "STRUCT<TAB>PATH<TAB>OFFSET<TAB>SIZE" from gcc's offsetof and sizeof. */
#define FIELD(S, m) printf("%s\t%s\t%zu\t%zu\n", #S, #m, offsetof(struct S, m), \
			   sizeof(((struct S *)0)->m))

/* "STRUCT<TAB>PATH<TAB>bits<TAB>FIRST<TAB>COUNT": set the field to all ones in a zeroed
 * object and find the bits that changed (x86-64 is little-endian: bit b of byte B is bit
 * 8B + b of the object). */
#define BITS(S, m) do {							\
		struct S s_;						\
		memset(&s_, 0, sizeof(s_));				\
		s_.m = ones;						\
		bits(#S, #m, (const unsigned char *)&s_, sizeof(s_));	\
	} while (0)

static void bits(const char *s, const char *m, const unsigned char *p, size_t n)
{
	size_t first = 0, count = 0;

	for (size_t i = 0; i < 8 * n; i++)
		if (p[i / 8] >> (i % 8) & 1) {
			if (!count)
				first = i;
			count++;
		}
	printf("%s\t%s\tbits\t%zu\t%zu\n", s, m, first, count);
}

int main(void)
{
	volatile long long ones = -1; /* a run-time value: no constant-overflow warnings */

	FIELD(bf_combined, a); BITS(bf_combined, flag1); BITS(bf_combined, flag2);
	BITS(bf_combined, flag3); BITS(bf_combined, x); FIELD(bf_combined, name);
	BITS(bf_combined, s); FIELD(bf_combined, c); FIELD(bf_combined, p);
	printf("bf_combined\t\tsize\t%zu\n", sizeof(struct bf_combined));

	FIELD(bf_mixed, c); BITS(bf_mixed, a); BITS(bf_mixed, b); FIELD(bf_mixed, d);
	BITS(bf_mixed, e); BITS(bf_mixed, f); FIELD(bf_mixed, tail);
	printf("bf_mixed\t\tsize\t%zu\n", sizeof(struct bf_mixed));

	FIELD(inner, x); FIELD(inner, y);
	printf("inner\t\tsize\t%zu\n", sizeof(struct inner));

	FIELD(outer, tag); FIELD(outer, in); FIELD(outer, in.x); FIELD(outer, in.y);
	FIELD(outer, arr); FIELD(outer, arr[1].y); FIELD(outer, u); FIELD(outer, u.i);
	FIELD(outer, u.bytes); FIELD(outer, named); FIELD(outer, named.s);
	BITS(outer, named.flags); FIELD(outer, fn); FIELD(outer, hot); FIELD(outer, bf);
	FIELD(outer, bf.name); BITS(outer, bf.x);
	printf("outer\t\tsize\t%zu\n", sizeof(struct outer));
	return 0;
}
#endif
