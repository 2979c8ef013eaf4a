/* SPDX-License-Identifier: MIT */
/*
 * `structlint [layout] [OPTIONS] [FILE] NAME...`: show struct layouts.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "structlint/layout.h"
#include "structlint/report.h"

#ifndef STRUCTLINT_VERSION
#define STRUCTLINT_VERSION "0.1.0"
#endif

static const char usage[] =
"usage: structlint [layout] [OPTIONS] [FILE] NAME...\n"
"       structlint [layout] --all [OPTIONS] [FILE]\n"
"       structlint [layout] --list PATTERN [OPTIONS] [FILE]\n"
"\n"
"Show the layout of each struct or union NAME as read from FILE's DWARF or\n"
"BTF, in pahole's format: members with offset and size, holes, padding and\n"
"cacheline boundaries.  Without FILE, the running kernel's BTF\n"
"(" SLT_KERNEL_BTF_PATH ") is read.  FILE is the first operand when it\n"
"names an existing file or contains a '/'.\n"
"\n"
"FILE: ELF executable, shared object, vmlinux, kernel module (.ko), object\n"
"file, separate debug file, or raw BTF.  A stripped FILE's debug info is\n"
"found through its build-id or .gnu_debuglink under the debug root.\n"
"Split DWARF (-gsplit-dwarf): give the .dwo file or a .dwp package as FILE;\n"
"the executable holds only skeleton units.\n"
"\n"
"options:\n"
"  -j, --json              JSON on stdout (schema structlint.layout/v1)\n"
"  -p, --pretty            indent the JSON (implies --json)\n"
"  -c, --cacheline N       cache line size in bytes, a power of two\n"
"                          (default 64; 128 for e.g. POWER, some arm64)\n"
"  -E, --expand            show members of nested structs and unions inline\n"
"  -a, --all               every struct and union, as pahole without -C\n"
"                          prints them, in file order: each name once, and\n"
"                          again for each later definition that differs\n"
"                          (size, member names, offsets or bit sizes)\n"
"  -l, --list PATTERN      list struct and union names matching the glob\n"
"                          PATTERN, with their sizes\n"
"  -F, --format-path LIST  debug formats to read, in order: dwarf,btf\n"
"                          (default: dwarf when FILE has DWARF, else btf)\n"
"      --decl              print each struct's declaration file:line\n"
"                          (default on a terminal, and always for a name\n"
"                          with several distinct definitions)\n"
"      --color WHEN        auto (default: on a terminal), always, never;\n"
"                          NO_COLOR in the environment turns auto off\n"
"      --debug-root DIR    where separate debug files live\n"
"                          (default /usr/lib/debug)\n"
"      --no-cache          neither read nor write the name index kept per\n"
"                          build-id in $STRUCTLINT_CACHE_DIR, else\n"
"                          $XDG_CACHE_HOME/structlint (~/.cache/structlint)\n"
"  -h, --help              this help\n"
"  -V, --version           print the version\n"
"\n"
"commands (each has its own --help):\n"
"  layout    this view (the default command)\n"
"  record    sample memory accesses (or cpu-clock IPs) of a command\n"
"  report    annotate the layout with loads, stores and member classes\n"
"            (--samples PROFILE or --classes C) and rank false sharing\n"
"            per cache line\n"
"  suggest   propose layouts (reorderings, CACHELINE_PADDING) that remove\n"
"            the findings, with their byte, cacheline and slab cost\n"
"  engine    run the reference stats engine on a layout\n"
"  validate  measure the original layout against a proposal (A/B runs)\n"
"  check     CI gate: rules, kernel cacheline groups, baselines; SARIF\n"
"  baseline  record layouts and member classes for check --baseline\n"
"  access    static member accesses from the machine code (x86-64 ELF\n"
"            with DWARF): load/store/RMW sites per member, coverage\n"
"\n"
"exit status: 0 ok, 2 usage or input error (one line on stderr).\n"
"See structlint(1) for the JSON schema and the rules for choosing inputs.\n";

enum { OPT_COLOR = 256, OPT_DEBUG_ROOT, OPT_DECL, OPT_NO_CACHE };

static const struct option long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "cacheline", required_argument, NULL, 'c' },
	{ "expand", no_argument, NULL, 'E' },
	{ "list", required_argument, NULL, 'l' },
	{ "all", no_argument, NULL, 'a' },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "format-path", required_argument, NULL, 'F' },
	{ "decl", no_argument, NULL, OPT_DECL },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "colour", required_argument, NULL, OPT_COLOR },
	{ "debug-root", required_argument, NULL, OPT_DEBUG_ROOT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Parse "dwarf,btf" into opts->formats. */
static int parse_formats(const char *arg, struct slt_load_opts *opts)
{
	char buf[64];
	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return -1;
	opts->n_formats = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		enum slt_format f = slt_format_parse(tok);
		if (f == SLT_FORMAT_NONE || opts->n_formats == 2)
			return -1;
		for (size_t i = 0; i < opts->n_formats; i++)
			if (opts->formats[i] == f)
				return -1;
		opts->formats[opts->n_formats++] = f;
	}
	return opts->n_formats ? 0 : -1;
}

static bool is_file_operand(const char *s)
{
	struct stat st;
	return strchr(s, '/') || stat(s, &st) == 0;
}

int cmd_layout(int argc, char **argv)
{
	struct slt_load_opts lopts = { 0 };
	struct slt_report_opts ropts = { .cacheline_size = SLT_CACHELINE_DEFAULT };
	bool json = false, decl_forced = false, all = false;
	const char *list_pattern = NULL;
	int color = CLI_COLOR_AUTO;
	unsigned long v;
	int c;

	/* With samples or classes the view is the annotated one. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--samples", 9) || !strncmp(argv[i], "--classes", 9) ||
		    !strcmp(argv[i], "-s") || !strcmp(argv[i], "-C"))
			return cmd_report(argc, argv);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jpc:El:F:ahV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'p': /* implies --json, as in bpftool */
			ropts.pretty = json = true;
			break;
		case 'c':
			if (!cli_parse_uint(optarg, 8, 4096, &v) || (v & (v - 1)))
				return cli_usage_error("--cacheline '%s': want a power of two from 8 to 4096", optarg);
			ropts.cacheline_size = (unsigned)v;
			break;
		case 'E':
			lopts.expand = true;
			break;
		case 'l':
			list_pattern = optarg;
			break;
		case 'a':
			all = true;
			break;
		case OPT_NO_CACHE:
			lopts.no_cache = true;
			break;
		case 'F':
			if (parse_formats(optarg, &lopts) < 0)
				return cli_usage_error("--format-path '%s': want a comma-separated list of dwarf, btf", optarg);
			break;
		case OPT_DECL:
			decl_forced = true;
			break;
		case OPT_COLOR:
			color = cli_parse_color(optarg);
			if (color < 0)
				return cli_usage_error("--color '%s': want auto, always or never", optarg);
			break;
		case OPT_DEBUG_ROOT:
			lopts.debug_root = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return SLT_EXIT_OK;
		case 'V':
			printf("structlint %s\n", STRUCTLINT_VERSION);
			return SLT_EXIT_OK;
		case ':':
			return cli_usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			return cli_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}

	char **ops = argv + optind;
	int n_ops = argc - optind;
	const char *file = NULL;
	if (list_pattern && all)
		return cli_usage_error("--all and --list do not go together");
	if (list_pattern || all) {
		if (n_ops > 1)
			return cli_usage_error("%s takes at most one FILE operand",
					       all ? "--all" : "--list");
		file = n_ops ? ops[0] : NULL;
	} else {
		if (n_ops > 0 && is_file_operand(ops[0])) {
			file = ops[0];
			ops++;
			n_ops--;
		}
		if (n_ops == 0)
			return cli_usage_error(file ? "name at least one struct or union after '%s'"
						    : "name at least one struct or union%s", file ? file : "");
	}

	ropts.color = cli_use_color(color);
	ropts.decl = decl_forced || isatty(STDOUT_FILENO);

	struct slt_error err;
	slt_error_clear(&err);
	int rc;
	if (list_pattern) {
		struct slt_type_list *list = NULL;
		rc = slt_layout_list(file, list_pattern, &lopts, &list, &err);
		if (rc == 0)
			rc = slt_report_type_list(stdout, list, json, &ropts, &err);
		/* an empty answer is an answer (exit 0), but not a silent one */
		if (rc == 0 && list->n_types == 0) {
			char f[512], pat[512];
			slt_escape_controls(file ? file : "/sys/kernel/btf/vmlinux", f,
					    sizeof(f));
			slt_escape_controls(list_pattern, pat, sizeof(pat));
			fprintf(stderr, "structlint: %s: no struct or union name "
				"matches '%s'\n", f, pat);
		}
		slt_type_list_free(list);
	} else {
		struct slt_layout *layout = NULL;
		rc = all ? slt_layout_load_all(file, &lopts, &layout, &err)
			 : slt_layout_load(file, (const char *const *)ops,
					   (size_t)n_ops, &lopts, &layout, &err);
		if (rc == 0)
			rc = json ? slt_report_layout_json(stdout, layout, &ropts, &err)
				  : slt_report_layout_text(stdout, layout, &ropts, &err);
		else if (rc == SLT_ENOTFOUND && !file && !all)
			cli_note_no_file(&err, ops[0]);
		slt_layout_free(layout);
	}
	return cli_finish(rc, &err, SLT_EXIT_OK);
}
