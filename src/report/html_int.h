/* SPDX-License-Identifier: MIT */
/*
 * The HTML page (structlint/map_report.h), internal to src/report:
 *   html_page.c  the document, its CSS, the tables, the findings, the
 *                proposals
 *   html_svg.c   one map as inline SVG, and the escaping of text
 * Output is XHTML-compatible (every element closed, attributes quoted,
 * numeric character references only) so an XML parser reads it too.
 */
#ifndef SLT_REPORT_HTML_INT_H
#define SLT_REPORT_HTML_INT_H

#include <stdio.h>

#include "report/heatmap.h"

/* s with & < > " ' escaped (text and attribute values alike). */
void slt_html_esc(FILE *out, const char *s);

/* The map of m as a <div class="map"> of <svg> elements, one per line (a
 * printed page breaks between lines), each a window on one picture.  id: the prefix of its ids (lines are
 * ID-lK; NULL: no ids); fid: the prefix of the findings' ids its markers
 * link to (NULL: no markers); label: the figure's accessible name. */
void slt_html_svg(FILE *out, const struct slt_hm *m, const char *id,
		  const char *fid, const char *label);

/* The CSS class of an owner's fill: c-hw, c-rm, c-mx, c-ts, c-cold,
 * c-none, c-hole, c-out. */
const char *slt_html_class(const struct slt_hm *m, long owner);

#endif
