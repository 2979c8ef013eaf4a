/* SPDX-License-Identifier: MIT */
/* Unit tests of src/common/cache.c (the build-id keyed cache file) and
 * src/load/index.c (the DWARF name index payload): round trips, and every
 * truncation, every flipped byte, another key rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "load/index.h"
#include "structlint/cache.h"

static const uint8_t id_a[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
				  7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t id_b[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
				  7, 8, 9, 10, 11, 12, 13, 14, 15, 17 };

static char *tmpdir(void)
{
	char *d = strdup("/tmp/slt-cache-test.XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

static void rmtree(const char *d)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
}

/* A cache file's bytes for key k and payload p. */
static uint8_t *file_bytes(const char *dir, const struct slt_cache_key *k,
			   size_t *n)
{
	char *path = slt_cache_path(dir, k);
	assert_non_null(path);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	uint8_t *b = malloc(1 << 16);
	*n = fread(b, 1, 1 << 16, f);
	fclose(f);
	free(path);
	return b;
}

static void test_roundtrip_and_keys(void **state)
{
	(void)state;
	char *dir = tmpdir();
	char sub[700];
	snprintf(sub, sizeof(sub), "%s/a/b", dir); /* made on write */
	struct slt_cache_key k = { id_a, sizeof(id_a), "index", 1 };
	const char payload[] = "some payload bytes";
	assert_int_equal(slt_cache_write(sub, &k, payload, sizeof(payload)), 0);
	void *data;
	size_t n;
	assert_int_equal(slt_cache_read(sub, &k, &data, &n), 0);
	assert_int_equal(n, sizeof(payload));
	assert_memory_equal(data, payload, n);
	free(data);
	struct stat st;
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	/* another build-id, kind or version: a different file, not found */
	struct slt_cache_key kb = { id_b, sizeof(id_b), "index", 1 };
	struct slt_cache_key kk = { id_a, sizeof(id_a), "access", 1 };
	struct slt_cache_key kv = { id_a, sizeof(id_a), "index", 2 };
	assert_int_equal(slt_cache_read(sub, &kb, &data, &n), SLT_ENOTFOUND);
	assert_int_equal(slt_cache_read(sub, &kk, &data, &n), SLT_ENOTFOUND);
	assert_int_equal(slt_cache_read(sub, &kv, &data, &n), SLT_ENOTFOUND);
	/* the same bytes checked against another key: rejected */
	size_t fn;
	uint8_t *b = file_bytes(sub, &k, &fn);
	const void *p;
	size_t ps;
	assert_int_equal(slt_cache_parse(b, fn, &k, &p, &ps), 0);
	assert_int_equal(ps, sizeof(payload));
	assert_int_equal(slt_cache_parse(b, fn, &kb, &p, &ps), SLT_ECORRUPT);
	assert_int_equal(slt_cache_parse(b, fn, &kk, &p, &ps), SLT_ECORRUPT);
	assert_int_equal(slt_cache_parse(b, fn, &kv, &p, &ps), SLT_ECORRUPT);
	/* every truncation and every flipped byte is rejected */
	for (size_t i = 0; i < fn; i++)
		assert_int_equal(slt_cache_parse(b, i, &k, &p, &ps), SLT_ECORRUPT);
	for (size_t i = 0; i < fn; i++) {
		b[i] ^= 0x40;
		assert_int_equal(slt_cache_parse(b, fn, &k, &p, &ps), SLT_ECORRUPT);
		b[i] ^= 0x40;
	}
	/* a file with a byte appended is rejected too */
	uint8_t *longer = malloc(fn + 1);
	memcpy(longer, b, fn);
	longer[fn] = 0;
	assert_int_equal(slt_cache_parse(longer, fn + 1, &k, &p, &ps), SLT_ECORRUPT);
	free(longer);
	free(b);
	/* invalid keys are refused, not written */
	struct slt_cache_key bad = { id_a, sizeof(id_a), "../x", 1 };
	assert_int_equal(slt_cache_write(sub, &bad, "x", 1), SLT_EUSAGE);
	struct slt_cache_key none = { id_a, 0, "index", 1 };
	assert_null(slt_cache_path(sub, &none));
	/* no temporary file left behind */
	char cmd[800];
	snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) -eq 1", sub);
	assert_int_equal(system(cmd), 0);
	rmtree(dir);
	free(dir);
}

/* A file whose checksum covers its head alone: open gives the head,
 * pread the rest (unchecked), read refuses it (a part is unchecked);
 * a flipped head byte is refused, a flipped byte past it is not. */
static void test_head(void **state)
{
	(void)state;
	char *dir = tmpdir();
	struct slt_cache_key k = { id_a, sizeof(id_a), "access", 3 };
	const char payload[] = "HEADtail bytes";
	assert_int_equal(slt_cache_write_head(dir, &k, payload, sizeof(payload), 5), 0);
	assert_int_equal(slt_cache_write_head(dir, &k, payload, 3, 4), SLT_EUSAGE);
	struct slt_cache_file *f;
	void *data;
	size_t n, hn;
	uint64_t size;
	assert_int_equal(slt_cache_read(dir, &k, &data, &n), SLT_ENOTFOUND);
	assert_int_equal(slt_cache_open(dir, &k, &f), 0);
	const void *h = slt_cache_head(f, &hn, &size);
	assert_int_equal(hn, 5);
	assert_int_equal(size, sizeof(payload));
	assert_memory_equal(h, "HEADt", 5);
	char buf[16];
	assert_int_equal(slt_cache_pread(f, 4, buf, 4), 0);
	assert_memory_equal(buf, "tail", 4);
	assert_int_equal(slt_cache_pread(f, 12, buf, 4), SLT_ECORRUPT);
	assert_int_equal(slt_cache_pread(f, UINT64_MAX, buf, 2), SLT_ECORRUPT);
	slt_cache_close(f);
	uint8_t *b = file_bytes(dir, &k, &n);
	char *path = slt_cache_path(dir, &k);
	for (size_t at = 0; at < n; at++) {
		b[at] ^= 1;
		FILE *w = fopen(path, "wb");
		assert_non_null(w);
		assert_int_equal(fwrite(b, 1, n, w), n);
		fclose(w);
		int rc = slt_cache_open(dir, &k, &f);
		/* header and head (120 + 5 bytes) checked, the tail not */
		assert_int_equal(rc, at < SLT_CACHE_HEADER_SIZE + 5 ? SLT_ENOTFOUND : 0);
		slt_cache_close(rc ? NULL : f);
		b[at] ^= 1;
	}
	free(path);
	free(b);
	/* written whole (checked == size): read as before */
	assert_int_equal(slt_cache_write_head(dir, &k, payload, sizeof(payload), sizeof(payload)), 0);
	assert_int_equal(slt_cache_read(dir, &k, &data, &n), 0);
	assert_int_equal(n, sizeof(payload));
	free(data);
	rmtree(dir);
	free(dir);
}

static void test_dir_choice(void **state)
{
	(void)state;
	setenv("STRUCTLINT_CACHE_DIR", "/x/y", 1);
	char *d = slt_cache_dir();
	assert_string_equal(d, "/x/y");
	free(d);
	unsetenv("STRUCTLINT_CACHE_DIR");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	d = slt_cache_dir();
	assert_string_equal(d, "/xdg/structlint");
	free(d);
	setenv("XDG_CACHE_HOME", "relative", 1); /* invalid per XDG: ignored */
	setenv("HOME", "/home/u", 1);
	d = slt_cache_dir();
	assert_string_equal(d, "/home/u/.cache/structlint");
	free(d);
}

static void fill(struct slt_index *ix)
{
	memset(ix, 0, sizeof(*ix));
	ix->info_size = 1000;
	ix->fingerprint = 42;
	struct slt_index_def a[2] = { { 10, SLT_IX_STRUCT }, { 500, SLT_IX_STRUCT } };
	struct slt_index_def t[1] = { { 999, SLT_IX_FWD_TYPEDEF } };
	assert_int_equal(slt_index_put(ix, "task_struct", a, 2), 0);
	assert_int_equal(slt_index_put(ix, "pgdat_t", t, 1), 0);
	assert_int_equal(slt_index_put(ix, "cgroup", a, 1), 0);
	/* replacing an entry */
	assert_int_equal(slt_index_put(ix, "cgroup", a + 1, 1), 0);
}

static void test_index_roundtrip(void **state)
{
	(void)state;
	struct slt_index ix, back;
	fill(&ix);
	void *p;
	size_t n;
	assert_int_equal(slt_index_write(&ix, &p, &n), 0);
	assert_int_equal(slt_index_parse(p, n, 1000, 42, &back), 0);
	assert_int_equal(back.n, 3);
	const struct slt_index_ent *e = slt_index_get(&back, "task_struct");
	assert_non_null(e);
	assert_int_equal(e->n_defs, 2);
	assert_int_equal(e->defs[1].off, 500);
	e = slt_index_get(&back, "cgroup");
	assert_non_null(e);
	assert_int_equal(e->n_defs, 1);
	assert_int_equal(e->defs[0].off, 500);
	e = slt_index_get(&back, "pgdat_t");
	assert_int_equal(e->defs[0].kind, SLT_IX_FWD_TYPEDEF);
	assert_null(slt_index_get(&back, "nope"));
	slt_index_free(&back);
	/* another section size or fingerprint: unusable */
	assert_int_equal(slt_index_parse(p, n, 1001, 42, &back), SLT_ECORRUPT);
	assert_int_equal(slt_index_parse(p, n, 1000, 43, &back), SLT_ECORRUPT);
	/* an offset beyond the section: unusable */
	{
		struct slt_index big = { .info_size = 1000, .fingerprint = 42 };
		struct slt_index_def beyond = { 1000, SLT_IX_STRUCT };
		void *q;
		size_t qn;
		assert_int_equal(slt_index_put(&big, "x", &beyond, 1), 0);
		assert_int_equal(slt_index_write(&big, &q, &qn), 0);
		assert_int_equal(slt_index_parse(q, qn, 1000, 42, &back), SLT_ECORRUPT);
		free(q);
		slt_index_free(&big);
	}
	/* every truncation is rejected, and so is a byte more */
	for (size_t i = 0; i < n; i++)
		assert_int_equal(slt_index_parse(p, i, 1000, 42, &back), SLT_ECORRUPT);
	uint8_t *longer = malloc(n + 1);
	memcpy(longer, p, n);
	longer[n] = 0;
	assert_int_equal(slt_index_parse(longer, n + 1, 1000, 42, &back), SLT_ECORRUPT);
	free(longer);
	/* a bad kind byte (the last byte is one) */
	((uint8_t *)p)[n - 1] = 9;
	assert_int_equal(slt_index_parse(p, n, 1000, 42, &back), SLT_ECORRUPT);
	free(p);
	slt_index_free(&ix);
	/* the fingerprint depends on the size and on both ends */
	uint8_t buf[200000] = { 0 };
	uint64_t f0 = slt_index_fingerprint(buf, sizeof(buf));
	buf[sizeof(buf) - 1] = 1;
	assert_true(slt_index_fingerprint(buf, sizeof(buf)) != f0);
	buf[sizeof(buf) - 1] = 0;
	buf[0] = 1;
	assert_true(slt_index_fingerprint(buf, sizeof(buf)) != f0);
	assert_true(slt_index_fingerprint(buf, sizeof(buf) - 1) != f0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_and_keys),
		cmocka_unit_test(test_dir_choice),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_index_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
