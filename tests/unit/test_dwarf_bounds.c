/* SPDX-License-Identifier: MIT */
/*
 * Array bounds (src/load/dwarf_bound.c) in every form: a DWARF 5 object
 * written here as assembler (one struct whose members are arrays, each
 * dimension a DW_TAG_subrange_type with its own abbreviation, so each
 * bound has exactly the form under test), assembled with CC_GCC, then
 * loaded.  Compilers never emit most of these forms for C (gcc: data1..8
 * upper bounds and implicit_const/data1 counts of 0; clang: data1..8
 * counts); the compiled fixtures (fixtures/layout/arrays.c) cover what
 * they do emit, against pahole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "load/dwarf_int.h"
#include "load/source.h"

static char dir[] = "/tmp/slt-bounds-XXXXXX";

/* DWARF 5 attribute and form codes (dwarf.h names them too; spelt as
 * numbers in the assembler). */
enum { AT_LO = 0x22, AT_UP = 0x2f, AT_CNT = 0x37 };
enum {
	F_D1 = 0x0b, F_D2 = 0x05, F_D4 = 0x06, F_D8 = 0x07, F_UDATA = 0x0f,
	F_SDATA = 0x0d, F_IMPLICIT = 0x21, F_EXPR = 0x18, F_REF4 = 0x13,
	F_D16 = 0x1e,
};

struct battr {
	int at, form;
	int64_t v;
};
struct sub {
	const char *idx; /* index type label, or NULL: no DW_AT_type */
	struct battr b[2];
};
struct kase {
	const char *name;
	struct sub s[2];
	/* expected per dimension: count, or -1 for unknown (flexible) */
	int64_t want[2];
};

#define UL ".Lul"
#define B(at, f, v) { at, f, v }

static const struct kase cases[] = {
	/* gcc's forms: upper bound in the smallest data form, unsigned
	 * 8-byte index type: never -1 below 2^64 - 1 */
	{ "u_d1_ff", { { UL, { B(AT_UP, F_D1, 0xff) } } }, { 256 } },
	{ "u_d1_fe", { { UL, { B(AT_UP, F_D1, 0xfe) } } }, { 255 } },
	{ "u_d2_ffff", { { UL, { B(AT_UP, F_D2, 0xffff) } } }, { 65536 } },
	{ "u_d4_ffffffff", { { UL, { B(AT_UP, F_D4, 0xffffffff) } } },
	  { 4294967296 } },
	{ "u_d1_0", { { UL, { B(AT_UP, F_D1, 0) } } }, { 1 } },
	/* older gccs' x[0]: -1 as all ones of the index type */
	{ "u_d8_m1", { { UL, { B(AT_UP, F_D8, -1) } } }, { 0 } },
	{ "u32_d4_m1", { { ".Lu32", { B(AT_UP, F_D4, 0xffffffff) } } },
	  { 0 } },
	{ "u32_d4_fe", { { ".Lu32", { B(AT_UP, F_D4, 0xfffffffe) } } },
	  { 4294967295 } },
	/* signed index types: sign-extended from the type's width */
	{ "s8_d1_ff", { { ".Ls8", { B(AT_UP, F_D1, 0xff) } } }, { 0 } },
	{ "s8_d1_7f", { { ".Ls8", { B(AT_UP, F_D1, 0x7f) } } }, { 128 } },
	{ "s32_d4_m1", { { ".Ls32", { B(AT_UP, F_D4, 0xffffffff) } } },
	  { 0 } },
	{ "s32_d2_ffff", { { ".Ls32", { B(AT_UP, F_D2, 0xffff) } } },
	  { 65536 } },
	{ "s32_td_d1_ff", { { ".Ltd", { B(AT_UP, F_D1, 0xff) } } },
	  { 256 } }, /* typedef of a signed 4-byte type */
	/* no DW_AT_type: signed, address size (DWARF 5 section 5.13) */
	{ "none_d1_ff", { { NULL, { B(AT_UP, F_D1, 0xff) } } }, { 256 } },
	{ "none_d8_m1", { { NULL, { B(AT_UP, F_D8, -1) } } }, { 0 } },
	/* udata: unsigned; sdata and implicit_const: signed, whatever the
	 * index type */
	{ "udata_300", { { UL, { B(AT_UP, F_UDATA, 300) } } }, { 301 } },
	{ "udata_s8_ff", { { ".Ls8", { B(AT_UP, F_UDATA, 0xff) } } },
	  { 256 } },
	{ "sdata_m1", { { UL, { B(AT_UP, F_SDATA, -1) } } }, { 0 } },
	{ "sdata_9", { { UL, { B(AT_UP, F_SDATA, 9) } } }, { 10 } },
	{ "implicit_4", { { UL, { B(AT_UP, F_IMPLICIT, 4) } } }, { 5 } },
	{ "implicit_m1", { { UL, { B(AT_UP, F_IMPLICIT, -1) } } }, { 0 } },
	/* counts: clang's data forms, gcc's implicit_const/data1 0 */
	{ "cnt_d1_ff", { { UL, { B(AT_CNT, F_D1, 0xff) } } }, { 255 } },
	{ "cnt_d2_ffff", { { UL, { B(AT_CNT, F_D2, 0xffff) } } }, { 65535 } },
	{ "cnt_d8_2p32", { { UL, { B(AT_CNT, F_D8, 0x100000000) } } },
	  { 4294967296 } },
	{ "cnt_s8_d1_ff", { { ".Ls8", { B(AT_CNT, F_D1, 0xff) } } },
	  { 255 } },
	{ "cnt_d1_0", { { UL, { B(AT_CNT, F_D1, 0) } } }, { 0 } },
	{ "cnt_implicit_0", { { UL, { B(AT_CNT, F_IMPLICIT, 0) } } }, { 0 } },
	{ "cnt_udata", { { UL, { B(AT_CNT, F_UDATA, 1000) } } }, { 1000 } },
	{ "cnt_sdata", { { UL, { B(AT_CNT, F_SDATA, 7) } } }, { 7 } },
	/* lower bounds */
	{ "lo1_up3", { { UL, { B(AT_LO, F_D1, 1), B(AT_UP, F_D1, 3) } } },
	  { 3 } },
	{ "lo5_up3", { { UL, { B(AT_LO, F_D1, 5), B(AT_UP, F_D1, 3) } } },
	  { 0 } },
	{ "lo1_up0", { { UL, { B(AT_LO, F_D1, 1), B(AT_UP, F_D1, 0) } } },
	  { 0 } },
	{ "lom2_up2", { { ".Ls8", { B(AT_LO, F_SDATA, -2),
				    B(AT_UP, F_D1, 2) } } }, { 5 } },
	/* not constants: unknown, shown as flexible */
	{ "up_expr", { { UL, { B(AT_UP, F_EXPR, 0) } } }, { -1 } },
	{ "up_ref", { { UL, { B(AT_UP, F_REF4, 0) } } }, { -1 } },
	{ "cnt_ref", { { UL, { B(AT_CNT, F_REF4, 0) } } }, { -1 } },
	{ "lo_expr", { { UL, { B(AT_LO, F_EXPR, 0), B(AT_UP, F_D1, 3) } } },
	  { -1 } },
	{ "flex", { { UL, { { 0 } } } }, { -1 } },
	/* two dimensions, different forms */
	{ "md", { { UL, { B(AT_UP, F_D1, 2) } },
		  { UL, { B(AT_CNT, F_D1, 0xff) } } }, { 3, 255 } },
	{ "md0", { { UL, { B(AT_UP, F_D1, 2) } },
		   { UL, { B(AT_CNT, F_IMPLICIT, 0) } } }, { 3, 0 } },
};

/* Structs that must fail to load, each with one member of one bound. */
static const struct { const char *name; struct battr b; int rc; } bad[] = {
	{ "bad_d16", B(AT_UP, F_D16, 1), SLT_EUNSUPPORTED },
	{ "bad_negcnt", B(AT_CNT, F_SDATA, -3), SLT_ECORRUPT },
};

static void put_value(FILE *f, const struct battr *b)
{
	switch (b->form) {
	case F_D1: fprintf(f, "\t.byte %lld\n", (long long)(uint8_t)b->v); break;
	case F_D2: fprintf(f, "\t.value %lld\n", (long long)(uint16_t)b->v); break;
	case F_D4: fprintf(f, "\t.long %lld\n", (long long)(uint32_t)b->v); break;
	case F_D8: fprintf(f, "\t.quad %lld\n", (long long)b->v); break;
	case F_D16: fprintf(f, "\t.quad %lld\n\t.quad 0\n", (long long)b->v); break;
	case F_UDATA: fprintf(f, "\t.uleb128 %lld\n", (long long)b->v); break;
	case F_SDATA: fprintf(f, "\t.sleb128 %lld\n", (long long)b->v); break;
	case F_EXPR: fputs("\t.uleb128 3\n\t.byte 0x97, 0x06, 0x35\n", f); break;
	case F_REF4: fputs("\t.long .Lvar - .Lcu\n", f); break;
	default: break; /* implicit_const: in the abbreviation */
	}
}

/* Abbreviation code for a subrange: 100 + its index in all subranges. */
static void put_sub_abbrev(FILE *f, int code, const struct sub *s)
{
	fprintf(f, "\t.uleb128 %d, 0x21\n\t.byte 0\n", code);
	if (s->idx)
		fputs("\t.uleb128 0x49, 0x13\n", f);
	for (int i = 0; i < 2 && s->b[i].at; i++) {
		fprintf(f, "\t.uleb128 0x%x, 0x%x\n", s->b[i].at, s->b[i].form);
		if (s->b[i].form == F_IMPLICIT)
			fprintf(f, "\t.sleb128 %lld\n", (long long)s->b[i].v);
	}
	fputs("\t.uleb128 0, 0\n", f);
}

static void put_array(FILE *f, int *code, const struct sub *s, int ndim,
		      const char *elem)
{
	fprintf(f, "\t.uleb128 5\n\t.long %s - .Lcu\n", elem);
	for (int k = 0; k < ndim; k++) {
		fprintf(f, "\t.uleb128 %d\n", (*code)++);
		if (s[k].idx)
			fprintf(f, "\t.long %s - .Lcu\n", s[k].idx);
		for (int i = 0; i < 2 && s[k].b[i].at; i++)
			put_value(f, &s[k].b[i]);
	}
	fputs("\t.byte 0\n", f);
}

static int ndims(const struct kase *k)
{
	return k->s[1].idx ? 2 : 1;
}

static void write_asm(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	size_t nc = sizeof(cases) / sizeof(cases[0]);
	size_t nb = sizeof(bad) / sizeof(bad[0]);
	int code = 100;

	fputs("\t.section .debug_abbrev,\"\",@progbits\n"
	      /* 1 CU: language data2 */
	      "\t.uleb128 1, 0x11\n\t.byte 1\n\t.uleb128 0x13, 0x05, 0, 0\n"
	      /* 2 base type: name string, byte_size data1, encoding data1 */
	      "\t.uleb128 2, 0x24\n\t.byte 0\n"
	      "\t.uleb128 0x03, 0x08, 0x0b, 0x0b, 0x3e, 0x0b, 0, 0\n"
	      /* 3 struct: name, byte_size udata */
	      "\t.uleb128 3, 0x13\n\t.byte 1\n"
	      "\t.uleb128 0x03, 0x08, 0x0b, 0x0f, 0, 0\n"
	      /* 4 member: name, type ref4, data_member_location udata */
	      "\t.uleb128 4, 0x0d\n\t.byte 0\n"
	      "\t.uleb128 0x03, 0x08, 0x49, 0x13, 0x38, 0x0f, 0, 0\n"
	      /* 5 array: type ref4 */
	      "\t.uleb128 5, 0x01\n\t.byte 1\n\t.uleb128 0x49, 0x13, 0, 0\n"
	      /* 6 variable: name */
	      "\t.uleb128 6, 0x34\n\t.byte 0\n\t.uleb128 0x03, 0x08, 0, 0\n"
	      /* 7 typedef: name, type */
	      "\t.uleb128 7, 0x16\n\t.byte 0\n"
	      "\t.uleb128 0x03, 0x08, 0x49, 0x13, 0, 0\n", f);
	for (size_t i = 0; i < nc; i++)
		for (int k = 0; k < ndims(&cases[i]); k++)
			put_sub_abbrev(f, code++, &cases[i].s[k]);
	for (size_t i = 0; i < nb; i++) {
		struct sub s = { UL, { bad[i].b } };
		put_sub_abbrev(f, code++, &s);
	}
	fputs("\t.byte 0\n", f);

	fputs("\t.section .debug_info,\"\",@progbits\n"
	      ".Lcu:\n\t.long .Lend - .Lstart\n.Lstart:\n"
	      "\t.value 5\n\t.byte 1, 8\n\t.long 0\n"
	      "\t.uleb128 1\n\t.value 0x0c\n"
	      ".Lul:\n\t.uleb128 2\n\t.string \"long unsigned int\"\n\t.byte 8, 7\n"
	      ".Lu32:\n\t.uleb128 2\n\t.string \"u32\"\n\t.byte 4, 7\n"
	      ".Ls8:\n\t.uleb128 2\n\t.string \"s8\"\n\t.byte 1, 5\n"
	      ".Ls32:\n\t.uleb128 2\n\t.string \"int\"\n\t.byte 4, 5\n"
	      ".Ltd:\n\t.uleb128 7\n\t.string \"idx_t\"\n\t.long .Ls32 - .Lcu\n"
	      ".Lchar:\n\t.uleb128 2\n\t.string \"char\"\n\t.byte 1, 6\n"
	      ".Lvar:\n\t.uleb128 6\n\t.string \"n\"\n", f);
	code = 100;
	for (size_t i = 0; i < nc; i++) {
		fprintf(f, ".La%zu:\n", i);
		put_array(f, &code, cases[i].s, ndims(&cases[i]), ".Lchar");
	}
	for (size_t i = 0; i < nb; i++) {
		struct sub s = { UL, { bad[i].b } };
		fprintf(f, ".Lb%zu:\n", i);
		put_array(f, &code, &s, 1, ".Lchar");
	}
	fputs("\t.uleb128 3\n\t.string \"bounds\"\n\t.uleb128 0\n", f);
	for (size_t i = 0; i < nc; i++)
		fprintf(f, "\t.uleb128 4\n\t.string \"%s\"\n\t.long .La%zu - .Lcu\n"
			"\t.uleb128 0\n", cases[i].name, i);
	fputs("\t.byte 0\n", f);
	for (size_t i = 0; i < nb; i++)
		fprintf(f, "\t.uleb128 3\n\t.string \"%s\"\n\t.uleb128 0\n"
			"\t.uleb128 4\n\t.string \"m\"\n\t.long .Lb%zu - .Lcu\n"
			"\t.uleb128 0\n\t.byte 0\n", bad[i].name, i);
	fputs("\t.byte 0\n.Lend:\n", f);
	fclose(f);
}

static const char *cc(void)
{
	const char *e = getenv("CC_GCC");
	return e && *e ? e : "gcc";
}

static void test_forms(void **st)
{
	(void)st;
	char s[600], o[600], cmd[1400];
	assert_non_null(mkdtemp(dir));
	snprintf(s, sizeof(s), "%s/bounds.s", dir);
	snprintf(o, sizeof(o), "%s/bounds.o", dir);
	write_asm(s);
	snprintf(cmd, sizeof(cmd), "%s -c %s -o %s", cc(), s, o);
	assert_int_equal(system(cmd), 0);

	struct slt_source *src;
	struct slt_error err;
	struct slt_type **out;
	size_t n;
	slt_error_clear(&err);
	if (slt_source_open_dwarf(o, NULL, &src, &err))
		fail_msg("%s: %s", o, err.message);
	if (src->ops->find(src, "bounds", &out, &n, &err))
		fail_msg("find: %s", err.message);
	assert_int_equal(n, 1);
	const struct slt_type *t = out[0];
	size_t nc = sizeof(cases) / sizeof(cases[0]);
	assert_int_equal(t->n_members, nc);
	for (size_t i = 0; i < nc; i++) {
		const struct slt_tmember *m = &t->members[i];
		const struct slt_type *a = m->type;
		assert_string_equal(m->name, cases[i].name);
		uint64_t size = 1;
		for (int k = 0; k < ndims(&cases[i]); k++, a = a->ref) {
			int64_t w = cases[i].want[k];
			assert_int_equal(a->kind, SLT_T_ARRAY);
			if ((w < 0) != ((a->flags & SLT_TF_FLEX) != 0) ||
			    (w >= 0 && a->nelems != (uint64_t)w))
				fail_msg("%s dimension %d: nelems %llu%s, want "
					 "%lld", cases[i].name, k,
					 (unsigned long long)a->nelems,
					 a->flags & SLT_TF_FLEX ? " (flexible)" : "",
					 (long long)w);
			size *= w < 0 ? 0 : (uint64_t)w;
		}
		assert_int_equal(m->type->size, size);
	}
	free(out);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		slt_error_clear(&err);
		assert_int_equal(src->ops->find(src, bad[i].name, &out, &n, &err),
				 bad[i].rc);
		assert_int_equal(err.code, bad[i].rc);
		assert_non_null(strstr(err.message, "array"));
	}
	src->ops->close(src);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
