/* SPDX-License-Identifier: MIT */
/* Unit tests of src/engine/validate.c: the ABBA order of the runs (seen
 * through the progress callback), the figures derived from the runs, and
 * the option checks.  Runs are short (tens of ms); no assertion depends on
 * how fast anything ran. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine_int.h"
#include "structlint/validate.h"

/* struct two { long r; long w; char pad[48]; }: r read-mostly, w hot. */
static struct slt_member members[] = {
	{ .name = "r", .type = "long int", .offset = 0, .size = 8, .parent = -1,
	  .natural_alignment = 8 },
	{ .name = "w", .type = "long int", .offset = 8, .size = 8, .parent = -1,
	  .natural_alignment = 8 },
	{ .name = "pad", .type = "char[48]", .offset = 16, .size = 48, .parent = -1,
	  .natural_alignment = 1 },
};
static struct slt_struct two = {
	.name = "two", .kind = SLT_KIND_STRUCT, .size = 64, .alignment = 8,
	.members = members, .n_members = 3, .n_top_members = 3,
};

static struct slt_engine_bound *bind_two(void)
{
	const struct slt_engine_replay_member m[] = {
		{ "r", SLT_CLASS_READ_MOSTLY, 0, 0, 0 },
		{ "w", SLT_CLASS_HOT_WRITE, 0, 0, 0 },
	};
	struct slt_engine_spec *spec = NULL;
	struct slt_engine_bound *b = NULL;
	struct slt_error err;
	assert_int_equal(slt_engine_spec_replay("two", m, 2, &spec, &err), 0);
	assert_int_equal(slt_engine_bind(spec, &two, 64, &b, &err), 0);
	slt_engine_spec_free(spec);
	return b;
}

static void short_opts(struct slt_validate_opts *o)
{
	slt_validate_opts_default(o);
	o->rounds = 3;
	o->warmup_seconds = 0.01;
	o->engine.seconds = 0.05;
	o->engine.threads = 2;
}

struct trace {
	char sides[64];
	unsigned rounds[64];
	size_t n;
};

static void record(void *arg, char side, unsigned round, double ops)
{
	struct trace *t = arg;
	assert_true(ops > 0.0);
	if (t->n < 64) {
		t->sides[t->n] = side;
		t->rounds[t->n] = round;
		t->n++;
	}
}

static void test_order(void **state)
{
	(void)state;
	for (unsigned r = 0; r < 8; r++)
		assert_int_equal(slt_validate_a_first(r), r % 2 == 0);
}

/* The verdict from ci, unless the threads overlapped too little (then
 * none, and said so): the rule, whatever this machine's load. */
static void check_verdict(const struct slt_validate_result *r,
			  const struct slt_ratio_ci *ci)
{
	bool low = r->a.median_overlap < r->min_overlap || r->b.median_overlap < r->min_overlap;
	assert_true(r->min_overlap == (r->threads >= 2 ? SLT_VALIDATE_MIN_OVERLAP : 0.0));
	assert_int_equal(r->low_overlap, low && slt_verdict_of(ci) != SLT_VERDICT_NONE);
	assert_int_equal(r->verdict, low ? SLT_VERDICT_NONE : slt_verdict_of(ci));
	for (unsigned i = 0; i < r->rounds; i++)
		assert_true(r->a.overlap[i] >= 0 && r->a.overlap[i] <= 1 &&
			    r->a.min_overlap <= r->a.overlap[i]);
}

static void test_run(void **state)
{
	(void)state;
	struct slt_engine_bound *b = bind_two();
	struct slt_validate_opts o;
	short_opts(&o);
	struct trace t = { .n = 0 };
	struct slt_validate_result *r = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_validate_run(b, b, &o, record, &t, &r, &err);
	if (rc)
		print_message("%s (%s)\n", err.message, err.hint);
	assert_int_equal(rc, 0);
	/* A B, B A, A B: consecutive rounds form ABBA */
	assert_int_equal(t.n, 6);
	assert_memory_equal(t.sides, "ABBAAB", 6);
	const unsigned want_rounds[] = { 0, 0, 1, 1, 2, 2 };
	assert_memory_equal(t.rounds, want_rounds, sizeof(want_rounds));
	assert_int_equal(r->rounds, 3);
	assert_int_equal(r->threads, 2);
	assert_int_equal(r->mode, SLT_ENGINE_REPLAY);
	for (unsigned i = 0; i < 3; i++)
		assert_true(r->a.ops_per_s[i] > 0 && r->b.ops_per_s[i] > 0);
	assert_true(r->a.median_ops_per_s == slt_stats_median(r->a.ops_per_s, 3));
	assert_true(r->b.median_ops_per_s == slt_stats_median(r->b.ops_per_s, 3));
	assert_true(r->ci.ratio == r->b.median_ops_per_s / r->a.median_ops_per_s);
	assert_true(r->ci.lo <= r->ci.hi);
	assert_int_equal(r->ci.n_a, 3);
	/* the paired verdict is the default */
	assert_true(r->paired);
	check_verdict(r, &r->ci_paired);
	/* the paired interval from the same runs, round by round: the
	 * geometric mean of the ratios */
	double lsum = 0;
	for (unsigned i = 0; i < 3; i++)
		lsum += log(r->b.ops_per_s[i] / r->a.ops_per_s[i]);
	assert_true(r->ci_paired.paired);
	assert_true(fabs(r->ci_paired.ratio - exp(lsum / 3)) < 1e-12 * r->ci_paired.ratio);
	assert_true(r->ci_paired.lo <= r->ci_paired.ratio && r->ci_paired.ratio <= r->ci_paired.hi);
	/* the same runs give the same interval (fixed bootstrap seed) */
	struct slt_ratio_ci again;
	assert_int_equal(slt_stats_ratio_ci(r->a.ops_per_s, 3, r->b.ops_per_s, 3,
					    o.resamples, o.level, o.ci_seed, &again, NULL), 0);
	assert_true(again.lo == r->ci.lo && again.hi == r->ci.hi);
	/* replay: no flushes, no lock holds */
	assert_int_equal(r->a.flushes, 0);
	assert_int_equal(r->b.percpu_lock.holds, 0);
	assert_true(r->a.seconds > 0 && r->b.seconds > 0);
	slt_validate_result_free(r);
	/* --independent: the verdict is the independent interval's */
	o.paired = false;
	assert_int_equal(slt_validate_run(b, b, &o, NULL, NULL, &r, &err), 0);
	assert_false(r->paired);
	check_verdict(r, &r->ci);
	slt_validate_result_free(r);
	/* two rounds: no interval, no verdict */
	o.rounds = 2;
	assert_int_equal(slt_validate_run(b, b, &o, NULL, NULL, &r, &err), 0);
	assert_int_equal(r->verdict, SLT_VERDICT_NONE);
	assert_true(isnan(r->ci.lo) && isnan(r->ci_paired.hi));
	/* no resampling done; the medians' ratio still there */
	assert_int_equal(r->ci.resamples, 0);
	assert_int_equal(r->ci.seed, 0);
	assert_true(fabs(r->ci.ratio - r->b.median_ops_per_s / r->a.median_ops_per_s) < 1e-12 * r->ci.ratio);
	slt_validate_result_free(r);
	slt_engine_bound_free(b);
}

static void expect_usage(const struct slt_engine_bound *a,
			 const struct slt_engine_bound *b,
			 const struct slt_validate_opts *o, const char *what)
{
	struct slt_validate_result *r = (void *)1;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_validate_run(a, b, o, NULL, NULL, &r, &err), SLT_EUSAGE);
	assert_null(r);
	if (!strstr(err.message, what))
		print_message("message: %s\n", err.message);
	assert_non_null(strstr(err.message, what));
}

/* A run that completed no operation (its threads not scheduled in its
 * seconds on a loaded machine) is not a measurement: its round is never
 * kept nor shown; with no round run on both sides there is no verdict and
 * no error.  (Old code: "A run 1 has 0 ops/s", an error, from a loaded
 * CI machine.) */
static void test_round_not_run(void **state)
{
	(void)state;
	struct slt_validate_opts o;
	short_opts(&o);
	o.min_overlap = 0.5;
	double a_ops[5] = { 0, 100, 101, 99, 100 }, b_ops[5] = { 120, 0, 119, 121, 120 };
	double a_ov[5] = { 0, 0.9, 0.9, 0.9, 0.9 }, b_ov[5] = { 0.9, 0, 0.9, 0.9, 0.9 };
	bool kept[5];
	struct slt_validate_result r = { .rounds = 5, .kept = kept };
	r.a.ops_per_s = a_ops, r.b.ops_per_s = b_ops;
	r.a.overlap = a_ov, r.b.overlap = b_ov;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_validate_compare(&r, &o, &err), 0);
	assert_int_equal(r.kept_rounds, 3);
	assert_false(kept[0] || kept[1]);
	assert_true(r.a.median_ops_per_s == 100 && r.b.median_ops_per_s == 120);
	/* a floor of 0 keeps every round that ran, not those that did not */
	o.min_overlap = 0;
	assert_int_equal(slt_validate_compare(&r, &o, &err), 0);
	assert_int_equal(r.kept_rounds, 3);
	/* too few kept: the figures of the rounds that ran, no verdict */
	o.min_overlap = 0.95;
	assert_int_equal(slt_validate_compare(&r, &o, &err), 0);
	assert_int_equal(r.kept_rounds, 0);
	assert_int_equal(r.verdict, SLT_VERDICT_NONE);
	assert_true(r.a.median_ops_per_s == 100 && r.b.median_ops_per_s == 120);
	/* nothing ran on both sides: no verdict, no error */
	double z[5] = { 0, 0, 0, 0, 0 };
	r.a.ops_per_s = z;
	assert_int_equal(slt_validate_compare(&r, &o, &err), 0);
	assert_int_equal(r.verdict, SLT_VERDICT_NONE);
	assert_true(r.low_overlap);
}

static void test_bad_opts(void **state)
{
	(void)state;
	struct slt_engine_bound *b = bind_two();
	struct slt_validate_opts o;
	short_opts(&o);
	o.rounds = 0;
	expect_usage(b, b, &o, "zero rounds");
	short_opts(&o);
	o.engine.seconds = 0;
	expect_usage(b, b, &o, "seconds per run");
	o.engine.seconds = NAN;
	expect_usage(b, b, &o, "seconds per run");
	short_opts(&o);
	o.warmup_seconds = -1;
	expect_usage(b, b, &o, "warm-up");
	short_opts(&o);
	struct slt_engine_bound stats = *b;
	stats.mode = SLT_ENGINE_STATS;
	expect_usage(b, &stats, &o, "layout A runs in replay mode and layout B in stats mode");
	/* the engine's own option checks come through */
	short_opts(&o);
	o.engine.batch = 48;
	o.warmup_seconds = 0;
	struct slt_validate_result *r = NULL;
	assert_int_equal(slt_validate_run(b, b, &o, NULL, NULL, &r, NULL), SLT_EUSAGE);
	assert_null(r);
	slt_engine_bound_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_bad_opts),
		cmocka_unit_test(test_round_not_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
