/* interp_lines.c - the set of lines a top-level call touched (struct line_set, interp.h). */
#include <glib.h>
#include <string.h>

#include "path/interp_int.h"

#define LINE_SET_FIRST 64 /* slots at first: most calls touch fewer than half of them */
#define LINE_SET_MAX 65536 /* slots at most (512 KiB), then stamps per line (interp.h) */

void it_lines_init(struct ptask *t)
{
	t->lines.slot = g_new0(struct line_slot, LINE_SET_FIRST);
	t->lines.mask = LINE_SET_FIRST - 1;
	t->stamp = 1; /* never a free slot's 0, even before the first call */
}

void it_lines_release(struct ptask *t)
{
	g_free(t->lines.slot);
	g_free(t->lines.by_line);
	t->lines = (struct line_set){0};
}

void it_lines_new_call(struct ptask *t)
{
	/* After 2^32 calls the stamp comes round: slots stamped long ago must not count. */
	if (++t->stamp == 0) {
		if (t->lines.slot)
			memset(t->lines.slot, 0, sizeof(struct line_slot) * (t->lines.mask + 1));
		else
			memset(t->lines.by_line, 0, sizeof(uint32_t) * t->lines.by_line_cap);
		t->stamp = 1;
	}
	t->call_lines = 0;
}

/* Twice the slots, keeping the call's lines: the set stays at most half full, so a probe
 * for an absent line ends within a few slots. */
/* Room in by_line for index @idx: as many as the directory has, at least twice as many as
 * before (the directory's slots grow by doubling too). */
static void by_line_room(struct ptask *t, uint32_t idx)
{
	uint32_t old = t->lines.by_line_cap, cap = t->w->mem->dir.cap;

	if (cap < 2 * old)
		cap = 2 * old;
	if (cap <= idx)
		cap = idx + 1;
	t->lines.by_line = g_renew(uint32_t, t->lines.by_line, cap);
	memset(t->lines.by_line + old, 0, sizeof(uint32_t) * (cap - old));
	t->lines.by_line_cap = cap;
}

bool it_line_first_by_line(struct ptask *t, uint32_t idx)
{
	if (idx >= t->lines.by_line_cap)
		by_line_room(t, idx);
	if (t->lines.by_line[idx] == t->stamp)
		return false;
	t->lines.by_line[idx] = t->stamp;
	t->call_lines++;
	return true;
}

/* The call's lines move from the set to stamps per line, for good. */
static void to_by_line(struct ptask *t)
{
	struct line_set old = t->lines;

	t->lines.slot = NULL;
	for (uint32_t i = 0; i <= old.mask; i++)
		if (old.slot[i].stamp == t->stamp) {
			if (old.slot[i].idx >= t->lines.by_line_cap)
				by_line_room(t, old.slot[i].idx);
			t->lines.by_line[old.slot[i].idx] = t->stamp;
		}
	g_free(old.slot);
}

void it_lines_grow(struct ptask *t)
{
	struct line_set old = t->lines;

	if (old.mask + 1 >= LINE_SET_MAX) {
		to_by_line(t);
		return;
	}

	t->lines.mask = 2 * old.mask + 1;
	t->lines.slot = g_new0(struct line_slot, t->lines.mask + 1);
	for (uint32_t i = 0; i <= old.mask; i++) {
		uint32_t h = it_line_hash(old.slot[i].idx) & t->lines.mask;

		if (old.slot[i].stamp != t->stamp)
			continue;
		while (t->lines.slot[h].stamp == t->stamp)
			h = (h + 1) & t->lines.mask;
		t->lines.slot[h] = old.slot[i];
	}
	g_free(old.slot);
}
