/* SPDX-License-Identifier: MIT */
/*
 * What slt_advise()'s files share (advise.c: the driver, the search and
 * adding a proposal; kinds.c: the MINIMAL and ISOLATE runs).
 */
#ifndef SLT_ADVISE_INT_H
#define SLT_ADVISE_INT_H

#include "advice/advice_int.h"

struct adv_ctx {
	const struct slt_analysis *a;
	const struct slt_advice_opts *o;
	struct slt_adv_units us;
	struct slt_adv_weights w;
	struct slt_adv_cost before;
	struct slt_advice *adv;
	struct slt_arena *ar;
	size_t cap;
	bool exact_gave_up;    /* the exact search ran out of budget once */
	uint64_t regroup_size; /* bytes of the REGROUP search's result when
				  the exact subset DP found it (UINT64_MAX:
				  none, or not proven optimal) */
	const char *method;    /* how the last search() found its plan, for
				  the summary (static or from ar) */
	struct slt_error *err; /* set by the safety net (internal error) */
	bool unsafe;           /* the safety net refused a proposal */
	bool no_isolate;       /* ISOLATE not tried: the instance is embedded
				  or only base_align-aligned */
};

/* The best plan the search finds for s (exact, hot-set DP or local
 * search, advise.c), its cost in *c. */
int adv_search(struct adv_ctx *x, const struct slt_adv_search *s,
	       struct slt_adv_plan *p, struct slt_adv_cost *c);
/* Add the proposal of plan p (cost c) of kind k unless it is no better
 * or a duplicate. */
int adv_add(struct adv_ctx *x, enum slt_proposal_kind k,
	    const struct slt_adv_plan *p, const struct slt_adv_cost *c);
/* kinds.c */
int adv_run_minimal(struct adv_ctx *x, const struct slt_adv_search *s);
int adv_run_isolate(struct adv_ctx *x, const struct slt_adv_search *s);

#endif
