/* SPDX-License-Identifier: MIT */
/*
 * structlint — CI layout gates: the violations that `structlint check`
 * reports, whether they come from a rules file, from the kernel's
 * cacheline-group markers, or from a comparison with a baseline
 * (include/structlint/baseline.h).
 *
 * A struct slt_gate_result collects violations from any of those checks
 * and is written as text, JSON ("structlint.check/v1") or SARIF 2.1.0 by
 * the writers declared at the end of this header.
 *
 * Ownership: a result owns every string of its violations (they are
 * copied in by slt_gate_add()); free it with slt_gate_result_free().
 */
#ifndef STRUCTLINT_GATE_H
#define STRUCTLINT_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "structlint/error.h"
#include "structlint/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLT_SCHEMA_CHECK "structlint.check/v1"

/* How bad a violation is.  Exit status 1 is for SLT_SEV_ERROR violations
 * that are not suppressed; warnings and notes are printed only. */
enum slt_severity {
	SLT_SEV_NOTE = 1,     /* informational (baseline: harmless change) */
	SLT_SEV_WARNING,      /* worth a look, does not fail the gate */
	SLT_SEV_ERROR,        /* breaking: fails the gate */
};

/* "note", "warning", "error" (SARIF's "level" values, SARIF 2.1.0
 * section 3.27.10). */
const char *slt_severity_name(enum slt_severity s);

#define SLT_NO_OFFSET UINT64_MAX

/*
 * One violation.  rule is a stable identifier, used by suppressions and
 * as SARIF's ruleId: rules-file checks use the rule's key ("max-size",
 * "group-sharing", ...), kernel cacheline groups "cacheline-group-*",
 * baseline checks "baseline-*" (documented in the man page, sections
 * CHECK, KERNEL CACHELINE GROUPS and BASELINE).
 */
struct slt_violation {
	const char *rule;         /* stable id, see above */
	enum slt_severity severity;
	const char *struct_name;  /* the struct, without "struct " */
	const char *member;       /* member path the violation is about, or
				     NULL for the whole struct */
	const char *message;      /* one line, no trailing newline: what is
				     wrong, with the numbers (offsets and
				     sizes in bytes, lines as cacheline
				     numbers) */
	const char *decl_file;    /* where the struct is declared
				     (DW_AT_decl_file), "" when unknown
				     (BTF) */
	uint32_t decl_line;       /* 0 when unknown */
	uint64_t offset;          /* bytes: the member's offset, or
				     SLT_NO_OFFSET */
	const char *source;       /* where the rule came from: "RULES:LINE",
				     "BASELINE.json", "kernel markers";
				     NULL when not applicable */
	bool suppressed;          /* matched a suppression: printed, never
				     fails the gate */
	const char *suppress_reason; /* the suppression's text, or NULL */
	/* Added after v1 (additive): where a finding holds when the
	 * instance's base is known modulo an alignment only ("at every
	 * base", "only at 3 of 8 bases (base mod 64 in {0,8,16})"), or
	 * NULL; SARIF properties.bases. */
	const char *bases;
	/* Added after v1 (additive): the violation follows from the
	 * members' classes alone (no-hot-write-near, separate of a class:
	 * group, writers-share-line, baseline-hot-shares-read-mostly) and is
	 * about cacheline class_line: a class rule.  With a per-CPU profile,
	 * check makes it a note where the profile measures no false sharing
	 * on that line (slt_gate_class_rules()). */
	bool class_rule;
	uint64_t class_line;
};

struct slt_gate_result {
	struct slt_violation *violations;  /* in the order added */
	size_t n_violations;
	size_t n_structs_checked;          /* structs the checks looked at */
	size_t n_checks;                   /* individual checks evaluated */
	void *priv_;
};

/* A new empty result.  Returns 0 and *out, or SLT_ENOMEM. */
int slt_gate_result_new(struct slt_gate_result **out, struct slt_error *err);

/* Append a copy of *v (all strings copied; NULL strings stay NULL).
 * Returns 0 or SLT_ENOMEM. */
int slt_gate_add(struct slt_gate_result *r, const struct slt_violation *v);

/* Mark the last violation added as a class rule's about cacheline line
 * (slt_violation.class_rule). */
void slt_gate_mark_class(struct slt_gate_result *r, uint64_t line);

/* Set violation i's severity to sev and append suffix to its message.
 * Returns 0 or SLT_ENOMEM. */
int slt_gate_amend(struct slt_gate_result *r, size_t i, enum slt_severity sev,
		   const char *suffix);

/* Errors that are not suppressed: the gate fails when this is > 0. */
size_t slt_gate_failures(const struct slt_gate_result *r);

void slt_gate_result_free(struct slt_gate_result *r);

/* ---- writers (added by `structlint check`, additive) ---- */

/* Options of the writers; zero-initialise. */
struct slt_gate_write_opts {
	const char *input;        /* the layout file checked ("" or NULL:
				     the running kernel's BTF); text names
				     it for violations without decl_file */
	bool pretty;              /* JSON/SARIF: indented */
	const char *version;      /* structlint's version, for SARIF's
				     tool.driver.version; NULL: "unknown" */
	/* SARIF only (added after v1; zero: the defaults) */
	const char *source_root;  /* decl files under this directory (or
				     starting with this relative prefix, e.g.
				     a kernel DWARF "debian/build/X") get a
				     uri relative to it with uriBaseId
				     "%SRCROOT%"; NULL: the current
				     directory (cwd) plays that part */
	const char *cwd;          /* the current directory (absolute), for
				     the default above and for a relative
				     source_root's absolute uri; NULL: none */
	bool notes;               /* SARIF: include note results (default:
				     left out; warnings and errors always) */
	/* text only (added after v1) */
	bool no_notes;            /* text: leave the note lines out (the
				     summary still counts them and says
				     "N notes not shown") */
	/* text and JSON (added after v1): where the member classes come from
	 * when they are estimates ("estimated from IP samples x static
	 * sites (...)", structlint/weight.h); NULL: measured or given.
	 * Text: a line before the summary; JSON: "basis". */
	const char *basis;
};

/*
 * Text, one line per violation in the order added, gcc style:
 *   DECL_FILE:LINE: error: struct NAME: MESSAGE [rule-id]
 * (note/warning for other severities; " (suppressed: REASON)" after a
 * suppressed one; INPUT: instead of DECL_FILE:LINE: when the layout has
 * no decl_file, e.g. BTF; no note lines with o->no_notes), then one
 * summary line
 *   structlint: check: N structs, N checks: N errors, N warnings, N notes
 *   (N suppressed): FAILED|passed
 * (with o->no_notes and notes left out: "N notes not shown" for "N notes").
 * Returns 0 or SLT_EIO.
 */
int slt_gate_write_text(FILE *out, const struct slt_gate_result *r,
			const struct slt_gate_write_opts *o,
			struct slt_error *err);

/* One JSON document of schema SLT_SCHEMA_CHECK (keys documented at the
 * top of src/report/gate_json.c and in structlint(1)); nothing written
 * on failure.  Returns 0, SLT_ENOMEM or SLT_EIO. */
int slt_gate_write_json(FILE *out, const struct slt_gate_result *r,
			const struct slt_gate_write_opts *o,
			struct slt_error *err);

/* A SARIF 2.1.0 log (OASIS SARIF 2.1.0, see src/report/sarif.c): one
 * run, tool.driver with every rule id used, one result per violation
 * (notes only with o->notes) located at the struct's decl file:line.
 * Locations: a decl file under the source root (o->source_root, else
 * o->cwd) is a relative uri with uriBaseId "%SRCROOT%" (the run's
 * originalUriBaseIds gives the root's absolute file:// uri when known:
 * a relative source_root joined to cwd when that directory exists, else
 * cwd); another absolute path is a file:// uri; a relative one (kernel
 * DWARF) stays relative, with uriBaseId "%SRCROOT%" too.  Each result has partialFingerprints
 * "structlintViolation/v1": a 64-bit FNV-1a hash (16 hex digits) of rule,
 * struct and member, ":" and the 1-based occurrence of that triple in the
 * log.  Returns 0, SLT_ENOMEM or SLT_EIO. */
/* report --sarif (added after v1): a's findings as warnings, one per
 * finding, rule "finding-KIND" (findings_gate.c), appended to r.
 * Returns 0 or SLT_ENOMEM. */
struct slt_analysis;
int slt_report_findings_violations(const struct slt_analysis *a,
				   struct slt_gate_result *r);

int slt_gate_write_sarif(FILE *out, const struct slt_gate_result *r,
			 const struct slt_gate_write_opts *o,
			 struct slt_error *err);

/* A SARIF 2.1.0 log for a check that could not run (added after v1):
 * one run whose invocation (3.20) has executionSuccessful false,
 * exitCode 2 and one toolExecutionNotification (3.58) of level "error"
 * with failure's message and hint and, when failure names a file, its
 * location (line, and column when the message starts "column N: ");
 * results is an empty array (upload steps require it).  So a CI step
 * that uploads the log does not fail a second time on a missing or empty
 * file.  Returns 0, SLT_ENOMEM or SLT_EIO. */
int slt_gate_write_sarif_failure(FILE *out, const struct slt_error *failure,
				 const struct slt_gate_write_opts *o,
				 struct slt_error *err);

/* A one-sentence description of a rule id for help texts (SARIF's
 * rules[].help), static storage; a generic sentence for ids this
 * version does not know. */
const char *slt_gate_rule_help(const char *rule);

/* Does the fnmatch(3) glob pattern match a rule id this version reports
 * (the rules-file keys, cacheline-group*, baseline-*)?  For warning about
 * suppressions that can never apply.  (Added after v1.) */
bool slt_gate_rule_known(const char *pattern);

#ifdef __cplusplus
}
#endif

#endif
