/* SPDX-License-Identifier: MIT */
/*
 * Instance base resolution for address samples (perf c2c cachelines, raw
 * data addresses): --base, --line ADDR=N hints, or inference.
 *
 * Inference.  The instance start is unknown; every placement
 * base = A (A aligned to the struct's alignment, so that all sampled bytes
 * fall inside [base, base + sizeof)) is a candidate.  A placement's score
 * is the mean, over the distinct sampled addresses (each counts once:
 * where accesses land is the evidence, not how often), of how well each
 * fits the layout:
 *   1.0   on a member's first byte, or on an element boundary of an array
 *         member (element size = size / product of the [N] bounds), with
 *         the access size equal to the member's/element's (or unknown);
 *   0.9   on the first byte of a member of struct/union type shown
 *         folded (its own members are not in the layout, so the access
 *         size cannot be checked);
 *   0.75  inside such a member, at an offset aligned to the access size
 *         (8 when unknown);
 *   0.5   on a scalar's first byte with a smaller access;
 *   0.1   elsewhere inside a member (a misaligned access is unusual);
 *   0     in a hole, in tail padding, or a scalar access running past the
 *         end of its member or array element.
 * The best placement is taken when its score is at least
 * SLT_INFER_MIN_SCORE and beats the runner-up by at least
 * SLT_INFER_MIN_MARGIN; confidence = best - runner-up (best when there is
 * only one placement).  Otherwise the join is refused and the error says
 * which placements compete and that --base or --line resolves it.
 * Candidates are at most SLT_INFER_MAX_CANDIDATES (the step grows in
 * powers of two beyond that), scored on at most SLT_INFER_MAX_POINTS
 * distinct addresses.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "join/join_int.h"

#define SLT_INFER_MIN_SCORE 0.5
#define SLT_INFER_MIN_MARGIN 0.05
#define SLT_INFER_MAX_CANDIDATES 4096u
#define SLT_INFER_MAX_POINTS 4096u

long slt_join_member_at(const struct slt_struct *s, uint64_t off)
{
	long best = -1;
	uint32_t best_depth = 0;
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (!m->size || off < m->offset || off - m->offset >= m->size)
			continue;
		if (best < 0 || m->depth > best_depth) {
			best = (long)i;
			best_depth = m->depth;
		}
	}
	return best;
}

/* Elements of an array member from decl_tail "[5][5]"; 1 for scalars. */
uint64_t slt_join_array_elems(const struct slt_member *m)
{
	const char *t = m->decl_tail;
	uint64_t n = 1;
	if (!t || t[0] != '[')
		return 1;
	while (*t == '[') {
		uint64_t v = 0;
		t++;
		while (*t >= '0' && *t <= '9') {
			v = v * 10 + (uint64_t)(*t - '0');
			if (v > UINT32_MAX)
				return 1;
			t++;
		}
		if (*t != ']' || v == 0)
			return 1;
		t++;
		n *= v;
		if (n > UINT32_MAX)
			return 1;
	}
	return n;
}

/* Fit of one access at off of asz bytes (0 unknown), see the top. */
static double fit(const struct slt_struct *s, uint64_t off, uint32_t asz)
{
	long i = slt_join_member_at(s, off);
	if (i < 0)
		return 0;
	const struct slt_member *m = &s->members[i];
	uint64_t rel = off - m->offset;
	if ((m->flags & SLT_MEMBER_COMPOSITE) && !(m->flags & SLT_MEMBER_INLINE)) {
		uint32_t a = asz ? asz : 8;
		return rel == 0 ? 0.9 : rel % a == 0 ? 0.75 : 0.1;
	}
	/* A scalar, or one element of an array of scalars. */
	uint64_t n = slt_join_array_elems(m), unit = m->size;
	if (n > 1 && m->size % n == 0) {
		unit = m->size / n;
		rel %= unit;
	}
	if (asz && rel + asz > unit)
		return 0;
	if (rel == 0)
		return !asz || asz == unit ? 1 : 0.5;
	return 0.1;
}

static double score_at(const struct slt_struct *s, uint64_t base,
		       const struct slt_join_point *const *pts, size_t n)
{
	double num = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		den += 1;
		num += fit(s, pts[i]->key - base, pts[i]->access_size);
	}
	return den > 0 ? num / den : 0;
}

static int from_hints(const struct slt_struct *s,
		      const struct slt_join_opts *o, unsigned cl,
		      struct slt_access_profile *p, struct slt_error *err)
{
	uint64_t base = 0;
	for (size_t i = 0; i < o->n_hints; i++) {
		const struct slt_line_hint *h = &o->hints[i];
		uint64_t lines = slt_cachelines(s->size, cl);
		if (h->line >= lines)
			return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				"a line index counts from 0 to the struct's cachelines - 1",
				"--line 0x%" PRIx64 "=%" PRIu64 ": %s has %" PRIu64 " cache lines",
				h->addr, h->line, s->name, lines);
		uint64_t b = (h->addr & ~(uint64_t)(cl - 1)) - h->line * cl;
		if (i > 0 && b != base)
			return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				"give --line hints of one instance, or one --base",
				"--line hints disagree: 0x%" PRIx64 " vs 0x%" PRIx64 " as the instance start",
				base, b);
		base = b;
	}
	p->base = base;
	p->base_method = SLT_BASE_HINT;
	p->confidence = 1;
	snprintf(p->base_note, sizeof(p->base_note),
		 "base 0x%" PRIx64 " from %zu --line hint%s (instance taken to start on a %u-byte line boundary)",
		 base, o->n_hints, o->n_hints == 1 ? "" : "s", cl);
	return 0;
}

static int infer(const struct slt_struct *s, unsigned cl,
		 const struct slt_join_point *const *pts, size_t n,
		 struct slt_access_profile *p, struct slt_error *err)
{
	const char *hint = "give the instance start with --base ADDR, or say which line an address is on with --line ADDR=N";
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t end = pts[i]->key + (pts[i]->access_size ? pts[i]->access_size : 1);
		if (end < pts[i]->key)
			end = UINT64_MAX;            /* at the top of the space */
		if (pts[i]->key < lo)
			lo = pts[i]->key;
		if (end > hi)
			hi = end;
	}
	if (!s->size || hi - lo > s->size)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, hint,
			"cannot infer where %s starts: the sampled addresses 0x%" PRIx64 "..0x%" PRIx64
			" span %" PRIu64 " bytes, more than its %" PRIu64 " (several instances or other data)",
			s->name, lo, hi - 1, hi - lo, s->size);
	uint64_t align = s->alignment ? s->alignment : 1;
	uint64_t first = hi - s->size;          /* lowest base keeping hi inside */
	if (hi < s->size)
		first = 0;
	first = (first + align - 1) / align * align;
	if (first > lo)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, hint,
			"cannot infer where %s starts: no %" PRIu64 "-byte aligned placement holds all sampled addresses",
			s->name, align);
	uint64_t step = align;
	while ((lo - first) / step + 1 > SLT_INFER_MAX_CANDIDATES)
		step *= 2;
	double best = -1, second = -1;
	uint64_t best_base = 0, second_base = 0;
	size_t n_cand = 0;
	/* Scoring cost is candidates x points x members: both are capped
	 * (the first SLT_INFER_MAX_POINTS distinct addresses are scored). */
	size_t n_score = n < SLT_INFER_MAX_POINTS ? n : SLT_INFER_MAX_POINTS;
	for (uint64_t b = first; b <= lo; b += step) {
		double sc = score_at(s, b, pts, n_score);
		n_cand++;
		if (sc > best) {
			second = best;
			second_base = best_base;
			best = sc;
			best_base = b;
		} else if (sc > second) {
			second = sc;
			second_base = b;
		}
		if (lo - b < step)
			break;
	}
	if (best < SLT_INFER_MIN_SCORE)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, hint,
			"cannot infer where %s starts: the best of %zu placements (0x%" PRIx64
			") puts only %.0f%% of the accesses on plausible member offsets",
			s->name, n_cand, best_base, best * 100);
	double margin = second < 0 ? best : best - second;
	if (margin < SLT_INFER_MIN_MARGIN)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, hint,
			"cannot infer where %s starts: placements 0x%" PRIx64 " (fit %.0f%%) and 0x%" PRIx64
			" (fit %.0f%%) fit the accesses about equally well",
			s->name, best_base, best * 100, second_base, second * 100);
	p->base = best_base;
	p->base_method = SLT_BASE_INFERRED;
	p->confidence = margin;
	snprintf(p->base_note, sizeof(p->base_note),
		 "base 0x%" PRIx64 " inferred from %zu distinct addresses: fit %.0f%%, runner-up %.0f%% of %zu placements, confidence %.2f",
		 best_base, n, best * 100, second < 0 ? 0.0 : second * 100, n_cand, margin);
	return 0;
}

int slt_join_resolve_base(const struct slt_struct *s,
			  const struct slt_join_opts *opts, unsigned cl,
			  const struct slt_join_point *const *pts, size_t n,
			  struct slt_access_profile *p, struct slt_error *err)
{
	if (opts->has_base) {
		/* --line hints given with --base must agree with it: the line
		 * holding h->addr counts from the line holding the base. */
		for (size_t i = 0; i < opts->n_hints; i++) {
			const struct slt_line_hint *h = &opts->hints[i];
			if (h->addr / cl < opts->base / cl)
				return slt_error_set(err, SLT_EUSAGE, NULL, -1,
					"drop the --line hints or correct --base",
					"--line 0x%" PRIx64 "=%" PRIu64 " disagrees with --base 0x%" PRIx64
					": 0x%" PRIx64 " lies before that instance",
					h->addr, h->line, opts->base, h->addr);
			uint64_t l = h->addr / cl - opts->base / cl;
			if (l != h->line)
				return slt_error_set(err, SLT_EUSAGE, NULL, -1,
					"drop the --line hints or correct --base",
					"--line 0x%" PRIx64 "=%" PRIu64 " disagrees with --base 0x%" PRIx64
					": with that base 0x%" PRIx64 " is on line %" PRIu64,
					h->addr, h->line, opts->base, h->addr, l);
		}
		p->base = opts->base;
		p->base_method = SLT_BASE_EXPLICIT;
		p->confidence = 1;
		snprintf(p->base_note, sizeof(p->base_note),
			 "base 0x%" PRIx64 " given", opts->base);
		return 0;
	}
	if (opts->n_hints)
		return from_hints(s, opts, cl, p, err);
	if (opts->no_infer)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
			"give --base ADDR or --line ADDR=N, or allow inference",
			"the samples carry addresses and inference of where %s starts is turned off",
			s->name);
	return infer(s, cl, pts, n, p, err);
}
