/* SPDX-License-Identifier: MIT */
/*
 * The A/B runner of `validate` (include/structlint/validate.h): one warm-up
 * run per side, then rounds of A and B in ABBA order on the reference
 * stats engine, and the ratio of their median ops/s with its bootstrap
 * interval (stats.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_int.h"
#include "structlint/validate.h"

void slt_validate_opts_default(struct slt_validate_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->rounds = 20;
	o->warmup_seconds = 0.5;
	slt_engine_opts_default(&o->engine);
	o->engine.seconds = 0.5;
	o->engine.count_accesses = false;
	o->resamples = SLT_BOOTSTRAP_RESAMPLES;
	o->level = SLT_BOOTSTRAP_LEVEL;
	o->ci_seed = SLT_BOOTSTRAP_SEED;
	o->paired = true;
	o->min_overlap = SLT_VALIDATE_MIN_OVERLAP;
}

bool slt_validate_a_first(unsigned round)
{
	return round % 2 == 0;
}

void slt_validate_result_free(struct slt_validate_result *r)
{
	if (!r)
		return;
	free(r->a.ops_per_s);
	free(r->b.ops_per_s);
	free(r->a.overlap);
	free(r->b.overlap);
	free(r->kept);
	free(r);
}

/* Per side, per run: the latency percentiles kept until the medians. */
struct side_runs {
	double *p50, *p90, *p99, *p999, *share;
};

static void side_runs_free(struct side_runs *s)
{
	free(s->p50);
	free(s->p90);
	free(s->p99);
	free(s->p999);
	free(s->share);
}

static int side_runs_alloc(struct side_runs *s, unsigned n)
{
	s->p50 = calloc(n, sizeof(double));
	s->p90 = calloc(n, sizeof(double));
	s->p99 = calloc(n, sizeof(double));
	s->p999 = calloc(n, sizeof(double));
	s->share = calloc(n, sizeof(double));
	return s->p50 && s->p90 && s->p99 && s->p999 && s->share ? 0 : -1;
}

/* Fold one engine run into its side. */
static void take_run(struct slt_validate_side *side, struct side_runs *sr,
		     unsigned i, const struct slt_engine_result *e)
{
	side->ops_per_s[i] = e->ops_per_s;
	sr->p50[i] = e->lat_p50_ns;
	sr->p90[i] = e->lat_p90_ns;
	sr->p99[i] = e->lat_p99_ns;
	sr->p999[i] = e->lat_p999_ns;
	slt_engine_hist_merge(&side->flush_lock, &e->flush_lock);
	slt_engine_hist_merge(&side->percpu_lock, &e->percpu_lock);
	slt_engine_hist_merge(&side->percpu_update_lock, &e->percpu_update_lock);
	side->flushes += e->flushes;
	side->flush_wakeups += e->flush_wakeups;
	side->reader_flushes += e->reader_flushes;
	side->batch_crossings += e->batch_crossings;
	side->seconds += e->seconds;
	side->overlap[i] = e->overlap;
	double cpu = 0;
	for (unsigned t = 0; t < e->threads; t++)
		cpu += e->thread[t].cpu_seconds;
	sr->share[i] = e->threads && e->seconds > 0 ? cpu / e->threads / e->seconds : 0;
}

static void finish_side(struct slt_validate_side *side,
			const struct side_runs *sr, unsigned n)
{
	side->lat_p50_ns = slt_stats_median(sr->p50, n);
	side->lat_p90_ns = slt_stats_median(sr->p90, n);
	side->lat_p99_ns = slt_stats_median(sr->p99, n);
	side->lat_p999_ns = slt_stats_median(sr->p999, n);
	side->median_overlap = slt_stats_median(side->overlap, n);
	side->min_overlap = side->overlap[0];
	for (unsigned i = 1; i < n; i++)
		if (side->overlap[i] < side->min_overlap)
			side->min_overlap = side->overlap[i];
	side->cpu_share = slt_stats_median(sr->share, n);
}

static int check_opts(const struct slt_engine_bound *a,
		      const struct slt_engine_bound *b,
		      const struct slt_validate_opts *o, struct slt_error *err)
{
	if (!o->rounds)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "run at least one round (--rounds 1 or more)",
				     "zero rounds: nothing to compare");
	if (!(o->engine.seconds >= SLT_ENGINE_SECONDS_MIN) ||
	    !(o->engine.seconds <= SLT_ENGINE_SECONDS_MAX))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "give seconds per run from 0.01 to 3600",
				     "seconds per run %g is out of range", o->engine.seconds);
	if (!(o->warmup_seconds >= 0.0) || !isfinite(o->warmup_seconds))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "give 0 for no warm-up, or a positive time",
				     "warm-up %g seconds is not valid", o->warmup_seconds);
	if (!(o->min_overlap >= 0.0) || !(o->min_overlap <= 1.0))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "give a percentage from 0 (no floor) to 100",
				     "minimum overlap %g is not in 0..1", o->min_overlap);
	if (a->mode != b->mode)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "bind both layouts with the same role map",
				     "layout A runs in %s mode and layout B in %s mode",
				     a->mode == SLT_ENGINE_STATS ? "stats" : "replay",
				     b->mode == SLT_ENGINE_STATS ? "stats" : "replay");
	return 0;
}

/* Round i measured something on both sides: a run that completed no
 * operation (its threads were not scheduled in its seconds, on a loaded
 * machine) has no rate to compare; it is never kept, nor used for the
 * figures shown without a verdict. */
static bool ran(const struct slt_validate_result *r, unsigned i)
{
	return isfinite(r->a.ops_per_s[i]) && r->a.ops_per_s[i] > 0 &&
	       isfinite(r->b.ops_per_s[i]) && r->b.ops_per_s[i] > 0;
}

/* Which rounds count: those where both runs' updaters overlapped at
 * least the floor (validate.h, SLT_VALIDATE_MIN_KEPT_ROUNDS).  Returns
 * how many; r->kept[] marks them. */
static unsigned keep_rounds(struct slt_validate_result *r, double floor)
{
	unsigned k = 0;
	for (unsigned i = 0; i < r->rounds; i++) {
		r->kept[i] = ran(r, i) && r->a.overlap[i] >= floor && r->b.overlap[i] >= floor;
		k += r->kept[i];
	}
	return k;
}

/* The medians, both intervals and the verdict, over the kept rounds when
 * enough are kept, else over all rounds that ran (then no verdict). */
int slt_validate_compare(struct slt_validate_result *r, const struct slt_validate_opts *opts,
			 struct slt_error *err)
{
	unsigned n = r->rounds;
	r->min_overlap = opts->min_overlap;
	r->kept_rounds = keep_rounds(r, opts->min_overlap);
	bool enough = r->kept_rounds >= SLT_VALIDATE_MIN_KEPT_ROUNDS;
	unsigned m = r->kept_rounds;
	if (!enough)
		for (unsigned i = m = 0; i < n; i++)
			m += ran(r, i);
	if (!m) {   /* no round ran on both sides: nothing to compare */
		r->ci = r->ci_paired = (struct slt_ratio_ci){
			.ratio = NAN, .lo = NAN, .hi = NAN,
			.level = opts->level > 0.0 ? opts->level : SLT_BOOTSTRAP_LEVEL };
		r->paired = opts->paired;
		r->verdict = SLT_VERDICT_NONE;
		r->low_overlap = true;
		return 0;
	}
	double *a = malloc(m * sizeof(*a)), *b = malloc(m * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	for (unsigned i = 0, j = 0; i < n; i++)
		if (enough ? r->kept[i] : ran(r, i)) {
			a[j] = r->a.ops_per_s[i];
			b[j++] = r->b.ops_per_s[i];
		}
	r->a.median_ops_per_s = slt_stats_median(a, m);
	r->b.median_ops_per_s = slt_stats_median(b, m);
	int rc = 0;
	if (m >= SLT_VERDICT_MIN_RUNS)
		rc = slt_stats_ratio_ci(a, m, b, m, opts->resamples, opts->level, opts->ci_seed,
					&r->ci, err);
	else   /* no interval: the medians' ratio, no resampling done */
		r->ci = (struct slt_ratio_ci){
			.median_a = r->a.median_ops_per_s, .median_b = r->b.median_ops_per_s,
			.ratio = r->b.median_ops_per_s / r->a.median_ops_per_s,
			.lo = NAN, .hi = NAN,
			.level = opts->level > 0.0 ? opts->level : SLT_BOOTSTRAP_LEVEL,
			.n_a = m, .n_b = m,
		};
	if (!rc)
		rc = slt_stats_paired_ratio_ci(a, b, m, opts->level, &r->ci_paired, err);
	free(a);
	free(b);
	if (rc)
		return rc;
	if (m < SLT_VERDICT_MIN_RUNS)   /* no interval, no verdict */
		r->ci.lo = r->ci.hi = r->ci_paired.lo = r->ci_paired.hi = NAN;
	r->paired = opts->paired;
	r->verdict = slt_verdict_of(opts->paired ? &r->ci_paired : &r->ci);
	/* false sharing needs the threads running at once: a round whose
	 * runs overlapped too little is left out, and too few rounds left
	 * give no verdict.  One updater (--threads 1, or one allowed CPU):
	 * nothing runs beside it, its overlap is 0 and it gets no verdict
	 * either, unless the floor is 0 */
	if (r->verdict != SLT_VERDICT_NONE && !enough) {
		r->verdict = SLT_VERDICT_NONE;
		r->low_overlap = true;
	}
	return 0;
}

int slt_validate_run(const struct slt_engine_bound *a,
		     const struct slt_engine_bound *b,
		     const struct slt_validate_opts *opts,
		     void (*progress)(void *arg, char side, unsigned round,
				      double ops_per_s),
		     void *progress_arg,
		     struct slt_validate_result **out, struct slt_error *err)
{
	*out = NULL;
	int rc = check_opts(a, b, opts, err);
	if (rc)
		return rc;
	unsigned n = opts->rounds;
	struct slt_validate_result *r = calloc(1, sizeof(*r));
	struct side_runs sa = { 0 }, sb = { 0 };
	if (!r || !(r->a.ops_per_s = calloc(n, sizeof(double))) ||
	    !(r->b.ops_per_s = calloc(n, sizeof(double))) ||
	    !(r->a.overlap = calloc(n, sizeof(double))) ||
	    !(r->b.overlap = calloc(n, sizeof(double))) ||
	    !(r->kept = calloc(n, sizeof(bool))) ||
	    side_runs_alloc(&sa, n) || side_runs_alloc(&sb, n)) {
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		goto out;
	}
	r->rounds = n;
	r->mode = a->mode;
	struct slt_engine_result *e = NULL;
	if (opts->warmup_seconds > 0.0) {
		struct slt_engine_opts wo = opts->engine;
		wo.seconds = opts->warmup_seconds;
		for (int side = 0; !rc && side < 2; side++) {
			e = NULL;
			rc = slt_engine_run(side ? b : a, &wo, &e, err);
			slt_engine_result_free(e);
		}
		if (rc)
			goto out;
	}
	for (unsigned round = 0; round < n; round++) {
		bool a_first = slt_validate_a_first(round);
		for (int k = 0; k < 2; k++) {
			bool is_a = (k == 0) == a_first;
			e = NULL;
			rc = slt_engine_run(is_a ? a : b, &opts->engine, &e, err);
			if (rc)
				goto out;
			r->threads = e->threads;
			r->allowed_cpus = e->allowed_cpus;
			r->distinct_cpus = e->distinct_cpus;
			r->stats_mode = e->stats_mode;
			r->counters = e->counters;
			r->spin_locks = e->spin_locks;
			take_run(is_a ? &r->a : &r->b, is_a ? &sa : &sb, round, e);
			if (progress)
				progress(progress_arg, is_a ? 'A' : 'B', round, e->ops_per_s);
			slt_engine_result_free(e);
		}
	}
	finish_side(&r->a, &sa, n);
	finish_side(&r->b, &sb, n);
	rc = slt_validate_compare(r, opts, err);
out:
	side_runs_free(&sa);
	side_runs_free(&sb);
	if (rc)
		slt_validate_result_free(r);
	else
		*out = r;
	return rc;
}
