/* SPDX-License-Identifier: MIT */
/*
 * The access map as bytes, for the cache (include/structlint/cache.h, kind
 * "access"): slt_access_save() writes it, slt_access_load() reads it back,
 * checking every count, index and string against the payload's bounds
 * (the cache validates the container; this validates the contents, and
 * tests/fuzz/fuzz_access_cache.c feeds it arbitrary bytes).
 *
 * Payload version SLT_ACCESS_CACHE_VERSION, little-endian, fixed-size
 * records:
 *   header   8 x u64: n_funcs, n_sites, n_embeds, strtab bytes, n_insns,
 *            n_mem, n_lea, n_undecodable; then u64 n_no_code and
 *            SLT_AR_N x u64 reasons
 *   funcs    n_funcs x { u32 name, u32 n_insns, u32 n_mem, u32 pad,
 *            u64 low_pc, u64 size, u64 cu, SLT_AR_N x u32 reasons }
 *   sites    n_sites x { u64 pc, u64 type_size, i64 offset, u32 type,
 *            u32 width, u32 kind, u32 func, u8 via, u8 insn_len, 6 pad }
 *   embeds   n_embeds x { u64 type_size, u32 type, u32 n_containers }
 *   strtab   NUL-terminated strings; a string is its byte offset
 */
#include <stdlib.h>
#include <string.h>

#include "access/access_int.h"

#define HDR_WORDS (9 + SLT_AR_N)
#define FUNC_SIZE (16 + 24 + 4 * SLT_AR_N)
#define SITE_SIZE 48
#define EMBED_SIZE 16

struct wbuf {
	uint8_t *p;
	size_t n, cap;
	bool bad;
};

static void put(struct wbuf *w, const void *v, size_t n)
{
	if (w->bad)
		return;
	if (w->n + n > w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 4096;
		while (cap < w->n + n)
			cap *= 2;
		uint8_t *q = realloc(w->p, cap);
		if (!q) {
			w->bad = true;
			return;
		}
		w->p = q;
		w->cap = cap;
	}
	memcpy(w->p + w->n, v, n);
	w->n += n;
}

static void put_u64(struct wbuf *w, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put(w, b, 8);
}

static void put_u32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4];
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put(w, b, 4);
}

/* The string table: each distinct type name once (sites share a few
 * thousand names), function names as they come. */
struct strs {
	struct wbuf w;
	const char *last;  /* the last type string added, and its offset */
	uint32_t last_off;
};

static uint32_t add_str(struct strs *s, const char *str)
{
	if (s->last && (s->last == str || !strcmp(s->last, str)))
		return s->last_off;
	uint32_t off = (uint32_t)s->w.n;
	put(&s->w, str, strlen(str) + 1);
	s->last = str;
	s->last_off = off;
	return off;
}

int slt_access_save(const struct slt_access_map *m, void **out, size_t *size,
		    struct slt_error *err)
{
	struct wbuf w = {0};
	struct strs st = {0};
	uint32_t *fname = calloc(m->n_funcs + 1, sizeof(*fname));
	uint32_t *tname = calloc(m->n_sites + 1, sizeof(*tname));
	uint32_t *ename = calloc(m->n_embeds + 1, sizeof(*ename));
	*out = NULL;
	*size = 0;
	if (!fname || !tname || !ename)
		goto oom;
	for (size_t i = 0; i < m->n_funcs; i++)
		fname[i] = add_str(&st, m->funcs[i].name ? m->funcs[i].name : "");
	for (size_t i = 0; i < m->n_sites; i++)
		tname[i] = add_str(&st, m->sites[i].type ? m->sites[i].type : "");
	for (size_t i = 0; i < m->n_embeds; i++)
		ename[i] = add_str(&st, m->embeds[i].type);
	if (st.w.bad || st.w.n > UINT32_MAX)
		goto oom;
	put_u64(&w, m->n_funcs);
	put_u64(&w, m->n_sites);
	put_u64(&w, m->n_embeds);
	put_u64(&w, st.w.n);
	put_u64(&w, m->n_insns);
	put_u64(&w, m->n_mem);
	put_u64(&w, m->n_lea);
	put_u64(&w, m->n_undecodable);
	put_u64(&w, m->n_no_code);
	for (int k = 0; k < SLT_AR_N; k++)
		put_u64(&w, m->reasons[k]);
	for (size_t i = 0; i < m->n_funcs; i++) {
		const struct slt_access_func *f = &m->funcs[i];
		put_u32(&w, fname[i]);
		put_u32(&w, f->n_insns);
		put_u32(&w, f->n_mem);
		put_u32(&w, 0);
		put_u64(&w, f->low_pc);
		put_u64(&w, f->size);
		put_u64(&w, f->cu);
		for (int k = 0; k < SLT_AR_N; k++)
			put_u32(&w, f->reasons[k]);
	}
	for (size_t i = 0; i < m->n_sites; i++) {
		const struct slt_access_site *s = &m->sites[i];
		uint8_t tail[8] = {s->via, s->insn_len};
		put_u64(&w, s->pc);
		put_u64(&w, s->type_size);
		put_u64(&w, (uint64_t)s->offset);
		put_u32(&w, tname[i]);
		put_u32(&w, s->width);
		put_u32(&w, s->kind);
		put_u32(&w, s->func);
		put(&w, tail, 8);
	}
	for (size_t i = 0; i < m->n_embeds; i++) {
		put_u64(&w, m->embeds[i].type_size);
		put_u32(&w, ename[i]);
		put_u32(&w, m->embeds[i].n_containers);
	}
	put(&w, st.w.p, st.w.n);
	if (w.bad)
		goto oom;
	free(fname);
	free(tname);
	free(ename);
	free(st.w.p);
	*out = w.p;
	*size = w.n;
	return 0;
oom:
	free(fname);
	free(tname);
	free(ename);
	free(st.w.p);
	free(w.p);
	return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int corrupt(struct slt_error *err, const char *path, const char *what)
{
	return slt_error_set(err, SLT_ECORRUPT, path, -1,
			     "remove the cache file (or run with --no-cache)",
			     "access map cache: %s", what);
}

/* The string at off of the table, or NULL when off is outside it or the
 * string runs past its end. */
static const char *str_at(const char *tab, uint64_t n, uint32_t off)
{
	if (off >= n || !memchr(tab + off, 0, n - off))
		return NULL;
	return tab + off;
}

int slt_access_load(const void *data, size_t size, const char *path,
		    struct slt_access_map **out, struct slt_error *err)
{
	const uint8_t *p = data;
	*out = NULL;
	if (size < HDR_WORDS * 8)
		return corrupt(err, path, "shorter than its header");
	uint64_t nf = get_u64(p), ns = get_u64(p + 8), ne = get_u64(p + 16);
	uint64_t nstr = get_u64(p + 24);
	uint64_t rest = size - HDR_WORDS * 8;
	/* each count is bounded by the bytes left before multiplying */
	if (nf > rest / FUNC_SIZE || ns > rest / SITE_SIZE || ne > rest / EMBED_SIZE ||
	    nf * FUNC_SIZE + ns * SITE_SIZE + ne * EMBED_SIZE + nstr != rest ||
	    nf > UINT32_MAX)
		return corrupt(err, path, "record counts do not match its size");
	uint8_t *blob = malloc(nstr + 1);
	if (!blob)
		return slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
	const uint8_t *fp = p + HDR_WORDS * 8, *sp = fp + nf * FUNC_SIZE;
	const uint8_t *ep = sp + ns * SITE_SIZE, *tp = ep + ne * EMBED_SIZE;
	memcpy(blob, tp, nstr);
	blob[nstr] = 0;
	const char *tab = (const char *)blob;
	struct slt_access_map *m = slt_acc_map_new_lazy(path, blob);
	if (!m) {
		free(blob);
		return slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
	}
	m->n_insns = get_u64(p + 32);
	m->n_mem = get_u64(p + 40);
	m->n_lea = get_u64(p + 48);
	m->n_undecodable = get_u64(p + 56);
	m->n_no_code = get_u64(p + 64);
	for (int k = 0; k < SLT_AR_N; k++)
		m->reasons[k] = get_u64(p + 72 + 8 * k);
	m->funcs = calloc(nf + 1, sizeof(*m->funcs));
	m->sites = calloc(ns + 1, sizeof(*m->sites));
	m->embeds = calloc(ne + 1, sizeof(*m->embeds));
	if (!m->funcs || !m->sites || !m->embeds) {
		slt_access_free(m);
		return slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
	}
	const char *bad = NULL;
	for (uint64_t i = 0; i < nf && !bad; i++, fp += FUNC_SIZE) {
		struct slt_access_func *f = &m->funcs[i];
		if (!(f->name = str_at(tab, nstr, get_u32(fp))))
			bad = "a function name outside its string table";
		f->n_insns = get_u32(fp + 4);
		f->n_mem = get_u32(fp + 8);
		f->low_pc = get_u64(fp + 16);
		f->size = get_u64(fp + 24);
		f->cu = get_u64(fp + 32);
		for (int k = 0; k < SLT_AR_N; k++)
			f->reasons[k] = get_u32(fp + 40 + 4 * k);
	}
	m->n_funcs = nf;
	for (uint64_t i = 0; i < ns && !bad; i++, sp += SITE_SIZE) {
		struct slt_access_site *s = &m->sites[i];
		s->pc = get_u64(sp);
		s->type_size = get_u64(sp + 8);
		s->offset = (int64_t)get_u64(sp + 16);
		s->type = str_at(tab, nstr, get_u32(sp + 24));
		s->width = get_u32(sp + 28);
		s->kind = get_u32(sp + 32);
		s->func = get_u32(sp + 36);
		s->via = sp[40];
		s->insn_len = sp[41];
		if (!s->type)
			bad = "a type name outside its string table";
		else if (s->func >= nf)
			bad = "a site of a function it does not list";
		else if (s->via > SLT_VIA_CALL || s->offset < 0 ||
			 (uint64_t)s->offset >= s->type_size)
			bad = "a site outside its struct";
		else if (i && s->pc < m->sites[i - 1].pc)
			bad = "sites out of address order";
	}
	m->n_sites = ns;
	for (uint64_t i = 0; i < ne && !bad; i++, ep += EMBED_SIZE) {
		struct slt_access_embed *e = &m->embeds[i];
		e->type_size = get_u64(ep);
		e->type = str_at(tab, nstr, get_u32(ep + 8));
		e->n_containers = get_u32(ep + 12);
		if (!e->type)
			bad = "an embedded type name outside its string table";
		else if (i && (strcmp(m->embeds[i - 1].type, e->type) > 0 ||
			       (!strcmp(m->embeds[i - 1].type, e->type) &&
				m->embeds[i - 1].type_size >= e->type_size)))
			bad = "embedded types out of order";
	}
	m->n_embeds = ne;
	if (bad) {
		slt_access_free(m);
		return corrupt(err, path, bad);
	}
	*out = m;
	return 0;
}
