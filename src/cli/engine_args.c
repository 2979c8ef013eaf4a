/* SPDX-License-Identifier: MIT */
/* The run options `structlint engine` and `structlint validate` share:
 * one parser, so both take and refuse the same values with the same
 * words (engine_args.h). */
#include <getopt.h>

#include "cli/analysis_args.h"
#include "cli/engine_args.h"

int cli_engine_option(struct cli_engine_args *e, struct cli_analysis *c, int opt,
		      const char *arg)
{
	struct slt_engine_opts *o = e->o;
	unsigned long v;
	switch (opt) {
	case CLI_ENG_OPT_PROFILE: return cli_analysis_option(c, 's', arg, "--profile");
	case CLI_ENG_OPT_THREADS: return cli_engine_threads(arg, &o->threads);
	case CLI_ENG_OPT_SECONDS: return cli_engine_seconds("--seconds", arg, false, &o->seconds);
	case CLI_ENG_OPT_BATCH:
		if (!cli_parse_uint(arg, 32, 128, &v) || (v != 32 && v != 64 && v != 128))
			return cli_usage_error("--batch '%s': want 32, 64 or 128", arg);
		o->batch = (unsigned)v;
		e->stats_given |= CLI_ENG_BATCH;
		return 0;
	case CLI_ENG_OPT_FLUSH:
		if (!(o->flush = slt_engine_flush_parse(arg)))
			return cli_usage_error("--flush '%s': want list or pop", arg);
		e->stats_given |= CLI_ENG_FLUSH;
		return 0;
	case CLI_ENG_OPT_DEPTH:
		e->stats_given |= CLI_ENG_DEPTH;
		return cli_uint_opt("--depth", arg, 1, 8, &o->depth);
	case CLI_ENG_OPT_FANOUT:
		e->stats_given |= CLI_ENG_FANOUT;
		return cli_uint_opt("--fanout", arg, 1, 16, &o->fanout);
	case CLI_ENG_OPT_WRITE_EVERY:
		e->stats_given |= CLI_ENG_WRITE_EVERY;
		return cli_uint_opt("--write-every", arg, 1, 1000000, &o->write_every);
	case CLI_ENG_OPT_SEED:
		if (!cli_parse_uint(arg, 0, ~0ul, &v))
			return cli_usage_error("--seed '%s': want a whole number", arg);
		o->seed = v;
		return 0;
	case CLI_ENG_OPT_NO_PIN: o->pin = false; return 0;
	case CLI_ENG_OPT_REPLAY: e->replay = true; return 0;
	}
	return 1;
}
