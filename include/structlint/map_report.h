/* SPDX-License-Identifier: MIT */
/*
 * structlint — pictures of a struct's cache lines: a terminal heat map
 * and a self-contained HTML page.  Both draw the analysis
 * (structlint/analysis.h) and the advisor's proposals (structlint/advice.h)
 * that the text and JSON writers print; they analyse nothing again.
 * Writers print to the FILE the caller gives and never exit.
 *
 * What is drawn (src/report/heatmap.h): one row per cache line of the
 * instance (lines counted as the analysis counts them, from the line
 * holding the instance's start), each byte owned by the member the
 * findings name for it (the outermost named one; with -E the deepest);
 * its class gives the colour and letter (W hot-write,
 * R read-mostly, M mixed, T true-shared, c cold, ? no class, '.' hole or
 * padding).  A proposal's members take the class of the analysed member
 * with the same path.  Units: bytes, lines of the analysis' line size,
 * scores in its basis.
 */
#ifndef STRUCTLINT_MAP_REPORT_H
#define STRUCTLINT_MAP_REPORT_H

#include <stdio.h>

#include "structlint/advice.h"
#include "structlint/advice_report.h"
#include "structlint/analysis.h"
#include "structlint/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The terminal map of a: a header line, one row per cache line ("LINE
 * OFFSET|cells|" then the line's heat 0..5 with a profile and " !N" for
 * each finding N on it), the names of the members under the first cell
 * that shows them where they fit, else a '^' there and the name after the
 * row ("+a,b", wrapped onto further rows), the two or more lines between
 * the first and the last of a run that one member fills with no finding
 * on them as one row, the legend and the findings by number.  No line is
 * wider than opts->width (0: 80) columns: one cell is the smallest of 1,
 * 2, 4 and 8 bytes with which the row fits, showing its most written
 * member; text lines wrap.  opts->color: ANSI
 * background colours by class (bright when the member's heat is at least
 * 0.5), the letters kept.  Returns 0, SLT_EUSAGE (too large to draw),
 * SLT_ENOMEM or SLT_EIO.
 */
int slt_report_analysis_map(FILE *out, const struct slt_analysis *a,
			    const struct slt_report_opts *opts,
			    struct slt_error *err);

/* Each proposal of advice as the original's map beside the proposal's
 * (before | after, line by line; one above the other when two do not
 * fit), after a header with its numbers (kind, bytes, cachelines, score,
 * findings left) and the moved members, with ropts->analysis_after the
 * findings left marked on the proposal's map and listed (numbered as the
 * original's when the same); one comment with advice->note when there is
 * no proposal.  Returns as above. */
int slt_report_advice_map(FILE *out, const struct slt_advice *advice,
			  const struct slt_report_opts *opts,
			  const struct slt_advice_report_opts *ropts,
			  struct slt_error *err);

/*
 * The HTML page: one self-contained document (inline CSS and SVG, no
 * script, no reference outside the page) that reads on a narrow screen
 * and on paper.  Write slt_report_html_begin() once, then one
 * slt_report_html_struct() per analysed definition (index: its position,
 * for the anchors), then slt_report_html_end().  source: the input file
 * named in the page (NULL: the running kernel); names: the definitions'
 * names for the page's title ("mem_cgroup_per_node", "a, b"; NULL:
 * none).  Per definition: a table
 * of the numbers (size, cache lines, findings, the false-sharing score
 * as the proposals count it (slt_hm_score(): the collision and
 * write-write findings' F(L), not the straddle and adjacent-line points)
 * and its basis, the classes' source, and
 * with advice each proposal's bytes, lines, score, cost, kmalloc class,
 * SLUB order and objects per slab before -> after), the map as SVG
 * (hover a member for its class and counts; a finding's marker links to
 * the finding, the finding to its line), the findings, and each proposal's
 * map beside the original's (with ropts->analysis_after, the findings left
 * marked on it and listed, numbered as the original's when the same).  Every name from the input is escaped.
 * Return 0 or SLT_EIO (SLT_EUSAGE, SLT_ENOMEM from the struct part).
 */
int slt_report_html_begin(FILE *out, const char *source, const char *names,
			  struct slt_error *err);
int slt_report_html_struct(FILE *out, size_t index,
			   const struct slt_analysis *a,
			   const struct slt_advice *advice,
			   const struct slt_report_opts *opts,
			   const struct slt_advice_report_opts *ropts,
			   struct slt_error *err);
int slt_report_html_end(FILE *out, struct slt_error *err);

#ifdef __cplusplus
}
#endif
#endif
