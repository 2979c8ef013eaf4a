/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the command-line number parsers
 * (src/common/num.c): the input, cut at NUL bytes, is a list of
 * arguments; each goes through every parser.  A value accepted must lie
 * in its bounds and print back to a string the same parser accepts with
 * the same value; a crash, UB report or a broken round trip is a bug.
 * Seeds: tests/fuzz/seeds-numbers (numbers, bounds, garbage).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const char *s)
{
	char back[64];
	unsigned long u = 0, u2 = 0;
	if (slt_arg_uint(s, 2, 4096, &u)) {
		if (u < 2 || u > 4096)
			abort();
		snprintf(back, sizeof back, "%lu", u);
		if (!slt_arg_uint(back, 2, 4096, &u2) || u2 != u)
			abort();
	}
	if (slt_arg_uint(s, 0, (unsigned long)-1, &u)) {
		snprintf(back, sizeof back, "%lu", u);
		if (!slt_arg_uint(back, 0, (unsigned long)-1, &u2) || u2 != u)
			abort();
	}
	uint64_t a = 0, a2 = 0;
	if (slt_arg_addr(s, &a)) {
		snprintf(back, sizeof back, "%#llx", (unsigned long long)a);
		if (!slt_arg_addr(back, &a2) || a2 != a)
			abort();
	}
	double r = 0, r2 = 0;
	if (slt_arg_ratio(s, &r)) {
		if (!(r >= 0 && r <= 1))
			abort();
		snprintf(back, sizeof back, "%.17g", r);
		if (!slt_arg_ratio(back, &r2) || r2 != r)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	for (size_t at = 0; at <= size;) {
		one(buf + at);
		at += strlen(buf + at) + 1;
	}
	free(buf);
	return 0;
}
