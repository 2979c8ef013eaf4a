/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: DIE attributes and DIE -> struct slt_type translation
 * (load/dwarf_int.h, layout/types.h).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "load/dwarf_int.h"

bool slt_dw_member_loc_const(const uint8_t *p, size_t len, uint64_t *v)
{
	if (!len || (p[0] != DW_OP_plus_uconst && p[0] != DW_OP_constu))
		return false;
	size_t at = 1;
	if (!slt_uleb128(p, len, &at, v))
		return false;
	return at == len || (at + 1 == len && p[at] == DW_OP_plus);
}

/* ---- attributes ------------------------------------------------------- */

/* Constant value of attr; *sgn says it came from a signed form. */
static int uconst(struct dw *d, Dwarf_Attribute a, uint64_t *v, bool *sgn,
		  uint64_t off)
{
	Dwarf_Half form;
	Dwarf_Error e = NULL;
	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, off, "attribute form");
	*sgn = form == DW_FORM_sdata || form == DW_FORM_implicit_const;
	if (*sgn) {
		Dwarf_Signed s;
		if (dwarf_formsdata(a, &s, &e) != DW_DLV_OK)
			return slt_dw_fail(d, e, off, "signed constant");
		*v = (uint64_t)s;
		return 0;
	}
	if (form == DW_FORM_exprloc || form == DW_FORM_block1 ||
	    form == DW_FORM_block2 || form == DW_FORM_block4 ||
	    form == DW_FORM_block) {
		/* DWARF 2 member location: DW_OP_plus_uconst N, or
		 * DW_OP_constu N [DW_OP_plus] (DWARF 5 section 2.5.1). */
		Dwarf_Unsigned len = 0;
		Dwarf_Ptr p = NULL;
		Dwarf_Block *b = NULL;
		if (form == DW_FORM_exprloc) {
			if (dwarf_formexprloc(a, &len, &p, &e) != DW_DLV_OK)
				return slt_dw_fail(d, e, off, "expression");
		} else {
			if (dwarf_formblock(a, &b, &e) != DW_DLV_OK)
				return slt_dw_fail(d, e, off, "block");
			len = b->bl_len;
			p = b->bl_data;
		}
		uint64_t val = 0;
		bool ok = slt_dw_member_loc_const(p, (size_t)len, &val);
		if (b)
			dwarf_dealloc(d->dbg, b, DW_DLA_BLOCK);
		if (!ok)
			return slt_error_set(d->err, d->rc = SLT_EUNSUPPORTED,
					     d->path, slt_dw_file_off(d, off),
					     NULL,
					     "DWARF: member location expression "
					     "at .debug_info+0x%llx is not a "
					     "constant offset",
					     (unsigned long long)off);
		*v = val;
		return 0;
	}
	Dwarf_Unsigned u;
	if (dwarf_formudata(a, &u, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, off, "constant");
	*v = u;
	return 0;
}

/* Not dwarf_diename(): libdwarf 20210528 turns an error reading the
 * attribute into "no name" and leaks the error object (found by
 * fuzz_dwarf).  Corrupt names are errors here. */
int slt_dw_name(struct dw *d, Dwarf_Die die, const char **name)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Off off = 0;
	char *s = NULL;
	*name = NULL;
	int res = dwarf_attr(die, DW_AT_name, &a, &e);
	if (res == DW_DLV_NO_ENTRY)
		return 0;
	if (res == DW_DLV_OK) {
		res = dwarf_formstring(a, &s, &e);
		dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
		if (res == DW_DLV_OK) {
			*name = s;
			return 0;
		}
	}
	Dwarf_Error e2 = NULL;
	if (slt_dw_dieoffset(d, die, &off, &e2) != DW_DLV_OK && e2)
		dwarf_dealloc(d->dbg, e2, DW_DLA_ERROR);
	return slt_dw_fail(d, e, off, "name");
}

int slt_dw_read_attrs(struct dw *d, Dwarf_Die die, uint64_t off,
		      struct attrs *r)
{
	memset(r, 0, sizeof(*r));
	Dwarf_Attribute *list = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Error e = NULL;
	int res = dwarf_attrlist(die, &list, &n, &e);
	if (res == DW_DLV_ERROR)
		return slt_dw_fail(d, e, off, "attribute list");
	if (res == DW_DLV_NO_ENTRY)
		return 0;
	int rc = 0;
	for (Dwarf_Signed i = 0; i < n; i++) {
		Dwarf_Attribute a = list[i];
		Dwarf_Half at = 0;
		uint64_t v = 0;
		bool sgn = false;
		Dwarf_Bool flag;
		char *s;
		Dwarf_Off ref;
		if (rc || dwarf_whatattr(a, &at, &e) != DW_DLV_OK) {
			if (!rc)
				rc = slt_dw_fail(d, e, off, "attribute");
			goto next;
		}
		switch (at) {
		case DW_AT_name:
			if (dwarf_formstring(a, &s, &e) != DW_DLV_OK)
				rc = slt_dw_fail(d, e, off, "name");
			else
				r->name = s;
			break;
		case DW_AT_type:
			if (dwarf_global_formref(a, &ref, &e) != DW_DLV_OK) {
				rc = slt_dw_fail(d, e, off, "type reference");
				break;
			}
			/* in the view, a unit-relative reference is base
			 * bytes short; DW_FORM_ref_addr holds the file's */
			if (d->obase) {
				Dwarf_Half f = 0;
				if (dwarf_whatform(a, &f, &e) != DW_DLV_OK) {
					rc = slt_dw_fail(d, e, off, "type reference");
					break;
				}
				if (f != DW_FORM_ref_addr)
					ref += d->obase;
			}
			r->type = ref;
			r->has_type = true;
			break;
		case DW_AT_declaration:
		case DW_AT_prototyped:
			if (dwarf_formflag(a, &flag, &e) != DW_DLV_OK) {
				rc = slt_dw_fail(d, e, off, "flag");
				break;
			}
			*(at == DW_AT_declaration ? &r->decl : &r->proto) =
				flag != 0;
			break;
		case DW_AT_count:
			r->has_count = !slt_dw_bound_read(d, a, off, &r->count,
							  &r->fcount);
			rc = d->rc;
			break;
		case DW_AT_upper_bound: case DW_AT_lower_bound: {
			bool up = at == DW_AT_upper_bound;
			*(up ? &r->has_upper : &r->has_lower) =
				!slt_dw_bound_read(d, a, off, &v,
						   up ? &r->fupper : &r->flower);
			*(up ? &r->upper : &r->lower) = (int64_t)v;
			rc = d->rc;
			break;
		}
		case DW_AT_byte_size: case DW_AT_bit_size:
		case DW_AT_data_bit_offset: case DW_AT_bit_offset:
		case DW_AT_data_member_location: case DW_AT_alignment:
		case DW_AT_decl_file: case DW_AT_decl_line:
		case DW_AT_encoding:
			if ((rc = uconst(d, a, &v, &sgn, off)))
				break;
			switch (at) {
			case DW_AT_byte_size: r->byte_size = v; r->has_byte_size = true; break;
			case DW_AT_bit_size: r->bit_size = v; break;
			case DW_AT_data_bit_offset: r->dbo = v; r->has_dbo = true; break;
			case DW_AT_bit_offset: r->bo = v; r->has_bo = true; break;
			case DW_AT_data_member_location: r->loc = v; r->has_loc = true; break;
			case DW_AT_alignment: r->align = v; break;
			case DW_AT_decl_file: r->file = v; break;
			case DW_AT_decl_line: r->line = v; break;
			case DW_AT_encoding: r->enc = v; break;
			}
			break;
		default:
			break;
		}
	next:
		dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	}
	dwarf_dealloc(d->dbg, list, DW_DLA_LIST);
	return rc;
}

/* ---- the node map ----------------------------------------------------- */

static struct node **slot(struct dw *d, uint64_t off)
{
	size_t m = d->map_cap - 1;
	size_t h = (size_t)((off * 0x9E3779B97F4A7C15ull) >> 32) & m;
	while (d->map[h] && d->map[h]->t.origin != off)
		h = (h + 1) & m;
	return &d->map[h];
}

static int map_put(struct dw *d, struct node *n)
{
	if ((d->map_n + 1) * 2 > d->map_cap) {
		size_t cap = d->map_cap ? d->map_cap * 2 : 1024;
		struct node **old = d->map, **nm = calloc(cap, sizeof(*nm));
		if (!nm)
			return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path,
					     -1, NULL, "out of memory");
		size_t oc = d->map_cap;
		d->map = nm;
		d->map_cap = cap;
		for (size_t i = 0; i < oc; i++)
			if (old[i])
				*slot(d, old[i]->t.origin) = old[i];
		free(old);
	}
	*slot(d, n->t.origin) = n;
	d->map_n++;
	return 0;
}

/* ---- translation ------------------------------------------------------ */

const struct slt_type *slt_dw_strip(const struct slt_type *t)
{
	for (int i = 0; t && i < 64; i++) {
		if (t->kind != SLT_T_TYPEDEF && t->kind != SLT_T_CONST &&
		    t->kind != SLT_T_VOLATILE && t->kind != SLT_T_RESTRICT &&
		    t->kind != SLT_T_ATOMIC)
			return t;
		t = t->ref;
	}
	return t;
}

static uint64_t rsize(const struct slt_type *t)
{
	t = slt_dw_strip(t);
	return t ? t->size : 0;
}

static bool breaking(enum slt_tkind k)
{
	return k == SLT_T_PTR || k == SLT_T_STRUCT || k == SLT_T_UNION ||
	       k == SLT_T_FUNC;
}

int slt_dw_get_die(struct dw *d, uint64_t off, Dwarf_Die *die)
{
	Dwarf_Error e = NULL;
	if (off < d->obase ||
	    dwarf_offdie_b(d->dbg, off - d->obase, 1, die, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, off, "no DIE at offset");
	return 0;
}

/* Call fn for each child of die; stops on error. */
int slt_dw_children(struct dw *d, Dwarf_Die die, uint64_t off,
		    int (*fn)(struct dw *, Dwarf_Die, Dwarf_Half, void *),
		    void *ctx)
{
	Dwarf_Die c = NULL, next;
	Dwarf_Error e = NULL;
	int res = dwarf_child(die, &c, &e);
	if (res == DW_DLV_ERROR)
		return slt_dw_fail(d, e, off, "children");
	int rc = 0;
	while (res == DW_DLV_OK && !rc) {
		Dwarf_Half tag;
		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK)
			rc = slt_dw_fail(d, e, off, "tag");
		else
			rc = fn(d, c, tag, ctx);
		if (!rc) {
			res = slt_dw_sibling(d, c, &next, &e);
			if (res == DW_DLV_ERROR)
				rc = slt_dw_fail(d, e, off, "sibling");
		}
		dwarf_dealloc_die(c);
		c = next;
	}
	return rc ? rc : d->rc;
}

void *slt_dw_vec_push(struct dw *d, struct vec *v)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		void *nv = realloc(v->v, cap * v->elt);
		if (!nv) {
			slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				      NULL, "out of memory");
			return NULL;
		}
		v->v = nv;
		v->cap = cap;
	}
	return memset((char *)v->v + v->elt * v->n++, 0, v->elt);
}

static void *vec_arena(struct dw *d, struct vec *v)
{
	void *p = v->n ? slt_arena_calloc(d->arena, v->n, v->elt) : NULL;
	if (p)
		memcpy(p, v->v, v->n * v->elt);
	else if (v->n)
		slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1, NULL,
			      "out of memory");
	free(v->v);
	return p;
}

static int member_cb(struct dw *d, Dwarf_Die c, Dwarf_Half tag, void *ctx)
{
	if (tag != DW_TAG_member)
		return 0;
	Dwarf_Off off = 0;
	Dwarf_Error e = NULL;
	if (slt_dw_dieoffset(d, c, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "member offset");
	struct attrs a;
	if (slt_dw_read_attrs(d, c, off, &a))
		return d->rc;
	if (!a.has_type)
		return slt_dw_fail(d, NULL, off, "member without a type");
	struct slt_type *t = slt_dw_tr(d, a.type, true);
	if (!t)
		return d->rc;
	struct slt_tmember *m = slt_dw_vec_push(d, ctx);
	if (!m)
		return d->rc;
	m->name = a.name ? slt_arena_strdup(d->arena, a.name) : NULL;
	m->type = t;
	m->bit_size = (uint32_t)a.bit_size;
	m->alignment = (uint32_t)a.align;
	if (a.has_dbo) {
		m->bit_offset = a.dbo;
	} else {
		m->bit_offset = a.loc * 8;
		if (a.has_bo && a.bit_size) {
			/* DWARF 2/3 DW_AT_bit_offset: counted from the most
			 * significant bit of the storage unit (DWARF 3 section
			 * 5.6.6). */
			uint64_t unit = a.has_byte_size ? a.byte_size : rsize(t);
			if (slt_elf_is_le(d->elf))
				m->bit_offset += unit * 8 - a.bo - a.bit_size;
			else
				m->bit_offset += a.bo;
		}
	}
	return 0;
}

/* One DW_TAG_enumerator (DWARF 5 section 5.7.2: DW_AT_name and
 * DW_AT_const_value) appended to the enum node ctx; the array grows by
 * doubling (capacity: the next power of two of the count). */
static int enumerator_cb(struct dw *d, Dwarf_Die c, Dwarf_Half tag, void *ctx)
{
	struct node *en = ctx;
	struct slt_type *t = &en->t;
	Dwarf_Attribute at = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Off off = 0;
	const char *name;
	uint64_t v = 0;
	bool sgn = false;
	uint32_t k = t->n_enumerators;

	if (tag != DW_TAG_enumerator)
		return 0;
	if (slt_dw_dieoffset(d, c, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "enumerator offset");
	if (slt_dw_name(d, c, &name))
		return d->rc;
	int res = dwarf_attr(c, DW_AT_const_value, &at, &e);
	if (res == DW_DLV_ERROR)
		return slt_dw_fail(d, e, off, "enumerator value");
	if (res == DW_DLV_OK) {
		int rc = uconst(d, at, &v, &sgn, off);
		dwarf_dealloc(d->dbg, at, DW_DLA_ATTR);
		if (rc)
			return rc;
	}
	if (sgn && (int64_t)v < 0)
		t->flags |= SLT_TF_SIGNED;
	if (!(k & (k - 1))) { /* 0, 1, 2, 4...: full */
		struct slt_enumerator *ne =
			slt_arena_calloc(d->arena, k ? 2 * k : 1, sizeof(*ne));
		if (!ne)
			return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path,
					     -1, NULL, "out of memory");
		if (k)
			memcpy(ne, t->enumerators, k * sizeof(*ne));
		t->enumerators = ne;
	}
	struct slt_enumerator *slot = (struct slt_enumerator *)&t->enumerators[k];
	slot->name = name ? slt_arena_strdup(d->arena, name) : "";
	slot->value = (int64_t)v;
	if (!slot->name)
		return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				     NULL, "out of memory");
	t->n_enumerators = k + 1;
	return 0;
}

static int param_cb(struct dw *d, Dwarf_Die c, Dwarf_Half tag, void *ctx)
{
	struct node *fn = ctx;
	if (tag == DW_TAG_unspecified_parameters) {
		fn->t.flags |= SLT_TF_VARIADIC;
		return 0;
	}
	if (tag != DW_TAG_formal_parameter)
		return 0;
	Dwarf_Off off = 0;
	Dwarf_Error e = NULL;
	struct attrs a;
	if (slt_dw_dieoffset(d, c, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "parameter offset");
	if (slt_dw_read_attrs(d, c, off, &a))
		return d->rc;
	struct slt_type *t = a.has_type ? slt_dw_tr(d, a.type, false) : NULL;
	if (a.has_type && !t)
		return d->rc;
	struct slt_type **np = slt_arena_calloc(d->arena, fn->t.n_params + 1,
						sizeof(*np));
	if (!np)
		return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				     NULL, "out of memory");
	if (fn->t.n_params)
		memcpy(np, fn->t.params, fn->t.n_params * sizeof(*np));
	np[fn->t.n_params++] = t;
	fn->t.params = np;
	return 0;
}

struct dims {
	uint64_t n[64];
	bool flex[64];
	unsigned k;
};

static int dim_cb(struct dw *d, Dwarf_Die c, Dwarf_Half tag, void *ctx)
{
	struct dims *dm = ctx;
	if (tag != DW_TAG_subrange_type)
		return 0;
	Dwarf_Off off = 0;
	Dwarf_Error e = NULL;
	struct attrs a;
	if (slt_dw_dieoffset(d, c, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "subrange offset");
	if (slt_dw_read_attrs(d, c, off, &a))
		return d->rc;
	if (dm->k == 64)
		return slt_dw_fail(d, NULL, off, "more than 64 array dimensions");
	unsigned k = dm->k++;
	bool known;
	if (slt_dw_subrange_count(d, c, off, &a, &dm->n[k], &known))
		return d->rc;
	dm->flex[k] = !known;
	return 0;
}

/* Members of struct/union node n (its DIE at n->t.origin). */
static int fill_members(struct dw *d, struct node *n, Dwarf_Die die)
{
	struct vec v = { .elt = sizeof(struct slt_tmember) };
	n->state |= ST_BUSY;
	d->brk++;
	int rc = slt_dw_children(d, die, n->t.origin, member_cb, &v);
	d->brk--;
	n->state &= (uint8_t)~ST_BUSY;
	n->t.members = vec_arena(d, &v);
	n->t.n_members = (uint32_t)v.n;
	if (rc || d->rc)
		return rc ? rc : d->rc;
	n->t.flags &= ~(uint32_t)SLT_TF_SHALLOW;
	n->state |= ST_FULL;
	return 0;
}

/* The declaration file and line of a struct/union definition (a: its
 * attributes), which only a full node carries. */
static int set_decl(struct dw *d, struct slt_type *t, Dwarf_Die die,
		    const struct attrs *a)
{
	t->decl_line = (uint32_t)a->line;
	const char *f = a->file || a->line ? slt_dw_decl_file(d, die, a->file)
					   : NULL;
	t->decl_file = f ? slt_arena_strdup(d->arena, f) : NULL;
	if (f && !t->decl_file)
		return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				     NULL, "out of memory");
	return 0;
}

static int upgrade(struct dw *d, struct node *n)
{
	struct slt_type *t = &n->t;
	if (n->state & ST_FULL)
		return 0;
	if (t->kind == SLT_T_STRUCT || t->kind == SLT_T_UNION) {
		if (n->state & ST_BUSY)
			return slt_dw_fail(d, NULL, t->origin,
				    "struct contains itself by value");
		/* first reached through a pointer (shallow): no members and
		 * no declaration file yet */
		Dwarf_Die die;
		struct attrs a;
		if (slt_dw_get_die(d, t->origin, &die))
			return d->rc;
		int rc = slt_dw_read_attrs(d, die, t->origin, &a);
		if (!rc)
			rc = set_decl(d, t, die, &a);
		if (!rc)
			rc = fill_members(d, n, die);
		dwarf_dealloc_die(die);
		return rc;
	}
	struct slt_type *x = t;
	while (x->kind == SLT_T_ARRAY && x->ref &&
	       x->ref->kind == SLT_T_ARRAY && x->ref->origin == t->origin)
		x = x->ref;
	if (x->ref && x->kind != SLT_T_PTR && x->kind != SLT_T_FUNC &&
	    !slt_dw_tr(d, x->ref->origin, true))
		return d->rc;
	n->state |= ST_FULL;
	return 0;
}

static struct slt_type *make(struct dw *d, uint64_t off, bool full,
			     Dwarf_Die die);

/* The node for the DIE at off; full: struct/unions reached by value get
 * their members (see layout/types.h).  NULL with d->rc set on error. */
struct slt_type *slt_dw_tr(struct dw *d, uint64_t off, bool full)
{
	if (d->rc)
		return NULL;
	struct node *n = d->map_cap ? *slot(d, off) : NULL;
	if (n) {
		if ((n->state & ST_BUSY) && !breaking(n->t.kind) &&
		    n->brk == d->brk) {
			slt_dw_fail(d, NULL, off, "type refers to itself");
			return NULL;
		}
		if (full && !(n->state & ST_FULL) && !(n->state & ST_BUSY) &&
		    upgrade(d, n))
			return NULL;
		if (full && (n->state & ST_BUSY) &&
		    (n->t.kind == SLT_T_STRUCT || n->t.kind == SLT_T_UNION)) {
			slt_dw_fail(d, NULL, off, "struct contains itself by value");
			return NULL;
		}
		return &n->t;
	}
	if (d->depth >= MAX_DEPTH) {
		slt_dw_fail(d, NULL, off, "types nested too deeply");
		return NULL;
	}
	Dwarf_Die die;
	if (slt_dw_get_die(d, off, &die))
		return NULL;
	d->depth++;
	struct slt_type *t = make(d, off, full, die);
	d->depth--;
	dwarf_dealloc_die(die);
	return d->rc ? NULL : t;
}

static struct slt_type *make(struct dw *d, uint64_t off, bool full,
			     Dwarf_Die die)
{
	Dwarf_Half tag;
	Dwarf_Error e = NULL;
	struct attrs a;
	if (dwarf_tag(die, &tag, &e) != DW_DLV_OK) {
		slt_dw_fail(d, e, off, "tag");
		return NULL;
	}
	if (slt_dw_read_attrs(d, die, off, &a))
		return NULL;
	struct node *n = slt_arena_alloc(d->arena, sizeof(*n));
	if (n)
		n->t.origin = off;
	if (!n || map_put(d, n)) {
		slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1, NULL,
			      "out of memory");
		return NULL;
	}
	struct slt_type *t = &n->t;
	t->origin = off;
	t->name = a.name ? slt_arena_strdup(d->arena, a.name) : NULL;
	t->alignment = (uint32_t)a.align;
	t->size = a.byte_size;
	n->brk = d->brk;
	n->state = ST_BUSY;
	bool brk = false;
	switch (tag) {
	case DW_TAG_base_type:
		t->kind = SLT_T_INT;
		switch (a.enc) {
		case DW_ATE_float: case DW_ATE_complex_float:
		case DW_ATE_imaginary_float: case DW_ATE_decimal_float:
			t->kind = SLT_T_FLOAT; break;
		case DW_ATE_boolean: t->flags = SLT_TF_BOOL; break;
		case DW_ATE_signed: t->flags = SLT_TF_SIGNED; break;
		case DW_ATE_signed_char:
			t->flags = SLT_TF_SIGNED | SLT_TF_CHAR; break;
		case DW_ATE_unsigned_char: case DW_ATE_UTF:
			t->flags = SLT_TF_CHAR; break;
		}
		break;
	case DW_TAG_enumeration_type:
		t->kind = a.decl ? SLT_T_FWD : SLT_T_ENUM;
		t->fwd_kind = SLT_T_ENUM;
		/* anonymous enums are printed with their values */
		if (!a.decl && !t->name &&
		    slt_dw_children(d, die, off, enumerator_cb, n))
			return NULL;
		break;
	case DW_TAG_structure_type: case DW_TAG_union_type:
	case DW_TAG_class_type:
		t->fwd_kind = tag == DW_TAG_union_type ? SLT_T_UNION : SLT_T_STRUCT;
		t->kind = a.decl ? SLT_T_FWD : t->fwd_kind;
		if (a.decl)
			break;
		t->flags = SLT_TF_SHALLOW;
		n->state = 0;
		if (!full)
			return t;
		return set_decl(d, t, die, &a) || fill_members(d, n, die) ? NULL
									  : t;
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type: {
		t->kind = SLT_T_PTR;
		brk = true;
		if (!a.has_byte_size) {
			Dwarf_Half as = 8;
			if (dwarf_get_die_address_size(die, &as, &e) != DW_DLV_OK &&
			    e)
				dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
			t->size = as;
		}
		break;
	}
	case DW_TAG_typedef: t->kind = SLT_T_TYPEDEF; break;
	case DW_TAG_const_type: t->kind = SLT_T_CONST; break;
	case DW_TAG_volatile_type: t->kind = SLT_T_VOLATILE; break;
	case DW_TAG_restrict_type: t->kind = SLT_T_RESTRICT; break;
	case DW_TAG_atomic_type: t->kind = SLT_T_ATOMIC; break;
	case DW_TAG_array_type: t->kind = SLT_T_ARRAY; break;
	case DW_TAG_subroutine_type:
		t->kind = SLT_T_FUNC;
		brk = true;
		if (!a.proto)
			t->flags |= SLT_TF_UNPROTO;
		break;
	default:
		t->kind = SLT_T_VOID;
		if (!t->name)
			t->name = "void";
		break;
	}
	if (brk)
		d->brk++;
	if (a.has_type && t->kind != SLT_T_FWD && t->kind != SLT_T_INT &&
	    t->kind != SLT_T_FLOAT && t->kind != SLT_T_ENUM &&
	    t->kind != SLT_T_VOID) {
		bool deep = full && t->kind != SLT_T_PTR && t->kind != SLT_T_FUNC;
		t->ref = slt_dw_tr(d, a.type, deep);
		/* pahole prints an anonymous struct or union that a pointer
		 * points to inline (layout/build.c add_pointee()): its
		 * members too, unless it is being filled (points to itself) */
		struct slt_type *r = t->ref;
		if (full && t->kind == SLT_T_PTR && r && !r->name &&
		    (r->kind == SLT_T_STRUCT || r->kind == SLT_T_UNION) &&
		    !(((struct node *)r)->state & ST_BUSY))
			t->ref = slt_dw_tr(d, a.type, true);
	}
	if (!d->rc && t->kind == SLT_T_FUNC)
		slt_dw_children(d, die, off, param_cb, n);
	if (brk)
		d->brk--;
	if (d->rc)
		return NULL;
	if (t->kind == SLT_T_TYPEDEF || (t->kind >= SLT_T_CONST &&
					 t->kind <= SLT_T_ATOMIC))
		t->size = rsize(t->ref);
	if (t->kind == SLT_T_ARRAY) {
		struct dims dm = { .k = 0 };
		if (slt_dw_children(d, die, off, dim_cb, &dm))
			return NULL;
		if (dm.k == 0)
			dm.flex[dm.k++] = true;
		struct slt_type *elem = t->ref, *x = NULL;
		uint64_t esz = rsize(elem);
		for (unsigned i = dm.k; i-- > 0;) {
			x = i ? slt_arena_alloc(d->arena, sizeof(*x)) : t;
			if (!x) {
				slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path,
					      -1, NULL, "out of memory");
				return NULL;
			}
			x->kind = SLT_T_ARRAY;
			x->origin = off;
			x->ref = elem;
			x->nelems = dm.n[i];
			x->flags = dm.flex[i] ? SLT_TF_FLEX : 0;
			if (esz && x->nelems > UINT64_MAX / esz) {
				slt_dw_fail(d, NULL, off, "array size overflows");
				return NULL;
			}
			x->size = x->nelems * esz;
			esz = x->size;
			elem = x;
		}
	}
	n->state = full ? ST_FULL : 0;
	return t;
}
