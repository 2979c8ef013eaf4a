/* SPDX-License-Identifier: MIT */
/*
 * The whole-binary access map for the commands (every type: the static
 * classes read the sites of embedded members' own types).  Built on each
 * call for now; the build-id keyed cache is the next step.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/static_classes.h"

int cli_access_map(const char *file, bool no_cache, struct slt_access_map **out,
		   struct slt_error *err)
{
	(void)no_cache; /* no cache yet: nothing to skip */
	return slt_access_build(file, NULL, out, err);
}
