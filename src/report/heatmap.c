/* SPDX-License-Identifier: MIT */
/*
 * The cacheline heat map model (heatmap.h): byte owners per instance line,
 * and what the analysis says about them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"
#include "join/join_int.h"
#include "report/heatmap.h"

/* Matching keys of the members of s: a named member's path (anonymous
 * levels left out, so a member the advisor wraps in an anonymous struct
 * keeps it); an anonymous member's depth and the path of its first named
 * descendant, so an inserted wrapper is matched by nothing.  NULL when out
 * of memory. */
static char **paths_of(const struct slt_struct *s)
{
	char **p = calloc(s->n_members + 1, sizeof(*p));
	for (size_t i = 0; p && i < s->n_members; i++) {
		char buf[512], key[600];
		const char *path = slt_member_path(s, i, buf, sizeof(buf));
		if (path[0]) {
			snprintf(key, sizeof(key), "%s", path);
		} else {
			size_t d = i + 1;
			while (d < s->n_members && s->members[d].depth > s->members[i].depth &&
			       !s->members[d].name[0])
				d++;
			bool in = d < s->n_members && s->members[d].depth > s->members[i].depth;
			snprintf(key, sizeof(key), "#%u:%s", s->members[i].depth,
				 in ? slt_member_path(s, d, buf, sizeof(buf)) : "");
		}
		p[i] = strdup(key);
		if (!p[i]) {
			for (size_t k = 0; k < i; k++)
				free(p[k]);
			free(p);
			return NULL;
		}
	}
	return p;
}

static void paths_free(char **p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		free(p[i]);
	free(p);
}

static bool same_key(const struct slt_struct *s, char **sp, size_t i,
		     const struct slt_struct *o, char **op, size_t j)
{
	return s->members[i].size == o->members[j].size && !strcmp(sp[i], op[j]);
}

/* m->orig: member i of a proposal is the n-th member of the original with
 * its key (paths_of(), size) when it is the n-th of the proposal with it
 * (the advisor keeps every member's name, type, size and depth:
 * slt_adv_check_proposal()). */
static int map_members(struct slt_hm *m)
{
	const struct slt_struct *s = m->s, *o = m->a->layout;
	if (s == o) {
		for (size_t i = 0; i < s->n_members; i++)
			m->orig[i] = (long)i;
		return 0;
	}
	char **sp = paths_of(s), **op = paths_of(o);
	if (!sp || !op) {
		paths_free(sp, s->n_members);
		paths_free(op, o->n_members);
		return SLT_ENOMEM;
	}
	for (size_t i = 0; i < s->n_members; i++) {
		size_t nth = 0;
		for (size_t k = 0; k < i; k++)
			nth += same_key(s, sp, k, s, sp, i);
		m->orig[i] = -1;
		for (size_t j = 0; j < o->n_members; j++)
			if (same_key(s, sp, i, o, op, j) && nth-- == 0) {
				m->orig[i] = (long)j;
				break;
			}
	}
	paths_free(sp, s->n_members);
	paths_free(op, o->n_members);
	return 0;
}

int slt_hm_build(struct slt_hm *m, const struct slt_analysis *a,
		 const struct slt_struct *s, struct slt_error *err)
{
	memset(m, 0, sizeof(*m));
	m->a = a;
	m->s = s;
	m->cl = a->cacheline_size ? a->cacheline_size : SLT_CACHELINE_DEFAULT;
	m->origin = a->line_origin % m->cl;
	m->fa = s == a->layout ? a : NULL;
	if (s->size > HM_MAX_BYTES)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "use the text or JSON report for it",
				     "%s is %llu bytes: too large to draw (at most %u)",
				     s->name, (unsigned long long)s->size, HM_MAX_BYTES);
	uint64_t end = m->origin + s->size;
	m->n_lines = end ? (end + m->cl - 1) / m->cl : 1;
	m->owner = malloc(m->n_lines * m->cl * sizeof(*m->owner));
	m->orig = calloc(s->n_members + 1, sizeof(*m->orig));
	if (!m->owner || !m->orig || map_members(m)) {
		slt_hm_free(m);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	size_t n = m->n_lines * m->cl;
	for (size_t b = 0; b < n; b++)
		m->owner[b] = b < m->origin || b >= end ? HM_OUTSIDE : HM_HOLE;
	if (slt_hm_owners(m) || slt_hm_labels(m)) {
		slt_hm_free(m);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	return 0;
}

/* Finding f of analysis x and finding g of y name the same members (by
 * path) with the same kind. */
static bool same_finding(const struct slt_analysis *x, const struct slt_finding *f,
			 const struct slt_analysis *y, const struct slt_finding *g)
{
	if (f->kind != g->kind || f->n_members != g->n_members)
		return false;
	for (size_t i = 0; i < f->n_members; i++) {
		char p[512], q[512];
		bool found = false;
		slt_member_path(x->layout, f->members[i], p, sizeof(p));
		for (size_t j = 0; j < g->n_members && !found; j++)
			found = !strcmp(p, slt_member_path(y->layout, g->members[j], q, sizeof(q)));
		if (!found)
			return false;
	}
	return true;
}

int slt_hm_set_findings(struct slt_hm *m, const struct slt_analysis *fa,
			size_t *next)
{
	free(m->fnum);
	m->fnum = NULL;
	m->fa = fa;
	if (!fa || !fa->n_findings)
		return 0;
	m->fnum = calloc(fa->n_findings, sizeof(*m->fnum));
	if (!m->fnum)
		return SLT_ENOMEM;
	for (size_t i = 0; i < fa->n_findings; i++) {
		for (size_t j = 0; j < m->a->n_findings && !m->fnum[i]; j++)
			if (same_finding(fa, &fa->findings[i], m->a, &m->a->findings[j]))
				m->fnum[i] = j + 1;
		if (!m->fnum[i])
			m->fnum[i] = ++*next;
	}
	return 0;
}

void slt_hm_free(struct slt_hm *m)
{
	if (m->s)
		slt_hm_labels_free(m);
	free(m->owner);
	free(m->orig);
	free(m->fnum);
	free(m->named);
	free(m->cited);
	free(m->hid);
	free(m->hid_at);
	m->named = NULL;
	m->hid = NULL;
	m->hid_at = NULL;
	m->owner = NULL;
	m->orig = NULL;
	m->fnum = NULL;
}

/* A zero-size member (the kernel's CACHELINE_PADDING, suggest's _padN_, a
 * flexible array) has no bytes to load or store: the map gives it no class,
 * whatever class record report keeps for it. */
const struct slt_member_class *slt_hm_mclass(const struct slt_hm *m, long i)
{
	if (i < 0 || m->orig[i] < 0 || (m->s->members[i].flags & SLT_MEMBER_ZERO_SIZE))
		return NULL;
	return &m->a->classes[m->orig[i]];
}

enum slt_class slt_hm_class(const struct slt_hm *m, long i)
{
	const struct slt_member_class *c = slt_hm_mclass(m, i);
	return c ? c->cls : SLT_CLASS_NONE;
}

double slt_hm_heat(const struct slt_hm *m, long i)
{
	const struct slt_member_class *c = slt_hm_mclass(m, i);
	return c ? c->heat : 0;
}

const struct slt_member_access *slt_hm_access(const struct slt_hm *m, long i)
{
	const struct slt_access_profile *p = m->a->profile;
	if (i < 0 || m->orig[i] < 0 || !p || !p->members)
		return NULL;
	return &p->members[m->orig[i]];
}

int slt_hm_rank(const struct slt_hm *m, long owner)
{
	if (owner == HM_OUTSIDE)
		return 0;
	if (owner == HM_HOLE || slt_hm_mclass(m, owner) == NULL)
		return 1;
	switch (slt_hm_class(m, owner)) {
	case SLT_CLASS_TRUE_SHARED: return 7;
	case SLT_CLASS_HOT_WRITE: return 6;
	case SLT_CLASS_MIXED: return 5;
	case SLT_CLASS_READ_MOSTLY: return 4;
	case SLT_CLASS_COLD: return 3;
	default: return 2;
	}
}

long slt_hm_cell(const struct slt_hm *m, uint64_t k, unsigned b, unsigned n)
{
	long best = slt_hm_owner(m, k, b);
	int rank = slt_hm_rank(m, best);
	for (unsigned i = 1; i < n && b + i < m->cl; i++) {
		long o = slt_hm_owner(m, k, b + i);
		int r = slt_hm_rank(m, o);
		if (r > rank) {
			best = o;
			rank = r;
		}
	}
	return best;
}

bool slt_hm_finding_on(const struct slt_finding *f, uint64_t k)
{
	return f->line == k ||
	       ((f->kind == SLT_FIND_STRADDLE || f->kind == SLT_FIND_ADJACENT) &&
		f->line2 == k);
}

long slt_hm_whole_line(const struct slt_hm *m, uint64_t k)
{
	long o = slt_hm_owner(m, k, 0);
	if (o < 0)
		return HM_OUTSIDE;
	for (unsigned b = 1; b < m->cl; b++)
		if (slt_hm_owner(m, k, b) != o)
			return HM_OUTSIDE;
	for (size_t i = 0; m->fa && i < m->fa->n_findings; i++)
		if (slt_hm_finding_on(&m->fa->findings[i], k))
			return HM_OUTSIDE;
	return o;
}

int slt_hm_line_heat(const struct slt_hm *m, uint64_t k)
{
	if (!m->a->profile || !m->a->profile->members)
		return -1;
	int best = 0;
	for (unsigned b = 0; b < m->cl; b++) {
		long o = slt_hm_owner(m, k, b);
		const struct slt_member_access *acc = slt_hm_access(m, o);
		if (!acc)
			continue;
		/* as the annotated text's heat mark (annotate.c) */
		int h = (int)(slt_hm_heat(m, o) * 5 + 0.5);
		if (acc->loads + acc->stores && h == 0)
			h = 1;
		if (h > best)
			best = h > 5 ? 5 : h;
	}
	return best;
}

char slt_hm_letter(const struct slt_hm *m, long owner)
{
	if (owner == HM_OUTSIDE)
		return ' ';
	if (owner == HM_HOLE || !slt_hm_mclass(m, owner))
		return '.';
	switch (slt_hm_class(m, owner)) {
	case SLT_CLASS_TRUE_SHARED: return 'T';
	case SLT_CLASS_HOT_WRITE: return 'W';
	case SLT_CLASS_MIXED: return 'M';
	case SLT_CLASS_READ_MOSTLY: return 'R';
	case SLT_CLASS_COLD: return 'c';
	default: return '?';
	}
}

const char *slt_hm_name(const struct slt_hm *m, long i)
{
	const char *n = i >= 0 ? m->s->members[i].name : NULL;
	return n && n[0] ? n : "(anonymous)";
}

const char *slt_hm_given_source(const struct slt_hm *m)
{
	for (size_t i = 0; i < m->a->layout->n_members; i++)
		if (m->a->classes[i].given)
			return m->given_word ? m->given_word : "given";
	return NULL;
}

double slt_hm_score(const struct slt_analysis *a, const struct slt_advice *adv)
{
	if (adv && adv->n_proposals)
		return adv->proposals[0].score_before;
	double score = 0;
	for (size_t i = 0; i < a->n_findings; i++)
		if (a->findings[i].kind == SLT_FIND_COLLISION ||
		    a->findings[i].kind == SLT_FIND_WRITE_WRITE)
			score += a->findings[i].score;
	return score;
}

int slt_hm_slab(const struct slt_analysis *a, unsigned nr_cpus,
		struct slt_slab_cost *c, bool *hw)
{
	const struct slt_struct *s = a->layout;
	struct slt_advice_opts so = { .nr_cpus = nr_cpus };
	unsigned line = a->cacheline_size ? a->cacheline_size : SLT_CACHELINE_DEFAULT;
	uint32_t ca = slt_slab_cache_align(s->size, s->alignment, line,
					   a->n_bases > 1 ? line / (unsigned)a->n_bases : 0, hw);
	return slt_slab_cost(s->size, ca, &so, c);
}
