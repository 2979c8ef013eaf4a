/* SPDX-License-Identifier: MIT */
/*
 * Why nothing is proposed (slt_advise()'s note, advice.h): the constraints
 * on the members of the struct's fixable findings that keep them where
 * they are, and the option that lifts each, tried: the advice is run again
 * with --move-first, --move-anchors and both (and without --keep-together
 * when a kept list holds a sharing member), and the note says what each
 * would then propose.  Constraints no option lifts (a member inside a union
 * or a named nested struct, which moves whole) are named too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

/* Most members named per constraint in the note. */
#define WHY_NAMES 4

/* The unit of us holding orig member i, or SIZE_MAX. */
static size_t unit_of_member(const struct slt_adv_units *us, size_t i)
{
	const struct slt_struct *s = us->orig;
	for (size_t u = 0; u < us->n; u++)
		for (size_t t = 0; t < us->u[u].n_top; t++) {
			size_t k = us->u[u].top[t], e = k + 1;
			while (e < s->n_members && s->members[e].depth > s->members[k].depth)
				e++;
			if (i >= k && i < e)
				return u;
		}
	return SIZE_MAX;
}

/* "a, b, c and N more": up to WHY_NAMES of names[n]. */
static void name_list(FILE *f, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n && i < WHY_NAMES; i++)
		fprintf(f, "%s%s", i ? (i + 1 == n ? " and " : ", ") : "", names[i]);
	if (n > WHY_NAMES)
		fprintf(f, " and %zu more", n - WHY_NAMES);
}

/* What the advice proposes with o (one more advice run): nothing, or its
 * best proposal's sharing and bytes. */
static void try_opts(FILE *f, const struct slt_analysis *a,
		     const struct slt_advice_opts *o, const char *opt, int *rc)
{
	struct slt_advice *adv = NULL;
	struct slt_error err = { 0 };
	int r = slt_advise(a, o, &adv, &err);

	if (r == SLT_ENOMEM) {
		*rc = r;
		return;
	}
	if (r || !adv->n_proposals) {
		fprintf(f, "; %s does not lift it", opt);
	} else {
		const struct slt_proposal *p = &adv->proposals[0];
		fprintf(f, "; %s lifts it: the best proposal then gives sharing "
			"%.4g -> %.4g, %+lld bytes", opt, p->score_before, p->score_after,
			(long long)p->bytes_added);
	}
	slt_advice_free(adv);
}

/* "NAME (why it is anchored)" for anchored unit x whose member t holds
 * the sharing member (or is x's first); from ar, NULL when out of memory. */
static const char *anchor_name(struct slt_arena *ar, const struct slt_member *t,
			       const struct slt_adv_unit *x)
{
	if (t->flags & (SLT_MEMBER_GROUP_BEGIN | SLT_MEMBER_GROUP_END))
		return slt_arena_printf(ar, "%s (a cacheline group marker)", x->name);
	if (x->flags & SLT_ADV_MARKER)
		return slt_arena_printf(ar, "%s (zero-size padding)", x->name);
	return slt_arena_printf(ar, "%s (aligned to %u bytes)", x->name, x->align);
}

/* Mark the lines (at a->line_origin) of a's fixable findings in on[]
 * (n_lines entries). */
static void finding_lines(const struct slt_analysis *a, bool *on, uint64_t n_lines)
{
	for (size_t k = 0; k < a->n_findings; k++) {
		const struct slt_finding *fd = &a->findings[k];
		for (uint64_t l = fd->line; fd->layout_fixable && l <= fd->line2 && l < n_lines; l++)
			on[l] = true;
	}
}

/* Does unit x (at its original offset) lie on a line marked in on[]? */
static bool unit_on(const struct slt_adv_unit *x, uint64_t origin, unsigned cl,
		    const bool *on, uint64_t n_lines)
{
	uint64_t f = (origin + x->orig_offset) / cl;
	uint64_t l = (origin + x->orig_offset + (x->size ? x->size - 1 : 0)) / cl;
	for (; f <= l && f < n_lines; f++)
		if (on[f])
			return true;
	return false;
}

const char *slt_adv_why_none(const struct slt_adv_units *us,
			     const struct slt_advice_opts *o, struct slt_arena *ar,
			     bool left, int *rc)
{
	const struct slt_analysis *a = us->a;
	const struct slt_struct *s = us->orig;
	const char **pinned = calloc(us->n + 1, sizeof(char *));
	const char **anch = calloc(us->n + 1, sizeof(char *));
	const char **whole = calloc(s->n_members + 1, sizeof(char *));
	const char **kept = calloc(us->n + 1, sizeof(char *));
	bool *seen = calloc(us->n + 1, 1);
	bool *mseen = calloc(s->n_members + 1, 1);
	unsigned cl = a->cacheline_size ? a->cacheline_size : 64;
	uint64_t n_lines = (a->line_origin + s->size) / cl + 2;
	bool *on = calloc(n_lines, 1);
	size_t np = 0, na = 0, nw = 0, nk = 0;
	bool first = false;
	char *buf = NULL;
	size_t len = 0;
	const char *out = NULL;
	FILE *f = NULL;

	*rc = 0;
	if (!pinned || !anch || !whole || !kept || !seen || !mseen || !on)
		goto nomem;
	finding_lines(a, on, n_lines);
	for (size_t k = 0; k < a->n_findings; k++) {
		const struct slt_finding *fd = &a->findings[k];
		if (!fd->layout_fixable)
			continue;
		for (size_t j = 0; j < fd->n_members; j++) {
			size_t u = unit_of_member(us, fd->members[j]);
			if (u == SIZE_MAX || mseen[fd->members[j]])
				continue;
			mseen[fd->members[j]] = true;
			const struct slt_adv_unit *x = &us->u[u];
			const struct slt_member *m = &s->members[fd->members[j]];
			const struct slt_member *t = &s->members[x->top[0]];
			for (size_t q = 1; q < x->n_top; q++)
				if (fd->members[j] >= x->top[q])
					t = &s->members[x->top[q]];
			if (!seen[u] && (x->flags & SLT_ADV_KEPT)) {
				/* a --keep-together list: its members stay
				 * adjacent, whatever shares their line */
				FILE *g;
				char *kb = NULL;
				size_t kl = 0;
				if (!(g = open_memstream(&kb, &kl)))
					goto nomem;
				for (size_t q = 0; q < x->n_top; q++)
					fprintf(g, "%s%s", q ? "," : "", s->members[x->top[q]].name);
				bool bad = ferror(g);
				if (fclose(g) || bad || !kb) {
					free(kb);
					goto nomem;
				}
				kept[nk] = slt_arena_strndup(ar, kb, kl);
				free(kb);
				if (!kept[nk++])
					goto nomem;
			}
			if (seen[u]) {
				/* named once per unit */
			} else if (x->flags & SLT_ADV_PINNED) {
				first |= !o->move_first && u == 0;
				pinned[np++] = x->name[0] ? x->name : "(anonymous)";
			} else if (x->flags & SLT_ADV_ANCHORED) {
				if (!(anch[na++] = anchor_name(ar, t, x)))
					goto nomem;
			}
			seen[u] = true;
			/* the member sits inside a union or a named nested
			 * struct that moves whole */
			if (m != t && (t->flags & SLT_MEMBER_COMPOSITE)) {
				whole[nw] = slt_arena_printf(ar, "%s inside %s %s", m->name,
					(t->flags & SLT_MEMBER_UNION) ? "union" : "struct",
					t->name[0] ? t->name : "(anonymous)");
				if (!whole[nw++])
					goto nomem;
			}
		}
	}
	/* anchored and pinned units on the findings' lines hold the lines'
	 * other members in place around them (6.1 rq: nohz_csd, aligned to
	 * 32 bytes, on nohz_flags's line) */
	for (size_t u = 0; u < us->n; u++) {
		const struct slt_adv_unit *x = &us->u[u];
		if (seen[u] || !(x->flags & (SLT_ADV_PINNED | SLT_ADV_ANCHORED)) ||
		    !unit_on(x, a->line_origin, cl, on, n_lines))
			continue;
		seen[u] = true;
		if (x->flags & SLT_ADV_PINNED) {
			first |= !o->move_first && u == 0;
			pinned[np++] = x->name[0] ? x->name : "(anonymous)";
			continue;
		}
		if (!(anch[na++] = anchor_name(ar, &s->members[x->top[0]], x)))
			goto nomem;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		goto nomem;
	fputs(left ? "the proposals leave sharing: within the constraints no layout removes it all" :
		     "no layout with less sharing found within the constraints", f);
	if (np) {
		fputs(first ? "; pinned at offset 0 as the first member (container_of(), "
			      "casts to its type): " : "; pinned (--pin): ", f);
		name_list(f, pinned, np);
	}
	if (na) {
		fputs("; anchored at their offsets: ", f);
		name_list(f, anch, na);
	}
	if (nw) {
		fputs("; moving whole with what holds them: ", f);
		name_list(f, whole, nw);
	}
	if (nk) {
		fputs("; kept adjacent (--keep-together): ", f);
		name_list(f, kept, nk);
	}
	if (!np && !na && !nw && !nk)
		fputs(": none of the sharing members is pinned or anchored, the "
		      "layout is the best this model finds", f);
	struct slt_advice_opts t = *o;
	t.max_proposals = 1;
	if (nk) {
		t.keep_together = NULL;
		t.n_keep_together = 0;
		try_opts(f, a, &t, "leaving out --keep-together", rc);
		t.keep_together = o->keep_together;
		t.n_keep_together = o->n_keep_together;
	}
	if (!*rc && first) {
		t.move_first = true;
		try_opts(f, a, &t, "--move-first", rc);
	}
	if (!*rc && na && !o->move_anchors) {
		t.move_first = o->move_first;
		t.move_anchors = true;
		try_opts(f, a, &t, "--move-anchors", rc);
		if (!*rc && first) {
			t.move_first = true;
			try_opts(f, a, &t, "--move-first --move-anchors", rc);
		}
	}
	if (ferror(f))
		*rc = SLT_ENOMEM;
	if (fclose(f) || !buf)
		*rc = SLT_ENOMEM;
	if (!*rc)
		out = slt_arena_strndup(ar, buf, len);
	if (!out)
		*rc = SLT_ENOMEM;
	goto out;
nomem:
	*rc = SLT_ENOMEM;
out:
	free(buf);
	free(pinned);
	free(anch);
	free(whole);
	free(kept);
	free(seen);
	free(mseen);
	free(on);
	return *rc ? NULL : out;
}
