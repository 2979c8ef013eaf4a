/* SPDX-License-Identifier: MIT */
/*
 * structlint — writers for the layout advisor's proposals
 * (include/structlint/advice.h): text for humans and JSON of schema
 * SLT_SCHEMA_ADVICE (documented at the top of src/report/advice_json.c).
 * They print to the FILE the caller gives and never exit.
 */
#ifndef STRUCTLINT_ADVICE_REPORT_H
#define STRUCTLINT_ADVICE_REPORT_H

#include <stdio.h>
#include <sys/types.h>

#include "structlint/advice.h"
#include "structlint/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the caller adds to an advice; zero-initialise for none. */
struct slt_advice_report_opts {
	unsigned nr_cpus;           /* the CPU count the SLUB figures were
				       computed for; 0: not shown */
	unsigned separation;        /* bytes asked between groups; 0: not shown */
	const char *const *diffs;   /* parallel to advice->proposals: unified
				       diff against the source (NULL entries,
				       or NULL: none) */
	const ssize_t *findings_after; /* parallel to advice->proposals: the
				       findings left when the proposal's layout
				       is analysed again with the same classes;
				       -1 entries (or NULL): not re-checked */
	/* Added after v1 (additive): where the member accesses behind the
	 * advice come from when they are estimates, e.g. "estimated from IP
	 * samples x static sites (...)" (structlint/weight.h); text: a first
	 * comment line, JSON: "basis".  NULL: measured, nothing shown. */
	const char *basis;
	/* Added after v1 (additive): parallel to advice->proposals: the
	 * proposal's layout analysed again (the analysis behind
	 * findings_after; NULL entries, or NULL: none); the maps mark its
	 * findings on the proposal's lines. */
	const struct slt_analysis *const *analysis_after;
};

/* True when after lands in a larger kmalloc size class (or page
 * allocator order) than before. */
static inline int slt_slab_tips(const struct slt_slab_cost *before,
				const struct slt_slab_cost *after)
{
	uint64_t b = before->kmalloc_bytes ? before->kmalloc_bytes : before->kmalloc_class;
	uint64_t a = after->kmalloc_bytes ? after->kmalloc_bytes : after->kmalloc_class;
	return a > b;
}

/*
 * Text: for each proposal, best first, a header comment (kind, bytes
 * before -> after and added, cachelines, the findings' score and the
 * advisor's cost before -> after, slab: kmalloc class before -> after, SLUB
 * order and objects per slab for nr_cpus, "tips into a larger size class"
 * when it does), the moved members, the new layout exactly as
 * slt_report_layout_text() prints it, the C declaration and the diff.
 * With no proposal, one comment with advice->note.  Returns 0 or SLT_EIO.
 */
int slt_report_advice_text(FILE *out, const struct slt_advice *advice,
			   const struct slt_report_opts *opts,
			   const struct slt_advice_report_opts *ropts,
			   struct slt_error *err);

/* The same as one JSON document of schema SLT_SCHEMA_ADVICE, built
 * completely before the first byte is written.  Returns 0, SLT_ENOMEM or
 * SLT_EIO. */
int slt_report_advice_json(FILE *out, const struct slt_advice *advice,
			   const struct slt_report_opts *opts,
			   const struct slt_advice_report_opts *ropts,
			   struct slt_error *err);

/* "minimal", "regroup", "padding", "pareto", "size", "isolate". */
const char *slt_proposal_kind_name(enum slt_proposal_kind k);

#ifdef __cplusplus
}
#endif
#endif
