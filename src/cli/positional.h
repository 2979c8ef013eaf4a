/* SPDX-License-Identifier: MIT */
/*
 * --source-root: positional initializers of the struct warned about
 * (positional.c), for suggest and validate.
 */
#ifndef SLT_CLI_POSITIONAL_H
#define SLT_CLI_POSITIONAL_H

#include <stddef.h>

#include "structlint/error.h"

struct slt_struct;

/*
 * One warning on stderr per positional initializer of s under root
 * (slt_advice_positional_inits()): "ROOT/FILE:LINE: struct NAME is
 * initialized positionally: a reorder changes what this initializes: use
 * designated initializers".  *found: how many.  Returns 0 or SLT_ENOMEM.
 */
int cli_positional_warn(const char *root, const struct slt_struct *s, size_t *found,
			struct slt_error *err);

#endif
