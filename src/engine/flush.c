/* SPDX-License-Identifier: MIT */
/*
 * The flush.  The rstat part follows kernel/cgroup/rstat.c
 * cgroup_rstat_flush_locked(): the global cgroup_rstat_lock, then per CPU
 * its cgroup_rstat_cpu_lock while that CPU's updated tree is popped.
 * SLT_FLUSH_POP aggregates each popped group while still holding the
 * per-CPU lock (Linux up to 6.7: cgroup_rstat_cpu_pop_updated() inside
 * the raw_spin_lock_irqsave()); SLT_FLUSH_LIST detaches the whole list
 * under it, chaining it through the flush-link role (rstat_flush_next),
 * and aggregates after releasing it (6.8+, cgroup_rstat_updated_list()).
 * The walks load each visited group's rstat_cpu (tree.c) for cgroup.  Both hold the global lock for the whole
 * flush (the irqsafe flush of 5.15 and 6.1 never drops it; 6.8 .. 6.14
 * drop it between CPUs only on need_resched()).
 *
 * Aggregation per (group, CPU) is mm/memcontrol.c
 * mem_cgroup_css_rstat_flush() (6.1 and 6.12 alike): for every counter
 * of memcg_vmstats_percpu.state[] and .events[] and of the node's
 * lruvec_stats_percpu.state[], delta = pending from children + (value
 * - _prev copy); _prev = value; a nonzero delta goes into the group's
 * total and its parent's pending, children before parents, so nothing is
 * lost and nothing counted twice.  The work is the counters' number times
 * the flushed (group, CPU) pairs, as in the kernel.
 *
 * Who flushes (engine.h "Kernel stats modes", src/engine/kmode.c):
 * 5.15-rc1 and 6.1 take stats_flush_lock with a trylock first
 * (mem_cgroup_flush_stats() / __mem_cgroup_flush_stats()): a flush
 * already running makes the caller return; 6.1 then resets
 * stats_flush_threshold.  Mainline readers and the worker block on the
 * rstat lock (do_flush_stats() -> cgroup_rstat_flush()).
 */
#include "engine/engine_int.h"

static void aggregate(struct eng_run *r, struct eng_thread *th,
		      const int32_t *list, size_t n, unsigned cpu)
{
	const struct slt_engine_bound *b = r->b;
	struct eng_tree *t = &r->tree;
	size_t K = t->n_ctr;
	/* pairs with the updaters' fence: the pop's resets come before
	 * these counter loads */
	atomic_thread_fence(memory_order_seq_cst);
	for (size_t i = 0; i < n; i++) {
		struct eng_group *g = &t->groups[list[i]];
		uint8_t *obj = g->obj;
		for (size_t k = 0; k < b->n_roles; k++)
			if (b->roles[k].role == SLT_ROLE_FLUSH_READ)
				eng_role_load(th, obj, k);
		/* statc = per_cpu_ptr(memcg->vmstats_percpu, cpu), lstatc
		 * likewise: through the object's per-CPU pointer */
		int64_t *cur = (int64_t *)((uint8_t *)eng_role_ptr(th, obj, r->role_pcpu) +
					   (size_t)cpu * t->pcpu_stride);
		int64_t *prev = cur + K;
		int64_t *pend = t->gpending + (size_t)g->idx * K;
		int64_t *tot = t->gtotal + (size_t)g->idx * K;
		int64_t *ppend = g->parent >= 0 ? t->gpending + (size_t)g->parent * K : NULL;
		int64_t sum = 0;
		for (size_t c = 0; c < K; c++) {
			int64_t delta = pend[c];
			if (delta)
				pend[c] = 0;
			int64_t v = __atomic_load_n(&cur[c], __ATOMIC_RELAXED);
			delta += v - prev[c];
			prev[c] = v;
			if (!delta)
				continue;
			tot[c] += delta;
			if (ppend)
				ppend[c] += delta;
			sum += delta;
		}
		th->counters_visited += K;
		slt_stats_trigger_flushed_group(&r->trig, (size_t)g->idx, cpu);
		for (size_t k = 0; k < b->n_roles; k++)
			if (b->roles[k].role == SLT_ROLE_FLUSH_WRITE ||
			    (b->roles[k].role == SLT_ROLE_FLUSH_LINK && r->o.flush == SLT_FLUSH_POP))
				eng_role_store(th, obj, k, (uint8_t)sum);
		th->flushed_groups++;
	}
}

/* cgroup_rstat_updated_list() (6.8+): each popped group is chained into
 * the flush list through its rstat_flush_next while the per-CPU lock is
 * held (the flush-link roles). */
static void link_list(struct eng_run *r, struct eng_thread *th,
		      const int32_t *list, size_t n)
{
	const struct slt_engine_bound *b = r->b;
	for (size_t k = 0; k < b->n_roles; k++)
		if (b->roles[k].role == SLT_ROLE_FLUSH_LINK)
			for (size_t i = 0; i < n; i++)
				eng_role_store(th, r->tree.groups[list[i]].obj, k,
					       (uint8_t)(i + 1 < n ? list[i + 1] : 0));
}

/* cgroup_rstat_flush_locked() under cgroup_rstat_lock. */
static void rstat_flush(struct eng_run *r, struct eng_thread *th)
{
	struct eng_tree *t = &r->tree;
	int32_t *scratch = th->scratch;
	/* preemption baselines: the flush lock's hold (the whole flush),
	 * taken once the lock is held, and the per-CPU holds (moved on by
	 * each check) */
	eng_lock_nap(&r->flush_lock, th->nap_wait);
	uint64_t fbase = eng_preempt_snap();
	th->nivcsw = fbase;
	uint64_t f0 = eng_now_ns();
	for (unsigned cpu = 0; cpu < t->n_cpus; cpu++) {
		eng_lock_nap(&t->cpu_lock[cpu], th->nap_wait);
		uint64_t c0 = eng_now_ns();
		size_t n = eng_tree_pop(r, th, cpu, scratch);
		if (r->o.flush == SLT_FLUSH_LIST)
			link_list(r, th, scratch, n);
		if (r->o.flush == SLT_FLUSH_POP)
			aggregate(r, th, scratch, n, cpu);
		uint64_t c1 = eng_now_ns();
		eng_unlock(&t->cpu_lock[cpu]);
		eng_hold_add(&th->nivcsw, &th->cpu_hist, c1 - c0);
		if (r->o.flush == SLT_FLUSH_LIST)
			aggregate(r, th, scratch, n, cpu);
	}
	th->flushes++;
	uint64_t f1 = eng_now_ns();
	eng_unlock(&r->flush_lock);
	eng_hold_add(&fbase, &th->flush_hist, f1 - f0);
}

bool eng_flush(struct eng_run *r, struct eng_thread *th, enum eng_flush_why why)
{
	bool trylock = why != ENG_FLUSH_FINAL && r->o.stats_mode != SLT_STATS_MAINLINE;
	if (trylock && !eng_trylock(&r->stats_lock)) {
		th->flush_busy++;
		return false;
	}
	rstat_flush(r, th);
	slt_stats_trigger_flushed(&r->trig);
	if (trylock)
		eng_unlock(&r->stats_lock);
	th->worker_flushes += why == ENG_FLUSH_WORKER;
	th->reader_flushes += why == ENG_FLUSH_READER;
	th->periodic_flushes += why == ENG_FLUSH_PERIODIC;
	return true;
}
