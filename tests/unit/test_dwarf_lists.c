/* SPDX-License-Identifier: MIT */
/*
 * The unit-header check of .debug_rnglists/.debug_loclists
 * (src/load/dwarf_lists.c) on hand-made bytes: units that tile the
 * section pass; a zero length, a unit past the end, a wrong version and an
 * offset-table entry outside its unit (libdwarf 20210528 follows
 * DW_FORM_loclistx through that table unchecked) are refused.  Then the
 * per-list check made before libdwarf reads a DWARF 5 location list.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "load/dwarf_int.h"

/* A 32-bit DWARF 5 list unit at p: nent offsets (4 bytes each) then body
 * bytes of zero (DW_LLE_end_of_list); returns its size. */
static size_t unit(uint8_t *p, const uint32_t *off, size_t nent, size_t body)
{
	uint32_t len = (uint32_t)(8 + 4 * nent + body);
	size_t at = 0;
	memcpy(p + at, &len, 4), at += 4;
	p[at++] = 5, p[at++] = 0;      /* version */
	p[at++] = 8, p[at++] = 0;      /* address size, segment size */
	uint32_t n = (uint32_t)nent;
	memcpy(p + at, &n, 4), at += 4;
	for (size_t i = 0; i < nent; i++)
		memcpy(p + at, &off[i], 4), at += 4;
	memset(p + at, 0, body);
	return at + body;
}

static int check(const uint8_t *p, size_t n)
{
	struct slt_error err;
	slt_error_clear(&err);
	return slt_dw_check_lists(p, n, true, ".debug_loclists", "t.o", &err);
}

static void tiles(void **state)
{
	(void)state;
	uint8_t b[256];
	/* offsets 8 and 11 point at the body (after 2 entries: 8 bytes) */
	const uint32_t off[] = { 8, 11 };
	size_t n = unit(b, off, 2, 4);
	n += unit(b + n, NULL, 0, 3);
	assert_int_equal(check(b, n), 0);
	assert_int_equal(check(b, 0), 0);
}

static void offset_outside_unit(void **state)
{
	(void)state;
	uint8_t b[256];
	/* the body ends at offset 8 + 4 = 12 from the offsets' start */
	const uint32_t last[] = { 11 }, past[] = { 12 }, wild[] = { 0x7fffffff };
	assert_int_equal(check(b, unit(b, last, 1, 8)), 0);
	assert_int_equal(check(b, unit(b, past, 1, 8)), SLT_ECORRUPT);
	assert_int_equal(check(b, unit(b, wild, 1, 8)), SLT_ECORRUPT);
	/* a bad table in the second unit is found too */
	size_t n = unit(b, last, 1, 8);
	n += unit(b + n, wild, 1, 8);
	assert_int_equal(check(b, n), SLT_ECORRUPT);
}

static void bad_headers(void **state)
{
	(void)state;
	uint8_t b[64];
	size_t n = unit(b, NULL, 0, 4);
	memset(b, 0, 4); /* zero unit_length */
	assert_int_equal(check(b, n), SLT_ECORRUPT);
	n = unit(b, NULL, 0, 4);
	assert_int_equal(check(b, n - 1), SLT_ECORRUPT); /* past the end */
	b[4] = 4; /* version 4 */
	assert_int_equal(check(b, n), SLT_ECORRUPT);
	n = unit(b, NULL, 0, 4);
	b[8] = 9; /* offset_entry_count larger than the unit */
	assert_int_equal(check(b, n), SLT_ECORRUPT);
}

static void loclist_entries(void **state)
{
	(void)state;
	/* offset_pair 1 2, expression of 1 byte; base_address (8); end */
	const uint8_t ok[] = { 0x04, 1, 2, 1, 0x50, 0x06, 1, 2, 3, 4, 5, 6, 7, 8, 0x00 };
	assert_true(slt_dw_loclist_ok(ok, sizeof ok, 0, 8));
	assert_true(slt_dw_loclist_ok(ok, sizeof ok, 14, 8)); /* just the end */
	assert_false(slt_dw_loclist_ok(ok, sizeof ok, 15, 8)); /* past it */
	assert_false(slt_dw_loclist_ok(ok, sizeof ok - 1, 0, 8)); /* no end */
	assert_false(slt_dw_loclist_ok(ok, sizeof ok, 0, 2));  /* address size */
	/* a counted expression longer than the section (libdwarf skips it
	 * unchecked) */
	const uint8_t longexpr[] = { 0x05, 0xff, 0xff, 0x03, 0x50, 0x00 };
	assert_false(slt_dw_loclist_ok(longexpr, sizeof longexpr, 0, 8));
	/* start_length: address, ULEB, expression; a ULEB that never ends */
	const uint8_t sl[] = { 0x08, 1, 2, 3, 4, 0x10, 1, 0x50, 0x00 };
	assert_true(slt_dw_loclist_ok(sl, sizeof sl, 0, 4));
	const uint8_t runaway[] = { 0x01, 0x80, 0x80, 0x80 };
	assert_false(slt_dw_loclist_ok(runaway, sizeof runaway, 0, 8));
	const uint8_t unknown[] = { 0x09, 0x00 };
	assert_false(slt_dw_loclist_ok(unknown, sizeof unknown, 0, 8));
}

static void listx_table(void **state)
{
	(void)state;
	uint8_t b[64];
	const uint32_t off[] = { 8, 9 };
	size_t n = unit(b, off, 2, 4);
	uint64_t at = 0;
	/* the table starts 12 bytes in (after a 32-bit header) */
	assert_true(slt_dw_listx_offset(b, n, true, 12, 1, &at));
	assert_int_equal(at, 12 + 9);
	assert_false(slt_dw_listx_offset(b, n, true, 12, 2, &at)); /* count */
	assert_false(slt_dw_listx_offset(b, n, true, 11, 0, &at));
	assert_false(slt_dw_listx_offset(b, n, true, n + 1, 0, &at));
	const uint32_t wild[] = { 0x7fffffff };
	n = unit(b, wild, 1, 4); /* slt_dw_check_lists refuses it too */
	assert_false(slt_dw_listx_offset(b, n, true, 12, 0, &at));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(tiles),
		cmocka_unit_test(offset_outside_unit),
		cmocka_unit_test(bad_headers),
		cmocka_unit_test(loclist_entries),
		cmocka_unit_test(listx_table),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
