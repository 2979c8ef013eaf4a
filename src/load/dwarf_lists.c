/* SPDX-License-Identifier: MIT */
/*
 * A bounds check of the unit headers of .debug_rnglists and
 * .debug_loclists before libdwarf sees them.  libdwarf 20210528 reads every
 * header of these sections when it loads the first CU (dwarf_load_rnglists,
 * dwarf_load_loclists) and frees a context twice on some malformed ones (a
 * zero unit_length: found by tests/fuzz/fuzz_access), so a file whose
 * headers do not tile the section is refused here as corrupt.
 *
 * Header (DWARF 5 sections 7.28 and 7.29): unit_length (4 bytes, or
 * 0xffffffff and 8 bytes), version (2), address_size (1),
 * segment_selector_size (1), offset_entry_count (4), then
 * offset_entry_count offsets of 4 or 8 bytes; the unit ends unit_length
 * bytes after the length field.
 */
#include <string.h>

#include "load/dwarf_int.h"

static uint64_t rd(const uint8_t *p, size_t n, bool le)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[le ? i : n - 1 - i] << (8 * i);
	return v;
}

int slt_dw_check_lists(const uint8_t *p, size_t n, bool le, const char *sec,
		       const char *path, struct slt_error *err)
{
	size_t at = 0;
	while (at < n) {
		size_t start = at;
		if (n - at < 4)
			goto bad;
		uint64_t len = rd(p + at, 4, le);
		size_t osz = 4;
		at += 4;
		if (len == 0xffffffffu) {
			if (n - at < 8)
				goto bad;
			len = rd(p + at, 8, le);
			osz = 8;
			at += 8;
		} else if (len >= 0xfffffff0u) {
			goto bad;
		}
		/* version, sizes, offset_entry_count */
		if (len < 8 || len > n - at)
			goto bad;
		uint64_t count = rd(p + at + 4, 4, le);
		uint8_t asz = p[at + 2], ssz = p[at + 3];
		if (rd(p + at, 2, le) != 5 || (asz != 4 && asz != 8) || ssz ||
		    count > (len - 8) / osz)
			goto bad;
		at += (size_t)len;
		continue;
bad:
		return slt_error_set(err, SLT_ECORRUPT, path, -1,
				     "the file is damaged; rebuild it",
				     "%s: malformed unit header at section "
				     "offset %zu", sec, start);
	}
	return 0;
}
