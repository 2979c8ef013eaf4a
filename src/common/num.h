/* SPDX-License-Identifier: MIT */
/*
 * Numbers given on the command line (and in option-like fields): strict
 * parsers that take the whole string or nothing.  Used by src/cli; in the
 * library so tests/fuzz/fuzz_numbers.c can reach them.
 */
#ifndef SLT_COMMON_NUM_H
#define SLT_COMMON_NUM_H

#include <stdbool.h>
#include <stdint.h>

/* A decimal count in [min, max]: digits only (no sign, no space, no
 * base prefix), no overflow.  *out is set only on success. */
bool slt_arg_uint(const char *s, unsigned long min, unsigned long max,
		    unsigned long *out);

/* An address or offset: decimal, 0x hex or 0 octal as C writes them
 * (strtoull base 0), digits only after the prefix, at most 2^64-1. */
bool slt_arg_addr(const char *s, uint64_t *out);

/* A ratio in [0, 1]: a finite decimal or scientific number. */
bool slt_arg_ratio(const char *s, double *out);

#endif
