/* SPDX-License-Identifier: MIT */
/*
 * structlint — writer labels in check (include/structlint/rules.h): the
 * members a classes file says are written by different writers
 * (hot-write:rx and hot-write:tx) must not share a cacheline, whatever the
 * rules say: each store of one writer takes the line from the other
 * (write-write false sharing, structlint(1), CLASSES FILES).  One error
 * violation, rule "writers-share-line", per cacheline holding written
 * members of two or more labels, naming every labelled written member on
 * it.  Members without a label may share a writer and are not checked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate_int.h"
#include "join/join_int.h"
#include "structlint/rules.h"

/* Member i is a labelled written member with bytes. */
static bool labelled(const struct slt_struct *s, const struct slt_check_opts *o, size_t i)
{
	const struct slt_member *m = &s->members[i];
	return o->labels[i] && o->classes && slt_gate_written(o->classes[i]) && m->size &&
	       !(m->flags & SLT_MEMBER_ZERO_SIZE);
}

static bool on_line(const struct slt_struct *s, size_t i, unsigned cl, uint64_t line)
{
	uint64_t f, l;
	slt_member_lines(&s->members[i], cl, &f, &l);
	return f <= line && line <= l;
}

/* Do two labelled members with different labels, neither inside the
 * other, lie on line? */
static bool line_mixed(const struct slt_struct *s, const struct slt_check_opts *o,
		       unsigned cl, uint64_t line)
{
	for (size_t i = 0; i < s->n_members; i++) {
		if (!labelled(s, o, i) || !on_line(s, i, cl, line))
			continue;
		for (size_t k = i + 1; k < s->n_members; k++)
			if (labelled(s, o, k) && strcmp(o->labels[i], o->labels[k]) &&
			    !slt_gate_related(s, i, k) && on_line(s, k, cl, line))
				return true;
	}
	return false;
}

static int add_line(const struct slt_struct *s, const struct slt_check_opts *o,
		    unsigned cl, uint64_t line, struct slt_gate_result *r)
{
	char *text = NULL;
	size_t len = 0;
	long first = -1;
	FILE *f = open_memstream(&text, &len);
	for (size_t i = 0; f && i < s->n_members; i++) {
		if (!labelled(s, o, i) || !on_line(s, i, cl, line))
			continue;
		/* a labelled composite covers its members of that label */
		long p = s->members[i].parent;
		if (p >= 0 && labelled(s, o, (size_t)p) && on_line(s, (size_t)p, cl, line) &&
		    !strcmp(o->labels[p], o->labels[i]))
			continue;
		char path[256];
		fprintf(f, "%s%s (%s:%s, offset %" PRIu64 ", %" PRIu64 " byte%s)",
			first < 0 ? "" : ", ", slt_member_path(s, i, path, sizeof(path)),
			slt_class_name(o->classes[i]), o->labels[i], s->members[i].offset,
			s->members[i].size, s->members[i].size == 1 ? "" : "s");
		if (first < 0)
			first = (long)i;
	}
	if (!f || fclose(f)) {
		free(text);
		return SLT_ENOMEM;
	}
	char msg[4096], path[256];
	snprintf(msg, sizeof(msg), "cacheline %" PRIu64 " holds members written by different "
		 "writers: %s: each writer's stores take the line from the others "
		 "(write-write false sharing); give each writer's members lines of "
		 "their own (CACHELINE_PADDING, or structlint suggest)", line, text);
	free(text);
	struct slt_violation v = {
		.rule = "writers-share-line", .severity = SLT_SEV_ERROR,
		.struct_name = s->name,
		.member = slt_member_path(s, (size_t)first, path, sizeof(path)),
		.message = msg, .decl_file = s->decl_file, .decl_line = s->decl_line,
		.offset = s->members[first].offset, .source = "writer labels",
	};
	if (slt_gate_add(r, &v))
		return SLT_ENOMEM;
	slt_gate_mark_class(r, line);
	return 0;
}

int slt_writers_check(const struct slt_struct *s, const struct slt_check_opts *o,
		      struct slt_gate_result *r, struct slt_error *err)
{
	const unsigned cl = o && o->cacheline_size ? o->cacheline_size : 64;
	bool any = false;
	for (size_t i = 0; o && o->labels && i < s->n_members && !any; i++)
		any = labelled(s, o, i);
	if (!any)
		return 0;
	uint64_t n = slt_cachelines(s->size, cl);
	for (uint64_t L = 0; L < n; L++) {
		r->n_checks++;
		if (line_mixed(s, o, cl, L) && add_line(s, o, cl, L, r))
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	return 0;
}
