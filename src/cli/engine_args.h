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
#include <stdio.h>
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

/* Which role map a run uses, one rule for `engine` and `validate`: the
 * built-in map when the struct has one (slt_engine_builtin_names(), a
 * "struct " prefix accepted), unless --replay asks for the generic replay
 * of the classes/profile. */
static inline bool cli_engine_has_builtin(const char *name)
{
	if (!strncmp(name, "struct ", 7))
		name += 7;
	for (const char *const *n = slt_engine_builtin_names(); *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

/* The stats engine's own options (they mean nothing to a replay). */
enum {
	CLI_ENG_BATCH = 1u << 0, CLI_ENG_FLUSH = 1u << 1, CLI_ENG_DEPTH = 1u << 2,
	CLI_ENG_FANOUT = 1u << 3, CLI_ENG_WRITE_EVERY = 1u << 4, CLI_ENG_STATS_MODE = 1u << 5,
};

/* A usage error (exit 2, printed) naming the stats-only options given
 * (mask of CLI_ENG_*) when the run is a replay of struct name; 0 when
 * none was given. */
static inline int cli_engine_stats_only(unsigned mask, const char *name)
{
	static const char *const opt[] = { "--batch", "--flush", "--depth", "--fanout",
					   "--write-every", "--stats-mode" };
	char list[96] = "";
	size_t n = 0, len = 0;
	for (unsigned i = 0; i < 6; i++)
		if (mask & (1u << i)) {
			int w = snprintf(list + len, sizeof(list) - len, "%s%s", n ? ", " : "", opt[i]);
			if (w > 0 && (size_t)w < sizeof(list) - len)
				len += (size_t)w;
			n++;
		}
	if (!n)
		return 0;
	return cli_usage_error("%s: %s to the stats engine only, and struct %s runs in replay mode "
			       "(drop %s, or run a struct with a built-in role map without --replay)",
			       list, n == 1 ? "applies" : "apply", name, n == 1 ? "it" : "them");
}

/* Option values of the run options both commands take (a command's own
 * start at CLI_OPT_OWN; these sit above them). */
enum {
	CLI_ENG_OPT_PROFILE = CLI_OPT_OWN + 80, CLI_ENG_OPT_THREADS, CLI_ENG_OPT_SECONDS,
	CLI_ENG_OPT_BATCH, CLI_ENG_OPT_FLUSH, CLI_ENG_OPT_DEPTH, CLI_ENG_OPT_FANOUT,
	CLI_ENG_OPT_WRITE_EVERY, CLI_ENG_OPT_SEED, CLI_ENG_OPT_NO_PIN, CLI_ENG_OPT_REPLAY,
	CLI_ENG_OPT_SYNTHETIC, CLI_ENG_OPT_STATS_MODE, CLI_ENG_OPT_REALTIME,
};

/* Their entries of a command's struct option array. */
#define CLI_ENGINE_LONGOPTS \
	{ "profile", required_argument, NULL, CLI_ENG_OPT_PROFILE }, \
	{ "threads", required_argument, NULL, CLI_ENG_OPT_THREADS }, \
	{ "seconds", required_argument, NULL, CLI_ENG_OPT_SECONDS }, \
	{ "batch", required_argument, NULL, CLI_ENG_OPT_BATCH }, \
	{ "flush", required_argument, NULL, CLI_ENG_OPT_FLUSH }, \
	{ "depth", required_argument, NULL, CLI_ENG_OPT_DEPTH }, \
	{ "fanout", required_argument, NULL, CLI_ENG_OPT_FANOUT }, \
	{ "write-every", required_argument, NULL, CLI_ENG_OPT_WRITE_EVERY }, \
	{ "seed", required_argument, NULL, CLI_ENG_OPT_SEED }, \
	{ "no-pin", no_argument, NULL, CLI_ENG_OPT_NO_PIN }, \
	{ "replay", no_argument, NULL, CLI_ENG_OPT_REPLAY }, \
	{ "synthetic", no_argument, NULL, CLI_ENG_OPT_SYNTHETIC }, \
	{ "stats-mode", required_argument, NULL, CLI_ENG_OPT_STATS_MODE }, \
	{ "realtime", no_argument, NULL, CLI_ENG_OPT_REALTIME }

/* What the run options set. */
struct cli_engine_args {
	struct slt_engine_opts *o; /* the engine options they fill */
	bool replay;               /* --replay */
	bool synthetic;            /* --synthetic: the engine's invented
				      hot-write pattern, not the profile's */
	bool need_pattern;         /* validate: a built-in map's hot-write
				      pattern must come from a profile unless
				      --synthetic */
	unsigned stats_given;      /* CLI_ENG_* stats-only options given */
	char mode_why[160];        /* where the stats mode came from */
};

struct cli_analysis;
/* Handle run option opt (argument arg): 0 when handled, 1 when it is not
 * one of them, SLT_EXIT_ERROR after printing a usage error.  --profile is
 * --samples of the shared options (c).  In cli/engine_args.c. */
int cli_engine_option(struct cli_engine_args *e, struct cli_analysis *c, int opt,
		      const char *arg);

struct slt_struct;
struct slt_engine_spec;
struct slt_engine_pattern;
/* The measured pattern (engine.h slt_engine_pattern) of --samples for
 * layout s applied to spec and spec_b (may be NULL or spec), unless
 * --synthetic.  --synthetic in replay mode or for a stats map without a
 * hot-write role, and --write-every for such a map, are usage errors
 * (printed, > 0): they would change nothing.  Without --samples: nothing, except that with
 * need_pattern a stats spec with hot-write roles is an error naming
 * --samples and --synthetic.  *out (may stay NULL) is the pattern, for
 * the caller to describe and free.  With a pattern that names CPUs and
 * no --threads, the threads become one per CPU.  Returns 0 or SLT_E*. */
int cli_engine_pattern(struct cli_engine_args *e, const struct cli_analysis *c,
		       const struct slt_struct *s, struct slt_engine_spec *spec,
		       struct slt_engine_spec *spec_b,
		       struct slt_engine_pattern **out, struct slt_error *err);
/* "measured: ..." or "synthetic: ..." of a run (buf, size bytes). */
void cli_engine_pattern_text(char *buf, size_t size, const struct slt_engine_spec *spec,
			     const struct slt_engine_pattern *p, const char *file);

/* The kernel stats mode and counters of a stats run on FILE (NULL: the
 * running kernel's BTF), into e->o: --stats-mode when given, else the
 * mode of the kernel version the FILE says (slt_kernel_version_read()),
 * else 5.15-rc1 with a note; the counters from the FILE's DWARF when it
 * has them (slt_engine_counters_read()), else the mode's defaults.
 * Returns 0 or SLT_E* (a corrupt FILE; a FILE of a kernel before
 * 5.15-rc1, which has no memcg stats flush, is a usage error naming
 * --stats-mode).  In cli/engine_args.c. */
int cli_engine_stats_mode(struct cli_engine_args *e, const char *file,
			  const struct slt_load_opts *lo, struct slt_error *err);

/* Put file in front of an error that names no file (role binding errors
 * are about the layout FILE). */
static inline void cli_engine_err_file(struct slt_error *err, const char *file)
{
	if (err && file && !err->file[0])
		snprintf(err->file, sizeof(err->file), "%s", file);
}

#endif
