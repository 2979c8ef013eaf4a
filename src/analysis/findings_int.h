/* SPDX-License-Identifier: MIT */
/*
 * Shared by the per-cacheline findings (findings.c) and the adjacent-line
 * findings (adjacent.c): the state of one analysis run and the helpers
 * both use.  Internal to src/analysis.
 */
#ifndef SLT_ANALYSIS_FINDINGS_INT_H
#define SLT_ANALYSIS_FINDINGS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/analysis.h"

struct slt_arena;

/* Per-CPU stores and accesses summed over some cells. */
struct cpuset {
	struct slt_cpu_access *v;
	size_t n, cap;
};

/* One run of slt_analyze(). */
struct fd_ctx {
	struct slt_analysis *a;
	struct slt_arena *ar;
	size_t cap;
	double min_score;           /* min_share x accesses */
	int rc;
	/* classes basis: the leaf members with a class that can collide
	 * (read-mostly or written), so a line looks at those, not at every
	 * member (a 65,535-member struct with none classed: O(lines)) */
	size_t *classed, n_classed;
};

/* Members (writers first) on one line and their role counts. */
struct line_set {
	size_t *m;
	size_t n, n_writers, n_rm, n_hw;
	double st_w, ld_rm;         /* counts basis */
};

int slt_fd_cpuset_add(struct cpuset *cs, const struct slt_cpu_access *c, size_t n);

/* The fix a finding of kind k advises (words.c); labelled: a
 * write-write finding's writers carry the classes' writer labels. */
const char *slt_fd_advice(const struct slt_analysis *a, enum slt_finding_kind k,
			  bool labelled);
/* Append a finding (members m[0, n), the first n_writers written); NULL
 * and x->rc set when out of memory. */
struct slt_finding *slt_fd_add(struct fd_ctx *x, enum slt_finding_kind k,
			       uint64_t line, double score, const size_t *m,
			       size_t n, size_t n_writers);

/* Collect line L's members: from cells [c0, c1) or, on the classes basis,
 * every leaf on L.  buf holds 2 x n_members entries. */
void slt_fd_collect(struct fd_ctx *x, uint64_t L, size_t c0, size_t c1,
		    size_t *buf, struct line_set *ls);

/* The lines where a member starts or ends, sorted, unique (malloc()ed;
 * NULL and x->rc set when out of memory). */
uint64_t *slt_fd_member_lines(struct fd_ctx *x, size_t *n);


/* slt_analyze() without a profile whose base is known only modulo
 * o->base_align (< cl, the line size): the findings at every start,
 * merged (bases.c). */
int slt_analyze_bases(const struct slt_struct *s, const struct slt_analysis_opts *o,
		      unsigned cl, struct slt_analysis **out, struct slt_error *err);

/* Adjacent-line interference findings (adjacent.c). */
void slt_fd_adjacent(struct fd_ctx *x, size_t *buf);

#endif
