/* SPDX-License-Identifier: MIT */
/*
 * The advisor's objective: an additive per-line cost.
 *
 *   cost = coherence_weight x sum over lines L of F(L)
 *        + locality_weight  x sum over code paths P of share(P) x lines P touches
 *        + line_price       x cache lines of the struct's size
 *        + byte_price       x bytes of the struct's size
 *
 * F(L) is the findings' estimator on the analysis' basis
 * (include/structlint/analysis.h): per-CPU counts: the pair estimator
 * slt_pairs_cross() over the leaves' groups on L (pairs within one group
 * are true sharing, which no layout removes); counts: min(stores of
 * written leaves, loads of read-mostly leaves) on L; classes: the findings'
 * classes term slt_class_line_value() over the leaves' groups on L
 * (read-mostly x written groups, plus written groups whose writer labels
 * differ: hot-write:rx next to hot-write:tx is write-write); a profile
 * without a single store (slt_analysis.no_stores), on the per-CPU and
 * counts bases: the findings' HITM term (lines_unseen()): a line holding
 * a given writer (--classes hot-write) costs the HITM loads of the other
 * leaves on it, plus all its HITM loads when given writers of different
 * labels share it; HITM loads with no given writer beside them are an
 * unseen writer's, which no layout moves away (cost 0).  The
 * findings, this cost, the exact DP (exact.c) and brute force all price
 * a line through this one function.  A leaf member that spans k lines is charged on
 * each, with 1/k of its samples (where in a moved member the accesses fall
 * is unknown).  The instance is taken to start on a line boundary, as
 * pahole draws it.
 *
 * Separation (slt_advice_opts.separation, --separation / --adjacent): the
 * coherence term is summed over aligned blocks of us->separation bytes
 * instead of lines, so with 128 two groups on the two lines of one aligned
 * 128-byte pair (which the adjacent-line prefetcher fetches together) still
 * collide; locality and the line price stay per cache line.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"
#include "analysis/analysis_int.h"
#include "common/sort.h"

void slt_adv_weights_default(const struct slt_adv_units *us,
			     struct slt_adv_weights *w)
{
	w->coherence = 1;
	if (us->a->basis == SLT_BASIS_CLASSES) {
		w->locality = 0;
		w->line_price = 0.05;   /* 20 lines = one colliding pair */
		w->byte_price = 1e-6;
	} else {
		double t = us->total > 1 ? us->total : 1;
		/* one more line on a path that carries all accesses costs as
		 * much as 5% of the accesses colliding; a line of size as
		 * much as 0.1% */
		w->locality = 0.05 * t;
		w->line_price = 1e-3 * t;
		w->byte_price = 1e-8 * t;
	}
}

struct line_acc {
	uint64_t *paths;        /* path bitmask */
	union {                 /* by the analysis' basis */
		struct { double rd, wr; };  /* counts: loads / stores */
		struct slt_pairs pairs;     /* per-CPU: per (group, CPU) */
		struct slt_class_line cls;  /* classes: per group, labels */
		struct {                    /* no stores: HITM, given writers */
			struct slt_class_line wr;   /* given writers' groups */
			double all, other;  /* HITM loads: all, not of a
					       given writer */
		} hitm;
	};
};

/* Whether lines are priced by their HITM loads and given writers: a
 * profile without stores, as the findings price it. */
static bool by_hitm(const struct slt_adv_units *us)
{
	return us->a->no_stores && us->a->basis != SLT_BASIS_CLASSES;
}

/* Release a line's accumulator. */
static void line_release(const struct slt_adv_units *us, struct line_acc *x)
{
	/* only what was allocated: this runs for every line of every
	 * evaluation */
	if (by_hitm(us)) {
		if (x->hitm.wr.lab)
			slt_class_line_release(&x->hitm.wr);
	} else if (us->a->basis == SLT_BASIS_CPU && (x->pairs.v || x->pairs.locs))
		slt_pairs_release(&x->pairs);
	else if (us->a->basis == SLT_BASIS_CLASSES && x->cls.lab)
		slt_class_line_release(&x->cls);
}

/* The first index of the sorted lines R[0..nR) at or after line L; R NULL
 * stands for every line, R[i] = i. */
static size_t lower(const uint64_t *R, size_t nR, uint64_t L)
{
	if (!R)
		return L < nR ? (size_t)L : nR;
	size_t lo = 0, hi = nR;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (R[mid] < L)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Add unit u, the slot-th of the units priced together, at offset o to
 * the accumulators of the lines R[0..nR) (sorted; la[i] is line R[i]; R
 * NULL: every line, la[i] is line i);
 * its parts on other lines are left out.  Groups are keyed by slot too: the exact DP
 * (exact.c) prices a line's content through one representative per kind
 * of unit, which may be a unit given in another slot (the straddler, the
 * unit being placed); two slots are always two units, never one group. */
static int line_add(const struct slt_adv_units *us, size_t slot,
		    const struct slt_adv_unit *u, uint64_t o,
		    struct line_acc *la, const uint64_t *R, size_t nR,
		    uint64_t lsz, bool coherence, bool locality)
{
	const enum slt_score_basis basis = us->a->basis;
	const size_t nm = us->orig->n_members + 1;
	int rc = 0;

	/* classes: the unit's spans (merged leaves), in leaf order: each
	 * group's spans on a line come in one run */
	for (size_t j = 0; coherence && basis == SLT_BASIS_CLASSES && j < u->n_spans && !rc; j++) {
		const struct slt_adv_span *sp = &u->spans[j];
		uint64_t b = o + sp->rel;
		uint64_t f = b / lsz, l = (b + sp->size - 1) / lsz;
		for (size_t i = lower(R, nR, f); i < nR && (R ? R[i] : i) <= l && !rc; i++)
			rc = slt_class_line_add(&la[i].cls, slot * nm + sp->group,
						sp->read, sp->write, sp->label);
	}
	for (size_t j = 0; coherence && basis != SLT_BASIS_CLASSES && j < u->n_leaves && !rc; j++) {
		const struct slt_adv_leaf *lf = &u->leaves[j];
		uint64_t b = o + lf->rel;
		uint64_t f = b / lsz, l = (b + lf->size - 1) / lsz;
		double k = (double)(l - f + 1);
		for (size_t i = lower(R, nR, f); i < nR && (R ? R[i] : i) <= l && !rc; i++) {
			struct line_acc *x = &la[i];
			size_t g = slot * nm + lf->group;
			if (by_hitm(us)) {
				x->hitm.all += lf->hitm / k;
				if (!lf->given_write)
					x->hitm.other += lf->hitm / k;
				else
					rc = slt_class_line_add(&x->hitm.wr, g, false, true,
								lf->label);
			} else if (basis == SLT_BASIS_COUNTS) {
				if (lf->read)
					x->rd += lf->loads / k;
				if (lf->write)
					x->wr += lf->stores / k;
			} else {
				rc = slt_pairs_add(&x->pairs, g, lf->cpus,
						   lf->n_cpus, 1 / k);
				if (!rc)
					rc = slt_pairs_locs(&x->pairs, g, lf->locs,
							    lf->n_locs);
			}
		}
	}
	if (locality && u->paths && u->size) {
		uint64_t f = o / lsz, l = (o + u->size - 1) / lsz;
		for (size_t i = lower(R, nR, f); i < nR && (R ? R[i] : i) <= l; i++)
			for (size_t wd = 0; wd < us->path_words; wd++)
				la[i].paths[wd] |= u->paths[wd];
	}
	return rc;
}

/* F(L) (0 when negative) and the locality term of one line's
 * accumulator. */
static int line_value(const struct slt_adv_units *us,
		      struct line_acc *x, double *coh, double *loc)
{
	const enum slt_score_basis basis = us->a->basis;
	double f;

	*coh = *loc = 0;
	if (by_hitm(us)) {
		double rw, ww;
		if (slt_class_line_value(&x->hitm.wr, &rw, &ww))
			return SLT_ENOMEM;
		f = (x->hitm.wr.n_wr > 0 ? x->hitm.other : 0) + (ww > 0 ? x->hitm.all : 0);
	} else if (basis == SLT_BASIS_CLASSES) {
		double rw, ww;
		if (slt_class_line_value(&x->cls, &rw, &ww))
			return SLT_ENOMEM;
		f = rw + ww;
	} else if (basis == SLT_BASIS_COUNTS) {
		f = x->rd < x->wr ? x->rd : x->wr;
	} else {
		f = slt_pairs_cross(&x->pairs);
	}
	*coh = f > 0 ? f : 0;
	*loc = 0;
	for (size_t wd = 0; x->paths && wd < us->path_words; wd++)
		for (uint64_t b = x->paths[wd]; b; b &= b - 1)
			*loc += us->path_weight[wd * 64 +
						(size_t)__builtin_ctzll(b)];
	return 0;
}

/*
 * The lines to price: every line where a leaf or a unit starts or ends
 * (weight 1), and one line for each run of lines between two of those
 * (weight: the run's length).  Inside such a run every line is covered by
 * the same leaves, each as an interior line (1/k of its samples, the same
 * paths), so one line's value times the run's length is the run's value:
 * the cost follows members, not bytes (a char[1 << 40] member is a
 * handful of lines here, not 2^34).  Lines covered by nothing are left
 * out (their value is 0).  *R and *W are malloc()ed.
 */
static int lines_to_price(const struct slt_adv_units *us, const size_t *order,
			  const uint64_t *off, size_t n, uint64_t lsz,
			  uint64_t **R, uint64_t **W, size_t *nR)
{
	size_t ne = 0, cap = 2;
	uint64_t nl = 1; /* lines up to the last one anything is on */
	for (size_t i = 0; i < n; i++) {
		const struct slt_adv_unit *u = &us->u[order[i]];
		uint64_t e = (off[i] + (u->size ? u->size : 1) + lsz - 1) / lsz;
		cap += 2 * u->n_leaves + 2;
		nl = e > nl ? e : nl;
		for (size_t j = 0; j < u->n_leaves; j++) {
			uint64_t sz = u->leaves[j].size ? u->leaves[j].size : 1;
			e = (off[i] + u->leaves[j].rel + sz + lsz - 1) / lsz;
			nl = e > nl ? e : nl;
		}
	}
	if (nl <= cap) {
		/* a struct of ordinary members: every line, R and W NULL
		 * (line i is R[i] = i, weight 1), no sorting: this runs once
		 * per evaluated plan */
		*R = *W = NULL;
		*nR = nl;
		return 0;
	}
	uint64_t *e = malloc(cap * sizeof(*e));
	if (!e)
		return SLT_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct slt_adv_unit *u = &us->u[order[i]];
		uint64_t usz = u->size ? u->size : 1;
		e[ne++] = off[i] / lsz;
		e[ne++] = (off[i] + usz - 1) / lsz;
		for (size_t j = 0; j < u->n_leaves; j++) {
			uint64_t b = off[i] + u->leaves[j].rel;
			uint64_t sz = u->leaves[j].size ? u->leaves[j].size : 1;
			e[ne++] = b / lsz;
			e[ne++] = (b + sz - 1) / lsz;
		}
	}
	qsort(e, ne, sizeof(*e), slt_cmp_u64);
	size_t m = 0;
	for (size_t i = 0; i < ne; i++)
		if (!m || e[m - 1] != e[i])
			e[m++] = e[i];
	uint64_t *r = malloc((2 * m + 1) * sizeof(*r)), *w = malloc((2 * m + 1) * sizeof(*w));
	if (!r || !w) {
		free(e);
		free(r);
		free(w);
		return SLT_ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < m; i++) {
		r[k] = e[i];
		w[k++] = 1;
		if (i + 1 < m && e[i + 1] - e[i] > 1) {
			r[k] = e[i] + 1;
			w[k++] = e[i + 1] - e[i] - 1;
		}
	}
	free(e);
	*R = r;
	*W = w;
	*nR = k;
	return 0;
}

/* Coherence (coh) or locality (loc) of units at off over blocks of lsz
 * bytes, added to *coh_out / *loc_out. */
static int blocks_eval(const struct slt_adv_units *us, const size_t *order,
		       const uint64_t *off, size_t n, uint64_t lsz, bool coh,
		       bool loc, double *coh_out, double *loc_out,
		       size_t *shared)
{
	uint64_t *R = NULL, *W = NULL, *pbits = NULL;
	size_t nR = 0, pw = loc ? us->path_words : 0;
	struct line_acc *la = NULL;
	int rc = lines_to_price(us, order, off, n, lsz, &R, &W, &nR);
	if (rc)
		return rc;
	la = calloc(nR ? nR : 1, sizeof(*la));
	if (pw)
		pbits = calloc(nR * pw + 1, sizeof(*pbits));
	if (!la || (pw && !pbits)) {
		rc = SLT_ENOMEM;
		goto out;
	}
	for (size_t L = 0; L < nR; L++)
		la[L].paths = pbits ? pbits + L * pw : NULL;
	for (size_t i = 0; i < n && !rc; i++)
		rc = line_add(us, i, &us->u[order[i]], off[i], la, R, nR, lsz,
			      coh, loc);
	for (size_t L = 0; L < nR && !rc; L++) {
		double f, l;
		rc = line_value(us, &la[L], &f, &l);
		double w = W ? (double)W[L] : 1;
		*coh_out += coh ? f * w : 0;
		*loc_out += loc ? l * w : 0;
		if (coh && f > SLT_ADV_SHARED_MIN)
			*shared += W ? (size_t)W[L] : 1;
	}
	for (size_t L = 0; la && L < nR; L++)
		line_release(us, &la[L]);
out:
	free(la);
	free(pbits);
	free(R);
	free(W);
	return rc;
}

/* slt_adv_cost_eval() of an instance whose start within its separation
 * block is any of us->origins: the layout priced at each start (offsets
 * shifted by it), coherence and sharing blocks the worst start's,
 * locality the mean over the starts. */
static int origins_eval(const struct slt_adv_units *us, const size_t *order,
			const uint64_t *off, size_t n, uint64_t size,
			const struct slt_adv_weights *w, struct slt_adv_cost *out)
{
	const uint64_t lsz = us->line;
	const uint64_t sep = us->separation > lsz ? us->separation : lsz;
	uint64_t *sh = malloc((n ? n : 1) * sizeof(*sh));
	double loc = 0;
	int rc = sh ? 0 : SLT_ENOMEM;

	for (size_t k = 0; k < us->n_origins && !rc; k++) {
		double coh = 0, l = 0;
		size_t shared = 0;
		for (size_t i = 0; i < n; i++)
			sh[i] = off[i] + us->origins[k];
		rc = blocks_eval(us, order, sh, n, sep, true, sep == lsz, &coh, &l, &shared);
		if (!rc && sep != lsz)
			rc = blocks_eval(us, order, sh, n, lsz, false, true, &coh, &l, &shared);
		if (coh > out->coherence)
			out->coherence = coh;
		if (shared > out->shared)
			out->shared = shared;
		loc += l;
	}
	free(sh);
	out->locality = us->n_origins ? loc / (double)us->n_origins : 0;
	out->total = w->coherence * out->coherence + w->locality * out->locality +
		     w->line_price * (double)out->lines + w->byte_price * (double)size;
	return rc;
}

int slt_adv_cost_eval(const struct slt_adv_units *us, const size_t *order,
		      const uint64_t *off, size_t n, uint64_t size,
		      const struct slt_adv_weights *w, struct slt_adv_cost *out)
{
	const uint64_t lsz = us->line;
	const uint64_t sep = us->separation > lsz ? us->separation : lsz;
	int rc;

	memset(out, 0, sizeof(*out));
	out->size = size;
	out->lines = size ? (size + lsz - 1) / lsz : 0;
	if (SLT_ADV_SHIFTED(us))
		return origins_eval(us, order, off, n, size, w, out);
	rc = blocks_eval(us, order, off, n, sep, true, sep == lsz,
			 &out->coherence, &out->locality, &out->shared);
	if (!rc && sep != lsz)
		rc = blocks_eval(us, order, off, n, lsz, false, true,
				 &out->coherence, &out->locality, &out->shared);
	out->total = w->coherence * out->coherence + w->locality * out->locality +
		     w->line_price * (double)out->lines +
		     w->byte_price * (double)out->size;
	return rc;
}

int slt_adv_cost_line(const struct slt_adv_units *us, const size_t *units,
		      const uint64_t *off, size_t n, uint64_t line,
		      double *coherence, double *locality)
{
	struct line_acc x = { 0 };
	uint64_t stack[8], *pbits = stack;
	int rc = 0;

	*coherence = 0;
	*locality = 0;
	if (us->path_words > 8) {
		pbits = calloc(us->path_words, sizeof(*pbits));
		if (!pbits)
			return SLT_ENOMEM;
	} else {
		memset(stack, 0, sizeof(stack));
	}
	if (us->path_words)
		x.paths = pbits;
	for (size_t i = 0; i < n && !rc; i++)
		rc = line_add(us, i, &us->u[units[i]], off[i], &x, &line, 1,
			      us->line, true, true);
	if (!rc)
		rc = line_value(us, &x, coherence, locality);
	line_release(us, &x);
	if (pbits != stack)
		free(pbits);
	return rc;
}

bool slt_adv_plan_cost(const struct slt_adv_units *us,
		       const struct slt_adv_plan *p,
		       const struct slt_adv_weights *w,
		       struct slt_adv_cost *out, int *rc)
{
	uint64_t *off = malloc((p->n ? p->n : 1) * sizeof(*off)), size;
	bool ok;

	*rc = 0;
	if (!off) {
		*rc = SLT_ENOMEM;
		return false;
	}
	ok = slt_adv_place(us, p, off, &size);
	if (ok) {
		*rc = slt_adv_cost_eval(us, p->order, off, p->n, size, w, out);
		ok = !*rc;
	}
	free(off);
	return ok;
}
