/* SPDX-License-Identifier: MIT */
/*
 * The run options `structlint engine` and `structlint validate` share
 * (cmd_engine.c, cmd_validate.c): one parser each, so both commands take
 * and refuse the same values with the same words.
 */
#ifndef SLT_CLI_ENGINE_ARGS_H
#define SLT_CLI_ENGINE_ARGS_H

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "structlint/engine.h"

/* A run time in seconds: SLT_ENGINE_SECONDS_MIN .. _MAX, or 0 when
 * zero_ok (a warm-up).  Returns 0 or a printed usage error (> 0). */
static inline int cli_engine_seconds(const char *opt, const char *arg,
				     bool zero_ok, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) ||
	    !((v >= SLT_ENGINE_SECONDS_MIN && v <= SLT_ENGINE_SECONDS_MAX) ||
	      (zero_ok && v == 0.0)))
		return cli_usage_error("%s '%s': want seconds from %g to %g%s", opt, arg,
				       SLT_ENGINE_SECONDS_MIN, SLT_ENGINE_SECONDS_MAX,
				       zero_ok ? ", or 0 for none" : "");
	*out = v;
	return 0;
}

/* --threads N: 1 .. 1024 updater threads. */
static inline int cli_engine_threads(const char *arg, unsigned *out)
{
	unsigned long v;
	if (!cli_parse_uint(arg, 1, 1024, &v))
		return cli_usage_error("--threads '%s': want 1 to 1024 updater threads (default: one per online CPU)",
				       arg);
	*out = (unsigned)v;
	return 0;
}

#endif
