/* SPDX-License-Identifier: MIT */
/*
 * structlint — written lines a loads-only profile shows only through HITM
 * (include/structlint/rules.h): check --samples reaches report's
 * conclusion.  A profile without a single store (events that record loads
 * only, a perf c2c report whose Store Operations are 0) classes nothing as
 * written, so the rules that look for written members (no-hot-write-near,
 * class: groups, writer labels) would pass on a line that is written: a
 * load that hit a modified line in another cache (HITM) proves a writer.
 * Each of the analysis' unseen-writer findings (a line with HITM loads and
 * no writer a classes file names) is one error violation, rule
 * "unseen-writer", naming the loaded members with their HITM counts.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gate/gate_int.h"
#include "join/join_int.h"
#include "structlint/rules.h"

static int add_finding(const struct slt_analysis *a, const struct slt_finding *fd,
		       const char *source, struct slt_gate_result *r)
{
	const struct slt_struct *s = a->layout;
	const struct slt_access_profile *p = a->profile;
	int64_t lo = (int64_t)(fd->line * a->cacheline_size) - a->line_origin;
	int64_t hi = lo + a->cacheline_size - 1;
	if (lo < 0)
		lo = 0;
	if (hi >= (int64_t)s->size)
		hi = (int64_t)s->size - 1;
	char *text = NULL, path[256];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	for (size_t k = 0; f && k < fd->n_members; k++) {
		size_t i = fd->members[k];
		const struct slt_member *m = &s->members[i];
		uint64_t hitm = 0;
		for (size_t c = 0; p && c < p->n_cells; c++)
			if (p->cells[c].member == i && p->cells[c].line == fd->line)
				hitm += p->cells[c].hitm;
		fprintf(f, "%s%s (offset %" PRIu64 ", %" PRIu64 " byte%s, %" PRIu64 " HITM)",
			k ? ", " : "", slt_member_path(s, i, path, sizeof(path)), m->offset, m->size,
			m->size == 1 ? "" : "s", hitm);
	}
	if (!f || fclose(f)) {
		free(text);
		return SLT_ENOMEM;
	}
	char *msg = NULL;
	int n = asprintf(&msg, "the cacheline holding bytes %" PRId64 "..%" PRId64 " is written, "
			 "writer unknown: loads of %s hit a line modified in another cache "
			 "(HITM, %.0f in all), but the profile holds no store: no member is seen "
			 "written, so no rule about written members can be checked on it; record stores too (perf c2c record, perf mem record -t load,store) or name "
			 "the writer with --classes (MEMBER hot-write)", lo, hi, text, fd->score);
	free(text);
	if (n < 0)
		return SLT_ENOMEM;
	const char *first = fd->n_members ? slt_member_path(s, fd->members[0], path, sizeof(path)) :
			    NULL;
	struct slt_violation v = {
		.rule = "unseen-writer", .severity = SLT_SEV_ERROR, .struct_name = s->name,
		.member = first, .message = msg, .decl_file = s->decl_file,
		.decl_line = s->decl_line,
		.offset = fd->n_members ? s->members[fd->members[0]].offset : SLT_NO_OFFSET,
		.source = source,
	};
	int rc = slt_gate_add(r, &v) ? SLT_ENOMEM : 0;
	free(msg);
	return rc;
}

int slt_unseen_check(const struct slt_analysis *a, const char *source,
		     struct slt_gate_result *r, struct slt_error *err)
{
	if (!a->no_stores)
		return 0;
	r->n_checks++;
	for (size_t k = 0; k < a->n_findings; k++)
		if (a->findings[k].kind == SLT_FIND_UNSEEN_WRITER &&
		    add_finding(a, &a->findings[k], source, r))
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	return 0;
}
