/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the BTF source (src/load/btf.c) on real BTF:
 *  - made at test time from C with gcc -g and pahole -J (ELF .BTF and the
 *    raw section from objcopy), checked against the offsets and sizes the
 *    compiler of this test gives the same declarations;
 *  - the running kernel's /sys/kernel/btf/vmlinux when readable.
 * Hand-built and broken BTF: test_btf.c.
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

#include "btf_helpers.h"

/* ---- real BTF from gcc + pahole -J --------------------------------- */

#define FIXTURE(...) __VA_ARGS__ static const char fixture_c[] = #__VA_ARGS__;
FIXTURE(
struct fx_inner { int a; char b; };
typedef struct { long x; short y; } fx_anon_t;
struct fx_bits { unsigned a : 3, b : 5; int c : 7; long d; };
struct fx_all {
	struct fx_inner in;
	fx_anon_t an;
	struct fx_bits bf;
	int md[2][3];
	int (*fp)(int, char *, ...);
	struct fx_all *next;
	union { int u1; char u2[8]; };
	const volatile char *cvp;
	_Bool flag;
	char flex[];
};
struct fx_all fx_g_all;
fx_anon_t fx_g_anon;
)

static char fx_dir[64];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Compile the fixture and make fx.o (with .BTF), fx_nobtf.o and fx.btf. */
static int fixtures_setup(void **state)
{
	(void)state;
	snprintf(fx_dir, sizeof(fx_dir), "/tmp/slt-test-btf-XXXXXX");
	if (!mkdtemp(fx_dir))
		return -1;
	char path[128];
	snprintf(path, sizeof(path), "%s/fx.c", fx_dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(fixture_c, f);
	fclose(f);
	if (sh("cd %s && gcc -g -c -o fx.o fx.c && cp fx.o fx_nobtf.o && "
	       "pahole -J fx.o && objcopy -O binary --set-section-flags .BTF=alloc "
	       "--only-section=.BTF fx.o fx.btf && "
	       "echo 'not an object' > fx.txt && : > fx.empty", fx_dir) != 0)
		fx_dir[0] = '\0';   /* tools missing: the tests skip */
	return 0;
}

static int fixtures_teardown(void **state)
{
	(void)state;
	if (fx_dir[0])
		sh("rm -rf %s", fx_dir);
	return 0;
}

/* The bit offset of a bitfield as this compiler lays it out: set all its
 * bits in a zeroed struct and find the first set bit (little-endian). */
#define BITPOS(type, field)                                               \
	({                                                                \
		type v_;                                                  \
		memset(&v_, 0, sizeof(v_));                               \
		v_.field = -1;                                            \
		const unsigned char *p_ = (const unsigned char *)&v_;    \
		unsigned pos_ = 0;                                        \
		while (!(p_[pos_ / 8] >> (pos_ % 8) & 1))                 \
			pos_++;                                           \
		pos_;                                                     \
	})

static void check_fixture(const char *file)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", fx_dir, file);
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_source_open_btf(path, NULL, &src, &err);
	if (rc)
		fail_msg("%s: %d %s", path, rc, err.message);
	assert_string_equal(src->path, path);

	struct slt_type *all = find_one(src, "fx_all");
	assert_int_equal(all->size, sizeof(struct fx_all));
	assert_int_equal(all->n_members, 10);
#define OFF(m) assert_int_equal(member(all, #m)->bit_offset, 8 * offsetof(struct fx_all, m))
	OFF(in);
	OFF(an);
	OFF(bf);
	OFF(md);
	OFF(fp);
	OFF(next);
	OFF(cvp);
	OFF(flag);
	OFF(flex);
#undef OFF
	/* the anonymous union member */
	const struct slt_tmember *u = &all->members[6];
	assert_true(!u->name || !u->name[0]);
	assert_int_equal(u->type->kind, SLT_T_UNION);
	assert_int_equal(u->bit_offset, 8 * offsetof(struct fx_all, u1));
	assert_int_equal(u->type->n_members, 2);

	const struct slt_type *bf = member(all, "bf")->type;
	assert_int_equal(bf->size, sizeof(struct fx_bits));
	assert_int_equal(member(bf, "a")->bit_size, 3);
	assert_int_equal(member(bf, "a")->bit_offset, BITPOS(struct fx_bits, a));
	assert_int_equal(member(bf, "b")->bit_offset, BITPOS(struct fx_bits, b));
	assert_int_equal(member(bf, "c")->bit_offset, BITPOS(struct fx_bits, c));
	assert_int_equal(member(bf, "c")->bit_size, 7);
	assert_int_equal(member(bf, "d")->bit_offset, 8 * offsetof(struct fx_bits, d));

	const struct slt_type *md = member(all, "md")->type;
	assert_int_equal(md->size, sizeof(fx_g_all.md));
	/* pahole -J (1.24) flattens int[2][3] into int[6]; BTF itself nests */
	uint64_t elems = 1;
	for (const struct slt_type *e = md; e->kind == SLT_T_ARRAY; e = e->ref)
		elems *= e->nelems;
	assert_int_equal(elems, 6);
	const struct slt_type *fp = member(all, "fp")->type->ref;
	assert_int_equal(fp->kind, SLT_T_FUNC);
	assert_true(fp->flags & SLT_TF_VARIADIC);
	assert_int_equal(fp->n_params, 2);
	assert_int_equal(member(all, "fp")->type->size, sizeof(void *));
	assert_true(member(all, "flag")->type->flags & SLT_TF_BOOL);

	struct slt_type *an = find_one(src, "fx_anon_t");
	assert_string_equal(an->name, "fx_anon_t");
	assert_int_equal(an->size, sizeof(fx_anon_t));
	assert_int_equal(member(an, "y")->bit_offset, 8 * offsetof(fx_anon_t, y));

	struct slt_type *in = find_one(src, "fx_inner");
	assert_ptr_equal(in, member(all, "in")->type);
	src->ops->close(src);
}

static void test_fixture_elf(void **state)
{
	(void)state;
	if (!fx_dir[0])
		skip();
	check_fixture("fx.o");
}

static void test_fixture_raw(void **state)
{
	(void)state;
	if (!fx_dir[0])
		skip();
	check_fixture("fx.btf");
}

static void test_fixture_errors(void **state)
{
	(void)state;
	if (!fx_dir[0])
		skip();
	static const struct { const char *file; int code; } cases[] = {
		{ "fx_nobtf.o", SLT_ENODEBUG },
		{ "fx.txt", SLT_ENOTELF },
		{ "fx.empty", SLT_ENOTELF },
		{ "fx.c", SLT_ENOTELF },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/%s", fx_dir, cases[i].file);
		struct slt_source *src = NULL;
		struct slt_error err;
		slt_error_clear(&err);
		int rc = slt_source_open_btf(path, NULL, &src, &err);
		if (rc != cases[i].code)
			fail_msg("%s: rc %d, want %d (%s)", path, rc, cases[i].code,
				 err.message);
		assert_null(src);
		assert_string_equal(err.file, path);
		assert_true(err.hint[0] != '\0');
	}

	/* truncated copies of the raw section file fail cleanly */
	char path[128];
	snprintf(path, sizeof(path), "%s/fx.btf", fx_dir);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static unsigned char buf[1 << 16];
	size_t size = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(size > 24 && size < sizeof(buf));
	for (size_t len = 0; len < size; len += 7) {
		snprintf(path, sizeof(path), "%s/trunc.btf", fx_dir);
		f = fopen(path, "wb");
		fwrite(buf, 1, len, f);
		fclose(f);
		struct slt_source *src = NULL;
		struct slt_error err;
		slt_error_clear(&err);
		int rc = slt_source_open_btf(path, NULL, &src, &err);
		if (rc != SLT_ECORRUPT && rc != SLT_ENOTELF)
			fail_msg("truncated to %zu: rc %d (%s)", len, rc, err.message);
	}
}

/* ---- the running kernel -------------------------------------------- */

static void test_kernel_btf(void **state)
{
	(void)state;
	if (access(SLT_KERNEL_BTF_PATH, R_OK) != 0)
		skip();
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_btf(NULL, NULL, &src, &err), 0);
	assert_string_equal(src->path, SLT_KERNEL_BTF_PATH);

	struct slt_type *lh = find_one(src, "list_head");
	assert_int_equal(lh->size, 2 * sizeof(void *));
	assert_int_equal(lh->n_members, 2);
	assert_ptr_equal(lh->members[0].type->ref, lh);

	struct slt_type **res = NULL;
	size_t n = 0;
	assert_int_equal(src->ops->find(src, "task_struct", &res, &n, &err), 0);
	assert_true(n >= 1 && res[0]->size > 1000 && res[0]->n_members > 50);
	free(res);

	size_t count = 0;
	assert_int_equal(src->ops->list(src, count_cb, &count, &err), 0);
	assert_true(count > 1000);

	char **names = NULL;
	int ns = src->ops->suggest(src, "task_strcut", 3, &names, &err);
	assert_true(ns >= 1);
	assert_string_equal(names[0], "task_struct");
	for (int i = 0; i < ns; i++)
		free(names[i]);
	free(names);
	src->ops->close(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_elf),
		cmocka_unit_test(test_fixture_raw),
		cmocka_unit_test(test_fixture_errors),
		cmocka_unit_test(test_kernel_btf),
	};
	return cmocka_run_group_tests_name("btf_fixtures", tests, fixtures_setup,
					   fixtures_teardown);
}
