/* SPDX-License-Identifier: MIT */
/*
 * `validate --source-root DIR --build CMD --run CMD`: the user's own
 * program, A (the tree as it is) against B (the tree with the advisor's
 * proposal applied as a patch), built and run in interleaved ABBA rounds
 * (include/structlint/validate.h, slt_program_result).
 *
 * Two copies of DIR under a temporary directory (cp -a), the proposal's
 * unified diff applied to B with patch -p1, CMD run by /bin/sh -c in each
 * copy with STRUCTLINT_SIDE=A or B in its environment and its standard
 * output sent to standard error (so --json stays clean).  Each run's wall
 * time is CLOCK_MONOTONIC around fork .. wait4, its CPU time the child's
 * user + system time from wait4's rusage (the command and everything it
 * waited for).  Co-scheduling: each thread's CPU time is sampled from
 * /proc every 5 ms while the command runs (proc_sched.h), which brackets
 * the share of the wall time during which >= 2 of its threads ran at
 * once; where /proc gives no per-thread times, only the lower bound that
 * CPU / wall gives is known (slt_program_result).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/proc_sched.h"
#include "cli/validate_program.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run `sh -c cmd` in dir (NULL: here) with the variables of env ("K=V",
 * NULL-terminated); its output to log (a file, replaced; NULL: standard
 * error); *wall and *cpu (may be NULL) in seconds; ps (may be NULL)
 * follows its threads' CPU time while it runs.  Returns the exit status
 * (0 ok), 128 + signal, or -1 when it could not start. */
static int run_sh(const char *dir, const char *cmd, char *const *env, const char *log,
		  double *wall, double *cpu, struct proc_sched *ps, int rt_prio)
{
	double t0 = now_s();
	if (ps)
		ps->last_ns = (uint64_t)(t0 * 1e9);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (dir && chdir(dir))
			_exit(126);
		for (size_t i = 0; env && env[i]; i++)
			putenv(env[i]);
		int fd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600) : -1;
		if (log && fd < 0)
			_exit(126);
		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		dup2(STDERR_FILENO, STDOUT_FILENO);
		struct sched_param sp = { .sched_priority = rt_prio };
		if (rt_prio && sched_setscheduler(0, SCHED_RR, &sp))
			_exit(126);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	const struct timespec poll = { 0, PROC_SCHED_POLL_NS };
	for (;;) {
		pid_t w = wait4(pid, &status, ps ? WNOHANG : 0, &ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		if (w == 0) {
			proc_sched_poll(ps, pid);
			nanosleep(&poll, NULL);
		}
	}
	if (wall)
		*wall = now_s() - t0;
	if (cpu)
		*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void cli_program_result_free(struct slt_program_result *r)
{
	if (!r)
		return;
	free(r->wall_a);
	free(r->wall_b);
	free(r->cpu_a);
	free(r->cpu_b);
	free(r->kept);
	memset(r, 0, sizeof(*r));
}

static int fail(struct slt_error *err, const char *what, const char *cmd, int st)
{
	return slt_error_set(err, SLT_EIO, NULL, -1,
			     "run the command by hand in a copy of --source-root to see why",
			     "%s failed (%s): %s", what,
			     st < 0 ? "could not start" : st >= 128 ? "killed by a signal" : "non-zero exit",
			     cmd);
}

/* Paired interval on the speeds (1 / time): B/A above 1.0 = B faster. */
static int speed_ci(const double *ta, const double *tb, unsigned n, double level,
		    struct slt_ratio_ci *ci, struct slt_error *err)
{
	double *a = malloc((n + 1) * sizeof(*a)), *b = malloc((n + 1) * sizeof(*b));
	int rc = 0;
	if (!a || !b)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (unsigned i = 0; !rc && i < n; i++) {
		a[i] = 1.0 / (ta[i] > 1e-9 ? ta[i] : 1e-9);
		b[i] = 1.0 / (tb[i] > 1e-9 ? tb[i] : 1e-9);
	}
	if (!rc)
		rc = slt_stats_paired_ratio_ci(a, b, n, level, ci, err);
	free(a);
	free(b);
	return rc;
}

/* One side's co-scheduling figures (slt_program_result): per run, CPU /
 * wall, and the bracket on the share of the wall time with >= 2 threads
 * running: from CPU / wall alone, (cpu / wall - 1) / (cpus - 1) below and
 * nothing above; with the per-thread samples (s[i].wall_ns > 0 on every
 * run) also their bracket, the missed CPU time added to the upper end. */
struct run_sched {
	double lo, hi, seen;     /* shares of the run's wall time / CPU time */
	bool sampled;
};

static int co_sched(const double *wall, const double *cpu, const struct run_sched *rs, unsigned n,
		    unsigned cpus, double *par, double *lb, double *ub, double *seen, bool *per_thread,
		    double *ub_runs, struct slt_error *err)
{
	double *v = malloc((4 * n + 1) * sizeof(*v));
	if (!v)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	double *p = v, *l = v + n, *u = v + 2 * n, *sh = v + 3 * n;
	for (unsigned i = 0; i < n; i++) {
		p[i] = wall[i] > 1e-9 ? cpu[i] / wall[i] : 0.0;
		double x = cpus > 1 ? (p[i] - 1.0) / (double)(cpus - 1) : 0.0;
		l[i] = x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
		u[i] = 1.0;
		sh[i] = 0.0;
		if (!rs[i].sampled) {
			*per_thread = false;
			continue;
		}
		if (rs[i].lo > l[i])
			l[i] = rs[i].lo;
		double missed = cpu[i] > 0.0 && wall[i] > 1e-9 ? (1.0 - rs[i].seen) * cpu[i] / wall[i] : 0.0;
		u[i] = rs[i].hi + (missed > 0.0 ? missed : 0.0);
		u[i] = u[i] > 1.0 ? 1.0 : u[i] < l[i] ? l[i] : u[i];
		sh[i] = rs[i].seen;
	}
	memcpy(ub_runs, u, n * sizeof(*u));
	*par = slt_stats_median(p, n);
	*lb = slt_stats_median(l, n);
	*ub = slt_stats_median(u, n);
	*seen = slt_stats_median(sh, n);
	free(v);
	return 0;
}

/* The user's command once, timed, its threads followed (rs). */
static int run_timed(const char *dir, const char *cmd, char *const *env, unsigned cpus,
		     bool realtime, double *wall, double *cpu, struct run_sched *rs)
{
	struct proc_sched ps;
	proc_sched_init(&ps, cpus, 0);
	/* --realtime: the command SCHED_RR 1, this sampler 2 meanwhile, so
	 * that its polls are not kept out by the command's threads */
	int old_policy = SCHED_OTHER;
	struct sched_param old_sp = { 0 }, sp = { .sched_priority = SLT_ENGINE_RT_PRIO + 1 };
	bool rt_self = realtime && !pthread_getschedparam(pthread_self(), &old_policy, &old_sp) &&
		       !pthread_setschedparam(pthread_self(), SCHED_RR, &sp);
	int st = run_sh(dir, cmd, env, NULL, wall, cpu, &ps, realtime ? SLT_ENGINE_RT_PRIO : 0);
	if (rt_self)
		pthread_setschedparam(pthread_self(), old_policy, &old_sp);
	rs->sampled = ps.usable && ps.wall_ns > 0.0;
	rs->lo = rs->sampled ? ps.lb_ns / ps.wall_ns : 0.0;
	rs->hi = rs->sampled ? ps.ub_ns / ps.wall_ns : 1.0;
	rs->seen = rs->sampled && *cpu > 0.0 ? ps.sampled_cpu_ns / 1e9 / *cpu : 0.0;
	if (rs->seen > 1.0)
		rs->seen = 1.0;
	proc_sched_free(&ps);
	return st;
}

/* The last lines (at most BUILD_TAIL) of a failed build's output (log)
 * to standard error, indented, before the error line names the step. */
#define BUILD_TAIL 12

static void print_tail(const char *log)
{
	FILE *f = fopen(log, "r");
	if (!f)
		return;
	long starts[BUILD_TAIL];
	unsigned n = 0;
	int ch, prev = '\n';
	for (long pos = 0; (ch = getc(f)) != EOF; pos++, prev = ch)
		if (prev == '\n')
			starts[n++ % BUILD_TAIL] = pos;
	unsigned first = n > BUILD_TAIL ? n - BUILD_TAIL : 0;
	char line[512];
	for (unsigned i = first; i < n; i++) {
		if (fseek(f, starts[i % BUILD_TAIL], SEEK_SET) || !fgets(line, sizeof(line), f))
			break;
		size_t len = strlen(line);
		fprintf(stderr, "  | %s%s", line, len && line[len - 1] == '\n' ? "" : "\n");
	}
	fclose(f);
}

void cli_program_tree_free(struct cli_program_tree *t)
{
	if (!t->dir[0])
		return;
	char e_t[sizeof(t->dir) + 16];
	snprintf(e_t, sizeof(e_t), "SLT_TMP=%s", t->dir);
	char *env[] = { e_t, NULL };
	run_sh(NULL, "rm -rf -- \"$SLT_TMP\"", env, NULL, NULL, NULL, NULL, 0);
	t->dir[0] = 0;
}

static char side_a[] = "STRUCTLINT_SIDE=A", side_b[] = "STRUCTLINT_SIDE=B";
static char *const env_a[] = { side_a, NULL }, *const env_b[] = { side_b, NULL };

/* The temporary directory and its A and B paths, once. */
static int make_dir(struct cli_program_tree *t, struct slt_error *err)
{
	if (t->dir[0])
		return 0;
	snprintf(t->dir, sizeof(t->dir), "/tmp/structlint-validate-XXXXXX");
	if (!mkdtemp(t->dir)) {
		t->dir[0] = 0;
		return slt_error_set(err, SLT_EIO, "/tmp", -1, NULL, "cannot create a directory: %s",
				     strerror(errno));
	}
	snprintf(t->a, sizeof(t->a), "%s/A", t->dir);
	snprintf(t->b, sizeof(t->b), "%s/B", t->dir);
	return 0;
}

/* Copy o->root to side's directory; patch B with the diff file dp; build
 * it (its output in the directory's build.log, its last lines shown when
 * it fails). */
static int copy_build(const struct cli_program_opts *o, struct cli_program_tree *t, int side,
		      const char *dp, struct slt_program_result *r, struct slt_error *err)
{
	char log[sizeof(t->dir) + 16], e_src[4200], e_dst[sizeof(t->a) + 16], e_diff[sizeof(t->dir) + 32];
	snprintf(log, sizeof(log), "%s/build.log", t->dir);
	snprintf(e_src, sizeof(e_src), "SLT_SRC=%s", o->root);
	snprintf(e_dst, sizeof(e_dst), "SLT_DST=%s", side ? t->b : t->a);
	char *env[] = { e_src, e_dst, NULL };
	int st;
	if ((st = run_sh(NULL, "mkdir -p \"$SLT_DST\" && cp -a -- \"$SLT_SRC\"/. \"$SLT_DST\"",
			 env, NULL, NULL, NULL, NULL, 0)))
		return fail(err, "copying --source-root", o->root, st);
	if (side) {
		snprintf(e_diff, sizeof(e_diff), "SLT_DIFF=%s", dp);
		char *denv[] = { e_diff, NULL };
		if ((st = run_sh(t->b, "patch -p1 --batch --silent --no-backup-if-mismatch < \"$SLT_DIFF\"",
				 denv, NULL, NULL, NULL, NULL, 0)))
			return fail(err, "applying the proposal (patch -p1) to B", dp, st);
	}
	if ((st = run_sh(side ? t->b : t->a, o->build, side ? env_b : env_a, log,
			 side ? &r->build_b_s : &r->build_a_s, NULL, NULL, 0))) {
		print_tail(log);
		return fail(err, side ? "building B" : "building A", o->build, st);
	}
	return 0;
}

int cli_program_build_a(const struct cli_program_opts *o, struct cli_program_tree *t,
			struct slt_program_result *r, struct slt_error *err)
{
	memset(r, 0, sizeof(*r));
	int rc = make_dir(t, err);
	if (!rc)
		rc = copy_build(o, t, 0, NULL, r, err);
	t->a_built = !rc;
	return rc;
}

int cli_program_prepare(const struct cli_program_opts *o, const char *diff,
			struct cli_program_tree *t, struct slt_program_result *r,
			struct slt_error *err)
{
	if (!t->a_built)
		memset(r, 0, sizeof(*r));
	int rc = make_dir(t, err);
	if (rc)
		return rc;
	char dp[sizeof(t->dir) + 16];
	snprintf(dp, sizeof(dp), "%s/proposal.diff", t->dir);
	FILE *f = fopen(dp, "w");
	bool wrote = f && fputs(diff, f) >= 0;
	if (f && fclose(f))
		wrote = false;
	if (!wrote)
		return slt_error_set(err, SLT_EIO, dp, -1, NULL, "cannot write the proposal's diff");
	/* both builds before anything is measured: a broken build fails in
	 * seconds, with its output's last lines, not after the engine's runs
	 * (A already built when FILE came from its build) */
	if (!t->a_built)
		rc = copy_build(o, t, 0, dp, r, err);
	if (!rc)
		rc = copy_build(o, t, 1, dp, r, err);
	return rc;
}

/* The rounds kept (with per-thread samples: both runs' upper bound on
 * the overlap at or over the floor; without them every round), then the
 * medians, both speed intervals and the verdict over the kept rounds
 * when there are SLT_VALIDATE_MIN_KEPT_ROUNDS or more, else over all
 * (then no verdict, low_overlap).  ub: [2 n], A's runs then B's. */
static int compare(struct slt_program_result *r, const double *ub, double level,
		   struct slt_error *err)
{
	unsigned n = r->rounds, k = 0;
	for (unsigned i = 0; i < n; i++) {
		r->kept[i] = !r->per_thread || (ub[i] >= r->min_overlap && ub[n + i] >= r->min_overlap);
		k += r->kept[i];
	}
	r->kept_rounds = k;
	bool enough = k >= SLT_VALIDATE_MIN_KEPT_ROUNDS;
	unsigned m = enough ? k : n;
	double *v = malloc((4 * (size_t)m + 1) * sizeof(*v));
	if (!v)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	double *wa = v, *wb = v + m, *ca = v + 2 * m, *cb = v + 3 * m;
	for (unsigned i = 0, j = 0; i < n; i++)
		if (!enough || r->kept[i]) {
			wa[j] = r->wall_a[i];
			wb[j] = r->wall_b[i];
			ca[j] = r->cpu_a[i];
			cb[j++] = r->cpu_b[i];
		}
	r->median_wall_a = slt_stats_median(wa, m);
	r->median_wall_b = slt_stats_median(wb, m);
	r->median_cpu_a = slt_stats_median(ca, m);
	r->median_cpu_b = slt_stats_median(cb, m);
	int rc = speed_ci(wa, wb, m, level, &r->wall_ci, err);
	if (!rc)
		rc = speed_ci(ca, cb, m, level, &r->cpu_ci, err);
	free(v);
	if (rc)
		return rc;
	r->verdict = m < SLT_VERDICT_MIN_RUNS ? SLT_VERDICT_NONE : slt_verdict_of(&r->wall_ci);
	if (r->verdict != SLT_VERDICT_NONE && !enough) {
		r->verdict = SLT_VERDICT_NONE;
		r->low_overlap = true;
	}
	return 0;
}

int cli_program_measure(const struct cli_program_opts *o, const struct cli_program_tree *t,
			void (*progress)(unsigned round, unsigned rounds),
			struct slt_program_result *r, struct slt_error *err)
{
	unsigned n = o->rounds;
	const char *da = t->a, *db = t->b;
	int rc = 0, st;
	if (!(r->wall_a = calloc(n, sizeof(double))) || !(r->wall_b = calloc(n, sizeof(double))) ||
	    !(r->cpu_a = calloc(n, sizeof(double))) || !(r->cpu_b = calloc(n, sizeof(double))) ||
	    !(r->kept = calloc(n, sizeof(bool))))
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	struct run_sched *rs = !rc ? calloc(2 * (size_t)n + 1, sizeof(*rs)) : NULL;
	if (!rc && !rs)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	cpu_set_t set;
	r->cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? (unsigned)CPU_COUNT(&set) : 1;
	/* one discarded run each (caches, page cache), then ABBA */
	if (!rc && (st = run_sh(da, o->run, env_a, NULL, NULL, NULL, NULL, 0)))
		rc = fail(err, "running A", o->run, st);
	if (!rc && (st = run_sh(db, o->run, env_b, NULL, NULL, NULL, NULL, 0)))
		rc = fail(err, "running B", o->run, st);
	for (unsigned i = 0; !rc && i < n; i++) {
		if (progress)
			progress(i, n);
		bool a_first = slt_validate_a_first(i);
		for (int k = 0; k < 2 && !rc; k++) {
			bool is_a = (k == 0) == a_first;
			st = run_timed(is_a ? da : db, o->run, is_a ? env_a : env_b, r->cpus, o->realtime,
				       is_a ? &r->wall_a[i] : &r->wall_b[i], is_a ? &r->cpu_a[i] : &r->cpu_b[i],
				       &rs[is_a ? i : n + i]);
			if (st)
				rc = fail(err, is_a ? "running A" : "running B", o->run, st);
		}
		r->rounds = i + 1;
	}
	double *ub = !rc ? malloc((2 * (size_t)n + 1) * sizeof(*ub)) : NULL;
	if (!rc && !ub)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	r->per_thread = true;
	if (!rc)
		rc = co_sched(r->wall_a, r->cpu_a, rs, n, r->cpus, &r->cpu_per_wall_a, &r->overlap_min_a,
			      &r->overlap_max_a, &r->sampled_cpu_a, &r->per_thread, ub, err);
	if (!rc)
		rc = co_sched(r->wall_b, r->cpu_b, rs + n, n, r->cpus, &r->cpu_per_wall_b, &r->overlap_min_b,
			      &r->overlap_max_b, &r->sampled_cpu_b, &r->per_thread, ub + n, err);
	r->min_overlap = o->min_overlap;
	if (!rc)
		rc = compare(r, ub, o->level, err);
	free(ub);
	free(rs);
	if (rc)
		cli_program_result_free(r);
	return rc;
}
