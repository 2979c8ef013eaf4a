/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the static access map: an ELF image in, the whole
 * pass (DWARF functions, scopes, location lists and ranges through
 * libdwarf, capstone decoding, type tracking), then every site's source
 * line (line tables) and instruction text.  Any crash, leak, out-of-bounds
 * read, UB report or hang is a bug; a clean SLT_E* error is the expected
 * answer to garbage.
 *
 * Seeds: small -O2/-O0 gcc and clang executables of fixtures/access/access.c
 * (tests/fuzz/meson.build builds them into seeds-access/).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "structlint/access.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_access_map *m = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_access_build_mem(data, size, "fuzz", NULL, &m, &err);
	if (rc) {
		if (m || err.code != rc || rc > 0)
			abort();
		return 0;
	}
	uint64_t sum = 0;
	for (size_t i = 0; i < m->n_funcs; i++) {
		const struct slt_access_func *f = &m->funcs[i];
		uint64_t r = 0;
		for (int k = 0; k < SLT_AR_N; k++)
			r += f->reasons[k];
		if (r != f->n_mem)
			abort(); /* every memory operand has one outcome */
		sum += strlen(f->name);
	}
	for (size_t i = 0; i < m->n_sites && i < 64; i++) {
		const struct slt_access_site *s = &m->sites[i];
		const char *file;
		uint32_t line;
		char buf[160];
		if (s->func >= m->n_funcs || s->offset < 0 ||
		    (uint64_t)s->offset >= s->type_size)
			abort();
		slt_access_site_source(m, s, &file, &line);
		sum += strlen(file) + line;
		sum += strlen(slt_access_site_insn(m, s, buf, sizeof(buf)));
	}
	volatile uint64_t sink = sum;
	(void)sink;
	slt_access_free(m);
	return 0;
}
