/* SPDX-License-Identifier: MIT */
/* Line tables of compile units, loaded on demand for site positions
 * (libdwarf's dwarf_srclines_b; no bytes parsed here).  Internal to
 * src/access. */
#ifndef SLT_ACCESS_LINES_H
#define SLT_ACCESS_LINES_H

#include <stdint.h>

#include "load/dwarf_int.h"

struct slt_acc_lines;

/* A cache of line tables over d (borrowed: must outlive it); NULL when
 * out of memory. */
struct slt_acc_lines *slt_acc_lines_new(struct dw *d);
void slt_acc_lines_free(struct slt_acc_lines *l);
/* The row for pc in the line table of the CU at .debug_info offset cu:
 * 0 with *file (owned by l) and *line, or SLT_ENOTFOUND / SLT_ENOMEM. */
int slt_acc_lines_find(struct slt_acc_lines *l, uint64_t cu, uint64_t pc,
		       const char **file, uint32_t *line);

#endif
