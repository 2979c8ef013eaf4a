/* SPDX-License-Identifier: MIT */
/* Helpers of the BTF source's unit tests (test_btf.c, test_btf_fixtures.c):
 * raw BTF blobs from libbpf's writer, finding the one definition of a
 * name, a member by name. */
#ifndef SLT_TEST_BTF_HELPERS_H
#define SLT_TEST_BTF_HELPERS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "load/source.h"

/* ---- helpers ------------------------------------------------------- */

struct blob {
	void *data;
	size_t size;
};

/* Serialise btf (then freed) into a malloc()ed raw BTF blob. */
static inline struct blob to_blob(struct btf *btf)
{
	uint32_t size = 0;
	const void *raw = btf__raw_data(btf, &size);
	assert_non_null(raw);
	struct blob b = { malloc(size), size };
	assert_non_null(b.data);
	memcpy(b.data, raw, size);
	btf__free(btf);
	return b;
}

static inline struct slt_source *open_blob(struct blob b)
{
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_source_open_btf_mem(b.data, b.size, "blob", &src, &err);
	if (rc)
		fail_msg("open_btf_mem: %d %s", rc, err.message);
	assert_int_equal(src->format, SLT_FORMAT_BTF);
	return src;
}

/* The single definition of name. */
static inline struct slt_type *find_one(struct slt_source *src, const char *name)
{
	struct slt_type **res = NULL;
	size_t n = 0;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = src->ops->find(src, name, &res, &n, &err);
	if (rc)
		fail_msg("find %s: %d %s", name, rc, err.message);
	assert_int_equal(n, 1);
	struct slt_type *t = res[0];
	free(res);
	return t;
}

static inline int find_rc(struct slt_source *src, const char *name,
		   struct slt_error *err)
{
	struct slt_type **res = NULL;
	size_t n = 0;
	slt_error_clear(err);
	int rc = src->ops->find(src, name, &res, &n, err);
	if (rc == 0) {
		assert_true(n >= 1);
		free(res);
	} else {
		assert_null(res);
		assert_int_equal(err->code, rc);
	}
	return rc;
}

static inline const struct slt_tmember *member(const struct slt_type *t,
					const char *name)
{
	for (uint32_t i = 0; i < t->n_members; i++)
		if (t->members[i].name && strcmp(t->members[i].name, name) == 0)
			return &t->members[i];
	fail_msg("no member %s", name);
	return NULL;
}

/* list() callback: counts the structs and unions it is given (ctx: size_t). */
static inline int count_cb(void *ctx, const struct slt_type *t)
{
	assert_non_null(t->name);
	assert_true(t->kind == SLT_T_STRUCT || t->kind == SLT_T_UNION);
	(*(size_t *)ctx)++;
	return 0;
}

#endif
