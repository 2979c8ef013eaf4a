/* SPDX-License-Identifier: MIT */
/*
 * slt_report_findings_violations(): report's findings as gate violations,
 * so that `structlint report --sarif` writes them with check's SARIF
 * writer (sarif.c): one warning per finding, rule "finding-KIND", at the
 * struct's declaration, about its first member, with the message
 *   KIND on line L (bytes LO..HI): written W, W2 with M, M2 [; BASES]
 * and, when the instance's base is known modulo an alignment only, where
 * it holds (properties.bases: "at every base" or "only at K of N bases
 * (...)"), as the text report says it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "join/join_int.h"
#include "report/annotate.h"
#include "structlint/analysis.h"
#include "structlint/gate.h"

/* f's text from a memstream, or NULL (out of memory). */
static char *close_text(FILE *f, char **buf)
{
	bool bad = ferror(f);
	if (fclose(f) || bad) {
		free(*buf);
		*buf = NULL;
	}
	return *buf;
}

int slt_report_findings_violations(const struct slt_analysis *a,
				   struct slt_gate_result *r)
{
	const struct slt_struct *s = a->layout;
	unsigned cl = a->cacheline_size;
	int rc = 0;
	for (size_t i = 0; !rc && i < a->n_findings; i++) {
		const struct slt_finding *fd = &a->findings[i];
		char *msg = NULL, *bases = NULL, *rule = NULL, path[512];
		size_t len = 0, blen = 0;
		uint32_t origin = a->n_bases > 1 ? fd->origin : a->line_origin;
		int64_t lo = (int64_t)(fd->line * cl) - origin;
		int64_t hi = (int64_t)((fd->line2 + 1) * cl) - origin - 1;
		lo = lo < 0 ? 0 : lo;
		hi = hi >= (int64_t)s->size ? (int64_t)s->size - 1 : hi;
		if (a->n_bases > 1) {
			FILE *b = open_memstream(&bases, &blen);
			if (!b || (slt_report_bases_note(b, a, fd), !close_text(b, &bases))) {
				rc = SLT_ENOMEM;
				break;
			}
		}
		FILE *f = open_memstream(&msg, &len);
		if (!f) {
			free(bases);
			return SLT_ENOMEM;
		}
		fprintf(f, "%s on line %llu", slt_finding_kind_name(fd->kind),
			(unsigned long long)fd->line);
		if (fd->line2 != fd->line)
			fprintf(f, "+%llu", (unsigned long long)fd->line2);
		fprintf(f, " (bytes %lld..%lld), score %.0f:", (long long)lo, (long long)hi, fd->score);
		for (size_t k = 0; k < fd->n_members; k++)
			fprintf(f, "%s%s", k == 0 ? (fd->n_writers ? " written " : " ") :
					   k == fd->n_writers ? " with " : ", ",
				slt_member_path(s, fd->members[k], path, sizeof(path)));
		if (bases)
			fprintf(f, "; %s", bases);
		if (!close_text(f, &msg) ||
		    !(rule = malloc(strlen(slt_finding_kind_name(fd->kind)) + 9))) {
			free(msg);
			free(bases);
			return SLT_ENOMEM;
		}
		sprintf(rule, "finding-%s", slt_finding_kind_name(fd->kind));
		const struct slt_member *m = fd->n_members ? &s->members[fd->members[0]] : NULL;
		struct slt_violation v = {
			.rule = rule, .severity = SLT_SEV_WARNING, .struct_name = s->name,
			.member = m ? slt_member_path(s, fd->members[0], path, sizeof(path)) : NULL,
			.message = msg, .decl_file = s->decl_file, .decl_line = s->decl_line,
			.offset = m ? m->offset : SLT_NO_OFFSET, .bases = bases,
		};
		rc = slt_gate_add(r, &v);
		free(rule);
		free(msg);
		free(bases);
	}
	return rc;
}
