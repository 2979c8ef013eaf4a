/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the line program header's file table
 * (src/load/dwarf_files.c): the input is a .debug_line section, read at
 * offset 0 with the same bytes standing for .debug_line_str and
 * .debug_str.  Any crash, leak, out-of-bounds read or UB report is a bug;
 * -1 is the expected answer to garbage.  Seeds: the .debug_line sections
 * of fixtures/access/access.c built by gcc and clang, DWARF 2 to 5
 * (tests/fuzz/meson.build).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load/dwarf_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_dw_strs st = { .lstr = data, .lstr_n = size,
				  .str = data, .str_n = size };
	struct slt_dw_files f;
	if (slt_dw_line_files(data, size, 0, true, "/comp", &st, &f) == 0) {
		size_t sum = 0;
		for (size_t i = 0; i < f.n; i++)
			sum += f.names[i] ? strlen(f.names[i]) : 0;
		if (f.version < 2 || f.version > 5 || (sum && !f.n))
			abort();
		slt_dw_files_clear(&f);
	} else if (f.n || f.names) {
		abort();
	}
	return 0;
}
