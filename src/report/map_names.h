/* SPDX-License-Identifier: MIT */
/*
 * The terminal map's panels and their names rows, internal to src/report:
 * map_text.c draws the rows, map_names.c writes the names under the cells
 * and the "+a,b" lists after them.
 */
#ifndef SLT_REPORT_MAP_NAMES_H
#define SLT_REPORT_MAP_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "report/heatmap.h"
#include "report/map_row.h"

/* One map's geometry. */
struct panel {
	struct slt_hm m;
	bool color;
	unsigned cell;          /* bytes per cell */
	unsigned cells;         /* cells per row */
	int lw, ow;             /* digits of the line and offset columns */
	size_t prefix;          /* columns before the first cell */
	size_t width;           /* columns of the whole panel */
	bool heat;              /* a profile: heat column */
	size_t marks;           /* columns of the widest " !N !M" */
};

/* The names rows of one panel (as many as the names a finding uses
 * need), and the rows of a line's finding markers that do not fit after
 * its cells. */
struct names {
	struct row *r;
	size_t n, cap;
};

/* Row x of nm (made when missing, nm->n grown to it); NULL when out of
 * memory. */
struct row *names_row(struct names *nm, size_t x);

/* The names rows of line k of p into nm; returns the rows used. */
size_t names_rows(struct names *nm, const struct panel *p, uint64_t k);

/* name alone on rows of its own in nm (a run's label that does not fit
 * after ": lines K-J:"): from the cells' column, further left when longer,
 * broken only when longer than a row. */
void names_whole(struct names *nm, const struct panel *p, const char *name);

#endif
