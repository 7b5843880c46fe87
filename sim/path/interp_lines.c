/* interp_lines.c - the set of lines a top-level call touched (struct line_set, interp.h). */
#include <glib.h>
#include <string.h>

#include "path/interp_int.h"

#define LINE_SET_FIRST 64 /* slots at first: most calls touch fewer than half of them */

void it_lines_init(struct ptask *t)
{
	t->lines.slot = g_new0(struct line_slot, LINE_SET_FIRST);
	t->lines.mask = LINE_SET_FIRST - 1;
	t->stamp = 1; /* never a free slot's 0, even before the first call */
}

void it_lines_release(struct ptask *t)
{
	g_free(t->lines.slot);
	t->lines.slot = NULL;
}

void it_lines_new_call(struct ptask *t)
{
	/* After 2^32 calls the stamp comes round: slots stamped long ago must not count. */
	if (++t->stamp == 0) {
		memset(t->lines.slot, 0, sizeof(struct line_slot) * (t->lines.mask + 1));
		t->stamp = 1;
	}
	t->call_lines = 0;
}

/* Twice the slots, keeping the call's lines: the set stays at most half full, so a probe
 * for an absent line ends within a few slots. */
void it_lines_grow(struct ptask *t)
{
	struct line_set old = t->lines;

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
