/* SPDX-License-Identifier: MIT */
/*
 * Sorting helpers every stage shares.
 *
 * slt_sort(): qsort(3) that accepts an empty or one-element array with a
 * NULL base (C17 7.22.5: qsort's base must point to an array even when
 * nmemb is 0, and UBSan's nonnull check says so), so callers need no
 * guard of their own.
 * slt_cmp_u64(): the ascending order of uint64_t values, for qsort and
 * bsearch.
 */
#ifndef SLT_COMMON_SORT_H
#define SLT_COMMON_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline void slt_sort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static inline int slt_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

#endif
