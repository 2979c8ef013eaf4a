/* SPDX-License-Identifier: MIT */
/* Access accumulators: see acc.h. */
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "join/acc.h"
#include "common/sort.h"

int slt_acc_add_cpu(struct slt_acc *a, int32_t cpu, uint64_t loads,
		    uint64_t stores)
{
	for (size_t i = 0; i < a->n_cpus; i++) {
		if (a->cpus[i].cpu == cpu) {
			a->cpus[i].loads += loads;
			a->cpus[i].stores += stores;
			return 0;
		}
	}
	if (slt_grow((void **)&a->cpus, &a->cap_cpus, a->n_cpus + 1,
		     sizeof(*a->cpus), 0))
		return SLT_ENOMEM;
	a->cpus[a->n_cpus++] = (struct slt_cpu_access){ cpu, loads, stores };
	return 0;
}

int slt_acc_add_loc(struct slt_acc *a, const char *symbol, const char *source,
		    uint64_t ip, uint64_t loads, uint64_t stores, uint64_t hitm)
{
	for (size_t i = 0; i < a->n_locs; i++) {
		struct slt_acc_loc *l = &a->locs[i];
		if (l->symbol == symbol && l->source == source && l->ip == ip) {
			l->loads += loads;
			l->stores += stores;
			l->hitm += hitm;
			return 0;
		}
	}
	if (a->n_locs >= SLT_ACC_MAX_LOCS)
		return 0;
	if (slt_grow((void **)&a->locs, &a->cap_locs, a->n_locs + 1,
		     sizeof(*a->locs), 0))
		return SLT_ENOMEM;
	a->locs[a->n_locs++] = (struct slt_acc_loc){ symbol, source, ip,
						     loads, stores, hitm };
	return 0;
}

int slt_acc_merge(struct slt_acc *dst, const struct slt_acc *src)
{
	dst->loads += src->loads;
	dst->stores += src->stores;
	dst->hitm_local += src->hitm_local;
	dst->hitm_remote += src->hitm_remote;
	dst->peer_local += src->peer_local;
	dst->peer_remote += src->peer_remote;
	dst->cycles += src->cycles;
	for (size_t i = 0; i < src->n_cpus; i++)
		if (slt_acc_add_cpu(dst, src->cpus[i].cpu, src->cpus[i].loads,
				    src->cpus[i].stores))
			return SLT_ENOMEM;
	for (size_t i = 0; i < src->n_locs; i++) {
		const struct slt_acc_loc *l = &src->locs[i];
		if (slt_acc_add_loc(dst, l->symbol, l->source, l->ip, l->loads,
				    l->stores, l->hitm))
			return SLT_ENOMEM;
	}
	return 0;
}

uint64_t slt_acc_hitm(const struct slt_acc *a)
{
	return a->hitm_local + a->hitm_remote + a->peer_local + a->peer_remote;
}

void slt_acc_release(struct slt_acc *a)
{
	free(a->cpus);
	free(a->locs);
	a->cpus = NULL;
	a->locs = NULL;
	a->n_cpus = a->cap_cpus = a->n_locs = a->cap_locs = 0;
}

static int cmp_cpu(const void *x, const void *y)
{
	const struct slt_cpu_access *a = x, *b = y;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

void slt_acc_sort_cpus(struct slt_acc *a)
{
	slt_sort(a->cpus, a->n_cpus, sizeof(*a->cpus), cmp_cpu);
}

/*
 * Every count the join takes in stays within SLT_JOIN_SAMPLE_CAP per record
 * and SLT_JOIN_COUNT_CAP in all
 * (loads + stores over every sample; cycles within SLT_JOIN_CYCLES_CAP),
 * and HITM + peer counts within SLT_JOIN_COUNT_CAP too), so no sum made
 * from them later (per member, line, CPU, class, JSON's signed integers)
 * can wrap: a sample that would go past a cap is cut to what is left, and
 * the profile says it was saturated.  Real profiles are many
 * orders of magnitude below (2^52 is 4.5e15 samples).
 */
static void cap_one(struct slt_count_caps *j, uint64_t *v, uint64_t cap)
{
	if (*v > cap) {
		*v = cap;
		j->saturated = true;
	}
}

void slt_counts_clamp(struct slt_count_caps *j, uint64_t samples, struct slt_sample *c)
{
	/* one sample first, so that one absurd record does not take the
	 * room of every other */
	cap_one(j, &c->loads, SLT_JOIN_SAMPLE_CAP);
	cap_one(j, &c->stores, SLT_JOIN_SAMPLE_CAP);
	cap_one(j, &c->hitm_local, SLT_JOIN_SAMPLE_CAP);
	cap_one(j, &c->hitm_remote, SLT_JOIN_SAMPLE_CAP);
	cap_one(j, &c->peer_local, SLT_JOIN_SAMPLE_CAP);
	cap_one(j, &c->peer_remote, SLT_JOIN_SAMPLE_CAP);
	cap_one(j, &c->cycles, SLT_JOIN_SAMPLE_CAP << 10);
	uint64_t room = SLT_JOIN_COUNT_CAP - samples;
	uint64_t n = c->loads + c->stores;
	if (n > room) {
		unsigned __int128 l = c->loads, t = (unsigned __int128)c->loads + c->stores;
		c->loads = (uint64_t)(l * room / t);
		c->stores = room - c->loads;
		j->saturated = true;
	}
	uint64_t *sub[] = { &c->hitm_local, &c->hitm_remote, &c->peer_local,
			    &c->peer_remote };
	for (size_t i = 0; i < sizeof(sub) / sizeof(*sub); i++) {
		if (*sub[i] > SLT_JOIN_COUNT_CAP - j->hitm_peer) {
			*sub[i] = SLT_JOIN_COUNT_CAP - j->hitm_peer;
			j->saturated = true;
		}
		j->hitm_peer += *sub[i];
	}
	if (c->cycles > SLT_JOIN_CYCLES_CAP - j->cycles) {
		c->cycles = SLT_JOIN_CYCLES_CAP - j->cycles;
		j->saturated = true;
	}
	j->cycles += c->cycles;
}
