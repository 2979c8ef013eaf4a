/* SPDX-License-Identifier: MIT */
/*
 * `structlint report [OPTIONS] [FILE] NAME`: the layout annotated with
 * access statistics and classes, and the ranked sharing findings.  The
 * layout command hands over here when it is given --samples or --classes,
 * so `structlint FILE NAME --samples X` works too.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "join/join_int.h"
#include "structlint/analysis.h"
#include "structlint/classes.h"
#include "structlint/join.h"
#include "structlint/layout.h"
#include "structlint/report.h"
#include "structlint/samples.h"

static const char usage[] =
"usage: structlint report [OPTIONS] [FILE] NAME\n"
"       structlint [FILE] NAME --samples PROFILE | --classes CLASSES [OPTIONS]\n"
"\n"
"Show NAME's layout annotated per member with its access class, loads,\n"
"stores, HITM and a heat mark, then the cache-line findings ranked by score:\n"
"read-mostly/hot-write collisions, write-write false sharing between CPUs,\n"
"true sharing (not fixable by layout), hot members straddling two lines and,\n"
"with --adjacent, 128-byte line-pair interference.\n"
"\n"
"inputs (at least one):\n"
"  -s, --samples FILE         perf c2c report --stdio text, perf data-type\n"
"                             profile, perf.data, perf script text or a\n"
"                             structlint.profile/v1 JSON ('-' = stdin)\n"
"      --samples-format FMT   c2c, datatype, perf.data, perf-script, profile\n"
"                             (default: detected)\n"
"  -C, --classes FILE         member classes: a classes file or a kernel\n"
"                             net_cachelines .rst table (given classes win\n"
"                             over measured ones)\n"
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
"      --adjacent             also flag interference in 128-byte line pairs\n"
"output:\n"
"  -j, --json                 JSON (schema structlint.report/v1)\n"
"  -p, --pretty               indent the JSON\n"
"      --fail-on-findings     exit 1 when anything is flagged\n"
"  -c, --cacheline N          cache line size in bytes (default 64)\n"
"  -E, --expand               annotate members of nested structs inline\n"
"  -F, --format-path LIST     debug formats to read: dwarf,btf\n"
"      --debug-root DIR       where separate debug files live\n"
"  -h, --help                 this help\n"
"\n"
"exit status: 0 ok, 1 findings with --fail-on-findings, 2 usage or input\n"
"error (one line on stderr).\n";

enum {
	OPT_SFMT = 256, OPT_BASE, OPT_LINE, OPT_NO_INFER, OPT_HWR, OPT_RMR,
	OPT_MIN_SHARE, OPT_TSC, OPT_ADJACENT, OPT_FAIL, OPT_DEBUG_ROOT,
};

static const struct option long_opts[] = {
	{ "samples", required_argument, NULL, 's' },
	{ "samples-format", required_argument, NULL, OPT_SFMT },
	{ "classes", required_argument, NULL, 'C' },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "line", required_argument, NULL, OPT_LINE },
	{ "no-infer", no_argument, NULL, OPT_NO_INFER },
	{ "hot-write-ratio", required_argument, NULL, OPT_HWR },
	{ "read-mostly-ratio", required_argument, NULL, OPT_RMR },
	{ "min-share", required_argument, NULL, OPT_MIN_SHARE },
	{ "true-share-cpus", required_argument, NULL, OPT_TSC },
	{ "adjacent", no_argument, NULL, OPT_ADJACENT },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "fail-on-findings", no_argument, NULL, OPT_FAIL },
	{ "cacheline", required_argument, NULL, 'c' },
	{ "expand", no_argument, NULL, 'E' },
	{ "format-path", required_argument, NULL, 'F' },
	{ "debug-root", required_argument, NULL, OPT_DEBUG_ROOT },
	/* accepted for compatibility with the layout command */
	{ "decl", no_argument, NULL, 'D' },
	{ "color", required_argument, NULL, 'K' },
	{ "colour", required_argument, NULL, 'K' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define MAX_HINTS 64

struct cfg {
	const char *samples, *classes;
	const char *base_symbol;   /* --base SYMBOL, resolved once FILE is known */
	int sfmt;
	struct slt_join_opts jopts;
	struct slt_line_hint hints[MAX_HINTS];
	struct slt_analysis_opts aopts;
	struct slt_load_opts lopts;
	struct slt_report_opts ropts;
	bool json, fail;
};

static bool parse_ratio(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 || v > 1)
		return false;
	*out = v;
	return true;
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
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	*out = v;
	return true;
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

static int parse_args(int argc, char **argv, struct cfg *c)
{
	unsigned long v;
	int o;
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":s:C:jpc:EF:h", long_opts, NULL)) != -1) {
		switch (o) {
		case 's': c->samples = optarg; break;
		case 'C': c->classes = optarg; break;
		case OPT_SFMT:
			c->sfmt = slt_samples_format_parse(optarg);
			if (c->sfmt < 0)
				return cli_usage_error("--samples-format '%s': want c2c, datatype, perf.data, perf-script or profile", optarg);
			break;
		case OPT_BASE:
			if (parse_addr(optarg, &c->jopts.base))
				c->jopts.has_base = true;
			else if (is_identifier(optarg))
				c->base_symbol = optarg;
			else
				return cli_usage_error("--base '%s': want an address (0x... or decimal) or a data symbol of FILE", optarg);
			break;
		case OPT_LINE: {
			char *eq = strchr(optarg, '=');
			struct slt_line_hint *h = &c->hints[c->jopts.n_hints];
			if (c->jopts.n_hints == MAX_HINTS)
				return cli_usage_error("at most %d --line hints", MAX_HINTS);
			if (!eq)
				return cli_usage_error("--line '%s': want ADDR=N", optarg);
			*eq = 0;
			bool ok = parse_addr(optarg, &h->addr) && parse_addr(eq + 1, &h->line);
			*eq = '=';
			if (!ok)
				return cli_usage_error("--line '%s': want ADDR=N (address, line index from 0)", optarg);
			c->jopts.n_hints++;
			break;
		}
		case OPT_NO_INFER: c->jopts.no_infer = true; break;
		case OPT_HWR:
			if (!parse_ratio(optarg, &c->aopts.classify.hot_write_ratio))
				return cli_usage_error("--hot-write-ratio '%s': want a fraction from 0 to 1", optarg);
			break;
		case OPT_RMR:
			if (!parse_ratio(optarg, &c->aopts.classify.read_mostly_ratio))
				return cli_usage_error("--read-mostly-ratio '%s': want a fraction from 0 to 1", optarg);
			break;
		case OPT_MIN_SHARE:
			if (!parse_ratio(optarg, &c->aopts.classify.min_share))
				return cli_usage_error("--min-share '%s': want a fraction from 0 to 1", optarg);
			break;
		case OPT_TSC:
			if (!cli_parse_uint(optarg, 2, 1u << 20, &v))
				return cli_usage_error("--true-share-cpus '%s': want a number of CPUs >= 2", optarg);
			c->aopts.classify.true_share_cpus = (unsigned)v;
			break;
		case OPT_ADJACENT: c->aopts.adjacent = true; break;
		case 'j': c->json = true; break;
		case 'p': c->ropts.pretty = true; break;
		case OPT_FAIL: c->fail = true; break;
		case 'c':
			if (!cli_parse_uint(optarg, 8, 4096, &v) || (v & (v - 1)))
				return cli_usage_error("--cacheline '%s': want a power of two from 8 to 4096", optarg);
			c->ropts.cacheline_size = (unsigned)v;
			break;
		case 'E': c->lopts.expand = true; break;
		case 'F':
			if (parse_formats(optarg, &c->lopts) < 0)
				return cli_usage_error("--format-path '%s': want a comma-separated list of dwarf, btf", optarg);
			break;
		case OPT_DEBUG_ROOT: c->lopts.debug_root = optarg; break;
		case 'D': break;
		case 'K':
			if (cli_parse_color(optarg) < 0)
				return cli_usage_error("--color '%s': want auto, always or never", optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		case ':':
			return cli_usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			return cli_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
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

static int join_all(const struct cfg *c, const struct slt_layout *l,
		    struct slt_access_profile **profiles, struct slt_error *err)
{
	struct slt_join *joins[l->n_structs];
	struct fan f = { joins, 0 };
	struct slt_samples_info info;
	int rc = 0;
	for (size_t i = 0; i < l->n_structs && !rc; i++)
		if (!(rc = slt_join_new(&l->structs[i], &c->jopts, &joins[i], err)))
			f.n++;
	if (!rc)
		rc = slt_samples_read(c->samples, (enum slt_samples_format)c->sfmt,
				      fan_cb, &f, &info, err);
	if (rc && !err->code)      /* the join stopped the parse: memory */
		rc = slt_error_set(err, SLT_ENOMEM, c->samples, -1, NULL, "out of memory while joining samples");
	for (size_t i = 0; i < f.n; i++) {
		if (rc) {
			slt_join_free(joins[i]);
		} else {
			rc = slt_join_finish(joins[i], &profiles[i], err);
			if (rc && !err->file[0])
				snprintf(err->file, sizeof(err->file), "%s", c->samples);
		}
	}
	/* Samples that say nothing about the struct are an input error, not
	 * a clean bill of health: a gate must not pass on them. */
	for (size_t i = 0; i < f.n && !rc; i++) {
		const struct slt_access_profile *p = profiles[i];
		if (p->samples == 0)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "record memory samples: perf c2c record, perf mem record, or perf record -d",
					   "no memory-access samples in this input (%" PRIu64 " records skipped)",
					   info.skipped);
		else if (p->matched == 0)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "check the instance base: --base ADDR|SYMBOL or --line ADDR=N",
					   "none of the %" PRIu64 " samples fell on %s (%s)",
					   p->samples, l->structs[i].name, p->base_note);
	}
	return rc;
}

/* Given classes for s's members from the classes file (NONE where not
 * named); NULL when out of memory. */
static enum slt_class *given_classes(const struct slt_classes *cl,
				     const struct slt_struct *s)
{
	enum slt_class *g = calloc(s->n_members + 1, sizeof(*g));
	for (size_t i = 0; g && i < s->n_members; i++) {
		char path[512];
		if (!s->members[i].name[0])
			continue;
		g[i] = slt_classes_lookup(cl, s->name, slt_member_path(s, i, path, sizeof(path)),
					  SLT_PATH_ANY);
	}
	return g;
}

static int report_one(const struct cfg *c, const struct slt_struct *s,
		      const struct slt_access_profile *p,
		      const struct slt_classes *cl, size_t *n_findings,
		      struct slt_error *err)
{
	struct slt_analysis_opts ao = c->aopts;
	enum slt_class *g = NULL;
	if (cl) {
		g = given_classes(cl, s);
		if (!g)
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		bool any = false;
		for (size_t i = 0; i < s->n_members; i++)
			any |= g[i] != SLT_CLASS_NONE;
		if (!any && !p) {
			free(g);
			return slt_error_set(err, SLT_EUSAGE, c->classes, -1,
					     "name the struct's members in the classes file (STRUCT.MEMBER CLASS or a [STRUCT] section)",
					     "no class is given for any member of %s", s->name);
		}
		ao.given = g;
	}
	struct slt_analysis *a = NULL;
	int rc = slt_analyze(s, p, &ao, &a, err);
	if (!rc) {
		*n_findings += a->n_findings;
		rc = c->json ? slt_report_analysis_json(stdout, a, &c->ropts, err)
			     : slt_report_analysis_text(stdout, a, &c->ropts, err);
	}
	slt_analysis_free(a);
	free(g);
	return rc;
}

static bool is_file_operand(const char *s)
{
	struct stat st;
	return strchr(s, '/') || stat(s, &st) == 0;
}

int cmd_report(int argc, char **argv)
{
	struct cfg c = { .ropts = { .cacheline_size = SLT_CACHELINE_DEFAULT } };
	slt_classify_opts_default(&c.aopts.classify);
	c.jopts.hints = c.hints;
	int rc = parse_args(argc, argv, &c);
	if (rc < 0)
		return SLT_EXIT_OK;              /* --help */
	if (rc)
		return rc;
	if (!c.samples && !c.classes)
		return cli_usage_error("give --samples FILE or --classes FILE");
	char **ops = argv + optind;
	int n_ops = argc - optind;
	const char *file = NULL;
	if (n_ops > 0 && is_file_operand(ops[0])) {
		file = ops[0];
		ops++;
		n_ops--;
	}
	if (n_ops != 1)
		return cli_usage_error("name exactly one struct or union to report on");
	c.jopts.cacheline_size = c.aopts.cacheline_size = c.ropts.cacheline_size;

	struct slt_error err;
	slt_error_clear(&err);
	if (c.base_symbol) {
		uint64_t size;
		if (!file)
			return cli_usage_error("--base %s: a symbol needs FILE (an ELF file with a symbol table)", c.base_symbol);
		if (slt_symbol_address(file, c.base_symbol, &c.jopts.base, &size, &err) < 0)
			return cli_fail(&err);
		c.jopts.has_base = true;
	}
	struct slt_layout *l = NULL;
	struct slt_classes *cl = NULL;
	struct slt_access_profile **profiles = NULL;
	size_t n_findings = 0;
	rc = slt_layout_load(file, (const char *const *)ops, 1, &c.lopts, &l, &err);
	if (!rc && c.classes)
		rc = slt_classes_read(c.classes, SLT_CLASSES_AUTO, NULL, &cl, &err);
	if (!rc && !(profiles = calloc(l->n_structs, sizeof(*profiles))))
		rc = slt_error_set(&err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc && c.samples)
		rc = join_all(&c, l, profiles, &err);
	for (size_t i = 0; !rc && i < l->n_structs; i++) {
		if (i && !c.json)
			fputc('\n', stdout);
		rc = report_one(&c, &l->structs[i], profiles[i], cl, &n_findings, &err);
	}
	for (size_t i = 0; l && profiles && i < l->n_structs; i++)
		slt_access_profile_free(profiles[i]);
	free(profiles);
	slt_classes_free(cl);
	slt_layout_free(l);
	if (rc == 0 && fflush(stdout) != 0)
		rc = slt_error_set(&err, SLT_EIO, "<stdout>", -1, NULL, "write failed");
	if (rc < 0)
		return cli_fail(&err);
	return c.fail && n_findings ? SLT_EXIT_FINDINGS : SLT_EXIT_OK;
}
