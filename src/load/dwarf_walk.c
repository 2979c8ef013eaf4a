/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: the CU walk and its string pre-filter (see load/dwarf.c
 * for why the filter is sound, load/dwarf_int.h).
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* What to look for in .debug_info, and where one part of the search
 * puts its hits (the matches that start in [lo, hi)). */
struct scan_job {
	const uint8_t *info;
	size_t info_n, lo, hi;
	const char *const *names; /* inline "NAME\0" */
	size_t n_names;
	const uint32_t *ov;       /* sorted string offsets */
	size_t n_ov;
	const uint64_t *bits;     /* hash filter of ov (n_ov > 2) */
	bool le;
	struct hits h;
	int rc;
};

static uint32_t hash_off(uint32_t v)
{
	return (v * 0x9E3779B1u) >> 16;
}

/* Every start in [lo, hi) of the len-byte pattern pat. */
static int find_all(struct scan_job *j, const void *pat, size_t len)
{
	const uint8_t *p = j->info + j->lo, *stop = j->info + j->hi;
	const uint8_t *end = j->info + (j->hi + len - 1 < j->info_n
					      ? j->hi + len - 1 : j->info_n);
	while (p < end && (p = memmem(p, (size_t)(end - p), pat, len)) &&
	       p < stop) {
		if (hit_add(&j->h, (uint64_t)(p - j->info)))
			return SLT_ENOMEM;
		p++;
	}
	return 0;
}

static void *scan_part(void *arg)
{
	struct scan_job *j = arg;
	for (size_t k = 0; k < j->n_names && !j->rc; k++)
		j->rc = find_all(j, j->names[k], strlen(j->names[k]) + 1);
	if (j->n_ov > 2) {
		/* One pass: a 64 Kbit hash filter, then a binary search of
		 * the sorted offsets. */
		size_t last = j->info_n >= 4 ? j->info_n - 3 : 0;
		for (size_t i = j->lo; i < j->hi && i < last && !j->rc; i++) {
			const uint8_t *p = j->info + i;
			uint32_t v = j->le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
						     (uint32_t)p[2] << 16 |
						     (uint32_t)p[3] << 24
					   : (uint32_t)p[3] | (uint32_t)p[2] << 8 |
						     (uint32_t)p[1] << 16 |
						     (uint32_t)p[0] << 24;
			uint32_t hv = hash_off(v);
			if ((j->bits[hv >> 6] >> (hv & 63) & 1) &&
			    bsearch(&v, j->ov, j->n_ov, sizeof(*j->ov), cmp_u32))
				j->rc = hit_add(&j->h, i);
		}
		return NULL;
	}
	for (size_t i = 0; i < j->n_ov && !j->rc; i++) {
		uint8_t pat[4];
		for (int b = 0; b < 4; b++)
			pat[j->le ? b : 3 - b] = (uint8_t)(j->ov[i] >> (8 * b));
		j->rc = find_all(j, pat, 4);
	}
	return NULL;
}

/* Below this much .debug_info one thread is as fast as two. */
#define SCAN_SPLIT_MIN (8u << 20)

/*
 * Record in h where .debug_info may name one of names[0..n): inline
 * "NAME\0" and the 4-byte encoding of the offset of every "NAME\0" in
 * .debug_str and .debug_line_str.  *any is false when neither appears.
 * A large .debug_info is searched in two halves by two threads (pure
 * memory reads, no libdwarf); the result is the same sorted list.
 */
int slt_dw_scan(struct dw *d, const char *const *names, size_t n,
		struct hits *h, bool *any)
{
	struct vec offs = { .elt = sizeof(uint32_t) };
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
	}
	uint32_t *ov = offs.v;
	uint64_t bits[1024];
	if (offs.n > 2) {
		memset(bits, 0, sizeof(bits));
		for (size_t i = 0; i < offs.n; i++) {
			uint32_t hv = hash_off(ov[i]);
			bits[hv >> 6] |= 1ull << (hv & 63);
		}
		qsort(ov, offs.n, sizeof(*ov), cmp_u32);
	}
	struct scan_job job[2] = { {
		.info = d->info, .info_n = d->info_n, .lo = 0, .hi = d->info_n,
		.names = names, .n_names = n, .ov = ov, .n_ov = offs.n,
		.bits = bits, .le = slt_elf_is_le(d->elf), .h = *h,
	} };
	*h = (struct hits){ 0 };
	size_t parts = 1;
	pthread_t th;
	if (!rc && d->info_n >= SCAN_SPLIT_MIN &&
	    sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		job[1] = job[0];
		job[1].h = (struct hits){ 0 };
		job[0].hi = job[1].lo = d->info_n / 2;
		if (pthread_create(&th, NULL, scan_part, &job[1]) == 0)
			parts = 2;
		else
			job[0].hi = d->info_n;
	}
	if (!rc)
		scan_part(&job[0]);
	if (parts == 2)
		pthread_join(th, NULL);
	*h = job[0].h;
	for (size_t t = 0; t < 2; t++)
		if (!rc)
			rc = job[t].rc;
	if (parts == 2) {
		for (size_t i = 0; i < job[1].h.n && !rc; i++)
			rc = hit_add(h, job[1].h.pos[i]);
		free(job[1].h.pos);
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
