/* layout_check.h - layout assertions (CACHELINE_ASSERT_* and line/pair sharing) at a
 * placement: the object's start address modulo 128 decides which lines pair up. */
#ifndef C2C_LAYOUT_CHECK_H
#define C2C_LAYOUT_CHECK_H

#include <glib.h>

#include "layout/layout_lib.h"

/*
 * layout_check_one - evaluate @a on @l placed at @placement (bytes past a 128-byte boundary).
 * Return: 1 holds; 0 fails, with @fail set to one line "file:line:col: KIND: what landed
 * where"; -1 the assertion names an unknown member or group (@err set).
 */
int layout_check_one(struct layout_lib *lib, const struct layout *l, const struct lassert *a,
		     uint64_t placement, GString *fail, struct c2c_err *err);

#endif
