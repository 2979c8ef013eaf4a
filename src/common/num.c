/* SPDX-License-Identifier: MIT */
/* Strict number parsers for the command line; see num.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/num.h"

/* strtoul/strtoull/strtod accept leading white space and a sign, and
 * strtoul negates "-1" into ULONG_MAX: refused before they see it */
static bool plain_start(const char *s)
{
	return s && *s && !isspace((unsigned char)*s) && *s != '-' && *s != '+';
}

bool slt_arg_uint(const char *s, unsigned long min, unsigned long max,
		    unsigned long *out)
{
	if (!plain_start(s))
		return false;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool slt_arg_addr(const char *s, uint64_t *out)
{
	if (!plain_start(s))
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return false;
	*out = (uint64_t)v;
	return true;
}

bool slt_arg_ratio(const char *s, double *out)
{
	if (!plain_start(s))
		return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 || v > 1)
		return false;
	*out = v;
	return true;
}
