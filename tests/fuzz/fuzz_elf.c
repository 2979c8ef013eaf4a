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
#include "fuzz_source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void btf_in_elf(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	fuzz_memfd(&fd, data, size, path);
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_source_open_btf(path, NULL, &src, &err) != 0) {
		if (src || err.code == 0)
			abort();
		return;
	}
	static const char *const names[] = { "node", "kernel_like", "anon_t", "x" };
	fuzz_exercise(src, names, sizeof(names) / sizeof(names[0]));
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
