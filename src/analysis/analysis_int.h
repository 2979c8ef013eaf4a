/* SPDX-License-Identifier: MIT */
/* Internals shared by classify.c and findings.c.  Internal to src/analysis. */
#ifndef SLT_ANALYSIS_INT_H
#define SLT_ANALYSIS_INT_H

#include "structlint/analysis.h"

/*
 * Fill out[0..layout->n_members) with each member's class: given (own or
 * inherited from the nearest inline ancestor with one) wins, else measured
 * from profile (may be NULL) with o's thresholds, else SLT_CLASS_NONE.
 * given_label (may be NULL) gives the writer labels, inherited the same
 * way as the classes.
 */
void slt_classify_members(const struct slt_struct *layout,
			  const struct slt_access_profile *profile,
			  const enum slt_class *given,
			  const char *const *given_label,
			  const struct slt_classify_opts *o,
			  struct slt_member_class *out);

/* Accesses (loads + stores) of member i in profile, 0 without one. */
uint64_t slt_member_accesses(const struct slt_access_profile *p, size_t i);

/* The false-sharing estimator's pair term: sum over CPUs c != d of
 * min(stores by c in w[0..nw), loads + stores by d in a[0..na)), samples.
 * Shared by findings.c and the advisor's cost (src/advice/cost.c). */
double slt_cpu_cross(const struct slt_cpu_access *w, size_t nw,
		     const struct slt_cpu_access *a, size_t na);

/* The outermost named member holding member i (i itself at top level, or
 * when only anonymous composites hold it): the unit whose pairs with other
 * units are false sharing (pairs.c). */
size_t slt_member_unit(const struct slt_struct *s, size_t i);

/* Accesses of one unit by one CPU on one line (cpu -1: the classes entry
 * of a unit), for the pair estimator of pairs.c. */
struct slt_pair_acc {
	size_t group;              /* slt_member_unit() (or the caller's id) */
	int32_t cpu;
	double loads, stores;      /* samples (scaled by the advisor) */
	bool read, write;          /* classes: read-mostly / written leaves */
	const char *label;         /* classes: writer label, borrowed */
};
/* Code locations of a group's accesses (member locations, borrowed). */
struct slt_pair_locs {
	size_t group;
	const struct slt_code_location *l;
	size_t n;
};
struct slt_pairs {
	struct slt_pair_acc *v;
	size_t n, cap;
	size_t gstart;             /* first entry of the last group added */
	struct slt_pair_locs *locs;
	size_t n_locs, cap_locs;
};
/* Add scale x c[0..nc) to group's per-CPU entries.  0 or SLT_ENOMEM. */
int slt_pairs_add(struct slt_pairs *p, size_t group,
		  const struct slt_cpu_access *c, size_t nc, double scale);
/* Mark group read (read-mostly leaf) and/or written (label: its writer
 * label or NULL).  0 or SLT_ENOMEM. */
int slt_pairs_class(struct slt_pairs *p, size_t group, bool read, bool write,
		    const char *label);
/* Add the code locations l[0..n) of group's accesses (a member's; a
 * group may get several lists).  0 or SLT_ENOMEM. */
int slt_pairs_locs(struct slt_pairs *p, size_t group,
		   const struct slt_code_location *l, size_t n);
/* Per-CPU: sum over groups U != V and CPUs c != d of
 * min(stores_c(U), accesses_d(V) x apart(U, V)), where apart(U, V) is the
 * share of V's accesses made by code paths (functions) that do not access
 * U (1 when V has no code locations): an operation touching V and U takes
 * the line for U anyway, so V beside U costs it nothing. */
double slt_pairs_cross(const struct slt_pairs *p);
/* Two different groups stored to by different CPUs, by code paths that do
 * not touch both? */
bool slt_pairs_write_write(const struct slt_pairs *p);
/* Classes: read-mostly x written group pairs (a group never with itself)
 * and pairs of written groups with different writer labels. */
void slt_pairs_classes(const struct slt_pairs *p, double *read_write,
		       double *write_write);
void slt_pairs_release(struct slt_pairs *p);

#endif
