/* SPDX-License-Identifier: MIT */
/*
 * Layout builder tests on hand-built type graphs.  The expected texts are
 * pahole 1.24's output (`pahole -C NAME`) for the same structs compiled by
 * gcc 12 -g (sources in the comments), captured verbatim.  BTF and DWARF
 * alignment, typedef and struct expansion (-E), enums: test_build_expand.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "build_helpers.h"

static const char PAHOLE_BF[] =
	"struct bf {\n"
	"\tchar                       a;                    /*     0     1 */\n"
	"\n"
	"\t/* Bitfield combined with previous fields */\n"
	"\n"
	"\tint                        b:4;                  /*     0: 8  4 */\n"
	"\n"
	"\t/* XXX 5 bits hole, try to pack */\n"
	"\tint                        :5;\n"
	"\n"
	"\tint                        c:3;                  /*     0:17  4 */\n"
	"\n"
	"\t/* XXX 12 bits hole, try to pack */\n"
	"\t/* XXX 4 bytes hole, try to pack */\n"
	"\n"
	"\tlong int                   d;                    /*     8     8 */\n"
	"\tunsigned int               e:1;                  /*    16: 0  4 */\n"
	"\n"
	"\t/* size: 24, cachelines: 1, members: 5 */\n"
	"\t/* sum members: 9, holes: 1, sum holes: 4 */\n"
	"\t/* sum bitfield members: 8 bits, bit holes: 2, sum bit holes: 17 bits */\n"
	"\t/* padding: 4 */\n"
	"\t/* bit_padding: 31 bits */\n"
	"\t/* last cacheline: 24 bytes */\n"
	"};\n";

static const char PAHOLE_OUTER[] =
	"struct outer {\n"
	"\tint                        x;                    /*     0     4 */\n"
	"\n"
	"\t/* XXX 4 bytes hole, try to pack */\n"
	"\n"
	"\tstruct in2                 n;                    /*     8    16 */\n"
	"\n"
	"\t/* XXX last struct has 7 bytes of padding */\n"
	"\n"
	"\tunion {\n"
	"\t\tstruct {\n"
	"\t\t\tint        p;                    /*    24     4 */\n"
	"\t\t\tchar       q;                    /*    28     1 */\n"
	"\t\t};                                       /*    24     8 */\n"
	"\t\tlong int           r;                    /*    24     8 */\n"
	"\t};                                               /*    24     8 */\n"
	"\tint                        z;                    /*    32     4 */\n"
	"\n"
	"\t/* XXX 4 bytes hole, try to pack */\n"
	"\n"
	"\tstruct in2                 m[2];                 /*    40    32 */\n"
	"\t/* --- cacheline 1 boundary (64 bytes) was 8 bytes ago --- */\n"
	"\tchar                       zz[0];                /*    72     0 */\n"
	"\tint                        last;                 /*    72     4 */\n"
	"\n"
	"\t/* size: 80, cachelines: 2, members: 7 */\n"
	"\t/* sum members: 68, holes: 2, sum holes: 8 */\n"
	"\t/* padding: 4 */\n"
	"\t/* paddings: 1, sum paddings: 7 */\n"
	"\t/* last cacheline: 16 bytes */\n"
	"};\n";

static const char PAHOLE_USEPK[] =
	"struct usepk {\n"
	"\tchar                       c;                    /*     0     1 */\n"
	"\tstruct pk                  p;                    /*     1     5 */\n"
	"\tshort int                  s;                    /*     6     2 */\n"
	"\n"
	"\t/* size: 8, cachelines: 1, members: 3 */\n"
	"\t/* last cacheline: 8 bytes */\n"
	"} __attribute__((__packed__));\n";

static const char PAHOLE_FPAD[] =
	"struct fpad {\n"
	"\tint                        x __attribute__((__aligned__(32))); /*     0     4 */\n"
	"\tchar                       c;                    /*     4     1 */\n"
	"\n"
	"\t/* size: 32, cachelines: 1, members: 2 */\n"
	"\t/* padding: 27 */\n"
	"\t/* forced alignments: 1 */\n"
	"\t/* last cacheline: 32 bytes */\n"
	"} __attribute__((__aligned__(32)));\n";

static const char PAHOLE_UN[] =
	"union un {\n"
	"\tint                        a;                  /*     0     4 */\n"
	"\tstruct in2                 s;                  /*     0    16 */\n"
	"\tchar                       c[3];               /*     0     3 */\n"
	"};\n";

static const char PAHOLE_SPELL[] =
	"struct spell {\n"
	"\tchar                       c;                    /*     0     1 */\n"
	"\n"
	"\t/* XXX 7 bytes hole, try to pack */\n"
	"\n"
	"\tlong unsigned int          arr[5][5];            /*     8   200 */\n"
	"\t/* --- cacheline 3 boundary (192 bytes) was 16 bytes ago --- */\n"
	"\tconst char  *              name;                 /*   208     8 */\n"
	"\tconst char *               cp;                   /*   216     8 */\n"
	"\tstruct inner *             ip;                   /*   224     8 */\n"
	"\tint                        (*fp)(int, char *);   /*   232     8 */\n"
	"\tvoid                       (*fparr)(void)[3];    /*   240    24 */\n"
	"\t/* --- cacheline 4 boundary (256 bytes) was 8 bytes ago --- */\n"
	"\tint *                      parr;                 /*   264     8 */\n"
	"\tvolatile int               vi;                   /*   272     4 */\n"
	"\n"
	"\t/* XXX 4 bytes hole, try to pack */\n"
	"\n"
	"\tvolatile const long unsigned int   cvl;          /*   280     8 */\n"
	"\tchar                       flex[];               /*   288     0 */\n"
	"\n"
	"\t/* size: 288, cachelines: 5, members: 11 */\n"
	"\t/* sum members: 277, holes: 2, sum holes: 11 */\n"
	"\t/* last cacheline: 32 bytes */\n"
	"};\n";

/* struct bf { char a; int b:4; int :5; int c:3; long d; unsigned e:1; }; */
static void test_bitfields(void **state)
{
	struct base b;
	struct slt_struct s = { 0 };
	char *got;

	base_init(&b);
	struct slt_type *t = g_comp(b.a, SLT_T_STRUCT, "bf", 24, 5);
	g_mem(t, "a", b.c, 0, 0, 0);
	g_mem(t, "b", b.i, 8, 4, 0);
	g_mem(t, "c", b.i, 17, 3, 0);
	g_mem(t, "d", b.l, 64, 0, 0);
	g_mem(t, "e", b.ui, 128, 1, 0);
	got = g_text(b.a, t, false, &s, NULL);
	assert_non_null(got);
	assert_string_equal(got, PAHOLE_BF);
	assert_int_equal(s.n_bit_holes, 2);
	assert_int_equal(s.sum_bit_holes, 17);
	assert_int_equal(s.bit_padding, 31);
	assert_int_equal(s.padding, 4);
	assert_int_equal(s.members[1].bit_offset, 8);
	assert_true(s.members[1].flags & SLT_MEMBER_BITFIELD);
	free(got);
	slt_arena_free(b.a);
}

/* struct in2 { long a; char b; };
 * struct outer { int x; struct in2 n; union { struct { int p; char q; };
 *   long r; }; int z; struct in2 m[2]; char zz[0]; int last; }; */
static void test_anon_nested(void **state)
{
	struct base b;
	struct slt_struct s = { 0 };
	char *got;

	base_init(&b);
	struct slt_type *in2 = g_comp(b.a, SLT_T_STRUCT, "in2", 16, 2);
	g_mem(in2, "a", b.l, 0, 0, 0);
	g_mem(in2, "b", b.c, 64, 0, 0);
	struct slt_type *as = g_comp(b.a, SLT_T_STRUCT, NULL, 8, 2);
	g_mem(as, "p", b.i, 0, 0, 0);
	g_mem(as, "q", b.c, 32, 0, 0);
	struct slt_type *au = g_comp(b.a, SLT_T_UNION, NULL, 8, 2);
	g_mem(au, NULL, as, 0, 0, 0);
	g_mem(au, "r", b.l, 0, 0, 0);
	struct slt_type *t = g_comp(b.a, SLT_T_STRUCT, "outer", 80, 7);
	g_mem(t, "x", b.i, 0, 0, 0);
	g_mem(t, "n", in2, 64, 0, 0);
	g_mem(t, NULL, au, 192, 0, 0);
	g_mem(t, "z", b.i, 256, 0, 0);
	g_mem(t, "m", g_array(b.a, in2, 2, 16), 320, 0, 0);
	g_mem(t, "zz", g_array(b.a, b.c, 0, 1), 576, 0, 0);
	g_mem(t, "last", b.i, 576, 0, 0);
	got = g_text(b.a, t, false, &s, NULL);
	assert_non_null(got);
	assert_string_equal(got, PAHOLE_OUTER);
	assert_int_equal(s.n_top_members, 7);
	assert_int_equal(s.n_members, 11); /* + union, struct, p, q, r */
	/* the inline members carry absolute offsets and their parent */
	assert_string_equal(s.members[4].name, "p");
	assert_int_equal(s.members[4].offset, 24);
	assert_int_equal(s.members[4].depth, 2);
	assert_int_equal(s.members[s.members[4].parent].depth, 1);
	assert_int_equal(s.members[2].n_children, 2);
	assert_true(s.members[9].flags & SLT_MEMBER_ZERO_SIZE);
	assert_int_equal(s.members[1].type_padding, 7);
	assert_int_equal(s.n_paddings, 1);
	free(got);
	slt_arena_free(b.a);
}

/* struct pk { char a; int b; } __attribute__((packed));
 * struct usepk { char c; struct pk p; short s; };  (packed inferred) */
static void test_packed_inference(void **state)
{
	struct base b;
	struct slt_struct s = { 0 };
	char *got;

	base_init(&b);
	struct slt_type *pk = g_comp(b.a, SLT_T_STRUCT, "pk", 5, 2);
	g_mem(pk, "a", b.c, 0, 0, 0);
	g_mem(pk, "b", b.i, 8, 0, 0);
	struct slt_type *t = g_comp(b.a, SLT_T_STRUCT, "usepk", 8, 3);
	g_mem(t, "c", b.c, 0, 0, 0);
	g_mem(t, "p", pk, 8, 0, 0);
	g_mem(t, "s", b.s, 48, 0, 0);
	got = g_text(b.a, t, false, &s, NULL);
	assert_non_null(got);
	assert_string_equal(got, PAHOLE_USEPK);
	assert_true(s.packed);
	free(got);
	slt_arena_free(b.a);
}

/* struct fpad { int x __attribute__((aligned(32))); char c; }; */
static void test_forced_alignment(void **state)
{
	struct base b;
	struct slt_struct s = { 0 };
	char *got;

	base_init(&b);
	struct slt_type *t = g_comp(b.a, SLT_T_STRUCT, "fpad", 32, 2);
	t->alignment = 32;
	g_mem(t, "x", b.i, 0, 0, 32);
	g_mem(t, "c", b.c, 32, 0, 0);
	got = g_text(b.a, t, false, &s, NULL);
	assert_non_null(got);
	assert_string_equal(got, PAHOLE_FPAD);
	assert_int_equal(s.n_forced_alignments, 1);
	assert_int_equal(s.forced_alignment, 32);
	free(got);
	slt_arena_free(b.a);
}

/* union un { int a; struct in2 s; char c[3]; }; */
static void test_union(void **state)
{
	struct base b;

	base_init(&b);
	struct slt_type *in2 = g_comp(b.a, SLT_T_STRUCT, "in2", 16, 2);
	g_mem(in2, "a", b.l, 0, 0, 0);
	g_mem(in2, "b", b.c, 64, 0, 0);
	struct slt_type *t = g_comp(b.a, SLT_T_UNION, "un", 16, 3);
	g_mem(t, "a", b.i, 0, 0, 0);
	g_mem(t, "s", in2, 0, 0, 0);
	g_mem(t, "c", g_array(b.a, b.c, 3, 1), 0, 0, 0);
	check_text(b.a, t, PAHOLE_UN);
	slt_arena_free(b.a);
}

/* struct spell: see the member declarations in the expected text. */
static void test_spelling(void **state)
{
	struct base b;
	struct slt_struct s = { 0 };
	char *got;

	base_init(&b);
	struct slt_type *inner = g_comp(b.a, SLT_T_STRUCT, "inner", 8, 0);
	inner->flags |= SLT_TF_SHALLOW;
	struct slt_type *pchar = G_PTR(b.a, b.c);
	struct slt_type *t = g_comp(b.a, SLT_T_STRUCT, "spell", 128, 11);
	g_mem(t, "c", b.c, 0, 0, 0);
	g_mem(t, "arr", g_array(b.a, g_array(b.a, b.ul, 5, 8), 5, 40), 64, 0, 0);
	g_mem(t, "name", G_PTR(b.a, G_CONST(b.a, b.c)), 208 * 8, 0, 0);
	g_mem(t, "cp", G_CONST(b.a, pchar), 216 * 8, 0, 0);
	g_mem(t, "ip", G_PTR(b.a, inner), 224 * 8, 0, 0);
	g_mem(t, "fp", G_PTR(b.a, g_func(b.a, b.i, 2, b.i, pchar)), 232 * 8, 0, 0);
	g_mem(t, "fparr", g_array(b.a, G_PTR(b.a, g_func(b.a, NULL, 0)), 3, 8),
	      240 * 8, 0, 0);
	g_mem(t, "parr", G_PTR(b.a, g_array(b.a, b.i, 4, 4)), 264 * 8, 0, 0);
	g_mem(t, "vi", G_VOLATILE(b.a, b.i), 272 * 8, 0, 0);
	g_mem(t, "cvl", G_VOLATILE(b.a, G_CONST(b.a, b.ul)), 280 * 8, 0, 0);
	g_mem(t, "flex", g_array(b.a, b.c, 0, 1), 288 * 8, 0, 0);
	t->size = 288;
	got = g_text(b.a, t, false, &s, NULL);
	assert_non_null(got);
	assert_string_equal(got, PAHOLE_SPELL);
	/* bare types: the contract's spellings */
	assert_string_equal(s.members[1].type, "long unsigned int[5][5]");
	assert_string_equal(s.members[2].type, "const char  *");
	assert_string_equal(s.members[5].type, "int (*)(int, char *)");
	assert_string_equal(s.members[5].decl_head, "int (*");
	assert_string_equal(s.members[5].decl_tail, ")(int, char *)");
	assert_string_equal(s.members[8].type, "volatile int");
	assert_true(s.members[10].flags & SLT_MEMBER_FLEX);
	free(got);
	slt_arena_free(b.a);
}

/* Bad graphs are refused, not followed. */
static void test_corrupt(void **state)
{
	struct base b;
	struct slt_struct s = { 0 };
	struct slt_error err;

	base_init(&b);
	struct slt_type *t = g_comp(b.a, SLT_T_STRUCT, "bad", 8, 1);
	g_mem(t, "far", b.i, 8 * 4096, 0, 0);
	slt_error_clear(&err);
	assert_int_equal(slt_build_struct(b.a, t, SLT_FORMAT_DWARF, false, "x.o",
					  &s, &err), SLT_ECORRUPT);
	assert_string_equal(err.file, "x.o");
	/* a struct containing itself by value (a cycle) ends with an error */
	struct slt_type *loop = g_comp(b.a, SLT_T_STRUCT, NULL, 8, 1);
	g_mem(loop, NULL, loop, 0, 0, 0);
	struct slt_type *top = g_comp(b.a, SLT_T_STRUCT, "top", 8, 1);
	g_mem(top, NULL, loop, 0, 0, 0);
	slt_error_clear(&err);
	assert_int_equal(slt_build_struct(b.a, top, SLT_FORMAT_DWARF, false, "x.o",
					  &s, &err), SLT_ECORRUPT);
	/* not a struct */
	assert_int_equal(slt_build_struct(b.a, b.i, SLT_FORMAT_DWARF, false, "x.o",
					  &s, &err), SLT_EUSAGE);
	slt_arena_free(b.a);
}

static void test_same(void **state)
{
	struct base b;
	struct slt_struct x, y;
	struct slt_error err;

	base_init(&b);
	struct slt_type *t = g_comp(b.a, SLT_T_STRUCT, "s", 8, 2);
	g_mem(t, "a", b.i, 0, 0, 0);
	g_mem(t, "b", b.i, 32, 0, 0);
	struct slt_type *u = g_comp(b.a, SLT_T_STRUCT, "s", 8, 2);
	g_mem(u, "a", b.i, 0, 0, 0);
	g_mem(u, "b", b.ui, 32, 0, 0);
	assert_int_equal(slt_build_struct(b.a, t, SLT_FORMAT_DWARF, false, "", &x, &err), 0);
	assert_int_equal(slt_build_struct(b.a, t, SLT_FORMAT_DWARF, false, "", &y, &err), 0);
	assert_true(slt_struct_same(&x, &y));
	assert_int_equal(slt_build_struct(b.a, u, SLT_FORMAT_DWARF, false, "", &y, &err), 0);
	assert_false(slt_struct_same(&x, &y));
	slt_arena_free(b.a);
}

static void test_lines(void **state)
{
	struct slt_member m = { .offset = 60, .size = 8 };
	uint64_t f, l;

	assert_int_equal(slt_cachelines(0, 64), 0);
	assert_int_equal(slt_cachelines(64, 64), 1);
	assert_int_equal(slt_cachelines(65, 64), 2);
	assert_int_equal(slt_cachelines(65, 128), 1);
	slt_member_lines(&m, 64, &f, &l);
	assert_int_equal(f, 0);
	assert_int_equal(l, 1);
	m.size = 0;
	m.offset = 128;
	slt_member_lines(&m, 64, &f, &l);
	assert_int_equal(f, 2);
	assert_int_equal(l, 2);
	assert_string_equal(slt_format_name(SLT_FORMAT_BTF), "btf");
	assert_int_equal(slt_format_parse("dwarf"), SLT_FORMAT_DWARF);
	assert_int_equal(slt_format_parse("elf"), SLT_FORMAT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bitfields),
		cmocka_unit_test(test_anon_nested),
		cmocka_unit_test(test_packed_inference),
		cmocka_unit_test(test_forced_alignment),
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_spelling),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
