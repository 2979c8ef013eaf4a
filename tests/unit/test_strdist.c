/* SPDX-License-Identifier: MIT */
/* Unit tests of src/common/strdist.c: the banded OSA distance against a
 * plain full-matrix reference, and the ranked suggestion list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/strdist.h"

/* Reference: the textbook full-matrix optimal string alignment distance. */
static unsigned ref_osa(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned *d = malloc((la + 1) * (lb + 1) * sizeof(*d));
	assert_non_null(d);
#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (size_t i = 0; i <= la; i++)
		D(i, 0) = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned c = a[i - 1] != b[j - 1];
			unsigned v = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < v)
				v = D(i, j - 1) + 1;
			if (D(i - 1, j - 1) + c < v)
				v = D(i - 1, j - 1) + c;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && D(i - 2, j - 2) + 1 < v)
				v = D(i - 2, j - 2) + 1;
			D(i, j) = v;
		}
	unsigned r = D(la, lb);
#undef D
	free(d);
	return r;
}

static void test_known(void **state)
{
	(void)state;
	assert_int_equal(slt_strdist("", "", 3), 0);
	assert_int_equal(slt_strdist("abc", "abc", 0), 0);
	assert_int_equal(slt_strdist("", "ab", 3), 2);
	assert_int_equal(slt_strdist("kitten", "sitting", 5), 3);
	assert_int_equal(slt_strdist("task_struct", "task_strcut", 3), 1);
	assert_int_equal(slt_strdist("ab", "ba", 3), 1);      /* transposition */
	assert_int_equal(slt_strdist("ca", "abc", 5), 3);     /* OSA, not DL: 3 */
	/* over the limit: limit + 1 */
	assert_int_equal(slt_strdist("kitten", "sitting", 2), 3);
	assert_int_equal(slt_strdist("a", "abcdef", 2), 3);
	assert_int_equal(slt_strdist("abcdef", "", 1), 2);
}

static void test_long_strings(void **state)
{
	(void)state;
	char a[300], b[300];
	memset(a, 'x', sizeof(a));
	memset(b, 'x', sizeof(b));
	a[256] = '\0';
	b[256] = '\0';
	b[100] = 'y';
	assert_int_equal(slt_strdist(a, b, 4), 1);    /* 256 bytes: computed */
	a[256] = 'x';
	a[257] = '\0';
	assert_int_equal(slt_strdist(a, b, 4), 5);    /* 257: limit + 1 */
}

/* Random strings over a tiny alphabet (many edits and transpositions):
 * banded result == reference whenever the reference is within the limit,
 * limit + 1 otherwise. */
static void test_against_reference(void **state)
{
	(void)state;
	unsigned seed = 12345;
	for (int n = 0; n < 20000; n++) {
		char a[24], b[24];
		size_t la, lb;
		seed = seed * 1103515245u + 12345u;
		la = (seed >> 16) % 12;
		seed = seed * 1103515245u + 12345u;
		lb = (seed >> 16) % 12;
		for (size_t i = 0; i < la; i++) {
			seed = seed * 1103515245u + 12345u;
			a[i] = (char)('a' + (seed >> 16) % 3);
		}
		for (size_t i = 0; i < lb; i++) {
			seed = seed * 1103515245u + 12345u;
			b[i] = (char)('a' + (seed >> 16) % 3);
		}
		a[la] = b[lb] = '\0';
		unsigned want = ref_osa(a, b);
		for (unsigned limit = 0; limit < 8; limit++) {
			unsigned got = slt_strdist(a, b, limit);
			unsigned exp = want <= limit ? want : limit + 1;
			if (got != exp)
				fail_msg("'%s' '%s' limit %u: got %u want %u", a, b,
					 limit, got, exp);
		}
	}
}

static void test_suggest(void **state)
{
	(void)state;
	struct slt_suggest s;
	slt_suggest_init(&s, "task_strct", 3);
	assert_int_equal(s.limit, 10 / 3 + 1);
	const char *names[] = { "mm_struct", "task_struct", "tss_struct",
				"task_struct", "desc_struct", "zzzzzzzzzzzzzzzzzzzz",
				"", "tsk_strct" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_int_equal(slt_suggest_add(&s, names[i]), 0);
	assert_false(slt_suggest_could(&s, 30));
	char **out = NULL;
	size_t n = slt_suggest_take(&s, &out);
	assert_int_equal(n, 3);
	assert_int_equal(s.n, 0);
	/* distance 1 each, ties in name order; duplicates once */
	assert_string_equal(out[0], "task_struct");
	assert_string_equal(out[1], "tsk_strct");
	assert_string_equal(out[2], "tss_struct");
	for (size_t i = 0; i < n; i++)
		free(out[i]);
	free(out);

	/* order of arrival does not change the result */
	slt_suggest_init(&s, "task_strct", 3);
	for (size_t i = sizeof(names) / sizeof(names[0]); i-- > 0;)
		slt_suggest_add(&s, names[i]);
	n = slt_suggest_take(&s, &out);
	assert_int_equal(n, 3);
	assert_string_equal(out[0], "task_struct");
	assert_string_equal(out[2], "tss_struct");
	for (size_t i = 0; i < n; i++)
		free(out[i]);
	free(out);

	/* nothing close: empty, NULL array */
	slt_suggest_init(&s, "abc", 8);
	slt_suggest_add(&s, "zzzzzz");
	assert_int_equal(slt_suggest_take(&s, &out), 0);
	assert_null(out);

	/* max 0 keeps nothing; release frees what is kept */
	slt_suggest_init(&s, "abc", 0);
	slt_suggest_add(&s, "abd");
	assert_int_equal(s.n, 0);
	slt_suggest_init(&s, "abc", 20);
	assert_int_equal(s.max, 8);
	slt_suggest_add(&s, "abd");
	slt_suggest_add(&s, "abe");
	assert_int_equal(s.n, 2);
	slt_suggest_release(&s);
	assert_int_equal(s.n, 0);
}

/* A query longer than slt_strdist() compares keeps nothing and lets callers
 * skip all work (fuzz_dwarf found suggest() spending minutes on suffixes of
 * a corrupt .debug_str for such a name). */
static void test_suggest_long_query(void **state)
{
	(void)state;
	char q[SLT_STRDIST_MAX + 2];
	memset(q, 'a', sizeof(q) - 1);
	q[sizeof(q) - 1] = '\0';
	struct slt_suggest sg;
	slt_suggest_init(&sg, q, 5);
	assert_false(slt_suggest_could(&sg, strlen(q)));
	assert_int_equal(slt_suggest_add(&sg, q), 0);
	char **out = NULL;
	assert_int_equal(slt_suggest_take(&sg, &out), 0);
	free(out);
	q[SLT_STRDIST_MAX] = '\0'; /* at the limit: still considered */
	slt_suggest_init(&sg, q, 5);
	assert_true(slt_suggest_could(&sg, strlen(q)));
	slt_suggest_release(&sg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_long_strings),
		cmocka_unit_test(test_against_reference),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_suggest_long_query),
	};
	return cmocka_run_group_tests_name("strdist", tests, NULL, NULL);
}
