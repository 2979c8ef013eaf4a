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

/* Add point accumulator a (per-CPU counts) of member m to e: when placed,
 * at byte rel of m, asz bytes wide (0 unknown: one byte), to each element
 * it covers; else to the unplaced stores.  Members that are not arrays
 * are left out.  Returns 0 or SLT_ENOMEM. */
int slt_elems_add(struct slt_elems *e, const struct slt_member *m, bool placed,
		  uint64_t rel, uint32_t asz, const struct slt_acc *a);

/* Sort and merge e into c->elems (arena memory); sets c->n_elems and
 * c->unplaced_stores.  Returns 0 or SLT_ENOMEM. */
int slt_elems_publish(struct slt_arena *ar, struct slt_elems *e,
		      struct slt_line_access *c);

#endif
