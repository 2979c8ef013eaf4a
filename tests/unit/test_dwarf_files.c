/* SPDX-License-Identifier: MIT */
/*
 * The line program header's file table (src/load/dwarf_files.c) on
 * hand-made headers, DWARF 4 and 5: names joined as libdwarf joins them
 * (the loader's decl_file strings must not change), and the corrupt
 * headers on which libdwarf 20210528's dwarf_srcfiles() read out of
 * bounds or allocated what a damaged count asked refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "load/dwarf_files.h"

struct buf {
	uint8_t b[512];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}
static void u8(struct buf *b, uint8_t v) { put(b, &v, 1); }
static void u16(struct buf *b, uint16_t v) { put(b, &v, 2); }
static void u32(struct buf *b, uint32_t v) { put(b, &v, 4); }
static void str(struct buf *b, const char *s) { put(b, s, strlen(s) + 1); }

/* Header fields after header_length, up to standard_opcode_lengths. */
static void common(struct buf *b, int ver)
{
	u8(b, 1);               /* minimum_instruction_length */
	if (ver >= 4)
		u8(b, 1);       /* maximum_operations_per_instruction */
	u8(b, 1);               /* default_is_stmt */
	u8(b, (uint8_t)-5);     /* line_base */
	u8(b, 14);              /* line_range */
	u8(b, 13);              /* opcode_base */
	for (int i = 0; i < 12; i++)
		u8(b, 0);
}

/* unit_length and header_length fixed up once the body is written */
static size_t begin(struct buf *b, int ver, size_t *hl)
{
	size_t at = b->n;
	u32(b, 0);
	u16(b, (uint16_t)ver);
	if (ver >= 5)
		u8(b, 8), u8(b, 0);
	*hl = b->n;
	u32(b, 0);
	common(b, ver);
	return at;
}

static void end(struct buf *b, size_t at, size_t hl)
{
	uint32_t ul = (uint32_t)(b->n - at - 4), h = (uint32_t)(b->n - hl - 4);
	memcpy(b->b + at, &ul, 4);
	memcpy(b->b + hl, &h, 4);
}

static int read(struct buf *b, const char *comp_dir, struct slt_dw_files *f)
{
	struct slt_dw_strs st = { 0 };
	return slt_dw_line_files(b->b, b->n, 0, true, comp_dir, &st, f);
}

static void v4_names(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	size_t hl, at = begin(&b, 4, &hl);
	str(&b, "/usr/include"), str(&b, "inc"), u8(&b, 0);
	str(&b, "a.c"), u8(&b, 0), u8(&b, 0), u8(&b, 0);      /* comp dir */
	str(&b, "stdio.h"), u8(&b, 1), u8(&b, 0), u8(&b, 0);  /* absolute dir */
	str(&b, "x.h"), u8(&b, 2), u8(&b, 0), u8(&b, 0);      /* relative dir */
	str(&b, "/abs/y.h"), u8(&b, 2), u8(&b, 0), u8(&b, 0); /* absolute */
	u8(&b, 0);
	end(&b, at, hl);
	struct slt_dw_files f;
	assert_int_equal(read(&b, "/src/", &f), 0);
	assert_int_equal(f.version, 4);
	assert_int_equal(f.n, 4);
	assert_string_equal(f.names[0], "/src/a.c");
	assert_string_equal(f.names[1], "/usr/include/stdio.h");
	assert_string_equal(f.names[2], "/src/inc/x.h");
	assert_string_equal(f.names[3], "/abs/y.h");
	slt_dw_files_clear(&f);
	/* a directory index past the table */
	b.n = 0;
	at = begin(&b, 4, &hl);
	u8(&b, 0);
	str(&b, "a.c"), u8(&b, 1), u8(&b, 0), u8(&b, 0), u8(&b, 0);
	end(&b, at, hl);
	assert_int_equal(read(&b, NULL, &f), -1);
	assert_int_equal(f.n, 0);
}

/* A DWARF 5 table: directories and files with (path string,
 * directory_index udata) formats. */
static void v5_begin(struct buf *b, size_t *at, size_t *hl, uint8_t ndirs)
{
	*at = begin(b, 5, hl);
	u8(b, 1), u8(b, 1), u8(b, 0x08); /* DW_LNCT_path, DW_FORM_string */
	u8(b, ndirs);
}

static void v5_names(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	size_t at, hl;
	v5_begin(&b, &at, &hl, 2);
	str(&b, "/build"), str(&b, "include");
	u8(&b, 2), u8(&b, 1), u8(&b, 0x08), u8(&b, 2), u8(&b, 0x0f);
	u8(&b, 3);
	str(&b, "a.c"), u8(&b, 0);
	str(&b, "b.h"), u8(&b, 1);
	str(&b, "/abs/c.h"), u8(&b, 1);
	end(&b, at, hl);
	struct slt_dw_files f;
	assert_int_equal(read(&b, "/build", &f), 0);
	assert_int_equal(f.version, 5);
	assert_int_equal(f.n, 3);
	assert_string_equal(f.names[0], "/build/a.c");
	assert_string_equal(f.names[1], "/build/include/b.h");
	assert_string_equal(f.names[2], "/abs/c.h");
	slt_dw_files_clear(&f);
}

static void v5_corrupt(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	size_t at, hl;
	struct slt_dw_files f;
	/* directory index equal to the directory count: libdwarf read one
	 * past its table */
	v5_begin(&b, &at, &hl, 1);
	str(&b, "/build");
	u8(&b, 2), u8(&b, 1), u8(&b, 0x08), u8(&b, 2), u8(&b, 0x0f);
	u8(&b, 1);
	str(&b, "a.c"), u8(&b, 1);
	end(&b, at, hl);
	assert_int_equal(read(&b, NULL, &f), -1);
	/* a file count far beyond the header's bytes */
	b.n = 0;
	v5_begin(&b, &at, &hl, 1);
	str(&b, "/build");
	u8(&b, 1), u8(&b, 1), u8(&b, 0x08);
	u8(&b, 0xff), u8(&b, 0xff), u8(&b, 0xff), u8(&b, 0x7f);
	str(&b, "a.c");
	end(&b, at, hl);
	assert_int_equal(read(&b, NULL, &f), -1);
	/* an unterminated path, a form not known, a header past its unit */
	b.n = 0;
	v5_begin(&b, &at, &hl, 1);
	put(&b, "/build", 6);
	end(&b, at, hl);
	assert_int_equal(read(&b, NULL, &f), -1);
	b.n = 0;
	at = begin(&b, 5, &hl);
	u8(&b, 1), u8(&b, 1), u8(&b, 0x03); /* DW_FORM_block2 */
	u8(&b, 1), u16(&b, 0);
	end(&b, at, hl);
	assert_int_equal(read(&b, NULL, &f), -1);
	b.n = 0;
	v5_begin(&b, &at, &hl, 0);
	u8(&b, 0), u8(&b, 0);
	end(&b, at, hl);
	b.b[0] += 40; /* unit_length beyond the section */
	assert_int_equal(read(&b, NULL, &f), -1);
	/* the offset past the section, a version not known */
	b.b[0] -= 40;
	assert_int_equal(slt_dw_line_files(b.b, b.n, b.n, true, NULL,
					   &(struct slt_dw_strs){ 0 }, &f), -1);
	b.b[4] = 6;
	assert_int_equal(read(&b, NULL, &f), -1);
	assert_int_equal(f.n, 0);
	assert_null(f.names);
}

static void v5_line_strp(void **state)
{
	(void)state;
	static const uint8_t lstr[] = "/build\0a.c\0";
	struct buf b = { .n = 0 };
	size_t hl, at = begin(&b, 5, &hl);
	u8(&b, 1), u8(&b, 1), u8(&b, 0x1f); /* DW_FORM_line_strp */
	u8(&b, 1), u32(&b, 0);
	u8(&b, 2), u8(&b, 1), u8(&b, 0x1f), u8(&b, 2), u8(&b, 0x0b);
	u8(&b, 2), u32(&b, 7), u8(&b, 0), u32(&b, 99), u8(&b, 0);
	end(&b, at, hl);
	struct slt_dw_strs st = { .lstr = lstr, .lstr_n = sizeof lstr };
	struct slt_dw_files f;
	assert_int_equal(slt_dw_line_files(b.b, b.n, 0, true, NULL, &st, &f), 0);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.names[0], "/build/a.c");
	/* an offset past .debug_line_str: the name is unknown */
	assert_null(f.names[1]);
	slt_dw_files_clear(&f);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(v4_names),
		cmocka_unit_test(v5_names),
		cmocka_unit_test(v5_corrupt),
		cmocka_unit_test(v5_line_strp),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
