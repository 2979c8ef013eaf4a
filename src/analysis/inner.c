/* SPDX-License-Identifier: MIT */
/*
 * Given classes that collide inside one unit: a member classed written and
 * one classed read-mostly, both inside one nested struct or union (one
 * unit, analysis_int.h), on one line.  Pairs count between units, so no
 * finding names them (reordering the outer struct cannot part them);
 * report says why in a note and where to look (the nested type).
 */
#include <stdlib.h>

#include "analysis/analysis_int.h"
#include "common/sort.h"

struct span {
	uint64_t first, last;      /* lines */
	size_t m;
	bool write;
};

static int span_cmp(const void *x, const void *y)
{
	const struct span *a = x, *b = y;
	return a->first < b->first ? -1 : a->first > b->first;
}

static bool writes(enum slt_class c)
{
	return c == SLT_CLASS_HOT_WRITE || c == SLT_CLASS_MIXED || c == SLT_CLASS_TRUE_SHARED;
}

/* The first collision among spans v[0..n) (sorted by first line): a written
 * span and a read-mostly one over one line. */
static bool sweep(const struct span *v, size_t n, struct slt_inner_pair *out)
{
	const struct span *w = NULL, *r = NULL;   /* the furthest-reaching so far */
	for (size_t i = 0; i < n; i++) {
		const struct span *o = v[i].write ? r : w;
		if (o && o->last >= v[i].first) {
			out->written = v[i].write ? v[i].m : o->m;
			out->read = v[i].write ? o->m : v[i].m;
			out->line = v[i].first;
			return true;
		}
		const struct span **k = v[i].write ? &w : &r;
		if (!*k || (*k)->last < v[i].last)
			*k = &v[i];
	}
	return false;
}

int slt_inner_collision(const struct slt_analysis *a, struct slt_inner_pair *out)
{
	const struct slt_struct *s = a->layout;
	unsigned cl = a->cacheline_size;
	if (a->basis != SLT_BASIS_CLASSES || !cl || !s->n_members)
		return 0;
	struct span *v = malloc(s->n_members * sizeof(*v));
	if (!v)
		return SLT_ENOMEM;
	int found = 0;
	/* a unit's members follow it in pre-order */
	for (size_t i = 0; i < s->n_members && !found;) {
		size_t u = slt_member_unit(s, i), e = i, n = 0;
		while (e < s->n_members && slt_member_unit(s, e) == u)
			e++;
		for (size_t k = i; k < e; k++) {
			const struct slt_member *m = &s->members[k];
			enum slt_class c = a->classes[k].cls;
			if (k == u || m->n_children || !m->size || !a->classes[k].given ||
			    (c != SLT_CLASS_READ_MOSTLY && !writes(c)))
				continue;
			v[n++] = (struct span){ (a->line_origin + m->offset) / cl,
						(a->line_origin + m->offset + m->size - 1) / cl,
						k, writes(c) };
		}
		if (n > 1) {
			qsort(v, n, sizeof(*v), span_cmp);
			if (sweep(v, n, out)) {
				out->unit = u;
				found = 1;
			}
		}
		i = e;
	}
	free(v);
	return found;
}
