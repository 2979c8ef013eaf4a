/* SPDX-License-Identifier: MIT */
/*
 * structlint record [-o FILE] [--event NAME]... -- CMD ARGS
 *
 * Samples CMD's memory accesses with perf_event_open(2) where the PMU has
 * memory events (Intel cpu/mem-loads,ldlat=30/P and cpu/mem-stores/P from
 * /sys/bus/event_source/devices/cpu/events, AMD ibs_op, Arm arm_spe_0),
 * sample_type IP|TID|TIME|ADDR|CPU|DATA_SRC|WEIGHT|IDENTIFIER, one ring
 * buffer per event and CPU, and writes a perf.data (src/samples/
 * perf_data_write.c) that the other commands read.  Where the PMU has no
 * such events (virtual machines) it exits 2 and names the offline routes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/record_buildid.h"
#include "samples/perf_data.h"

#define PMU_DIR "/sys/bus/event_source/devices"
#define RING_PAGES 64   /* data pages per ring (power of two) */

static bool read_small(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

/* Set the bits of a sysfs format field ("config:0-7", "config1:0-15") in
 * attr to value. */
static bool apply_format(struct perf_event_attr *a, const char *pmu,
			 const char *term, uint64_t value)
{
	char path[256], fmt[64];
	snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", pmu, term);
	if (!read_small(path, fmt, sizeof(fmt)))
		return false;
	__u64 *dst = !strncmp(fmt, "config2:", 8) ? &a->config2 :
			!strncmp(fmt, "config1:", 8) ? &a->config1 : &a->config;
	unsigned lo, hi;
	const char *r = strchr(fmt, ':');
	if (!r)
		return false;
	int k = sscanf(r + 1, "%u-%u", &lo, &hi);
	if (k < 1 || lo > 63)
		return false;
	if (k == 1)
		hi = lo;
	if (hi > 63 || hi < lo)
		return false;
	uint64_t mask = (hi - lo == 63) ? ~0ull : ((1ull << (hi - lo + 1)) - 1);
	*dst = (*dst & ~(mask << lo)) | ((value & mask) << lo);
	return true;
}

/* Encode a sysfs event alias ("event=0xcd,umask=0x1,ldlat=3") plus extra
 * terms into attr.  Returns false when the alias does not exist. */
static bool sysfs_event(struct perf_event_attr *a, const char *pmu,
			const char *ev, const char *extra)
{
	char path[256], spec[256], type[32];
	snprintf(path, sizeof(path), PMU_DIR "/%s/events/%s", pmu, ev);
	if (!read_small(path, spec, sizeof(spec)))
		return false;
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", pmu);
	if (!read_small(path, type, sizeof(type)))
		return false;
	a->type = (uint32_t)strtoul(type, NULL, 10);
	char all[320];
	snprintf(all, sizeof(all), "%s%s%s", spec, extra ? "," : "", extra ? extra : "");
	for (char *save = NULL, *t = strtok_r(all, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 1;
		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, NULL, 0);
		}
		if (!apply_format(a, pmu, t, v))
			return false;
	}
	return true;
}

static bool pmu_type(const char *pmu, struct perf_event_attr *a)
{
	char path[256], type[32];
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", pmu);
	if (!read_small(path, type, sizeof(type)))
		return false;
	a->type = (uint32_t)strtoul(type, NULL, 10);
	return true;
}

struct ev {
	struct perf_event_attr attr;
	char name[64];
};

/* The memory events this machine offers; returns how many (0: none). */
static int memory_events(struct ev *out)
{
	int n = 0;
	struct perf_event_attr base;
	memset(&base, 0, sizeof(base));
	base.size = sizeof(base);
	base.sample_period = 4000;
	base.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	base.sample_id_all = 1;
	base.disabled = 1;
	base.enable_on_exec = 1;
	base.inherit = 1;
	base.exclude_kernel = 1;
	base.precise_ip = 2;
	out[0].attr = base;
	if (sysfs_event(&out[0].attr, "cpu", "mem-loads", "ldlat=30")) {
		snprintf(out[0].name, sizeof(out[0].name), "cpu/mem-loads,ldlat=30/P");
		n = 1;
		out[1].attr = base;
		if (sysfs_event(&out[1].attr, "cpu", "mem-stores", NULL)) {
			snprintf(out[1].name, sizeof(out[1].name), "cpu/mem-stores/P");
			n = 2;
		}
		return n;
	}
	out[0].attr = base;
	if (pmu_type("ibs_op", &out[0].attr)) {
		out[0].attr.precise_ip = 0;
		snprintf(out[0].name, sizeof(out[0].name), "ibs_op//");
		return 1;
	}
	out[0].attr = base;
	if (pmu_type("arm_spe_0", &out[0].attr)) {
		out[0].attr.precise_ip = 0;
		snprintf(out[0].name, sizeof(out[0].name), "arm_spe_0//");
		return 1;
	}
	return 0;
}

/* No memory events: cpu-clock IP samples (a software event, there on
 * every machine), with the mmap/comm/fork records that place the IPs
 * (structlint/weight.h).  10 kHz per CPU: cpu-clock's period is in ns. */
static int ip_event(struct ev *out, bool all)
{
	struct perf_event_attr *a = &out[0].attr;
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 100000;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a->sample_id_all = 1;
	a->exclude_kernel = !all;
	a->exclude_hv = 1;
	snprintf(out[0].name, sizeof(out[0].name), "cpu-clock");
	return 1;
}

/* The kernel's run-time _text from /proc/kallsyms (0 when hidden:
 * kptr_restrict, not root). */
static uint64_t kallsyms_text(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	uint64_t v = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char name[256], t;
		unsigned long long a;
		if (sscanf(line, "%llx %c %255s", &a, &t, name) == 3 && !strcmp(name, "_text")) {
			v = a;
			break;
		}
	}
	if (f)
		fclose(f);
	return v;
}

/* The record perf writes for the kernel (synthetic-events.c,
 * perf_event__synthesize_kernel_mmap): pgoff = the run-time _text, the
 * KASLR reference the readers relocate kernel IPs with. */
static int kernel_mmap(struct slt_pdw *w, uint64_t id, struct slt_error *err)
{
	uint64_t text = kallsyms_text();
	if (!text) {
		fprintf(stderr, "structlint: record: warning: /proc/kallsyms hides _text (kptr_restrict, or not root): kernel samples cannot be placed in a vmlinux (KASLR)\n");
		return 0;
	}
	/* header, pid, tid, start, len, pgoff, filename (24), then the
	 * sample_id trailer of ip_event()'s sample_type (sample_id_all): TID,
	 * TIME, CPU, IDENTIFIER */
	uint8_t rec[8 + 32 + 24 + 32] = {0};
	struct perf_event_header h = {PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, sizeof(rec)};
	uint32_t pid = UINT32_MAX, tid = 0;
	uint64_t len = UINT64_MAX - text, pgoff = text;
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &tid, 4);
	memcpy(rec + 16, &text, 8);
	memcpy(rec + 24, &len, 8);
	memcpy(rec + 32, &pgoff, 8);
	memcpy(rec + 40, "[kernel.kallsyms]_text", 23);
	memcpy(rec + 64, &pid, 4);
	memcpy(rec + 88, &id, 8);
	return slt_pdw_record(w, rec, sizeof(rec), err);
}

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	uint8_t *data;
	size_t size;
};

/* Copy every complete record of r into w (records may wrap), keeping the
 * mapped files' names in d for their build-ids. */
static int drain(struct ring *r, struct slt_pdw *w, struct rec_dsos *d,
		 struct slt_error *err)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	uint8_t rec[65536];
	int rc = 0;
	while (tail < head && !rc) {
		struct perf_event_header h;
		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = r->data[(tail + i) & (r->size - 1)];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		for (size_t i = 0; i < h.size; i++)
			rec[i] = r->data[(tail + i) & (r->size - 1)];
		rec_dsos_note(d, rec, h.size);
		rc = slt_pdw_record(w, rec, h.size, err);
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return rc;
}

static void no_pmu(const char *out)
{
	fprintf(stderr,
		"structlint: record: this machine's PMU offers no memory-access sampling "
		"(none of cpu/events/mem-loads, ibs_op, arm_spe_0 in " PMU_DIR "; virtual machines "
		"usually hide them): recording cpu-clock IP samples instead; "
		"`structlint report FILE NAME --samples %s` (FILE: the program, or vmlinux with -a) "
		"estimates member accesses from IP samples x static sites "
		"(measured memory samples need bare metal: `perf c2c record -- CMD`)\n", out);
}

static const char record_usage[] =
"usage: structlint record [-o FILE] [-a] [--ip] -- CMD [ARGS...]\n"
"\n"
"Run CMD and sample its user-space memory accesses (Intel mem-loads and\n"
"mem-stores, AMD IBS or Arm SPE, every 4000 events, all CPUs, children\n"
"included) into a perf.data for `structlint report FILE NAME --samples`.\n"
"Where the PMU has no memory sampling (most virtual machines), records\n"
"cpu-clock IP samples instead (10 kHz per CPU, with the mmap events that\n"
"place PIE programs and the kernel) and says so: report, suggest, check\n"
"and validate then estimate member accesses from IP samples x the static\n"
"access sites of FILE (give the program or vmlinux as FILE).  The\n"
"perf.data names the build-ids of the files mapped (and of the kernel\n"
"with -a): a report against another build of FILE is refused.\n"
"\n"
"  -o FILE     output file (default structlint.data)\n"
"  -a          all CPUs and the kernel while CMD runs (root or\n"
"              perf_event_paranoid <= 0; for a vmlinux FILE)\n"
"      --ip    cpu-clock IP samples even where memory events exist\n"
"  -h, --help  this help\n";

int cmd_record(int argc, char **argv)
{
	const char *out = "structlint.data";
	bool all = false, want_ip = false;
	int i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "-a")) {
			all = true;
		} else if (!strcmp(argv[i], "--ip")) {
			want_ip = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(record_usage, stdout);
			return SLT_EXIT_OK;
		} else {
			return cli_usage_error("record: unknown option '%s'", argv[i]);
		}
	}
	if (i >= argc)
		return cli_usage_error("record: no command given (structlint record [-o FILE] -- CMD ARGS)");
	struct ev evs[2];
	int n_ev = want_ip ? 0 : memory_events(evs);
	bool ip = n_ev == 0;
	if (ip) {
		if (!want_ip)
			no_pmu(out);
		n_ev = ip_event(evs, all);
	}
	for (int e = 0; e < n_ev; e++) {
		evs[e].attr.exclude_kernel = !all;
		evs[e].attr.inherit = !all;
		evs[e].attr.disabled = !all;
		evs[e].attr.enable_on_exec = !all;
		/* the records that place IPs and addresses: on one event */
		evs[e].attr.mmap = evs[e].attr.mmap2 = evs[e].attr.comm = e == 0;
		evs[e].attr.comm_exec = evs[e].attr.task = e == 0;
	}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1 || ncpu > 4096)
		ncpu = 1;
	/* the child waits on a pipe until the events are open, then execs;
	 * enable_on_exec starts counting at the exec */
	int go[2];
	if (pipe(go) < 0)
		return cli_usage_error("record: pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		return cli_usage_error("record: fork: %s", strerror(errno));
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[i], argv + i);
		fprintf(stderr, "structlint: record: cannot run %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	size_t n_rings = (size_t)n_ev * (size_t)ncpu;
	struct ring *rings = calloc(n_rings, sizeof(*rings));
	uint64_t *ids = calloc(n_rings, sizeof(*ids));
	struct pollfd *pfd = calloc(n_rings, sizeof(*pfd));
	long page = sysconf(_SC_PAGESIZE);
	int rc = SLT_EXIT_OK;
	struct slt_error err;
	slt_error_clear(&err);
	for (size_t k = 0; k < n_rings && rings && ids && pfd; k++) {
		int e = (int)(k / (size_t)ncpu), cpu = (int)(k % (size_t)ncpu);
		int fd = (int)syscall(SYS_perf_event_open, &evs[e].attr, all ? -1 : pid, cpu, -1,
				      PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "structlint: record: perf_event_open(%s, cpu %d): %s "
				"(check /proc/sys/kernel/perf_event_paranoid, or run as root)\n",
				evs[e].name, cpu, strerror(errno));
			rc = SLT_EXIT_ERROR;
			break;
		}
		size_t len = (size_t)page * (RING_PAGES + 1);
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			fprintf(stderr, "structlint: record: mmap ring: %s\n", strerror(errno));
			close(fd);
			rc = SLT_EXIT_ERROR;
			break;
		}
		rings[k] = (struct ring){ fd, m, (uint8_t *)m + page, (size_t)page * RING_PAGES };
		ioctl(fd, PERF_EVENT_IOC_ID, &ids[k]);
		pfd[k] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	if (!rings || !ids || !pfd)
		rc = cli_usage_error("record: out of memory");
	int ofd = -1;
	struct slt_pdw *w = NULL;
	if (rc == SLT_EXIT_OK) {
		ofd = open(out, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (ofd < 0 || slt_pdw_open(&w, ofd, 0, &err)) {
			fprintf(stderr, "structlint: %s: cannot write: %s\n", out, strerror(errno));
			rc = SLT_EXIT_ERROR;
		}
	}
	if (rc == SLT_EXIT_OK) {
		for (int e = 0; e < n_ev; e++)
			slt_pdw_add_event(w, &evs[e].attr, evs[e].name, ids + (size_t)e * (size_t)ncpu,
					  (size_t)ncpu);
		slt_pdw_set_info(w, (unsigned)ncpu, NULL, argc, argv);
		if (all && kernel_mmap(w, ids[0], &err))
			rc = cli_fail(&err);
		if (write(go[1], "g", 1) != 1)
			rc = SLT_EXIT_ERROR;
	}
	close(go[1]);
	int status = 0;
	struct rec_dsos dsos = {0};
	for (;;) {
		pid_t r = waitpid(pid, &status, rc == SLT_EXIT_OK ? WNOHANG : 0);
		for (size_t k = 0; rc == SLT_EXIT_OK && k < n_rings; k++)
			if (drain(&rings[k], w, &dsos, &err))
				rc = cli_fail(&err);
		if (r == pid || r < 0)
			break;
		poll(pfd, (nfds_t)n_rings, 100);
	}
	for (size_t k = 0; rings && k < n_rings; k++) {
		if (rings[k].meta)
			munmap(rings[k].meta, (size_t)page * (RING_PAGES + 1));
		if (rings[k].fd > 0)
			close(rings[k].fd);
	}
	/* the build-ids of what was mapped (and the kernel's with -a): a
	 * report against another build of a binary is then refused */
	if (w && rc == SLT_EXIT_OK && rec_dsos_write(&dsos, w, all))
		rc = cli_usage_error("record: out of memory");
	rec_dsos_free(&dsos);
	if (w && slt_pdw_close(w, &err) && rc == SLT_EXIT_OK)
		rc = cli_fail(&err);
	if (ofd >= 0)
		close(ofd);
	free(rings);
	free(ids);
	free(pfd);
	if (rc == SLT_EXIT_OK)
		fprintf(stderr, "structlint: record: wrote %s (%s exited %d)\n", out, argv[i],
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return rc;
}
