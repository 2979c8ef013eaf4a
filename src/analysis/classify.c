/* SPDX-License-Identifier: MIT */
/* Member access classes: the rules are at the top of
 * include/structlint/analysis.h; and the check of a classes file's member
 * names against a struct (slt_classes_check). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"
#include "common/arena.h"
#include "common/strdist.h"
#include "join/join_int.h"

void slt_classify_opts_default(struct slt_classify_opts *o)
{
	o->hot_write_ratio = 0.3;
	o->read_mostly_ratio = 0.05;
	o->min_share = 0.01;
	o->true_share_cpus = 2;
}

uint64_t slt_member_accesses(const struct slt_access_profile *p, size_t i)
{
	if (!p || !p->members)
		return 0;
	return p->members[i].loads + p->members[i].stores;
}

/* same: the most CPUs that stored to one element of the member (an array
 * whose stores are all placed element by element), UINT_MAX when unknown:
 * CPUs that store to different elements do not contend on the same bytes
 * (false sharing between the elements, findings.c), so the member is
 * true-shared only when some element is stored to by true_share_cpus. */
static enum slt_class measured(const struct slt_member_access *m,
				      uint64_t total,
				      const struct slt_classify_opts *o,
				      unsigned same, unsigned *writers)
{
	uint64_t acc = m->loads + m->stores;
	*writers = 0;
	for (size_t c = 0; c < m->n_cpus; c++)
		*writers += m->cpus[c].stores > 0;
	if (!acc || (double)acc < o->min_share * (double)total)
		return SLT_CLASS_COLD;
	double w = (double)m->stores / (double)acc;
	if (w <= o->read_mostly_ratio)
		return SLT_CLASS_READ_MOSTLY;
	if (*writers >= o->true_share_cpus && (same == UINT_MAX || same >= o->true_share_cpus))
		return SLT_CLASS_TRUE_SHARED;
	return w >= o->hot_write_ratio ? SLT_CLASS_HOT_WRITE : SLT_CLASS_MIXED;
}

/* The most CPUs storing to one of cell's elements, into *w (kept when
 * higher); UINT_MAX when its stores are not all placed element by
 * element. */
static void most_writers(const struct slt_line_access *cell, unsigned *w)
{
	if (!cell->stores)
		return;
	if (!cell->n_elems || cell->unplaced_stores)
		*w = UINT_MAX;
	for (size_t e = 0; *w != UINT_MAX && e < cell->n_elems; e++) {
		unsigned n = 0;
		for (size_t k = 0; k < cell->elems[e].n_cpus; k++)
			n += cell->elems[e].cpus[k].stores > 0;
		if (n > *w)
			*w = n;
	}
}

/* Per member: the most CPUs storing to one of its elements on any line
 * (see measured()), UINT_MAX for members whose stores are not all placed
 * element by element (no array, or samples without offsets); an array
 * unit's from its members' cells merged (with --expand its leaves').  One
 * pass over the cells.  NULL when out of memory (every member then
 * unknown). */
static unsigned *element_writers(const struct slt_struct *s,
				 const struct slt_access_profile *p)
{
	unsigned *v = malloc((s->n_members + 1) * sizeof(*v));
	struct slt_arena *ar = slt_arena_new();
	int rc = !v || !ar ? SLT_ENOMEM : 0;
	for (size_t i = 0; !rc && i < s->n_members; i++)
		v[i] = 0;
	for (size_t c = 0; !rc && p && c < p->n_cells; c++) {
		const struct slt_line_access *cell = &p->cells[c];
		if (cell->member >= s->n_members)
			continue;
		size_t u = slt_member_unit(s, cell->member);
		if (!slt_fd_array_unit(s, u)) {
			most_writers(cell, &v[cell->member]);
			continue;
		}
		struct slt_line_access merged;
		size_t at = c;
		for (; c < p->n_cells && p->cells[c].line == cell->line &&
		       p->cells[c].member < s->n_members &&
		       slt_member_unit(s, p->cells[c].member) == u; c++)
			most_writers(&p->cells[c], &v[p->cells[c].member]);
		if (!slt_fd_next_cell(ar, s, p, u, &at, &merged, &rc))
			break;
		if (v[u] != UINT_MAX)
			most_writers(&merged, &v[u]);
		c--;
	}
	slt_arena_free(ar);
	if (rc) {
		free(v);
		return NULL;
	}
	/* stores never placed on a cell: unknown */
	for (size_t i = 0; i < s->n_members; i++)
		if (p && p->members && !v[i] && p->members[i].stores)
			v[i] = UINT_MAX;
	return v;
}

void slt_classify_members(const struct slt_struct *s,
			  const struct slt_access_profile *p,
			  const enum slt_class *given,
			  const char *const *given_label,
			  const struct slt_classify_opts *o,
			  struct slt_member_class *out)
{
	uint64_t total = 0, busiest = 0;
	for (size_t i = 0; i < s->n_members; i++) {
		uint64_t acc = slt_member_accesses(p, i);
		if (s->members[i].depth == 0)
			total += acc;
		if (!s->members[i].n_children && acc > busiest)
			busiest = acc;
	}
	unsigned *same = p && p->members ? element_writers(s, p) : NULL;
	for (size_t i = 0; i < s->n_members; i++) {
		struct slt_member_class *mc = &out[i];
		memset(mc, 0, sizeof(*mc));
		enum slt_class g = SLT_CLASS_NONE;
		const char *label = NULL;
		size_t at = i;
		/* Own class, else the nearest ancestor's (pre-order: parents
		 * are done first). */
		if (given && given[i] != SLT_CLASS_NONE) {
			g = given[i];
			label = given_label ? given_label[i] : NULL;
		} else if (s->members[i].parent >= 0 && out[s->members[i].parent].given) {
			g = out[s->members[i].parent].cls;
			label = out[s->members[i].parent].label;
			at = out[s->members[i].parent].given_at;
		}
		if (p && p->members) {
			/* a nameless struct or union holding members is no
			 * member with accesses of its own: its counts are its
			 * members' summed (a writer of one and readers of
			 * another would make it "true-shared"), and its
			 * members are classed and paired one by one, as the
			 * findings pair them (anonymous levels are
			 * transparent) */
			enum slt_class m = slt_member_transparent(&s->members[i]) ?
					   SLT_CLASS_NONE :
					   measured(&p->members[i], total, o,
						    same ? same[i] : UINT_MAX, &mc->writers);
			mc->cls = mc->measured = m;
			mc->heat = busiest ? (double)slt_member_accesses(p, i) / (double)busiest : 0;
			if (mc->heat > 1)
				mc->heat = 1;
		}
		if (g != SLT_CLASS_NONE) {
			mc->cls = g;
			mc->given = true;
			mc->label = label;
			mc->given_at = at;
		}
	}
	free(same);
}

/* Does path (indices stripped) name a member of s (1), or lie inside a
 * member shown folded (2: its members exist in the type, -E shows them)? */
static int path_kind(const struct slt_struct *s, const char *path)
{
	char have[512];
	size_t len = strlen(path);
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (!m->name[0])
			continue;
		slt_member_path(s, i, have, sizeof(have));
		size_t hl = strlen(have);
		if (!strcmp(have, path))
			return 1;
		if ((m->flags & SLT_MEMBER_COMPOSITE) && !(m->flags & SLT_MEMBER_INLINE) &&
		    hl < len && !strncmp(have, path, hl) && path[hl] == '.')
			return 2;
	}
	return 0;
}

/* A path that names a member of s (not one inside a member shown folded:
 * slt_layout_unfold() shows such a member inline when the path names a
 * member there, so one left inside names none). */
static bool known_path(const struct slt_struct *s, const char *path)
{
	return path_kind(s, path) == 1;
}

bool slt_path_folded(const struct slt_struct *s, const char *path)
{
	return s && path && path_kind(s, path) == 2;
}

const struct slt_class_entry *slt_classes_folded(const struct slt_classes *cl,
						 const struct slt_struct *s)
{
	for (size_t e = 0; cl && s && s->name && e < cl->n; e++) {
		const struct slt_class_entry *en = &cl->entries[e];
		if (en->struct_name && en->member && !strcmp(en->struct_name, s->name) &&
		    slt_path_folded(s, en->member))
			return en;
	}
	return NULL;
}

int slt_layout_unfold(struct slt_layout **l, const char *file, const char *const *names,
		      size_t n_names, struct slt_load_opts *lo, const struct slt_classes *cl,
		      const char *const *paths, size_t n_paths,
		      const struct slt_class_entry **why, struct slt_layout **spelled,
		      struct slt_error *err)
{
	if (why)
		*why = NULL;
	if (spelled)
		*spelled = NULL;
	if (!*l || lo->expand)
		return 0;
	bool need = false;
	for (size_t i = 0; i < (*l)->n_structs && !need; i++) {
		const struct slt_struct *s = &(*l)->structs[i];
		need = slt_classes_folded(cl, s) != NULL;
		for (size_t k = 0; k < n_paths && !need; k++)
			need = slt_path_folded(s, paths[k]);
	}
	if (!need)
		return 0;
	struct slt_load_opts eo = *lo;
	struct slt_layout *x = NULL;
	eo.expand = true;
	int rc = slt_layout_load(file, names, n_names, &eo, &x, err);
	if (rc)
		return rc;
	/* shown inline only for a path that names a member there: a
	 * misspelled one ("q.lcok") keeps the layout, and the classes
	 * check says "did you mean" */
	bool named = false;
	for (size_t i = 0; i < (*l)->n_structs && i < x->n_structs && !named; i++) {
		const struct slt_struct *s = &(*l)->structs[i], *t = &x->structs[i];
		for (size_t e = 0; cl && s->name && e < cl->n && !named; e++) {
			const struct slt_class_entry *en = &cl->entries[e];
			named = en->struct_name && en->member && !strcmp(en->struct_name, s->name) &&
				slt_path_folded(s, en->member) && path_kind(t, en->member) == 1;
			if (named && why)
				*why = en;
		}
		for (size_t k = 0; k < n_paths && !named; k++)
			named = slt_path_folded(s, paths[k]) && path_kind(t, paths[k]) == 1;
	}
	if (!named) {
		if (spelled)
			*spelled = x;
		else
			slt_layout_free(x);
		return 0;
	}
	lo->expand = true;
	slt_layout_free(*l);
	*l = x;
	return 0;
}

int slt_classes_check(const struct slt_classes *cl, const struct slt_struct *s,
		      slt_unknown_member_cb cb, void *ctx)
{
	int n = 0;
	for (size_t e = 0; cl && s && s->name && e < cl->n; e++) {
		const struct slt_class_entry *en = &cl->entries[e];
		if (!en->struct_name || !en->member || strcmp(en->struct_name, s->name) ||
		    known_path(s, en->member))
			continue;
		char *best;
		if (slt_member_closest(s, en->member, &best))
			return SLT_ENOMEM;
		cb(ctx, en, best);
		free(best);
		n++;
	}
	return n;
}

int32_t slt_member_sole_writer(const struct slt_analysis *a, size_t i)
{
	const struct slt_member_class *c = &a->classes[i];
	if (!a->profile || !a->profile->members || c->given || c->writers != 1 ||
	    (c->cls != SLT_CLASS_HOT_WRITE && c->cls != SLT_CLASS_MIXED))
		return -1;
	const struct slt_member_access *m = &a->profile->members[i];
	for (size_t k = 0; k < m->n_cpus; k++)
		if (m->cpus[k].stores)
			return m->cpus[k].cpu;
	return -1;
}
