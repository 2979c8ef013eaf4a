/* SPDX-License-Identifier: MIT */
/*
 * The source diff's matching of a proposal's members to the original
 * layout's (diff_int.h): which top-level member of the original a
 * proposal's member was built from, and whether an anonymous member still
 * holds its members as the source declares them.
 */
#include <string.h>

#include "advice/advice_int.h"
#include "advice/diff_int.h"

bool slt_diff_is_pad(const struct slt_member *m)
{
	return (m->flags & SLT_MEMBER_ZERO_SIZE) && !strcmp(m->type, SLT_ADV_PAD_TYPE);
}

static const char *first_named(const struct slt_struct *s, size_t i)
{
	for (size_t k = i + 1; k < s->n_members && s->members[k].depth > s->members[i].depth; k++)
		if (*s->members[k].name)
			return s->members[k].name;
	return "";
}

/* Whether o's member k holds a member named name (its first named one
 * when name is ""; members reordered inside it are still found). */
static bool holds(const struct slt_struct *o, size_t k, const char *name)
{
	if (!*name)
		return !*first_named(o, k);
	for (size_t q = k + 1; q < o->n_members && o->members[q].depth > o->members[k].depth; q++)
		if (!strcmp(o->members[q].name, name))
			return true;
	return false;
}

/* The top-level member of o that p's top-level member i was built from,
 * or -1 (an inserted padding member, or none). */
long slt_diff_orig_top(const struct slt_struct *ps, size_t i,
		       const struct slt_struct *o, const bool *used)
{
	const struct slt_member *m = &ps->members[i];
	const char *fn = *m->name ? "" : first_named(ps, i);

	for (size_t k = 0; k < o->n_members; k++) {
		const struct slt_member *x = &o->members[k];
		/* a size change is checked by the caller (same_inside()) */
		if (x->parent != -1 || used[k] || strcmp(x->name, m->name))
			continue;
		if (!*m->name && (!holds(o, k, fn) || strcmp(x->type, m->type)))
			continue;
		return (long)k;
	}
	return -1;
}

/* Whether proposal member i (anonymous, with members) holds the same
 * members at the same relative offsets as orig's k: false when the
 * advisor reordered inside it (an opened anonymous struct, units.c). */
bool slt_diff_same_inside(const struct slt_struct *ps, size_t i,
			  const struct slt_struct *o, size_t k)
{
	size_t a = i + 1, b = k + 1;
	if (ps->members[i].size != o->members[k].size)
		return false;
	for (;; a++, b++) {
		bool ea = a >= ps->n_members || ps->members[a].depth <= ps->members[i].depth;
		bool eb = b >= o->n_members || o->members[b].depth <= o->members[k].depth;
		if (ea || eb)
			return ea && eb;
		if (strcmp(ps->members[a].name, o->members[b].name) ||
		    ps->members[a].offset - ps->members[i].offset !=
		    o->members[b].offset - o->members[k].offset)
			return false;
	}
}
