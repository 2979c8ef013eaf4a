/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the BTF source: raw BTF bytes in, then every
 * operation of the source (find on fixed names and on every listed name,
 * list, suggest).  Any crash, leak, out-of-bounds read or hang is a bug; a
 * clean SLT_E* error is the expected answer to garbage.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_source_open_btf_mem(data, size, "fuzz", &src, &err) != 0) {
		if (src || err.code == 0)
			abort();
		return 0;
	}
	static const char *const fixed[] = { "node", "task_struct", "anon_t",
					     "dup", "x", "" };
	fuzz_exercise(src, fixed, sizeof(fixed) / sizeof(fixed[0]));
	return 0;
}
