/* SPDX-License-Identifier: MIT */
/*
 * Adjacent-line interference: the two lines of an aligned 128-byte pair
 * are prefetched together (Intel's spatial prefetcher), so a written line
 * beside a read-mostly one interferes as if they shared a line; the rule
 * and its score are in include/structlint/analysis.h.
 */
#include <stdlib.h>

#include "analysis/analysis_int.h"
#include "analysis/findings_int.h"
#include "common/sort.h"

/* Append member i to m[k] (room for 64) unless it is there: new k. */
static size_t add_once(size_t *m, size_t k, size_t i)
{
	for (size_t j = 0; j < k; j++)
		if (m[j] == i)
			return k;
	if (k < 64)
		m[k++] = i;
	return k;
}

/* Adjacent-line interference between lines L and L + 1 (one aligned
 * 128-byte pair). */
static void adjacent_pair(struct fd_ctx *x, uint64_t L, size_t *buf)
{
	struct slt_analysis *a = x->a;
	const struct slt_access_profile *p = a->profile;
	struct line_set s1, s2;
	size_t *b2 = buf + 2 * a->layout->n_members;
	double sc = 0;
	if (a->basis == SLT_BASIS_CPU) {
		struct cpuset c1 = { 0 }, c2 = { 0 };
		for (size_t c = 0; c < p->n_cells; c++) {
			const struct slt_line_access *cell = &p->cells[c];
			if (cell->line == L && slt_fd_cpuset_add(&c1, cell->cpus, cell->n_cpus))
				x->rc = SLT_ENOMEM;
			if (cell->line == L + 1 && slt_fd_cpuset_add(&c2, cell->cpus, cell->n_cpus))
				x->rc = SLT_ENOMEM;
		}
		sc = slt_cpu_cross(c1.v, c1.n, c2.v, c2.n) + slt_cpu_cross(c2.v, c2.n, c1.v, c1.n);
		free(c1.v);
		free(c2.v);
	}
	size_t c0a = 0, c1a = 0, c0b = 0, c1b = 0;
	if (p && p->n_cells) {
		while (c0a < p->n_cells && p->cells[c0a].line < L)
			c0a++;
		c1a = c0a;
		while (c1a < p->n_cells && p->cells[c1a].line == L)
			c1a++;
		c0b = c1a;
		c1b = c0b;
		while (c1b < p->n_cells && p->cells[c1b].line == L + 1)
			c1b++;
	}
	slt_fd_collect(x, L, c0a, c1a, buf, &s1);
	slt_fd_collect(x, L + 1, c0b, c1b, b2, &s2);
	if (a->basis == SLT_BASIS_CLASSES)
		sc = (double)(s1.n_rm * s2.n_hw + s2.n_rm * s1.n_hw);
	else if (a->basis == SLT_BASIS_COUNTS)
		sc = (s1.st_w < s2.ld_rm ? s1.st_w : s2.ld_rm) +
		     (s2.st_w < s1.ld_rm ? s2.st_w : s1.ld_rm);
	if (sc <= 0 || sc < x->min_score)
		return;
	/* writers of both lines, then readers; a member on both lines
	 * (one that straddles the pair's middle) is listed once */
	size_t m[64], k = 0;
	for (size_t i = 0; i < s1.n_writers; i++)
		k = add_once(m, k, s1.m[i]);
	for (size_t i = 0; i < s2.n_writers; i++)
		k = add_once(m, k, s2.m[i]);
	size_t nw = k;
	for (size_t i = s1.n_writers; i < s1.n; i++)
		k = add_once(m, k, s1.m[i]);
	for (size_t i = s2.n_writers; i < s2.n; i++)
		k = add_once(m, k, s2.m[i]);
	struct slt_finding *fd = slt_fd_add(x, SLT_FIND_ADJACENT, L, sc, m, k, nw);
	if (fd)
		fd->line2 = L + 1;
}

/* Adjacent-line interference across each aligned 128-byte pair that can
 * hold one: a pair with a member line (classes) or a line with samples
 * (profiles) on it, and, for classes, the pairs of a run between those
 * while they give findings (as each_line). */
void slt_fd_adjacent(struct fd_ctx *x, size_t *buf)
{
	struct slt_analysis *a = x->a;
	const struct slt_access_profile *p = a->profile;
	unsigned par = 0;
	if (p && p->base_method >= SLT_BASE_EXPLICIT)
		par = (unsigned)((p->base / a->cacheline_size) & 1);
	uint64_t n = (a->line_origin + a->layout->size + a->cacheline_size - 1) /
		     a->cacheline_size;
	size_t ne = 0;
	uint64_t *e = NULL;
	if (a->basis == SLT_BASIS_CLASSES) {
		e = slt_fd_member_lines(x, &ne);
	} else if (p) {
		e = malloc((p->n_cells + 1) * sizeof(*e));
		if (!e)
			x->rc = SLT_ENOMEM;
		for (size_t c = 0; e && c < p->n_cells; c++)
			e[ne++] = p->cells[c].line;
	}
	if (!e)
		return;
	/* each line to the start of its pair: L with (L - par) even */
	for (size_t i = 0; i < ne; i++)
		e[i] = e[i] < par ? par : e[i] - ((e[i] - par) & 1);
	qsort(e, ne, sizeof(*e), slt_cmp_u64);
	for (size_t i = 0; i < ne && !x->rc; i++) {
		if (i && e[i] == e[i - 1])
			continue;
		if (e[i] + 1 >= n)
			break;
		adjacent_pair(x, e[i], buf);
		for (uint64_t L = e[i] + 2; a->basis == SLT_BASIS_CLASSES &&
		     L + 1 < n && (i + 1 == ne || L < e[i + 1]) && !x->rc; L += 2) {
			size_t before = a->n_findings;
			adjacent_pair(x, L, buf);
			if (a->n_findings == before)
				break;
		}
	}
	free(e);
}
