/* SPDX-License-Identifier: MIT */
/* Shared pieces of the command-line front end.  Internal to src/cli. */
#ifndef SLT_CLI_H
#define SLT_CLI_H

#include <stdbool.h>

#include "structlint/error.h"

/* Exit codes, documented in structlint(1) "EXIT STATUS". */
enum {
	SLT_EXIT_OK = 0,
	SLT_EXIT_FINDINGS = 1, /* findings or violations, when asked to gate */
	SLT_EXIT_ERROR = 2,    /* usage or input error */
};

/* Print err as the one stderr line "structlint: FILE:WHERE: MSG (HINT)"
 * and return SLT_EXIT_ERROR. */
int cli_fail(const struct slt_error *err);
/* The end of a command: rc > 0 is a usage error already printed (returned
 * as it is); rc == 0 flushes stdout, a failed write being an I/O error;
 * rc < 0 (or that write error) is printed from err by cli_fail().
 * Returns the exit status: ok_status when everything went well. */
int cli_finish(int rc, struct slt_error *err, int ok_status);
/* The unsigned option value arg of option name, in [min, max], into *out:
 * 0, or SLT_EXIT_ERROR after printing a usage error. */
int cli_uint_opt(const char *name, const char *arg, unsigned long min,
		 unsigned long max, unsigned *out);
/* After a failed load with no FILE operand (the running kernel's BTF was
 * read): when err says that the first operand `op` is no type there, say in
 * the same line that no file of that name exists either. */
void cli_note_no_file(struct slt_error *err, const char *op);
/* printf-style usage error: one line on stderr, returns SLT_EXIT_ERROR. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* suggest --in CONTAINER.MEMBER (instance_in.c): *off gets MEMBER's offset
 * in CONTAINER (loaded from file with lo, nested members inline), which
 * must be a struct s; a usage error (exit 2) otherwise. */
struct slt_load_opts;
struct slt_struct;
int cli_instance_offset(const char *file, const struct slt_load_opts *lo,
			const char *spec, const struct slt_struct *s,
			uint64_t *off, struct slt_error *err);
/* suggest --in (instance_in.c): each proposal's container figures
 * (slt_proposal.container...): CONTAINER of spec loaded from file again,
 * MEMBER's size changed by the proposal's bytes_added and the members
 * after it (at each enclosing level) placed again.  0 or an error. */
struct slt_advice;
struct slt_advice_opts;
int cli_container_cost(const char *file, const struct slt_load_opts *lo,
		       const char *spec, const struct slt_advice_opts *o,
		       struct slt_advice *adv, struct slt_error *err);
/* --base-align N (report, suggest): a power of two from 1 to 4096 into
 * *out; 0, or SLT_EXIT_ERROR after printing the usage error. */
int cli_base_align_option(const char *arg, unsigned *out);
/* The same for command cmd ("see structlint CMD --help"; NULL: none). */
int cli_usage_errorv(const char *cmd, const char *fmt, va_list ap);
/* The message of the last usage error printed (control bytes escaped),
 * "" before the first: check --sarif writes it into its failure log. */
const char *cli_last_usage_error(void);
/* A SARIF 2.1.0 log on stdout saying the run did not complete
 * (executionSuccessful false, exit code 2; err: why, NULL: the usage error
 * just printed); input: FILE or NULL.  check --sarif and report --sarif
 * (cmd_check.c). */
struct slt_error;
void cli_sarif_failure(const struct slt_error *err, const char *input);
/* Is --sarif on the command line (spelt in full, before "--")?  Found
 * before the options are parsed, so that a usage error in them still gets
 * its SARIF log (check, report; cmd_check.c). */
bool cli_argv_sarif(int argc, char **argv);
/* cli_fail() for text and JSON inputs whose message starts "column N: ":
 * "structlint: FILE:LINE:N: what (hint)" (cmd_check.c). */
int cli_fail_at(const struct slt_error *err);
struct slt_suppressions;
/* A warning for each suppression whose rule matches no rule id
 * (cmd_check.c). */
void cli_warn_suppressions(const struct slt_suppressions *s);
/* A usage error of command cmd: one stderr line "structlint: MSG (see
 * structlint CMD --help)"; returns SLT_EXIT_ERROR (cmd_check.c). */
int cli_cmd_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct slt_classes;
/* A warning for each of the classes files paths[0..n_paths) (as loaded
 * into cl) that classes members of other structs only, none of
 * names[0..n_names); what: "recorded", "checked" (cmd_check.c). */
void cli_warn_classes_unused(const struct slt_classes *cl, const char *const *paths,
			     size_t n_paths, const char *const *names, size_t n_names,
			     const char *what);

enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };
/* Parse --color's argument; returns -1 when invalid. */
int cli_parse_color(const char *arg);
/* Colour decision: never with NO_COLOR set or TERM=dumb; auto means stdout
 * is a terminal. */
bool cli_use_color(int mode);
/* Parse an unsigned decimal; false on junk, overflow or values outside
 * [min, max]. */
bool cli_parse_uint(const char *s, unsigned long min, unsigned long max,
		    unsigned long *out);

int cmd_layout(int argc, char **argv);
/* `record`: sample memory accesses of a command into a perf.data
 * (cmd_record.c); exits 2 where the PMU has no memory events. */
int cmd_record(int argc, char **argv);
/* `report`; also reached from `layout` with --samples or --classes. */
int cmd_report(int argc, char **argv);
/* `suggest`: the layout advisor's proposals (cmd_suggest.c). */
int cmd_suggest(int argc, char **argv);
/* `check`: the CI layout gate: rules, kernel cacheline groups, baselines
 * (cmd_check.c). */
int cmd_check(int argc, char **argv);
/* `baseline`: record layouts and member classes as JSON (cmd_baseline.c). */
int cmd_baseline(int argc, char **argv);
/* `engine`: run the reference stats engine alone and print its figures
 * (cmd_engine.c). */
int cmd_engine(int argc, char **argv);
/* `validate`: A/B runs of two layouts on the reference stats engine, the
 * ratio of median ops/s with a bootstrap CI, a verdict (cmd_validate.c). */
int cmd_validate(int argc, char **argv);
/* `structlint access`: the static access map of a binary (cmd_access.c). */
int cmd_access(int argc, char **argv);
struct cli_analysis;
struct slt_analysis;
/* Is arg ("--NAME" or "--NAME=VALUE") an option of suggest only (not of
 * report)?  report names suggest for it (cmd_suggest.c). */
bool cli_suggest_only_option(const char *arg);
/* report --suggest: the advisor's proposals for a, default advice options,
 * as suggest's text (or map, with --map) on stdout, and into the HTML page
 * html as definition index (html NULL: none; stdout: the page only).
 * Returns 0 or SLT_E* (err filled). */
int cli_suggest_text(const struct cli_analysis *c, const struct slt_analysis *a,
		     FILE *html, size_t index, struct slt_error *err);

#endif
