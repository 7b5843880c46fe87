/* ytree.c - see ytree.h for the design. */
#include "ytree.h"

#include <errno.h>
#include <inttypes.h>
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

static struct yt_strpool *pool_new(const char *name)
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

static void pool_unref(struct yt_strpool *pool)
{
	if (pool && g_atomic_ref_count_dec(&pool->refs))
		g_free(pool);
}

static struct yt_node *node_new(enum yt_kind kind, struct yt_strpool *pool, int line, int col)
{
	struct yt_node *n = g_new0(struct yt_node, 1);

	n->kind = kind;
	n->pool = pool_ref(pool);
	n->mark = (struct c2c_mark){ pool ? pool->name : NULL, line, col };
	return n;
}

static const char *kind_name(enum yt_kind kind)
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
	g_free(n->pairs);
	g_free(n->items);
	g_free(n->str);
	pool_unref(n->pool);
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
	n = node_new(node->kind, node->pool, node->mark.line, node->mark.col);
	n->mark = node->mark;
	n->str = g_strdup(node->str);
	n->quoted = node->quoted;
	n->len = node->len;
	if (node->kind == YT_MAP) {
		n->pairs = g_new(struct yt_pair, node->len);
		for (i = 0; i < node->len; i++) {
			n->pairs[i].key = yt_copy(node->pairs[i].key);
			n->pairs[i].val = yt_copy(node->pairs[i].val);
		}
	} else if (node->kind == YT_SEQ) {
		n->items = g_new(struct yt_node *, node->len);
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

/* Append one pair; used outside the parser, where maps are small and appends are rare. */
static void map_append(struct yt_node *map, struct yt_node *key, struct yt_node *val)
{
	map->pairs = g_renew(struct yt_pair, map->pairs, map->len + 1);
	map->pairs[map->len].key = key;
	map->pairs[map->len].val = val;
	map->len++;
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
	return node_new(kind, ld->pool, (int)ev->start_mark.line + 1,
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

/*
 * map_check_key - check a freshly parsed key before its value is read: it must be a scalar and
 * must not repeat an earlier key (libyaml accepts both; a silent "last one wins" would hide
 * typos in configuration).
 */
static bool map_check_key(struct loader *ld, const struct yt_node *map, const struct yt_node *key)
{
	size_t i;

	if (key->kind != YT_SCALAR) {
		err_set(ld->err, key->mark, "mapping key is %s (expected a scalar key)",
			kind_name(key->kind));
		return false;
	}
	for (i = 0; i < map->len; i++) {
		const struct yt_node *prev = map->pairs[i].key;

		if (!strcmp(prev->str, key->str)) {
			err_set(ld->err, key->mark, "duplicate key '%s' (first at %d:%d)", key->str,
				prev->mark.line, prev->mark.col);
			return false;
		}
	}
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
			val = map_check_key(ld, n, key) && next_event(ld, &cev) ?
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
	ld.pool = pool_new(name ? name : "<string>");
	yaml_parser_set_input_string(&ld.parser, (const unsigned char *)text, len);
	root = load_stream(&ld);
	yaml_parser_delete(&ld.parser);
	pool_unref(ld.pool); /* the nodes hold their own references */
	return root;
}

struct yt_node *yt_load_file(const char *path, struct c2c_err *err)
{
	struct c2c_mark at = { path, 1, 1 };
	GString *buf;
	struct yt_node *root;
	char chunk[8192];
	size_t got;
	FILE *f = fopen(path, "rb");
	int saved;

	if (!f) {
		err_set(err, at, "cannot open: %s (expected a readable file)", g_strerror(errno));
		return NULL;
	}
	/* Read it ourselves: libyaml reports a read failure (e.g. a directory) only vaguely. */
	buf = g_string_new(NULL);
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		g_string_append_len(buf, chunk, (gssize)got);
	saved = errno;
	if (ferror(f)) {
		err_set(err, at, "cannot read: %s (expected a readable file)", g_strerror(saved));
		root = NULL;
	} else {
		root = yt_load_string(path, buf->str, buf->len, err);
	}
	fclose(f);
	g_string_free(buf, TRUE);
	return root;
}

/* ---- Structure checks ------------------------------------------------------------ */

struct yt_node *yt_get(const struct yt_node *map, const char *key)
{
	size_t i;

	if (!map || map->kind != YT_MAP || !key)
		return NULL;
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
static void err_unknown(struct c2c_err *err, struct c2c_mark at, const char *what,
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
static bool need_kind(const struct yt_node *n, enum yt_kind kind, const char *what,
		      struct c2c_err *err)
{
	if (!n) {
		err_setf(err, "%s: missing value (expected %s)", what, kind_name(kind));
		return false;
	}
	if (n->kind != kind) {
		err_set(err, n->mark, "%s: expected %s (got %s)", what, kind_name(kind),
			kind_name(n->kind));
		return false;
	}
	return true;
}

bool yt_expect_map(const struct yt_node *node, const char *what, const char *const *allowed,
		   struct c2c_err *err)
{
	size_t i;

	if (!need_kind(node, YT_MAP, what, err))
		return false;
	for (i = 0; allowed && i < node->len; i++) {
		const struct yt_node *key = node->pairs[i].key;

		if (!in_list(key->str, allowed)) {
			err_unknown(err, key->mark, what, "key", key->str, allowed);
			return false;
		}
	}
	return true;
}

struct yt_node *yt_require(const struct yt_node *map, const char *key, const char *what,
			   struct c2c_err *err)
{
	struct yt_node *val;

	if (!need_kind(map, YT_MAP, what, err))
		return NULL;
	val = yt_get(map, key);
	if (!val)
		err_set(err, map->mark, "missing key '%s' in %s", key, what);
	return val;
}

bool yt_expect_seq(const struct yt_node *node, const char *what, struct c2c_err *err)
{
	return need_kind(node, YT_SEQ, what, err);
}

/* ---- Typed scalars --------------------------------------------------------------- */

/* A number-like getter wants a plain scalar: quotes are how a file says "this is text". */
static bool need_plain(const struct yt_node *n, const char *what, const char *expected,
		       struct c2c_err *err)
{
	if (!need_kind(n, YT_SCALAR, what, err))
		return false;
	if (n->quoted) {
		err_set(err, n->mark, "%s: '\"%s\"' is a quoted string (expected %s)", what, n->str,
			expected);
		return false;
	}
	return true;
}

enum num_parse { NUM_BAD, NUM_OK, NUM_OVERFLOW };

/*
 * parse_magnitude - the unsigned number in @s[0..len): decimal, or 0x-hex when @hex, with
 * single '_' separators between digits.  Overflow is still a number (reported as out of
 * range rather than "not an integer").
 */
static enum num_parse parse_magnitude(const char *s, size_t len, bool hex, uint64_t *out)
{
	const char *end = s + len;
	unsigned int base = 10;
	bool prev_digit = false, overflow = false;
	uint64_t v = 0;

	if (hex && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (s == end)
		return NUM_BAD;
	for (; s < end; s++) {
		int d = base == 16 ? g_ascii_xdigit_value(*s) : g_ascii_digit_value(*s);

		if (*s == '_' && prev_digit && s + 1 < end) {
			prev_digit = false;
			continue;
		}
		if (d < 0)
			return NUM_BAD;
		if (!g_uint64_checked_mul(&v, v, base) || !g_uint64_checked_add(&v, v, (guint64)d))
			overflow = true;
		prev_digit = true;
	}
	if (!prev_digit)
		return NUM_BAD;
	*out = v;
	return overflow ? NUM_OVERFLOW : NUM_OK;
}

/*
 * read_integer - optional '-' and a magnitude, kept apart so each getter checks its own range.
 * Return: false with the error set when @n is no plain integer (an overflowing one is still
 * an integer: *@overflow is set and the caller reports "out of range").
 */
static bool read_integer(const struct yt_node *n, const char *what, const char *expected,
			 bool *neg, uint64_t *mag, bool *overflow, struct c2c_err *err)
{
	enum num_parse r;

	if (!need_plain(n, what, expected, err))
		return false;
	*neg = n->str[0] == '-';
	r = parse_magnitude(n->str + *neg, strlen(n->str + *neg), true, mag);
	if (r == NUM_BAD) {
		err_set(err, n->mark, "%s: '%s' is not an integer (expected %s)", what, n->str,
			expected);
		return false;
	}
	*overflow = r == NUM_OVERFLOW;
	return true;
}

static bool err_range(const struct yt_node *n, const char *what, const char *expected,
		      struct c2c_err *err)
{
	err_set(err, n->mark, "%s: %s is out of range (expected %s)", what, n->str, expected);
	return false;
}

bool yt_int(const struct yt_node *n, const char *what, int64_t min, int64_t max, int64_t *out,
	    struct c2c_err *err)
{
	char expected[96];
	bool neg, overflow;
	uint64_t mag = 0;
	int64_t v;

	g_snprintf(expected, sizeof(expected), "an integer in [%" PRId64 ", %" PRId64 "]", min,
		   max);
	if (!read_integer(n, what, expected, &neg, &mag, &overflow, err))
		return false;
	if (overflow || mag > (uint64_t)INT64_MAX + neg)
		return err_range(n, what, expected, err);
	/* -(int64_t)2^63 overflows, so negatives are built from the magnitude minus one. */
	v = !mag ? 0 : neg ? -(int64_t)(mag - 1) - 1 : (int64_t)mag;
	if (v < min || v > max)
		return err_range(n, what, expected, err);
	*out = v;
	return true;
}

bool yt_u64(const struct yt_node *n, const char *what, uint64_t *out, struct c2c_err *err)
{
	static const char expected[] = "an integer in [0, 18446744073709551615]";
	bool neg, overflow;
	uint64_t mag = 0;

	if (!read_integer(n, what, expected, &neg, &mag, &overflow, err))
		return false;
	if (overflow || (neg && mag))
		return err_range(n, what, expected, err);
	*out = mag;
	return true;
}

bool yt_bool(const struct yt_node *n, const char *what, bool *out, struct c2c_err *err)
{
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };
	size_t i;

	if (!need_plain(n, what, "true or false", err))
		return false;
	for (i = 0; yes[i]; i++) {
		if (!g_ascii_strcasecmp(n->str, yes[i]) || !g_ascii_strcasecmp(n->str, no[i])) {
			*out = !g_ascii_strcasecmp(n->str, yes[i]);
			return true;
		}
	}
	err_set(err, n->mark, "%s: '%s' is not a boolean (expected true or false)", what, n->str);
	return false;
}

bool yt_str(const struct yt_node *n, const char *what, const char **out, struct c2c_err *err)
{
	if (!need_kind(n, YT_SCALAR, what, err))
		return false;
	*out = n->str;
	return true;
}

bool yt_enum(const struct yt_node *n, const char *what, const char *const *names, int *out,
	     struct c2c_err *err)
{
	int i;

	if (!need_kind(n, YT_SCALAR, what, err))
		return false;
	for (i = 0; names && names[i]; i++) {
		if (!strcmp(n->str, names[i])) {
			*out = i;
			return true;
		}
	}
	err_unknown(err, n->mark, what, "value", n->str, names);
	return false;
}

/*
 * parse_fraction - up to 3 decimals as thousandths ("5" -> 500, "001" -> 1).
 * Return: the digit count (0 = malformed), or 4 for "too many decimals".
 */
static int parse_fraction(const char *s, uint64_t *thousandths)
{
	int digits = 0;
	uint64_t v = 0;

	for (; *s; s++, digits++) {
		if (!g_ascii_isdigit(*s))
			return 0;
		if (digits < 3)
			v = v * 10 + (uint64_t)(*s - '0');
	}
	if (digits > 3)
		return 4;
	for (int i = digits; i < 3; i++)
		v *= 10;
	*thousandths = v;
	return digits;
}

bool yt_duration(const struct yt_node *n, const char *what, uint64_t unit_ps, uint64_t *out_ps,
		 struct c2c_err *err)
{
	static const char expected[] = "a duration >= 0";
	const char *s, *dot;
	uint64_t whole = 0, frac = 0, frac_ps, total;
	enum num_parse r;
	int digits = 1;

	if (!need_plain(n, what, expected, err))
		return false;
	s = n->str;
	if (s[0] == '-') {
		err_set(err, n->mark, "%s: negative value %s (expected %s)", what, s, expected);
		return false;
	}
	dot = strchr(s, '.');
	r = parse_magnitude(s, dot ? (size_t)(dot - s) : strlen(s), false, &whole);
	if (dot)
		digits = parse_fraction(dot + 1, &frac);
	if (r == NUM_BAD || digits == 0) {
		err_set(err, n->mark, "%s: '%s' is not a duration (expected %s)", what, s, expected);
		return false;
	}
	if (digits > 3) {
		err_set(err, n->mark, "%s: '%s' has more than 3 decimals (expected %s "
			"with at most 3 decimals)", what, s, expected);
		return false;
	}
	/* Exact integer arithmetic: a rounded duration could reorder simulated events. */
	if (r == NUM_OVERFLOW || !g_uint64_checked_mul(&total, whole, unit_ps) ||
	    !g_uint64_checked_mul(&frac_ps, frac, unit_ps) ||
	    !g_uint64_checked_add(&total, total, frac_ps / 1000)) {
		err_set(err, n->mark, "%s: %s is out of range (expected %s below 2^64 ps)", what, s,
			expected);
		return false;
	}
	if (frac_ps % 1000) {
		err_set(err, n->mark, "%s: %s is finer than 1 ps (expected a whole number of "
			"picoseconds)", what, s);
		return false;
	}
	*out_ps = total;
	return true;
}

/* ---- Overrides ------------------------------------------------------------------- */

/* One step of a parsed path: a key (key != NULL) or an index.  @end: offset just after it. */
struct path_step {
	const char *key;
	size_t key_len;
	size_t index;
	size_t end;
};

/* parse_path - split "a.b[0].c" into steps.  Return: false on a syntax error. */
static bool parse_path(const char *path, GArray *steps)
{
	const char *p = path;

	for (;;) {
		struct path_step st = { .key = p };

		while (g_ascii_isalnum(*p) || *p == '_' || *p == '-')
			p++;
		st.key_len = (size_t)(p - st.key);
		st.end = (size_t)(p - path);
		if (!st.key_len)
			return false;
		g_array_append_val(steps, st);
		while (*p == '[') {
			struct path_step ix = { 0 };
			const char *digits = ++p;

			for (; g_ascii_isdigit(*p); p++) {
				if (ix.index > 100000000)
					return false;
				ix.index = ix.index * 10 + (size_t)(*p - '0');
			}
			if (p == digits || *p != ']')
				return false;
			ix.end = (size_t)(++p - path);
			g_array_append_val(steps, ix);
		}
		if (!*p)
			return true;
		if (*p++ != '.')
			return false;
	}
}

/* The override's value; "" (as in `--set key=`) is an empty scalar, not an empty document. */
static struct yt_node *parse_value(const char *origin, const char *value, struct c2c_err *err)
{
	struct yt_strpool *pool;
	struct yt_node *n;

	if (value[0])
		return yt_load_string(origin, value, strlen(value), err);
	pool = pool_new(origin);
	n = node_new(YT_SCALAR, pool, 1, 1);
	n->str = g_strdup("");
	pool_unref(pool);
	return n;
}

/* The path's prefix before step @i, for messages: "'a.b'" or "the root". */
static char *step_name(const char *path, const struct path_step *steps, size_t i)
{
	if (!i)
		return g_strdup("the root");
	return g_strdup_printf("'%.*s'", (int)steps[i - 1].end, path);
}

/*
 * insert_rest - the path leaves the tree at step @i (a missing key of @map): create the
 * missing mappings and add @val under the last key.  Checked before anything is created so
 * a failed override leaves the tree untouched.  Takes @val on success.
 */
static bool insert_rest(struct yt_node *map, const char *path, const struct path_step *steps,
			size_t i, size_t nsteps, struct yt_node *val, struct c2c_mark at,
			struct c2c_err *err)
{
	struct yt_node *key;
	size_t j;

	for (j = i; j < nsteps; j++) {
		if (!steps[j].key) {
			err_set(err, at, "path '%s': '%.*s' does not exist (expected an existing "
				"sequence to index)", path, (int)steps[j - 1].end, path);
			return false;
		}
	}
	for (j = i; j < nsteps; j++) {
		key = node_new(YT_SCALAR, val->pool, 1, 1);
		key->str = g_strndup(steps[j].key, steps[j].key_len);
		if (j + 1 == nsteps) {
			map_append(map, key, val);
		} else {
			struct yt_node *sub = node_new(YT_MAP, val->pool, 1, 1);

			map_append(map, key, sub);
			map = sub;
		}
	}
	return true;
}

/* descend - one existing step down from @cur, or NULL with an error ("*missing" for a key). */
static struct yt_node *descend(struct yt_node *cur, const char *path, const struct path_step *steps,
			       size_t i, bool *missing, struct c2c_mark at, struct c2c_err *err)
{
	const struct path_step *st = &steps[i];
	char *name = step_name(path, steps, i);
	struct yt_node *next = NULL;
	size_t k;

	if (st->key && cur->kind != YT_MAP) {
		err_set(err, at, "path '%s': cannot descend into %s (%s) (expected a mapping)", path,
			name, kind_name(cur->kind));
	} else if (st->key) {
		for (k = 0; k < cur->len && !next; k++)
			if (strlen(cur->pairs[k].key->str) == st->key_len &&
			    !strncmp(cur->pairs[k].key->str, st->key, st->key_len))
				next = cur->pairs[k].val;
		*missing = !next;
	} else if (cur->kind != YT_SEQ) {
		err_set(err, at, "path '%s': cannot index %s (%s) (expected a sequence)", path, name,
			kind_name(cur->kind));
	} else if (st->index >= cur->len) {
		err_set(err, at, "path '%s': index %zu is out of range for %s (expected an index "
			"below %zu)", path, st->index, name, cur->len);
	} else {
		next = cur->items[st->index];
	}
	g_free(name);
	return next;
}

/* set_path - the work of yt_set_path and yt_set_path_node; takes @val (freed on failure). */
static bool set_path(struct yt_node *root, const char *path, struct yt_node *val,
		     const char *origin, struct c2c_err *err)
{
	struct c2c_mark at = { origin, 1, 1 };
	GArray *steps = g_array_new(FALSE, FALSE, sizeof(struct path_step));
	const struct path_step *st;
	struct yt_node *cur = root;
	bool ok = false, missing = false;
	size_t i;

	if (!path || !parse_path(path, steps)) {
		err_set(err, at, "bad path '%s' (expected keys like a.b[0].c)", path ? path : "");
		goto out;
	}
	st = (const struct path_step *)(void *)steps->data;
	for (i = 0; val && i < steps->len; i++) {
		struct yt_node *next = descend(cur, path, st, i, &missing, at, err);

		if (missing) {
			ok = insert_rest(cur, path, st, i, steps->len, val, at, err);
			if (ok)
				val = NULL;
			goto out;
		}
		if (!next)
			goto out;
		cur = next;
	}
	if (val) {
		yt_replace(cur, val); /* in place: pointers to @cur held by callers stay valid */
		ok = true;
	}
out:
	yt_free(val);
	g_array_free(steps, TRUE);
	return ok;
}

bool yt_set_path(struct yt_node *root, const char *path, const char *value, const char *origin,
		 struct c2c_err *err)
{
	struct c2c_mark at = { origin, 1, 1 };
	struct yt_node *val;

	if (!root || !value) {
		err_set(err, at, "nothing to set at path '%s' (expected a tree and a value)",
			path ? path : "");
		return false;
	}
	val = parse_value(origin, value, err);
	return val && set_path(root, path, val, origin, err);
}

bool yt_set_path_node(struct yt_node *root, const char *path, const struct yt_node *value,
		      const char *origin, struct c2c_err *err)
{
	return set_path(root, path, yt_copy(value), origin, err);
}

/* ---- Output ---------------------------------------------------------------------- */

bool yt_needs_quotes(const char *s)
{
	static const char *const words[] = { "true", "false", "yes", "no", "on", "off",
					     "null", "~", NULL };
	size_t i, len = strlen(s);

	if (!len || g_ascii_isspace(s[0]) || g_ascii_isspace(s[len - 1]))
		return true;
	if (strpbrk(s, ":#{}[],&*!|>'\"%@`\n") || s[0] == '-' || s[0] == '?')
		return true;
	/* Looks like a number: a reader would take it as one. */
	if (g_ascii_isdigit(s[0]) || (strchr("+.", s[0]) && g_ascii_isdigit(s[1])))
		return true;
	for (i = 0; words[i]; i++)
		if (!g_ascii_strcasecmp(s, words[i]))
			return true;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

/*
 * plain_ok - can an unquoted scalar be written back plain and read as the same plain text?
 * Scalars parsed plain almost always can (they were plain in the source); this catches the
 * rest, which then get quotes.  Unquoted scalars are never quoted just for looking like a
 * number: that would turn `count: 12` into a string.
 */
static bool plain_ok(const char *s, bool is_key)
{
	size_t i, len = strlen(s);

	if (!len)
		return !is_key; /* `key:` reads back as an empty plain scalar */
	if (strchr(",[]{}#&*!|>'\"%@`", s[0]) ||
	    (strchr("-?:", s[0]) && (s[1] == '\0' || s[1] == ' ')))
		return false;
	if (g_ascii_isspace(s[0]) || g_ascii_isspace(s[len - 1]) || s[len - 1] == ':')
		return false;
	if (strstr(s, ": ") || strstr(s, " #") || strstr(s, ":\t") || strstr(s, "\t#"))
		return false;
	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			return false;
	return true;
}

static void emit_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Quoted stays quoted so a round trip keeps "12" a string; plain stays plain when it can. */
static void emit_scalar(FILE *f, const struct yt_node *n, bool is_key)
{
	if (n->quoted || !plain_ok(n->str, is_key))
		emit_quoted(f, n->str);
	else
		fputs(n->str, f);
}

static void put_indent(FILE *f, int indent)
{
	fprintf(f, "%*s", indent > 0 ? indent : 0, "");
}

static void emit_block(FILE *f, const struct yt_node *n, int indent, bool inline_first);

/*
 * emit_after - write @n after an indicator already on the line ("key:" or "-").  A collection
 * starts on the next line at @indent, or right here for a sequence item (@inline_ok), giving
 * the usual compact "- key: value" form.
 */
static void emit_after(FILE *f, const struct yt_node *n, int indent, bool inline_ok)
{
	if (n->kind == YT_SCALAR) {
		if (n->str[0] || n->quoted) {
			fputc(' ', f);
			emit_scalar(f, n, false);
		}
		fputc('\n', f);
	} else if (!n->len) {
		fputs(n->kind == YT_MAP ? " {}\n" : " []\n", f);
	} else {
		fputc(inline_ok ? ' ' : '\n', f);
		emit_block(f, n, indent, inline_ok);
	}
}

/* emit_block - the entries of a non-empty collection, one per line at @indent. */
static void emit_block(FILE *f, const struct yt_node *n, int indent, bool inline_first)
{
	bool is_map = n->kind == YT_MAP;
	size_t i;

	for (i = 0; i < n->len; i++) {
		if (i || !inline_first)
			put_indent(f, indent);
		if (is_map) {
			emit_scalar(f, n->pairs[i].key, true);
			fputc(':', f);
		} else {
			fputc('-', f);
		}
		emit_after(f, is_map ? n->pairs[i].val : n->items[i], indent + 2, !is_map);
	}
}

void yt_emit(FILE *f, const struct yt_node *node, int indent)
{
	if (!node)
		return;
	if (node->kind != YT_SCALAR && node->len) {
		emit_block(f, node, indent, false);
		return;
	}
	put_indent(f, indent);
	if (node->kind == YT_SCALAR)
		emit_scalar(f, node, false);
	else
		fputs(node->kind == YT_MAP ? "{}" : "[]", f);
	fputc('\n', f);
}
