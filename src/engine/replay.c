/* SPDX-License-Identifier: MIT */
/*
 * Generic replay on one shared object.  A global cycle gives each role
 * slots in proportion to its rate (the busiest role 64 slots, every role
 * at least one), spread out by smooth weighted round robin.  The cycle is
 * split over the threads: each hot-write slot goes to the role's one
 * writer (its writer group's thread, else round-robin: engine.h), each
 * read slot
 * to the thread with the fewest slots so far (the lowest index on a tie),
 * so the loads of a read-mostly member are split over the reader threads
 * and the threads' schedules are as even as the writes allow.  One cycle
 * of every thread's schedule together is exactly one global cycle: the
 * totals over all threads follow the roles' relative rates whatever the
 * thread count (with max_updates, exactly: every thread runs the same
 * number of its cycles).  Each thread keeps its slots in the global
 * order.
 */
#include <stdlib.h>

#include "engine/engine_int.h"

#define SLOTS_MAX 64u
/* A measured pattern: the counts divided by their greatest common
 * divisor, so small counts replay exactly; a cycle longer than this is
 * scaled down to it (every role keeping at least one slot). */
#define PATTERN_CYCLE_MAX 4096u

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The roles a schedule holds: all (replay), the measured stores (stats). */
static bool scheduled(const struct slt_engine_bound *b, size_t k)
{
	return b->mode == SLT_ENGINE_REPLAY ||
	       (b->roles[k].role == SLT_ROLE_HOT_WRITE && b->roles[k].width);
}

/* Slots per role in one global cycle; returns the cycle length. */
static size_t role_slots(const struct slt_engine_bound *b, uint32_t *slots)
{
	size_t nr = b->n_roles, total = 0;
	uint64_t wmax = 0, g = 0, sum = 0;
	for (size_t k = 0; k < nr; k++) {
		if (!scheduled(b, k))
			continue;
		uint64_t w = b->roles[k].role == SLT_ROLE_READ ? b->roles[k].loads : b->roles[k].stores;
		wmax = w > wmax ? w : wmax;
		g = gcd(w, g);
	}
	g = g ? g : 1;
	for (size_t k = 0; k < nr; k++)
		if (scheduled(b, k))
			sum += (b->roles[k].role == SLT_ROLE_READ ? b->roles[k].loads : b->roles[k].stores) / g;
	for (size_t k = 0; k < nr; k++) {
		if (!scheduled(b, k))
			continue;
		const struct slt_engine_bound_role *br = &b->roles[k];
		uint64_t w = br->role == SLT_ROLE_READ ? br->loads : br->stores;
		double s;
		if (b->pattern)   /* exact rates while the cycle fits */
			s = sum <= PATTERN_CYCLE_MAX ? (double)(w / g)
				: (double)w * PATTERN_CYCLE_MAX / (double)(sum * g) + 0.5;
		else
			s = (double)w * SLOTS_MAX / (double)wmax + 0.5;
		slots[k] = s < 1 ? 1 : (uint32_t)s;
		total += slots[k];
	}
	return total;
}

int eng_replay_init(struct eng_run *r, struct slt_error *err)
{
	const struct slt_engine_bound *b = r->b;
	size_t nr = b->n_roles;
	unsigned T = r->o.threads;
	uint32_t *slots = calloc(nr + 1, sizeof(*slots));
	int64_t *cur = calloc(nr + 1, sizeof(*cur));
	size_t total = slots ? role_slots(b, slots) : 0;
	int32_t *global = calloc(total + 1, sizeof(*global));
	unsigned *owner = calloc(total + 1, sizeof(*owner));
	size_t *len = calloc(T, sizeof(*len));
	int rc = 0;
	if (!slots || !cur || !global || !owner || !len) {
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		goto done;
	}
	/* smooth weighted round robin: each step every role gains its
	 * weight, the richest is chosen and pays the total */
	for (size_t i = 0; i < total; i++) {
		size_t best = 0;
		for (size_t k = 0; k < nr; k++) {
			cur[k] += slots[k];
			if (cur[k] > cur[best])
				best = k;
		}
		cur[best] -= (int64_t)total;
		global[i] = (int32_t)best;
	}
	/* the writes to their writers first, then the reads to the
	 * shortest schedules */
	for (size_t i = 0; i < total; i++) {
		const struct slt_engine_bound_role *br = &b->roles[global[i]];
		if (br->role != SLT_ROLE_READ)
			len[owner[i] = r->writer[global[i]]]++;
		else if (b->pattern && br->writer)   /* a measured CPU's loads */
			len[owner[i] = (br->writer - 1) % T]++;
	}
	for (size_t i = 0; i < total; i++) {
		const struct slt_engine_bound_role *br = &b->roles[global[i]];
		if (br->role != SLT_ROLE_READ || (b->pattern && br->writer))
			continue;
		unsigned best = 0;
		for (unsigned t = 1; t < T; t++)
			if (len[t] < len[best])
				best = t;
		len[owner[i] = best]++;
	}
	uint64_t cycles = r->o.max_updates ? (r->o.max_updates + total - 1) / total : 0;
	for (unsigned t = 0; t < T && !rc; t++) {
		struct eng_thread *th = &r->th[t];
		if (!(th->sched = calloc(total, sizeof(*th->sched)))) {
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			break;
		}
		for (size_t i = 0; i < total; i++) {
			int32_t k = global[i];
			if (owner[i] != t)
				continue;
			th->sched[th->n_sched++] = b->roles[k].role == SLT_ROLE_READ ? k : -1 - k;
		}
		th->max_ops = b->mode == SLT_ENGINE_REPLAY ? cycles * th->n_sched : 0;
	}
done:
	free(slots);
	free(cur);
	free(global);
	free(owner);
	free(len);
	return rc;
}

void eng_replay_op(struct eng_run *r, struct eng_thread *th, uint64_t n)
{
	uint8_t *obj = r->tree.groups[0].obj;
	int32_t e = th->sched[n % th->n_sched];
	bool timed = eng_lat_due(th, r->o.latency_every);
	uint64_t t0 = timed ? eng_now_ns() : 0;
	if (e >= 0)
		eng_role_load(th, obj, (size_t)e);
	else
		eng_role_store(th, obj, (size_t)(-1 - e), (uint8_t)n);
	if (timed)
		eng_lat_add(th, (double)(eng_now_ns() - t0));
	th->ops++;
}
