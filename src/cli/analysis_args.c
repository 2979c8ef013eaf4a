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
#include "common/strmap.h"
#include "join/join_int.h"
#include "load/elf.h"
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
"                             over measured ones; measured true sharing is\n"
"                             still a finding); repeatable: the files\n"
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
"      --true-share-cpus N    written by >= N CPUs: true-shared (2; an array\n"
"                             placed by offsets: one element by >= N)\n"
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
	enum slt_class *g = calloc(1, given_bytes(s) + 2 * (s->n_members + 1) * sizeof(char *));
	const char **labels = g ? (const char **)cli_given_labels(g, s) : NULL;
	const char **sources = g ? (const char **)cli_given_sources(g, s) : NULL;
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
		sources[i] = e->file && !strncmp(e->file, CLI_STATIC_FILE_PREFIX,
						 strlen(CLI_STATIC_FILE_PREFIX))
			     ? CLI_STATIC_CLASSES : "given";
	}
	return g;
}

enum slt_class *cli_measured_classes(const struct slt_analysis *a,
				     const struct slt_struct *s)
{
	const struct slt_struct *o = a->layout;
	enum slt_class *g = calloc(1, given_bytes(s) + 2 * (s->n_members + 1) * sizeof(char *));
	char **paths = calloc(o->n_members + 1, sizeof(*paths));
	struct slt_strmap m = { 0 };
	bool ok = g && paths;
	char buf[512];

	/* a's leaves by path: o(members), each looked up once */
	for (size_t k = 0; ok && k < o->n_members; k++) {
		if (!o->members[k].name[0] || o->members[k].n_children)
			continue;
		slt_member_path(o, k, buf, sizeof(buf));
		ok = (paths[k] = strdup(buf)) &&
		     slt_strmap_put(&m, paths[k], strlen(paths[k]), k, NULL) >= 0;
	}
	const char **labels = ok ? (const char **)cli_given_labels(g, s) : NULL;
	for (size_t i = 0; ok && i < s->n_members; i++) {
		size_t k;
		if (!s->members[i].name[0] || s->members[i].n_children)
			continue;
		slt_member_path(s, i, buf, sizeof(buf));
		if (!slt_strmap_get(&m, buf, strlen(buf), &k))
			continue;
		g[i] = a->classes[k].cls;
		labels[i] = a->classes[k].label;
	}
	for (size_t k = 0; paths && k < o->n_members; k++)
		free(paths[k]);
	free(paths);
	slt_strmap_free(&m);
	if (!ok) {
		free(g);
		return NULL;
	}
	return g;
}

const char *const *cli_given_sources(const enum slt_class *g,
				     const struct slt_struct *s)
{
	return cli_given_labels(g, s) + s->n_members + 1;
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
		return cli_no_such_file(s, err);
	return 0;
}

int cli_no_such_file(const char *path, struct slt_error *err)
{
	return slt_error_set(err, SLT_EIO, path, -1, "build it first, or check the path",
			     "no such file");
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

/* Load the struct again with nested structs shown inline (as -E): a class
 * or a sample named a member inside one. */
static int reload_inline(struct cli_analysis *c, char **ops, struct slt_error *err)
{
	c->lopts.expand = true;
	slt_layout_free(c->layout);
	c->layout = NULL;
	return slt_layout_load(c->file, (const char *const *)ops, 1, &c->lopts, &c->layout, err);
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
		size_t replaced = 0, added = 0;
		rc = cli_static_classes_over(c->file, c->layout, c->lopts.no_cache, &c->classes,
					     &replaced, &added, err);
		if (!rc && c->n_classes)
			fprintf(stderr, "structlint: note: member classes: the static access map's "
				"and %s's (labelled %s): %zu newly classed, %zu replaced\n",
				c->classes_joined, CLI_STATIC_GIVEN, added, replaced);
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
	const struct slt_class_entry *e = NULL;
	struct slt_layout *spelled = NULL;   /* names a misspelled path is checked against */
	if (!rc && c->classes)
		rc = slt_layout_unfold(&c->layout, c->file, (const char *const *)ops, 1, &c->lopts,
				       c->classes, NULL, 0, &e, &spelled, err);
	if (!rc && e)
		fprintf(stderr, "structlint: note: %s:%u: %s.%s is inside a nested struct: its members are shown inline (as with -E)\n",
			e->file ? e->file : "", e->line, e->struct_name, e->member);
	if (!rc && c->classes)
		rc = cli_classes_warn(c->classes, spelled ? spelled : c->layout, c->strict_classes, err);
	slt_layout_free(spelled);
	if (!rc && !(c->profiles = calloc(c->layout->n_structs, sizeof(*c->profiles))))
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc && c->samples)
		rc = cli_join_samples(c, c->layout, c->profiles, true, err);
	if (rc == CLI_JOIN_AGAIN) {
		rc = reload_inline(c, ops, err);
		free(c->profiles);
		c->profiles = NULL;
		if (!rc && !(c->profiles = calloc(c->layout->n_structs, sizeof(*c->profiles))))
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		if (!rc)
			rc = cli_join_samples(c, c->layout, c->profiles, false, err);
	}
	/* once: a profile without stores cannot show a writer */
	bool any = false, stores = false, hitm = false, estimated = false;
	for (size_t i = 0; !rc && c->samples && i < c->layout->n_structs; i++) {
		const struct slt_access_profile *p = c->profiles[i];
		any |= p->matched > 0;
		estimated |= strstr(p->base_note, SLT_IPW_BASIS) != NULL;
		stores |= p->input_stores > 0;
		for (size_t k = 0; k < p->n_cells; k++) {
			stores |= p->cells[k].stores > 0;
			hitm |= p->cells[k].hitm > 0;
		}
	}
	/* IP-sample estimates have no events that miss stores nor HITM: no
	 * store there means no sampled code stores to the struct */
	if (any && !stores && !estimated)
		fprintf(stderr, "structlint: warning: %s: the profile holds no store, only loads (its events record loads only, or cannot tell loads from stores, e.g. page faults): writes cannot be seen; loads that hit a modified line (HITM) are taken as evidence of %s (record stores too: perf c2c record, perf mem record -t load,store)\n",
			c->samples, c->classes ? "a write by the hot-write members the classes name on that line, or by an unseen writer where they name none" :
			"an unseen writer");
	/* A gate (--fail-on-findings, check) that can see no write has no
	 * evidence either way: an input error, never a pass.  HITM loads
	 * are that evidence (unseen-writer findings), and a classes file
	 * names the writers. */
	if (!rc && c->fail && any && !stores && !hitm && !c->classes)
		rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
				   "record stores too (perf c2c record, perf mem record -t load,store), "
				   "or give --classes FILE naming the hot-write members",
				   "the profile holds no store and no load that hit a modified line (HITM): "
				   "the gate cannot see writes, so it cannot pass");
	return rc;
}

void cli_writer_labels(const struct slt_analysis *a, const char **lab, char (*cpu)[24])
{
	for (size_t m = 0; m < a->layout->n_members; m++) {
		lab[m] = a->classes[m].label;
		int32_t w = lab[m] ? -1 : slt_member_sole_writer(a, m);
		if (w >= 0) {
			/* IP-sample estimates with tids: the writers are
			 * threads, numbered 0.. (slt_ipw_info.by_thread) */
			snprintf(cpu[m], sizeof(cpu[m]), "%s%" PRId32,
				 a->profile->writers_threads ? "thread" : "cpu", w);
			lab[m] = cpu[m];
		}
	}
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
			/* the hint names what was given: classes files, or
			 * only the static access map of FILE */
			if (!c->n_classes) {
				char hint[600];
				snprintf(hint, sizeof(hint), "give --classes FILE naming the hot-write "
					 "members, or --samples FILE; 'structlint access %.200s %.200s' "
					 "lists the accesses the map found", c->file ? c->file : "FILE",
					 s->name);
				return slt_error_set(err, SLT_EUSAGE, c->file, -1, hint,
						     "the static access map proposes a class for no member of %s "
						     "(no --classes given)", s->name);
			}
			return slt_error_set(err, SLT_EUSAGE, c->classes_joined, -1,
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
	int rc = 0;
	if (!p && (c->in || c->base_align || c->jopts.has_base)) {
		/* without samples, report --in / --base-align or --base
		 * place the instance: where it starts in a line, and which
		 * starts it may have */
		uint64_t off = c->jopts.has_base ? c->jopts.base : 0;
		unsigned cl = ao.cacheline_size ? ao.cacheline_size : SLT_CACHELINE_DEFAULT;
		if (c->in)
			rc = cli_instance_offset(c->file, &c->lopts, c->in, s, &off, err);
		ao.line_origin = (uint32_t)(off % cl);
		ao.base_align = c->base_align;
	}
	if (!rc)
		rc = slt_analyze(s, p, &ao, out, err);
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

/* Whether file (NULL: the running kernel's BTF) is a kernel image or
 * module: BTF (raw or /sys/kernel/btf), or an ELF file with a section only
 * those have (.modinfo, __ksymtab, __ksymtab_gpl, .data..percpu). */
bool cli_kernel_binary(const char *file)
{
	static const char *const secs[] = { ".modinfo", "__ksymtab", "__ksymtab_gpl",
					    ".data..percpu" };
	struct slt_elf *e = NULL;
	struct slt_error err;
	bool k = false;

	slt_error_clear(&err);
	if (!file || slt_elf_open(file, &e, &err))
		return true;
	for (size_t i = 0; i < sizeof(secs) / sizeof(secs[0]) && !k; i++)
		k = slt_elf_find_section(e, secs[i]) != 0;
	if (!k && slt_elf_find_section(e, ".BTF") && !slt_elf_find_section(e, ".debug_info"))
		k = true;
	slt_elf_close(e);
	return k;
}
