/* SPDX-License-Identifier: MIT */
/*
 * structlint — the reference stats engine: a user-space reimplementation of
 * the kernel's hierarchical per-CPU statistics machinery (memcg's
 * __mod_memcg_lruvec_state() update path and cgroup rstat's
 * cgroup_rstat_updated() / cgroup_rstat_flush(), Linux 6.1 .. 6.12,
 * mm/memcontrol.c and kernel/cgroup/rstat.c), run on objects laid out by a
 * real struct layout (struct slt_struct: the original from DWARF/BTF or an
 * advisor proposal), so any layout can be measured without recompiling.
 *
 * Three steps:
 *   1. a spec: which members play which role, by member NAME
 *      (slt_engine_spec_builtin() for mem_cgroup_per_node and cgroup rstat,
 *      slt_engine_spec_replay() / slt_engine_spec_from_analysis() for any
 *      struct);
 *   2. slt_engine_bind(spec, struct): the roles' offsets and sizes (bytes)
 *      in that layout, or SLT_EUSAGE naming the member that is missing or
 *      too small;
 *   3. slt_engine_run(bound, opts): threads, for opts.seconds; the result
 *      holds ops/s, update latency percentiles (ns), lock hold-time
 *      histograms (us buckets), flush counts, the exact per-member access
 *      counts and the tree's exact totals.
 *
 * Two modes (struct slt_engine_spec.mode):
 *
 * SLT_ENGINE_STATS, the stats machinery.  A tree of groups (opts.depth
 * levels, opts.fanout children per group).  Per group one object: a byte
 * buffer of the struct's size, aligned to the cacheline size, whose role
 * members are real storage at the layout's offsets (the back pointer
 * member holds the group's address, the per-CPU pointer member holds the
 * address of the group's per-CPU counter deltas), and per-CPU deltas in
 * separate per-CPU memory.  Updater threads pick a leaf group (per-thread
 * PRNG seeded from opts.seed) and run the update path: load the
 * read-mostly roles (following the back pointer and the per-CPU pointer),
 * add a value to this CPU's delta, mark the group and its ancestors
 * updated on this CPU's updated list under the per-CPU lock (as
 * cgroup_rstat_updated() does), store to the hot-write roles on every
 * opts.write_every-th update (one store in every cacheline the member
 * touches, LRU-style; each hot-write role has ONE writer thread, chosen
 * as below, so the sharing measured is the false sharing the layout
 * causes, as in REPLAY), and
 * asks for a flush as the kernel version's memcg_rstat_updated() does
 * (opts.stats_mode, structlint/kstats.h: 5.15-rc1 wakes the flusher
 * thread every opts.batch = MEMCG_CHARGE_BATCH updates of a CPU; 6.1 and
 * mainline count pages and the updaters, as readers, flush once the
 * kernel's threshold is passed; all three flush every 2 s).  The flush
 * (cgroup_rstat_flush()) takes the global flush lock, then per CPU the
 * per-CPU lock: SLT_FLUSH_POP aggregates while holding it (older kernels),
 * SLT_FLUSH_LIST detaches the list under it and aggregates after releasing
 * it; aggregation moves each group's deltas into its total and its
 * parent's pending deltas (child to parent, as rstat propagates), and
 * performs the flush roles' loads and stores on each flushed group's
 * object.  A final flush after the threads stop makes every group's total
 * exactly the sum of all values added in its subtree.
 *
 * SLT_ENGINE_REPLAY, generic replay of member rates on ONE shared object
 * (no tree, no flush): each SLT_ROLE_HOT_WRITE member has exactly one
 * writer thread (below), and the loads of each SLT_ROLE_READ member are
 * split over the threads, so that the accesses of all threads together
 * follow the roles' relative rates (loads for read roles, stores for
 * hot-write roles) whatever the thread count, and false sharing appears
 * exactly where the layout puts it (replay.c).
 *
 * Writer threads of the hot-write roles (both modes): a role with a
 * writer group g >= 1 (slt_engine_role_spec.writer) is stored by updater
 * (g - 1) % threads, so roles of one group always share their writer
 * (members one CPU stores to are never made to false-share by the
 * engine); the roles without a group are handed out round-robin, the
 * k-th of them stored by updater k % threads.  Groups come from the
 * built-in maps (memcg: one group for lruvec, lru_zone_size and iter)
 * and from profiles that name CPUs (slt_engine_spec_from_analysis());
 * with classes only there are no groups.
 *
 * Threads: opts.threads updaters (0 = online CPUs), pinned to CPU
 * i % online CPUs when opts.pin (threads may exceed CPUs), plus, in STATS
 * mode, one flusher thread (unpinned; on a 2-CPU machine it shares CPUs
 * with the updaters, as the kernel's flush worker does).  A start barrier,
 * opts.seconds of running, a stop flag, join.
 *
 * Co-scheduling (false sharing exists only while two threads run at the
 * same time on different CPUs; on a loaded machine they may take turns):
 * the updaters are pinned to distinct CPUs of the process's affinity mask
 * (sched_getaffinity(2)) as long as there are enough; each updater reads
 * CLOCK_MONOTONIC every 16 operations and records the intervals in which
 * it ran (two reads less than SLT_ENGINE_RUN_GAP_NS apart: it ran between
 * them; a longer gap: it was switched out), and its CPU time
 * (CLOCK_THREAD_CPUTIME_ID) over the run.  The result's overlap is the
 * fraction of the run's wall time during which at least two updaters ran
 * at once (src/engine/cosched.c; error: a switch-out shorter than the
 * gap counts as running, and interval ends are known to about a
 * microsecond).  Two updaters confined to one CPU (taskset -c 0) overlap
 * 0%.
 *
 * Nothing here prints or exits.  Errors: negative SLT_E* with
 * struct slt_error filled (error.h).
 */
#ifndef STRUCTLINT_ENGINE_H
#define STRUCTLINT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "structlint/analysis.h"
#include "structlint/classes.h"
#include "structlint/error.h"
#include "structlint/kstats.h"
#include "structlint/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Schema of slt_engine_write_json()'s output (documented in the man page,
 * "ENGINE JSON"). */
#define SLT_SCHEMA_ENGINE "structlint.engine/v1"

/* What a member does in the engine. */
enum slt_engine_role {
	SLT_ROLE_BACK_PTR = 1, /* read-mostly pointer to the group
				  (mem_cgroup_per_node.memcg): written at
				  setup, loaded and followed on every update;
				  at least sizeof(void *) bytes */
	SLT_ROLE_PERCPU_PTR,   /* read-mostly pointer to the per-CPU deltas
				  (lruvec_stats_percpu, cgroup.rstat_cpu):
				  written at setup, loaded and used on every
				  update; at least sizeof(void *) bytes */
	SLT_ROLE_READ,         /* read-mostly: loaded on every update
				  (shrinker_info, 6.10+ lruvec_stats pointer);
				  replay: loaded by every thread */
	SLT_ROLE_HOT_WRITE,    /* stored by its one writer thread (see the
				  top): STATS on every opts.write_every-th
				  update of that thread (lruvec,
				  lru_zone_size, iter: one writer group) */
	SLT_ROLE_FLUSH_READ,   /* loaded by the flush for each flushed group
				  (cgroup.rstat_css_list) */
	SLT_ROLE_FLUSH_WRITE,  /* stored by the flush for each flushed group
				  (bstat, last_bstat, 6.1's embedded
				  lruvec_stats) */
	SLT_ROLE_FLUSH_LINK,   /* the flush list's link (cgroup.
				  rstat_flush_next, 6.8+): stored for each
				  group the flush takes off a CPU's updated
				  tree while it still holds that CPU's lock
				  (cgroup_rstat_updated_list(), flush "list");
				  with flush "pop" stored as flush-write */
};

/* "back-pointer", "percpu-pointer", "read", "hot-write", "flush-read",
 * "flush-write", "flush-link"; "?" for anything else. */
const char *slt_engine_role_name(enum slt_engine_role r);

enum slt_engine_mode {
	SLT_ENGINE_STATS = 1,  /* the stats machinery (see the top) */
	SLT_ENGINE_REPLAY = 2, /* generic replay on one shared object */
};

/* What one timed operation is in mode m, the name both `engine` and
 * `validate` print for the latency rows: "update" (STATS: the update
 * path) or "access" (REPLAY: one load or store). */
const char *slt_engine_lat_what(enum slt_engine_mode m);

/* One role of a spec. */
struct slt_engine_role_spec {
	const char *member;     /* member name, or path "a.b" as in classes
				   files (array indices not allowed) */
	enum slt_engine_role role;
	uint64_t loads, stores; /* relative rates (replay: per-member
				   accesses, e.g. samples of a profile);
				   0 = 1 for the role's kind of access */
	bool optional;          /* skipped when the struct lacks the member
				   (members of other kernel versions) */
	unsigned writer;        /* hot-write: writer group, 0 = none
				   (round-robin), g >= 1: stored by updater
				   (g - 1) % threads, as every role of group
				   g (see the top); a measured pattern's
				   read roles too: loaded by that updater */
	/* Added for measured patterns (slt_engine_spec_apply_pattern()):
	 * width > 0: ONE access of width bytes (1..8) at `at` bytes from the
	 * member's start, instead of one access per cacheline of the whole
	 * member (width 0, the synthetic pattern). */
	uint64_t at;
	uint32_t width;
};

/* A spec: roles by member name.  Owns its strings and array; free with
 * slt_engine_spec_free(). */
struct slt_engine_spec {
	char *struct_name;      /* tag without "struct " */
	enum slt_engine_mode mode;
	struct slt_engine_role_spec *roles;
	size_t n_roles;
	bool pattern;           /* the hot-write (stats) or all (replay)
				   roles come from a measured pattern */
	bool tree_via_pcpu;     /* STATS: the percpu-pointer role also
				   reaches the per-CPU updated tree, as
				   cgroup.rstat_cpu does (cgroup_rstat_cpu()
				   = per_cpu_ptr(cgrp->rstat_cpu, cpu)): the
				   tree walks of the update (every level
				   cgroup_rstat_updated() visits, the
				   speculative test included) and of the
				   flush load it from each group's object
				   they visit, so the per-CPU lock's holds
				   touch the object's line as the kernel's
				   do.  False for mem_cgroup_per_node, whose
				   tree lives in another object (the memcg's
				   cgroup). */
};

/*
 * The built-in role map for the struct called name ("mem_cgroup_per_node"
 * or "cgroup"; "struct " prefix accepted), in STATS mode.  s (may be NULL)
 * is the layout it will be bound to; it picks the kernel version's map:
 *   mem_cgroup_per_node, from mm/memcontrol.c's update path:
 *     back-pointer memcg; percpu-pointer lruvec_stats_percpu; read
 *     shrinker_info, and lruvec_stats when it is a pointer (6.10+, s NULL
 *     or lruvec_stats's type ends in '*'); hot-write lruvec, lru_zone_size,
 *     iter, all three in writer group 1 (one writer thread: in the kernel
 *     the CPU adding or removing a page stores to all three on its LRU
 *     operation; had every updater stored to them they would be stored
 *     by >= true_share_cpus CPUs, true-shared in analysis.h's terms, which
 *     the kernel's classes are not; separate writers would make a
 *     write-write false sharing on a line the kernel shares between them,
 *     6.12's line 29: lru_zone_size and iter); flush-write lruvec_stats
 *     when embedded (6.1 .. 6.9: the flush writes the aggregated counters
 *     into it).
 *   cgroup, from kernel/cgroup/rstat.c: percpu-pointer rstat_cpu, also
 *     the updated tree's (tree_via_pcpu); flush-read rstat_css_list;
 *     flush-link rstat_flush_next (optional, 6.8+); flush-write
 *     last_bstat, bstat.
 * Returns 0 and *out, SLT_EUSAGE for another name (the hint lists the
 * built-in names), SLT_ENOMEM.
 */
int slt_engine_spec_builtin(const char *name, const struct slt_struct *s,
			    struct slt_engine_spec **out,
			    struct slt_error *err);

/* NULL-terminated list of the built-in names. */
const char *const *slt_engine_builtin_names(void);

/* One member of a generic replay. */
struct slt_engine_replay_member {
	const char *member;     /* name or path, as struct slt_engine_role_spec */
	enum slt_class cls;     /* read-mostly -> SLT_ROLE_READ; hot-write,
				   mixed, true-shared -> SLT_ROLE_HOT_WRITE;
				   cold, none -> left out */
	uint64_t loads, stores; /* relative rates (0 = 1) */
	unsigned writer;        /* writer group of a hot-write member, as
				   slt_engine_role_spec.writer (0 = none) */
};

/*
 * A REPLAY spec for struct_name from n (member, class, loads, stores)
 * tuples (copied).  Returns 0 and *out; SLT_EUSAGE when no member is
 * read-mostly or hot-write (nothing to replay) or a member is NULL/empty;
 * SLT_ENOMEM.
 */
int slt_engine_spec_replay(const char *struct_name,
			   const struct slt_engine_replay_member *m, size_t n,
			   struct slt_engine_spec **out, struct slt_error *err);

/*
 * A REPLAY spec from an analysis (its classes, and its profile's loads and
 * stores per member when it has one): the outermost members with a class
 * other than cold/none (a member whose ancestor is taken is not taken
 * again).  When the profile names CPUs, each hot-write member's writer is
 * the CPU that stored to it most (the lowest CPU number on a tie), and
 * the CPUs become writer groups 1, 2, ... in order of first appearance
 * in member order (offset order): members one CPU wrote share a writer
 * thread, CPU groups map to threads modulo the thread count.  Members
 * without per-CPU stores (classes only, a class given without samples)
 * get no group (round-robin).  Errors as slt_engine_spec_replay().
 */
int slt_engine_spec_from_analysis(const struct slt_analysis *a,
				  struct slt_engine_spec **out,
				  struct slt_error *err);

void slt_engine_spec_free(struct slt_engine_spec *spec);

/*
 * A measured access pattern: the accesses a profile (any samples format
 * whose records name the struct with type_offset, or a member) made to
 * one struct, at their exact offsets and widths, per CPU (src/engine/
 * pattern.c).  Each record is placed on the innermost named member
 * holding its offset: (member path, bytes from the member's start, width,
 * CPU) with its loads and stores, equal keys summed; a width over 8 bytes
 * is split into 8-byte pieces, an unknown width (0) is the member's, at
 * most 8 bytes, and a width past the member's end is cut there.  At most
 * SLT_ENGINE_PATTERN_MAX distinct records; the accesses of the rest are
 * counted in `dropped`.
 */
#define SLT_ENGINE_PATTERN_MAX 1024u

struct slt_engine_access_rec {
	char *member;           /* innermost member path (layout read) */
	uint64_t at;            /* bytes from the member's first byte */
	uint32_t width;         /* bytes, 1..8 */
	int32_t cpu;            /* the profile's CPU, -1 unknown */
	uint64_t loads, stores; /* samples */
};

struct slt_engine_pattern {
	struct slt_engine_access_rec *recs;
	size_t n;
	int32_t *cpus;          /* distinct known CPUs, in order of the
				   lowest offset each touched (then CPU
				   number): writer groups 1, 2, ... */
	size_t n_cpus;
	uint64_t samples;       /* loads + stores of the struct's records */
	uint64_t unplaced;      /* of them outside every member (holes) */
	uint64_t dropped;       /* of them past SLT_ENGINE_PATTERN_MAX */
	bool line_granular;     /* from a joined profile's (line, member)
				   cells: offsets are each member's first
				   byte on the line, widths the member's up
				   to 8 bytes (not measured) */
};

/* Read path (fmt: enum slt_samples_format, 0 = detect) for struct s.
 * Returns 0 and *out (free with slt_engine_pattern_free()); SLT_EUSAGE
 * when no record of s lands on a member; the reader's errors;
 * SLT_ENOMEM. */
int slt_engine_pattern_read(const char *path, int fmt, const struct slt_struct *s,
			    struct slt_engine_pattern **out, struct slt_error *err);
void slt_engine_pattern_free(struct slt_engine_pattern *p);

struct slt_access_profile;
/* The same from a joined profile (join.h; e.g. estimates from IP samples
 * x static sites, whose records have no offsets): per (line, member) cell
 * and CPU one record at the member's first byte on that line, the
 * member's width up to 8 bytes; line_granular set.  Errors as
 * slt_engine_pattern_read(). */
int slt_engine_pattern_from_profile(const struct slt_access_profile *ap,
				    const struct slt_struct *s,
				    struct slt_engine_pattern **out,
				    struct slt_error *err);

/*
 * Make spec replay pattern p (read for layout s, the layout of A; B is
 * bound by the same member paths, so each access moves with its member).
 * REPLAY spec: the roles become the pattern: per record a read role (its
 * loads) and a hot-write role (its stores), each with the record's
 * offset and width, done by the updater of the record's CPU (the k-th
 * CPU of p->cpus is writer group k + 1; an unknown CPU: none, its loads
 * go to the shortest schedule, its stores round-robin).  STATS
 * spec: the update path's roles stay, its hot-write roles (the synthetic
 * pattern: every line of the member) are replaced by the pattern's
 * stores (not its loads; stores on a pointer role's bytes are left out),
 * one store per write_every-th update of a thread, from the thread's own
 * stores in proportion to their counts.  Sets spec->pattern.  Returns 0
 * or SLT_ENOMEM.
 */
int slt_engine_spec_apply_pattern(struct slt_engine_spec *spec,
				  const struct slt_engine_pattern *p,
				  const struct slt_struct *s,
				  struct slt_error *err);

/* One bound role. */
struct slt_engine_bound_role {
	const char *member;     /* the member's path as named in the spec
				   (owned by the bound layout) */
	size_t member_index;    /* in s->members */
	enum slt_engine_role role;
	uint64_t offset, size;  /* bytes, from the layout */
	uint64_t loads, stores; /* rates from the spec, 0 replaced by 1 */
	uint64_t first_line, last_line; /* cachelines it touches, 0-based,
				   for the cacheline size given to bind */
	unsigned writer;        /* writer group from the spec (0 = none) */
	uint32_t width;         /* > 0: one access of width bytes at
				   `offset` (= the member's offset + the
				   spec's at); 0: the whole member, one
				   access per line (size = member size) */
};

/* The spec bound to one layout.  Owns its arrays and strings; s is
 * borrowed and must outlive it. */
struct slt_engine_bound {
	const struct slt_struct *s;
	char *struct_name;
	enum slt_engine_mode mode;
	bool pattern;                    /* spec->pattern */
	bool tree_via_pcpu;              /* spec->tree_via_pcpu */
	unsigned cacheline_size;         /* bytes */
	struct slt_engine_bound_role *roles; /* in spec order, optional roles
					    the struct lacks left out */
	size_t n_roles;
	uint64_t object_size;            /* bytes: s->size */
};

/*
 * Bind spec to layout s for cacheline_size bytes (0 = 64).  Errors
 * (SLT_EUSAGE, message naming the member, hint: the closest member name
 * or what is needed): a required member s lacks; a pointer role smaller
 * than sizeof(void *); a role outside s->size (a layout too small for its
 * roles); a pointer role overlapping another role's bytes (stores would
 * overwrite the pointer); STATS mode without a percpu-pointer role;
 * REPLAY mode without any role.  SLT_ENOMEM.  Returns 0 and *out.
 */
int slt_engine_bind(const struct slt_engine_spec *spec,
		    const struct slt_struct *s, unsigned cacheline_size,
		    struct slt_engine_bound **out, struct slt_error *err);

void slt_engine_bound_free(struct slt_engine_bound *b);

/*
 * Compare the role maps of two bound layouts in everything but offsets:
 * a member bound in one and not the other, a member with another role, a
 * role member of another size (bytes), another mode.  Such differences
 * mean the two sides run different workloads (e.g. 6.1's embedded
 * lruvec_stats is written by the flush, 6.12's pointer only read), so a
 * ratio of their throughputs measures layout plus workload.  Writes a
 * description ("lruvec_stats: flush-write, 688 bytes in A; read, 8 bytes
 * in B; ...") into buf (size bytes, NUL-terminated, truncated with
 * "..."), "" when the maps agree.  Returns the number of differing
 * members (plus 1 for a different mode).
 */
size_t slt_engine_bound_diff(const struct slt_engine_bound *a,
			     const struct slt_engine_bound *b, char *buf,
			     size_t size);

enum slt_engine_flush {
	SLT_FLUSH_LIST = 1, /* detach the updated list under the per-CPU
			       lock, aggregate after releasing it */
	SLT_FLUSH_POP = 2,  /* pop and aggregate while holding the per-CPU
			       lock (older kernels) */
};

/* "list", "pop"; and the reverse (0 for an unknown name). */
const char *slt_engine_flush_name(enum slt_engine_flush f);
enum slt_engine_flush slt_engine_flush_parse(const char *name);

/* Kernel stats modes (slt_engine_opts.stats_mode, .counters):
 * structlint/kstats.h. */

/* --realtime (engine, validate and validate --run): the SCHED_RR
 * priority of the threads that do the work; the thread that times or
 * samples them runs one above, so that it is never kept out by them, and
 * so does the engine's flusher (it sleeps until woken, then runs at once,
 * as a kernel flush worker preempts the task on its CPU when woken). */
#define SLT_ENGINE_RT_PRIO 1

struct slt_engine_opts {
	unsigned threads;        /* updater threads; 0 = online CPUs */
	double seconds;          /* wall time per run, > 0 */
	unsigned depth;          /* tree levels, 1 = root only (1..8) */
	unsigned fanout;         /* children per group (1..16; groups in
				    all <= 4096) */
	unsigned batch;          /* updates per CPU between flusher wake-ups:
				    32, 64 or 128 */
	enum slt_engine_flush flush;
	unsigned write_every;    /* hot-write roles stored every Nth update
				    (>= 1) */
	unsigned cacheline_size; /* bytes, a power of two >= 8 (0 = the
				    bound layout's) */
	uint64_t seed;           /* PRNG seed: leaf choice, values */
	bool pin;                /* pin updater i to CPU i % online CPUs */
	bool realtime;           /* the engine's updaters SCHED_RR priority
				    SLT_ENGINE_RT_PRIO (1), the flusher and
				    the thread that times the run priority 2
				    while it runs (sched(7)): on a machine busy
				    with normal-priority work the updaters then
				    run at once.  Needs CAP_SYS_NICE or
				    RLIMIT_RTPRIO >= 2 (else SLT_EUSAGE); the
				    kernel's RT throttling (sched_rt_runtime_us,
				    950000 of 1000000 us by default) leaves the
				    other tasks 5% of each CPU. */
	bool count_accesses;     /* exact per-role per-thread counts (a
				    thread-local increment per access) */
	unsigned latency_every;  /* time on average 1 in N updates with
				    CLOCK_MONOTONIC (>= 1): the gaps between
				    timed updates are geometric with mean N,
				    drawn from the thread's PRNG, so the timed
				    updates are a fair sample and never line
				    up with the batch threshold or a replay
				    schedule's cycle */
	enum slt_stats_mode stats_mode; /* the kernel's flush trigger (0 =
				    SLT_STATS_5_15) */
	struct slt_engine_counters counters; /* counters per flush visit
				    (zeros: the mode's defaults) */
	unsigned read_every;     /* 6.1 and mainline: an updater calls the
				    reader-side mem_cgroup_flush_stats()
				    every Nth update (0 = batch): a model of
				    reclaim and refault readers, not a
				    measured rate */
	unsigned period_ms;      /* the periodic flush worker (FLUSH_TIME,
				    2 s; 0 = 2000) */
	const char *stats_mode_why; /* where stats_mode came from, for the
				    reports ("the FILE's linux_banner: Linux
				    6.1.0-57-cloud-amd64"); borrowed, NULL */
	uint64_t max_updates;    /* per updater thread: stop after this many
				    updates even before `seconds` (0 = no
				    limit; tests use it for exact counts).
				    REPLAY: every thread stops after
				    ceil(max_updates / L) cycles of its own
				    schedule, L the length of the global
				    cycle (replay.c), so the accesses of all
				    threads together are exactly that many
				    global cycles whatever the thread count */
};

/* Run time bounds of slt_engine_opts.seconds (and of the CLI's --seconds
 * in `engine` and `validate`), seconds: below the floor a run is mostly
 * thread start-up; the ceiling keeps a mistyped value from running for
 * hours. */
#define SLT_ENGINE_SECONDS_MIN 0.01
#define SLT_ENGINE_SECONDS_MAX 3600.0

/* Defaults: threads 0, seconds 1.0, depth 3, fanout 2, batch 64, flush
 * 0 (the stats mode's), stats_mode 5.15-rc1, counters 0 (the mode's),
 * read_every 0 (= batch), period_ms 0 (2000), write_every 4, cacheline 0, seed 1, pin true, count_accesses
 * true, latency_every 64, max_updates 0. */
void slt_engine_opts_default(struct slt_engine_opts *o);

/* The flush mode a run with o uses: o->flush, or when 0 the stats mode's
 * (pop for 5.15 and 6.1, list for mainline: engine.h "Kernel stats
 * modes"). */
enum slt_engine_flush slt_engine_flush_of(const struct slt_engine_opts *o);

/* Lock hold-time histogram buckets, in microseconds, the ones kernel
 * engineers use for these locks: [0,1) [1,5) [5,10) [10,15) [15,20)
 * [20,25) [25,30) [30,40) [40,50) [50,60) [60,70) [70,80) [80,90) [90,inf). */
#define SLT_ENGINE_HIST_BUCKETS 14

/* What the histogram measures: the wall time (CLOCK_MONOTONIC, ns) from
 * the moment the lock is acquired to the moment before it is released, of
 * every hold in which the holder was NOT preempted.  The kernel holds
 * these locks with preemption (and, for the per-CPU lock, interrupts)
 * off; a user-space thread can be switched out while holding one, and
 * such a hold measures the scheduler, not the critical section.  So a
 * hold of at least SLT_ENGINE_PREEMPT_CHECK_NS ns is checked against the
 * thread's context switches (getrusage(RUSAGE_THREAD) ru_nivcsw +
 * ru_nvcsw, Linux getrusage(2): preempted, or blocked on a lock whose
 * holder was preempted, which a kernel spinlock holder with preemption
 * off never is): when the count rose since the thread's previous check
 * (the flush lock: since it was acquired; the flusher's per-CPU holds:
 * since the flush began or the previous check), the hold is counted in
 * `preempted` and its time in preempted_sum_ns / preempted_max_ns, not in
 * the buckets.  A switch while waiting to acquire a per-CPU lock also
 * counts (the check errs toward leaving a hold out of the buckets).  A
 * shorter hold cannot include a context switch out and back in (that
 * alone takes microseconds), so it is not checked (no system call on the
 * fast path).  Not visible to any of this: a virtual CPU stopped by the
 * hypervisor (steal time) while the thread holds a lock. */
#define SLT_ENGINE_PREEMPT_CHECK_NS 1000u

struct slt_engine_hist {
	uint64_t count[SLT_ENGINE_HIST_BUCKETS]; /* lock holds per bucket */
	uint64_t holds;          /* holds not preempted (the buckets' sum) */
	uint64_t sum_ns, max_ns; /* their hold time, ns */
	uint64_t preempted;      /* holds during which the holder was
				    preempted (see above), not in the buckets */
	uint64_t preempted_sum_ns, preempted_max_ns; /* their wall time, ns */
};

/* The bucket of a hold of ns nanoseconds (0 .. SLT_ENGINE_HIST_BUCKETS-1);
 * bucket edges are whole microseconds, a hold of exactly 1000 ns is in
 * [1,5). */
unsigned slt_engine_hist_bucket(uint64_t ns);
/* Count one hold of ns nanoseconds (not preempted). */
void slt_engine_hist_add(struct slt_engine_hist *h, uint64_t ns);
/* Count one preempted hold of ns nanoseconds (wall time). */
void slt_engine_hist_add_preempted(struct slt_engine_hist *h, uint64_t ns);
/* Add b's counts to a. */
void slt_engine_hist_merge(struct slt_engine_hist *a,
			   const struct slt_engine_hist *b);
/* Label of bucket i: "0-1", "1-5", ..., "80-90", ">90" (us). */
const char *slt_engine_hist_label(unsigned i);

/* Exact access counts of one role by one thread: loads and stores are
 * memory operations the engine performed (one per cacheline the role
 * touches per access), counted, not sampled. */
struct slt_engine_access {
	uint64_t loads, stores;
};

struct slt_engine_thread {
	int cpu;                 /* CPU pinned to, -1 when not pinned (the
				    flusher, --no-pin); writers print "-" /
				    null for -1 */
	uint64_t ops;            /* updates (replay: accesses) performed */
	double ops_per_s;
	double cpu_seconds;      /* CPU time the thread used, s
				    (CLOCK_THREAD_CPUTIME_ID) */
	double running_seconds;  /* wall time of the run inside the
				    thread's recorded running intervals, s
				    (see "Co-scheduling" at the top) */
};

/* Two clock samples of an updater further apart than this (ns) mean it
 * was not running between them (see "Co-scheduling" at the top): far
 * above the time of 16 operations (about 1-5 us even under false
 * sharing), far below a scheduler time slice (milliseconds). */
#define SLT_ENGINE_RUN_GAP_NS 50000u

struct slt_engine_result {
	enum slt_engine_mode mode;
	unsigned threads;        /* updater threads */
	unsigned cacheline_size; /* bytes */
	double seconds;          /* measured wall time from the start
				    barrier to the stop flag */
	uint64_t ops;            /* all updaters' ops */
	double ops_per_s;
	struct slt_engine_thread *thread; /* [threads] */
	/* Update latency over the timed sample (on average 1 in
	 * latency_every updates at geometric gaps, a reservoir of at most
	 * 65536 per thread), ns. */
	uint64_t lat_samples;
	double lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns;
	uint64_t lat_batch_samples; /* STATS: timed updates that were batch
				    crossings (the update that may wake the
				    flusher); a fair sample has about
				    lat_samples / batch of them */
	/* Co-scheduling (see the top): the fraction (0..1) of `seconds`
	 * during which at least two updaters ran at once, and during which
	 * all of them did (both 0 with one updater); the CPUs the process may
	 * run on, and the distinct CPUs the updaters were pinned to (0 when
	 * not pinned). */
	double overlap, overlap_all;
	unsigned allowed_cpus, distinct_cpus;
	/* STATS mode (zero in REPLAY): */
	struct slt_engine_hist flush_lock;  /* global flush lock holds */
	struct slt_engine_hist percpu_lock; /* per-CPU lock holds, updates
					       and flushes */
	struct slt_engine_hist percpu_update_lock; /* of them, the update
					       path's (marking a group and
					       its ancestors updated,
					       cgroup_rstat_updated()):
					       the flushes' aggregation
					       under the lock (pop) left
					       out */
	uint64_t flushes;        /* flushes run, the final one included */
	uint64_t batch_crossings; /* updates that completed a batch (every
				    opts.batch-th update of a thread): each
				    asks for a flush */
	uint64_t flush_wakeups;  /* batch crossings that woke the flusher:
				    a crossing while a flush is already
				    requested coalesces into it (as the
				    kernel's flush work is queued once), so
				    wake-ups <= crossings and flushes <=
				    wake-ups + 1 (the final flush) */
	uint64_t flushed_groups; /* groups aggregated over all flushes */
	/* Kernel stats mode (STATS): the mode and counters used, the flushes
	 * by who asked, readers' checks, trylocks of stats_flush_lock that
	 * found a flush running (5.15, 6.1), counters visited by flushes
	 * (flushed (group, CPU) pairs x counters), and whether the locks
	 * spun (updaters, plus 5.15-rc1's flush worker, <= CPUs) or slept. */
	enum slt_stats_mode stats_mode;
	struct slt_engine_counters counters;
	uint64_t worker_flushes, reader_flushes, periodic_flushes;
	uint64_t reader_checks, flush_busy, counters_visited;
	bool spin_locks;
	/* The tree (STATS mode): n_groups groups in breadth-first order,
	 * group 0 the root.  parent[g] (-1 for the root); added[g] = the sum
	 * of the values updaters added to g itself (thread-local tallies);
	 * total[g] = g's total after the final flush, which the engine keeps
	 * equal to the sum of added[] over g's subtree. */
	size_t n_groups;
	int32_t *parent;
	int64_t *added;
	int64_t *total;
	/* Exact access counts (opts.count_accesses), [thread * n_roles +
	 * role], roles as in the bound layout, threads 0..threads-1 the
	 * updaters and, in STATS mode, thread `threads` the flusher;
	 * NULL otherwise. */
	size_t n_roles;
	unsigned n_access_threads;
	struct slt_engine_access *access;
};

/*
 * Run the engine on b with opts (NULL: defaults).  Returns 0 and *out
 * (free with slt_engine_result_free()); SLT_EUSAGE for bad options (zero
 * seconds, batch not 32/64/128, depth/fanout out of range, a cacheline
 * size that is not a power of two, ...: the message names the option);
 * SLT_ENOMEM; SLT_EIO when a thread cannot be created or pinned.
 */
int slt_engine_run(const struct slt_engine_bound *b,
		   const struct slt_engine_opts *opts,
		   struct slt_engine_result **out, struct slt_error *err);

void slt_engine_result_free(struct slt_engine_result *r);

/*
 * slt_engine_run()'s --realtime refusal, checked before a run (so a
 * refused run prints nothing else first): 0, or SLT_EUSAGE when
 * o->realtime and o->threads (0: one per allowed CPU) exceed the CPUs
 * this process may run on.
 */
int slt_engine_realtime_fits(const struct slt_engine_opts *o, struct slt_error *err);

/*
 * Write r's exact access counts as a structlint.profile/v1 document
 * (profile.h's slt_profile_writer) to f (name for messages), for
 * `structlint report FILE STRUCT --samples` to join and classify.  One
 * record per (thread, role, cacheline touched) with accesses: type_name
 * b->struct_name, cpu = the engine thread index (0..threads-1 updaters,
 * `threads` the flusher), loads, stores; a role within one cacheline is
 * named by member (SLT_SAMPLE_TYPE|SLT_SAMPLE_MEMBER|SLT_SAMPLE_CPU,
 * type_offset its offset), a role over several lines by the offset of its
 * first byte on each line (SLT_SAMPLE_TYPE|SLT_SAMPLE_CPU), so the join
 * charges each line with its own accesses; a measured access (width > 0)
 * is one record at its offset with its width (access_size).  SLT_EUSAGE when r has no
 * access counts; errors of slt_profile_writer_finish().
 */
int slt_engine_write_profile(const struct slt_engine_result *r,
			     const struct slt_engine_bound *b, FILE *f,
			     const char *name, struct slt_error *err);

/*
 * Human-readable figures of r (src/report/engine_out.c): ops/s in total
 * and per thread, update latency p50/p90/p99/p99.9 (ns), flushes, the two
 * lock hold-time histograms (us buckets).  b may be NULL.  Returns 0 or
 * SLT_EIO.
 */
int slt_engine_write_text(FILE *f, const struct slt_engine_result *r,
			  const struct slt_engine_bound *b,
			  const struct slt_engine_opts *opts);

/*
 * The same as one "structlint.engine/v1" JSON document (never partial:
 * built, then written once).  b and opts may be NULL.  Returns 0,
 * SLT_ENOMEM or SLT_EIO with err filled.
 */
int slt_engine_write_json(FILE *f, const struct slt_engine_result *r,
			  const struct slt_engine_bound *b,
			  const struct slt_engine_opts *opts, bool pretty,
			  struct slt_error *err);

#ifdef __cplusplus
}
#endif
#endif
