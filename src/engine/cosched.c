/* SPDX-License-Identifier: MIT */
/*
 * Co-scheduling: when did the updater threads actually run, and for how
 * long did they run at the same time (engine.h, "Co-scheduling")?
 *
 * Method: every ENG_COSCHED_EVERY operations a thread reads
 * CLOCK_MONOTONIC.  Two consecutive reads less than
 * SLT_ENGINE_RUN_GAP_NS apart mean the thread ran between them (its
 * operations take far less than that); a longer gap means it did not run
 * for (most of) it: it was switched out (preempted, or slept on a lock).
 * The running time is kept as a list of intervals per thread; the overlap
 * is the length of the union over time of the instants at which at least
 * two (and, separately, all) updaters were inside one of their
 * intervals, found by a sweep over the sorted interval ends.  Error: a
 * switch-out shorter than the gap is counted as running (at most
 * SLT_ENGINE_RUN_GAP_NS per switch: a scheduler time slice of another
 * task is milliseconds, so this is rare and small), and an interval's
 * ends are known to the sampling period (ENG_COSCHED_EVERY operations,
 * about a microsecond).  Each thread's CPU time comes from
 * CLOCK_THREAD_CPUTIME_ID (clock_gettime(2)) at its start and end, a
 * second figure independent of the sampling.
 */
#include <stdlib.h>
#include <time.h>

#include "engine/engine_int.h"

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int eng_cosched_alloc(struct eng_thread *th)
{
	th->iv_cap = 1024;
	th->iv = malloc(th->iv_cap * 2 * sizeof(*th->iv));
	return th->iv ? 0 : -1;
}

void eng_cosched_begin(struct eng_thread *th)
{
	th->cpu_ns = thread_cpu_ns();
	th->last_ns = eng_now_ns();
	th->n_iv = 0;
	th->iv[0] = th->iv[1] = th->last_ns;
	th->n_iv = 1;
}

void eng_cosched_sample(struct eng_thread *th)
{
	uint64_t now = eng_now_ns();
	if (now - th->last_ns < SLT_ENGINE_RUN_GAP_NS) {
		th->iv[2 * (th->n_iv - 1) + 1] = now;   /* still running */
	} else {
		if (th->n_iv == th->iv_cap) {
			size_t cap = th->iv_cap * 2;
			uint64_t *p = realloc(th->iv, cap * 2 * sizeof(*p));
			if (!p) {   /* no room: the gap counted as running */
				th->iv[2 * (th->n_iv - 1) + 1] = now;
				th->last_ns = now;
				th->iv_lost++;
				return;
			}
			th->iv = p;
			th->iv_cap = cap;
		}
		th->iv[2 * th->n_iv] = th->iv[2 * th->n_iv + 1] = now;
		th->n_iv++;
	}
	th->last_ns = now;
}

void eng_cosched_end(struct eng_thread *th)
{
	eng_cosched_sample(th);
	uint64_t c = thread_cpu_ns();
	th->cpu_ns = c > th->cpu_ns ? c - th->cpu_ns : 0;
}

/* Interval k of th clipped to [t0, t1]: false when nothing is left. */
static bool clipped(const struct eng_thread *th, size_t k, uint64_t t0, uint64_t t1,
		    uint64_t *s, uint64_t *f)
{
	*s = th->iv[2 * k] < t0 ? t0 : th->iv[2 * k];
	*f = th->iv[2 * k + 1] > t1 ? t1 : th->iv[2 * k + 1];
	return *f > *s;
}

struct edge {
	uint64_t t;
	int d;   /* +1 an interval starts, -1 it ends */
};

static int cmp_edge(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->d - b->d;   /* ends before starts: touching is no overlap */
}

int eng_cosched_overlap(struct eng_run *r, unsigned T, uint64_t t0,
			uint64_t t1, double *pair, double *all)
{
	size_t n = 0;
	for (unsigned i = 0; i < T; i++)
		n += r->th[i].n_iv * 2;
	struct edge *e = malloc((n + 1) * sizeof(*e));
	if (!e)
		return -1;
	n = 0;
	for (unsigned i = 0; i < T; i++) {
		const struct eng_thread *th = &r->th[i];
		for (size_t k = 0; k < th->n_iv; k++) {
			uint64_t s, f;
			if (!clipped(th, k, t0, t1, &s, &f))
				continue;
			e[n++] = (struct edge){ s, +1 };
			e[n++] = (struct edge){ f, -1 };
		}
	}
	qsort(e, n, sizeof(*e), cmp_edge);
	uint64_t two = 0, every = 0, prev = t0;
	int depth = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t dt = e[k].t - prev;
		if (depth >= 2)
			two += dt;
		if (depth >= (int)T)
			every += dt;
		depth += e[k].d;
		prev = e[k].t;
	}
	free(e);
	double wall = t1 > t0 ? (double)(t1 - t0) : 1.0;
	*pair = T >= 2 ? (double)two / wall : 0.0;
	*all = T >= 2 ? (double)every / wall : 0.0;
	return 0;
}

double eng_cosched_running_s(const struct eng_thread *th, uint64_t t0,
			     uint64_t t1)
{
	uint64_t sum = 0;
	for (size_t k = 0; k < th->n_iv; k++) {
		uint64_t s, f;
		if (clipped(th, k, t0, t1, &s, &f))
			sum += f - s;
	}
	return (double)sum / 1e9;
}
