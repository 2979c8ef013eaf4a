/* SPDX-License-Identifier: MIT */
/* Internals of the join shared by join.c (collecting, mapping) and base.c
 * (instance base resolution).  Internal to src/join. */
#ifndef SLT_JOIN_INT_H
#define SLT_JOIN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "join/acc.h"
#include "structlint/join.h"

/* What a point's key is. */
enum slt_point_kind {
	SLT_POINT_FREE = 0,   /* empty hash slot */
	SLT_POINT_OFFSET,     /* key: bytes from the struct start (typed) */
	SLT_POINT_ADDR,       /* key: data virtual address (needs a base) */
	SLT_POINT_MEMBER,     /* key: member index (named by the sample) */
	SLT_POINT_NOMEMBER,   /* a named member that does not exist */
};

/* All samples at one distinct address/offset, summed. */
struct slt_join_point {
	uint64_t key;
	uint32_t kind;        /* enum slt_point_kind */
	uint32_t access_size; /* largest access size seen, bytes; 0 unknown */
	struct slt_acc acc;
};

/* The dotted path of member i ("a.b.c"; anonymous levels are left out,
 * "" for an anonymous member) in buf, truncated to size.  Returns buf. */
char *slt_member_path(const struct slt_struct *s, size_t i, char *buf,
		      size_t size);

/* The member path of s closest to want by edit distance ("did you mean"):
 * *best gets a malloc()ed path the caller frees, or NULL when none is
 * close.  Returns 0 or SLT_ENOMEM. */
int slt_member_closest(const struct slt_struct *s, const char *want,
		       char **best);

/* Innermost member holding byte off of s (deepest level wins; among
 * members of one level, e.g. union members or bitfields sharing a storage
 * unit, the first in pre-order).  -1 when off is in a hole, padding or
 * outside. */
long slt_join_member_at(const struct slt_struct *s, uint64_t off);

/* The outermost named member holding member i (i itself at top level, or
 * when only anonymous composites hold it): the unit whose pairs with other
 * units are false sharing (src/analysis/pairs.c), and the array whose
 * elements an access inside it is counted in (elems.c), with or without
 * --expand (path.c). */
size_t slt_member_unit(const struct slt_struct *s, size_t i);

/* The member named by path ("a.b", subscripts ignored): its index, -2 - i
 * when the path lies inside member i shown folded, -1 when none. */
long slt_join_member_by_path(const struct slt_struct *s, const char *path);

/* The member named by path into *member (as slt_join_member_by_path; -1
 * also for a subscript out of range or on a non-array).  When the path has
 * subscripts ("slot[3]", "a[2].b"), returns 1 and *off, the element's byte
 * from the struct start, with *member the innermost member of the path
 * holding it; 0 otherwise. */
int slt_join_path_place(const struct slt_struct *s, const char *path, long *member,
			uint64_t *off);

/* Elements of an array member from its decl_tail ("[5][5]": 25); 1 for
 * scalars and for dimensions that cannot be read. */
uint64_t slt_join_array_elems(const struct slt_member *m);

/*
 * Resolve the base of the SLT_POINT_ADDR points pts[0..n) (n > 0): from
 * opts (--base, checked against any --line hints, then --line hints) or by
 * inference.  Fills p->base,
 * p->base_method, p->confidence and p->base_note.  Returns 0, or
 * SLT_EUSAGE (hints disagree, inference refused or ambiguous: the hint
 * names the option that resolves it) with err filled.
 */
int slt_join_resolve_base(const struct slt_struct *s,
			  const struct slt_join_opts *opts, unsigned cl,
			  const struct slt_join_point *const *pts, size_t n,
			  struct slt_access_profile *p, struct slt_error *err);

#endif
