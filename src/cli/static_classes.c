/* SPDX-License-Identifier: MIT */
/*
 * Member classes from the static access map (`--classes static`, and
 * report/suggest/check without --samples or --classes): the map of FILE
 * (cached by build-id, src/cli/access_cache.c), its sites summarised per
 * struct of the layout, the rule of include/structlint/access.h written as
 * a classes file in memory and read back by the classes reader, so the
 * classes used are exactly the ones `structlint access --write-classes`
 * writes for review.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/static_classes.h"

int cli_static_text(struct slt_access_map *map, const struct slt_layout *layout,
		    char **text, size_t *len, struct slt_error *err)
{
	struct slt_access_summary **sums = calloc(layout->n_structs + 1, sizeof(*sums));
	int rc = sums ? 0 : slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (size_t i = 0; !rc && i < layout->n_structs; i++)
		rc = slt_access_summarize(map, &layout->structs[i], &sums[i], err);
	*text = NULL;
	*len = 0;
	FILE *f = rc ? NULL : open_memstream(text, len);
	if (!rc && !f)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc)
		rc = slt_access_classes_write(f, map, sums, layout->n_structs, err);
	if (f && fclose(f) && !rc)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (size_t i = 0; sums && i < layout->n_structs; i++)
		slt_access_summary_free(sums[i]);
	free(sums);
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

int cli_static_classes(const char *file, const struct slt_layout *layout,
		       bool no_cache, struct slt_classes **out,
		       struct slt_error *err)
{
	*out = NULL;
	if (!file)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "give FILE (the binary with its code and DWARF), or --samples FILE or --classes FILE",
				     "static classes need the binary: the running kernel's BTF has no machine code");
	struct slt_access_map *map = NULL;
	int rc = cli_access_map(file, no_cache, &map, err);
	char *text = NULL;
	size_t len = 0;
	if (!rc)
		rc = cli_static_text(map, layout, &text, &len, err);
	if (!rc) {
		const char *b = strrchr(file, '/');
		char name[512];
		snprintf(name, sizeof(name), "static classes of %s", b && b[1] ? b + 1 : file);
		rc = slt_classes_read_mem(text, len, name, SLT_CLASSES_FILE, NULL, out, err);
	}
	free(text);
	slt_access_free(map);
	return rc;
}
