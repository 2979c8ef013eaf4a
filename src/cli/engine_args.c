/* SPDX-License-Identifier: MIT */
/* The run options `structlint engine` and `structlint validate` share:
 * one parser, so both take and refuse the same values with the same
 * words (engine_args.h). */
#include <getopt.h>
#include <stdio.h>

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
	case CLI_ENG_OPT_REALTIME: o->realtime = true; return 0;
	case CLI_ENG_OPT_REPLAY: e->replay = true; return 0;
	case CLI_ENG_OPT_SYNTHETIC: e->synthetic = true; return 0;
	case CLI_ENG_OPT_STATS_MODE:
		e->stats_given |= CLI_ENG_STATS_MODE;
		if (!strcmp(arg, "auto")) {
			o->stats_mode = 0;
			e->stats_given &= ~(unsigned)CLI_ENG_STATS_MODE;
			return 0;
		}
		if (!(o->stats_mode = slt_stats_mode_parse(arg)))
			return cli_usage_error("--stats-mode '%s': want auto, 5.15 (5.15-rc1), 6.1 or mainline", arg);
		return 0;
	}
	return 1;
}

int cli_engine_stats_mode(struct cli_engine_args *e, const char *file,
			  const struct slt_load_opts *lo, struct slt_error *err)
{
	struct slt_engine_opts *o = e->o;
	const char *shown = file ? file : SLT_KERNEL_BTF_PATH;
	if (e->stats_given & CLI_ENG_STATS_MODE) {
		snprintf(e->mode_why, sizeof(e->mode_why), "--stats-mode");
	} else {
		struct slt_kernel_version kv;
		struct slt_error e2;
		slt_error_clear(&e2);
		int rc = slt_kernel_version_read(file, &kv, &e2);
		if (rc == SLT_ENOTFOUND) {
			o->stats_mode = SLT_STATS_5_15;
			snprintf(e->mode_why, sizeof(e->mode_why),
				 "default: %s names no kernel version; give --stats-mode", shown);
		} else if (rc == SLT_ENOTELF) {   /* raw BTF: no banner */
			o->stats_mode = SLT_STATS_5_15;
			snprintf(e->mode_why, sizeof(e->mode_why),
				 "default: %s is not ELF; give --stats-mode", shown);
		} else if (rc) {
			*err = e2;
			return rc;
		} else if (!(o->stats_mode = slt_stats_mode_for_version(kv.major, kv.minor, kv.rc))) {
			return slt_error_set(err, SLT_EUSAGE, shown, -1,
					     "give --stats-mode 5.15|6.1|mainline to run a later kernel's scheme",
					     "Linux %s (%s) predates the memcg stats flush (5.15-rc1)",
					     kv.release, kv.source);
		} else {
			snprintf(e->mode_why, sizeof(e->mode_why), "%s: Linux %s", kv.source, kv.release);
		}
	}
	o->stats_mode_why = e->mode_why;
	struct slt_engine_counters c;
	struct slt_error e3;
	slt_error_clear(&e3);
	if (!slt_engine_counters_read(file, lo, &c, &e3))
		o->counters = c;
	else
		slt_engine_counters_default(o->stats_mode, &o->counters);
	return 0;
}

static bool has_hot_write(const struct slt_engine_spec *spec)
{
	for (size_t k = 0; k < spec->n_roles; k++)
		if (spec->roles[k].role == SLT_ROLE_HOT_WRITE)
			return true;
	return false;
}

int cli_engine_pattern(struct cli_engine_args *e, const struct cli_analysis *c,
		       const struct slt_struct *s, struct slt_engine_spec *spec,
		       struct slt_engine_spec *spec_b,
		       struct slt_engine_pattern **out, struct slt_error *err)
{
	*out = NULL;
	/* options that mean nothing to this run are refused, not ignored */
	bool hot = spec->mode == SLT_ENGINE_STATS && has_hot_write(spec);
	if (e->synthetic && spec->mode != SLT_ENGINE_STATS)
		return cli_usage_error("--synthetic: applies to a built-in role map's invented hot-write "
				       "pattern, and struct %s runs in replay mode (drop --synthetic)", s->name);
	if (e->synthetic && !hot)
		return cli_usage_error("--synthetic: struct %s's role map has no hot-write member, so there "
				       "is no hot-write pattern to invent (the run is the update and flush "
				       "paths only): drop --synthetic", s->name);
	if ((e->stats_given & CLI_ENG_WRITE_EVERY) && spec->mode == SLT_ENGINE_STATS && !hot)
		return cli_usage_error("--write-every: struct %s's role map has no hot-write member to "
				       "store (the run is the update and flush paths only): drop --write-every",
				       s->name);
	if (e->synthetic)
		return 0;
	if (!c->samples) {
		if (e->need_pattern && spec->mode == SLT_ENGINE_STATS && has_hot_write(spec))
			return slt_error_set(err, SLT_EUSAGE, NULL, -1,
					     "give --samples P (a profile of the struct's accesses), or --synthetic for the engine's invented pattern (every line of every hot member)",
					     "struct %s: the hot-write pattern comes from a profile", s->name);
		return 0;
	}
	int rc = slt_engine_pattern_read(c->samples, c->sfmt, s, out, err);
	if (rc == SLT_EUSAGE && c->profiles && c->profiles[0]) {
		/* records without offsets (IP-sample estimates): the joined
		 * profile's (line, member) cells */
		struct slt_error e2;
		slt_error_clear(&e2);
		if (!slt_engine_pattern_from_profile(c->profiles[0], s, out, &e2)) {
			slt_error_clear(err);
			rc = 0;
		}
	}
	if (rc) {
		if (rc == SLT_EUSAGE && !err->hint[0])
			snprintf(err->hint, sizeof(err->hint), "or give --synthetic");
		return rc;
	}
	rc = slt_engine_spec_apply_pattern(spec, *out, s, err);
	if (!rc && spec_b && spec_b != spec)
		rc = slt_engine_spec_apply_pattern(spec_b, *out, s, err);
	if (!rc && !e->o->threads && (*out)->n_cpus)
		e->o->threads = (unsigned)((*out)->n_cpus < 1024 ? (*out)->n_cpus : 1024);
	return rc;
}

void cli_engine_pattern_text(char *buf, size_t size, const struct slt_engine_spec *spec,
			     const struct slt_engine_pattern *p, const char *file)
{
	if (p) {
		snprintf(buf, size, "%s: %zu (offset, width, CPU) records of %llu accesses from %s, "
			 "%zu CPU%s (one updater each)%s",
			 p->line_granular ? "per member and line (no offsets or widths in the records: "
			 "each member's first byte on the line, up to 8 bytes)" : "measured",
			 p->n, (unsigned long long)p->samples, file, p->n_cpus, p->n_cpus == 1 ? "" : "s",
			 p->unplaced ? "; accesses in holes left out" : "");
		return;
	}
	if (spec->mode == SLT_ENGINE_STATS && has_hot_write(spec))
		snprintf(buf, size, "synthetic: the engine's invented hot-write pattern (one store in every "
			 "line of every hot-write member per write_every updates), not a measurement");
	else if (spec->mode == SLT_ENGINE_REPLAY)
		snprintf(buf, size, "synthetic: member classes only (whole members, one access per line; "
			 "no offsets, widths or CPUs measured)");
	else
		snprintf(buf, size, "the update and flush paths only (no hot-write member)");
}
