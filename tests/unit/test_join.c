/* SPDX-License-Identifier: MIT */
/* Join tests: typed, explicit-base, hinted and inferred samples mapped to
 * innermost members, per-CPU and per-location sums, refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "graph_helpers.h"
#include "structlint/join.h"

/*
 * struct jt {                      offset size
 *	long a;                          0    8
 *	int b;                           8    4
 *	(4-byte hole)
 *	long arr[4];                    16   32
 *	unsigned f1:3, f2:5;            48    4 (one storage unit)
 *	(12-byte hole)
 *	struct { int x; int y; } in;    64    8 (inline with expand)
 *	long tail;                      72    8
 *	(48 bytes of tail padding)
 * };                               size 128, alignment 8
 */
static struct slt_struct *jt(struct slt_arena *a)
{
	struct slt_type *i = G_INT(a, "int", 4), *l = G_INT(a, "long int", 8),
			*u = G_INT(a, "unsigned int", 4);
	struct slt_type *in = g_comp(a, SLT_T_STRUCT, "in_t", 8, 2);
	g_mem(in, "x", i, 0, 0, 0);
	g_mem(in, "y", i, 32, 0, 0);
	struct slt_type *t = g_comp(a, SLT_T_STRUCT, "jt", 128, 7);
	g_mem(t, "a", l, 0, 0, 0);
	g_mem(t, "b", i, 64, 0, 0);
	g_mem(t, "arr", g_array(a, l, 4, 8), 128, 0, 0);
	g_mem(t, "f1", u, 384, 3, 0);
	g_mem(t, "f2", u, 387, 5, 0);
	g_mem(t, "in", in, 512, 0, 0);
	g_mem(t, "tail", l, 576, 0, 0);
	struct slt_struct *s = slt_arena_alloc(a, sizeof(*s));
	struct slt_error err;
	assert_int_equal(slt_build_struct(a, t, SLT_FORMAT_DWARF, true, "jt.o", s, &err), 0);
	return s;
}

static long idx(const struct slt_struct *s, const char *name)
{
	for (size_t i = 0; i < s->n_members; i++)
		if (!strcmp(s->members[i].name, name))
			return (long)i;
	fail_msg("no member %s", name);
	return -1;
}

static struct slt_sample typed(const char *type, uint64_t off, uint64_t ld, uint64_t st)
{
	return (struct slt_sample){ .flags = SLT_SAMPLE_TYPE, .type_name = type,
				    .type_offset = off, .cpu = -1, .loads = ld,
				    .stores = st };
}

static struct slt_sample at(uint64_t addr, int cpu, uint64_t ld, uint64_t st)
{
	return (struct slt_sample){ .flags = SLT_SAMPLE_ADDR | (cpu >= 0 ? SLT_SAMPLE_CPU : 0),
				    .addr = addr, .cpu = cpu, .loads = ld, .stores = st };
}

static struct slt_access_profile *run(const struct slt_struct *s,
				      const struct slt_join_opts *o,
				      const struct slt_sample *v, size_t n,
				      int want_rc, struct slt_error *err)
{
	struct slt_join *j;
	struct slt_access_profile *p = NULL;
	slt_error_clear(err);
	assert_int_equal(slt_join_new(s, o, &j, err), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(slt_join_add(j, &v[i]), 0);
	assert_int_equal(slt_join_finish(j, &p, err), want_rc);
	return p;
}

static void test_typed(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_struct *s = jt(a);
	struct slt_error err;
	struct slt_sample v[] = {
		typed("struct jt", 0, 5, 1),     /* a */
		typed("jt", 4, 2, 0),            /* inside a */
		typed("struct jt", 12, 7, 0),    /* hole after b */
		typed("struct jt", 40, 0, 3),    /* arr[3] */
		typed("struct jt", 48, 4, 4),    /* f1/f2 storage unit -> f1 */
		typed("struct jt", 68, 1, 9),    /* in.y */
		typed("struct other", 0, 100, 100),
		typed("struct jt", 200, 6, 0),   /* outside */
	};
	struct slt_access_profile *p = run(s, NULL, v, 8, 0, &err);
	assert_int_equal(p->base_method, SLT_BASE_TYPED);
	assert_int_equal(p->members[idx(s, "a")].loads, 7);
	assert_int_equal(p->members[idx(s, "a")].stores, 1);
	assert_int_equal(p->members[idx(s, "arr")].stores, 3);
	assert_int_equal(p->members[idx(s, "f1")].loads, 4);
	assert_int_equal(p->members[idx(s, "f2")].loads, 0);
	assert_int_equal(p->members[idx(s, "y")].stores, 9);
	assert_int_equal(p->members[idx(s, "x")].stores, 0);
	/* the inline parent sums its children */
	assert_int_equal(p->members[idx(s, "in")].stores, 9);
	assert_int_equal(p->members[idx(s, "in")].loads, 1);
	assert_int_equal(p->outside.loads, 13);
	assert_int_equal(p->outside_samples, 13);
	assert_int_equal(p->skipped_other_type, 200);
	assert_int_equal(p->samples, 6 + 2 + 7 + 3 + 8 + 10 + 200 + 6);
	assert_int_equal(p->matched, 6 + 2 + 3 + 8 + 10);
	/* cells: line 0 holds a, arr, f1; line 1 holds y */
	size_t line1 = 0;
	for (size_t i = 0; i < p->n_cells; i++)
		if (p->cells[i].line == 1) {
			line1++;
			assert_int_equal(p->cells[i].member, idx(s, "y"));
		}
	assert_int_equal(line1, 1);
	assert_int_equal(p->n_other_types, 1);
	assert_string_equal(p->other_types[0].name, "struct other");
	assert_int_equal(p->other_types[0].samples, 200);
	slt_access_profile_free(p);

	/* Only other types: the three most named, most samples first (ties
	 * by name), the rest only counted. */
	struct slt_sample o[] = {
		typed("struct a", 0, 1, 0), typed("struct b", 8, 5, 0), typed("struct c", 0, 2, 0),
		typed("struct d", 0, 9, 0), typed("struct b", 0, 5, 0), typed("struct e", 0, 2, 0),
	};
	p = run(s, NULL, o, 6, 0, &err);
	assert_int_equal(p->matched, 0);
	assert_int_equal(p->skipped_other_type, 24);
	assert_int_equal(p->n_other_types, 3);
	assert_string_equal(p->other_types[0].name, "struct b");
	assert_int_equal(p->other_types[0].samples, 10);
	assert_string_equal(p->other_types[1].name, "struct d");
	assert_string_equal(p->other_types[2].name, "struct c");
	assert_int_equal(p->other_types[2].samples, 2);
	slt_access_profile_free(p);
	slt_arena_free(a);
}

static void test_explicit_base_cpus_locations(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_struct *s = jt(a);
	struct slt_error err;
	const uint64_t B = 0xffff888000001020ULL; /* 32 bytes into a line */
	struct slt_sample v[6];
	v[0] = at(B + 0, 3, 0, 10);
	v[1] = at(B + 0, 1, 4, 0);
	v[2] = at(B + 8, 1, 6, 0);
	v[3] = at(B + 8, 2, 1, 0);
	v[4] = at(B + 64, 0, 2, 2);
	v[5] = at(B - 8, 0, 5, 5); /* before the instance */
	v[0].symbol = "inc_a";
	v[0].source = "x.c:10";
	v[1].symbol = "read_a";
	v[2].symbol = "read_a";
	struct slt_join_opts o = { .has_base = true, .base = B, .max_locations = 1 };
	struct slt_access_profile *p = run(s, &o, v, 6, 0, &err);
	assert_int_equal(p->base_method, SLT_BASE_EXPLICIT);
	assert_int_equal(p->line_origin, 32);
	const struct slt_member_access *ma = &p->members[idx(s, "a")];
	assert_int_equal(ma->n_cpus, 2);
	assert_int_equal(ma->cpus[0].cpu, 1);
	assert_int_equal(ma->cpus[0].loads, 4);
	assert_int_equal(ma->cpus[1].cpu, 3);
	assert_int_equal(ma->cpus[1].stores, 10);
	assert_int_equal(ma->n_locations, 1);        /* max_locations */
	assert_string_equal(ma->locations[0].symbol, "inc_a");
	assert_string_equal(ma->locations[0].source, "x.c:10");
	assert_int_equal(p->outside.loads, 5);
	/* x at offset 64 is on instance line (32 + 64) / 64 = 1; a and b on 0 */
	for (size_t i = 0; i < p->n_cells; i++) {
		if (p->cells[i].member == (size_t)idx(s, "x"))
			assert_int_equal(p->cells[i].line, 1);
		else
			assert_int_equal(p->cells[i].line, 0);
	}
	slt_access_profile_free(p);
	slt_arena_free(a);
}

static void test_hints(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_struct *s = jt(a);
	struct slt_error err;
	struct slt_sample v[] = { at(0x10040 + 4, -1, 1, 0) }; /* line 1 + 4: in.y */
	struct slt_line_hint h[] = { { 0x10050, 1 }, { 0x10000, 0 }, { 0x10000, 1 } };
	struct slt_join_opts o = { .hints = h, .n_hints = 2 };
	struct slt_access_profile *p = run(s, &o, v, 1, 0, &err);
	assert_int_equal(p->base_method, SLT_BASE_HINT);
	assert_int_equal(p->base, 0x10000);
	assert_int_equal(p->members[idx(s, "y")].loads, 1);
	slt_access_profile_free(p);
	o.hints = h + 1;               /* 0x10000 as line 0 and as line 1 */
	p = run(s, &o, v, 1, SLT_EUSAGE, &err);
	assert_null(p);
	assert_non_null(strstr(err.message, "disagree"));
	struct slt_line_hint bad = { 0x10000, 2 };  /* jt has 2 lines */
	o.hints = &bad;
	o.n_hints = 1;
	p = run(s, &o, v, 1, SLT_EUSAGE, &err);
	assert_null(p);
	/* --line hints with --base: checked against it.  Base 0x10010 (16
	 * bytes into its line): 0x10050 is on line 1, 0x10008 on line 0
	 * (the line holding the base), 0x10000 too; 0xfff0 lies before. */
	struct slt_line_hint ok[] = { { 0x10050, 1 }, { 0x10008, 0 }, { 0x10000, 0 } };
	o = (struct slt_join_opts){ .has_base = true, .base = 0x10010, .hints = ok, .n_hints = 3 };
	p = run(s, &o, v, 1, 0, &err);
	assert_int_equal(p->base_method, SLT_BASE_EXPLICIT);
	assert_int_equal(p->base, 0x10010);
	slt_access_profile_free(p);
	struct slt_line_hint off1 = { 0x10050, 0 }, before = { 0xfff0, 0 };
	o.hints = &off1;
	o.n_hints = 1;
	p = run(s, &o, v, 1, SLT_EUSAGE, &err);
	assert_null(p);
	assert_non_null(strstr(err.message, "disagrees with --base 0x10010"));
	assert_non_null(strstr(err.message, "is on line 1"));
	o.hints = &before;
	p = run(s, &o, v, 1, SLT_EUSAGE, &err);
	assert_non_null(strstr(err.message, "before that instance"));
	slt_arena_free(a);
}

/* c2c-style cacheline records: line address + offset. */
static struct slt_sample line(uint64_t la, uint32_t off, uint32_t size,
			      uint64_t ld, uint64_t st)
{
	return (struct slt_sample){ .flags = SLT_SAMPLE_LINE, .line_addr = la,
				    .line_offset = off, .access_size = size,
				    .cpu = -1, .loads = ld, .stores = st };
}

static void test_infer(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_struct *s = jt(a);
	struct slt_error err;
	/* An instance at 0x2000: b (4 bytes at 8), f1 unit (48), in.x (64),
	 * in.y (68), arr[1] (24).  Only base 0x2000 puts all of them on
	 * member starts with plausible sizes. */
	struct slt_sample v[] = {
		line(0x2000, 8, 4, 10, 0), line(0x2000, 48, 4, 5, 5),
		line(0x2040, 0, 4, 3, 3), line(0x2040, 4, 4, 8, 0),
		line(0x2000, 24, 8, 2, 0),
	};
	struct slt_access_profile *p = run(s, NULL, v, 5, 0, &err);
	assert_int_equal(p->base_method, SLT_BASE_INFERRED);
	assert_int_equal(p->base, 0x2000);
	assert_true(p->confidence >= 0.5 && p->confidence <= 1);
	assert_int_equal(p->members[idx(s, "b")].loads, 10);
	assert_int_equal(p->members[idx(s, "y")].loads, 8);
	assert_int_equal(p->matched, 36);
	assert_non_null(strstr(p->base_note, "inferred"));
	slt_access_profile_free(p);

	/* One 8-byte access at a line start fits many placements (a, arr[i]):
	 * refused, and the hint names the options that resolve it. */
	struct slt_sample one[] = { line(0x3000, 0, 8, 1, 0) };
	p = run(s, NULL, one, 1, SLT_EUSAGE, &err);
	assert_null(p);
	assert_non_null(strstr(err.message, "about equally well"));
	assert_non_null(strstr(err.hint, "--base"));
	assert_non_null(strstr(err.hint, "--line"));

	/* Addresses further apart than sizeof: several instances. */
	struct slt_sample far[] = { line(0x3000, 0, 8, 1, 0), line(0x9000, 0, 8, 1, 0) };
	p = run(s, NULL, far, 2, SLT_EUSAGE, &err);
	assert_null(p);
	assert_non_null(strstr(err.message, "span"));

	/* Strict mode refuses inference. */
	struct slt_join_opts o = { .no_infer = true };
	p = run(s, &o, v, 5, SLT_EUSAGE, &err);
	assert_null(p);
	slt_arena_free(a);
}

static void test_cpus_list_and_members(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_struct *s = jt(a);
	struct slt_error err;
	static const uint16_t cpus[] = { 4, 7, 9 };
	struct slt_sample v[3] = {
		typed("jt", 8, 10, 5),
		{ .flags = SLT_SAMPLE_MEMBER | SLT_SAMPLE_TYPE, .type_name = "jt",
		  .member = "in.y", .cpu = -1, .loads = 2 },
		{ .flags = SLT_SAMPLE_MEMBER, .member = "arr[2]", .cpu = -1, .stores = 1 },
	};
	v[0].flags |= SLT_SAMPLE_CPUS;
	v[0].cpus = cpus;
	v[0].n_cpus = 3;
	struct slt_access_profile *p = run(s, NULL, v, 3, 0, &err);
	const struct slt_member_access *b = &p->members[idx(s, "b")];
	assert_int_equal(b->n_cpus, 3);
	/* 10 loads over 3 CPUs: 4, 3, 3; 5 stores: 2, 2, 1 */
	assert_int_equal(b->cpus[0].cpu, 4);
	assert_int_equal(b->cpus[0].loads, 4);
	assert_int_equal(b->cpus[0].stores, 2);
	assert_int_equal(b->cpus[2].loads, 3);
	assert_int_equal(b->cpus[2].stores, 1);
	assert_int_equal(p->members[idx(s, "y")].loads, 2);
	assert_int_equal(p->members[idx(s, "arr")].stores, 1);
	slt_access_profile_free(p);
	slt_arena_free(a);
}

/* Memory follows distinct addresses: a million samples on 4 addresses. */
static void test_many_samples(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_struct *s = jt(a);
	struct slt_error err;
	struct slt_join *j;
	struct slt_access_profile *p;
	struct slt_join_opts o = { .has_base = true, .base = 0x1000 };
	assert_int_equal(slt_join_new(s, &o, &j, &err), 0);
	for (int i = 0; i < 1000000; i++) {
		struct slt_sample x = at(0x1000 + (uint64_t)(i % 4) * 8, i % 16, 1, 0);
		x.symbol = (i & 1) ? "f" : "g";
		assert_int_equal(slt_join_add(j, &x), 0);
	}
	assert_int_equal(slt_join_finish(j, &p, &err), 0);
	assert_int_equal(p->matched, 1000000);
	assert_int_equal(p->members[idx(s, "a")].loads, 250000);
	assert_int_equal(p->members[idx(s, "arr")].loads, 500000);
	assert_int_equal(p->members[idx(s, "a")].n_cpus, 4);
	assert_int_equal(p->members[idx(s, "a")].n_locations, 1);
	slt_access_profile_free(p);
	slt_arena_free(a);
}

/* Counts out of range are capped, never wrapped: one record at
 * SLT_JOIN_SAMPLE_CAP, all of them at SLT_JOIN_COUNT_CAP, and the profile
 * says so; a profile within range is not flagged. */
static void test_saturation(void **state)
{
	(void)state;
	struct slt_arena *a = slt_arena_new();
	struct slt_struct *s = jt(a);
	struct slt_error err;
	struct slt_sample v[] = {
		typed("jt", 0, UINT64_MAX, 0),
		typed("jt", 8, 0, UINT64_MAX),
		typed("jt", 72, 1, 2),
	};
	v[0].hitm_local = UINT64_MAX;
	struct slt_access_profile *p = run(s, NULL, v, 3, 0, &err);
	assert_true(p->counts_saturated);
	assert_true(p->members[idx(s, "a")].loads == SLT_JOIN_SAMPLE_CAP);
	assert_true(p->members[idx(s, "b")].stores == SLT_JOIN_SAMPLE_CAP);
	assert_int_equal(p->members[idx(s, "tail")].stores, 2); /* still counted */
	assert_true(p->samples == 2 * SLT_JOIN_SAMPLE_CAP + 3);
	slt_access_profile_free(p);
	/* 5000 records at the per-record cap pass the total cap (2^52 =
	 * 4096 of them): the total stops there, exactly */
	struct slt_join *j;
	assert_int_equal(slt_join_new(s, NULL, &j, &err), 0);
	for (int i = 0; i < 5000; i++) {
		struct slt_sample x = typed("jt", 0, SLT_JOIN_SAMPLE_CAP, 0);
		assert_int_equal(slt_join_add(j, &x), 0);
	}
	assert_int_equal(slt_join_finish(j, &p, &err), 0);
	assert_true(p->counts_saturated);
	assert_true(p->samples == SLT_JOIN_COUNT_CAP);
	assert_true(p->members[idx(s, "a")].loads == SLT_JOIN_COUNT_CAP);
	slt_access_profile_free(p);
	p = run(s, NULL, &v[2], 1, 0, &err);
	assert_false(p->counts_saturated);
	slt_access_profile_free(p);
	slt_arena_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_typed),
		cmocka_unit_test(test_explicit_base_cpus_locations),
		cmocka_unit_test(test_hints),
		cmocka_unit_test(test_infer),
		cmocka_unit_test(test_cpus_list_and_members),
		cmocka_unit_test(test_many_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
