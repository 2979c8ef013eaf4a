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
		/* every offset, from the first byte after the header, must
		 * point inside the unit: libdwarf 20210528 adds it to the
		 * section's address unchecked (DW_FORM_rnglistx/loclistx) */
		for (uint64_t i = 0; i < count; i++)
			if (rd(p + at + 8 + i * osz, osz, le) >= len - 8)
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

/* The ULEB128 at p[*at..n): advances *at; false when it runs off the end
 * or needs more than 64 bits. */
static bool uleb(const uint8_t *p, size_t n, size_t *at, uint64_t *v)
{
	uint64_t r = 0;
	for (unsigned shift = 0; *at < n && shift < 64; shift += 7) {
		uint8_t b = p[(*at)++];
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return true;
		}
	}
	return false;
}

/* A counted location description: ULEB length, then that many bytes. */
static bool counted(const uint8_t *p, size_t n, size_t *at)
{
	uint64_t len;
	if (!uleb(p, n, at, &len) || len > n - *at)
		return false;
	*at += (size_t)len;
	return true;
}

bool slt_dw_loclist_ok(const uint8_t *p, size_t n, uint64_t off, unsigned asz)
{
	if (off >= n || (asz != 4 && asz != 8))
		return false;
	size_t at = (size_t)off;
	uint64_t v;
	while (at < n) {
		switch (p[at++]) {
		case 0x00: /* DW_LLE_end_of_list */
			return true;
		case 0x01: /* DW_LLE_base_addressx */
			if (!uleb(p, n, &at, &v))
				return false;
			break;
		case 0x02: /* DW_LLE_startx_endx */
		case 0x03: /* DW_LLE_startx_length */
		case 0x04: /* DW_LLE_offset_pair */
			if (!uleb(p, n, &at, &v) || !uleb(p, n, &at, &v) ||
			    !counted(p, n, &at))
				return false;
			break;
		case 0x05: /* DW_LLE_default_location */
			if (!counted(p, n, &at))
				return false;
			break;
		case 0x06: /* DW_LLE_base_address */
			if (n - at < asz)
				return false;
			at += asz;
			break;
		case 0x07: /* DW_LLE_start_end */
			if (n - at < 2 * (size_t)asz)
				return false;
			at += 2 * (size_t)asz;
			if (!counted(p, n, &at))
				return false;
			break;
		case 0x08: /* DW_LLE_start_length */
			if (n - at < asz)
				return false;
			at += asz;
			if (!uleb(p, n, &at, &v) || !counted(p, n, &at))
				return false;
			break;
		default:
			return false;
		}
	}
	return false; /* no DW_LLE_end_of_list before the end */
}

bool slt_dw_listx_offset(const uint8_t *p, size_t n, bool le, uint64_t base,
			 uint64_t idx, uint64_t *off)
{
	/* the unit header ends at base: count (4) before it, and the
	 * unit_length 0xffffffff 20 bytes before it in the 64-bit format */
	if (base < 12 || base > n)
		return false;
	size_t osz = base >= 20 && rd(p + base - 20, 4, le) == 0xffffffffu ? 8 : 4;
	uint64_t count = rd(p + base - 4, 4, le);
	if (n - base < osz || idx >= count || idx >= (n - base) / osz)
		return false;
	uint64_t v = rd(p + base + idx * osz, osz, le);
	if (v >= n - base)
		return false;
	*off = base + v;
	return true;
}
