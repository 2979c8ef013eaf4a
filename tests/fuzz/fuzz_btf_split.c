/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for split BTF (a kernel module's BTF on top of
 * vmlinux's): the input is a 4-byte little-endian base length, the base
 * BTF, then the split BTF; each is written to a memfd and both are opened
 * by the path the kernel module case takes (slt_source_open_btf_split:
 * libbpf's btf__parse_raw and btf__parse_split), then every listed type,
 * and a few fixed names, are looked up.  Any crash, leak, out-of-bounds read or hang is a
 * bug; a clean SLT_E* error is the expected answer to garbage.
 *
 * Seeds (meson: seeds-btf_split): pahole -J --btf_base of small gcc
 * objects, a base and a module-like object whose types point into it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "load/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct names {
	const char *v[32];
	size_t n;
};

static int collect(void *ctx, const struct slt_type *t)
{
	struct names *nm = ctx;
	if (nm->n < sizeof(nm->v) / sizeof(nm->v[0]) && t->name)
		nm->v[nm->n++] = t->name;
	return 0;
}

static void find(struct slt_source *src, const char *name)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	size_t bn = (size_t)data[0] | (size_t)data[1] << 8 |
		    (size_t)data[2] << 16 | (size_t)data[3] << 24;
	if (bn > size - 4)
		return 0;
	static int fd[2] = { -1, -1 };
	char path[2][64];
	const uint8_t *part[2] = { data + 4, data + 4 + bn };
	size_t len[2] = { bn, size - 4 - bn };
	for (int i = 0; i < 2; i++) {
		if (fd[i] < 0 && (fd[i] = memfd_create("fuzz-btf", MFD_CLOEXEC)) < 0)
			abort();
		if (ftruncate(fd[i], 0) ||
		    pwrite(fd[i], part[i], len[i], 0) != (ssize_t)len[i])
			abort();
		snprintf(path[i], sizeof path[i], "/proc/self/fd/%d", fd[i]);
	}
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_source_open_btf_split(path[1], path[0], &src, &err)) {
		if (src || err.code == 0)
			abort();
		return 0;
	}
	struct names nm = { .n = 0 };
	slt_error_clear(&err);
	src->ops->list(src, collect, &nm, &err);
	/* the names are the source's: look them up while it is open */
	for (size_t i = 0; i < nm.n; i++)
		find(src, nm.v[i]);
	find(src, "mod_s");
	find(src, "base_s");
	src->ops->close(src);
	return 0;
}
