/* SPDX-License-Identifier: MIT */
/*
 * Lock hold-time histograms (kernel engineers' microsecond buckets) and
 * update latency samples (a per-thread reservoir; percentiles are
 * slt_stats_percentile_sorted()'s, validate.h).
 */
#include <math.h>
#include <sys/resource.h>
#include <time.h>

#include "engine/engine_int.h"

/* upper bounds of buckets 0..12 in us; bucket 13 is >= 90 us */
static const unsigned bounds_us[SLT_ENGINE_HIST_BUCKETS - 1] = {
	1, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90,
};
static const char *const labels[SLT_ENGINE_HIST_BUCKETS] = {
	"0-1", "1-5", "5-10", "10-15", "15-20", "20-25", "25-30",
	"30-40", "40-50", "50-60", "60-70", "70-80", "80-90", ">90",
};

unsigned slt_engine_hist_bucket(uint64_t ns)
{
	unsigned i = 0;
	while (i < SLT_ENGINE_HIST_BUCKETS - 1 && ns >= (uint64_t)bounds_us[i] * 1000)
		i++;
	return i;
}

void slt_engine_hist_add(struct slt_engine_hist *h, uint64_t ns)
{
	h->count[slt_engine_hist_bucket(ns)]++;
	h->holds++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void slt_engine_hist_add_preempted(struct slt_engine_hist *h, uint64_t ns)
{
	h->preempted++;
	h->preempted_sum_ns += ns;
	if (ns > h->preempted_max_ns)
		h->preempted_max_ns = ns;
}

void slt_engine_hist_merge(struct slt_engine_hist *a,
			   const struct slt_engine_hist *b)
{
	for (unsigned i = 0; i < SLT_ENGINE_HIST_BUCKETS; i++)
		a->count[i] += b->count[i];
	a->holds += b->holds;
	a->sum_ns += b->sum_ns;
	if (b->max_ns > a->max_ns)
		a->max_ns = b->max_ns;
	a->preempted += b->preempted;
	a->preempted_sum_ns += b->preempted_sum_ns;
	if (b->preempted_max_ns > a->preempted_max_ns)
		a->preempted_max_ns = b->preempted_max_ns;
}

/* This thread's context switches so far, involuntary (preempted) and
 * voluntary (blocked, e.g. on a lock whose holder was preempted); 0 when
 * getrusage fails: then nothing counts as preempted. */
static uint64_t nivcsw(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_THREAD, &ru) == 0 ?
		(uint64_t)ru.ru_nivcsw + (uint64_t)ru.ru_nvcsw : 0;
}

uint64_t eng_preempt_snap(void)
{
	return nivcsw();
}

bool eng_hold_add(uint64_t *base, struct slt_engine_hist *h, uint64_t ns)
{
	if (ns < SLT_ENGINE_PREEMPT_CHECK_NS) {
		slt_engine_hist_add(h, ns);
		return false;
	}
	uint64_t now = nivcsw();
	bool preempted = now > *base;
	if (preempted)
		slt_engine_hist_add_preempted(h, ns);
	else
		slt_engine_hist_add(h, ns);
	*base = now;
	return preempted;
}

/* The gap to the next timed update: geometric on {1, 2, ...} with mean
 * every (p = 1 / every), by inversion: 1 + floor(ln U / ln(1 - p)). */
uint64_t eng_lat_gap(struct eng_thread *th, unsigned every)
{
	if (every <= 1)
		return 1;
	double u = (double)(eng_rand(&th->lat_rng) >> 11) / 9007199254740992.0;
	if (u <= 0.0)
		u = 1.0 / 9007199254740992.0;
	double g = 1.0 + floor(log(u) / log1p(-1.0 / (double)every));
	return g > 1e12 ? (uint64_t)1e12 : (uint64_t)g;
}

bool eng_lat_due(struct eng_thread *th, unsigned every)
{
	if (--th->lat_wait)
		return false;
	th->lat_wait = eng_lat_gap(th, every);
	return true;
}

const char *slt_engine_hist_label(unsigned i)
{
	return i < SLT_ENGINE_HIST_BUCKETS ? labels[i] : "?";
}

uint64_t eng_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Reservoir sampling (Vitter's algorithm R): every timed update has the
 * same chance to be kept. */
void eng_lat_add(struct eng_thread *th, double ns)
{
	th->lat_seen++;
	if (th->n_lat < ENG_LAT_RESERVOIR) {
		th->lat[th->n_lat++] = ns;
		return;
	}
	uint64_t k = eng_rand(&th->rng) % th->lat_seen;
	if (k < ENG_LAT_RESERVOIR)
		th->lat[k] = ns;
}
