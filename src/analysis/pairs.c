/* SPDX-License-Identifier: MIT */
/*
 * The pair estimator of false sharing on one cache line, shared by the
 * findings (findings.c) and the advisor's cost (src/advice/cost.c).
 *
 * Accesses on a line are kept per (unit, CPU), where a unit is the
 * outermost named member holding an innermost one (slt_member_unit()):
 * anonymous structs and unions are transparent, a named nested struct or
 * union counts as one, with or without --expand.  Then
 *
 *   per-CPU:  sum over units U != V, CPUs c != d of
 *             min(stores of U by c, loads + stores of V by d)
 *
 * every (store of U on c, access of V on d) pair, whatever else c and d
 * do: when every CPU writes U and reads V, V's loads are still falsely
 * shared with U's stores (moving V away removes them) while U's own
 * traffic is true sharing, which is not counted here.
 *
 *   classes:  read-mostly units x written units on the line, minus the
 *             units that are both, plus the pairs of written units whose
 *             writer labels (hot-write:LABEL) differ.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"

size_t slt_member_unit(const struct slt_struct *s, size_t i)
{
	size_t u = i;
	for (int32_t p = (int32_t)i; p >= 0; p = s->members[p].parent)
		if (s->members[p].name[0])
			u = (size_t)p;
	return u;
}

/* A group's accesses usually arrive together (a unit's members are
 * consecutive): entries of the group last added are looked for from where
 * it started, others in all. */
static struct slt_pair_acc *find(struct slt_pairs *p, size_t group,
				 int32_t cpu)
{
	size_t from = p->n && p->v[p->n - 1].group == group ? p->gstart : 0;
	for (size_t k = from; k < p->n; k++)
		if (p->v[k].group == group && p->v[k].cpu == cpu)
			return &p->v[k];
	if (!p->n || p->v[p->n - 1].group != group)
		p->gstart = p->n;
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 16;
		void *q = realloc(p->v, nc * sizeof(*p->v));
		if (!q)
			return NULL;
		p->v = q;
		p->cap = nc;
	}
	struct slt_pair_acc *e = &p->v[p->n++];
	memset(e, 0, sizeof(*e));
	e->group = group;
	e->cpu = cpu;
	return e;
}

int slt_pairs_add(struct slt_pairs *p, size_t group,
		  const struct slt_cpu_access *c, size_t nc, double scale)
{
	for (size_t i = 0; i < nc; i++) {
		struct slt_pair_acc *e = find(p, group, c[i].cpu);
		if (!e)
			return SLT_ENOMEM;
		e->loads += (double)c[i].loads * scale;
		e->stores += (double)c[i].stores * scale;
	}
	return 0;
}

int slt_pairs_class(struct slt_pairs *p, size_t group, bool read, bool write,
		    const char *label)
{
	struct slt_pair_acc *e = find(p, group, -1);
	if (!e)
		return SLT_ENOMEM;
	e->read |= read;
	e->write |= write;
	if (write && label && !e->label)
		e->label = label;
	return 0;
}

double slt_pairs_cross(const struct slt_pairs *p)
{
	double s = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_pair_acc *w = &p->v[i];
		if (w->stores <= 0)
			continue;
		for (size_t k = 0; k < p->n; k++) {
			const struct slt_pair_acc *a = &p->v[k];
			if (a->group == w->group || a->cpu == w->cpu)
				continue;
			double acc = a->loads + a->stores;
			s += w->stores < acc ? w->stores : acc;
		}
	}
	return s;
}

bool slt_pairs_write_write(const struct slt_pairs *p)
{
	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < p->n; k++)
			if (p->v[i].stores > 0 && p->v[k].stores > 0 &&
			    p->v[i].group != p->v[k].group && p->v[i].cpu != p->v[k].cpu)
				return true;
	return false;
}

void slt_pairs_classes(const struct slt_pairs *p, double *read_write,
		       double *write_write)
{
	double rd = 0, wr = 0, both = 0, ww = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_pair_acc *e = &p->v[i];
		rd += e->read;
		wr += e->write;
		both += e->read && e->write;
		for (size_t k = i + 1; e->write && e->label && k < p->n; k++)
			ww += p->v[k].write && p->v[k].label &&
			      strcmp(p->v[k].label, e->label);
	}
	*read_write = rd * wr - both;
	*write_write = ww;
}

void slt_pairs_release(struct slt_pairs *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}
