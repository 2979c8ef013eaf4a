/* SPDX-License-Identifier: MIT */
/* Internals shared by classify.c and findings.c.  Internal to src/analysis. */
#ifndef SLT_ANALYSIS_INT_H
#define SLT_ANALYSIS_INT_H

#include "structlint/analysis.h"
#include "common/arena.h"
#include "join/join_int.h"   /* slt_member_unit() */

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

/* The scores of one measured cell of an array member whose accesses are
 * placed element by element (cell->elems, no unplaced stores): returns the
 * true-sharing score, traffic between different CPUs on the same element
 * (per_cpu: slt_cpu_cross() within each element; else the stores on the
 * elements stored to by true_share_cpus CPUs or more), and sets *between
 * to the false sharing between elements: sum over a store by CPU c on
 * element e and CPU d != c of min(c's stores on e, d's accesses on the
 * cell's other elements).  Cost: element-CPU pairs x CPUs of the cell
 * (cross.c). */
double slt_fd_elem_scores(const struct slt_line_access *cell, bool per_cpu,
			  unsigned true_share_cpus, double *between);

/* Member i is a unit (slt_member_unit()) that is an array of equal
 * elements: its accesses are split per element (with --expand also its
 * leaves', each counted in the element holding it), so that element
 * sharing is found alike with and without --expand (cross.c). */
bool slt_fd_array_unit(const struct slt_struct *s, size_t i);

/* Member i's accesses on the next line from cell *c on where it has any:
 * an array unit's (slt_fd_array_unit()) cells of its members on that line
 * merged (slt_elems_unit_cell(), memory from ar), else i's own cell, into
 * *out; *c moves past them.  false when none is left, or out of memory
 * (*rc SLT_ENOMEM). */
bool slt_fd_next_cell(struct slt_arena *ar, const struct slt_struct *s,
		      const struct slt_access_profile *p, size_t i, size_t *c,
		      struct slt_line_access *out, int *rc);

/* A nameless struct or union shown inline with members of its own (an
 * anonymous level): transparent to the units above, it has no accesses
 * of its own and no measured class; its members have theirs. */
static inline bool slt_member_transparent(const struct slt_member *m)
{
	return !m->name[0] && m->n_children;
}

/* Accesses of one unit by one CPU on one line, for the pair estimator of
 * pairs.c. */
struct slt_pair_acc {
	size_t group;              /* slt_member_unit() (or the caller's id) */
	int32_t cpu;
	double loads, stores;      /* samples (scaled by the advisor) */
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
/* The classes term of one line without a table per group (the advisor
 * prices lines millions of times): leaves are added in runs, every leaf
 * of a group right after the group's previous one (pre-order of the
 * members, a unit's leaves in order), and counted per group when its run
 * ends.  Zero-initialise; release with slt_class_line_release(). */
struct slt_class_line {
	bool open, rd, wr;         /* the group being added */
	size_t group;
	const char *label;         /* its first written leaf's label */
	double n_rd, n_wr, n_both; /* groups read-mostly / written / both */
	double n_labelled;         /* written groups with a label */
	struct { const char *label; double n; } *lab; /* per label */
	size_t n_lab, cap_lab;
};
/* Count the labelled written group whose run ended under its label.
 * 0 or SLT_ENOMEM. */
int slt_class_line_label(struct slt_class_line *c);
/* Count the group whose run ended.  0 or SLT_ENOMEM. */
static inline int slt_class_line_flush(struct slt_class_line *c)
{
	if (!c->open)
		return 0;
	c->open = false;
	c->n_rd += c->rd;
	c->n_wr += c->wr;
	c->n_both += c->rd && c->wr;
	return c->wr && c->label ? slt_class_line_label(c) : 0;
}
/* Start group's run (the previous group counted).  0 or SLT_ENOMEM. */
static inline int slt_class_line_next(struct slt_class_line *c, size_t group)
{
	int rc = slt_class_line_flush(c);
	c->open = true;
	c->group = group;
	c->rd = c->wr = false;
	c->label = NULL;
	return rc;
}
/* Add a leaf of group (read-mostly, written with label or NULL).
 * 0 or SLT_ENOMEM.  Inline: the advisor calls it per leaf and line of
 * every layout it prices. */
static inline int slt_class_line_add(struct slt_class_line *c, size_t group,
				     bool read, bool write, const char *label)
{
	if (!c->open || c->group != group) {
		int rc = slt_class_line_next(c, group);
		if (rc)
			return rc;
	}
	c->rd |= read;
	c->wr |= write;
	if (write && label && !c->label)
		c->label = label;
	return 0;
}
/* Read-mostly x written group pairs (a group never with itself) into
 * *read_write and pairs of written groups with different writer labels
 * into *write_write.  0 or SLT_ENOMEM. */
static inline int slt_class_line_value(struct slt_class_line *c, double *read_write,
				       double *write_write)
{
	int rc = slt_class_line_flush(c);
	/* written labelled pairs minus those of one label */
	double ww = c->n_labelled * (c->n_labelled - 1) / 2;
	for (size_t k = 0; k < c->n_lab; k++)
		ww -= c->lab[k].n * (c->lab[k].n - 1) / 2;
	*read_write = c->n_rd * c->n_wr - c->n_both;
	*write_write = ww;
	return rc;
}
void slt_class_line_release(struct slt_class_line *c);

/* Given classes that collide inside one unit (inner.c): a member classed
 * written and one classed read-mostly inside one nested struct or union,
 * on one line; no finding names them (pairs count between units). */
struct slt_inner_pair {
	size_t unit, written, read;  /* member indices */
	uint64_t line;
};
/* The first such pair on the classes basis into *out: 1, 0 (none) or
 * SLT_ENOMEM. */
int slt_inner_collision(const struct slt_analysis *a, struct slt_inner_pair *out);
/* Add the code locations l[0..n) of group's accesses (a member's; a
 * group may get several lists).  0 or SLT_ENOMEM. */
int slt_pairs_locs(struct slt_pairs *p, size_t group,
		   const struct slt_code_location *l, size_t n);
/* Per-CPU: sum over groups U != V and CPUs c != d of
 * min(stores_c(U), accesses_d(V) x apart(U, V)), where apart(U, V) is the
 * share of V's accesses not made together with U: per code path
 * (function), min(V's, U's accesses by it) are together (1 when V has no
 * code locations): an operation touching V and U takes the line for U
 * anyway, so V beside U costs it nothing. */
double slt_pairs_cross(const struct slt_pairs *p);
/* slt_pairs_cross() by role, for naming what a finding is made of: per
 * group on the line, its terms as the stored-to side U paired with groups
 * not stored to on the line (writer_rw) or stored to (writer_ww), and as
 * the accessed side V (accessed); *read_write sums the terms whose V is
 * not stored to on the line (a collision), *write_write those whose V is
 * (read_write + write_write = slt_pairs_cross()).  *parts (malloc()ed,
 * *n of them, the caller frees) or SLT_ENOMEM. */
struct slt_pairs_part {
	size_t group;
	bool written;              /* stored to on the line by some CPU */
	double writer_rw, writer_ww, accessed;
};
int slt_pairs_split(const struct slt_pairs *p, struct slt_pairs_part **parts,
		    size_t *n, double *read_write, double *write_write);
/* Two different groups stored to by different CPUs, by code paths that do
 * not touch both? */
bool slt_pairs_write_write(const struct slt_pairs *p);
void slt_pairs_release(struct slt_pairs *p);

#endif
