/* SPDX-License-Identifier: MIT */
/*
 * The compaction moves of a proposal (slt_proposal.compaction,
 * include/structlint/advice.h): relocated members with no class that the
 * sharing fix does not need.  The regroup packs cold members into holes
 * while it separates the classed ones; each relocated unit with no
 * classed or sampled leaf is put back after the unit that preceded it in
 * the original layout (the rest of the plan kept), and when that plan is
 * legal and shares no more than the proposal, its move only fills holes
 * (bytes, lines), so it is labelled apart from the moves the findings
 * need.  Cost: one placement per relocated unclassified unit.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

int slt_adv_compaction(struct slt_arena *ar, const struct slt_adv_units *us,
		       const struct slt_adv_weights *w, const struct slt_adv_plan *p,
		       const struct slt_adv_cost *c, struct slt_proposal *pr)
{
	const struct slt_struct *s = us->orig;
	size_t n = p->n, nc = 0;
	bool *reloc = calloc(s->n_members + 1, sizeof(*reloc));
	bool *mark = calloc(s->n_members + 1, sizeof(*mark));
	struct slt_adv_plan q = { .n = n, .cross = p->cross };
	int rc = 0;

	pr->compaction = NULL;
	pr->n_compaction = 0;
	q.order = malloc((n ? n : 1) * sizeof(*q.order));
	q.pad = malloc(n ? n : 1);
	if (!reloc || !mark || !q.order || !q.pad) {
		rc = SLT_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < pr->n_moved; i++)
		if (pr->moved[i] < s->n_members)
			reloc[pr->moved[i]] = true;
	for (size_t i = 0; i < n && !rc; i++) {
		size_t uid = p->order[i];
		const struct slt_adv_unit *u = &us->u[uid];
		bool moved = false;
		for (size_t t = 0; t < u->n_top; t++)
			moved |= reloc[u->top[t]];
		if (!moved || u->n_leaves || (u->paths && u->size) || p->pad[i] ||
		    (u->flags & (SLT_ADV_ANCHORED | SLT_ADV_LAST | SLT_ADV_KEPT)))
			continue;
		/* q: p without unit uid, which goes back after its original
		 * predecessor (first when it was first) */
		size_t k = 0;
		bool placed = uid == 0;
		if (placed) {
			q.order[k] = uid;
			q.pad[k++] = 0;
		}
		for (size_t j = 0; j < n; j++) {
			if (j == i)
				continue;
			q.order[k] = p->order[j];
			q.pad[k++] = p->pad[j];
			if (!placed && p->order[j] == uid - 1) {
				q.order[k] = uid;
				q.pad[k++] = 0;
				placed = true;
			}
		}
		struct slt_adv_cost qc;
		if (!placed || !slt_adv_plan_cost(us, &q, w, &qc, &rc))
			continue;
		if (qc.coherence <= c->coherence + 1e-9 * (c->coherence > 1 ? c->coherence : 1))
			for (size_t t = 0; t < u->n_top; t++)
				if (reloc[u->top[t]] && !mark[u->top[t]]) {
					mark[u->top[t]] = true;
					nc++;
				}
	}
	if (!rc && nc) {
		pr->compaction = slt_arena_calloc(ar, nc, sizeof(*pr->compaction));
		if (!pr->compaction) {
			rc = SLT_ENOMEM;
			goto out;
		}
		for (size_t m = 0; m < s->n_members; m++)
			if (mark[m])
				pr->compaction[pr->n_compaction++] = m;
	}
out:
	free(reloc);
	free(mark);
	free(q.order);
	free(q.pad);
	return rc;
}
