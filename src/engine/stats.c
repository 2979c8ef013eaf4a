/* SPDX-License-Identifier: MIT */
/*
 * Statistics of `validate` (include/structlint/validate.h): percentiles
 * (Hyndman & Fan definition 7), and the ratio of medians with a
 * percentile-bootstrap confidence interval (Efron & Tibshirani, "An
 * Introduction to the Bootstrap", 1993, ch. 13): the two samples are
 * resampled independently with replacement (or, paired, the per-pair
 * ratios are resampled), the interval is read off the sorted bootstrap
 * ratios at (1 - level) / 2 and (1 + level) / 2; and the paired
 * interval: a Student t interval on the log of the per-pair ratios
 * (Student, "The probable error of a mean", Biometrika 6, 1908), exact
 * when the ratios are log-normal, whatever the number of pairs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "structlint/validate.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

double slt_stats_percentile_sorted(const double *s, size_t n, double p)
{
	if (!n || !(p >= 0.0 && p <= 100.0))
		return NAN;
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);
	if (lo >= n - 1)
		return s[n - 1];
	return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

double slt_stats_percentile(const double *x, size_t n, double p)
{
	if (!n || !(p >= 0.0 && p <= 100.0))
		return NAN;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	double v = slt_stats_percentile_sorted(s, n, p);
	free(s);
	return v;
}

double slt_stats_median(const double *x, size_t n)
{
	return slt_stats_percentile(x, n, 50.0);
}

/* splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): one
 * 64-bit state, good enough for resampling indices, same sequence on every
 * platform. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* An index uniform in [0, n) (Lemire's multiply-shift; the bias for the
 * sample sizes used here, n << 2^32, is below 2^-32). */
static size_t draw_index(uint64_t *state, size_t n)
{
	uint64_t r = splitmix64(state) >> 32;
	return (size_t)((r * (uint64_t)n) >> 32);
}

/* Median of a resample of x[0..n) into buf[0..n). */
static double resample_median(const double *x, size_t n, double *buf,
			      uint64_t *state)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = x[draw_index(state, n)];
	qsort(buf, n, sizeof(*buf), cmp_double);
	return slt_stats_percentile_sorted(buf, n, 50.0);
}

static int check_sample(const double *x, size_t n, const char *which,
			struct slt_error *err)
{
	if (!n)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "run at least one round",
				     "no %s runs to compare", which);
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]) || x[i] <= 0.0)
			return slt_error_set(err, SLT_EUSAGE, NULL, -1,
					     "every run must complete some operations",
					     "%s run %zu has %g ops/s", which, i + 1, x[i]);
	return 0;
}

/* The confidence level (0 = SLT_BOOTSTRAP_LEVEL, stored back) and both
 * samples of an interval: 0 or SLT_EUSAGE. */
static int check_inputs(const double *a, size_t na, const double *b, size_t nb,
			double *level, struct slt_error *err)
{
	if (*level == 0.0)
		*level = SLT_BOOTSTRAP_LEVEL;
	if (!(*level > 0.0 && *level < 1.0))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "e.g. 0.95",
				     "confidence level %g is not between 0 and 1", *level);
	int rc = check_sample(a, na, "A", err);
	return rc ? rc : check_sample(b, nb, "B", err);
}

int slt_stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		       unsigned resamples, double level, uint64_t seed,
		       struct slt_ratio_ci *out, struct slt_error *err)
{
	if (!resamples)
		resamples = SLT_BOOTSTRAP_RESAMPLES;
	int rc = check_inputs(a, na, b, nb, &level, err);
	if (rc)
		return rc;
	double *buf = malloc((na > nb ? na : nb) * sizeof(*buf));
	double *ratios = malloc((size_t)resamples * sizeof(*ratios));
	if (!buf || !ratios) {
		free(buf);
		free(ratios);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	memset(out, 0, sizeof(*out));
	out->median_a = slt_stats_median(a, na);
	out->median_b = slt_stats_median(b, nb);
	if (isnan(out->median_a) || isnan(out->median_b)) {
		free(buf);
		free(ratios);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	out->ratio = out->median_b / out->median_a;
	out->level = level;
	out->resamples = resamples;
	out->seed = seed;
	out->n_a = na;
	out->n_b = nb;
	uint64_t state = seed;
	for (unsigned r = 0; r < resamples; r++) {
		double ma = resample_median(a, na, buf, &state);
		double mb = resample_median(b, nb, buf, &state);
		ratios[r] = mb / ma;
	}
	qsort(ratios, resamples, sizeof(*ratios), cmp_double);
	out->lo = slt_stats_percentile_sorted(ratios, resamples, 100.0 * (1.0 - level) / 2.0);
	out->hi = slt_stats_percentile_sorted(ratios, resamples, 100.0 * (1.0 + level) / 2.0);
	free(buf);
	free(ratios);
	return 0;
}

/* Continued fraction of the regularized incomplete beta function
 * (modified Lentz; Press et al., "Numerical Recipes in C", 2nd ed.,
 * 1992, 6.4 betacf). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1.0, qam = a - 1.0;
	double c = 1.0, d = 1.0 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1.0) < eps)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double ibeta(double a, double b, double x)
{
	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	double bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return bt * betacf(a, b, x) / a;
	return 1.0 - bt * betacf(b, a, 1.0 - x) / b;
}

/* P(T <= t) for Student's t with df degrees of freedom. */
static double t_cdf(double t, double df)
{
	double tail = 0.5 * ibeta(df / 2.0, 0.5, df / (df + t * t));
	return t >= 0.0 ? 1.0 - tail : tail;
}

double slt_stats_t_quantile(double p, double df)
{
	if (!(p > 0.0 && p < 1.0) || !(df > 0.0) || !isfinite(df))
		return NAN;
	if (p < 0.5)
		return -slt_stats_t_quantile(1.0 - p, df);
	double lo = 0.0, hi = 1.0;
	while (t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2.0;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

int slt_stats_paired_ratio_ci(const double *a, const double *b, size_t n,
			      double level, struct slt_ratio_ci *out,
			      struct slt_error *err)
{
	int rc = check_inputs(a, n, b, n, &level, err);
	if (rc)
		return rc;
	memset(out, 0, sizeof(*out));
	out->median_a = slt_stats_median(a, n);
	out->median_b = slt_stats_median(b, n);
	if (isnan(out->median_a) || isnan(out->median_b))
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	/* mean and standard deviation of the log ratios (two passes) */
	double mean = 0.0, ss = 0.0;
	for (size_t i = 0; i < n; i++)
		mean += log(b[i] / a[i]);
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = log(b[i] / a[i]) - mean;
		ss += d * d;
	}
	out->ratio = exp(mean);
	out->level = level;
	out->n_a = out->n_b = n;
	out->paired = true;
	if (n < 2) {
		out->lo = out->hi = NAN;   /* no spread: no interval */
		return 0;
	}
	double se = sqrt(ss / (double)(n - 1)) / sqrt((double)n);
	double t = slt_stats_t_quantile((1.0 + level) / 2.0, (double)(n - 1));
	out->lo = exp(mean - t * se);
	out->hi = exp(mean + t * se);
	return 0;
}

enum slt_verdict slt_verdict_of(const struct slt_ratio_ci *ci)
{
	if (ci->n_a < SLT_VERDICT_MIN_RUNS || ci->n_b < SLT_VERDICT_MIN_RUNS ||
	    isnan(ci->lo) || isnan(ci->hi))
		return SLT_VERDICT_NONE;
	if (ci->lo > 1.0)
		return SLT_VERDICT_FASTER;
	if (ci->hi < 1.0)
		return SLT_VERDICT_SLOWER;
	return SLT_VERDICT_NO_CHANGE;
}

const char *slt_verdict_name(enum slt_verdict v)
{
	switch (v) {
	case SLT_VERDICT_FASTER: return "faster";
	case SLT_VERDICT_SLOWER: return "slower";
	case SLT_VERDICT_NONE: return "no verdict";
	case SLT_VERDICT_NO_CHANGE: break;
	}
	return "no measurable change";
}
