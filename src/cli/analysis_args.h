/* SPDX-License-Identifier: MIT */
/*
 * The part of `structlint report` and `structlint suggest` they share: the
 * input, instance-base, classification and output options, the FILE NAME
 * operands, loading the layout, the classes file and the samples (joined
 * per definition), and one analysis per definition.  Internal to src/cli.
 */
#ifndef SLT_CLI_ANALYSIS_ARGS_H
#define SLT_CLI_ANALYSIS_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "structlint/analysis.h"
#include "structlint/classes.h"
#include "structlint/join.h"
#include "structlint/layout.h"
#include "structlint/report.h"

#define CLI_MAX_HINTS 64
#define CLI_MAX_CLASSES 64

/* Option values of the shared long options (a command's own start at
 * CLI_OPT_OWN). */
enum {
	CLI_OPT_SFMT = 256, CLI_OPT_BASE, CLI_OPT_LINE, CLI_OPT_NO_INFER,
	CLI_OPT_HWR, CLI_OPT_RMR, CLI_OPT_MIN_SHARE, CLI_OPT_TSC,
	CLI_OPT_ADJACENT, CLI_OPT_FAIL, CLI_OPT_DEBUG_ROOT,
	CLI_OPT_STRICT_CLASSES, CLI_OPT_NO_CACHE, CLI_OPT_MAP, CLI_OPT_HTML,
	CLI_OPT_OWN = 320,
};

/* getopt short options of the shared part (append a command's own). */
#define CLI_ANALYSIS_SHORTOPTS "s:C:jpc:EF:h"

/* The shared entries of a command's struct option array (put the
 * command's own after them, then the { NULL } terminator). */
#define CLI_ANALYSIS_LONGOPTS \
	{ "samples", required_argument, NULL, 's' }, \
	{ "samples-format", required_argument, NULL, CLI_OPT_SFMT }, \
	{ "classes", required_argument, NULL, 'C' }, \
	{ "base", required_argument, NULL, CLI_OPT_BASE }, \
	{ "line", required_argument, NULL, CLI_OPT_LINE }, \
	{ "no-infer", no_argument, NULL, CLI_OPT_NO_INFER }, \
	{ "hot-write-ratio", required_argument, NULL, CLI_OPT_HWR }, \
	{ "read-mostly-ratio", required_argument, NULL, CLI_OPT_RMR }, \
	{ "min-share", required_argument, NULL, CLI_OPT_MIN_SHARE }, \
	{ "true-share-cpus", required_argument, NULL, CLI_OPT_TSC }, \
	{ "adjacent", no_argument, NULL, CLI_OPT_ADJACENT }, \
	{ "json", no_argument, NULL, 'j' }, \
	{ "pretty", no_argument, NULL, 'p' }, \
	{ "fail-on-findings", no_argument, NULL, CLI_OPT_FAIL }, \
	{ "cacheline", required_argument, NULL, 'c' }, \
	{ "expand", no_argument, NULL, 'E' }, \
	{ "format-path", required_argument, NULL, 'F' }, \
	{ "debug-root", required_argument, NULL, CLI_OPT_DEBUG_ROOT }, \
	{ "no-cache", no_argument, NULL, CLI_OPT_NO_CACHE }, \
	{ "strict-classes", no_argument, NULL, CLI_OPT_STRICT_CLASSES }, \
	{ "map", no_argument, NULL, CLI_OPT_MAP }, \
	{ "html", required_argument, NULL, CLI_OPT_HTML }, \
	{ "decl", no_argument, NULL, 'D' }, \
	{ "color", required_argument, NULL, 'K' }, \
	{ "colour", required_argument, NULL, 'K' }, \
	{ "help", no_argument, NULL, 'h' }

/* Help text of the shared options: inputs, instance base, classification. */
extern const char cli_analysis_usage[];
/* Help text of --map, --html and --color (in each command's output part). */
#define CLI_PICTURES_USAGE \
"      --map                  a cacheline heat map instead of the text: a row\n" \
"                             per line, a cell per byte (per 8 bytes when\n" \
"                             the terminal is narrower: COLUMNS, else the\n" \
"                             terminal's width, else 80), letters and colour\n" \
"                             by class, member names, heat, findings !N\n" \
"      --color WHEN           the map's colour: auto (a terminal, NO_COLOR\n" \
"                             unset), always, never\n" \
"      --html FILE            also write one self-contained HTML page (inline\n" \
"                             SVG and CSS, no script, nothing external): the\n" \
"                             map, findings, numbers ('-' = stdout only);\n" \
"                             stderr says \"wrote FILE (N bytes)\"\n"

struct cli_analysis {
	/* options */
	const char *samples;
	const char *classes_path;  /* the --classes files joined with ','
				      (for messages), NULL when none */
	const char *classes_paths[CLI_MAX_CLASSES]; /* each --classes FILE */
	size_t n_classes;
	char classes_joined[1024];
	const char *base_symbol;   /* --base SYMBOL, resolved once FILE is known */
	int sfmt;
	struct slt_join_opts jopts;
	struct slt_line_hint hints[CLI_MAX_HINTS];
	struct slt_analysis_opts aopts;
	struct slt_load_opts lopts;
	struct slt_report_opts ropts;
	bool json, fail;
	bool map;                  /* --map: the terminal map */
	int color;                 /* --color: enum cli_color */
	const char *html;          /* --html FILE, or NULL */
	bool strict_classes;       /* a classes entry naming a member the
				      struct lacks is an error, not a
				      warning */
	bool use_static;           /* --classes static, or the default of
				      report and suggest without inputs:
				      classes from the static access map */
	bool static_default;       /* use_static without being asked */
	unsigned base_align;       /* report --base-align: the base is only
				      known modulo this (0: line-aligned) */
	const char *in;            /* report --in CONTAINER.MEMBER */
	bool classes_optional;     /* neither --samples nor --classes is
				      needed (suggest --size-only): without
				      them every member is given cold */
	/* after cli_analysis_load(); released by cli_analysis_release() */
	const char *file;          /* NULL: the running kernel's BTF */
	struct slt_layout *layout;
	struct slt_classes *classes;
	struct slt_access_profile **profiles; /* parallel to layout->structs */
};

/* The writer label of each member of a's struct into lab[0..n_members):
 * its given label (hot-write:LABEL), else, measured, the CPU that alone
 * stores to it ("cpuN", written into cpu[m]), else NULL.  check and
 * baseline use the same labels. */
void cli_writer_labels(const struct slt_analysis *a, const char **lab, char (*cpu)[24]);

/* Defaults: cacheline 64, the classification defaults. */
void cli_analysis_init(struct cli_analysis *c);

/* Handle one getopt result opt (argument arg) if it is a shared option.
 * Returns 0 when handled, 1 when it is not a shared option, -1 for --help
 * (the caller prints its usage), SLT_EXIT_ERROR on a bad value (the
 * message is printed).  optopt_arg: argv[optind - 1], for messages. */
int cli_analysis_option(struct cli_analysis *c, int opt, const char *arg,
			const char *optopt_arg);

/* A command's own options: handle opt (argument arg) like
 * cli_analysis_option() (0 handled, 1 not its option, -1 for --help,
 * SLT_EXIT_ERROR after printing a usage error).  ctx is the command's. */
typedef int (*cli_own_option_fn)(void *ctx, struct cli_analysis *c, int opt,
				 const char *arg);

/* The option loop of a command built on the shared options: getopt_long
 * over argv with CLI_ANALYSIS_SHORTOPTS and long_opts, each option offered
 * to own (may be NULL) first, then to cli_analysis_option().  On --help
 * prints usage_head, the shared options' help and usage_tail on stdout.
 * Returns 0, -1 after --help, or SLT_EXIT_ERROR (the message printed). */
int cli_analysis_parse(int argc, char **argv, const struct option *long_opts,
		       struct cli_analysis *c, cli_own_option_fn own, void *ctx,
		       const char *usage_head, const char *usage_tail);

/* After option parsing: check the inputs, take [FILE] NAME from ops, load
 * the layout, the classes and the samples.  Returns 0; SLT_EXIT_ERROR for
 * a usage error (printed); or a negative SLT_E* code with err filled. */
/* cli_join_samples() found member paths inside members shown folded:
 * join again with the layout expanded (-E). */
#define CLI_JOIN_AGAIN 1

/* Join c->samples to every struct of l into profiles[] (join_samples.c).
 * first: the notes about the input are printed, and when samples name
 * member paths inside a member shown folded (and the input can be read
 * again: not standard input), the profiles are dropped and CLI_JOIN_AGAIN
 * returned.  0, CLI_JOIN_AGAIN, or an slt error code (err set). */
int cli_join_samples(const struct cli_analysis *c, const struct slt_layout *l,
		     struct slt_access_profile **profiles, bool first,
		     struct slt_error *err);

int cli_analysis_load(struct cli_analysis *c, char **ops, int n_ops,
		      struct slt_error *err);

/* Analyse definition i of the loaded layout.  *given (free() it after
 * slt_analysis_free(*out)) holds the classes the classes file gives s's
 * members, NULL without a classes file.  Returns 0 or SLT_E*. */
int cli_analysis_run(const struct cli_analysis *c, size_t i,
		     struct slt_analysis **out, enum slt_class **given,
		     struct slt_error *err);

/* The classes the classes file gives s's members (NONE where it names
 * none), calloc'ed, for s = a loaded struct or a proposed relayout of
 * it; NULL when out of memory.  cl must not be NULL. */
enum slt_class *cli_given_classes(const struct slt_classes *cl,
				  const struct slt_struct *s);
/* As cli_given_classes(), from analysis a's member classes (the classes
 * its samples gave, or the classes given with them): each named leaf of s
 * takes the class and writer label of a's member of the same path, so a
 * proposal's layout is analysed again by the classes the samples
 * established; NULL when out of memory. */
enum slt_class *cli_measured_classes(const struct slt_analysis *a,
				     const struct slt_struct *s);
/* The writer labels (hot-write:LABEL) parallel to s->members, NULL
 * entries when none, kept in the block cli_given_classes() returned for s
 * (freed with it; only for such a block). */
const char *const *cli_given_labels(const enum slt_class *g,
				    const struct slt_struct *s);
/* The same for where each entry came from: "static" (the static access
 * map's) or "given" (a --classes file), NULL where none. */
const char *const *cli_given_sources(const enum slt_class *g,
				     const struct slt_struct *s);

void cli_analysis_release(struct cli_analysis *c);

/* The error of a FILE operand that does not exist: "PATH: no such file
 * (build it first, or check the path)".  Returns SLT_EIO. */
int cli_no_such_file(const char *path, struct slt_error *err);

/* After option parsing: check --map and --html against --json, set the
 * map's colour and width (COLUMNS, the terminal's, else 80).  0 or
 * SLT_EXIT_ERROR (printed). */
int cli_pictures_setup(struct cli_analysis *c);
/* Open c->html (stdout for "-") and write the page's head: *out, or NULL
 * without --html.  0 or SLT_EIO (err names the file). */
int cli_html_open(const struct cli_analysis *c, FILE **out, struct slt_error *err);
/* Write the page's end and close it; rc: the run's status so far (when it
 * is not 0, or writing fails, the page is closed and removed).  Returns
 * rc, or SLT_EIO. */
int cli_html_close(const struct cli_analysis *c, FILE *out, int rc,
		   struct slt_error *err);

/* Read the n classes files paths[] and merge them into one *out (a
 * member classed differently by two files is an error naming both
 * FILE:LINE).  Returns 0 or SLT_E* with err filled; *out NULL then. */
int cli_classes_load(const char *const *paths, size_t n, struct slt_classes **out,
		     struct slt_error *err);

/* Warn on stderr (structlint: warning: FILE:LINE: STRUCT has no member
 * 'X') about every entry of cl naming a member that no definition of its
 * struct in l has; with strict, the first is an error instead (SLT_EUSAGE,
 * err filled).  Returns 0, SLT_EUSAGE or SLT_ENOMEM. */
int cli_classes_warn(const struct slt_classes *cl, const struct slt_layout *l,
		     bool strict, struct slt_error *err);

/* Is the first operand s the FILE?  1: a file (exists), 0: a struct
 * name, SLT_EIO (err filled: "FILE: no such file"): it looks like a path
 * (a '/', a '.' suffix such as conn.o, x.ko, or vmlinux*) but does not
 * exist.  The one rule of report, suggest, check, baseline. */
int cli_file_operand(const char *s, struct slt_error *err);

/* Whether file (NULL: the running kernel's BTF) is a kernel image or
 * module (then proposals use the kernel's CACHELINE_PADDING() forms, else
 * the user-space ones): BTF, or an ELF file with .modinfo, __ksymtab,
 * __ksymtab_gpl or .data..percpu. */
bool cli_kernel_binary(const char *file);

#endif
