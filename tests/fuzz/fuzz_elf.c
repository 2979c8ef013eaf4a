/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for what structlint reads from an ELF file besides
 * DWARF: the symbol lookup of --base SYMBOL (slt_elf_symbol), the
 * build-id note and .gnu_debuglink, the separate debug file search they
 * drive (under a debug root that does not exist, and beside a path in a
 * directory that does not exist), and BTF inside an ELF file (libbpf's
 * btf__parse_elf, through slt_source_open_btf on a memfd path, then find
 * and list).  Any crash, leak, out-of-bounds read or hang is a bug; a
 * clean SLT_E* error is the expected answer to garbage.
 *
 * Seeds: tests/cli/fixtures.py's objects with .BTF added by pahole -J,
 * and its stripped executables with a build-id and a .gnu_debuglink
 * (meson: seeds-elf).
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "load/elf.h"
#include "load/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count(void *ctx, const struct slt_type *t)
{
	(*(size_t *)ctx) += t->name ? strlen(t->name) : 0;
	return 0;
}

static void btf_in_elf(const uint8_t *data, size_t size)
{
	static int fd = -1;
	if (fd < 0 && (fd = memfd_create("fuzz-elf", MFD_CLOEXEC)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_source_open_btf(path, NULL, &src, &err) != 0) {
		if (src || err.code == 0)
			abort();
		return;
	}
	size_t sum = 0;
	slt_error_clear(&err);
	src->ops->list(src, count, &sum, &err);
	static const char *names[] = { "node", "kernel_like", "anon_t", "x" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		struct slt_type **res = NULL;
		size_t n = 0;
		slt_error_clear(&err);
		if (src->ops->find(src, names[i], &res, &n, &err) == 0)
			free(res);
		else if (res)
			abort();
	}
	src->ops->close(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_elf *e = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_elf_open_mem(data, size, "fuzz", &e, &err) == 0) {
		static const char *syms[] = { "g_hot", "main", "", "x" };
		for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
			uint64_t addr = 0, sz = 0;
			slt_error_clear(&err);
			(void)slt_elf_symbol(e, syms[i], &addr, &sz, &err);
		}
		const uint8_t *id;
		size_t idlen;
		if (slt_elf_build_id(e, &id, &idlen) == 0 && (idlen == 0 || !id))
			abort();
		const char *link;
		uint32_t crc;
		if (slt_elf_debuglink(e, &link, &crc) == 0 && strchr(link, '/'))
			abort();
		char *found = NULL;
		if (slt_elf_find_debug_file(e, "/nonexistent-structlint-fuzz/bin",
					    "/nonexistent-structlint-fuzz-root",
					    &found) == 0)
			free(found);
		slt_elf_close(e);
	} else if (e || err.code == 0) {
		abort();
	}
	btf_in_elf(data, size);
	return 0;
}
