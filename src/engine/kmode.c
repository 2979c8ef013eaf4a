/* SPDX-License-Identifier: MIT */
/*
 * Kernel stats modes (engine.h, "Kernel stats modes"): names, the mode of
 * a kernel version, the counters' defaults, and the flush trigger of each
 * mode, written after the kernel's mm/memcontrol.c:
 *
 * 5.15-rc1 (aa48e47e3906 "memcg: infrastructure to flush memcg stats"):
 *	memcg_rstat_updated():
 *		cgroup_rstat_updated(memcg->css.cgroup, smp_processor_id());
 *		if (!(__this_cpu_inc_return(stats_flush_threshold) % MEMCG_CHARGE_BATCH))
 *			queue_work(system_unbound_wq, &stats_flush_work);
 *	mem_cgroup_flush_stats(): spin_trylock(&stats_flush_lock), else
 *	return; cgroup_rstat_flush_irqsafe(root); flush_memcg_stats_dwork()
 *	flushes and requeues itself every 2 s.
 *
 * 6.1 (v6.1 memcg_rstat_updated(), __mem_cgroup_flush_stats(),
 * mem_cgroup_flush_stats(), flush_memcg_stats_dwork(); the scheme since
 * 11192d9c124b in 5.15-rc6):
 *		x = __this_cpu_add_return(stats_updates, abs(val));
 *		if (x > MEMCG_CHARGE_BATCH) {
 *			if (atomic_read(&stats_flush_threshold) <= num_online_cpus())
 *				atomic_add(x / MEMCG_CHARGE_BATCH, &stats_flush_threshold);
 *			__this_cpu_write(stats_updates, 0);
 *		}
 *	readers: if (atomic_read(&stats_flush_threshold) > num_online_cpus())
 *	__mem_cgroup_flush_stats(): spin_trylock_irqsave(&stats_flush_lock),
 *	cgroup_rstat_flush_irqsafe(root), atomic_set(&stats_flush_threshold, 0).
 *
 * mainline (8d59d2214c23 "mm: memcg: make stats flushing threshold
 * per-memcg", 6.8; as in 6.12 .. 6.14 memcg_rstat_updated(),
 * memcg_vmstats_needs_flush(), mem_cgroup_flush_stats()):
 *		for (; statc_pcpu; statc_pcpu = statc->parent_pcpu) {
 *			if (memcg_vmstats_needs_flush(statc->vmstats))
 *				break;
 *			stats_updates = this_cpu_add_return(statc_pcpu->stats_updates, abs(val));
 *			if (stats_updates < MEMCG_CHARGE_BATCH)
 *				continue;
 *			stats_updates = this_cpu_xchg(statc_pcpu->stats_updates, 0);
 *			atomic64_add(stats_updates, &statc->vmstats->stats_updates);
 *		}
 *	memcg_vmstats_needs_flush(): atomic64_read(&vmstats->stats_updates) >
 *	MEMCG_CHARGE_BATCH * num_online_cpus(); mem_cgroup_css_rstat_flush()
 *	ends with statc->stats_updates = 0 and vmstats->stats_updates = 0.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine_int.h"

const char *slt_stats_mode_name(enum slt_stats_mode m)
{
	switch (m) {
	case SLT_STATS_5_15: return "5.15-rc1";
	case SLT_STATS_6_1: return "6.1";
	case SLT_STATS_MAINLINE: return "mainline";
	}
	return "?";
}

enum slt_stats_mode slt_stats_mode_parse(const char *name)
{
	if (!strcmp(name, "5.15") || !strcmp(name, "5.15-rc1"))
		return SLT_STATS_5_15;
	if (!strcmp(name, "6.1"))
		return SLT_STATS_6_1;
	if (!strcmp(name, "mainline"))
		return SLT_STATS_MAINLINE;
	return 0;
}

enum slt_stats_mode slt_stats_mode_for_version(unsigned major, unsigned minor,
					       unsigned rc)
{
	unsigned v = major * 1000 + minor;
	if (v < 5015)
		return 0;
	if (v == 5015 && rc >= 1 && rc <= 5)
		return SLT_STATS_5_15;
	if (v < 6008)
		return SLT_STATS_6_1;
	return SLT_STATS_MAINLINE;
}

void slt_engine_counters_default(enum slt_stats_mode m,
				 struct slt_engine_counters *c)
{
	if (m == SLT_STATS_MAINLINE)
		*c = (struct slt_engine_counters){ 31, 38, 22, false };
	else
		*c = (struct slt_engine_counters){ 43, 50, 15, false };
}

/* 64 bytes of uint32_t per CPU slot at least: one CPU's counts never
 * share a line with another's (they are per-CPU data in the kernel). */
int slt_stats_trigger_init(struct slt_stats_trigger *t, enum slt_stats_mode m,
			   unsigned ncpus, unsigned batch, const int32_t *parent,
			   size_t n_groups, struct slt_error *err)
{
	memset(t, 0, sizeof(*t));
	if (!m)
		m = SLT_STATS_5_15;
	if (!ncpus || !batch || !n_groups || !parent)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
				     "a stats trigger needs CPUs, a batch and groups");
	t->mode = m;
	t->ncpus = ncpus;
	t->batch = batch;
	t->n_groups = n_groups;
	size_t per = m == SLT_STATS_MAINLINE ? n_groups : 1;
	t->stride = (per + 15) / 16 * 16;
	size_t n_shared = m == SLT_STATS_MAINLINE ? n_groups * 8 : 8;
	t->parent = malloc(n_groups * sizeof(*t->parent));
	t->pcpu = aligned_alloc(64, (size_t)ncpus * t->stride * sizeof(*t->pcpu));
	t->shared = aligned_alloc(64, n_shared * sizeof(*t->shared));
	if (!t->parent || !t->pcpu || !t->shared) {
		slt_stats_trigger_free(t);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	memcpy(t->parent, parent, n_groups * sizeof(*t->parent));
	for (size_t i = 0; i < (size_t)ncpus * t->stride; i++)
		atomic_init(&t->pcpu[i], 0);
	for (size_t i = 0; i < n_shared; i++)
		atomic_init(&t->shared[i], 0);
	return 0;
}

void slt_stats_trigger_free(struct slt_stats_trigger *t)
{
	free(t->parent);
	free(t->pcpu);
	free(t->shared);
	memset(t, 0, sizeof(*t));
}

#define RLX memory_order_relaxed

static bool needs_flush(const struct slt_stats_trigger *t, size_t g)
{
	return atomic_load_explicit(&t->shared[g * 8], RLX) >
	       (int64_t)t->batch * (int64_t)t->ncpus;
}

bool slt_stats_trigger_updated(struct slt_stats_trigger *t, unsigned cpu,
			       size_t g, uint32_t pages)
{
	_Atomic uint32_t *slot = t->pcpu + (size_t)cpu * t->stride;
	switch (t->mode) {
	case SLT_STATS_5_15: {
		/* __this_cpu_inc_return(stats_flush_threshold) % BATCH */
		uint32_t x = atomic_load_explicit(slot, RLX) + 1;
		atomic_store_explicit(slot, x, RLX);
		return x % t->batch == 0;
	}
	case SLT_STATS_6_1: {
		uint32_t x = atomic_load_explicit(slot, RLX) + pages;
		if (x > t->batch) {
			_Atomic int64_t *thr = &t->shared[0];
			if (atomic_load_explicit(thr, RLX) <= (int64_t)t->ncpus)
				atomic_fetch_add_explicit(thr, x / t->batch, RLX);
			x = 0;
		}
		atomic_store_explicit(slot, x, RLX);
		return false;
	}
	case SLT_STATS_MAINLINE:
		for (int32_t a = (int32_t)g; a >= 0; a = t->parent[a]) {
			if (needs_flush(t, (size_t)a))
				break;
			uint32_t x = atomic_load_explicit(&slot[a], RLX) + pages;
			atomic_store_explicit(&slot[a], x, RLX);
			if (x < t->batch)
				continue;
			x = atomic_exchange_explicit(&slot[a], 0, RLX);
			atomic_fetch_add_explicit(&t->shared[(size_t)a * 8], x, RLX);
		}
		return false;
	}
	return false;
}

bool slt_stats_trigger_reader(const struct slt_stats_trigger *t)
{
	switch (t->mode) {
	case SLT_STATS_6_1:
		return atomic_load_explicit(&t->shared[0], RLX) > (int64_t)t->ncpus;
	case SLT_STATS_MAINLINE:
		return needs_flush(t, 0);
	case SLT_STATS_5_15:
		break;
	}
	return false;
}

void slt_stats_trigger_flushed_group(struct slt_stats_trigger *t, size_t g,
				     unsigned cpu)
{
	if (t->mode != SLT_STATS_MAINLINE)
		return;
	atomic_store_explicit(&t->pcpu[(size_t)cpu * t->stride + g], 0, RLX);
	/* "We are in a per-cpu loop here, only do the atomic write once" */
	if (atomic_load_explicit(&t->shared[g * 8], RLX))
		atomic_store_explicit(&t->shared[g * 8], 0, RLX);
}

void slt_stats_trigger_flushed(struct slt_stats_trigger *t)
{
	if (t->mode == SLT_STATS_6_1)
		atomic_store_explicit(&t->shared[0], 0, RLX);
}

enum slt_engine_flush slt_engine_flush_of(const struct slt_engine_opts *o)
{
	if (o->flush)
		return o->flush;
	return o->stats_mode == SLT_STATS_MAINLINE ? SLT_FLUSH_LIST : SLT_FLUSH_POP;
}
