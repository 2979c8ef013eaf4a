/* SPDX-License-Identifier: MIT */
/*
 * Internals of the reference stats engine (include/structlint/engine.h).
 * One concern per file: spec.c (role maps), bind.c (roles to offsets),
 * hist.c (lock histograms, latency percentiles), tree.c (groups, objects,
 * per-CPU deltas, updated trees), update.c (the update path), flush.c
 * (the flush), replay.c (generic replay), run.c (threads, the run loop,
 * the result), profile_out.c (the exact profile).
 *
 * "CPU" below is the engine's logical CPU: updater thread i is CPU i and
 * owns per-CPU area i, as a kernel CPU owns its per-CPU data.
 */
#ifndef SLT_ENGINE_INT_H
#define SLT_ENGINE_INT_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "structlint/engine.h"

/* updated-tree link values (struct eng_pcpu.next) */
#define ENG_OFF (-2)  /* not on this CPU's updated tree */
#define ENG_END (-1)  /* on the tree, last sibling (or the root) */

/* Per CPU, per group: the updated-tree links (cf. cgroup_rstat_cpu's
 * updated_children / updated_next).  The group's counters on that CPU
 * live beside them in the CPU's chunk (eng_ctr_of()). */
struct eng_pcpu {
	_Atomic int32_t next;      /* sibling on the parent's updated list,
				      ENG_END, or ENG_OFF */
	int32_t children;          /* first updated child, ENG_END if none */
};

/* A lock the kernel holds with preemption (the per-CPU one: interrupts
 * too) off: a spinlock when every thread that takes it often has a CPU
 * of its own (the updaters; in 5.15-rc1 also the flush worker: run.c),
 * so the holder keeps running while others spin, as in the kernel; else
 * a sleeping mutex (a spinner would burn the time slice of a holder
 * waiting for its CPU: no kernel behaviour either way). */
struct eng_lock {
	_Atomic int v;
	bool spin;
	pthread_mutex_t m;
};

static inline void eng_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static inline bool eng_trylock(struct eng_lock *l)
{
	if (!l->spin)
		return pthread_mutex_trylock(&l->m) == 0;
	return !atomic_load_explicit(&l->v, memory_order_relaxed) &&
	       !atomic_exchange_explicit(&l->v, 1, memory_order_acquire);
}

static inline void eng_lock(struct eng_lock *l)
{
	if (!l->spin) {
		pthread_mutex_lock(&l->m);
		return;
	}
	while (atomic_exchange_explicit(&l->v, 1, memory_order_acquire))
		while (atomic_load_explicit(&l->v, memory_order_relaxed))
			eng_cpu_relax();
}

/* eng_lock(), napping when nap (struct eng_thread.nap_wait: every
 * --realtime thread).  The --realtime flusher runs one priority above the
 * updaters and shares their CPUs: spinning for a lock that an updater it
 * preempted holds would keep that holder off its CPU (an inversion the
 * kernel cannot have: its per-CPU lock is taken with interrupts off, so a
 * flush worker never preempts a holder); an updater spinning for a lock
 * whose holder shares its CPU (unpinned, --no-pin) would spin out its
 * 100 ms SCHED_RR slice.  So after a short spin (256 relaxes) a waiter
 * sleeps 2 us at a time, which lets the holder run and release it.  Holds
 * then include the naps: a sleep is a voluntary context switch, which the
 * preemption check counts (engine.h). */
static inline void eng_lock_nap(struct eng_lock *l, bool nap)
{
	if (!nap || !l->spin) {
		eng_lock(l);
		return;
	}
	static const struct timespec naptime = { 0, 2000 };
	for (unsigned spins = 0; !eng_trylock(l);)
		if (++spins < 256)
			eng_cpu_relax();
		else
			nanosleep(&naptime, NULL);
}

static inline void eng_unlock(struct eng_lock *l)
{
	if (l->spin)
		atomic_store_explicit(&l->v, 0, memory_order_release);
	else
		pthread_mutex_unlock(&l->m);
}

void eng_lock_init(struct eng_lock *l, bool spin);
void eng_lock_destroy(struct eng_lock *l);

struct eng_group {
	int32_t idx, parent;       /* parent -1 for the root */
	uint32_t depth;
	uint8_t *obj;              /* the object: s->size bytes at the
				      layout's offsets, cacheline-aligned */
};

/* The tree and its per-CPU memory. */
struct eng_tree {
	struct eng_group *groups;  /* breadth-first, 0 = root */
	size_t n_groups;
	size_t first_leaf;         /* leaves are [first_leaf, n_groups) */
	unsigned n_cpus;
	uint8_t *pcpu_base;        /* n_cpus chunks of pcpu_stride bytes */
	size_t pcpu_stride;        /* bytes between CPUs' chunks */
	struct eng_lock *cpu_lock; /* [n_cpus] per-CPU locks
				      (cgroup_rstat_cpu_lock) */
	/* counters (engine.h slt_engine_counters): per (group, CPU) n_ctr
	 * current values then n_ctr _prev copies at ctr_off bytes into the
	 * CPU's chunk, memcg state [0, node_at), events, node state
	 * [node_at, n_ctr); per group n_ctr totals and pending deltas from
	 * flushed children (memcg_vmstats state / state_pending) */
	size_t n_ctr, node_at, n_node, n_memcg;
	size_t ctr_off;
	int64_t *gtotal, *gpending; /* [n_groups * n_ctr], flusher only */
	uint8_t *obj_mem;          /* all objects */
	size_t obj_stride;         /* bytes, multiple of the cacheline */
};

/* Per-thread state: everything a thread writes on its own. */
struct eng_thread {
	_Alignas(128) struct eng_run *run;
	unsigned idx;              /* CPU index; n_cpus for the flusher */
	int cpu;                   /* pinned CPU or -1 */
	uint64_t ops;
	uint64_t rng;
	struct slt_engine_access *acc; /* [n_roles] or NULL */
	int64_t *added;            /* [n_groups] values added per group */
	struct slt_engine_hist cpu_hist, flush_hist;
	struct slt_engine_hist mark_hist; /* cpu_hist's holds by the update
					     path's marking (tree.c) */
	double *lat;               /* reservoir of update latencies, ns */
	size_t n_lat;
	uint64_t lat_seen;
	uint64_t flushes, flushed_groups, wakeups, crossings;
	uint64_t worker_flushes, reader_flushes, periodic_flushes;
	uint64_t reader_checks, flush_busy, counters_visited;
	int32_t *scratch;          /* [n_groups]: a flush's popped groups */
	uint64_t lat_rng;          /* PRNG of the latency sampling gaps */
	uint64_t lat_wait;         /* updates to the next timed one (>= 1) */
	uint64_t lat_batch;        /* timed updates that crossed a batch */
	uint64_t nivcsw;           /* involuntary context switches at the
				      thread's previous preemption check */
	uint64_t max_ops;          /* replay: stop after this many (0: none) */
	uint64_t sink;             /* loaded values end here */
	/* replay: this thread's schedule of role indices (>= 0 load,
	 * -1 - r store) */
	int32_t *sched;
	size_t n_sched;
	uint64_t hot_pos;          /* stats with a pattern: stores done from
				      sched (the thread's measured stores) */
	/* co-scheduling (cosched.c): running intervals [start, end] ns,
	 * CLOCK_MONOTONIC, 2 per interval */
	uint64_t *iv;
	size_t n_iv, iv_cap, iv_lost;
	uint64_t last_ns;          /* the previous clock sample */
	uint64_t cpu_ns;           /* CLOCK_THREAD_CPUTIME_ID: at the start,
				      after eng_cosched_end() the CPU time
				      the thread used */
	unsigned cs_wait;          /* operations to the next sample */
	bool nap_wait;             /* waits for a busy spinlock by napping
				      (eng_lock_nap()): every --realtime
				      thread */
	char pad_[64];
};

/* One run. */
struct eng_run {
	const struct slt_engine_bound *b;
	struct slt_engine_opts o;
	struct eng_tree tree;
	int32_t role_back, role_pcpu;  /* role index or -1 */
	unsigned *writer;              /* [n_roles]: the one updater that stores
					  to a hot-write role (its writer group's
					  thread, else round-robin: engine.h) */
	struct eng_thread *th;         /* [n_cpus + 1]: updaters, flusher */
	_Atomic unsigned ready;         /* threads at the start barrier */
	_Atomic int go;                 /* the barrier opens */
	pthread_mutex_t go_m;           /* the threads block on go_c */
	pthread_cond_t go_c;
	struct eng_lock flush_lock;    /* the global flush lock
					  (cgroup_rstat_lock) */
	struct eng_lock stats_lock;    /* 5.15, 6.1: stats_flush_lock,
					  only ever trylocked */
	struct slt_stats_trigger trig; /* the mode's flush trigger */
	bool spin;                     /* locks spin (engine.h) */
	sem_t wake;
	_Atomic int flush_requested;
	_Atomic int stop;
	_Atomic unsigned done;         /* updaters that reached max_updates */
};

#define ENG_LAT_RESERVOIR 65536u

/* tree.c */
int eng_tree_init(struct eng_run *r, struct slt_error *err);
void eng_tree_free(struct eng_tree *t);
static inline struct eng_pcpu *eng_pcpu_at(const struct eng_tree *t,
					   void *cpu0, unsigned cpu)
{
	return (struct eng_pcpu *)((uint8_t *)cpu0 + (size_t)cpu * t->pcpu_stride);
}
struct eng_pcpu *eng_pcpu_of(const struct eng_tree *t, size_t g, unsigned cpu);
/* Group g's counters on CPU 0 (the per-CPU pointer role's value; CPU c's
 * are at + c * pcpu_stride bytes). */
int64_t *eng_ctr_of(const struct eng_tree *t, size_t g, unsigned cpu);
/* g's total after flushes: the sum of its node counters' totals. */
int64_t eng_group_total(const struct eng_tree *t, size_t g);
/* Put g and its ancestors on cpu's updated tree (cgroup_rstat_updated). */
void eng_tree_mark(struct eng_run *r, struct eng_thread *th, size_t g,
		   unsigned cpu);
/* Detach cpu's updated tree in post-order (children first) into out
 * (room for n_groups); returns the count.  Caller (th) holds cpu's lock.
 * Both walks reach a group's links through its object's percpu-pointer
 * role when the bound layout says tree_via_pcpu (engine.h). */
size_t eng_tree_pop(struct eng_run *r, struct eng_thread *th, unsigned cpu,
		    int32_t *out);

/* role accesses (update.c) */
void eng_role_load(struct eng_thread *th, const uint8_t *obj, size_t role);
void eng_role_store(struct eng_thread *th, uint8_t *obj, size_t role,
		    uint8_t v);
void *eng_role_ptr(struct eng_thread *th, const uint8_t *obj, int32_t role);

/* update.c: one update by thread th on a leaf it picks */
void eng_update(struct eng_run *r, struct eng_thread *th, uint64_t n);
/* flush.c: why a flush runs */
enum eng_flush_why {
	ENG_FLUSH_WORKER,   /* 5.15-rc1's queued flush work */
	ENG_FLUSH_READER,   /* a reader's mem_cgroup_flush_stats() */
	ENG_FLUSH_PERIODIC, /* flush_memcg_stats_dwork(), every 2 s */
	ENG_FLUSH_FINAL,    /* the engine's own, after the threads stop */
};
/* The memcg flush of the run's mode by th (engine.h "Kernel stats
 * modes"); false when a trylock found another flush running. */
bool eng_flush(struct eng_run *r, struct eng_thread *th, enum eng_flush_why why);
/* replay.c: the threads' schedules (replay: every role; stats with a
 * measured pattern: the hot-write roles) */
int eng_replay_init(struct eng_run *r, struct slt_error *err);
void eng_replay_op(struct eng_run *r, struct eng_thread *th, uint64_t n);

/* cosched.c: the running intervals of the updaters (engine.h,
 * "Co-scheduling").  Operations between two clock samples: */
#define ENG_COSCHED_EVERY 16u
int eng_cosched_alloc(struct eng_thread *th);
void eng_cosched_begin(struct eng_thread *th);
void eng_cosched_sample(struct eng_thread *th);
void eng_cosched_end(struct eng_thread *th);
/* The fraction of [t0, t1] during which >= 2 (*pair) and all T (*all)
 * of the updaters 0..T-1 ran at once; -1 out of memory. */
int eng_cosched_overlap(struct eng_run *r, unsigned T, uint64_t t0,
			uint64_t t1, double *pair, double *all);
/* Seconds of [t0, t1] the thread's intervals cover. */
double eng_cosched_running_s(const struct eng_thread *th, uint64_t t0,
			     uint64_t t1);

/* hist.c */
uint64_t eng_now_ns(void);
void eng_lat_add(struct eng_thread *th, double ns);
/* The geometric gap (mean `every`) to the next timed update, from
 * th->lat_rng. */
uint64_t eng_lat_gap(struct eng_thread *th, unsigned every);
/* Whether this update is timed (counts th->lat_wait down). */
bool eng_lat_due(struct eng_thread *th, unsigned every);
/* The calling thread's involuntary context switches so far (the
 * baseline of a preemption check). */
uint64_t eng_preempt_snap(void);
/* Count a lock hold of ns into h, or as preempted when it is at least
 * SLT_ENGINE_PREEMPT_CHECK_NS long and the thread's involuntary context
 * switches rose above *base (engine.h); a check moves *base on.  Returns
 * whether it counted the hold as preempted. */
bool eng_hold_add(uint64_t *base, struct slt_engine_hist *h, uint64_t ns);

/* name without a leading "struct " or "union " (spec.c) */
const char *eng_strip_tag(const char *name);

/* xorshift64* */
static inline uint64_t eng_rand(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* validate.c: the medians, both intervals and the verdict of r from its
 * rounds' ops_per_s and overlap (r->kept allocated, [rounds]): the rounds
 * kept (both runs ran and overlapped opts->min_overlap) when there are
 * enough, else every round that ran, for information (no verdict).  0 or
 * SLT_ENOMEM.  Apart for the unit tests (test_validate.c). */
struct slt_validate_result;
struct slt_validate_opts;
int slt_validate_compare(struct slt_validate_result *r, const struct slt_validate_opts *opts,
			 struct slt_error *err);

#endif
