/* SPDX-License-Identifier: MIT */
/*
 * IP-sample weighting (structlint/weight.h): fixtures/weight/falseshare.c
 * built here -O2 -g as a PIE (gcc; clang too when present) and
 * fixtures/weight/kernel_like.c linked at the kernel's address with a
 * _text symbol; perf.data files written here from the fixtures' own
 * static sites (no timing: every sample is placed by the test):
 *   - MMAP2 relocation at a chosen load bias, per process, FORK
 *     inheritance, exec dropping the old image, samples of other DSOs and
 *     unknown processes left out;
 *   - the weighting: a sample anywhere in a basic block counts for every
 *     site of that block on the sample's CPU (skid inside the block does
 *     not matter), samples in blocks without sites count for nothing;
 *   - memory (ADDR) samples of a PIE relocated into link addresses;
 *   - the kernel: KASLR offset from the "[kernel.kallsyms]_text" mmap,
 *     kernel-mode samples only.
 */
#include <elf.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "samples/perf_data.h"
#include "structlint/access.h"
#include "structlint/weight.h"
#include "weight/weight_int.h"

static char dir[] = "/tmp/slt-weight-XXXXXX";
static char pie[600], kern[600], pie_clang[600];
static bool have_clang;

static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static const char *cc(int clang)
{
	const char *e = getenv(clang ? "CC_CLANG" : "CC_GCC");
	return e && *e ? e : clang ? "clang" : "gcc";
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(pie, sizeof(pie), "%s/falseshare", dir);
	snprintf(pie_clang, sizeof(pie_clang), "%s/falseshare-clang", dir);
	snprintf(kern, sizeof(kern), "%s/vmlinux-mini", dir);
	if (sh("%s -O2 -g -pie -fPIE -pthread -o %s fixtures/weight/falseshare.c", cc(0), pie))
		return -1;
	if (sh("%s -O2 -g -nostdlib -static -no-pie -fno-pic -mcmodel=kernel "
	       "-Wl,--build-id -Wl,-Ttext-segment=0xffffffff81000000 -Wl,--defsym=_text=0xffffffff81000000 "
	       "-o %s fixtures/weight/kernel_like.c", cc(0), kern))
		return -1;
	have_clang = sh("%s -O2 -g -pie -fPIE -pthread -o %s fixtures/weight/falseshare.c 2>/dev/null",
			cc(1), pie_clang) == 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf %s", dir);
	return 0;
}

/* ---- a perf.data written here ---- */

struct gen {
	struct slt_pdw *w;
	int fd;
	char path[700];
};

#define IP_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CPU)

static void gen_open_type(struct gen *g, const char *name, bool with_addr,
			  uint64_t type);

static void gen_open(struct gen *g, const char *name, bool with_addr)
{
	gen_open_type(g, name, with_addr, IP_TYPE);
}

static void gen_open_type(struct gen *g, const char *name, bool with_addr,
			  uint64_t type)
{
	struct slt_error err;
	slt_error_clear(&err);
	snprintf(g->path, sizeof(g->path), "%s/%s", dir, name);
	g->fd = open(g->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(g->fd >= 0);
	assert_int_equal(slt_pdw_open(&g->w, g->fd, 0, &err), 0);
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = with_addr ? PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = type | (with_addr ? PERF_SAMPLE_ADDR : 0);
	a.sample_id_all = 0;
	uint64_t id = 7;
	assert_true(slt_pdw_add_event(g->w, &a, with_addr ? "page-faults" : "cpu-clock", &id, 1) >= 0);
}

static void gen_rec(struct gen *g, const void *rec, size_t n)
{
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_pdw_record(g->w, rec, n, &err), 0);
}

/* PERF_RECORD_MMAP2 of file at start with pgoff (prot r-x). */
static void gen_mmap2_prot(struct gen *g, uint32_t pid, uint64_t start, uint64_t len,
			   uint64_t pgoff, const char *file, uint32_t prot);

static void gen_mmap2(struct gen *g, uint32_t pid, uint64_t start, uint64_t len,
		      uint64_t pgoff, const char *file)
{
	gen_mmap2_prot(g, pid, start, len, pgoff, file, 5);
}

static void gen_mmap2_prot(struct gen *g, uint32_t pid, uint64_t start, uint64_t len,
			   uint64_t pgoff, const char *file, uint32_t prot)
{
	uint8_t rec[512] = {0};
	size_t n = 72 + ((strlen(file) + 1 + 7) & ~(size_t)7);
	struct perf_event_header h = {PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, (uint16_t)n};
	uint32_t flags = 2;
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &pid, 4);
	memcpy(rec + 16, &start, 8);
	memcpy(rec + 24, &len, 8);
	memcpy(rec + 32, &pgoff, 8);
	memcpy(rec + 64, &prot, 4);
	memcpy(rec + 68, &flags, 4);
	memcpy(rec + 72, file, strlen(file));
	gen_rec(g, rec, n);
}

static void gen_kmmap(struct gen *g, uint64_t text_rt)
{
	uint8_t rec[72] = {0};
	struct perf_event_header h = {PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, sizeof(rec)};
	uint32_t pid = UINT32_MAX, tid = 0;
	uint64_t len = UINT64_MAX - text_rt;
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &tid, 4);
	memcpy(rec + 16, &text_rt, 8);
	memcpy(rec + 24, &len, 8);
	memcpy(rec + 32, &text_rt, 8);
	memcpy(rec + 40, "[kernel.kallsyms]_text", 23);
	gen_rec(g, rec, sizeof(rec));
}

static void gen_fork(struct gen *g, uint32_t pid, uint32_t ppid)
{
	uint8_t rec[32] = {0};
	struct perf_event_header h = {PERF_RECORD_FORK, 0, sizeof(rec)};
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &ppid, 4);
	memcpy(rec + 16, &pid, 4);
	memcpy(rec + 20, &ppid, 4);
	gen_rec(g, rec, sizeof(rec));
}

static void gen_exec(struct gen *g, uint32_t pid)
{
	uint8_t rec[32] = {0};
	struct perf_event_header h = {PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, sizeof(rec)};
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &pid, 4);
	memcpy(rec + 16, "other", 6);
	gen_rec(g, rec, sizeof(rec));
}

/* One sample: IP, pid/tid, cpu (and addr when the event has ADDR). */
static void gen_sample_tid(struct gen *g, bool kernel, uint64_t ip, uint32_t pid,
			   uint32_t tid, uint32_t cpu, const uint64_t *addr)
{
	uint64_t rec[6];
	size_t n = 0;
	struct perf_event_header h = {PERF_RECORD_SAMPLE,
				      kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, 0};
	rec[++n] = ip;
	rec[++n] = (uint64_t)pid | (uint64_t)tid << 32;
	if (addr)
		rec[++n] = *addr;
	rec[++n] = cpu;
	h.size = (uint16_t)(8 * (n + 1));
	memcpy(rec, &h, 8);
	gen_rec(g, rec, h.size);
}

/* A sample of the main thread (tid = pid). */
static void gen_sample(struct gen *g, bool kernel, uint64_t ip, uint32_t pid,
		       uint32_t cpu, const uint64_t *addr)
{
	gen_sample_tid(g, kernel, ip, pid, pid, cpu, addr);
}

/* A sample of an event without PERF_SAMPLE_CPU: IP, pid, tid. */
static void gen_sample_notcpu(struct gen *g, uint64_t ip, uint32_t pid, uint32_t tid)
{
	uint64_t rec[3];
	struct perf_event_header h = {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(rec)};
	memcpy(rec, &h, 8);
	rec[1] = ip;
	rec[2] = (uint64_t)pid | (uint64_t)tid << 32;
	gen_rec(g, rec, sizeof(rec));
}

static void gen_close(struct gen *g)
{
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_pdw_close(g->w, &err), 0);
	close(g->fd);
}

/* ---- the fixture's static sites ---- */

struct sites {
	uint64_t hits_load, hits_store, limit_load; /* link PCs */
	uint8_t limit_len;
	uint64_t text_vaddr, text_off;   /* the r-x PT_LOAD */
};

static void find_sites(const char *bin, struct sites *o)
{
	struct slt_access_map *m;
	struct slt_error err;
	slt_error_clear(&err);
	const char *types[] = {"stats"};
	struct slt_access_opts ao = {.types = types, .n_types = 1};
	assert_int_equal(slt_access_build(bin, &ao, &m, &err), 0);
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < m->n_sites; i++) {
		const struct slt_access_site *s = &m->sites[i];
		/* the loops' own instructions, not the calls into them
		 * (a call-derived site gets only the samples at its call) */
		if (strcmp(s->type, "stats") || s->via == SLT_VIA_CALL)
			continue;
		if (s->offset == 0 && (s->kind & SLT_ACCESS_STORE))
			o->hits_store = s->pc;
		if (s->offset == 0 && s->kind == SLT_ACCESS_LOAD)
			o->hits_load = s->pc;
		if (s->offset == 8 && s->kind == SLT_ACCESS_LOAD) {
			o->limit_load = s->pc;
			o->limit_len = s->insn_len;
		}
	}
	slt_access_free(m);
	assert_true(o->hits_store && o->limit_load);
	struct ipw_image im;
	assert_int_equal(ipw_image_open(&im, bin, &err), 0);
	for (size_t i = 0; i < im.n_seg; i++)
		if (im.seg[i].vaddr <= o->limit_load &&
		    o->limit_load < im.seg[i].vaddr + im.seg[i].filesz) {
			o->text_vaddr = im.seg[i].vaddr;
			o->text_off = im.seg[i].off;
		}
	ipw_image_free(&im);
	assert_true(o->text_off);
}

/* ---- collecting the estimates ---- */

struct got {
	uint64_t ld[2][2], st[2][2];  /* [member hits/limit][cpu] */
	uint64_t other;               /* records of other offsets/cpus */
	uint64_t mem, mem_addr_sum;
};

static int collect(void *ctx, const struct slt_sample *s)
{
	struct got *g = ctx;
	if (s->flags & SLT_SAMPLE_ADDR) {
		g->mem++;
		g->mem_addr_sum += s->addr;
		return 0;
	}
	assert_true(s->flags & SLT_SAMPLE_TYPE);
	assert_string_equal(s->type_name, "stats");
	int m = s->type_offset == 0 ? 0 : s->type_offset == 8 ? 1 : -1;
	if (m < 0 || s->cpu < 0 || s->cpu > 1) {
		g->other++;
		return 0;
	}
	g->ld[m][s->cpu] += s->loads;
	g->st[m][s->cpu] += s->stores;
	return 0;
}

static void weigh(const char *bin, const char *data, struct got *g,
		  struct slt_ipw_info *wi)
{
	const char *types[] = {"stats"};
	struct slt_ipw_opts o = {.binary = bin, .types = types, .n_types = 1};
	struct slt_error err;
	slt_error_clear(&err);
	memset(g, 0, sizeof(*g));
	int rc = slt_ipw_read(data, &o, collect, g, NULL, wi, &err);
	if (rc)
		fprintf(stderr, "%s: %s\n", err.file, err.message);
	assert_int_equal(rc, 0);
}

/* Writer samples on CPU 0 (in count()'s loop block, at the store and at
 * the instruction after the load: skid), reader samples on CPU 1 (in
 * scan()'s loop), all at a load bias; noise that must not count. */
static void weighting_case(const char *bin)
{
	struct sites st;
	find_sites(bin, &st);
	const uint64_t bias = 0x55d0c0de0000ull;
	struct gen g;
	gen_open(&g, "ip.data", false);
	gen_mmap2(&g, 100, bias + st.text_vaddr, 0x2000, st.text_off, bin);
	for (int i = 0; i < 30; i++)
		gen_sample(&g, false, bias + st.hits_store, 100, 0, NULL);
	for (int i = 0; i < 10; i++)   /* skid: the next instruction */
		gen_sample_tid(&g, false, bias + st.limit_load + st.limit_len, 100, 101, 1, NULL);
	for (int i = 0; i < 7; i++)
		gen_sample_tid(&g, false, bias + st.limit_load, 100, 101, 1, NULL);
	/* noise: another DSO, an unknown process, kernel mode */
	gen_sample(&g, false, 0x7f0000001000ull, 100, 0, NULL);
	gen_sample(&g, false, bias + st.hits_store, 999, 0, NULL);
	gen_sample(&g, true, 0xffffffff81000000ull, 100, 0, NULL);
	gen_close(&g);

	struct got got;
	struct slt_ipw_info wi;
	weigh(bin, g.path, &got, &wi);
	assert_true(wi.estimated);
	assert_int_equal(wi.ip_samples, 50);
	assert_int_equal(wi.ip_other, 3);
	assert_int_equal(wi.ip_in_binary, 47);
	assert_int_equal(wi.ip_on_blocks, 47);
	assert_int_equal(wi.mmaps, 1);
	assert_true(wi.by_thread);
	/* every site of a sample's block gets the sample, on its writer */
	struct ipw_blocks bl;
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_access_map *m;
	const char *types[] = {"stats"};
	struct slt_access_opts ao = {.types = types, .n_types = 1};
	assert_int_equal(slt_access_build(bin, &ao, &m, &err), 0);
	assert_int_equal(ipw_blocks_build(bin, m, types, 1, &bl, &err), 0);
	long bw = ipw_blocks_find(&bl, st.hits_store), br = ipw_blocks_find(&bl, st.limit_load);
	assert_true(bw >= 0 && br >= 0 && bw != br);
	assert_int_equal(ipw_blocks_find(&bl, st.limit_load + st.limit_len), br);
	uint64_t w_ld = 0, w_st = 0, r_ld = 0;
	for (uint32_t k = 0; k < bl.b[bw].n_sites; k++) {
		const struct slt_access_site *s = bl.sites[bl.b[bw].site0 + k];
		w_ld += s->offset == 0 && (s->kind & SLT_ACCESS_LOAD);
		w_st += s->offset == 0 && (s->kind & SLT_ACCESS_STORE);
	}
	for (uint32_t k = 0; k < bl.b[br].n_sites; k++)
		r_ld += bl.sites[bl.b[br].site0 + k]->offset == 8;
	assert_true(w_st >= 1 && r_ld >= 1);
	assert_int_equal(got.st[0][0], 30 * w_st);
	assert_int_equal(got.ld[0][0], 30 * w_ld);
	assert_int_equal(got.ld[1][1], 17 * r_ld);
	assert_int_equal(got.st[1][1], 0);
	assert_int_equal(got.ld[1][0] + got.st[0][1] + got.ld[0][1], 0);
	assert_int_equal(got.other, 0);
	if (bin == pie) {   /* gcc -O2 (objdump): one site each per loop block */
		assert_int_equal(got.st[0][0], 30);
		assert_int_equal(got.ld[0][0], 30);
		assert_int_equal(got.ld[1][1], 17);
	}
	ipw_blocks_free(&bl);
	slt_access_free(m);
	assert_non_null(strstr(wi.basis, SLT_IPW_BASIS));
}

static void test_weighting_gcc(void **state)
{
	(void)state;
	weighting_case(pie);
}

static void test_weighting_clang(void **state)
{
	(void)state;
	if (!have_clang)
		skip();
	weighting_case(pie_clang);
}

/* Samples without a CPU (perf record -- CMD): threads stand for CPUs,
 * numbered in order of appearance, and the basis says so. */
static void test_by_thread(void **state)
{
	(void)state;
	struct sites st;
	find_sites(pie, &st);
	const uint64_t bias = 0x561100000000ull;
	struct gen g;
	gen_open_type(&g, "nocpu.data", false, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	gen_mmap2(&g, 500, bias + st.text_vaddr, 0x2000, st.text_off, pie);
	for (int i = 0; i < 4; i++) {
		gen_sample_notcpu(&g, bias + st.limit_load, 500, 502);   /* thread 0 */
		gen_sample_notcpu(&g, bias + st.hits_store, 500, 501);   /* thread 1 */
	}
	gen_close(&g);
	struct got got;
	struct slt_ipw_info wi;
	weigh(pie, g.path, &got, &wi);
	assert_true(wi.by_thread);
	assert_non_null(strstr(wi.basis, "threads"));
	assert_int_equal(got.ld[1][0], 4);   /* tid 502 came first */
	assert_int_equal(got.st[0][1], 4);
	assert_int_equal(got.st[0][0] + got.ld[1][1], 0);
}

/* The writer is the thread, not the CPU: a thread that migrated between
 * CPUs 0 and 1 is one writer (the old per-CPU charge made it two, and its
 * own stores "true sharing"); two threads on one CPU are two writers. */
static void test_writer_is_thread(void **state)
{
	(void)state;
	struct sites st;
	find_sites(pie, &st);
	const uint64_t bias = 0x561100000000ull;
	struct gen g;
	gen_open(&g, "migrate.data", false);
	gen_mmap2(&g, 700, bias + st.text_vaddr, 0x2000, st.text_off, pie);
	for (uint32_t i = 0; i < 8; i++) {
		gen_sample_tid(&g, false, bias + st.hits_store, 700, 701, i & 1, NULL);
		gen_sample_tid(&g, false, bias + st.limit_load, 700, 702, 5, NULL);
		gen_sample_tid(&g, false, bias + st.limit_load, 700, 702, 5, NULL);
	}
	gen_close(&g);
	struct got got;
	struct slt_ipw_info wi;
	weigh(pie, g.path, &got, &wi);
	assert_true(wi.by_thread);
	assert_non_null(strstr(wi.basis, "threads (tid)"));
	assert_true(got.st[0][0] >= 8);        /* tid 701: writer 0 alone */
	assert_int_equal(got.st[0][1], 0);
	assert_true(got.ld[1][1] >= 16);       /* tid 702: writer 1 */
	assert_int_equal(got.ld[1][0], 0);
	assert_int_equal(got.other, 0);

	/* two threads on CPU 3: two writers */
	gen_open(&g, "onecpu.data", false);
	gen_mmap2(&g, 700, bias + st.text_vaddr, 0x2000, st.text_off, pie);
	for (uint32_t i = 0; i < 4; i++) {
		gen_sample_tid(&g, false, bias + st.hits_store, 700, 701, 3, NULL);
		gen_sample_tid(&g, false, bias + st.limit_load, 700, 702, 3, NULL);
	}
	gen_close(&g);
	weigh(pie, g.path, &got, &wi);
	assert_true(got.st[0][0] >= 4 && got.ld[1][1] >= 4);
	assert_int_equal(got.st[0][1] + got.ld[1][0] + got.other, 0);
}

/* A sample outside every block with sites counts for nothing; a perf.data
 * without the binary's mmap places nothing. */
static void test_no_mmap(void **state)
{
	(void)state;
	struct sites st;
	find_sites(pie, &st);
	struct gen g;
	gen_open(&g, "nommap.data", false);
	gen_sample(&g, false, st.hits_store, 1, 0, NULL);
	gen_close(&g);
	struct got got;
	struct slt_ipw_info wi;
	weigh(pie, g.path, &got, &wi);
	assert_int_equal(wi.ip_samples, 1);
	assert_int_equal(wi.ip_in_binary, 0);
	assert_int_equal(wi.mmaps, 0);
	assert_int_equal(got.st[0][0] + got.ld[1][1], 0);
}

/* The image relocation itself: bias per pid, FORK inherits, exec drops,
 * mmaps of another file are not the binary's. */
static void test_relocation(void **state)
{
	(void)state;
	struct sites st;
	find_sites(pie, &st);
	struct ipw_image im;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(ipw_image_open(&im, pie, &err), 0);
	assert_false(im.kernel);
	uint8_t rec[512] = {0};
	const uint64_t b1 = 0x5600000000ull, b2 = 0x7700000000ull;
	/* MMAP2 built by hand: pid 10 at b1, pid 20 at b2, pid 30 another file */
	struct { uint32_t pid; uint64_t bias; const char *file; } mm[] = {
		{10, b1, pie}, {20, b2, im.real}, {30, b1, "/usr/lib/libc.so.6"},
	};
	for (size_t k = 0; k < 3; k++) {
		size_t n = 72 + ((strlen(mm[k].file) + 8) & ~(size_t)7);
		memset(rec, 0, sizeof(rec));
		struct perf_event_header h = {PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, (uint16_t)n};
		uint64_t start = mm[k].bias + st.text_vaddr, len = 0x1000;
		memcpy(rec, &h, 8);
		memcpy(rec + 8, &mm[k].pid, 4);
		memcpy(rec + 16, &start, 8);
		memcpy(rec + 24, &len, 8);
		memcpy(rec + 32, &st.text_off, 8);
		memcpy(rec + 72, mm[k].file, strlen(mm[k].file));
		assert_int_equal(ipw_image_record(&im, rec, n), 0);
	}
	uint64_t out = 0;
	assert_true(ipw_image_reloc(&im, 10, false, b1 + st.limit_load, &out));
	assert_int_equal(out, st.limit_load);
	assert_true(ipw_image_reloc(&im, 20, false, b2 + st.hits_store, &out));
	assert_int_equal(out, st.hits_store);
	assert_false(ipw_image_reloc(&im, 30, false, b1 + st.limit_load, &out));
	assert_false(ipw_image_reloc(&im, 10, true, b1 + st.limit_load, &out));
	/* outside the image: [lo, hi) of the PT_LOADs */
	assert_false(ipw_image_reloc(&im, 10, false, b1 + im.hi + 4096, &out));
	/* fork: 11 inherits 10; exec of 10 drops it, 11 keeps it */
	uint8_t fk[32] = {0};
	struct perf_event_header fh = {PERF_RECORD_FORK, 0, 32};
	uint32_t c = 11, p = 10;
	memcpy(fk, &fh, 8);
	memcpy(fk + 8, &c, 4);
	memcpy(fk + 12, &p, 4);
	assert_int_equal(ipw_image_record(&im, fk, sizeof(fk)), 0);
	assert_true(ipw_image_reloc(&im, 11, false, b1 + st.limit_load, &out));
	uint8_t cm[32] = {0};
	struct perf_event_header ch = {PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, 32};
	memcpy(cm, &ch, 8);
	memcpy(cm + 8, &p, 4);
	assert_int_equal(ipw_image_record(&im, cm, sizeof(cm)), 0);
	assert_false(ipw_image_reloc(&im, 10, false, b1 + st.limit_load, &out));
	assert_true(ipw_image_reloc(&im, 11, false, b1 + st.limit_load, &out));
	assert_true(ipw_image_reloc(&im, 20, false, b2 + st.limit_load, &out));
	/* short and unterminated records are ignored, never read past */
	assert_int_equal(ipw_image_record(&im, rec, 40), 0);
	memset(rec + 72, 'x', 100);
	assert_int_equal(ipw_image_record(&im, rec, 120), 0);
	ipw_image_free(&im);
}

/* Memory (ADDR) samples of a PIE: the data address and the IP come back
 * in link addresses (issue 11: "none of the N samples fell on X"). */
static void test_mem_relocated(void **state)
{
	(void)state;
	struct sites st;
	find_sites(pie, &st);
	const uint64_t bias = 0x5612340000ull;
	struct gen g;
	gen_open(&g, "pf.data", true);
	gen_fork(&g, 41, 40);           /* before the mmap: nothing yet */
	gen_mmap2(&g, 40, bias + st.text_vaddr, 0x2000, st.text_off, pie);
	gen_fork(&g, 42, 40);
	uint64_t a1 = bias + st.text_vaddr + 16, a2 = 0x1000;  /* in / not in */
	gen_sample(&g, false, bias + st.limit_load, 42, 0, &a1);
	gen_sample(&g, false, bias + st.limit_load, 40, 0, &a2);
	gen_exec(&g, 40);
	gen_sample(&g, false, bias + st.limit_load, 40, 0, &a1);
	gen_close(&g);
	struct got got;
	struct slt_ipw_info wi;
	weigh(pie, g.path, &got, &wi);
	assert_false(wi.estimated);
	assert_int_equal(wi.mem_samples, 3);
	assert_int_equal(wi.mem_relocated, 1);
	assert_int_equal(got.mem, 3);
	assert_int_equal(got.mem_addr_sum, (st.text_vaddr + 16) + a2 + a1);
}

/* The mmap events a PIE's exec really produces (perf record -d of
 * falseshare): the file at offset 0 (r--), each segment from its
 * page-aligned offset, so the data segment's first page is the same file
 * page as the end of the one before, and ld.so's RELRO mprotect reports
 * that page again read-only.  The first mapping places the image; the
 * later ones must not move it: a .bss address comes back exactly. */
static void test_relro_mprotect(void **state)
{
	(void)state;
	struct ipw_image im;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(ipw_image_open(&im, pie, &err), 0);
	long rw = -1;
	for (size_t i = 0; i < im.n_seg; i++)
		if (im.seg[i].flags & PF_W)
			rw = (long)i;
	assert_true(rw > 0);
	uint64_t rwv = im.seg[rw].vaddr, rwo = im.seg[rw].off, rwmem = im.seg[rw].memsz;
	ipw_image_free(&im);
	const uint64_t bias = 0x560e4360b000ull;
	struct gen g;
	gen_open(&g, "relro.data", true);
	gen_mmap2_prot(&g, 60, bias, 0x9000, 0, pie, 1);                       /* r-- */
	gen_mmap2_prot(&g, 60, bias + (rwv & ~0xfffull), 0x2000, rwo & ~0xfffull, pie, 3);
	gen_mmap2_prot(&g, 60, bias + (rwv & ~0xfffull), 0x1000, rwo & ~0xfffull, pie, 1);
	uint64_t in_bss = bias + rwv + rwmem - 8;
	gen_sample(&g, false, bias + 0x1000, 60, 0, &in_bss);
	gen_close(&g);
	struct got got;
	struct slt_ipw_info wi;
	weigh(pie, g.path, &got, &wi);
	assert_int_equal(wi.mem_relocated, 1);
	assert_int_equal(got.mem_addr_sum, rwv + rwmem - 8);
}

/* The kernel: KASLR offset from the kernel mmap; only kernel-mode
 * samples; the atomic RMW of mm_count counts in loads, stores and rmw. */
static void test_kernel(void **state)
{
	(void)state;
	struct slt_access_map *m;
	struct slt_error err;
	slt_error_clear(&err);
	const char *types[] = {"mini_mm"};
	struct slt_access_opts ao = {.types = types, .n_types = 1};
	assert_int_equal(slt_access_build(kern, &ao, &m, &err), 0);
	uint64_t rmw = 0, pgd = 0;
	for (size_t i = 0; i < m->n_sites; i++) {
		if (m->sites[i].kind & SLT_ACCESS_ATOMIC)
			rmw = m->sites[i].pc;
		else if (m->sites[i].offset == 96)
			pgd = m->sites[i].pc;
	}
	assert_true(rmw && pgd);
	const uint64_t koff = 0x1e200000;
	struct gen g;
	gen_open(&g, "k.data", false);
	gen_kmmap(&g, 0xffffffff81000000ull + koff);
	for (int i = 0; i < 5; i++)
		gen_sample(&g, true, rmw + koff, 0, 3, NULL);
	gen_sample(&g, true, pgd + koff, 0, 2, NULL);
	gen_sample(&g, false, pgd + koff, 1, 2, NULL);   /* user mode */
	gen_sample(&g, true, pgd, 0, 2, NULL);           /* unrelocated */
	gen_close(&g);
	struct slt_ipw_opts o = {.binary = kern, .types = types, .n_types = 1, .map = m};
	struct slt_ipw_info wi;
	int rc = slt_ipw_read(g.path, &o, NULL, NULL, NULL, &wi, &err);
	assert_int_equal(rc, 0);
	assert_true(wi.kernel);
	assert_true(wi.kernel_mmap);
	assert_int_equal(wi.kaslr_offset, (int64_t)koff);
	assert_int_equal(wi.ip_samples, 8);
	assert_int_equal(wi.ip_in_binary, 6);
	assert_int_equal(wi.ip_on_blocks, 6);
	assert_int_equal(wi.site_rmw, 5);
	assert_int_equal(wi.site_loads, 6);
	assert_int_equal(wi.site_stores, 5);

	/* the build-id table names [kernel.kallsyms] with another build-id
	 * (perf record -a on another kernel): refused, naming both */
	gen_open(&g, "kother.data", false);
	uint8_t bid[56] = {0};
	struct perf_event_header bh = {SLT_PERF_RECORD_HEADER_BUILD_ID,
				       PERF_RECORD_MISC_KERNEL | (1u << 15), sizeof(bid)};
	memcpy(bid, &bh, 8);
	memset(bid + 8, 0xff, 4);          /* pid -1 */
	memset(bid + 12, 0xab, 20);
	bid[32] = 20;
	memcpy(bid + 36, "[kernel.kallsyms]", 18);
	gen_rec(&g, bid, sizeof(bid));
	gen_kmmap(&g, 0xffffffff81000000ull + koff);
	gen_sample(&g, true, rmw + koff, 0, 3, NULL);
	gen_close(&g);
	slt_error_clear(&err);
	rc = slt_ipw_read(g.path, &o, NULL, NULL, NULL, &wi, &err);
	assert_int_equal(rc, SLT_EUSAGE);
	assert_non_null(strstr(err.message, "[kernel.kallsyms] has build-id abababab"));
	assert_non_null(strstr(err.message, "not the binary that ran"));
	slt_access_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weighting_gcc),
		cmocka_unit_test(test_weighting_clang),
		cmocka_unit_test(test_no_mmap),
		cmocka_unit_test(test_by_thread),
		cmocka_unit_test(test_writer_is_thread),
		cmocka_unit_test(test_relocation),
		cmocka_unit_test(test_mem_relocated),
		cmocka_unit_test(test_relro_mprotect),
		cmocka_unit_test(test_kernel),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
