/* SPDX-License-Identifier: MIT */
/* --realtime checked before any run (realtime.h). */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/realtime.h"
#include "structlint/engine.h"

int cli_realtime_check(struct slt_error *err)
{
	int policy = SCHED_OTHER;
	struct sched_param old_sp = { 0 }, sp = { .sched_priority = SLT_ENGINE_RT_PRIO + 1 };
	if (pthread_getschedparam(pthread_self(), &policy, &old_sp) ||
	    pthread_setschedparam(pthread_self(), SCHED_RR, &sp))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "run as root, give CAP_SYS_NICE or RLIMIT_RTPRIO >= 2, or drop --realtime",
				     "--realtime: not allowed to run the engine SCHED_RR");
	pthread_setschedparam(pthread_self(), policy, &old_sp);
	return 0;
}

/* A whole number from dir/name; false when unreadable. */
static bool read_long(const char *dir, const char *name, long *out)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fscanf(f, "%ld", out) == 1;
	fclose(f);
	return ok;
}

bool cli_realtime_throttle_warn(const char *dir)
{
	if (!dir)
		dir = "/proc/sys/kernel";
	long runtime, period;
	if (!read_long(dir, "sched_rt_runtime_us", &runtime) ||
	    !read_long(dir, "sched_rt_period_us", &period) || runtime < 0 || period <= 0 ||
	    runtime >= period)
		return false;
	fprintf(stderr, "structlint: warning: --realtime: the kernel throttles real-time threads "
		"(sched_rt_runtime_us %ld of sched_rt_period_us %ld): SCHED_RR threads that keep a CPU "
		"busy are stopped for %.0f ms of every %.0f ms, so the runs take longer and those "
		"stretches count as time the updaters did not run at once (lower overlap, fewer rounds "
		"kept); echo -1 > %s/sched_rt_runtime_us (root) lifts it\n",
		runtime, period, (double)(period - runtime) / 1e3, (double)period / 1e3, dir);
	return true;
}
