/* SPDX-License-Identifier: MIT */
/*
 * Co-scheduling (engine.h "Co-scheduling", validate.h min_overlap): two
 * updater threads confined to one CPU cannot run at the same time, so the
 * measured overlap stays under the floor and validate refuses a verdict;
 * with the floor off the same runs give one.  What the check rests on is
 * the mechanism (one CPU runs one thread at a time), not a timing: it
 * holds on any load.
 */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "structlint/engine.h"
#include "structlint/validate.h"

/* hits and misses hot-written, parent read by every thread: one line */
static struct slt_struct *bad_stats(void)
{
	static const struct { const char *name, *type; uint64_t off, size; } fm[] = {
		{ "hits", "long unsigned int", 0, 8 },
		{ "parent", "struct bad_stats *", 8, 8 },
		{ "misses", "long unsigned int", 16, 8 },
		{ "percpu", "void *", 24, 8 },
	};
	struct slt_struct *s = calloc(1, sizeof(*s));
	struct slt_member *m = calloc(4, sizeof(*m));
	assert_non_null(s);
	assert_non_null(m);
	for (size_t i = 0; i < 4; i++) {
		m[i].name = fm[i].name;
		m[i].type = m[i].decl_head = fm[i].type;
		m[i].decl_tail = "";
		m[i].offset = fm[i].off;
		m[i].size = fm[i].size;
		m[i].parent = -1;
		m[i].natural_alignment = 8;
	}
	s->name = "bad_stats";
	s->kind = SLT_KIND_STRUCT;
	s->size = 64;
	s->alignment = 8;
	s->members = m;
	s->n_members = s->n_top_members = 4;
	return s;
}

static struct slt_engine_bound *bind_replay(const struct slt_struct *s)
{
	const struct slt_engine_replay_member rm[] = {
		{ "hits", SLT_CLASS_HOT_WRITE, 0, 10, 0 },
		{ "parent", SLT_CLASS_READ_MOSTLY, 20, 0, 0 },
		{ "misses", SLT_CLASS_HOT_WRITE, 0, 10, 0 },
	};
	struct slt_engine_spec *spec = NULL;
	struct slt_engine_bound *b = NULL;
	struct slt_error err;
	assert_int_equal(slt_engine_spec_replay("bad_stats", rm, 3, &spec, &err), 0);
	assert_int_equal(slt_engine_bind(spec, s, 64, &b, &err), 0);
	slt_engine_spec_free(spec);
	return b;
}

static void test_one_cpu_no_overlap(void **state)
{
	(void)state;
	cpu_set_t old, one;
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	int c = 0;
	while (!CPU_ISSET(c, &old))
		c++;
	CPU_ZERO(&one);
	CPU_SET(c, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);

	struct slt_struct *s = bad_stats();
	struct slt_engine_bound *b = bind_replay(s);
	struct slt_engine_opts o;
	slt_engine_opts_default(&o);
	o.threads = 2;
	o.seconds = 0.2;
	struct slt_engine_result *r = NULL;
	struct slt_error err;
	assert_int_equal(slt_engine_run(b, &o, &r, &err), 0);
	assert_int_equal(r->allowed_cpus, 1);
	assert_int_equal(r->distinct_cpus, 1);
	assert_true(r->overlap < SLT_VALIDATE_MIN_OVERLAP);
	assert_true(r->overlap_all <= r->overlap);
	for (unsigned i = 0; i < 2; i++) {
		assert_true(r->thread[i].running_seconds <= r->seconds);
		assert_true(r->thread[i].cpu_seconds > 0);
	}
	slt_engine_result_free(r);

	struct slt_validate_opts vo;
	slt_validate_opts_default(&vo);
	vo.rounds = 3;
	vo.warmup_seconds = 0;
	vo.engine.threads = 2;
	vo.engine.seconds = 0.05;
	struct slt_validate_result *v = NULL;
	assert_int_equal(slt_validate_run(b, b, &vo, NULL, NULL, &v, &err), 0);
	assert_true(v->low_overlap);
	assert_int_equal(v->verdict, SLT_VERDICT_NONE);
	assert_true(v->a.median_overlap < vo.min_overlap && v->a.min_overlap <= v->a.median_overlap);
	slt_validate_result_free(v);
	/* no floor: the same runs give a verdict from the interval */
	vo.min_overlap = 0;
	assert_int_equal(slt_validate_run(b, b, &vo, NULL, NULL, &v, &err), 0);
	assert_false(v->low_overlap);
	assert_int_equal(v->verdict, slt_verdict_of(&v->ci_paired));
	slt_validate_result_free(v);
	/* a floor out of range */
	vo.min_overlap = 1.5;
	slt_error_clear(&err);
	assert_int_equal(slt_validate_run(b, b, &vo, NULL, NULL, &v, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "overlap"));

	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
	slt_engine_bound_free(b);
	free(s->members);
	free(s);
}

/* One updater (--threads 1, or one allowed CPU with the default thread
 * count): nothing runs beside it, so no false sharing can show: its
 * overlap is 0 and there is no verdict, unless the floor is 0. */
static void test_one_thread(void **state)
{
	(void)state;
	struct slt_struct *s = bad_stats();
	struct slt_engine_bound *b = bind_replay(s);
	struct slt_validate_opts vo;
	slt_validate_opts_default(&vo);
	vo.rounds = 3;
	vo.warmup_seconds = 0;
	vo.engine.threads = 1;
	vo.engine.seconds = 0.02;
	struct slt_validate_result *v = NULL;
	struct slt_error err;
	assert_int_equal(slt_validate_run(b, b, &vo, NULL, NULL, &v, &err), 0);
	assert_int_equal(v->threads, 1);
	assert_true(v->a.median_overlap == 0.0);
	assert_true(v->low_overlap);
	assert_int_equal(v->verdict, SLT_VERDICT_NONE);
	slt_validate_result_free(v);
	vo.min_overlap = 0.0;
	assert_int_equal(slt_validate_run(b, b, &vo, NULL, NULL, &v, &err), 0);
	assert_true(!v->low_overlap && v->min_overlap == 0.0);
	slt_validate_result_free(v);
	slt_engine_bound_free(b);
	free(s->members);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cpu_no_overlap),
		cmocka_unit_test(test_one_thread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
