/* SPDX-License-Identifier: MIT */
/*
 * `structlint validate [OPTIONS] [FILE] STRUCT [--classes C | --samples S |
 * --profile P] [--proposal N | --against FILE2:STRUCT2]`: measure layout A
 * (STRUCT as loaded) against layout B (the advisor's proposal N, or another
 * real layout) on the reference stats engine, in interleaved rounds, and
 * print the ratio of their median ops/s with a 95% bootstrap interval and a
 * verdict (include/structlint/validate.h).  Inputs, loading and the
 * analysis are report's (analysis_args.c); the advice is suggest's
 * (slt_advise with the line size and this machine's CPUs).  Roles: the
 * engine's built-in role map when it has one for STRUCT, else a generic
 * replay of the analysis' classes (and profile rates).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/analysis_args.h"
#include "cli/cli.h"
#include "cli/engine_args.h"
#include "cli/positional.h"
#include "cli/realtime.h"
#include "cli/validate_program.h"
#include "structlint/advice.h"
#include "structlint/advice_report.h"
#include "structlint/engine.h"
#include "structlint/validate.h"
#include "structlint/weight.h"

static const char usage_head[] =
"usage: structlint validate [OPTIONS] [FILE] STRUCT --classes C | --samples S\n"
"       structlint validate [OPTIONS] [FILE] STRUCT --against FILE2:STRUCT2\n"
"\n"
"Measure STRUCT's layout as loaded (A, base) against the advisor's proposal\n"
"(B, with fix) or another real layout (--against) on the reference stats\n"
"engine: interleaved runs (ABBA), the median ops/s of each, the per-round\n"
"ratios B/A with a 95% paired Student t interval (on their logs), and a\n"
"verdict: faster (interval above 1.0), slower (below), no measurable\n"
"change; no verdict under 3 rounds.  Each side's role map is printed, with\n"
"a note when the two differ (then the ratio measures layout plus workload).\n"
"Accesses: with --samples P (a profile whose records name the struct with\n"
"offsets: structlint.profile/v1, perf mem/c2c/data-type) the replay is of\n"
"the measured pattern: each (offset, width, CPU) record's loads and stores\n"
"at that offset and width, each CPU of the profile one updater thread\n"
"(default --threads); a built-in map keeps its update and flush paths and\n"
"takes its hot-write stores from the profile.  Without a profile: classes\n"
"only (whole members), or --synthetic for a built-in map.\n"
"Roles (the same rule as engine): the engine's built-in role map for\n"
"mem_cgroup_per_node and cgroup (the classes then only pick the proposal),\n"
"else, or with --replay, a generic replay of the members' classes and\n"
"profile rates (read-mostly members' loads split over the threads, each\n"
"hot-written member stored by one thread: the CPU that stored it most in a\n"
"profile with CPUs, round-robin with classes only).\n"
"\n";

static const char usage_tail[] =
"validate:\n"
"      --profile P            access profile (structlint.profile/v1), as\n"
"                             --samples P\n"
"      --proposal N           B = the advisor's proposal N (default 1, the\n"
"                             best); not with --against\n"
"      --against FILE2:STRUCT2\n"
"                             B = another real layout (e.g. a later\n"
"                             kernel's); needs no --classes for a struct\n"
"                             with a built-in role map; loaded first, so\n"
"                             that a typo in it fails at once\n"
"      --rounds R             rounds, each one run of A and one of B,\n"
"                             1 to 10000 (default 20; under 3: no verdict)\n"
"      --seconds S            seconds per run, 0.01 to 3600 (default 0.5)\n"
"      --warmup S             one discarded run per side first, 0.01 to\n"
"                             3600 (default 0.5; 0: none)\n"
"      --threads T            updater threads (default: online CPUs)\n"
"      --replay               replay the classes/profile even for a struct\n"
"                             with a built-in role map\n"
"      --batch 32|64|128      updates per CPU between flusher wake-ups\n"
"                             (default 64; this and the next three: stats\n"
"                             engine only, refused in replay mode)\n"
"      --flush list|pop       flush mode (default: the stats mode's)\n"
"      --stats-mode auto|5.15|6.1|mainline\n"
"                             the kernel's flush trigger (structlint(1),\n"
"                             ENGINE; default auto: the kernel version A's\n"
"                             FILE says, else 5.15-rc1); B runs the same\n"
"                             mode\n"
"      --depth D, --fanout F  the stats tree (default 3 x 2)\n"
"      --write-every N        hot-written members stored every Nth update\n"
"                             (default 4)\n"
"      --seed N               the engine's PRNG seed (default 1)\n"
"      --no-pin               do not pin updater threads to CPUs\n"
"      --realtime             run the engine's threads SCHED_RR (updaters 1;\n"
"                             flusher and timer 2) so that they run at once on a\n"
"                             machine busy with other work (root, or\n"
"                             CAP_SYS_NICE / RLIMIT_RTPRIO >= 2); a warning\n"
"                             when the kernel's RT throttling is on; refused\n"
"                             with more threads than allowed CPUs\n"
"      --independent          the verdict from the independent interval:\n"
"                             B/A of the medians, A's and B's runs\n"
"                             resampled (percentile bootstrap); default:\n"
"                             the paired interval, since each round runs A\n"
"                             and B next to each other and a drifting\n"
"                             machine load cancels in its ratio\n"
"      --paired               the paired verdict (the default)\n"
"      --min-overlap PCT      a round counts only when the updater threads\n"
"                             ran at the same time for at least PCT% of\n"
"                             both its runs (default 50, 0: no floor); the\n"
"                             verdict is of the kept rounds (printed:\n"
"                             \"rounds kept\"), none under 3 kept:\n"
"                             false sharing shows only while threads run\n"
"                             at once.  The overlap is measured: each\n"
"                             thread records when it ran (a clock read\n"
"                             every 16 operations; a gap over 50 us is a\n"
"                             switch-out); printed as \"co-scheduling\"\n"
"      --source-root DIR, --build CMD, --run CMD\n"
"                             also measure YOUR program: DIR copied twice\n"
"                             (A as is, B with proposal N applied by patch\n"
"                             -p1, as suggest --source-root writes it; a\n"
"                             struct declared on one line is refused), CMD\n"
"                             built and run by sh -c in each copy\n"
"                             (STRUCTLINT_SIDE=A or B set; a FILE under DIR\n"
"                             not built yet is read from A's build);\n"
"                             both built\n"
"                             before the engine runs (a failed build: its\n"
"                             output's last lines, exit 2); the runs'\n"
"                             output goes to stderr; one discarded run each,\n"
"                             then\n"
"                             --rounds ABBA rounds: wall and CPU seconds per\n"
"                             run, the paired 95% interval of the speed\n"
"                             (1/time) B/A and a verdict: the measurement to\n"
"                             trust; the engine replay stays the quick model.\n"
"                             A positional initializer of the struct in\n"
"                             DIR's .c/.h files (struct NAME x = { 1, 2 }):\n"
"                             a warning with FILE:LINE each, and the run is\n"
"                             refused (exit 2): B would compute something\n"
"                             else\n"
"      --allow-positional     run the program anyway\n"
"      --sensitivity          then validate again with the knobs the model\n"
"                             cannot measure moved: hot-write rate x0.25 and\n"
"                             x4 (stats: --write-every x4 and /4), batch 32\n"
"                             and 128 (stats); \"not robust\" when a change\n"
"                             has another sign than the main result's, \"no\n"
"                             judgement\" when nothing has a verdict; the\n"
"                             write rate skipped (said) without a hot-write\n"
"                             member (about 5 x the run time)\n"
"      --synthetic            the engine's invented hot-write pattern (every\n"
"                             line of every hot member) instead of the\n"
"                             profile's; needed for a built-in role map\n"
"                             without --samples; refused where there is\n"
"                             no hot-write member (cgroup) or in replay mode\n"
"      --fail-unless-faster   exit 1 unless the verdict is \"faster\"\n"
"output:\n"
"  -j, --json                 JSON (schema structlint.validate/v1)\n"
"  -p, --pretty               indent the JSON (implies --json)\n"
"  -c, --cacheline N          cache line size in bytes (default 64)\n"
"  -F, --format-path LIST     debug formats to read: dwarf,btf\n"
"      --debug-root DIR       where separate debug files live\n"
"      --no-cache             neither read nor write the cached name\n"
"                             index (see structlint(1) FILES)\n"
"  -h, --help                 this help\n"
"\n"
"A run takes rounds x 2 x seconds plus the warm-up: 21 s by default.\n"
"exit status: 0 a verdict (any), 1 not faster with --fail-unless-faster,\n"
"2 usage or input error (one line on stderr).  See structlint(1), VALIDATE.\n";

enum {
	OPT_PROPOSAL = CLI_OPT_OWN + 40, OPT_AGAINST, OPT_ROUNDS, OPT_WARMUP,
	OPT_FAIL_FASTER, OPT_PAIRED, OPT_INDEPENDENT, OPT_MIN_OVERLAP, OPT_SENSITIVITY,
	OPT_SOURCE_ROOT, OPT_BUILD, OPT_RUN, OPT_ALLOW_POSITIONAL,
};

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	CLI_ENGINE_LONGOPTS,
	{ "proposal", required_argument, NULL, OPT_PROPOSAL },
	{ "against", required_argument, NULL, OPT_AGAINST },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "fail-unless-faster", no_argument, NULL, OPT_FAIL_FASTER },
	{ "paired", no_argument, NULL, OPT_PAIRED },
	{ "independent", no_argument, NULL, OPT_INDEPENDENT },
	{ "min-overlap", required_argument, NULL, OPT_MIN_OVERLAP },
	{ "sensitivity", no_argument, NULL, OPT_SENSITIVITY },
	{ "source-root", required_argument, NULL, OPT_SOURCE_ROOT },
	{ "allow-positional", no_argument, NULL, OPT_ALLOW_POSITIONAL },
	{ "build", required_argument, NULL, OPT_BUILD },
	{ "run", required_argument, NULL, OPT_RUN },
	{ NULL, 0, NULL, 0 },
};

struct val {
	struct slt_validate_opts o;
	unsigned long proposal;    /* 1-based */
	bool proposal_given;
	const char *against;       /* FILE2:STRUCT2 */
	bool fail_unless_faster;
	bool sensitivity;          /* --sensitivity */
	struct cli_program_opts prog; /* --source-root, --build, --run */
	bool allow_positional;     /* --allow-positional */
	struct cli_engine_args run; /* the run options, run.o = &o.engine */
};

static int val_option(void *ctx, struct cli_analysis *c, int o, const char *arg)
{
	struct val *v = ctx;
	int rc = cli_engine_option(&v->run, c, o, arg);
	if (rc != 1)
		return rc;
	switch (o) {
	case OPT_PROPOSAL:
		if (!cli_parse_uint(arg, 1, 1000, &v->proposal))
			return cli_usage_error("--proposal '%s': want a proposal number from 1 (the best)", arg);
		v->proposal_given = true;
		return 0;
	case OPT_AGAINST:
		if (!strchr(arg, ':') || arg[strlen(arg) - 1] == ':' || arg[0] == ':')
			return cli_usage_error("--against '%s': want FILE:STRUCT", arg);
		v->against = arg;
		return 0;
	case OPT_ROUNDS:
		if (!strcmp(arg, "0"))
			return cli_usage_error("--rounds 0: run at least one round");
		return cli_uint_opt("--rounds", arg, 1, 10000, &v->o.rounds);
	case OPT_WARMUP: return cli_engine_seconds("--warmup", arg, true, &v->o.warmup_seconds);
	case OPT_FAIL_FASTER: v->fail_unless_faster = true; return 0;
	case OPT_SENSITIVITY: v->sensitivity = true; return 0;
	case OPT_SOURCE_ROOT: v->prog.root = arg; return 0;
	case OPT_ALLOW_POSITIONAL: v->allow_positional = true; return 0;
	case OPT_BUILD: v->prog.build = arg; return 0;
	case OPT_RUN: v->prog.run = arg; return 0;
	case OPT_PAIRED: v->o.paired = true; return 0;
	case OPT_INDEPENDENT: v->o.paired = false; return 0;
	case OPT_MIN_OVERLAP: {
		unsigned long pc;
		if (!cli_parse_uint(arg, 0, 100, &pc))
			return cli_usage_error("--min-overlap '%s': want a percentage from 0 (no floor) to 100", arg);
		v->o.min_overlap = (double)pc / 100.0;
		return 0;
	}
	}
	return 1;
}

static int parse_args(int argc, char **argv, struct cli_analysis *c,
		      struct val *v)
{
	return cli_analysis_parse(argc, argv, long_opts, c, val_option, v,
				  usage_head, usage_tail);
}

/* Everything a validation holds, released by val_release(). */
struct vstate {
	struct slt_analysis *a;
	enum slt_class *given;
	struct slt_advice *adv;
	struct slt_layout *b_layout;         /* --against */
	char *b_file;                        /* --against's FILE, strdup'ed */
	bool b_expand;                       /* b_layout loaded with -E */
	struct slt_engine_spec *spec_a, *spec_b;
	struct slt_engine_bound *bound_a, *bound_b;
	struct slt_validate_result *res;
	struct slt_engine_pattern *pattern;  /* --samples' measured accesses */
	struct slt_sensitivity sens;         /* --sensitivity */
	struct slt_program_result prog;      /* --run */
	struct cli_program_tree tree;        /* --run: the built copies */
	char file_a[PATH_MAX + 80];          /* FILE in A's copy (file_from_a()) */
	char *diff;                          /* the proposal as a patch */
	char b_what[160];
	char pattern_what[400];
};

static void vstate_release(struct vstate *s)
{
	slt_validate_result_free(s->res);
	slt_engine_pattern_free(s->pattern);
	cli_program_result_free(&s->prog);
	cli_program_tree_free(&s->tree);
	free(s->diff);
	slt_engine_bound_free(s->bound_a);
	slt_engine_bound_free(s->bound_b);
	if (s->spec_b != s->spec_a)
		slt_engine_spec_free(s->spec_b);
	slt_engine_spec_free(s->spec_a);
	slt_advice_free(s->adv);
	slt_layout_free(s->b_layout);
	free(s->b_file);
	slt_analysis_free(s->a);
	free(s->given);
}

/* --against FILE2:STRUCT2 loaded, before anything of A's is read (its
 * samples, the analysis), so that a typo in it fails at once. */
static int load_against(const struct cli_analysis *c, const struct val *v, struct vstate *s,
			struct slt_error *err)
{
	const char *colon = strrchr(v->against, ':');
	free(s->b_file);
	s->b_file = strndup(v->against, (size_t)(colon - v->against));
	if (!s->b_file)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	const char *name = colon + 1;
	s->b_expand = c->lopts.expand;
	return slt_layout_load(s->b_file, &name, 1, &c->lopts, &s->b_layout, err);
}

/* FILE's path relative to --source-root (rel, n bytes) when it lies
 * under it: the root resolved (realpath), FILE made absolute from the
 * working directory, its "/./" steps dropped. */
static bool under_root(const char *root, const char *file, char *rel, size_t n)
{
	char r[PATH_MAX], f[2 * PATH_MAX + 2], cwd[PATH_MAX];
	if (!realpath(root, r))
		return false;
	if (file[0] == '/')
		snprintf(f, sizeof(f), "%s", file);
	else if (getcwd(cwd, sizeof(cwd)))
		snprintf(f, sizeof(f), "%s/%s", cwd, file);
	else
		return false;
	for (char *d; (d = strstr(f, "/./"));)
		memmove(d, d + 2, strlen(d + 2) + 1);
	size_t l = strlen(r);
	if (strncmp(f, r, l) || f[l] != '/' || !f[l + 1])
		return false;
	return (size_t)snprintf(rel, n, "%s", f + l + 1) < n;
}

/* The cheap inputs; *from_a: FILE does not exist yet but lies under
 * --source-root, so that A's build is to make it (rel: its path there). */
static int check_inputs(const struct val *v, const char *file, bool *from_a, char *rel, size_t n)
{
	struct stat st;
	*from_a = false;
	if (v->prog.root) {
		/* errno only when stat() failed: a file there is "not a directory" */
		int bad = stat(v->prog.root, &st);
		if (bad || !S_ISDIR(st.st_mode))
			return cli_usage_error("--source-root %s: %s", v->prog.root,
					       bad && errno == ENOENT ? "no such directory"
								 : "not a directory");
	}
	if (v->prog.build && file && stat(file, &st) && errno == ENOENT) {
		if (!under_root(v->prog.root, file, rel, n))
			return cli_usage_error("%s: no such file, and not under --source-root %s, where "
					       "--build would make it: build it first, or give its path "
					       "in %s", file, v->prog.root, v->prog.root);
		*from_a = true;
	}
	return 0;
}

/* --build with FILE not built yet: A copied and built first, FILE read
 * from A's copy (*path: the path to load). */
static int file_from_a(struct val *v, struct vstate *s, const char *file, const char *rel,
		       const char **path, struct slt_error *err)
{
	fprintf(stderr, "structlint: note: %s does not exist yet: building A (%s in a copy of %s) "
		"and reading the layout from A's %s\n", file, v->prog.build, v->prog.root, rel);
	int rc = cli_program_build_a(&v->prog, &s->tree, &s->prog, err);
	if (rc)
		return rc;
	snprintf(s->file_a, sizeof(s->file_a), "%s/%s", s->tree.a, rel);
	struct stat st;
	if (stat(s->file_a, &st))
		return slt_error_set(err, SLT_EUSAGE, file, -1,
				     "check FILE's path, or build it first",
				     "A's build (%s) did not make %s", v->prog.build, rel);
	*path = s->file_a;
	return 0;
}

/* Layout B: the proposal, or --against's struct (load_against()).
 * Returns 0, a usage error (> 0, printed) or SLT_E* with err filled. */
static int layout_b(const struct cli_analysis *c, const struct val *v,
		    struct vstate *s, const struct slt_struct **b,
		    struct slt_error *err)
{
	if (v->against) {
		/* A reloaded with nested structs inline (a class named a member
		 * inside one): B the same way, so that the roles bind alike */
		if (c->lopts.expand && !s->b_expand) {
			slt_layout_free(s->b_layout);
			s->b_layout = NULL;
			int rc = load_against(c, v, s, err);
			if (rc)
				return rc;
		}
		*b = &s->b_layout->structs[0];
		snprintf(s->b_what, sizeof(s->b_what), "struct %s as loaded", (*b)->name);
		return 0;
	}
	struct slt_advice_opts ao;
	memset(&ao, 0, sizeof(ao));
	ao.cacheline_size = c->ropts.cacheline_size;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	ao.nr_cpus = ncpu > 0 ? (unsigned)ncpu : 1;
	/* the diff --source-root applies must compile where it is used, as
	 * suggest's (--c-form auto) */
	ao.user_space = !cli_kernel_binary(c->file);
	if (v->proposal > 5)
		ao.max_proposals = v->proposal;
	int rc = slt_advise(s->a, &ao, &s->adv, err);
	if (rc)
		return rc;
	if (!s->adv->n_proposals)
		return cli_usage_error("%s: the advisor has no proposal to validate (%s); use --against FILE:STRUCT",
				       s->a->layout->name,
				       s->adv->note && s->adv->note[0] ? s->adv->note : "nothing to fix");
	if (v->proposal > s->adv->n_proposals)
		return cli_usage_error("--proposal %lu: the advisor made %zu proposal%s for %s",
				       v->proposal, s->adv->n_proposals,
				       s->adv->n_proposals == 1 ? "" : "s", s->a->layout->name);
	const struct slt_proposal *p = &s->adv->proposals[v->proposal - 1];
	*b = &p->layout;
	snprintf(s->b_what, sizeof(s->b_what), "proposal %lu (%s)", v->proposal,
		 slt_proposal_kind_name(p->kind));
	return 0;
}

/* A role binding error of one side: the side's FILE in front, and, when
 * the two sides are different structs, which side and struct failed. */
static void side_error(struct slt_error *err, char side, const char *file,
		       const struct slt_struct *failed, const struct slt_struct *other)
{
	cli_engine_err_file(err, file);
	if (strcmp(failed->name, other->name)) {
		char msg[2 * sizeof(err->message)];
		snprintf(msg, sizeof(msg), "layout %c is struct %s, layout %c struct %s: %s", side,
			 failed->name, side == 'A' ? 'B' : 'A', other->name, err->message);
		size_t n = strlen(msg);
		if (n >= sizeof(err->message))
			n = sizeof(err->message) - 1;
		memcpy(err->message, msg, n);
		err->message[n] = 0;
	}
}

/* The role specs of both sides, bound.  The rule engine uses too
 * (engine_args.h): the built-in map when STRUCT has one, unless
 * --replay. */
static int bind_both(const struct cli_analysis *c, struct val *v,
		     struct vstate *s, const struct slt_struct *sa,
		     const struct slt_struct *sb, struct slt_error *err)
{
	int rc;
	if (!v->run.replay && cli_engine_has_builtin(sa->name)) {
		/* the map follows each layout's kernel version (6.1's
		 * embedded lruvec_stats, 6.10+'s pointer) */
		rc = slt_engine_spec_builtin(sa->name, sa, &s->spec_a, err);
		if (!rc)
			rc = slt_engine_spec_builtin(sa->name, sb, &s->spec_b, err);
	} else if (!c->classes_path && !c->samples) {
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     v->run.replay ? "--replay replays member classes or a profile: give --classes or --samples"
					       : "built-in role maps: mem_cgroup_per_node, cgroup; other structs: give --classes or --samples",
				     v->run.replay ? "nothing to replay for struct %s" :
				     "no built-in role map for struct %s: give --classes or --samples", sa->name);
	} else {
		rc = slt_engine_spec_from_analysis(s->a, &s->spec_a, err);
		s->spec_b = s->spec_a;
		if (!rc && (rc = cli_engine_stats_only(v->run.stats_given, sa->name)))
			return rc;
	}
	if (!rc && s->spec_a->mode == SLT_ENGINE_STATS)   /* A's FILE says the kernel */
		rc = cli_engine_stats_mode(&v->run, c->file, &c->lopts, err);
	if (!rc)
		rc = cli_engine_pattern(&v->run, c, sa, s->spec_a, s->spec_b, &s->pattern, err);
	if (!rc)
		cli_engine_pattern_text(s->pattern_what, sizeof(s->pattern_what), s->spec_a,
					s->pattern, c->samples);
	const char *fa = c->file ? c->file : SLT_KERNEL_BTF_PATH;
	const char *fb = v->against ? s->b_file : fa;
	if (!rc && (rc = slt_engine_bind(s->spec_a, sa, c->ropts.cacheline_size, &s->bound_a, err)))
		side_error(err, 'A', fa, sa, sb);
	if (!rc && (rc = slt_engine_bind(s->spec_b, sb, c->ropts.cacheline_size, &s->bound_b, err)))
		side_error(err, 'B', fb, sb, sa);
	return rc;
}

static void progress(void *arg, char side, unsigned round, double ops)
{
	fprintf(stderr, "\rstructlint: validate: round %u/%u, %c: %.0f ops/s   ",
		round + 1, *(const unsigned *)arg, side, ops);
}

static void program_progress(unsigned round, unsigned rounds)
{
	fprintf(stderr, "\r\033[Kstructlint: validate: your program: round %u/%u ...", round + 1, rounds);
}

/* --source-root/--build/--run: the proposal's diff, both copies built
 * (before anything is measured: a broken build fails fast). */
static int program_build(struct val *v, struct vstate *s, const struct slt_struct *sa, bool tty,
			 struct slt_error *err)
{
	size_t positional = 0;
	int rc = cli_positional_warn(v->prog.root, sa, &positional, err);
	if (!rc && positional && !v->allow_positional)
		rc = slt_error_set(err, SLT_EUSAGE, v->prog.root, -1,
				   "use designated initializers, or --allow-positional to run it anyway",
				   "struct %s is initialized positionally in %zu place%s (warned above): "
				   "B would compute something else", sa->name, positional,
				   positional == 1 ? "" : "s");
	if (!rc)
		rc = slt_advice_diff(&s->adv->proposals[v->proposal - 1], sa, v->prog.root, &s->diff, err);
	if (!rc && !s->diff[0])
		rc = slt_error_set(err, SLT_EUSAGE, v->prog.root, -1, "pick another --proposal",
				   "the source already has proposal %lu's order: nothing to compare",
				   v->proposal);
	v->prog.rounds = v->o.rounds;
	v->prog.level = v->o.level;
	v->prog.min_overlap = v->o.min_overlap;
	v->prog.realtime = v->o.engine.realtime;
	if (!rc && tty)
		fprintf(stderr, "\rstructlint: validate: building your program (A and B) ...   ");
	if (!rc)
		rc = cli_program_prepare(&v->prog, s->diff, &s->tree, &s->prog, err);
	if (rc && tty)
		fputs("\r\033[K", stderr);
	return rc;
}

static int validate(struct cli_analysis *c, struct val *v, struct vstate *s,
		    struct slt_error *err)
{
	if (c->layout->n_structs > 1)
		fprintf(stderr, "structlint: warning: %zu definitions of %s; validating the first\n",
			c->layout->n_structs, c->layout->structs[0].name);
	int rc = cli_analysis_run(c, 0, &s->a, &s->given, err);
	const struct slt_struct *sa = &c->layout->structs[0], *sb = NULL;
	if (!rc)
		rc = layout_b(c, v, s, &sb, err);
	if (!rc)
		rc = bind_both(c, v, s, sa, sb, err);
	if (!rc && v->o.engine.realtime && !(rc = cli_realtime_check(err)) &&
	    !(rc = slt_engine_realtime_fits(&v->o.engine, err)))
		cli_realtime_throttle_warn(NULL);
	bool tty = isatty(STDERR_FILENO);
	if (!rc && v->prog.run)   /* the user's own program: built first */
		rc = program_build(v, s, sa, tty, err);
	if (!rc)
		rc = slt_validate_run(s->bound_a, s->bound_b, &v->o, tty ? progress : NULL,
				      &v->o.rounds, &s->res, err);
	if (!rc && v->prog.run)
		rc = cli_program_measure(&v->prog, &s->tree, tty ? program_progress : NULL, &s->prog, err);
	if (!rc && v->sensitivity)
		rc = slt_validate_sensitivity(s->bound_a, s->bound_b, &v->o, s->res, &s->sens, err);
	if (tty)
		fputs("\r\033[K", stderr);
	if (rc)
		return rc;
	struct slt_validate_labels l = {
		.struct_name = sa->name,
		.a_file = c->file ? c->file : SLT_KERNEL_BTF_PATH,
		.a_what = "as loaded",
		.b_file = v->against ? s->b_file : (c->file ? c->file : SLT_KERNEL_BTF_PATH),
		.b_what = s->b_what,
		.a_size = sa->size,
		.b_size = sb->size,
		.cacheline_size = c->ropts.cacheline_size,
		.a_roles = s->bound_a,
		.b_roles = s->bound_b,
		.basis = c->profiles && c->profiles[0] &&
			 !strncmp(c->profiles[0]->base_note, SLT_IPW_BASIS, strlen(SLT_IPW_BASIS)) ?
			 c->profiles[0]->base_note : NULL,
		.pattern = s->pattern_what,
		.sensitivity = v->sensitivity ? &s->sens : NULL,
		.program = v->prog.run ? &s->prog : NULL,
		.program_run = v->prog.run,
	};
	if (c->json)
		return slt_validate_write_json(stdout, s->res, &l, &v->o, c->ropts.pretty, err);
	rc = slt_validate_write_text(stdout, s->res, &l, &v->o);
	if (rc)
		return slt_error_set(err, rc, "<stdout>", -1, NULL, "write failed");
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	struct cli_analysis c;
	struct val v;
	cli_analysis_init(&c);
	memset(&v, 0, sizeof(v));
	slt_validate_opts_default(&v.o);
	v.run.o = &v.o.engine;
	v.run.need_pattern = true;
	v.proposal = 1;
	int rc = parse_args(argc, argv, &c, &v);
	if (rc)
		return rc < 0 ? SLT_EXIT_OK : rc;   /* --help, or usage error */
	if (v.proposal_given && v.against)
		return cli_usage_error("--proposal N and --against FILE:STRUCT both name layout B: give one");
	if (c.ropts.pretty) /* implies --json, as in bpftool */
		c.json = true;
	if (!v.against && !c.classes_path && !c.samples)
		return cli_usage_error("validate needs member classes or an access profile to find the proposal: "
				       "give --classes FILE or --samples FILE (--profile FILE), "
				       "or compare with --against FILE2:STRUCT2");
	if ((v.prog.root || v.prog.build || v.prog.run) &&
	    !(v.prog.root && v.prog.build && v.prog.run))
		return cli_usage_error("--source-root DIR, --build CMD and --run CMD go together: give all three");
	if (v.prog.run && v.against)
		return cli_usage_error("--run builds the advisor's proposal into your program: not with --against");
	c.classes_optional = v.against != NULL;
	struct slt_error err;
	slt_error_clear(&err);
	struct vstate s;
	memset(&s, 0, sizeof(s));
	/* every input checked before any run: the cheap ones, B's layout,
	 * then A's (its samples joined), the roles of both bound */
	bool from_a;
	char rel[PATH_MAX];
	rc = check_inputs(&v, optind < argc ? argv[optind] : NULL, &from_a, rel, sizeof(rel));
	if (!rc && from_a) {
		const char *path;
		if (!(rc = file_from_a(&v, &s, argv[optind], rel, &path, &err)))
			argv[optind] = (char *)path;
	}
	if (!rc && v.against)
		rc = load_against(&c, &v, &s, &err);
	if (!rc)
		rc = cli_analysis_load(&c, argv + optind, argc - optind, &err);
	if (!rc)
		rc = validate(&c, &v, &s, &err);
	enum slt_verdict verdict = s.res ? s.res->verdict : SLT_VERDICT_NO_CHANGE;
	vstate_release(&s);
	cli_analysis_release(&c);
	return cli_finish(rc, &err, v.fail_unless_faster && verdict != SLT_VERDICT_FASTER ?
			  SLT_EXIT_FINDINGS : SLT_EXIT_OK);
}
