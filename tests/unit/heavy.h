/* SPDX-License-Identifier: MIT */
/*
 * How many random cases a search test runs: its full count with
 * SLT_TEST_HEAVY=1 (tests/real/advice-heavy.sh), a fifth by default (at
 * least min) so the default suite stays quick on a loaded 2-core machine.
 * The random cases are a fixed sequence (a fixed generator seed), so
 * either count gives the same result on every run.
 */
#ifndef SLT_TEST_HEAVY_H
#define SLT_TEST_HEAVY_H

#include <stdlib.h>
#include <string.h>

static inline int reps(int full, int min)
{
	const char *h = getenv("SLT_TEST_HEAVY");
	if (h && *h && strcmp(h, "0"))
		return full;
	return full / 5 > min ? full / 5 : min;
}

#endif
