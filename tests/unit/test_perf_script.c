/* SPDX-License-Identifier: MIT */
/*
 * perf script text parser tests.
 *  - the Debian perf 6.1 fixture (fixtures/samples/c2c/perf6.1-local/
 *    perf_script.txt), every field of every line;
 *  - real `perf script -F ...` output, produced at test time, for each -F
 *    combination the parser claims, over (a) perf.data files from
 *    structlint's writer with two memory events, random addresses, ips,
 *    weights, data_src values (decodes of every length, so perf's
 *    growing data_src padding is exercised) and physical addresses, and
 *    (b) a real `perf record -d -e page-faults` recording, with and
 *    without -g; each compared field by field with the native perf.data
 *    reader on the same file (skipped, exit 77, without a usable perf);
 *  - errors with line numbers, callback stop, detection against every
 *    other fixture, every prefix of the fixture and byte flips (no crash);
 *  - slt_samples_read(path) on an 80 MB perf.data: bounded peak RSS.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "samples/parsers.h"
#include "samples/perf_data.h"
#include "structlint/samples.h"

struct one {
	struct slt_sample s;
	char sym[128], obj[256], ev[64];
};
struct got {
	struct one *v;
	size_t n, cap;
	int stop_after;
};

static int collect(void *ctx, const struct slt_sample *s)
{
	struct got *g = ctx;
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 256;
		g->v = realloc(g->v, g->cap * sizeof(*g->v));
		assert_non_null(g->v);
	}
	struct one *o = &g->v[g->n++];
	o->s = *s;
	snprintf(o->sym, sizeof(o->sym), "%s", s->symbol ? s->symbol : "");
	snprintf(o->obj, sizeof(o->obj), "%s", s->object ? s->object : "");
	snprintf(o->ev, sizeof(o->ev), "%s", s->event ? s->event : "");
	o->s.symbol = o->s.object = o->s.event = NULL;
	if (g->stop_after && (int)g->n == g->stop_after)
		return 9;
	return 0;
}

static int read_text(const char *txt, size_t n, struct got *g,
		     struct slt_samples_info *info, struct slt_error *err)
{
	memset(g, 0, sizeof(*g));
	slt_error_clear(err);
	return slt_samples_read_mem(txt, n, "t.txt", SLT_SAMPLES_PERF_SCRIPT, collect,
				    g, info, err);
}

#define FX "fixtures/samples/c2c/perf6.1-local/perf_script.txt"

/* Every line of the fixture (perf 6.1 -F tid,cpu,event,addr,data_src,
 * weight,ip,sym): values read off the text. */
static void test_fixture(void **state)
{
	(void)state;
	static const struct {
		int cpu;
		const char *ev;
		uint64_t addr, dsrc, weight, ip;
		const char *sym;
		int store, hitm_l, hitm_r;
	} want[] = {
		{ 0, "cpu/mem-stores/P", 0x404080, 0x184, 0, 0x401126, "writer", 1, 0, 0 },
		{ 1, "cpu/mem-stores/P", 0x404088, 0x144, 0, 0x40112d, "writer", 1, 0, 0 },
		{ 2, "cpu/mem-loads,ldlat=30/P", 0x404090, 0x100142, 180, 0x40113c, "reader", 0, 0, 0 },
		{ 3, "cpu/mem-loads,ldlat=30/P", 0x404098, 0x808042, 420, 0x401135, "reader", 0, 0, 1 },
		{ 0, "cpu/mem-stores/P", 0x404080, 0x144, 0, 0x401126, "writer", 1, 0, 0 },
		{ 1, "cpu/mem-stores/P", 0x404088, 0x144, 0, 0x40112d, "writer", 1, 0, 0 },
		{ 2, "cpu/mem-loads,ldlat=30/P", 0x404090, 0x800842, 180, 0x40113c, "reader", 0, 1, 0 },
		{ 3, "cpu/mem-loads,ldlat=30/P", 0x404098, 0x800842, 420, 0x401135, "reader", 0, 1, 0 },
		{ 0, "cpu/mem-stores/P", 0x404080, 0x144, 0, 0x401126, "writer", 1, 0, 0 },
		{ 1, "cpu/mem-stores/P", 0x404088, 0x144, 0, 0x40112d, "writer", 1, 0, 0 },
		{ 2, "cpu/mem-loads,ldlat=30/P", 0x404090, 0x800842, 180, 0x40113c, "reader", 0, 1, 0 },
		{ 3, "cpu/mem-loads,ldlat=30/P", 0x404098, 0x800842, 420, 0x401135, "reader", 0, 1, 0 },
	};
	struct got g = { 0 };
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_samples_read(FX, SLT_SAMPLES_AUTO, collect, &g, &info, &err);
	if (rc)
		fail_msg("%s", err.message);
	assert_int_equal(info.format, SLT_SAMPLES_PERF_SCRIPT);
	assert_int_equal(g.n, 12);
	assert_int_equal(info.records, 12);
	assert_int_equal(info.samples, 12);
	assert_int_equal(info.skipped, 0);
	for (size_t i = 0; i < 12; i++) {
		const struct slt_sample *s = &g.v[i].s;
		assert_int_equal(s->flags, SLT_SAMPLE_ADDR | SLT_SAMPLE_CPU | SLT_SAMPLE_TID |
				 SLT_SAMPLE_IP | SLT_SAMPLE_DATA_SRC);
		assert_int_equal(s->cpu, want[i].cpu);
		assert_int_equal(s->tid, 4242);
		assert_int_equal(s->pid, -1);
		assert_int_equal(s->node, -1);
		assert_string_equal(g.v[i].ev, want[i].ev);
		assert_int_equal(s->addr, want[i].addr);
		assert_int_equal(s->data_src, want[i].dsrc);
		assert_int_equal(s->ip, want[i].ip);
		assert_string_equal(g.v[i].sym, want[i].sym);
		assert_string_equal(g.v[i].obj, "");
		assert_int_equal(s->stores, want[i].store);
		assert_int_equal(s->loads, !want[i].store);
		assert_int_equal(s->cycles, want[i].store ? 0 : want[i].weight);
		assert_int_equal(s->hitm_local, want[i].hitm_l);
		assert_int_equal(s->hitm_remote, want[i].hitm_r);
		assert_int_equal(s->peer_local + s->peer_remote + s->phys_addr, 0);
	}
	free(g.v);
}

/* ---- against real perf ---- */

static char tmpdir[256];

static void mkpath(char *buf, size_t n, const char *name)
{
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/slt-pscript-XXXXXX");
		assert_non_null(mkdtemp(tmpdir));
	}
	snprintf(buf, n, "%s/%s", tmpdir, name);
}

static bool have_perf(void)
{
	return system("perf --version >/dev/null 2>&1") == 0;
}

static bool has_field(const char *fields, const char *f)
{
	size_t n = strlen(f);
	for (const char *p = fields; (p = strstr(p, f)); p += n)
		if ((p == fields || p[-1] == ',' || p[-1] == '+') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* The fields a compare() sorts by: those the text carries. */
static struct key_fields {
	bool cpu, tid, pid, ip, ds, wt, ph, ev;
} key;

#define CMP_FIELD(on, x, y) do { if ((on) && (x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

static int cmp_one(const void *pa, const void *pb)
{
	const struct one *a = pa, *b = pb;
	CMP_FIELD(true, a->s.addr, b->s.addr);
	CMP_FIELD(key.ip, a->s.ip, b->s.ip);
	CMP_FIELD(key.tid, a->s.tid, b->s.tid);
	CMP_FIELD(key.pid, a->s.pid, b->s.pid);
	CMP_FIELD(key.cpu, a->s.cpu, b->s.cpu);
	CMP_FIELD(key.ds, a->s.data_src, b->s.data_src);
	CMP_FIELD(key.ds && key.wt, a->s.cycles, b->s.cycles);
	CMP_FIELD(key.ph, a->s.phys_addr, b->s.phys_addr);
	return key.ev ? strcmp(a->ev, b->ev) : 0;
}

/*
 * Run `perf script -F fields` (extra: more options) on data, parse the
 * text, compare with the native reader's samples of the same file for
 * every field the text carries.  Returns the number of samples.
 */
static size_t compare(const char *data, const char *fields, const char *extra,
		      bool dflt, bool chain)
{
	char txt[300], cmd[1024];
	mkpath(txt, sizeof(txt), "out.txt");
	/* fields "": perf's default output (raw PMU events: with addr,
	 * data_src, weight and phys_addr) */
	bool raw_dflt = !fields[0];
	snprintf(cmd, sizeof(cmd), "perf script %s %s %s -i '%s' > '%s' 2>/dev/null",
		 extra, raw_dflt ? "" : "-F", fields, data, txt);
	if (system(cmd) != 0)
		fail_msg("perf script -F %s failed", fields);
	struct got nat = { 0 }, got = { 0 };
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_perf_data_read(data, collect, &nat, &info, &err))
		fail_msg("native: %s", err.message);
	slt_error_clear(&err);
	if (slt_samples_read(txt, SLT_SAMPLES_AUTO, collect, &got, &info, &err))
		fail_msg("-F %s: %s", fields, err.message);
	assert_int_equal(info.format, SLT_SAMPLES_PERF_SCRIPT);
	if (got.n != nat.n)
		fail_msg("-F %s: %zu samples, native reader %zu", fields, got.n, nat.n);
	bool cpu = dflt || has_field(fields, "cpu"), tid = dflt || has_field(fields, "tid"),
	     pid = has_field(fields, "pid") && tid, ip = (dflt || has_field(fields, "ip")) && !chain,
	     ds = raw_dflt || has_field(fields, "data_src"),
	     wt = raw_dflt || has_field(fields, "weight"),
	     ph = raw_dflt || has_field(fields, "phys_addr"), ev = dflt || has_field(fields, "event"),
	     sym = dflt || has_field(fields, "sym"), dso = dflt || has_field(fields, "dso");
	/* perf script prints samples in time order across CPUs, the file
	 * holds them in per-CPU buffer order: compare as multisets, both
	 * sorted by every field the text carries */
	key = (struct key_fields){ cpu, tid, pid, ip, ds, wt, ph, ev };
	qsort(got.v, got.n, sizeof(*got.v), cmp_one);
	qsort(nat.v, nat.n, sizeof(*nat.v), cmp_one);
	for (size_t i = 0; i < got.n; i++) {
		const struct slt_sample *a = &got.v[i].s, *b = &nat.v[i].s;
		if (a->addr != b->addr)
			fail_msg("-F %s sample %zu: addr %" PRIx64 ", native %" PRIx64,
				 fields, i, a->addr, b->addr);
		assert_int_equal(!!(a->flags & SLT_SAMPLE_CPU), cpu);
		assert_int_equal(a->cpu, cpu ? b->cpu : -1);
		assert_int_equal(!!(a->flags & SLT_SAMPLE_TID), tid);
		assert_int_equal(a->tid, tid ? b->tid : -1);
		assert_int_equal(a->pid, pid ? b->pid : -1);
		assert_int_equal(!!(a->flags & SLT_SAMPLE_IP), ip);
		if (a->ip != (ip ? b->ip : 0))
			fail_msg("-F %s sample %zu: ip %" PRIx64 ", native %" PRIx64,
				 fields, i, a->ip, b->ip);
		assert_int_equal(!!(a->flags & SLT_SAMPLE_DATA_SRC), ds && (b->flags & SLT_SAMPLE_DATA_SRC));
		if (ds) {
			assert_int_equal(a->data_src, b->data_src);
			assert_int_equal(a->loads, b->loads);
			assert_int_equal(a->stores, b->stores);
			assert_int_equal(a->hitm_local, b->hitm_local);
			assert_int_equal(a->hitm_remote, b->hitm_remote);
			assert_int_equal(a->peer_local, b->peer_local);
			assert_int_equal(a->peer_remote, b->peer_remote);
		} else {
			assert_int_equal(a->loads, 1);
			assert_int_equal(a->stores + a->hitm_local + a->hitm_remote, 0);
		}
		if (a->cycles != (ds && wt ? b->cycles : 0))
			fail_msg("-F %s sample %zu: cycles %" PRIu64 ", native %" PRIu64,
				 fields, i, a->cycles, b->cycles);
		assert_int_equal(!!(a->flags & SLT_SAMPLE_PHYS), ph);
		if (a->phys_addr != (ph ? b->phys_addr : 0))
			fail_msg("-F %s sample %zu: phys %" PRIx64 ", native %" PRIx64,
				 fields, i, a->phys_addr, b->phys_addr);
		if (ev)
			assert_string_equal(got.v[i].ev, nat.v[i].ev);
		else
			assert_string_equal(got.v[i].ev, "");
		if (!sym)
			assert_string_equal(got.v[i].sym, "");
		if (!dso)
			assert_string_equal(got.v[i].obj, "");
	}
	size_t n = got.n;
	free(got.v);
	free(nat.v);
	return n;
}

/* A random perf_mem_data_src: every op, level, snoop, lock, tlb, remote,
 * snoopx and level-number field filled at random (decodes of any length). */
static uint64_t random_dsrc(uint64_t x)
{
	union perf_mem_data_src d = { .val = 0 };
	d.mem_op = (x & 1) ? PERF_MEM_OP_STORE : (x & 2) ? PERF_MEM_OP_LOAD : (x >> 2 & 0x1f);
	d.mem_lvl = x >> 7 & 0x3fff;
	d.mem_snoop = x >> 21 & 0x1f;
	d.mem_lock = x >> 26 & 3;
	d.mem_dtlb = x >> 28 & 0x7f;
	d.mem_lvl_num = x >> 35 & 0xf;
	d.mem_remote = x >> 39 & 1;
	d.mem_snoopx = x >> 40 & 3;
	d.mem_blk = x >> 42 & 7;
	d.mem_hops = x >> 45 & 7;
	return d.val;
}

static void gen_mem(const char *path, size_t n)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_pdw *w;
	assert_int_equal(slt_pdw_open(&w, fd, 0, &err), 0);
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = 0x1cd;
	a.config1 = 30;
	a.sample_period = 4000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			PERF_SAMPLE_PHYS_ADDR;
	a.sample_id_all = 1;
	a.precise_ip = 2;
	uint64_t ids0[2] = { 10, 11 }, ids1[2] = { 20, 21 };
	assert_int_equal(slt_pdw_add_event(w, &a, "cpu/mem-loads,ldlat=30/P", ids0, 2), 0);
	a.config = 0x82d0;
	a.config1 = 0;
	assert_int_equal(slt_pdw_add_event(w, &a, "cpu/mem-stores/P", ids1, 2), 1);
	slt_pdw_set_info(w, 2, "6.1.0", 0, NULL);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		unsigned cpu = (unsigned)(x & 1), ev = (unsigned)(x >> 1 & 1);
		unsigned k = (unsigned)(x >> 2 & 3);
		/* decimal-looking and hex, short and full-width values */
		uint64_t ip = k == 0 ? 0x401126 : k == 1 ? 0xffffffff81000000ull + (x >> 20 & 0xffffff)
				     : k == 2 ? 0x400000 + (x >> 24 & 0xfff) : 0x7f0000000000ull + (x >> 12 & 0xffffffffull);
		uint64_t addr = (x >> 4 & 1) ? 0x404000 + (x >> 30 & 0xff8)
					     : (x >> 5 & 1) ? 0xffff888100000000ull + (x >> 16 & 0xffffff)
							    : 0x555555554000ull + (x >> 8 & 0xfffff);
		struct slt_pdw_sample s = {
			.id = ev ? ids1[cpu] : ids0[cpu],
			.ip = ip, .pid = 4242, .tid = 4242 + (unsigned)(x >> 6 & 7),
			.time = 1000000000ull + i * 1234567, .addr = addr,
			.cpu = cpu, .period = 4000,
			.weight = (x >> 7 & 1) ? 0 : (x >> 7 & 2) ? x >> 33 : x >> 50,
			.data_src = (x >> 9 & 3) == 0 ? 0x800842 : random_dsrc(x * 0x2545f4914f6cdd1dull),
			.phys_addr = (x >> 11 & 1) ? 0x123456789ull : (x >> 12 & 0xfffffffff000ull),
		};
		assert_int_equal(slt_pdw_sample(w, (int)ev, &s, &err), 0);
	}
	assert_int_equal(slt_pdw_close(w, &err), 0);
	close(fd);
}

static void test_perf_on_writer(void **state)
{
	(void)state;
	if (!have_perf())
		skip();
	char path[300];
	mkpath(path, sizeof(path), "mem.data");
	gen_mem(path, 3000);
	static const char *const combos[] = {
		"addr",
		"addr,ip",
		"tid,addr",
		"tid,cpu,addr,ip",
		"pid,tid,cpu,time,event,addr,ip,sym",
		"tid,cpu,event,addr,data_src,weight,ip,sym",   /* the fixture's */
		"comm,pid,tid,cpu,time,period,event,addr,data_src,weight,ip,sym,symoff,dso,phys_addr",
		"addr,data_src",
		"addr,weight",
		"addr,weight,ip",
		"addr,data_src,weight",
		"addr,data_src,ip,sym",
		"addr,data_src,weight,ip,phys_addr",
		"addr,ip,phys_addr",
		"cpu,addr,weight,phys_addr",
		"event,addr,data_src,weight,phys_addr",
		"cpu,time,addr,data_src,ip,dso,phys_addr",
	};
	for (size_t i = 0; i < sizeof(combos) / sizeof(combos[0]); i++)
		assert_int_equal(compare(path, combos[i], "", false, false), 3000);
	/* perf script without -F: raw PMU events (perf mem, perf c2c) print
	 * addr, data_src, weight and phys_addr by default */
	assert_int_equal(compare(path, "", "", true, false), 3000);
}

/* `perf script` without -F on the page-fault recording data: detected
 * as perf script, refused (SLT_EUSAGE) with a hint naming the -F line;
 * that line run through perf (which refuses -F cpu for samples without a
 * CPU) reads back as many samples as the native reader finds. */
static void default_output(const char *data, bool cpu)
{
	char txt[300], cmd[1024];
	mkpath(txt, sizeof(txt), "dflt.txt");
	snprintf(cmd, sizeof(cmd), "perf script -i '%s' > '%s' 2>/dev/null", data, txt);
	assert_int_equal(system(cmd), 0);
	struct got g = { 0 };
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_samples_read(txt, SLT_SAMPLES_AUTO, collect, &g, &info, &err),
			 SLT_EUSAGE);
	assert_int_equal(g.n, 0);
	free(g.v);
	assert_non_null(strstr(err.message, "lines of event page-faults without one"));
	const char *want = cpu ? "perf script -F tid,cpu,time,event,addr,ip,sym,dso -i perf.data" :
				 "perf script -F tid,time,event,addr,ip,sym,dso -i perf.data";
	const char *f = strstr(err.hint, want);
	if (!f)
		fail_msg("hint: %s", err.hint);
	assert_int_equal(!!strstr(err.hint, "perf refuses cpu"), !cpu);
	/* the hint's fields, as perf takes them */
	char fields[128];
	const char *b = f + strlen("perf script -F ");
	snprintf(fields, sizeof(fields), "%.*s", (int)(strchr(b, ' ') - b), b);
	struct got nat = { 0 };
	slt_error_clear(&err);
	assert_int_equal(slt_perf_data_read(data, collect, &nat, &info, &err), 0);
	assert_int_equal(compare(data, fields, "", false, false), nat.n);
	free(nat.v);
}

static void test_perf_on_page_faults(void **state)
{
	(void)state;
	if (!have_perf())
		skip();
	char path[300], cmd[1024];
	mkpath(path, sizeof(path), "pf.data");
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -c 1 -d --sample-cpu --phys-data -e page-faults -o '%s' -- ls -l / >/dev/null 2>&1", path);
	if (system(cmd) != 0)
		skip();   /* perf_event_paranoid or no perf_event_open */
	static const char *const combos[] = {
		"tid,cpu,addr,ip",
		"comm,tid,pid,cpu,time,event,addr,ip,sym,symoff,dso",  /* addr has a symbol too */
		"addr,sym,dso,ip,sym,phys_addr",
		"tid,addr,ip,sym,dso,phys_addr",
		"event,addr,phys_addr,ip",
	};
	for (size_t i = 0; i < sizeof(combos) / sizeof(combos[0]); i++)
		assert_true(compare(path, combos[i], "", false, false) > 10);
	/* perf's default fields plus addr */
	assert_true(compare(path, "+addr", "", true, false) > 10);

	/* with call chains: the ip is the first tab-indented line */
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -g -c 1 -d --sample-cpu -e page-faults -o '%s.g' -- ls -l / >/dev/null 2>&1", path);
	assert_int_equal(system(cmd), 0);
	char pg[320];
	snprintf(pg, sizeof(pg), "%s.g", path);
	assert_true(compare(pg, "tid,addr,ip,sym", "", false, true) > 10);
	assert_true(compare(pg, "comm,tid,cpu,time,event,addr,ip,sym,dso", "", false, true) > 10);
	assert_true(compare(pg, "+addr", "", true, true) > 10);

	/* perf's default output has no addr: recognised and refused naming
	 * the -F line, which perf accepts and which reads back (with the CPU
	 * these samples carry) */
	default_output(path, true);
	/* recorded without --sample-cpu: perf refuses -F cpu, the hint
	 * leaves it out */
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -c 1 -d -e page-faults -o '%s.nocpu' -- ls -l / >/dev/null 2>&1", path);
	assert_int_equal(system(cmd), 0);
	snprintf(pg, sizeof(pg), "%s.nocpu", path);
	default_output(pg, false);
}

/* ---- errors, detection, robustness ---- */

static void test_errors(void **state)
{
	(void)state;
	struct got g;
	struct slt_samples_info info;
	struct slt_error err;
	const char *good = " 4242 [000]   ev:           404080           401126 writer\n";
	char buf[2048];

	/* a 20-digit number where the ip goes, on line 3 */
	snprintf(buf, sizeof(buf), "# c\n%s 4242 [000]   ev:           404080 99999999999999999999 writer\n", good);
	assert_int_equal(read_text(buf, strlen(buf), &g, &info, &err), SLT_ECORRUPT);
	assert_int_equal(err.line, 3);
	assert_int_equal(g.n, 1);
	free(g.v);

	/* a decode without its raw data_src value: line 2 */
	snprintf(buf, sizeof(buf), "%s 4242 [000]   ev:           404080 |OP LOAD           401126 sym\n", good);
	assert_int_equal(read_text(buf, strlen(buf), &g, &info, &err), SLT_ECORRUPT);
	assert_int_equal(err.line, 2);
	free(g.v);

	/* more 16-column numbers than perf prints: line 2 */
	snprintf(buf, sizeof(buf), "%s 4242 [000]   ev:           404080           401126 sym"
		 "                1                2\n", good);
	assert_int_equal(read_text(buf, strlen(buf), &g, &info, &err), SLT_ECORRUPT);
	assert_int_equal(err.line, 2);
	free(g.v);

	/* cpu out of range */
	snprintf(buf, sizeof(buf), "%s 4242 [99999999999]   ev:           404080\n", good);
	assert_int_equal(read_text(buf, strlen(buf), &g, &info, &err), SLT_ECORRUPT);
	assert_int_equal(err.line, 2);
	free(g.v);

	/* a call-chain line with nothing before it */
	snprintf(buf, sizeof(buf), "\tffffffff8177539a elf_load\n%s", good);
	assert_int_equal(read_text(buf, strlen(buf), &g, &info, &err), SLT_ECORRUPT);
	assert_int_equal(err.line, 1);
	free(g.v);

	/* a call-chain line without an address, line 3 */
	snprintf(buf, sizeof(buf), "%5d %16x\n\tffffffff8177539a elf_load\n\tfoo\n", 4242, 0x404080);
	assert_int_equal(read_text(buf, strlen(buf), &g, &info, &err), SLT_ECORRUPT);
	assert_int_equal(err.line, 3);
	free(g.v);

	/* call chain: first entry is the ip, the rest and the blank line go */
	snprintf(buf, sizeof(buf), "%5d %16x\n\tffffffff8177539a elf_load ([kernel.kallsyms])\n"
		 "\t    7fd83bef2ad7 [unknown] (/lib/x.so)\n\n%5d %16x\n", 4242, 0x404080, 4243, 0x404088);
	assert_int_equal(read_text(buf, strlen(buf), &g, &info, &err), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.v[0].s.ip, 0);   /* perf prints DSO-relative ones */
	assert_int_equal(g.v[0].s.flags & SLT_SAMPLE_IP, 0);
	assert_string_equal(g.v[0].sym, "elf_load");
	assert_string_equal(g.v[0].obj, "[kernel.kallsyms]");
	assert_int_equal(g.v[1].s.tid, 4243);
	assert_int_equal(g.v[1].s.flags & SLT_SAMPLE_IP, 0);
	free(g.v);

	/* a line without a data address is skipped and counted */
	snprintf(buf, sizeof(buf), "%s 4242 [000]   ev:  ffffffff8177539a elf_load\n", good);
	assert_int_equal(read_text(buf, strlen(buf), &g, &info, &err), 0);
	assert_int_equal(info.records, 1);
	assert_int_equal(info.skipped, 1);
	free(g.v);

	/* the callback's value stops the parse */
	memset(&g, 0, sizeof(g));
	g.stop_after = 5;
	slt_error_clear(&err);
	assert_int_equal(slt_samples_read(FX, SLT_SAMPLES_PERF_SCRIPT, collect, &g, &info, &err), 9);
	assert_int_equal(g.n, 5);
	free(g.v);

	/* a NUL inside the dso parentheses (found by fuzz_perf_script): not
	 * text, refused with its line (src/samples/read.c), nothing read */
	static const char nul[] = " 4242 [000]   ev:           404080           401126 f (a\0b)\n";
	memset(&g, 0, sizeof(g));
	slt_error_clear(&err);
	assert_int_equal(read_text(nul, sizeof(nul) - 1, &g, &info, &err), SLT_ECORRUPT);
	assert_int_equal(err.line, 1);
	assert_int_equal(g.n, 0);
	free(g.v);

	/* empty input: nothing, no error */
	assert_int_equal(read_text("", 0, &g, &info, &err), 0);
	assert_int_equal(info.records, 0);
	free(g.v);
}

static void test_detect(void **state)
{
	(void)state;
	static const char *const others[] = {
		"fixtures/samples/c2c/perf6.1-local/c2c_stdio.txt",
		"fixtures/samples/c2c/perf6.1-local/c2c_stdioN.txt",
		"fixtures/samples/c2c/perf6.1-local/c2c_stdioNN.txt",
		"fixtures/samples/c2c/perf6.1-local/c2c_stdio_phys_NN.txt",
		"fixtures/samples/c2c/perf6.1-local/c2c_stdioc_tid_pid_iaddr_N.txt",
		"fixtures/samples/c2c/perf6.1-local/c2c_stdiod_lcl.txt",
		"fixtures/samples/c2c/perf6.1-local/c2c_stdiod_rmt.txt",
		"fixtures/samples/c2c/perf6.1-local/c2c_stdionosource_fullsymbols.txt",
		"fixtures/samples/c2c/perf6.1-local/c2c_stdiostats.txt",
		"fixtures/samples/c2c/perf6.1-local/perf_mem_report.txt",
		"fixtures/samples/c2c/perf6.1-local/report_mem_mode.txt",
		"fixtures/samples/c2c/published/c2c-amd-ibs-go-benchmark.txt",
		"fixtures/samples/c2c/published/c2c-and-datatype-tugtest.txt",
		"fixtures/samples/c2c/published/c2c-arm64-spe-and-x86-v1-series.txt",
		"fixtures/samples/c2c/published/c2c-arm64-spe-peer-display.txt",
		"fixtures/samples/c2c/published/c2c-intel-4socket-perf4.8-rmt-coalesce.txt",
		"fixtures/samples/c2c/published/c2c-pareto-excerpt-memcg-css-with-pahole.txt",
		"fixtures/samples/c2c/published/datatype-hex-offsets-and-typecln.txt",
		"fixtures/samples/c2c/published/datatype-powerpc-hierarchy-group.txt",
		"fixtures/samples/c2c/published/datatype-typeoff-rfc-examples.txt",
		"fixtures/samples/c2c/published/perf-mem-amd-ibs-zen5.txt",
		"fixtures/samples/c2c/published/perf-mem-intel-hybrid-header-events.txt",
		"fixtures/samples/perf_data/gen-file.data",
		"fixtures/samples/perf_data/pagefaults-true.data",
		"fixtures/samples/profile/example.json",
	};
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		FILE *f = fopen(others[i], "rb");
		if (!f)
			continue;   /* a fixture another module has not landed yet */
		static unsigned char head[SLT_DETECT_BYTES];
		size_t n = fread(head, 1, sizeof(head), f);
		fclose(f);
		int score = slt_perf_script_detect(head, n);
		if (score)
			fail_msg("%s detected as perf script (%d)", others[i], score);
	}
	FILE *f = fopen(FX, "rb");
	assert_non_null(f);
	static unsigned char head[SLT_DETECT_BYTES];
	size_t n = fread(head, 1, sizeof(head), f);
	fclose(f);
	assert_int_equal(slt_perf_script_detect(head, n), 45);
}

/* Every prefix and single-byte change of the fixture: an answer, never a
 * crash or a read past the end (run under valgrind/ASan to see). */
static void test_robust(void **state)
{
	(void)state;
	FILE *f = fopen(FX, "rb");
	assert_non_null(f);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	for (size_t k = 0; k <= n; k++) {
		char *c = malloc(k ? k : 1);
		memcpy(c, buf, k);
		struct got g;
		struct slt_samples_info info;
		struct slt_error err;
		int rc = read_text(c, k, &g, &info, &err);
		assert_true(rc == 0 || rc == SLT_ECORRUPT || rc == SLT_EUSAGE);
		assert_true(g.n <= 12);   /* prefixes: never more lines */
		free(g.v);
		free(c);
	}
	static const char flips[] = { ' ', '\t', '\n', '|', '(', ')', '[', ']', ':', '/', '0', 'f', 'z', 0 };
	for (size_t k = 0; k < n; k += 3)
		for (size_t j = 0; j < sizeof(flips); j++) {
			char *c = malloc(n);
			memcpy(c, buf, n);
			c[k] = flips[j];
			struct got g;
			struct slt_samples_info info;
			struct slt_error err;
			int rc = read_text(c, n, &g, &info, &err);
			assert_true(rc == 0 || rc == SLT_ECORRUPT || rc == SLT_EUSAGE);
			if (rc == SLT_ECORRUPT)
				assert_true(err.line >= 1 && err.line <= 14);
			assert_true(g.n <= 14);
			free(g.v);
			(void)slt_perf_script_detect((const unsigned char *)c, n);
			free(c);
		}
}

static long maxrss_kib(void)
{
	struct rusage ru;
	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

static int count_cb(void *ctx, const struct slt_sample *s)
{
	*(uint64_t *)ctx += s->loads + s->stores;
	return 0;
}

/* slt_samples_read(path) streams a regular perf.data (read.c's parse_fd
 * route): peak RSS grows by far less than the 80 MB file (a mapped walk
 * keeps every page it touched resident). */
static void test_read_path_bounded(void **state)
{
	(void)state;
	char path[300];
	mkpath(path, sizeof(path), "big.data");
	gen_mem(path, 1000000);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 80000000);
	long before = maxrss_kib();
	uint64_t n = 0;
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_samples_read(path, SLT_SAMPLES_AUTO, count_cb, &n, &info, &err))
		fail_msg("%s", err.message);
	assert_int_equal(n, 1000000);
	assert_int_equal(info.format, SLT_SAMPLES_PERF_DATA);
	long grew = maxrss_kib() - before;
	if (grew > 16 * 1024)
		fail_msg("peak RSS grew by %ld KiB reading an %lld-byte file", grew,
			 (long long)st.st_size);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_perf_on_writer),
		cmocka_unit_test(test_perf_on_page_faults),
		cmocka_unit_test(test_read_path_bounded),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (tmpdir[0]) {
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd)) {}
	}
	return rc;
}
