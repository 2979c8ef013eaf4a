/* SPDX-License-Identifier: MIT */
/*
 * The tree of groups: per group a cacheline-aligned object laid out by the
 * bound layout (pointer roles hold real pointers), per-CPU counter deltas
 * in per-CPU chunks, and per CPU an updated tree with the links of
 * kernel/cgroup/rstat.c (updated_children / updated_next): marking puts a
 * group and its ancestors on it under the per-CPU lock, the flush pops it
 * children first.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_int.h"

static size_t round_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

struct eng_pcpu *eng_pcpu_of(const struct eng_tree *t, size_t g, unsigned cpu)
{
	return eng_pcpu_at(t, t->pcpu_base + g * sizeof(struct eng_pcpu), cpu);
}

int64_t *eng_ctr_of(const struct eng_tree *t, size_t g, unsigned cpu)
{
	return (int64_t *)(t->pcpu_base + (size_t)cpu * t->pcpu_stride + t->ctr_off +
			   g * 2 * t->n_ctr * sizeof(int64_t));
}

int64_t eng_group_total(const struct eng_tree *t, size_t g)
{
	int64_t sum = 0;
	for (size_t i = t->node_at; i < t->n_ctr; i++)
		sum += t->gtotal[g * t->n_ctr + i];
	return sum;
}

void eng_lock_init(struct eng_lock *l, bool spin)
{
	atomic_init(&l->v, 0);
	l->spin = spin;
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&l->m, &ma);
	pthread_mutexattr_destroy(&ma);
}

void eng_lock_destroy(struct eng_lock *l)
{
	pthread_mutex_destroy(&l->m);
}

void eng_tree_free(struct eng_tree *t)
{
	if (t->cpu_lock)
		for (unsigned c = 0; c < t->n_cpus; c++)
			eng_lock_destroy(&t->cpu_lock[c]);
	free(t->cpu_lock);
	free(t->groups);
	free(t->pcpu_base);
	free(t->obj_mem);
	free(t->gtotal);
	free(t->gpending);
	memset(t, 0, sizeof(*t));
}

static void store_ptr(uint8_t *obj, const struct slt_engine_bound_role *r,
		      void *p)
{
	__atomic_store_n((void **)(obj + r->offset), p, __ATOMIC_RELAXED);
}

int eng_tree_init(struct eng_run *r, struct slt_error *err)
{
	struct eng_tree *t = &r->tree;
	const struct slt_engine_opts *o = &r->o;
	unsigned cl = o->cacheline_size;
	size_t n = 0, level = 1;
	for (unsigned d = 0; d < o->depth; d++) {
		n += level;
		if (d + 1 < o->depth)
			level *= o->fanout;
	}
	t->n_groups = n;
	t->first_leaf = n - level;
	t->n_cpus = o->threads;
	const struct slt_engine_counters *kc = &o->counters;
	t->n_memcg = kc->memcg_items;
	t->n_node = kc->node_items;
	t->node_at = (size_t)kc->memcg_items + kc->event_items;
	t->n_ctr = t->node_at + kc->node_items;
	t->ctr_off = round_up(n * sizeof(struct eng_pcpu), 64);
	size_t ctr_bytes = n * 2 * t->n_ctr * sizeof(int64_t);
	t->pcpu_stride = round_up(t->ctr_off + ctr_bytes, 4096);
	if ((double)t->pcpu_stride * t->n_cpus > (double)(1u << 30))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "use a smaller --depth/--fanout or fewer threads",
				     "%zu groups x %zu counters x %u CPUs need more than 1 GiB of per-CPU counters",
				     n, t->n_ctr, t->n_cpus);
	t->obj_stride = round_up(r->b->object_size ? r->b->object_size : 1, cl);
	t->groups = calloc(n, sizeof(*t->groups));
	t->cpu_lock = calloc(t->n_cpus, sizeof(*t->cpu_lock));
	t->pcpu_base = aligned_alloc(4096, t->pcpu_stride * t->n_cpus);
	t->obj_mem = aligned_alloc(cl, t->obj_stride * n);
	t->gtotal = calloc(n * t->n_ctr + 1, sizeof(*t->gtotal));
	t->gpending = calloc(n * t->n_ctr + 1, sizeof(*t->gpending));
	if (!t->groups || !t->cpu_lock || !t->pcpu_base || !t->obj_mem || !t->gtotal || !t->gpending) {
		free(t->groups);
		free(t->cpu_lock);
		free(t->pcpu_base);
		free(t->obj_mem);
		free(t->gtotal);
		free(t->gpending);
		memset(t, 0, sizeof(*t));
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, "use a smaller --depth/--fanout or fewer threads",
				     "out of memory for %zu groups of %zu bytes", n, t->obj_stride);
	}
	memset(t->pcpu_base, 0, t->pcpu_stride * t->n_cpus);
	memset(t->obj_mem, 0, t->obj_stride * n);
	for (unsigned c = 0; c < t->n_cpus; c++)
		eng_lock_init(&t->cpu_lock[c], r->spin);
	for (size_t g = 0; g < n; g++) {
		struct eng_group *gr = &t->groups[g];
		gr->idx = (int32_t)g;
		gr->parent = g ? (int32_t)((g - 1) / o->fanout) : -1;
		gr->depth = g ? t->groups[gr->parent].depth + 1 : 0;
		gr->obj = t->obj_mem + g * t->obj_stride;
		for (unsigned c = 0; c < t->n_cpus; c++) {
			struct eng_pcpu *p = eng_pcpu_of(t, g, c);
			atomic_init(&p->next, ENG_OFF);
			p->children = ENG_END;
		}
		for (size_t k = 0; k < r->b->n_roles; k++) {
			const struct slt_engine_bound_role *br = &r->b->roles[k];
			if (br->role == SLT_ROLE_BACK_PTR)
				store_ptr(gr->obj, br, gr);
			else if (br->role == SLT_ROLE_PERCPU_PTR)
				store_ptr(gr->obj, br, eng_ctr_of(t, g, 0));
		}
	}
	return 0;
}

/* Group g's links on cpu's updated tree.  With tree_via_pcpu (cgroup):
 * cgroup_rstat_cpu(cgrp, cpu) = per_cpu_ptr(cgrp->rstat_cpu, cpu), a load
 * of the percpu-pointer role from g's object, the node's address
 * following from the loaded value (a dependent load, as the kernel's);
 * else straight from the tree (memcg: its tree lives in the memcg's
 * cgroup, not in the object). */
static struct eng_pcpu *node_of(struct eng_run *r, struct eng_thread *th,
				size_t g, unsigned cpu)
{
	struct eng_tree *t = &r->tree;
	if (!r->b->tree_via_pcpu || r->role_pcpu < 0)
		return eng_pcpu_of(t, g, cpu);
	/* the pointer is eng_ctr_of(t, g, 0); g's node lies at a fixed
	 * distance from it in the same per-CPU chunk */
	uint8_t *p = eng_role_ptr(th, t->groups[g].obj, r->role_pcpu);
	ptrdiff_t to_node = (uint8_t *)eng_pcpu_of(t, g, 0) - (uint8_t *)eng_ctr_of(t, g, 0);
	return eng_pcpu_at(t, p + to_node, cpu);
}

void eng_tree_mark(struct eng_run *r, struct eng_thread *th, size_t g,
		   unsigned cpu)
{
	struct eng_tree *t = &r->tree;
	/* speculative already-on-tree test, as cgroup_rstat_updated(); the
	 * seq_cst load pairs with the flusher's seq_cst reset (tree pop)
	 * and the update's fence after its counter stores, so that either this update sees the
	 * reset and marks again, or the flush sees the update's value */
	if (atomic_load(&node_of(r, th, g, cpu)->next) != ENG_OFF)
		return;
	eng_lock_nap(&t->cpu_lock[cpu], th->nap_wait);
	uint64_t t1 = eng_now_ns();
	for (int32_t c = (int32_t)g;;) {
		struct eng_pcpu *pc = node_of(r, th, (size_t)c, cpu);
		if (atomic_load_explicit(&pc->next, memory_order_relaxed) != ENG_OFF)
			break;
		int32_t parent = t->groups[c].parent;
		if (parent < 0) {
			atomic_store_explicit(&pc->next, ENG_END, memory_order_relaxed);
			break;
		}
		struct eng_pcpu *pp = node_of(r, th, (size_t)parent, cpu);
		atomic_store_explicit(&pc->next, pp->children, memory_order_relaxed);
		pp->children = c;
		c = parent;
	}
	uint64_t t2 = eng_now_ns();
	eng_unlock(&t->cpu_lock[cpu]);
	if (eng_hold_add(&th->nivcsw, &th->cpu_hist, t2 - t1))
		slt_engine_hist_add_preempted(&th->mark_hist, t2 - t1);
	else
		slt_engine_hist_add(&th->mark_hist, t2 - t1);
}

/* Post-order walk of c's updated children, then c; each popped node is
 * reset (off the tree, no children). */
static size_t pop_from(struct eng_run *r, struct eng_thread *th, unsigned cpu,
		       int32_t c, int32_t *out, size_t n)
{
	struct eng_pcpu *pc = node_of(r, th, (size_t)c, cpu);
	for (int32_t k = pc->children; k >= 0;) {
		struct eng_pcpu *pk = node_of(r, th, (size_t)k, cpu);
		int32_t next = atomic_load_explicit(&pk->next, memory_order_relaxed);
		n = pop_from(r, th, cpu, k, out, n);
		k = next;
	}
	pc->children = ENG_END;
	atomic_store(&pc->next, ENG_OFF);
	out[n++] = c;
	return n;
}

size_t eng_tree_pop(struct eng_run *r, struct eng_thread *th, unsigned cpu,
		    int32_t *out)
{
	if (atomic_load(&node_of(r, th, 0, cpu)->next) == ENG_OFF)
		return 0;
	return pop_from(r, th, cpu, 0, out, 0);
}
