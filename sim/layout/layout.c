/* layout.c - the layout data model: construction and member bookkeeping; see layout.h. */
#include "layout/layout.h"

#include <glib.h>
#include <string.h>

const char *const lm_kind_names[LM_KIND_COUNT + 1] = {"field", "struct", "union", "pad", NULL};
const char *const lassert_kind_names[LA_KIND_COUNT + 1] = {
	"member_in_group", "group_size", "not_same_line", "not_same_pair", "same_line", NULL};

struct layout *layout_new(const char *name)
{
	struct layout *l = g_new0(struct layout, 1);

	l->name = g_strdup(name);
	return l;
}

void lmember_release(struct lmember *m)
{
	for (uint32_t i = 0; i < m->nr_sub; i++)
		lmember_release(&m->sub[i]);
	g_free(m->sub);
	g_free(m->name);
	g_free(m->type);
	g_free(m->layout);
	memset(m, 0, sizeof(*m));
}

void layout_free(struct layout *l)
{
	if (!l)
		return;
	for (uint32_t i = 0; i < l->nr; i++)
		lmember_release(&l->m[i]);
	g_free(l->m);
	for (uint32_t i = 0; i < l->nr_groups; i++) {
		g_free(l->groups[i].name);
		g_free(l->groups[i].first);
		g_free(l->groups[i].last);
	}
	g_free(l->groups);
	for (uint32_t i = 0; i < l->nr_asserts; i++) {
		g_free(l->asserts[i].a);
		g_free(l->asserts[i].b);
	}
	g_free(l->asserts);
	g_free(l->name);
	g_free(l->file);
	g_free(l->source);
	g_free(l);
}

struct lmember *lmember_append(struct lmember **arr, uint32_t *nr)
{
	/* Grow by powers of two: the capacity is implicit in the count. */
	if (!(*nr & (*nr - 1)) || *nr == 0)
		*arr = g_renew(struct lmember, *arr, *nr ? 2 * *nr : 4);
	memset(&(*arr)[*nr], 0, sizeof(struct lmember));
	return &(*arr)[(*nr)++];
}

uint64_t lmember_elems(const struct lmember *m)
{
	uint64_t n = 1;

	for (int d = 0; d < m->nr_dims; d++)
		n *= m->dims[d];
	return n;
}

void lmember_bits(const struct lmember *m, uint64_t *lo, uint64_t *hi)
{
	*lo = m->offset * 8 + (m->bits ? m->bit_offset : 0);
	*hi = m->bits ? *lo + m->bits : (m->offset + m->size) * 8;
}

/* An array for @nr members with the room lmember_append assumes it has. */
static struct lmember *member_array(uint32_t nr)
{
	uint32_t cap = 4;

	while (cap < nr)
		cap *= 2;
	return nr ? g_new0(struct lmember, cap) : NULL;
}

static void lmember_copy(struct lmember *to, const struct lmember *from)
{
	*to = *from;
	to->name = g_strdup(from->name);
	to->type = g_strdup(from->type);
	to->layout = g_strdup(from->layout);
	to->sub = member_array(from->nr_sub);
	for (uint32_t i = 0; i < from->nr_sub; i++)
		lmember_copy(&to->sub[i], &from->sub[i]);
}

struct layout *layout_copy(const struct layout *l)
{
	struct layout *c = g_new0(struct layout, 1);

	*c = *l;
	c->name = g_strdup(l->name);
	c->file = g_strdup(l->file);
	c->source = g_strdup(l->source);
	c->m = member_array(l->nr);
	for (uint32_t i = 0; i < l->nr; i++)
		lmember_copy(&c->m[i], &l->m[i]);
	c->groups = l->nr_groups ? g_new0(struct lgroup, l->nr_groups) : NULL;
	for (uint32_t i = 0; i < l->nr_groups; i++) {
		c->groups[i] = l->groups[i];
		c->groups[i].name = g_strdup(l->groups[i].name);
		c->groups[i].first = g_strdup(l->groups[i].first);
		c->groups[i].last = g_strdup(l->groups[i].last);
	}
	c->asserts = l->nr_asserts ? g_new0(struct lassert, l->nr_asserts) : NULL;
	for (uint32_t i = 0; i < l->nr_asserts; i++) {
		c->asserts[i] = l->asserts[i];
		c->asserts[i].a = g_strdup(l->asserts[i].a);
		c->asserts[i].b = g_strdup(l->asserts[i].b);
	}
	return c;
}
