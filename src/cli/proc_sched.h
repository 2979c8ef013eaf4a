/* SPDX-License-Identifier: MIT */
/*
 * When did the threads of a command we started run at the same time?
 * (proc_sched.c; used by `validate --run`, validate_program.c)
 *
 * The command's process tree is walked from its pid through
 * /proc/PID/task/TID/children (proc(5), CONFIG_PROC_CHILDREN) every
 * PROC_SCHED_POLL_NS while it runs, and each thread's time on a CPU is
 * read from /proc/PID/task/TID/schedstat (its first field, nanoseconds:
 * Documentation/scheduler/sched-stats.rst, CONFIG_SCHED_INFO).  Per poll
 * interval of length dt, with d_i the CPU time thread i got in it (at
 * most dt) and m = min(CPUs, threads that ran) -- CPUs being those the
 * threads that ran may use (sched_getaffinity(2) of each, so a command
 * run under taskset -c 0 gets m = 1 and T2 = 0) --, the time T2
 * during which >= 2 threads ran at once is bracketed:
 *   T2 >= (sum d_i - dt) / (m - 1)   (CPU time past one CPU's worth
 *                                     needs threads running together,
 *                                     at most m at a time)
 *   T2 <= min(dt, sum d_i - max d_i) (every instant of T2 has a thread
 *                                     other than the busiest running)
 * and the brackets are summed over the intervals: the shorter the
 * interval, the closer the two.  What is missed: a thread or process
 * that starts and ends between two polls, and a thread's last partial
 * interval (sampled_cpu_ns against the command's rusage tells how much).
 */
#ifndef SLT_CLI_PROC_SCHED_H
#define SLT_CLI_PROC_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PROC_SCHED_POLL_NS 5000000u   /* 5 ms */
#define PROC_SCHED_MAX_TASKS 4096     /* threads followed per poll */

struct proc_sched_task {
	pid_t tid;
	uint64_t cpu_ns;
};

struct proc_sched {
	unsigned cpus;            /* CPUs the command may run on */
	bool usable;              /* schedstat could be read at least once */
	uint64_t last_ns;         /* CLOCK_MONOTONIC of the last poll */
	struct proc_sched_task *prev, *cur;  /* sorted by tid */
	size_t n_prev, n_cur;
	double wall_ns;           /* sum of the polled intervals */
	double lb_ns, ub_ns;      /* bracket on T2, summed */
	double sampled_cpu_ns;    /* CPU time seen by the polls */
};

/* Start following; t0_ns is CLOCK_MONOTONIC at the command's start. */
void proc_sched_init(struct proc_sched *s, unsigned cpus, uint64_t t0_ns);
/* One poll of the tree under root (its threads and its descendants'). */
void proc_sched_poll(struct proc_sched *s, pid_t root);
void proc_sched_free(struct proc_sched *s);

#endif
