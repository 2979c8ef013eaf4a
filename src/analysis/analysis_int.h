/* SPDX-License-Identifier: MIT */
/* Internals shared by classify.c and findings.c.  Internal to src/analysis. */
#ifndef SLT_ANALYSIS_INT_H
#define SLT_ANALYSIS_INT_H

#include "structlint/analysis.h"

/*
 * Fill out[0..layout->n_members) with each member's class: given (own or
 * inherited from the nearest inline ancestor with one) wins, else measured
 * from profile (may be NULL) with o's thresholds, else SLT_CLASS_NONE.
 */
void slt_classify_members(const struct slt_struct *layout,
			  const struct slt_access_profile *profile,
			  const enum slt_class *given,
			  const struct slt_classify_opts *o,
			  struct slt_member_class *out);

/* Accesses (loads + stores) of member i in profile, 0 without one. */
uint64_t slt_member_accesses(const struct slt_access_profile *p, size_t i);

/* The false-sharing estimator's pair term: sum over CPUs c != d of
 * min(stores by c in w[0..nw), loads + stores by d in a[0..na)), samples.
 * Shared by findings.c and the advisor's cost (src/advice/cost.c). */
double slt_cpu_cross(const struct slt_cpu_access *w, size_t nw,
		     const struct slt_cpu_access *a, size_t na);

#endif
