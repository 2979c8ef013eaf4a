/* SPDX-License-Identifier: MIT */
/*
 * `structlint engine [OPTIONS] [FILE] STRUCT`: run the reference stats
 * engine (include/structlint/engine.h) alone on STRUCT's layout from FILE
 * (default: the running kernel's BTF) and print its figures, as text
 * (src/report/engine_out.c) or structlint.engine/v1 JSON.  STRUCT
 * mem_cgroup_per_node or cgroup runs the stats machinery with the built-in
 * role map; --classes or --samples (a profile) replays any struct's
 * member classes and rates.  Inputs and loading are report's
 * (analysis_args.c).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/analysis_args.h"
#include "cli/cli.h"
#include "cli/engine_args.h"
#include "cli/realtime.h"
#include "structlint/engine.h"

static const char usage_head[] =
"usage: structlint engine [OPTIONS] [FILE] STRUCT\n"
"       structlint engine [OPTIONS] --layout FILE:STRUCT\n"
"       structlint engine [OPTIONS] [FILE] STRUCT --replay --classes C | --samples P\n"
"\n"
"Run the reference stats engine on STRUCT's layout from FILE (default: the\n"
"running kernel's BTF) and print ops/s, update latency, flushes and the\n"
"flush-lock and per-CPU-lock hold-time histograms.  mem_cgroup_per_node and\n"
"cgroup run the kernel's per-CPU stats machinery with built-in member\n"
"roles (also when --classes or --samples are given); any other struct, or\n"
"these with --replay, replays the members' classes and rates from --classes\n"
"or --samples (the same rule as validate).\n"
"\n";

static const char usage_tail[] =
"engine:\n"
"      --layout FILE:STRUCT   the layout to run (same as the operands)\n"
"      --builtin NAME         use NAME's built-in role map (mem_cgroup_per_node,\n"
"                             cgroup) on STRUCT (or on NAME from the running\n"
"                             kernel without operands)\n"
"      --replay               replay --classes/--samples even for a struct with\n"
"                             a built-in role map (no tree, no flush: --batch,\n"
"                             --flush, --depth, --fanout, --write-every refused)\n"
"      --profile P            a structlint.profile/v1 to replay (--samples P)\n"
"      --synthetic            a built-in map's invented hot-write pattern (every\n"
"                             line of every hot member; the default without\n"
"                             --samples) even when a profile is given;\n"
"                             refused (as --write-every) for a map without a\n"
"                             hot-write member (cgroup), and in replay mode\n"
"  (with --samples, the profile's accesses replay at their exact offsets,\n"
"   widths and per-CPU rates, one updater per CPU of the profile; a\n"
"   built-in map takes its hot-write stores from them)\n"
"      --threads N            updater threads, 1 to 1024 (default: online CPUs)\n"
"      --seconds S            run time in seconds, 0.01 to 3600 (default 1);\n"
"                             with --updates a cap only\n"
"      --updates N            each updater thread stops after N updates, for\n"
"                             reproducible profiles (the same counts on any\n"
"                             load; replay: N accesses of all threads together,\n"
"                             rounded up to whole replay cycles)\n"
"stats engine only (built-in role maps):\n"
"      --batch 32|64|128      updates per CPU between flusher wake-ups\n"
"                             (MEMCG_CHARGE_BATCH; default 64)\n"
"      --flush list|pop       list: detach the updated list under the per-CPU\n"
"                             lock (6.8+); pop: aggregate under it (default:\n"
"                             the stats mode's, pop before mainline)\n"
"      --depth D              tree levels (default 3)\n"
"      --fanout F             children per group (default 2)\n"
"      --write-every N        hot-written members stored every Nth update\n"
"                             (default 4)\n"
"      --stats-mode auto|5.15|6.1|mainline\n"
"                             the kernel's flush trigger: 5.15-rc1's queued\n"
"                             flush every batch updates, 6.1's global\n"
"                             threshold with readers flushing past batch x\n"
"                             CPUs, mainline's per-group counts (6.8+); all\n"
"                             with the 2 s periodic flush (default auto: the\n"
"                             version FILE says, else 5.15-rc1)\n"
"both:\n"
"      --seed N               PRNG seed (default 1)\n"
"      --no-pin               do not pin updater threads to CPUs\n"
"      --realtime             run the engine's threads SCHED_RR (updaters 1;\n"
"                             flusher and timer 2) so that they run at once on a\n"
"                             machine busy with other work (root, or\n"
"                             CAP_SYS_NICE / RLIMIT_RTPRIO >= 2); a warning\n"
"                             when the kernel's RT throttling is on; refused\n"
"                             with more threads than allowed CPUs\n"
"      --write-profile OUT    write the exact per-member, per-thread loads and\n"
"                             stores as a structlint.profile/v1 to OUT\n"
"output:\n"
"  -j, --json                 JSON (schema structlint.engine/v1)\n"
"  -p, --pretty               indent the JSON (implies --json)\n"
"  -c, --cacheline N          cache line size in bytes (default 64)\n"
"  -F, --format-path LIST     debug formats to read: dwarf,btf\n"
"      --debug-root DIR       where separate debug files live\n"
"      --no-cache             neither read nor write the cached name\n"
"                             index (see structlint(1) FILES)\n"
"  -h, --help                 this help\n"
"\n"
"exit status: 0 ok, 2 usage or input error.  See structlint(1), ENGINE.\n";

enum {
	OPT_LAYOUT = CLI_OPT_OWN, OPT_BUILTIN, OPT_WRITE_PROFILE, OPT_UPDATES,
};

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	CLI_ENGINE_LONGOPTS,
	{ "layout", required_argument, NULL, OPT_LAYOUT },
	{ "builtin", required_argument, NULL, OPT_BUILTIN },
	{ "write-profile", required_argument, NULL, OPT_WRITE_PROFILE },
	{ "updates", required_argument, NULL, OPT_UPDATES },
	{ NULL, 0, NULL, 0 },
};

/* --updates ceiling: 10^12 updates per thread (hours at any speed; the
 * --seconds cap ends a run first). */
#define UPDATES_MAX 1000000000000ul

struct eng_cli {
	struct slt_engine_opts o;
	const char *layout, *builtin, *write_profile;
	char *layout_ops[2];
	struct cli_engine_args run; /* the run options, run.o = &o */
};

static int eng_option(void *ctx, struct cli_analysis *c, int o, const char *arg)
{
	struct eng_cli *e = ctx;
	unsigned long v;
	int rc = cli_engine_option(&e->run, c, o, arg);
	if (rc != 1)
		return rc;
	switch (o) {
	case OPT_LAYOUT: e->layout = arg; return 0;
	case OPT_BUILTIN: e->builtin = arg; return 0;
	case OPT_WRITE_PROFILE: e->write_profile = arg; return 0;
	case OPT_UPDATES:
		if (!cli_parse_uint(arg, 1, UPDATES_MAX, &v))
			return cli_usage_error("--updates '%s': want updates per thread from 1 to %lu",
					       arg, UPDATES_MAX);
		e->o.max_updates = v;
		return 0;
	}
	return 1;
}

static int parse_args(int argc, char **argv, struct cli_analysis *c,
		      struct eng_cli *e)
{
	return cli_analysis_parse(argc, argv, long_opts, c, eng_option, e,
				  usage_head, usage_tail);
}

/* The spec, by validate's rule (engine_args.h): --builtin's map, else
 * the built-in map of a struct that has one unless --replay, else a
 * replay of the analysis (classes or samples needed). */
static int make_spec(struct cli_analysis *c, struct eng_cli *e,
		     const struct slt_struct *s, struct slt_engine_spec **spec,
		     struct slt_error *err)
{
	if (e->builtin || (!e->run.replay && cli_engine_has_builtin(s->name))) {
		if (c->classes_path && !c->samples)
			fprintf(stderr, "structlint: warning: struct %s runs with the built-in role map of %s: "
				"the classes are not replayed (give --replay to replay them)\n", s->name,
				e->builtin ? e->builtin : s->name);
		return slt_engine_spec_builtin(e->builtin ? e->builtin : s->name, s, spec, err);
	}
	if (!c->classes_path && !c->samples)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     e->run.replay ? "--replay replays member classes or a profile: give --classes or --samples"
					       : "built-in role maps: mem_cgroup_per_node, cgroup; other structs: give --classes or --samples",
				     e->run.replay ? "nothing to replay for struct %s" :
				     "no built-in role map for struct %s: give --classes or --samples", s->name);
	struct slt_analysis *a = NULL;
	enum slt_class *g = NULL;
	int rc = cli_analysis_run(c, 0, &a, &g, err);
	if (!rc)
		rc = slt_engine_spec_from_analysis(a, spec, err);
	slt_analysis_free(a);
	free(g);
	return rc;
}

static int write_profile(const char *path, const struct slt_engine_result *r,
			 const struct slt_engine_bound *b, struct slt_error *err)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return slt_error_set(err, SLT_EIO, path, -1, "check the directory exists and is writable",
				     "cannot create the profile");
	int rc = slt_engine_write_profile(r, b, f, path, err);
	if (fclose(f) && !rc)
		rc = slt_error_set(err, SLT_EIO, path, -1, NULL, "write failed");
	return rc;
}

int cmd_engine(int argc, char **argv)
{
	struct cli_analysis c;
	struct eng_cli e;
	cli_analysis_init(&c);
	memset(&e, 0, sizeof(e));
	slt_engine_opts_default(&e.o);
	e.run.o = &e.o;
	int rc = parse_args(argc, argv, &c, &e);
	if (rc)
		return rc < 0 ? SLT_EXIT_OK : rc;
	char **ops = argv + optind;
	int n_ops = argc - optind;
	if (c.ropts.pretty) /* implies --json, as in bpftool */
		c.json = true;
	if (e.builtin && e.run.replay)
		return cli_usage_error("--builtin NAME runs a built-in role map and --replay the generic replay: give one");
	if (e.builtin) {
		bool known = false;
		for (const char *const *n = slt_engine_builtin_names(); *n; n++)
			known |= !strcmp(*n, e.builtin) ||
				 (!strncmp(e.builtin, "struct ", 7) && !strcmp(*n, e.builtin + 7));
		if (!known)
			return cli_usage_error("--builtin '%s': no built-in role map of that name "
					       "(built-in: mem_cgroup_per_node, cgroup; other structs: --classes or --samples)",
					       e.builtin);
	}
	if (e.layout) {
		const char *colon = strrchr(e.layout, ':');
		if (n_ops || !colon || colon == e.layout || !colon[1])
			return cli_usage_error(n_ops ? "--layout FILE:STRUCT replaces the FILE STRUCT operands"
						     : "--layout '%s': want FILE:STRUCT", e.layout);
		e.layout_ops[0] = strndup(e.layout, (size_t)(colon - e.layout));
		e.layout_ops[1] = strdup(colon + 1);
		if (e.layout_ops[0] && access(e.layout_ops[0], F_OK)) {
			fprintf(stderr, "structlint: %s: no such file (--layout FILE:STRUCT)\n", e.layout_ops[0]);
			free(e.layout_ops[0]);
			free(e.layout_ops[1]);
			return SLT_EXIT_ERROR;
		}
		ops = e.layout_ops;
		n_ops = 2;
	} else if (!n_ops && e.builtin) {
		e.layout_ops[0] = strdup(e.builtin);
		ops = e.layout_ops;
		n_ops = 1;
	}
	c.classes_optional = true;
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_engine_spec *spec = NULL;
	struct slt_engine_bound *b = NULL;
	struct slt_engine_result *r = NULL;
	if ((e.layout && (!e.layout_ops[0] || !e.layout_ops[1])) || (!e.layout && e.builtin && !n_ops))
		rc = slt_error_set(&err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc)
		rc = cli_analysis_load(&c, ops, n_ops, &err);
	if (!rc && c.layout->n_structs > 1)
		fprintf(stderr, "structlint: warning: %zu definitions of %s: running the first\n",
			c.layout->n_structs, c.layout->structs[0].name);
	struct slt_engine_pattern *pat = NULL;
	if (!rc)
		rc = make_spec(&c, &e, &c.layout->structs[0], &spec, &err);
	if (!rc)
		rc = cli_engine_pattern(&e.run, &c, &c.layout->structs[0], spec, NULL, &pat, &err);

	if (!rc && spec->mode == SLT_ENGINE_REPLAY &&
	    (rc = cli_engine_stats_only(e.run.stats_given, spec->struct_name)))
		goto out;
	if (!rc && spec->mode == SLT_ENGINE_STATS)
		rc = cli_engine_stats_mode(&e.run, c.file, &c.lopts, &err);
	if (!rc && (rc = slt_engine_bind(spec, &c.layout->structs[0], c.ropts.cacheline_size, &b, &err)))
		cli_engine_err_file(&err, c.file ? c.file : SLT_KERNEL_BTF_PATH);
	if (!rc && e.o.realtime && !(rc = cli_realtime_check(&err)) &&
	    !(rc = slt_engine_realtime_fits(&e.o, &err)))
		cli_realtime_throttle_warn(NULL);
	if (!rc)
		rc = slt_engine_run(b, &e.o, &r, &err);
	if (!rc && e.o.max_updates && r->seconds >= e.o.seconds)
		fprintf(stderr, "structlint: warning: the --seconds cap (%g s) ended the run "
			"before every thread made its --updates %llu: the counts are not "
			"reproducible (give a larger --seconds)\n",
			e.o.seconds, (unsigned long long)e.o.max_updates);
	if (!rc && e.write_profile)
		rc = write_profile(e.write_profile, r, b, &err);
	if (!rc) {
		if (c.json)
			rc = slt_engine_write_json(stdout, r, b, &e.o, c.ropts.pretty, &err);
		else if (slt_engine_write_text(stdout, r, b, &e.o))
			rc = slt_error_set(&err, SLT_EIO, "<stdout>", -1, NULL, "write failed");
		if (!rc && !c.json) {
			char what[400];
			cli_engine_pattern_text(what, sizeof(what), spec, pat, c.samples);
			printf("pattern: %s\n", what);
		}
	}
out:
	slt_engine_result_free(r);
	slt_engine_bound_free(b);
	slt_engine_spec_free(spec);
	slt_engine_pattern_free(pat);
	cli_analysis_release(&c);
	free(e.layout_ops[0]);
	free(e.layout_ops[1]);
	return cli_finish(rc, &err, SLT_EXIT_OK);
}
