/* SPDX-License-Identifier: MIT */
/*
 * The hot-set dynamic program: the advisor's objective over partitions of
 * the HOT units into cache lines, with the cold units as fillers.
 *
 * Hot units are the ones the per-line cost sees (cost.c): a leaf classed
 * read-mostly or written, a sampled leaf, or a code path.  Every other
 * ("cold") unit adds nothing to the coherence or locality term of any line
 * it lies on; where it goes changes only the size (line and byte prices).
 *
 * Model (what the program optimises exactly):
 *   - every hot unit of at most a line lies within one line; a hot unit
 *     larger than a line starts a line and shares none of its lines with
 *     another hot unit (it is a group of its own);
 *   - the hot units of one line are packed from the line's start by
 *     decreasing alignment (a group "fits" when that packing ends within
 *     the line; for power-of-two alignments and sizes that are multiples
 *     of the alignment, as for every scalar, pointer, array and struct
 *     member, that packing has no alignment hole, so it fits exactly when
 *     some order fits);
 *   - the anchored units (pins, forced alignment, markers; the first member
 *     by default) form a prefix of the original order, placed as they are;
 *     hot units may join the prefix's last, partly used line (group g0);
 *     the flexible tail goes last.
 * Since cost.c's coherence and locality are sums over lines of a function
 * of the set of units on each line (and where on the line a unit lies does
 * not matter when it lies within it), the objective of such a layout is
 *     c0(g0) + sum over the other groups g of (c(g) + price x lines(g))
 * plus terms that do not depend on the partition.  R[S], the least cost of
 * cutting the set S of hot units into groups, satisfies
 *     R[0] = 0,  R[S] = min over feasible g with lowest(S) in g, g in S of
 *                       c(g) + price x lines(g) + R[S \ g]
 * (the group holding S's lowest unit is chosen first: every partition is
 * counted once), computed for every S in increasing order; the answer is
 * the least c0(g0) + R[H \ g0].  Groups are enumerated by a depth-first
 * walk that only extends a group while it fits (fitting is monotone: a
 * subset of a fitting group fits), so the work is the number of
 * (S, fitting group in S) pairs, not 3^h; a step budget makes it give up
 * (SLT_EUNSUPPORTED) rather than run long.
 *
 * Line price: the program is run twice, with price = the line price (exact
 * for the full objective when the cold units fit in the free bytes of the
 * hot lines, so that the lines holding hot units are all the lines) and
 * with price = a line's bytes at the byte price (exact when the size is set
 * by all the bytes anyway: the lines are needed whatever the partition);
 * both results are built into plans, priced by slt_adv_objective() (the
 * real objective, never the model's), and the better one is returned.
 *
 * Cold units: after each line's hot units, the free bytes up to the line's
 * end are filled first-fit in decreasing size order (FFD) by cold units
 * that fit entirely; the rest are appended after the last hot line by
 * decreasing alignment (no alignment hole among scalars), then the tail.
 * A CACHELINE_PADDING member starts each hot line that the fill did not
 * reach exactly.  FFD is not an exact bin packing: the size part of the
 * result is a bound, not an optimum, and so is any layout outside the
 * model (a hot unit straddling two lines can save a line; two hot units
 * on one line in a layout the packing rule does not produce).
 *
 * Not handled (SLT_EUSAGE: the caller keeps the heuristic): size-only,
 * keep-order, minimal-move and padding-count limits, a byte budget, no
 * padding allowed, a separation wider than the line, anchored units that
 * are not a prefix of the original order, more than SLT_ADV_HOT_MAX hot
 * units, a hot unit aligned beyond the line, and hot units with a leaf
 * past their end (bitfield storage past the last used byte).
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

#define DEF_STEPS 60000000u
#define BIG 1e300

struct hot {
	const struct slt_adv_units *us;
	const struct slt_adv_weights *w;
	size_t h;                        /* hot units */
	size_t ids[SLT_ADV_HOT_MAX];     /* bit -> unit, decreasing alignment */
	size_t n_pre;                    /* anchored prefix units */
	uint64_t pre_end;                /* end of the prefix's last unit */
	uint32_t *end;                   /* packed end from a line start */
	uint32_t *end0;                  /* packed end on the prefix line */
	double *c;                       /* group cost on a fresh line */
	double *c0;                      /* prefix line cost with the group */
	double *r;                       /* R[S] */
	uint32_t *choice;                /* the group R[S] takes */
	size_t steps, max_steps;
	double price;                    /* per line of a group */
	/* interchangeable units (slt_adv_twins()) form a class; R depends
	 * only on how many of each class a set holds, so sets and groups are
	 * kept canonical: of each class, its lowest bits */
	size_t n_cls;
	uint8_t cls[SLT_ADV_HOT_MAX];          /* bit -> class */
	uint32_t cmask[SLT_ADV_HOT_MAX];       /* class -> its bits */
	uint32_t prefix[SLT_ADV_HOT_MAX][SLT_ADV_HOT_MAX + 1]; /* class, count
					  -> its lowest `count` bits */
};

/* The canonical set with as many units of each class as x. */
static uint32_t canon(const struct hot *d, uint32_t x)
{
	uint32_t y = 0;
	for (size_t t = 0; t < d->n_cls; t++)
		y |= d->prefix[t][__builtin_popcount(x & d->cmask[t])];
	return y;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

static uint32_t sat_add(uint64_t x)
{
	return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

static const struct slt_adv_unit *bit_unit(const struct hot *d, size_t b)
{
	return &d->us->u[d->ids[b]];
}

/* Group g fits on a fresh line (a single unit of any size does: it gets
 * lines of its own). */
static bool fits(const struct hot *d, uint32_t g)
{
	return (g & (g - 1)) == 0 || d->end[g] <= d->us->line;
}

/* Offsets of g's units packed from base (bytes), in bit order. */
static size_t pack(const struct hot *d, uint32_t g, uint64_t base,
		   size_t *units, uint64_t *off)
{
	size_t k = 0;
	for (uint32_t b = g; b; b &= b - 1) {
		const struct slt_adv_unit *u = bit_unit(d, (size_t)__builtin_ctz(b));
		base = align_up(base, u->align);
		units[k] = d->ids[__builtin_ctz(b)];
		off[k++] = base;
		base += u->size;
	}
	return k;
}

/* Weighted coherence + locality of units[n] at off[n] on lines [f, l]. */
static int lines_cost(const struct hot *d, const size_t *units,
		      const uint64_t *off, size_t n, uint64_t f, uint64_t l,
		      double *out)
{
	*out = 0;
	for (uint64_t L = f; L <= l; L++) {
		double coh, loc;
		int rc = slt_adv_cost_line(d->us, units, off, n, L, &coh, &loc);
		if (rc)
			return rc;
		*out += d->w->coherence * coh + d->w->locality * loc;
	}
	return 0;
}

/* c[g] (fresh line 0) and c0[g] (the prefix line) of every fitting g. */
static int group_costs(struct hot *d)
{
	const struct slt_adv_units *us = d->us;
	const uint64_t lsz = us->line;
	const size_t full = (size_t)1 << d->h;
	size_t units[SLT_ADV_HOT_MAX + 64];
	uint64_t off[SLT_ADV_HOT_MAX + 64];
	size_t np = 0;
	uint64_t pl = d->pre_end / lsz; /* the prefix line, when open */
	bool open = d->pre_end % lsz != 0;
	int rc = 0;

	/* prefix units on the prefix line (at most a line's worth of bytes
	 * hold units starting or ending there; more are cut off: they are
	 * cost-free markers at worst, which add nothing) */
	for (size_t i = 0; open && i < d->n_pre && np < 64; i++) {
		const struct slt_adv_unit *u = &us->u[i];
		uint64_t e = u->orig_offset + (u->size ? u->size : 1);
		if ((e - 1) / lsz >= pl && u->orig_offset / lsz <= pl) {
			units[np] = i;
			off[np++] = u->orig_offset;
		}
	}
	for (size_t g = 0; g < full && !rc; g++) {
		d->c[g] = BIG;
		d->c0[g] = BIG;
		if (canon(d, (uint32_t)g) != g)
			continue;
		if (g && fits(d, (uint32_t)g)) {
			size_t k = pack(d, (uint32_t)g, 0, units + np, off + np);
			uint64_t e = d->end[g] ? d->end[g] : 1;
			rc = lines_cost(d, units + np, off + np, k, 0, (e - 1) / lsz,
					&d->c[g]);
		}
		if (!rc && open && d->end0[g] <= (pl + 1) * lsz) {
			size_t k = pack(d, (uint32_t)g, d->pre_end, units + np,
					off + np);
			rc = lines_cost(d, units, off, np + k, pl, pl, &d->c0[g]);
		} else if (!open && !g) {
			d->c0[g] = 0;
		}
	}
	return rc;
}

/* Depth-first walk over the fitting groups g = base | (bits of rest from
 * `from` on): relax R[S] with each. */
static int walk(struct hot *d, uint32_t s, uint32_t g, uint32_t rest)
{
	for (uint32_t b = rest; b; b &= b - 1) {
		uint32_t bit = b & -b, x = g | bit;
		/* of a class, the group takes s's lowest members first */
		if ((d->cmask[d->cls[__builtin_ctz(bit)]] & s & (bit - 1)) & ~g)
			continue;
		if (!fits(d, x))
			continue;
		if (++d->steps > d->max_steps)
			return SLT_EUNSUPPORTED;
		uint64_t e = d->end[x] ? d->end[x] : 1;
		double v = d->c[x] + d->price * (double)((e + d->us->line - 1) /
							d->us->line) +
			   d->r[canon(d, s ^ x)];
		if (v < d->r[s]) {
			d->r[s] = v;
			d->choice[s] = x;
		}
		/* extend with higher bits only: every group once */
		int rc = walk(d, s, x, rest & ~((b & -b) | ((b & -b) - 1)));
		if (rc)
			return rc;
	}
	return 0;
}

static int solve(struct hot *d, uint32_t *g0_out)
{
	const uint32_t full = (uint32_t)(((size_t)1 << d->h) - 1);
	double best = BIG;

	d->r[0] = 0;
	for (uint32_t s = 1; s <= full; s++) {
		uint32_t low = s & -s;
		d->r[s] = BIG;
		if (canon(d, s) != s)
			continue;
		d->steps++;
		uint64_t e = d->end[low] ? d->end[low] : 1;
		d->r[s] = d->c[low] + d->price * (double)((e + d->us->line - 1) /
							 d->us->line) +
			  d->r[canon(d, s ^ low)];
		d->choice[s] = low;
		int rc = walk(d, s, low, s & ~(low | (low - 1)));
		if (rc)
			return rc;
	}
	/* the prefix line's group: every subset that fits there */
	*g0_out = 0;
	for (uint32_t g = 0; g <= full; g++) {
		uint32_t rest;
		if (d->c0[g] >= BIG)
			continue;
		rest = canon(d, full ^ g);
		if (d->r[rest] >= BIG)
			continue;
		if (++d->steps > d->max_steps)
			return SLT_EUNSUPPORTED;
		if (d->c0[g] + d->r[rest] < best) {
			best = d->c0[g] + d->r[rest];
			*g0_out = g;
		}
	}
	return best < BIG ? 0 : SLT_ENOTFOUND;
}

/* Cold unit orders: for the fill, decreasing size then alignment; for the
 * units appended after the last hot line, decreasing alignment first. */
static int cmp_fill(const void *a, const void *b, void *arg)
{
	const struct slt_adv_units *us = arg;
	const struct slt_adv_unit *x = &us->u[*(const size_t *)a],
				  *y = &us->u[*(const size_t *)b];
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int cmp_tail(const void *a, const void *b, void *arg)
{
	const struct slt_adv_units *us = arg;
	const struct slt_adv_unit *x = &us->u[*(const size_t *)a],
				  *y = &us->u[*(const size_t *)b];
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return cmp_fill(a, b, arg);
}

struct build {
	const struct hot *d;
	uint32_t taken;                 /* bits whose unit is placed */
	struct slt_adv_plan *p;
	size_t k;
	uint64_t cur;
	const size_t *cold;             /* fill order */
	size_t n_cold;
	bool *used;                     /* per unit index */
};

static void put(struct build *b, const struct slt_adv_units *us, size_t u,
		bool pad)
{
	if (pad)
		b->cur = align_up(b->cur, us->line);
	b->p->pad[b->k] = pad;
	b->p->order[b->k++] = u;
	b->cur = align_up(b->cur, us->u[u].align) + us->u[u].size;
}

/* The unit of the next unplaced member of bit b's class. */
static size_t take(struct build *b, size_t bit)
{
	uint32_t free = b->d->cmask[b->d->cls[bit]] & ~b->taken;
	size_t x = (size_t)__builtin_ctz(free);
	b->taken |= 1u << x;
	return b->d->ids[x];
}

/* First fit decreasing of the unused cold units into [cur, limit). */
static void fill(struct build *b, const struct slt_adv_units *us, uint64_t limit)
{
	for (size_t i = 0; i < b->n_cold; i++) {
		const struct slt_adv_unit *u = &us->u[b->cold[i]];
		if (b->used[b->cold[i]] ||
		    align_up(b->cur, u->align) + u->size > limit)
			continue;
		b->used[b->cold[i]] = true;
		put(b, us, b->cold[i], false);
	}
}

/* The plan of partition (g0, R's choices) into *p (allocated by caller). */
static void build_plan(const struct hot *d, uint32_t g0, const size_t *cold,
		       const size_t *cold_tail, size_t n_cold, bool *used,
		       size_t last, struct slt_adv_plan *p)
{
	const struct slt_adv_units *us = d->us;
	const uint64_t lsz = us->line;
	struct build b = { .d = d, .p = p, .cold = cold, .n_cold = n_cold,
			   .used = used };
	const uint32_t full = (uint32_t)(((size_t)1 << d->h) - 1);

	memset(used, 0, us->n * sizeof(*used));
	for (size_t i = 0; i < d->n_pre; i++) {
		b.p->pad[b.k] = 0;
		b.p->order[b.k++] = i;
		b.cur = us->u[i].orig_offset + us->u[i].size;
	}
	for (uint32_t x = g0; x; x &= x - 1)
		put(&b, us, take(&b, (size_t)__builtin_ctz(x)), false);
	if (b.cur % lsz)
		fill(&b, us, align_up(b.cur, lsz));
	for (uint32_t s = canon(d, full ^ g0); s;
	     s = canon(d, s ^ d->choice[s])) {
		bool first = true;
		for (uint32_t x = d->choice[s]; x; x &= x - 1) {
			put(&b, us, take(&b, (size_t)__builtin_ctz(x)),
			    first && b.cur % lsz != 0);
			first = false;
		}
		if (b.cur % lsz)
			fill(&b, us, align_up(b.cur, lsz));
	}
	for (size_t i = 0; i < n_cold; i++)
		if (!used[cold_tail[i]])
			put(&b, us, cold_tail[i], false);
	if (last != SIZE_MAX)
		put(&b, us, last, false);
}

int slt_adv_search_hot(const struct slt_adv_units *us,
		       const struct slt_adv_search *s,
		       const struct slt_adv_weights *w, size_t max_steps,
		       struct slt_adv_plan *best, struct slt_adv_cost *cost,
		       struct slt_adv_hot_info *info)
{
	struct hot d = { .us = us, .w = w };
	size_t *cold = NULL, *cold_tail = NULL, n_cold = 0, seg0 = SIZE_MAX, last = SIZE_MAX, hot_idx[SLT_ADV_HOT_MAX];
	bool *used = NULL;
	struct slt_adv_plan p = { 0 };
	struct slt_adv_hot_info dummy;
	double bobj = BIG;
	int rc = 0;

	if (!info)
		info = &dummy;
	memset(best, 0, sizeof(*best));
	memset(info, 0, sizeof(*info));
	info->why = "";
	if (s->size_only || s->keep_order || s->max_moves || s->max_pads) {
		info->why = "size-only, padding-only and minimal-move searches are not modelled";
		return SLT_EUSAGE;
	}
	if (!s->allow_padding || s->max_size != UINT64_MAX) {
		info->why = "a byte budget or no padding is not modelled";
		return SLT_EUSAGE;
	}
	if (!us->line || us->separation > us->line) {
		info->why = "a separation wider than the line is not modelled";
		return SLT_EUSAGE;
	}
	if (SLT_ADV_SHIFTED(us)) {
		info->why = "an instance that does not start a line (--base-align, --in) is not modelled";
		return SLT_EUSAGE;
	}
	d.max_steps = max_steps ? max_steps : DEF_STEPS;
	/* the anchored prefix, the tail, hot and cold units */
	while (d.n_pre < us->n && (us->u[d.n_pre].flags & SLT_ADV_ANCHORED))
		d.n_pre++;
	cold = calloc(us->n ? us->n : 1, sizeof(*cold));
	cold_tail = calloc(us->n ? us->n : 1, sizeof(*cold_tail));
	used = calloc(us->n ? us->n : 1, sizeof(*used));
	if (!cold || !cold_tail || !used) {
		rc = SLT_ENOMEM;
		goto out;
	}
	for (size_t i = d.n_pre; i < us->n && !rc; i++) {
		const struct slt_adv_unit *u = &us->u[i];
		uint64_t ext = u->size;
		if (u->flags & SLT_ADV_LAST) {
			if (last != SIZE_MAX || i + 1 != us->n) {
				info->why = "a flexible array not last";
				rc = SLT_EUSAGE;
			}
			last = i;
			continue;
		}
		if (seg0 == SIZE_MAX)
			seg0 = u->seg;
		if ((u->flags & SLT_ADV_ANCHORED) || u->seg != seg0) {
			info->why = "anchored or pinned members after movable ones";
			rc = SLT_EUSAGE;
		}
		if (!(u->n_leaves || (u->paths && u->size))) {
			cold[n_cold++] = i;
			continue;
		}
		for (size_t j = 0; j < u->n_leaves; j++)
			if (u->leaves[j].rel + u->leaves[j].size > ext)
				ext = u->leaves[j].rel + u->leaves[j].size;
		if (ext > u->size || u->align > us->line || d.h == SLT_ADV_HOT_MAX) {
			info->why = d.h == SLT_ADV_HOT_MAX ? "more than 18 hot units" :
				    u->align > us->line ? "a hot member aligned beyond the line" :
				    "a hot bitfield unit with storage past its last used byte";
			rc = SLT_EUSAGE;
		} else {
			hot_idx[d.h++] = i;
		}
	}
	if (rc)
		goto out;
	if (d.n_pre) {
		const struct slt_adv_unit *pu = &us->u[d.n_pre - 1];
		d.pre_end = pu->orig_offset + pu->size;
	}
	/* bits by decreasing alignment, then original order */
	for (size_t i = 0; i < d.h; i++) {
		size_t k = i;
		while (k && us->u[hot_idx[k - 1]].align < us->u[hot_idx[i]].align)
			k--;
		memmove(d.ids + k + 1, d.ids + k, (i - k) * sizeof(*d.ids));
		d.ids[k] = hot_idx[i];
	}
	for (size_t b = 0; b < d.h; b++) {
		size_t t = 0;
		while (t < d.n_cls &&
		       !slt_adv_twins(us, d.ids[__builtin_ctz(d.cmask[t])], d.ids[b]))
			t++;
		if (t == d.n_cls)
			d.n_cls++;
		d.cls[b] = (uint8_t)t;
		d.cmask[t] |= 1u << b;
		d.prefix[t][__builtin_popcount(d.cmask[t])] = d.cmask[t];
	}
	size_t full = (size_t)1 << d.h;
	d.end = calloc(full, sizeof(*d.end));
	d.end0 = calloc(full, sizeof(*d.end0));
	d.c = calloc(full, sizeof(*d.c));
	d.c0 = calloc(full, sizeof(*d.c0));
	d.r = calloc(full, sizeof(*d.r));
	d.choice = calloc(full, sizeof(*d.choice));
	if (!d.end || !d.end0 || !d.c || !d.c0 || !d.r || !d.choice) {
		rc = SLT_ENOMEM;
		goto out;
	}
	d.end0[0] = sat_add(d.pre_end);
	for (size_t g = 1; g < full; g++) {
		size_t top = 31 - (size_t)__builtin_clz((uint32_t)g);
		const struct slt_adv_unit *u = bit_unit(&d, top);
		size_t rest = g & ~((size_t)1 << top);
		d.end[g] = sat_add(align_up(d.end[rest], u->align) + u->size);
		d.end0[g] = sat_add(align_up(d.end0[rest], u->align) + u->size);
	}
	rc = group_costs(&d);
	if (!rc) {
		memcpy(cold_tail, cold, n_cold * sizeof(*cold));
		qsort_r(cold, n_cold, sizeof(*cold), cmp_fill, (void *)us);
		qsort_r(cold_tail, n_cold, sizeof(*cold), cmp_tail, (void *)us);
	}
	for (int pass = 0; pass < 2 && !rc; pass++) {
		struct slt_adv_cost c;
		double obj;
		uint32_t g0;

		d.price = pass ? w->byte_price * (double)us->line : w->line_price;
		rc = solve(&d, &g0);
		if (rc)
			break;
		rc = slt_adv_plan_identity(us, &p);
		if (rc)
			break;
		build_plan(&d, g0, cold, cold_tail, n_cold, used, last, &p);
		if (!slt_adv_objective(us, s, w, &p, &obj, &c, &rc)) {
			if (!rc) /* cannot happen: the plan keeps every rule */
				rc = SLT_ENOTFOUND;
		} else if (obj < bobj - 1e-12) {
			slt_adv_plan_free(best);
			*best = p;
			memset(&p, 0, sizeof(p));
			*cost = c;
			bobj = obj;
			info->pass = pass;
		}
		slt_adv_plan_free(&p);
	}
	info->hot = d.h;
	info->steps = d.steps;
	if (rc == SLT_EUNSUPPORTED)
		info->why = "its step budget was spent";
out:
	free(cold);
	free(cold_tail);
	free(used);
	free(d.end);
	free(d.end0);
	free(d.c);
	free(d.c0);
	free(d.r);
	free(d.choice);
	slt_adv_plan_free(&p);
	if (rc)
		slt_adv_plan_free(best);
	return rc;
}
