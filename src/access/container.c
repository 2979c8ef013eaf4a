/* SPDX-License-Identifier: MIT */
/*
 * container_of for the per-function pass (track.c): a register that points
 * to an object of type T (its DWARF variable is a T *, or the tracked state
 * says so), accessed at an offset o outside T (a negative displacement, or
 * past T's end), points into a bigger object that embeds T: the
 * container_of() / list_entry() / rb_entry() of the source, whose result
 * variable (`pos`, `acpi_dev`, `pn`) DWARF usually declares without a
 * location, or with a location list that does not cover the PC.  perf's
 * data-type profiling counts these as bad_offset
 * (tools/perf/util/annotate-data.c, check_variable()).
 *
 * The rule: the containers are the structs that the pointer variables
 * declared in the scopes around the PC point to (AV_SCOPE records, located
 * or not, scope.c).  For each such struct S (other than T) every offset k
 * at which an object of type T lies in S (members and nested members; an
 * array of one element entered) is a candidate when 0 <= k + o < sizeof(S).
 * Exactly one candidate (S, k) resolves the access to S at k + o; none, or
 * more than one (S embeds T twice, in an array of several elements, or two
 * containers fit), leaves it bad-offset: nothing is guessed.
 */
#include <string.h>

#include "access/track_int.h"

/* Offsets at which T lies in one container; more than this many is
 * ambiguous anyway. */
#define EMBED_MAX 8
#define EMBED_DEPTH 8

/* (access_int.h) */
bool slt_acc_same_type(const struct slt_type *a, const struct slt_type *b)
{
	if (a == b)
		return true;
	return a->kind == b->kind && a->size == b->size && a->name &&
	       b->name && a->name[0] && !strcmp(a->name, b->name);
}

struct embeds {
	int64_t k[EMBED_MAX];
	int n;
	bool many;   /* in an array of several elements, or over EMBED_MAX */
};

static void embeds_of(struct dw *d, const struct slt_type *t,
		      const struct slt_type *inner, int64_t base, int depth,
		      struct embeds *h)
{
	if (depth > EMBED_DEPTH || h->many || !(t = slt_dw_strip(t)))
		return;
	if (t->kind == SLT_T_ARRAY) {
		const struct slt_type *el = slt_dw_strip(t->ref);
		if (!el || !el->size)
			return;
		if (t->nelems == 1 && !(t->flags & SLT_TF_FLEX)) {
			embeds_of(d, el, inner, base, depth + 1, h);
			return;
		}
		struct embeds sub = {0};
		embeds_of(d, el, inner, 0, depth + 1, &sub);
		if (sub.n || sub.many)  /* which element: unknown */
			h->many = true;
		return;
	}
	if (t->kind != SLT_T_STRUCT && t->kind != SLT_T_UNION)
		return;
	if (depth && slt_acc_same_type(t, inner)) {
		if (h->n == EMBED_MAX)
			h->many = true;
		else
			h->k[h->n++] = base;
		return;
	}
	if (t->flags & SLT_TF_SHALLOW) {
		t = slt_dw_tr(d, t->origin, true);
		if (!t) {
			d->rc = 0;
			return;
		}
		if (!(t = slt_dw_strip(t)) || (t->flags & SLT_TF_SHALLOW))
			return;
	}
	for (uint32_t i = 0; i < t->n_members && !h->many; i++) {
		const struct slt_tmember *m = &t->members[i];
		if (!m->bit_size)
			embeds_of(d, m->type, inner, base + (int64_t)(m->bit_offset / 8),
				  depth + 1, h);
	}
}

int acc_container(struct tctx *t, const struct slt_type *inner, int64_t o,
		  uint64_t pc, struct resolved *out, int64_t *at)
{
	struct dw *d = t->env->d;
	const struct afunc *f = t->f;
	const struct slt_type *best = NULL;
	int64_t bk = 0;
	uint64_t last = 0;
	for (size_t i = 0; i < f->n_vars; i++) {
		const struct avar *v = &f->vars[i];
		if (v->how != AV_SCOPE || pc < v->lo || pc >= v->hi ||
		    v->type_die == last)
			continue;
		last = v->type_die;
		const struct slt_type *s;
		if (slt_acc_pointee(d, v->type_die, &s) || slt_acc_same_type(s, inner) ||
		    s->size <= inner->size)
			continue;
		struct embeds h = {0};
		embeds_of(d, s, inner, 0, 0, &h);
		if (h.many)
			return SLT_AR_BAD_OFFSET;
		for (int j = 0; j < h.n; j++) {
			if (h.k[j] + o < 0 || (uint64_t)(h.k[j] + o) >= s->size)
				continue;
			if (best && (!slt_acc_same_type(best, s) || bk != h.k[j]))
				return SLT_AR_BAD_OFFSET;  /* two fit */
			best = s;
			bk = h.k[j];
		}
	}
	if (!best)
		return SLT_AR_BAD_OFFSET;
	*out = (struct resolved){.st = best, .off = bk + o, .via = SLT_VIA_TRACKED};
	*at = bk;
	return 0;
}
