/* SPDX-License-Identifier: MIT */
/*
 * --realtime before any run (realtime.c): the right to raise the engine's
 * threads to SCHED_RR checked up front, and the kernel's RT throttling
 * named once, with what it does to the run.
 */
#ifndef SLT_CLI_REALTIME_H
#define SLT_CLI_REALTIME_H

#include "structlint/error.h"

/*
 * Check that this process may run threads SCHED_RR at the engine's
 * priorities (the calling thread is raised to SLT_ENGINE_RT_PRIO + 1 and
 * put back).  Returns 0, or SLT_EUSAGE with the error slt_engine_run()
 * would give on its first run (naming --realtime, root, CAP_SYS_NICE,
 * RLIMIT_RTPRIO).
 */
int cli_realtime_check(struct slt_error *err);

/*
 * The kernel's RT throttling from procfs (sched_rt_runtime_us and
 * sched_rt_period_us under dir, NULL: /proc/sys/kernel): when the
 * runtime is not -1 and under the period, one warning on stderr saying
 * the figures and what they do to a --realtime run (SCHED_RR threads that
 * keep a CPU busy are stopped for period - runtime of every period: the
 * runs take longer, and those stretches are time the updaters did not
 * run at once), and how to lift it.  Returns true when it warned.
 */
bool cli_realtime_throttle_warn(const char *dir);

#endif
