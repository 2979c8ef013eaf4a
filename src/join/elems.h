/* SPDX-License-Identifier: MIT */
/*
 * Per-element, per-CPU accesses of an array member on one line (a join
 * cell's slt_line_access.elems): collected unsorted while the points are
 * mapped, sorted and merged once when the cell is published, so the cost
 * follows the (element, CPU) pairs seen, never the samples.  Internal to
 * src/join.
 */
#ifndef SLT_JOIN_ELEMS_H
#define SLT_JOIN_ELEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "join/acc.h"
#include "structlint/layout.h"

struct slt_elem_ent {
	uint32_t elem;
	struct slt_cpu_access acc;
};

struct slt_elems {
	struct slt_elem_ent *v;    /* unsorted, may repeat (elem, cpu) */
	size_t n, cap;
	uint64_t unplaced;         /* stores by known CPUs, element unknown */
};

/* Add one CPU's accesses acc of element elem to e.  Returns 0 or
 * SLT_ENOMEM. */
int slt_elems_push(struct slt_elems *e, uint32_t elem, const struct slt_cpu_access *acc);

/* Add point accumulator a (per-CPU counts) on member mi of s to e: when
 * placed, at byte off of s, asz bytes wide (0 unknown: one byte), to each
 * element it covers of the array holding it, the member's unit
 * (slt_member_unit(): the member itself, or with --expand the array of
 * structs whose element holds the leaf, so that the elements are the
 * same with and without --expand); else to the unplaced stores.  Members
 * whose unit is no array are left out.  Returns 0 or SLT_ENOMEM. */
int slt_elems_add(struct slt_elems *e, const struct slt_struct *s, size_t mi, bool placed,
		  uint64_t off, uint32_t asz, const struct slt_acc *a);

/* Sort and merge e into c->elems (arena memory); sets c->n_elems and
 * c->unplaced_stores.  Returns 0 or SLT_ENOMEM. */
int slt_elems_publish(struct slt_arena *ar, struct slt_elems *e,
		      struct slt_line_access *c);

/* The accesses of unit u (slt_member_unit()) on one line, from that
 * line's cells[0..n): the one cell of u's members as it is, or (with
 * --expand, u's leaves each in a cell) the cells summed, CPUs and elements
 * merged (arena memory).  out->member is u.  Returns 0 or SLT_ENOMEM. */
int slt_elems_unit_cell(struct slt_arena *ar, const struct slt_struct *s,
			const struct slt_line_access *cells, size_t n, size_t u,
			struct slt_line_access *out);

#endif
