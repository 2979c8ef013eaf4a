/* SPDX-License-Identifier: MIT */
/*
 * structlint — kernel stats modes of the reference stats engine
 * (structlint/engine.h): which kernel's memcg flush trigger a run follows,
 * the kernel version a FILE says, the counters one flush visits, and the
 * trigger alone (src/engine/kmode.c, src/engine/kversion.c).
 */
#ifndef STRUCTLINT_KSTATS_H
#define STRUCTLINT_KSTATS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Kernel stats modes (src/engine/kmode.c cites the kernel code each
 * follows): when an update asks for a flush, who runs it, and how the
 * flush holds its locks.
 *   SLT_STATS_5_15: Linux 5.15-rc1 (aa48e47e3906, mm/memcontrol.c
 *     memcg_rstat_updated(), mem_cgroup_flush_stats(),
 *     flush_memcg_stats_work() / _dwork()): every MEMCG_CHARGE_BATCH-th
 *     update of a CPU queues the flush work (opts.batch); the worker
 *     spin_trylock()s stats_flush_lock and flushes the whole tree; the
 *     2 s periodic worker too.  No reader-side flush.
 *   SLT_STATS_6_1: Linux 5.15 .. 6.7 (6.1: memcg_rstat_updated(),
 *     mem_cgroup_flush_stats(), __mem_cgroup_flush_stats(),
 *     flush_memcg_stats_dwork()): a per-CPU count of updates; past
 *     `batch` it adds count / batch to the global stats_flush_threshold
 *     (only while that is <= the online CPUs) and restarts; readers flush
 *     (trylock of stats_flush_lock) when the threshold exceeds the online
 *     CPUs; the 2 s periodic worker flushes unconditionally.
 *   SLT_STATS_MAINLINE: Linux 6.8 onward (6.8 .. 6.14 mm/memcontrol.c
 *     memcg_rstat_updated(), memcg_vmstats_needs_flush(),
 *     mem_cgroup_flush_stats(), flush_memcg_stats_dwork()): per group
 *     and CPU a count of updates; past `batch` it moves to the group's
 *     atomic stats_updates, for the group and each ancestor until one is
 *     already flushable; a reader flushes (blocking on the rstat lock)
 *     when the root's stats_updates exceeds batch x online CPUs; the
 *     flush resets each flushed group's counts; the 2 s worker forces a
 *     flush of the root.
 * "Online CPUs" is the updater thread count (the engine's CPUs).  The
 * flush of 5.15 and 6.1 aggregates while holding the per-CPU lock
 * (SLT_FLUSH_POP, cgroup_rstat_flush_locked() up to 6.7), mainline's
 * after detaching the list (SLT_FLUSH_LIST, cgroup_rstat_updated_list(),
 * 6.8+), unless opts.flush says otherwise.
 */
enum slt_stats_mode {
	SLT_STATS_5_15 = 1,
	SLT_STATS_6_1 = 2,
	SLT_STATS_MAINLINE = 3,
};

/* "5.15-rc1", "6.1", "mainline"; "?" otherwise. */
const char *slt_stats_mode_name(enum slt_stats_mode m);
/* "5.15", "5.15-rc1", "6.1", "mainline" (0 for anything else). */
enum slt_stats_mode slt_stats_mode_parse(const char *name);
/* The mode of Linux major.minor (rc: N of -rcN, 0 for a release):
 * 5.15-rc1 .. 5.15-rc5 SLT_STATS_5_15 (the threshold came in -rc6,
 * 11192d9c124b "memcg: flush stats only if updated"), 5.15 .. 6.7
 * SLT_STATS_6_1, 6.8 and later SLT_STATS_MAINLINE; 0 before 5.15-rc1
 * (no memcg stats flush). */
enum slt_stats_mode slt_stats_mode_for_version(unsigned major, unsigned minor,
					       unsigned rc);

/*
 * The counters one flush visits per (group, CPU): as
 * mem_cgroup_css_rstat_flush() walks memcg_vmstats_percpu.state[] and
 * .events[] and, per node, lruvec_stats_percpu.state[] (one node here),
 * each a delta against its _prev copy.  Read from the FILE's DWARF (the
 * array bounds of those members: the enum constants as compiled,
 * NR_VM_NODE_STAT_ITEMS / MEMCG_NR_STAT / NR_MEMCG_EVENTS in 6.1,
 * NR_MEMCG_NODE_STAT_ITEMS / MEMCG_VMSTAT_SIZE / NR_MEMCG_EVENTS since
 * 6.11), else the mode's default (slt_engine_counters_default()).
 */
struct slt_engine_counters {
	uint32_t node_items;    /* lruvec_stats_percpu.state[] */
	uint32_t memcg_items;   /* memcg_vmstats_percpu.state[] */
	uint32_t event_items;   /* memcg_vmstats_percpu.events[] */
	bool from_file;         /* read from the FILE */
};

/* Defaults, from Debian's 6.1.0 and 6.12 vmlinux (pahole): 5.15 and 6.1
 * modes 43 / 50 / 15, mainline 31 / 38 / 22. */
void slt_engine_counters_default(enum slt_stats_mode m,
				 struct slt_engine_counters *c);

/* The kernel version a FILE says: "Linux version X.Y.Z..." of the
 * linux_banner symbol (any ELF with it, e.g. a vmlinux), else the
 * vermagic= of .modinfo (a module); for SLT_KERNEL_BTF_PATH, the running
 * kernel's uname release. */
struct slt_kernel_version {
	unsigned major, minor, patch, rc;
	char release[96];       /* as written, e.g. "6.1.0-57-cloud-amd64" */
	const char *source;     /* "linux_banner", ".modinfo vermagic", "uname" */
};

/* Returns 0 and *v; SLT_ENOTFOUND when the FILE names no kernel version;
 * the ELF reader's errors. */
int slt_kernel_version_read(const char *path, struct slt_kernel_version *v,
			    struct slt_error *err);

struct slt_load_opts;
/* The counters of the FILE (struct lruvec_stats_percpu and
 * memcg_vmstats_percpu: the element counts of their `state` and `events`
 * arrays).  Returns 0 and *c (from_file set); SLT_ENOTFOUND when the FILE
 * has neither struct (c untouched); loader errors. */
int slt_engine_counters_read(const char *path, const struct slt_load_opts *lo,
			     struct slt_engine_counters *c,
			     struct slt_error *err);

/*
 * The flush trigger of a mode, alone (the engine runs the same code; unit
 * tests drive it by hand).  ncpus CPUs, n_groups groups with parent[]
 * (-1 for the root, group 0), batch = MEMCG_CHARGE_BATCH.
 */
struct slt_stats_trigger {
	enum slt_stats_mode mode;
	unsigned ncpus, batch;
	size_t n_groups;
	int32_t *parent;             /* copied */
	size_t stride;               /* counts per CPU slot (64-byte padded) */
	_Atomic uint32_t *pcpu;      /* [ncpus * stride]: 5.15: the CPU's
					update count; 6.1: its stats_updates;
					mainline: [cpu * stride + group] */
	_Atomic int64_t *shared;     /* 6.1: [0] stats_flush_threshold;
					mainline: [group * 8] the group's
					vmstats->stats_updates (one line
					each) */
};

int slt_stats_trigger_init(struct slt_stats_trigger *t, enum slt_stats_mode m,
			   unsigned ncpus, unsigned batch, const int32_t *parent,
			   size_t n_groups, struct slt_error *err);
void slt_stats_trigger_free(struct slt_stats_trigger *t);
/* memcg_rstat_updated(): an update of pages (abs(val)) on cpu to group g.
 * True when it queues the flush work (5.15-rc1 only). */
bool slt_stats_trigger_updated(struct slt_stats_trigger *t, unsigned cpu,
			       size_t g, uint32_t pages);
/* mem_cgroup_flush_stats() of a reader (the root's stats): whether it
 * flushes.  5.15-rc1: false (no reader-side flush on the update path). */
bool slt_stats_trigger_reader(const struct slt_stats_trigger *t);
/* A flush has aggregated group g on cpu (mainline: g's counts reset, as
 * mem_cgroup_css_rstat_flush() does). */
void slt_stats_trigger_flushed_group(struct slt_stats_trigger *t, size_t g,
				     unsigned cpu);
/* A flush of the whole tree ended (6.1: stats_flush_threshold = 0). */
void slt_stats_trigger_flushed(struct slt_stats_trigger *t);

#ifdef __cplusplus
}
#endif
#endif
