/* SPDX-License-Identifier: MIT */
/* Unit tests of src/engine/stats.c: the percentile definition, the ratio
 * of medians with its bootstrap interval on known distributions, the
 * verdict, determinism and bad input.  Every random draw comes from a
 * fixed seed, so each assertion has one outcome. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "structlint/validate.h"

/* The test's own generator (xorshift64*), independent of the one under
 * test. */
static double uniform01(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
}

/* N(mu, sigma) by Box-Muller. */
static double normal(uint64_t *s, double mu, double sigma)
{
	double u1 = uniform01(s), u2 = uniform01(s);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return mu + sigma * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static void fill_normal(double *x, size_t n, uint64_t *s, double mu, double sigma)
{
	for (size_t i = 0; i < n; i++)
		x[i] = normal(s, mu, sigma);
}

static void test_percentile_definition(void **state)
{
	(void)state;
	const double x[] = { 4, 1, 3, 2 };   /* sorted: 1 2 3 4 */
	assert_true(slt_stats_median(x, 4) == 2.5);
	/* h = 3 * 0.25 = 0.75: 1 + 0.75 * (2 - 1) */
	assert_true(fabs(slt_stats_percentile(x, 4, 25) - 1.75) < 1e-12);
	assert_true(slt_stats_percentile(x, 4, 0) == 1);
	assert_true(slt_stats_percentile(x, 4, 100) == 4);
	const double odd[] = { 9, 1, 5 };
	assert_true(slt_stats_median(odd, 3) == 5);
	const double one[] = { 7 };
	assert_true(slt_stats_percentile(one, 1, 90) == 7);
	assert_true(isnan(slt_stats_median(x, 0)));
	assert_true(isnan(slt_stats_percentile(x, 4, 101)));
	assert_true(isnan(slt_stats_percentile(x, 4, -1)));
	/* x is left as it was */
	assert_true(x[0] == 4 && x[1] == 1);
}

static void test_constant_zero_width(void **state)
{
	(void)state;
	double a[8], b[8];
	for (int i = 0; i < 8; i++) {
		a[i] = 1000.0;
		b[i] = 2000.0;
	}
	struct slt_ratio_ci ci;
	struct slt_error err;
	assert_int_equal(slt_stats_ratio_ci(a, 8, a, 8, 0, 0, 1, &ci, &err), 0);
	assert_true(ci.ratio == 1.0 && ci.lo == 1.0 && ci.hi == 1.0);
	assert_int_equal(ci.resamples, SLT_BOOTSTRAP_RESAMPLES);
	assert_true(ci.level == SLT_BOOTSTRAP_LEVEL);
	/* 1.0 is inside a zero-width interval at 1.0: no change */
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_NO_CHANGE);
	assert_int_equal(slt_stats_ratio_ci(a, 8, b, 8, 0, 0, 1, &ci, &err), 0);
	assert_true(ci.ratio == 2.0 && ci.lo == 2.0 && ci.hi == 2.0);
	assert_true(ci.median_a == 1000.0 && ci.median_b == 2000.0);
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_FASTER);
	/* two runs a side: the interval is zero-width too, but that says
	 * nothing about the noise: no verdict */
	assert_int_equal(slt_stats_ratio_ci(a, 2, b, 2, 0, 0, 1, &ci, &err), 0);
	assert_true(ci.lo == 2.0 && ci.hi == 2.0 && ci.n_a == 2 && ci.n_b == 2);
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_NONE);
	assert_int_equal(slt_stats_ratio_ci(a, 3, b, 3, 0, 0, 1, &ci, &err), 0);
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_FASTER);
}

static void test_separated_normals(void **state)
{
	(void)state;
	uint64_t s = 42;
	double a[10], b[10];
	fill_normal(a, 10, &s, 100.0, 5.0);
	fill_normal(b, 10, &s, 130.0, 5.0);
	struct slt_ratio_ci ci;
	struct slt_error err;
	assert_int_equal(slt_stats_ratio_ci(a, 10, b, 10, 0, 0, 7, &ci, &err), 0);
	assert_true(ci.lo > 1.0);
	assert_true(ci.lo <= ci.ratio && ci.ratio <= ci.hi);
	/* the true ratio 1.3 lies inside */
	assert_true(ci.lo < 1.3 && 1.3 < ci.hi);
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_FASTER);
	assert_string_equal(slt_verdict_name(slt_verdict_of(&ci)), "faster");
	/* the other way round: below 1.0, slower */
	assert_int_equal(slt_stats_ratio_ci(b, 10, a, 10, 0, 0, 7, &ci, &err), 0);
	assert_true(ci.hi < 1.0);
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_SLOWER);
	assert_string_equal(slt_verdict_name(SLT_VERDICT_SLOWER), "slower");
}

/* Identical distributions: over many seeded trials the 95% interval
 * contains 1.0 in the large majority.  The trials are fixed by their
 * seeds, so the count is one number; the bound (at least 80%, where a
 * calibrated interval gives about 95% and the percentile bootstrap of a
 * median on 10 runs a little less) says the interval is not too narrow. */
static void test_identical_coverage(void **state)
{
	(void)state;
	enum { TRIALS = 200, N = 10 };
	uint64_t s = 2024;
	unsigned contains = 0, faster = 0, slower = 0;
	for (unsigned t = 0; t < TRIALS; t++) {
		double a[N], b[N];
		fill_normal(a, N, &s, 1e6, 3e4);
		fill_normal(b, N, &s, 1e6, 3e4);
		struct slt_ratio_ci ci;
		assert_int_equal(slt_stats_ratio_ci(a, N, b, N, 2000, 0.95, t + 1,
						    &ci, NULL), 0);
		enum slt_verdict v = slt_verdict_of(&ci);
		contains += v == SLT_VERDICT_NO_CHANGE;
		faster += v == SLT_VERDICT_FASTER;
		slower += v == SLT_VERDICT_SLOWER;
	}
	print_message("identical distributions: 1.0 inside %u/%u (faster %u, slower %u)\n",
		      contains, TRIALS, faster, slower);
	assert_true(contains >= TRIALS * 8 / 10);
	assert_int_equal(contains + faster + slower, TRIALS);
}

static void test_deterministic(void **state)
{
	(void)state;
	uint64_t s = 9;
	double a[12], b[12];
	fill_normal(a, 12, &s, 50.0, 10.0);
	fill_normal(b, 12, &s, 55.0, 10.0);
	struct slt_ratio_ci c1, c2, c3;
	assert_int_equal(slt_stats_ratio_ci(a, 12, b, 12, 0, 0, 123, &c1, NULL), 0);
	assert_int_equal(slt_stats_ratio_ci(a, 12, b, 12, 0, 0, 123, &c2, NULL), 0);
	assert_true(c1.lo == c2.lo && c1.hi == c2.hi);
	assert_int_equal(c1.seed, 123);
	/* another seed: another interval, but about the same one */
	assert_int_equal(slt_stats_ratio_ci(a, 12, b, 12, 0, 0, 124, &c3, NULL), 0);
	assert_true(fabs(c3.lo - c1.lo) < 0.05 && fabs(c3.hi - c1.hi) < 0.05);
	/* a wider level gives a wider interval */
	struct slt_ratio_ci w;
	assert_int_equal(slt_stats_ratio_ci(a, 12, b, 12, 0, 0.99, 123, &w, NULL), 0);
	assert_true(w.lo <= c1.lo && w.hi >= c1.hi);
}

/* Paired: a drift that moves both runs of a round alike cancels.  Runs
 * climb from 100 to 190 (a machine getting quieter), B is A + 5% each
 * round: the independent interval is wide and contains 1.0, the paired
 * one is the constant ratio. */
static void test_paired_drift(void **state)
{
	(void)state;
	double a[10], b[10];
	for (int i = 0; i < 10; i++) {
		a[i] = 100.0 + 10.0 * i;
		b[i] = a[i] * 1.05;
	}
	struct slt_ratio_ci ind, par;
	assert_int_equal(slt_stats_ratio_ci(a, 10, b, 10, 0, 0, 3, &ind, NULL), 0);
	assert_int_equal(slt_stats_paired_ratio_ci(a, b, 10, 0, &par, NULL), 0);
	assert_true(ind.lo < 1.0 && ind.hi > 1.0);
	assert_int_equal(slt_verdict_of(&ind), SLT_VERDICT_NO_CHANGE);
	assert_false(ind.paired);
	assert_true(par.paired && par.n_a == 10 && par.n_b == 10);
	assert_true(fabs(par.ratio - 1.05) < 1e-12);
	assert_true(fabs(par.lo - 1.05) < 1e-12 && fabs(par.hi - 1.05) < 1e-12);
	assert_int_equal(slt_verdict_of(&par), SLT_VERDICT_FASTER);
	/* medians of each side as given */
	assert_true(par.median_a == slt_stats_median(a, 10));
	assert_true(par.median_b == slt_stats_median(b, 10));

	/* with noise on top: per-round ratio N(1.05, 0.01), still above 1 */
	uint64_t s = 77;
	for (int i = 0; i < 10; i++)
		b[i] = a[i] * normal(&s, 1.05, 0.01);
	assert_int_equal(slt_stats_paired_ratio_ci(a, b, 10, 0, &par, NULL), 0);
	assert_true(par.lo > 1.0 && par.lo < 1.05 && par.hi > 1.05);
	/* swapped: slower */
	assert_int_equal(slt_stats_paired_ratio_ci(b, a, 10, 0, &par, NULL), 0);
	assert_int_equal(slt_verdict_of(&par), SLT_VERDICT_SLOWER);
}

/* Paired, identical distributions: 1.0 inside in most seeded trials. */
static void test_paired_coverage(void **state)
{
	(void)state;
	enum { TRIALS = 200, N = 10 };
	uint64_t s = 31337;
	unsigned contains = 0;
	for (unsigned t = 0; t < TRIALS; t++) {
		double a[N], b[N];
		for (int i = 0; i < N; i++) {
			double drift = 1.0 + 0.05 * i;
			a[i] = drift * normal(&s, 1e6, 3e4);
			b[i] = drift * normal(&s, 1e6, 3e4);
		}
		struct slt_ratio_ci ci;
		assert_int_equal(slt_stats_paired_ratio_ci(a, b, N, 0.95, &ci, NULL), 0);
		contains += slt_verdict_of(&ci) == SLT_VERDICT_NO_CHANGE;
	}
	print_message("paired, identical distributions: 1.0 inside %u/%u\n", contains, TRIALS);
	assert_true(contains >= TRIALS * 8 / 10);
}

/* Student's t quantiles against the published table (e.g. Fisher &
 * Yates; any statistics text): 0.975 at 1, 4, 19 and 100 degrees of
 * freedom, 0.95 at 9. */
static void test_t_quantile(void **state)
{
	(void)state;
	assert_true(fabs(slt_stats_t_quantile(0.975, 1) - 12.7062047) < 1e-6);
	assert_true(fabs(slt_stats_t_quantile(0.975, 4) - 2.7764451) < 1e-6);
	assert_true(fabs(slt_stats_t_quantile(0.975, 19) - 2.0930241) < 1e-6);
	assert_true(fabs(slt_stats_t_quantile(0.975, 100) - 1.9839715) < 1e-6);
	assert_true(fabs(slt_stats_t_quantile(0.95, 9) - 1.8331129) < 1e-6);
	assert_true(fabs(slt_stats_t_quantile(0.025, 4) + 2.7764451) < 1e-6);
	assert_true(isnan(slt_stats_t_quantile(1.0, 4)));
	assert_true(isnan(slt_stats_t_quantile(0.5, 0)));
}

/* A/A at few rounds: the paired interval (the verdict's by default) keeps
 * its 95% level at n = 5 and n = 20.  Each seeded trial draws n rounds
 * whose two runs share a drift and carry independent multiplicative
 * noise (log-normal, 3%), the same distribution for A and B: 1.0 is the
 * true ratio, and the interval must contain it in at least 95% - 2% of
 * 2000 trials (binomial standard error 0.5%; the percentile bootstrap of
 * the median undercovers badly at n = 5). */
static void test_paired_aa_coverage(void **state)
{
	(void)state;
	enum { TRIALS = 2000 };
	const size_t ns[] = { 5, 20 };
	for (size_t k = 0; k < 2; k++) {
		size_t n = ns[k];
		uint64_t s = 4242 + n;
		unsigned contains = 0, verdicts = 0;
		for (unsigned t = 0; t < TRIALS; t++) {
			double a[20], b[20];
			for (size_t i = 0; i < n; i++) {
				double drift = 1e6 * (1.0 + 0.1 * (double)i);
				a[i] = drift * exp(normal(&s, 0.0, 0.03));
				b[i] = drift * exp(normal(&s, 0.0, 0.03));
			}
			struct slt_ratio_ci ci;
			assert_int_equal(slt_stats_paired_ratio_ci(a, b, n, 0.95, &ci, NULL), 0);
			contains += ci.lo <= 1.0 && 1.0 <= ci.hi;
			verdicts += slt_verdict_of(&ci) != SLT_VERDICT_NO_CHANGE;
		}
		print_message("paired t, A/A, n = %zu: 1.0 inside %u/%u, a verdict in %u\n",
			      n, contains, TRIALS, verdicts);
		assert_true(contains >= TRIALS * 93 / 100);
		assert_int_equal(verdicts, TRIALS - contains);
	}
}

/* One or two rounds: no verdict, and one round has no interval. */
static void test_too_few(void **state)
{
	(void)state;
	double a[2] = { 100, 110 }, b[2] = { 150, 160 };
	struct slt_ratio_ci ci;
	assert_int_equal(slt_stats_paired_ratio_ci(a, b, 1, 0, &ci, NULL), 0);
	assert_true(isnan(ci.lo) && isnan(ci.hi) && fabs(ci.ratio - 1.5) < 1e-12);
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_NONE);
	assert_int_equal(slt_stats_paired_ratio_ci(a, b, 2, 0, &ci, NULL), 0);
	assert_true(ci.lo < ci.hi);
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_NONE);
	assert_int_equal(slt_stats_ratio_ci(a, 2, b, 2, 0, 0, 1, &ci, NULL), 0);
	assert_int_equal(slt_verdict_of(&ci), SLT_VERDICT_NONE);
	assert_string_equal(slt_verdict_name(SLT_VERDICT_NONE), "no verdict");
}

static void test_bad_input(void **state)
{
	(void)state;
	double a[3] = { 1, 2, 3 }, z[3] = { 1, 0, 3 }, nn[3] = { 1, NAN, 3 };
	struct slt_ratio_ci ci;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_stats_ratio_ci(a, 0, a, 3, 0, 0, 1, &ci, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "no A runs"));
	slt_error_clear(&err);
	assert_int_equal(slt_stats_ratio_ci(a, 3, z, 3, 0, 0, 1, &ci, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "B run 2"));
	assert_int_equal(slt_stats_ratio_ci(nn, 3, a, 3, 0, 0, 1, &ci, NULL), SLT_EUSAGE);
	assert_int_equal(slt_stats_ratio_ci(a, 3, a, 3, 0, 1.0, 1, &ci, NULL), SLT_EUSAGE);
	assert_int_equal(slt_stats_ratio_ci(a, 3, a, 3, 0, -0.5, 1, &ci, NULL), SLT_EUSAGE);
	assert_string_equal(slt_verdict_name(SLT_VERDICT_NO_CHANGE), "no measurable change");
	assert_int_equal(slt_stats_paired_ratio_ci(a, z, 3, 0, &ci, NULL), SLT_EUSAGE);
	assert_int_equal(slt_stats_paired_ratio_ci(a, a, 0, 0, &ci, NULL), SLT_EUSAGE);
	assert_int_equal(slt_stats_paired_ratio_ci(a, a, 3, 2.0, &ci, NULL), SLT_EUSAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentile_definition),
		cmocka_unit_test(test_constant_zero_width),
		cmocka_unit_test(test_separated_normals),
		cmocka_unit_test(test_identical_coverage),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_paired_drift),
		cmocka_unit_test(test_paired_coverage),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_paired_aa_coverage),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
