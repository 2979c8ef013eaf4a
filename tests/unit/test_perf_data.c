/* SPDX-License-Identifier: MIT */
/*
 * perf.data reader tests.
 *  - real files: `perf record -d --sample-cpu -e page-faults` run at test
 *    time (file and pipe mode), with `perf script -F addr,ip,cpu,tid` as
 *    the oracle for every sample (skipped, exit 77, without a usable perf);
 *  - files from the writer for every single sample_type bit and many
 *    combinations, in file, pipe, compressed and compressed-pipe mode,
 *    read back field by field, and read by `perf script` as a second
 *    opinion on the writer;
 *  - edge cases: truncation at every length, unknown record types, big
 *    counts, zero samples, two events (IDENTIFIER and ID), both
 *    sample_id_all settings, unknown ids, byte-swapped magic, a real pipe;
 *  - slt_data_src_decode on the data_src values of the perf 6.1 fixture.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "samples/perf_data.h"
#include "structlint/samples.h"

struct got {
	struct slt_sample *v;
	size_t n, cap;
	char event[8][64];
};

static int collect(void *ctx, const struct slt_sample *s)
{
	struct got *g = ctx;
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 256;
		g->v = realloc(g->v, g->cap * sizeof(*g->v));
		assert_non_null(g->v);
	}
	g->v[g->n] = *s;
	g->v[g->n].event = NULL;
	if (s->event)   /* keep the first distinct names */
		for (int i = 0; i < 8; i++) {
			if (!strcmp(g->event[i], s->event))
				break;
			if (!g->event[i][0]) {
				snprintf(g->event[i], 64, "%s", s->event);
				break;
			}
		}
	g->n++;
	return 0;
}

static char tmpdir[256];

static void mkpath(char *buf, size_t n, const char *name)
{
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/slt-perf-XXXXXX");
		assert_non_null(mkdtemp(tmpdir));
	}
	snprintf(buf, n, "%s/%s", tmpdir, name);
}

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return b;
}

/* ---- data_src ---- */

static void test_data_src(void **state)
{
	struct slt_data_src d;
	/* values as printed by perf 6.1 script in
	 * fixtures/samples/c2c/perf6.1-local/perf_script.txt */
	slt_data_src_decode(0x184, &d);          /* OP STORE|LVL L1 miss */
	assert_true(d.store && !d.load && !d.l1_hit && !d.hitm);
	slt_data_src_decode(0x144, &d);          /* OP STORE|LVL L1 hit */
	assert_true(d.store && d.l1_hit);
	slt_data_src_decode(0x100142, &d);       /* OP LOAD|LVL L1 hit|SNP None */
	assert_true(d.load && d.l1_hit && !d.hitm && !d.remote);
	slt_data_src_decode(0x808042, &d);       /* Remote Cache (1 hop) hit|HitM */
	assert_true(d.load && d.hitm && d.remote && !d.l1_hit);
	slt_data_src_decode(0x800842, &d);       /* L3 hit|SNP HitM */
	assert_true(d.load && d.hitm && !d.remote);
	/* peer: L2 hit with snoopx peer (AMD/Arm); remote peer via mem_remote */
	uint64_t peer = PERF_MEM_OP_LOAD << PERF_MEM_OP_SHIFT |
			(uint64_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_L2) << PERF_MEM_LVL_SHIFT |
			(uint64_t)PERF_MEM_SNOOPX_PEER << PERF_MEM_SNOOPX_SHIFT;
	slt_data_src_decode(peer, &d);
	assert_true(d.load && d.peer && !d.remote && !d.hitm);
	slt_data_src_decode(peer | (uint64_t)PERF_MEM_REMOTE_REMOTE << PERF_MEM_REMOTE_SHIFT, &d);
	assert_true(d.peer && d.remote);
	/* remote bit with hops is not "remote" (power: same node) */
	slt_data_src_decode(peer | (uint64_t)PERF_MEM_REMOTE_REMOTE << PERF_MEM_REMOTE_SHIFT |
			    (uint64_t)PERF_MEM_HOPS_0 << PERF_MEM_HOPS_SHIFT | 1ull << PERF_MEM_HOPS_SHIFT, &d);
	assert_false(d.remote);
	slt_data_src_decode((uint64_t)PERF_MEM_LOCK_LOCKED << PERF_MEM_LOCK_SHIFT | 0x144, &d);
	assert_true(d.locked && d.store);
	/* PERF_MEM_NA (what software events such as page faults carry) */
	slt_data_src_decode(0x5080021, &d);
	assert_false(d.load || d.store || d.hitm);
}

/* ---- generated files ---- */

enum { M_FILE, M_PIPE, M_ZFILE, M_ZPIPE, M_N };
static const unsigned mode_flags[M_N] = { 0, SLT_PDW_PIPE, SLT_PDW_COMPRESS,
					  SLT_PDW_PIPE | SLT_PDW_COMPRESS };

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void fill_sample(struct slt_pdw_sample *s, const struct perf_event_attr *a,
			uint64_t i, uint64_t *scratch)
{
	memset(s, 0, sizeof(*s));
	for (int k = 0; k < 64; k++)
		scratch[k] = rnd();
	s->id = 1000;
	s->ip = 0xffffffff81000000ull + i * 16;
	s->pid = 100 + (uint32_t)(i % 7);
	s->tid = 200 + (uint32_t)(i % 5);
	s->time = 1000000 + i;
	s->addr = 0x7f0000001000ull + i * 8;
	s->stream_id = 1000;
	s->cpu = (uint32_t)(i % 3);
	s->period = 1;
	s->n_read = slt_pdw_read_words(a->read_format, 2);
	if (a->read_format & PERF_FORMAT_GROUP)
		scratch[0] = 2;   /* nr */
	s->read = scratch;
	s->n_callchain = i % 4;
	s->callchain = scratch;
	s->raw = scratch;
	s->raw_size = (uint32_t)(i % 13);
	s->n_branch = i % 3;
	s->branch = scratch;
	s->branch_cntr = scratch;
	s->regs_user_abi = i % 2;
	s->regs_user = scratch;
	s->stack = scratch;
	s->stack_size = (i % 2) * 24;
	s->stack_dyn_size = 8;
	s->weight = 30 + i % 100;
	s->data_src = (i % 2) ? 0x144 : 0x800842;  /* store L1 hit / load L3 HitM */
	s->regs_intr_abi = 2;
	s->regs_intr = scratch;
	s->phys_addr = 0x100000 + i * 8;
	s->aux = scratch;
	s->aux_size = (i % 3) * 8;
}

static int write_gen(int fd, unsigned flags, const struct perf_event_attr *attrs,
		     size_t n_attrs, uint64_t n, bool extras)
{
	struct slt_pdw *w;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_pdw_open(&w, fd, flags, &err), 0);
	for (size_t e = 0; e < n_attrs; e++) {
		uint64_t ids[3] = { 1000 + e, 2000 + e, 3000 + e };
		char name[32];
		snprintf(name, sizeof(name), "ev%zu", e);
		assert_true(slt_pdw_add_event(w, &attrs[e], name, ids, 3) >= 0);
	}
	char *argv[] = { "perf", "record", "-d" };
	slt_pdw_set_info(w, 3, "6.1.test", 3, argv);
	uint64_t scratch[64];
	for (uint64_t i = 0; i < n; i++) {
		size_t e = i % n_attrs;
		struct slt_pdw_sample s;
		fill_sample(&s, &attrs[e], i, scratch);
		s.id = (i % 3 == 0 ? 1000 : i % 3 == 1 ? 2000 : 3000) + e;
		int rc = slt_pdw_sample(w, (int)e, &s, &err);
		if (rc)
			return rc;
		if (extras && i % 5 == 0) {
			/* non-sample records: FINISHED_ROUND, an unknown type,
			 * a COMM with a sample_id trailer */
			uint8_t rec[64] = { 0 };
			struct perf_event_header h = { SLT_PERF_RECORD_FINISHED_ROUND, 0, 8 };
			memcpy(rec, &h, 8);
			assert_int_equal(slt_pdw_record(w, rec, 8, &err), 0);
			h = (struct perf_event_header){ 200, 0, 24 };
			memcpy(rec, &h, 8);
			assert_int_equal(slt_pdw_record(w, rec, 24, &err), 0);
			h = (struct perf_event_header){ PERF_RECORD_COMM, 0, 8 + 8 + 8 + 16 };
			memcpy(rec, &h, 8);
			memcpy(rec + 16, "worker\0", 8);
			assert_int_equal(slt_pdw_record(w, rec, h.size, &err), 0);
		}
	}
	return slt_pdw_close(w, &err);
}

static uint64_t gen_file(const char *path, unsigned flags, const struct perf_event_attr *attrs,
			 size_t n_attrs, uint64_t n, bool extras)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write_gen(fd, flags, attrs, n_attrs, n, extras), 0);
	close(fd);
	return n;
}

static void base_attr(struct perf_event_attr *a, uint64_t type)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_RAW;
	a->config = 0x1cd;
	a->sample_type = type;
	a->sample_id_all = 1;
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a->sample_regs_user = 0xff;
	a->sample_regs_intr = 0x3;
}

/* Check what the reader delivers against what fill_sample() wrote. */
static void check_read(const char *path, const struct perf_event_attr *attrs,
		       size_t n_attrs, uint64_t n, bool extras, int mode)
{
	struct got g = { 0 };
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_perf_data_read(path, collect, &g, &info, &err);
	if (rc)
		fail_msg("%s: %s (mode %d, type %#llx)", path, err.message, mode,
			 (unsigned long long)attrs[0].sample_type);
	uint64_t with_addr = 0, j = 0;
	for (uint64_t i = 0; i < n; i++)
		with_addr += !!(attrs[i % n_attrs].sample_type & PERF_SAMPLE_ADDR);
	assert_int_equal(g.n, with_addr);
	assert_int_equal(info.records, with_addr);
	assert_int_equal(info.skipped, (n - with_addr) + (extras ? 3 * ((n + 4) / 5) : 0));
	for (uint64_t i = 0; i < n; i++) {
		const struct perf_event_attr *a = &attrs[i % n_attrs];
		uint64_t t = a->sample_type;
		if (!(t & PERF_SAMPLE_ADDR))
			continue;
		const struct slt_sample *s = &g.v[j++];
		assert_int_equal(s->addr, 0x7f0000001000ull + i * 8);
		assert_int_equal(!!(s->flags & SLT_SAMPLE_IP), !!(t & PERF_SAMPLE_IP));
		if (t & PERF_SAMPLE_IP)
			assert_int_equal(s->ip, 0xffffffff81000000ull + i * 16);
		if (t & PERF_SAMPLE_TID) {
			assert_int_equal(s->pid, 100 + i % 7);
			assert_int_equal(s->tid, 200 + i % 5);
		} else {
			assert_int_equal(s->tid, -1);
		}
		if (t & PERF_SAMPLE_CPU)
			assert_int_equal(s->cpu, i % 3);
		else
			assert_int_equal(s->cpu, -1);
		assert_int_equal(!!(s->flags & SLT_SAMPLE_PHYS), !!(t & PERF_SAMPLE_PHYS_ADDR));
		if (t & PERF_SAMPLE_PHYS_ADDR)
			assert_int_equal(s->phys_addr, 0x100000 + i * 8);
		if (t & PERF_SAMPLE_DATA_SRC) {
			assert_int_equal(s->data_src, (i % 2) ? 0x144 : 0x800842);
			assert_int_equal(s->stores, i % 2);
			assert_int_equal(s->loads, !(i % 2));
			assert_int_equal(s->hitm_local, !(i % 2));
			bool w = t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT);
			assert_int_equal(s->cycles, (!(i % 2) && w) ? 30 + i % 100 : 0);
		} else {
			assert_int_equal(s->loads, 1);   /* unknown kind: a load */
			assert_int_equal(s->stores, 0);
		}
	}
	if (with_addr && n_attrs == 1)
		assert_string_equal(g.event[0], "ev0");
	assert_non_null(strstr(info.detail, mode == M_PIPE || mode == M_ZPIPE ? "pipe mode" : "file mode"));
	assert_non_null(strstr(info.detail, "perf 6.1.test"));
	free(g.v);
}

static const uint64_t all_bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD, PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW,
	PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER,
	PERF_SAMPLE_WEIGHT, PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_TRANSACTION,
	PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_CGROUP,
	PERF_SAMPLE_DATA_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, PERF_SAMPLE_AUX,
	PERF_SAMPLE_WEIGHT_STRUCT,
};
#define N_BITS (sizeof(all_bits) / sizeof(all_bits[0]))

static void roundtrip(uint64_t type, int mode, bool extras, uint64_t rf)
{
	char path[300];
	struct perf_event_attr a;
	base_attr(&a, type);
	if (rf != ~0ull)
		a.read_format = rf;
	mkpath(path, sizeof(path), "gen.data");
	gen_file(path, mode_flags[mode], &a, 1, 40, extras);
	check_read(path, &a, 1, 40, extras, mode);
}

static void test_every_bit(void **state)
{
	for (int mode = 0; mode < M_N; mode++)
		for (size_t b = 0; b < N_BITS; b++) {
			uint64_t t = PERF_SAMPLE_ADDR | all_bits[b];
			if (all_bits[b] == PERF_SAMPLE_WEIGHT_STRUCT)
				t |= PERF_SAMPLE_DATA_SRC;
			roundtrip(t, mode, false, ~0ull);
		}
	/* everything at once (WEIGHT and WEIGHT_STRUCT are exclusive) */
	uint64_t t = 0;
	for (size_t b = 0; b < N_BITS; b++)
		t |= all_bits[b];
	for (int mode = 0; mode < M_N; mode++) {
		roundtrip(t & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT, mode, true, ~0ull);
		roundtrip(t & ~(uint64_t)PERF_SAMPLE_WEIGHT, mode, true, ~0ull);
	}
	/* group read formats */
	roundtrip(t & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT, M_FILE, false,
		  PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
		  PERF_FORMAT_TOTAL_TIME_RUNNING);
	roundtrip(t & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT, M_PIPE, false,
		  PERF_FORMAT_GROUP);
}

static void test_random_combinations(void **state)
{
	for (int k = 0; k < 300; k++) {
		uint64_t t = 0;
		for (size_t b = 0; b < N_BITS; b++)
			if (rnd() % 3 == 0)
				t |= all_bits[b];
		if ((t & PERF_SAMPLE_WEIGHT) && (t & PERF_SAMPLE_WEIGHT_STRUCT))
			t &= ~(uint64_t)PERF_SAMPLE_WEIGHT;
		roundtrip(t, k % M_N, k % 2, ~0ull);
	}
}

/* Two events: ids resolved through IDENTIFIER, or through ID alone. */
static void test_two_events(void **state)
{
	for (int variant = 0; variant < 2; variant++)
		for (int mode = 0; mode < M_N; mode++) {
			struct perf_event_attr a[2];
			uint64_t common = variant ? PERF_SAMPLE_ID : PERF_SAMPLE_IDENTIFIER;
			base_attr(&a[0], common | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				  PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_DATA_SRC |
				  PERF_SAMPLE_WEIGHT);
			/* the second event has no ADDR: its samples are skipped,
			 * and a wrong attr would misplace every field after ID */
			base_attr(&a[1], common | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN);
			if (variant) {
				/* ID alone: both need the same id position */
				a[1].sample_type |= PERF_SAMPLE_ADDR;
				a[1].sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
			}
			char path[300];
			mkpath(path, sizeof(path), "two.data");
			gen_file(path, mode_flags[mode], a, 2, 60, true);
			struct got g = { 0 };
			struct slt_samples_info info;
			struct slt_error err;
			slt_error_clear(&err);
			assert_int_equal(slt_perf_data_read(path, collect, &g, &info, &err), 0);
			check_read(path, a, 2, 60, true, mode);
			if (variant)
				assert_true(!strcmp(g.event[0], "ev0") && !strcmp(g.event[1], "ev1"));
			free(g.v);
		}
}

/* Samples whose id belongs to no event are counted as skipped. */
static void test_unknown_id(void **state)
{
	struct perf_event_attr a[2];
	base_attr(&a[0], PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ADDR);
	base_attr(&a[1], PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ADDR);
	char path[300];
	mkpath(path, sizeof(path), "uid.data");
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct slt_pdw *w;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_pdw_open(&w, fd, 0, &err), 0);
	uint64_t id0 = 7, id1 = 8;
	slt_pdw_add_event(w, &a[0], "a", &id0, 1);
	slt_pdw_add_event(w, &a[1], "b", &id1, 1);
	struct slt_pdw_sample s = { .id = 9, .addr = 1 };
	assert_int_equal(slt_pdw_sample(w, 0, &s, &err), 0);
	s.id = 8;
	assert_int_equal(slt_pdw_sample(w, 0, &s, &err), 0);
	assert_int_equal(slt_pdw_close(w, &err), 0);
	close(fd);
	struct got g = { 0 };
	struct slt_samples_info info;
	assert_int_equal(slt_perf_data_read(path, collect, &g, &info, &err), 0);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.event[0], "b");
	assert_int_equal(info.skipped, 1);
	free(g.v);
}

static void test_zero_samples(void **state)
{
	for (int mode = 0; mode < M_N; mode++) {
		struct perf_event_attr a;
		base_attr(&a, PERF_SAMPLE_ADDR | PERF_SAMPLE_IP);
		char path[300];
		mkpath(path, sizeof(path), "zero.data");
		gen_file(path, mode_flags[mode], &a, 1, 0, false);
		struct got g = { 0 };
		struct slt_samples_info info;
		struct slt_error err;
		slt_error_clear(&err);
		assert_int_equal(slt_perf_data_read(path, collect, &g, &info, &err), 0);
		assert_int_equal(g.n, 0);
		assert_int_equal(info.records, 0);
		assert_int_equal(info.skipped, 0);
	}
}

/* Cut a file at every length: an error (never a crash), or for pipe
 * mode at a record boundary, fewer samples; never more. */
static void test_truncated(void **state)
{
	for (int mode = 0; mode < M_N; mode++) {
		struct perf_event_attr a;
		base_attr(&a, PERF_SAMPLE_ADDR | PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN |
			  PERF_SAMPLE_RAW | PERF_SAMPLE_DATA_SRC);
		char path[300];
		mkpath(path, sizeof(path), "trunc.data");
		gen_file(path, mode_flags[mode], &a, 1, 30, true);
		size_t size;
		uint8_t *b = slurp(path, &size);
		unsigned errors = 0;
		for (size_t cut = 0; cut < size; cut++) {
			struct got g = { 0 };
			struct slt_samples_info info;
			struct slt_error err;
			slt_error_clear(&err);
			uint8_t *c = malloc(cut ? cut : 1);   /* exact size: ASan sees overreads */
			memcpy(c, b, cut);
			int rc = slt_perf_data_read_mem(c, cut, "cut", collect, &g, &info, &err);
			if (rc) {
				assert_int_equal(rc, SLT_ECORRUPT);
				assert_true(err.message[0] != 0);
				errors++;
			}
			assert_true(g.n <= 30);
			free(c);
			free(g.v);
		}
		assert_true(errors > size / 2);
		/* a damaged size field inside the data */
		free(b);
	}
}

static void test_corrupt_fields(void **state)
{
	struct perf_event_attr a;
	base_attr(&a, PERF_SAMPLE_ADDR | PERF_SAMPLE_CALLCHAIN);
	char path[300];
	mkpath(path, sizeof(path), "bad.data");
	gen_file(path, 0, &a, 1, 4, false);
	size_t size;
	uint8_t *b = slurp(path, &size);
	struct slt_error err;
	uint64_t data_off;
	memcpy(&data_off, b + 40, 8);
	/* callchain nr huge in the first sample: header 8, addr 8, nr */
	uint64_t huge = 1ull << 61;
	memcpy(b + data_off + 16, &huge, 8);
	slt_error_clear(&err);
	assert_int_equal(slt_perf_data_read_mem(b, size, "bad", NULL, NULL, NULL, &err), SLT_ECORRUPT);
	assert_int_equal(err.offset, (int64_t)(data_off + 24));
	/* record size 0 */
	uint16_t z = 0;
	memcpy(b + data_off + 6, &z, 2);
	slt_error_clear(&err);
	assert_int_equal(slt_perf_data_read_mem(b, size, "bad", NULL, NULL, NULL, &err), SLT_ECORRUPT);
	assert_int_equal(err.offset, (int64_t)data_off);
	/* data section past the end of the file */
	uint64_t big = size;
	memcpy(b + 48, &big, 8);
	slt_error_clear(&err);
	assert_int_equal(slt_perf_data_read_mem(b, size, "bad", NULL, NULL, NULL, &err), SLT_ECORRUPT);
	assert_int_equal(err.offset, 40);
	/* byte-swapped magic */
	memcpy(b, "2ELIFREP", 8);
	slt_error_clear(&err);
	assert_int_equal(slt_perf_data_read_mem(b, size, "bad", NULL, NULL, NULL, &err), SLT_EUNSUPPORTED);
	assert_true(slt_perf_data_detect(b, size));
	memcpy(b, "PERFILE1", 8);
	assert_false(slt_perf_data_detect(b, size));
	free(b);
}

static void test_big_count(void **state)
{
	struct perf_event_attr a;
	base_attr(&a, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
		  PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC);
	char path[300];
	mkpath(path, sizeof(path), "big.data");
	const uint64_t n = 1000000;
	for (int mode = 0; mode < M_N; mode += 2) {
		gen_file(path, mode_flags[mode], &a, 1, n, false);
		struct slt_samples_info info;
		struct slt_error err;
		slt_error_clear(&err);
		assert_int_equal(slt_perf_data_read(path, NULL, NULL, &info, &err), 0);
		assert_int_equal(info.records, n);
		assert_int_equal(info.samples, n);
	}
}

/* Callback's non-zero value stops the parse and comes back. */
static int stop_at_3(void *ctx, const struct slt_sample *s)
{
	return ++*(int *)ctx == 3 ? 42 : 0;
}

static void test_callback_stop(void **state)
{
	struct perf_event_attr a;
	base_attr(&a, PERF_SAMPLE_ADDR);
	char path[300];
	mkpath(path, sizeof(path), "stop.data");
	gen_file(path, SLT_PDW_COMPRESS, &a, 1, 10, false);
	int k = 0;
	assert_int_equal(slt_perf_data_read(path, stop_at_3, &k, NULL, NULL), 42);
	assert_int_equal(k, 3);
}

/* A real pipe: the writer in a child process, the reader streaming. */
static void test_real_pipe(void **state)
{
	for (int mode = M_PIPE; mode <= M_ZPIPE; mode += 2) {
		struct perf_event_attr a;
		base_attr(&a, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			  PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_DATA_SRC);
		int p[2];
		assert_int_equal(pipe(p), 0);
		pid_t pid = fork();
		if (pid == 0) {
			close(p[0]);
			_exit(write_gen(p[1], mode_flags[mode], &a, 1, 200000, true) ? 1 : 0);
		}
		close(p[1]);
		struct slt_samples_info info;
		struct slt_error err;
		slt_error_clear(&err);
		int rc = slt_perf_data_read_fd(p[0], "pipe", NULL, NULL, &info, &err);
		close(p[0]);
		int st;
		waitpid(pid, &st, 0);
		if (rc)
			fail_msg("%s", err.message);
		assert_int_equal(info.records, 200000);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	/* a file-mode stream cannot be read from a pipe: clear error */
	struct perf_event_attr a;
	base_attr(&a, PERF_SAMPLE_ADDR);
	char path[300];
	mkpath(path, sizeof(path), "fm.data");
	gen_file(path, 0, &a, 1, 3, false);
	size_t size;
	uint8_t *b = slurp(path, &size);
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], b, size), (ssize_t)size);
	close(p[1]);
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_perf_data_read_fd(p[0], "pipe", NULL, NULL, NULL, &err), SLT_EUNSUPPORTED);
	close(p[0]);
	free(b);
}


/* Through the format dispatch (read.c): detection, file, and a pipe-mode
 * stream on standard input. */
static void test_dispatch(void **state)
{
	struct perf_event_attr a;
	base_attr(&a, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ADDR | PERF_SAMPLE_TID);
	char path[300];
	mkpath(path, sizeof(path), "disp.data");
	for (int mode = 0; mode < M_N; mode++) {
		gen_file(path, mode_flags[mode], &a, 1, 100000, true);
		struct got g = { 0 };
		struct slt_samples_info info;
		struct slt_error err;
		slt_error_clear(&err);
		assert_int_equal(slt_samples_read(path, SLT_SAMPLES_AUTO, collect, &g, &info, &err), 0);
		assert_int_equal(info.format, SLT_SAMPLES_PERF_DATA);
		assert_int_equal(g.n, 100000);
		assert_int_equal(g.v[99999].addr, 0x7f0000001000ull + 99999 * 8);
		free(g.v);
		if (!(mode_flags[mode] & SLT_PDW_PIPE))
			continue;
		/* stdin as a pipe */
		int p[2];
		assert_int_equal(pipe(p), 0);
		pid_t pid = fork();
		if (pid == 0) {
			close(p[0]);
			_exit(write_gen(p[1], mode_flags[mode], &a, 1, 100000, true) ? 1 : 0);
		}
		close(p[1]);
		int saved = dup(0);
		dup2(p[0], 0);
		close(p[0]);
		memset(&g, 0, sizeof(g));
		int rc = slt_samples_read("-", SLT_SAMPLES_AUTO, collect, &g, &info, &err);
		dup2(saved, 0);
		close(saved);
		waitpid(pid, NULL, 0);
		if (rc)
			fail_msg("stdin: %s", err.message);
		assert_int_equal(g.n, 100000);
		assert_int_equal(g.v[99999].tid, 200 + 99999 % 5);
		free(g.v);
	}
}

/* ---- real perf ---- */

static bool have_perf(void)
{
	return system("perf --version >/dev/null 2>&1") == 0;
}

static int cmp_sample(const void *pa, const void *pb)
{
	const struct slt_sample *a = pa, *b = pb;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

/* Compare the reader with `perf script -F addr,ip,cpu,tid` as multisets:
 * perf script prints samples in time order across CPUs, the file holds
 * them in per-CPU buffer order, so both sides are sorted first. */
static void compare_with_perf_script(const char *path, const char *fields_cpu)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "perf script -F %s -i '%s' 2>/dev/null", fields_cpu, path);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	struct got g = { 0 };
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_perf_data_read(path, collect, &g, &info, &err);
	if (rc)
		fail_msg("%s: %s", path, err.message);
	char line[512];
	size_t i = 0;
	struct slt_sample *txt = calloc(g.n + 1, sizeof(*txt));
	assert_non_null(txt);
	while (fgets(line, sizeof(line), f)) {
		int tid, cpu;
		unsigned long long addr, ip;
		if (sscanf(line, " %d [%d] %llx %llx", &tid, &cpu, &addr, &ip) != 4)
			fail_msg("unexpected perf script line: %s", line);
		if (i >= g.n)
			fail_msg("perf script has more samples than the reader (%zu)", g.n);
		txt[i] = (struct slt_sample){ .tid = tid, .cpu = cpu, .addr = addr, .ip = ip };
		i++;
	}
	assert_int_equal(pclose(f), 0);
	assert_int_equal(i, g.n);
	assert_true(i > 0);
	qsort(txt, i, sizeof(*txt), cmp_sample);
	qsort(g.v, g.n, sizeof(*g.v), cmp_sample);
	for (size_t k = 0; k < i; k++) {
		assert_int_equal(g.v[k].tid, txt[k].tid);
		assert_int_equal(g.v[k].cpu, txt[k].cpu);
		assert_int_equal(g.v[k].addr, txt[k].addr);
		assert_int_equal(g.v[k].ip, txt[k].ip);
	}
	free(txt);
	free(g.v);
}

static void test_real_page_faults(void **state)
{
	if (!have_perf())
		skip();
	char path[300], cmd[1024];
	mkpath(path, sizeof(path), "pf.data");
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -c 1 -d --sample-cpu -e page-faults -o '%s' -- ls -l / >/dev/null 2>&1", path);
	if (system(cmd) != 0)
		skip();   /* perf_event_paranoid or no perf_event_open */
	compare_with_perf_script(path, "addr,ip,cpu,tid");
	struct got g = { 0 };
	struct slt_samples_info info;
	assert_int_equal(slt_perf_data_read(path, collect, &g, &info, NULL), 0);
	assert_string_equal(g.event[0], "page-faults");
	assert_non_null(strstr(info.detail, "counted as loads"));
	assert_true(info.skipped > 0);   /* MMAP2, COMM, FINISHED_ROUND ... */
	free(g.v);

	/* pipe mode, from perf's stdout through a real pipe */
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -c 1 -d --sample-cpu -e page-faults -o - -- ls -l / 2>/dev/null >/dev/null");
	FILE *f = popen("perf record -q -c 1 -d --sample-cpu -e page-faults -o - -- ls -l / 2>/dev/null", "r");
	assert_non_null(f);
	struct slt_error err;
	slt_error_clear(&err);
	memset(&g, 0, sizeof(g));
	int rc = slt_perf_data_read_fd(fileno(f), "perf-pipe", collect, &g, &info, &err);
	pclose(f);
	if (rc)
		fail_msg("pipe: %s", err.message);
	assert_true(g.n > 10);
	assert_non_null(strstr(info.detail, "pipe mode"));
	free(g.v);

	/* compressed (-z), when this perf was built with zstd */
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -z -c 1 -d --sample-cpu -e page-faults -o '%s.z' -- ls -l / >/dev/null 2>&1", path);
	if (system(cmd) == 0) {
		char pz[320];
		snprintf(pz, sizeof(pz), "%s.z", path);
		compare_with_perf_script(pz, "addr,ip,cpu,tid");
	}
}

/* perf itself reads what the writer writes, with the same samples. */
static void test_perf_reads_writer(void **state)
{
	if (!have_perf())
		skip();
	for (int mode = 0; mode < M_N; mode++) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_PAGE_FAULTS;
		a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
				PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
				PERF_SAMPLE_PHYS_ADDR;
		a.sample_id_all = 1;
		char path[300];
		mkpath(path, sizeof(path), "forperf.data");
		gen_file(path, mode_flags[mode], &a, 1, 500, false);  /* perf rejects unknown record types */
		compare_with_perf_script(path, "addr,ip,cpu,tid");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_src),
		cmocka_unit_test(test_every_bit),
		cmocka_unit_test(test_random_combinations),
		cmocka_unit_test(test_two_events),
		cmocka_unit_test(test_unknown_id),
		cmocka_unit_test(test_zero_samples),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt_fields),
		cmocka_unit_test(test_big_count),
		cmocka_unit_test(test_callback_stop),
		cmocka_unit_test(test_real_pipe),
		cmocka_unit_test(test_dispatch),
		cmocka_unit_test(test_real_page_faults),
		cmocka_unit_test(test_perf_reads_writer),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (tmpdir[0]) {
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd)) {}
	}
	return rc;
}
