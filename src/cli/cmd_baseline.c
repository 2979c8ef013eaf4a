/* SPDX-License-Identifier: MIT */
/*
 * `structlint baseline [OPTIONS] [FILE] STRUCT...`: record the layouts of
 * STRUCT... with their member classes as one structlint.baseline/v1 JSON
 * document on stdout, for `structlint check --baseline`.  Inputs, classes
 * and samples are loaded and analysed per struct by the code `report` and
 * `suggest` share (analysis_args.c); --classes may be given once per
 * struct (each file is used for the structs it names).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/analysis_args.h"
#include "cli/cli.h"
#include "structlint/baseline.h"
#include "structlint/rules.h"

static const char usage_head[] =
"usage: structlint baseline [OPTIONS] [FILE] STRUCT... > BASELINE.json\n"
"\n"
"Record the layout of each STRUCT (size, alignment, declaration, members\n"
"with offsets, sizes, bitfields, types, alignment, flags and cachelines,\n"
"holes) and each member's access class as JSON (structlint.baseline/v1).\n"
"`structlint check FILE --baseline BASELINE.json` then fails when a later\n"
"build puts a hot-written member on a read-mostly one's line, grows the\n"
"struct by a line, lacks a struct, ... and warns when a classed member\n"
"moved to another line (see structlint(1), BASELINE).  Without --classes or --samples, members inside\n"
"a kernel cacheline group whose name implies a class are recorded with it\n"
"(read-mostly, or hot-write for a written group); every other member as\n"
"none (unknown).  The baseline records FILE and the classes file by their\n"
"base names, so it is the same on every machine; keep it in the tree with\n"
"--pretty.\n"
"\n";

static const char usage_tail[] =
"output:\n"
"  (--classes is repeatable: the files are merged; a struct no file names\n"
"  is recorded without classes, except kernel cacheline-group members)\n"
"      --suppress FILE        copy the suppressions of FILE\n"
"                             (structlint.suppressions/v1) into the baseline\n"
"  -p, --pretty               indent the JSON (implies --json)\n"
"  -c, --cacheline N          cache line size in bytes (default 64)\n"
"  -F, --format-path LIST     debug formats to read: dwarf,btf\n"
"      --debug-root DIR       where separate debug files live\n"
"      --no-cache             neither read nor write the cached name\n"
"                             index and static access map (in\n"
"                             $STRUCTLINT_CACHE_DIR, else $XDG_CACHE_HOME/\n"
"                             structlint, ~/.cache/structlint; structlint(1)\n"
"                             FILES)\n"
"  -h, --help                 this help\n"
"\n"
"exit status: 0 ok, 2 usage or input error (one line on stderr).\n";

enum { OPT_SUPPRESS = CLI_OPT_OWN };

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	{ "suppress", required_argument, NULL, OPT_SUPPRESS },
	{ NULL, 0, NULL, 0 },
};

struct args {
	struct cli_analysis t;           /* the parsed options */
	const char *suppress;
	bool help;                       /* -h/--help was given */
};

static int baseline_option(void *ctx, struct cli_analysis *c, int o,
			   const char *arg)
{
	(void)c;
	(void)arg;
	if (o == 'h') {            /* the shared help says inputs are needed */
		((struct args *)ctx)->help = true;
		return 0;
	}
	if (o != OPT_SUPPRESS)
		return 1;
	((struct args *)ctx)->suppress = arg;
	return 0;
}

/* 0, -1 for --help, or SLT_EXIT_ERROR.  The help is the shared one with
 * its "inputs (at least one):" heading replaced: baseline needs none. */
static int parse_args(int argc, char **argv, struct args *a)
{
	int rc = cli_analysis_parse(argc, argv, long_opts, &a->t, baseline_option,
				    a, usage_head, usage_tail);
	if (!rc && a->help) {
		const char *rest = strchr(cli_analysis_usage, '\n');
		fputs(usage_head, stdout);
		fputs("member classes (optional, see above):\n", stdout);
		fputs(rest ? rest + 1 : cli_analysis_usage, stdout);
		fputs(usage_tail, stdout);
		return -1;
	}
	return rc;
}

/* The base name of path: what a baseline records, so that it does not
 * depend on where the build or the checkout lives. */
static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s && s[1] ? s + 1 : path;
}

/* Do the classes name struct name? */
static bool names_struct(const struct slt_classes *cl, const char *name)
{
	for (size_t k = 0; cl && k < cl->n; k++)
		if (!strcmp(cl->entries[k].struct_name, name))
			return true;
	return false;
}

/* Record every definition of name into b. */
static int record_one(const struct args *a, const struct slt_classes *cl,
		      const char *file, const char *name, struct slt_baseline *b,
		      struct slt_error *err)
{
	struct cli_analysis c = a->t;
	c.jopts.hints = c.hints;
	c.classes_optional = true;
	int rc;
	if (!c.use_static && !names_struct(cl, name)) { /* the files are for other structs */
		c.classes_path = NULL;
		c.n_classes = 0;
	}
	char *ops[2] = { (char *)file, (char *)name };
	rc = cli_analysis_load(&c, file ? ops : ops + 1, file ? 2 : 1, err);
	for (size_t i = 0; !rc && i < c.layout->n_structs; i++) {
		struct slt_analysis *an = NULL;
		enum slt_class *g = NULL, *cls = NULL;
		const char **wr = NULL;
		char (*cpu)[24] = NULL;
		const struct slt_struct *s = &c.layout->structs[i];
		if (c.classes_path || c.samples) {
			rc = cli_analysis_run(&c, i, &an, &g, err);
			if (!rc && (!(cls = calloc(s->n_members + 1, sizeof(*cls))) ||
				    !(wr = calloc(s->n_members + 1, sizeof(*wr))) ||
				    !(cpu = calloc(s->n_members + 1, sizeof(*cpu)))))
				rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			for (size_t k = 0; !rc && k < s->n_members; k++)
				cls[k] = an->classes[k].cls;
			/* the writer labels check compares: given, else the
			 * measured sole writer CPU (cpuN) */
			if (!rc)
				cli_writer_labels(an, wr, cpu);
		}
		/* members of a kernel cacheline group whose name implies a class
		 * get it when no classes file gives one */
		if (!rc && !cls && !(cls = calloc(s->n_members + 1, sizeof(*cls))))
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		if (!rc && slt_groups_classes(s, cls) < 0)
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		if (!rc)
			rc = slt_baseline_add_struct_writers(b, s, cls, wr, err);
		free(cls);
		free(wr);
		free(cpu);
		slt_analysis_free(an);
		free(g);
	}
	cli_analysis_release(&c);
	return rc;
}

static int copy_suppressions(const char *path, struct slt_baseline *b,
			     struct slt_error *err)
{
	struct slt_suppressions *s = NULL;
	int rc = slt_suppressions_read(path, &s, err);
	if (!rc)
		cli_warn_suppressions(s);
	for (size_t i = 0; !rc && i < s->n; i++)
		rc = slt_baseline_add_suppression(b, &s->entries[i], err);
	slt_suppressions_free(s);
	return rc;
}

int cmd_baseline(int argc, char **argv)
{
	struct args a = { .suppress = NULL };
	cli_analysis_init(&a.t);
	int rc = parse_args(argc, argv, &a);
	if (rc < 0)
		return SLT_EXIT_OK;              /* --help */
	if (rc)
		return rc;
	char **ops = argv + optind;
	int n_ops = argc - optind;
	const char *file = NULL;
	struct slt_error ferr;
	slt_error_clear(&ferr);
	int fo = n_ops > 0 ? cli_file_operand(ops[0], &ferr) : 0;
	if (fo < 0)
		return cli_fail(&ferr);
	if (fo == 1) {
		file = ops[0];
		ops++;
		n_ops--;
	}
	if (n_ops < 1)
		return cli_cmd_usage("baseline", "name at least one struct or union");
	for (int i = 0; i < n_ops; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(ops[i], ops[j]))
				return cli_cmd_usage("baseline", "baseline: %s is named twice: each struct is "
						       "recorded once", ops[i]);
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_classes *cl = NULL;
	if (a.t.n_classes)
		rc = cli_classes_load(a.t.classes_paths, a.t.n_classes, &cl, &err);
	if (!rc)
		cli_warn_classes_unused(cl, (const char *const *)a.t.classes_paths, a.t.n_classes,
					(const char *const *)ops, (size_t)n_ops, "recorded");
	struct slt_baseline *b = NULL;
	{
		/* the classes files' base names, comma-separated */
		char classes[1024] = "";
		size_t u = 0;
		for (size_t f = 0; f < a.t.n_classes && u < sizeof(classes) - 1; f++)
			u += (size_t)snprintf(classes + u, sizeof(classes) - u, "%s%s", u ? "," : "",
					      base_name(a.t.classes_paths[f]));
		if (a.t.use_static && a.t.n_classes) { /* static, the files' entries replacing */
			char files[sizeof(classes)];
			snprintf(files, sizeof(files), "%s", classes);
			snprintf(classes, sizeof(classes), "static+%.1000s", files);
		} else if (a.t.use_static) { /* --classes static: proposed by the access map */
			snprintf(classes, sizeof(classes), "static");
		}
		if (!rc)
			rc = slt_baseline_new(a.t.ropts.cacheline_size, file ? base_name(file) : "",
					      a.t.samples && !a.t.n_classes ? base_name(a.t.samples) :
					      classes, &b, &err);
	}
	if (!rc)
		b->classes_measured = a.t.samples != NULL;
	if (!rc && a.suppress)
		rc = copy_suppressions(a.suppress, b, &err);
	for (int i = 0; !rc && i < n_ops; i++)
		rc = record_one(&a, cl, file, ops[i], b, &err);
	if (!rc)
		rc = slt_baseline_write_json(stdout, b, a.t.ropts.pretty, &err);
	if (rc == 0 && fflush(stdout) != 0)
		rc = slt_error_set(&err, SLT_EIO, "<stdout>", -1, NULL, "write failed");
	slt_baseline_free(b);
	slt_classes_free(cl);
	if (rc > 0)
		return rc;                       /* usage error, printed */
	return rc < 0 ? cli_fail_at(&err) : SLT_EXIT_OK;
}
