/* SPDX-License-Identifier: MIT */
/*
 * The flush, like cgroup_rstat_flush() (kernel/cgroup/rstat.c) with
 * mem_cgroup_css_rstat_flush() (mm/memcontrol.c): the global flush lock,
 * then per CPU the per-CPU lock while that CPU's updated tree is popped.
 * SLT_FLUSH_POP aggregates each popped group while still holding the
 * per-CPU lock (Linux up to 6.7); SLT_FLUSH_LIST detaches the whole list
 * under the lock and aggregates after releasing it (6.8+,
 * cgroup_rstat_updated_list()).  Aggregation per (group, CPU): the
 * group's delta on that CPU (state - prev) plus what its children passed
 * up (pending) goes into its total and its parent's pending, children
 * before parents, so nothing is lost and nothing counted twice.
 */
#include "engine/engine_int.h"

static void aggregate(struct eng_run *r, struct eng_thread *th,
		      const int32_t *list, size_t n, unsigned cpu)
{
	const struct slt_engine_bound *b = r->b;
	struct eng_tree *t = &r->tree;
	for (size_t i = 0; i < n; i++) {
		struct eng_group *g = &t->groups[list[i]];
		uint8_t *obj = g->obj;
		for (size_t k = 0; k < b->n_roles; k++)
			if (b->roles[k].role == SLT_ROLE_FLUSH_READ)
				eng_role_load(th, obj, k);
		/* lstatc = per_cpu_ptr(pn->lruvec_stats_percpu, cpu) */
		struct eng_pcpu *pc = eng_pcpu_at(t, eng_role_ptr(th, obj, r->role_pcpu), cpu);
		int64_t cur = atomic_load(&pc->state);
		int64_t delta = cur - pc->prev + g->pending;
		pc->prev = cur;
		g->pending = 0;
		g->total += delta;
		if (g->parent >= 0)
			t->groups[g->parent].pending += delta;
		for (size_t k = 0; k < b->n_roles; k++)
			if (b->roles[k].role == SLT_ROLE_FLUSH_WRITE)
				eng_role_store(th, obj, k, (uint8_t)delta);
		th->flushed_groups++;
	}
}

void eng_flush(struct eng_run *r, struct eng_thread *th, int32_t *scratch)
{
	struct eng_tree *t = &r->tree;
	/* preemption baselines: the flush lock's hold (the whole flush),
	 * taken once the lock is held (only flushes take it), and the
	 * per-CPU holds (moved on by each check) */
	pthread_mutex_lock(&r->flush_lock);
	uint64_t fbase = eng_preempt_snap();
	th->nivcsw = fbase;
	uint64_t f0 = eng_now_ns();
	for (unsigned cpu = 0; cpu < t->n_cpus; cpu++) {
		pthread_mutex_lock(&t->cpu_lock[cpu]);
		uint64_t c0 = eng_now_ns();
		size_t n = eng_tree_pop(t, cpu, scratch);
		if (r->o.flush == SLT_FLUSH_POP)
			aggregate(r, th, scratch, n, cpu);
		uint64_t c1 = eng_now_ns();
		pthread_mutex_unlock(&t->cpu_lock[cpu]);
		eng_hold_add(&th->nivcsw, &th->cpu_hist, c1 - c0);
		if (r->o.flush == SLT_FLUSH_LIST)
			aggregate(r, th, scratch, n, cpu);
	}
	th->flushes++;
	uint64_t f1 = eng_now_ns();
	pthread_mutex_unlock(&r->flush_lock);
	eng_hold_add(&fbase, &th->flush_hist, f1 - f0);
}
