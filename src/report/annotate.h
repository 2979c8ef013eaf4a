/* SPDX-License-Identifier: MIT */
/* The pahole-style layout with a note after each member's offset comment,
 * shared by the analysis view (annotate.c) and the access map view
 * (access_out.c).  Internal to src/report. */
#ifndef SLT_REPORT_ANNOTATE_H
#define SLT_REPORT_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "structlint/layout.h"
#include "structlint/report.h"

/* Whether member i (index in s->members) gets a note, and the note itself
 * ("/" "* ... *" "/", no newline). */
typedef bool (*slt_note_has_fn)(const void *ctx, size_t member);
typedef void (*slt_note_fn)(FILE *f, const void *ctx, size_t member);

/*
 * Write s as the layout text writer prints it (colour off) with "\t" and
 * put()'s note appended to every member line has() selects.  When the text
 * does not line up with the members (a writer change), the layout is
 * printed untouched and the notes follow as a table.  Returns 0, or
 * SLT_ENOMEM with err filled.
 */
int slt_report_layout_notes(FILE *out, const struct slt_struct *s,
			    const struct slt_report_opts *opts,
			    slt_note_has_fn has, slt_note_fn put,
			    const void *ctx, struct slt_error *err);

struct slt_analysis;
struct slt_finding;
/* "at every base" or "only at K of N bases (base mod CL in {..}; line
 * counted at base mod CL = S)": where finding fd holds when a's instance
 * base is known modulo an alignment only (a->n_bases > 1). */
void slt_report_bases_note(FILE *f, const struct slt_analysis *a,
			   const struct slt_finding *fd);

/* The source word of member i's given class: opts->member_sources' entry
 * for the member whose entry gave it, else opts->given_word, else
 * "given". */
struct slt_report_opts;
const char *slt_report_class_source(const struct slt_analysis *a,
				    const struct slt_report_opts *opts, size_t i);

/* The short basis of a's findings when they are not measured: "static
 * classes" (opts->given_word static or static+given), "estimated from IP
 * samples" (a profile of estimates), else NULL. */
const char *slt_report_findings_basis(const struct slt_analysis *a,
				      const struct slt_report_opts *opts);

#endif
