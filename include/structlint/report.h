/* SPDX-License-Identifier: MIT */
/*
 * structlint — writers for layouts: pahole-style text and versioned JSON.
 * The writers print to the FILE the caller gives; they never exit.
 */
#ifndef STRUCTLINT_REPORT_H
#define STRUCTLINT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "structlint/error.h"
#include "structlint/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* JSON schema identifier of slt_report_layout_json()'s output. */
#define SLT_SCHEMA_LAYOUT "structlint.layout/v1"

struct slt_report_opts {
	unsigned cacheline_size; /* bytes; 0 means SLT_CACHELINE_DEFAULT */
	bool color;              /* ANSI colour (the CLI decides: terminal,
				    NO_COLOR, --color) */
	bool decl;               /* print a FILE:LINE comment before each struct
				    when the position is known */
	bool pretty;             /* JSON: indented (else compact, one line) */
	/* Added (additive): how given classes are labelled in the report
	 * ("(given)" in text, "class_source" in JSON): NULL for "given";
	 * "static" for classes proposed by the static access map. */
	const char *given_word;
	/* Added (additive): the terminal width in columns the cacheline map
	 * (structlint/map_report.h) fits its cells to; 0 means 80. */
	unsigned width;
	/* Added (additive): where the classes or accesses come from when
	 * they are not measured ("counted in the machine code: ... (static)",
	 * "estimated from IP samples x static sites (...)"), or NULL: JSON
	 * "basis"; text and JSON name it beside each finding. */
	const char *basis;
	/* Added (additive): parallel to the analysed struct's members, the
	 * source word of each given class entry ("static", "given"; NULL:
	 * given_word), so classes merged from two sources (static+given)
	 * name each member's own. */
	const char *const *member_sources;
	/* Added (additive): print a member's forced alignment once where
	 * pahole prints it on its inline type and on the member too (`}
	 * __aligned__(N) NAME __aligned__(N);`): the advisor's view of a
	 * proposal.  false: pahole's way. */
	bool align_once;
	/* Added (additive): show an inserted padding member
	 * (SLT_ADV_PAD_TYPE) as the user-space C declaration writes it: a
	 * comment naming the _Alignas its next member gets (or, before a
	 * bitfield, the char array up to the line). */
	bool user_pads;
};

/*
 * Write every struct of layout in pahole's text conventions (member lines
 * with offset and size comments, cacheline boundary comments, hole and
 * padding comments, the closing summary), one after the other with no
 * blank line between them, as `pahole -C a,b` prints them.
 * Returns 0, or SLT_EIO when writing fails (err filled).
 */
int slt_report_layout_text(FILE *out, const struct slt_layout *layout,
			   const struct slt_report_opts *opts,
			   struct slt_error *err);

/*
 * Write layout as one JSON document of schema SLT_SCHEMA_LAYOUT (documented
 * in structlint(1), "JSON OUTPUT").  The document is built completely before
 * the first byte is written, so a failure never leaves partial JSON.
 * Returns 0, SLT_ENOMEM or SLT_EIO.
 */
int slt_report_layout_json(FILE *out, const struct slt_layout *layout,
			   const struct slt_report_opts *opts,
			   struct slt_error *err);

/* Write the result of slt_layout_list(): text "SIZE KIND NAME" lines, or
 * JSON schema "structlint.types/v1" when json is set.  Returns 0 or SLT_EIO. */
int slt_report_type_list(FILE *out, const struct slt_type_list *list,
			 bool json, const struct slt_report_opts *opts,
			 struct slt_error *err);

#ifdef __cplusplus
}
#endif
#endif
