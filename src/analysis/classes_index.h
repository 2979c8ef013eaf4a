/* SPDX-License-Identifier: MIT */
/*
 * slt_classes.priv_: the arena of every string and the (struct, member)
 * index of the entries, built on demand as entries are appended (parser
 * duplicate checks, slt_classes_find, slt_classes_merge), so N entries
 * cost O(N) lookups, not O(N^2).  Internal to src/analysis.
 */
#ifndef SLT_ANALYSIS_CLASSES_INDEX_H
#define SLT_ANALYSIS_CLASSES_INDEX_H

#include <stddef.h>

#include "common/arena.h"
#include "structlint/classes.h"

/* Give c (priv_ NULL) its private part, owning arena a.  0 or SLT_ENOMEM
 * (a not taken). */
int slt_classes_priv_init(struct slt_classes *c, struct slt_arena *a);
/* The arena of c's strings. */
struct slt_arena *slt_classes_arena(const struct slt_classes *c);
/* Free the private part (arena included). */
void slt_classes_priv_free(struct slt_classes *c);
/* The first entry of struct st, member m (exact strings): 1 and *idx,
 * 0 when none, SLT_ENOMEM. */
int slt_classes_index_find(const struct slt_classes *c, const char *st, const char *m,
			   size_t *idx);
/* Room for one more entry in c->entries (geometric growth): 0 or
 * SLT_ENOMEM. */
int slt_classes_reserve(struct slt_classes *c);

#endif
