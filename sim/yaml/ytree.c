/* ytree.c - YAML parsing, node lifecycle, structure checks; see ytree.h for the design. */
#include "yaml/ytree.h"
#include "yaml/ytree_int.h"
#include "core/infile.h"

#include <string.h>

#include <glib.h>
#include <yaml.h>

/* Deepest nesting accepted.  Inputs are hand-written configuration; the limit keeps the
 * recursive builder, yt_copy and yt_free from overflowing the stack on hostile input. */
#define YT_MAX_DEPTH 200

/* Only the YAML core schema's own tags ("!!str", "!!int", ...) are accepted. */
#define YT_STD_TAG_PREFIX "tag:yaml.org,2002:"

/*
 * struct yt_strpool - the file name shared by all nodes of one parse.
 *
 * Every node holds its own reference, so a subtree that yt_copy() or yt_replace() moved into
 * another tree keeps valid marks after the tree it came from is freed.  The count is atomic
 * because copies of one parse may end up owned (and freed) by different threads.
 */
struct yt_strpool {
	gatomicrefcount refs;
	char name[];
};

struct yt_strpool *yt_pool_new(const char *name)
{
	size_t len = strlen(name);
	struct yt_strpool *pool = g_malloc(sizeof(*pool) + len + 1);

	g_atomic_ref_count_init(&pool->refs);
	memcpy(pool->name, name, len + 1);
	return pool;
}

static struct yt_strpool *pool_ref(struct yt_strpool *pool)
{
	if (pool)
		g_atomic_ref_count_inc(&pool->refs);
	return pool;
}

void yt_pool_unref(struct yt_strpool *pool)
{
	if (pool && g_atomic_ref_count_dec(&pool->refs))
		g_free(pool);
}

struct yt_node *yt_node_new(enum yt_kind kind, struct yt_strpool *pool, int line, int col)
{
	struct yt_node *n = g_new0(struct yt_node, 1);

	n->kind = kind;
	n->pool = pool_ref(pool);
	n->mark = (struct c2c_mark){ pool ? pool->name : NULL, line, col };
	return n;
}

const char *yt_kind_name(enum yt_kind kind)
{
	static const char *const names[YT_KIND_COUNT] = { "a scalar", "a mapping", "a sequence" };

	return kind < YT_KIND_COUNT ? names[kind] : "an unknown node";
}

/* Free what @n owns but not @n itself, so yt_replace() can reuse the struct in place. */
static void node_clear(struct yt_node *n)
{
	size_t i;

	if (n->kind == YT_MAP) {
		for (i = 0; i < n->len; i++) {
			yt_free(n->pairs[i].key);
			yt_free(n->pairs[i].val);
		}
	} else if (n->kind == YT_SEQ) {
		for (i = 0; i < n->len; i++)
			yt_free(n->items[i]);
	}
	if (n->index)
		g_hash_table_destroy(n->index);
	g_free(n->pairs);
	g_free(n->items);
	g_free(n->str);
	yt_pool_unref(n->pool);
}

void yt_free(struct yt_node *node)
{
	if (!node)
		return;
	node_clear(node);
	g_free(node);
}

struct yt_node *yt_copy(const struct yt_node *node)
{
	struct yt_node *n;
	size_t i;

	if (!node)
		return NULL;
	n = yt_node_new(node->kind, node->pool, node->mark.line, node->mark.col);
	n->mark = node->mark;
	n->str = g_strdup(node->str);
	n->quoted = node->quoted;
	n->len = node->len;
	if (node->kind == YT_MAP) {
		n->pairs = g_new(struct yt_pair, yt_cap(node->len));
		for (i = 0; i < node->len; i++) {
			n->pairs[i].key = yt_copy(node->pairs[i].key);
			n->pairs[i].val = yt_copy(node->pairs[i].val);
		}
	} else if (node->kind == YT_SEQ) {
		n->items = g_new(struct yt_node *, yt_cap(node->len));
		for (i = 0; i < node->len; i++)
			n->items[i] = yt_copy(node->items[i]);
	}
	return n;
}

void yt_replace(struct yt_node *old, const struct yt_node *src)
{
	/* Copy first: @src may be a descendant of @old, which node_clear() frees. */
	struct yt_node *copy;

	g_return_if_fail(old && src);
	copy = yt_copy(src);

	node_clear(old);
	*old = *copy;
	g_free(copy);
}

/* ---- Parsing --------------------------------------------------------------------- */

struct loader {
	yaml_parser_t parser;
	struct yt_strpool *pool;
	struct c2c_err *err;
	const char *text; /* the whole input, to place reader (encoding) errors */
};

static struct c2c_mark loader_mark(const struct loader *ld, yaml_mark_t m)
{
	return (struct c2c_mark){ ld->pool->name, (int)m.line + 1, (int)m.column + 1 };
}

static struct yt_node *node_at(struct loader *ld, enum yt_kind kind, const yaml_event_t *ev)
{
	return yt_node_new(kind, ld->pool, (int)ev->start_mark.line + 1,
			   (int)ev->start_mark.column + 1);
}

/* Reader (encoding) errors come with a byte offset only, and are found when libyaml fills its
 * buffer, far ahead of the scanner's position: count lines up to the offset instead. */
static struct c2c_mark offset_mark(const struct loader *ld, size_t offset)
{
	struct c2c_mark at = { ld->pool->name, 1, 1 };
	size_t i;

	for (i = 0; i < offset && ld->text[i]; i++) {
		at.col = ld->text[i] == '\n' ? 1 : at.col + 1;
		at.line += ld->text[i] == '\n';
	}
	return at;
}

/* next_event - pull one libyaml event, turning a scanner/parser failure into a c2c error. */
static bool next_event(struct loader *ld, yaml_event_t *ev)
{
	const yaml_parser_t *p = &ld->parser;
	struct c2c_mark at;
	const char *problem;

	if (yaml_parser_parse(&ld->parser, ev))
		return true;
	problem = p->problem ? p->problem : "cannot parse";
	if (p->error == YAML_READER_ERROR)
		at = offset_mark(ld, p->problem_offset);
	else
		at = loader_mark(ld, p->problem_mark);
	if (p->context)
		err_set(ld->err, at, "%s %s at %d:%d (expected valid YAML)", problem, p->context,
			(int)p->context_mark.line + 1, (int)p->context_mark.column + 1);
	else
		err_set(ld->err, at, "%s (expected valid YAML)", problem);
	return false;
}

/* Anchors would make the tree a graph and custom tags would need a schema; refuse both. */
static bool check_props(struct loader *ld, const yaml_event_t *ev, const yaml_char_t *anchor,
			const yaml_char_t *tag)
{
	struct c2c_mark at = loader_mark(ld, ev->start_mark);

	if (anchor) {
		err_set(ld->err, at, "anchors and aliases are not supported "
			"(expected the value written out)");
		return false;
	}
	if (tag && strncmp((const char *)tag, YT_STD_TAG_PREFIX, strlen(YT_STD_TAG_PREFIX))) {
		err_set(ld->err, at, "tag '%s' is not supported (expected an untagged value)",
			(const char *)tag);
		return false;
	}
	return true;
}

static struct yt_node *parse_node(struct loader *ld, yaml_event_t *ev, int depth);

static struct yt_node *parse_scalar(struct loader *ld, const yaml_event_t *ev)
{
	const yaml_char_t *tag = ev->data.scalar.tag;
	struct yt_node *n;

	if (!check_props(ld, ev, ev->data.scalar.anchor, tag))
		return NULL;
	n = node_at(ld, YT_SCALAR, ev);
	n->str = g_strndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
	/* Any non-plain style, or an explicit !!str, means "this is text, not a number". */
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
		    (tag && !strcmp((const char *)tag, YAML_STR_TAG));
	return n;
}

/* Mappings longer than this find duplicate keys through a hash table, not by scanning. */
#define MAP_SCAN_KEYS 16

/* The earlier key of @map equal to @key, or NULL.  @seen (key text -> key node) is made once
 * the map is long enough that scanning it for every key would be quadratic. */
static const struct yt_node *map_find_key(const struct yt_node *map, const char *key,
					  GHashTable **seen)
{
	if (!*seen && map->len < MAP_SCAN_KEYS) {
		for (size_t i = 0; i < map->len; i++)
			if (!strcmp(map->pairs[i].key->str, key))
				return map->pairs[i].key;
		return NULL;
	}
	if (!*seen) {
		*seen = g_hash_table_new(g_str_hash, g_str_equal);
		for (size_t i = 0; i < map->len; i++)
			g_hash_table_insert(*seen, map->pairs[i].key->str, map->pairs[i].key);
	}
	return g_hash_table_lookup(*seen, key);
}

/*
 * map_check_key - check a freshly parsed key before its value is read: it must be a scalar and
 * must not repeat an earlier key (libyaml accepts both; a silent "last one wins" would hide
 * typos in configuration).  A good key is added to @seen when that exists.
 */
static bool map_check_key(struct loader *ld, const struct yt_node *map, struct yt_node *key,
			  GHashTable **seen)
{
	const struct yt_node *prev;

	if (key->kind != YT_SCALAR) {
		err_set(ld->err, key->mark, "mapping key is %s (expected a scalar key)",
			yt_kind_name(key->kind));
		return false;
	}
	if ((prev = map_find_key(map, key->str, seen))) {
		err_set(ld->err, key->mark, "duplicate key '%s' (first at %d:%d)", key->str,
			prev->mark.line, prev->mark.col);
		return false;
	}
	if (*seen)
		g_hash_table_insert(*seen, key->str, key);
	return true;
}

/*
 * parse_coll - a sequence or mapping, read up to its end event.  The node is valid at every
 * step (len counts only complete entries), so one yt_free() cleans up after any error.
 */
static struct yt_node *parse_coll(struct loader *ld, const yaml_event_t *ev, int depth)
{
	bool is_map = ev->type == YAML_MAPPING_START_EVENT;
	struct yt_node *n, *key, *val;
	g_autoptr(GHashTable) seen = NULL; /* keys of a long mapping (map_find_key) */
	yaml_event_t cev;
	size_t cap = 0;

	if (is_map ? !check_props(ld, ev, ev->data.mapping_start.anchor, ev->data.mapping_start.tag)
		   : !check_props(ld, ev, ev->data.sequence_start.anchor, ev->data.sequence_start.tag))
		return NULL;
	n = node_at(ld, is_map ? YT_MAP : YT_SEQ, ev);
	for (;;) {
		if (!next_event(ld, &cev))
			break;
		if (cev.type == YAML_MAPPING_END_EVENT || cev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&cev);
			return n;
		}
		key = NULL;
		val = parse_node(ld, &cev, depth + 1);
		if (is_map && val) {
			key = val;
			val = map_check_key(ld, n, key, &seen) && next_event(ld, &cev) ?
				      parse_node(ld, &cev, depth + 1) : NULL;
		}
		if (!val) {
			yt_free(key);
			break;
		}
		if (n->len == cap) {
			cap = cap ? 2 * cap : 4;
			if (is_map)
				n->pairs = g_renew(struct yt_pair, n->pairs, cap);
			else
				n->items = g_renew(struct yt_node *, n->items, cap);
		}
		if (is_map)
			n->pairs[n->len] = (struct yt_pair){ key, val };
		else
			n->items[n->len] = val;
		n->len++;
	}
	yt_free(n);
	return NULL;
}

/* parse_node - build the node that starts with @ev (consumed).  Return: node or NULL + error. */
static struct yt_node *parse_node(struct loader *ld, yaml_event_t *ev, int depth)
{
	struct c2c_mark at = loader_mark(ld, ev->start_mark);
	struct yt_node *n = NULL;

	if (depth > YT_MAX_DEPTH) {
		err_set(ld->err, at, "nesting deeper than %d levels (expected a flatter document)",
			YT_MAX_DEPTH);
	} else if (ev->type == YAML_SCALAR_EVENT) {
		n = parse_scalar(ld, ev);
	} else if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT) {
		n = parse_coll(ld, ev, depth);
	} else if (ev->type == YAML_ALIAS_EVENT) {
		err_set(ld->err, at, "anchors and aliases are not supported "
			"(expected the value written out)");
	} else {
		err_set(ld->err, at, "unexpected YAML event (expected a value)");
	}
	yaml_event_delete(ev);
	return n;
}

/* Skip an event we only need to see, not keep (stream/document start and end). */
static bool skip_event(struct loader *ld)
{
	yaml_event_t ev;

	if (!next_event(ld, &ev))
		return false;
	yaml_event_delete(&ev);
	return true;
}

/*
 * load_stream - the one document of the stream.  An empty file yields STREAM-END right away;
 * "---" alone yields an implicit empty scalar: both are "empty document".  A second
 * DOCUMENT-START means several documents, which no input of ours uses on purpose.
 */
static struct yt_node *load_stream(struct loader *ld)
{
	struct yt_node *root = NULL;
	yaml_event_t ev;

	if (!skip_event(ld) || !next_event(ld, &ev))
		return NULL;
	if (ev.type == YAML_STREAM_END_EVENT) {
		err_set(ld->err, loader_mark(ld, ev.start_mark),
			"empty document (expected a mapping)");
		yaml_event_delete(&ev);
		return NULL;
	}
	yaml_event_delete(&ev);
	if (!next_event(ld, &ev))
		return NULL;
	root = parse_node(ld, &ev, 0);
	if (!root)
		return NULL;
	if (root->kind == YT_SCALAR && !root->quoted && !root->str[0]) {
		err_set(ld->err, root->mark, "empty document (expected a mapping)");
		goto fail;
	}
	if (!skip_event(ld) || !next_event(ld, &ev))
		goto fail;
	if (ev.type == YAML_DOCUMENT_START_EVENT) {
		err_set(ld->err, loader_mark(ld, ev.start_mark),
			"multiple documents are not supported (expected a single document)");
		yaml_event_delete(&ev);
		goto fail;
	}
	yaml_event_delete(&ev);
	return root;
fail:
	yt_free(root);
	return NULL;
}

struct yt_node *yt_load_string(const char *name, const char *text, size_t len,
			       struct c2c_err *err)
{
	struct loader ld = { .err = err, .text = text };
	struct yt_node *root;

	if (!text) {
		ld.text = text = "";
		len = 0;
	}
	if (!yaml_parser_initialize(&ld.parser))
		g_error("yt_load_string: out of memory");
	ld.pool = yt_pool_new(name ? name : "<string>");
	yaml_parser_set_input_string(&ld.parser, (const unsigned char *)text, len);
	root = load_stream(&ld);
	yaml_parser_delete(&ld.parser);
	yt_pool_unref(ld.pool); /* the nodes hold their own references */
	return root;
}

struct yt_node *yt_load_file(const char *path, struct c2c_err *err)
{
	struct c2c_mark at = { path, 1, 1 };
	char why[INFILE_WHY_MAX], *text;
	struct yt_node *root;
	size_t len;

	/* Read it ourselves: libyaml reports a read failure (e.g. a directory) only vaguely. */
	if (!infile_read(path, INFILE_MAX_YAML, &text, &len, why)) {
		err_set(err, at, "%s (expected a regular file of at most %zu MiB)", why,
			INFILE_MIB(INFILE_MAX_YAML));
		return NULL;
	}
	root = yt_load_string(path, text, len, err);
	g_free(text);
	return root;
}

/* ---- Structure checks ------------------------------------------------------------ */

struct yt_node *yt_get(const struct yt_node *map, const char *key)
{
	size_t i;

	if (!map || map->kind != YT_MAP || !key)
		return NULL;
	if (map->index) { /* a long mapping an override searched (ytree_edit.c) */
		gpointer at = g_hash_table_lookup(map->index, key);

		return at ? map->pairs[GPOINTER_TO_SIZE(at) - 1].val : NULL;
	}
	for (i = 0; i < map->len; i++)
		if (!strcmp(map->pairs[i].key->str, key))
			return map->pairs[i].val;
	return NULL;
}

static bool in_list(const char *word, const char *const *names)
{
	for (; names && *names; names++)
		if (!strcmp(word, *names))
			return true;
	return false;
}

/* "WHAT: unknown NOUN 'w' (expected one of: a, b; did you mean 'a'?)" */
void yt_err_unknown(struct c2c_err *err, struct c2c_mark at, const char *what,
		    const char *noun, const char *word, const char *const *names)
{
	GString *list = g_string_new(NULL);
	const char *near = err_closest(word, names);
	const char *const *p;

	for (p = names; p && *p; p++)
		g_string_append_printf(list, "%s%s", p == names ? "" : ", ", *p);
	if (near)
		err_set(err, at, "%s: unknown %s '%s' (expected one of: %s; did you mean '%s'?)",
			what, noun, word, list->str, near);
	else
		err_set(err, at, "%s: unknown %s '%s' (expected one of: %s)", what, noun, word,
			list->str);
	g_string_free(list, TRUE);
}

/* A NULL node has no position: that is the caller's bug more than the input's. */
bool yt_need_kind(const struct yt_node *n, enum yt_kind kind, const char *what,
		  struct c2c_err *err)
{
	if (!n) {
		err_setf(err, "%s: missing value (expected %s)", what, yt_kind_name(kind));
		return false;
	}
	if (n->kind != kind) {
		err_set(err, n->mark, "%s: expected %s (got %s)", what, yt_kind_name(kind),
			yt_kind_name(n->kind));
		return false;
	}
	return true;
}

bool yt_expect_map(const struct yt_node *node, const char *what, const char *const *allowed,
		   struct c2c_err *err)
{
	size_t i;

	if (!yt_need_kind(node, YT_MAP, what, err))
		return false;
	for (i = 0; allowed && i < node->len; i++) {
		const struct yt_node *key = node->pairs[i].key;

		if (!in_list(key->str, allowed)) {
			yt_err_unknown(err, key->mark, what, "key", key->str, allowed);
			return false;
		}
	}
	return true;
}

struct yt_node *yt_require(const struct yt_node *map, const char *key, const char *what,
			   struct c2c_err *err)
{
	struct yt_node *val;

	if (!yt_need_kind(map, YT_MAP, what, err))
		return NULL;
	val = yt_get(map, key);
	if (!val)
		err_set(err, map->mark, "missing key '%s' in %s", key, what);
	return val;
}

bool yt_expect_seq(const struct yt_node *node, const char *what, struct c2c_err *err)
{
	return yt_need_kind(node, YT_SEQ, what, err);
}
