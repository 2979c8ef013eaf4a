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
#include "analysis/analysis_int.h"
#include "join/join_int.h"
#include "structlint/analysis.h"

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
				     "give FILE (the binary with its code and DWARF)",
				     "static classes need the binary: the running kernel's BTF has no machine code");
	struct slt_access_map *map = NULL;
	int rc = cli_access_map_for(file, layout, no_cache, &map, err);
	char *text = NULL;
	size_t len = 0;
	if (!rc)
		rc = cli_static_text(map, layout, &text, &len, err);
	if (!rc) {
		const char *b = strrchr(file, '/');
		char name[512];
		snprintf(name, sizeof(name), CLI_STATIC_FILE_PREFIX "%s", b && b[1] ? b + 1 : file);
		rc = slt_classes_read_mem(text, len, name, SLT_CLASSES_FILE, NULL, out, err);
	}
	free(text);
	slt_access_free(map);
	return rc;
}

/* Whether struct_name is one of layout's structs. */
static bool in_layout(const struct slt_layout *layout, const char *struct_name)
{
	for (size_t i = 0; i < layout->n_structs; i++)
		if (layout->structs[i].name && !strcmp(layout->structs[i].name, struct_name))
			return true;
	return false;
}

int cli_static_classes_over(const char *file, const struct slt_layout *layout,
			    bool no_cache, struct slt_classes **cl,
			    size_t *n_replaced, size_t *n_new, struct slt_error *err)
{
	struct slt_classes *st = NULL;
	*n_replaced = *n_new = 0;
	int rc = cli_static_classes(file, layout, no_cache, &st, err);
	if (rc || !*cl) {
		if (!rc)
			*cl = st;
		return rc;
	}
	bool *hit = calloc((*cl)->n + 1, sizeof(*hit));
	if (!hit) {
		slt_classes_free(st);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	/* the given entries win: drop the static ones they cover (the same
	 * member, or one inside a member given a class) */
	size_t w = 0;
	for (size_t i = 0; i < st->n; i++) {
		const struct slt_class_entry *e = &st->entries[i];
		const struct slt_class_entry *g = slt_classes_find(*cl, e->struct_name, e->member);
		if (g) {
			(*n_replaced)++;
			hit[g - (*cl)->entries] = true;
			continue;
		}
		st->entries[w++] = *e;
	}
	/* the given entries of these structs that replaced no static one:
	 * members the static map had not classed */
	for (size_t i = 0; i < (*cl)->n; i++)
		*n_new += !hit[i] && in_layout(layout, (*cl)->entries[i].struct_name);
	free(hit);
	st->n = w;
	rc = slt_classes_merge(*cl, st, err);
	slt_classes_free(st);
	return rc;
}

void cli_static_basis(char *buf, size_t size, const char *file, const char *given)
{
	snprintf(buf, size, "counted in the machine code: classes proposed by the static access "
		 "map of %s (%s)%s%s%s", file ? file : "FILE", CLI_STATIC_CLASSES,
		 given ? ", with " : "", given ? given : "", given ? "'s (" CLI_STATIC_GIVEN ")" : "");
}

/* The lines [*f, *l] member m of a's layout occupies, from the line
 * holding the instance start (a->line_origin). */
static void lines_of(const struct slt_analysis *a, size_t m, unsigned cl, uint64_t *f,
		     uint64_t *l)
{
	const struct slt_member *mb = &a->layout->members[m];
	*f = (a->line_origin + mb->offset) / cl;
	*l = mb->size ? (a->line_origin + mb->offset + mb->size - 1) / cl : *f;
}

void cli_static_unclassified_warn(const struct slt_analysis *a, size_t k,
				  const char *file)
{
	const struct slt_struct *s = a->layout;
	unsigned cl = a->cacheline_size ? a->cacheline_size : SLT_CACHELINE_DEFAULT;
	size_t n_lines = (a->line_origin + s->size) / cl + 2;
	bool *written = calloc(n_lines, sizeof(*written));
	if (!written)
		return;   /* a warning only */
	uint64_t f, l;
	for (size_t m = 0; m < s->n_members; m++) {
		if (slt_member_unit(s, m) != m || a->classes[m].cls != SLT_CLASS_HOT_WRITE)
			continue;
		lines_of(a, m, cl, &f, &l);
		for (uint64_t x = f; x <= l && x < n_lines; x++)
			written[x] = true;
	}
	char list[600] = "";
	size_t used = 0, n = 0;
	for (size_t m = 0; m < s->n_members; m++) {
		if (slt_member_unit(s, m) != m || !s->members[m].name[0] ||
		    a->classes[m].cls != SLT_CLASS_NONE)
			continue;
		lines_of(a, m, cl, &f, &l);
		bool on = false;
		for (uint64_t x = f; x <= l && x < n_lines && !on; x++)
			on = written[x];
		if (!on)
			continue;
		char path[256];
		slt_member_path(s, m, path, sizeof(path));
		if (n++ < 8 && used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 n > 1 ? ", " : "", path);
	}
	free(written);
	if (n)
		fprintf(stderr, "structlint: warning: proposal %zu: %zu member%s the static classes "
			"leave unclassified on a line with a hot-write member: %s%s; a write there "
			"would be false sharing the classes cannot see: review them (structlint "
			"access %s %s --write-classes F) or give their class with --classes\n",
			k, n, n == 1 ? "" : "s", list, n > 8 ? ", ..." : "",
			file ? file : "FILE", s->name);
}
