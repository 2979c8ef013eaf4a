/* SPDX-License-Identifier: MIT */
/* The byte cursor shared by the DWARF readers (src/common/bytes.h):
 * LEB128 against the examples of DWARF 5 section 7.6 (Figures 22 and
 * 23), the 64-bit limits, padding, overflow and truncation; fixed-size
 * values in both byte orders; the initial length of a unit (7.4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/bytes.h"

/* Decodes b[0, n) as one LEB128; *used: the bytes it took.  Returns the
 * value, or sets *bad. */
static uint64_t leb(const uint8_t *b, size_t n, bool sign, size_t *used,
		    bool *bad)
{
	struct slt_bytes c = { b, 0, n, true, false };
	uint64_t v = sign ? (uint64_t)slt_bytes_sleb(&c) : slt_bytes_uleb(&c);
	*used = c.at;
	*bad = c.bad;
	return v;
}

#define LEB_OK(sign, want, ...) do { \
	const uint8_t b_[] = { __VA_ARGS__ }; \
	size_t u_; bool bad_; \
	uint64_t v_ = leb(b_, sizeof(b_), sign, &u_, &bad_); \
	assert_false(bad_); \
	assert_int_equal(u_, sizeof(b_)); \
	assert_int_equal(v_, (uint64_t)(want)); \
} while (0)

#define LEB_BAD(sign, ...) do { \
	const uint8_t b_[] = { __VA_ARGS__ }; \
	size_t u_; bool bad_; \
	uint64_t v_ = leb(b_, sizeof(b_), sign, &u_, &bad_); \
	assert_true(bad_); \
	assert_int_equal(v_, 0); \
} while (0)

static void uleb_examples(void **state)
{
	(void)state;
	/* DWARF 5 Figure 22 */
	LEB_OK(false, 2, 0x02);
	LEB_OK(false, 127, 0x7f);
	LEB_OK(false, 128, 0x80, 0x01);
	LEB_OK(false, 129, 0x81, 0x01);
	LEB_OK(false, 130, 0x82, 0x01);
	LEB_OK(false, 12857, 0xb9, 0x64);
	/* the largest value: ten bytes, one bit in the last */
	LEB_OK(false, UINT64_MAX, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	       0xff, 0xff, 0x01);
	/* zero padding past 64 bits is allowed (the standard sets no length) */
	LEB_OK(false, 2, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	       0x80, 0x80, 0x00);
	/* a value bit past bit 63 does not fit */
	LEB_BAD(false, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x02);
	LEB_BAD(false, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
		0x80, 0x01);
	/* truncated */
	LEB_BAD(false, 0x80);
	LEB_BAD(false, 0xff, 0xff);
}

static void sleb_examples(void **state)
{
	(void)state;
	/* DWARF 5 Figure 23 */
	LEB_OK(true, 2, 0x02);
	LEB_OK(true, -2, 0x7e);
	LEB_OK(true, 127, 0xff, 0x00);
	LEB_OK(true, -127, 0x81, 0x7f);
	LEB_OK(true, 128, 0x80, 0x01);
	LEB_OK(true, -128, 0x80, 0x7f);
	LEB_OK(true, 129, 0x81, 0x01);
	LEB_OK(true, -129, 0xff, 0x7e);
	/* the limits */
	LEB_OK(true, INT64_MIN, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	       0x80, 0x80, 0x7f);
	LEB_OK(true, INT64_MAX, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	       0xff, 0xff, 0x00);
	/* sign padding */
	LEB_OK(true, -1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	       0xff, 0xff, 0x7f);
	/* past 64 bits the bytes must repeat the sign */
	LEB_BAD(true, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x01);
	LEB_BAD(true, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
		0x80, 0x7f);
	LEB_BAD(true, 0xff);
}

static void fixed_and_skip(void **state)
{
	(void)state;
	const uint8_t b[] = { 0x01, 0x02, 0x03, 0x04, 0x05 };
	struct slt_bytes le = { b, 0, sizeof(b), true, false };
	assert_int_equal(slt_bytes_fixed(&le, 2), 0x0201);
	assert_int_equal(slt_bytes_fixed(&le, 3), 0x050403);
	assert_false(le.bad);
	assert_int_equal(slt_bytes_fixed(&le, 1), 0);
	assert_true(le.bad);
	/* once bad, every read is 0 */
	le.at = 0;
	assert_int_equal(slt_bytes_fixed(&le, 1), 0);

	struct slt_bytes be = { b, 1, sizeof(b), false, false };
	assert_int_equal(slt_bytes_fixed(&be, 4), 0x02030405);
	struct slt_bytes s = { b, 0, sizeof(b), true, false };
	slt_bytes_skip(&s, 5);
	assert_false(s.bad);
	assert_int_equal(s.at, 5);
	slt_bytes_skip(&s, 1);
	assert_true(s.bad);
	struct slt_bytes big = { b, 0, sizeof(b), true, false };
	slt_bytes_skip(&big, UINT64_MAX);
	assert_true(big.bad);

	size_t at = 0;
	uint64_t v;
	const uint8_t u[] = { 0xb9, 0x64, 0x80 };
	assert_true(slt_uleb128(u, sizeof(u), &at, &v));
	assert_int_equal(v, 12857);
	assert_int_equal(at, 2);
	assert_false(slt_uleb128(u, sizeof(u), &at, &v));
}

static void unit_length(void **state)
{
	(void)state;
	unsigned osz;
	const uint8_t l32[] = { 0x02, 0, 0, 0, 0xaa, 0xbb };
	struct slt_bytes c = { l32, 0, sizeof(l32), true, false };
	assert_int_equal(slt_bytes_unit_length(&c, &osz), 2);
	assert_int_equal(osz, 4);
	assert_int_equal(c.at, 4);

	const uint8_t l64[] = { 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0,
				0xaa };
	c = (struct slt_bytes){ l64, 0, sizeof(l64), true, false };
	assert_int_equal(slt_bytes_unit_length(&c, &osz), 1);
	assert_int_equal(osz, 8);
	assert_int_equal(c.at, 12);

	/* reserved, and past the end */
	const uint8_t res[] = { 0xf0, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0 };
	c = (struct slt_bytes){ res, 0, sizeof(res), true, false };
	slt_bytes_unit_length(&c, &osz);
	assert_true(c.bad);
	const uint8_t past[] = { 0x03, 0, 0, 0, 0xaa, 0xbb };
	c = (struct slt_bytes){ past, 0, sizeof(past), true, false };
	assert_int_equal(slt_bytes_unit_length(&c, &osz), 0);
	assert_true(c.bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uleb_examples),
		cmocka_unit_test(sleb_examples),
		cmocka_unit_test(fixed_and_skip),
		cmocka_unit_test(unit_length),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
