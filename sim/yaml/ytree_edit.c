/* ytree_edit.c - path overrides (yt_set_path) and YAML output; see ytree.h for the design. */
#include "yaml/ytree.h"
#include "yaml/ytree_int.h"

#include <string.h>

#include <glib.h>

/* ---- Overrides ------------------------------------------------------------------- */

/* Append one pair, growing the storage geometrically (yt_cap).  @key is new to @map. */
static void map_append(struct yt_node *map, struct yt_node *key, struct yt_node *val)
{
	if (map->len == yt_cap(map->len))
		map->pairs = g_renew(struct yt_pair, map->pairs, yt_cap(map->len + 1));
	map->pairs[map->len].key = key;
	map->pairs[map->len].val = val;
	map->len++;
	if (map->index)
		g_hash_table_insert(map->index, key->str, GSIZE_TO_POINTER(map->len));
}

/* Mappings longer than this are searched through their index (yt_node.index), built once:
 * a variant's `set:` of 40,000 keys under one mapping would otherwise scan it per key. */
#define MAP_SCAN_KEYS 16

/* The value of the first pair of @map whose key is @key (@len bytes), or NULL. */
static struct yt_node *map_find(struct yt_node *map, const char *key, size_t len)
{
	gpointer at;

	if (!map->index && map->len >= MAP_SCAN_KEYS) {
		map->index = g_hash_table_new(g_str_hash, g_str_equal);
		for (size_t k = map->len; k-- > 0;) /* the first of equal keys wins */
			g_hash_table_insert(map->index, map->pairs[k].key->str,
					    GSIZE_TO_POINTER(k + 1));
	}
	if (map->index) {
		g_autofree char *text = g_strndup(key, len);

		at = g_hash_table_lookup(map->index, text);
		return at ? map->pairs[GPOINTER_TO_SIZE(at) - 1].val : NULL;
	}
	for (size_t k = 0; k < map->len; k++)
		if (strlen(map->pairs[k].key->str) == len &&
		    !strncmp(map->pairs[k].key->str, key, len))
			return map->pairs[k].val;
	return NULL;
}

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
	pool = yt_pool_new(origin);
	n = yt_node_new(YT_SCALAR, pool, 1, 1);
	n->str = g_strdup("");
	yt_pool_unref(pool);
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
		key = yt_node_new(YT_SCALAR, val->pool, 1, 1);
		key->str = g_strndup(steps[j].key, steps[j].key_len);
		if (j + 1 == nsteps) {
			map_append(map, key, val);
		} else {
			struct yt_node *sub = yt_node_new(YT_MAP, val->pool, 1, 1);

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

	if (st->key && cur->kind != YT_MAP) {
		err_set(err, at, "path '%s': cannot descend into %s (%s) (expected a mapping)", path,
			name, yt_kind_name(cur->kind));
	} else if (st->key) {
		next = map_find(cur, st->key, st->key_len);
		*missing = !next;
	} else if (cur->kind != YT_SEQ) {
		err_set(err, at, "path '%s': cannot index %s (%s) (expected a sequence)", path, name,
			yt_kind_name(cur->kind));
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

void yt_emit_quoted(FILE *f, const char *s)
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
		yt_emit_quoted(f, n->str);
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
