/* SPDX-License-Identifier: MIT */
/*
 * DW_AT_decl_file -> a path: the file table of the DIE's compile unit,
 * read by dwarf_files.c from the unit's line program header (DW_AT_stmt_list)
 * and joined with DW_AT_comp_dir, one unit cached at a time.  Also what
 * src/access/lines.c asks before it hands a unit to libdwarf's line
 * functions (slt_dw_cu_files).  See load/dwarf_int.h.
 */
#include "load/dwarf_int.h"

void slt_dw_files_free(struct dw *d)
{
	slt_dw_files_clear(&d->files);
}

/* A string attribute of die (DW_AT_comp_dir), or NULL; libdwarf's
 * string, valid while the file is open. */
static char *str_attr(struct dw *d, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error e = NULL;
	char *s = NULL;
	if (dwarf_attr(die, at, &a, &e) == DW_DLV_OK) {
		if (dwarf_formstring(a, &s, &e) != DW_DLV_OK)
			s = NULL;
		dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	}
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	return s;
}

/* Read the file table of the CU whose DIE is cd (dwarf_files.c). */
static void load_files(struct dw *d, Dwarf_Die cd)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Off off = 0;
	bool have = false;
	if (dwarf_attr(cd, DW_AT_stmt_list, &a, &e) == DW_DLV_OK) {
		have = dwarf_global_formref(a, &off, &e) == DW_DLV_OK;
		dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	}
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	if (!have)
		return;
	slt_dw_line_section(d);
	if (!d->line)
		return;
	struct slt_dw_strs st = { .lstr = d->lstr, .lstr_n = d->lstr_n,
				  .str = d->str, .str_n = d->str_n };
	(void)slt_dw_line_files(d->line, d->line_n, off, slt_elf_is_le(d->elf),
				str_attr(d, cd, DW_AT_comp_dir), &st, &d->files);
}

const struct slt_dw_files *slt_dw_cu_files(struct dw *d, Dwarf_Off cu)
{
	if (cu != d->files_cu) {
		Dwarf_Error e = NULL;
		slt_dw_files_free(d);
		d->files_cu = cu;
		Dwarf_Die cd = NULL;
		if (cu >= d->obase &&
		    dwarf_offdie_b(d->dbg, cu - d->obase, 1, &cd, &e) == DW_DLV_OK) {
			load_files(d, cd);
			dwarf_dealloc_die(cd);
		}
		if (e)
			dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	}
	return d->files.version ? &d->files : NULL;
}

/* DW_AT_decl_file -> path, from the CU's line table file list (DWARF 5
 * section 6.2.4: index 0 is the CU's primary file; DWARF 2-4: 1-based). */
const char *slt_dw_decl_file(struct dw *d, Dwarf_Die die, uint64_t idx)
{
	Dwarf_Off cu;
	Dwarf_Error e = NULL;
	if (dwarf_CU_dieoffset_given_die(die, &cu, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
		return NULL;
	}
	const struct slt_dw_files *f = slt_dw_cu_files(d, cu + d->obase);
	return f ? slt_dw_file_name(f, idx) : NULL;
}
