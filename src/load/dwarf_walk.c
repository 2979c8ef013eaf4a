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
#include "common/sort.h"

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
 * A set of names to find as "NAME\0" anywhere in a buffer, all in one pass
 * (as many memmem() calls would, overlapping matches included): a match
 * ends at the first NUL after its start, so at each NUL the bytes before
 * it are looked up for each name length, after a check of the byte before
 * the NUL and of the first byte for that length (bitmaps), in a hash table
 * of the names.
 */
struct nameset {
	const char *const *names;
	size_t n;
	size_t *len;        /* n: strlen(names[k]) */
	size_t *lens;       /* the distinct lengths > 0, ascending */
	size_t n_lens, max_len;
	uint8_t (*first)[32]; /* per lens[]: bitmap of first bytes */
	uint8_t last[32];   /* bitmap of last bytes */
	bool empty;         /* "" is a name: every NUL matches */
	uint32_t *slot;     /* name index + 1, 0: free; mask + 1 slots */
	size_t mask;
};

static uint64_t ns_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void ns_free(struct nameset *ns)
{
	free(ns->len);
	free(ns->lens);
	free(ns->first);
	free(ns->slot);
	memset(ns, 0, sizeof(*ns));
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* 0 or SLT_ENOMEM (ns freed). */
static int ns_init(struct nameset *ns, const char *const *names, size_t n)
{
	size_t cap = 16;
	memset(ns, 0, sizeof(*ns));
	ns->names = names;
	ns->n = n;
	while (cap < 2 * n)
		cap *= 2;
	ns->mask = cap - 1;
	ns->len = malloc((n ? n : 1) * sizeof(*ns->len));
	ns->lens = malloc((n ? n : 1) * sizeof(*ns->lens));
	ns->first = calloc(n ? n : 1, sizeof(*ns->first));
	ns->slot = calloc(cap, sizeof(*ns->slot));
	if (!ns->len || !ns->lens || !ns->first || !ns->slot) {
		ns_free(ns);
		return SLT_ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		size_t l = ns->len[k] = strlen(names[k]);
		if (!l) {
			ns->empty = true;
			continue;
		}
		ns->lens[ns->n_lens++] = l;
		uint8_t c = (uint8_t)names[k][l - 1];
		ns->last[c >> 3] |= (uint8_t)(1u << (c & 7));
		size_t i = (size_t)ns_hash((const uint8_t *)names[k], l) & ns->mask;
		while (ns->slot[i])
			i = (i + 1) & ns->mask;
		ns->slot[i] = (uint32_t)k + 1;
	}
	qsort(ns->lens, ns->n_lens, sizeof(*ns->lens), cmp_size);
	size_t u = 0;
	for (size_t i = 0; i < ns->n_lens; i++)
		if (!u || ns->lens[u - 1] != ns->lens[i])
			ns->lens[u++] = ns->lens[i];
	ns->n_lens = u;
	ns->max_len = u ? ns->lens[u - 1] : 0;
	for (size_t k = 0; k < n; k++) {
		if (!ns->len[k])
			continue;
		size_t *lp = bsearch(&ns->len[k], ns->lens, u, sizeof(*lp), cmp_size);
		uint8_t c = (uint8_t)names[k][0];
		ns->first[lp - ns->lens][c >> 3] |= (uint8_t)(1u << (c & 7));
	}
	return 0;
}

/* The matches of the set that end at the NUL at buf[i] and start in
 * [lo, hi): their start offsets are added to h.  0 or SLT_ENOMEM. */
static int ns_at(const struct nameset *ns, const uint8_t *buf, size_t i,
		 size_t lo, size_t hi, struct hits *h)
{
	if (ns->empty && i >= lo && i < hi && hit_add(h, i))
		return SLT_ENOMEM;
	if (i == 0)
		return 0;
	uint8_t c = buf[i - 1];
	if (!(ns->last[c >> 3] >> (c & 7) & 1))
		return 0;
	for (size_t k = 0; k < ns->n_lens && ns->lens[k] <= i; k++) {
		size_t l = ns->lens[k], st = i - l;
		if (st < lo || st >= hi)
			continue;
		c = buf[st];
		if (!(ns->first[k][c >> 3] >> (c & 7) & 1))
			continue;
		size_t j = (size_t)ns_hash(buf + st, l) & ns->mask;
		for (; ns->slot[j]; j = (j + 1) & ns->mask) {
			size_t x = ns->slot[j] - 1;
			if (ns->len[x] == l && !memcmp(ns->names[x], buf + st, l)) {
				if (hit_add(h, st))
					return SLT_ENOMEM;
				break;
			}
		}
	}
	return 0;
}

/* Every match of the set in buf[0, n) that starts in [lo, hi). */
static int ns_scan(const struct nameset *ns, const uint8_t *buf, size_t n,
		   size_t lo, size_t hi, struct hits *h)
{
	size_t end = hi + ns->max_len < n ? hi + ns->max_len + 1 : n;
	const uint8_t *p = buf + lo, *stop = buf + end;
	int rc = 0;
	while (!rc && p < stop && (p = memchr(p, 0, (size_t)(stop - p)))) {
		rc = ns_at(ns, buf, (size_t)(p - buf), lo, hi, h);
		p++;
	}
	return rc;
}

/* What to look for in .debug_info, and where one part of the search
 * puts its hits (the matches that start in [lo, hi)). */
struct scan_job {
	const uint8_t *info;
	size_t info_n, lo, hi;
	const struct nameset *ns; /* inline "NAME\0" */
	const uint32_t *ov;       /* sorted string offsets */
	size_t n_ov;
	const uint64_t *bits;     /* hash filters of ov (n_ov > 2): */
	unsigned shift;           /* OFF_L1 bits (L1-cache sized), then
				     from bit OFF_L1 on, 1 << (32 - shift) */
	bool le;
	struct hits h;
	int rc;
};

/* log2 of the first filter's size in bits (32 KB) */
#define OFF_L1 18

static uint32_t hash_off(uint32_t v, unsigned shift)
{
	return (v * 0x9E3779B1u) >> shift;
}

static uint32_t hash_off2(uint32_t v, unsigned shift)
{
	return ((v ^ (v >> 15)) * 0x2C1B3C6Du) >> shift;
}

static bool bit_at(const uint64_t *b, uint32_t i)
{
	return b[i >> 6] >> (i & 63) & 1;
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
	const struct nameset *ns = j->ns;
	if (j->n_ov > 2) {
		/* One pass: a 64 Kbit hash filter, then a binary search of
		 * the sorted offsets; at each NUL, the inline names. */
		const uint8_t *info = j->info;
		const uint64_t *bits = j->bits;
		const unsigned shift = j->shift;
		const bool le = j->le;
		const size_t lo = j->lo, hi = j->hi;
		size_t last = j->info_n >= 4 ? j->info_n - 3 : 0;
		size_t end = hi + ns->max_len < j->info_n ? hi + ns->max_len + 1
							  : j->info_n;
		int rc = 0;
		const uint64_t *bits2 = bits + ((size_t)1 << (OFF_L1 - 6));
		uint8_t lastf[256];
		for (unsigned c = 0; c < 256; c++)
			lastf[c] = ns->empty || (ns->last[c >> 3] >> (c & 7) & 1);
		for (size_t i = lo; i < end && !rc; i++) {
			const uint8_t *p = info + i;
			/* one rarely taken branch: NULs are frequent */
			if (((*p == 0) & (i ? lastf[p[-1]] : 1)) &&
			    (rc = ns_at(ns, info, i, lo, hi, &j->h)))
				break;
			if (i >= hi || i >= last)
				continue;
			uint32_t v = le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
						  (uint32_t)p[2] << 16 |
						  (uint32_t)p[3] << 24
					: (uint32_t)p[3] | (uint32_t)p[2] << 8 |
						  (uint32_t)p[1] << 16 |
						  (uint32_t)p[0] << 24;
			if (bit_at(bits, hash_off(v, 32 - OFF_L1)) &&
			    bit_at(bits2, hash_off2(v, shift)) &&
			    bsearch(&v, j->ov, j->n_ov, sizeof(*j->ov), cmp_u32))
				rc = hit_add(&j->h, i);
		}
		j->rc = rc;
		return NULL;
	}
	if (ns->n == 1)
		j->rc = find_all(j, ns->names[0], ns->len[0] + 1);
	else
		j->rc = ns_scan(ns, j->info, j->info_n, j->lo, j->hi, &j->h);
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
 * Each section is read once for all the names (struct nameset).  A large
 * .debug_info is searched in two halves by two threads (pure memory
 * reads, no libdwarf); the result is the same sorted list.
 */
int slt_dw_scan(struct dw *d, const char *const *names, size_t n,
		struct hits *h, bool *any)
{
	struct nameset ns;
	struct hits so = { 0 };
	uint32_t *ov = NULL;
	size_t n_ov = 0;
	*any = false;
	int rc = ns_init(&ns, names, n);
	const uint8_t *secs[2] = { d->str, d->lstr };
	size_t sn[2] = { d->str_n, d->lstr_n };
	for (int s = 0; s < 2 && !rc; s++)
		if (secs[s])
			rc = ns_scan(&ns, secs[s], sn[s], 0, sn[s], &so);
	if (!rc && so.n && !(ov = malloc(so.n * sizeof(*ov))))
		rc = SLT_ENOMEM;
	/* the low half of a DWARF64 offset too */
	for (size_t i = 0; !rc && i < so.n; i++)
		ov[n_ov++] = (uint32_t)so.pos[i];
	free(so.pos);
	/* The filters: 256 Kbit, then about 256 bits per offset (64 Kbit
	 * to 8 Mbit), so few positions cost a binary search. */
	uint64_t *bits = NULL;
	unsigned lg = 16;
	while (lg < 23 && (1ull << lg) < 256ull * n_ov)
		lg++;
	if (!rc && n_ov > 2) {
		size_t w1 = (size_t)1 << (OFF_L1 - 6), w2 = (size_t)1 << (lg - 6);
		if (!(bits = calloc(w1 + w2, sizeof(*bits))))
			rc = SLT_ENOMEM;
		for (size_t i = 0; i < n_ov && !rc; i++) {
			uint32_t h1 = hash_off(ov[i], 32 - OFF_L1);
			uint32_t h2 = hash_off2(ov[i], 32 - lg);
			bits[h1 >> 6] |= 1ull << (h1 & 63);
			bits[w1 + (h2 >> 6)] |= 1ull << (h2 & 63);
		}
		qsort(ov, n_ov, sizeof(*ov), cmp_u32);
	}
	struct scan_job job[2] = { {
		.info = d->info, .info_n = d->info_n, .lo = 0, .hi = d->info_n,
		.ns = &ns, .ov = ov, .n_ov = n_ov,
		.bits = bits, .shift = 32 - lg, .le = slt_elf_is_le(d->elf), .h = *h,
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
	free(ov);
	free(bits);
	ns_free(&ns);
	if (rc)
		return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				     NULL, "out of memory");
	slt_sort(h->pos, h->n, sizeof(*h->pos), slt_cmp_u64);
	*any = h->n > 0;
	return 0;
}

/*
 * The top-level DIEs of the unit whose DIE is at cu_off that hold a hit
 * (h), read with the direct reader (load/dwarf_raw.h): their offsets,
 * ascending, in v (uint64_t).  libdwarf allocates and decodes every DIE
 * it steps over, and a kernel unit has thousands at top level of which a
 * handful hold a hit.  False when the direct reader cannot read the unit
 * (then libdwarf walks it) or on SLT_ENOMEM (d->rc).
 */
static bool raw_hits(struct dw *d, uint64_t cu_off, const struct hits *h,
		     struct vec *v)
{
	struct slt_raw_die *die = malloc(sizeof(*die));
	bool ok = die && slt_raw_skim(&d->raw, cu_off, die) == 0;
	uint64_t at = ok && die->children ? die->next : 0;
	v->n = 0;
	uint64_t end = ok ? d->raw.cu[die->cu].end : 0;
	while (ok && at && at < end) {
		int rc = slt_raw_skim(&d->raw, at, die);
		if (rc == 1)
			break;
		uint64_t next = rc == 0 ? slt_raw_sibling(&d->raw, die) : 0;
		if (!next) {
			ok = false;
			break;
		}
		if (hit_in(h, at, next)) {
			uint64_t *p = slt_dw_vec_push(d, v);
			if (!p) {
				ok = false;
				break;
			}
			*p = at;
		}
		at = next;
	}
	free(die);
	return ok;
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
	Dwarf_Off cu_off;
	if (h && slt_dw_raw_ready(d) &&
	    slt_dw_dieoffset(d, cu, &cu_off, &e) == DW_DLV_OK) {
		struct vec v = { .elt = sizeof(uint64_t) };
		bool ok = raw_hits(d, cu_off, h, &v);
		int rc = d->rc;
		for (size_t i = 0; ok && i < v.n && !rc; i++) {
			uint64_t off = ((uint64_t *)v.v)[i];
			Dwarf_Half tag;
			if (slt_dw_get_die(d, off, &c))
				break;
			if (dwarf_tag(c, &tag, &e) != DW_DLV_OK)
				rc = slt_dw_fail(d, e, off, "tag");
			else
				rc = fn(d, c, tag, ctx);
			dwarf_dealloc_die(c);
		}
		free(v.v);
		if (ok || d->rc)
			return rc ? rc : d->rc;
	}
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	e = NULL;
	int res = dwarf_child(cu, &c, &e);
	if (res == DW_DLV_ERROR)
		return slt_dw_fail(d, e, lo, "children");
	int rc = 0;
	while (res == DW_DLV_OK && !rc) {
		Dwarf_Off off = 0, hi = end;
		next = NULL;
		res = slt_dw_sibling(d, c, &next, &e);
		if (res == DW_DLV_ERROR)
			rc = slt_dw_fail(d, e, lo, "sibling");
		else if (slt_dw_dieoffset(d, c, &off, &e) != DW_DLV_OK ||
			 (next && slt_dw_dieoffset(d, next, &hi, &e) != DW_DLV_OK))
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
