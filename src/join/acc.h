/* SPDX-License-Identifier: MIT */
/*
 * Access accumulators shared by the join's points, members and cells:
 * counts, per-CPU counts and code locations, growing with what is seen
 * (distinct CPUs, distinct locations), never with the number of samples.
 * Internal to src/join.
 */
#ifndef SLT_JOIN_ACC_H
#define SLT_JOIN_ACC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/join.h"

/* Locations kept per accumulator; more distinct ones are merged into the
 * counts only (the member totals stay exact). */
#define SLT_ACC_MAX_LOCS 256u

struct slt_acc_loc {
	const char *symbol, *source; /* interned: compared by pointer */
	uint64_t ip;
	uint64_t loads, stores, hitm;
};

struct slt_acc {
	uint64_t loads, stores;
	uint64_t hitm_local, hitm_remote, peer_local, peer_remote, cycles;
	struct slt_cpu_access *cpus; /* unsorted while accumulating */
	size_t n_cpus, cap_cpus;
	struct slt_acc_loc *locs;
	size_t n_locs, cap_locs;
};

/* What a join has taken in, for slt_counts_clamp(). */
struct slt_count_caps {
	uint64_t cycles;      /* cycles taken in */
	uint64_t hitm_peer;   /* HITM + peer counts taken in */
	bool saturated;       /* a count was capped */
};

/* Cap the counts of sample c so that no sum of them wraps: each at
 * SLT_JOIN_SAMPLE_CAP, loads + stores within SLT_JOIN_COUNT_CAP of all
 * samples taken in so far (samples: loads + stores), HITM + peer and
 * cycles likewise (include/structlint/join.h); updates caps. */
void slt_counts_clamp(struct slt_count_caps *caps, uint64_t samples,
		      struct slt_sample *c);

/* Add loads/stores of one CPU.  Returns 0 or SLT_ENOMEM. */
int slt_acc_add_cpu(struct slt_acc *a, int32_t cpu, uint64_t loads,
		    uint64_t stores);
/* Add counts at one code location.  Returns 0 or SLT_ENOMEM. */
int slt_acc_add_loc(struct slt_acc *a, const char *symbol, const char *source,
		    uint64_t ip, uint64_t loads, uint64_t stores, uint64_t hitm);
/* dst += src (counts, CPUs, locations).  Returns 0 or SLT_ENOMEM. */
int slt_acc_merge(struct slt_acc *dst, const struct slt_acc *src);
/* Sum of the four HITM/peer counts. */
uint64_t slt_acc_hitm(const struct slt_acc *a);
/* Release the arrays (not a itself). */
void slt_acc_release(struct slt_acc *a);
/* Sort a's CPUs by number (in place). */
void slt_acc_sort_cpus(struct slt_acc *a);

#endif
