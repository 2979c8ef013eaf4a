/* SPDX-License-Identifier: MIT */
/*
 * Byte owners of the cacheline heat map (heatmap.h): which member each
 * byte is drawn as, and the members that hold bytes of a line but are
 * drawn on none of them (a union's other arms, bitfields sharing bytes).
 *
 * The members drawn (drawn(): folded, the members the findings name; -E,
 * every member) may overlap in two ways.  A
 * member and its descendants: the deepest drawn member holding a byte is
 * its candidate there (its parent is drawn through it).  Members of
 * different branches (union arms, bitfields of one storage unit): each is
 * a candidate, and the byte shows the best of them: the hottest class
 * (slt_hm_rank()), then a member some finding names, then the higher
 * heat, then the first in pre-order.  So a hot later arm or a hot second
 * bitfield is never hidden behind a colder first one.
 *
 * Members are visited in reverse pre-order, so all descendants of i come
 * before i; cover[b] holds the smallest drawn index above i holding b,
 * which lies in i's subtree (i, end[i]) exactly when a drawn descendant of
 * i holds b.  Cost: the bytes of the drawn members, twice.
 */
#include <stdlib.h>
#include <string.h>

#include "report/heatmap.h"

/* draw[i]: member i of s is drawn.  Expanded: every member.  Folded: the
 * members the findings name, a top-level member or one inside a member
 * shown through its members: an anonymous struct or union (transparent),
 * or a named member of anonymous type with no class of its own whose
 * members have classes (`union { int small; long big[4]; } u` with
 * classes given to u.small and u.big: the findings name those). */
static int drawn(const struct slt_hm *m, bool *draw)
{
	const struct slt_struct *s = m->s;
	size_t n = s->n_members;
	if (m->a->layout->expanded) {
		for (size_t i = 0; i < n; i++)
			draw[i] = true;
		return 0;
	}
	bool *sub = calloc(n + 1, sizeof(*sub));   /* a descendant has a class */
	bool *thru = calloc(n + 1, sizeof(*thru)); /* shown through its members */
	if (!sub || !thru) {
		free(sub);
		free(thru);
		return SLT_ENOMEM;
	}
	for (size_t i = n; i-- > 0;) {
		int32_t p = s->members[i].parent;
		if (p >= 0 && (sub[i] || slt_hm_class(m, (long)i) != SLT_CLASS_NONE))
			sub[p] = true;
	}
	for (size_t i = 0; i < n; i++) {
		const struct slt_member *mb = &s->members[i];
		bool in = mb->parent < 0 || thru[mb->parent];
		thru[i] = in && mb->n_children &&
			  (!mb->name[0] || (sub[i] && slt_hm_class(m, (long)i) == SLT_CLASS_NONE));
		draw[i] = in && !thru[i];
	}
	free(sub);
	free(thru);
	return 0;
}

/* m->named: the analysed member behind i, or one of its descendants, is
 * a member of a finding of m->a. */
static int mark_named(struct slt_hm *m)
{
	const struct slt_struct *o = m->a->layout;
	bool *on = calloc(o->n_members + 1, sizeof(*on));
	bool *cite = calloc(o->n_members + 1, sizeof(*cite));
	m->named = calloc(m->s->n_members + 1, sizeof(*m->named));
	m->cited = calloc(m->s->n_members + 1, sizeof(*m->cited));
	if (!on || !cite || !m->named || !m->cited) {
		free(on);
		free(cite);
		return SLT_ENOMEM;
	}
	for (size_t f = 0; f < m->a->n_findings; f++) {
		const struct slt_finding *fd = &m->a->findings[f];
		for (size_t k = 0; k < fd->n_members; k++) {
			cite[fd->members[k]] = true;
			for (int32_t p = (int32_t)fd->members[k]; p >= 0 && !on[p];
			     p = o->members[p].parent)
				on[p] = true;
		}
	}
	for (size_t i = 0; i < m->s->n_members; i++) {
		m->named[i] = m->orig[i] >= 0 && on[m->orig[i]];
		m->cited[i] = m->orig[i] >= 0 && cite[m->orig[i]];
	}
	free(on);
	free(cite);
	return 0;
}

/* Candidate i is drawn on a byte rather than o. */
static bool better(const struct slt_hm *m, long i, long o)
{
	if (o < 0)
		return true;
	int ri = slt_hm_rank(m, i), ro = slt_hm_rank(m, o);
	if (ri != ro)
		return ri > ro;
	if (m->named[i] != m->named[o])
		return m->named[i];
	double hi = slt_hm_heat(m, i), ho = slt_hm_heat(m, o);
	if (hi != ho)
		return hi > ho;
	return i < o;
}

/* Collect the candidates that own no byte of a line they are candidates
 * on into m->hid / m->hid_at (by line, each line's in pre-order).  cand:
 * (member, line) pairs in reverse pre-order. */
static int hidden_lists(struct slt_hm *m, const long (*cand)[2], size_t n)
{
	size_t *cnt = calloc(m->n_lines + 1, sizeof(*cnt));
	long *keep = malloc((n + 1) * sizeof(*keep));
	m->hid_at = calloc(m->n_lines + 1, sizeof(*m->hid_at));
	m->hid = malloc((n + 1) * sizeof(*m->hid));
	if (!cnt || !keep || !m->hid_at || !m->hid) {
		free(cnt);
		free(keep);
		return SLT_ENOMEM;
	}
	const struct slt_struct *s = m->s;
	for (size_t x = 0; x < n; x++) {
		long i = cand[x][0];
		uint64_t k = (uint64_t)cand[x][1];
		uint64_t lo = k * m->cl, hi = lo + m->cl;
		uint64_t a = m->origin + s->members[i].offset;
		uint64_t b = a + s->members[i].size;
		if (b > m->origin + s->size)
			b = m->origin + s->size;
		bool own = false;
		for (uint64_t y = a > lo ? a : lo; y < b && y < hi && !own; y++)
			own = m->owner[y] == i;
		keep[x] = own ? -1 : i;
		if (!own)
			cnt[k]++;
	}
	for (uint64_t k = 0; k < m->n_lines; k++)
		m->hid_at[k + 1] = m->hid_at[k] + cnt[k];
	/* reverse pre-order in, pre-order out */
	memset(cnt, 0, (m->n_lines + 1) * sizeof(*cnt));
	for (size_t x = n; x-- > 0;) {
		if (keep[x] < 0)
			continue;
		uint64_t k = (uint64_t)cand[x][1];
		m->hid[m->hid_at[k] + cnt[k]++] = keep[x];
	}
	free(cnt);
	free(keep);
	return 0;
}

int slt_hm_owners(struct slt_hm *m)
{
	const struct slt_struct *s = m->s;
	size_t n = s->n_members, nb = m->n_lines * m->cl;
	if (mark_named(m))
		return SLT_ENOMEM;
	bool *draw = malloc((n + 1) * sizeof(*draw));
	size_t *end = malloc((n + 1) * sizeof(*end));
	long *cover = malloc((nb + 1) * sizeof(*cover));
	long (*cand)[2] = NULL;
	size_t n_cand = 0, cap = 0;
	int rc = draw && end && cover ? drawn(m, draw) : SLT_ENOMEM;
	for (size_t i = n; !rc && i-- > 0;) {
		end[i] = i + 1;
		while (end[i] < n && s->members[end[i]].depth > s->members[i].depth)
			end[i] = end[end[i]];
	}
	for (size_t b = 0; !rc && b < nb; b++)
		cover[b] = -1;
	for (size_t i = n; !rc && i-- > 0;) {
		const struct slt_member *mb = &s->members[i];
		if (!draw[i])
			continue;
		uint64_t lo = m->origin + mb->offset, hi = lo + mb->size;
		if (hi > m->origin + s->size)
			hi = m->origin + s->size;
		long last = -1;         /* the last line i is a candidate on */
		for (uint64_t b = lo; b < hi; b++) {
			long c = cover[b];
			cover[b] = (long)i;
			if (c > (long)i && c < (long)end[i]) {
				/* drawn through a descendant: a candidate
				 * still when a finding names it, so it is
				 * listed (hid) and the map names it */
				if (!m->cited[i])
					continue;
			} else if (better(m, (long)i, m->owner[b])) {
				m->owner[b] = (long)i;
			}
			if ((long)(b / m->cl) == last)
				continue;
			if (n_cand == cap) {
				cap = cap ? cap * 2 : 64;
				void *p = realloc(cand, cap * sizeof(*cand));
				if (!p) {
					rc = SLT_ENOMEM;
					break;
				}
				cand = p;
			}
			last = (long)(b / m->cl);
			cand[n_cand][0] = (long)i;
			cand[n_cand++][1] = last;
		}
	}
	/* a named zero-size member that ends a hole marks padding (the
	 * kernel's CACHELINE_PADDING(_pad1_), the advisor's inserted _padN_;
	 * not a flexible array, whose hole is the tail's alignment):
	 * it owns the hole, drawn as padding ('.') and named by it, as the
	 * text names it */
	for (size_t i = 0; !rc && i < n; i++) {
		const struct slt_member *mb = &s->members[i];
		if (!draw[i] || !(mb->flags & SLT_MEMBER_ZERO_SIZE) || !mb->name[0] ||
		    (mb->flags & SLT_MEMBER_FLEX))
			continue;
		for (uint64_t b = m->origin + mb->offset; b-- > 0 && b < nb &&
							m->owner[b] == HM_HOLE;)
			m->owner[b] = (long)i;
	}
	if (!rc)
		rc = hidden_lists(m, (const long (*)[2])cand, n_cand);
	free(draw);
	free(end);
	free(cover);
	free(cand);
	return rc;
}
