/*
 * mem_check.c - the SWMR and data-value invariants, and violation reports; see mem.h.
 *
 * Only run when mem->check is set (always in tests): each check walks the sharer bitset and
 * looks into every holder's caches, which is too slow for production runs.  After each
 * transition the listed holders are checked; every MEM_CHECK_ALL_EVERY-th check also looks
 * into the caches of every core, for a copy the directory lost: looking into 256 cores'
 * caches on every access made the checked seed-000 run 20x slower than the run itself.
 */
#include "mem/mem.h"

#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mem_trail_push(struct mem *m, simtime_t now, int cpu, uint64_t addr, int event, int own,
		    int others, int next_own, int next_others)
{
	m->trail[m->nr_trail++ % MEM_TRAIL] = (struct mem_trail){
		now, addr, cpu, (uint8_t)event, (uint8_t)own, (uint8_t)others, (uint8_t)next_own,
		(uint8_t)next_others};
}

/* Append "core N: STATE [epoch E]" for every core that holds or is said to hold the line. */
static void describe_holders(const struct mem *m, uint32_t idx, GString *s)
{
	const struct dline *dl = &m->dir.line[idx];

	g_string_append_printf(s, "; directory: owner %d%s, %u sharers, epoch %" PRIu64,
			       dl->owner, dl->dirty ? " (dirty)" : "", dl->nr_sharers, dl->version);
	for (int c = 0; c < m->mc->nr_cores; c++) {
		const struct pcache *l2 = &m->core[c].l2;
		struct cway *w = pcache_lookup(&m->core[c].l2, dl->addr);

		if (!w && !dir_has(&m->dir, idx, c))
			continue;
		g_string_append_printf(s, "; core %d: %s", c, w ? mesi_names[w->state] : "absent");
		if (w && l2->epoch) /* kept in check mode only */
			g_string_append_printf(s, " epoch %" PRIu64, pcache_epoch(l2, w));
		if (!dir_has(&m->dir, idx, c))
			g_string_append(s, " (not in directory)");
	}
}

void mem_fail(struct mem *m, simtime_t now, uint32_t idx, const char *fmt, ...)
{
	GString *s = g_string_new(NULL);
	va_list ap;

	if (m->failed)
		return;
	m->failed = true;
	g_string_append_printf(s, "invariant violation at %" PRIu64 " ps", now);
	if (idx != DIR_NONE)
		g_string_append_printf(s, " on line 0x%" PRIx64, m->dir.line[idx].addr);
	g_string_append(s, ": ");
	va_start(ap, fmt);
	g_string_append_vprintf(s, fmt, ap);
	va_end(ap);
	if (idx != DIR_NONE)
		describe_holders(m, idx, s);
	g_string_append(s, "; last events:");
	for (uint64_t i = m->nr_trail > MEM_TRAIL ? m->nr_trail - MEM_TRAIL : 0; i < m->nr_trail;
	     i++) {
		const struct mem_trail *t = &m->trail[i % MEM_TRAIL];

		g_string_append_printf(s, " [%" PRIu64 " cpu%d 0x%" PRIx64 " %s %s/%s->%s/%s]",
				       t->time, t->cpu, t->addr, proto_event_names[t->event],
				       mesi_names[t->own], mesi_names[t->others],
				       mesi_names[t->next_own], mesi_names[t->next_others]);
	}
	g_strlcpy(m->fail_msg, s->str, sizeof(m->fail_msg));
	g_string_free(s, TRUE);
}

/* One core's copies of line @idx against the directory; counts a holder into @holders. */
static bool check_core(struct mem *m, uint32_t idx, int c, simtime_t now, uint32_t *holders)
{
	const struct dline *dl = &m->dir.line[idx];
	struct cway *w2 = pcache_lookup(&m->core[c].l2, dl->addr);
	struct cway *w1 = pcache_lookup(&m->core[c].l1, dl->addr);
	bool listed = dir_has(&m->dir, idx, c);
	uint64_t e1, e2;

	if (!w2 && !listed && !w1)
		return true;
	if (!w2 || !listed || w2->state == MESI_I) {
		mem_fail(m, now, idx, "core %d: cache and directory disagree", c);
		return false;
	}
	(*holders)++;
	/* SWMR: an exclusive copy is the only one; Shared copies have no owner. */
	if ((w2->state >= MESI_E) != (dl->owner == c) ||
	    (dl->owner == c && (w2->state == MESI_M) != dl->dirty)) {
		mem_fail(m, now, idx, "SWMR: core %d holds %s but the owner is %d", c,
			 mesi_names[w2->state], dl->owner);
		return false;
	}
	e2 = pcache_epoch(&m->core[c].l2, w2);
	e1 = w1 ? pcache_epoch(&m->core[c].l1, w1) : e2;
	if (w1 && (w1->state != w2->state || e1 != e2 || w2->pf ||
		   pcache_set(&m->core[c].l2, dl->addr) + w1->l2w != w2 ||
		   hier_l1_way(&m->core[c], w2, dl->addr) != w1)) {
		mem_fail(m, now, idx, "core %d: L1d and L2 copies differ", c);
		return false;
	}
	/* Data-value: every copy holds the last written epoch. */
	if (e2 != dl->version) {
		mem_fail(m, now, idx, "data-value: core %d reads epoch %" PRIu64
			 " but the last write made %" PRIu64, c, e2, dl->version);
		return false;
	}
	return true;
}

/* @all: look into every core's caches (a copy the directory does not list); otherwise only
 * into the cores the directory lists. */
static bool check_line(struct mem *m, uint32_t idx, simtime_t now, bool all)
{
	const struct dline *dl = &m->dir.line[idx];
	uint32_t holders = 0;

	for (int c = 0; c < m->mc->nr_cores; c++)
		if ((all || dir_has(&m->dir, idx, c)) && !check_core(m, idx, c, now, &holders))
			return false;
	if (holders != dl->nr_sharers || (dl->owner >= 0 && holders != 1)) {
		mem_fail(m, now, idx, "SWMR: %u holders, directory counts %u, owner %d", holders,
			 dl->nr_sharers, dl->owner);
		return false;
	}
	return true;
}

bool mem_check_line(struct mem *m, uint32_t idx, simtime_t now)
{
	return check_line(m, idx, now, true);
}

bool mem_check_access(struct mem *m, uint32_t idx, simtime_t now)
{
	return check_line(m, idx, now, m->nr_checks++ % MEM_CHECK_ALL_EVERY == 0);
}
