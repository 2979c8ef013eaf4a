/* SPDX-License-Identifier: MIT */
/*
 * Searching plans (advice_int.h) for the advisor's objective (cost.c).
 *
 *   greedy fill: movable units in group order (read-mostly, then the
 *     written units grouped by their writer label (hot-write:LABEL), then
 *     by their busiest writer CPU, then cold ones;
 *     in size-only mode by alignment, then size, descending), each gap
 *     before an anchored unit filled first-fit from that order; every
 *     subset of CACHELINE_PADDING at the group boundaries is tried;
 *   local search: from the greedy plan (or a given one), move one unit to
 *     another position or toggle one padding member, best move per pass,
 *     until nothing improves or its work budget (cost evaluations times
 *     units per plan, SLT_ADV_LOCAL_WORK) is spent: counted, never timed,
 *     so the result does not depend on the machine's load;
 *   brute force: every order of the (at most 8) units before the flexible
 *     tail and every padding choice: the test oracle.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

#define BRUTE_MAX 8
#define MAX_BOUNDARIES 6
#define PAIR_MAX 64      /* padding pairs tried up to this many units */
#define ALL_MOVE_MAX 64 /* beyond this many units only hot units move */

static int plan_alloc(struct slt_adv_plan *p, size_t n)
{
	p->order = calloc(n ? n : 1, sizeof(*p->order));
	p->pad = calloc(n ? n : 1, sizeof(*p->pad));
	p->n = n;
	p->cross = false;
	if (!p->order || !p->pad) {
		slt_adv_plan_free(p);
		return SLT_ENOMEM;
	}
	return 0;
}

static void plan_copy(struct slt_adv_plan *d, const struct slt_adv_plan *s)
{
	memcpy(d->order, s->order, s->n * sizeof(*s->order));
	memcpy(d->pad, s->pad, s->n * sizeof(*s->pad));
	d->n = s->n;
	d->cross = s->cross;
}

void slt_adv_plan_free(struct slt_adv_plan *p)
{
	if (!p)
		return;
	free(p->order);
	free(p->pad);
	p->order = NULL;
	p->pad = NULL;
	p->n = 0;
}

int slt_adv_plan_identity(const struct slt_adv_units *us,
			  struct slt_adv_plan *p)
{
	int rc = plan_alloc(p, us->n);
	for (size_t i = 0; !rc && i < us->n; i++)
		p->order[i] = i;
	return rc;
}

/* Price of one member shifted by padding, in bytes of size: all of them
 * together weigh less than one byte (units are far fewer than 1000). */
#define SHIFT_PRICE 1e-3

/* Units of p that land off their original offset (*rc SLT_ENOMEM when
 * memory ran out). */
static size_t shifted(const struct slt_adv_units *us,
		      const struct slt_adv_plan *p, int *rc)
{
	uint64_t *off = malloc((p->n ? p->n : 1) * sizeof(*off)), size;
	size_t n = 0;

	if (!off) {
		*rc = SLT_ENOMEM;
		return 0;
	}
	if (slt_adv_place(us, p, off, &size))
		for (size_t i = 0; i < p->n; i++)
			n += off[i] != us->u[p->order[i]].orig_offset;
	free(off);
	return n;
}

bool slt_adv_objective(const struct slt_adv_units *us,
		       const struct slt_adv_search *s,
		       const struct slt_adv_weights *w,
		       const struct slt_adv_plan *p, double *obj,
		       struct slt_adv_cost *cost, int *rc)
{
	size_t pads = 0, displaced = 0;

	*rc = 0;
	for (size_t i = 0; i < p->n; i++) {
		pads += p->pad[i] != 0;
		displaced += p->order[i] != i;
	}
	if (s->max_pads && pads > s->max_pads)
		return false;
	if ((s->size_only || !s->allow_padding) && pads)
		return false;
	if (s->size_only) {
		/* placement only: the size is the objective */
		uint64_t *off = malloc((p->n ? p->n : 1) * sizeof(*off));
		memset(cost, 0, sizeof(*cost));
		bool ok = off && slt_adv_place(us, p, off, &cost->size);
		free(off);
		if (!off)
			*rc = SLT_ENOMEM;
		if (!ok)
			return false;
		cost->lines = slt_cachelines(cost->size, us->line);
	} else if (!slt_adv_plan_cost(us, p, w, cost, rc)) {
		return false;
	}
	if (cost->size > s->max_size)
		return false;
	/* half a byte's price per padding member: of two equal layouts the
	 * one with fewer source lines wins */
	*obj = s->size_only ? (double)cost->size + (double)displaced / 1000.0 :
	       cost->total + 0.5 * w->byte_price * (double)pads;
	/* padding only: of two paddings that separate as well at the same
	 * size, the one that shifts fewer members (the padding goes right
	 * between the colliding groups, not lines earlier) */
	if (s->keep_order && !s->size_only && pads) {
		size_t sh = shifted(us, p, rc);
		if (*rc)
			return false;
		*obj += SHIFT_PRICE * w->byte_price * (double)sh;
	}
	return true;
}

/* Busiest writer CPU of a unit, -1 without per-CPU data. */
static int32_t writer_cpu(const struct slt_adv_unit *u)
{
	int32_t c = -1;
	uint64_t best = 0;
	for (size_t i = 0; i < u->n_cpus; i++)
		if (u->cpus[i].stores > best) {
			best = u->cpus[i].stores;
			c = u->cpus[i].cpu;
		}
	return c;
}

/* Writer label of a unit's first labelled written leaf, "" when none. */
static const char *writer_label(const struct slt_adv_unit *u)
{
	for (size_t j = 0; j < u->n_leaves; j++)
		if (u->leaves[j].write && u->leaves[j].label)
			return u->leaves[j].label;
	return "";
}

/* Written units x and y belong to different writer groups. */
static bool other_writer(const struct slt_adv_unit *x,
			 const struct slt_adv_unit *y)
{
	return strcmp(writer_label(x), writer_label(y)) ||
	       writer_cpu(x) != writer_cpu(y);
}

struct sort_ctx {
	const struct slt_adv_units *us;
	bool size_only;
};

static int role_rank(const struct slt_adv_unit *u)
{
	return u->role == SLT_ADV_READ ? 0 : u->role == SLT_ADV_WRITE ? 1 : 2;
}

static int cmp_units(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *sc = arg;
	size_t i = *(const size_t *)a, k = *(const size_t *)b;
	const struct slt_adv_unit *x = &sc->us->u[i], *y = &sc->us->u[k];
	if (sc->size_only) {
		if (x->align != y->align)
			return x->align > y->align ? -1 : 1;
		if (x->size != y->size)
			return x->size > y->size ? -1 : 1;
	} else {
		int rx = role_rank(x), ry = role_rank(y);
		if (rx != ry)
			return rx - ry;
		int lc = rx == 1 ? strcmp(writer_label(x), writer_label(y)) : 0;
		if (lc)
			return lc;
		if (rx == 1 && writer_cpu(x) != writer_cpu(y))
			return writer_cpu(x) < writer_cpu(y) ? -1 : 1;
	}
	return i < k ? -1 : i > k;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* The greedy order into p (pads cleared); boundaries (positions where the
 * group changes) into bnd. */
static void greedy_order(const struct slt_adv_units *us, bool size_only,
			 size_t *seq, struct slt_adv_plan *p, size_t *bnd,
			 size_t *n_bnd)
{
	size_t nseq = 0, k = 0;
	uint64_t cur = 0;
	bool *used = calloc(us->n ? us->n : 1, sizeof(*used));

	for (size_t i = 0; i < us->n; i++)
		if (!(us->u[i].flags & (SLT_ADV_ANCHORED | SLT_ADV_LAST)))
			seq[nseq++] = i;
	struct sort_ctx sc = { us, size_only };
	qsort_r(seq, nseq, sizeof(*seq), cmp_units, &sc);
	memset(p->pad, 0, p->n * sizeof(*p->pad));
	uint32_t sg = 0;
	for (size_t a = 0; a <= us->n; a++) {
		if (a < us->n && !(us->u[a].flags & SLT_ADV_ANCHORED))
			continue;
		/* the units of this segment, in group order */
		for (size_t q = 0; q < nseq; q++) {
			const struct slt_adv_unit *u = &us->u[seq[q]];
			uint64_t o = align_up(cur, u->align);
			if ((used && used[seq[q]]) || u->seg != sg)
				continue;
			if (used)
				used[seq[q]] = true;
			p->order[k++] = seq[q];
			cur = o + u->size;
		}
		if (a < us->n) {
			sg++;
			p->order[k++] = a;
			if (us->u[a].flags & SLT_ADV_FENCE)
				cur = align_up(cur, us->u[a].align) + us->u[a].size;
			else if (cur < us->u[a].orig_offset + us->u[a].size)
				cur = us->u[a].orig_offset + us->u[a].size;
		}
	}
	if (!used) /* no memory for first-fit: plain order */
		for (size_t q = 0; q < nseq; q++)
			p->order[k++] = seq[q];
	for (size_t i = 0; i < us->n; i++)
		if (us->u[i].flags & SLT_ADV_LAST)
			p->order[k++] = i;
	free(used);
	*n_bnd = 0;
	for (size_t i = 1; i < k && *n_bnd < MAX_BOUNDARIES; i++) {
		const struct slt_adv_unit *x = &us->u[p->order[i - 1]],
					  *y = &us->u[p->order[i]];
		if (role_rank(x) != role_rank(y) ||
		    (x->role == SLT_ADV_WRITE && y->role == SLT_ADV_WRITE &&
		     other_writer(x, y)))
			bnd[(*n_bnd)++] = i;
	}
}

/* Filler order for spacers: larger alignment, then larger size first
 * (the fewest holes), then the index. */
static int cmp_filler(const void *a, const void *b, void *arg)
{
	const struct slt_adv_units *us = arg;
	size_t i = *(const size_t *)a, k = *(const size_t *)b;
	const struct slt_adv_unit *x = &us->u[i], *y = &us->u[k];
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return i < k ? -1 : i > k;
}

/*
 * Spacer candidates: at each group boundary b of the greedy order g, the
 * first k cold units after b (in the order they come, then largest
 * first) moved to b, for k = 1, 2, ... until they hold a line's bytes
 * (beyond that any start of the instance has a line boundary between the
 * groups).  Without padding (an embedded instance, --in) and where the
 * instance's start varies (--base-align below the line, priced at its
 * worst start), cold members between two groups are what separates them;
 * one local-search move cannot open such a gap (each single move of a
 * cold unit leaves the groups on a shared line at some start, so it never
 * improves).  Each candidate is priced like the greedy ones, the best
 * kept in *best.  Candidates: at most boundaries x 2 x line bytes, each
 * O(n).
 */
static int spacers(const struct slt_adv_units *us, const struct slt_adv_search *s,
		   const struct slt_adv_weights *w, const struct slt_adv_plan *g,
		   const size_t *bnd, size_t n_bnd, struct slt_adv_plan *best,
		   double *bobj, bool *have, struct slt_adv_cost *cost)
{
	struct slt_adv_plan c = { 0 };
	size_t *cold = calloc(g->n ? g->n : 1, sizeof(*cold));
	bool *take = calloc(us->n ? us->n : 1, sizeof(*take));
	int rc = cold && take ? plan_alloc(&c, g->n) : SLT_ENOMEM;

	for (size_t b = 0; b < n_bnd && !rc; b++) {
		size_t at = bnd[b], nc = 0;
		uint32_t seg = us->u[g->order[at]].seg;
		for (size_t i = at; i < g->n; i++) {
			const struct slt_adv_unit *u = &us->u[g->order[i]];
			if (u->role == SLT_ADV_COLD && !u->n_leaves && u->seg == seg &&
			    !(u->flags & (SLT_ADV_ANCHORED | SLT_ADV_LAST)))
				cold[nc++] = g->order[i];
		}
		for (int pass = 0; pass < 2 && !rc; pass++) {
			if (pass)
				qsort_r(cold, nc, sizeof(*cold), cmp_filler, (void *)us);
			uint64_t bytes = 0;
			for (size_t k = 1; k <= nc && bytes < us->line && !rc; k++) {
				double obj;
				size_t m = 0;
				bytes += us->u[cold[k - 1]].size;
				for (size_t j = 0; j < k; j++)
					take[cold[j]] = true;
				for (size_t i = 0; i < at; i++)
					c.order[m++] = g->order[i];
				for (size_t j = 0; j < k; j++)
					c.order[m++] = cold[j];
				for (size_t i = at; i < g->n; i++)
					if (!take[g->order[i]])
						c.order[m++] = g->order[i];
				for (size_t j = 0; j < k; j++)
					take[cold[j]] = false;
				memset(c.pad, 0, c.n * sizeof(*c.pad));
				if (slt_adv_objective(us, s, w, &c, &obj, cost, &rc) &&
				    (!*have || obj < *bobj)) {
					plan_copy(best, &c);
					*bobj = obj;
					*have = true;
				}
			}
		}
	}
	free(cold);
	free(take);
	slt_adv_plan_free(&c);
	return rc;
}

/* Local search from *p (objective *obj).  Moves count applied moves;
 * max_moves 0 = unlimited.  It stops after the pass in which its
 * evaluations exceed s->max_work / units (checked after each unit's moves
 * and swaps); that pass's best move is still applied, and *spent is set. */
static int local(const struct slt_adv_units *us, const struct slt_adv_search *s,
		 const struct slt_adv_weights *w, struct slt_adv_plan *p,
		 double *obj, size_t max_moves, size_t *moves, bool *spent)
{
	struct slt_adv_plan c = { 0 };
	struct slt_adv_cost cost;
	size_t work = s->max_work ? s->max_work : SLT_ADV_LOCAL_WORK;
	size_t evals = 0, max_evals = work / (p->n ? p->n : 1);
	bool improved = true;
	int rc = plan_alloc(&c, p->n);

	*moves = 0;
	while (!rc && improved && (!max_moves || *moves < max_moves)) {
		improved = false;
		/* best move in this pass (first improvement per unit) */
		double best = *obj;
		size_t bi = 0, bj = 0;
		int kind = 0; /* 1 move, 2 toggle pad(s), 3 swap */
		for (size_t i = 0; i < p->n && !rc && !s->keep_order; i++) {
			const struct slt_adv_unit *ui = &us->u[p->order[i]];
			if (ui->flags & SLT_ADV_LAST)
				continue;
			/* large structs: only units the objective sees move
			 * (cold ones still move by swaps with them) */
			if (!s->size_only && p->n > ALL_MOVE_MAX && !ui->n_leaves)
				continue;
			/* the budget is checked per evaluation: one unit's
			 * moves alone are 2n evaluations of O(n) each, O(n^2)
			 * for a 65,535-member struct */
			for (size_t j = 0; j < p->n && !rc && evals <= max_evals; j++) {
				double o;
				if (j == i)
					continue;
				plan_copy(&c, p);
				size_t x = c.order[i];
				if (j < i)
					memmove(c.order + j + 1, c.order + j,
						(i - j) * sizeof(*c.order));
				else
					memmove(c.order + i, c.order + i + 1,
						(j - i) * sizeof(*c.order));
				c.order[j] = x;
				evals++;
				if (slt_adv_objective(us, s, w, &c, &o, &cost, &rc) &&
				    o < best - 1e-9) {
					best = o;
					bi = i;
					bj = j;
					kind = 1;
				}
			}
			/* swap with a later unit */
			for (size_t j = i + 1; j < p->n && !rc && evals <= max_evals; j++) {
				double o;
				if (us->u[p->order[j]].flags & SLT_ADV_LAST)
					continue;
				plan_copy(&c, p);
				c.order[i] = p->order[j];
				c.order[j] = p->order[i];
				evals++;
				if (slt_adv_objective(us, s, w, &c, &o, &cost, &rc) &&
				    o < best - 1e-9) {
					best = o;
					bi = i;
					bj = j;
					kind = 3;
				}
			}
			if (evals > max_evals)
				break;
		}
		/* padding: one toggle, or two at once when the order is
		 * fixed (a member between two written neighbours needs a
		 * padding member on each side before either helps) */
		for (size_t i = 0; i < p->n && !rc && s->allow_padding &&
		     !s->size_only && evals <= max_evals; i++) {
			size_t j0 = s->keep_order && p->n <= PAIR_MAX ? i : p->n;
			for (size_t j = j0; j <= p->n && !rc; j++) {
				double o;
				plan_copy(&c, p);
				c.pad[i] = !c.pad[i];
				if (j > i && j < p->n)
					c.pad[j] = !c.pad[j];
				else if (j != i && j != p->n)
					continue;
				evals++;
				if (slt_adv_objective(us, s, w, &c, &o, &cost, &rc) &&
				    o < best - 1e-9) {
					best = o;
					bi = i;
					bj = j;
					kind = 2;
				}
			}
		}
		if (rc || !kind)
			break;
		if (kind == 3) {
			size_t t = p->order[bi];
			p->order[bi] = p->order[bj];
			p->order[bj] = t;
		} else if (kind == 1) {
			size_t x = p->order[bi];
			if (bj < bi)
				memmove(p->order + bj + 1, p->order + bj,
					(bi - bj) * sizeof(*p->order));
			else
				memmove(p->order + bi, p->order + bi + 1,
					(bj - bi) * sizeof(*p->order));
			p->order[bj] = x;
		} else {
			p->pad[bi] = !p->pad[bi];
			if (bj > bi && bj < p->n)
				p->pad[bj] = !p->pad[bj];
		}
		*obj = best;
		(*moves)++;
		improved = evals <= max_evals;
	}
	if (evals > max_evals)
		*spent = true;
	slt_adv_plan_free(&c);
	return rc;
}

int slt_adv_search_heuristic(const struct slt_adv_units *us,
			     const struct slt_adv_search *s,
			     const struct slt_adv_weights *w,
			     struct slt_adv_plan *best,
			     struct slt_adv_cost *cost, bool *spent)
{
	struct slt_adv_plan p = { 0 }, id = { 0 };
	size_t *seq = NULL, bnd[MAX_BOUNDARIES], n_bnd = 0, moves;
	double obj, bobj = 0;
	bool have = false, sp = false, sp2 = false;
	int rc;

	memset(best, 0, sizeof(*best));
	rc = plan_alloc(&p, us->n);
	if (!rc)
		rc = slt_adv_plan_identity(us, &id);
	if (!rc)
		rc = plan_alloc(best, us->n);
	seq = calloc(us->n ? us->n : 1, sizeof(*seq));
	if (rc || !seq) {
		rc = SLT_ENOMEM;
		goto out;
	}
	if (s->max_moves || s->keep_order) {
		/* MINIMAL and PADDING start from the original */
		plan_copy(&p, &id);
		if (slt_adv_objective(us, s, w, &p, &obj, cost, &rc)) {
			plan_copy(best, &p);
			bobj = obj;
			have = true;
		}
	} else {
		greedy_order(us, s->size_only, seq, &p, bnd, &n_bnd);
		if (!s->size_only)
			rc = spacers(us, s, w, &p, bnd, n_bnd, best, &bobj, &have, cost);
		if (!s->allow_padding || s->size_only)
			n_bnd = 0;
		for (size_t m = 0; m < (1u << n_bnd) && !rc; m++) {
			memset(p.pad, 0, p.n * sizeof(*p.pad));
			for (size_t b = 0; b < n_bnd; b++)
				if (m & (1u << b))
					p.pad[bnd[b]] = 1;
			if (slt_adv_objective(us, s, w, &p, &obj, cost, &rc) &&
			    (!have || obj < bobj)) {
				plan_copy(best, &p);
				bobj = obj;
				have = true;
			}
		}
		/* the original order is a candidate too */
		if (!rc && slt_adv_objective(us, s, w, &id, &obj, cost, &rc) &&
		    (!have || obj < bobj)) {
			plan_copy(best, &id);
			bobj = obj;
			have = true;
		}
	}
	if (rc)
		goto out;
	if (!have) {
		rc = SLT_ENOTFOUND;
		goto out;
	}
	rc = local(us, s, w, best, &bobj, s->max_moves, &moves, &sp);
	/* a second start from the original order, kept when better */
	if (!rc && !s->max_moves && !s->keep_order &&
	    slt_adv_objective(us, s, w, &id, &obj, cost, &rc)) {
		rc = local(us, s, w, &id, &obj, 0, &moves, &sp2);
		if (!rc && obj < bobj - 1e-9) {
			plan_copy(best, &id);
			bobj = obj;
			sp = sp2;
		}
	}
	if (!rc && !slt_adv_objective(us, s, w, best, &obj, cost, &rc) && !rc)
		rc = SLT_ENOTFOUND;
	/* the full cost of the result (size mode evaluated the size only) */
	if (!rc && s->size_only && !slt_adv_plan_cost(us, best, w, cost, &rc) && !rc)
		rc = SLT_ENOTFOUND;
	if (spent)
		*spent = sp;
out:
	free(seq);
	slt_adv_plan_free(&p);
	slt_adv_plan_free(&id);
	if (rc)
		slt_adv_plan_free(best);
	return rc;
}

int slt_adv_search_polish(const struct slt_adv_units *us,
			  const struct slt_adv_search *s,
			  const struct slt_adv_weights *w,
			  struct slt_adv_plan *p, struct slt_adv_cost *cost,
			  bool *spent)
{
	double obj;
	size_t moves;
	bool sp = false;
	int rc = 0;

	if (!slt_adv_objective(us, s, w, p, &obj, cost, &rc))
		return rc ? rc : SLT_ENOTFOUND;
	rc = local(us, s, w, p, &obj, 0, &moves, &sp);
	if (spent)
		*spent = sp;
	if (!rc && !slt_adv_objective(us, s, w, p, &obj, cost, &rc) && !rc)
		rc = SLT_ENOTFOUND;
	return rc;
}

/* next_permutation() on a[0..n) */
static bool next_perm(size_t *a, size_t n)
{
	size_t i, j;
	if (n < 2)
		return false;
	i = n - 1;
	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (!i)
		return false;
	j = n - 1;
	while (a[j] <= a[i - 1])
		j--;
	size_t t = a[i - 1];
	a[i - 1] = a[j];
	a[j] = t;
	for (size_t l = i, r = n - 1; l < r; l++, r--) {
		t = a[l];
		a[l] = a[r];
		a[r] = t;
	}
	return true;
}

int slt_adv_search_brute(const struct slt_adv_units *us,
			 const struct slt_adv_search *s,
			 const struct slt_adv_weights *w,
			 struct slt_adv_plan *best, struct slt_adv_cost *cost)
{
	struct slt_adv_plan p = { 0 };
	struct slt_adv_cost c;
	size_t n = 0, last = SIZE_MAX;
	double obj, bobj = 0;
	bool have = false;
	int rc;

	memset(best, 0, sizeof(*best));
	for (size_t i = 0; i < us->n; i++) {
		if (us->u[i].flags & SLT_ADV_LAST)
			last = i;
		else
			n++;
	}
	if (n > BRUTE_MAX)
		return SLT_EUSAGE;
	rc = plan_alloc(&p, us->n);
	if (!rc)
		rc = plan_alloc(best, us->n);
	if (rc) {
		slt_adv_plan_free(&p);
		return rc;
	}
	for (size_t i = 0, k = 0; i < us->n; i++)
		if (i != last)
			p.order[k++] = i;
	if (last != SIZE_MAX)
		p.order[n] = last;
	size_t npad = s->allow_padding && !s->size_only ? n : 0;
	do {
		for (size_t m = 0; m < ((size_t)1 << npad) && !rc; m++) {
			memset(p.pad, 0, p.n * sizeof(*p.pad));
			for (size_t b = 0; b < npad; b++)
				p.pad[b] = (m >> b) & 1;
			if (slt_adv_objective(us, s, w, &p, &obj, &c, &rc) &&
			    (!have || obj < bobj - 1e-12)) {
				plan_copy(best, &p);
				*cost = c;
				bobj = obj;
				have = true;
			}
		}
	} while (!rc && !s->keep_order && next_perm(p.order, n));
	slt_adv_plan_free(&p);
	if (!rc && !have)
		rc = SLT_ENOTFOUND;
	if (rc)
		slt_adv_plan_free(best);
	return rc;
}
