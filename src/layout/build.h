/* SPDX-License-Identifier: MIT */
/* Turning the type graph into the layout model.  Internal. */
#ifndef SLT_LAYOUT_BUILD_H
#define SLT_LAYOUT_BUILD_H

#include <stdbool.h>

#include "common/arena.h"
#include "layout/types.h"
#include "structlint/layout.h"

/*
 * Fill *out with the layout of t (SLT_T_STRUCT or SLT_T_UNION, fully
 * translated): members in pahole order with pahole's type spelling, holes,
 * bit holes, tail padding, forced alignments and the summary counts.
 * Anonymous struct/union members are always inline; named ones too when
 * expand is set.  Everything is allocated from a.  Returns 0, or
 * SLT_ENOMEM / SLT_ECORRUPT (members out of order beyond the struct size,
 * cycles) with err filled; `file` names the input in messages.
 */
int slt_build_struct(struct slt_arena *a, const struct slt_type *t,
		     enum slt_format format, bool expand, const char *file,
		     struct slt_struct *out, struct slt_error *err);

/* True when a and b are the same layout (name, kind, size, and every
 * member's name, type, offset, size and bits).  Used to show identical
 * definitions from different compile units once. */
bool slt_struct_same(const struct slt_struct *a, const struct slt_struct *b);

/*
 * Spell type t the way pahole does, split around a declarator name:
 * the declaration of a member `name` is *head + name + *tail, and the bare
 * type is *head + *tail.  E.g. "long unsigned int" / "[5][5]",
 * "const char  *" / "", "int (*" / ")(int, char *)".  Allocated from a.
 * Returns 0 or SLT_ENOMEM.
 */
int slt_ctype_spell(struct slt_arena *a, const struct slt_type *t,
		    const char **head, const char **tail);

/*
 * Like slt_ctype_spell(), for a member declaration: when open_array is set,
 * an outermost bound of 0 is written "[]" (pahole does so for the last
 * member of a struct that has more than one member, outside unions).
 * Returns 0 or SLT_ENOMEM.
 */
int slt_ctype_spell_decl(struct slt_arena *a, const struct slt_type *t,
			 bool open_array, const char **head, const char **tail);

/* pahole's name of a type outside a declarator (__tag__name()):
 * "const char  *", "struct foo", "int ()(int)".  Returns 0 or SLT_ENOMEM. */
int slt_ctype_name(struct slt_arena *a, const struct slt_type *t,
		   const char **name);

/*
 * pahole's closing summary of s (sum_members, holes, bit holes, paddings,
 * forced alignments and forced holes; n_top_members), from s->members and
 * s->holes, which must be sorted (slt_struct_sort_holes()).  The summary
 * fields must be zero on entry.  Used by the builder and by the advisor
 * for proposed layouts.
 */
void slt_struct_summarize(struct slt_struct *s);

/* Sort holes into offset order, a bit hole before a byte hole at the same
 * offset; stable. */
void slt_struct_sort_holes(struct slt_hole *h, size_t n);

#endif
