/* SPDX-License-Identifier: MIT */
/*
 * The exact optimum of the advisor's objective (search.c's
 * slt_adv_objective(): cost.c's additive per-line cost plus half a byte's
 * price per padding member) by a dynamic program over subsets of units.
 *
 * A plan places its units one after another with C rules (relayout.c's
 * slt_adv_place()): each at the first multiple of its alignment at or after
 * the end of the previous one, or of the next line when a padding member
 * goes before it; anchored units on their original offset.  Offsets only
 * grow, so once a unit starts on a later line than the last byte placed so
 * far, that byte's line is closed: nothing placed later can reach it.  The
 * cost is a sum over lines of a function of what lies on each line
 * (slt_adv_cost_line()), plus terms of the final size.
 *
 * State after placing a set S of units in some order:
 *   S, cur (the end of the last unit, bytes), whether a padding member was
 *   used (the struct's alignment becomes the line size), and the content
 *   of the open line (the line of byte cur - 1): the units fully on it that
 *   count (leaves or code paths), whose contribution does not depend on
 *   where on the line they are, plus at most one unit that starts on an
 *   earlier line and ends on it (the straddler) with its offset.
 * Value: the least cost of the closed lines (weighted coherence and
 *   locality) plus the padding members' price, over all orders of S that
 *   reach the state.  Everything that follows (legal next units: the
 *   anchors placed so far fix the segment; offsets; the cost of the lines
 *   still open or to come; the final size) depends on the state only, so
 *   keeping the least value per state is exact.
 * Transition: append one unit u not in S, with or without a padding member
 *   before it, as slt_adv_place() would place it; when u starts past the
 *   open line, the open line is closed with its content; when u spans
 *   lines, every line of u but its last is closed (u's first line together
 *   with the open content when u starts on the open line).  The flexible
 *   tail (SLT_ADV_LAST) goes last, without padding, as in brute force.
 * End: the open line is closed, size = cur rounded up to the struct's
 *   alignment, and the line and byte prices are added.
 * States are expanded in order of |S| (a FIFO over the node array: every
 *   state of |S| = k is final before the first one is expanded).  The
 *   number of states is bounded by 2^n x offsets x open contents; a state
 *   budget (a count, so the outcome does not depend on the machine's load)
 *   makes it give up (SLT_EUNSUPPORTED) rather than run long.  The sums over lines are added in another order than
 *   slt_adv_cost_eval() adds them, so the optimum equals brute force's up to
 *   floating-point rounding (1e-9 relative in the tests).
 *
 * Not handled (SLT_EUSAGE, the caller keeps the heuristic): size-only,
 * keep-order, minimal-move and padding-count limits, a separation wider
 * than the line (its coherence blocks span lines the state closes apart), more than
 * SLT_ADV_EXACT_MAX units, and units with a leaf past their end (bitfield
 * storage past the last used byte): such a leaf reaches a line after the
 * unit's own, which this state does not describe.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

#define DEF_STATES 4000000u

struct node {
	double val;          /* closed lines + padding price */
	uint32_t set;        /* bit b: ids[b] placed */
	uint32_t open;       /* units fully on the open line that count */
	uint32_t cur;        /* end of the last unit, bytes */
	uint32_t soff;       /* straddler's offset */
	uint32_t parent;     /* node index */
	uint8_t strad;       /* 0, or straddler's bit + 1 */
	uint8_t unit;        /* bit of the unit placed last; 0xff the tail */
	uint8_t pad;         /* padding member before it */
	uint8_t padded;      /* some padding member so far */
	uint8_t done;        /* the tail is placed too */
};

struct dp {
	const struct slt_adv_units *us;
	const struct slt_adv_search *s;
	const struct slt_adv_weights *w;
	size_t ids[SLT_ADV_EXACT_MAX]; /* bit -> unit index */
	size_t m;                      /* bits */
	size_t last;                   /* the tail's unit index, SIZE_MAX */
	uint32_t anchored;             /* bits of anchored units */
	uint32_t counts;               /* bits of units with a cost */
	uint32_t twin[SLT_ADV_EXACT_MAX]; /* lower bits of units that are
					     interchangeable with this one */
	uint32_t same[SLT_ADV_EXACT_MAX]; /* bits of the units whose part on
					     a line they lie on fully is
					     the same as this one's */
	bool have_ub;                  /* ub: a known plan's objective */
	double ub;
	struct node *nd;
	size_t n, cap, max_states;
	uint32_t *tab;                 /* hash: node index + 1, 0 empty */
	size_t tcap;
};

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

static uint64_t key_hash(const struct node *x)
{
	uint64_t h = x->set * 0x9e3779b97f4a7c15ull;
	h ^= (h >> 29) + x->open * 0xbf58476d1ce4e5b9ull;
	h ^= (h >> 31) + x->cur * 0x94d049bb133111ebull;
	h ^= (h >> 27) + ((uint64_t)x->soff << 10 | (uint64_t)x->strad << 2 |
			  (uint64_t)x->done << 1 | x->padded) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

static bool key_eq(const struct node *a, const struct node *b)
{
	return a->set == b->set && a->open == b->open && a->cur == b->cur &&
	       a->strad == b->strad && a->padded == b->padded &&
	       a->done == b->done &&
	       (!a->strad || a->soff == b->soff);
}

static int tab_grow(struct dp *d)
{
	size_t nc = d->tcap ? d->tcap * 2 : 1024;
	uint32_t *t = calloc(nc, sizeof(*t));
	if (!t)
		return SLT_ENOMEM;
	for (size_t i = 0; i < d->n; i++) {
		size_t h = key_hash(&d->nd[i]) & (nc - 1);
		while (t[h])
			h = (h + 1) & (nc - 1);
		t[h] = (uint32_t)i + 1;
	}
	free(d->tab);
	d->tab = t;
	d->tcap = nc;
	return 0;
}

/* Whether units a and b lying fully on one line add the same to it: the
 * same leaves (classes, samples, CPUs) and code paths. */
static bool same_part(const struct slt_adv_units *us,
		      const struct slt_adv_unit *a, const struct slt_adv_unit *b)
{
	if (a->n_leaves != b->n_leaves || !a->size != !b->size)
		return false;
	for (size_t w = 0; w < us->path_words; w++)
		if ((a->paths ? a->paths[w] : 0) != (b->paths ? b->paths[w] : 0))
			return false;
	for (size_t j = 0; j < a->n_leaves; j++) {
		const struct slt_adv_leaf *x = &a->leaves[j], *y = &b->leaves[j];
		/* the same grouping into units (pairs.c) and writer labels */
		if (j && (x->group == x[-1].group) != (y->group == y[-1].group))
			return false;
		if (!x->label != !y->label || (x->label && strcmp(x->label, y->label)))
			return false;
		if (x->read != y->read || x->write != y->write ||
		    x->loads != y->loads || x->stores != y->stores ||
		    x->hitm != y->hitm || x->given_write != y->given_write ||
		    x->self_cross != y->self_cross || x->n_cpus != y->n_cpus)
			return false;
		/* the same code locations (pairs.c's co-access rule) */
		if (x->n_locs != y->n_locs)
			return false;
		for (size_t c = 0; c < x->n_locs; c++)
			if (x->locs[c].loads != y->locs[c].loads ||
			    x->locs[c].stores != y->locs[c].stores ||
			    strcmp(x->locs[c].symbol ? x->locs[c].symbol : "",
				   y->locs[c].symbol ? y->locs[c].symbol : "") ||
			    strcmp(x->locs[c].source ? x->locs[c].source : "",
				   y->locs[c].source ? y->locs[c].source : ""))
				return false;
		for (size_t c = 0; c < x->n_cpus; c++)
			if (x->cpus[c].cpu != y->cpus[c].cpu ||
			    x->cpus[c].loads != y->cpus[c].loads ||
			    x->cpus[c].stores != y->cpus[c].stores)
				return false;
	}
	return true;
}

bool slt_adv_twins(const struct slt_adv_units *us, size_t a, size_t b)
{
	const struct slt_adv_unit *x = &us->u[a], *y = &us->u[b];
	bool cx = x->n_leaves || (x->paths && x->size),
	     cy = y->n_leaves || (y->paths && y->size);
	bool tw = x->size == y->size && x->align == y->align &&
		  x->flags == y->flags && x->seg == y->seg &&
		  (!(x->flags & SLT_ADV_ANCHORED) ||
		   x->orig_offset == y->orig_offset) &&
		  cx == cy && (!cx || same_part(us, x, y));
	for (size_t j = 0; tw && j < x->n_leaves; j++)
		tw = x->leaves[j].rel == y->leaves[j].rel &&
		     x->leaves[j].size == y->leaves[j].size;
	return tw;
}

/* Keep x as a state: a new one, or a better value for a known one.
 * SLT_EUNSUPPORTED when the state budget is spent. */
static int relax(struct dp *d, const struct node *x)
{
	size_t h;

	if (d->n * 2 >= d->tcap) {
		int rc = tab_grow(d);
		if (rc)
			return rc;
	}
	h = key_hash(x) & (d->tcap - 1);
	for (; d->tab[h]; h = (h + 1) & (d->tcap - 1)) {
		struct node *o = &d->nd[d->tab[h] - 1];
		if (key_eq(o, x)) {
			if (x->val < o->val) {
				o->val = x->val;
				o->parent = x->parent;
				o->unit = x->unit;
				o->pad = x->pad;
			}
			return 0;
		}
	}
	if (d->n >= d->max_states)
		return SLT_EUNSUPPORTED;
	if (d->n == d->cap) {
		size_t nc = d->cap ? d->cap * 2 : 4096;
		void *p = realloc(d->nd, nc * sizeof(*d->nd));
		if (!p)
			return SLT_ENOMEM;
		d->nd = p;
		d->cap = nc;
	}
	d->nd[d->n] = *x;
	d->tab[h] = (uint32_t)++d->n;
	return 0;
}

/* Weighted cost of line L holding the open content of x, plus unit extra
 * (bit, or -1) at offset eo. */
static int close_line(struct dp *d, const struct node *x, int extra,
		      uint64_t eo, uint64_t L, double *add)
{
	const uint64_t lsz = d->us->line;
	size_t units[SLT_ADV_EXACT_MAX + 1];
	uint64_t off[SLT_ADV_EXACT_MAX + 1];
	size_t k = 0;
	double coh, loc;
	int rc;

	if (x->strad) {
		units[k] = d->ids[x->strad - 1];
		off[k++] = x->soff;
	}
	/* fully on the line: any offset on it counts the same */
	for (uint32_t b = x->open; b; b &= b - 1) {
		units[k] = d->ids[__builtin_ctz(b)];
		off[k++] = L * lsz;
	}
	if (extra >= 0) {
		units[k] = (size_t)extra == SLT_ADV_EXACT_MAX ? d->last :
			   d->ids[extra];
		off[k++] = eo;
	}
	*add = 0;
	if (!k)
		return 0;
	rc = slt_adv_cost_line(d->us, units, off, k, L, &coh, &loc);
	*add = d->w->coherence * coh + d->w->locality * loc;
	return rc;
}

/* The state after x with unit `bit` (SLT_ADV_EXACT_MAX: the tail) placed
 * at offset o. */
static int step(struct dp *d, const struct node *x, size_t xi, int bit,
		uint64_t o, bool pad)
{
	const struct slt_adv_units *us = d->us;
	const uint64_t lsz = us->line;
	const struct slt_adv_unit *u = &us->u[bit == SLT_ADV_EXACT_MAX ? d->last :
						d->ids[bit]];
	bool counts = bit == SLT_ADV_EXACT_MAX ?
		      u->n_leaves || (u->paths && u->size) :
		      (d->counts >> bit) & 1;
	uint64_t f = o / lsz, l = (o + (u->size ? u->size : 1) - 1) / lsz;
	uint64_t end = o + u->size;
	struct node y = *x;
	double add;
	int rc = 0;

	if (end > UINT32_MAX || end > d->s->max_size)
		return 0;
	y.parent = (uint32_t)xi;
	y.unit = bit == SLT_ADV_EXACT_MAX ? 0xff : (uint8_t)bit;
	y.pad = pad;
	y.padded |= pad;
	if (bit != SLT_ADV_EXACT_MAX)
		y.set |= 1u << bit;
	else
		y.done = 1;
	y.cur = (uint32_t)end;
	if (pad)
		y.val += 0.5 * d->w->byte_price;
	bool on_open = x->cur && f == (x->cur - 1) / lsz;
	if (!on_open) {
		/* the open line closes; u starts a new one */
		if (x->cur && (x->open || x->strad)) {
			rc = close_line(d, x, -1, 0, (x->cur - 1) / lsz, &add);
			y.val += add;
		}
		y.open = 0;
		y.strad = 0;
	} else if (l > f && counts) {
		/* u leaves the open line: it closes with u on it */
		rc = close_line(d, x, bit, o, f, &add);
		y.val += add;
		y.open = 0;
		y.strad = 0;
	} else if (l > f) {
		rc = close_line(d, x, -1, 0, f, &add);
		y.val += add;
		y.open = 0;
		y.strad = 0;
	}
	if (!rc && counts) {
		/* u's own lines but its last, then its last is the open one */
		struct node alone = { 0 };
		for (uint64_t L = on_open ? f + 1 : f; L < l && !rc; L++) {
			rc = close_line(d, &alone, bit, o, L, &add);
			y.val += add;
		}
		if (l > f) {
			/* the tail never straddles into a later state */
			y.strad = bit == SLT_ADV_EXACT_MAX ? 0 : (uint8_t)(bit + 1);
			y.soff = (uint32_t)o;
			if (bit == SLT_ADV_EXACT_MAX) {
				rc = close_line(d, &alone, bit, o, l, &add);
				y.val += add;
			}
		} else if (bit != SLT_ADV_EXACT_MAX) {
			/* the open set names the lowest units of each kind */
			y.open |= (d->same[bit] & ~y.open) & -(d->same[bit] & ~y.open);
		} else {
			/* the tail on the open line: close it now */
			rc = close_line(d, &y, bit, o, l, &add);
			y.val += add;
			y.open = 0;
			y.strad = 0;
		}
	}
	if (!y.strad)
		y.soff = 0;
	/* bound: the lines still to close cost >= 0 and the size is at
	 * least cur, so a state above a known plan's objective cannot lead to
	 * a better one */
	if (!rc && d->have_ub &&
	    y.val + d->w->line_price * (double)slt_cachelines(y.cur, lsz) +
	    d->w->byte_price * (double)y.cur >
	    d->ub + 1e-9 * (d->ub > 1 ? d->ub : 1))
		return 0;
	return rc ? rc : relax(d, &y);
}

/* Every successor of node xi. */
static int expand(struct dp *d, size_t xi)
{
	const struct slt_adv_units *us = d->us;
	const struct node x = d->nd[xi];
	uint32_t full = (1u << d->m) - 1;
	uint32_t seg = (uint32_t)__builtin_popcount(x.set & d->anchored);
	bool allow_pad = d->s->allow_padding;
	int rc = 0;

	if (x.done)
		return 0;
	if (x.set == full) {
		if (d->last == SIZE_MAX)
			return 0;
		const struct slt_adv_unit *u = &us->u[d->last];
		uint64_t o = align_up(x.cur, u->align);
		if ((u->flags & SLT_ADV_ANCHORED) && !(u->flags & SLT_ADV_FENCE)) {
			if (u->seg != seg + 1 || !slt_adv_anchor_at(u, o, &o))
				return 0;
		} else if ((u->flags & SLT_ADV_ANCHORED) && u->seg != seg + 1) {
			return 0;
		}
		return step(d, &x, xi, SLT_ADV_EXACT_MAX, o, false);
	}
	for (size_t b = 0; b < d->m && !rc; b++) {
		const struct slt_adv_unit *u = &us->u[d->ids[b]];
		bool anch = (d->anchored >> b) & 1;
		if ((x.set >> b) & 1)
			continue;
		/* of interchangeable units, the lowest unplaced goes first */
		if (d->twin[b] & ~x.set)
			continue;
		if (anch ? u->seg != seg + 1 : !slt_adv_seg_ok(us, u, seg, false))
			continue;
		for (int pad = 0; pad <= (int)allow_pad && !rc; pad++) {
			uint64_t c = pad ? align_up(x.cur, us->line) : x.cur;
			uint64_t o = align_up(c, u->align);
			if (anch && !(u->flags & SLT_ADV_FENCE) &&
			    !slt_adv_anchor_at(u, o, &o))
				continue;
			if (slt_adv_kept_straddles(us, u, o))
				continue; /* slt_adv_place() refuses it */
			rc = step(d, &x, xi, (int)b, o, pad);
		}
	}
	return rc;
}

/* The final objective of a complete state (false: too big). */
static bool finish(struct dp *d, struct node *x, double *obj)
{
	const struct slt_adv_units *us = d->us;
	uint64_t salign = us->orig->alignment ? us->orig->alignment : 1, size;
	double add = 0;

	if (x->padded && us->line > salign)
		salign = us->line;
	if (x->cur && (x->open || x->strad) &&
	    close_line(d, x, -1, 0, (x->cur - 1) / us->line, &add))
		return false;
	size = align_up(x->cur, salign);
	if (size > d->s->max_size)
		return false;
	*obj = x->val + add + d->w->line_price * (double)slt_cachelines(size, us->line) +
	       d->w->byte_price * (double)size;
	return true;
}

int slt_adv_search_exact(const struct slt_adv_units *us,
			 const struct slt_adv_search *s,
			 const struct slt_adv_weights *w,
			 const struct slt_adv_plan *hint, size_t max_states,
			 struct slt_adv_plan *best, struct slt_adv_cost *cost)
{
	struct dp d = { .us = us, .s = s, .w = w, .last = SIZE_MAX };
	size_t bi = SIZE_MAX;
	double bobj = 0;
	int rc = 0;

	memset(best, 0, sizeof(*best));
	if (s->size_only || s->keep_order || s->max_moves || s->max_pads ||
	    !us->line || us->separation > us->line || SLT_ADV_SHIFTED(us))
		return SLT_EUSAGE;
	d.max_states = max_states ? max_states : DEF_STATES;
	if (d.max_states > UINT32_MAX - 1)
		d.max_states = UINT32_MAX - 1;
	for (size_t i = 0; i < us->n; i++) {
		const struct slt_adv_unit *u = &us->u[i];
		uint64_t ext = u->size;
		for (size_t j = 0; j < u->n_leaves; j++)
			if (u->leaves[j].rel + u->leaves[j].size > ext)
				ext = u->leaves[j].rel + u->leaves[j].size;
		if (ext > u->size || u->orig_offset > UINT32_MAX)
			return SLT_EUSAGE;
		if (u->flags & SLT_ADV_LAST) {
			if (d.last != SIZE_MAX)
				return SLT_EUSAGE;
			d.last = i;
			continue;
		}
		if (d.m == SLT_ADV_EXACT_MAX)
			return SLT_EUSAGE;
		if (u->flags & SLT_ADV_ANCHORED)
			d.anchored |= 1u << d.m;
		if (u->n_leaves || (u->paths && u->size))
			d.counts |= 1u << d.m;
		d.ids[d.m++] = i;
	}
	for (size_t b = 0; b < d.m; b++)
		for (size_t c = 0; c < d.m; c++)
			if (((d.counts >> b) & (d.counts >> c) & 1) &&
			    same_part(us, &us->u[d.ids[b]], &us->u[d.ids[c]]))
				d.same[b] |= 1u << c;
	for (size_t b = 0; b < d.m; b++)
		for (size_t c = 0; c < b; c++)
			if (slt_adv_twins(us, d.ids[b], d.ids[c]))
				d.twin[b] |= 1u << c;
	if (hint) {
		struct slt_adv_cost hc;
		d.have_ub = slt_adv_objective(us, s, w, hint, &d.ub, &hc, &rc);
		if (rc)
			return rc;
	}
	rc = tab_grow(&d);
	struct node root = { .parent = UINT32_MAX };
	if (!rc)
		rc = relax(&d, &root);
	for (size_t i = 0; !rc && i < d.n; i++)
		rc = expand(&d, i);
	/* complete states: every unit, the tail last */
	uint32_t full = (1u << d.m) - 1;
	for (size_t i = 0; !rc && i < d.n; i++) {
		struct node *x = &d.nd[i];
		double obj;
		if (x->set != full || (d.last != SIZE_MAX && !x->done))
			continue;
		if (finish(&d, x, &obj) && (bi == SIZE_MAX || obj < bobj)) {
			bi = i;
			bobj = obj;
		}
	}
	if (!rc && bi == SIZE_MAX)
		rc = SLT_ENOTFOUND;
	if (!rc) {
		size_t k = us->n;
		rc = slt_adv_plan_identity(us, best);
		for (size_t i = bi; !rc && i != UINT32_MAX && i; i = d.nd[i].parent) {
			const struct node *x = &d.nd[i];
			k--;
			best->order[k] = x->unit == 0xff ? d.last : d.ids[x->unit];
			best->pad[k] = x->pad;
		}
		if (!rc && k)
			rc = SLT_ENOTFOUND; /* cannot happen: a path has n steps */
	}
	if (!rc) {
		double obj;
		if (!slt_adv_objective(us, s, w, best, &obj, cost, &rc) && !rc)
			rc = SLT_ENOTFOUND;
	}
	free(d.nd);
	free(d.tab);
	if (rc)
		slt_adv_plan_free(best);
	return rc;
}
