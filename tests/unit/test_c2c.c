/* SPDX-License-Identifier: MIT */
/*
 * perf c2c report --stdio parser: every c2c file in fixtures/samples/c2c,
 * expected values worked out by hand from the files (percent of the block
 * header's totals, records - stores, average cycles * count), plus
 * generated edge cases.
 */
#include "samples_helpers.h"
#include "samples/parsers.h"

static void test_local_plain(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "perf6.1-local/c2c_stdio.txt", SLT_SAMPLES_AUTO, &c, &in, &e), 0);
	assert_int_equal(in.format, SLT_SAMPLES_C2C);
	assert_int_equal(c.n, 4);
	assert_int_equal(in.records, 4);
	assert_int_equal(in.samples, 800);   /* Total records 800 */
	assert_int_equal(in.skipped, 0);
	assert_int_equal(in.cacheline_size, 0); /* 0x404080 is 128-aligned: not stated */
	assert_non_null(strstr(in.detail, "loads 400"));
	assert_non_null(strstr(in.detail, "cpu/mem-loads,ldlat=30/P cpu/mem-stores/P"));
	/* 0x0: L1 Hit 42.86% of 350 = 150, L1 Miss 100% of 50 -> 200 stores */
	struct slt_sample *s = &c.r[0].s;
	assert_int_equal(s->line_addr, 0x404080);
	assert_int_equal(s->line_offset, 0);
	assert_int_equal(s->stores, 200);
	assert_int_equal(s->loads, 0);
	assert_int_equal(s->ip, 0x401126);
	assert_string_equal(c.r[0].sym, "writer");
	assert_string_equal(c.r[0].obj, "fs");
	assert_string_equal(c.r[0].src, "fs.c:11");
	assert_int_equal(s->node, 0);
	assert_int_equal(s->cpu_count, 1);
	assert_true(s->flags & SLT_SAMPLE_IP);
	assert_false(s->flags & SLT_SAMPLE_CPUS);
	/* 0x10: LclHitm 45.39% of 293 = 133; 180*133 + 180*(200-133) */
	s = &c.r[2].s;
	assert_int_equal(s->line_offset, 0x10);
	assert_int_equal(s->hitm_local, 133);
	assert_int_equal(s->loads, 200);
	assert_int_equal(s->cycles, 36000);
	/* 0x18: RmtHitm 100% of 40, LclHitm 54.61% of 293 = 160; 420*200 */
	s = &c.r[3].s;
	assert_int_equal(s->hitm_remote, 40);
	assert_int_equal(s->hitm_local, 160);
	assert_int_equal(s->cycles, 84000);
	assert_int_equal(s->node, 1);
}

/* NUL bytes: a zero-padded tail is cut off and counted (the caller warns),
 * a NUL with text after it is refused with its line and offset. */
static void test_nul_bytes(void **state)
{
	(void)state;
	static char buf[1 << 16];
	FILE *f = fopen(FX "perf6.1-local/c2c_stdio.txt", "rb");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 4096, f);
	fclose(f);
	struct coll c; struct slt_samples_info in; struct slt_error e;
	memset(buf + n, 0, 4096);
	slt_error_clear(&e);
	memset(&c, 0, sizeof(c));
	assert_int_equal(slt_samples_read_mem(buf, n + 4096, "t", SLT_SAMPLES_AUTO, collect, &c, &in, &e), 0);
	assert_int_equal(in.nul_tail, 4096);
	assert_int_equal(c.n, 4); /* as without the padding */
	assert_int_equal(in.samples, 800);
	/* a NUL inside the text: line 3 */
	const char *nl = strchr(strchr(buf, '\n') + 1, '\n');
	buf[nl - buf + 2] = 0;
	slt_error_clear(&e);
	memset(&c, 0, sizeof(c));
	assert_int_equal(slt_samples_read_mem(buf, n, "t", SLT_SAMPLES_C2C, collect, &c, &in, &e), SLT_ECORRUPT);
	assert_int_equal(e.line, 3);
	assert_int_equal(e.offset, nl - buf + 2);
	assert_non_null(strstr(e.message, "NUL byte"));
	assert_int_equal(c.n, 0);
}

static void test_local_variants(void **state)
{
	static const struct { const char *f; size_t n; } v[] = {
		{ "c2c_stdioN.txt", 4 }, { "c2c_stdioNN.txt", 4 },
		{ "c2c_stdio_phys_NN.txt", 4 }, { "c2c_stdioc_tid_pid_iaddr_N.txt", 4 },
		{ "c2c_stdiod_lcl.txt", 4 }, { "c2c_stdiod_rmt.txt", 3 },
		{ "c2c_stdionosource_fullsymbols.txt", 4 }, { "c2c_stdiostats.txt", 0 },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char p[256];
		struct coll c; struct slt_samples_info in; struct slt_error e;
		snprintf(p, sizeof(p), FX "perf6.1-local/%s", v[i].f);
		assert_int_equal(read_fx(p, SLT_SAMPLES_AUTO, &c, &in, &e), 0);
		assert_int_equal(in.format, SLT_SAMPLES_C2C);
		assert_int_equal(c.n, v[i].n);
		assert_int_equal(in.skipped, 0);
	}
	struct coll c; struct slt_samples_info in; struct slt_error e;
	/* -NN: 0{0} 0{1} 1{2} 1{3} */
	assert_int_equal(read_fx(FX "perf6.1-local/c2c_stdioNN.txt", 0, &c, &in, &e), 0);
	assert_true(c.r[3].s.flags & SLT_SAMPLE_CPUS);
	assert_int_equal(c.r[3].s.n_cpus, 1);
	assert_int_equal(c.r[3].cpus[0], 3);
	assert_int_equal(c.r[3].s.node, 1);
	assert_int_equal(in.c2c_node_info, 0);     /* -NN gives the CPUs */
	/* -N: per node a CPU count, not the CPUs: the caller names -NN */
	assert_int_equal(read_fx(FX "perf6.1-local/c2c_stdioN.txt", 0, &c, &in, &e), 0);
	assert_int_equal(in.c2c_node_info, 2);
	assert_false(c.r[0].s.flags & SLT_SAMPLE_CPUS);
	/* the default Node column: node numbers only */
	assert_int_equal(read_fx(FX "perf6.1-local/c2c_stdio.txt", 0, &c, &in, &e), 0);
	assert_int_equal(in.c2c_node_info, 1);
	/* coalesced tid,pid: Pid 4242, Tid "4242:fs" */
	assert_int_equal(read_fx(FX "perf6.1-local/c2c_stdioc_tid_pid_iaddr_N.txt", 0, &c, &in, &e), 0);
	assert_int_equal(c.r[1].s.pid, 4242);
	assert_int_equal(c.r[1].s.tid, 4242);
	assert_int_equal(c.r[1].s.stores, 200);  /* 57.14% of 350 */
	assert_false(c.r[1].s.flags & SLT_SAMPLE_CPUS);  /* -N prints counts, not CPUs */
	/* no Source:Line column */
	assert_int_equal(read_fx(FX "perf6.1-local/c2c_stdionosource_fullsymbols.txt", 0, &c, &in, &e), 0);
	assert_string_equal(c.r[3].src, "");
	assert_string_equal(c.r[3].obj, "fs");
	assert_int_equal(c.r[3].s.node, 1);
	/* stats only: totals in detail, no rows */
	assert_int_equal(read_fx(FX "perf6.1-local/c2c_stdiostats.txt", 0, &c, &in, &e), 0);
	assert_non_null(strstr(in.detail, "HITM lcl 293 rmt 40"));
}

static void test_amd_ibs(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/c2c-amd-ibs-go-benchmark.txt", 0, &c, &in, &e), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(in.cacheline_size, 0);  /* 0x20ea08034080 is 128-aligned */
	struct slt_sample *s = &c.r[0].s;
	assert_int_equal(s->line_addr, 0x20ea08034080ull);
	assert_int_equal(s->line_offset, 0x30);
	assert_int_equal(s->hitm_remote, 3);     /* 75% of 4 */
	assert_int_equal(s->hitm_local, 1038);   /* 49.62% of 2092 = 1038.05 */
	assert_int_equal(s->loads, 1552);
	assert_int_equal(s->cpu_count, 12);
	assert_string_equal(c.r[0].sym, "github.com/perfgo/perfgo/e");
	assert_string_equal(c.r[0].obj, "perfgo.test.linux.amd64");
}

static void test_tugtest(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/c2c-and-datatype-tugtest.txt", SLT_SAMPLES_C2C, &c, &in, &e), 0);
	/* the same 9-row block for line 0x406100, posted twice: read once */
	assert_int_equal(c.n, 9);
	/* the 17 data-type percentage rows come before any c2c header, and
	 * the 9 rows of the repeated block */
	assert_int_equal(in.skipped, 17 + 9);
	assert_non_null(strstr(in.detail, "1 Pareto blocks (1 repeated blocks skipped)"));
	uint64_t st = 0, ld = 0;
	for (size_t i = 0; i < c.n; i++) {
		st += c.r[i].s.stores;
		ld += c.r[i].s.loads;
	}
	/* the block's store totals once: L1 Hit 17071 + L1 Miss 13762 (+-1
	 * per row from the printed percentages) */
	assert_in_range(st, 17071 + 13762 - 4, 17071 + 13762 + 4);
	assert_int_equal(in.samples, st + ld);
	struct slt_sample *s = &c.r[2].s;  /* 68.10% of 1094, 60.26% of 2008 */
	assert_int_equal(s->line_addr, 0x406100);
	assert_int_equal(s->line_offset, 0x10);
	assert_int_equal(s->hitm_remote, 745);
	assert_int_equal(s->hitm_local, 1210);
	assert_int_equal(s->n_cpus, 5);
	assert_int_equal(c.r[2].cpus[4], 11);
	assert_int_equal(c.r[4].s.stores, 12373); /* 40.03% of 17071 + 40.25% of 13762 */
	assert_int_equal(c.r[8].s.stores, 18428); /* 59.80% + 59.73% */
}

static void test_arm_v1(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/c2c-arm64-spe-and-x86-v1-series.txt", 0, &c, &in, &e), 0);
	assert_int_equal(c.n, 7);
	assert_int_equal(c.r[1].s.stores, 1832);  /* 90.51% of 2024 */
	assert_int_equal(c.r[1].s.loads, 3029 - 1832);
	assert_int_equal(c.r[5].s.line_addr, 0xaaaac17d6000ull);
	assert_int_equal(c.r[5].s.peer_local, 6);  /* "Peer" 6.06% of 99 */
	assert_int_equal(c.r[5].s.cycles, 375 * 6 + 43 * (18469 - 6));
	assert_int_equal(c.r[6].s.line_offset, 0x29);
	assert_string_equal(c.r[6].src, "memstress[3e88]");
}

static void test_arm_peer(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/c2c-arm64-spe-peer-display.txt", 0, &c, &in, &e), 0);
	assert_int_equal(c.n, 4);
	/* "-- Peer Snoop --" over Rmt/Lcl: peer, not HITM */
	assert_int_equal(c.r[2].s.peer_local, 48);   /* 48.48% of 99 */
	assert_int_equal(c.r[2].s.hitm_local, 0);
	assert_int_equal(c.r[1].s.tid, 3606);
	assert_int_equal(c.r[1].s.pid, 3603);
	assert_int_equal(c.r[0].s.cycles, 376 * 3 + 41 * (9314 - 3));
}

static void test_perf48(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/c2c-intel-4socket-perf4.8-rmt-coalesce.txt", 0, &c, &in, &e), 0);
	assert_int_equal(c.n, 28);   /* 6 + 3 + 5 + 3 + 11 rows */
	assert_int_equal(in.cacheline_size, 64);
	assert_non_null(strstr(in.detail, "5 table lines"));
	struct slt_sample *s = &c.r[0].s;
	assert_int_equal(s->hitm_remote, 6442);   /* 65.51% of 9834 */
	assert_int_equal(s->hitm_local, 1268);    /* 55.88% of 2269 */
	assert_int_equal(s->stores, 81995);       /* 75.20% of 109036 */
	assert_int_equal(s->loads, 6442 + 1268);  /* no records column */
	assert_int_equal(s->cycles, 27161ull * 6442 + 26039ull * 1268);
	assert_int_equal(s->pid, 14604);
	assert_int_equal(s->tid, -1);
	assert_int_equal(s->n_cpus, 9);           /* 0{0-1,4} 1{24-25,120} 2{48,54} 3{169} */
	assert_int_equal(c.r[0].cpus[1], 1);
	assert_int_equal(c.r[0].cpus[8], 169);
	assert_int_equal(s->node, -1);
	assert_int_equal(c.r[27].s.line_addr, 0xffffffff81e3f540ull);
	assert_int_equal(c.r[27].s.line_offset, 0x3c);
	assert_string_equal(c.r[27].sym, "_raw_spin_lock_irqsave");
	assert_string_equal(c.r[27].obj, "[kernel.kallsyms]");
}

static void test_memcg_excerpt(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/c2c-pareto-excerpt-memcg-css-with-pahole.txt", 0, &c, &in, &e), 0);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.r[0].s.hitm_local, 928);  /* 45.58% of 2036 */
	assert_int_equal(c.r[0].s.loads, 8969);
	assert_int_equal(c.r[3].s.line_offset, 0x10);
	assert_int_equal(c.r[3].s.cpu_count, 187);
	assert_int_equal(c.r[3].s.node, -1);         /* "0  1  2  3" */
	assert_string_equal(c.r[3].src, "percpu-refcount.h:174");
}

/* path's Pareto blocks as mailing-list excerpts paste them: from the first
 * block's separator on, every '#' line (the column headers) left out;
 * malloc()ed. */
static char *headless(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *num = strstr(buf, "#   Num");
	assert_non_null(num);
	char *p = strchr(num, '\n');
	/* to the first dashed separator after the header */
	while (p && *p) {
		char *q = p + 1;
		while (*q == ' ')
			q++;
		if (*q == '-')
			break;
		p = strchr(p + 1, '\n');
	}
	assert_non_null(p);
	char *out = malloc(n + 1), *o = out;
	assert_non_null(out);
	for (char *l = p + 1; *l;) {
		char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l + 1) : strlen(l);
		const char *t = l;
		while (*t == ' ')
			t++;
		if (*t != '#') {
			memcpy(o, l, len);
			o += len;
		}
		l += len;
	}
	*o = 0;
	return out;
}

/* Pareto blocks without their header lines: detected as perf c2c and read
 * with the columns recognised from the rows, record for record as with
 * the headers, in every fixture layout (perf 4.8, 5.x, 6.1 with -N/-NN
 * and coalesced pid/tid, AMD IBS, Arm SPE v1 with its peer column); a -d
 * peer display reads its peer columns as HITM (the rows cannot tell). */
static void test_headless(void **state)
{
	(void)state;
	static const char *const files[] = {
		FX "perf6.1-local/c2c_stdio.txt", FX "perf6.1-local/c2c_stdioN.txt",
		FX "perf6.1-local/c2c_stdioNN.txt", FX "perf6.1-local/c2c_stdio_phys_NN.txt",
		FX "perf6.1-local/c2c_stdioc_tid_pid_iaddr_N.txt",
		FX "perf6.1-local/c2c_stdiod_lcl.txt", FX "perf6.1-local/c2c_stdiod_rmt.txt",
		FX "perf6.1-local/c2c_stdionosource_fullsymbols.txt",
		FX "published/c2c-amd-ibs-go-benchmark.txt",
		FX "published/c2c-arm64-spe-and-x86-v1-series.txt",
		FX "published/c2c-intel-4socket-perf4.8-rmt-coalesce.txt",
		FX "published/c2c-pareto-excerpt-memcg-css-with-pahole.txt",
		FX "published/c2c-arm64-spe-peer-display.txt",
	};
	static struct coll a, b;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct slt_samples_info ia, ib;
		struct slt_error e;
		bool peer = strstr(files[i], "peer-display") != NULL;
		char *h = headless(files[i]);
		assert_int_equal(read_fx(files[i], SLT_SAMPLES_AUTO, &a, &ia, &e), 0);
		if (read_str(h, SLT_SAMPLES_AUTO, &b, &ib, &e))
			fail_msg("%s without headers: %s", files[i], e.message);
		assert_int_equal(ib.format, SLT_SAMPLES_C2C);
		assert_non_null(strstr(ib.detail, "columns recognised from the rows"));
		assert_true(ib.c2c_inferred >= 4 && ib.c2c_inferred <= 6);
		assert_int_equal(ia.c2c_inferred, 0);
		if (b.n != a.n)
			fail_msg("%s: %zu rows without headers, %zu with", files[i], b.n, a.n);
		assert_true(a.n > 0);
		for (size_t k = 0; k < a.n && k < 64; k++) {
			const struct slt_sample *x = &a.r[k].s, *y = &b.r[k].s;
			assert_int_equal(x->line_addr, y->line_addr);
			assert_int_equal(x->line_offset, y->line_offset);
			assert_int_equal(x->loads, y->loads);
			assert_int_equal(x->stores, y->stores);
			assert_int_equal(x->hitm_remote + (peer ? x->peer_remote : 0), y->hitm_remote);
			assert_int_equal(x->hitm_local + (peer ? x->peer_local : 0), y->hitm_local);
			if (!peer) {
				assert_int_equal(x->peer_remote, y->peer_remote);
				assert_int_equal(x->peer_local, y->peer_local);
				assert_int_equal(x->cycles, y->cycles);
			}
			assert_int_equal(x->ip, y->ip);
			assert_int_equal(x->pid, y->pid);
			assert_int_equal(x->tid, y->tid);
			assert_int_equal(x->cpu_count, y->cpu_count);
			assert_int_equal(x->node, y->node);
			assert_int_equal(x->n_cpus, y->n_cpus);
			assert_memory_equal(a.r[k].cpus, b.r[k].cpus, sizeof(a.r[k].cpus));
			assert_string_equal(a.r[k].sym, b.r[k].sym);
			assert_string_equal(a.r[k].obj, b.r[k].obj);
			assert_string_equal(a.r[k].src, b.r[k].src);
		}
		free(h);
	}
	/* columns that cannot be recognised: which header lines are missing */
	struct slt_samples_info in;
	struct slt_error e;
	static const char *const bad[] = {
		/* three percentages: no known display */
		"      0        5       10        0  0x404080\n"
		"  ------\n"
		"     20.00%   10.00%    0.00%        0x0     0       1  0x401126  0  0  0  3  1  [.] f  a  a.c:1  0\n",
		/* rows without a block header line above them */
		"  ------\n"
		"     20.00%   10.00%    0.00%    0.00%        0x0     0       1  0x401126  0  0  0  3  1  [.] f  a  a.c:1  0\n",
	};
	assert_int_equal(read_str(bad[0], SLT_SAMPLES_C2C, &a, &in, &e), SLT_EUSAGE);
	assert_non_null(strstr(e.message, "without their header lines"));
	assert_non_null(strstr(e.hint, "#   Num  RmtHitm"));
	assert_int_equal(e.line, 3);
	/* no block line: the line address is missing, which no '#' header
	 * line gives: both are named */
	assert_int_equal(read_str(bad[1], SLT_SAMPLES_C2C, &a, &in, &e), SLT_EUSAGE);
	assert_int_equal(e.line, 2);
	assert_non_null(strstr(e.message, "Pareto rows without their block header: no cacheline line"));
	assert_non_null(strstr(e.message, "no '#' header line names their columns"));
	assert_non_null(strstr(e.hint, "the cacheline line"));
	/* Pareto rows alone (no dashed lines, no block line) are recognised
	 * as perf c2c, to be refused so; a perf mem report row is not one */
	static const char rows[] =
		"           0.00%   45.58%    0.00%    0.00%                 0x0     0       1  "
		"0xffffffff8137071c         0      2877      3221     8969       191  [k] f  [kernel.kallsyms]  m.c:772   0\n";
	assert_int_equal(slt_c2c_detect((const unsigned char *)rows, strlen(rows)), 25);
	static const char mem[] = "    12.50%  [k] f  [kernel.kallsyms]  [k] 0xffff888100a3c040  L1 hit\n";
	assert_int_equal(slt_c2c_detect((const unsigned char *)mem, strlen(mem)), 0);
	assert_int_equal(read_str(rows, SLT_SAMPLES_C2C, &a, &in, &e), SLT_EUSAGE);
	assert_int_equal(e.line, 1);
	assert_non_null(strstr(e.message, "without their block header"));
}

static void test_not_c2c(void **state)
{
	static const char *const f[] = {
		FX "published/perf-mem-amd-ibs-zen5.txt",
		FX "published/perf-mem-intel-hybrid-header-events.txt",
		FX "perf6.1-local/perf_mem_report.txt",
		FX "perf6.1-local/report_mem_mode.txt",
		FX "perf6.1-local/perf_script.txt",
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		struct coll c; struct slt_samples_info in; struct slt_error e;
		assert_int_equal(read_fx(f[i], SLT_SAMPLES_C2C, &c, &in, &e), SLT_EUSAGE);
		assert_int_equal(c.n, 0);
		assert_non_null(strstr(e.message, "no perf c2c"));
	}
}

static const char hdr[] =
	"#        ----- HITM -----  ------- Store Refs ------  --------- Data address ---------                      ---------- cycles ----------    Total       cpu              Shared\n"
	"#   Num  RmtHitm  LclHitm   L1 Hit  L1 Miss      N/A              Offset  Node  PA cnt        Code address  rmt hitm  lcl hitm      load  records       cnt      Symbol  Object  Source:Line  Node{cpu list}\n";

static void test_generated(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	char buf[4096];
	/* CRLF, huge totals (saturating), 128-byte line offset */
	snprintf(buf, sizeof(buf), "%s"
		 "      0 18446744073709551615  2  0  0  0  0x1000\r\n"
		 "  100.00%%  50.00%%  0.00%%  0.00%%  0.00%%  0x48  0  1  0x401000  18446744073709551615  3  0  5  2  [.] f  a.out  f.c:1  0{1-2}\r\n",
		 hdr);
	assert_int_equal(read_str(buf, SLT_SAMPLES_C2C, &c, &in, &e), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.r[0].s.hitm_remote, UINT64_MAX);
	assert_int_equal(c.r[0].s.hitm_local, 1);
	assert_int_equal(c.r[0].s.cycles, UINT64_MAX);
	assert_int_equal(c.r[0].s.line_offset, 0x48);
	assert_int_equal(in.cacheline_size, 128);
	assert_string_equal(c.r[0].src, "f.c:1");
	assert_int_equal(c.r[0].s.n_cpus, 2);
	/* truncated row, row before any block, garbage row: skipped, counted */
	snprintf(buf, sizeof(buf), "%s"
		 "  1.00%%  0.00%%  0.00%%  0.00%%  0.00%%  0x8  0  1  0x1  0 0 0 1 1 [.] g a g.c:2 0\n"
		 "      0  1  2  0  0  0  0x2000\n"
		 "  100.00%%  0.00%%\n"
		 "  50.00%%  x  0.00%%  0.00%%  0.00%%  0x8  0  1  0x1  0 0 0 1 1 [.] g a g.c:2 0\n"
		 "  0.00%%  100.00%%  0.00%%  0.00%%  0.00%%  0x10  0  1  0x1  0 7 0 2 1 [.] g a g.c:2 0\n",
		 hdr);
	assert_int_equal(read_str(buf, SLT_SAMPLES_C2C, &c, &in, &e), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(in.skipped, 3);
	assert_int_equal(c.r[0].s.hitm_local, 2);
	assert_int_equal(c.r[0].s.cycles, 14);
	/* callback stop value is returned */
	snprintf(buf, sizeof(buf), "%s      0  1  2  0  0  0  0x2000\n"
		 "  0.00%%  50.00%%  0.00%%  0.00%%  0.00%%  0x10  0  1  0x1  0 7 0 2 1 [.] g a g.c:2 0\n"
		 "  0.00%%  50.00%%  0.00%%  0.00%%  0.00%%  0x18  0  1  0x1  0 7 0 2 1 [.] g a g.c:2 0\n", hdr);
	memset(&c, 0, sizeof(c));
	c.stop_after = 1;
	slt_error_clear(&e);
	assert_int_equal(slt_samples_read_mem(buf, strlen(buf), "t", SLT_SAMPLES_C2C, collect, &c, &in, &e), 7);
	assert_int_equal(c.n, 1);
	/* empty and garbage input */
	assert_int_equal(read_str("", SLT_SAMPLES_AUTO, &c, &in, &e), SLT_EUSAGE);
	assert_int_equal(read_str("", SLT_SAMPLES_C2C, &c, &in, &e), SLT_EUSAGE);
	assert_int_equal(read_str("\x01\x02garbage\n%%%%\n", SLT_SAMPLES_AUTO, &c, &in, &e), SLT_EUSAGE);
	/* a header only, missing columns: no crash, nothing emitted */
	assert_int_equal(read_str("#   Num  Offset\n  0  0x40\n", SLT_SAMPLES_C2C, &c, &in, &e), SLT_EUSAGE);
	/* nonexistent file */
	assert_int_equal(read_fx("/nonexistent/x", 0, &c, &in, &e), SLT_EIO);
}

static void test_format_names(void **state)
{
	assert_string_equal(slt_samples_format_name(SLT_SAMPLES_C2C), "c2c");
	assert_string_equal(slt_samples_format_name(SLT_SAMPLES_PERF_SCRIPT), "perf-script");
	assert_int_equal(slt_samples_format_parse("datatype"), SLT_SAMPLES_DATATYPE);
	assert_int_equal(slt_samples_format_parse("perf.data"), SLT_SAMPLES_PERF_DATA);
	assert_int_equal(slt_samples_format_parse("nope"), -1);
	assert_string_equal(slt_samples_format_name((enum slt_samples_format)99), "unknown");
}

/* A report quoted in a mail reply ("> ", ">> ", "> > " before every line,
 * "On ... wrote:" above it): the same records as the report itself, the
 * quoted lines counted; an error names the input's own line. */
static char *slurp_fx(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1 << 20);
	assert_non_null(buf);
	*n = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	buf[*n] = 0;
	return buf;
}

static char *quote(const char *in, const char *prefix, const char *above)
{
	size_t lines = 1;
	for (const char *p = in; *p; p++)
		lines += *p == '\n';
	char *out = malloc(strlen(in) + strlen(above) + lines * strlen(prefix) + 1), *o = out;
	assert_non_null(out);
	o += sprintf(o, "%s", above);
	for (const char *p = in; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		o += sprintf(o, "%s%.*s", prefix, (int)n, p);
		p += n;
	}
	*o = 0;
	return out;
}

static void test_mail_quoted(void **state)
{
	(void)state;
	static const char *const fx[] = {
		FX "published/c2c-pareto-excerpt-memcg-css-with-pahole.txt",
		FX "published/c2c-intel-4socket-perf4.8-rmt-coalesce.txt",
		FX "published/c2c-arm64-spe-peer-display.txt",
		FX "published/c2c-pareto-blocks-only-memcg-css.txt",
		FX "perf6.1-local/c2c_stdio.txt",
	};
	static const char *const prefix[] = { "> ", ">> ", "> > ", ">" };
	static struct coll a, b;
	for (size_t i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		size_t n;
		char *plain = slurp_fx(fx[i], &n);
		struct slt_samples_info ia, ib;
		struct slt_error e;
		assert_int_equal(read_str(plain, 0, &a, &ia, &e), 0);
		assert_true(a.n > 0);
		assert_int_equal(ia.quoted_lines, 0);
		for (size_t k = 0; k < sizeof(prefix) / sizeof(prefix[0]); k++) {
			char *q = quote(plain, prefix[k], k == 1 ? "On Tue, A wrote:\n\n" : "");
			assert_int_equal(read_str(q, 0, &b, &ib, &e), 0);
			assert_int_equal(ib.format, ia.format);
			assert_int_equal(b.n, a.n);
			assert_true(ib.quoted_lines > 0);
			for (size_t r = 0; r < a.n && r < 64; r++) {
				assert_int_equal(b.r[r].s.loads, a.r[r].s.loads);
				assert_int_equal(b.r[r].s.stores, a.r[r].s.stores);
				assert_int_equal(b.r[r].s.hitm_local + b.r[r].s.hitm_remote,
						 a.r[r].s.hitm_local + a.r[r].s.hitm_remote);
				assert_int_equal(b.r[r].s.line_offset, a.r[r].s.line_offset);
				assert_string_equal(b.r[r].sym, a.r[r].sym);
			}
			free(q);
		}
		free(plain);
	}
	/* the error names the line (4) and the input, never a byte offset */
	struct slt_samples_info in;
	struct slt_error e;
	char msg[1024];
	assert_int_equal(read_str(">>   ------\n>>       0        5       10        0  0x404080\n"
				  ">>   ------\n>>      20.00%   10.00%    0.00%        0x0     0       1  "
				  "0x401126  0  0  0  3  1  [.] f  a  a.c:1  0\n", 0, &a, &in, &e), SLT_EUSAGE);
	slt_error_format(&e, msg, sizeof(msg));
	assert_non_null(strstr(msg, "test:4: perf c2c Pareto rows without their header lines"));
	/* not recognised: the first line with text, not 0x0 */
	assert_int_equal(read_str("\n> hello\n> world\n", 0, &a, &in, &e), SLT_EUSAGE);
	slt_error_format(&e, msg, sizeof(msg));
	assert_non_null(strstr(msg, "test:2: sample format not recognised"));
	/* a few quoted lines in a text that is not a quote: left alone */
	assert_int_equal(read_str("a\nb\nc\n> d\n> e\n", 0, &a, &in, &e), SLT_EUSAGE);
	assert_int_equal(in.quoted_lines, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_local_plain), cmocka_unit_test(test_local_variants),
		cmocka_unit_test(test_amd_ibs), cmocka_unit_test(test_tugtest),
		cmocka_unit_test(test_arm_v1), cmocka_unit_test(test_arm_peer),
		cmocka_unit_test(test_perf48), cmocka_unit_test(test_memcg_excerpt),
		cmocka_unit_test(test_not_c2c), cmocka_unit_test(test_generated),
		cmocka_unit_test(test_format_names), cmocka_unit_test(test_headless),
		cmocka_unit_test(test_nul_bytes), cmocka_unit_test(test_mail_quoted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
