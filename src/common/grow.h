/* SPDX-License-Identifier: MIT */
/*
 * Growing arrays: the one doubling realloc every module's append uses.
 */
#ifndef SLT_COMMON_GROW_H
#define SLT_COMMON_GROW_H

#include <stddef.h>

/* Grow *arr (of *cap elements of elem bytes) to hold need elements: the
 * capacity doubles from first (or from 4 when first is 0) until it does.
 * Returns 0, or SLT_ENOMEM with *arr and *cap unchanged (what they held
 * stays valid; the caller frees *arr as before). */
int slt_grow(void **arr, size_t *cap, size_t need, size_t elem, size_t first);

#endif
