/* SPDX-License-Identifier: MIT */
/*
 * Line tables for the access map's site positions.  Each compile unit's
 * table is read once through libdwarf (dwarf_srclines_b) into rows sorted
 * by address; a lookup takes the last row at or below the PC (DWARF 5
 * section 6.2: a row holds until the next one; an end_sequence row ends
 * it).  File names come from the loader's own reading of the line program
 * header (slt_dw_cu_files: a CU whose header is malformed is not handed to
 * libdwarf at all) and are copied once per distinct name into the arena.
 */
#include <stdlib.h>
#include <string.h>

#include "access/lines.h"
#include "common/arena.h"

struct row {
	uint64_t addr;
	const char *file;   /* NULL: end of a sequence */
	uint32_t line;
};

struct cut {
	uint64_t cu;
	struct row *rows;
	size_t n;
};

struct slt_acc_lines {
	struct dw *d;
	struct slt_arena *arena;
	struct vec cus;    /* struct cut */
};

struct slt_acc_lines *slt_acc_lines_new(struct dw *d)
{
	struct slt_acc_lines *l = calloc(1, sizeof(*l));
	if (!l || !(l->arena = slt_arena_new())) {
		free(l);
		return NULL;
	}
	l->d = d;
	l->cus.elt = sizeof(struct cut);
	return l;
}

void slt_acc_lines_free(struct slt_acc_lines *l)
{
	if (!l)
		return;
	struct cut *c = l->cus.v;
	for (size_t i = 0; i < l->cus.n; i++)
		free(c[i].rows);
	free(l->cus.v);
	slt_arena_free(l->arena);
	free(l);
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* at one address, an end of sequence comes before the next start */
	return (x->file != NULL) - (y->file != NULL);
}

static void load(struct slt_acc_lines *l, struct cut *c)
{
	Dwarf_Debug dbg = l->d->dbg;
	Dwarf_Die die = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Unsigned ver = 0;
	Dwarf_Small count = 0;
	Dwarf_Line_Context ctx = NULL;
	Dwarf_Line *lines = NULL;
	Dwarf_Signed n = 0;
	/* the header checked first (slt_dw_cu_files), and file names from
	 * that table, not from libdwarf's dwarf_linesrc() */
	const struct slt_dw_files *files = slt_dw_cu_files(l->d, c->cu);
	if (!files)
		return;
	if (dwarf_offdie_b(dbg, c->cu, 1, &die, &e) != DW_DLV_OK)
		goto out;
	if (dwarf_srclines_b(die, &ver, &count, &ctx, &e) != DW_DLV_OK)
		goto out;
	if (dwarf_srclines_from_linecontext(ctx, &lines, &n, &e) != DW_DLV_OK || n <= 0)
		goto out;
	c->rows = calloc((size_t)n, sizeof(*c->rows));
	if (!c->rows)
		goto out;
	const char *prev = NULL;
	for (Dwarf_Signed i = 0; i < n; i++) {
		Dwarf_Addr a = 0;
		Dwarf_Unsigned ln = 0;
		Dwarf_Bool end = 0;
		if (dwarf_lineaddr(lines[i], &a, &e) != DW_DLV_OK ||
		    dwarf_lineno(lines[i], &ln, &e) != DW_DLV_OK ||
		    dwarf_lineendsequence(lines[i], &end, &e) != DW_DLV_OK) {
			if (e)
				dwarf_dealloc(dbg, e, DW_DLA_ERROR);
			e = NULL;
			continue;
		}
		const char *file = NULL;
		if (!end) {
			Dwarf_Unsigned fno = 0;
			const char *src = NULL;
			if (dwarf_line_srcfileno(lines[i], &fno, &e) == DW_DLV_OK)
				src = slt_dw_file_name(files, fno);
			if (e)
				dwarf_dealloc(dbg, e, DW_DLA_ERROR);
			e = NULL;
			if (!src) {
				file = "";
			} else {
				file = prev && !strcmp(prev, src)
					       ? prev
					       : slt_arena_strdup(l->arena, src);
				if (!file)
					file = "";
				prev = file;
			}
		}
		c->rows[c->n++] = (struct row){.addr = a, .file = file,
					       .line = (uint32_t)ln};
	}
	if (c->n > 1) /* qsort(NULL, 0) is undefined */
		qsort(c->rows, c->n, sizeof(*c->rows), cmp_row);
out:
	if (e)
		dwarf_dealloc(dbg, e, DW_DLA_ERROR);
	if (ctx)
		dwarf_srclines_dealloc_b(ctx);
	if (die)
		dwarf_dealloc_die(die);
}

int slt_acc_lines_find(struct slt_acc_lines *l, uint64_t cu, uint64_t pc,
		       const char **file, uint32_t *line)
{
	struct cut *c = NULL, *all = l->cus.v;
	for (size_t i = 0; i < l->cus.n; i++)
		if (all[i].cu == cu)
			c = &all[i];
	if (!c) {
		if (!(c = slt_dw_vec_push(l->d, &l->cus))) {
			l->d->rc = 0;
			return SLT_ENOMEM;
		}
		c->cu = cu;
		load(l, c);
	}
	size_t lo = 0, hi = c->n;
	while (lo < hi) {   /* first row with addr > pc */
		size_t mid = lo + (hi - lo) / 2;
		if (c->rows[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !c->rows[lo - 1].file)
		return SLT_ENOTFOUND;
	*file = c->rows[lo - 1].file;
	*line = c->rows[lo - 1].line;
	return 0;
}
