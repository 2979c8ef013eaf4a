/* SPDX-License-Identifier: MIT */
/*
 * `structlint suggest [OPTIONS] [FILE] STRUCT --samples S | --classes C`:
 * the layout advisor's proposals (include/structlint/advice.h), best first,
 * as text (src/report/advice_text.c) or structlint.advice/v1 JSON
 * (src/report/advice_json.c).  Inputs, loading and the analysis are
 * report's (analysis_args.c).  Each proposal is checked again: its layout
 * is analysed with the same classes (the classes file's, or the classes
 * the samples gave) and the findings left are printed with it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli/positional.h"
#include "cli/analysis_args.h"
#include "cli/cli.h"
#include "cli/static_classes.h"
#include "structlint/advice.h"
#include "structlint/advice_report.h"
#include "structlint/map_report.h"
#include "structlint/weight.h"

static const char usage_head[] =
"usage: structlint suggest [OPTIONS] [FILE] STRUCT --samples S | --classes C\n"
"       structlint report --suggest [OPTIONS] [FILE] STRUCT ...\n"
"\n"
"Propose layouts of STRUCT that remove its sharing findings, best first:\n"
"minimal moves, a full regroup, CACHELINE_PADDING only, the best layout per\n"
"added-bytes budget, or (--size-only) the smallest legal layout.  Each comes\n"
"with its cost (bytes, cachelines, score, the slab cost in the kmem_cache\n"
"assumed, the kmalloc class), the new layout pahole-style and the C\n"
"declaration that locks it in; a warning names members with no class that\n"
"a proposal moves onto a line with read-mostly or written members.\n"
"\n";

static const char usage_tail[] =
"advice:\n"
"      --pin MEMBER           MEMBER keeps its offset (repeatable; e.g. the\n"
"                             member container_of() uses)\n"
"      --keep-together A,B..  these members stay adjacent, in this order (one line when they fit)\n"
"                             (repeatable)\n"
"      --move-anchors         allow moving forced-aligned members, existing\n"
"                             padding and cacheline-group markers (each\n"
"                             member stays in its kernel group, or moves\n"
"                             to one of its class, said); a forced-\n"
"                             aligned last member stays last\n"
"      --move-last            with --move-anchors, let that member move too\n"
"                             (the kernel sizes some at run time: x86\n"
"                             task_struct's thread must stay last)\n"
"      --move-first           allow moving the first member (by default it\n"
"                             stays at offset 0: container_of() users and\n"
"                             casts to the first member's type expect it)\n"
"      --frozen               ABI-frozen struct: findings, no reordering\n"
"      --separation N         bytes between groups: 64 or 128 for adjacent-\n"
"                             line prefetch pairs: groups kept apart never\n"
"                             share an aligned N-byte block (default: the\n"
"                             line size; two lines with --adjacent); a\n"
"                             multiple of the line size, at least one line\n"
"      --base-align N         the instance's base is only known to be a\n"
"                             multiple of N (an embedded instance, a slab\n"
"                             without SLAB_HWCACHE_ALIGN): every layout is\n"
"                             priced at each start it may have in a line,\n"
"                             the worst counting, so separation holds for\n"
"                             every base; no isolate or padding proposal\n"
"                             (default: line-aligned)\n"
"      --in CONTAINER.MEMBER  the instance is that member of CONTAINER (a\n"
"                             struct of FILE; a dotted path), whose base\n"
"                             is line-aligned or a multiple of --base-align:\n"
"                             layouts are priced at the start that gives\n"
"                             (e.g. --in inode.i_data --base-align 8);\n"
"                             reorderings only: padding would raise the\n"
"                             alignment and move it in CONTAINER; each\n"
"                             proposal prices CONTAINER's size, lines and\n"
"                             slab cost before and after\n"
"      --line-size N          cache line size in bytes (as --cacheline)\n"
"      --size-only            only the smallest layout (pahole --reorganize's\n"
"                             goal, never breaking alignment); needs no\n"
"                             --samples or --classes\n"
"      --max-proposals N      at most N proposals (default 5)\n"
"      --nr-cpus N            CPUs for SLUB's slab order (default: this\n"
"                             machine's configured CPUs)\n"
"      --slub-max-order N     slub_max_order, 0 to 10 (default 3)\n"
"      --slub-rule 6.1|6.8    which kernel's calculate_order() (default 6.1)\n"
"      --source-root DIR      also a unified diff of each proposal against\n"
"                             the header under DIR that defines STRUCT\n"
"                             (found by DW_AT_decl_file/decl_line; apply\n"
"                             with patch -p1 in DIR); exit 2 where the\n"
"                             source differs from the debug info; warns of\n"
"                             each positional initializer of STRUCT in DIR's\n"
"                             .c/.h files (FILE:LINE): a reorder changes it\n"
"                             (typedef names too); a struct declared on one\n"
"                             line is refused: apply the C declaration by\n"
"                             hand\n"
"      --c-form auto|kernel|user  the C declaration's and diff's forms:\n"
"                             kernel (CACHELINE_PADDING(), ____cacheline_\n"
"                             aligned_in_smp, static_assert) or user (ISO\n"
"                             C11: _Alignas(STRUCTLINT_CACHELINE_BYTES) on\n"
"                             the member after a padding, _Static_assert;\n"
"                             clean under -pedantic); auto (default): kernel\n"
"                             for a kernel image or module (sections\n"
"                             .modinfo, __ksymtab, .data..percpu; BTF), else\n"
"                             user; user also prices no slab (storage: user\n"
"                             space, a global, static or heap object)\n"
"output:\n"
"  -j, --json                 JSON (schema structlint.advice/v1)\n"
CLI_PICTURES_USAGE
"  -p, --pretty               indent the JSON (implies --json)\n"
"      --fail-on-findings     exit 1 when the analysis has findings\n"
"  -c, --cacheline N          cache line size in bytes (default 64)\n"
"  -E, --expand               nested structs inline (they still move whole)\n"
"  -F, --format-path LIST     debug formats to read: dwarf,btf\n"
"      --debug-root DIR       where separate debug files live\n"
"      --no-cache             neither read nor write the cached name\n"
"                             index and static access map (in\n"
"                             $STRUCTLINT_CACHE_DIR, else $XDG_CACHE_HOME/\n"
"                             structlint, ~/.cache/structlint; structlint(1)\n"
"                             FILES)\n"
"  -h, --help                 this help\n"
"\n"
"exit status: 0 ok, 1 findings with --fail-on-findings, 2 usage or input\n"
"error (one line on stderr).\n"
"See structlint(1), SUGGEST OPTIONS and ADVICE: the kinds of proposal, the\n"
"rules they keep, the cost model, the search and the slab figures.\n";

enum {
	OPT_PIN = CLI_OPT_OWN, OPT_KEEP, OPT_MOVE_ANCHORS, OPT_FROZEN, OPT_SEP,
	OPT_LINE_SIZE, OPT_SIZE_ONLY, OPT_MAX, OPT_NR_CPUS, OPT_SLUB_MAX,
	OPT_SLUB_RULE, OPT_SOURCE_ROOT, OPT_MOVE_FIRST, OPT_MOVE_LAST, OPT_C_FORM,
	OPT_BASE_ALIGN, OPT_IN,
};

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	{ "pin", required_argument, NULL, OPT_PIN },
	{ "keep-together", required_argument, NULL, OPT_KEEP },
	{ "move-anchors", no_argument, NULL, OPT_MOVE_ANCHORS },
	{ "move-first", no_argument, NULL, OPT_MOVE_FIRST },
	{ "move-last", no_argument, NULL, OPT_MOVE_LAST },
	{ "frozen", no_argument, NULL, OPT_FROZEN },
	{ "separation", required_argument, NULL, OPT_SEP },
	{ "base-align", required_argument, NULL, OPT_BASE_ALIGN },
	{ "in", required_argument, NULL, OPT_IN },
	{ "line-size", required_argument, NULL, OPT_LINE_SIZE },
	{ "size-only", no_argument, NULL, OPT_SIZE_ONLY },
	{ "max-proposals", required_argument, NULL, OPT_MAX },
	{ "nr-cpus", required_argument, NULL, OPT_NR_CPUS },
	{ "slub-max-order", required_argument, NULL, OPT_SLUB_MAX },
	{ "slub-rule", required_argument, NULL, OPT_SLUB_RULE },
	{ "source-root", required_argument, NULL, OPT_SOURCE_ROOT },
	{ "c-form", required_argument, NULL, OPT_C_FORM },
	{ NULL, 0, NULL, 0 },
};

bool cli_suggest_only_option(const char *arg)
{
	if (strncmp(arg, "--", 2))
		return false;
	size_t n = strcspn(arg + 2, "=");
	for (const struct option *o = long_opts; o->name; o++)
		if (o->val >= OPT_PIN && o->val != OPT_BASE_ALIGN && o->val != OPT_IN &&
		    strlen(o->name) == n && !strncmp(o->name, arg + 2, n))
			return true;
	return false;
}

#define MAX_LISTS 64

/* The advice options and the storage behind their name lists. */
struct sugg {
	struct slt_advice_opts o;
	const char *pins[MAX_LISTS];
	const char *const *keep[MAX_LISTS];
	char *keep_buf[MAX_LISTS];      /* strdup'ed argument, split in place */
	const char **keep_names[MAX_LISTS];
	const char *source_root;        /* --source-root: diff each proposal */
	int c_form;                     /* --c-form: 0 auto, 1 kernel, 2 user */
	const char *in;                 /* --in CONTAINER.MEMBER */
};

static void sugg_free(struct sugg *s)
{
	for (size_t i = 0; i < s->o.n_keep_together; i++) {
		free(s->keep_buf[i]);
		free(s->keep_names[i]);
	}
}

/* "A,B,C" -> a NULL-terminated list of names. */
static int add_keep(struct sugg *s, const char *arg)
{
	size_t k = s->o.n_keep_together, n = 1;
	if (k == MAX_LISTS)
		return cli_usage_error("at most %d --keep-together lists", MAX_LISTS);
	for (const char *p = arg; *p; p++)
		n += *p == ',';
	char *buf = strdup(arg);
	const char **names = calloc(n + 1, sizeof(*names));
	if (!buf || !names) {
		free(buf);
		free(names);
		return cli_usage_error("out of memory");
	}
	n = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		names[n++] = t;
	s->keep_buf[k] = buf;
	s->keep_names[k] = names;
	s->keep[k] = names;
	s->o.n_keep_together++;
	if (n < 2)
		return cli_usage_error("--keep-together '%s': want two or more members, A,B", arg);
	return 0;
}

static int sugg_option(void *ctx, struct cli_analysis *c, int o, const char *arg)
{
	struct sugg *s = ctx;
	unsigned long v;
	switch (o) {
	case OPT_PIN:
		if (s->o.n_pins == MAX_LISTS)
			return cli_usage_error("at most %d --pin members", MAX_LISTS);
		if (!arg[0])
			return cli_usage_error("--pin: want a member name");
		s->pins[s->o.n_pins++] = arg;
		return 0;
	case OPT_KEEP: return add_keep(s, arg);
	case OPT_MOVE_ANCHORS: s->o.move_anchors = true; return 0;
	case OPT_MOVE_FIRST: s->o.move_first = true; return 0;
	case OPT_C_FORM:
		if (!strcmp(optarg, "auto") || !strcmp(optarg, "kernel") ||
		    !strcmp(optarg, "user")) {
			s->c_form = optarg[0] == 'a' ? 0 : optarg[0] == 'k' ? 1 : 2;
			return 0;
		}
		return cli_usage_error("--c-form %s: want auto, kernel or user", optarg);
	case OPT_MOVE_LAST: s->o.move_last = true; return 0;
	case OPT_FROZEN: s->o.frozen = true; return 0;
	case OPT_SEP:
		if (!cli_parse_uint(arg, 8, 4096, &v) || (v & (v - 1)))
			return cli_usage_error("--separation '%s': want a power of two from 8 to 4096 (64, or 128 for line pairs)", arg);
		s->o.separation = (unsigned)v;
		return 0;
	case OPT_BASE_ALIGN: return cli_base_align_option(arg, &s->o.base_align);
	case OPT_IN: s->in = arg; return 0;
	case OPT_LINE_SIZE:
		return cli_analysis_option(c, 'c', arg, "--line-size");
	case OPT_SIZE_ONLY: s->o.size_only = true; return 0;
	case OPT_MAX:
		if (!cli_parse_uint(arg, 1, 1000, &v))
			return cli_usage_error("--max-proposals '%s': want a number from 1 to 1000", arg);
		s->o.max_proposals = v;
		return 0;
	case OPT_NR_CPUS:
		if (!cli_parse_uint(arg, 1, 1u << 16, &v))
			return cli_usage_error("--nr-cpus '%s': want a number of CPUs from 1 to 65536", arg);
		s->o.nr_cpus = (unsigned)v;
		return 0;
	case OPT_SLUB_MAX:
		if (!cli_parse_uint(arg, 0, 10, &v))
			return cli_usage_error("--slub-max-order '%s': want an order from 0 to 10", arg);
		s->o.slub_max_order = (unsigned)v;
		s->o.slub_max_order_set = true;
		return 0;
	case OPT_SOURCE_ROOT:
		if (!arg[0])
			return cli_usage_error("--source-root: want a directory");
		s->source_root = arg;
		return 0;
	case OPT_SLUB_RULE:
		if (!strcmp(arg, "6.1"))
			s->o.slub_rule = SLT_SLUB_RULE_6_1;
		else if (!strcmp(arg, "6.8"))
			s->o.slub_rule = SLT_SLUB_RULE_6_8;
		else
			return cli_usage_error("--slub-rule '%s': want 6.1 or 6.8", arg);
		return 0;
	}
	return 1;
}

static int parse_args(int argc, char **argv, struct cli_analysis *c,
		      struct sugg *s)
{
	int rc = cli_analysis_parse(argc, argv, long_opts, c, sugg_option, s,
				    usage_head, usage_tail);
	return rc ? rc : cli_pictures_setup(c);
}

/* Fill in what the CLI decides for the advisor: the line size, and the CPU
 * count (this machine's configured CPUs) so the output can name it. */
static void sugg_finish(struct sugg *s, const struct cli_analysis *c)
{
	s->o.pins = s->pins;
	s->o.keep_together = s->keep;
	s->o.cacheline_size = c->ropts.cacheline_size;
	/* --adjacent: the analysis looks at aligned 128-byte line pairs, so
	 * the proposals keep the groups a pair apart too */
	if (!s->o.separation && c->aopts.adjacent &&
	    2 * c->ropts.cacheline_size > s->o.cacheline_size)
		s->o.separation = 2 * c->ropts.cacheline_size;
	if (!s->o.nr_cpus) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		s->o.nr_cpus = n > 0 ? (unsigned)n : 1;
	}
}

/* Findings left in each proposal, by analysing its layout again with the
 * same classes: the classes file's, or with samples (a profile is joined
 * against the original offsets) the classes the analysis a gave each
 * member.  left[i] -1: not checked; after[i] the analysis (the maps mark
 * its findings) and g[i] its classes, freed by the caller.  An instance
 * placed by --in or --base-align is analysed where it may start: a
 * finding at any of its starts is left. */
static int recheck(const struct cli_analysis *c, const struct slt_analysis *a,
		   const struct slt_advice *adv, const struct slt_advice_opts *o,
		   ssize_t *left, struct slt_analysis **after, enum slt_class **g,
		   struct slt_error *err)
{
	for (size_t i = 0; i < adv->n_proposals; i++) {
		left[i] = -1;
		if (!c->classes && !c->samples)
			continue;
		const struct slt_struct *s = &adv->proposals[i].layout;
		struct slt_analysis_opts ao = c->aopts;
		/* a separation of a line pair is checked as --adjacent does */
		if (o->separation >= 2 * c->ropts.cacheline_size)
			ao.adjacent = true;
		ao.line_origin = (uint32_t)(o->base_offset % c->ropts.cacheline_size);
		ao.base_align = o->base_align;
		g[i] = c->samples ? cli_measured_classes(a, s) : cli_given_classes(c->classes, s);
		if (!g[i])
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		ao.given = g[i];
		ao.given_label = cli_given_labels(g[i], s);
		int rc = slt_analyze(s, NULL, &ao, &after[i], err);
		if (rc)
			return rc;
		left[i] = (ssize_t)after[i]->n_findings;
	}
	return 0;
}

/* The advice for a (definition index of the layout): on stdout as text,
 * JSON or map, and into the HTML page html (NULL: none; stdout: the page
 * only). */
static int advise_one(const struct cli_analysis *c, const struct slt_analysis *a,
		      const struct sugg *s, bool json, FILE *html, size_t index,
		      struct slt_error *err)
{
	struct slt_advice *adv = NULL;
	struct slt_advice_opts o = s->o;
	o.user_space = s->c_form == 2 || (!s->c_form && !cli_kernel_binary(c->file));
	int rc = slt_advise(a, &o, &adv, err);
	if (rc)
		return rc;
	/* --in: the container's growth priced too */
	const char *in = s->in ? s->in : c->in;
	if (in && (rc = cli_container_cost(c->file, &c->lopts, in, &o, adv, err))) {
		slt_advice_free(adv);
		return rc;
	}
	ssize_t *left = calloc(adv->n_proposals + 1, sizeof(*left));
	char **diffs = calloc(adv->n_proposals + 1, sizeof(*diffs));
	struct slt_analysis **after = calloc(adv->n_proposals + 1, sizeof(*after));
	enum slt_class **g = calloc(adv->n_proposals + 1, sizeof(*g));
	if (!left || !diffs || !after || !g)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc)
		rc = recheck(c, a, adv, &s->o, left, after, g, err);
	for (size_t i = 0; !rc && c->use_static && after && i < adv->n_proposals; i++)
		if (after[i])
			cli_static_unclassified_warn(after[i], i + 1, c->file);
	for (size_t i = 0; !rc && s->source_root && i < adv->n_proposals; i++)
		rc = slt_advice_diff(&adv->proposals[i], a->layout, s->source_root,
				     &diffs[i], err);
	size_t positional;
	if (!rc && s->source_root && adv->n_proposals)
		rc = cli_positional_warn(s->source_root, a->layout, &positional, err);
	/* static classes: said in stdout and the JSON as report's (static) */
	char static_basis[1400] = "";
	if (c->use_static)
		cli_static_basis(static_basis, sizeof(static_basis), c->file,
				 c->n_classes ? c->classes_joined : NULL);
	struct slt_advice_report_opts r = {
		.nr_cpus = s->o.nr_cpus,
		.separation = s->o.separation ? s->o.separation : c->ropts.cacheline_size,
		.diffs = (const char *const *)diffs,
		.findings_after = left,
		.analysis_after = (const struct slt_analysis *const *)after,
		.basis = a->profile && !strncmp(a->profile->base_note, SLT_IPW_BASIS,
						 strlen(SLT_IPW_BASIS)) ? a->profile->base_note :
			 static_basis[0] ? static_basis : NULL,
	};
	if (!rc && html)
		rc = slt_report_html_struct(html, index, a, adv, &c->ropts, &r, err);
	if (rc || html == stdout)
		;
	else if (c->map)
		rc = slt_report_advice_map(stdout, adv, &c->ropts, &r, err);
	else if (json)
		rc = slt_report_advice_json(stdout, adv, &c->ropts, &r, err);
	else
		rc = slt_report_advice_text(stdout, adv, &c->ropts, &r, err);
	for (size_t i = 0; i < adv->n_proposals; i++) {
		free(diffs ? diffs[i] : NULL);
		if (after)
			slt_analysis_free(after[i]);
		free(g ? g[i] : NULL);
	}
	free(diffs);
	free(after);
	free(g);
	free(left);
	slt_advice_free(adv);
	return rc;
}

int cli_suggest_text(const struct cli_analysis *c, const struct slt_analysis *a,
		     FILE *html, size_t index, struct slt_error *err)
{
	struct sugg s;
	memset(&s, 0, sizeof(s));
	sugg_finish(&s, c);
	/* report --base-align / --in place the instance for the advice too */
	s.o.base_align = c->base_align;
	s.o.embedded = c->in != NULL;
	int rc = c->in ? cli_instance_offset(c->file, &c->lopts, c->in, a->layout,
					     &s.o.base_offset, err) : 0;
	if (!c->in && c->jopts.has_base && !c->samples)
		s.o.base_offset = c->jopts.base % c->ropts.cacheline_size;
	return rc ? rc : advise_one(c, a, &s, false, html, index, err);
}

int cmd_suggest(int argc, char **argv)
{
	struct cli_analysis c;
	struct sugg s;
	cli_analysis_init(&c);
	memset(&s, 0, sizeof(s));
	int rc = parse_args(argc, argv, &c, &s);
	if (rc) {
		sugg_free(&s);
		return rc < 0 ? SLT_EXIT_OK : rc;   /* --help, or usage error */
	}
	sugg_finish(&s, &c);
	/* blocks of the separation are whole lines, or the analysis and the
	 * padding (whole lines) cannot keep groups apart */
	unsigned line = s.o.cacheline_size ? s.o.cacheline_size : SLT_CACHELINE_DEFAULT;
	if (s.o.separation && (s.o.separation < line || s.o.separation % line)) {
		sugg_free(&s);
		return cli_usage_error("--separation %u: want a multiple of the cacheline "
				       "size (%u bytes) and at least it: %u, or %u for "
				       "adjacent-line pairs", s.o.separation, line, line,
				       2 * line);
	}
	if ((s.in || s.o.base_align) && !c.samples && (c.jopts.has_base || c.base_symbol)) {
		sugg_free(&s);
		return cli_usage_error("--base places the instance at one address; --in and --base-align say where it may start: give one or the other");
	}
	c.classes_optional = s.o.size_only;
	struct slt_error err;
	slt_error_clear(&err);
	size_t n_findings = 0;
	rc = cli_analysis_load(&c, argv + optind, argc - optind, &err);
	FILE *html = NULL;
	if (!rc)
		rc = cli_html_open(&c, &html, &err);
	for (size_t i = 0; !rc && i < c.layout->n_structs; i++) {
		struct slt_analysis *a = NULL;
		enum slt_class *g = NULL;
		if (i && !c.json && html != stdout)
			fputc('\n', stdout);
		s.o.embedded = s.in != NULL;
		if (s.in)
			rc = cli_instance_offset(c.file, &c.lopts, s.in, &c.layout->structs[i],
						 &s.o.base_offset, &err);
		else if (c.jopts.has_base && !c.samples)
			s.o.base_offset = c.jopts.base % c.ropts.cacheline_size;
		if (!rc)
			rc = cli_analysis_run(&c, i, &a, &g, &err);
		if (!rc) {
			n_findings += a->n_findings;
			rc = advise_one(&c, a, &s, c.json, html, i, &err);
		}
		slt_analysis_free(a);
		free(g);
	}
	rc = cli_html_close(&c, html, rc, &err);
	cli_analysis_release(&c);
	sugg_free(&s);
	return cli_finish(rc, &err, c.fail && n_findings ? SLT_EXIT_FINDINGS : SLT_EXIT_OK);
}
