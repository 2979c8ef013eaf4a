/* SPDX-License-Identifier: MIT */
/*
 * Per-thread CPU time of a running command's process tree, sampled from
 * /proc, and the bracket it gives on how long >= 2 of its threads ran at
 * once (proc_sched.h has the method and its error).
 */
#include <dirent.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/proc_sched.h"
#include "common/sort.h"

#define MAX_DEPTH 32

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Read a small /proc file into buf (NUL-terminated); length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static void walk(struct proc_sched *s, pid_t pid, int depth)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return;   /* gone since its parent listed it */
	struct dirent *e;
	while ((e = readdir(d)) && s->n_cur < PROC_SCHED_MAX_TASKS) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		if (end == e->d_name || *end || tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/schedstat", (int)pid, tid);
		if (read_small(path, buf, sizeof(buf)) > 0) {
			s->cur[s->n_cur].tid = (pid_t)tid;
			s->cur[s->n_cur].cpu_ns = strtoull(buf, NULL, 10);
			s->n_cur++;
			s->usable = true;
		}
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/children", (int)pid, tid);
		if (depth < MAX_DEPTH && read_small(path, buf, sizeof(buf)) > 0)
			for (char *p = buf; *p;) {
				long child = strtol(p, &end, 10);
				if (end == p)
					break;
				if (child > 0)
					walk(s, (pid_t)child, depth + 1);
				p = end;
			}
	}
	closedir(d);
}

static int by_tid(const void *x, const void *y)
{
	pid_t a = ((const struct proc_sched_task *)x)->tid, b = ((const struct proc_sched_task *)y)->tid;
	return (a > b) - (a < b);
}

void proc_sched_init(struct proc_sched *s, unsigned cpus, uint64_t t0_ns)
{
	memset(s, 0, sizeof(*s));
	s->cpus = cpus ? cpus : 1;
	s->last_ns = t0_ns;
	s->prev = calloc(PROC_SCHED_MAX_TASKS, sizeof(*s->prev));
	s->cur = calloc(PROC_SCHED_MAX_TASKS, sizeof(*s->cur));
	if (!s->prev || !s->cur)
		proc_sched_free(s);   /* polls then do nothing: not usable */
}

void proc_sched_poll(struct proc_sched *s, pid_t root)
{
	if (!s->cur)
		return;
	s->n_cur = 0;
	walk(s, root, 0);
	uint64_t now = mono_ns();
	double dt = (double)(now - s->last_ns);
	slt_sort(s->cur, s->n_cur, sizeof(*s->cur), by_tid);
	double sum = 0.0, max = 0.0;
	unsigned ran = 0;
	cpu_set_t on, one;   /* the CPUs the threads that ran may use */
	CPU_ZERO(&on);
	bool aff = true;
	for (size_t i = 0, j = 0; i < s->n_cur; i++) {
		while (j < s->n_prev && s->prev[j].tid < s->cur[i].tid)
			j++;
		uint64_t before = j < s->n_prev && s->prev[j].tid == s->cur[i].tid ? s->prev[j].cpu_ns : 0;
		double d = s->cur[i].cpu_ns > before ? (double)(s->cur[i].cpu_ns - before) : 0.0;
		if (d > dt)
			d = dt;   /* accounting runs a little ahead of our clock */
		if (d > 0.0) {
			ran++;
			if (aff && sched_getaffinity(s->cur[i].tid, sizeof(one), &one) == 0)
				CPU_OR(&on, &on, &one);
			else
				aff = false;   /* gone, or not ours to ask: s->cpus */
		}
		sum += d;
		if (d > max)
			max = d;
	}
	unsigned cpus = s->cpus;
	if (aff && ran && (unsigned)CPU_COUNT(&on) < cpus)
		cpus = (unsigned)CPU_COUNT(&on);   /* e.g. the command ran under taskset */
	unsigned m = ran < cpus ? ran : cpus;
	if (m >= 2) {
		double lb = (sum - dt) / (double)(m - 1), ub = sum - max;
		s->lb_ns += lb < 0.0 ? 0.0 : lb > dt ? dt : lb;
		s->ub_ns += ub > dt ? dt : ub;
	}
	s->wall_ns += dt;
	s->sampled_cpu_ns += sum;
	struct proc_sched_task *t = s->prev;
	s->prev = s->cur;
	s->cur = t;
	s->n_prev = s->n_cur;
	s->last_ns = now;
}

void proc_sched_free(struct proc_sched *s)
{
	free(s->prev);
	free(s->cur);
	s->prev = s->cur = NULL;
	s->n_prev = s->n_cur = 0;
}
