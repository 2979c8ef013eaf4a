/* SPDX-License-Identifier: MIT */
/* Per-element accesses of array members: see elems.h. */
#include <stdlib.h>

#include "common/grow.h"
#include "join/elems.h"
#include "join/join_int.h"
#include "common/sort.h"

/* The most elements one access is counted in (a wide copy over a char
 * array counts in the first ones only). */
#define ELEMS_PER_ACCESS 64u

int slt_elems_push(struct slt_elems *e, uint32_t elem, const struct slt_cpu_access *acc)
{
	if (slt_grow((void **)&e->v, &e->cap, e->n + 1, sizeof(*e->v), 0))
		return SLT_ENOMEM;
	e->v[e->n++] = (struct slt_elem_ent){ elem, *acc };
	return 0;
}

int slt_elems_add(struct slt_elems *e, const struct slt_struct *s, size_t mi, bool placed,
		  uint64_t off, uint32_t asz, const struct slt_acc *a)
{
	/* the array is the unit holding the member: the member itself, or
	 * with --expand the array of structs whose leaf it is */
	const struct slt_member *m = &s->members[slt_member_unit(s, mi)];
	uint64_t n = slt_join_array_elems(m);
	if (n <= 1 || m->size % n)
		return 0;
	if (!placed) {
		for (size_t i = 0; i < a->n_cpus; i++)
			e->unplaced += a->cpus[i].stores;
		return 0;
	}
	uint64_t unit = m->size / n, rel = off - m->offset, first = rel / unit;
	uint64_t last = (rel + (asz ? asz : 1) - 1) / unit;
	if (last >= n)
		last = n - 1;
	if (last - first >= ELEMS_PER_ACCESS)
		last = first + ELEMS_PER_ACCESS - 1;
	for (uint64_t k = first; k <= last; k++)
		for (size_t i = 0; i < a->n_cpus; i++)
			if (slt_elems_push(e, (uint32_t)k, &a->cpus[i]))
				return SLT_ENOMEM;
	return 0;
}

static int cmp_ent(const void *x, const void *y)
{
	const struct slt_elem_ent *a = x, *b = y;
	if (a->elem != b->elem)
		return a->elem < b->elem ? -1 : 1;
	return (a->acc.cpu > b->acc.cpu) - (a->acc.cpu < b->acc.cpu);
}

int slt_elems_publish(struct slt_arena *ar, struct slt_elems *e,
		      struct slt_line_access *c)
{
	c->unplaced_stores = e->unplaced;
	if (!e->n)
		return 0;
	slt_sort(e->v, e->n, sizeof(*e->v), cmp_ent);
	/* merge repeated (elem, cpu) pairs in place; count the elements */
	size_t w = 0, n_elems = 0;
	for (size_t i = 0; i < e->n; i++) {
		if (w && e->v[w - 1].elem == e->v[i].elem &&
		    e->v[w - 1].acc.cpu == e->v[i].acc.cpu) {
			e->v[w - 1].acc.loads += e->v[i].acc.loads;
			e->v[w - 1].acc.stores += e->v[i].acc.stores;
			continue;
		}
		n_elems += !w || e->v[w - 1].elem != e->v[i].elem;
		e->v[w++] = e->v[i];
	}
	c->elems = slt_arena_calloc(ar, n_elems, sizeof(*c->elems));
	struct slt_cpu_access *cpus = slt_arena_calloc(ar, w, sizeof(*cpus));
	if (!c->elems || !cpus)
		return SLT_ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < w; i++) {
		cpus[i] = e->v[i].acc;
		if (!i || e->v[i - 1].elem != e->v[i].elem)
			c->elems[k++] = (struct slt_elem_access){ e->v[i].elem, &cpus[i], 0 };
		c->elems[k - 1].n_cpus++;
	}
	c->n_elems = n_elems;
	return 0;
}

int slt_elems_unit_cell(struct slt_arena *ar, const struct slt_struct *s,
			const struct slt_line_access *cells, size_t n, size_t u,
			struct slt_line_access *out)
{
	const struct slt_line_access *only = NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (cells[i].member < s->n_members && slt_member_unit(s, cells[i].member) == u)
			only = &cells[i], k++;
	if (k <= 1) {
		if (only)
			*out = *only;
		else
			*out = (struct slt_line_access){ .member = u };
		out->member = u;
		return 0;
	}
	struct slt_elems ev = { 0 }, cv = { 0 };
	struct slt_line_access cpus = { 0 };
	*out = (struct slt_line_access){ .line = only->line, .member = u };
	int rc = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		const struct slt_line_access *c = &cells[i];
		if (c->member >= s->n_members || slt_member_unit(s, c->member) != u)
			continue;
		out->loads += c->loads;
		out->stores += c->stores;
		out->hitm += c->hitm;
		ev.unplaced += c->unplaced_stores;
		/* the CPUs are merged as the elements are, as one element */
		for (size_t q = 0; !rc && q < c->n_cpus; q++)
			rc = slt_elems_push(&cv, 0, &c->cpus[q]);
		for (size_t e = 0; !rc && e < c->n_elems; e++)
			for (size_t q = 0; !rc && q < c->elems[e].n_cpus; q++)
				rc = slt_elems_push(&ev, c->elems[e].elem, &c->elems[e].cpus[q]);
	}
	if (!rc)
		rc = slt_elems_publish(ar, &ev, out);
	if (!rc)
		rc = slt_elems_publish(ar, &cv, &cpus);
	if (!rc && cpus.n_elems) {
		out->cpus = cpus.elems[0].cpus;
		out->n_cpus = cpus.elems[0].n_cpus;
	}
	free(ev.v);
	free(cv.v);
	return rc;
}
