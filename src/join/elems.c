/* SPDX-License-Identifier: MIT */
/* Per-element accesses of array members: see elems.h. */
#include <stdlib.h>

#include "join/elems.h"
#include "join/join_int.h"
#include "common/sort.h"

/* The most elements one access is counted in (a wide copy over a char
 * array counts in the first ones only). */
#define ELEMS_PER_ACCESS 64u

int slt_elems_add(struct slt_elems *e, const struct slt_member *m, bool placed,
		  uint64_t rel, uint32_t asz, const struct slt_acc *a)
{
	uint64_t n = slt_join_array_elems(m);
	if (n <= 1 || m->size % n)
		return 0;
	if (!placed) {
		for (size_t i = 0; i < a->n_cpus; i++)
			e->unplaced += a->cpus[i].stores;
		return 0;
	}
	uint64_t unit = m->size / n, first = rel / unit;
	uint64_t last = (rel + (asz ? asz : 1) - 1) / unit;
	if (last >= n)
		last = n - 1;
	if (last - first >= ELEMS_PER_ACCESS)
		last = first + ELEMS_PER_ACCESS - 1;
	size_t need = e->n + (size_t)(last - first + 1) * a->n_cpus;
	if (need > e->cap) {
		size_t nc = e->cap ? e->cap : 16;
		while (nc < need)
			nc *= 2;
		struct slt_elem_ent *v = realloc(e->v, nc * sizeof(*v));
		if (!v)
			return SLT_ENOMEM;
		e->v = v;
		e->cap = nc;
	}
	for (uint64_t k = first; k <= last; k++)
		for (size_t i = 0; i < a->n_cpus; i++)
			e->v[e->n++] = (struct slt_elem_ent){ (uint32_t)k, a->cpus[i] };
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
