/* SPDX-License-Identifier: MIT */
/* The DWARF name index's payload: parse, look up, add, write
 * (src/load/index.h). */
#include "load/index.h"

#include <stdlib.h>
#include <string.h>

#include "structlint/cache.h"
#include "structlint/error.h"

#define HEAD 24u
#define FP_SPAN 65536u

uint64_t slt_index_fingerprint(const uint8_t *info, size_t n)
{
	uint64_t h = slt_cache_checksum(&n, sizeof(n));
	if (!info)
		return h;
	size_t a = n < FP_SPAN ? n : FP_SPAN;
	h ^= slt_cache_checksum(info, a);
	if (n > a) {
		size_t b = n - a < FP_SPAN ? n - a : FP_SPAN;
		h = h * 31 + slt_cache_checksum(info + n - b, b);
	}
	return h;
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void slt_index_free(struct slt_index *ix)
{
	for (size_t i = 0; ix && i < ix->n; i++) {
		free(ix->e[i].name);
		free(ix->e[i].defs);
	}
	if (ix) {
		free(ix->e);
		memset(ix, 0, sizeof(*ix));
	}
}

static struct slt_index_ent *grow(struct slt_index *ix)
{
	if (ix->n == ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 16;
		struct slt_index_ent *e = realloc(ix->e, cap * sizeof(*e));
		if (!e)
			return NULL;
		ix->e = e;
		ix->cap = cap;
	}
	return memset(&ix->e[ix->n], 0, sizeof(ix->e[0]));
}

int slt_index_parse(const void *p, size_t n, uint64_t info_size, uint64_t fp,
		    struct slt_index *ix)
{
	const uint8_t *b = p;
	memset(ix, 0, sizeof(*ix));
	ix->info_size = info_size;
	ix->fingerprint = fp;
	if (!b || n < HEAD || le(b + 4, 4) != 0 || le(b + 8, 8) != info_size ||
	    le(b + 16, 8) != fp)
		return SLT_ECORRUPT;
	uint64_t count = le(b, 4);
	size_t at = HEAD;
	/* an entry takes at least 2 + 1 + 4 + 9 bytes */
	if (count > (n - HEAD) / 16)
		return SLT_ECORRUPT;
	int rc = 0;
	for (uint64_t i = 0; i < count && !rc; i++) {
		if (n - at < 2) {
			rc = SLT_ECORRUPT;
			break;
		}
		size_t len = (size_t)le(b + at, 2);
		at += 2;
		if (!len || len > SLT_INDEX_MAX_NAME || n - at < len + 4 ||
		    memchr(b + at, 0, len)) {
			rc = SLT_ECORRUPT;
			break;
		}
		const uint8_t *name = b + at;
		at += len;
		uint64_t nd = le(b + at, 4);
		at += 4;
		if (!nd || nd > (n - at) / 9) {
			rc = SLT_ECORRUPT;
			break;
		}
		struct slt_index_ent *e = grow(ix);
		if (!e || !(e->name = malloc(len + 1)) ||
		    !(e->defs = malloc((size_t)nd * sizeof(*e->defs)))) {
			if (e)
				free(e->name);
			rc = SLT_ENOMEM;
			break;
		}
		ix->n++;
		memcpy(e->name, name, len);
		e->name[len] = 0;
		e->n_defs = (uint32_t)nd;
		for (uint64_t k = 0; k < nd; k++, at += 9) {
			e->defs[k].off = le(b + at, 8);
			e->defs[k].kind = b[at + 8];
			if (e->defs[k].off >= info_size ||
			    e->defs[k].kind > SLT_IX_FWD_TYPEDEF)
				rc = SLT_ECORRUPT;
		}
	}
	if (!rc && at != n)
		rc = SLT_ECORRUPT;
	if (rc)
		slt_index_free(ix);
	return rc;
}

static int cmp_ent(const void *a, const void *b)
{
	return strcmp(((const struct slt_index_ent *)a)->name,
		      ((const struct slt_index_ent *)b)->name);
}

const struct slt_index_ent *slt_index_get(struct slt_index *ix,
					  const char *name)
{
	if (!ix->n)
		return NULL;
	if (!ix->sorted) {
		qsort(ix->e, ix->n, sizeof(*ix->e), cmp_ent);
		ix->sorted = true;
	}
	struct slt_index_ent key = { .name = (char *)name };
	return bsearch(&key, ix->e, ix->n, sizeof(*ix->e), cmp_ent);
}

int slt_index_put(struct slt_index *ix, const char *name,
		  const struct slt_index_def *defs, size_t n)
{
	size_t len = strlen(name);
	if (!n || !len || len > SLT_INDEX_MAX_NAME || n > UINT32_MAX)
		return 0; /* not representable: simply not cached */
	struct slt_index_ent *e = (struct slt_index_ent *)slt_index_get(ix, name);
	struct slt_index_def *d = malloc(n * sizeof(*d));
	if (!d)
		return SLT_ENOMEM;
	memcpy(d, defs, n * sizeof(*d));
	if (!e) {
		if (!(e = grow(ix))) {
			free(d);
			return SLT_ENOMEM;
		}
		if (!(e->name = strdup(name))) {
			free(d);
			return SLT_ENOMEM;
		}
		ix->n++;
		ix->sorted = false;
	}
	free(e->defs);
	e->defs = d;
	e->n_defs = (uint32_t)n;
	return 0;
}

int slt_index_write(struct slt_index *ix, void **out, size_t *n)
{
	size_t size = HEAD;
	for (size_t i = 0; i < ix->n; i++)
		size += 2 + strlen(ix->e[i].name) + 4 + 9 * (size_t)ix->e[i].n_defs;
	uint8_t *b = malloc(size);
	*out = NULL;
	*n = 0;
	if (!b)
		return SLT_ENOMEM;
	put(b, ix->n, 4);
	put(b + 4, 0, 4);
	put(b + 8, ix->info_size, 8);
	put(b + 16, ix->fingerprint, 8);
	size_t at = HEAD;
	for (size_t i = 0; i < ix->n; i++) {
		const struct slt_index_ent *e = &ix->e[i];
		size_t len = strlen(e->name);
		put(b + at, len, 2);
		memcpy(b + at + 2, e->name, len);
		at += 2 + len;
		put(b + at, e->n_defs, 4);
		at += 4;
		for (uint32_t k = 0; k < e->n_defs; k++, at += 9) {
			put(b + at, e->defs[k].off, 8);
			b[at + 8] = e->defs[k].kind;
		}
	}
	*out = b;
	*n = size;
	return 0;
}
