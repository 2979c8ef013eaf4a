/* SPDX-License-Identifier: MIT */
/*
 * pahole's per-level layout facts, shared by the layout builder: where
 * members sit, holes and padding (class__find_holes()), natural alignment
 * (tag__natural_alignment()) and the alignments pahole's BTF loader guesses.
 * Internal to src/layout.
 */
#ifndef SLT_LAYOUT_INFER_H
#define SLT_LAYOUT_INFER_H

#include <stdbool.h>
#include <stdint.h>

#include "layout/types.h"

#define MAX_DEPTH 64 /* nesting and typedef chains; deeper is a cycle */

/* One member of a struct level as pahole sees it. */
struct pm {
	int64_t byte_offset; /* storage unit, bytes from the level start */
	int64_t bit_start;   /* first bit, from the level start */
	int64_t size;        /* bytes (storage unit for bitfields) */
	uint32_t bit_size;   /* bitfield width, 0 otherwise */
};

/* class__find_holes() results for one level. */
struct holes {
	int64_t *hole;      /* byte hole after member i */
	int64_t *bit_hole;  /* bit hole after member i */
	int64_t pre_hole, pre_bit_hole;
	int64_t padding, bit_padding;
	uint32_t nr_holes, nr_bit_holes;
};

/* t without typedefs and qualifiers (NULL stays NULL). */
const struct slt_type *slt_lay_strip(const struct slt_type *t);
/* Size in bytes of an object of type t (0 for void and functions). */
uint64_t slt_lay_tsize(const struct slt_type *t);
/* tag__natural_alignment() of t, bytes (at least 1); depth: recursion. */
uint64_t slt_lay_natalign(const struct slt_type *t, int depth);
/* The alignment in bytes the compiler gives t: DW_AT_alignment on the type
 * (or a typedef of it) and on its members, recursively, else natural
 * (__packed__ is not known here). */
uint64_t slt_lay_alignment(const struct slt_type *t, int depth);
/* Where pahole puts member tm (bitfields at their storage unit). */
struct pm slt_lay_pm_of(const struct slt_tmember *tm);
/* class__find_holes() on struct t into *o (arrays malloc()ed, free with
 * slt_lay_holes_free()); *pmp, when not NULL, gets the malloc()ed member
 * positions.  Returns 0 or SLT_ENOMEM. */
int slt_lay_type_holes(const struct slt_type *t, struct pm **pmp,
		       struct holes *o);
void slt_lay_holes_free(struct holes *o);
/* Tail padding in bytes of struct type t (0 for others or shallow ones). */
uint64_t slt_lay_struct_padding(const struct slt_type *t);
/* pahole's BTF alignment guesses for struct/union t (bytes, 0 = none):
 * member i's in align[i] when align is not NULL, the type's own returned. */
uint32_t slt_lay_btf_alignments(const struct slt_type *t, uint32_t *align);

#endif
