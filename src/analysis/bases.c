/* SPDX-License-Identifier: MIT */
/*
 * Findings of an instance whose base is only known modulo an alignment
 * (slt_analysis_opts.base_align, issue 13 item 4): an embedded instance
 * (address_space inside inode at 376 on 6.1), a slab without
 * SLAB_HWCACHE_ALIGN.  Which members share a line depends on where in a
 * line the instance starts, so the struct is analysed at each of the
 * line size / base_align starts it may have (at most 64, so a finding's
 * starts fit one uint64_t), and the findings are merged:
 *
 *   - a finding seen at some start is listed once: findings of the same
 *     kind naming the same members (as a set) are one;
 *   - it holds at start b when some finding of its kind at b names all
 *     of its members (a superset: i_mmap_rwsem with i_mmap holds where
 *     the line holds i_mmap_rwsem, i_mmap and host too), so "at every
 *     start" means no base avoids it, and a finding at only some starts
 *     is one a lucky base avoids;
 *   - a line is counted once per start: where a finding holds, one of its
 *     kind naming a strict subset of its members is that line again, so
 *     the start leaves the smaller one (drop_covered()).
 *
 * The reference start (opts.line_origin modulo the line size: 0, or the
 * --in member's offset) comes first: its findings keep their order and
 * lines; the others follow in start order, each with the start its line
 * is counted at (slt_finding.origin).  Cost: one analysis per start
 * (members), and the matching goes through a per-member index of the
 * findings, so it follows members and findings, never their product.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/findings_int.h"
#include "common/arena.h"
#include "common/sort.h"

#define MAX_BASES 64

/* The findings at one start, indexed by member: the entries of member m
 * are at[head[m]], at[next[head[m]]], ... (finding indices). */
struct by_member {
	size_t *head, *next, *at;
};

static int cmp_size(const void *p1, const void *p2)
{
	size_t a = *(const size_t *)p1, b = *(const size_t *)p2;
	return a < b ? -1 : a > b;
}

/* members of f sorted into the arena (set comparisons). */
static size_t *sorted_members(struct slt_arena *ar, const struct slt_finding *f)
{
	size_t *v = slt_arena_calloc(ar, f->n_members + 1, sizeof(*v));
	if (v && f->n_members) {
		memcpy(v, f->members, f->n_members * sizeof(*v));
		qsort(v, f->n_members, sizeof(*v), cmp_size);
	}
	return v;
}

/* Is sorted set a (na) inside sorted set b (nb)? */
static bool subset(const size_t *a, size_t na, const size_t *b, size_t nb)
{
	size_t j = 0;
	for (size_t i = 0; i < na; i++) {
		while (j < nb && b[j] < a[i])
			j++;
		if (j == nb || b[j] != a[i])
			return false;
	}
	return true;
}

/* Index the findings of x by member; sets[i]: finding i's sorted members.
 * Returns 0 or -1 (out of memory). */
static int index_build(struct by_member *ix, const struct slt_analysis *x,
		       size_t *const *sets, size_t n_members)
{
	size_t n = 0;
	for (size_t i = 0; i < x->n_findings; i++)
		n += x->findings[i].n_members;
	ix->head = malloc((n_members + 1) * sizeof(*ix->head));
	ix->next = malloc((n + 1) * sizeof(*ix->next));
	ix->at = malloc((n + 1) * sizeof(*ix->at));
	if (!ix->head || !ix->next || !ix->at)
		return -1;
	for (size_t m = 0; m < n_members; m++)
		ix->head[m] = SIZE_MAX;
	size_t e = 0;
	for (size_t i = 0; i < x->n_findings; i++)
		for (size_t k = 0; k < x->findings[i].n_members; k++, e++) {
			size_t m = sets[i][k];
			ix->at[e] = i;
			ix->next[e] = ix->head[m];
			ix->head[m] = e;
		}
	return 0;
}

static void index_free(struct by_member *ix)
{
	free(ix->head);
	free(ix->next);
	free(ix->at);
	memset(ix, 0, sizeof(*ix));
}

/* The merged findings and, per merged finding, its sorted members. */
struct merged {
	struct slt_finding *f;
	size_t **sets;
	size_t n, cap;
	struct by_member ix;     /* by smallest member: head/next over f[] */
};

static int merged_add(struct merged *g, struct slt_arena *ar, const struct slt_finding *f,
		      size_t *set, uint32_t origin, size_t n_members)
{
	if (g->n == g->cap) {
		size_t nc = g->cap ? 2 * g->cap : 16;
		struct slt_finding *nf = realloc(g->f, nc * sizeof(*nf));
		if (nf)
			g->f = nf;
		size_t **ns = nf ? realloc(g->sets, nc * sizeof(*ns)) : NULL;
		size_t *nx = ns ? realloc(g->ix.next, nc * sizeof(*nx)) : NULL;
		if (ns)
			g->sets = ns;
		if (!nx)
			return -1;
		g->ix.next = nx;
		g->cap = nc;
	}
	if (!g->ix.head) {
		if (!(g->ix.head = malloc((n_members + 1) * sizeof(*g->ix.head))))
			return -1;
		for (size_t m = 0; m < n_members; m++)
			g->ix.head[m] = SIZE_MAX;
	}
	struct slt_finding *c = &g->f[g->n];
	*c = *f;
	c->origin = origin;
	c->bases = 0;
	if (f->n_members && !(c->members = slt_arena_calloc(ar, f->n_members, sizeof(size_t))))
		return -1;
	if (f->n_members)
		memcpy(c->members, f->members, f->n_members * sizeof(size_t));
	g->sets[g->n] = set;
	size_t key = f->n_members ? set[0] : 0;
	g->ix.next[g->n] = g->ix.head[key];
	g->ix.head[key] = g->n;
	g->n++;
	return 0;
}

/* Is f (sorted members set) already merged? */
static bool merged_has(const struct merged *g, const struct slt_finding *f, const size_t *set)
{
	size_t key = f->n_members ? set[0] : 0;
	for (size_t e = g->ix.head[key]; e != SIZE_MAX; e = g->ix.next[e])
		if (g->f[e].kind == f->kind && g->f[e].n_members == f->n_members &&
		    subset(set, f->n_members, g->sets[e], g->f[e].n_members))
			return true;
	return false;
}

/*
 * One fact, one finding: where a merged finding t holds, a finding e of
 * its kind naming a strict subset of t's members is the same line seen
 * again (6.1 address_space in inode at --base-align 8: i_mmap_rwsem with
 * a_ops, inside i_mmap_rwsem with a_ops and flags at 4 of the 5 starts
 * where it holds), so those starts leave e's; e with no start left goes;
 * e whose own start went is taken again from a start it keeps, where the
 * finding naming exactly its members is.  Candidates come from a
 * per-member index of the merged findings (by e's smallest member), so
 * the cost follows the findings sharing a member.  0 or SLT_ENOMEM.
 */
static int drop_covered(struct merged *g, struct slt_analysis **per, size_t ***sets,
			size_t n, uint32_t first, unsigned al, size_t ref,
			size_t n_members, struct slt_arena *ar)
{
	struct slt_analysis view = { .findings = g->f, .n_findings = g->n };
	struct by_member ix = { 0 };
	uint64_t *cut = calloc(g->n + 1, sizeof(*cut));
	size_t w = 0;
	int rc = 0;

	if (!cut || index_build(&ix, &view, g->sets, n_members)) {
		free(cut);
		index_free(&ix);
		return SLT_ENOMEM;
	}
	for (size_t e = 0; e < g->n; e++) {
		const struct slt_finding *m = &g->f[e];
		if (!m->n_members)
			continue;
		for (size_t q = ix.head[g->sets[e][0]]; q != SIZE_MAX; q = ix.next[q]) {
			const struct slt_finding *t = &g->f[ix.at[q]];
			if (ix.at[q] != e && t->kind == m->kind && t->n_members > m->n_members &&
			    subset(g->sets[e], m->n_members, g->sets[ix.at[q]], t->n_members))
				cut[e] |= t->bases;
		}
	}
	for (size_t e = 0; e < g->n && !rc; e++) {
		struct slt_finding *m = &g->f[e];
		uint64_t keep = m->bases & ~cut[e];
		size_t own = (m->origin - first) / al;
		if (!keep)
			continue;
		if (!(keep & (1ull << own))) {
			/* the reference start first, else the lowest kept */
			size_t k = (keep >> ref) & 1 ? ref : (size_t)__builtin_ctzll(keep);
			for (size_t i = 0; k < n && i < per[k]->n_findings; i++) {
				const struct slt_finding *h = &per[k]->findings[i];
				if (h->kind != m->kind || h->n_members != m->n_members ||
				    !subset(g->sets[e], m->n_members, sets[k][i], h->n_members))
					continue;
				size_t *mem = slt_arena_calloc(ar, h->n_members, sizeof(size_t));
				if (!mem) {
					rc = SLT_ENOMEM;
					break;
				}
				memcpy(mem, h->members, h->n_members * sizeof(size_t));
				*m = *h;
				m->members = mem;
				m->origin = first + (uint32_t)(k * al);
				break;
			}
		}
		m->bases = keep;
		g->f[w] = *m;
		g->sets[w++] = g->sets[e];
	}
	if (!rc)
		g->n = w;
	free(cut);
	index_free(&ix);
	return rc;
}

static int cmp_merged(const void *p1, const void *p2)
{
	const struct slt_finding *a = p1, *b = p2;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	int ca = __builtin_popcountll(a->bases), cb = __builtin_popcountll(b->bases);
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (a->origin != b->origin)
		return a->origin < b->origin ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

int slt_analyze_bases(const struct slt_struct *s, const struct slt_analysis_opts *o,
		      unsigned cl, struct slt_analysis **out, struct slt_error *err)
{
	*out = NULL;
	unsigned al = o->base_align;
	if (al < cl / MAX_BASES)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "give a base alignment of at least the line size / 64",
				     "base alignment %u: %u starts in a %u-byte line, at most %d are analysed",
				     al, cl / al, cl, MAX_BASES);
	size_t n = cl / al, ref = (o->line_origin % cl) / al;
	uint32_t first = o->line_origin % al;
	struct slt_analysis *per[MAX_BASES] = { 0 };
	size_t **sets[MAX_BASES] = { 0 };
	struct slt_arena *tmp = slt_arena_new();
	struct merged g = { 0 };
	struct by_member ix = { 0 };
	int rc = tmp ? 0 : SLT_ENOMEM;
	/* one analysis per start, reference first */
	for (size_t k = 0; !rc && k < n; k++) {
		struct slt_analysis_opts ok = *o;
		ok.base_align = 0;
		ok.line_origin = first + (uint32_t)(k * al);
		rc = slt_analyze(s, NULL, &ok, &per[k], err);
		if (rc)
			break;
		if (!(sets[k] = slt_arena_calloc(tmp, per[k]->n_findings + 1, sizeof(size_t *))))
			rc = SLT_ENOMEM;
		for (size_t i = 0; !rc && i < per[k]->n_findings; i++)
			if (!(sets[k][i] = sorted_members(tmp, &per[k]->findings[i])))
				rc = SLT_ENOMEM;
	}
	/* the distinct findings, the reference start's first */
	for (size_t j = 0; !rc && j < n; j++) {
		size_t k = j ? (j <= ref ? j - 1 : j) : ref;
		for (size_t i = 0; !rc && i < per[k]->n_findings; i++) {
			const struct slt_finding *f = &per[k]->findings[i];
			if (g.n && merged_has(&g, f, sets[k][i]))
				continue;
			if (merged_add(&g, per[ref]->priv_, f, sets[k][i],
				       first + (uint32_t)(k * al), s->n_members))
				rc = SLT_ENOMEM;
		}
	}
	/* where each holds: a finding of its kind at start k naming all its
	 * members (looked up by its smallest member) */
	for (size_t k = 0; !rc && k < n; k++) {
		if (index_build(&ix, per[k], sets[k], s->n_members)) {
			rc = SLT_ENOMEM;
			break;
		}
		for (size_t e = 0; e < g.n; e++) {
			struct slt_finding *m = &g.f[e];
			size_t key = m->n_members ? g.sets[e][0] : SIZE_MAX;
			for (size_t q = key == SIZE_MAX ? SIZE_MAX : ix.head[key]; q != SIZE_MAX;
			     q = ix.next[q]) {
				const struct slt_finding *h = &per[k]->findings[ix.at[q]];
				if (h->kind == m->kind &&
				    subset(g.sets[e], m->n_members, sets[k][ix.at[q]], h->n_members)) {
					m->bases |= 1ull << k;
					break;
				}
			}
		}
		index_free(&ix);
	}
	if (!rc)
		rc = drop_covered(&g, per, sets, n, first, al, ref, s->n_members, per[ref]->priv_);
	struct slt_analysis *a = per[ref];
	uint32_t *starts = !rc ? slt_arena_calloc(a->priv_, n, sizeof(*starts)) : NULL;
	if (!rc && !starts)
		rc = SLT_ENOMEM;
	if (!rc) {
		for (size_t k = 0; k < n; k++)
			starts[k] = first + (uint32_t)(k * al);
		/* the reference start's origin: the findings seen there keep it */
		slt_sort(g.f, g.n, sizeof(*g.f), cmp_merged);
		free(a->findings);
		a->findings = g.f;
		a->n_findings = g.n;
		g.f = NULL;
		a->n_bases = (uint32_t)n;
		a->base_starts = starts;
		*out = a;
		per[ref] = NULL;
	}
	index_free(&ix);
	free(g.f);
	free(g.sets);
	free(g.ix.head);
	free(g.ix.next);
	for (size_t k = 0; k < n; k++)
		slt_analysis_free(per[k]);
	slt_arena_free(tmp);
	if (rc == SLT_ENOMEM)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	return rc;
}
