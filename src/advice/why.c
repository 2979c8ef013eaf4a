/* SPDX-License-Identifier: MIT */
/*
 * Why nothing is proposed (slt_advise()'s note, advice.h): the options
 * that may lift a constraint (--move-first, --move-anchors, both, and
 * leaving out --keep-together) are each tried by running the advice again
 * with it, and a constraint is named, with what its option then gives,
 * only when that run leaves strictly less sharing than the default's best:
 * the pinned first member, the anchored units that bound the segments of
 * the findings' members (or, failing those, the ones the lifting run
 * moves), the kept lists.  Constraints no option lifts (--pin, a member
 * inside a union or a named nested struct, which moves whole) are named
 * too.
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

/* One more advice run, with an option that may lift a constraint. */
struct try_res {
	bool lifts;            /* its best proposal has strictly less sharing
				  than the default's best (or than before,
				  when the default proposes nothing) */
	double before, after;  /* its best proposal's sharing */
	long long bytes;
	bool *moved;           /* orig members it relocates or shifts (NULL:
				  none or not lifted) */
};

/* What the advice proposes with o: tr->lifts and the numbers; best: the
 * default run's least sharing after, or a negative value when it
 * proposes nothing.  0 or SLT_ENOMEM. */
static int try_opts(const struct slt_analysis *a, const struct slt_advice_opts *o,
		    double best, struct slt_arena *ar, struct try_res *tr)
{
	struct slt_advice *adv = NULL;
	struct slt_error err = { 0 };
	int r = slt_advise(a, o, &adv, &err);

	memset(tr, 0, sizeof(*tr));
	if (r == SLT_ENOMEM)
		return r;
	if (!r && adv->n_proposals) {
		const struct slt_proposal *p = &adv->proposals[0];
		double ref = best < 0 ? p->score_before : best;
		/* strictly better, beyond rounding of the estimator's sums */
		tr->lifts = p->score_after < ref - 1e-9 * (ref > 1 ? ref : 1);
		tr->before = p->score_before;
		tr->after = p->score_after;
		tr->bytes = (long long)p->bytes_added;
		if (tr->lifts) {
			size_t n = a->layout->n_members;
			tr->moved = slt_arena_calloc(ar, n ? n : 1, sizeof(bool));
			if (!tr->moved) {
				slt_advice_free(adv);
				return SLT_ENOMEM;
			}
			for (size_t i = 0; i < p->n_moved; i++)
				if (p->moved[i] < n)
					tr->moved[p->moved[i]] = true;
			for (size_t i = 0; i < p->n_shifted; i++)
				if (p->shifted[i] < n)
					tr->moved[p->shifted[i]] = true;
		}
	}
	slt_advice_free(adv);
	return 0;
}

/* "; OPT lifts it: ..." for a lifting run. */
static void say_lift(FILE *f, const char *opt, const struct try_res *tr)
{
	fprintf(f, "; %s lifts it: the best proposal then gives sharing "
		"%.4g -> %.4g, %+lld bytes", opt, tr->before, tr->after, tr->bytes);
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
			     bool left, double best, int *rc)
{
	const struct slt_analysis *a = us->a;
	const struct slt_struct *s = us->orig;
	const char **pinned = calloc(us->n + 1, sizeof(char *));
	const char **anch = calloc(us->n + 1, sizeof(char *));
	const char **whole = calloc(s->n_members + 1, sizeof(char *));
	const char **kept = calloc(us->n + 1, sizeof(char *));
	bool *seen = calloc(us->n + 1, 1);
	bool *mseen = calloc(s->n_members + 1, 1);
	bool *bound = calloc(us->n + 2, 1);
	bool *held = calloc(us->n + 1, 1);
	unsigned cl = a->cacheline_size ? a->cacheline_size : 64;
	uint64_t n_lines = (a->line_origin + s->size) / cl + 2;
	bool *on = calloc(n_lines, 1);
	size_t np = 0, na = 0, nw = 0, nk = 0;
	const char *first_pin = NULL;
	char *buf = NULL;
	size_t len = 0;
	const char *out = NULL;
	FILE *f = NULL;

	*rc = 0;
	if (!pinned || !anch || !whole || !kept || !seen || !mseen || !bound || !held || !on)
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
			/* a unit stays between the anchors that bound its
			 * segment (seg and seg + 1) */
			if (!(x->flags & SLT_ADV_ANCHORED) && x->seg + 1 <= us->n)
				bound[x->seg] = bound[x->seg + 1] = true;
			/* an anchored unit in the finding holds it itself */
			if ((x->flags & SLT_ADV_ANCHORED) && !(x->flags & SLT_ADV_PINNED))
				held[u] = true;
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
				if (x->flags & SLT_ADV_FIRST)
					first_pin = x->name[0] ? x->name : "(anonymous)";
				else
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
			if (x->flags & SLT_ADV_FIRST)
				first_pin = x->name[0] ? x->name : "(anonymous)";
			else
				pinned[np++] = x->name[0] ? x->name : "(anonymous)";
			continue;
		}
		if (!(anch[na++] = anchor_name(ar, &s->members[x->top[0]], x)))
			goto nomem;
	}
	/* the options that may lift a constraint, each measured by running
	 * the advice again with it: a constraint is named only when lifting
	 * it gives strictly less sharing than the default */
	bool can_first = !o->move_first && us->n && (us->u[0].flags & SLT_ADV_FIRST);
	bool can_anch = false;
	for (size_t u = 0; u < us->n && !o->move_anchors; u++)
		can_anch |= (us->u[u].flags & SLT_ADV_ANCHORED) &&
			    !(us->u[u].flags & SLT_ADV_PINNED);
	struct try_res tk = { 0 }, tf = { 0 }, ta = { 0 }, tfa = { 0 };
	struct slt_advice_opts t = *o;
	t.max_proposals = 1;
	if (nk) {
		t.keep_together = NULL;
		t.n_keep_together = 0;
		*rc = try_opts(a, &t, best, ar, &tk);
		t.keep_together = o->keep_together;
		t.n_keep_together = o->n_keep_together;
	}
	if (!*rc && can_first) {
		t.move_first = true;
		*rc = try_opts(a, &t, best, ar, &tf);
		t.move_first = o->move_first;
	}
	if (!*rc && can_anch) {
		t.move_anchors = true;
		*rc = try_opts(a, &t, best, ar, &ta);
		if (!*rc && can_first) {
			t.move_first = true;
			*rc = try_opts(a, &t, best, ar, &tfa);
		}
	}
	if (*rc)
		goto out;
	/* both together count for one only when the other alone does not */
	bool lift_first = tf.lifts || (tfa.lifts && !ta.lifts);
	bool lift_anch = ta.lifts || (tfa.lifts && !tf.lifts);
	const bool *amoved = ta.lifts ? ta.moved : tfa.moved;
	if (lift_anch && amoved) {
		/* the anchored units that bound the findings' members'
		 * segments hold them (a unit stays between the same two
		 * anchors, where the search keeps it), and the anchored
		 * units in the findings, whichever line they are on; failing those,
		 * every anchored unit the lifting run moves */
		size_t nm = 0;
		for (int pass = 0; pass < 2 && !nm; pass++)
			for (size_t u = 0; u < us->n; u++) {
				const struct slt_adv_unit *x = &us->u[u];
				if (!(x->flags & SLT_ADV_ANCHORED) ||
				    (x->flags & SLT_ADV_PINNED) ||
				    (pass ? !amoved[x->top[0]] :
					    !held[u] && (x->seg > us->n || !bound[x->seg])))
					continue;
				if (!(anch[nm++] = anchor_name(ar, &s->members[x->top[0]], x)))
					goto nomem;
			}
		if (nm)
			na = nm;
	}
	/* a lifting --move-first names the pin even when the first member
	 * is on none of the findings' lines (it holds the order behind it) */
	if (lift_first && !first_pin && us->n)
		first_pin = us->u[0].name[0] ? us->u[0].name : "(anonymous)";
	f = open_memstream(&buf, &len);
	if (!f)
		goto nomem;
	fputs(left ? "the proposals leave sharing: within the constraints no layout removes it all" :
		     "no layout with less sharing found within the constraints", f);
	if (first_pin && lift_first)
		fprintf(f, "; pinned at offset 0 as the first member (container_of(), "
			"casts to its type): %s", first_pin);
	if (np) {
		fputs("; pinned (--pin): ", f);
		name_list(f, pinned, np);
	}
	if (na && lift_anch) {
		fputs("; anchored at their offsets: ", f);
		name_list(f, anch, na);
	}
	if (nw) {
		fputs("; moving whole with what holds them: ", f);
		name_list(f, whole, nw);
	}
	if (nk && tk.lifts) {
		fputs("; kept adjacent (--keep-together): ", f);
		name_list(f, kept, nk);
	}
	if (!np && !nw && !tk.lifts && !lift_first && !lift_anch)
		fputs(": no option tried (--move-first, --move-anchors, leaving out "
		      "--keep-together) gives less sharing, the layout is the best "
		      "this model finds", f);
	if (tk.lifts)
		say_lift(f, "leaving out --keep-together", &tk);
	if (tf.lifts)
		say_lift(f, "--move-first", &tf);
	if (ta.lifts)
		say_lift(f, "--move-anchors", &ta);
	if (tfa.lifts && !tf.lifts && !ta.lifts)
		say_lift(f, "--move-first --move-anchors", &tfa);
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
	free(bound);
	free(held);
	free(on);
	return *rc ? NULL : out;
}
