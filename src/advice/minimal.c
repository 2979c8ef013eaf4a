/* SPDX-License-Identifier: MIT */
/*
 * The MINIMAL proposal's search: the fewest relocated members.
 *
 * Every single relocation (each movable unit to each legal position in the
 * original order) is tried, exhaustively (beyond SLT_ADV_MINIMAL_ALL units
 * only units with classed or sampled members are relocated); when none removes every fixable
 * finding the model sees (slt_adv_cost.shared), every pair of relocations
 * (a second relocation after each single one, the singles taken best
 * first; singles that leave more findings than the original are dropped)
 * until the pair budget, a count of unit evaluations, is spent.
 * Candidates are ranked by
 *   (findings left, members relocated, members shifted, bytes,
 *    sharing score, cost, enumeration order),
 * the relocated and shifted members counted as slt_adv_relocated() does
 * (the definition the proposal prints).  No CACHELINE_PADDING: that is the
 * padding proposal's.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

struct key {
	size_t shared, reloc, shifted;
	uint64_t size;
	double coherence, total;
};

struct cand {
	struct key k;
	size_t from, to;   /* the relocation: order[from] to position to */
};

static int key_cmp(const struct key *a, const struct key *b)
{
	if (a->shared != b->shared)
		return a->shared < b->shared ? -1 : 1;
	if (a->reloc != b->reloc)
		return a->reloc < b->reloc ? -1 : 1;
	if (a->shifted != b->shifted)
		return a->shifted < b->shifted ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->coherence < b->coherence - 1e-9 || a->coherence > b->coherence + 1e-9)
		return a->coherence < b->coherence ? -1 : 1;
	if (a->total < b->total - 1e-9 || a->total > b->total + 1e-9)
		return a->total < b->total ? -1 : 1;
	return 0;
}

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	int c = key_cmp(&a->k, &b->k);
	if (c)
		return c;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

/* dst = src with src[from] moved to position to. */
static void relocate(size_t *dst, const size_t *src, size_t n, size_t from,
		     size_t to)
{
	size_t x = src[from];
	memcpy(dst, src, n * sizeof(*dst));
	if (to < from)
		memmove(dst + to + 1, dst + to, (from - to) * sizeof(*dst));
	else
		memmove(dst + from, dst + from + 1, (to - from) * sizeof(*dst));
	dst[to] = x;
}

/* The key of plan p; false when it is not legal (or *rc set), or when
 * bound (may be NULL) is given and p leaves more findings than it (its
 * relocations are then not counted). */
static bool eval(const struct slt_adv_units *us, const struct slt_adv_weights *w,
		 const struct slt_adv_plan *p, uint64_t *off, struct key *k,
		 struct slt_adv_cost *c, const struct key *bound, int *rc)
{
	uint64_t size;

	if (!slt_adv_place(us, p, off, &size))
		return false;
	*rc = slt_adv_cost_eval(us, p->order, off, p->n, size, w, c);
	if (*rc || (bound && c->shared > bound->shared))
		return false;
	*rc = slt_adv_relocated(us, p, off, NULL, &k->reloc, &k->shifted);
	if (*rc)
		return false;
	k->shared = c->shared;
	k->size = size;
	k->coherence = c->coherence;
	k->total = c->total;
	return true;
}

/* Units relocated: every movable one; beyond SLT_ADV_MINIMAL_ALL units (as
 * the local search does) only those the objective sees (a classed or
 * sampled leaf), so task_struct's advisor stays within its time target. */
static bool movable(const struct slt_adv_units *us, size_t unit)
{
	const struct slt_adv_unit *u = &us->u[unit];
	if (u->flags & (SLT_ADV_ANCHORED | SLT_ADV_LAST))
		return false;
	return us->n <= SLT_ADV_MINIMAL_ALL || u->n_leaves;
}

int slt_adv_search_minimal(const struct slt_adv_units *us,
			   const struct slt_adv_weights *w, size_t max_work,
			   struct slt_adv_plan *best, struct slt_adv_cost *cost,
			   struct slt_adv_minimal_info *info)
{
	const size_t n = us->n;
	size_t budget = max_work ? max_work : SLT_ADV_MINIMAL_WORK;
	size_t nc = 0, work = 0;
	struct slt_adv_plan id = { 0 }, a = { 0 }, b = { 0 };
	struct slt_adv_cost c, bc;
	struct key k0, bk;
	struct cand *cs = NULL;
	uint64_t *off = NULL;
	size_t *border = NULL;
	bool found = false;
	int rc;

	memset(info, 0, sizeof(*info));
	info->hot_only = n > SLT_ADV_MINIMAL_ALL;
	rc = slt_adv_plan_identity(us, &id);
	if (rc)
		return rc;
	a.n = b.n = n;
	a.order = malloc((n ? n : 1) * sizeof(*a.order));
	b.order = malloc((n ? n : 1) * sizeof(*b.order));
	border = malloc((n ? n : 1) * sizeof(*border));
	a.pad = b.pad = id.pad; /* all 0 */
	a.cross = b.cross = true;
	off = malloc((n ? n : 1) * sizeof(*off));
	cs = malloc((n > 1 ? n * n : 1) * sizeof(*cs));
	if (!a.order || !b.order || !border || !off || !cs) {
		rc = SLT_ENOMEM;
		goto out;
	}
	if (!eval(us, w, &id, off, &k0, &c, NULL, &rc)) {
		rc = rc ? rc : SLT_ENOTFOUND;
		goto out;
	}
	/* every single relocation */
	for (size_t i = 0; i < n && !rc; i++) {
		if (!movable(us, id.order[i]))
			continue;
		for (size_t j = 0; j < n && !rc; j++) {
			struct key k;
			if (j == i)
				continue;
			/* across anchors too (slt_adv_seg_ok()): eval()
			 * places it or rejects it */
			relocate(a.order, id.order, n, i, j);
			info->evaluated++;
			/* one that leaves more findings than the original is
			 * never the answer, nor a first move worth pairing */
			if (eval(us, w, &a, off, &k, &c, &k0, &rc))
				cs[nc++] = (struct cand){ k, i, j };
		}
	}
	if (rc)
		goto out;
	qsort(cs, nc, sizeof(*cs), cand_cmp);
	if (nc) {
		found = true;
		bk = cs[0].k;
		relocate(border, id.order, n, cs[0].from, cs[0].to);
		info->moves = 1;
	}
	/* pairs, when no single relocation removes every finding */
	for (size_t s = 0; found && bk.shared && s < nc && !rc && !info->spent; s++) {
		relocate(a.order, id.order, n, cs[s].from, cs[s].to);
		size_t first = id.order[cs[s].from];
		for (size_t i = 0; i < n && !rc && !info->spent; i++) {
			if (a.order[i] == first || !movable(us, a.order[i]))
				continue;
			for (size_t j = 0; j < n && !rc; j++) {
				struct key k;
				if (j == i)
					continue;
				relocate(b.order, a.order, n, i, j);
				info->evaluated++;
				work += n;
				if (eval(us, w, &b, off, &k, &bc, &bk, &rc) &&
				    key_cmp(&k, &bk) < 0) {
					bk = k;
					memcpy(border, b.order, n * sizeof(*border));
					info->moves = 2;
				}
			}
			if (work > budget)
				info->spent = true;
		}
	}
	if (rc)
		goto out;
	info->pairs = found && cs[0].k.shared;
	if (!found || bk.shared > k0.shared ||
	    (bk.shared == k0.shared && bk.coherence >= k0.coherence - 1e-9)) {
		rc = SLT_ENOTFOUND;
		goto out;
	}
	best->n = n;
	best->cross = true;
	best->order = border;
	best->pad = id.pad;
	border = NULL;
	id.pad = NULL;
	if (!slt_adv_plan_cost(us, best, w, cost, &rc)) {
		slt_adv_plan_free(best);
		rc = rc ? rc : SLT_ENOTFOUND;
	}
out:
	free(a.order);
	free(b.order);
	free(border);
	free(off);
	free(cs);
	slt_adv_plan_free(&id);
	return rc;
}
