/* SPDX-License-Identifier: MIT */
/* --source-root: positional initializers warned about (positional.h). */
#include <stdio.h>

#include "cli/positional.h"
#include "structlint/advice.h"
#include "structlint/layout.h"

int cli_positional_warn(const char *root, const struct slt_struct *s, size_t *found,
			struct slt_error *err)
{
	struct slt_posinit *p;
	size_t n;
	*found = 0;
	int rc = slt_advice_positional_inits(root, s->name, &p, &n, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "structlint: warning: %s/%s:%u: struct %s is initialized positionally: "
			"a reorder changes what this initializes: use designated initializers\n",
			root, p[i].file, p[i].line, s->name);
	slt_advice_positional_free(p, n);
	*found = n;
	return 0;
}
