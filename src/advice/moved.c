/* SPDX-License-Identifier: MIT */
/*
 * Relocated and shifted members of a plan: the one computation behind
 * slt_proposal.moved / shifted (include/structlint/advice.h), the
 * summary's counts and the MINIMAL search's ranking.
 *
 * Relocated: top-level members of the original layout not in a longest
 * run kept in the original order (a longest increasing subsequence of
 * their original indices in the new order: the last one patience sorting
 * finds).  Members of one unit count one by one, so a --keep-together list
 * that reverses two members relocates one of them.  Shifted: the other
 * top-level members whose offset changed.
 */
#include <stdlib.h>

#include "advice/advice_int.h"

int slt_adv_relocated(const struct slt_adv_units *us,
		      const struct slt_adv_plan *p, const uint64_t *off,
		      uint8_t *state, size_t *n_reloc, size_t *n_shifted)
{
	const struct slt_struct *s = us->orig;
	size_t n = 0, len = 0, k = 0;
	size_t *seq, *tail, *prev;
	uint64_t *at;
	int rc = 0;

	for (size_t i = 0; i < p->n; i++)
		n += us->u[p->order[i]].n_top;
	seq = malloc((n ? n : 1) * sizeof(*seq));
	tail = malloc((n ? n : 1) * sizeof(*tail));
	prev = malloc((n ? n : 1) * sizeof(*prev));
	at = malloc((n ? n : 1) * sizeof(*at));
	if (!seq || !tail || !prev || !at) {
		rc = SLT_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_adv_unit *u = &us->u[p->order[i]];
		for (size_t t = 0; t < u->n_top; t++) {
			seq[k] = u->top[t];
			at[k++] = off[i] + u->rel[t];
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t lo = 0, hi = len;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (seq[tail[mid]] < seq[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tail[lo - 1] : SIZE_MAX;
		tail[lo] = i;
		if (lo == len)
			len++;
	}
	/* prev[] reused as the in-run mark: SIZE_MAX - 1 */
	for (size_t i = len ? tail[len - 1] : SIZE_MAX, nx; i != SIZE_MAX; i = nx) {
		nx = prev[i];
		prev[i] = SIZE_MAX - 1;
	}
	*n_reloc = n - len;
	*n_shifted = 0;
	for (size_t i = 0; i < n; i++) {
		bool kept = prev[i] == SIZE_MAX - 1;
		bool sh = kept && at[i] != s->members[seq[i]].offset;
		*n_shifted += sh;
		if (state)
			state[seq[i]] = kept ? (sh ? SLT_ADV_SHIFTED : 0) :
					SLT_ADV_RELOCATED;
	}
out:
	free(seq);
	free(tail);
	free(prev);
	free(at);
	return rc;
}
