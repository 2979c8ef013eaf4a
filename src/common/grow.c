/* SPDX-License-Identifier: MIT */
/* Growing arrays (common/grow.h). */
#include "common/grow.h"

#include <stdint.h>
#include <stdlib.h>

#include "structlint/error.h"

int slt_grow(void **arr, size_t *cap, size_t need, size_t elem, size_t first)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap * 2 : first ? first : 4;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return SLT_ENOMEM;
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		return SLT_ENOMEM;
	void *p = realloc(*arr, n * elem);
	if (!p)
		return SLT_ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}
