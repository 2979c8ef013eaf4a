/* SPDX-License-Identifier: MIT */
/*
 * Options, operands, loading and analysis shared by `structlint report`
 * and `structlint suggest` (see analysis_args.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/analysis_args.h"
#include "cli/static_classes.h"
#include "cli/cli.h"
#include "common/num.h"
#include "join/join_int.h"
#include "structlint/samples.h"
#include "samples/perf_data.h"
#include "structlint/weight.h"

const char cli_analysis_usage[] =
"inputs (at least one):\n"
"  -s, --samples FILE         perf c2c report --stdio text, perf data-type\n"
"                             profile, perf.data, perf script text or a\n"
"                             structlint.profile/v1 JSON ('-' = stdin); a\n"
"                             perf.data of IP samples only (cpu-clock) is\n"
"                             weighted by FILE's static access sites\n"
"                             (\"estimated from IP samples x static sites\")\n"
"      --samples-format FMT   c2c, datatype, perf.data, perf-script, profile\n"
"                             (default: detected)\n"
"  -C, --classes FILE         member classes: a classes file or a kernel\n"
"                             net_cachelines .rst table (given classes win\n"
"                             over measured ones); repeatable: the files\n"
"                             are merged (a member classed differently by\n"
"                             two files is an error); a path a.b.c classes\n"
"                             a nested member; hot-write:LABEL names its\n"
"                             writer: members of different labels collide\n"
"                             (write-write) in report, suggest, check and\n"
"                             baseline; the word 'static': the classes the\n"
"                             static access map of FILE proposes\n"
"                             (structlint(1), STATIC CLASSES), labelled\n"
"                             (static); with a classes file too, that\n"
"                             file's entries replace the static ones\n"
"                             (static+given); report, suggest and check use them\n"
"                             when neither option is given\n"
"      --strict-classes       a member the struct lacks in the classes file\n"
"                             is an error (default: a warning)\n"
"instance base (address samples), first that applies:\n"
"      --base ADDR|SYMBOL     the instance starts at ADDR, or at the data\n"
"                             symbol SYMBOL of FILE (a global object)\n"
"      --line ADDR=N          the cache line holding ADDR is line N of the\n"
"                             struct (repeatable)\n"
"      --no-infer             never infer the base from the accesses\n"
"classification (see structlint(1)):\n"
"      --hot-write-ratio X    stores/accesses >= X: hot-write (0.3)\n"
"      --read-mostly-ratio X  stores/accesses <= X: read-mostly (0.05)\n"
"      --min-share X          members and lines under X of all accesses are\n"
"                             cold / not flagged (0.01)\n"
"      --true-share-cpus N    written by >= N CPUs: true-shared (2)\n"
"      --adjacent             also flag interference in 128-byte line pairs\n";

void cli_analysis_init(struct cli_analysis *c)
{
	memset(c, 0, sizeof(*c));
	c->ropts.cacheline_size = SLT_CACHELINE_DEFAULT;
	slt_classify_opts_default(&c->aopts.classify);
	c->jopts.hints = c->hints;
}

static bool parse_ratio(const char *s, double *out)
{
	return slt_arg_ratio(s, out);
}

/* A C identifier: what a --base SYMBOL looks like. */
static bool is_identifier(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	while (*++s)
		if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.'))
			return false;
	return true;
}

static bool parse_addr(const char *s, uint64_t *out)
{
	return slt_arg_addr(s, out);
}

static int parse_formats(const char *arg, struct slt_load_opts *o)
{
	char buf[64];
	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return -1;
	o->n_formats = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		enum slt_format f = slt_format_parse(t);
		if (f == SLT_FORMAT_NONE || o->n_formats == 2 ||
		    (o->n_formats && o->formats[0] == f))
			return -1;
		o->formats[o->n_formats++] = f;
	}
	return o->n_formats ? 0 : -1;
}

static int parse_line_hint(struct cli_analysis *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct slt_line_hint *h = &c->hints[c->jopts.n_hints];
	char addr[64];
	if (c->jopts.n_hints == CLI_MAX_HINTS)
		return cli_usage_error("at most %d --line hints", CLI_MAX_HINTS);
	if (!eq)
		return cli_usage_error("--line '%s': want ADDR=N", arg);
	if ((size_t)(eq - arg) >= sizeof(addr) ||
	    snprintf(addr, sizeof(addr), "%.*s", (int)(eq - arg), arg) < 0 ||
	    !parse_addr(addr, &h->addr) || !parse_addr(eq + 1, &h->line))
		return cli_usage_error("--line '%s': want ADDR=N (address, line index from 0)", arg);
	c->jopts.n_hints++;
	return 0;
}

int cli_analysis_option(struct cli_analysis *c, int opt, const char *arg,
			const char *optopt_arg)
{
	unsigned long v;
	switch (opt) {
	case 's': c->samples = arg; return 0;
	case 'C':
		if (!strcmp(arg, CLI_STATIC_CLASSES)) {
			c->use_static = true;
			if (!c->classes_path)
				c->classes_path = CLI_STATIC_CLASSES;
			return 0;
		}
		if (c->n_classes == CLI_MAX_CLASSES)
			return cli_usage_error("at most %d --classes files", CLI_MAX_CLASSES);
		c->classes_paths[c->n_classes++] = arg;
		{
			size_t u = strlen(c->classes_joined);
			snprintf(c->classes_joined + u, sizeof(c->classes_joined) - u, "%s%s",
				 u ? "," : "", arg);
		}
		c->classes_path = c->classes_joined;
		return 0;
	case CLI_OPT_SFMT:
		c->sfmt = slt_samples_format_parse(arg);
		if (c->sfmt < 0)
			return cli_usage_error("--samples-format '%s': want c2c, datatype, perf.data, perf-script or profile", arg);
		return 0;
	case CLI_OPT_BASE:
		if (parse_addr(arg, &c->jopts.base))
			c->jopts.has_base = true;
		else if (is_identifier(arg))
			c->base_symbol = arg;
		else
			return cli_usage_error("--base '%s': want an address (0x... or decimal) or a data symbol of FILE", arg);
		return 0;
	case CLI_OPT_LINE: return parse_line_hint(c, arg);
	case CLI_OPT_NO_INFER: c->jopts.no_infer = true; return 0;
	case CLI_OPT_HWR:
		if (!parse_ratio(arg, &c->aopts.classify.hot_write_ratio))
			return cli_usage_error("--hot-write-ratio '%s': want a fraction from 0 to 1", arg);
		return 0;
	case CLI_OPT_RMR:
		if (!parse_ratio(arg, &c->aopts.classify.read_mostly_ratio))
			return cli_usage_error("--read-mostly-ratio '%s': want a fraction from 0 to 1", arg);
		return 0;
	case CLI_OPT_MIN_SHARE:
		if (!parse_ratio(arg, &c->aopts.classify.min_share))
			return cli_usage_error("--min-share '%s': want a fraction from 0 to 1", arg);
		return 0;
	case CLI_OPT_TSC:
		if (!cli_parse_uint(arg, 2, 1u << 20, &v))
			return cli_usage_error("--true-share-cpus '%s': want a number of CPUs >= 2", arg);
		c->aopts.classify.true_share_cpus = (unsigned)v;
		return 0;
	case CLI_OPT_ADJACENT: c->aopts.adjacent = true; return 0;
	case 'j': c->json = true; return 0;
	case 'p': c->ropts.pretty = true; return 0;
	case CLI_OPT_FAIL: c->fail = true; return 0;
	case 'c':
		if (!cli_parse_uint(arg, 8, 4096, &v) || (v & (v - 1)))
			return cli_usage_error("--cacheline '%s': want a power of two from 8 to 4096", arg);
		c->ropts.cacheline_size = (unsigned)v;
		return 0;
	case 'E': c->lopts.expand = true; return 0;
	case 'F':
		if (parse_formats(arg, &c->lopts) < 0)
			return cli_usage_error("--format-path '%s': want a comma-separated list of dwarf, btf", arg);
		return 0;
	case CLI_OPT_DEBUG_ROOT: c->lopts.debug_root = arg; return 0;
	case CLI_OPT_NO_CACHE: c->lopts.no_cache = true; return 0;
	case CLI_OPT_STRICT_CLASSES: c->strict_classes = true; return 0;
	case 'D': return 0;
	case 'K':
		c->color = cli_parse_color(arg);
		if (c->color < 0)
			return cli_usage_error("--color '%s': want auto, always or never", arg);
		return 0;
	case CLI_OPT_MAP: c->map = true; return 0;
	case CLI_OPT_HTML:
		if (!arg[0])
			return cli_usage_error("--html: want a file name ('-' for stdout)");
		c->html = arg;
		return 0;
	case 'h': return -1;
	case ':':
		return cli_usage_error("option '%s' needs an argument", optopt_arg);
	case '?':
		return cli_usage_error("unknown option '%s'", optopt_arg);
	default:
		return 1;
	}
}

int cli_analysis_parse(int argc, char **argv, const struct option *long_opts,
		       struct cli_analysis *c, cli_own_option_fn own, void *ctx,
		       const char *usage_head, const char *usage_tail)
{
	int o;
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":" CLI_ANALYSIS_SHORTOPTS, long_opts, NULL)) != -1) {
		int rc = own ? own(ctx, c, o, optarg) : 1;
		if (rc == 1)
			rc = cli_analysis_option(c, o, optarg, argv[optind - 1]);
		if (rc == 1)
			rc = cli_usage_error("unknown option '%s'", argv[optind - 1]);
		if (rc < 0) {
			fputs(usage_head, stdout);
			fputs(cli_analysis_usage, stdout);
			fputs(usage_tail, stdout);
		}
		if (rc)
			return rc;
	}
	if (c->ropts.pretty) /* --pretty implies --json, as in bpftool */
		c->json = true;
	return 0;
}

/* Feed one sample to every join (one per definition). */
struct fan {
	struct slt_join **joins;
	size_t n;
};

static int fan_cb(void *ctx, const struct slt_sample *s)
{
	struct fan *f = ctx;
	for (size_t i = 0; i < f->n; i++) {
		int rc = slt_join_add(f->joins[i], s);
		if (rc)
			return rc;
	}
	return 0;
}

/* Typed samples that all name other types: the base is not the problem;
 * say which types they name. */
static int other_types_error(const struct slt_access_profile *p,
			     const char *name, const char *path,
			     struct slt_error *err)
{
	char types[300] = "";
	size_t h = 0;
	for (size_t k = 0; k < p->n_other_types && h < sizeof(types); k++) {
		int r = snprintf(types + h, sizeof(types) - h, "%s%s (%" PRIu64 ")",
				 k ? ", " : "", p->other_types[k].name, p->other_types[k].samples);
		if (r < 0)
			break;
		h += (size_t)r;
	}
	return slt_error_set(err, SLT_EUSAGE, path, -1,
			     "name one of the profiled types, or profile a workload that touches this one",
			     "none of the %" PRIu64 " samples is of %s: they name other types, most %s; none is %s",
			     p->samples, name, types, name);
}

/* Standard input copied into an unlinked-on-close temporary file, so a
 * perf.data on it can be read twice (the IP-sample weighting does): the
 * path in path (size bytes), removed by the caller.  0 or SLT_EIO. */
static int spool_stdin(char *path, size_t size, struct slt_error *err)
{
	const char *dir = getenv("TMPDIR");
	snprintf(path, size, "%s/structlint-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!out) {
		if (fd >= 0)
			close(fd);
		return slt_error_set(err, SLT_EIO, path, -1,
				     "set TMPDIR to a writable directory, or pass the samples as a file",
				     "cannot create a copy of standard input: %s", strerror(errno));
	}
	char buf[1 << 16];
	size_t n;
	bool bad = false;
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		bad |= fwrite(buf, 1, n, out) != n;
	bad |= ferror(stdin) != 0;
	if (fclose(out) || bad) {
		int e = errno;
		unlink(path);
		return slt_error_set(err, SLT_EIO, "-", -1,
				     "pass the samples as a file",
				     "cannot copy standard input to %s: %s", path, strerror(e));
	}
	return 0;
}

/* Is the samples input a perf.data file (by --samples-format or its
 * magic)? */
static bool is_perf_data(const char *path, int sfmt)
{
	if (sfmt == SLT_SAMPLES_PERF_DATA)
		return true;
	if (sfmt != SLT_SAMPLES_AUTO)
		return false;
	unsigned char head[8];
	FILE *fp = fopen(path, "rb");
	bool yes = fp && fread(head, 1, sizeof(head), fp) == sizeof(head) &&
		   slt_perf_data_detect(head, sizeof(head));
	if (fp)
		fclose(fp);
	return yes;
}

_Static_assert(sizeof(((struct slt_access_profile *)0)->base_note) ==
	       sizeof(((struct slt_ipw_info *)0)->basis), "basis fits base_note");

/* The access map for the IP-sample estimate: the whole-binary pass,
 * from the build-id cache when it holds it (static_classes.h). */
static int ipw_map(void *ctx, struct slt_access_map **out, struct slt_error *err)
{
	const struct cli_analysis *c = ctx;
	return cli_access_map(c->file, c->lopts.no_cache, out, err);
}

/* What to do when the input held no memory sample. */
static const char *no_samples_hint(const struct cli_analysis *c)
{
	if (!c->file && is_perf_data(c->samples, c->sfmt))
		return "for IP samples (cpu-clock, structlint record without memory events) give the binary as FILE: they are weighted by its static access sites; else record memory samples: perf c2c record, perf mem record";
	return "record memory samples: perf c2c record, perf mem record, or perf record -d";
}

/* Say on stderr what the weighting did. */
static void ipw_note(const struct cli_analysis *c, const struct slt_ipw_info *wi)
{
	if (wi->estimated)
		fprintf(stderr, "structlint: note: %s: no memory samples; member accesses %s\n",
			c->samples, wi->basis);
	if (wi->kernel && wi->ip_samples && !wi->kernel_mmap)
		fprintf(stderr, "structlint: warning: %s: no [kernel.kallsyms]_text mmap event with the kernel's run-time _text: kernel samples cannot be placed in %s (KASLR); record with perf record -a or structlint record -a\n",
			c->samples, c->file);
	else if (!wi->kernel && wi->ip_samples && !wi->mmaps)
		fprintf(stderr, "structlint: warning: %s: no mmap event of %s: its samples cannot be placed (is FILE the program that ran?)\n",
			c->samples, c->file);
	if (wi->mem_relocated)
		fprintf(stderr, "structlint: note: %s: %" PRIu64 " of %" PRIu64 " data addresses relocated into %s's link addresses (mmap events)\n",
			c->samples, wi->mem_relocated, wi->mem_samples, c->file);
}

static int join_all(const struct cli_analysis *c, const struct slt_layout *l,
		    struct slt_access_profile **profiles, struct slt_error *err)
{
	struct slt_join *joins[l->n_structs];
	struct fan f = { joins, 0 };
	struct slt_samples_info info;
	int rc = 0;
	for (size_t i = 0; i < l->n_structs && !rc; i++)
		if (!(rc = slt_join_new(&l->structs[i], &c->jopts, &joins[i], err)))
			f.n++;
	struct slt_ipw_info wi;
	memset(&wi, 0, sizeof(wi));
	/* with FILE, standard input may be IP samples to weight: the
	 * weighting reads the perf.data twice, so it goes to a file first */
	char spool[512] = "";
	const char *samples = c->samples;
	if (!rc && c->file && !strcmp(samples, "-") && !(rc = spool_stdin(spool, sizeof(spool), err)))
		samples = spool;
	if (!rc && c->file && is_perf_data(samples, c->sfmt)) {
		/* relocated by the binary's mmaps; IP samples only: estimated
		 * from the static sites (structlint/weight.h) */
		const char *name = l->structs[0].name;
		struct slt_ipw_opts wo = {.binary = c->file, .types = &name, .n_types = 1,
					  .get_map = ipw_map, .get_map_ctx = (void *)c};
		rc = slt_ipw_read(samples, &wo, fan_cb, &f, &info, &wi, err);
		if (!rc)
			ipw_note(c, &wi);
	} else if (!rc) {
		rc = slt_samples_read(samples, (enum slt_samples_format)c->sfmt,
				      fan_cb, &f, &info, err);
	}
	if (spool[0]) {
		unlink(spool);
		if (rc && !strcmp(err->file, spool))   /* name the input as given */
			snprintf(err->file, sizeof(err->file), "-");
	}
	if (rc && !err->code)      /* the join stopped the parse: memory */
		rc = slt_error_set(err, SLT_ENOMEM, c->samples, -1, NULL, "out of memory while joining samples");
	if (!rc && info.nul_tail)
		fprintf(stderr, "structlint: warning: %s: the last %" PRIu64 " bytes are NUL bytes, "
			"not text: ignored (a zero-padded or truncated copy?)\n",
			c->samples, info.nul_tail);
	if (!rc && info.quoted_lines)
		fprintf(stderr, "structlint: note: %s: read as a mail quote: the quote prefix ('> ', "
			"'>> ') of %" PRIu64 " lines left out\n", c->samples, info.quoted_lines);
	if (!rc && info.c2c_inferred)
		fprintf(stderr, "structlint: warning: %s: perf c2c Pareto blocks without their header "
			"lines: columns recognised from the rows (%u percentage columns read as HITM "
			"remote, local%s, then stores; a -d peer report's peer columns read as HITM)\n",
			c->samples, info.c2c_inferred, info.c2c_inferred == 6 ? ", peer" : "");
	for (size_t i = 0; i < f.n; i++) {
		if (rc) {
			slt_join_free(joins[i]);
		} else {
			rc = slt_join_finish(joins[i], &profiles[i], err);
			if (rc && !err->file[0])
				snprintf(err->file, sizeof(err->file), "%s", c->samples);
			if (!rc && wi.estimated)   /* the basis, in every output */
				memcpy(profiles[i]->base_note, wi.basis, sizeof(wi.basis));
		}
	}
	/* Samples that say nothing about the struct are an input error, not
	 * a clean bill of health: a gate must not pass on them. */
	for (size_t i = 0; i < f.n && !rc; i++) {
		const struct slt_access_profile *p = profiles[i];
		for (size_t k = 0; k < p->n_unknown_members; k++) {
			const struct slt_unknown_member *u = &p->unknown_members[k];
			fprintf(stderr, "structlint: warning: %s: %s has no member '%s'%s%s%s; its %" PRIu64
				" samples are %s\n", c->samples, l->structs[i].name, u->name,
				u->suggestion ? " (did you mean " : "", u->suggestion ? u->suggestion : "",
				u->suggestion ? "?)" : "", u->samples,
				u->by_offset ? "placed by their offset" : "counted outside the members");
		}
		if (p->n_unknown_members && p->unknown_member_samples >
		    p->unknown_members[0].samples + (p->n_unknown_members > 1 ? p->unknown_members[1].samples : 0) +
		    (p->n_unknown_members > 2 ? p->unknown_members[2].samples : 0))
			fprintf(stderr, "structlint: warning: %s: more member paths that %s lacks (%" PRIu64
				" samples in all)\n", c->samples, l->structs[i].name, p->unknown_member_samples);
		if (p->counts_saturated)
			fprintf(stderr, "structlint: warning: %s: counts out of range (over 2^40 in a "
				"record, or 2^52 samples in all): capped there; the input is corrupt or "
				"does not hold counts\n", c->samples);
		if (p->samples == 0 && wi.estimated)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "record while the code touching it runs (structlint record -- CMD), or check that FILE is the binary that ran",
					   "none of the %" PRIu64 " IP samples fell on code accessing %s (%" PRIu64
					   " in %s, %" PRIu64 " sites in %" PRIu64 " basic blocks)",
					   wi.ip_samples, l->structs[i].name, wi.ip_in_binary, c->file,
					   wi.n_sites, wi.n_blocks);
		else if (p->samples == 0)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   no_samples_hint(c),
					   "no memory-access samples in this input (%" PRIu64 " records skipped)",
					   info.skipped);
		else if (p->matched == 0 && p->n_other_types &&
			 p->skipped_other_type == p->samples)
			rc = other_types_error(p, l->structs[i].name, c->samples, err);
		else if (p->matched == 0 && p->unknown_member_samples == p->samples)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "name members of the struct (see the warnings above)",
					   "none of the %" PRIu64 " samples fell on %s: they name members it does not have",
					   p->samples, l->structs[i].name);
		else if (p->matched == 0)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "check the instance base: --base ADDR|SYMBOL or --line ADDR=N",
					   "none of the %" PRIu64 " samples fell on %s (%s)",
					   p->samples, l->structs[i].name, p->base_note);
		else if (p->base_method == SLT_BASE_EXPLICIT && p->outside_samples > p->matched)
			fprintf(stderr, "structlint: warning: %s: %" PRIu64 " of the %" PRIu64
				" samples fall outside %s's members, %" PRIu64 " on them: check the base (%s)\n",
				c->samples, p->outside_samples, p->samples, l->structs[i].name,
				p->matched, p->base_note);
	}
	return rc;
}

/* Bytes of the classes part of cli_given_classes()'s block, rounded up
 * to a pointer's alignment: the labels follow. */
static size_t given_bytes(const struct slt_struct *s)
{
	size_t b = (s->n_members + 1) * sizeof(enum slt_class);
	return (b + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
}

enum slt_class *cli_given_classes(const struct slt_classes *cl,
				  const struct slt_struct *s)
{
	enum slt_class *g = calloc(1, given_bytes(s) + (s->n_members + 1) * sizeof(char *));
	const char **labels = g ? (const char **)cli_given_labels(g, s) : NULL;
	for (size_t i = 0; g && i < s->n_members; i++) {
		char path[512];
		if (!s->members[i].name[0])
			continue;
		/* only the member an entry names: its inline members inherit
		 * the class and label (slt_analyze()) */
		slt_member_path(s, i, path, sizeof(path));
		const struct slt_class_entry *e = slt_classes_find(cl, s->name, path);
		if (!e || strcmp(e->member, path))
			continue;
		g[i] = slt_classes_lookup(cl, s->name, path, SLT_PATH_ANY);
		labels[i] = e->writer;
	}
	return g;
}

const char *const *cli_given_labels(const enum slt_class *g,
				    const struct slt_struct *s)
{
	return (const char *const *)(const void *)((const char *)g + given_bytes(s));
}

/* Entries of the classes files that name a member no definition of the
 * struct has: counted per entry over the definitions of its struct, then
 * warned about (or, with strict, the first is the error). */
struct unknown_ctx {
	const struct slt_classes *cl;
	size_t *count;             /* per entry: definitions lacking it */
	size_t *want;              /* per entry: definitions of its struct */
	bool strict;
	int n;
	struct slt_error *err;
};

static void unknown_count(void *ctx, const struct slt_class_entry *e,
			  const char *suggestion)
{
	struct unknown_ctx *u = ctx;
	(void)suggestion;
	u->count[e - u->cl->entries]++;
}

static void unknown_report(void *ctx, const struct slt_class_entry *e,
			   const char *suggestion)
{
	struct unknown_ctx *u = ctx;
	size_t k = (size_t)(e - u->cl->entries);
	char hint[300];
	if (u->count[k] != u->want[k])
		return;
	u->count[k] = 0;           /* once, even for several definitions */
	snprintf(hint, sizeof(hint), "did you mean %s?", suggestion ? suggestion : "");
	if (u->strict) {
		if (!u->n++)
			slt_error_set_line(u->err, SLT_EUSAGE, e->file ? e->file : "", e->line,
					   suggestion ? hint : "without --strict-classes this is a warning",
					   "%s has no member '%s'", e->struct_name, e->member);
		return;
	}
	u->n++;
	fprintf(stderr, "structlint: warning: %s:%u: %s has no member '%s'%s%s%s\n",
		e->file ? e->file : "", e->line, e->struct_name, e->member,
		suggestion ? " (" : "", suggestion ? hint : "", suggestion ? ")" : "");
}

int cli_classes_warn(const struct slt_classes *cl, const struct slt_layout *l,
		     bool strict, struct slt_error *err)
{
	struct unknown_ctx u = { cl, calloc(cl->n + 1, sizeof(size_t)),
				 calloc(cl->n + 1, sizeof(size_t)), strict, 0, err };
	int rc = u.count && u.want ? 0 : SLT_ENOMEM;
	for (size_t e = 0; !rc && e < cl->n; e++)
		for (size_t i = 0; i < l->n_structs; i++)
			u.want[e] += !strcmp(l->structs[i].name, cl->entries[e].struct_name);
	for (size_t i = 0; !rc && i < l->n_structs; i++)
		rc = slt_classes_check(cl, &l->structs[i], unknown_count, &u);
	for (size_t i = 0; rc >= 0 && i < l->n_structs; i++)
		rc = slt_classes_check(cl, &l->structs[i], unknown_report, &u);
	free(u.count);
	free(u.want);
	if (rc < 0)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	return strict && u.n ? SLT_EUSAGE : 0;
}

int cli_classes_load(const char *const *paths, size_t n, struct slt_classes **out,
		     struct slt_error *err)
{
	struct slt_classes *all = NULL, *one = NULL;
	int rc = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		rc = slt_classes_read(paths[i], SLT_CLASSES_AUTO, NULL, i ? &one : &all, err);
		if (!rc && i)
			rc = slt_classes_merge(all, one, err);
		slt_classes_free(one);
		one = NULL;
	}
	if (rc) {
		slt_classes_free(all);
		all = NULL;
	}
	*out = all;
	return rc;
}

/* A name that only a path has: a '.' suffix (conn.o, x.ko, a.out) or
 * vmlinux*; C identifiers have neither. */
static bool looks_like_path(const char *s)
{
	return strchr(s, '.') || !strncmp(s, "vmlinux", 7);
}

int cli_file_operand(const char *s, struct slt_error *err)
{
	struct stat st;
	if (stat(s, &st) == 0)
		return 1;
	if (strchr(s, '/') || looks_like_path(s))
		return slt_error_set(err, SLT_EIO, s, -1, "build it first, or check the path",
				     "no such file");
	return 0;
}

void cli_note_no_file(struct slt_error *err, const char *op)
{
	char quoted[300];
	if (!err || err->code != SLT_ENOTFOUND || !op)
		return;
	snprintf(quoted, sizeof(quoted), "'%s'", op);
	if (!strstr(err->message, quoted))
		return;
	char hint[sizeof(err->hint)], kernel[sizeof(err->file)];
	snprintf(hint, sizeof(hint), "%.300s%scheck the path; without FILE the "
		 "running kernel's BTF is read",
		 err->hint, err->hint[0] ? "; " : "");
	snprintf(kernel, sizeof(kernel), "%s", err->file);
	snprintf(err->message, sizeof(err->message),
		 "no such file, and the running kernel's BTF (%.200s) has no "
		 "struct or union named '%.200s'", kernel, op);
	snprintf(err->file, sizeof(err->file), "%.400s", op);
	snprintf(err->hint, sizeof(err->hint), "%s", hint);
}

int cli_analysis_load(struct cli_analysis *c, char **ops, int n_ops,
		      struct slt_error *err)
{
	int rc;
	if (!c->samples && !c->classes_path && !c->classes_optional)
		c->use_static = c->static_default = true;
	int fo = n_ops > 0 ? cli_file_operand(ops[0], err) : 0;
	if (fo < 0)
		return fo;
	if (fo == 1) {
		c->file = ops[0];
		ops++;
		n_ops--;
	}
	if (n_ops != 1)
		return cli_usage_error("name exactly one struct or union");
	c->jopts.cacheline_size = c->aopts.cacheline_size = c->ropts.cacheline_size;
	uint64_t size = 0;
	if (c->base_symbol) {
		if (!c->file)
			return cli_usage_error("--base %s: a symbol needs FILE (an ELF file with a symbol table)", c->base_symbol);
		if ((rc = slt_symbol_address(c->file, c->base_symbol, &c->jopts.base, &size, err)) < 0)
			return rc;
		c->jopts.has_base = true;
		c->jopts.base_symbol = c->base_symbol;  /* perf mem Data Symbol samples */
	}
	rc = slt_layout_load(c->file, (const char *const *)ops, 1, &c->lopts, &c->layout, err);
	if (rc == SLT_ENOTFOUND && !c->file)
		cli_note_no_file(err, ops[0]);
	/* st_size 0: the symbol's size is not recorded (assembler labels). */
	for (size_t i = 0; !rc && c->base_symbol && size && i < c->layout->n_structs; i++)
		if (size < c->layout->structs[i].size)
			fprintf(stderr, "structlint: warning: --base %s: the symbol is %" PRIu64
				" bytes, smaller than %s (%" PRIu64 " bytes): is it an instance of %s?\n",
				c->base_symbol, size, c->layout->structs[i].name,
				c->layout->structs[i].size, c->layout->structs[i].name);
	if (!rc && c->n_classes)
		rc = cli_classes_load(c->classes_paths, c->n_classes, &c->classes, err);
	if (!rc && c->use_static) {
		size_t replaced = 0;
		rc = cli_static_classes_over(c->file, c->layout, c->lopts.no_cache, &c->classes,
					     &replaced, err);
		if (!rc && c->n_classes)
			fprintf(stderr, "structlint: note: member classes: the static access map's, "
				"%zu of them replaced by %s's (labelled %s)\n", replaced,
				c->classes_joined, CLI_STATIC_GIVEN);
		if (rc && c->static_default) {
			size_t u = strlen(err->hint);
			snprintf(err->hint + u, sizeof(err->hint) - u,
				 "%sor give --samples FILE or --classes FILE (static classes "
				 "need an x86-64 binary with its code and DWARF)", u ? "; " : "");
		}
		if (!rc && c->static_default)
			fprintf(stderr, "structlint: note: no --samples or --classes: member classes "
				"proposed by the static access map of %s, labelled (static) "
				"(structlint access FILE NAME --write-classes F writes them for review)\n",
				c->file);
		c->ropts.given_word = c->n_classes ? CLI_STATIC_GIVEN : CLI_STATIC_CLASSES;
	}
	/* A class given inside a member shown folded applies to the innermost
	 * member: nested structs are then shown inline, as with -E (the score
	 * is the same either way). */
	for (size_t i = 0; !rc && c->classes && !c->lopts.expand && i < c->layout->n_structs; i++) {
		const struct slt_class_entry *e = slt_classes_folded(c->classes, &c->layout->structs[i]);
		if (!e)
			continue;
		fprintf(stderr, "structlint: note: %s:%u: %s.%s is inside a nested struct: its members are shown inline (as with -E)\n",
			e->file ? e->file : "", e->line, e->struct_name, e->member);
		c->lopts.expand = true;
		slt_layout_free(c->layout);
		c->layout = NULL;
		rc = slt_layout_load(c->file, (const char *const *)ops, 1, &c->lopts, &c->layout, err);
	}
	if (!rc && c->classes)
		rc = cli_classes_warn(c->classes, c->layout, c->strict_classes, err);
	if (!rc && !(c->profiles = calloc(c->layout->n_structs, sizeof(*c->profiles))))
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc && c->samples)
		rc = join_all(c, c->layout, c->profiles, err);
	/* once: a profile without stores cannot show a writer */
	bool any = false, stores = false;
	for (size_t i = 0; !rc && c->samples && i < c->layout->n_structs; i++) {
		const struct slt_access_profile *p = c->profiles[i];
		any |= p->matched > 0;
		stores |= p->input_stores > 0;
		for (size_t k = 0; k < p->n_cells && !stores; k++)
			stores = p->cells[k].stores > 0;
	}
	if (any && !stores)
		fprintf(stderr, "structlint: warning: %s: the profile holds no store, only loads (its events record loads only, or cannot tell loads from stores, e.g. page faults): writes cannot be seen; loads that hit a modified line (HITM) are taken as evidence of an unseen writer (record stores too: perf c2c record, perf mem record -t load,store)\n",
			c->samples);
	return rc;
}

int cli_analysis_run(const struct cli_analysis *c, size_t i,
		     struct slt_analysis **out, enum slt_class **given,
		     struct slt_error *err)
{
	const struct slt_struct *s = &c->layout->structs[i];
	const struct slt_access_profile *p = c->profiles[i];
	struct slt_analysis_opts ao = c->aopts;
	enum slt_class *g = NULL;
	*out = NULL;
	*given = NULL;
	if (c->classes) {
		g = cli_given_classes(c->classes, s);
		if (!g)
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		bool any = false;
		for (size_t k = 0; k < s->n_members; k++)
			any |= g[k] != SLT_CLASS_NONE;
		if (!any && !p) {
			free(g);
			return slt_error_set(err, SLT_EUSAGE, c->classes_path, -1,
					     "name the struct's members in the classes file (STRUCT.MEMBER CLASS or a [STRUCT] section)",
					     "no class is given for any member of %s", s->name);
		}
		ao.given = g;
		ao.given_label = cli_given_labels(g, s);
	} else if (!p) {
		/* classes_optional without inputs: no access data, so every
		 * member is cold (no sharing objective, no finding) */
		if (!(g = calloc(s->n_members + 1, sizeof(*g))))
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		for (size_t k = 0; k < s->n_members; k++)
			g[k] = SLT_CLASS_COLD;
		ao.given = g;
	}
	int rc = slt_analyze(s, p, &ao, out, err);
	if (rc)
		free(g);
	else
		*given = g;
	return rc;
}

void cli_analysis_release(struct cli_analysis *c)
{
	for (size_t i = 0; c->layout && c->profiles && i < c->layout->n_structs; i++)
		slt_access_profile_free(c->profiles[i]);
	free(c->profiles);
	slt_classes_free(c->classes);
	slt_layout_free(c->layout);
	c->profiles = NULL;
	c->classes = NULL;
	c->layout = NULL;
}
