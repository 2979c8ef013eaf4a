/* SPDX-License-Identifier: MIT */
/*
 * structlint — `validate`: measure a layout against another with the
 * reference stats engine (include/structlint/engine.h) and say whether the
 * difference is real.
 *
 * Two parts:
 *  1. Statistics (src/engine/stats.c): medians and percentiles of run
 *     figures, the ratio of medians B/A with a 95% percentile-bootstrap
 *     confidence interval, and the verdict drawn from it.  No engine needed.
 *  2. The A/B runner (src/engine/validate.c): layout A (the original) and
 *     layout B (a proposal or another real layout) run in interleaved
 *     rounds, ABBA order, and the statistics above applied to their ops/s.
 *
 * Units: throughput in operations per second (ops/s); times in ns unless
 * named otherwise; ratios are B/A (above 1.0: B does more ops/s).
 */
#ifndef STRUCTLINT_VALIDATE_H
#define STRUCTLINT_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLT_SCHEMA_VALIDATE "structlint.validate/v1"

/* ---- statistics -------------------------------------------------------- */

/*
 * The p-th percentile (0 <= p <= 100) of x[0..n), n >= 1, by linear
 * interpolation between closest ranks (Hyndman & Fan 1996, definition 7;
 * numpy's and R's default): with the values sorted ascending as
 * s[0..n), h = (n - 1) * p / 100, the result is
 * s[floor(h)] + (h - floor(h)) * (s[floor(h) + 1] - s[floor(h)]).
 * The median is the 50th percentile (the mean of the two middle values
 * for even n).  x is not modified.  Returns NaN when n == 0, p is outside
 * [0, 100] or out of memory.
 */
double slt_stats_percentile(const double *x, size_t n, double p);
/* slt_stats_percentile(x, n, 50). */
double slt_stats_median(const double *x, size_t n);

/* The same on values the caller has already sorted ascending (no copy). */
double slt_stats_percentile_sorted(const double *s, size_t n, double p);

/* Defaults of the bootstrap. */
#define SLT_BOOTSTRAP_RESAMPLES 10000u
#define SLT_BOOTSTRAP_SEED 0x5eed5eedu
#define SLT_BOOTSTRAP_LEVEL 0.95

/* The ratio of medians B/A and its confidence interval. */
struct slt_ratio_ci {
	double median_a, median_b; /* of the samples given (e.g. ops/s) */
	double ratio;              /* median_b / median_a */
	double lo, hi;             /* the interval's bounds (ratios) */
	double level;              /* e.g. 0.95 */
	unsigned resamples;        /* bootstrap resamples drawn */
	uint64_t seed;             /* the PRNG seed used */
};

/*
 * Ratio of medians B/A with a percentile-bootstrap confidence interval
 * (Efron & Tibshirani, "An Introduction to the Bootstrap", Chapman &
 * Hall 1993, ch. 13, "Confidence intervals based on bootstrap
 * percentiles"): `resamples` times, draw na values from a[] and nb values
 * from b[] independently with replacement, and take the ratio of the two
 * resamples' medians; the interval is the (1 - level) / 2 and
 * (1 + level) / 2 percentiles (definition above) of those ratios.  The
 * PRNG (splitmix64) is seeded with seed, so the same data give the same
 * interval.  resamples 0 = SLT_BOOTSTRAP_RESAMPLES; level 0 =
 * SLT_BOOTSTRAP_LEVEL.
 *
 * Returns 0 and *out; SLT_EUSAGE when na or nb is 0, a value is not
 * finite or not positive (ops/s), or level is not in (0, 1); SLT_ENOMEM.
 */
int slt_stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		       unsigned resamples, double level, uint64_t seed,
		       struct slt_ratio_ci *out, struct slt_error *err);

enum slt_verdict {
	SLT_VERDICT_NO_CHANGE = 0, /* the interval contains 1.0 */
	SLT_VERDICT_FASTER,        /* the interval lies above 1.0: B faster */
	SLT_VERDICT_SLOWER,        /* the interval lies below 1.0: B slower */
};

/* FASTER when ci->lo > 1.0, SLOWER when ci->hi < 1.0, else NO_CHANGE. */
enum slt_verdict slt_verdict_of(const struct slt_ratio_ci *ci);
/* "faster", "slower", "no measurable change". */
const char *slt_verdict_name(enum slt_verdict v);

#ifdef __cplusplus
}
#endif
#endif
