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
#include <stdio.h>

#include "structlint/engine.h"
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
	size_t n_a, n_b;           /* runs of each side */
	bool paired;               /* from slt_stats_paired_ratio_ci() */
};

/* Fewer runs than this on either side give no verdict: with one or two
 * values the bootstrap sees (almost) no spread, so its interval would be
 * (nearly) zero-width whatever the noise. */
#define SLT_VERDICT_MIN_RUNS 3u

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

/*
 * The paired form, for runs made in pairs (round i of an interleaved
 * design ran a[i] and b[i] next to each other): a Student t interval on
 * the logs of the per-pair ratios r[i] = b[i] / a[i] (Student, "The
 * probable error of a mean", Biometrika 6, 1908; any statistics text):
 * with m and s the mean and standard deviation (n - 1 divisor) of
 * ln r[i], out->ratio = exp(m) (the geometric mean of the ratios) and the
 * interval is exp(m -/+ t * s / sqrt(n)), t the (1 + level) / 2 quantile
 * of Student's t with n - 1 degrees of freedom.  Exact when the ratios
 * are log-normal (multiplicative noise), so it keeps its level at a few
 * pairs, where a percentile bootstrap undercovers.  A drift of the
 * machine that slows both runs of a pair alike cancels in the ratio,
 * where the independent form above counts it as noise.  median_a and
 * median_b are the medians of a[] and b[]; out->paired is set; n_a = n_b
 * = n; resamples and seed 0 (no resampling).  n == 1: lo and hi NaN (no
 * interval).  level 0 = SLT_BOOTSTRAP_LEVEL.  Errors as
 * slt_stats_ratio_ci().
 */
int slt_stats_paired_ratio_ci(const double *a, const double *b, size_t n,
			      double level, struct slt_ratio_ci *out,
			      struct slt_error *err);

/* The p-quantile (0 < p < 1) of Student's t distribution with df > 0
 * degrees of freedom (bisection on the CDF, which is computed from the
 * regularized incomplete beta function, Numerical Recipes 6.4); NaN for
 * p or df out of range.  E.g. p 0.975, df 4: 2.7764. */
double slt_stats_t_quantile(double p, double df);

enum slt_verdict {
	SLT_VERDICT_NO_CHANGE = 0, /* the interval contains 1.0 */
	SLT_VERDICT_FASTER,        /* the interval lies above 1.0: B faster */
	SLT_VERDICT_SLOWER,        /* the interval lies below 1.0: B slower */
	SLT_VERDICT_NONE,          /* too few runs: no verdict */
};

/* NONE when either side has fewer than SLT_VERDICT_MIN_RUNS runs or the
 * interval is NaN; else FASTER when ci->lo > 1.0, SLOWER when ci->hi <
 * 1.0, else NO_CHANGE. */
enum slt_verdict slt_verdict_of(const struct slt_ratio_ci *ci);
/* "faster", "slower", "no measurable change", "no verdict". */
const char *slt_verdict_name(enum slt_verdict v);

/* ---- the A/B runner ---------------------------------------------------- */

struct slt_validate_opts {
	unsigned rounds;         /* rounds, >= 1; each runs A once and B once */
	double warmup_seconds;   /* one discarded run per side first (0: none) */
	struct slt_engine_opts engine; /* passed to every run: seconds per
				    run, threads, batch, flush, tree, ... */
	unsigned resamples;      /* bootstrap resamples (0 = default) */
	double level;            /* confidence level (0 = 0.95) */
	uint64_t ci_seed;        /* bootstrap PRNG seed */
	bool paired;             /* the verdict from the paired interval
				    (slt_stats_paired_ratio_ci() over the
				    rounds; the default) rather than the
				    independent one */
	double min_overlap;      /* co-scheduling floor (0..1, default
				    SLT_VALIDATE_MIN_OVERLAP; 0 = no floor):
				    a round counts only when both its runs'
				    overlap (slt_engine_result.overlap) is at
				    or over it; fewer than
				    SLT_VALIDATE_MIN_KEPT_ROUNDS such rounds
				    give no verdict */
};

/* The default co-scheduling floor: the updaters must have run at the same
 * time for at least half of each run (median over the runs of each side).
 * Below it the layout's effect (false sharing exists only while threads
 * run at once) is diluted into the scheduler's noise: on a loaded 2-CPU
 * machine the same cases that gave +38..43% with the CPUs free gave "no
 * measurable change"; with half the run overlapped a real effect keeps
 * at least half its size. */
#define SLT_VALIDATE_MIN_OVERLAP 0.5

/* The rounds a verdict needs whose two runs both overlapped at least the
 * floor: the medians, both intervals and the verdict are computed over
 * those rounds only (a round of little overlap measures the scheduler,
 * not the layout, and averaged in it dilutes the effect); fewer give no
 * verdict.  The same 3 as any verdict needs (SLT_VERDICT_MIN_RUNS): the
 * paired interval is exact at few rounds, and it widens by itself when
 * few are kept. */
#define SLT_VALIDATE_MIN_KEPT_ROUNDS SLT_VERDICT_MIN_RUNS

/* Defaults: 20 rounds, warm-up 0.5 s, the engine's defaults with 0.5 s per
 * run and count_accesses off (validate needs no profile), 10000 resamples,
 * level 0.95, ci_seed SLT_BOOTSTRAP_SEED, the paired verdict (the rounds
 * are interleaved pairs by design: a load change of the machine that hits
 * both runs of a round cancels in its ratio).  20 rounds
 * x 2 runs x 0.5 s plus 2 x 0.5 s of warm-up: 21 s.  Many short rounds
 * rather than few long ones: the bootstrap sees more runs, and each
 * round's A and B run closer together in time. */
void slt_validate_opts_default(struct slt_validate_opts *o);

/*
 * Order of the runs: round r (0-based) runs A then B when r is even, B
 * then A when odd, so every two rounds form A B B A and a linear drift of
 * the machine (thermal, other load) weighs on both sides alike.
 */
bool slt_validate_a_first(unsigned round);

/* The figures of one side over its runs. */
struct slt_validate_side {
	double *ops_per_s;       /* [rounds], run order */
	double median_ops_per_s; /* of the kept rounds (slt_validate_result
				    .kept) when there are enough, else of all */
	/* update latency, ns: the median over the runs of each run's
	 * percentile */
	double lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns;
	/* STATS mode: lock hold-time histograms summed over the runs, and
	 * flush counts summed (zero in REPLAY mode) */
	struct slt_engine_hist flush_lock, percpu_lock;
	struct slt_engine_hist percpu_update_lock; /* of percpu_lock, the
				    update path's holds (engine.h) */
	uint64_t flushes, flush_wakeups, batch_crossings;
	uint64_t reader_flushes;  /* of the flushes, by readers (6.1,
				     mainline modes) */
	double seconds;          /* measured run time summed over the runs */
	/* co-scheduling: per run the fraction of its time >= 2 updaters ran
	 * at once ([rounds], run order), their median and minimum, and the
	 * median over the runs of the updaters' mean CPU time / wall time */
	double *overlap;
	double median_overlap, min_overlap, cpu_share;
};

struct slt_validate_result {
	unsigned rounds;
	unsigned threads;        /* updater threads the engine ran */
	enum slt_engine_mode mode;
	struct slt_validate_side a, b;
	struct slt_ratio_ci ci;  /* B/A of the medians, A's and B's runs
				    resampled independently; under
				    SLT_VERDICT_MIN_RUNS rounds lo and hi of
				    both intervals are NaN (no interval) and
				    ci has resamples 0 and seed 0 (no
				    resampling done) */
	struct slt_ratio_ci ci_paired; /* Student t on the logs of the
				    per-round ratios (same runs) */
	bool paired;             /* the verdict is ci_paired's */
	enum slt_verdict verdict;
	bool low_overlap;        /* verdict NONE because fewer than
				    SLT_VALIDATE_MIN_KEPT_ROUNDS rounds had
				    both runs' overlap at or over
				    opts.min_overlap (the intervals are then
				    computed over all rounds) */
	bool *kept;              /* [rounds]: both runs' overlap >= the floor;
				    with enough of them, the medians of ops/s,
				    ci, ci_paired and the verdict are over
				    these rounds only */
	unsigned kept_rounds;    /* how many */
	double min_overlap;      /* the floor applied (opts.min_overlap; one
				    updater thread overlaps 0%: no verdict
				    unless the floor is 0) */
	unsigned allowed_cpus, distinct_cpus; /* of the last run */
	/* STATS mode, of the last run (engine.h "Kernel stats modes") */
	enum slt_stats_mode stats_mode;
	struct slt_engine_counters counters;
	bool spin_locks;
};

/*
 * Run a (the original layout, bound) and b (the other layout, bound) in
 * opts->rounds interleaved rounds (slt_validate_a_first()), after one
 * warm-up run each, and compare their ops/s (slt_stats_ratio_ci() and
 * slt_stats_paired_ratio_ci(); the verdict from the one opts->paired
 * selects; SLT_VERDICT_NONE under SLT_VERDICT_MIN_RUNS rounds).  a and
 * b must be bound in the same mode.  progress (may be NULL) is called
 * after each run with the side ('A' or 'B'), the 0-based round and that
 * run's ops/s.
 *
 * Returns 0 and *out (free with slt_validate_result_free()); SLT_EUSAGE
 * for zero rounds, seconds <= 0 or not finite, a negative warm-up, a and
 * b in different modes (message says which), or any engine option error
 * (slt_engine_run()'s message); SLT_ENOMEM; SLT_EIO from the engine.
 */
int slt_validate_run(const struct slt_engine_bound *a,
		     const struct slt_engine_bound *b,
		     const struct slt_validate_opts *opts,
		     void (*progress)(void *arg, char side, unsigned round,
				      double ops_per_s),
		     void *progress_arg,
		     struct slt_validate_result **out, struct slt_error *err);

void slt_validate_result_free(struct slt_validate_result *r);

/* ---- sensitivity ------------------------------------------------------- */

/* One validation with one uncertain knob moved. */
struct slt_sensitivity_point {
	const char *knob;        /* "write rate" or "batch" (static) */
	double value;            /* write rate: the factor on the hot-write
				    stores (0.25 or 4); batch: 32 or 128 */
	struct slt_ratio_ci ci;  /* the verdict's interval (paired unless
				    opts.paired is off) */
	enum slt_verdict verdict;
	double overlap_a, overlap_b; /* median overlaps (co-scheduling) */
};

#define SLT_SENSITIVITY_MAX 4u

struct slt_sensitivity {
	struct slt_sensitivity_point point[SLT_SENSITIVITY_MAX];
	size_t n;
	bool robust;             /* every point's change (ratio - 1) has the
				    sign of the main result's; false: "not
				    robust", the verdict depends on a knob
				    the model does not know */
	bool judged;             /* false: the main result and every point
				    have no verdict, so there is no sign to
				    keep ("no judgement"; robust meaningless) */
	const char *skipped;     /* a knob that does not apply to the run and
				    why (static), or NULL: the write rate
				    when no role is hot-write */
};

/*
 * How the result r (of a and b with opts) moves when the knobs the
 * model cannot measure move: the hot-write rate x0.25 and x4 (stats
 * mode: write_every x4 and / 4, at least 1; replay: every hot-write
 * role's store rate x0.25 and x4 against the loads), and in stats mode
 * the flush batch 32 and 128 (the points equal to opts' own are left
 * out).  Each point is a full slt_validate_run() with opts otherwise
 * unchanged (same rounds).  robust as above, the main result's change
 * included.  The write rate is skipped (said in skipped) when neither
 * role map has a hot-write role: there is no store rate to move.  Returns 0 and *out filled, or slt_validate_run()'s errors.
 */
int slt_validate_sensitivity(const struct slt_engine_bound *a,
			     const struct slt_engine_bound *b,
			     const struct slt_validate_opts *opts,
			     const struct slt_validate_result *r,
			     struct slt_sensitivity *out, struct slt_error *err);

/* The user's own program (`validate --source-root DIR --build CMD --run
 * CMD`): A the source tree as it is, B with the proposal applied, built
 * and run in interleaved ABBA rounds (slt_validate_a_first()). */
struct slt_program_result {
	unsigned rounds;
	double *wall_a, *wall_b; /* [rounds] wall seconds per run, round order */
	double *cpu_a, *cpu_b;   /* [rounds] CPU seconds (user + system of the
				    command and its children) per run */
	double median_wall_a, median_wall_b, median_cpu_a, median_cpu_b;
	double build_a_s, build_b_s; /* wall seconds of each build */
	/* paired Student t intervals (slt_stats_paired_ratio_ci()) of the
	 * speeds 1/time, B/A: above 1.0 B runs faster */
	struct slt_ratio_ci wall_ci, cpu_ci;
	enum slt_verdict verdict; /* from wall_ci; NONE under
				     SLT_VERDICT_MIN_RUNS rounds */
	/* Co-scheduling, from the CPU time (per-thread times are not
	 * measured: the command's threads are not the validator's): per
	 * side the median over the runs of CPU s / wall s (the mean number
	 * of CPUs busy), and of the lower bound it gives on the share of
	 * the wall time during which >= 2 threads ran at once: CPU time past
	 * one CPU's worth needs threads running together, at most `cpus` at
	 * a time, so that share is >= (cpu / wall - 1) / (cpus - 1), in
	 * [0, 1] (0 with one CPU). */
	double cpu_per_wall_a, cpu_per_wall_b;
	double overlap_min_a, overlap_min_b;
	unsigned cpus;           /* CPUs the command may run on */
	/* Added after v1 (additive): per-thread co-scheduling.  While each
	 * run goes on, its process tree's threads' CPU times are sampled
	 * from /proc every 5 ms (src/cli/proc_sched.h has the method), which
	 * brackets the share of the wall time with >= 2 threads running;
	 * overlap_min_* is then the larger of the two lower bounds, and
	 * overlap_max_* the upper bound plus the CPU time the polls did not
	 * see (threads that lived between two polls), per wall second. */
	bool per_thread;         /* sampled on every run (else overlap_max 1) */
	double overlap_max_a, overlap_max_b;  /* medians over the runs */
	double sampled_cpu_a, sampled_cpu_b;  /* median share of the CPU time
						 the polls saw (0..1) */
	double min_overlap;      /* the floor applied (validate's
				    --min-overlap; 0: none) */
	bool low_overlap;        /* verdict NONE: per_thread, and fewer than
				    SLT_VALIDATE_MIN_KEPT_ROUNDS rounds kept:
				    the threads did not run at the same time
				    long enough for false sharing to show */
	bool *kept;              /* [rounds]: per_thread, both runs' upper
				    bound on the overlap >= min_overlap (all
				    rounds without per-thread samples); with
				    enough kept, the medians, both intervals
				    and the verdict are of these rounds only */
	unsigned kept_rounds;
};

/* What the writers print about the two sides (borrowed strings). */
struct slt_validate_labels {
	const char *struct_name;
	const char *a_file, *a_what;   /* e.g. "vmlinux-6.1", "as loaded" */
	const char *b_file, *b_what;   /* e.g. "proposal 1 (regroup)" */
	uint64_t a_size, b_size;       /* bytes */
	unsigned cacheline_size;       /* bytes */
	/* the two sides' bound role maps (may be NULL): printed per side,
	 * and a note when slt_engine_bound_diff() finds them different */
	const struct slt_engine_bound *a_roles, *b_roles;
	/* Added after v1 (additive): where the member accesses the roles
	 * and the proposal come from when they are estimates ("estimated
	 * from IP samples x static sites (...)", structlint/weight.h);
	 * NULL: measured or given, nothing shown.  Text: an "accesses:"
	 * line under the header; JSON: "basis". */
	const char *basis;
	/* Added after basis (additive): where the accesses replayed come
	 * from ("measured: ..." from a profile, "synthetic: ..."), NULL:
	 * nothing shown.  Text: a "pattern:" line; JSON: "pattern". */
	const char *pattern;
	/* Added after pattern (additive): the sensitivity (NULL: not run).
	 * Text: a "sensitivity:" block; JSON: "sensitivity". */
	const struct slt_sensitivity *sensitivity;
	/* Added after sensitivity (additive): the user's program (NULL: not
	 * run) and its command lines.  Text: a "program" block; JSON:
	 * "program". */
	const struct slt_program_result *program;
	const char *program_run;
};

/*
 * The result as text (src/report/validate_out.c): a will-it-scale-style
 * table (base ops/s, with fix ops/s, change in % by the verdict's
 * estimator, labelled "change (paired)" or "change (medians)", 95% CI,
 * verdict; the other estimator on the next row, labelled), the
 * update latencies and lock figures of each side, the runs.  Returns 0 or
 * SLT_EIO.
 */
int slt_validate_write_text(FILE *f, const struct slt_validate_result *r,
			    const struct slt_validate_labels *l,
			    const struct slt_validate_opts *o);

/* The same as one "structlint.validate/v1" JSON document (man page,
 * JSON OUTPUT), never partial.  Returns 0, SLT_ENOMEM or SLT_EIO. */
int slt_validate_write_json(FILE *f, const struct slt_validate_result *r,
			    const struct slt_validate_labels *l,
			    const struct slt_validate_opts *o, bool pretty,
			    struct slt_error *err);

#ifdef __cplusplus
}
#endif
#endif
