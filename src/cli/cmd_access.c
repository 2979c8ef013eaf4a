/* SPDX-License-Identifier: MIT */
/*
 * `structlint access [OPTIONS] FILE NAME...`: the static access map of
 * FILE (include/structlint/access.h) seen from each struct NAME.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/analysis_args.h"
#include "cli/cli.h"
#include "cli/static_classes.h"
#include "structlint/access.h"
#include "structlint/layout.h"
#include "structlint/report.h"

static const char usage[] =
"usage: structlint access [OPTIONS] FILE NAME...\n"
"\n"
"Which instructions of FILE load, store, atomically modify (lock prefix,\n"
"xchg) or take the address of (lea) each member of the struct or union\n"
"NAME, found without running anything: the machine code is decoded\n"
"(capstone) and each memory operand's base register is typed from the\n"
"DWARF locations of the variables and parameters in scope (inlined ones\n"
"included) and by following the types through moves, loads of pointer\n"
"members, lea, spills and calls.  Prints the layout with per member\n"
"ld= st= rmw= (sites) and funcs= (distinct functions), and the share of\n"
"memory operands in the functions touching NAME that could be attributed,\n"
"with the reasons for the rest.  Counts are instructions, not executions.\n"
"\n"
"FILE: an x86-64 executable, shared object or vmlinux with DWARF (-g),\n"
"with its code (not a separate debug file).\n"
"\n"
"options:\n"
"  -s, --sites          list every site: member, kind, width, function+offset,\n"
"                       source file:line, instruction ([tracked]: the type\n"
"                       came from propagation, not from a DWARF variable)\n"
"  -j, --json           JSON on stdout (schema structlint.access/v1)\n"
"  -p, --pretty         indent the JSON (implies --json)\n"
"  -c, --cacheline N    cache line size in bytes (default 64)\n"
"  -w, --write-classes F  write member classes from the map to F (a classes\n"
"                       file, '-' for stdout, the layout then not printed):\n"
"                       one line per top-level member with its evidence,\n"
"                       by the rule of structlint(1), STATIC CLASSES; review\n"
"                       it, then give it to --classes\n"
"      --no-cache       neither read nor write the cached map (the whole-\n"
"                       binary pass runs once per binary, build-id keyed, in\n"
"                       $STRUCTLINT_CACHE_DIR, else $XDG_CACHE_HOME/structlint,\n"
"                       ~/.cache/structlint; progress on a terminal)\n"
"  -h, --help           this help\n"
"\n"
"exit status: 0 ok, 2 usage or input error (one line on stderr).\n";

static const struct option long_opts[] = {
	{ "sites", no_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "cacheline", required_argument, NULL, 'c' },
	{ "write-classes", required_argument, NULL, 'w' },
	{ "no-cache", no_argument, NULL, 'N' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int write_classes(const char *path, struct slt_access_map *map,
			 struct slt_access_summary **sums, size_t n,
			 struct slt_error *err)
{
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdout : fopen(path, "w");
	if (!f)
		return slt_error_set(err, SLT_EIO, path, -1, "check the directory exists and is writable",
				     "cannot create: %s", strerror(errno));
	int rc = slt_access_classes_write(f, map, sums, n, err);
	if (!std && fclose(f) && !rc)
		rc = slt_error_set(err, SLT_EIO, path, -1, NULL, "write error: %s", strerror(errno));
	if (rc == SLT_EIO && !err->file[0])
		snprintf(err->file, sizeof(err->file), "%s", path);
	return rc;
}

int cmd_access(int argc, char **argv)
{
	struct slt_access_write_opts wo = { 0 };
	struct slt_report_opts ro = { .cacheline_size = SLT_CACHELINE_DEFAULT };
	bool json = false;
	const char *classes_out = NULL;
	bool no_cache = false;
	unsigned long v;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":sjpc:w:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 's':
			wo.sites = true;
			break;
		case 'j':
			json = true;
			break;
		case 'p': /* implies --json, as in bpftool */
			wo.pretty = ro.pretty = json = true;
			break;
		case 'c':
			if (!cli_parse_uint(optarg, 8, 4096, &v) || (v & (v - 1)))
				return cli_usage_error("--cacheline '%s': want a power of two from 8 to 4096", optarg);
			ro.cacheline_size = (unsigned)v;
			break;
		case 'w':
			classes_out = optarg;
			break;
		case 'N':
			no_cache = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return SLT_EXIT_OK;
		case ':':
			return cli_cmd_usage("access", "option '%s' needs an argument", argv[optind - 1]);
		default:
			return cli_cmd_usage("access", "unknown option '%s'", argv[optind - 1]);
		}
	}
	char **ops = argv + optind;
	int n_ops = argc - optind;
	if (n_ops < 2)
		return cli_cmd_usage("access", n_ops ? "name at least one struct or union after '%s'"
						      : "give FILE and at least one struct or union%s",
				     n_ops ? ops[0] : "");
	const char *file = ops[0];
	const char *const *names = (const char *const *)ops + 1;
	size_t n_names = (size_t)n_ops - 1;

	struct slt_error err;
	slt_error_clear(&err);
	/* expanded (pahole -E): sites go to the innermost member */
	struct slt_load_opts lo = { .n_formats = 1, .formats = { SLT_FORMAT_DWARF },
				    .expand = true, .no_cache = no_cache };
	struct slt_layout *layout = NULL;
	struct slt_access_map *map = NULL;
	struct slt_access_summary **sums = NULL;
	/* raw BTF, another machine: said before the layout (whose error, a
	 * relocatable object's unrelocated DWARF, would hide it) */
	struct stat st;
	int rc = stat(file, &st) ? cli_no_such_file(file, &err) : slt_access_check_file(file, &err);
	if (!rc)
		rc = slt_layout_load(file, names, n_names, &lo, &layout, &err);
	if (!rc) {
		/* the whole-binary map, cached by build-id (read back for
		 * the named structs and their members' types: --write-classes
		 * reads the sites of embedded members' own types too) */
		rc = cli_access_map_for(file, layout, no_cache, &map, &err);
	}
	if (!rc && !(sums = calloc(layout->n_structs + 1, sizeof(*sums))))
		rc = slt_error_set(&err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (size_t i = 0; !rc && i < layout->n_structs; i++)
		rc = slt_access_summarize(map, &layout->structs[i], &sums[i], &err);
	if (!rc && classes_out)
		rc = write_classes(classes_out, map, sums, layout->n_structs, &err);
	else if (!rc)
		rc = json ? slt_report_access_json(stdout, map, sums, layout->n_structs, &wo, &err)
			  : slt_report_access_text(stdout, map, sums, layout->n_structs, &ro, &wo, &err);
	for (size_t i = 0; sums && layout && i < layout->n_structs; i++)
		slt_access_summary_free(sums[i]);
	free(sums);
	slt_access_free(map);
	slt_layout_free(layout);
	return cli_finish(rc, &err, SLT_EXIT_OK);
}
