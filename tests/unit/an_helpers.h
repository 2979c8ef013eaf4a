/* SPDX-License-Identifier: MIT */
/* Shared by test_analysis.c and test_findings_together.c: the struct an
 * of their worked examples, its samples, findings and analysis.  Include
 * after graph_helpers.h and analysis_helpers.h. */
#ifndef TEST_AN_HELPERS_H
#define TEST_AN_HELPERS_H

/*
 * struct an {            offset  line
 *	long w;              0      0
 *	long r;              8      0
 *	long x;             64      1
 *	long y;             72      1
 *	int ref;           128      2
 *	char pk[8];        188      2..3 (straddles)
 * };                  size 256
 */
static inline struct slt_struct *an(struct slt_arena *a)
{
	struct slt_type *l = G_INT(a, "long int", 8), *i = G_INT(a, "int", 4);
	struct slt_type *t = g_comp(a, SLT_T_STRUCT, "an", 256, 6);
	g_mem(t, "w", l, 0, 0, 0);
	g_mem(t, "r", l, 64, 0, 0);
	g_mem(t, "x", l, 512, 0, 0);
	g_mem(t, "y", l, 576, 0, 0);
	g_mem(t, "ref", i, 1024, 0, 0);
	g_mem(t, "pk", G_INT(a, "long unsigned int", 8), 1504, 0, 0);
	struct slt_struct *s = slt_arena_alloc(a, sizeof(*s));
	struct slt_error err;
	assert_int_equal(slt_build_struct(a, t, SLT_FORMAT_DWARF, false, "an.o", s, &err), 0);
	return s;
}

static inline struct slt_sample ts(uint64_t off, int cpu, uint64_t ld, uint64_t st)
{
	return typed_sample("an", off, cpu, ld, st);
}

static inline const struct slt_finding *find(const struct slt_analysis *a,
					     enum slt_finding_kind k, uint64_t line)
{
	for (size_t i = 0; i < a->n_findings; i++)
		if (a->findings[i].kind == k && a->findings[i].line == line)
			return &a->findings[i];
	return NULL;
}

static inline struct slt_sample tsym(uint64_t off, int cpu, uint64_t ld, uint64_t st,
				      const char *sym)
{
	struct slt_sample x = ts(off, cpu, ld, st);
	x.symbol = sym;
	return x;
}

/* The findings of v[0..n) joined to s (the profile into *p). */
static inline struct slt_analysis *run(const struct slt_struct *s,
				       const struct slt_sample *v, size_t n,
				       struct slt_access_profile **p)
{
	struct slt_analysis *a;
	struct slt_error err;
	*p = join(s, v, n);
	assert_int_equal(slt_analyze(s, *p, NULL, &a, &err), 0);
	return a;
}

#endif
