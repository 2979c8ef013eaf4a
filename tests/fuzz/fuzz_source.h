/* SPDX-License-Identifier: MIT */
/*
 * What the BTF fuzz targets (fuzz_btf, fuzz_btf_split, fuzz_elf) do with
 * a source they could open: find fixed names and every listed one,
 * touching each result's members (so ASan sees a bad pointer), and ask for
 * suggestions.  A failed find must leave its result NULL.  Also a memfd
 * for the loaders that take a path.
 */
#ifndef SLT_FUZZ_SOURCE_H
#define SLT_FUZZ_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "load/source.h"

struct fuzz_names {
	const char *v[64];
	size_t n;
};

static int fuzz_collect(void *ctx, const struct slt_type *t)
{
	struct fuzz_names *nm = ctx;
	if (nm->n < sizeof(nm->v) / sizeof(nm->v[0]) && t->name)
		nm->v[nm->n++] = t->name;   /* owned by the source */
	return 0;
}

static void fuzz_find(struct slt_source *src, const char *name)
{
	struct slt_type **res = NULL;
	size_t n = 0;
	struct slt_error err;
	slt_error_clear(&err);
	if (src->ops->find(src, name, &res, &n, &err) == 0) {
		volatile uint64_t sink = 0;
		for (size_t i = 0; i < n; i++)
			for (uint32_t k = 0; k < res[i]->n_members; k++)
				sink += res[i]->members[k].bit_offset +
					res[i]->members[k].type->size;
		(void)sink;
		free(res);
	} else if (res) {
		abort();
	}
}

/* Write data[0..n) to the memfd *fd (made on first use) and put its
 * /proc/self/fd path in path[0..64): for the loaders that take a path. */
static inline void fuzz_memfd(int *fd, const uint8_t *data, size_t n, char path[64])
{
	if (*fd < 0 && (*fd = memfd_create("fuzz", MFD_CLOEXEC)) < 0)
		abort();
	if (ftruncate(*fd, 0) || pwrite(*fd, data, n, 0) != (ssize_t)n)
		abort();
	snprintf(path, 64, "/proc/self/fd/%d", *fd);
}

/* fixed[0..n_fixed), every listed name, suggestions; then closes src. */
static void fuzz_exercise(struct slt_source *src, const char *const *fixed,
			  size_t n_fixed)
{
	struct slt_error err;
	for (size_t i = 0; i < n_fixed; i++)
		fuzz_find(src, fixed[i]);
	struct fuzz_names nm = { .n = 0 };
	slt_error_clear(&err);
	src->ops->list(src, fuzz_collect, &nm, &err);
	for (size_t i = 0; i < nm.n; i++)
		fuzz_find(src, nm.v[i]);
	char **sugg = NULL;
	slt_error_clear(&err);
	int ns = src->ops->suggest(src, "nod", 3, &sugg, &err);
	for (int i = 0; i < ns; i++)
		free(sugg[i]);
	free(sugg);
	src->ops->close(src);
}

#endif
