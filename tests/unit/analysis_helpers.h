/* SPDX-License-Identifier: MIT */
/* Shared by test_analysis.c and test_findings_split.c: member lookup,
 * typed per-CPU samples and their join. */
#ifndef TEST_ANALYSIS_HELPERS_H
#define TEST_ANALYSIS_HELPERS_H

#include "structlint/analysis.h"
#include "structlint/join.h"

/* Index of the member named name (fails the test when there is none). */
static inline size_t idx(const struct slt_struct *s, const char *name)
{
	for (size_t i = 0; i < s->n_members; i++)
		if (!strcmp(s->members[i].name, name))
			return i;
	fail_msg("no member %s", name);
	return 0;
}

/* A sample of type at off, on cpu (none when negative). */
static inline struct slt_sample typed_sample(const char *type, uint64_t off, int cpu,
					     uint64_t ld, uint64_t st)
{
	return (struct slt_sample){ .flags = SLT_SAMPLE_TYPE | (cpu >= 0 ? SLT_SAMPLE_CPU : 0),
				    .type_name = type, .type_offset = off, .cpu = cpu,
				    .loads = ld, .stores = st };
}

/* The profile of v[0..n) joined to s. */
static inline struct slt_access_profile *join(const struct slt_struct *s,
					      const struct slt_sample *v, size_t n)
{
	struct slt_join *j;
	struct slt_access_profile *p;
	struct slt_error err;
	assert_int_equal(slt_join_new(s, NULL, &j, &err), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(slt_join_add(j, &v[i]), 0);
	assert_int_equal(slt_join_finish(j, &p, &err), 0);
	return p;
}

#endif
