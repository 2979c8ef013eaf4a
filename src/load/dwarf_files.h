/* SPDX-License-Identifier: MIT */
/*
 * The file table of a DWARF line program header (dwarf_files.c): the
 * names DW_AT_decl_file indexes.  Internal to src/load.
 */
#ifndef SLT_LOAD_DWARF_FILES_H
#define SLT_LOAD_DWARF_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The string sections a DWARF 5 header's paths may point into
 * (DW_FORM_line_strp: .debug_line_str; DW_FORM_strp: .debug_str). */
struct slt_dw_strs {
	const uint8_t *lstr, *str;
	size_t lstr_n, str_n;
};

/* names[i] is file i as DW_AT_decl_file numbers it in DWARF 5 (0 is the
 * primary file); for versions 2-4, DW_AT_decl_file k is names[k - 1]. */
struct slt_dw_files {
	char **names; /* malloc()ed, each malloc()ed or NULL (a path this
		       * reader cannot read: strx forms, a bad string
		       * offset); slt_dw_files_clear() */
	size_t n;
	unsigned version; /* of the line table: 2..5 */
};

/* Read the file table of the line program header at byte off of the
 * .debug_line bytes p[0..n) (le: byte order), joining each name with its
 * directory and comp_dir (the CU's DW_AT_comp_dir, or NULL) as libdwarf
 * does.  0 and *out filled, or -1 (out empty) when the header is
 * malformed, runs past its unit, or uses a form this reader does not
 * know; out of memory also gives -1 (the file names are then unknown,
 * which loses nothing but decl_file). */
int slt_dw_line_files(const uint8_t *p, size_t n, uint64_t off, bool le,
		      const char *comp_dir, const struct slt_dw_strs *st,
		      struct slt_dw_files *out);
void slt_dw_files_clear(struct slt_dw_files *f);
/* The name of file number idx as DW_AT_decl_file or a line table row
 * numbers it (1-based before DWARF 5), or NULL (0 before DWARF 5, out of
 * range, unreadable). */
const char *slt_dw_file_name(const struct slt_dw_files *f, uint64_t idx);

#endif
