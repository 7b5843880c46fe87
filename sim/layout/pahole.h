/*
 * pahole.h - import the output of `pahole -C NAME` (dwarves) as a struct layout.
 *
 * Design
 * ------
 * pahole prints one struct as C with a comment per member giving its byte offset and size;
 * these are the exact offsets the simulator needs, so the importer copies them verbatim and
 * never recomputes anything.  The text is read line by line with a stack of open braces.
 * The lines understood ({OFF SIZE} stands for pahole's trailing comment holding the numbers):
 *
 *   struct NAME {                         header (first non-blank line)
 *       TYPE NAME[D1][D2] ATTRS; {OFF SIZE}     a field (dims and attributes optional)
 *       TYPE NAME:BITS; {OFF:BIT SIZE}          a bitfield: OFF and SIZE are the storage
 *                                               unit's, BIT counts from its least
 *                                               significant bit (pahole >= 1.18)
 *       RET (*NAME)(ARGS); {OFF SIZE}           a function pointer, type "RET (*)(ARGS)"
 *       union {   struct {   struct TAG {       an inline aggregate opens (TAG is dropped)
 *       } ATTRS NAME[D] ATTRS; {OFF SIZE}       ... and closes; NAME, dims, ATTRS optional;
 *                                               `} * NAME;` is a pointer to an anonymous
 *                                               aggregate: one field, its body dropped
 *       struct cacheline_padding NAME; {OFF SIZE}   a padding marker (LM_PAD)
 *       comment lines                           cacheline markers, "XXX" holes: skipped
 *       comment "size: N, cachelines: C, members: M"   the summary: required, top level
 *   } ATTRS;                              end; ATTRS: __attribute__((__aligned__(N))) and/or
 *                                         __attribute__((__packed__))
 *
 * Offsets inside inline aggregates are pahole's: relative to the outermost struct, which is
 * also the convention of struct lmember.  Lines pahole prints for holes without an offset
 * comment ("unsigned int :4;", the "Force padding:" block) are skipped; C++ output, hex
 * offsets (pahole -x), expanded types (-E) and inline enums are not supported and fail as
 * unparsable lines.
 *
 * Alignment: a struct's `align` is its closing `__aligned__(N)`; without one, the largest
 * explicit alignment found on any member or inline aggregate (a lower bound: mm_struct gets
 * 64 from its inner aligned struct); 0 when nothing in the text says (unknown).  A packed
 * struct without `__aligned__` has align 1.  Member `align` is the member's `__aligned__(N)`.
 *
 * Errors are reported as "file:LINE:COL: pahole: what (expected ...)" with 1-based byte
 * columns (a tab is one column).  Member marks point at an interned copy of @file, so they
 * stay valid after the layout is freed.
 */
#ifndef C2C_PAHOLE_H
#define C2C_PAHOLE_H

#include "core/err.h"
#include "layout/layout.h"

/**
 * pahole_parse - parse the pahole output of one struct into a layout.
 * @file: name used in error messages and member marks (need not exist on disk)
 * @text: the whole output, NUL-terminated; blank lines before and after are ignored
 * @err:  filled on failure (the first error only)
 *
 * Every member gets the offset and size pahole printed (has_offset true), its type with
 * whitespace runs collapsed to one space, dims (a flexible `name[]` is one dimension of 0),
 * `align` from `__aligned__(N)`, bitfield bit_offset/bits, and `layout` = X for a type
 * `struct X` (arrays included, pointers excluded).  layout->source is "pahole", ->file NULL.
 *
 * Return: the layout (free with layout_free), or NULL with @err set for a missing
 * `struct NAME {` header, an unparsable member or closing line, unbalanced braces, a
 * missing or malformed size summary, a member count different from the summary's, or a
 * member whose offset + size exceeds the struct size.
 */
struct layout *pahole_parse(const char *file, const char *text, struct c2c_err *err);

#endif
