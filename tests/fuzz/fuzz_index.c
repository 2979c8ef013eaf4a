/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the cache file header (src/common/cache.c) and the
 * DWARF name index payload (src/load/index.c) on arbitrary bytes.  The
 * header is checked against the key it names itself (so inputs reach the
 * checksum and size checks), and the bytes after the header are parsed as
 * an index payload against the section size and fingerprint it records (so
 * inputs reach the entries without forging a checksum).  A parsed index
 * must write back to the same bytes and parse again. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load/index.h"
#include "structlint/cache.h"

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= SLT_CACHE_HEADER_SIZE) {
		char kind[16];
		memcpy(kind, data + 16, 15);
		kind[15] = 0;
		size_t idlen = data[32] <= SLT_CACHE_MAX_ID ? data[32] : 0;
		struct slt_cache_key k = { data + 36, idlen, kind,
					   (uint32_t)le(data + 12, 4) };
		const void *p;
		size_t n;
		if (slt_cache_parse(data, size, &k, &p, &n) == 0 &&
		    (n != size - SLT_CACHE_HEADER_SIZE ||
		     p != data + SLT_CACHE_HEADER_SIZE))
			__builtin_trap();
	}
	const uint8_t *pl = size >= SLT_CACHE_HEADER_SIZE ? data + SLT_CACHE_HEADER_SIZE : data;
	size_t pn = size >= SLT_CACHE_HEADER_SIZE ? size - SLT_CACHE_HEADER_SIZE : size;
	if (pn < 24)
		return 0;
	uint64_t info = le(pl + 8, 8), fp = le(pl + 16, 8);
	struct slt_index ix, back;
	if (slt_index_parse(pl, pn, info, fp, &ix) != 0)
		return 0;
	for (size_t i = 0; i < ix.n; i++) {
		/* the first lookup sorts ix.e: keep the name, not the slot */
		const char *nm = ix.e[i].name;
		const struct slt_index_ent *e = slt_index_get(&ix, nm);
		if (!e || strcmp(e->name, nm))
			__builtin_trap();
		for (uint32_t k = 0; k < e->n_defs; k++)
			if (e->defs[k].off >= info || e->defs[k].kind > SLT_IX_FWD_TYPEDEF)
				__builtin_trap();
	}
	void *w;
	size_t wn;
	if (slt_index_write(&ix, &w, &wn) == 0) {
		/* same entries in the index's (possibly sorted) order: the
		 * size matches and the bytes parse again */
		if (wn != pn || slt_index_parse(w, wn, info, fp, &back) != 0)
			__builtin_trap();
		if (back.n != ix.n)
			__builtin_trap();
		slt_index_free(&back);
		free(w);
	}
	slt_index_free(&ix);
	return 0;
}
