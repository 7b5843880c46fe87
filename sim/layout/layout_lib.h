/*
 * layout_lib.h - loading layout files and answering questions about them.
 *
 * A layout library is a list of directories (layouts/linux-6.18, a patch's directory, ...)
 * and the layouts loaded from them so far, by struct name.  Layouts are loaded on demand:
 * asking for "lruvec" reads DIR/lruvec.yaml from the first directory that has it, computes
 * its offsets when the file gives none, and keeps it.  Embedded members (`layout: NAME`)
 * resolve through the same library, so a patched directory placed first overrides a struct
 * while the rest comes from the kernel's.
 *
 * Queries: member paths to byte ranges (layout_find), a byte offset back to the member that
 * holds it (layout_member_at, used by every report), the leaf listing (layout_fields), groups
 * and assertions at a placement (layout_check_asserts).
 */
#ifndef C2C_LAYOUT_LIB_H
#define C2C_LAYOUT_LIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "layout/layout.h"
#include "yaml/ytree.h"

struct layout_lib;

/* layout_lib_new - an empty library.  Can't fail.  layout_lib_free accepts NULL. */
struct layout_lib *layout_lib_new(void);
void layout_lib_free(struct layout_lib *lib);

/* layout_lib_add_dir - search @dir too (after the ones added before). */
void layout_lib_add_dir(struct layout_lib *lib, const char *dir);

/* layout_lib_add_dir_first - search @dir before every directory added so far. */
void layout_lib_add_dir_first(struct layout_lib *lib, const char *dir);

/* layout_lib_get - the layout of struct @name, loading NAME.yaml from the search directories
 * when needed.  Return: NULL with @err at @at when no directory has it or the file is bad. */
const struct layout *layout_lib_get(struct layout_lib *lib, const char *name, struct c2c_mark at,
				    struct c2c_err *err);

/* layout_lib_has - whether @name is loaded or NAME.yaml is in a search directory. */
bool layout_lib_has(struct layout_lib *lib, const char *name);

/* layout_lib_put - make @l (owned by the library from now on) the layout of its struct name,
 * in place of any loaded before (which stays valid for those who hold it). */
void layout_lib_put(struct layout_lib *lib, struct layout *l);

/* layout_lib_resolve - layout_lib_get as a layout_resolve_fn (@lib is the library). */
const struct layout *layout_lib_resolve(void *lib, const char *name, struct c2c_mark at,
					struct c2c_err *err);

/* layout_lib_load_file - load the layout in @path (its directory joins the search path, first,
 * so its embedded structs resolve next to it).  Return: NULL with @err set. */
const struct layout *layout_lib_load_file(struct layout_lib *lib, const char *path,
					  struct c2c_err *err);

/* layout_read_asserts - append the assertions in the sequence @seq to @l.  Return: false with
 * @err set for an unknown kind or bad operands. */
bool layout_read_asserts(struct layout *l, const struct yt_node *seq, struct c2c_err *err);

/* layout_from_tree - build a layout from a parsed layout file (@file names it in errors);
 * offsets are checked (imported) or computed (hand-written) with @lib resolving embedded
 * structs.  Return: NULL with @err set: overlapping members, a member past the end, an unknown
 * type, a bad alignment, mixed given and missing offsets. */
struct layout *layout_from_tree(struct layout_lib *lib, const struct yt_node *root,
				const char *file, struct c2c_err *err);

/* A resolved member path: the byte range and, for bitfields, the bits. */
struct lref {
	uint64_t offset, size;
	uint16_t bit_offset, bits;
	const struct lmember *m;
};

/* layout_find - resolve @path ("lruvec.lru_lock", "state[14]") in @l.  Return: false with
 * @err at @at: "unknown member 'lru_lok' in struct lruvec (expected one of: ...; did you
 * mean 'lru_lock'?)", an index out of range, or descending into a non-struct. */
bool layout_find(struct layout_lib *lib, const struct layout *l, const char *path,
		 struct lref *out, struct c2c_mark at, struct c2c_err *err);

/* layout_member_at - the path of the deepest member holding byte @off of @l ("lruvec.lists[2]
 * .next"), or NULL for a hole or padding.  Caller frees with g_free. */
char *layout_member_at(struct layout_lib *lib, const struct layout *l, uint64_t off);

/* layout_fields - one line per leaf member: "PATH\tOFFSET\tSIZE" (bitfields add
 * "\tBIT_OFFSET\tBITS"); arrays of structs are listed element by element. */
void layout_fields(FILE *f, struct layout_lib *lib, const struct layout *l);

/* layout_resolve_groups - fill each group's [start, end) from its first and last members.
 * Return: false with @err for unknown members or a last member before the first. */
bool layout_resolve_groups(struct layout_lib *lib, struct layout *l, struct c2c_err *err);

/* layout_range - the byte range of a member path or a group name. */
bool layout_range(struct layout_lib *lib, const struct layout *l, const char *name,
		  uint64_t *start, uint64_t *end, struct c2c_mark at, struct c2c_err *err);

#endif
