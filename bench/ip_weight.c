/* SPDX-License-Identifier: MIT */
/*
 * IP-sample weighting bench helper (bench/weight.sh).
 *   ip_weight gen BINARY STRUCT N OUT   write a perf.data of N cpu-clock IP
 *       samples (IP|TID|TIME|CPU|PERIOD|IDENTIFIER) of one process of
 *       BINARY at a load bias (its MMAP2 first; a vmlinux: kernel-mode
 *       samples at a KASLR offset after perf's kernel mmap): half on
 *       STRUCT's access sites, half spread over the rest of its code
 *       (the text segment), CPUs 0..3
 *   ip_weight read BINARY STRUCT DATA   build the access map (timed apart),
 *       then slt_ipw_read() over DATA (the weighting step: the perf.data
 *       read twice, blocks decoded, estimates handed out); prints
 *       "samples SECONDS" of the weighting step and the counts
 */
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "samples/perf_data.h"
#include "structlint/access.h"
#include "structlint/weight.h"
#include "weight/weight_int.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static int die(const struct slt_error *e)
{
	fprintf(stderr, "ip_weight: %s: %s\n", e->file, e->message);
	return 1;
}

static int gen(const char *bin, const char *type, uint64_t n, const char *out)
{
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_access_map *m;
	struct slt_access_opts ao = {.types = &type, .n_types = 1};
	if (slt_access_build(bin, &ao, &m, &err))
		return die(&err);
	struct ipw_image im;
	if (ipw_image_open(&im, bin, &err))
		return die(&err);
	size_t text = 0;
	for (size_t i = 0; i < im.n_seg; i++)
		if (m->n_sites && im.seg[i].vaddr <= m->sites[0].pc &&
		    m->sites[0].pc < im.seg[i].vaddr + im.seg[i].filesz)
			text = i;
	/* user space: an MMAP2 of the text segment at a load bias; a vmlinux:
	 * perf's [kernel.kallsyms]_text mmap at a KASLR offset */
	const uint64_t bias = im.kernel ? 0x1e400000ull : 0x55e0aa000000ull;
	int fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct slt_pdw *w;
	if (fd < 0 || slt_pdw_open(&w, fd, 0, &err))
		return die(&err);
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	uint64_t id = 1;
	slt_pdw_add_event(w, &a, "cpu-clock", &id, 1);
	slt_pdw_set_info(w, 4, NULL, 0, NULL);
	uint8_t rec[600] = {0};
	uint32_t pid = 4242;
	if (im.kernel) {
		struct perf_event_header h = {PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, 72};
		uint32_t kp = UINT32_MAX;
		uint64_t start = im.text + bias, len = UINT64_MAX - start;
		memcpy(rec, &h, 8);
		memcpy(rec + 8, &kp, 4);
		memcpy(rec + 16, &start, 8);
		memcpy(rec + 24, &len, 8);
		memcpy(rec + 32, &start, 8);
		memcpy(rec + 40, "[kernel.kallsyms]_text", 23);
		if (slt_pdw_record(w, rec, 72, &err))
			return die(&err);
	} else {
		size_t fl = strlen(im.real) + 1, rn = 72 + ((fl + 7) & ~(size_t)7);
		struct perf_event_header h = {PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, (uint16_t)rn};
		uint64_t start = bias + im.seg[text].vaddr, len = im.seg[text].filesz;
		uint64_t pg = im.seg[text].off;
		uint32_t prot = 5;
		memcpy(rec, &h, 8);
		memcpy(rec + 8, &pid, 4);
		memcpy(rec + 12, &pid, 4);
		memcpy(rec + 16, &start, 8);
		memcpy(rec + 24, &len, 8);
		memcpy(rec + 32, &pg, 8);
		memcpy(rec + 64, &prot, 4);
		memcpy(rec + 72, im.real, fl);
		if (slt_pdw_record(w, rec, rn, &err))
			return die(&err);
	}
	/* samples: IDENTIFIER, IP, TID, TIME, CPU, PERIOD (the kernel's order) */
	for (uint64_t i = 0; i < n; i++) {
		uint64_t r[7];
		struct perf_event_header h = {PERF_RECORD_SAMPLE, im.kernel ? PERF_RECORD_MISC_KERNEL :
					      PERF_RECORD_MISC_USER, sizeof(r)};
		memcpy(r, &h, 8);
		r[1] = 1;
		if ((i & 1) && m->n_sites)
			r[2] = bias + m->sites[(i / 2) % m->n_sites].pc;
		else
			r[2] = bias + im.seg[text].vaddr + (i * 7919) % im.seg[text].filesz;
		r[3] = (uint64_t)pid | (uint64_t)(pid + (i & 1)) << 32;
		r[4] = i;
		r[5] = i & 3;
		r[6] = 100000;
		if (slt_pdw_record(w, r, sizeof(r), &err))
			return die(&err);
	}
	if (slt_pdw_close(w, &err))
		return die(&err);
	close(fd);
	ipw_image_free(&im);
	slt_access_free(m);
	return 0;
}

static int count(void *ctx, const struct slt_sample *s)
{
	((uint64_t *)ctx)[0]++;
	((uint64_t *)ctx)[1] += s->loads + s->stores;
	return 0;
}

static int rd(const char *bin, const char *type, const char *data)
{
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_access_map *m;
	struct slt_access_opts ao = {.types = &type, .n_types = 1};
	double t0 = now();
	if (slt_access_build(bin, &ao, &m, &err))
		return die(&err);
	double t1 = now();
	struct slt_ipw_opts o = {.binary = bin, .types = &type, .n_types = 1, .map = m};
	struct slt_ipw_info wi;
	uint64_t got[2] = {0, 0};
	if (slt_ipw_read(data, &o, count, got, NULL, &wi, &err))
		return die(&err);
	double t2 = now();
	printf("%" PRIu64 " %.6f\n", wi.ip_samples, t2 - t1);
	fprintf(stderr, "map %.3f s; %" PRIu64 " IP samples, %" PRIu64 " in the binary, %" PRIu64
		" on %" PRIu64 " blocks; %" PRIu64 " records, %" PRIu64 " accesses estimated\n",
		t1 - t0, wi.ip_samples, wi.ip_in_binary, wi.ip_on_blocks, wi.n_blocks, got[0], got[1]);
	slt_access_free(m);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "gen"))
		return gen(argv[2], argv[3], strtoull(argv[4], NULL, 0), argv[5]);
	if (argc == 5 && !strcmp(argv[1], "read"))
		return rd(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: ip_weight gen BINARY STRUCT N OUT | read BINARY STRUCT DATA\n");
	return 2;
}
