/* SPDX-License-Identifier: MIT */
/*
 * Unclassified members a proposal puts on a classed line (slt_proposal.
 * unclassed, include/structlint/advice.h): the top-level members it
 * relocates or shifts that have no class (none given, none measured, in
 * their whole subtree) and that now share a line with a read-mostly or
 * written member they did not share one with before.  The model prices
 * them as never accessed, so the proposal may be wrong for them: the
 * output names them, and the user classes them or checks.  The cost
 * follows the moved unclassified members times the classed ones.
 */
#include <stdlib.h>

#include "advice/advice_int.h"

/* A class that makes a line matter to its neighbours. */
static bool hot_class(enum slt_class c)
{
	return c == SLT_CLASS_READ_MOSTLY || c == SLT_CLASS_HOT_WRITE ||
	       c == SLT_CLASS_MIXED || c == SLT_CLASS_TRUE_SHARED;
}

/* Do [a, a + as) and [b, b + bs) (bytes at origin o) share a line? */
static bool same_line(uint64_t o, unsigned cl, uint64_t a, uint64_t as,
		      uint64_t b, uint64_t bs)
{
	uint64_t a0 = (o + a) / cl, a1 = (o + a + (as ? as - 1 : 0)) / cl;
	uint64_t b0 = (o + b) / cl, b1 = (o + b + (bs ? bs - 1 : 0)) / cl;
	return a0 <= b1 && b0 <= a1;
}

int slt_adv_unclassed(struct slt_arena *ar, const struct slt_adv_units *us,
		      const struct slt_adv_plan *p, const uint64_t *off,
		      const uint8_t *state, struct slt_proposal *pr)
{
	const struct slt_analysis *a = us->a;
	const struct slt_struct *s = us->orig;
	size_t nm = s->n_members, nh = 0, nu = 0;
	uint64_t *now = NULL;   /* each member's offset in the proposal */
	size_t *hot = NULL, *un = NULL;
	bool *flag = NULL;
	uint64_t o = a->line_origin;
	unsigned cl = us->line;
	int rc = 0;

	pr->unclassed = NULL;
	pr->n_unclassed = 0;
	if (!a->classes || !nm)
		return 0;
	now = malloc(nm * sizeof(*now));
	hot = malloc(nm * sizeof(*hot));
	un = malloc(nm * sizeof(*un));
	flag = calloc(nm, sizeof(*flag));
	if (!now || !hot || !un || !flag) {
		rc = SLT_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nm; i++)
		now[i] = s->members[i].offset;
	/* every member of a unit's top-level subtrees moves with it */
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_adv_unit *u = &us->u[p->order[i]];
		for (size_t t = 0; t < u->n_top; t++) {
			size_t k = u->top[t], e = k + 1;
			uint64_t to = off[i] + u->rel[t];
			while (e < nm && s->members[e].depth > s->members[k].depth)
				e++;
			for (size_t j = k; j < e; j++)
				now[j] = to + (s->members[j].offset - s->members[k].offset);
		}
	}
	for (size_t j = 0; j < nm; j++)
		if (hot_class(a->classes[j].cls) && s->members[j].size)
			hot[nh++] = j;
	for (size_t i = 0; i < p->n && nh; i++) {
		const struct slt_adv_unit *u = &us->u[p->order[i]];
		for (size_t t = 0; t < u->n_top; t++) {
			size_t k = u->top[t], e = k + 1;
			bool classed = false, lands = false;
			if (!state[k] || !s->members[k].size)
				continue;
			while (e < nm && s->members[e].depth > s->members[k].depth)
				e++;
			for (size_t j = k; j < e && !classed; j++)
				classed = a->classes[j].cls != SLT_CLASS_NONE;
			if (classed)
				continue;
			const struct slt_member *m = &s->members[k];
			for (size_t h = 0; h < nh && !lands; h++) {
				const struct slt_member *q = &s->members[hot[h]];
				lands = same_line(o, cl, now[k], m->size, now[hot[h]], q->size) &&
					!same_line(o, cl, m->offset, m->size, q->offset, q->size);
			}
			if (lands)
				un[nu++] = k;
		}
	}
	if (nu) {
		pr->unclassed = slt_arena_calloc(ar, nu, sizeof(*pr->unclassed));
		if (!pr->unclassed) {
			rc = SLT_ENOMEM;
			goto out;
		}
		/* ascending member index: the original order */
		for (size_t i = 0; i < nu; i++)
			flag[un[i]] = true;
		for (size_t j = 0, w = 0; j < nm; j++)
			if (flag[j])
				pr->unclassed[w++] = j;
		pr->n_unclassed = nu;
	}
out:
	free(now);
	free(hot);
	free(un);
	free(flag);
	return rc;
}
