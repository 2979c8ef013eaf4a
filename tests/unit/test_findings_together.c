/* SPDX-License-Identifier: MIT */
/* Accesses made together are not false sharing (src/analysis/pairs.c,
 * stretches()): which code locations are one stretch of straight code.
 * Answers worked out by hand in the comments; struct an is
 * an_helpers.h's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "graph_helpers.h"
#include "analysis_helpers.h"
#include "an_helpers.h"
#include "structlint/analysis.h"
#include "structlint/join.h"

/* Accesses made together are not false sharing (pairs.c): CPUs 0..3 each
 * store w 100 and r 100 in one stretch of code (update+0x10, +0x18:
 * members updated together, as under one lock): true sharing of each, no
 * write-write.  Then half of r's stores come from another function that
 * never touches w: per stretch, min(V's, U's accesses there) are
 * together.  apart(w, r): of r's 400,
 * update's 200 are together with w's 400 there -> 1/2, so r's side of each
 * (w on c, r on d) pair is 50 of its 100: 4 x 3 x min(100, 50) = 600; and
 * apart(r, w): of w's 400 (all by update), min(400, r's 200) together ->
 * 1/2: 4 x 3 x min(100, 50) = 600 the other way: write-write 1200 (update
 * stores w twice as often as r: half its w stores are without r).
 * Without symbols the same counts give 4 x 3 x min(100, 100) x 2 = 2400. */
static void test_together_not_false_sharing(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[12];
	for (int c = 0; c < 4; c++) {
		v[2 * c] = tsym(0, c, 0, 100, "update+0x10");
		v[2 * c + 1] = tsym(8, c, 0, 100, "update+0x18");
	}
	struct slt_access_profile *p;
	struct slt_analysis *a = run(s, v, 8, &p);
	assert_null(find(a, SLT_FIND_WRITE_WRITE, 0));
	assert_null(find(a, SLT_FIND_COLLISION, 0));
	assert_non_null(find(a, SLT_FIND_TRUE_SHARING, 0));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	for (int c = 0; c < 4; c++) {
		v[2 * c + 1] = tsym(8, c, 0, 50, "update+0x18");
		v[8 + c] = tsym(8, c, 0, 50, "flush");
	}
	a = run(s, v, 12, &p);
	const struct slt_finding *f = find(a, SLT_FIND_WRITE_WRITE, 0);
	assert_non_null(f);
	assert_true(f->score == 1200);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	/* A function that touches U on a rare path does not hide V's
	 * accesses: w stored 100 by update on CPU 0; r loaded 100 by lookup
	 * on each of CPUs 1..3, which loads w once on each (an error path).
	 * Together: min(r's 300, w's 3) = 3 of r's 300 -> apart 297/300, r's
	 * side 99 per CPU: 3 x min(100, 99) = 297 (w's own loads on 1..3 add
	 * nothing: w is U's group).  A boolean rule ("lookup touches w") gave
	 * no finding. */
	struct slt_sample rare[] = {
		tsym(0, 0, 0, 100, "update+0x10"),
		tsym(8, 1, 100, 0, "lookup+0x20"), tsym(8, 2, 100, 0, "lookup+0x20"),
		tsym(8, 3, 100, 0, "lookup+0x20"),
		tsym(0, 1, 1, 0, "lookup+0x28"), tsym(0, 2, 1, 0, "lookup+0x28"),
		tsym(0, 3, 1, 0, "lookup+0x28"),
	};
	a = run(s, rare, 7, &p);
	f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score > 296.99 && f->score < 297.01);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	/* One function, not one stretch of code: every CPU 0..7 stores w
	 * (mm_struct.mm_count: mmgrab() inlined in context_switch) and loads
	 * r further on in the same function (switch_mm's pgd load, 0x200
	 * bytes on): the line may be lost in between, so every pair counts:
	 * collision 8 x 7 x min(100, 100) = 5600, and w's true sharing.
	 * Grouping by function (the old rule) left 0 findings of collision. */
	struct slt_sample cs[16];
	for (int c = 0; c < 8; c++) {
		cs[2 * c] = tsym(0, c, 0, 100, "context_switch+0x1c0");
		cs[2 * c + 1] = tsym(8, c, 100, 0, "context_switch+0x3c0");
	}
	a = run(s, cs, 16, &p);
	f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score == 5600);
	assert_non_null(find(a, SLT_FIND_TRUE_SHARING, 0));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	/* a bare function name places no access: every pair counts too */
	for (int c = 0; c < 8; c++) {
		cs[2 * c].symbol = "context_switch";
		cs[2 * c + 1].symbol = "context_switch";
	}
	a = run(s, cs, 16, &p);
	f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score == 5600);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	/* One stretch of code, but not one CPU: CPU 0 stores w at
	 * spin+0x10 and CPU 1 loads r at spin+0x18 (two threads in one
	 * loop body, or a writer loop beside a reader loop): CPU 1 never
	 * touches w, so none of its loads of r ride on an access to w:
	 * collision min(100, 100) = 100 (the old rule, a stretch over all
	 * CPUs, left no finding: weight-report's IP-sampled program). */
	struct slt_sample two[] = {
		tsym(0, 0, 0, 100, "spin+0x10"), tsym(8, 1, 100, 0, "spin+0x18"),
	};
	a = run(s, two, 2, &p);
	f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score == 100);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	/* the same counts without code locations: every pair counts */
	for (int c = 0; c < 12; c++)
		v[c].symbol = NULL;
	a = run(s, v, 12, &p);
	f = find(a, SLT_FIND_WRITE_WRITE, 0);
	assert_non_null(f);
	assert_true(f->score == 2400);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}


/* Close code addresses of two functions are not one stretch: every CPU
 * 0..3 stores w in writer() at ip 0x401136 and loads r in reader() at
 * 0x401150, 26 bytes on (perf c2c rows: a symbol without +0x, the code
 * address); the functions run at different times, so every (store of w
 * on c, load of r on d != c) pair counts: 4 x 3 x min(100, 100) = 1200.
 * Joining them by ip alone (the old rule) hid the collision.  The same
 * ips in one function are one stretch: no collision. */
static struct slt_sample tip(uint64_t off, int cpu, uint64_t ld, uint64_t st,
			     const char *sym, uint64_t ip)
{
	struct slt_sample x = tsym(off, cpu, ld, st, sym);
	x.flags |= SLT_SAMPLE_IP;
	x.ip = ip;
	return x;
}

static void test_together_one_function(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[8];
	for (int c = 0; c < 4; c++) {
		v[2 * c] = tip(0, c, 0, 100, "writer", 0x401136);
		v[2 * c + 1] = tip(8, c, 100, 0, "reader", 0x401150);
	}
	struct slt_access_profile *p;
	struct slt_analysis *a = run(s, v, 8, &p);
	const struct slt_finding *f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score == 1200);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	for (int c = 0; c < 4; c++)
		v[2 * c + 1].symbol = "writer";
	a = run(s, v, 8, &p);
	assert_null(find(a, SLT_FIND_COLLISION, 0));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_together_not_false_sharing),
		cmocka_unit_test(test_together_one_function),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
