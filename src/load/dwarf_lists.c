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
 * bytes after the length field.  Each offset is relative to the first byte
 * after the header and must fall inside the unit: libdwarf reads a
 * DW_FORM_rnglistx/loclistx list at the offset without a check.
 */
#include <string.h>

#include "common/bytes.h"
#include "load/dwarf_int.h"

int slt_dw_check_lists(const uint8_t *p, size_t n, bool le, const char *sec,
		       const char *path, struct slt_error *err)
{
	struct slt_bytes c = { p, 0, n, le, false };
	while (c.at < n) {
		size_t start = c.at;
		unsigned osz;
		uint64_t len = slt_bytes_unit_length(&c, &osz);
		/* version, sizes, offset_entry_count */
		if (c.bad || len < 8)
			goto bad;
		struct slt_bytes h = { p, c.at, c.at + (size_t)len, le, false };
		unsigned ver = (unsigned)slt_bytes_fixed(&h, 2);
		unsigned asz = (unsigned)slt_bytes_fixed(&h, 1);
		unsigned ssz = (unsigned)slt_bytes_fixed(&h, 1);
		uint64_t count = slt_bytes_fixed(&h, 4);
		if (ver != 5 || (asz != 4 && asz != 8) || ssz ||
		    count > (len - 8) / osz)
			goto bad;
		/* every offset, from the first byte after the header, must
		 * point inside the unit: libdwarf 20210528 adds it to the
		 * section's address unchecked (DW_FORM_rnglistx/loclistx) */
		for (uint64_t i = 0; i < count; i++)
			if (slt_bytes_fixed(&h, osz) >= len - 8)
				goto bad;
		c.at = h.end;
		continue;
bad:
		return slt_error_set(err, SLT_ECORRUPT, path, -1,
				     "the file is damaged; rebuild it",
				     "%s: malformed unit header at section "
				     "offset %zu", sec, start);
	}
	return 0;
}

/* Skips a counted location description: ULEB length, then that many bytes. */
static void counted(struct slt_bytes *c)
{
	slt_bytes_skip(c, slt_bytes_uleb(c));
}

bool slt_dw_loclist_ok(const uint8_t *p, size_t n, uint64_t off, unsigned asz)
{
	if (off >= n || (asz != 4 && asz != 8))
		return false;
	struct slt_bytes c = { p, (size_t)off, n, true, false };
	while (!c.bad && c.at < n) {
		switch (slt_bytes_fixed(&c, 1)) {
		case 0x00: /* DW_LLE_end_of_list */
			return true;
		case 0x01: /* DW_LLE_base_addressx */
			slt_bytes_uleb(&c);
			break;
		case 0x02: /* DW_LLE_startx_endx */
		case 0x03: /* DW_LLE_startx_length */
		case 0x04: /* DW_LLE_offset_pair */
			slt_bytes_uleb(&c);
			slt_bytes_uleb(&c);
			counted(&c);
			break;
		case 0x05: /* DW_LLE_default_location */
			counted(&c);
			break;
		case 0x06: /* DW_LLE_base_address */
			slt_bytes_skip(&c, asz);
			break;
		case 0x07: /* DW_LLE_start_end */
			slt_bytes_skip(&c, 2 * (uint64_t)asz);
			counted(&c);
			break;
		case 0x08: /* DW_LLE_start_length */
			slt_bytes_skip(&c, asz);
			slt_bytes_uleb(&c);
			counted(&c);
			break;
		default:
			return false;
		}
	}
	return false; /* no DW_LLE_end_of_list before the end */
}

/* The k-byte value at p[at] (the caller has checked that it fits). */
static uint64_t rd(const uint8_t *p, size_t n, size_t at, unsigned k, bool le)
{
	struct slt_bytes c = { p, at, n, le, false };
	return slt_bytes_fixed(&c, k);
}

bool slt_dw_listx_offset(const uint8_t *p, size_t n, bool le, uint64_t base,
			 uint64_t idx, uint64_t *off)
{
	/* the unit header ends at base: count (4) before it, and the
	 * unit_length 0xffffffff 20 bytes before it in the 64-bit format */
	if (base < 12 || base > n)
		return false;
	unsigned osz = base >= 20 && rd(p, n, base - 20, 4, le) == 0xffffffffu ? 8 : 4;
	uint64_t count = rd(p, n, base - 4, 4, le);
	if (n - base < osz || idx >= count || idx >= (n - base) / osz)
		return false;
	uint64_t v = rd(p, n, base + idx * osz, osz, le);
	if (v >= n - base)
		return false;
	*off = base + v;
	return true;
}
