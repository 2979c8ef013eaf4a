/* SPDX-License-Identifier: MIT */
/* Unit tests of the JSON access profile (src/samples/profile.c and
 * profile_write.c): exact records from hand-written profiles, write -> read
 * round trips, and errors with their JSON line and column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/perf_event.h>

#include "structlint/profile.h"

/* Records copied out of the callback (its pointers die after it). */
struct rec {
	struct slt_sample s;
	char *type_name, *member, *symbol, *source, *event, *object;
	uint16_t *cpus;
};

struct recs {
	struct rec *v;
	size_t n, cap;
	int stop_after;     /* return 7 after this many; 0 = never */
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int collect(void *ctx, const struct slt_sample *s)
{
	struct recs *r = ctx;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
		assert_non_null(r->v);
	}
	struct rec *c = &r->v[r->n++];
	c->s = *s;
	c->type_name = dup_or_null(s->type_name);
	c->member = dup_or_null(s->member);
	c->symbol = dup_or_null(s->symbol);
	c->source = dup_or_null(s->source);
	c->event = dup_or_null(s->event);
	c->object = dup_or_null(s->object);
	c->cpus = NULL;
	if (s->n_cpus) {
		c->cpus = malloc(s->n_cpus * sizeof(*c->cpus));
		memcpy(c->cpus, s->cpus, s->n_cpus * sizeof(*c->cpus));
	}
	c->s.type_name = c->type_name;
	c->s.member = c->member;
	c->s.symbol = c->symbol;
	c->s.source = c->source;
	c->s.event = c->event;
	c->s.object = c->object;
	c->s.cpus = c->cpus;
	if (r->stop_after && r->n == (size_t)r->stop_after)
		return 7;
	return 0;
}

static void recs_free(struct recs *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct rec *c = &r->v[i];
		free(c->type_name);
		free(c->member);
		free(c->symbol);
		free(c->source);
		free(c->event);
		free(c->object);
		free(c->cpus);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static void sample_init(struct slt_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = s->pid = s->tid = s->node = -1;
}

static void assert_str_eq(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_same(const struct slt_sample *a, const struct slt_sample *b)
{
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->addr, b->addr);
	assert_int_equal(a->phys_addr, b->phys_addr);
	assert_int_equal(a->line_addr, b->line_addr);
	assert_int_equal(a->line_offset, b->line_offset);
	assert_str_eq(a->type_name, b->type_name);
	assert_int_equal(a->type_offset, b->type_offset);
	assert_str_eq(a->member, b->member);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->tid, b->tid);
	assert_int_equal(a->node, b->node);
	assert_int_equal(a->n_cpus, b->n_cpus);
	for (size_t i = 0; i < a->n_cpus; i++)
		assert_int_equal(a->cpus[i], b->cpus[i]);
	assert_int_equal(a->ip, b->ip);
	assert_str_eq(a->symbol, b->symbol);
	assert_str_eq(a->source, b->source);
	assert_int_equal(a->data_src, b->data_src);
	assert_int_equal(a->access_size, b->access_size);
	assert_int_equal(a->loads, b->loads);
	assert_int_equal(a->stores, b->stores);
	assert_int_equal(a->hitm_local, b->hitm_local);
	assert_int_equal(a->hitm_remote, b->hitm_remote);
	assert_int_equal(a->peer_local, b->peer_local);
	assert_int_equal(a->peer_remote, b->peer_remote);
	assert_int_equal(a->cycles, b->cycles);
	assert_str_eq(a->event, b->event);
	assert_str_eq(a->object, b->object);
	assert_int_equal(a->cpu_count, b->cpu_count);
}

static int parse_str(const char *text, struct recs *r,
		     struct slt_samples_info *info, struct slt_error *err)
{
	slt_error_clear(err);
	return slt_profile_parse(text, strlen(text), "t.json", collect, r, info,
				 err);
}

/* fixtures/samples/profile/example.json, records worked out by hand. */
static void test_example(void **state)
{
	(void)state;
	struct recs r = { 0 };
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_profile_read("fixtures/samples/profile/example.json",
					  collect, &r, &info, &err), 0);
	assert_int_equal(r.n, 7);
	assert_int_equal(info.format, SLT_SAMPLES_PROFILE);
	assert_int_equal(info.records, 7);
	assert_int_equal(info.samples, 100 + 40 + 15 + 5 + 900 + 7 + 1 + 4);
	assert_int_equal(info.cacheline_size, 64);
	assert_string_equal(info.detail, "hand-written example");

	struct slt_sample w;
	const char *T = "struct mem_cgroup_per_node";
	/* lruvec, row cpu 3 */
	sample_init(&w);
	w.flags = SLT_SAMPLE_TYPE | SLT_SAMPLE_MEMBER | SLT_SAMPLE_CPU |
		  SLT_SAMPLE_IP;
	w.type_name = T;
	w.member = "lruvec";
	w.cpu = 3;
	w.loads = 100;
	w.stores = 40;
	w.hitm_local = 3;
	w.symbol = "lru_add_fn+0x2c";
	w.source = "mm/swap.c:212";
	w.ip = 0xffffffff81234567ull;
	assert_same(&r.v[0].s, &w);
	/* row cpu 5 */
	sample_init(&w);
	w.flags = SLT_SAMPLE_TYPE | SLT_SAMPLE_MEMBER | SLT_SAMPLE_CPU;
	w.type_name = T;
	w.member = "lruvec";
	w.cpu = 5;
	w.loads = 15;
	w.hitm_remote = 1;
	assert_same(&r.v[1].s, &w);
	/* remainder of the totals: 120-115 loads, all 9120 cycles */
	sample_init(&w);
	w.flags = SLT_SAMPLE_TYPE | SLT_SAMPLE_MEMBER;
	w.type_name = T;
	w.member = "lruvec";
	w.loads = 5;
	w.cycles = 9120;
	assert_same(&r.v[2].s, &w);
	/* member without offset */
	sample_init(&w);
	w.flags = SLT_SAMPLE_MEMBER;
	w.type_name = T;
	w.member = "lruvec_stats_percpu";
	w.loads = 900;
	assert_same(&r.v[3].s, &w);
	/* offset without member */
	sample_init(&w);
	w.flags = SLT_SAMPLE_TYPE;
	w.type_name = T;
	w.type_offset = 2552;
	w.loads = 7;
	w.peer_local = 2;
	w.peer_remote = 1;
	assert_same(&r.v[4].s, &w);
	/* raw samples */
	sample_init(&w);
	w.flags = SLT_SAMPLE_ADDR | SLT_SAMPLE_CPU | SLT_SAMPLE_TID |
		  SLT_SAMPLE_IP | SLT_SAMPLE_DATA_SRC;
	w.addr = 0xffff888100a3c040ull;
	w.cpu = 2;
	w.pid = 100;
	w.tid = 101;
	w.stores = 1;
	w.ip = 0xffffffff81234567ull;
	w.data_src = 0x68100142;
	w.access_size = 8;
	w.event = "mem-stores";
	assert_same(&r.v[5].s, &w);
	static const uint16_t cpus[] = { 0, 1, 7 };
	sample_init(&w);
	w.flags = SLT_SAMPLE_LINE | SLT_SAMPLE_CPUS;
	w.line_addr = 0xffff888100a3c000ull;
	w.line_offset = 8;
	w.loads = 4;
	w.cpus = cpus;
	w.n_cpus = 3;
	w.node = 0;
	w.object = "[kernel.kallsyms]";
	w.cpu_count = 3;
	assert_same(&r.v[6].s, &w);
	recs_free(&r);

	/* 64-bit counts as strings, hex and decimal */
	assert_int_equal(slt_profile_read("fixtures/samples/profile/minimal.json",
					  collect, &r, &info, &err), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.v[0].s.loads, UINT64_MAX);
	assert_int_equal(r.v[1].s.stores, UINT64_MAX);
	assert_string_equal(r.v[1].s.type_name, "cgroup");
	assert_int_equal(info.samples, UINT64_MAX);   /* saturates */
	assert_int_equal(info.cacheline_size, 0);
	recs_free(&r);
}

/* A varied stream of records; writing and reading it gives it back. */
static void round_trip(bool pretty)
{
	static const uint16_t cpus[] = { 0, 65535, 4 };
	struct slt_sample in[12];
	size_t n = 0;
	struct slt_sample *s;
	/* three rows of one entry (per CPU), then one of another member */
	for (int cpu = 0; cpu < 3; cpu++) {
		s = &in[n++];
		sample_init(s);
		s->flags = SLT_SAMPLE_TYPE | SLT_SAMPLE_MEMBER | SLT_SAMPLE_CPU;
		s->type_name = "struct cgroup";
		s->member = "rstat_cpu";
		s->type_offset = 920;
		s->cpu = cpu;
		s->loads = 10u + (unsigned)cpu;
		s->stores = (unsigned)cpu;
		s->cycles = UINT64_MAX - 5;   /* rows overflow: no totals */
	}
	s = &in[n++];
	sample_init(s);
	s->flags = SLT_SAMPLE_MEMBER;
	s->type_name = "struct cgroup";
	s->member = "last_bstat.cputime.utime";
	s->stores = 1ull << 63;               /* above INT64_MAX */
	s->hitm_local = 1;
	s->hitm_remote = 2;
	s->peer_local = 3;
	s->peer_remote = 4;
	/* same struct again after another: a new group, order kept */
	s = &in[n++];
	sample_init(s);
	s->flags = SLT_SAMPLE_TYPE;
	s->type_name = "zone";
	s->type_offset = 1ull << 40;
	s = &in[n++];
	sample_init(s);
	s->flags = SLT_SAMPLE_TYPE | SLT_SAMPLE_CPU | SLT_SAMPLE_TID;
	s->type_name = "struct cgroup";
	s->type_offset = 944;
	s->cpu = -1;
	s->pid = -1;
	s->tid = 77;
	s->symbol = "css_rstat_flush";
	s->source = "";
	s->loads = 1;
	/* raw records */
	s = &in[n++];
	sample_init(s);
	s->flags = SLT_SAMPLE_ADDR | SLT_SAMPLE_PHYS | SLT_SAMPLE_IP |
		   SLT_SAMPLE_DATA_SRC | SLT_SAMPLE_CPU;
	s->addr = UINT64_MAX;
	s->phys_addr = 0x1234;
	s->ip = 0xffffffff81000000ull;
	s->data_src = 0x4000000000000000ull;
	s->cpu = 31;
	s->node = 1;
	s->access_size = 4;
	s->stores = 1;
	s->event = "cpu/mem-stores/P";
	s->object = "[kernel.kallsyms]";
	s = &in[n++];
	sample_init(s);
	s->flags = SLT_SAMPLE_LINE | SLT_SAMPLE_CPUS;
	s->line_addr = 0xffff888000000040ull;
	s->line_offset = 0x38;
	s->cpus = cpus;
	s->n_cpus = 3;
	s->cpu_count = 3;
	s->hitm_remote = 9;
	/* a TYPE record without a type name, and one with an empty member:
	 * both go to "samples" */
	s = &in[n++];
	sample_init(s);
	s->flags = SLT_SAMPLE_TYPE;
	s->type_offset = 8;
	s = &in[n++];
	sample_init(s);
	s->flags = SLT_SAMPLE_MEMBER;
	s->type_name = "x";
	s->member = "";
	/* an empty record, and a type name with nothing else */
	s = &in[n++];
	sample_init(s);
	s = &in[n++];
	sample_init(s);
	s->type_name = "struct y";
	s->stores = 3;

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct slt_profile_writer *w = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_profile_writer_opts o = { .cacheline_size = 128,
					     .tool = "unit test",
					     .pretty = pretty };
	assert_int_equal(slt_profile_writer_new(f, "mem", &o, &w, &err), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(slt_profile_writer_add(w, &in[i]), 0);
	assert_int_equal(slt_profile_writer_finish(w, &err), 0);
	fclose(f);
	assert_true(slt_profile_detect(buf, len));

	struct recs r = { 0 };
	struct slt_samples_info info;
	slt_error_clear(&err);
	int rc = slt_profile_parse(buf, len, "mem", collect, &r, &info, &err);
	if (rc) {
		char b[1200];
		fail_msg("%s\n%s", slt_error_format(&err, b, sizeof(b)), buf);
	}
	assert_int_equal(r.n, n);
	for (size_t i = 0; i < n; i++)
		assert_same(&r.v[i].s, &in[i]);
	assert_int_equal(info.cacheline_size, 128);
	assert_string_equal(info.detail, "unit test");
	/* the rows' cycles overflowed: the entry states no totals */
	assert_null(strstr(buf, "\"cycles\": 36893488147419103"));
	recs_free(&r);
	free(buf);
}

static void test_round_trip(void **state)
{
	(void)state;
	round_trip(false);
	round_trip(true);
}

/* A writer fed with an example's records reproduces them, and a single
 * count-only record is folded into its entry (no "rows"). */
static void test_write_shape(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct slt_profile_writer *w = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_profile_writer_new(f, "mem", NULL, &w, &err), 0);
	struct slt_sample s;
	sample_init(&s);
	s.flags = SLT_SAMPLE_MEMBER;
	s.type_name = "cgroup";
	s.member = "bstat";
	s.stores = 5;
	assert_int_equal(slt_profile_writer_add(w, &s), 0);
	s.symbol = "f\xff\xc3\xa9";    /* invalid byte, then a valid e-acute */
	assert_int_equal(slt_profile_writer_add(w, &s), 0);
	assert_int_equal(slt_profile_writer_finish(w, &err), 0);
	fclose(f);
	assert_string_equal(buf,
		"{\"schema\":\"structlint.profile/v1\",\"structs\":[{\"type\":"
		"\"cgroup\",\"members\":[{\"member\":\"bstat\",\"rows\":["
		"{\"stores\":5},{\"symbol\":\"f?\xc3\xa9\",\"stores\":5}],"
		"\"stores\":10}]}]}\n");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(slt_profile_writer_new(f, "mem", NULL, &w, &err), 0);
	s.symbol = NULL;
	assert_int_equal(slt_profile_writer_add(w, &s), 0);
	assert_int_equal(slt_profile_writer_finish(w, &err), 0);
	fclose(f);
	assert_string_equal(buf,
		"{\"schema\":\"structlint.profile/v1\",\"structs\":[{\"type\":"
		"\"cgroup\",\"members\":[{\"member\":\"bstat\",\"stores\":5}]}]}\n");
	free(buf);

	/* MEMBER without a member: refused, and finish reports it */
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(slt_profile_writer_new(f, "mem", NULL, &w, &err), 0);
	s.member = NULL;
	assert_int_equal(slt_profile_writer_add(w, &s), SLT_EUSAGE);
	slt_error_clear(&err);
	assert_int_equal(slt_profile_writer_finish(w, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "without a member"));
	fclose(f);
	free(buf);
	slt_profile_writer_free(NULL);
}

struct err_case {
	const char *text;
	int code;
	unsigned line, col;
	const char *frag, *hint;
};

static void test_errors(void **state)
{
	(void)state;
	static const struct err_case cases[] = {
		/* JSON syntax: jansson's line and column */
		{ "{\"schema\": \"structlint.profile/v1\",\n \"structs\": [}\n",
		  SLT_ECORRUPT, 2, 14, "", "valid JSON" },
		{ "{\"schema\":\"structlint.profile/v1\",\"schema\":\"x\"}",
		  SLT_ECORRUPT, 1, 0, "duplicate", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\"samples\":[{\"loads\":"
		  "18446744073709551615}]}", SLT_ECORRUPT, 1, 0, "too big", NULL },
		{ "", SLT_ECORRUPT, 1, 0, "", NULL },
		/* schema */
		{ "[]", SLT_ECORRUPT, 1, 1, "a profile is a JSON object, not an array",
		  NULL },
		{ "{}", SLT_ECORRUPT, 1, 1, "no \"schema\"", "structlint.profile/v1" },
		{ "{\"schema\": \"structlint.profile/v2\"}", SLT_EUNSUPPORTED, 1,
		  12, "unsupported profile version", NULL },
		{ "{\"schema\": \"structlint.report/v1\"}", SLT_ECORRUPT, 1, 12,
		  "is not a structlint profile", NULL },
		{ "{\"schema\": 1}", SLT_ECORRUPT, 1, 12, "schema must be a string",
		  NULL },
		/* values: the column of the offending value */
		{ "{\"schema\":\"structlint.profile/v1\",\n"
		  "  \"structs\": [ {\"type\": \"s\", \"members\": [\n"
		  "    {\"member\": \"a\", \"loads\": -3}]}]}",
		  SLT_ECORRUPT, 3, 30, "loads is negative", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\n"
		  "\"samples\": [{}, {\"addr\": \"0x1g\"}]}",
		  SLT_ECORRUPT, 2, 26, "addr: \"0x1g\" is not a number", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\n"
		  "\"samples\": [{\"ip\": \"0x10000000000000000\"}]}",
		  SLT_ECORRUPT, 2, 20, "does not fit in 64 bits", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\n"
		  "\"samples\": [{\"cpu\": -2}]}",
		  SLT_ECORRUPT, 2, 21, "cpu = -2 is out of range", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\n"
		  "\"samples\": [{\"cpus\": [1, 70000]}]}",
		  SLT_ECORRUPT, 2, 26, "cpus[] = 70000 is out of range", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\n"
		  "\"samples\": [{\"laods\": 1}]}",
		  SLT_ECORRUPT, 2, 23, "unknown key \"laods\"",
		  "did you mean \"loads\"?" },
		{ "{\"schema\":\"structlint.profile/v1\",\"structs\":[{\"type\":\"s\","
		  "\"members\":[{\"member\":\"m\",\"cpu\":1}]}]}",
		  SLT_ECORRUPT, 1, 89, "key \"cpu\" is not allowed here",
		  "in \"rows\"" },
		{ "{\"schema\":\"structlint.profile/v1\",\"structs\":[{\"type\":\"s\","
		  "\"members\":[{\"loads\":1}]}]}",
		  SLT_ECORRUPT, 1, 69, "neither a member nor an offset", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\"structs\":[{\"members\":[]}]}",
		  SLT_ECORRUPT, 1, 46, "without \"type\"", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\"structs\":[{\"type\":\"\","
		  "\"members\":[]}]}", SLT_ECORRUPT, 1, 54, "type is empty", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\"structs\":{}}",
		  SLT_ECORRUPT, 1, 45, "structs must be an array", NULL },
		{ "{\"schema\":\"structlint.profile/v1\",\"cacheline_size\":96}",
		  SLT_ECORRUPT, 1, 52, "not a power of two", NULL },
		/* a data_src that gives no kind (mem_op NA), the row none */
		{ "{\"schema\":\"structlint.profile/v1\",\n"
		  "\"samples\": [{\"cpu\": 1, \"data_src\": \"0x1\"}]}",
		  SLT_ECORRUPT, 2, 36, "data_src 0x1 says neither load nor store",
		  "add \"loads\" or \"stores\"" },
		/* totals below the sum of the rows */
		{ "{\"schema\":\"structlint.profile/v1\",\"structs\":[{\"type\":\"s\","
		  "\"members\":[{\"member\":\"m\",\"loads\":3,\"rows\":[{\"cpu\":1,"
		  "\"loads\":2},{\"cpu\":2,\"loads\":2}]}]}]}",
		  SLT_ECORRUPT, 1, 91,
		  "loads total 3 is less than the sum of its rows (4)", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct err_case *c = &cases[i];
		struct recs r = { 0 };
		struct slt_error err;
		int rc = parse_str(c->text, &r, NULL, &err);
		if (rc != c->code || err.line != c->line ||
		    !strstr(err.message, c->frag) ||
		    (c->hint && !strstr(err.hint, c->hint)))
			fail_msg("case %zu: rc %d line %u: %s (%s)", i, rc,
				 err.line, err.message, err.hint);
		if (c->col) {
			char want[32];
			snprintf(want, sizeof(want), "column %u: ", c->col);
			if (strncmp(err.message, want, strlen(want)) != 0)
				fail_msg("case %zu: %s", i, err.message);
		}
		assert_string_equal(err.file, "t.json");
		if (!(err.offset >= 0 && (size_t)err.offset <= strlen(c->text)))
			fail_msg("case %zu: offset %lld", i, (long long)err.offset);
		/* an error before any record (validation runs first) */
		assert_int_equal(r.n, 0);
		recs_free(&r);
	}
}

/* Rows and samples with a data_src (perf's PERF_MEM_* encoding,
 * <linux/perf_event.h>) and no explicit kind are decoded as perf c2c
 * decodes a sample: one access, load or store by mem_op, HITM (snoop
 * HitM) and peer (snoopx Peer) loads, local or remote; snoopx Fwd (a clean
 * forward) is neither.  Explicit fields win where the row has them. */
#define DS_OP(x) ((uint64_t)(x) << PERF_MEM_OP_SHIFT)
#define DS_LVL(x) ((uint64_t)(x) << PERF_MEM_LVL_SHIFT)
#define DS_SNOOP(x) ((uint64_t)(x) << PERF_MEM_SNOOP_SHIFT)
#define DS_SNOOPX(x) ((uint64_t)(x) << PERF_MEM_SNOOPX_SHIFT)
static void test_data_src(void **state)
{
	(void)state;
	const uint64_t ld = DS_OP(PERF_MEM_OP_LOAD), l3 = DS_LVL(PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3);
	const uint64_t v[] = {
		ld | l3 | DS_SNOOP(PERF_MEM_SNOOP_HITM),                     /* local HITM */
		ld | DS_LVL(PERF_MEM_LVL_REM_CCE1) | DS_SNOOP(PERF_MEM_SNOOP_HITM), /* remote */
		DS_OP(PERF_MEM_OP_STORE) | DS_LVL(PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1),
		ld | DS_LVL(PERF_MEM_LVL_HIT | PERF_MEM_LVL_L2) | DS_SNOOPX(PERF_MEM_SNOOPX_PEER),
		ld | l3 | DS_SNOOPX(PERF_MEM_SNOOPX_FWD),                    /* clean forward */
		ld | l3 | DS_SNOOP(PERF_MEM_SNOOP_HITM),                     /* with "loads": 5 */
		ld | l3 | DS_SNOOP(PERF_MEM_SNOOP_HITM),                     /* "hitm_local": 0 */
		ld | l3 | DS_SNOOP(PERF_MEM_SNOOP_HITM),                     /* "stores": 2 */
		DS_OP(PERF_MEM_OP_STORE),                                    /* a raw sample */
	};
	char text[4096];
	snprintf(text, sizeof(text),
		 "{\"schema\":\"structlint.profile/v1\",\"structs\":[{\"type\":\"s\","
		 "\"members\":[{\"member\":\"m\",\"rows\":["
		 "{\"cpu\":0,\"data_src\":\"0x%llx\"},{\"cpu\":1,\"data_src\":\"0x%llx\"},"
		 "{\"cpu\":2,\"data_src\":\"0x%llx\"},{\"cpu\":3,\"data_src\":\"0x%llx\"},"
		 "{\"cpu\":4,\"data_src\":\"0x%llx\"},"
		 "{\"cpu\":5,\"loads\":5,\"data_src\":\"0x%llx\"},"
		 "{\"cpu\":6,\"loads\":5,\"hitm_local\":0,\"data_src\":\"0x%llx\"},"
		 "{\"cpu\":7,\"stores\":2,\"data_src\":\"0x%llx\"}]}]}],"
		 "\"samples\":[{\"addr\":\"0x1000\",\"data_src\":%llu}]}",
		 (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
		 (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[5],
		 (unsigned long long)v[6], (unsigned long long)v[7], (unsigned long long)v[8]);
	struct recs r = { 0 };
	struct slt_samples_info info;
	struct slt_error err;
	assert_int_equal(parse_str(text, &r, &info, &err), 0);
	assert_int_equal(r.n, 9);
	static const struct {
		uint64_t loads, stores, hl, hr, pl, pr;
	} want[] = {
		{ 1, 0, 1, 0, 0, 0 }, { 1, 0, 0, 1, 0, 0 }, { 0, 1, 0, 0, 0, 0 },
		{ 1, 0, 0, 0, 1, 0 }, { 1, 0, 0, 0, 0, 0 }, { 5, 0, 5, 0, 0, 0 },
		{ 5, 0, 0, 0, 0, 0 }, { 0, 2, 0, 0, 0, 0 }, { 0, 1, 0, 0, 0, 0 },
	};
	for (size_t i = 0; i < 9; i++) {
		const struct slt_sample *s = &r.v[i].s;
		if (s->loads != want[i].loads || s->stores != want[i].stores ||
		    s->hitm_local != want[i].hl || s->hitm_remote != want[i].hr ||
		    s->peer_local != want[i].pl || s->peer_remote != want[i].pr)
			fail_msg("record %zu: ld %llu st %llu hitm %llu/%llu peer %llu/%llu", i,
				 (unsigned long long)s->loads, (unsigned long long)s->stores,
				 (unsigned long long)s->hitm_local, (unsigned long long)s->hitm_remote,
				 (unsigned long long)s->peer_local, (unsigned long long)s->peer_remote);
		assert_true(s->flags & SLT_SAMPLE_DATA_SRC);
		assert_int_equal(s->data_src, v[i]);
	}
	assert_int_equal(info.samples, 1 + 1 + 1 + 1 + 1 + 5 + 5 + 2 + 1);
	/* written and read back, each record keeps its counts: a row with a
	 * data_src states its zeros ("hitm_local": 0 of cpu 6), else the
	 * reader decodes them from data_src again (fuzz_profile found it) */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct slt_profile_writer *w = NULL;
	slt_error_clear(&err);
	assert_int_equal(slt_profile_writer_new(f, "mem", NULL, &w, &err), 0);
	for (size_t i = 0; i < r.n; i++)
		assert_int_equal(slt_profile_writer_add(w, &r.v[i].s), 0);
	assert_int_equal(slt_profile_writer_finish(w, &err), 0);
	fclose(f);
	struct recs back = { 0 };
	slt_error_clear(&err);
	assert_int_equal(slt_profile_parse(buf, len, "mem", collect, &back, NULL, &err), 0);
	assert_int_equal(back.n, r.n);
	for (size_t i = 0; i < r.n; i++) {
		const struct slt_sample *a = &r.v[i].s, *b = &back.v[i].s;
		if (a->loads != b->loads || a->stores != b->stores ||
		    a->hitm_local != b->hitm_local || a->hitm_remote != b->hitm_remote ||
		    a->peer_local != b->peer_local || a->peer_remote != b->peer_remote)
			fail_msg("record %zu read back: ld %llu st %llu hitm %llu/%llu\n%s", i,
				 (unsigned long long)b->loads, (unsigned long long)b->stores,
				 (unsigned long long)b->hitm_local,
				 (unsigned long long)b->hitm_remote, buf);
	}
	recs_free(&back);
	free(buf);
	recs_free(&r);
}

static void test_misc(void **state)
{
	(void)state;
	struct recs r = { 0 };
	struct slt_error err;
	/* the callback's value stops the parse */
	r.stop_after = 2;
	const char *t = "{\"schema\":\"structlint.profile/v1\",\"samples\":"
			"[{\"loads\":1},{\"loads\":2},{\"loads\":3}]}";
	assert_int_equal(parse_str(t, &r, NULL, &err), 7);
	assert_int_equal(r.n, 2);
	recs_free(&r);
	/* unknown keys far from any known one are ignored (forward compat) */
	t = "{\"schema\":\"structlint.profile/v1\",\"generator_version\":3,"
	    "\"samples\":[{\"loads\":1,\"weight_kind\":\"x\"}]}";
	assert_int_equal(parse_str(t, &r, NULL, &err), 0);
	assert_int_equal(r.n, 1);
	recs_free(&r);
	/* a UTF-8 BOM is accepted; no records is fine */
	t = "\xef\xbb\xbf{\"schema\":\"structlint.profile/v1\"}";
	assert_true(slt_profile_detect(t, strlen(t)));
	assert_int_equal(parse_str(t, &r, NULL, &err), 0);
	assert_int_equal(r.n, 0);
	/* detection */
	assert_false(slt_profile_detect("", 0));
	assert_false(slt_profile_detect("[\"structlint.profile/v1\"]", 25));
	assert_false(slt_profile_detect("{\"schema\":\"structlint.report/v1\"}", 33));
	assert_true(slt_profile_detect("  \n{\"schema\":\"structlint.profile/v9\"}", 37));
	/* through the format dispatch: detected among the other formats */
	struct slt_samples_info info;
	slt_error_clear(&err);
	assert_int_equal(slt_samples_read("fixtures/samples/profile/example.json",
					  SLT_SAMPLES_AUTO, collect, &r, &info,
					  &err), 0);
	assert_int_equal(info.format, SLT_SAMPLES_PROFILE);
	assert_int_equal(r.n, 7);
	assert_int_equal(info.records, 7);
	recs_free(&r);
	t = "{\"schema\":\"structlint.profile/v1\",\"samples\":[{\"loads\":2}]}";
	assert_int_equal(slt_samples_read_mem(t, strlen(t), "m", SLT_SAMPLES_PROFILE,
					      collect, &r, &info, &err), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(info.samples, 2);
	recs_free(&r);
	/* missing file */
	slt_error_clear(&err);
	assert_int_equal(slt_profile_read("/nonexistent/p.json", collect, &r, NULL,
					  &err), SLT_EIO);
	assert_string_equal(err.file, "/nonexistent/p.json");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_write_shape),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_data_src),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
