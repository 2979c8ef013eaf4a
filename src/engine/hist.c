/* SPDX-License-Identifier: MIT */
/*
 * Lock hold-time histograms (kernel engineers' microsecond buckets) and
 * update latency samples (a per-thread reservoir; percentiles are
 * slt_stats_percentile_sorted()'s, validate.h).
 */
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

void slt_engine_hist_merge(struct slt_engine_hist *a,
			   const struct slt_engine_hist *b)
{
	for (unsigned i = 0; i < SLT_ENGINE_HIST_BUCKETS; i++)
		a->count[i] += b->count[i];
	a->holds += b->holds;
	a->sum_ns += b->sum_ns;
	if (b->max_ns > a->max_ns)
		a->max_ns = b->max_ns;
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
