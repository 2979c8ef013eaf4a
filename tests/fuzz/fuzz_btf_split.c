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

#include "fuzz_source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	for (int i = 0; i < 2; i++)
		fuzz_memfd(&fd[i], part[i], len[i], path[i]);
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_source_open_btf_split(path[1], path[0], &src, &err)) {
		if (src || err.code == 0)
			abort();
		return 0;
	}
	static const char *const fixed[] = { "mod_s", "base_s" };
	fuzz_exercise(src, fixed, 2);
	return 0;
}
