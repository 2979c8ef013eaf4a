/* SPDX-License-Identifier: MIT */
/*
 * The access map as bytes, for the cache (include/structlint/cache.h, kind
 * "access"): slt_access_save() writes it, slt_access_load() and
 * slt_access_load_types() read it back, checking every count, index and
 * string against the payload's bounds (the cache validates the container;
 * this validates the contents, and tests/fuzz/fuzz_access_cache.c feeds it
 * arbitrary bytes).
 *
 * Payload version SLT_ACCESS_CACHE_VERSION, little-endian, fixed-size
 * records; the head (everything before the sites: what every query reads,
 * covered by the cache header's checksum) then the sites, one block per
 * (type name, type size), so a query reads the blocks of the types it
 * asks for and nothing else (cost follows the asked types, not the binary):
 *   header   10 x u64: n_funcs, n_sites, n_embeds, strtab bytes, n_insns,
 *            n_mem, n_lea, n_undecodable, n_no_code, n_types; then
 *            SLT_AR_N x u64 reasons; then n_bad_loc_funcs,
 *            bad_loc_version, bad_loc_off
 *   types    n_types x { u32 name, u32 pad, u64 type_size, u64 n_sites,
 *            u64 FNV-1a 64 of its block }, sorted by (name, type_size),
 *            the blocks in this order, each n_sites >= 1
 *   funcs    n_funcs x { u32 name, u32 n_insns, u32 n_mem, u32 pad,
 *            u64 low_pc, u64 size, u64 cu, SLT_AR_N x u32 reasons }
 *   embeds   n_embeds x { u64 type_size, u32 type, u32 n_containers }
 *   strtab   NUL-terminated strings; a string is its byte offset
 *   sites    per type, by pc: { u64 pc, i64 offset, u32 width, u32 kind,
 *            u32 func, u8 via, u8 insn_len, 2 pad }
 */
#include <stdlib.h>
#include <string.h>

#include "access/access_int.h"
#include "common/strmap.h"
#include "structlint/cache.h"

#define HDR_WORDS (13 + SLT_AR_N)
#define TYPE_SIZE 32
#define FUNC_SIZE (16 + 24 + 4 * SLT_AR_N)
#define SITE_SIZE 32
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

/* The string table: each distinct string once. */
struct strs {
	struct wbuf w;
	struct slt_strmap seen;
};

static uint32_t add_str(struct strs *s, const char *str)
{
	size_t off, n = strlen(str);
	if (slt_strmap_get(&s->seen, str, n, &off))
		return (uint32_t)off;
	off = s->w.n;
	put(&s->w, str, n + 1);
	if (slt_strmap_put(&s->seen, str, n, off, NULL) < 0)
		s->w.bad = true;
	return (uint32_t)off;
}

/* Site order in the file: by (type name, type size), then by pc, then as
 * in the map (a stable order: what loads saves to the same bytes). */
struct order {
	const char *type;
	uint64_t size, pc;
	size_t i;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	int c = x->type == y->type ? 0 : strcmp(x->type, y->type);
	if (c)
		return c;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void put_site(struct wbuf *w, const struct slt_access_site *s)
{
	uint8_t tail[4] = {s->via, s->insn_len};
	put_u64(w, s->pc);
	put_u64(w, (uint64_t)s->offset);
	put_u32(w, s->width);
	put_u32(w, s->kind);
	put_u32(w, s->func);
	put(w, tail, 4);
}

int slt_access_save(const struct slt_access_map *m, void **out, size_t *size,
		    struct slt_error *err)
{
	struct wbuf w = {0}, sw = {0}, tw = {0};
	struct strs st = {0};
	uint32_t *fname = calloc(m->n_funcs + 1, sizeof(*fname));
	uint32_t *ename = calloc(m->n_embeds + 1, sizeof(*ename));
	struct order *ord = calloc(m->n_sites + 1, sizeof(*ord));
	size_t n_types = 0;
	*out = NULL;
	*size = 0;
	if (!fname || !ename || !ord)
		goto oom;
	for (size_t i = 0; i < m->n_sites; i++)
		ord[i] = (struct order){m->sites[i].type ? m->sites[i].type : "",
					m->sites[i].type_size, m->sites[i].pc, i};
	if (m->n_sites > 1) /* qsort(NULL, 0) is undefined */
		qsort(ord, m->n_sites, sizeof(*ord), cmp_order);
	/* the type index and the blocks */
	for (size_t i = 0; i < m->n_sites;) {
		size_t j = i, at = sw.n;
		while (j < m->n_sites && !strcmp(ord[j].type, ord[i].type) &&
		       ord[j].size == ord[i].size)
			put_site(&sw, &m->sites[ord[j++].i]);
		if (sw.bad)
			goto oom;
		put_u32(&tw, add_str(&st, ord[i].type));
		put_u32(&tw, 0);
		put_u64(&tw, ord[i].size);
		put_u64(&tw, j - i);
		put_u64(&tw, slt_cache_checksum(sw.p + at, sw.n - at));
		n_types++;
		i = j;
	}
	for (size_t i = 0; i < m->n_funcs; i++)
		fname[i] = add_str(&st, m->funcs[i].name ? m->funcs[i].name : "");
	for (size_t i = 0; i < m->n_embeds; i++)
		ename[i] = add_str(&st, m->embeds[i].type);
	if (st.w.bad || tw.bad || st.w.n > UINT32_MAX)
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
	put_u64(&w, n_types);
	for (int k = 0; k < SLT_AR_N; k++)
		put_u64(&w, m->reasons[k]);
	put_u64(&w, m->n_bad_loc_funcs);
	put_u64(&w, m->bad_loc_version);
	put_u64(&w, m->bad_loc_off);
	put(&w, tw.p, tw.n);
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
	for (size_t i = 0; i < m->n_embeds; i++) {
		put_u64(&w, m->embeds[i].type_size);
		put_u32(&w, ename[i]);
		put_u32(&w, m->embeds[i].n_containers);
	}
	put(&w, st.w.p, st.w.n);
	put(&w, sw.p, sw.n);
	if (w.bad)
		goto oom;
	free(fname);
	free(ename);
	free(ord);
	free(st.w.p);
	slt_strmap_free(&st.seen);
	free(sw.p);
	free(tw.p);
	*out = w.p;
	*size = w.n;
	return 0;
oom:
	free(fname);
	free(ename);
	free(ord);
	free(st.w.p);
	slt_strmap_free(&st.seen);
	free(sw.p);
	free(tw.p);
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

size_t slt_access_head_size(const void *data, size_t size)
{
	const uint8_t *p = data;
	if (size < HDR_WORDS * 8)
		return 0;
	uint64_t nf = get_u64(p), ne = get_u64(p + 16), nstr = get_u64(p + 24);
	uint64_t nt = get_u64(p + 72), rest = size - HDR_WORDS * 8;
	if (nf > rest / FUNC_SIZE || ne > rest / EMBED_SIZE || nt > rest / TYPE_SIZE ||
	    nstr > rest)
		return 0;
	uint64_t head = nf * FUNC_SIZE + ne * EMBED_SIZE + nt * TYPE_SIZE + nstr;
	return head > rest ? 0 : (size_t)(HDR_WORDS * 8 + head);
}

/* One type's block of sites, as the index gives it. */
struct tblock {
	const char *type;
	uint64_t type_size, n, first, sum;
};

struct site_key {
	uint64_t pc, i;
};

static int cmp_key(const void *a, const void *b)
{
	const struct site_key *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static bool wanted(const char *type, const char *const *types, size_t n)
{
	if (!types)
		return true;
	for (size_t i = 0; i < n; i++)
		if (types[i] && !strcmp(types[i], type))
			return true;
	return false;
}

/* The head's tables into m; the type index into *tb (n_types entries).
 * NULL or what is wrong. */
static const char *load_head(const uint8_t *p, size_t head, uint64_t size,
			     struct slt_access_map *m, const char *tab,
			     struct tblock **tb, uint64_t *n_types)
{
	uint64_t nf = get_u64(p), ns = get_u64(p + 8), ne = get_u64(p + 16);
	uint64_t nstr = get_u64(p + 24), nt = get_u64(p + 72);
	/* each count is bounded by the bytes left before multiplying */
	if (ns > (size - head) / SITE_SIZE || ns * SITE_SIZE != size - head ||
	    nf > UINT32_MAX)
		return "record counts do not match its size";
	m->n_insns = get_u64(p + 32);
	m->n_mem = get_u64(p + 40);
	m->n_lea = get_u64(p + 48);
	m->n_undecodable = get_u64(p + 56);
	m->n_no_code = get_u64(p + 64);
	for (int k = 0; k < SLT_AR_N; k++)
		m->reasons[k] = get_u64(p + 80 + 8 * k);
	m->n_bad_loc_funcs = get_u64(p + 80 + 8 * SLT_AR_N);
	m->bad_loc_version = (unsigned)get_u64(p + 88 + 8 * SLT_AR_N);
	m->bad_loc_off = get_u64(p + 96 + 8 * SLT_AR_N);
	m->funcs = calloc(nf + 1, sizeof(*m->funcs));
	m->embeds = calloc(ne + 1, sizeof(*m->embeds));
	*tb = calloc(nt + 1, sizeof(**tb));
	if (!m->funcs || !m->embeds || !*tb)
		return NULL;
	const uint8_t *tp = p + HDR_WORDS * 8, *fp = tp + nt * TYPE_SIZE;
	const uint8_t *ep = fp + nf * FUNC_SIZE;
	uint64_t first = 0;
	for (uint64_t i = 0; i < nt; i++, tp += TYPE_SIZE) {
		struct tblock *t = &(*tb)[i];
		t->type = str_at(tab, nstr, get_u32(tp));
		t->type_size = get_u64(tp + 8);
		t->n = get_u64(tp + 16);
		t->sum = get_u64(tp + 24);
		t->first = first;
		if (!t->type)
			return "a type name outside its string table";
		if (!t->n || t->n > ns - first)
			return "type blocks do not add up to its sites";
		if (i && (strcmp(t[-1].type, t->type) > 0 ||
			  (!strcmp(t[-1].type, t->type) && t[-1].type_size >= t->type_size)))
			return "types out of order";
		first += t->n;
	}
	if (first != ns)
		return "type blocks do not add up to its sites";
	*n_types = nt;
	for (uint64_t i = 0; i < nf; i++, fp += FUNC_SIZE) {
		struct slt_access_func *f = &m->funcs[i];
		if (!(f->name = str_at(tab, nstr, get_u32(fp))))
			return "a function name outside its string table";
		f->n_insns = get_u32(fp + 4);
		f->n_mem = get_u32(fp + 8);
		f->low_pc = get_u64(fp + 16);
		f->size = get_u64(fp + 24);
		f->cu = get_u64(fp + 32);
		for (int k = 0; k < SLT_AR_N; k++)
			f->reasons[k] = get_u32(fp + 40 + 4 * k);
	}
	m->n_funcs = nf;
	for (uint64_t i = 0; i < ne; i++, ep += EMBED_SIZE) {
		struct slt_access_embed *e = &m->embeds[i];
		e->type_size = get_u64(ep);
		e->type = str_at(tab, nstr, get_u32(ep + 8));
		e->n_containers = get_u32(ep + 12);
		if (!e->type)
			return "an embedded type name outside its string table";
		if (i && (strcmp(m->embeds[i - 1].type, e->type) > 0 ||
			  (!strcmp(m->embeds[i - 1].type, e->type) &&
			   m->embeds[i - 1].type_size >= e->type_size)))
			return "embedded types out of order";
	}
	m->n_embeds = ne;
	return "";
}

/* Block t's n sites from b into m->sites[at..]: NULL or what is wrong. */
static const char *load_block(const struct tblock *t, const uint8_t *b,
			      struct slt_access_map *m, size_t at)
{
	for (uint64_t i = 0; i < t->n; i++, b += SITE_SIZE) {
		struct slt_access_site *s = &m->sites[at + i];
		s->pc = get_u64(b);
		s->type = t->type;
		s->type_size = t->type_size;
		s->offset = (int64_t)get_u64(b + 8);
		s->width = get_u32(b + 16);
		s->kind = get_u32(b + 20);
		s->func = get_u32(b + 24);
		s->via = b[28];
		s->insn_len = b[29];
		if (s->func >= m->n_funcs)
			return "a site of a function it does not list";
		if (s->via > SLT_VIA_CALL || s->offset < 0 ||
		    (uint64_t)s->offset >= s->type_size)
			return "a site outside its struct";
		if (i && s->pc < s[-1].pc)
			return "sites out of address order";
	}
	return NULL;
}

/* Sort m->sites by pc (ties in file order, keys[i].i), through keys. */
static bool sort_sites(struct slt_access_map *m, struct site_key *keys)
{
	if (m->n_sites < 2)
		return true;
	qsort(keys, m->n_sites, sizeof(*keys), cmp_key);
	struct slt_access_site *v = calloc(m->n_sites + 1, sizeof(*v));
	if (!v)
		return false;
	for (size_t i = 0; i < m->n_sites; i++)
		v[i] = m->sites[keys[i].i];
	free(m->sites);
	m->sites = v;
	return true;
}

/* The loader behind both entries: r's head, then the blocks of the
 * wanted types (checked against their checksums when check). */
static int load(const struct slt_access_reader *r, const char *const *types,
		size_t n_types, bool check, const char *path,
		struct slt_access_map **out, struct slt_error *err)
{
	const uint8_t *p = r->head;
	*out = NULL;
	size_t head = slt_access_head_size(r->head, r->head_size);
	if (!head || head > r->head_size || r->size < r->head_size)
		return corrupt(err, path, "record counts do not match its size");
	uint64_t nstr = get_u64(p + 24);
	uint8_t *blob = malloc(nstr + 1);
	if (!blob)
		return slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
	memcpy(blob, p + head - nstr, nstr);
	blob[nstr] = 0;
	struct slt_access_map *m = slt_acc_map_new_lazy(path, blob);
	if (!m) {
		free(blob);
		return slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
	}
	struct tblock *tb = NULL;
	struct site_key *keys = NULL;
	uint8_t *buf = NULL;
	uint64_t nt = 0, n = 0, big = 0;
	const char *bad = load_head(p, head, r->size, m, (const char *)blob, &tb, &nt);
	if (!bad)
		goto oom;
	if (*bad)
		goto fail;
	bad = NULL;
	for (uint64_t i = 0; i < nt; i++)
		if (wanted(tb[i].type, types, n_types)) {
			n += tb[i].n;
			big = tb[i].n > big ? tb[i].n : big;
		}
	m->sites = calloc(n + 1, sizeof(*m->sites));
	keys = calloc(n + 1, sizeof(*keys));
	buf = malloc(big * SITE_SIZE + 1);
	if (!m->sites || !keys || !buf)
		goto oom;
	for (uint64_t i = 0; i < nt && !bad; i++) {
		const struct tblock *t = &tb[i];
		if (!wanted(t->type, types, n_types))
			continue;
		uint64_t off = head + t->first * SITE_SIZE;
		int rc = r->read(r->ctx, off, buf, t->n * SITE_SIZE);
		if (rc == SLT_EIO) {
			slt_access_free(m);
			free(tb);
			free(keys);
			free(buf);
			return slt_error_set(err, SLT_EIO, path, -1, NULL,
					     "access map cache: cannot read it");
		}
		if (rc)
			bad = "record counts do not match its size";
		else if (check && slt_cache_checksum(buf, t->n * SITE_SIZE) != t->sum)
			bad = "a block of sites fails its checksum";
		else
			bad = load_block(t, buf, m, m->n_sites);
		for (uint64_t k = 0; k < t->n; k++)
			keys[m->n_sites + k] = (struct site_key){
				m->sites[m->n_sites + k].pc, m->n_sites + k};
		m->n_sites += t->n;
	}
	if (bad)
		goto fail;
	if (!sort_sites(m, keys))
		goto oom;
	free(tb);
	free(keys);
	free(buf);
	*out = m;
	return 0;
fail:
	slt_access_free(m);
	free(tb);
	free(keys);
	free(buf);
	return corrupt(err, path, bad);
oom:
	slt_access_free(m);
	free(tb);
	free(keys);
	free(buf);
	return slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
}

struct mem {
	const uint8_t *p;
	size_t n;
};

static int mem_read(void *ctx, uint64_t off, void *buf, size_t n)
{
	const struct mem *m = ctx;
	if (off > m->n || n > m->n - off)
		return SLT_ECORRUPT;
	memcpy(buf, m->p + off, n);
	return 0;
}

int slt_access_load(const void *data, size_t size, const char *path,
		    struct slt_access_map **out, struct slt_error *err)
{
	struct mem mm = {data, size};
	struct slt_access_reader r = {data, size, size, mem_read, &mm};
	return load(&r, NULL, 0, false, path, out, err);
}

int slt_access_load_types(const struct slt_access_reader *r,
			  const char *const *types, size_t n_types,
			  const char *path, struct slt_access_map **out,
			  struct slt_error *err)
{
	return load(r, types, n_types, true, path, out, err);
}
