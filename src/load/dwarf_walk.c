/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: the CU walk and its string pre-filter (see load/dwarf.c
 * for why the filter is sound, load/dwarf_int.h).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/dwarf_int.h"

/* ---- the CU walk and its pre-filter ----------------------------------- */

static int hit_add(struct hits *h, uint64_t p)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		uint64_t *np = realloc(h->pos, cap * sizeof(*np));
		if (!np)
			return SLT_ENOMEM;
		h->pos = np;
		h->cap = cap;
	}
	h->pos[h->n++] = p;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static bool hit_in(const struct hits *h, uint64_t lo, uint64_t hi)
{
	size_t l = 0, r = h->n;
	while (l < r) { /* first pos >= lo */
		size_t m = (l + r) / 2;
		if (h->pos[m] < lo)
			l = m + 1;
		else
			r = m;
	}
	return l < h->n && h->pos[l] < hi;
}

/*
 * Record in h where .debug_info may name one of names[0..n): inline
 * "NAME\0" and the 4-byte encoding of the offset of every "NAME\0" in
 * .debug_str and .debug_line_str.  *any is false when neither appears.
 */
int slt_dw_scan(struct dw *d, const char *const *names, size_t n,
		struct hits *h, bool *any)
{
	struct vec offs = { .elt = sizeof(uint32_t) };
	bool le = slt_elf_is_le(d->elf);
	int rc = 0;
	*any = false;
	for (size_t k = 0; k < n && !rc; k++) {
		size_t len = strlen(names[k]) + 1;
		const uint8_t *secs[2] = { d->str, d->lstr };
		size_t ns[2] = { d->str_n, d->lstr_n };
		for (int s = 0; s < 2 && !rc; s++) {
			const uint8_t *p = secs[s], *end = p ? p + ns[s] : p;
			while (p && p < end &&
			       (p = memmem(p, (size_t)(end - p), names[k], len))) {
				uint32_t *o = slt_dw_vec_push(d, &offs);
				if (!o) {
					rc = d->rc;
					break;
				}
				*o = (uint32_t)(p - secs[s]);
				p++;
			}
		}
		const uint8_t *p = d->info, *end = p + d->info_n;
		while (!rc && p && p < end &&
		       (p = memmem(p, (size_t)(end - p), names[k], len))) {
			rc = hit_add(h, (uint64_t)(p - d->info));
			p++;
		}
	}
	uint32_t *ov = offs.v;
	if (offs.n > 2 && !rc) {
		/* One pass over .debug_info: a 64 Kbit hash filter, then a
		 * binary search of the sorted offsets. */
		uint64_t bits[1024];
		memset(bits, 0, sizeof(bits));
		for (size_t i = 0; i < offs.n; i++) {
			uint32_t hv = (ov[i] * 0x9E3779B1u) >> 16;
			bits[hv >> 6] |= 1ull << (hv & 63);
		}
		qsort(ov, offs.n, sizeof(*ov), cmp_u32);
		for (size_t i = 0; i + 4 <= d->info_n && !rc; i++) {
			const uint8_t *p = d->info + i;
			uint32_t v = le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
						  (uint32_t)p[2] << 16 |
						  (uint32_t)p[3] << 24
					: (uint32_t)p[3] | (uint32_t)p[2] << 8 |
						  (uint32_t)p[1] << 16 |
						  (uint32_t)p[0] << 24;
			uint32_t hv = (v * 0x9E3779B1u) >> 16;
			if ((bits[hv >> 6] >> (hv & 63) & 1) &&
			    bsearch(&v, ov, offs.n, sizeof(*ov), cmp_u32))
				rc = hit_add(h, i);
		}
		offs.n = 0;
	}
	for (size_t i = 0; i < offs.n && !rc; i++) {
		uint8_t pat[4];
		for (int b = 0; b < 4; b++)
			pat[le ? b : 3 - b] = (uint8_t)(ov[i] >> (8 * b));
		const uint8_t *p = d->info, *end = p + d->info_n;
		while (!rc && p && p < end &&
		       (p = memmem(p, (size_t)(end - p), pat, 4))) {
			rc = hit_add(h, (uint64_t)(p - d->info));
			p++;
		}
	}
	free(offs.v);
	if (rc)
		return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				     NULL, "out of memory");
	if (h->n)
		qsort(h->pos, h->n, sizeof(*h->pos), cmp_u64);
	*any = h->n > 0;
	return 0;
}

/*
 * Call fn on each top-level DIE of the CU whose DIE is cu (CU header at lo,
 * next CU at end).  With h, a DIE none of whose bytes [offset, next
 * sibling) holds a hit cannot carry the name and is skipped before its tag
 * or name is read.
 */
static int top_level(struct dw *d, Dwarf_Die cu, uint64_t lo, uint64_t end,
		     const struct hits *h, top_fn fn, void *ctx)
{
	Dwarf_Die c = NULL, next = NULL;
	Dwarf_Error e = NULL;
	int res = dwarf_child(cu, &c, &e);
	if (res == DW_DLV_ERROR)
		return slt_dw_fail(d, e, lo, "children");
	int rc = 0;
	while (res == DW_DLV_OK && !rc) {
		Dwarf_Off off = 0, hi = end;
		next = NULL;
		res = dwarf_siblingof_b(d->dbg, c, 1, &next, &e);
		if (res == DW_DLV_ERROR)
			rc = slt_dw_fail(d, e, lo, "sibling");
		else if (dwarf_dieoffset(c, &off, &e) != DW_DLV_OK ||
			 (next && dwarf_dieoffset(next, &hi, &e) != DW_DLV_OK))
			rc = slt_dw_fail(d, e, lo, "DIE offset");
		if (!rc && (!h || hit_in(h, off, hi))) {
			Dwarf_Half tag;
			if (dwarf_tag(c, &tag, &e) != DW_DLV_OK)
				rc = slt_dw_fail(d, e, off, "tag");
			else
				rc = fn(d, c, tag, ctx);
		}
		dwarf_dealloc_die(c);
		c = next;
	}
	if (c)
		dwarf_dealloc_die(c);
	return rc ? rc : d->rc;
}

/* Call fn on every top-level DIE of every CU (of the candidate CUs when h
 * is not NULL).  Stops at fn's first non-zero return and returns it. */
int slt_dw_walk(struct dw *d, const struct hits *h, top_fn fn, void *ctx)
{
	Dwarf_Unsigned hdr = 0, next = 0, len, typeoff;
	Dwarf_Half ver, asz, lsz, esz, cut;
	Dwarf_Off abbr;
	Dwarf_Sig8 sig;
	Dwarf_Error e = NULL;
	int rc = 0, res;
	while ((res = dwarf_next_cu_header_d(d->dbg, 1, &len, &ver, &abbr, &asz,
					     &lsz, &esz, &sig, &typeoff, &next,
					     &cut, &e)) == DW_DLV_OK) {
		uint64_t lo = hdr;
		hdr = next;
		if (rc || (h && !hit_in(h, lo, next)))
			continue; /* drain: libdwarf resets after the last CU */
		Dwarf_Die cu = NULL;
		if (dwarf_siblingof_b(d->dbg, NULL, 1, &cu, &e) != DW_DLV_OK) {
			rc = slt_dw_fail(d, e, lo, "compile unit DIE");
			continue;
		}
		rc = top_level(d, cu, lo, next, h, fn, ctx);
		dwarf_dealloc_die(cu);
	}
	if (res == DW_DLV_ERROR) {
		/* The iteration cannot resume: libdwarf is reset by closing. */
		return slt_dw_fail(d, e, hdr, "compile unit header");
	}
	return rc;
}
