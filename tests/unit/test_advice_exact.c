/* SPDX-License-Identifier: MIT */
/*
 * The layout advisor's exact searches (src/advice: the subset DP over
 * units, the hot member's isolation) against brute force on random structs
 * (advice_helpers.h): equal optima on small structs with pins, flexible
 * tails and byte budgets, and the heuristic's measured gap to them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "advice/advice_int.h"
#include "advice_helpers.h"
#include "heavy.h"
#include "structlint/advice.h"
#include "structlint/analysis.h"

/* A flexible array member at the end of r (size 0, last). */
static void add_flex(struct rs *r)
{
	size_t n = r->s.n_members;
	struct slt_member *m = &r->m[n];
	uint64_t end = n ? r->m[n - 1].offset + r->m[n - 1].size : 0;
	snprintf(r->names[n], sizeof(r->names[n]), "flex");
	if (r->s.alignment < 4)
		r->s.alignment = 4;
	r->s.size = up(up(end, 4), r->s.alignment);
	*m = (struct slt_member){ .name = r->names[n], .type = "t", .decl_head = "t ",
		.decl_tail = "[]", .offset = up(end, 4), .size = 0, .natural_alignment = 4,
		.flags = SLT_MEMBER_ZERO_SIZE | SLT_MEMBER_FLEX, .parent = -1 };
	r->cls[n] = SLT_CLASS_NONE;
	r->s.n_members = r->s.n_top_members = n + 1;
}

/* Objectives equal up to the rounding of summing lines in another order. */
static bool same_obj(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) > 1 ? fabs(a) : 1);
}

/* The subset DP's optimum equals brute force's on random structs of up to
 * 6 units (7 without padding), with pins (anchored units), a flexible
 * tail and byte budgets. */
static void test_exact_vs_brute(void **state)
{
	(void)state;
	size_t n_cases = 0, n_budget = 0, n_nf = 0, n_labelled = 0;
	const int n_it = reps(160, 60);
	for (int it = 0; it < n_it; it++) {
		struct rs r;
		struct slt_error err = { 0 };
		struct slt_adv_units us;
		struct slt_adv_weights w;
		struct slt_adv_plan bp, ep;
		struct slt_adv_cost bc, ec;
		const char *pins[1];
		struct slt_advice_opts o = { .cacheline_size = 64 };
		struct slt_adv_search s = { .max_size = UINT64_MAX,
					    .allow_padding = it % 5 != 4 };
		double bo, eo;
		int rc;

		gen(&r, s.allow_padding ? 2 + rnd(5) : 5 + rnd(3));
		r.cls[rnd((uint32_t)r.s.n_members)] = SLT_CLASS_HOT_WRITE;
		/* writer labels in a third of the cases: both searches price
		 * write-write between labels through the same cost */
		if (it % 3 == 1) {
			add_labels(&r);
			n_labelled++;
		}
		if (rnd(4) == 0)
			add_flex(&r);
		if (rnd(3) == 0) {
			pins[0] = r.names[rnd((uint32_t)r.s.n_members)];
			o.pins = pins;
			o.n_pins = 1;
		}
		struct slt_analysis *a = analyze_l(&r.s, r.cls, r.lab);
		assert_int_equal(slt_adv_units_build(a, &o, &us, &err), 0);
		slt_adv_weights_default(&us, &w);
		for (int pass = 0; pass < 2; pass++) {
			rc = slt_adv_search_brute(&us, &s, &w, &bp, &bc);
			/* half the time bounded by the original order */
			struct slt_adv_plan id;
			assert_int_equal(slt_adv_plan_identity(&us, &id), 0);
			int erc = slt_adv_search_exact(&us, &s, &w, it & 1 ? &id : NULL,
						       0, &ep, &ec);
			slt_adv_plan_free(&id);
			assert_int_equal(erc, rc);
			if (rc == SLT_ENOTFOUND) {
				n_nf++;
				break;
			}
			assert_int_equal(rc, 0);
			assert_true(slt_adv_objective(&us, &s, &w, &bp, &bo, &bc, &rc));
			assert_true(slt_adv_objective(&us, &s, &w, &ep, &eo, &ec, &rc));
			if (!same_obj(eo, bo))
				printf("# it %d pass %d: exact %.17g brute %.17g\n",
				       it, pass, eo, bo);
			assert_true(same_obj(eo, bo));
			n_cases++;
			n_budget += pass;
			slt_adv_plan_free(&bp);
			slt_adv_plan_free(&ep);
			/* a budget below the optimum's size: the next best */
			if (bc.size <= 1)
				break;
			s.max_size = bc.size - 1 - rnd(16) % bc.size;
		}
		slt_adv_units_free(&us);
		slt_analysis_free(a);
	}
	printf("# exact DP == brute force on %zu cases (%zu with a byte budget), "
	       "%zu budgets with no legal layout in both; %zu structs with writer "
	       "labels\n", n_cases, n_budget, n_nf, n_labelled);
	assert_true(n_labelled > 0);
	assert_true(n_cases >= (size_t)n_it);
}

/* The heuristic against the exact optimum on 9..18 units: never better
 * (the oracle would be wrong), its gap printed; the DP's time and how
 * often it gives up (150,000 states) on 12, 15 and 18 units. */
static void test_exact_gap(void **state)
{
	(void)state;
	enum { NMAX = 40 };
	const int N = reps(NMAX, 24);   /* 6 each of 12, 15, 18 units, then 9-12 */
	double gaps[NMAX], tmax[4] = { 0 };
	size_t ng = 0, exact = 0, gave_up[4] = { 0 }, nt[4] = { 0 };
	for (int it = 0; it < N; it++) {
		struct rs r;
		struct slt_error err = { 0 };
		struct slt_adv_units us;
		struct slt_adv_weights w;
		struct slt_adv_plan hp, ep;
		struct slt_adv_cost hc, ec;
		struct slt_advice_opts o = { .cacheline_size = 64 };
		struct slt_adv_search s = { .max_size = UINT64_MAX, .allow_padding = true };
		double ho, eo;
		struct timespec t0, t1;
		int rc, ti = it < 18 ? it / 6 : 3;
		size_t n = ti < 3 ? 12 + 3 * (size_t)ti : 9 + rnd(4);

		gen(&r, n);
		r.cls[rnd((uint32_t)n)] = SLT_CLASS_HOT_WRITE;
		struct slt_analysis *a = analyze(&r.s, r.cls);
		assert_int_equal(slt_adv_units_build(a, &o, &us, &err), 0);
		slt_adv_weights_default(&us, &w);
		assert_int_equal(slt_adv_search_heuristic(&us, &s, &w, &hp, &hc, NULL), 0);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = slt_adv_search_exact(&us, &s, &w, &hp, 150000, &ep, &ec);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double sec = (double)(t1.tv_sec - t0.tv_sec) +
			     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		nt[ti]++;
		if (sec > tmax[ti])
			tmax[ti] = sec;
		if (rc == SLT_EUNSUPPORTED) {
			gave_up[ti]++;
		} else {
			assert_int_equal(rc, 0);
			assert_true(slt_adv_objective(&us, &s, &w, &hp, &ho, &hc, &rc));
			assert_true(slt_adv_objective(&us, &s, &w, &ep, &eo, &ec, &rc));
			assert_true(eo <= ho + 1e-9 * (fabs(ho) > 1 ? fabs(ho) : 1));
			gaps[ng++] = (ho - eo) / (eo > 1e-12 ? eo : 1e-12);
			exact += same_obj(ho, eo);
			slt_adv_plan_free(&ep);
		}
		slt_adv_plan_free(&hp);
		slt_adv_units_free(&us);
		slt_analysis_free(a);
	}
	qsort(gaps, ng, sizeof(*gaps), cmp_d);
	printf("# heuristic vs exact DP on %zu random structs (9-18 units) the DP "
	       "solved: heuristic optimal in %zu, relative objective gap median "
	       "%.4g, p90 %.4g, max %.4g\n", ng, exact, ng ? gaps[ng / 2] : 0,
	       ng ? gaps[ng * 9 / 10] : 0, ng ? gaps[ng - 1] : 0);
	printf("# exact DP: 12 units gave up %zu/%zu (max %.3f s), 15 units %zu/%zu "
	       "(%.3f s), 18 units %zu/%zu (%.3f s), 9-12 units %zu/%zu (%.3f s)\n",
	       gave_up[0], nt[0], tmax[0], gave_up[1], nt[1], tmax[1], gave_up[2],
	       nt[2], tmax[2], gave_up[3], nt[3], tmax[3]);
	assert_true(ng >= (size_t)N / 4);
}

/* Exactly h of r's members hot (read-mostly, hot-write or mixed), the rest
 * cold or unclassed. */
static void set_hot(struct rs *r, size_t h)
{
	static const enum slt_class hotc[] = { SLT_CLASS_READ_MOSTLY,
		SLT_CLASS_HOT_WRITE, SLT_CLASS_READ_MOSTLY, SLT_CLASS_MIXED };
	size_t n = r->s.n_members;
	for (size_t i = 0; i < n; i++)
		r->cls[i] = rnd(2) ? SLT_CLASS_COLD : SLT_CLASS_NONE;
	for (size_t k = 0; k < h && k < n; k++) {
		size_t i = rnd((uint32_t)n);
		while (r->cls[i] != SLT_CLASS_COLD && r->cls[i] != SLT_CLASS_NONE)
			i = (i + 1) % n;
		r->cls[i] = hotc[rnd(4)];
	}
}

/* The hot-set DP on small random structs against brute force over every
 * order and padding choice: a legal plan, never better than the exhaustive
 * optimum (that would make one of them wrong); how often it reaches it and
 * the gap when it does not (layouts outside its model) are printed. */
static void test_hot_vs_brute(void **state)
{
	(void)state;
	size_t n_cases = 0, n_eq = 0, n_usage = 0, n_eq_coh = 0;
	double gaps[250];
	size_t ng = 0;
	const int n_it = reps(250, 50);
	for (int it = 0; it < n_it; it++) {
		struct rs r;
		struct slt_error err = { 0 };
		struct slt_adv_units us;
		struct slt_adv_weights w;
		struct slt_adv_plan bp, hp;
		struct slt_adv_cost bc, hc;
		struct slt_advice_opts o = { .cacheline_size = 64,
					     .move_first = it % 3 == 0 };
		struct slt_adv_search s = { .max_size = UINT64_MAX,
					    .allow_padding = true };
		struct slt_adv_hot_info info;
		double bo, ho;
		int rc;

		gen(&r, 3 + rnd(5));
		set_hot(&r, 2 + rnd((uint32_t)r.s.n_members - 1));
		if (it % 3 == 2)
			add_labels(&r);   /* write-write between writer labels */
		if (rnd(4) == 0)
			add_flex(&r);
		struct slt_analysis *a = analyze_l(&r.s, r.cls, r.lab);
		assert_int_equal(slt_adv_units_build(a, &o, &us, &err), 0);
		slt_adv_weights_default(&us, &w);
		rc = slt_adv_search_hot(&us, &s, &w, 0, &hp, &hc, &info);
		if (rc == SLT_EUSAGE) {
			n_usage++;
		} else {
			assert_int_equal(rc, 0);
			assert_int_equal(slt_adv_search_brute(&us, &s, &w, &bp, &bc), 0);
			assert_true(slt_adv_objective(&us, &s, &w, &bp, &bo, &bc, &rc));
			assert_true(slt_adv_objective(&us, &s, &w, &hp, &ho, &hc, &rc));
			assert_true(ho >= bo - 1e-9 * (fabs(bo) > 1 ? fabs(bo) : 1));
			n_cases++;
			n_eq += same_obj(ho, bo);
			n_eq_coh += fabs(hc.coherence - bc.coherence) < 1e-9;
			if (!same_obj(ho, bo))
				gaps[ng++] = (ho - bo) / (bo > 1e-12 ? bo : 1e-12);
			slt_adv_plan_free(&bp);
			slt_adv_plan_free(&hp);
		}
		slt_adv_units_free(&us);
		slt_analysis_free(a);
	}
	qsort(gaps, ng, sizeof(*gaps), cmp_d);
	printf("# hot-set DP vs brute force on %zu random structs (3-8 units): "
	       "same objective %zu, same coherence %zu; gap where not: median %.4g, "
	       "max %.4g; outside the model (EUSAGE) %zu\n", n_cases, n_eq,
	       n_eq_coh, ng ? gaps[ng / 2] : 0, ng ? gaps[ng - 1] : 0, n_usage);
	assert_true(n_cases >= (size_t)n_it * 3 / 5);
}

/* The hot-set DP on random structs with 10-18 hot units: it finishes within
 * its step budget in every case, its sharing estimate is never above the
 * heuristic's, and the objective gaps (DP alone, DP + local search) to the
 * heuristic are printed: the size part is FFD's bound, not an optimum. */
static void test_hot_gap(void **state)
{
	(void)state;
	enum { NMAX = 45 };
	const int N = reps(NMAX, 18);   /* 10..18 hot units, each at least twice */
	double gaps[NMAX];
	size_t ng = 0, done = 0, worse = 0, same = 0, pass1 = 0, maxsteps = 0;
	size_t coh_better = 0, coh_worse = 0, pworse = 0, psame = 0;
	for (int it = 0; it < N; it++) {
		struct rs r;
		struct slt_error err = { 0 };
		struct slt_adv_units us;
		struct slt_adv_weights w;
		struct slt_adv_plan hp, dp;
		struct slt_adv_cost hc, dc;
		struct slt_advice_opts o = { .cacheline_size = 64 };
		struct slt_adv_search s = { .max_size = UINT64_MAX, .allow_padding = true };
		struct slt_adv_hot_info info;
		size_t h = 10 + (size_t)it % 9;
		double ho, dobj;
		int rc;

		gen(&r, h + 2 + rnd(12));
		set_hot(&r, h);
		struct slt_analysis *a = analyze(&r.s, r.cls);
		assert_int_equal(slt_adv_units_build(a, &o, &us, &err), 0);
		slt_adv_weights_default(&us, &w);
		assert_int_equal(slt_adv_search_heuristic(&us, &s, &w, &hp, &hc, NULL), 0);
		rc = slt_adv_search_hot(&us, &s, &w, 0, &dp, &dc, &info);
		assert_int_equal(rc, 0);
		done++;
		if (info.steps > maxsteps)
			maxsteps = info.steps;
		pass1 += info.pass == 1;
		assert_true(slt_adv_objective(&us, &s, &w, &hp, &ho, &hc, &rc));
		assert_true(slt_adv_objective(&us, &s, &w, &dp, &dobj, &dc, &rc));
		same += same_obj(ho, dobj);
		worse += dobj > ho + 1e-9 * (fabs(ho) > 1 ? fabs(ho) : 1);
		coh_better += dc.coherence < hc.coherence - 1e-9;
		coh_worse += dc.coherence > hc.coherence + 1e-9;
		/* the DP's plan polished by the local search, as slt_advise()
		 * uses it: never worse than the heuristic's */
		assert_int_equal(slt_adv_search_polish(&us, &s, &w, &dp, &dc, NULL), 0);
		assert_true(slt_adv_objective(&us, &s, &w, &dp, &dobj, &dc, &rc));
		pworse += dobj > ho + 1e-9 * (fabs(ho) > 1 ? fabs(ho) : 1);
		psame += same_obj(ho, dobj);
		gaps[ng++] = (ho - dobj) / (dobj > 1e-12 ? dobj : 1e-12);
		slt_adv_plan_free(&dp);
		slt_adv_plan_free(&hp);
		slt_adv_units_free(&us);
		slt_analysis_free(a);
	}
	qsort(gaps, ng, sizeof(*gaps), cmp_d);
	printf("# hot-set DP on %zu random structs with 10-18 hot units: finished "
	       "%zu (max %zu group steps), byte-price pass won %zu; DP alone vs "
	       "heuristic: same objective %zu, worse %zu (coherence lower %zu, "
	       "higher %zu)\n", (size_t)N, done, maxsteps, pass1, same, worse,
	       coh_better, coh_worse);
	printf("# DP + local search vs heuristic: same %zu, worse %zu; relative gap "
	       "(heuristic - DP) / DP: min %.4g, median %.4g, p90 %.4g, max %.4g\n",
	       psame, pworse, gaps[0], gaps[ng / 2], gaps[ng * 9 / 10], gaps[ng - 1]);
	assert_int_equal(done, (size_t)N);
	/* on the classes basis a hot unit straddling two lines counts on both
	 * (F = read-mostly x written leaves only grows), so no layout has less
	 * sharing than the DP's partition optimum */
	assert_int_equal(coh_worse, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_vs_brute),
		cmocka_unit_test(test_exact_gap),
		cmocka_unit_test(test_hot_vs_brute),
		cmocka_unit_test(test_hot_gap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
