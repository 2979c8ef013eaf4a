/* SPDX-License-Identifier: MIT */
/*
 * The advisor's safety net (advice_int.h):
 *   slt_adv_suspect()         a layout whose sizes disagree with its
 *                             offsets is not advised on;
 *   slt_adv_check_proposal()  a proposal keeps every member's name, type,
 *                             size and nesting, or is not emitted.
 * Both exist because a layout read wrongly (issue 10: an array bound read
 * as -1 gave `char b256[0]` followed by a 256-byte hole) would otherwise be
 * "optimised" into a declaration that corrupts memory when applied.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

/* The member after i at its level, or -1: the next entry with the same
 * parent (pre-order: i's own subtree comes first). */
static long next_sibling(const struct slt_struct *s, size_t i)
{
	for (size_t k = i + 1; k < s->n_members; k++) {
		if (s->members[k].parent == s->members[i].parent)
			return (long)k;
		if (s->members[k].depth < s->members[i].depth)
			return -1;
	}
	return -1;
}

static uint64_t align_of(const struct slt_member *m)
{
	uint64_t a = m->natural_alignment;
	if (m->alignment > a)
		a = m->alignment;
	if (m->type_alignment > a)
		a = m->type_alignment;
	return a ? a : 1;
}

const char *slt_adv_suspect(const struct slt_struct *s, struct slt_arena *ar)
{
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		const struct slt_member *p = m->parent >= 0 ?
			&s->members[m->parent] : NULL;
		if (!(m->flags & SLT_MEMBER_ZERO_SIZE) ||
		    (m->flags & (SLT_MEMBER_FLEX | SLT_MEMBER_BITFIELD)) ||
		    (p ? (p->flags & SLT_MEMBER_UNION) != 0 :
			 s->kind == SLT_KIND_UNION))
			continue;
		long k = next_sibling(s, i);
		uint64_t end, gap, a;
		const char *what;
		if (k >= 0) {
			const struct slt_member *n = &s->members[k];
			if (n->flags & SLT_MEMBER_BITFIELD)
				continue;
			end = n->offset;
			a = align_of(n);
			what = n->name[0] ? n->name : "(anonymous)";
		} else if (!p) { /* the last top-level member: tail padding */
			end = s->size;
			a = s->alignment ? s->alignment : 1;
			what = "the end of the struct";
		} else {
			continue;
		}
		/* alignment explains a gap of up to a - 1 bytes */
		if (end <= m->offset || end - m->offset < a)
			continue;
		gap = end - m->offset;
		return slt_arena_printf(ar,
			"suspect layout, not optimised: member %s (%s) at offset "
			"%" PRIu64 " has size 0 but %" PRIu64 " bytes lie between it "
			"and %s, more than alignment explains; the debug info may "
			"have been misread (check it with pahole) or is wrong",
			m->name[0] ? m->name : "(anonymous)", m->type, m->offset,
			gap, what);
	}
	return NULL;
}

/* A padding member the proposal inserted (an original CACHELINE_PADDING
 * member has the same type name and must be kept). */
static bool is_pad(const struct slt_member *m)
{
	return (m->flags & SLT_MEMBER_ZERO_SIZE) && m->type == slt_adv_pad_type;
}

/* Members of s as comparable keys (name, type, size, depth; inserted
 * padding members left out), sorted. */
struct key {
	const char *name, *type;
	uint64_t size;
	uint32_t depth;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (!c)
		c = strcmp(x->type, y->type);
	if (!c)
		c = x->size < y->size ? -1 : x->size > y->size;
	if (!c)
		c = x->depth < y->depth ? -1 : x->depth > y->depth;
	return c;
}

static struct key *keys(const struct slt_struct *s, bool skip_pads,
			size_t *n)
{
	struct key *k = calloc(s->n_members ? s->n_members : 1, sizeof(*k));
	*n = 0;
	if (!k)
		return NULL;
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (skip_pads && (is_pad(m) || m->type == slt_adv_wrap_type))
			continue;
		/* an ISOLATE proposal's wrapper adds a level */
		uint32_t d = m->depth;
		for (int32_t q = skip_pads ? m->parent : -1; q >= 0; q = s->members[q].parent)
			d -= s->members[q].type == slt_adv_wrap_type;
		/* an anonymous struct opened by the advisor (units.c) may
		 * change size; its members are compared one by one */
		bool anon = !m->name[0] && (m->flags & SLT_MEMBER_INLINE) &&
			    !(m->flags & SLT_MEMBER_UNION);
		k[(*n)++] = (struct key){ m->name, m->type, anon ? 0 : m->size, d };
	}
	qsort(k, *n, sizeof(*k), key_cmp);
	return k;
}

int slt_adv_check_proposal(const struct slt_struct *orig,
			   const struct slt_struct *l, const char *kind,
			   struct slt_error *err)
{
	size_t na, nb;
	struct key *a = keys(orig, false, &na), *b = keys(l, true, &nb);
	int rc = 0;
	if (!a || !b) {
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL,
				   "out of memory");
		goto out;
	}
	for (size_t i = 0; i < na || i < nb; i++) {
		const struct key *x = i < na ? &a[i] : NULL;
		const struct key *y = i < nb ? &b[i] : NULL;
		if (x && y && !key_cmp(x, y))
			continue;
		const struct key *w = x ? x : y;
		rc = slt_error_set(err, SLT_EUNSUPPORTED, NULL, -1,
			"this is a structlint bug: please report it with the "
			"command line",
			"internal error: the %s proposal for %s does not keep "
			"member %s (%s, %" PRIu64 " bytes, depth %" PRIu32 ") as "
			"it is; no proposal emitted", kind, orig->name,
			w->name[0] ? w->name : "(anonymous)", w->type, w->size,
			w->depth);
		break;
	}
out:
	free(a);
	free(b);
	return rc;
}
