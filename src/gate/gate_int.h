/* SPDX-License-Identifier: MIT */
/*
 * Small helpers the gate's rule checks share (groups.c, writers.c).
 * Internal to src/gate.
 */
#ifndef SLT_GATE_INT_H
#define SLT_GATE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "structlint/analysis.h"
#include "structlint/layout.h"

/* Is a member of class c written (hot-write, mixed, true sharing)? */
static inline bool slt_gate_written(enum slt_class c)
{
	return c == SLT_CLASS_HOT_WRITE || c == SLT_CLASS_MIXED ||
	       c == SLT_CLASS_TRUE_SHARED;
}

/* Is member k member i, inside it or enclosing it? */
static inline bool slt_gate_related(const struct slt_struct *s, size_t i, size_t k)
{
	for (long q = (long)k; q >= 0; q = s->members[q].parent)
		if (q == (long)i)
			return true;
	for (long q = s->members[i].parent; q >= 0; q = s->members[q].parent)
		if (q == (long)k)
			return true;
	return false;
}

#endif
