/* SPDX-License-Identifier: MIT */
/* The direct .debug_info reader (src/load/dwarf_raw.h): unit headers
 * (DWARF 5 section 7.5.1), abbreviation tables (7.5.3), attribute values
 * by form (7.5.5, 7.5.6). */
#include "load/dwarf_raw.h"

#include "common/bytes.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* The unit length at c (DWARF 5 section 7.4): *end, the byte after the
 * unit, and the offset size; c is left after the length.  False when it
 * does not fit. */
static bool unit_span(struct slt_bytes *c, uint64_t *end, uint8_t *osz)
{
	unsigned o;
	uint64_t len = slt_bytes_unit_length(c, &o);
	if (c->bad || len < 2)
		return false;
	*osz = (uint8_t)o;
	*end = c->at + len;
	return true;
}

uint64_t slt_raw_unit_of(const uint8_t *info, size_t info_n, bool le,
			 uint64_t off)
{
	struct slt_bytes c = { info, 0, info_n, le, false };
	while (c.at < info_n) {
		uint64_t lo = c.at, end;
		uint8_t osz;
		if (!unit_span(&c, &end, &osz))
			return UINT64_MAX;
		if (off < end)
			return lo;
		c.at = end;
	}
	return UINT64_MAX;
}

void slt_raw_free(struct slt_raw *r)
{
	for (size_t i = 0; r->tab && i < r->n_cu; i++) {
		free(r->tab[i].code);
		free(r->tab[i].specs);
	}
	free(r->tab);
	free(r->cu);
	memset(r, 0, sizeof(*r));
}

int slt_raw_init(struct slt_raw *r, const uint8_t *info, size_t info_n,
		 const uint8_t *abbrev, size_t abbrev_n, const uint8_t *str,
		 size_t str_n, const uint8_t *lstr, size_t lstr_n, bool le)
{
	memset(r, 0, sizeof(*r));
	r->info = info;
	r->info_n = info_n;
	r->abbrev = abbrev;
	r->abbrev_n = abbrev_n;
	r->str = str;
	r->str_n = str_n;
	r->lstr = lstr;
	r->lstr_n = lstr_n;
	r->le = le;
	size_t cap = 0;
	struct slt_bytes c = { info, 0, info_n, le, false };
	while (c.at < info_n) {
		struct slt_raw_cu u = { .lo = c.at };
		if (!unit_span(&c, &u.end, &u.osz))
			break;
		struct slt_bytes h = { info, c.at, u.end, le, false };
		u.version = (uint8_t)slt_bytes_fixed(&h, 2);
		uint8_t ut = DW_UT_compile;
		if (u.version >= 5) {
			ut = (uint8_t)slt_bytes_fixed(&h, 1);
			u.asz = (uint8_t)slt_bytes_fixed(&h, 1);
			u.abbrev = slt_bytes_fixed(&h, u.osz);
			if (ut == DW_UT_skeleton || ut == DW_UT_split_compile)
				slt_bytes_skip(&h, 8);
			else if (ut == DW_UT_type || ut == DW_UT_split_type)
				slt_bytes_skip(&h, 8 + u.osz);
		} else {
			u.abbrev = slt_bytes_fixed(&h, u.osz);
			u.asz = (uint8_t)slt_bytes_fixed(&h, 1);
		}
		if (h.bad || u.version < 2 || u.version > 5 ||
		    (u.asz != 2 && u.asz != 4 && u.asz != 8))
			break;
		u.die = h.at;
		if (r->n_cu == cap) {
			cap = cap ? 2 * cap : 256;
			struct slt_raw_cu *v = realloc(r->cu, cap * sizeof(*v));
			if (!v)
				break;
			r->cu = v;
		}
		r->cu[r->n_cu++] = u;
		c.at = u.end;
	}
	if (c.at != info_n || !(r->tab = calloc(r->n_cu ? r->n_cu : 1,
						 sizeof(*r->tab)))) {
		slt_raw_free(r);
		return -1;
	}
	return 0;
}

/* The unit holding off, or SIZE_MAX. */
static size_t unit_of(struct slt_raw *r, uint64_t off)
{
	if (r->last < r->n_cu && off >= r->cu[r->last].die &&
	    off < r->cu[r->last].end)
		return r->last;
	size_t l = 0, h = r->n_cu;
	while (l < h) { /* first unit with end > off */
		size_t m = (l + h) / 2;
		if (r->cu[m].end <= off)
			l = m + 1;
		else
			h = m;
	}
	if (l == r->n_cu || off < r->cu[l].die)
		return SIZE_MAX;
	return r->last = l;
}

#define MAX_CODE 65536u

/* The size of a value of form f in unit u when it has a fixed one, or -1. */
static int fixed_size(const struct slt_raw_cu *u, uint32_t f)
{
	switch (f) {
	case DW_FORM_flag_present: case DW_FORM_implicit_const: return 0;
	case DW_FORM_data1: case DW_FORM_flag: case DW_FORM_ref1:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3: return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4:
	case DW_FORM_addrx4: case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16: return 16;
	case DW_FORM_addr: return u->asz;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return u->osz;
	case DW_FORM_ref_addr: return u->version <= 2 ? u->asz : u->osz;
	default: return -1;
	}
}

/* a's fixed-size prefix and where its DW_AT_sibling is (for skimming). */
static void prefix(const struct slt_raw_cu *u, const struct slt_raw_table *t,
		   struct slt_raw_abbrev *a)
{
	const struct slt_raw_spec *sp = a->n ? &t->specs[a->first] : NULL;
	uint32_t at = 0, i;
	a->sib = a->sib_at = UINT32_MAX;
	for (i = 0; i < a->n; i++)
		if (sp[i].at == DW_AT_sibling && a->sib == UINT32_MAX)
			a->sib = i;
	for (i = 0; i < a->n; i++) {
		int sz = fixed_size(u, sp[i].form);
		if (sz < 0)
			break;
		if (i == a->sib)
			a->sib_at = at;
		at += (uint32_t)sz;
	}
	a->n_fixed = i;
	a->fixed = at;
}

static int read_table(struct slt_raw *r, size_t u)
{
	struct slt_raw_table *t = &r->tab[u];
	struct slt_bytes c = { r->abbrev, r->cu[u].abbrev, r->abbrev_n, r->le, false };
	size_t cap_c = 0, cap_s = 0;
	t->state = -1;
	if (c.at >= c.end)
		return -1;
	for (;;) {
		uint64_t code = slt_bytes_uleb(&c);
		if (c.bad)
			return -1;
		if (code == 0)
			break;
		uint64_t tag = slt_bytes_uleb(&c);
		uint64_t ch = slt_bytes_fixed(&c, 1);
		if (c.bad || code > MAX_CODE || !tag || tag > UINT32_MAX)
			return -1;
		if (code >= cap_c) {
			size_t nc = cap_c ? cap_c : 64;
			while (nc <= code)
				nc *= 2;
			struct slt_raw_abbrev *v = realloc(t->code, nc * sizeof(*v));
			if (!v)
				return -1;
			memset(v + cap_c, 0, (nc - cap_c) * sizeof(*v));
			t->code = v;
			cap_c = nc;
		}
		struct slt_raw_abbrev *a = &t->code[code];
		if (a->tag)
			return -1; /* a code defined twice */
		a->tag = (uint32_t)tag;
		a->children = ch != 0;
		a->first = (uint32_t)t->n_specs;
		for (;;) {
			uint64_t at = slt_bytes_uleb(&c), form = slt_bytes_uleb(&c);
			int64_t ic = form == DW_FORM_implicit_const ? slt_bytes_sleb(&c) : 0;
			if (c.bad || at > UINT32_MAX || form > UINT32_MAX)
				return -1;
			if (!at && !form)
				break;
			if (a->n == SLT_RAW_MAX_ATTRS)
				return -1;
			if (t->n_specs == cap_s) {
				cap_s = cap_s ? 2 * cap_s : 256;
				struct slt_raw_spec *v = realloc(t->specs,
								 cap_s * sizeof(*v));
				if (!v)
					return -1;
				t->specs = v;
			}
			t->specs[t->n_specs++] = (struct slt_raw_spec){
				(uint32_t)at, (uint32_t)form, ic };
			a->n++;
		}
		prefix(&r->cu[u], t, a);
		if (code + 1 > t->n_codes)
			t->n_codes = code + 1;
	}
	t->state = 1;
	return 0;
}

/* A string at off of sec[0, n): *p, *len, or false. */
static bool str_at(const uint8_t *sec, size_t n, uint64_t off,
		   const uint8_t **p, size_t *len)
{
	if (!sec || off >= n)
		return false;
	const uint8_t *z = memchr(sec + off, 0, n - off);
	if (!z)
		return false;
	*p = sec + off;
	*len = (size_t)(z - *p);
	return true;
}

bool slt_raw_str(const struct slt_raw *r, const struct slt_raw_attr *a,
		 const uint8_t **p, size_t *len)
{
	if (a->cls != SLT_RAW_STR)
		return false;
	if (a->p) {
		*p = a->p;
		*len = a->len;
		return true;
	}
	return a->form == DW_FORM_strp ? str_at(r->str, r->str_n, a->u, p, len)
				       : str_at(r->lstr, r->lstr_n, a->u, p, len);
}

/* One attribute value of form at c; false when it cannot be read. */
static bool value(struct slt_raw *r, const struct slt_raw_cu *u, struct slt_bytes *c,
		  uint32_t form, int64_t ic, struct slt_raw_attr *a, int depth)
{
	a->form = form;
	a->cls = SLT_RAW_CONST;
	a->u = 0;
	a->p = NULL;
	a->len = 0;
	uint64_t n = 0;
	switch (form) {
	case DW_FORM_addr: a->u = slt_bytes_fixed(c, u->asz); break;
	case DW_FORM_data1: case DW_FORM_flag: case DW_FORM_strx1:
	case DW_FORM_addrx1:
		a->u = slt_bytes_fixed(c, 1); break;
	case DW_FORM_data2: case DW_FORM_strx2: case DW_FORM_addrx2:
		a->u = slt_bytes_fixed(c, 2); break;
	case DW_FORM_strx3: case DW_FORM_addrx3: a->u = slt_bytes_fixed(c, 3); break;
	case DW_FORM_data4: case DW_FORM_strx4: case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		a->u = slt_bytes_fixed(c, 4); break;
	case DW_FORM_data8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		a->u = slt_bytes_fixed(c, 8); break;
	case DW_FORM_sdata: a->u = (uint64_t)slt_bytes_sleb(c); break;
	case DW_FORM_udata: case DW_FORM_strx: case DW_FORM_addrx:
	case DW_FORM_loclistx: case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		a->u = slt_bytes_uleb(c); break;
	case DW_FORM_implicit_const: a->u = (uint64_t)ic; break;
	case DW_FORM_flag_present: a->u = 1; break;
	case DW_FORM_sec_offset: case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		a->u = slt_bytes_fixed(c, u->osz); break;
	case DW_FORM_strp: case DW_FORM_line_strp:
		a->u = slt_bytes_fixed(c, u->osz); /* looked up by slt_raw_str() */
		a->cls = SLT_RAW_STR;
		break;
	case DW_FORM_string:
		a->cls = SLT_RAW_STR;
		if (!str_at(c->p, c->end, c->at, &a->p, &a->len))
			return false;
		c->at += a->len + 1;
		break;
	case DW_FORM_ref1: a->u = slt_bytes_fixed(c, 1); goto ref;
	case DW_FORM_ref2: a->u = slt_bytes_fixed(c, 2); goto ref;
	case DW_FORM_ref4: a->u = slt_bytes_fixed(c, 4); goto ref;
	case DW_FORM_ref8: a->u = slt_bytes_fixed(c, 8); goto ref;
	case DW_FORM_ref_udata: a->u = slt_bytes_uleb(c);
	ref:
		a->cls = SLT_RAW_REF;
		if (a->u >= u->end - u->lo)
			return false;
		a->u += u->lo;
		break;
	case DW_FORM_ref_addr:
		a->u = slt_bytes_fixed(c, u->version <= 2 ? u->asz : u->osz);
		a->cls = SLT_RAW_REF;
		if (a->u >= r->info_n)
			return false;
		break;
	case DW_FORM_block1: n = slt_bytes_fixed(c, 1); goto block;
	case DW_FORM_block2: n = slt_bytes_fixed(c, 2); goto block;
	case DW_FORM_block4: n = slt_bytes_fixed(c, 4); goto block;
	case DW_FORM_block: case DW_FORM_exprloc: n = slt_bytes_uleb(c); goto block;
	case DW_FORM_data16: n = 16;
	block:
		a->cls = SLT_RAW_BLOCK;
		if (c->bad || n > c->end - c->at)
			return false;
		a->p = c->p + c->at;
		a->len = (size_t)n;
		c->at += n;
		break;
	case DW_FORM_indirect: {
		uint64_t f = slt_bytes_uleb(c);
		if (c->bad || depth > 4 || f > UINT32_MAX ||
		    f == DW_FORM_implicit_const)
			return false;
		return value(r, u, c, (uint32_t)f, 0, a, depth + 1);
	}
	default:
		return false;
	}
	switch (form) {
	case DW_FORM_strx: case DW_FORM_strx1: case DW_FORM_strx2:
	case DW_FORM_strx3: case DW_FORM_strx4: case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup4: case DW_FORM_ref_sup8: case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
	case DW_FORM_GNU_str_index:
		a->cls = SLT_RAW_OTHER;
		break;
	}
	return !c->bad;
}

static int read_die(struct slt_raw *r, uint64_t off, struct slt_raw_die *d,
		    bool skim)
{
	size_t ui = unit_of(r, off);
	if (ui == SIZE_MAX)
		return -1;
	const struct slt_raw_cu *u = &r->cu[ui];
	struct slt_raw_table *t = &r->tab[ui];
	if (!t->state)
		read_table(r, ui);
	if (t->state < 0)
		return -1;
	struct slt_bytes c = { r->info, off, u->end, r->le, false };
	uint64_t code = slt_bytes_uleb(&c);
	d->off = off;
	d->cu = ui;
	d->n = 0;
	d->tag = 0;
	d->children = false;
	d->next = c.at;
	if (c.bad)
		return -1;
	if (code == 0)
		return 1;
	if (code >= t->n_codes || !t->code[code].tag)
		return -1;
	const struct slt_raw_abbrev *a = &t->code[code];
	d->tag = a->tag;
	d->children = a->children;
	if (skim) { /* only DW_AT_sibling is kept */
		uint32_t i = a->n_fixed, keep = 0;
		if (a->sib_at != UINT32_MAX) {
			struct slt_bytes sc = c;
			slt_bytes_skip(&sc, a->sib_at);
			d->a[0].at = DW_AT_sibling;
			if (!value(r, u, &sc, t->specs[a->first + a->sib].form, 0,
				   &d->a[0], 0))
				return -1;
			keep = 1;
		}
		slt_bytes_skip(&c, a->fixed);
		for (; i < a->n && !c.bad; i++) {
			const struct slt_raw_spec *s = &t->specs[a->first + i];
			struct slt_raw_attr *x = &d->a[keep];
			x->at = s->at;
			if (!value(r, u, &c, s->form, s->implicit, x, 0))
				return -1;
			keep += s->at == DW_AT_sibling && !keep;
		}
		if (c.bad)
			return -1;
		d->n = keep;
		d->next = c.at;
		return 0;
	}
	for (uint32_t i = 0; i < a->n; i++) {
		const struct slt_raw_spec *s = &t->specs[a->first + i];
		d->a[i].at = s->at;
		if (!value(r, u, &c, s->form, s->implicit, &d->a[i], 0))
			return -1;
	}
	d->n = a->n;
	d->next = c.at;
	return 0;
}

int slt_raw_die(struct slt_raw *r, uint64_t off, struct slt_raw_die *d)
{
	return read_die(r, off, d, false);
}

int slt_raw_skim(struct slt_raw *r, uint64_t off, struct slt_raw_die *d)
{
	return read_die(r, off, d, true);
}

const struct slt_raw_attr *slt_raw_get(const struct slt_raw_die *d,
				       uint32_t at)
{
	for (uint32_t i = 0; i < d->n; i++)
		if (d->a[i].at == at)
			return &d->a[i];
	return NULL;
}

/* Nesting of children read by slt_raw_sibling() without DW_AT_sibling. */
#define SIB_MAX_DEPTH 64

static uint64_t sibling(struct slt_raw *r, const struct slt_raw_die *d,
			unsigned depth)
{
	if (!d->children)
		return d->next;
	const struct slt_raw_attr *s = slt_raw_get(d, DW_AT_sibling);
	if (s && s->cls == SLT_RAW_REF) /* forward, inside the unit */
		return s->u > d->off && s->u < r->cu[d->cu].end ? s->u : 0;
	if (depth >= SIB_MAX_DEPTH)
		return 0;
	struct slt_raw_die *c = malloc(sizeof(*c));
	uint64_t at = d->next, res = 0;
	while (c) {
		int rc = slt_raw_skim(r, at, c);
		if (rc < 0)
			break;
		if (rc == 1) {
			res = c->next;
			break;
		}
		if (!(at = sibling(r, c, depth + 1)))
			break;
	}
	free(c);
	return res;
}

uint64_t slt_raw_sibling(struct slt_raw *r, const struct slt_raw_die *d)
{
	return sibling(r, d, 0);
}
