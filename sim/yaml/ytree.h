/*
 * ytree.h - YAML documents as a small tree that remembers where every node came from.
 *
 * Design
 * ------
 * Scenario, machine, layout and path files are parsed once with libyaml into a tree of
 * struct yt_node (scalar, mapping or sequence).  Every node keeps its c2c_mark (file, 1-based
 * line and column) so any later check can report `file:line:col: message (expected ...)`.
 * Loaders never walk libyaml events themselves; they ask the tree with typed getters that
 * report errors in one format:
 *
 *     scenarios/x.yaml:12:7: latency.hitm_local_ns: negative value -3 (expected a duration >= 0)
 *
 * Overrides (`--set KEY=VALUE` and scenario variants) are edits of the tree before a loader
 * reads it: yt_set_path() replaces or inserts the node at a dotted path (`a.b.c`, `actors[0].cpus`),
 * so the same mechanism serves the command line, variants and tests.
 *
 * Ownership: yt_load_*() return a tree the caller frees with yt_free() (accepts NULL).  Strings
 * returned by getters belong to the tree.  Mark file names are interned per tree and stay valid
 * while the tree lives.  No function here keeps global state.
 *
 * Numbers: integers only, decimal or 0x-hex, with an optional '_' digit separator; durations may
 * carry a decimal fraction ("7.5") and are converted to integer picoseconds exactly (no floating
 * point anywhere: simulated time decides event order).
 */
#ifndef C2C_YTREE_H
#define C2C_YTREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

enum yt_kind {
	YT_SCALAR, /* a plain or quoted scalar; str holds its text */
	YT_MAP,    /* a mapping; pairs in file order, keys are scalars */
	YT_SEQ,    /* a sequence; items in file order */
	YT_KIND_COUNT
};

struct yt_node;

struct yt_pair {
	struct yt_node *key; /* always YT_SCALAR */
	struct yt_node *val;
};

struct yt_node {
	enum yt_kind kind;
	struct c2c_mark mark;
	char *str;            /* YT_SCALAR: the text (never NULL; "" for empty) */
	bool quoted;          /* YT_SCALAR: was quoted in the source (never a null/bool/number) */
	struct yt_pair *pairs; /* YT_MAP */
	struct yt_node **items; /* YT_SEQ */
	size_t len;           /* number of pairs or items */
	struct yt_strpool *pool; /* shared by all nodes of one tree; owns mark file names */
	struct _GHashTable *index; /* YT_MAP: key text -> pair position + 1, made by an override
				    * that looks a key up in a long mapping (ytree_edit.c), or
				    * NULL; dropped when the node is cleared */
};

/* Parse a file.  Return: the root (a YT_MAP, YT_SEQ or YT_SCALAR) or NULL with @err set
 * (read through infile_read(): missing file "path:1:1: cannot open: No such file or directory
 * (expected a regular file of at most 16 MiB)", a FIFO, device or directory refused, the
 * size capped at INFILE_MAX_YAML; syntax errors at the
 * libyaml problem mark; duplicate mapping keys; anchors/aliases and tags other than the
 * standard ones are rejected; an empty document is an error). */
struct yt_node *yt_load_file(const char *path, struct c2c_err *err);

/* Parse text; @name stands for the file in marks (e.g. "<command-line>"). */
struct yt_node *yt_load_string(const char *name, const char *text, size_t len,
			       struct c2c_err *err);

/* yt_free - free a tree (or a detached subtree).  Accepts NULL. */
void yt_free(struct yt_node *node);

/* yt_copy - deep copy, marks preserved.  Can't fail (aborts on OOM like GLib). */
struct yt_node *yt_copy(const struct yt_node *node);

/* Mapping access.  yt_get returns the value for @key or NULL (no error). */
struct yt_node *yt_get(const struct yt_node *map, const char *key);

/*
 * yt_expect_map - check @node is a mapping whose keys are all in @allowed (NULL-terminated).
 * @what names the node in messages ("machine", "actors[2]").  @allowed NULL accepts any key.
 * Errors:
 *   "file:l:c: machine: expected a mapping (got a sequence)"
 *   "file:l:c: machine: unknown key 'latncy' (expected one of: topology, caches, latency, ...; did you mean 'latency'?)"
 */
bool yt_expect_map(const struct yt_node *node, const char *what, const char *const *allowed,
		   struct c2c_err *err);

/* yt_require - the value of @key in @map, or NULL with "missing key 'K' in WHAT" at the map. */
struct yt_node *yt_require(const struct yt_node *map, const char *key, const char *what,
			   struct c2c_err *err);

bool yt_expect_seq(const struct yt_node *node, const char *what, struct c2c_err *err);

/*
 * Typed scalar getters: each returns true and stores the value, or false with @err set at the
 * node: "file:l:c: WHAT: 'abc' is not an integer (expected an integer in [MIN, MAX])".
 * @what is the dotted name used in the message.
 */
bool yt_int(const struct yt_node *n, const char *what, int64_t min, int64_t max, int64_t *out,
	    struct c2c_err *err);
bool yt_u64(const struct yt_node *n, const char *what, uint64_t *out, struct c2c_err *err);
bool yt_bool(const struct yt_node *n, const char *what, bool *out, struct c2c_err *err);
bool yt_str(const struct yt_node *n, const char *what, const char **out, struct c2c_err *err);
/* One of @names (NULL-terminated); stores the index.  Unknown words suggest the closest name. */
bool yt_enum(const struct yt_node *n, const char *what, const char *const *names, int *out,
	     struct c2c_err *err);
/* A non-negative duration given in @unit_ps picoseconds per unit (1000 for ns), with an
 * optional fraction of up to 3 decimals below the unit ("7.5" ns = 7500 ps). */
bool yt_duration(const struct yt_node *n, const char *what, uint64_t unit_ps, uint64_t *out_ps,
		 struct c2c_err *err);

/*
 * yt_set_path - override: set the node at @path (dotted keys, [N] indexes) in @root to the
 * YAML value parsed from @value (a scalar, or flow YAML such as "[1, 2]" or "{a: 1}").
 * Missing intermediate mappings are created; a missing final key is added; an index must
 * exist.  @origin names the source for marks and errors ("--set" or "variants[1].set").
 * Return: false with @err set ("--set:1:1: path 'a.b': cannot descend into 'a' (a scalar) (expected a mapping)").
 */
bool yt_set_path(struct yt_node *root, const char *path, const char *value, const char *origin,
		 struct c2c_err *err);

/* yt_set_path_node - as yt_set_path, with a copy of @value (marks kept: errors found later
 * in the value point into its own file). */
bool yt_set_path_node(struct yt_node *root, const char *path, const struct yt_node *value,
		      const char *origin, struct c2c_err *err);

/* yt_replace - replace @old's contents by a deep copy of @src in place (used to graft a machine
 * file into a scenario).  Can't fail. */
void yt_replace(struct yt_node *old, const struct yt_node *src);

/* yt_emit - write @node as block YAML at @indent; scalars that need it are double-quoted so the
 * output parses back to the same tree.  Can't fail (errors are the stream's). */
void yt_emit(FILE *f, const struct yt_node *node, int indent);

/* yt_emit_quoted - @s as a double-quoted YAML scalar with the escapes libyaml reads back. */
void yt_emit_quoted(FILE *f, const char *s);

/* A scalar's text needs quoting in YAML output (empty, special characters, looks like a number
 * or bool when it is meant as a string). */
bool yt_needs_quotes(const char *s);

#endif
