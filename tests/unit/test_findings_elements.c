/* SPDX-License-Identifier: MIT */
/*
 * An array's elements on one line (issue 11): per-CPU slots, each CPU
 * storing its own element, are false sharing between the elements
 * (element-sharing: disjoint bytes, reordering members cannot split the
 * array), not true sharing; CPUs storing to the same element, or to one
 * scalar member, are true sharing.  Answers worked out by hand in the
 * comments (per-cpu basis: sum over a store by c and an access by d != c
 * of min(the two counts)).
 *
 * struct pc {          offset  line
 *	long slot[8];        0      0    (element e at 8e)
 *	long tail;          64      1
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

static struct slt_struct *pc(struct slt_arena *a)
{
	struct slt_type *l = G_INT(a, "long int", 8);
	struct slt_type *t = g_comp(a, SLT_T_STRUCT, "pc", 128, 2);
	g_mem(t, "slot", g_array(a, l, 8, 8), 0, 0, 0);
	g_mem(t, "tail", l, 512, 0, 0);
	struct slt_struct *s = slt_arena_alloc(a, sizeof(*s));
	struct slt_error err;
	assert_int_equal(slt_build_struct(a, t, SLT_FORMAT_DWARF, false, "pc.o", s, &err), 0);
	return s;
}

struct run {
	struct slt_access_profile *p;
	struct slt_analysis *a;
};

static struct run analyze(const struct slt_struct *s, const struct slt_sample *v, size_t n)
{
	struct run r;
	struct slt_error err;
	r.p = join(s, v, n);
	assert_int_equal(slt_analyze(s, r.p, NULL, &r.a, &err), 0);
	return r;
}

static void done(struct run *r)
{
	slt_analysis_free(r->a);
	slt_access_profile_free(r->p);
}

/* The score of the finding of kind k on line L of member m; -1 if none. */
static double score(const struct run *r, enum slt_finding_kind k, uint64_t L, size_t m)
{
	for (size_t i = 0; i < r->a->n_findings; i++) {
		const struct slt_finding *f = &r->a->findings[i];
		if (f->kind == k && f->line == L && f->n_members == 1 && f->members[0] == m)
			return f->score;
	}
	return -1;
}

/* CPU c stores slot[c] (100 each): disjoint bytes on line 0.  Between
 * the elements: 8 writers x 7 other CPUs x min(100, 100) = 5600; nothing
 * on the same element, so no true sharing. */
static void test_per_cpu_slots(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = pc(ar);
	struct slt_sample v[8];
	for (int c = 0; c < 8; c++)
		v[c] = typed_sample("pc", 8u * (unsigned)c, c, 0, 100);
	struct run r = analyze(s, v, 8);
	assert_int_equal(r.p->n_cells, 1);
	assert_int_equal(r.p->cells[0].n_elems, 8);
	assert_int_equal(r.p->cells[0].elems[3].elem, 3);
	assert_int_equal(r.p->cells[0].elems[3].n_cpus, 1);
	assert_int_equal(r.p->cells[0].elems[3].cpus[0].cpu, 3);
	assert_int_equal(r.a->n_findings, 1);
	assert_true(score(&r, SLT_FIND_ELEMENT_SHARING, 0, idx(s, "slot")) == 5600);
	assert_false(r.a->findings[0].layout_fixable);
	/* stored by 8 CPUs, but no element by two: hot-write, not
	 * true-shared */
	assert_int_equal(r.a->classes[idx(s, "slot")].cls, SLT_CLASS_HOT_WRITE);
	assert_string_equal(slt_finding_kind_name(SLT_FIND_ELEMENT_SHARING), "element-sharing");
	done(&r);
	/* the same, each sample naming the member and its offset (a
	 * profile entry with "member" and "offset") */
	for (int c = 0; c < 8; c++) {
		v[c].flags |= SLT_SAMPLE_MEMBER;
		v[c].member = "slot";
	}
	r = analyze(s, v, 8);
	assert_int_equal(r.a->n_findings, 1);
	assert_true(score(&r, SLT_FIND_ELEMENT_SHARING, 0, idx(s, "slot")) == 5600);
	done(&r);
	/* named without an offset: which element is unknown, so the CPUs
	 * may share bytes: true sharing as before */
	for (int c = 0; c < 8; c++)
		v[c].flags &= ~(uint32_t)SLT_SAMPLE_TYPE;
	r = analyze(s, v, 8);
	assert_int_equal(r.a->n_findings, 1);
	assert_true(score(&r, SLT_FIND_TRUE_SHARING, 0, idx(s, "slot")) == 5600);
	done(&r);
	slt_arena_free(ar);
}

/* Every CPU stores slot[0] (lock incq on one counter): true sharing,
 * 8 x 7 x 100 = 5600, nothing between elements. */
static void test_same_element(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = pc(ar);
	struct slt_sample v[8];
	for (int c = 0; c < 8; c++)
		v[c] = typed_sample("pc", 0, c, 0, 100);
	struct run r = analyze(s, v, 8);
	assert_int_equal(r.a->n_findings, 1);
	assert_int_equal(r.a->classes[idx(s, "slot")].cls, SLT_CLASS_TRUE_SHARED);
	assert_true(score(&r, SLT_FIND_TRUE_SHARING, 0, idx(s, "slot")) == 5600);
	done(&r);
	/* overlapping ranges: 16-byte stores at 0 and 8 by CPUs 0 and 1
	 * both cover element 1 (true sharing there: min(100, 100) x 2) */
	v[0].access_size = v[1].access_size = 16;
	v[1].type_offset = 8;
	r = analyze(s, v, 2);
	assert_true(score(&r, SLT_FIND_TRUE_SHARING, 0, idx(s, "slot")) == 200);
	done(&r);
	slt_arena_free(ar);
}

/* A scalar member stored by every CPU at one offset: true sharing,
 * unchanged (5600). */
static void test_scalar_unchanged(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = pc(ar);
	struct slt_sample v[8];
	for (int c = 0; c < 8; c++)
		v[c] = typed_sample("pc", 64, c, 0, 100);
	struct run r = analyze(s, v, 8);
	assert_int_equal(r.a->n_findings, 1);
	assert_int_equal(r.p->cells[0].n_elems, 0);
	assert_true(score(&r, SLT_FIND_TRUE_SHARING, 1, idx(s, "tail")) == 5600);
	assert_int_equal(r.a->classes[idx(s, "tail")].cls, SLT_CLASS_TRUE_SHARED);
	done(&r);
	slt_arena_free(ar);
}

/* One CPU stores slot[0], CPU 1 loads slot[1] (100 each): false sharing
 * between the elements, min(100, 100) = 100; one writer, hot-write. */
static void test_one_writer(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = pc(ar);
	struct slt_sample v[2] = { typed_sample("pc", 0, 0, 0, 100),
				   typed_sample("pc", 8, 1, 100, 0) };
	struct run r = analyze(s, v, 2);
	assert_int_equal(r.a->n_findings, 1);
	assert_true(score(&r, SLT_FIND_ELEMENT_SHARING, 0, idx(s, "slot")) == 100);
	done(&r);
	/* both on slot[0]: one writer and a reader of its bytes, no
	 * finding of either kind (true sharing needs 2 writers) */
	v[1].type_offset = 0;
	r = analyze(s, v, 2);
	assert_int_equal(r.a->n_findings, 0);
	done(&r);
	slt_arena_free(ar);
}

/* Both at once: CPUs 0 and 1 store slot[0], CPUs 2 and 3 store slot[2]
 * and slot[3] (100 each).  Same element: CPUs 0 and 1, 2 x 100 = 200.
 * Between elements: from slot[0], CPU 0 against CPUs 2 and 3 (CPU 1's
 * accesses are all on slot[0]) = 200, CPU 1 likewise 200; from slot[2]
 * and slot[3], 3 other CPUs x 100 each = 600; 1000 in all. */
static void test_both(void **state)
{
	(void)state;
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = pc(ar);
	struct slt_sample v[4] = {
		typed_sample("pc", 0, 0, 0, 100), typed_sample("pc", 0, 1, 0, 100),
		typed_sample("pc", 16, 2, 0, 100), typed_sample("pc", 24, 3, 0, 100),
	};
	struct run r = analyze(s, v, 4);
	assert_int_equal(r.a->n_findings, 2);
	assert_int_equal(r.a->classes[idx(s, "slot")].cls, SLT_CLASS_TRUE_SHARED);
	assert_true(score(&r, SLT_FIND_TRUE_SHARING, 0, idx(s, "slot")) == 200);
	assert_true(score(&r, SLT_FIND_ELEMENT_SHARING, 0, idx(s, "slot")) == 1000);
	done(&r);
	slt_arena_free(ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_cpu_slots),
		cmocka_unit_test(test_same_element),
		cmocka_unit_test(test_scalar_unchanged),
		cmocka_unit_test(test_one_writer),
		cmocka_unit_test(test_both),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
