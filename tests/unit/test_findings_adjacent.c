/* SPDX-License-Identifier: MIT */
/*
 * Findings list each member once: an adjacent-line (128-byte pair) finding
 * of a pair whose middle a written member straddles used to list that
 * member twice (once per line, as `structlint report --adjacent` printed
 * it); and no finding of any kind lists a member twice, on random layouts
 * with straddling members, nested (inline) members and bitfields sharing
 * one storage unit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "structlint/analysis.h"

static struct slt_analysis *run(const struct slt_struct *s,
				const enum slt_class *cls)
{
	struct slt_analysis_opts ao = { 0 };
	struct slt_analysis *a = NULL;
	struct slt_error err = { 0 };

	slt_classify_opts_default(&ao.classify);
	ao.given = cls;
	ao.cacheline_size = 64;
	ao.adjacent = true;
	assert_int_equal(slt_analyze(s, NULL, &ao, &a, &err), 0);
	return a;
}

static void no_duplicates(const struct slt_analysis *a, size_t *n_checked)
{
	for (size_t f = 0; f < a->n_findings; f++) {
		const struct slt_finding *x = &a->findings[f];
		assert_true(x->n_writers <= x->n_members);
		for (size_t i = 0; i < x->n_members; i++)
			for (size_t j = i + 1; j < x->n_members; j++) {
				if (x->members[i] == x->members[j])
					printf("# finding %zu (%s, line %llu) lists member %zu "
					       "twice\n", f, slt_finding_kind_name(x->kind),
					       (unsigned long long)x->line, x->members[i]);
				assert_true(x->members[i] != x->members[j]);
			}
		(*n_checked)++;
	}
}

#define M(n, o, sz, al) { .name = n, .type = "t", .decl_head = "t ", .decl_tail = "", \
			  .offset = o, .size = sz, .natural_alignment = al, .parent = -1 }

/* char a[60]; long w (aligned 4, bytes 60..67: lines 0 and 1); long r;
 * long r0: the adjacent finding of lines 0+1 names w once, as a writer. */
static void test_straddling_writer(void **state)
{
	(void)state;
	struct slt_member m[] = { M("a", 0, 60, 1), M("w", 60, 8, 4), M("r", 72, 8, 8),
				  M("r0", 80, 8, 8) };
	enum slt_class cls[] = { SLT_CLASS_READ_MOSTLY, SLT_CLASS_HOT_WRITE,
				 SLT_CLASS_READ_MOSTLY, SLT_CLASS_NONE };
	struct slt_struct s = { .name = "dup2", .kind = SLT_KIND_STRUCT, .members = m,
				.n_members = 4, .n_top_members = 4, .size = 88,
				.alignment = 8 };
	struct slt_analysis *a = run(&s, cls);
	size_t n = 0, adj = 0;

	no_duplicates(a, &n);
	for (size_t f = 0; f < a->n_findings; f++) {
		const struct slt_finding *x = &a->findings[f];
		if (x->kind != SLT_FIND_ADJACENT)
			continue;
		adj++;
		assert_int_equal(x->line, 0);
		assert_int_equal(x->line2, 1);
		assert_int_equal(x->n_members, 3);   /* w, a, r */
		assert_int_equal(x->n_writers, 1);
		assert_int_equal(x->members[0], 1);  /* w */
	}
	assert_int_equal(adj, 1);
	slt_analysis_free(a);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* Random layouts: packed members (some straddle), an inline struct with
 * two children, two bitfields in one 4-byte storage unit; random classes. */
static void test_random(void **state)
{
	(void)state;
	static const enum slt_class cl[] = { SLT_CLASS_READ_MOSTLY, SLT_CLASS_HOT_WRITE,
		SLT_CLASS_COLD, SLT_CLASS_NONE, SLT_CLASS_MIXED, SLT_CLASS_TRUE_SHARED };
	char names[40][8];
	size_t checked = 0;
	for (int it = 0; it < 300; it++) {
		struct slt_member m[40];
		enum slt_class cls[40];
		size_t n = 0;
		uint64_t off = 0;
		size_t nt = 4 + rnd(16);
		memset(m, 0, sizeof(m));
		for (size_t t = 0; t < nt && n + 3 <= 40; t++) {
			uint32_t kind = rnd(6), sz = 1 + rnd(24);
			snprintf(names[n], sizeof(names[n]), "m%zu", n);
			struct slt_member *x = &m[n];
			*x = (struct slt_member)M(names[n], off, sz, 1);
			if (kind == 0 && sz >= 2) {
				/* an inline struct of two children */
				x->flags = SLT_MEMBER_COMPOSITE | SLT_MEMBER_INLINE | SLT_MEMBER_ANON;
				x->n_children = 2;
				cls[n] = cl[rnd(6)];
				size_t p = n++;
				for (int c = 0; c < 2; c++) {
					snprintf(names[n], sizeof(names[n]), "c%zu", n);
					m[n] = (struct slt_member)M(names[n], off + (c ? sz / 2 : 0),
								    c ? sz - sz / 2 : sz / 2, 1);
					m[n].parent = (int32_t)p;
					m[n].depth = 1;
					cls[n++] = cl[rnd(6)];
				}
				off += sz;
				continue;
			}
			if (kind == 1) {
				/* two bitfields sharing one int's storage */
				for (int c = 0; c < 2; c++) {
					snprintf(names[n], sizeof(names[n]), "b%zu", n);
					m[n] = (struct slt_member)M(names[n], off, 4, 4);
					m[n].flags = SLT_MEMBER_BITFIELD;
					m[n].bit_offset = (uint8_t)(c * 5);
					m[n].bit_size = 5;
					cls[n++] = cl[rnd(6)];
				}
				off += 4;
				continue;
			}
			cls[n++] = cl[rnd(6)];
			off += sz;
		}
		struct slt_struct s = { .name = "rnd", .kind = SLT_KIND_STRUCT,
					.members = m, .n_members = n, .size = off,
					.alignment = 1 };
		for (size_t i = 0; i < n; i++)
			s.n_top_members += m[i].depth == 0;
		struct slt_analysis *a = run(&s, cls);
		no_duplicates(a, &checked);
		slt_analysis_free(a);
	}
	printf("# %zu findings on 300 random layouts: no member listed twice\n", checked);
	assert_true(checked > 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_straddling_writer),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
