/* SPDX-License-Identifier: MIT */
/*
 * Two proposal kinds of slt_advise() (advise.c): MINIMAL, the fewest
 * members relocated, and ISOLATE, one busy written member alone in a
 * line-aligned anonymous struct.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advise_int.h"

/* Findings left and members relocated by plan p, for comparing MINIMAL
 * candidates; false when illegal or out of memory (*rc). */
static bool min_key(struct adv_ctx *x, const struct slt_adv_plan *p,
		    const struct slt_adv_cost *c, size_t key[2], int *rc)
{
	uint64_t *off = malloc((p->n ? p->n : 1) * sizeof(*off)), size;
	size_t sh;
	bool ok = off && slt_adv_place(&x->us, p, off, &size);

	*rc = off ? 0 : SLT_ENOMEM;
	if (ok)
		*rc = slt_adv_relocated(&x->us, p, off, NULL, &key[1], &sh);
	free(off);
	key[0] = c->shared;
	return ok && !*rc;
}

/* MINIMAL: the exhaustive single / pair relocations (minimal.c); where
 * they leave findings, the local search from the original order (any
 * number of moves, padding allowed) when it leaves fewer. */
int adv_run_minimal(struct adv_ctx *x, const struct slt_adv_search *s)
{
	struct slt_adv_plan p = { 0 }, q;
	struct slt_adv_cost c, qc;
	struct slt_adv_minimal_info mi;
	struct slt_adv_search m = *s;
	size_t pk[2], qk[2];
	bool have;
	int rc = slt_adv_search_minimal(&x->us, &x->w, 0, &p, &c, &mi);

	if (rc && rc != SLT_ENOTFOUND)
		return rc;
	have = !rc;
	x->method = slt_arena_printf(x->ar, "every single relocation%s%s (%zu plans)%s",
		mi.hot_only ? " of a member with a class or samples" : "",
		mi.pairs ? " and every pair" : "", mi.evaluated,
		mi.spent ? "; the pair search stopped at its work budget" : "");
	if (!x->method) {
		rc = SLT_ENOMEM;
		goto out;
	}
	if (have && !min_key(x, &p, &c, pk, &rc))
		goto out;
	if (!have || pk[0]) {
		const char *method = x->method;
		m.max_moves = x->us.n;
		rc = adv_search(x, &m, &q, &qc);
		if (rc == SLT_ENOTFOUND) {
			rc = 0;
			x->method = method;
		} else if (rc) {
			goto out;
		} else if (min_key(x, &q, &qc, qk, &rc) &&
			   (!have || qk[0] < pk[0])) {
			slt_adv_plan_free(&p);
			p = q;
			c = qc;
			have = true;
			x->method = slt_arena_printf(x->ar, "local search from the "
				"original order, after %s", method);
			if (!x->method)
				rc = SLT_ENOMEM;
		} else {
			slt_adv_plan_free(&q);
			x->method = method;
		}
	}
	if (!rc && have)
		rc = adv_add(x, SLT_PROPOSAL_MINIMAL, &p, &c);
out:
	if (have)
		slt_adv_plan_free(&p);
	return rc;
}

/* Members plan p shifts (slt_adv_relocated()); SIZE_MAX when illegal. */
static size_t shifted_of(struct adv_ctx *x, const struct slt_adv_plan *p, int *rc)
{
	uint64_t *off = malloc((p->n ? p->n : 1) * sizeof(*off)), size;
	size_t reloc, sh = SIZE_MAX;

	if (!off)
		*rc = SLT_ENOMEM;
	else if (slt_adv_place(&x->us, p, off, &size))
		*rc = slt_adv_relocated(&x->us, p, off, NULL, &reloc, &sh);
	free(off);
	return sh;
}

/* The writer label of a unit's first written leaf (NULL: none given). */
static const char *writer_of(const struct slt_adv_unit *u)
{
	for (size_t j = 0; j < u->n_leaves; j++)
		if (u->leaves[j].write)
			return u->leaves[j].label;
	return NULL;
}

/* Whether written units a and b have the same writer (the same label, or
 * both none); with a profile, units written by a common CPU. */
static bool same_writer(const struct slt_adv_unit *a, const struct slt_adv_unit *b)
{
	if (a->n_cpus && b->n_cpus) {
		for (size_t i = 0, k = 0; i < a->n_cpus && k < b->n_cpus;) {
			if (a->cpus[i].cpu < b->cpus[k].cpu)
				i++;
			else if (a->cpus[i].cpu > b->cpus[k].cpu)
				k++;
			else if (a->cpus[i++].stores && b->cpus[k++].stores)
				return true;
		}
		return false;
	}
	const char *x = writer_of(a), *y = writer_of(b);
	return x == y || (x && y && !strcmp(x, y));
}

/* Most hot units tried by adv_run_isolate(). */
#define ISOLATE_UNITS 8

/* ISOLATE: each of the (at most ISOLATE_UNITS) busiest written movable
 * units alone in a line-aligned anonymous struct (SLT_ADV_PAD_WRAP), at
 * every position of the original order of the others; of the plans that
 * leave no sharing block (slt_adv_cost.shared: isolating that one member
 * is the whole cure), the one with the lowest objective, then the fewest
 * members shifted, is proposed. */
int adv_run_isolate(struct adv_ctx *x, const struct slt_adv_search *s)
{
	const struct slt_adv_units *us = &x->us;
	size_t n = us->n, cand[ISOLATE_UNITS], nc = 0;
	struct slt_adv_plan p = { 0 }, best = { 0 };
	struct slt_adv_cost c, bc;
	double bo = 0;
	size_t bsh = SIZE_MAX;
	int rc = 0;

	/* candidates: written units by stores, then written leaves; a unit
	 * whose writer (label, or none) also writes another unit is not
	 * one writer's member to isolate: that would split the writer's
	 * members over two lines */
	for (size_t u = 0; u < n; u++) {
		const struct slt_adv_unit *a = &us->u[u];
		if (a->role != SLT_ADV_WRITE || (a->flags & (SLT_ADV_ANCHORED | SLT_ADV_LAST)))
			continue;
		bool shared_writer = false;
		for (size_t v = 0; v < n && !shared_writer; v++)
			shared_writer = v != u && us->u[v].role == SLT_ADV_WRITE &&
					same_writer(a, &us->u[v]);
		if (shared_writer)
			continue;
		size_t at = nc < ISOLATE_UNITS ? nc++ : ISOLATE_UNITS;
		while (at > 0) {
			const struct slt_adv_unit *b = &us->u[cand[at - 1]];
			if (b->stores > a->stores ||
			    (b->stores == a->stores && b->n_write >= a->n_write))
				break;
			if (at < ISOLATE_UNITS)
				cand[at] = cand[at - 1];
			at--;
		}
		if (at < ISOLATE_UNITS)
			cand[at] = u;
	}
	if (!nc)
		return 0;
	p.order = malloc(n * sizeof(*p.order));
	p.pad = malloc(n);
	best.order = malloc(n * sizeof(*best.order));
	best.pad = malloc(n);
	if (!p.order || !p.pad || !best.order || !best.pad) {
		rc = SLT_ENOMEM;
		goto out;
	}
	p.n = best.n = n;
	p.cross = best.cross = false;
	bool have = false;
	for (size_t k = 0; k < nc && !rc; k++) {
		for (size_t pos = 0; pos < n && !rc; pos++) {
			double o;
			for (size_t u = 0, j = 0; u < n; u++) {
				if (u == cand[k])
					continue;
				if (j == pos)
					j++;
				p.order[j++] = u;
			}
			p.order[pos] = cand[k];
			memset(p.pad, SLT_ADV_PAD_NONE, n);
			p.pad[pos] = SLT_ADV_PAD_WRAP;
			/* proposed only where isolating the member is the
			 * whole cure: no sharing block left */
			if (!slt_adv_objective(us, s, &x->w, &p, &o, &c, &rc) || c.shared)
				continue;
			double eps = 1e-9 * (bo > 1 ? bo : 1);
			bool better = !have || o < bo - eps;
			if (!better && o > bo + eps)
				continue;
			/* of equal plans, the one shifting the fewest members */
			size_t sh = shifted_of(x, &p, &rc);
			if (rc)
				break;
			if (!better && sh >= bsh)
				continue;
			have = true;
			bo = o;
			bsh = sh;
			bc = c;
			memcpy(best.order, p.order, n * sizeof(*p.order));
			memcpy(best.pad, p.pad, n);
		}
	}
	if (!rc && have) {
		x->method = "every position of the busiest written members, one at a time";
		rc = adv_add(x, SLT_PROPOSAL_ISOLATE, &best, &bc);
	}
out:
	slt_adv_plan_free(&p);
	slt_adv_plan_free(&best);
	return rc;
}
