/* SPDX-License-Identifier: MIT */
/*
 * Random structs with random member classes for the layout advisor's tests
 * (test_advice.c, test_advice_exact.c): the generator (a fixed xorshift
 * seed, so every run draws the same sequence in each test program) and the
 * analysis of a struct with given classes and writer labels.
 * Include after <cmocka.h>.
 */
#ifndef SLT_TEST_ADVICE_HELPERS_H
#define SLT_TEST_ADVICE_HELPERS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "structlint/analysis.h"

#ifndef MAXM
#define MAXM 40
#endif


struct rs {
	struct slt_struct s;
	struct slt_member m[MAXM];
	char names[MAXM][24];
	enum slt_class cls[MAXM];
	const char *lab[MAXM];   /* writer labels (hot-write:LABEL) or NULL */
};

#ifndef ADVICE_RNG_SEED
#define ADVICE_RNG_SEED 0x9e3779b97f4a7c15ull
#endif
static uint64_t rng = ADVICE_RNG_SEED;

static inline uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static inline uint64_t up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* A random struct of n top-level scalar/array members laid out by C rules:
 * each member's size and alignment a random pair of sz[]/al[] (nt pairs),
 * its class a random one of cl[] (ncl). */
static inline void gen_from(struct rs *r, size_t n, const uint32_t *sz, const uint32_t *al,
			    size_t nt, const enum slt_class *cl, size_t ncl)
{
	uint64_t off = 0;
	uint32_t salign = 1;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		size_t t = rnd((uint32_t)nt);
		struct slt_member *m = &r->m[i];
		snprintf(r->names[i], sizeof(r->names[i]), "m%zu", i);
		*m = (struct slt_member){ .name = r->names[i], .type = "t",
			.decl_head = "t ", .decl_tail = "", .size = sz[t],
			.natural_alignment = al[t], .parent = -1 };
		off = up(off, al[t]);
		m->offset = off;
		off += sz[t];
		if (al[t] > salign)
			salign = al[t];
		r->cls[i] = cl[rnd((uint32_t)ncl)];
	}
	r->s = (struct slt_struct){ .name = "rnd", .kind = SLT_KIND_STRUCT,
		.members = r->m, .n_members = n, .n_top_members = n,
		.alignment = salign, .size = up(off, salign) };
}

static inline void gen(struct rs *r, size_t n)
{
	static const uint32_t sz[] = { 1, 2, 4, 8, 16, 24, 40, 12, 3, 8, 8, 56, 100 };
	static const uint32_t al[] = { 1, 2, 4, 8, 8, 8, 8, 4, 1, 8, 8, 8, 4 };
	static const enum slt_class cl[] = { SLT_CLASS_READ_MOSTLY, SLT_CLASS_HOT_WRITE,
		SLT_CLASS_COLD, SLT_CLASS_NONE, SLT_CLASS_READ_MOSTLY, SLT_CLASS_MIXED };
	gen_from(r, n, sz, al, sizeof(sz) / sizeof(sz[0]), cl, sizeof(cl) / sizeof(cl[0]));
}

/* Writer labels "rx" or "tx" on about half of r's written members: members
 * with different labels collide as write-write (analysis.h). */
static inline void add_labels(struct rs *r)
{
	for (size_t i = 0; i < r->s.n_members; i++)
		if ((r->cls[i] == SLT_CLASS_HOT_WRITE || r->cls[i] == SLT_CLASS_MIXED) &&
		    rnd(2))
			r->lab[i] = rnd(2) ? "rx" : "tx";
}

static inline struct slt_analysis *analyze_l(const struct slt_struct *s,
				      const enum slt_class *cls,
				      const char *const *lab)
{
	struct slt_analysis_opts ao = { 0 };
	struct slt_analysis *a = NULL;
	struct slt_error err = { 0 };

	slt_classify_opts_default(&ao.classify);
	ao.given = cls;
	ao.given_label = lab;
	ao.cacheline_size = 64;
	assert_int_equal(slt_analyze(s, NULL, &ao, &a, &err), 0);
	return a;
}

static inline struct slt_analysis *analyze(const struct slt_struct *s,
				    const enum slt_class *cls)
{
	return analyze_l(s, cls, NULL);
}


/* qsort order of doubles, ascending */
static inline int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#endif
