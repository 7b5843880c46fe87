/*
 * pahole_run.h - import struct layouts straight from a binary by running pahole (dwarves).
 *
 * `pahole -C NAME OBJECT` reads the DWARF of an ELF object, module or vmlinux built with -g;
 * `pahole -F btf -C NAME FILE` reads BTF (a running kernel's /sys/kernel/btf/vmlinux, or an
 * object pahole -J encoded).  pahole is run with an argument vector, never through a shell,
 * and its text goes through the same importer as a saved dump (pahole.h), so what it prints
 * is what the layout holds.  pahole exits 0 and prints nothing for a struct it does not
 * find; that is an error here, reported with pahole's own message.
 */
#ifndef C2C_PAHOLE_RUN_H
#define C2C_PAHOLE_RUN_H

#include <glib.h>
#include <stdbool.h>

#include "core/err.h"
#include "layout/layout.h"

/* pahole_output - what `pahole [-F btf] -C @name @object` prints (g_free it).  Return: NULL
 * with @err set ("OBJECT:1:1: pahole ...: its stderr (expected ...)") when pahole cannot be
 * started, exits non-zero or prints nothing. */
char *pahole_output(const char *object, bool btf, const char *name, struct c2c_err *err);

/**
 * pahole_import - import the structs @names from @object.
 * @btf:       @object is BTF (pahole -F btf), else DWARF
 * @recursive: also import every struct a member embeds by value (`layout: X`, inline
 *             aggregates included, pointers not), and theirs, each once
 * @out:       receives the layouts (struct layout *, caller frees) in import order: @names
 *             first, then embedded structs breadth-first
 *
 * Each layout's source is "pahole -C NAME BASENAME".  Return: false with @err set at the
 * first struct that fails (the layouts imported before stay in @out).
 */
bool pahole_import(const char *object, bool btf, char *const *names, bool recursive,
		   GPtrArray *out, struct c2c_err *err);

#endif
