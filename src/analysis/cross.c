/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU false-sharing estimator (declared in analysis_int.h): the
 * pair term between members, shared by the findings and the advisor's
 * cost, and its split of an array member's cell into traffic on the same
 * element (true sharing) and between elements (false sharing).
 */
#include "analysis/analysis_int.h"
#include "join/elems.h"

/* sum over c != d of min(stores by c in w, accesses by d in a) */
double slt_cpu_cross(const struct slt_cpu_access *w, size_t nw,
		    const struct slt_cpu_access *a, size_t na)
{
	double s = 0;
	for (size_t i = 0; i < nw; i++) {
		if (!w[i].stores)
			continue;
		for (size_t k = 0; k < na; k++) {
			if (a[k].cpu == w[i].cpu)
				continue;
			uint64_t acc = a[k].loads + a[k].stores;
			s += (double)(w[i].stores < acc ? w[i].stores : acc);
		}
	}
	return s;
}

double slt_fd_elem_scores(const struct slt_line_access *cell, bool per_cpu,
			  unsigned true_share_cpus, double *between)
{
	double same = 0, other = 0;
	for (size_t e = 0; e < cell->n_elems; e++) {
		const struct slt_elem_access *el = &cell->elems[e];
		unsigned writers = 0;
		uint64_t stores = 0;
		for (size_t i = 0; i < el->n_cpus; i++) {
			writers += el->cpus[i].stores > 0;
			stores += el->cpus[i].stores;
		}
		if (per_cpu)
			same += slt_cpu_cross(el->cpus, el->n_cpus, el->cpus, el->n_cpus);
		else if (writers >= true_share_cpus)
			same += (double)stores;
		/* d's accesses on the other elements: the cell's CPUs and the
		 * element's are both sorted by cpu, walked together */
		for (size_t i = 0; i < el->n_cpus; i++) {
			const struct slt_cpu_access *w = &el->cpus[i];
			if (!w->stores)
				continue;
			size_t q = 0;
			for (size_t k = 0; k < cell->n_cpus; k++) {
				const struct slt_cpu_access *d = &cell->cpus[k];
				if (d->cpu == w->cpu)
					continue;
				while (q < el->n_cpus && el->cpus[q].cpu < d->cpu)
					q++;
				uint64_t on_e = q < el->n_cpus && el->cpus[q].cpu == d->cpu ?
						el->cpus[q].loads + el->cpus[q].stores : 0;
				uint64_t all = d->loads + d->stores;
				uint64_t acc = all > on_e ? all - on_e : 0;
				other += (double)(w->stores < acc ? w->stores : acc);
			}
		}
	}
	*between = other;
	return same;
}

bool slt_fd_array_unit(const struct slt_struct *s, size_t i)
{
	const struct slt_member *m = &s->members[i];
	uint64_t n = slt_join_array_elems(m);
	return slt_member_unit(s, i) == i && m->size && n > 1 && m->size % n == 0;
}

bool slt_fd_next_cell(struct slt_arena *ar, const struct slt_struct *s,
		      const struct slt_access_profile *p, size_t i, size_t *c,
		      struct slt_line_access *out, int *rc)
{
	bool unit = slt_fd_array_unit(s, i);
	for (; *c < p->n_cells; (*c)++) {
		const struct slt_line_access *cell = &p->cells[*c];
		if (cell->member >= s->n_members ||
		    (unit ? slt_member_unit(s, cell->member) : cell->member) != i)
			continue;
		size_t r = *c + 1;
		/* cells are sorted by line and member, a unit's members are
		 * consecutive (pre-order): its cells on a line are a run */
		while (unit && r < p->n_cells && p->cells[r].line == cell->line &&
		       p->cells[r].member < s->n_members &&
		       slt_member_unit(s, p->cells[r].member) == i)
			r++;
		if (unit)
			*rc = slt_elems_unit_cell(ar, s, cell, r - *c, i, out);
		else
			*out = *cell;
		*c = r;
		return !*rc;
	}
	return false;
}
