/* SPDX-License-Identifier: MIT */
/*
 * `structlint report [OPTIONS] [FILE] NAME`: the layout annotated with
 * access statistics and classes, and the ranked sharing findings.  The
 * layout command hands over here when it is given --samples or --classes,
 * so `structlint FILE NAME --samples X` works too.  Options, loading and
 * the analysis are shared with `suggest` (analysis_args.c); --suggest
 * appends suggest's text (cmd_suggest.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/analysis_args.h"
#include "cli/cli.h"
#include "cli/static_classes.h"
#include "structlint/analysis.h"
#include "structlint/gate.h"
#include "structlint/map_report.h"

#ifndef STRUCTLINT_VERSION
#define STRUCTLINT_VERSION "0.1.0"
#endif

static const char usage_head[] =
"usage: structlint report [OPTIONS] [FILE] NAME\n"
"       structlint [FILE] NAME --samples PROFILE | --classes CLASSES [OPTIONS]\n"
"\n"
"Show NAME's layout annotated per member with its access class, loads,\n"
"stores, HITM and a heat mark, then the cache-line findings ranked by score:\n"
"read-mostly/hot-write collisions, write-write false sharing between CPUs,\n"
"true sharing (not fixable by layout), hot members straddling two lines and,\n"
"with --adjacent, 128-byte line-pair interference.\n"
"\n";

static const char usage_tail[] =
"instance (with --classes, not --samples):\n"
"      --base-align N         the instance's base is only known to be a\n"
"                             multiple of N (an embedded instance, a slab\n"
"                             without SLAB_HWCACHE_ALIGN; classes only): the\n"
"                             members are analysed at each start the\n"
"                             instance may have in a line, and each finding\n"
"                             says at which it holds (every base, or only\n"
"                             some: which)\n"
"      --in CONTAINER.MEMBER  the instance is that member of CONTAINER (a\n"
"                             struct of FILE; a dotted path), whose base is\n"
"                             line-aligned or a multiple of --base-align\n"
"output:\n"
"  -j, --json                 JSON (schema structlint.report/v1)\n"
"  -p, --pretty               indent the JSON (implies --json)\n"
"      --sarif                the findings as SARIF 2.1.0 (one warning per\n"
"                             finding, rule finding-KIND; properties.bases\n"
"                             with --base-align; on exit 2, usage errors\n"
"                             included, a log with the error); --html FILE\n"
"                             may go with it\n"
"      --fail-on-findings     exit 1 when anything is flagged\n"
"      --suggest              also print the layout advisor's proposals\n"
"                             (structlint suggest's text, or its map with\n"
"                             --map, and in the --html page; not with --json)\n"
CLI_PICTURES_USAGE
"  -c, --cacheline N          cache line size in bytes (default 64)\n"
"  -E, --expand               annotate members of nested structs inline\n"
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
"error (one line on stderr).\n";

enum { OPT_SUGGEST = CLI_OPT_OWN, OPT_BASE_ALIGN, OPT_IN, OPT_SARIF };

/* report's own options. */
struct rep {
	bool suggest;
	bool sarif;
};

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	{ "suggest", no_argument, NULL, OPT_SUGGEST },
	{ "base-align", required_argument, NULL, OPT_BASE_ALIGN },
	{ "in", required_argument, NULL, OPT_IN },
	{ "sarif", no_argument, NULL, OPT_SARIF },
	{ NULL, 0, NULL, 0 },
};

static int report_option(void *ctx, struct cli_analysis *c, int o,
			 const char *arg)
{
	struct rep *r = ctx;
	switch (o) {
	case OPT_SUGGEST: r->suggest = true; return 0;
	case OPT_SARIF: r->sarif = true; return 0;
	case OPT_BASE_ALIGN: return cli_base_align_option(arg, &c->base_align);
	case OPT_IN: c->in = arg; return 0;
	}
	return 1;
}

/* 0, -1 for --help, or SLT_EXIT_ERROR. */
static int parse_args(int argc, char **argv, struct cli_analysis *c,
		      struct rep *rp)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (cli_suggest_only_option(argv[i]))
			return cli_usage_error("%s is an option of structlint suggest (report --suggest "
					       "takes suggest's defaults: run structlint suggest with "
					       "the same FILE, NAME and profile to set it)", argv[i]);
	int rc = cli_analysis_parse(argc, argv, long_opts, c, report_option,
				    rp, usage_head, usage_tail);
	if (rc)
		return rc;
	if (rp->suggest && c->json)
		return cli_usage_error("--suggest prints text; for JSON run structlint suggest --json");
	if (rp->sarif && c->ropts.pretty)
		c->json = false;     /* --pretty indents the SARIF log */
	/* the SARIF log on stdout; a page beside it goes to a FILE (what a CI
	 * job uploads together), never to stdout */
	if (rp->sarif && (c->json || c->map || (c->html && !strcmp(c->html, "-")) || rp->suggest))
		return cli_usage_error("--sarif writes the findings alone on stdout: leave out --json, --map, --html - and --suggest (--html FILE may go with it)");
	unsigned cl = c->ropts.cacheline_size ? c->ropts.cacheline_size : SLT_CACHELINE_DEFAULT;
	if ((c->in || c->base_align) && c->samples)
		return cli_usage_error("--in and --base-align place an instance analysed from classes; with --samples the samples place it (--base ADDR|SYMBOL)");
	if ((c->in || c->base_align) && (c->jopts.has_base || c->base_symbol))
		return cli_usage_error("--base places the instance at one address; --in and --base-align say where it may start: give one or the other");
	if (c->base_align && c->base_align < cl / 64)
		return cli_usage_error("--base-align %u: at most 64 starts in a %u-byte line are analysed: want at least %u",
				       c->base_align, cl, cl / 64);
	return cli_pictures_setup(c);
}

static int report_one(const struct cli_analysis *c, size_t i, bool suggest,
		      FILE *html, struct slt_gate_result *sarif, size_t *n_findings,
		      struct slt_error *err)
{
	struct slt_analysis *a = NULL;
	enum slt_class *g = NULL;
	int rc = cli_analysis_run(c, i, &a, &g, err);
	/* the basis of each output; merged static and given classes name
	 * each member's own source */
	struct slt_report_opts ro = c->ropts;
	char basis[1400] = "";
	if (!rc && c->use_static)
		cli_static_basis(basis, sizeof(basis), c->file, c->n_classes ? c->classes_joined : NULL);
	else if (!rc && a->profile && a->profile->ip_recorded)
		snprintf(basis, sizeof(basis), "%s", a->profile->base_note);
	ro.basis = basis[0] ? basis : NULL;
	if (!rc && g && c->classes && c->use_static && c->n_classes)
		ro.member_sources = cli_given_sources(g, &c->layout->structs[i]);
	if (!rc) {
		*n_findings += a->n_findings;
		if (html == stdout)
			;                        /* --html -: the page only */
		else if (sarif) {
			sarif->n_structs_checked++;
			if (slt_report_findings_violations(a, sarif))
				rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		} else if (c->map)
			rc = slt_report_analysis_map(stdout, a, &ro, err);
		else if (c->json)
			rc = slt_report_analysis_json(stdout, a, &ro, err);
		else
			rc = slt_report_analysis_text(stdout, a, &ro, err);
	}
	if (!rc && html && !suggest) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		struct slt_advice_report_opts r = { .nr_cpus = n > 0 ? (unsigned)n : 1 };
		rc = slt_report_html_struct(html, i, a, NULL, &ro, &r, err);
	}
	if (!rc && suggest) {
		if (html != stdout)
			fputc('\n', stdout);
		rc = cli_suggest_text(c, a, html, i, err);
	}
	slt_analysis_free(a);
	free(g);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct cli_analysis c;
	struct rep rp = { 0 };
	cli_analysis_init(&c);
	bool sarif_asked = cli_argv_sarif(argc, argv);
	int rc = parse_args(argc, argv, &c, &rp);
	if (rc < 0)
		return SLT_EXIT_OK;              /* --help */
	if (rc) {
		/* a usage error in the options (printed): --sarif, parsed or
		 * on the command line, still gets its log for the upload */
		if (rp.sarif || sarif_asked)
			cli_sarif_failure(NULL, NULL);
		return rc;
	}
	struct slt_error err;
	slt_error_clear(&err);
	size_t n_findings = 0;
	rc = cli_analysis_load(&c, argv + optind, argc - optind, &err);
	if (rc > 0) {                            /* usage error, printed */
		if (rp.sarif)
			cli_sarif_failure(NULL, c.file);
		return rc;
	}
	FILE *html = NULL;
	struct slt_gate_result *sarif = NULL;
	if (!rc)
		rc = cli_html_open(&c, &html, &err);
	if (!rc && rp.sarif)
		rc = slt_gate_result_new(&sarif, &err);
	for (size_t i = 0; !rc && i < c.layout->n_structs; i++) {
		if (i && !c.json && !sarif && html != stdout)
			fputc('\n', stdout);
		rc = report_one(&c, i, rp.suggest, html, sarif, &n_findings, &err);
	}
	if (!rc && sarif) {
		char cwd[4096];
		struct slt_gate_write_opts wo = { .input = c.file ? c.file : "",
						  .pretty = c.ropts.pretty,
						  .version = STRUCTLINT_VERSION,
						  .cwd = getcwd(cwd, sizeof(cwd)) };
		char basis[1400] = "";
		if (c.use_static)
			cli_static_basis(basis, sizeof(basis), c.file,
					 c.n_classes ? c.classes_joined : NULL);
		else if (c.profiles && c.profiles[0] && c.profiles[0]->ip_recorded)
			snprintf(basis, sizeof(basis), "%s", c.profiles[0]->base_note);
		wo.basis = basis[0] ? basis : NULL;
		rc = slt_gate_write_sarif(stdout, sarif, &wo, &err);
	}
	slt_gate_result_free(sarif);
	rc = cli_html_close(&c, html, rc, &err);
	int ex = cli_finish(rc, &err, c.fail && n_findings ? SLT_EXIT_FINDINGS : SLT_EXIT_OK);
	/* --sarif: a log saying the run did not complete, as check writes */
	if (rp.sarif && ex == SLT_EXIT_ERROR)
		cli_sarif_failure(&err, c.file);
	cli_analysis_release(&c);
	return ex;
}
