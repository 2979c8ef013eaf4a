/* SPDX-License-Identifier: MIT */
/* The command-line number parsers (src/common/num.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/num.h"

static void uints(void **state)
{
	(void)state;
	unsigned long v = 7;
	assert_true(slt_arg_uint("64", 1, 4096, &v));
	assert_int_equal(v, 64);
	assert_true(slt_arg_uint("4096", 1, 4096, &v));
	v = 7;
	assert_false(slt_arg_uint("4097", 1, 4096, &v));
	assert_false(slt_arg_uint("0", 1, 4096, &v));
	/* strtoul would take these: a sign (-1 becomes ULONG_MAX), space,
	 * trailing bytes, overflow, nothing */
	assert_false(slt_arg_uint("-1", 0, (unsigned long)-1, &v));
	assert_false(slt_arg_uint("+5", 0, 10, &v));
	assert_false(slt_arg_uint(" 5", 0, 10, &v));
	assert_false(slt_arg_uint("5 ", 0, 10, &v));
	assert_false(slt_arg_uint("0x10", 0, 100, &v));
	assert_false(slt_arg_uint("99999999999999999999999", 0, (unsigned long)-1, &v));
	assert_false(slt_arg_uint("", 0, 10, &v));
	assert_false(slt_arg_uint(NULL, 0, 10, &v));
	assert_int_equal(v, 7); /* untouched on failure */
}

static void addrs(void **state)
{
	(void)state;
	uint64_t a = 0;
	assert_true(slt_arg_addr("0xffffffff81000000", &a));
	assert_true(a == 0xffffffff81000000ull);
	assert_true(slt_arg_addr("18446744073709551615", &a));
	assert_true(a == UINT64_MAX);
	assert_true(slt_arg_addr("010", &a));
	assert_int_equal(a, 8);
	assert_false(slt_arg_addr("18446744073709551616", &a));
	assert_false(slt_arg_addr("0x", &a));
	assert_false(slt_arg_addr("-0x10", &a));
	assert_false(slt_arg_addr(" 0x10", &a));
	assert_false(slt_arg_addr("0x10g", &a));
}

static void ratios(void **state)
{
	(void)state;
	double r = -1;
	assert_true(slt_arg_ratio("0.001", &r));
	assert_true(r == 0.001);
	assert_true(slt_arg_ratio("1e-3", &r));
	assert_true(slt_arg_ratio("1", &r));
	assert_true(slt_arg_ratio("0", &r));
	assert_false(slt_arg_ratio("1.0001", &r));
	assert_false(slt_arg_ratio("-0.1", &r));
	assert_false(slt_arg_ratio("nan", &r));
	assert_false(slt_arg_ratio("inf", &r));
	assert_false(slt_arg_ratio("0.5x", &r));
	assert_false(slt_arg_ratio("", &r));
	assert_false(slt_arg_ratio(" 0.5", &r));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(uints),
		cmocka_unit_test(addrs),
		cmocka_unit_test(ratios),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
