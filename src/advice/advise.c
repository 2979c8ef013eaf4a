/* SPDX-License-Identifier: MIT */
/*
 * slt_advise(): the proposals for one analysed layout, best first.
 *
 *   REGROUP  the exact optimum (exact.c) up to SLT_ADV_EXACT_MAX units within
 *            its budget, else greedy fill + local search; padding allowed,
 *            no byte budget;
 *   MINIMAL  the fewest members relocated: every single relocation, then
 *            pairs (minimal.c); where those leave findings, the local
 *            search from the original order when it leaves fewer;
 *   PADDING  the original order, CACHELINE_PADDING members only;
 *   PARETO   the best layout within +0, +64, +128, ... bytes (one line
 *            size per step) up to REGROUP's size, each kept when it beats
 *            the smaller budget;
 *   SIZE     smallest size, alignment kept (pahole --reorganize's goal);
 *            outside --size-only only when its sharing score is no higher
 *            than the original's.
 * MINIMAL and ISOLATE run in kinds.c.
 * Proposals that do not lower the objective (SIZE: the size) are dropped,
 * and so are duplicates of a better one.
 */
#include <math.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advise_int.h"
#include "common/sort.h"


#define EXACT_METHOD "exact (subset DP)"

/* Budgets are counts, never times, so that the proposals do not depend on
 * the machine's load: `suggest` and `suggest --json` run side by side, or
 * on a busy CI machine, must agree.  One exact search: states (100,000
 * take about 0.07 s). */
#define EXACT_STATES 100000
/* Budget of one hot-set DP: group evaluations (about 10 ns each). */
#define HOT_STEPS 20000000u

/* x->method plus, when the local search that gave the plan stopped at its
 * work budget, a note saying so (the result is then not a local optimum,
 * but the same on every run). */
static int note_spent(struct adv_ctx *x, bool spent)
{
	if (!spent)
		return 0;
	x->method = slt_arena_printf(x->ar, "%s; the local search stopped at its "
				     "work budget", x->method);
	return x->method ? 0 : SLT_ENOMEM;
}

/* Greedy fill + local search, then the exact optimum (exact.c) bounded by
 * its result where that applies and fits its budget; where it does not,
 * the hot-set DP (hotdp.c) polished by the local search, kept when it beats
 * the heuristic. */
int adv_search(struct adv_ctx *x, const struct slt_adv_search *s,
	       struct slt_adv_plan *p, struct slt_adv_cost *c)
{
	struct slt_adv_plan e;
	struct slt_adv_cost ec;
	bool spent = false, espent = false;
	int rc = slt_adv_search_heuristic(&x->us, s, &x->w, p, c, &spent);
	bool modelled = !s->size_only && !s->keep_order && !s->max_moves;

	x->method = "heuristic";
	if (rc)
		return rc;
	rc = x->exact_gave_up ? SLT_EUNSUPPORTED :
	     slt_adv_search_exact(&x->us, s, &x->w, p, EXACT_STATES, &e, &ec);
	if (rc == SLT_EUSAGE || rc == SLT_EUNSUPPORTED) {
		x->exact_gave_up |= rc == SLT_EUNSUPPORTED;
		double po, eo;
		struct slt_adv_hot_info hi;
		rc = slt_adv_search_hot(&x->us, s, &x->w, HOT_STEPS, &e, &ec, &hi);
		if (!rc)
			rc = slt_adv_search_polish(&x->us, s, &x->w, &e, &ec,
						   &espent);
		if (rc == SLT_EUSAGE || rc == SLT_EUNSUPPORTED ||
		    rc == SLT_ENOTFOUND) {
			if (modelled && hi.why && hi.why[0])
				x->method = slt_arena_printf(x->ar,
					"heuristic; the hot-set DP did not run: %s",
					hi.why);
			return x->method ? note_spent(x, spent) : SLT_ENOMEM;
		}
		if (!rc && slt_adv_objective(&x->us, s, &x->w, p, &po, c, &rc) &&
		    slt_adv_objective(&x->us, s, &x->w, &e, &eo, &ec, &rc) &&
		    eo < po - 1e-9 * (po > 1 ? po : 1)) {
			slt_adv_plan_free(p);
			*p = e;
			*c = ec;
			x->method = "hot-set DP (exact sharing within its model) + local search";
			return note_spent(x, espent);
		}
		if (!rc)
			x->method = "heuristic, no worse than the hot-set DP's";
		slt_adv_plan_free(&e);
		if (!rc)
			rc = note_spent(x, spent);
		if (rc)
			slt_adv_plan_free(p);
		return rc;
	}
	if (rc) {
		slt_adv_plan_free(p);
		return rc;
	}
	slt_adv_plan_free(p);
	*p = e;
	*c = ec;
	x->method = EXACT_METHOD;
	return 0;
}

static const char *kind_name(enum slt_proposal_kind k)
{
	switch (k) {
	case SLT_PROPOSAL_MINIMAL: return "minimal move";
	case SLT_PROPOSAL_REGROUP: return "regroup";
	case SLT_PROPOSAL_PADDING: return "padding only";
	case SLT_PROPOSAL_PARETO: return "pareto";
	case SLT_PROPOSAL_SIZE: return "size";
	case SLT_PROPOSAL_ISOLATE: return "isolate";
	}
	return "proposal";
}

static bool same_plan_layout(const struct slt_proposal *x,
			     const struct slt_struct *l)
{
	if (x->layout.n_members != l->n_members || x->layout.size != l->size)
		return false;
	for (size_t i = 0; i < l->n_members; i++)
		if (x->layout.members[i].offset != l->members[i].offset ||
		    strcmp(x->layout.members[i].name, l->members[i].name))
			return false;
	return true;
}

/* The relocated and shifted members of plan p (slt_adv_relocated(): the
 * one definition, advice.h) as ascending index lists from x->ar, and the
 * lines each code path touches into *pr. */
static int moved_lists(struct adv_ctx *x, const struct slt_adv_plan *p,
		       size_t **moved, size_t *n_moved, size_t **shifted,
		       size_t *n_shifted, struct slt_proposal *pr)
{
	const struct slt_struct *orig = x->a->layout;
	size_t nm = orig->n_members ? orig->n_members : 1;
	uint64_t *off = malloc((p->n ? p->n : 1) * sizeof(*off)), size;
	uint8_t *st = calloc(nm, 1);
	int rc = !off || !st ? SLT_ENOMEM : 0;

	*moved = *shifted = NULL;
	*n_moved = *n_shifted = 0;
	if (!rc && !slt_adv_place(&x->us, p, off, &size))
		rc = SLT_EUSAGE;
	if (!rc)
		rc = slt_adv_relocated(&x->us, p, off, st, n_moved, n_shifted);
	if (!rc)
		rc = slt_adv_path_lines(x->ar, &x->us, p, off, pr);
	if (!rc)
		rc = slt_adv_unclassed(x->ar, &x->us, p, off, st, pr);
	if (!rc) {
		*moved = slt_arena_calloc(x->ar, *n_moved + 1, sizeof(**moved));
		*shifted = slt_arena_calloc(x->ar, *n_shifted + 1, sizeof(**shifted));
		if (!*moved || !*shifted)
			rc = SLT_ENOMEM;
	}
	for (size_t i = 0, a = 0, b = 0; !rc && i < orig->n_members; i++) {
		if (st[i] == SLT_ADV_RELOCATED)
			(*moved)[a++] = i;
		else if (st[i] == SLT_ADV_SHIFTED)
			(*shifted)[b++] = i;
	}
	free(off);
	free(st);
	return rc;
}

/* The slab cost of layout l, both sides of a proposal under one cache
 * model (slt_slab_cache_align(): where the instance is assumed to start
 * says which). */
static int slab(struct adv_ctx *x, const struct slt_struct *l, struct slt_slab_cost *out)
{
	bool hw;
	uint32_t align = slt_slab_cache_align(l->size, l->alignment, x->us.line,
					      x->o->base_align, &hw);
	int rc = slt_slab_cost(l->size, align, x->o, out);

	out->hwcache_align = hw;
	out->embedded = x->o->embedded;
	return rc;
}

/* Add the proposal of plan p (cost c) unless it is no better or a
 * duplicate. */
int adv_add(struct adv_ctx *x, enum slt_proposal_kind k,
	    const struct slt_adv_plan *p, const struct slt_adv_cost *c)
{
	struct slt_advice *adv = x->adv;
	const struct slt_struct *orig = x->a->layout;
	struct slt_proposal *pr;
	struct slt_struct l;
	size_t *moved, n_moved, *shifted, n_shifted, *any, n_any;
	int rc;

	/* MINIMAL ranks by findings left and members relocated, not by the
	 * cost: less sharing is enough */
	if (k == SLT_PROPOSAL_SIZE ? c->size >= orig->size :
	    (k != SLT_PROPOSAL_MINIMAL && c->total >= x->before.total - 1e-9) ||
	    c->coherence >= x->before.coherence - 1e-9)
		return 0;
	/* beside the sharing proposals a smaller layout is offered only when
	 * it shares no more than the original (saving a line by putting a
	 * writer beside read-mostly members undoes a sharing fix); with
	 * --size-only size is the only objective */
	if (k == SLT_PROPOSAL_SIZE && !x->o->size_only &&
	    c->coherence > x->before.coherence + 1e-9)
		return 0;
	rc = slt_adv_relayout(x->ar, &x->us, p, &l, &any, &n_any);
	if (rc)
		return rc;
	if (!n_any && l.size == orig->size)
		return 0;
	rc = slt_adv_check_proposal(orig, &l, kind_name(k), x->err);
	x->unsafe = rc && rc != SLT_ENOMEM;
	if (rc)
		return rc;
	struct slt_proposal paths;
	rc = moved_lists(x, p, &moved, &n_moved, &shifted, &n_shifted, &paths);
	if (rc)
		return rc;
	for (size_t i = 0; i < adv->n_proposals; i++)
		if (same_plan_layout(&adv->proposals[i], &l))
			return 0;
	if (adv->n_proposals == x->cap) {
		size_t nc = x->cap ? x->cap * 2 : 8;
		void *q = realloc(adv->proposals, nc * sizeof(*adv->proposals));
		if (!q)
			return SLT_ENOMEM;
		adv->proposals = q;
		x->cap = nc;
	}
	pr = &adv->proposals[adv->n_proposals];
	memset(pr, 0, sizeof(*pr));
	pr->kind = k;
	pr->layout = l;
	pr->moved = moved;
	pr->n_moved = n_moved;
	pr->shifted = shifted;
	pr->n_shifted = n_shifted;
	pr->paths = paths.paths;
	pr->n_paths = paths.n_paths;
	pr->n_paths_all = paths.n_paths_all;
	pr->unclassed = paths.unclassed;
	pr->n_unclassed = paths.n_unclassed;
	if (k == SLT_PROPOSAL_REGROUP &&
	    (rc = slt_adv_compaction(x->ar, &x->us, &x->w, p, c, pr)))
		return rc;
	pr->path_lines_before = paths.path_lines_before;
	pr->path_lines_after = paths.path_lines_after;
	pr->size_before = orig->size;
	pr->size_after = l.size;
	pr->lines_before = slt_cachelines(orig->size, x->us.line);
	pr->lines_after = slt_cachelines(l.size, x->us.line);
	pr->bytes_added = (int64_t)l.size - (int64_t)orig->size;
	pr->score_before = x->before.coherence;
	pr->score_after = c->coherence;
	pr->cost_before = x->before.total;
	pr->cost_after = c->total;
	rc = slab(x, orig, &pr->slab_before);
	if (!rc)
		rc = slab(x, &l, &pr->slab_after);
	if (rc)
		return rc;
	adv->n_proposals++;
	pr->user_space = x->o->user_space;
	rc = slt_advice_emit_c(pr, orig, x->o->user_space, x->ar, &pr->c_decl);
	if (rc)
		return rc;
	size_t pads = 0, wraps = 0;
	for (size_t i = 0; i < p->n; i++) {
		pads += p->pad[i] == SLT_ADV_PAD_LINE;
		wraps += p->pad[i] == SLT_ADV_PAD_WRAP;
	}
	const char *pl = "";
	if (pr->n_paths_all) {
		pl = slt_arena_printf(x->ar, ", code paths touch %llu -> %llu "
			"lines (sum over %zu path%s)",
			(unsigned long long)pr->path_lines_before,
			(unsigned long long)pr->path_lines_after, pr->n_paths_all,
			pr->n_paths_all == 1 ? "" : "s");
		if (!pl)
			return SLT_ENOMEM;
	}
	/* CACHELINE_PADDING aligns to the line (SMP_CACHE_BYTES), not to a
	 * wider separation: say how the separation was reached, or not */
	const char *sn = "";
	if (pads && x->us.separation > x->us.line) {
		sn = c->coherence > SLT_ADV_SHARED_MIN ?
			slt_arena_printf(x->ar, "; CACHELINE_PADDING aligns to the "
				"%u-byte line only: the %u-byte separation is not reached "
				"by padding alone", x->us.line, x->us.separation) :
			slt_arena_printf(x->ar, "; CACHELINE_PADDING aligns to the "
				"%u-byte line only: the %u-byte separation comes from "
				"where the padding members fall", x->us.line,
				x->us.separation);
		if (!sn)
			return SLT_ENOMEM;
	}
	rc = slt_adv_group_moves(x->ar, &x->us, p, pr);
	if (rc)
		return rc;
	const char *gn = "";
	for (size_t i = 0; i < pr->n_group_moves; i++) {
		const struct slt_group_move *g = &pr->group_moves[i];
		gn = slt_arena_printf(x->ar, "%s; %s moves from kernel group %s into %s, "
			"a %s group as its class", gn, orig->members[g->member].name,
			g->from, g->to, g->cls);
		if (!gn)
			return SLT_ENOMEM;
	}
	const char *wn = "";
	for (size_t i = 0; wraps && i < p->n; i++) {
		if (p->pad[i] != SLT_ADV_PAD_WRAP)
			continue;
		pr->isolated = x->us.u[p->order[i]].name;
		wn = slt_arena_printf(x->ar, " (%s alone in an anonymous struct "
			"aligned to the %u-byte line)", pr->isolated, x->us.line);
		if (!wn)
			return SLT_ENOMEM;
	}
	pr->summary = slt_arena_printf(x->ar,
		"%s%s: %zu member%s relocated, %zu padding member%s, %zu member%s "
		"shifted, %+lld bytes (%llu -> %llu), "
		"%llu -> %llu cachelines, sharing estimate %.4g -> %.4g%s%s%s; search: %s",
		kind_name(k), wn, n_moved, n_moved == 1 ? "" : "s", pads, pads == 1 ? "" : "s",
		n_shifted, n_shifted == 1 ? "" : "s",
		(long long)pr->bytes_added, (unsigned long long)orig->size,
		(unsigned long long)l.size, (unsigned long long)pr->lines_before,
		(unsigned long long)pr->lines_after, pr->score_before,
		pr->score_after, pl, sn, gn, x->method ? x->method : "heuristic");
	return pr->summary ? 0 : SLT_ENOMEM;
}

static int run(struct adv_ctx *x, enum slt_proposal_kind k,
	       const struct slt_adv_search *s)
{
	struct slt_adv_plan p;
	struct slt_adv_cost c;
	int rc = adv_search(x, s, &p, &c);

	if (rc == SLT_ENOTFOUND)
		return 0;
	if (rc)
		return rc;
	if (k == SLT_PROPOSAL_REGROUP && !strcmp(x->method, EXACT_METHOD))
		x->regroup_size = c.size;
	rc = adv_add(x, k, &p, &c);
	slt_adv_plan_free(&p);
	return rc;
}

static int cmp_prop(const void *a, const void *b)
{
	const struct slt_proposal *x = a, *y = b;
	if (x->kind == SLT_PROPOSAL_SIZE || y->kind == SLT_PROPOSAL_SIZE)
		return (x->kind == SLT_PROPOSAL_SIZE) - (y->kind == SLT_PROPOSAL_SIZE);
	if (fabs(x->cost_after - y->cost_after) > 1e-9)
		return x->cost_after < y->cost_after ? -1 : 1;
	if (x->bytes_added != y->bytes_added)
		return x->bytes_added < y->bytes_added ? -1 : 1;
	return x->n_moved < y->n_moved ? -1 : x->n_moved > y->n_moved;
}

/* No finding a layout change can fix: the kind of the others
 * (SLT_FIND_TRUE_SHARING, SLT_FIND_ELEMENT_SHARING,
 * SLT_FIND_UNSEEN_WRITER; an unseen writer first, then sharing between
 * an array's elements), or NULL. */
static const struct slt_finding *only_unfixable(const struct slt_analysis *a)
{
	const struct slt_finding *f = NULL;
	for (size_t i = 0; i < a->n_findings; i++) {
		const struct slt_finding *g = &a->findings[i];
		if (g->layout_fixable)
			return NULL;
		if (!f || g->kind == SLT_FIND_UNSEEN_WRITER ||
		    (g->kind == SLT_FIND_ELEMENT_SHARING && f->kind == SLT_FIND_TRUE_SHARING))
			f = g;
	}
	return f;
}

static int advise(struct adv_ctx *x)
{
	const struct slt_advice_opts *o = x->o;
	struct slt_adv_search s = { .max_size = UINT64_MAX, .allow_padding = true };
	struct slt_adv_plan id;
	int rc;

	/* a CACHELINE_PADDING member or an aligned wrapper raises the
	 * struct's alignment to the line: an embedded instance (--in) then
	 * moves in its container, a base known only modulo --base-align
	 * (kmem_cache_create() honours its align argument, not the type's)
	 * or given (--base) does not get it; reorderings only, priced where
	 * it starts */
	if (o->embedded || SLT_ADV_SHIFTED(&x->us))
		s.allow_padding = false;
	struct slt_adv_units plain, *orig = &x->us;
	struct slt_advice_opts po = *o;

	slt_adv_weights_default(&x->us, &x->w);
	/* the original layout's cost: its units without keep-together
	 * merges, which need not be adjacent there */
	if (o->n_keep_together) {
		po.keep_together = NULL;
		po.n_keep_together = 0;
		rc = slt_adv_units_build(x->a, &po, &plain, NULL);
		if (rc)
			return rc;
		orig = &plain;
	}
	rc = slt_adv_plan_identity(orig, &id);
	if (!rc && !slt_adv_plan_cost(orig, &id, &x->w, &x->before, &rc) && !rc)
		rc = SLT_EUSAGE;
	slt_adv_plan_free(&id);
	if (orig == &plain)
		slt_adv_units_free(&plain);
	if (rc)
		return rc;
	if (!o->size_only && x->before.coherence > 0) {
		uint64_t top;
		/* MINIMAL first: a regroup with the same layout is dropped
		 * as its duplicate, and the proposal says how few members
		 * it relocates */
		rc = adv_run_minimal(x, &s);
		if (!rc)
			rc = run(x, SLT_PROPOSAL_REGROUP, &s);
		if (!rc) {
			struct slt_adv_search p = s;
			p.keep_order = true;
			rc = run(x, SLT_PROPOSAL_PADDING, &p);
		}
		/* the aligned wrapper raises the struct's alignment to the
		 * line: an embedded instance then moves in its container
		 * (which grows), and a base known only modulo base_align is
		 * not made line-aligned by it (kmem_cache_create() honours
		 * its align argument, not the type's): priced at the
		 * instance's starts it would be silently wrong, so it is
		 * not offered there; the other proposals are priced at
		 * every start */
		if (!rc && !x->o->embedded && !SLT_ADV_SHIFTED(&x->us))
			rc = adv_run_isolate(x, &s);
		else if (!rc)
			x->no_isolate = true;
		top = x->a->layout->size;
		for (size_t i = 0; i < x->adv->n_proposals; i++)
			if (x->adv->proposals[i].size_after > top)
				top = x->adv->proposals[i].size_after;
		double prev = x->before.total;
		/* a budget the unbounded optimum (the exact search's) fits in
		 * gives it again: the budgets stop there.  Not after a
		 * heuristic regroup: a budgeted search may find a better one
		 * (it did in 14 of test_advice's 300 random structs) */
		for (uint64_t b = 0; !rc && x->a->layout->size + b <= top &&
		     x->a->layout->size + b < x->regroup_size;
		     b += x->us.line) {
			struct slt_adv_search p = s;
			struct slt_adv_plan pl;
			struct slt_adv_cost c;
			p.max_size = x->a->layout->size + b;
			rc = adv_search(x, &p, &pl, &c);
			if (rc == SLT_ENOTFOUND) {
				rc = 0;
				continue;
			}
			if (!rc && c.total < prev - 1e-9) {
				prev = c.total;
				rc = adv_add(x, SLT_PROPOSAL_PARETO, &pl, &c);
			}
			slt_adv_plan_free(&pl);
		}
	}
	if (!rc) {
		struct slt_adv_search z = s;
		z.size_only = true;
		z.allow_padding = false;
		rc = run(x, SLT_PROPOSAL_SIZE, &z);
	}
	return rc;
}

int slt_advise(const struct slt_analysis *a, const struct slt_advice_opts *opts,
	       struct slt_advice **out, struct slt_error *err)
{
	static const struct slt_advice_opts none;
	struct adv_ctx x = { .a = a, .o = opts ? opts : &none,
			 .regroup_size = UINT64_MAX, .err = err };
	size_t maxp = x.o->max_proposals ? x.o->max_proposals : 5;
	int rc;

	*out = NULL;
	x.adv = calloc(1, sizeof(*x.adv));
	x.ar = slt_arena_new();
	if (!x.adv || !x.ar) {
		free(x.adv);
		slt_arena_free(x.ar);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	x.adv->analysis = a;
	x.adv->priv_ = x.ar;
	x.adv->note = "";
	if (x.o->frozen) {
		x.adv->note = "the struct is ABI-frozen (--frozen): findings only, no reordering";
		*out = x.adv;
		return 0;
	}
	x.adv->suspect = slt_adv_suspect(a->layout, x.ar);
	if (x.adv->suspect) {
		x.adv->note = x.adv->suspect;
		*out = x.adv;
		return 0;
	}
	const struct slt_finding *uf = x.o->size_only ? NULL : only_unfixable(a);
	if (uf && uf->kind == SLT_FIND_UNSEEN_WRITER) {
		/* loads that hit a modified line, no store seen: which member
		 * is written is unknown, so nothing can be moved away from it */
		x.adv->note = slt_arena_printf(x.ar, "the profile holds no store: line %" PRIu64
			" is written (its loads hit modified lines, HITM) by an unknown writer, so "
			"no member can be moved away from it; record stores too (perf c2c record, "
			"perf mem record -t load,store) or give --classes naming the written members",
			uf->line);
		if (!x.adv->note) {
			slt_advice_free(x.adv);
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		}
		*out = x.adv;
		return 0;
	}
	if (uf && uf->kind == SLT_FIND_ELEMENT_SHARING && uf->n_members) {
		/* CPUs write different elements of one array on one line:
		 * no order of the members splits the array */
		x.adv->note = slt_arena_printf(x.ar, "false sharing between the elements of %s "
			"(different CPUs write different elements, disjoint bytes, on line %" PRIu64
			"): reordering members cannot split an array; pad each element to its own "
			"line (a ____cacheline_aligned element type) or make it per-CPU data",
			a->layout->members[uf->members[0]].name, uf->line);
		if (!x.adv->note) {
			slt_advice_free(x.adv);
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		}
		*out = x.adv;
		return 0;
	}
	if (uf) {
		x.adv->note = "only true sharing (CPUs contend on the same member): no layout "
			      "change helps; use per-CPU data or batch the updates";
		*out = x.adv;
		return 0;
	}
	rc = slt_adv_units_build(a, x.o, &x.us, err);
	if (rc) {
		slt_advice_free(x.adv);
		return rc;
	}
	rc = advise(&x);
	/* nothing proposed though there is sharing, or every proposal
	 * leaves some: say what blocks it */
	bool left = x.adv->n_proposals > 0;
	for (size_t i = 0; left && i < x.adv->n_proposals; i++)
		left = x.adv->proposals[i].kind != SLT_PROPOSAL_SIZE &&
		       x.adv->proposals[i].score_after > 0;
	if (!rc && (!x.adv->n_proposals || left) && !x.o->size_only && x.before.coherence > 0) {
		double best = -1;
		for (size_t i = 0; i < x.adv->n_proposals; i++)
			if (best < 0 || x.adv->proposals[i].score_after < best)
				best = x.adv->proposals[i].score_after;
		const char *why = slt_adv_why_none(&x.us, x.o, x.ar, left, best, &rc);
		if (why)
			x.adv->note = why;
	}
	if (!rc && x.no_isolate) {
		const char *n = slt_arena_printf(x.ar, "%s%sno isolate proposal (a hot member "
			"alone in a line-aligned struct { ... } ____cacheline_aligned_in_smp) "
			"and no padding (CACHELINE_PADDING): each raises struct %s's alignment "
			"to %u bytes, %s: reorderings only; the proposals are "
			"priced where the instance may start (%zu start%s in a line)",
			x.adv->note, x.adv->note[0] ? "; " : "", a->layout->name, x.us.line,
			x.o->embedded ? "which moves it to the next line boundary in its "
			"container (--in) and grows the container" :
			x.o->base_align ? "which a base only known to be a multiple of "
			"--base-align does not get (a kmem_cache_create() without "
			"SLAB_HWCACHE_ALIGN honours its align argument, not the type's)" :
			"which the instance at its given base (--base, not line-aligned) "
			"does not get", x.us.n_origins, x.us.n_origins == 1 ? "" : "s");
		if (!n)
			rc = SLT_ENOMEM;
		else
			x.adv->note = n;
	}
	slt_adv_units_free(&x.us);
	if (rc) {
		slt_advice_free(x.adv);
		if (rc == SLT_ENOMEM)
			return slt_error_set(err, rc, NULL, -1, NULL, "out of memory");
		if (x.unsafe) /* the safety net said why in err */
			return rc;
		return slt_error_set(err, rc, NULL, -1, NULL,
				     "no legal layout for %s", a->layout->name);
	}
	slt_sort(x.adv->proposals, x.adv->n_proposals, sizeof(*x.adv->proposals), cmp_prop);
	if (x.adv->n_proposals > maxp)
		x.adv->n_proposals = maxp;
	if (!x.adv->n_proposals && !x.adv->note[0])
		x.adv->note = x.o->size_only ?
			"no smaller legal layout found" :
			"no layout with less sharing found: the layout has no sharing "
			"this model can remove";
	*out = x.adv;
	return 0;
}

void slt_advice_free(struct slt_advice *advice)
{
	if (!advice)
		return;
	free(advice->proposals);
	slt_arena_free(advice->priv_);
	free(advice);
}
