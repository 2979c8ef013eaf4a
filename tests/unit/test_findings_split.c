/* SPDX-License-Identifier: MIT */
/*
 * One line, two facts (issue 11): a collision (read-mostly members on a
 * written line) and a write-write pair (two members written by different
 * writers) on the same line are two findings, each naming its own members;
 * and a member on the line that adds nothing to a finding's score is not
 * listed in it.  Answers worked out by hand in the comments.
 *
 * struct wl {          offset  line
 *	long a;              0      0
 *	long b;              8      0
 *	long c;             16      0
 *	long d;             24      0
 *	long far;           64      1
 * };                  size 128
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "graph_helpers.h"
#include "analysis_helpers.h"
#include "structlint/analysis.h"
#include "structlint/join.h"

static struct slt_struct *wl(struct slt_arena *a)
{
	struct slt_type *l = G_INT(a, "long int", 8);
	struct slt_type *t = g_comp(a, SLT_T_STRUCT, "wl", 128, 5);
	g_mem(t, "a", l, 0, 0, 0);
	g_mem(t, "b", l, 64, 0, 0);
	g_mem(t, "c", l, 128, 0, 0);
	g_mem(t, "d", l, 192, 0, 0);
	g_mem(t, "far", l, 512, 0, 0);
	struct slt_struct *s = slt_arena_alloc(a, sizeof(*s));
	struct slt_error err;
	assert_int_equal(slt_build_struct(a, t, SLT_FORMAT_DWARF, false, "wl.o", s, &err), 0);
	return s;
}

static struct slt_sample ts(uint64_t off, int cpu, uint64_t ld, uint64_t st)
{
	return typed_sample("wl", off, cpu, ld, st);
}

static struct slt_analysis *measured(const struct slt_struct *s, const struct slt_sample *v,
				     size_t n, struct slt_access_profile **p)
{
	struct slt_error err;
	struct slt_analysis *a;
	*p = join(s, v, n);
	assert_int_equal(slt_analyze(s, *p, NULL, &a, &err), 0);
	return a;
}

static const struct slt_finding *find(const struct slt_analysis *a, enum slt_finding_kind k)
{
	for (size_t i = 0; i < a->n_findings; i++)
		if (a->findings[i].kind == k)
			return &a->findings[i];
	return NULL;
}

/* f names exactly the members (writers first, in any order within each
 * side) w[0..nw) then r[0..nr). */
static void names(const struct slt_struct *s, const struct slt_finding *f,
		  const char *const *w, size_t nw, const char *const *r, size_t nr)
{
	assert_non_null(f);
	assert_int_equal(f->n_writers, nw);
	assert_int_equal(f->n_members, nw + nr);
	for (size_t k = 0; k < nw + nr; k++) {
		size_t want = idx(s, k < nw ? w[k] : r[k - nw]);
		bool seen = false;
		for (size_t j = k < nw ? 0 : nw; j < (k < nw ? nw : nw + nr); j++)
			seen |= f->members[j] == want;
		assert_true(seen);
	}
}

/* Classes: a hot-write:rx, b hot-write:tx, c and d read-mostly on line 0.
 * Collision: 2 read-mostly x 2 written = 4 pairs; write-write: one pair of
 * labels = 1.  Two findings, not one collision of score 5. */
static void test_classes_both(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = wl(ar);
	enum slt_class g[8] = { 0 };
	const char *lab[8] = { 0 };
	g[idx(s, "a")] = g[idx(s, "b")] = SLT_CLASS_HOT_WRITE;
	g[idx(s, "c")] = g[idx(s, "d")] = SLT_CLASS_READ_MOSTLY;
	lab[idx(s, "a")] = "rx";
	lab[idx(s, "b")] = "tx";
	struct slt_analysis_opts o = { .given = g, .given_label = lab };
	slt_classify_opts_default(&o.classify);
	struct slt_analysis *a;
	struct slt_error err;
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	assert_int_equal(a->n_findings, 2);
	const struct slt_finding *c = find(a, SLT_FIND_COLLISION), *w = find(a, SLT_FIND_WRITE_WRITE);
	names(s, c, (const char *[]){ "a", "b" }, 2, (const char *[]){ "c", "d" }, 2);
	assert_true(c->score == 4);
	names(s, w, (const char *[]){ "a", "b" }, 2, NULL, 0);
	assert_true(w->score == 1);
	slt_analysis_free(a);
	/* one label: one writer may write both, the collision alone */
	lab[idx(s, "b")] = "rx";
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	assert_int_equal(a->n_findings, 1);
	names(s, find(a, SLT_FIND_COLLISION), (const char *[]){ "a", "b" }, 2,
	      (const char *[]){ "c", "d" }, 2);
	slt_analysis_free(a);
	/* a third, unlabelled writer: in the collision, not in the
	 * write-write pair (it may be either writer) */
	lab[idx(s, "b")] = "tx";
	g[idx(s, "d")] = SLT_CLASS_HOT_WRITE;
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	assert_int_equal(a->n_findings, 2);
	names(s, find(a, SLT_FIND_COLLISION), (const char *[]){ "a", "b", "d" }, 3,
	      (const char *[]){ "c" }, 1);
	assert_true(find(a, SLT_FIND_COLLISION)->score == 3);
	names(s, find(a, SLT_FIND_WRITE_WRITE), (const char *[]){ "a", "b" }, 2, NULL, 0);
	slt_analysis_free(a);
	slt_arena_free(ar);
}

/* Per-CPU: a stored 100x by CPU 0, b stored 100x by CPU 1, c loaded 100x
 * by CPU 2.  Pairs with c (not written): a0-c2 100 + b1-c2 100 = 200, a
 * collision; pairs of written members: a0-b1 100 + b1-a0 100 = 200,
 * write-write.  Before: one write-write finding of 400 that hid c. */
static void test_cpu_both(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = wl(ar);
	struct slt_sample v[] = { ts(0, 0, 0, 100), ts(8, 1, 0, 100), ts(16, 2, 100, 0) };
	struct slt_access_profile *p;
	struct slt_analysis *a = measured(s, v, 3, &p);
	assert_int_equal(a->n_findings, 2);
	const struct slt_finding *c = find(a, SLT_FIND_COLLISION), *w = find(a, SLT_FIND_WRITE_WRITE);
	names(s, c, (const char *[]){ "a", "b" }, 2, (const char *[]){ "c" }, 1);
	assert_true(c->score == 200);
	names(s, w, (const char *[]){ "a", "b" }, 2, NULL, 0);
	assert_true(w->score == 200);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Per-CPU: a stored 100x by CPU 0; b loaded 100x by CPU 0 (the writer's
 * own CPU: no miss from a's stores), c loaded 100x by CPU 1: the collision
 * is a0-c1 = 100 and names a and c, not b (it was listed).  With d stored
 * 50x by CPU 0 too: d0-c1 = 50 adds to the score, d is listed: 150. */
static void test_cpu_adds_nothing(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = wl(ar);
	struct slt_sample v[] = { ts(0, 0, 0, 100), ts(8, 0, 100, 0), ts(16, 1, 100, 0) };
	struct slt_access_profile *p;
	struct slt_analysis *a = measured(s, v, 3, &p);
	assert_int_equal(a->n_findings, 1);
	names(s, find(a, SLT_FIND_COLLISION), (const char *[]){ "a" }, 1,
	      (const char *[]){ "c" }, 1);
	assert_true(a->findings[0].score == 100);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	struct slt_sample v2[] = { ts(0, 0, 0, 100), ts(8, 0, 100, 0), ts(16, 1, 100, 0),
				   ts(24, 0, 0, 50) };
	a = measured(s, v2, 4, &p);
	assert_int_equal(a->n_findings, 1);
	names(s, find(a, SLT_FIND_COLLISION), (const char *[]){ "a", "d" }, 2,
	      (const char *[]){ "c" }, 1);
	assert_true(a->findings[0].score == 150);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Classes: a hot-write:rx, b hot-write:tx, c hot-write without a label,
 * nothing read-mostly: one write-write pair (a, b), score 1; c may be
 * either writer and adds nothing: not listed (it was). */
static void test_classes_adds_nothing(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = wl(ar);
	enum slt_class g[8] = { 0 };
	const char *lab[8] = { 0 };
	g[idx(s, "a")] = g[idx(s, "b")] = g[idx(s, "c")] = SLT_CLASS_HOT_WRITE;
	lab[idx(s, "a")] = "rx";
	lab[idx(s, "b")] = "tx";
	struct slt_analysis_opts o = { .given = g, .given_label = lab };
	slt_classify_opts_default(&o.classify);
	struct slt_analysis *a;
	struct slt_error err;
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	assert_int_equal(a->n_findings, 1);
	names(s, find(a, SLT_FIND_WRITE_WRITE), (const char *[]){ "a", "b" }, 2, NULL, 0);
	assert_true(a->findings[0].score == 1);
	slt_analysis_free(a);
	slt_arena_free(ar);
}

/*
 * A nested struct (shown expanded, as -E or a classes path shows it):
 * struct nw { struct as { long lock; long a_ops; } d; long devices; }, one
 * line.  d is one unit: lock and a_ops pair with nothing inside it.
 * Classes: d.lock hot-write, d.a_ops and devices read-mostly: one pair
 * (d, devices), score 1, naming lock and devices, not a_ops (it was listed,
 * as 6.1 inode's i_data.a_ops beside i_data's written lock).
 * Per-CPU: lock stored 100x by CPU 0, a_ops loaded 100x by CPU 2, devices
 * loaded 100x by CPU 1: d0-devices1 = 100; a_ops' loads pair with no
 * store of another unit: not listed.  With devices stored by CPU 1 too,
 * a_ops' loads on CPU 2 pair with them (min(100, 100)): listed.
 */
static void test_nested_adds_nothing(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_type *l = G_INT(ar, "long int", 8);
	struct slt_type *in = g_comp(ar, SLT_T_STRUCT, "as", 16, 2);
	g_mem(in, "lock", l, 0, 0, 0);
	g_mem(in, "a_ops", l, 64, 0, 0);
	struct slt_type *t = g_comp(ar, SLT_T_STRUCT, "nw", 24, 2);
	g_mem(t, "d", in, 0, 0, 0);
	g_mem(t, "devices", l, 128, 0, 0);
	struct slt_struct *s = slt_arena_alloc(ar, sizeof(*s));
	struct slt_error err;
	assert_int_equal(slt_build_struct(ar, t, SLT_FORMAT_DWARF, true, "nw.o", s, &err), 0);
	enum slt_class g[8] = { 0 };
	g[idx(s, "lock")] = SLT_CLASS_HOT_WRITE;
	g[idx(s, "a_ops")] = g[idx(s, "devices")] = SLT_CLASS_READ_MOSTLY;
	struct slt_analysis_opts o = { .given = g };
	slt_classify_opts_default(&o.classify);
	struct slt_analysis *a;
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	assert_int_equal(a->n_findings, 1);
	names(s, find(a, SLT_FIND_COLLISION), (const char *[]){ "lock" }, 1,
	      (const char *[]){ "devices" }, 1);
	assert_true(a->findings[0].score == 1);
	slt_analysis_free(a);
	struct slt_sample v[] = { typed_sample("nw", 0, 0, 0, 100), typed_sample("nw", 8, 2, 100, 0),
				  typed_sample("nw", 16, 1, 100, 0) };
	struct slt_access_profile *p;
	a = measured(s, v, 3, &p);
	assert_int_equal(a->n_findings, 1);
	names(s, find(a, SLT_FIND_COLLISION), (const char *[]){ "lock" }, 1,
	      (const char *[]){ "devices" }, 1);
	assert_true(a->findings[0].score == 100);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	v[2] = typed_sample("nw", 16, 1, 0, 100);
	a = measured(s, v, 3, &p);
	const struct slt_finding *f = find(a, SLT_FIND_WRITE_WRITE);
	assert_non_null(f);
	bool listed = false;
	for (size_t k = 0; k < f->n_members; k++)
		listed |= f->members[k] == idx(s, "a_ops");
	assert_true(listed);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes_both),
		cmocka_unit_test(test_cpu_both),
		cmocka_unit_test(test_cpu_adds_nothing),
		cmocka_unit_test(test_classes_adds_nothing),
		cmocka_unit_test(test_nested_adds_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
