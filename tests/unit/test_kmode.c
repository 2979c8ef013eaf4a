/* SPDX-License-Identifier: MIT */
/*
 * Kernel stats modes (engine.h, src/engine/kmode.c): the mode of a kernel
 * version, and each mode's flush trigger firing exactly when the kernel's
 * memcg_rstat_updated() / mem_cgroup_flush_stats() of that version would,
 * driven update by update (no threads, no clocks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "structlint/engine.h"

/* depth 3, fan-out 2: 0 <- 1 <- 3 */
static const int32_t parent7[7] = { -1, 0, 0, 1, 1, 2, 2 };

static void test_names_versions(void **state)
{
	(void)state;
	assert_int_equal(slt_stats_mode_parse("5.15"), SLT_STATS_5_15);
	assert_int_equal(slt_stats_mode_parse("5.15-rc1"), SLT_STATS_5_15);
	assert_int_equal(slt_stats_mode_parse("6.1"), SLT_STATS_6_1);
	assert_int_equal(slt_stats_mode_parse("mainline"), SLT_STATS_MAINLINE);
	assert_int_equal(slt_stats_mode_parse("6.2"), 0);
	for (int m = SLT_STATS_5_15; m <= SLT_STATS_MAINLINE; m++)
		assert_int_equal(slt_stats_mode_parse(slt_stats_mode_name(m)), m);
	assert_int_equal(slt_stats_mode_for_version(5, 14, 0), 0);
	assert_int_equal(slt_stats_mode_for_version(5, 15, 1), SLT_STATS_5_15);
	assert_int_equal(slt_stats_mode_for_version(5, 15, 5), SLT_STATS_5_15);
	assert_int_equal(slt_stats_mode_for_version(5, 15, 6), SLT_STATS_6_1);
	assert_int_equal(slt_stats_mode_for_version(5, 15, 0), SLT_STATS_6_1);
	assert_int_equal(slt_stats_mode_for_version(6, 1, 0), SLT_STATS_6_1);
	assert_int_equal(slt_stats_mode_for_version(6, 7, 0), SLT_STATS_6_1);
	assert_int_equal(slt_stats_mode_for_version(6, 8, 0), SLT_STATS_MAINLINE);
	assert_int_equal(slt_stats_mode_for_version(6, 12, 0), SLT_STATS_MAINLINE);
	assert_int_equal(slt_stats_mode_for_version(7, 0, 0), SLT_STATS_MAINLINE);
	struct slt_engine_counters c;
	slt_engine_counters_default(SLT_STATS_6_1, &c);
	assert_true(c.node_items == 43 && c.memcg_items == 50 && c.event_items == 15 && !c.from_file);
	slt_engine_counters_default(SLT_STATS_MAINLINE, &c);
	assert_true(c.node_items == 31 && c.memcg_items == 38 && c.event_items == 22);
	struct slt_engine_opts o;
	slt_engine_opts_default(&o);
	assert_int_equal(slt_engine_flush_of(&o), SLT_FLUSH_POP);
	o.stats_mode = SLT_STATS_MAINLINE;
	assert_int_equal(slt_engine_flush_of(&o), SLT_FLUSH_LIST);
	o.flush = SLT_FLUSH_POP;
	assert_int_equal(slt_engine_flush_of(&o), SLT_FLUSH_POP);
}

/* 5.15-rc1: __this_cpu_inc_return(stats_flush_threshold) % BATCH queues
 * the flush work: the 64th, 128th... update of each CPU, counted apart. */
static void test_515(void **state)
{
	(void)state;
	struct slt_stats_trigger t;
	struct slt_error err;
	assert_int_equal(slt_stats_trigger_init(&t, SLT_STATS_5_15, 2, 64, parent7, 7, &err), 0);
	unsigned fired0 = 0, fired1 = 0;
	for (unsigned n = 1; n <= 300; n++) {
		bool f0 = slt_stats_trigger_updated(&t, 0, 3 + n % 4, 7);   /* pages do not count */
		assert_int_equal(f0, n % 64 == 0);
		fired0 += f0;
		if (n <= 100)
			fired1 += slt_stats_trigger_updated(&t, 1, 5, 1);
		assert_false(slt_stats_trigger_reader(&t));   /* no reader-side flush */
	}
	assert_int_equal(fired0, 4);
	assert_int_equal(fired1, 1);
	slt_stats_trigger_free(&t);
}

/* 6.1: a CPU's stats_updates past BATCH adds x / BATCH to the global
 * threshold (only while it is <= the online CPUs) and restarts; a reader
 * flushes once the threshold exceeds the online CPUs; the flush resets. */
static void test_61(void **state)
{
	(void)state;
	struct slt_stats_trigger t;
	struct slt_error err;
	unsigned cpus = 2;
	assert_int_equal(slt_stats_trigger_init(&t, SLT_STATS_6_1, cpus, 64, parent7, 7, &err), 0);
	/* 65 pages pass the batch (x > 64): threshold 1; cpus + 1 = 3 such
	 * batches make a reader flush: 3 x 65 updates of one page */
	for (unsigned n = 1; n <= 3 * 65; n++) {
		assert_false(slt_stats_trigger_updated(&t, 0, 3, 1));
		assert_int_equal(slt_stats_trigger_reader(&t), n >= 3 * 65);
	}
	/* the threshold stops growing past the CPUs (3 > 2: no more adds) */
	for (unsigned n = 0; n < 10 * 65; n++)
		slt_stats_trigger_updated(&t, 1, 4, 1);
	assert_int_equal(t.shared[0], 3);
	slt_stats_trigger_flushed_group(&t, 0, 0);   /* nothing per group in 6.1 */
	assert_true(slt_stats_trigger_reader(&t));
	slt_stats_trigger_flushed(&t);
	assert_false(slt_stats_trigger_reader(&t));
	/* a big update (a THP: 512 pages) adds 512 / 64 = 8 at once */
	slt_stats_trigger_updated(&t, 0, 3, 512);
	assert_int_equal(t.shared[0], 8);
	slt_stats_trigger_free(&t);
}

/* mainline: per (group, CPU) counts; at BATCH they move into the group's
 * stats_updates for the group and each ancestor; a reader flushes when
 * the root's exceeds BATCH x CPUs; an already flushable group stops the
 * walk; the flush resets each flushed group. */
static void test_mainline(void **state)
{
	(void)state;
	struct slt_stats_trigger t;
	struct slt_error err;
	unsigned cpus = 2;
	assert_int_equal(slt_stats_trigger_init(&t, SLT_STATS_MAINLINE, cpus, 64, parent7, 7, &err), 0);
	for (unsigned n = 1; n <= 3 * 64; n++) {
		assert_false(slt_stats_trigger_updated(&t, 0, 3, 1));
		/* 128 = 64 x 2 is not above the threshold; 192 is */
		assert_int_equal(slt_stats_trigger_reader(&t), n >= 3 * 64);
		if (n == 64) {   /* group 3, its parent 1 and the root each got 64 */
			assert_int_equal(t.shared[3 * 8], 64);
			assert_int_equal(t.shared[1 * 8], 64);
			assert_int_equal(t.shared[0], 64);
			assert_int_equal(t.shared[2 * 8], 0);
		}
	}
	/* group 3 is flushable: its next update counts nowhere */
	slt_stats_trigger_updated(&t, 0, 3, 1);
	assert_int_equal(t.pcpu[3], 0);
	/* another subtree still counts until the root stops it: group 5 is
	 * not flushable, but its walk breaks at the flushable root */
	for (unsigned n = 0; n < 64; n++)
		slt_stats_trigger_updated(&t, 1, 5, 1);
	assert_int_equal(t.shared[5 * 8], 64);
	assert_int_equal(t.shared[2 * 8], 64);
	assert_int_equal(t.shared[0], 192);
	/* a flush that aggregated the root on CPU 0 resets its count */
	slt_stats_trigger_flushed_group(&t, 0, 0);
	assert_false(slt_stats_trigger_reader(&t));
	slt_stats_trigger_flushed(&t);   /* nothing global in mainline */
	assert_int_equal(t.shared[3 * 8], 192);
	slt_stats_trigger_flushed_group(&t, 3, 0);
	assert_int_equal(t.shared[3 * 8], 0);
	slt_stats_trigger_free(&t);
}

static void test_bad(void **state)
{
	(void)state;
	struct slt_stats_trigger t;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_stats_trigger_init(&t, SLT_STATS_6_1, 0, 64, parent7, 7, &err), SLT_EUSAGE);
	slt_stats_trigger_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_versions),
		cmocka_unit_test(test_515),
		cmocka_unit_test(test_61),
		cmocka_unit_test(test_mainline),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
