/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the rules file parser (src/gate/rules.c): every statement
 * kind with its names, numbers, lines and columns; sections merged by
 * name; errors with line, "column N:" and the hint; every prefix and
 * every single-byte change of a valid file parses or fails cleanly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "structlint/rules.h"

static const char good[] =
	"# rules\n"
	"[struct conn]   # the struct\n"
	"group read_mostly = ops mss a.b[2]\n"
	"group hot = bytes\n"
	"separate = read_mostly hot class:hot-write\n"
	"max-lines read_mostly = 2\n"
	"first = ops\n"
	"offset bytes = 0x40\n"
	"max-size = 128\n"
	"max-cachelines = 2\n"
	"max-holes = 40\n"
	"cacheline-start = bytes\n"
	"\tno-hot-write-near = mss\n"
	"[union other]\n"
	"max-size=8\n"
	"[struct conn]\n"
	"cacheline-start = mss\n";

static struct slt_rules *parse(const char *text, struct slt_error *err)
{
	struct slt_rules *r = NULL;
	slt_error_clear(err);
	int rc = slt_rules_read_mem(text, strlen(text), "t.rules", &r, err);
	assert_true(rc == 0 ? r != NULL : r == NULL);
	return r;
}

static void test_good(void **state)
{
	(void)state;
	struct slt_error err;
	struct slt_rules *r = parse(good, &err);
	assert_non_null(r);
	assert_int_equal(r->n_structs, 2);
	const struct slt_rules_struct *c = slt_rules_find(r, "struct conn");
	assert_ptr_equal(c, &r->structs[0]);
	assert_string_equal(c->name, "conn");
	assert_int_equal(c->line, 2);
	assert_int_equal(c->n_groups, 2);
	assert_string_equal(c->groups[0].name, "read_mostly");
	assert_int_equal(c->groups[0].n_members, 3);
	assert_string_equal(c->groups[0].members[2].name, "a.b[2]");
	assert_int_equal(c->groups[0].members[2].column, 29);
	assert_int_equal(c->n_rules, 10);
	const struct slt_rule *ru = &c->rules[0];
	assert_int_equal(ru->kind, SLT_RULE_SEPARATE);
	assert_int_equal(ru->n_names, 3);
	assert_string_equal(ru->names[2].name, "class:hot-write");
	assert_int_equal(ru->line, 5);
	assert_int_equal(c->rules[1].kind, SLT_RULE_MAX_LINES);
	assert_string_equal(c->rules[1].names[0].name, "read_mostly");
	assert_int_equal(c->rules[1].value, 2);
	assert_int_equal(c->rules[3].kind, SLT_RULE_OFFSET);
	assert_int_equal(c->rules[3].value, 64);
	assert_int_equal(c->rules[8].kind, SLT_RULE_NO_HOT_WRITE_NEAR);
	assert_int_equal(c->rules[8].column, 2);
	/* the second [struct conn] section appends */
	assert_int_equal(c->rules[9].kind, SLT_RULE_CACHELINE_START);
	assert_string_equal(c->rules[9].names[0].name, "mss");
	assert_int_equal(c->rules[9].line, 17);
	/* the keyword and the name's column are kept */
	assert_int_equal(c->kind, SLT_KIND_STRUCT);
	assert_int_equal(c->column, 9);
	assert_int_equal(r->structs[1].kind, SLT_KIND_UNION);
	assert_int_equal(r->structs[1].column, 8);
	assert_string_equal(r->structs[1].name, "other");
	assert_int_equal(r->structs[1].rules[0].value, 8);
	assert_null(slt_rules_find(r, "nothing"));
	assert_string_equal(slt_rule_kind_name(SLT_RULE_NO_HOT_WRITE_NEAR), "no-hot-write-near");
	slt_rules_free(r);
}

static void expect_error(const char *text, unsigned line, const char *msg)
{
	struct slt_error err;
	assert_null(parse(text, &err));
	assert_int_equal(err.code, SLT_ECORRUPT);
	assert_string_equal(err.file, "t.rules");
	assert_int_equal(err.line, line);
	assert_string_equal(err.message, msg);
	assert_true(err.hint[0] != 0);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("first = a\n", 1, "column 1: rule outside a section: 'first'");
	expect_error("[struct s]\nfirts = a\n", 2, "column 1: unknown key 'firts'");
	expect_error("[struct s]\nmax-size = 1 2\n", 2, "column 10: want one number after '=' for 'max-size'");
	expect_error("[struct s]\nmax-size = -1\n", 2, "column 12: not a number: '-1'");
	expect_error("[struct s]\nmax-size = 99999999999999999999\n", 2,
		     "column 12: not a number: '99999999999999999999'");
	expect_error("[struct s]\nfirst = = a\n", 2, "column 9: a second '='");
	expect_error("[struct s]\ngroup = a\n", 2, "column 1: group needs one NAME before '='");
	expect_error("[struct s]\ngroup g =\n", 2, "column 9: a group needs members");
	expect_error("[struct s] x\n", 1, "column 12: unexpected text after the section: 'x'");
	expect_error("[struct]\n", 1, "column 1: section names no struct");
	expect_error("[struct a.b]\n", 1, "column 9: not a struct name: 'a.b'");
	expect_error("[struct s]\nfirst = a\x01\n", 2, "column 10: unexpected character '\\x01'");
	expect_error("[struct s]\nfirst = \xc3\xa9\n", 2, "column 9: unexpected character '\\xc3'");
	/* values that can never hold, members in two groups, limits given
	 * twice or contradicting each other, a name both struct and union */
	expect_error("[struct s]\nmax-lines g = 0\n", 2,
		     "column 15: max-lines of 0 can never hold");
	expect_error("[struct s]\nmax-cachelines = 0x0\n", 2,
		     "column 18: max-cachelines of 0 can never hold");
	expect_error("[struct s]\ngroup a = x y\ngroup b = z y\n", 3,
		     "column 13: member 'y' is already in group 'a' (line 2)");
	expect_error("[struct s]\ngroup a = x y\n[struct t]\n[struct s]\ngroup b = x\n", 5,
		     "column 11: member 'x' is already in group 'a' (line 2)");
	expect_error("[struct s]\ngroup a = x y x\n", 2,
		     "column 15: member 'x' is listed twice in group 'a'");
	expect_error("[struct s]\noffset a = 8\noffset b = 16\noffset a = 8\n", 4,
		     "column 1: offset a given twice: line 2 says 8");
	expect_error("[struct s]\nmax-size = 64\n[struct s]\nmax-size = 128\n", 4,
		     "column 1: max-size given twice: line 2 says 64");
	expect_error("[struct s]\nmax-cachelines = 1\nmax-cachelines = 2\n", 3,
		     "column 1: max-cachelines given twice: line 2 says 1");
	expect_error("[struct s]\nmax-holes = 1\nmax-holes = 1\n", 3,
		     "column 1: max-holes given twice: line 2 says 1");
	expect_error("[struct s]\nmax-lines g = 1\nmax-lines g = 2\n", 3,
		     "column 1: max-lines g given twice: line 2 says 1");
	expect_error("[struct s]\nfirst = a\nfirst = b\n", 3,
		     "column 1: first given twice: line 2 says 'a'");
	expect_error("[struct s]\nfirst = a\noffset a = 8\n", 3,
		     "column 1: offset contradicts line 2: 'a' first and at offset 8");
	expect_error("[struct s]\noffset a = 8\nfirst = a\n", 3,
		     "column 1: first contradicts line 2: 'a' first and at offset 8");
	expect_error("[struct s]\ngroup a = x\ngroup b = y\nseparate = a b a\n", 4,
		     "column 16: group 'a' is separated from itself (named twice, first at column 12)");
	expect_error("[struct s]\nseparate = class:read-mostly class:read-mostly\n", 2,
		     "column 30: group 'class:read-mostly' is separated from itself (named twice, "
		     "first at column 12)");
	/* rules that contradict each other whatever the layout */
	expect_error("[struct s]\noffset m = 12\ncacheline-start = m\n", 3,
		     "column 1: cacheline-start contradicts line 2: 'm' at offset 12 can start no "
		     "cacheline");
	expect_error("[struct s]\ncacheline-start = m\noffset m = 4\n", 3,
		     "column 1: offset contradicts line 2: 'm' at offset 4 can start no cacheline");
	expect_error("[struct s]\nmax-size = 64\noffset m = 1000\n", 3,
		     "column 1: offset contradicts line 2: 'm' at offset 1000 in a struct of at most "
		     "64 bytes");
	expect_error("[struct s]\noffset m = 1000\nmax-size = 64\n", 3,
		     "column 1: max-size contradicts line 2: 'm' at offset 1000 in a struct of at most "
		     "64 bytes");
	expect_error("[struct s]\nfirst = a\noffset b = 0\n", 3,
		     "column 1: offset contradicts line 2: 'a' first and 'b' at offset 0");
	expect_error("[s]\noffset b = 0\n[struct s]\nfirst = a\n", 4,
		     "column 1: first contradicts line 2: 'a' first and 'b' at offset 0");
	expect_error("[struct s]\n[union s]\n", 2,
		     "column 8: [union s] but line 1 says [struct s]");
	struct slt_error err;
	/* a misspelt key: the closest one first in the hint */
	assert_null(parse("[struct s]\nmax-sise = 3\n", &err));
	assert_true(!strncmp(err.hint, "did you mean max-size? want [struct NAME]", 41));
	/* a UTF-8 byte order mark is skipped: columns count from after it */
	struct slt_rules *bom = parse("\xef\xbb\xbf[struct s]\nfirst = a\n", &err);
	assert_non_null(bom);
	assert_string_equal(bom->structs[0].name, "s");
	assert_int_equal(bom->structs[0].column, 9);
	slt_rules_free(bom);
	/* ... while these hold: different members and groups, first at 0,
	 * [s] with either keyword */
	struct slt_rules *ok = parse("[struct s]\nmax-lines g = 1\nmax-lines h = 1\noffset a = 0\n"
				     "first = a\ncacheline-start = a\ncacheline-start = b\n[s]\n"
				     "[union u]\n[u]\n", &err);
	assert_non_null(ok);
	assert_int_equal(ok->structs[0].n_rules, 6);
	assert_int_equal(ok->structs[1].kind, SLT_KIND_UNION);
	slt_rules_free(ok);
	/* ... and these can hold: a multiple of 8 may start a line (of -c 8,
	 * 16, ...; check refuses it for a larger one), an offset up to the
	 * size (a flexible array), a member inside the first one at 0, any
	 * member of a union */
	ok = parse("[struct s]\noffset m = 8\ncacheline-start = m\nmax-size = 64\n"
		   "offset f = 64\nfirst = a\noffset a.x = 0\noffset a[0] = 0\n"
		   "[union u]\nfirst = a\noffset b = 0\n", &err);
	assert_non_null(ok);
	slt_rules_free(ok);
	assert_null(parse("", &err));
	assert_int_equal(err.code, SLT_ECORRUPT);
	assert_string_equal(err.message, "the rules file names no struct");
	static const char nul[] = "[struct s]\nfirst = a\0b\n";
	struct slt_rules *r = NULL;
	slt_error_clear(&err);
	assert_int_equal(slt_rules_read_mem(nul, sizeof(nul) - 1, "t.rules", &r, &err), SLT_ECORRUPT);
	assert_string_equal(err.message, "column 10: NUL byte in the line");
	slt_error_clear(&err);
	assert_int_equal(slt_rules_read("/nonexistent/x.rules", &r, &err), SLT_EIO);
	assert_null(r);
}

/* Every prefix and every byte replaced by a few others: no crash, and
 * the result agrees with the return code (ASan/UBSan check the rest). */
static void test_mutations(void **state)
{
	(void)state;
	size_t n = strlen(good);
	char buf[sizeof(good)];
	static const char subst[] = { 0, '\n', '=', '[', ']', ' ', 'x', '#', '9' };
	for (size_t len = 0; len <= n; len++) {
		struct slt_rules *r = NULL;
		struct slt_error err;
		slt_error_clear(&err);
		int rc = slt_rules_read_mem(good, len, "t", &r, &err);
		assert_true(rc == 0 ? r != NULL : (r == NULL && err.code == rc));
		slt_rules_free(r);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(subst); k++) {
			memcpy(buf, good, n);
			buf[i] = subst[k];
			struct slt_rules *r = NULL;
			struct slt_error err;
			slt_error_clear(&err);
			int rc = slt_rules_read_mem(buf, n, "t", &r, &err);
			assert_true(rc == 0 ? r != NULL : (r == NULL && err.code == rc));
			slt_rules_free(r);
		}
}

/* 100,000 [struct] sections, each named twice (the second section
 * appends to the first): one entry per name, each found by name, file
 * order kept.  The parser indexes names (issue 15: 8,000 sections took
 * 6.6 s, 100,000 over 120 s); run time is measured in the report, never
 * asserted. */
static void test_many_sections(void **state)
{
	(void)state;
	enum { N = 100000 };
	size_t cap = (size_t)N * 2 * 48, n = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < N; i++)
			n += (size_t)snprintf(text + n, cap - n, pass ? "[struct s%d]\nmax-holes = 2\n"
					      : "[struct s%d]\nmax-size = 64\n", i);
	struct slt_rules *r = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_rules_read_mem(text, n, "many.rules", &r, &err), 0);
	free(text);
	assert_int_equal(r->n_structs, N);
	for (int i = 0; i < N; i += 997) {
		char name[32];
		snprintf(name, sizeof(name), "s%d", i);
		const struct slt_rules_struct *s = slt_rules_find(r, name);
		assert_ptr_equal(s, &r->structs[i]);
		assert_int_equal(s->n_rules, 2);
		assert_int_equal(s->line, 2 * i + 1);
	}
	assert_null(slt_rules_find(r, "s100000"));
	slt_rules_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_many_sections),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
