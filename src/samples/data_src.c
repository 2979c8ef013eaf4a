/* SPDX-License-Identifier: MIT */
/*
 * union perf_mem_data_src decoded as perf c2c does
 * (tools/perf/util/mem-events.c, c2c_decode_stats(), perf 6.x): the same
 * conditions decide load/store, local and remote HITM, local and remote
 * peer, and L1 hits.  Field layout: <linux/perf_event.h>
 * (PERF_MEM_*_SHIFT, little-endian bitfield order).
 */
#include <linux/perf_event.h>
#include <string.h>

#include "structlint/samples.h"

#define FIELD(v, name, bits) (((v) >> PERF_MEM_##name##_SHIFT) & ((1ull << (bits)) - 1))

void slt_data_src_decode(uint64_t v, struct slt_data_src *o)
{
	const uint64_t op = FIELD(v, OP, 5);
	const uint64_t lvl = FIELD(v, LVL, 14);
	const uint64_t snoop = FIELD(v, SNOOP, 5);
	const uint64_t lock = FIELD(v, LOCK, 2);
	const uint64_t rem = FIELD(v, REMOTE, 1);
	const uint64_t snoopx = FIELD(v, SNOOPX, 2);
	const uint64_t hops = FIELD(v, HOPS, 3);
	/* "Skylake might report unknown remote level via this bit"; on power
	 * the remote bit with hops also marks another core of this node, so
	 * perf counts it as remote only without hops. */
	const bool mrem = rem && !hops;

	memset(o, 0, sizeof(*o));
	o->locked = (lock & PERF_MEM_LOCK_LOCKED) != 0;
	if (op & PERF_MEM_OP_LOAD) {
		o->load = true;
		if (lvl & PERF_MEM_LVL_HIT) {
			if (lvl & PERF_MEM_LVL_L1)
				o->l1_hit = true;
			if ((lvl & PERF_MEM_LVL_L2) && (snoopx & PERF_MEM_SNOOPX_PEER))
				o->peer = true;
			if (lvl & PERF_MEM_LVL_L3) {
				if (snoop & PERF_MEM_SNOOP_HITM)
					o->hitm = true;
				if (snoopx & PERF_MEM_SNOOPX_PEER)
					o->peer = true;
			}
			if ((lvl & (PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2)) || mrem)
				o->remote = true;
		}
		if ((lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2)) || mrem) {
			o->remote = true;
			if (snoop & PERF_MEM_SNOOP_HIT) {
				/* remote hit, clean */
			} else if (snoop & PERF_MEM_SNOOP_HITM) {
				o->hitm = true;
			} else if (snoopx & PERF_MEM_SNOOPX_PEER) {
				o->peer = true;
			}
		}
	} else if (op & PERF_MEM_OP_STORE) {
		o->store = true;
		if ((lvl & PERF_MEM_LVL_HIT) && (lvl & PERF_MEM_LVL_L1))
			o->l1_hit = true;
	}
}
