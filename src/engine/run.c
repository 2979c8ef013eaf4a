/* SPDX-License-Identifier: MIT */
/*
 * One engine run: option checks, the tree, updater threads pinned to CPUs
 * (plus the flusher in STATS mode), a start barrier, `seconds` of
 * running, the stop flag, join, the final flush, and the result.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine_int.h"
#include "structlint/validate.h"

void slt_engine_opts_default(struct slt_engine_opts *o)
{
	*o = (struct slt_engine_opts){
		.threads = 0, .seconds = 1.0, .depth = 3, .fanout = 2,
		.batch = 64, .flush = 0, .write_every = 4,
		.stats_mode = SLT_STATS_5_15, .read_every = 0, .period_ms = 0,
		.cacheline_size = 0, .seed = 1, .pin = true,
		.count_accesses = true, .latency_every = 64, .max_updates = 0,
	};
}

void slt_engine_result_free(struct slt_engine_result *r)
{
	if (!r)
		return;
	free(r->thread);
	free(r->parent);
	free(r->added);
	free(r->total);
	free(r->access);
	free(r);
}

/* The CPUs this process may run on. */
static unsigned allowed_cpus(int *list, unsigned max)
{
	cpu_set_t set;
	unsigned n = 0;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (int c = 0; c < CPU_SETSIZE && n < max; c++)
			if (CPU_ISSET(c, &set))
				list[n++] = c;
	if (!n) {
		long k = sysconf(_SC_NPROCESSORS_ONLN);
		for (long c = 0; c < k && n < max; c++)
			list[n++] = (int)c;
	}
	if (!n)
		list[n++] = 0;
	return n;
}

#define MAX_THREADS 1024u

/* --realtime with more updaters (T) than allowed CPUs: SCHED_RR updaters
 * sharing a CPU take turns in 100 ms slices, never running together (no
 * false sharing to measure), and one spinning would keep the others out;
 * refused rather than silently run without it. */
static int realtime_fits(bool realtime, unsigned T, unsigned n_cpus, struct slt_error *err)
{
	if (!realtime || T <= n_cpus)
		return 0;
	return slt_error_set(err, SLT_EUSAGE, NULL, -1, "use --threads <= the allowed CPUs, or drop --realtime",
			     "--realtime: %u threads but %u allowed CPU%s", T, n_cpus,
			     n_cpus == 1 ? "" : "s");
}

int slt_engine_realtime_fits(const struct slt_engine_opts *o, struct slt_error *err)
{
	int cpus[MAX_THREADS];
	unsigned n_cpus = allowed_cpus(cpus, MAX_THREADS);
	return realtime_fits(o->realtime, o->threads ? o->threads : n_cpus, n_cpus, err);
}

static int check_opts(const struct slt_engine_bound *b, struct slt_engine_opts *o,
		      struct slt_error *err)
{
	const char *h = NULL;
	if (!(o->seconds >= SLT_ENGINE_SECONDS_MIN) || !(o->seconds <= SLT_ENGINE_SECONDS_MAX))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "give a run time in seconds, e.g. 1 or 0.5",
				     "seconds must be from %g to %g (got %g)", SLT_ENGINE_SECONDS_MIN,
				     SLT_ENGINE_SECONDS_MAX, o->seconds);
	if (o->threads > MAX_THREADS)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, h,
				     "threads must be at most %u (got %u)", MAX_THREADS, o->threads);
	if (o->depth < 1 || o->depth > 8)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, h, "depth must be 1..8 (got %u)", o->depth);
	if (o->fanout < 1 || o->fanout > 16)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, h, "fanout must be 1..16 (got %u)", o->fanout);
	size_t n = 0, level = 1;
	for (unsigned d = 0; d < o->depth; d++, level *= o->fanout)
		if ((n += level) > 4096)
			return slt_error_set(err, SLT_EUSAGE, NULL, -1, "use a smaller depth or fanout",
					     "a tree of depth %u and fanout %u has more than 4096 groups",
					     o->depth, o->fanout);
	if (o->batch != 32 && o->batch != 64 && o->batch != 128)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "use 32, 64 or 128 (MEMCG_CHARGE_BATCH is 64)",
				     "batch must be 32, 64 or 128 (got %u)", o->batch);
	if (!o->stats_mode)
		o->stats_mode = SLT_STATS_5_15;
	if (!slt_stats_mode_parse(slt_stats_mode_name(o->stats_mode)))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "use 5.15, 6.1 or mainline",
				     "unknown stats mode %d", (int)o->stats_mode);
	o->flush = slt_engine_flush_of(o);   /* 0: the mode's (engine.h) */
	if (o->flush != SLT_FLUSH_LIST && o->flush != SLT_FLUSH_POP)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "use list or pop", "unknown flush mode %d", (int)o->flush);
	if (!o->counters.node_items || !o->counters.memcg_items)
		slt_engine_counters_default(o->stats_mode, &o->counters);
	if (o->counters.node_items > 4096 || o->counters.memcg_items > 4096 || o->counters.event_items > 4096)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
				     "%u / %u / %u stat counters: more than 4096", o->counters.node_items,
				     o->counters.memcg_items, o->counters.event_items);
	if (!o->read_every)
		o->read_every = o->batch;
	if (!o->period_ms)
		o->period_ms = 2000;
	if (o->write_every < 1)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, h, "write_every must be >= 1");
	if (o->latency_every < 1)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, h, "latency_every must be >= 1");
	if (o->cacheline_size && o->cacheline_size != b->cacheline_size)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "bind and run with the same cacheline size",
				     "cacheline size %u differs from the %u bytes the roles were bound with",
				     o->cacheline_size, b->cacheline_size);
	o->cacheline_size = b->cacheline_size;
	return 0;
}

/* The start barrier: every thread ready, then the main thread says go
 * (or stop, when a thread could not be started).  The threads block on
 * a condition variable: under --realtime a thread that yielded here would
 * keep a lower-priority thread sharing its CPU (the flusher, priority 2,
 * over an updater, priority 1) from ever reaching the barrier, as
 * SCHED_RR's sched_yield() gives the CPU only to an equal priority. */
static void start_barrier(struct eng_run *r)
{
	pthread_mutex_lock(&r->go_m);
	atomic_fetch_add(&r->ready, 1);
	while (!atomic_load(&r->go))
		pthread_cond_wait(&r->go_c, &r->go_m);
	pthread_mutex_unlock(&r->go_m);
}

static void start_open(struct eng_run *r)
{
	pthread_mutex_lock(&r->go_m);
	atomic_store(&r->go, 1);
	pthread_cond_broadcast(&r->go_c);
	pthread_mutex_unlock(&r->go_m);
}

static void *updater(void *arg)
{
	struct eng_thread *th = arg;
	struct eng_run *r = th->run;
	bool replay = r->b->mode == SLT_ENGINE_REPLAY;
	uint64_t max = replay ? th->max_ops : r->o.max_updates;
	start_barrier(r);
	th->nivcsw = eng_preempt_snap();
	eng_cosched_begin(th);
	if (!replay || th->n_sched)
		for (uint64_t n = 1; !atomic_load_explicit(&r->stop, memory_order_relaxed); n++) {
			if (replay)
				eng_replay_op(r, th, n);
			else
				eng_update(r, th, n);
			if (n % ENG_COSCHED_EVERY == 0)
				eng_cosched_sample(th);
			if (max && th->ops >= max)
				break;
		}
	eng_cosched_end(th);
	atomic_fetch_add(&r->done, 1);
	return NULL;
}

/* The flush worker: 5.15-rc1's queued flush work (woken by the updaters'
 * batch crossings) and, in every mode, flush_memcg_stats_dwork(), which
 * flushes every period_ms (FLUSH_TIME, 2 s) whatever the counts. */
static void add_ms(struct timespec *ts, unsigned ms)
{
	uint64_t ns = (uint64_t)ts->tv_nsec + (uint64_t)ms * 1000000u;
	ts->tv_sec += (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
}

static void *flusher(void *arg)
{
	struct eng_thread *th = arg;
	struct eng_run *r = th->run;
	start_barrier(r);
	struct timespec next;
	clock_gettime(CLOCK_REALTIME, &next);
	add_ms(&next, r->o.period_ms);
	for (;;) {
		int w = sem_timedwait(&r->wake, &next);
		if (w && errno == EINTR)
			continue;
		if (atomic_load(&r->stop) || !th->scratch)
			break;
		if (w) {   /* ETIMEDOUT: flush_memcg_stats_dwork() */
			eng_flush(r, th, ENG_FLUSH_PERIODIC);
			add_ms(&next, r->o.period_ms);
			continue;
		}
		atomic_store(&r->flush_requested, 0);
		eng_flush(r, th, ENG_FLUSH_WORKER);
	}
	return NULL;
}

static void free_threads(struct eng_run *r, unsigned n)
{
	for (unsigned i = 0; r->th && i < n; i++) {
		free(r->th[i].acc);
		free(r->th[i].added);
		free(r->th[i].lat);
		free(r->th[i].sched);
		free(r->th[i].iv);
		free(r->th[i].scratch);
	}
	free(r->th);
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

static int fill_result(struct eng_run *r, uint64_t t0, uint64_t t1,
		       unsigned n_cpus, struct slt_engine_result **out,
		       struct slt_error *err)
{
	double secs = (double)(t1 - t0) / 1e9;
	if (secs <= 0)
		secs = 1e-9;
	const struct slt_engine_bound *b = r->b;
	unsigned T = r->o.threads, NT = T + (b->mode == SLT_ENGINE_STATS);
	bool stats = b->mode == SLT_ENGINE_STATS;
	size_t ng = stats ? r->tree.n_groups : 0;
	struct slt_engine_result *res = calloc(1, sizeof(*res));
	size_t n_lat = 0;
	for (unsigned i = 0; i < T; i++)
		n_lat += r->th[i].n_lat;
	double *lat = malloc((n_lat + 1) * sizeof(*lat));
	if (!res || !lat || !(res->thread = calloc(T, sizeof(*res->thread))) ||
	    (ng && (!(res->parent = calloc(ng, sizeof(*res->parent))) ||
		    !(res->added = calloc(ng, sizeof(*res->added))) ||
		    !(res->total = calloc(ng, sizeof(*res->total))))) ||
	    (r->o.count_accesses && !(res->access = calloc((size_t)NT * b->n_roles + 1, sizeof(*res->access))))) {
		free(lat);
		slt_engine_result_free(res);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	res->mode = b->mode;
	res->threads = T;
	res->cacheline_size = r->o.cacheline_size;
	res->seconds = secs;
	n_lat = 0;
	for (unsigned i = 0; i < NT; i++) {
		struct eng_thread *th = &r->th[i];
		if (i < T) {
			res->thread[i].cpu = th->cpu;
			res->thread[i].ops = th->ops;
			res->thread[i].ops_per_s = (double)th->ops / secs;
			res->thread[i].cpu_seconds = (double)th->cpu_ns / 1e9;
			res->thread[i].running_seconds = eng_cosched_running_s(th, t0, t1);
			res->ops += th->ops;
			for (size_t k = 0; k < th->n_lat; k++)
				lat[n_lat++] = th->lat[k];
			res->lat_samples += th->lat_seen;
			for (size_t g = 0; g < ng; g++)
				res->added[g] += th->added[g];
		}
		slt_engine_hist_merge(&res->percpu_lock, &th->cpu_hist);
		slt_engine_hist_merge(&res->percpu_update_lock, &th->mark_hist);
		slt_engine_hist_merge(&res->flush_lock, &th->flush_hist);
		res->flushes += th->flushes;
		res->flushed_groups += th->flushed_groups;
		res->worker_flushes += th->worker_flushes;
		res->reader_flushes += th->reader_flushes;
		res->periodic_flushes += th->periodic_flushes;
		res->reader_checks += th->reader_checks;
		res->flush_busy += th->flush_busy;
		res->counters_visited += th->counters_visited;
		res->flush_wakeups += th->wakeups;
		res->batch_crossings += th->crossings;
		res->lat_batch_samples += th->lat_batch;
		if (res->access)
			memcpy(res->access + (size_t)i * b->n_roles, th->acc,
			       b->n_roles * sizeof(*res->access));
	}
	res->ops_per_s = (double)res->ops / secs;
	res->stats_mode = stats ? r->o.stats_mode : 0;
	if (stats)
		res->counters = r->o.counters;
	res->spin_locks = stats && r->spin;
	if (eng_cosched_overlap(r, T, t0, t1, &res->overlap, &res->overlap_all)) {
		free(lat);
		slt_engine_result_free(res);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	res->allowed_cpus = n_cpus;
	res->distinct_cpus = r->o.pin ? (T < n_cpus ? T : n_cpus) : 0;
	qsort(lat, n_lat, sizeof(*lat), cmp_double);
	if (n_lat) {
		res->lat_p50_ns = slt_stats_percentile_sorted(lat, n_lat, 50);
		res->lat_p90_ns = slt_stats_percentile_sorted(lat, n_lat, 90);
		res->lat_p99_ns = slt_stats_percentile_sorted(lat, n_lat, 99);
		res->lat_p999_ns = slt_stats_percentile_sorted(lat, n_lat, 99.9);
	}
	free(lat);
	res->n_groups = ng;
	for (size_t g = 0; g < ng; g++) {
		res->parent[g] = r->tree.groups[g].parent;
		res->total[g] = eng_group_total(&r->tree, g);
	}
	res->n_roles = r->o.count_accesses ? b->n_roles : 0;
	res->n_access_threads = r->o.count_accesses ? NT : 0;
	*out = res;
	return 0;
}

int slt_engine_run(const struct slt_engine_bound *b,
		   const struct slt_engine_opts *opts,
		   struct slt_engine_result **out, struct slt_error *err)
{
	*out = NULL;
	struct eng_run *r = calloc(1, sizeof(*r));
	if (!r)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	r->b = b;
	if (opts)
		r->o = *opts;
	else
		slt_engine_opts_default(&r->o);
	int cpus[MAX_THREADS];
	unsigned n_cpus = allowed_cpus(cpus, MAX_THREADS);
	int rc = check_opts(b, &r->o, err);
	if (rc) {
		free(r);
		return rc;
	}
	bool stats = b->mode == SLT_ENGINE_STATS;
	if (!r->o.threads)
		r->o.threads = n_cpus;
	if (!stats)
		r->o.depth = 1;
	unsigned T = r->o.threads, NT = T + stats;
	if ((rc = realtime_fits(r->o.realtime, T, n_cpus, err))) {
		free(r);
		return rc;
	}
	r->role_back = r->role_pcpu = -1;
	if (!(r->writer = calloc(b->n_roles + 1, sizeof(*r->writer)))) {
		free(r);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	/* writer groups share a thread; the others round-robin (engine.h) */
	for (size_t k = 0, hot = 0; k < b->n_roles; k++) {
		if (b->roles[k].role == SLT_ROLE_HOT_WRITE)
			r->writer[k] = b->roles[k].writer ? (b->roles[k].writer - 1) % T
							  : (unsigned)(hot++ % T);
		if (b->roles[k].role == SLT_ROLE_BACK_PTR && r->role_back < 0)
			r->role_back = (int32_t)k;
		if (b->roles[k].role == SLT_ROLE_PERCPU_PTR && r->role_pcpu < 0)
			r->role_pcpu = (int32_t)k;
	}
	/* spinning locks while every thread that takes them often has a CPU
	 * of its own: the updaters, and in 5.15-rc1 the flush worker they
	 * wake every batch (in 6.1 and mainline it runs every 2 s and the
	 * updaters flush themselves); a spinner sharing a CPU with a
	 * preempted holder would spin out its time slice (engine_int.h) */
	r->spin = T + (r->o.stats_mode == SLT_STATS_5_15) <= n_cpus;
	if ((rc = eng_tree_init(r, err))) {
		free(r->writer);
		free(r);
		return rc;
	}
	if (stats) {
		int32_t *parent = malloc(r->tree.n_groups * sizeof(*parent));
		if (!parent)
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		for (size_t g = 0; !rc && g < r->tree.n_groups; g++)
			parent[g] = r->tree.groups[g].parent;
		if (!rc)
			rc = slt_stats_trigger_init(&r->trig, r->o.stats_mode, T, r->o.batch, parent,
						    r->tree.n_groups, err);
		free(parent);
		if (rc)
			goto out_tree;
	}
	size_t tsz = (sizeof(struct eng_thread) + 127) / 128 * 128;
	if (!(r->th = aligned_alloc(128, tsz * NT))) {
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		goto out_tree;
	}
	memset(r->th, 0, tsz * NT);
	for (unsigned i = 0; i < NT; i++) {
		struct eng_thread *th = &r->th[i];
		th->run = r;
		th->idx = i;
		th->cpu = r->o.pin && i < T ? cpus[i % n_cpus] : -1;
		th->nap_wait = r->o.realtime;
		th->rng = r->o.seed * 0x9E3779B97F4A7C15ULL + i + 1;
		if (!th->rng)
			th->rng = 1;
		th->lat_rng = (th->rng ^ 0xD1B54A32D192ED03ULL) | 1;
		th->lat_wait = eng_lat_gap(th, r->o.latency_every);
		if ((r->o.count_accesses && !(th->acc = calloc(b->n_roles + 1, sizeof(*th->acc)))) ||
		    !(th->added = calloc(r->tree.n_groups, sizeof(*th->added))) ||
		    (i < T && !(th->lat = malloc(ENG_LAT_RESERVOIR * sizeof(*th->lat)))) ||
		    (i < T && eng_cosched_alloc(th)) ||
		    (stats && !(th->scratch = malloc(r->tree.n_groups * sizeof(*th->scratch))))) {
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			goto out_threads;
		}
	}
	if ((!stats || b->pattern) && (rc = eng_replay_init(r, err)))
		goto out_threads;
	eng_lock_init(&r->flush_lock, r->spin);
	eng_lock_init(&r->stats_lock, r->spin);
	sem_init(&r->wake, 0, 0);
	pthread_mutex_init(&r->go_m, NULL);
	pthread_cond_init(&r->go_c, NULL);
	pthread_t *tid = calloc(NT, sizeof(*tid));
	unsigned started = 0;
	if (!tid)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	/* --realtime: this thread, which starts, times and stops the run,
	 * above the engine's threads (so that it stops the run on time); it
	 * sleeps while it waits for them, a yield would keep out the
	 * lower-priority thread pinned to its CPU */
	int old_policy = SCHED_OTHER;
	struct sched_param old_sp = { 0 }, sp = { .sched_priority = SLT_ENGINE_RT_PRIO + 1 };
	bool timer_rt = false;
	if (!rc && r->o.realtime) {
		timer_rt = !pthread_getschedparam(pthread_self(), &old_policy, &old_sp) &&
			   !pthread_setschedparam(pthread_self(), SCHED_RR, &sp);
		if (!timer_rt)
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1,
					   "run as root, give CAP_SYS_NICE or RLIMIT_RTPRIO >= 2, or drop --realtime",
					   "--realtime: not allowed to run the engine SCHED_RR");
	}
	for (unsigned i = 0; !rc && i < NT; i++) {
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		if (r->th[i].cpu >= 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(r->th[i].cpu, &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		if (r->o.realtime) {
			/* the flusher one above the updaters: woken, it runs at
			 * once on the CPU it wakes on, as a woken kworker
			 * preempts a running task under CFS (wakeup preemption
			 * of a sleeper); at the updaters' priority SCHED_RR
			 * would queue it behind a 100 ms time slice (0.5 s
			 * runs: 10-13 flushes instead of about 15,000) */
			struct sched_param tp = { .sched_priority = SLT_ENGINE_RT_PRIO + (i >= T) };
			pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
			pthread_attr_setschedpolicy(&attr, SCHED_RR);
			pthread_attr_setschedparam(&attr, &tp);
		}
		int e = pthread_create(&tid[i], &attr, i < T ? updater : flusher, &r->th[i]);
		pthread_attr_destroy(&attr);
		if (e == EPERM && r->o.realtime)
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1,
					   "run as root, give CAP_SYS_NICE or RLIMIT_RTPRIO >= 2, or drop --realtime",
					   "--realtime: not allowed to give the engine's threads SCHED_RR");
		else if (e)
			rc = slt_error_set(err, SLT_EIO, NULL, -1, "use fewer threads, or --no-pin",
					   "cannot start engine thread %u: %s", i, strerror(e));
		else
			started++;
	}
	const struct timespec nap = { 0, 50000 };
	while (!rc && atomic_load(&r->ready) < NT)
		if (timer_rt)
			nanosleep(&nap, NULL);
		else
			sched_yield();
	if (rc)  /* release the threads that started: they stop at once */
		atomic_store(&r->stop, 1);
	if (stats && rc)
		sem_post(&r->wake);
	start_open(r);
	for (unsigned i = 0; rc && i < started; i++)
		pthread_join(tid[i], NULL);
	if (!rc) {
		uint64_t t0 = eng_now_ns(), limit = (uint64_t)(r->o.seconds * 1e9);
		for (;;) {
			uint64_t el = eng_now_ns() - t0;
			if (el >= limit || atomic_load(&r->done) >= T)
				break;
			uint64_t left = limit - el, step = r->o.max_updates ? 1000000 : left;
			if (step > left)
				step = left;
			struct timespec ts = { (time_t)(step / 1000000000u), (long)(step % 1000000000u) };
			nanosleep(&ts, NULL);
		}
		atomic_store(&r->stop, 1);
		uint64_t t1 = eng_now_ns();
		if (stats)
			sem_post(&r->wake);
		for (unsigned i = 0; i < NT; i++)
			pthread_join(tid[i], NULL);
		if (stats)
			eng_flush(r, &r->th[T], ENG_FLUSH_FINAL);
		if (!rc)
			rc = fill_result(r, t0, t1, n_cpus, out, err);
	}
	if (timer_rt)
		pthread_setschedparam(pthread_self(), old_policy, &old_sp);
	free(tid);
	sem_destroy(&r->wake);
	pthread_cond_destroy(&r->go_c);
	pthread_mutex_destroy(&r->go_m);
	eng_lock_destroy(&r->flush_lock);
	eng_lock_destroy(&r->stats_lock);
out_threads:
	free_threads(r, NT);
out_tree:
	slt_stats_trigger_free(&r->trig);
	eng_tree_free(&r->tree);
	free(r->writer);
	free(r);
	return rc;
}
