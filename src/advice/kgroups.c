/* SPDX-License-Identifier: MIT */
/*
 * The kernel's cacheline groups in the advisor (include/linux/cache.h,
 * v6.8+: members between __cacheline_group_begin__NAME and
 * __cacheline_group_end__NAME, checked by CACHELINE_ASSERT_GROUP_MEMBER):
 * which group each unit is in; under move_anchors the markers are fences
 * (SLT_ADV_FENCE) so every member stays in its group; the segments a
 * unit may sit in (slt_adv_seg_ok()); and the moves of a proposal from
 * one group into another, which the proposal states.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

/* us->groups: the kernel's cacheline groups of the units' level; each
 * unit's kgroup; with move_anchors, the groups' markers become fences. */
int slt_adv_kernel_groups(struct slt_adv_units *us, bool move_anchors)
{
	const struct slt_struct *s = us->orig;
	struct slt_cl_group *g = NULL;
	size_t n = 0;

	if (slt_groups_find(s, &g, &n, NULL))
		return SLT_ENOMEM;
	us->groups = slt_arena_calloc(us->ar, n ? n : 1, sizeof(*us->groups));
	if (!us->groups) {
		free(g);
		return SLT_ENOMEM;
	}
	for (size_t k = 0; k < n; k++)
		if (s->members[g[k].begin].parent == us->level)
			us->groups[us->n_groups++] = g[k];
	free(g);
	for (size_t u = 0; u < us->n; u++) {
		struct slt_adv_unit *x = &us->u[u];
		size_t i = x->top[0];
		x->kgroup = -1;
		for (size_t k = 0; k < us->n_groups && x->kgroup < 0; k++) {
			const struct slt_cl_group *gk = &us->groups[k];
			if (i == gk->begin || i == gk->end) {
				x->kgroup = (int32_t)k;
				if (move_anchors)
					x->flags |= SLT_ADV_ANCHORED | SLT_ADV_FENCE;
			} else if (slt_group_has(s, gk, i)) {
				x->kgroup = (int32_t)k;
			}
		}
	}
	return 0;
}

/* A group's class as a unit role (SLT_ADV_COLD: unclassified). */
static enum slt_adv_role group_role(const struct slt_cl_group *g)
{
	return g->cls == SLT_GROUP_WRITTEN ? SLT_ADV_WRITE :
	       g->cls == SLT_GROUP_READ_MOSTLY ? SLT_ADV_READ : SLT_ADV_COLD;
}

/* us->seg_group, seg_block (n segments) and the units that roam
 * (SLT_ADV_ROAMS): only where fences exist (move_anchors and kernel
 * groups); elsewhere every unit keeps its segment. */
int slt_adv_segments(struct slt_adv_units *us, size_t n)
{
	const struct slt_struct *s = us->orig;
	int32_t open = -1;
	uint32_t block = 0, sg = 0;
	bool fences = false;

	us->n_segs = n;
	us->seg_group = slt_arena_calloc(us->ar, n, sizeof(*us->seg_group));
	us->seg_block = slt_arena_calloc(us->ar, n, sizeof(*us->seg_block));
	if (!us->seg_group || !us->seg_block)
		return SLT_ENOMEM;
	us->seg_zone = slt_arena_calloc(us->ar, n, sizeof(*us->seg_zone));
	if (!us->seg_zone)
		return SLT_ENOMEM;
	us->seg_group[0] = -1;
	for (size_t u = 0, zone = 0; u < us->n; u++) {
		const struct slt_adv_unit *x = &us->u[u];
		if (!(x->flags & SLT_ADV_ANCHORED))
			continue;
		if (x->flags & SLT_ADV_MARKER)
			zone++;
		if (x->seg < n)
			us->seg_zone[x->seg] = (uint32_t)zone;
		if (x->flags & SLT_ADV_FENCE) {
			fences = true;
			open = (s->members[x->top[0]].flags & SLT_MEMBER_GROUP_BEGIN) ?
			       x->kgroup : -1;
		} else {
			block++;
		}
		sg = x->seg;
		us->seg_group[sg] = open;
		us->seg_block[sg] = block;
	}
	if (!fences)
		return 0;
	for (size_t u = 0; u < us->n; u++) {
		struct slt_adv_unit *x = &us->u[u];
		if (x->flags & (SLT_ADV_ANCHORED | SLT_ADV_LAST))
			continue;
		if (x->kgroup < 0) {
			x->flags |= SLT_ADV_ROAMS;
			continue;
		}
		enum slt_adv_role g = group_role(&us->groups[x->kgroup]);
		if (g != SLT_ADV_COLD && x->role != SLT_ADV_COLD && x->role != g)
			x->flags |= SLT_ADV_ROAMS;
	}
	return 0;
}

bool slt_adv_seg_ok(const struct slt_adv_units *us,
		    const struct slt_adv_unit *u, uint32_t seg, bool cross)
{
	int32_t g;

	if (u->seg == seg)
		return true;
	if (cross && seg < us->n_segs && u->seg < us->n_segs &&
	    us->seg_zone[seg] == us->seg_zone[u->seg])
		return true;
	if (!(u->flags & SLT_ADV_ROAMS) || seg >= us->n_segs ||
	    us->seg_block[seg] != us->seg_block[u->seg])
		return false;
	g = us->seg_group[seg];
	if (u->kgroup < 0)
		return g < 0;
	if (g < 0)
		return false;
	/* a written member out of a read-mostly group, or a read-mostly one
	 * out of a written group, into a group of its own class */
	return us->groups[g].cls == (u->role == SLT_ADV_WRITE ? SLT_GROUP_WRITTEN :
				     SLT_GROUP_READ_MOSTLY);
}


int slt_adv_group_moves(struct slt_arena *ar, const struct slt_adv_units *us,
			const struct slt_adv_plan *p, struct slt_proposal *pr)
{
	uint32_t seg = 0;
	size_t n = 0;

	pr->group_moves = NULL;
	pr->n_group_moves = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_adv_unit *u = &us->u[p->order[i]];
		if (u->flags & SLT_ADV_ANCHORED)
			seg++;
		else if (u->kgroup >= 0 && seg < us->n_segs &&
			 us->seg_group[seg] >= 0 && us->seg_group[seg] != u->kgroup)
			n++;
	}
	if (!n)
		return 0;
	pr->group_moves = slt_arena_calloc(ar, n, sizeof(*pr->group_moves));
	if (!pr->group_moves)
		return SLT_ENOMEM;
	seg = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_adv_unit *u = &us->u[p->order[i]];
		if (u->flags & SLT_ADV_ANCHORED) {
			seg++;
			continue;
		}
		if (u->kgroup < 0 || seg >= us->n_segs || us->seg_group[seg] < 0 ||
		    us->seg_group[seg] == u->kgroup)
			continue;
		const struct slt_cl_group *to = &us->groups[us->seg_group[seg]];
		pr->group_moves[pr->n_group_moves++] = (struct slt_group_move){
			.member = u->top[0], .from = us->groups[u->kgroup].name,
			.to = to->name, .cls = slt_group_class_name(to->cls),
		};
	}
	return 0;
}
