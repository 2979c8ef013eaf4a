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
 * baseline checks "baseline-*" (each owner documents its ids in the man
 * page, section CHECKS).
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

/* Errors that are not suppressed: the gate fails when this is > 0. */
size_t slt_gate_failures(const struct slt_gate_result *r);

void slt_gate_result_free(struct slt_gate_result *r);

#ifdef __cplusplus
}
#endif

#endif
