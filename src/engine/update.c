/* SPDX-License-Identifier: MIT */
/*
 * The update path, like __mod_memcg_lruvec_state() on a page fault (Linux
 * 6.1 .. 6.12, mm/memcontrol.c): load the object's read-mostly members
 * (the back pointer to the group, the per-CPU stats pointer, the other
 * read roles), add the value to this CPU's delta through the per-CPU
 * pointer, mark the group updated on this CPU's updated tree
 * (cgroup_rstat_updated()), store to the hot-written members on every
 * write_every-th update (LRU list and zone-size updates; each hot-written
 * member has one writer thread, so the sharing measured is the false
 * sharing the layout causes, not writers contending for one member), and
 * memcg_rstat_updated(): the mode's flush trigger (kmode.c): 5.15-rc1
 * wakes the flush worker every `batch` updates of a CPU; 6.1 and
 * mainline count, and every read_every-th update reads the stats as
 * reclaim and refault do, flushing itself when the kernel's would.
 *
 * Role accesses are relaxed atomics: plain loads and stores in the
 * machine code, one per cacheline the member touches, and no data race
 * in the C sense.
 */
#include "engine/engine_int.h"

static const uint8_t *line_byte(const uint8_t *obj,
				const struct slt_engine_bound_role *br,
				uint64_t line, unsigned cl)
{
	uint64_t off = line * cl;
	return obj + (off > br->offset ? off : br->offset);
}

/* One access of br->width bytes at br->offset, as naturally aligned
 * pieces of 8, 4, 2, 1 bytes (one piece for an aligned access). */
static uint64_t exact_access(const struct slt_engine_bound_role *br, uint8_t *obj,
			     bool store, uint8_t v)
{
	uint64_t sum = 0, o = br->offset, end = br->offset + br->width;
	while (o < end) {
		unsigned w = 8;
		while (w > 1 && (o % w || o + w > end))
			w /= 2;
		uint8_t *p = obj + o;
		uint64_t x = v * 0x0101010101010101ULL;
		if (store && w == 8)
			__atomic_store_n((uint64_t *)p, x, __ATOMIC_RELAXED);
		else if (w == 8)
			sum += __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED);
		else if (store && w == 4)
			__atomic_store_n((uint32_t *)p, (uint32_t)x, __ATOMIC_RELAXED);
		else if (w == 4)
			sum += __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED);
		else if (store && w == 2)
			__atomic_store_n((uint16_t *)p, (uint16_t)x, __ATOMIC_RELAXED);
		else if (w == 2)
			sum += __atomic_load_n((uint16_t *)p, __ATOMIC_RELAXED);
		else if (store)
			__atomic_store_n(p, v, __ATOMIC_RELAXED);
		else
			sum += __atomic_load_n(p, __ATOMIC_RELAXED);
		o += w;
	}
	return sum;
}

void eng_role_load(struct eng_thread *th, const uint8_t *obj, size_t role)
{
	const struct slt_engine_bound_role *br = &th->run->b->roles[role];
	if (br->width) {
		th->sink += exact_access(br, (uint8_t *)obj, false, 0);
		if (th->acc)
			th->acc[role].loads++;
		return;
	}
	unsigned cl = th->run->o.cacheline_size;
	uint64_t v = 0;
	for (uint64_t l = br->first_line; l <= br->last_line; l++)
		v += __atomic_load_n(line_byte(obj, br, l, cl), __ATOMIC_RELAXED);
	th->sink += v;
	if (th->acc)
		th->acc[role].loads += br->last_line - br->first_line + 1;
}

void eng_role_store(struct eng_thread *th, uint8_t *obj, size_t role,
		    uint8_t v)
{
	const struct slt_engine_bound_role *br = &th->run->b->roles[role];
	if (br->width) {
		exact_access(br, obj, true, v);
		if (th->acc)
			th->acc[role].stores++;
		return;
	}
	unsigned cl = th->run->o.cacheline_size;
	for (uint64_t l = br->first_line; l <= br->last_line; l++)
		__atomic_store_n((uint8_t *)line_byte(obj, br, l, cl), v, __ATOMIC_RELAXED);
	if (th->acc)
		th->acc[role].stores += br->last_line - br->first_line + 1;
}

void *eng_role_ptr(struct eng_thread *th, const uint8_t *obj, int32_t role)
{
	const struct slt_engine_bound_role *br = &th->run->b->roles[role];
	void *p = __atomic_load_n((void *const *)(obj + br->offset), __ATOMIC_RELAXED);
	if (th->acc)
		th->acc[role].loads++;
	return p;
}

void eng_update(struct eng_run *r, struct eng_thread *th, uint64_t n)
{
	const struct slt_engine_bound *b = r->b;
	struct eng_tree *t = &r->tree;
	uint64_t rnd = eng_rand(&th->rng);
	size_t leaves = t->n_groups - t->first_leaf;
	size_t g = t->first_leaf + (size_t)(rnd % leaves);
	int64_t val = (int64_t)((rnd >> 32) % 7) + 1;
	uint8_t *obj = t->groups[g].obj;
	bool timed = eng_lat_due(th, r->o.latency_every);
	uint64_t t0 = timed ? eng_now_ns() : 0;

	/* memcg = pn->memcg; the group is the one the object points at */
	if (r->role_back >= 0) {
		struct eng_group *gr = eng_role_ptr(th, obj, r->role_back);
		g = (size_t)gr->idx;
	}
	int64_t *ctr = (int64_t *)((uint8_t *)eng_role_ptr(th, obj, r->role_pcpu) +
				   (size_t)th->idx * t->pcpu_stride);
	for (size_t k = 0; k < b->n_roles; k++)
		if (b->roles[k].role == SLT_ROLE_READ)
			eng_role_load(th, obj, k);
	/* mod_memcg_lruvec_state(): this_cpu_add(memcg->vmstats_percpu->
	 * state[i], val) and this_cpu_add(pn->lruvec_stats_percpu->state[i],
	 * val) for a node stat item i; one writer per CPU (relaxed load and
	 * store, as the kernel's per-CPU add), then a fence that pairs with
	 * the flusher's (tree.c, flush.c) */
	size_t item = (size_t)((rnd >> 40) % t->n_node);
	int64_t *mc = &ctr[item % t->n_memcg], *nc = &ctr[t->node_at + item];
	__atomic_store_n(mc, __atomic_load_n(mc, __ATOMIC_RELAXED) + val, __ATOMIC_RELAXED);
	__atomic_store_n(nc, __atomic_load_n(nc, __ATOMIC_RELAXED) + val, __ATOMIC_RELAXED);
	atomic_thread_fence(memory_order_seq_cst);
	th->added[g] += val;
	eng_tree_mark(r, th, g, th->idx);
	if (n % r->o.write_every == 0) {
		if (b->pattern) {   /* the thread's next measured store */
			if (th->n_sched)
				eng_role_store(th, obj, (size_t)(-1 - th->sched[th->hot_pos++ % th->n_sched]),
					       (uint8_t)n);
		} else {            /* synthetic: every line of every hot member */
			for (size_t k = 0; k < b->n_roles; k++)
				if (b->roles[k].role == SLT_ROLE_HOT_WRITE && r->writer[k] == th->idx)
					eng_role_store(th, obj, k, (uint8_t)n);
		}
	}
	/* memcg_rstat_updated(): one page per update (a 4 KiB page fault) */
	bool crossing = slt_stats_trigger_updated(&r->trig, th->idx, g, 1);
	if (crossing) {
		th->crossings++;
		/* queue_work() of a pending work does nothing: a crossing
		 * while a flush is requested coalesces into it */
		if (!atomic_exchange_explicit(&r->flush_requested, 1, memory_order_relaxed)) {
			th->wakeups++;
			sem_post(&r->wake);
		}
	}
	/* a reader on the update path (reclaim, refault):
	 * mem_cgroup_flush_stats() */
	if (r->o.stats_mode != SLT_STATS_5_15 && n % r->o.read_every == 0) {
		th->reader_checks++;
		if (slt_stats_trigger_reader(&r->trig))
			eng_flush(r, th, ENG_FLUSH_READER);
	}
	if (timed) {
		eng_lat_add(th, (double)(eng_now_ns() - t0));
		th->lat_batch += crossing;
	}
	th->ops++;
}
