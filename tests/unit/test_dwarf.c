/* SPDX-License-Identifier: MIT */
/*
 * DWARF loader tests: small C sources compiled now with gcc and clang
 * (CC_GCC, CC_CLANG; clang tests skip when it is missing), DWARF 3/4/5, as
 * .o (ET_REL, relocations applied by elf.c) and linked executables, plus a
 * zlib-compressed copy, a stripped binary with .gnu_debuglink, the filtered
 * vs. full walk, and corrupt images.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <elf.h>

#include "load/dwarf_int.h"
#include "load/source.h"

static char dir[] = "/tmp/slt-dwarf-XXXXXX";

static const char src[] =
	"struct inner { char c; long l; };\n"
	"typedef struct { int a; short b; } anon_t;\n"
	"struct fwd_only;\n"
	"typedef struct fwd_only fwd_t;\n"
	"struct node;\n"
	"typedef struct node node_t;\n"
	"struct bits { unsigned a:3, b:5; int c:12; char d; unsigned long e:40; };\n"
	"struct S {\n"
	"  int i;\n"                                   /* 0 */
	"  struct inner in;\n"                         /* 8 */
	"  struct inner arr[2][3];\n"                  /* 24 */
	"  anon_t at;\n"                               /* 120 */
	"  node_t *np;\n"                              /* 128 */
	"  const volatile int *cvp;\n"                 /* 136 */
	"  int (*fp)(int, char *, ...);\n"             /* 144 */
	"  union { int u1; float u2; };\n"             /* 152 */
	"  struct bits bf;\n"                          /* 160 */
	"  char al __attribute__((aligned(16)));\n"    /* 176 */
	"  char fl[];\n"                               /* 177 */
	"};\n"
	"struct node { struct node *next; node_t *prev; };\n"
	"struct S s; anon_t a; fwd_t *fp; struct node n;\n"
	"int main(void) { return 0; }\n";

static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static const char *cc(int clang)
{
	const char *e = getenv(clang ? "CC_CLANG" : "CC_GCC");
	return e && *e ? e : clang ? "clang" : "gcc";
}

static int setup(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	char p[600];
	snprintf(p, sizeof(p), "%s/t.c", dir);
	FILE *f = fopen(p, "w");
	if (!f)
		return -1;
	fputs(src, f);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	sh("rm -rf '%s'", dir);
	return 0;
}

static const struct slt_tmember *mem(const struct slt_type *t, const char *n)
{
	for (uint32_t i = 0; i < t->n_members; i++)
		if (t->members[i].name && strcmp(t->members[i].name, n) == 0)
			return &t->members[i];
	fail_msg("no member %s", n);
	return NULL;
}

static const struct slt_type *strip(const struct slt_type *t)
{
	while (t && (t->kind == SLT_T_TYPEDEF || t->kind == SLT_T_CONST ||
		     t->kind == SLT_T_VOLATILE))
		t = t->ref;
	return t;
}

/* Open file, check struct S and friends. */
static void check_file(const char *file, int dwarf_ver)
{
	struct slt_source *s;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_source_open_dwarf(file, NULL, &s, &err);
	if (rc)
		fail_msg("%s: %s", file, err.message);
	struct slt_type **out;
	size_t n;
	assert_int_equal(s->ops->find(s, "S", &out, &n, &err), 0);
	assert_true(n >= 1);
	const struct slt_type *t = out[0];
	assert_int_equal(t->kind, SLT_T_STRUCT);
	assert_string_equal(t->name, "S");
	assert_int_equal(t->size, 192);
	assert_false(t->flags & SLT_TF_SHALLOW);
	assert_non_null(strstr(t->decl_file, "t.c"));
	assert_int_equal(t->decl_line, 8);
	assert_int_equal(mem(t, "in")->bit_offset, 64);
	const struct slt_type *in = mem(t, "in")->type;
	assert_int_equal(in->n_members, 2);
	assert_int_equal(in->members[1].bit_offset, 64);
	const struct slt_type *arr = mem(t, "arr")->type;
	assert_int_equal(arr->kind, SLT_T_ARRAY);
	assert_int_equal(arr->nelems, 2);
	assert_int_equal(arr->size, 96);
	assert_int_equal(arr->ref->kind, SLT_T_ARRAY);
	assert_int_equal(arr->ref->nelems, 3);
	assert_int_equal(mem(t, "at")->bit_offset, 120 * 8);
	const struct slt_type *at = strip(mem(t, "at")->type);
	assert_int_equal(at->n_members, 2); /* full through the typedef */
	const struct slt_type *np = mem(t, "np")->type;
	assert_int_equal(np->kind, SLT_T_PTR);
	assert_int_equal(np->size, 8);
	assert_int_equal(np->ref->kind, SLT_T_TYPEDEF);
	assert_string_equal(np->ref->name, "node_t");
	assert_int_equal(np->ref->ref->kind, SLT_T_STRUCT);
	assert_true(np->ref->ref->flags & SLT_TF_SHALLOW);
	const struct slt_type *fp = mem(t, "fp")->type->ref;
	assert_int_equal(fp->kind, SLT_T_FUNC);
	assert_int_equal(fp->n_params, 2);
	assert_true(fp->flags & SLT_TF_VARIADIC);
	const struct slt_tmember *u = NULL;
	for (uint32_t i = 0; i < t->n_members; i++)
		if (!t->members[i].name)
			u = &t->members[i];
	assert_non_null(u);
	assert_int_equal(u->bit_offset, 152 * 8);
	assert_int_equal(u->type->kind, SLT_T_UNION);
	assert_int_equal(u->type->n_members, 2);
	const struct slt_type *bf = mem(t, "bf")->type;
	assert_int_equal(mem(t, "bf")->bit_offset, 160 * 8);
	assert_int_equal(mem(bf, "a")->bit_offset, 0);
	assert_int_equal(mem(bf, "a")->bit_size, 3);
	assert_int_equal(mem(bf, "b")->bit_offset, 3);
	assert_int_equal(mem(bf, "c")->bit_offset, 8);
	assert_int_equal(mem(bf, "c")->bit_size, 12);
	assert_int_equal(mem(bf, "d")->bit_offset, 24);
	assert_int_equal(mem(bf, "e")->bit_offset, 64);
	assert_int_equal(mem(bf, "e")->bit_size, 40);
	assert_int_equal(mem(t, "al")->bit_offset, 176 * 8);
	if (dwarf_ver >= 5)
		assert_int_equal(mem(t, "al")->alignment, 16);
	const struct slt_type *fl = mem(t, "fl")->type;
	assert_int_equal(mem(t, "fl")->bit_offset, 177 * 8);
	assert_true(fl->flags & SLT_TF_FLEX);
	free(out);

	assert_int_equal(s->ops->find(s, "anon_t", &out, &n, &err), 0);
	assert_string_equal(out[0]->name, "anon_t");
	assert_int_equal(out[0]->size, 8);
	free(out);
	slt_error_clear(&err);
	assert_int_equal(s->ops->find(s, "fwd_t", &out, &n, &err),
			 SLT_EDECLONLY);
	slt_error_clear(&err);
	assert_int_equal(s->ops->find(s, "no_such_thing", &out, &n, &err),
			 SLT_ENOTFOUND);
	assert_int_equal(err.code, SLT_ENOTFOUND);
	char **names;
	int k = s->ops->suggest(s, "nodd", 3, &names, &err);
	assert_true(k >= 1);
	assert_string_equal(names[0], "node");
	for (int i = 0; i < k; i++)
		free(names[i]);
	free(names);
	s->ops->close(s);
}

static void build_and_check(int clang, int ver, const char *extra)
{
	char bin[700], obj[720];
	snprintf(bin, sizeof(bin), "%s/t-%d-%d", dir, clang, ver);
	snprintf(obj, sizeof(obj), "%s.o", bin);
	if (sh("%s -g -gdwarf-%d %s -c %s/t.c -o %s && %s -g -gdwarf-%d %s "
	       "%s/t.c -o %s", cc(clang), ver, extra, dir, obj, cc(clang), ver,
	       extra, dir, bin) != 0) {
		if (clang)
			skip();
		fail_msg("cannot compile with %s", cc(clang));
	}
	check_file(obj, ver);
	check_file(bin, ver);
}

static void test_gcc5(void **st) { build_and_check(0, 5, ""); }
static void test_gcc4(void **st) { build_and_check(0, 4, ""); }
/* DWARF 3 strict: bitfields use DW_AT_bit_offset (big-endian scheme). */
static void test_gcc3(void **st) { build_and_check(0, 3, "-gstrict-dwarf"); }
static void test_clang5(void **st) { build_and_check(1, 5, ""); }
static void test_clang4(void **st) { build_and_check(1, 4, ""); }

static void test_compressed(void **st)
{
	char p[700];
	snprintf(p, sizeof(p), "%s/tz", dir);
	assert_int_equal(sh("%s -g %s/t.c -o %s && objcopy "
			    "--compress-debug-sections=zlib %s", cc(0), dir, p,
			    p), 0);
	check_file(p, 5);
	if (sh("objcopy --compress-debug-sections=zstd %s %s.zst 2>/dev/null",
	       p, p) == 0) {
		char z[720];
		snprintf(z, sizeof(z), "%s.zst", p);
		check_file(z, 5);
	}
}

static void test_debuglink(void **st)
{
	char p[700];
	snprintf(p, sizeof(p), "%s/ts", dir);
	assert_int_equal(sh("cd %s && %s -g t.c -o ts && objcopy "
			    "--only-keep-debug ts ts.debug && objcopy "
			    "--strip-debug --add-gnu-debuglink=ts.debug ts",
			    dir, cc(0)), 0);
	struct slt_source *s;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf(p, NULL, &s, &err), 0);
	assert_non_null(strstr(s->path, "ts.debug"));
	s->ops->close(s);
	check_file(p, 5);
	/* A debuglink whose CRC does not match is not used. */
	assert_int_equal(sh("cd %s && echo x >> ts.debug", dir), 0);
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf(p, NULL, &s, &err),
			 SLT_ENODEBUG);
}

struct lst {
	size_t n;
	unsigned long long sum;
};

static int lcb(void *ctx, const struct slt_type *t)
{
	struct lst *l = ctx;
	l->n++;
	l->sum += t->size * 31 + t->decl_line;
	return 0;
}

/* The pre-filter must not change any result. */
static void test_filter_same(void **st)
{
	char p[700];
	snprintf(p, sizeof(p), "%s/t-0-5", dir);
	const char *names[] = { "S", "node", "anon_t", "inner", "bits",
				"fwd_t", "fwd_only", "absent", "a", "i" };
	int rc1[10], rc2[10];
	uint64_t sz1[10] = { 0 }, sz2[10] = { 0 };
	struct lst l1 = { 0 }, l2 = { 0 };
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			setenv("SLT_DWARF_NOFILTER", "1", 1);
		struct slt_source *s;
		struct slt_error err;
		slt_error_clear(&err);
		assert_int_equal(slt_source_open_dwarf(p, NULL, &s, &err), 0);
		for (int i = 0; i < 10; i++) {
			struct slt_type **out;
			size_t n;
			slt_error_clear(&err);
			int rc = s->ops->find(s, names[i], &out, &n, &err);
			(pass ? rc2 : rc1)[i] = rc;
			if (!rc) {
				(pass ? sz2 : sz1)[i] = out[0]->size * 1000 +
							out[0]->n_members;
				free(out);
			}
		}
		assert_int_equal(s->ops->list(s, lcb, pass ? &l2 : &l1, &err), 0);
		s->ops->close(s);
	}
	unsetenv("SLT_DWARF_NOFILTER");
	for (int i = 0; i < 10; i++) {
		assert_int_equal(rc1[i], rc2[i]);
		assert_int_equal(sz1[i], sz2[i]);
	}
	assert_int_equal(rc1[0], 0);
	assert_int_equal(rc1[7], SLT_ENOTFOUND);
	assert_true(l1.n >= 4);
	assert_int_equal(l1.n, l2.n);
	assert_int_equal(l1.sum, l2.sum);
}

/* Corrupt images: every prefix and some flipped bytes; no crash, and an
 * error or a result. */
static void test_corrupt(void **st)
{
	char p[700];
	snprintf(p, sizeof(p), "%s/t-0-5.o", dir);
	FILE *f = fopen(p, "rb");
	assert_non_null(f);
	static unsigned char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n > 1000);
	srand(1);
	for (int iter = 0; iter < 300; iter++) {
		static unsigned char img[1 << 20];
		size_t len = iter < 100 ? n * (size_t)iter / 100 : n;
		memcpy(img, buf, len);
		if (iter >= 100)
			for (int k = 0; k < 8; k++)
				img[(size_t)rand() % len] = (unsigned char)rand();
		struct slt_source *s;
		struct slt_error err;
		slt_error_clear(&err);
		int rc = slt_source_open_dwarf_mem(img, len, "img", &s, &err);
		if (iter < 20)
			assert_true(rc < 0);
		if (rc) {
			assert_true(err.code < 0);
			continue;
		}
		struct slt_type **out;
		size_t m;
		slt_error_clear(&err);
		int r = s->ops->find(s, "S", &out, &m, &err);
		if (r == 0)
			free(out);
		assert_int_equal(err.code, r); /* the return is what err says */
		struct lst l = { 0 };
		s->ops->list(s, lcb, &l, &err);
		s->ops->close(s);
	}
	struct slt_source *s;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf_mem("hello", 5, "x", &s, &err),
			 SLT_ENOTELF);
}

/* File offset and size of section name in a little-endian ELF64 image. */
static int sec_off(const unsigned char *img, size_t len, const char *name,
		   size_t *off, size_t *size)
{
	Elf64_Ehdr eh;
	if (len < sizeof(eh))
		return -1;
	memcpy(&eh, img, sizeof(eh));
	if (eh.e_shoff + (size_t)eh.e_shnum * sizeof(Elf64_Shdr) > len ||
	    eh.e_shstrndx >= eh.e_shnum)
		return -1;
	Elf64_Shdr str;
	memcpy(&str, img + eh.e_shoff + eh.e_shstrndx * sizeof(Elf64_Shdr),
	       sizeof(str));
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;
		memcpy(&sh, img + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (str.sh_offset + sh.sh_name < len &&
		    strcmp((const char *)img + str.sh_offset + sh.sh_name,
			   name) == 0) {
			*off = sh.sh_offset;
			*size = sh.sh_size;
			return 0;
		}
	}
	return -1;
}

static size_t slurp(const char *path, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* A CU header whose debug_abbrev_offset (DWARF 5 section 7.5.1.1: byte 8
 * of a 32-bit DWARF 5 unit header) points outside .debug_abbrev. */
static void test_abbrev_offset(void **st)
{
	static unsigned char img[1 << 20];
	char so[700], obj[720];
	size_t off, size;
	struct slt_source *s;
	struct slt_error err;
	struct slt_type **out = NULL;
	size_t n;
	snprintf(so, sizeof(so), "%s/t.so", dir);
	snprintf(obj, sizeof(obj), "%s/t-0-5.o", dir);
	assert_int_equal(sh("%s -g -gdwarf-5 -shared -fPIC -nostdlib "
			    "-nostartfiles %s/t.c -o %s", cc(0), dir, so), 0);

	/* Linked file: nothing relocates .debug_info, the bad offset is what
	 * a reader sees: SLT_ECORRUPT at the CU's byte in the file. */
	size_t len = slurp(so, img, sizeof(img));
	assert_int_equal(sec_off(img, len, ".debug_info", &off, &size), 0);
	assert_true(size > 12 && img[off + 4] == 5);
	memcpy(img + off + 8, "\x00\xff\xff\x7f", 4);
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf_mem(img, len, "bad.so", &s,
						   &err), 0);
	assert_int_equal(s->ops->find(s, "S", &out, &n, &err), SLT_ECORRUPT);
	assert_null(out);
	assert_int_equal(err.code, SLT_ECORRUPT);
	assert_string_equal(err.file, "bad.so");
	assert_int_equal(err.offset, (int64_t)off);
	assert_non_null(strstr(err.message, ".debug_info+0x0"));
	s->ops->close(s);

	/* Relocatable object: x86-64 uses RELA, whose addend (in
	 * .rela.debug_info) replaces the field's bytes when the relocation
	 * against .debug_abbrev is applied (System V ABI x86-64 section 4.4:
	 * R_X86_64_32 = S + A).  Bytes patched in place are dead, exactly as
	 * for readelf, pahole and the linker: the object still loads. */
	len = slurp(obj, img, sizeof(img));
	assert_int_equal(sec_off(img, len, ".debug_info", &off, &size), 0);
	memcpy(img + off + 8, "\x00\xff\xff\x7f", 4);
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf_mem(img, len, "rel.o", &s,
						   &err), 0);
	assert_int_equal(s->ops->find(s, "S", &out, &n, &err), 0);
	assert_int_equal(out[0]->size, 192);
	free(out);
	s->ops->close(s);
}

static uint64_t uleb(const unsigned char *p, size_t *i, size_t end)
{
	uint64_t v = 0;
	for (unsigned sh = 0; *i < end && sh < 64; sh += 7) {
		unsigned char b = p[(*i)++];
		v |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* Found by fuzz_dwarf: an abbreviation whose DW_AT_name has an unknown
 * form.  libdwarf's dwarf_diename() reported that as "no name" and leaked
 * its error object; now find() and list() say SLT_ECORRUPT (and LSan in
 * tests/run.sh sees no leak). */
static void test_bad_name_form(void **st)
{
	static unsigned char img[1 << 20];
	char obj[700];
	size_t off, size;
	snprintf(obj, sizeof(obj), "%s/t-0-4.o", dir);
	size_t len = slurp(obj, img, sizeof(img));
	assert_int_equal(sec_off(img, len, ".debug_abbrev", &off, &size), 0);
	/* DWARF 5 section 7.5.3: code, tag, children, (attr, form)..., 0 0 */
	size_t i = off, end = off + size;
	int patched = 0;
	while (i < end && !patched) {
		if (uleb(img, &i, end) == 0)
			break;
		uint64_t tag = uleb(img, &i, end);
		i++; /* DW_CHILDREN_* */
		for (;;) {
			uint64_t at = uleb(img, &i, end);
			size_t form_at = i;
			uint64_t form = uleb(img, &i, end);
			if (at == 0 && form == 0)
				break;
			if (tag == 0x13 /* structure_type */ && at == 0x03 &&
			    i == form_at + 1 && !patched) {
				img[form_at] = 0x7f; /* no such form */
				patched = 1;
			}
			if (form == 0x21) /* implicit_const */
				uleb(img, &i, end);
		}
	}
	assert_true(patched);
	struct slt_source *s;
	struct slt_error err;
	struct slt_type **out = NULL;
	size_t n;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf_mem(img, len, "bad.o", &s, &err),
			 0);
	assert_int_equal(s->ops->find(s, "S", &out, &n, &err), SLT_ECORRUPT);
	assert_null(out);
	assert_true(err.offset > 0);
	struct lst l = { 0 };
	slt_error_clear(&err);
	assert_int_equal(s->ops->list(s, lcb, &l, &err), SLT_ECORRUPT);
	s->ops->close(s);
}

/* Found by fuzz_dwarf: a section libdwarf loads lazily (here
 * .debug_abbrev) fails to decompress (unknown ch_type, gABI "Section
 * Compression").  The operation must return the code its slt_error holds
 * (SLT_EUNSUPPORTED from elf.c), not a generic SLT_ECORRUPT. */
static void test_lazy_section_error(void **st)
{
	static unsigned char img[1 << 20];
	char so[700];
	snprintf(so, sizeof(so), "%s/t.so", dir); /* from test_abbrev_offset */
	size_t len = slurp(so, img, sizeof(img));
	Elf64_Ehdr eh;
	memcpy(&eh, img, sizeof(eh));
	size_t off, size;
	assert_int_equal(sec_off(img, len, ".debug_abbrev", &off, &size), 0);
	int found = 0;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		unsigned char *p = img + eh.e_shoff + i * sizeof(Elf64_Shdr);
		Elf64_Shdr sh;
		memcpy(&sh, p, sizeof(sh));
		if (sh.sh_offset == off && sh.sh_size == size && size >= 24) {
			sh.sh_flags |= SHF_COMPRESSED;
			memcpy(p, &sh, sizeof(sh));
			memcpy(img + off, "\x08\x00\x00\x00", 4); /* ch_type 8 */
			found = 1;
		}
	}
	assert_true(found);
	struct slt_source *s;
	struct slt_error err;
	struct slt_type **out = NULL;
	size_t n;
	slt_error_clear(&err);
	int rc = slt_source_open_dwarf_mem(img, len, "z.so", &s, &err);
	if (rc == 0) {
		rc = s->ops->find(s, "S", &out, &n, &err);
		assert_null(out);
		s->ops->close(s);
	}
	assert_int_equal(rc, SLT_EUNSUPPORTED);
	assert_int_equal(err.code, rc);
	assert_non_null(strstr(err.message, "compression"));
}

/* Found by fuzz_dwarf (the seed itself): a -gsplit-dwarf skeleton object.
 * libdwarf asks for section 0 and carries on without it; that must not
 * turn into an error without a message.  The types live in the .dwo, so
 * the answer is "no debug info here" naming split.dwo (dwarf_split.c), with
 * err.code equal to the return; a list of it likewise. */
static void test_split_skeleton(void **st)
{
	char obj[700];
	snprintf(obj, sizeof(obj), "%s/split.o", dir);
	if (sh("cd %s && %s -g -gsplit-dwarf -c t.c -o split.o", dir, cc(0)))
		skip();
	struct slt_source *s;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf(obj, NULL, &s, &err), 0);
	const char *names[] = { "", "S", "x" };
	for (int i = 0; i < 3; i++) {
		struct slt_type **out = NULL;
		size_t n;
		slt_error_clear(&err);
		int rc = s->ops->find(s, names[i], &out, &n, &err);
		assert_int_equal(rc, SLT_ENODEBUG);
		assert_int_equal(err.code, rc);
		assert_non_null(strstr(err.message, "split DWARF"));
		assert_non_null(strstr(err.message, "split.dwo"));
		assert_null(out);
	}
	/* --list: a skeleton lists nothing, so it says where the types are */
	struct lst l = { 0 };
	slt_error_clear(&err);
	assert_int_equal(s->ops->list(s, lcb, &l, &err), SLT_ENODEBUG);
	assert_int_equal(err.code, SLT_ENODEBUG);
	assert_non_null(strstr(err.message, "split.dwo"));
	s->ops->close(s);
}

/* Found by fuzz_dwarf: .rela.debug_info whose sh_link (its symbol table)
 * is .debug_info itself, so relocating .debug_info needed .debug_info:
 * unbounded recursion.  Now SLT_ECORRUPT at that relocation section. */
static void test_rela_link_cycle(void **st)
{
	static unsigned char img[1 << 20];
	char obj[700];
	snprintf(obj, sizeof(obj), "%s/t-0-5.o", dir);
	size_t len = slurp(obj, img, sizeof(img));
	Elf64_Ehdr eh;
	memcpy(&eh, img, sizeof(eh));
	size_t ioff, isize;
	assert_int_equal(sec_off(img, len, ".debug_info", &ioff, &isize), 0);
	unsigned info_idx = 0;
	int patched = 0;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;
		memcpy(&sh, img + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_RELA && sh.sh_offset == ioff)
			info_idx = i;
	}
	assert_true(info_idx > 0);
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		unsigned char *p = img + eh.e_shoff + i * sizeof(Elf64_Shdr);
		Elf64_Shdr sh;
		memcpy(&sh, p, sizeof(sh));
		if (sh.sh_type == SHT_RELA && sh.sh_info == info_idx) {
			sh.sh_link = info_idx;
			memcpy(p, &sh, sizeof(sh));
			patched = 1;
		}
	}
	assert_true(patched);
	struct slt_source *s = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_source_open_dwarf_mem(img, len, "cycle.o", &s, &err);
	if (rc == 0) {
		struct slt_type **out = NULL;
		size_t n;
		rc = s->ops->find(s, "S", &out, &n, &err);
		assert_null(out);
		s->ops->close(s);
	}
	assert_int_equal(rc, SLT_ECORRUPT);
	assert_int_equal(err.code, SLT_ECORRUPT);
	assert_non_null(strstr(err.message, "symbol table"));
}

/* Every start of "NAME\0" in buf[0, n). */
static void ref_find(const uint8_t *buf, size_t n, const void *pat, size_t len,
		     uint64_t *out, size_t *k, size_t cap)
{
	const uint8_t *p = buf, *end = buf + n;
	while (p && p < end && (p = memmem(p, (size_t)(end - p), pat, len))) {
		assert_true(*k < cap);
		out[(*k)++] = (uint64_t)(p - buf);
		p++;
	}
}

static int cmp_pos(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static size_t uniq(uint64_t *v, size_t n)
{
	size_t u = 0;
	qsort(v, n, sizeof(*v), cmp_pos);
	for (size_t i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	return u;
}

/* slt_dw_scan() reads each section once for all the names: its hits must
 * be those of one memmem() per name and pattern (inline "NAME\0", and the
 * 4-byte offset of each "NAME\0" in .debug_str/.debug_line_str), for
 * names of several lengths sharing first and last bytes, overlapping,
 * the empty name, and a name repeated in .debug_str (its offsets
 * searched through the hash filters). */
static void test_scan_many(void **st)
{
	static const char *const sets[][8] = {
		{ "node", NULL },
		{ "a", NULL },
		{ "i", "a", "node", "S", "inner", "ode", "prev", NULL },
		{ "", "c", "bits", "anon_t", "fp", "next", "no_such", NULL },
	};
	char p[700];
	snprintf(p, sizeof(p), "%s/t-0-5", dir);
	struct slt_source *s;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf(p, NULL, &s, &err), 0);
	struct dw *d = (struct dw *)s;
	assert_true(d->can_filter);
	size_t cap = 4 * d->info_n + 64;
	uint64_t *ref = malloc(cap * sizeof(*ref)), *offs = malloc(cap * sizeof(*offs));
	assert_non_null(ref);
	assert_non_null(offs);
	for (size_t t = 0; t < sizeof(sets) / sizeof(sets[0]); t++) {
		size_t n = 0, k = 0, n_ov = 0;
		while (n < 8 && sets[t][n])
			n++;
		for (size_t i = 0; i < n; i++) {
			size_t len = strlen(sets[t][i]) + 1, no = 0;
			ref_find(d->info, d->info_n, sets[t][i], len, ref, &k, cap);
			ref_find(d->str, d->str_n, sets[t][i], len, offs, &no, cap);
			if (d->lstr)
				ref_find(d->lstr, d->lstr_n, sets[t][i], len, offs,
					 &no, cap);
			n_ov += no;
			for (size_t o = 0; o < no; o++) {
				uint8_t pat[4];
				for (int b = 0; b < 4; b++)
					pat[b] = (uint8_t)(offs[o] >> (8 * b));
				ref_find(d->info, d->info_n, pat, 4, ref, &k, cap);
			}
		}
		k = uniq(ref, k);
		struct hits h = { 0 };
		bool any;
		d->err = &err;
		assert_int_equal(slt_dw_scan(d, sets[t], n, &h, &any), 0);
		d->err = NULL;
		size_t u = uniq(h.pos, h.n);
		assert_int_equal(u, k);
		assert_true(any == (k > 0));
		for (size_t i = 0; i < k; i++)
			assert_int_equal(h.pos[i], ref[i]);
		if (t == 2) /* more than 2 offsets: the hash-filter path */
			assert_true(n_ov > 2);
		free(h.pos);
	}
	free(ref);
	free(offs);
	s->ops->close(s);
}

/* A linker tail-merges .debug_str: "cgroup\0" only ends
 * "bpf_iter__cgroup\0", never starts after a NUL.  Did-you-mean must still
 * rank struct cgroup (found as a suffix) first, as on the kernel. */
static void test_suggest_tail_merged(void **st)
{
	char c[700], bin[700];
	snprintf(c, sizeof(c), "%s/tm.c", dir);
	snprintf(bin, sizeof(bin), "%s/tm", dir);
	FILE *f = fopen(c, "w");
	assert_non_null(f);
	fputs("struct cgroup { int id; long flags; };\n"
	      "struct bpf_iter__cgroup { struct cgroup *cgroup; };\n"
	      "struct bpf_iter__cgroup it;\n"
	      "int main(void) { return it.cgroup != 0; }\n", f);
	fclose(f);
	assert_int_equal(sh("%s -g -gdwarf-5 %s -o %s", cc(0), c, bin), 0);
	static unsigned char img[1 << 20];
	size_t len = slurp(bin, img, sizeof(img)), off, size;
	assert_true(len < sizeof(img));
	assert_int_equal(sec_off(img, len, ".debug_str", &off, &size), 0);
	assert_true(off + size <= len);
	const unsigned char *str = img + off, *q = str;
	size_t starts = 0, tails = 0;
	while ((q = memmem(q, size - (size_t)(q - str), "cgroup", 7))) {
		if (q == str || q[-1] == 0)
			starts++;
		else
			tails++;
		q++;
	}
	if (starts || !tails)
		skip(); /* this linker did not tail-merge: nothing to test */
	struct slt_source *s;
	struct slt_error err;
	struct slt_type **out;
	size_t n;
	char **names;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf(bin, NULL, &s, &err), 0);
	assert_int_equal(s->ops->find(s, "cgroup", &out, &n, &err), 0);
	assert_int_equal(n, 1);
	free(out);
	slt_error_clear(&err);
	assert_int_equal(s->ops->find(s, "cgroupp", &out, &n, &err),
			 SLT_ENOTFOUND);
	int k = s->ops->suggest(s, "cgroupp", 3, &names, &err);
	assert_true(k >= 1);
	assert_string_equal(names[0], "cgroup");
	for (int i = 0; i < k; i++)
		free(names[i]);
	free(names);
	s->ops->close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcc5),
		cmocka_unit_test(test_gcc4),
		cmocka_unit_test(test_gcc3),
		cmocka_unit_test(test_clang5),
		cmocka_unit_test(test_clang4),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_debuglink),
		cmocka_unit_test(test_filter_same),
		cmocka_unit_test(test_scan_many),
		cmocka_unit_test(test_suggest_tail_merged),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_abbrev_offset),
		cmocka_unit_test(test_bad_name_form),
		cmocka_unit_test(test_lazy_section_error),
		cmocka_unit_test(test_split_skeleton),
		cmocka_unit_test(test_rela_link_cycle),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
