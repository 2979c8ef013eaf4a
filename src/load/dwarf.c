/* SPDX-License-Identifier: MIT */
/*
 * DWARF source (see load/source.h): libdwarf over sections served from the
 * ELF mapping (load/elf.h) through libdwarf's object access interface, so no
 * section is copied and no relocation is applied to executables (ET_REL
 * files get theirs applied by elf.c).
 *
 * find() walks only each CU's top-level DIEs (C struct tags live there).
 * A pre-filter skips CUs that cannot define the name: a DIE named NAME has
 * DW_AT_name either inline (DW_FORM_string: "NAME\0" lies in the CU's bytes)
 * or as an offset into .debug_str/.debug_line_str (DW_FORM_strp/line_strp,
 * DWARF 5 sections 7.5.5 and 7.26) of some occurrence of "NAME\0" there, and
 * that offset's 4-byte encoding lies in the CU's bytes (the low half of an
 * 8-byte DWARF64 offset too).  The filter is off where names may come from
 * elsewhere (.debug_str_offsets/strx, dwz .gnu_debugaltlink, .debug_sup,
 * split DWARF) or when SLT_DWARF_NOFILTER is set in the environment (tests
 * compare both ways).
 */
#include <dwarf.h>
#include <libdwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strdist.h"
#include "load/elf.h"
#include "load/source.h"

/* libdwarf 0.x renamed the object access structs (suffix _a, om_ fields). */
#ifdef DW_LIBDWARF_VERSION_MAJOR
typedef Dwarf_Obj_Access_Interface_a obj_iface_t;
typedef Dwarf_Obj_Access_Methods_a obj_methods_t;
typedef Dwarf_Obj_Access_Section_a obj_section_t;
typedef Dwarf_Unsigned sec_index_t;
#define SEC_FIELD(f) as_##f
#else
typedef Dwarf_Obj_Access_Interface obj_iface_t;
typedef Dwarf_Obj_Access_Methods obj_methods_t;
typedef Dwarf_Obj_Access_Section obj_section_t;
typedef Dwarf_Half sec_index_t;
#define SEC_FIELD(f) f
#endif

#define MAX_DEPTH 512
#define ST_BUSY 1u
#define ST_FULL 2u

/* A graph node and the loader's bookkeeping around it. */
struct node {
	struct slt_type t;  /* first: (struct node *)&t == node */
	uint8_t state;      /* ST_* */
	uint32_t brk;       /* pointer/struct/func nodes open when created */
};

struct dw {
	struct slt_source base;
	struct slt_elf *elf;
	char *path;
	Dwarf_Debug dbg;
	obj_iface_t iface;
	struct slt_arena *arena;
	const uint8_t *info, *str, *lstr;
	size_t info_n, str_n, lstr_n;
	bool can_filter;
	struct node **map; /* open addressing on t.origin */
	size_t map_cap, map_n;
	Dwarf_Off files_cu; /* CU of the cached file table, or ~0 */
	char **files;
	Dwarf_Signed nfiles;
	Dwarf_Half files_ver;
	uint32_t brk;
	unsigned depth;
	struct slt_error *err;
	int rc;
};

/* ---- libdwarf glue ---------------------------------------------------- */

static int fail(struct dw *d, Dwarf_Error e, uint64_t off, const char *what)
{
	int code = SLT_ECORRUPT;
	slt_error_set(d->err, code, d->path, -1,
		      "the debug info is corrupt or uses an unsupported form",
		      "DWARF: %s at .debug_info+0x%llx: %s", what,
		      (unsigned long long)off, e ? dwarf_errmsg(e) : "bad data");
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	if (!d->rc)
		d->rc = code;
	return code;
}

static int om_info(void *o, sec_index_t i, obj_section_t *s, int *e)
{
	struct dw *d = o;
	const struct slt_elf_section *h = slt_elf_section(d->elf, i);
	if (!h)
		return DW_DLV_NO_ENTRY;
	memset(s, 0, sizeof(*s));
	s->SEC_FIELD(addr) = h->addr;
	s->SEC_FIELD(type) = h->type;
	s->SEC_FIELD(size) = h->size;
	s->SEC_FIELD(link) = h->link;
	s->SEC_FIELD(info) = h->info;
	s->SEC_FIELD(entrysize) = h->entsize;
	s->SEC_FIELD(name) = h->name;
	if (slt_elf_section_compressed(d->elf, i)) {
		/* Served inflated, under its .debug_ name. */
		const uint8_t *p;
		size_t n;
		if (slt_elf_section_data(d->elf, i, &p, &n, NULL))
			s->SEC_FIELD(size) = 0;
		else
			s->SEC_FIELD(size) = n;
		if (strncmp(h->name, ".zdebug", 7) == 0)
			s->SEC_FIELD(name) =
				slt_arena_printf(d->arena, ".%s", h->name + 2);
	}
	return DW_DLV_OK;
}

static Dwarf_Endianness om_order(void *o)
{
	return slt_elf_is_le(((struct dw *)o)->elf) ? DW_OBJECT_LSB
						     : DW_OBJECT_MSB;
}

static Dwarf_Small om_size(void *o)
{
	return slt_elf_is64(((struct dw *)o)->elf) ? 8 : 4;
}

static Dwarf_Unsigned om_count(void *o)
{
	return slt_elf_nsections(((struct dw *)o)->elf);
}

static int om_load(void *o, sec_index_t i, Dwarf_Small **data, int *e)
{
	struct dw *d = o;
	const uint8_t *p;
	size_t n;
	if (i == 0 || slt_elf_section_data(d->elf, i, &p, &n, d->err)) {
		*e = DW_DLE_SECTION_SIZE_OR_OFFSET_LARGE;
		return DW_DLV_ERROR;
	}
	if (!p)
		return DW_DLV_NO_ENTRY;
	*data = (Dwarf_Small *)p; /* libdwarf only reads it */
	return DW_DLV_OK;
}

#ifdef DW_LIBDWARF_VERSION_MAJOR
static Dwarf_Unsigned om_filesize(void *o) { return 0; }
static const obj_methods_t methods = {
	.om_get_section_info = om_info, .om_get_byte_order = om_order,
	.om_get_length_size = om_size, .om_get_pointer_size = om_size,
	.om_get_filesize = om_filesize, .om_get_section_count = om_count,
	.om_load_section = om_load,
};
#else
static const obj_methods_t methods = {
	.get_section_info = om_info, .get_byte_order = om_order,
	.get_length_size = om_size, .get_pointer_size = om_size,
	.get_section_count = om_count, .load_section = om_load,
};
#endif

/* ---- attributes ------------------------------------------------------- */

struct attrs {
	const char *name;
	uint64_t type, byte_size, bit_size, dbo, bo, loc, align, file, line;
	uint64_t count, enc;
	int64_t upper, lower;
	bool has_type, has_byte_size, has_dbo, has_bo, has_loc, has_count;
	bool has_upper, decl, proto;
};

/* Constant value of attr; *sgn says it came from a signed form. */
static int uconst(struct dw *d, Dwarf_Attribute a, uint64_t *v, bool *sgn,
		  uint64_t off)
{
	Dwarf_Half form;
	Dwarf_Error e = NULL;
	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK)
		return fail(d, e, off, "attribute form");
	*sgn = form == DW_FORM_sdata || form == DW_FORM_implicit_const;
	if (*sgn) {
		Dwarf_Signed s;
		if (dwarf_formsdata(a, &s, &e) != DW_DLV_OK)
			return fail(d, e, off, "signed constant");
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
				return fail(d, e, off, "expression");
		} else {
			if (dwarf_formblock(a, &b, &e) != DW_DLV_OK)
				return fail(d, e, off, "block");
			len = b->bl_len;
			p = b->bl_data;
		}
		const uint8_t *q = p, *end = q + len;
		int ok = len > 0 && (*q == DW_OP_plus_uconst ||
				     *q == DW_OP_constu);
		uint64_t val = 0;
		unsigned shift = 0;
		if (ok) {
			for (q++; q < end && shift < 64; q++, shift += 7) {
				val |= (uint64_t)(*q & 0x7f) << shift;
				if (!(*q & 0x80))
					break;
			}
			ok = q < end && !(*q & 0x80);
			q++;
			ok = ok && (q == end || (q + 1 == end &&
						 *q == DW_OP_plus));
		}
		if (b)
			dwarf_dealloc(d->dbg, b, DW_DLA_BLOCK);
		if (!ok)
			return slt_error_set(d->err, d->rc = SLT_EUNSUPPORTED,
					     d->path, -1, NULL,
					     "DWARF: member location expression "
					     "at .debug_info+0x%llx is not a "
					     "constant offset",
					     (unsigned long long)off);
		*v = val;
		return 0;
	}
	Dwarf_Unsigned u;
	if (dwarf_formudata(a, &u, &e) != DW_DLV_OK)
		return fail(d, e, off, "constant");
	*v = u;
	return 0;
}

static int read_attrs(struct dw *d, Dwarf_Die die, uint64_t off,
		      struct attrs *r)
{
	memset(r, 0, sizeof(*r));
	Dwarf_Attribute *list = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Error e = NULL;
	int res = dwarf_attrlist(die, &list, &n, &e);
	if (res == DW_DLV_ERROR)
		return fail(d, e, off, "attribute list");
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
				rc = fail(d, e, off, "attribute");
			goto next;
		}
		switch (at) {
		case DW_AT_name:
			if (dwarf_formstring(a, &s, &e) != DW_DLV_OK)
				rc = fail(d, e, off, "name");
			else
				r->name = s;
			break;
		case DW_AT_type:
			if (dwarf_global_formref(a, &ref, &e) != DW_DLV_OK)
				rc = fail(d, e, off, "type reference");
			r->type = ref;
			r->has_type = true;
			break;
		case DW_AT_declaration:
		case DW_AT_prototyped:
			if (dwarf_formflag(a, &flag, &e) != DW_DLV_OK) {
				rc = fail(d, e, off, "flag");
				break;
			}
			*(at == DW_AT_declaration ? &r->decl : &r->proto) =
				flag != 0;
			break;
		case DW_AT_byte_size: case DW_AT_bit_size:
		case DW_AT_data_bit_offset: case DW_AT_bit_offset:
		case DW_AT_data_member_location: case DW_AT_alignment:
		case DW_AT_decl_file: case DW_AT_decl_line: case DW_AT_count:
		case DW_AT_upper_bound: case DW_AT_lower_bound:
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
			case DW_AT_count: r->count = v; r->has_count = true; break;
			case DW_AT_encoding: r->enc = v; break;
			case DW_AT_lower_bound: r->lower = (int64_t)v; break;
			case DW_AT_upper_bound:
				r->has_upper = true;
				r->upper = (int64_t)v;
				/* all-ones in an unsigned form means -1 (gcc's
				 * `x[0]`) */
				if (!sgn && v != UINT64_MAX &&
				    (v == 0xff || v == 0xffff || v == 0xffffffffu))
					r->upper = -1;
				break;
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

/* DW_AT_decl_file -> path, from the CU's line table file list (DWARF 5
 * section 6.2.4: index 0 is the CU's primary file; DWARF 2-4: 1-based). */
static const char *decl_file(struct dw *d, Dwarf_Die die, uint64_t idx)
{
	Dwarf_Off cu;
	Dwarf_Error e = NULL;
	if (dwarf_CU_dieoffset_given_die(die, &cu, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
		return NULL;
	}
	if (cu != d->files_cu) {
		if (d->files) {
			for (Dwarf_Signed i = 0; i < d->nfiles; i++)
				dwarf_dealloc(d->dbg, d->files[i], DW_DLA_STRING);
			dwarf_dealloc(d->dbg, d->files, DW_DLA_LIST);
		}
		d->files = NULL;
		d->nfiles = 0;
		d->files_cu = cu;
		Dwarf_Die cd = NULL;
		Dwarf_Half off_size;
		if (dwarf_offdie_b(d->dbg, cu, 1, &cd, &e) == DW_DLV_OK) {
			dwarf_get_version_of_die(cd, &d->files_ver, &off_size);
			if (dwarf_srcfiles(cd, &d->files, &d->nfiles, &e) !=
			    DW_DLV_OK) {
				d->files = NULL;
				d->nfiles = 0;
			}
			dwarf_dealloc_die(cd);
		}
		if (e)
			dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	}
	if (d->files_ver < 5) {
		if (idx == 0)
			return NULL;
		idx--;
	}
	return idx < (uint64_t)d->nfiles ? d->files[idx] : NULL;
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

static struct slt_type *tr(struct dw *d, uint64_t off, bool full);

static const struct slt_type *strip(const struct slt_type *t)
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
	t = strip(t);
	return t ? t->size : 0;
}

static bool breaking(enum slt_tkind k)
{
	return k == SLT_T_PTR || k == SLT_T_STRUCT || k == SLT_T_UNION ||
	       k == SLT_T_FUNC;
}

static int get_die(struct dw *d, uint64_t off, Dwarf_Die *die)
{
	Dwarf_Error e = NULL;
	if (dwarf_offdie_b(d->dbg, off, 1, die, &e) != DW_DLV_OK)
		return fail(d, e, off, "no DIE at offset");
	return 0;
}

/* Call fn for each child of die; stops on error. */
static int children(struct dw *d, Dwarf_Die die, uint64_t off,
		    int (*fn)(struct dw *, Dwarf_Die, Dwarf_Half, void *),
		    void *ctx)
{
	Dwarf_Die c = NULL, next;
	Dwarf_Error e = NULL;
	int res = dwarf_child(die, &c, &e);
	if (res == DW_DLV_ERROR)
		return fail(d, e, off, "children");
	int rc = 0;
	while (res == DW_DLV_OK && !rc) {
		Dwarf_Half tag;
		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK)
			rc = fail(d, e, off, "tag");
		else
			rc = fn(d, c, tag, ctx);
		if (!rc) {
			res = dwarf_siblingof_b(d->dbg, c, 1, &next, &e);
			if (res == DW_DLV_ERROR)
				rc = fail(d, e, off, "sibling");
		}
		dwarf_dealloc_die(c);
		c = next;
	}
	return rc ? rc : d->rc;
}

struct vec {
	void *v;
	size_t n, cap, elt;
};

static void *vec_push(struct dw *d, struct vec *v)
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
	if (dwarf_dieoffset(c, &off, &e) != DW_DLV_OK)
		return fail(d, e, 0, "member offset");
	struct attrs a;
	if (read_attrs(d, c, off, &a))
		return d->rc;
	if (!a.has_type)
		return fail(d, NULL, off, "member without a type");
	struct slt_type *t = tr(d, a.type, true);
	if (!t)
		return d->rc;
	struct slt_tmember *m = vec_push(d, ctx);
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
	if (dwarf_dieoffset(c, &off, &e) != DW_DLV_OK)
		return fail(d, e, 0, "parameter offset");
	if (read_attrs(d, c, off, &a))
		return d->rc;
	struct slt_type *t = a.has_type ? tr(d, a.type, false) : NULL;
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
	if (dwarf_dieoffset(c, &off, &e) != DW_DLV_OK)
		return fail(d, e, 0, "subrange offset");
	if (read_attrs(d, c, off, &a))
		return d->rc;
	if (dm->k == 64)
		return fail(d, NULL, off, "more than 64 array dimensions");
	unsigned k = dm->k++;
	if (a.has_count)
		dm->n[k] = a.count;
	else if (a.has_upper)
		dm->n[k] = a.upper < a.lower ? 0 : (uint64_t)(a.upper - a.lower) + 1;
	else
		dm->flex[k] = true;
	return 0;
}

/* Members of struct/union node n (its DIE at n->t.origin). */
static int fill_members(struct dw *d, struct node *n, Dwarf_Die die)
{
	struct vec v = { .elt = sizeof(struct slt_tmember) };
	n->state |= ST_BUSY;
	d->brk++;
	int rc = children(d, die, n->t.origin, member_cb, &v);
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

static int upgrade(struct dw *d, struct node *n)
{
	struct slt_type *t = &n->t;
	if (n->state & ST_FULL)
		return 0;
	if (t->kind == SLT_T_STRUCT || t->kind == SLT_T_UNION) {
		if (n->state & ST_BUSY)
			return fail(d, NULL, t->origin,
				    "struct contains itself by value");
		Dwarf_Die die;
		if (get_die(d, t->origin, &die))
			return d->rc;
		int rc = fill_members(d, n, die);
		dwarf_dealloc_die(die);
		return rc;
	}
	struct slt_type *x = t;
	while (x->kind == SLT_T_ARRAY && x->ref &&
	       x->ref->kind == SLT_T_ARRAY && x->ref->origin == t->origin)
		x = x->ref;
	if (x->ref && x->kind != SLT_T_PTR && x->kind != SLT_T_FUNC &&
	    !tr(d, x->ref->origin, true))
		return d->rc;
	n->state |= ST_FULL;
	return 0;
}

static struct slt_type *make(struct dw *d, uint64_t off, bool full,
			     Dwarf_Die die);

/* The node for the DIE at off; full: struct/unions reached by value get
 * their members (see layout/types.h).  NULL with d->rc set on error. */
static struct slt_type *tr(struct dw *d, uint64_t off, bool full)
{
	if (d->rc)
		return NULL;
	struct node *n = d->map_cap ? *slot(d, off) : NULL;
	if (n) {
		if ((n->state & ST_BUSY) && !breaking(n->t.kind) &&
		    n->brk == d->brk) {
			fail(d, NULL, off, "type refers to itself");
			return NULL;
		}
		if (full && !(n->state & ST_FULL) && !(n->state & ST_BUSY) &&
		    upgrade(d, n))
			return NULL;
		if (full && (n->state & ST_BUSY) &&
		    (n->t.kind == SLT_T_STRUCT || n->t.kind == SLT_T_UNION)) {
			fail(d, NULL, off, "struct contains itself by value");
			return NULL;
		}
		return &n->t;
	}
	if (d->depth >= MAX_DEPTH) {
		fail(d, NULL, off, "types nested too deeply");
		return NULL;
	}
	Dwarf_Die die;
	if (get_die(d, off, &die))
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
		fail(d, e, off, "tag");
		return NULL;
	}
	if (read_attrs(d, die, off, &a))
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
		t->decl_line = (uint32_t)a.line;
		const char *f = a.file || a.line ? decl_file(d, die, a.file) : NULL;
		t->decl_file = f ? slt_arena_strdup(d->arena, f) : NULL;
		return fill_members(d, n, die) ? NULL : t;
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
		t->ref = tr(d, a.type, deep);
	}
	if (!d->rc && t->kind == SLT_T_FUNC)
		children(d, die, off, param_cb, n);
	if (brk)
		d->brk--;
	if (d->rc)
		return NULL;
	if (t->kind == SLT_T_TYPEDEF || (t->kind >= SLT_T_CONST &&
					 t->kind <= SLT_T_ATOMIC))
		t->size = rsize(t->ref);
	if (t->kind == SLT_T_ARRAY) {
		struct dims dm = { .k = 0 };
		if (children(d, die, off, dim_cb, &dm))
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
				fail(d, NULL, off, "array size overflows");
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

/* ---- the CU walk and its pre-filter ----------------------------------- */

typedef int (*top_fn)(struct dw *, Dwarf_Die, Dwarf_Half, void *);

/* Sorted .debug_info offsets where a filter pattern was seen; a CU is a
 * candidate when one lies inside it.  NULL: every CU. */
struct hits {
	uint64_t *pos;
	size_t n, cap;
};

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
static int scan(struct dw *d, const char *const *names, size_t n,
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
			const uint8_t *p = secs[s], *end = p + ns[s];
			while (p && p < end &&
			       (p = memmem(p, (size_t)(end - p), names[k], len))) {
				uint32_t *o = vec_push(d, &offs);
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
	qsort(h->pos, h->n, sizeof(*h->pos), cmp_u64);
	*any = h->n > 0;
	return 0;
}

/* Call fn on every top-level DIE of every CU (of the candidate CUs when h
 * is not NULL).  Stops at fn's first non-zero return and returns it. */
static int walk(struct dw *d, const struct hits *h, top_fn fn, void *ctx)
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
			rc = fail(d, e, lo, "compile unit DIE");
			continue;
		}
		rc = children(d, cu, lo, fn, ctx);
		dwarf_dealloc_die(cu);
	}
	if (res == DW_DLV_ERROR) {
		/* The iteration cannot resume: libdwarf is reset by closing. */
		return fail(d, e, hdr, "compile unit header");
	}
	return rc;
}

/* ---- find ------------------------------------------------------------- */

/*
 * A layout fingerprint of the DIE at off, without building nodes: FNV-1a
 * over tags, names, sizes, bounds and member offsets, following type
 * references through typedefs, qualifiers, pointers and arrays, and into
 * the members of the root and of anonymous structs/unions.  A named struct
 * inside counts by name and size (one kernel build has one layout per
 * name).  Lets find() translate one copy of a definition repeated in
 * hundreds of CUs.
 */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

struct sig_ctx {
	uint64_t h;
	unsigned depth;
};

static uint64_t sig(struct dw *d, uint64_t off, unsigned depth);

static int sig_cb(struct dw *d, Dwarf_Die c, Dwarf_Half tag, void *ctx)
{
	struct sig_ctx *sc = ctx;
	Dwarf_Off off = 0;
	Dwarf_Error e = NULL;
	struct attrs a;
	if (tag != DW_TAG_member && tag != DW_TAG_subrange_type)
		return 0;
	if (dwarf_dieoffset(c, &off, &e) != DW_DLV_OK)
		return fail(d, e, 0, "offset");
	if (read_attrs(d, c, off, &a))
		return d->rc;
	uint64_t v[8] = { tag, a.loc, a.dbo, a.bo, a.bit_size, a.count,
			  (uint64_t)a.upper, a.has_upper };
	sc->h = mix(sc->h, v, sizeof(v));
	if (a.name)
		sc->h = mix(sc->h, a.name, strlen(a.name) + 1);
	if (tag == DW_TAG_member && a.has_type) {
		uint64_t t = sig(d, a.type, sc->depth + 1);
		sc->h = mix(sc->h, &t, sizeof(t));
	}
	return d->rc;
}

static uint64_t sig(struct dw *d, uint64_t off, unsigned depth)
{
	Dwarf_Die die;
	Dwarf_Half tag;
	Dwarf_Error e = NULL;
	struct attrs a;
	struct sig_ctx sc = { 0xcbf29ce484222325ull, depth };
	if (d->rc || depth > 32 || get_die(d, off, &die))
		return 0;
	if (dwarf_tag(die, &tag, &e) != DW_DLV_OK)
		fail(d, e, off, "tag");
	else if (!read_attrs(d, die, off, &a)) {
		uint64_t v[4] = { tag, a.byte_size, a.align, a.decl };
		sc.h = mix(sc.h, v, sizeof(v));
		if (a.name)
			sc.h = mix(sc.h, a.name, strlen(a.name) + 1);
		bool agg = tag == DW_TAG_structure_type ||
			   tag == DW_TAG_union_type || tag == DW_TAG_class_type;
		if ((agg && (!a.name || depth == 0)) || tag == DW_TAG_array_type)
			children(d, die, off, sig_cb, &sc);
		if (!agg && a.has_type && tag != DW_TAG_subroutine_type) {
			uint64_t t = sig(d, a.type, depth + 1);
			sc.h = mix(sc.h, &t, sizeof(t));
		}
	}
	dwarf_dealloc_die(die);
	return sc.h;
}

struct find_ctx {
	struct vec sigs; /* uint64_t: definitions already returned */
	const char *name;
	struct vec res, tdres, fwd; /* slt_type *, slt_type *, const char * */
	size_t decls;
};

static int find_cb(struct dw *d, Dwarf_Die die, Dwarf_Half tag, void *ctx)
{
	struct find_ctx *f = ctx;
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_typedef && tag != DW_TAG_class_type)
		return 0;
	char *nm = NULL;
	Dwarf_Error e = NULL;
	int res = dwarf_diename(die, &nm, &e);
	if (res == DW_DLV_ERROR)
		return fail(d, e, 0, "name");
	if (res != DW_DLV_OK || strcmp(nm, f->name) != 0)
		return 0;
	Dwarf_Off off;
	if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK)
		return fail(d, e, 0, "offset");
	if (tag != DW_TAG_typedef) {
		Dwarf_Bool decl = 0;
		if (dwarf_hasattr(die, DW_AT_declaration, &decl, &e) != DW_DLV_OK)
			return fail(d, e, off, "declaration");
		if (!decl) {
			uint64_t h = sig(d, off, 0), *hp = f->sigs.v;
			for (size_t i = 0; i < f->sigs.n; i++)
				if (hp[i] == h)
					return d->rc; /* same layout again */
			if (d->rc || !(hp = vec_push(d, &f->sigs)))
				return d->rc;
			*hp = h;
		}
	}
	struct slt_type *t = tr(d, off, true), **slotp;
	if (!t)
		return d->rc;
	if (t->kind == SLT_T_FWD) {
		f->decls++;
		return 0;
	}
	if (t->kind != SLT_T_TYPEDEF) {
		if (!(slotp = vec_push(d, &f->res)))
			return d->rc;
		*slotp = t;
		return 0;
	}
	const struct slt_type *r = strip(t);
	if (r && r->kind == SLT_T_FWD && r->fwd_kind != SLT_T_ENUM && r->name &&
	    *r->name) {
		const char **fp = vec_push(d, &f->fwd);
		if (!fp)
			return d->rc;
		*fp = r->name;
	}
	if (!r || (r->kind != SLT_T_STRUCT && r->kind != SLT_T_UNION))
		return 0;
	struct slt_type *c = (struct slt_type *)r;
	if (!r->name || !*r->name) {
		/* typedef struct {...} name: a copy that carries the name */
		if (!(c = slt_arena_alloc(d->arena, sizeof(*c))))
			return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path,
					     -1, NULL, "out of memory");
		*c = *r;
		c->flags |= SLT_TF_TYPEDEF_NAME;
		c->name = t->name;
	}
	if (!(slotp = vec_push(d, &f->tdres)))
		return d->rc;
	*slotp = c;
	return 0;
}

static int find_name(struct dw *d, const char *name, struct slt_type ***out,
		     size_t *n, int level)
{
	struct find_ctx f = { .name = name };
	f.res.elt = f.tdres.elt = sizeof(struct slt_type *);
	f.fwd.elt = sizeof(char *);
	f.sigs.elt = sizeof(uint64_t);
	struct hits h = { 0 };
	bool any = true;
	int rc = 0;
	if (d->can_filter)
		rc = scan(d, &name, 1, &h, &any);
	if (!rc && any)
		rc = walk(d, d->can_filter ? &h : NULL, find_cb, &f);
	free(h.pos);
	struct vec *pick = f.res.n ? &f.res : &f.tdres;
	if (!rc && pick->n) {
		*out = pick->v;
		*n = pick->n;
		pick->v = NULL;
	} else if (!rc) {
		const char **fw = f.fwd.v;
		struct slt_error *keep = d->err;
		d->err = NULL; /* a miss below is reported under name */
		for (size_t i = 0; i < f.fwd.n && level == 0 && !rc; i++)
			if (strcmp(fw[i], name) != 0 &&
			    (rc = find_name(d, fw[i], out, n, 1)) != SLT_EDECLONLY &&
			    rc != SLT_ENOTFOUND)
				break;
		d->err = keep;
		if (rc == 0 && *n)
			goto done;
		d->rc = rc = 0;
		if (f.decls || f.fwd.n)
			rc = slt_error_set(d->err, SLT_EDECLONLY, d->path, -1,
					   "the file only has a forward "
					   "declaration; use the object that "
					   "defines it",
					   "'%s' is only declared, not defined",
					   name);
		else
			rc = slt_error_set(d->err, SLT_ENOTFOUND, d->path, -1,
					   NULL,
					   "no struct or union '%s' in the "
					   "DWARF", name);
	}
done:
	free(f.res.v);
	free(f.tdres.v);
	free(f.fwd.v);
	free(f.sigs.v);
	return rc;
}

static int dw_find(struct slt_source *s, const char *name,
		   struct slt_type ***out, size_t *n, struct slt_error *err)
{
	struct dw *d = (struct dw *)s;
	*out = NULL;
	*n = 0;
	d->err = err;
	d->rc = 0;
	int rc = find_name(d, name, out, n, 0);
	d->err = NULL;
	return rc;
}

/* ---- list and suggest ------------------------------------------------- */

struct list_ctx {
	slt_source_list_cb cb;
	void *cbctx;
	struct slt_suggest *sg;          /* suggest: the ranking */
	const char *const *only;         /* suggest: verify these names */
	size_t n_only;
	bool *found;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int list_cb(struct dw *d, Dwarf_Die die, Dwarf_Half tag, void *ctx)
{
	struct list_ctx *l = ctx;
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_class_type)
		return 0;
	Dwarf_Bool decl = 0;
	Dwarf_Error e = NULL;
	char *nm = NULL;
	int res = dwarf_diename(die, &nm, &e);
	if (res == DW_DLV_ERROR)
		return fail(d, e, 0, "name");
	if (res != DW_DLV_OK || !*nm)
		return 0;
	const char *const *hit = NULL;
	if (l->only && !(hit = bsearch(&nm, l->only, l->n_only, sizeof(*hit),
				       cmp_str)))
		return 0;
	if (dwarf_hasattr(die, DW_AT_declaration, &decl, &e) != DW_DLV_OK)
		return fail(d, e, 0, "declaration");
	if (decl)
		return 0;
	if (l->only) {
		l->found[hit - l->only] = true;
		return 0;
	}
	if (l->sg)
		return slt_suggest_add(l->sg, nm);
	Dwarf_Off off;
	struct attrs a;
	if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK)
		return fail(d, e, 0, "offset");
	if (read_attrs(d, die, off, &a))
		return d->rc;
	const char *f = a.file || a.line ? decl_file(d, die, a.file) : NULL;
	struct slt_type t = {
		.kind = tag == DW_TAG_union_type ? SLT_T_UNION : SLT_T_STRUCT,
		.flags = SLT_TF_SHALLOW, .name = nm, .size = a.byte_size,
		.alignment = (uint32_t)a.align, .decl_file = f,
		.decl_line = (uint32_t)a.line, .origin = off,
	};
	return l->cb(l->cbctx, &t);
}

/* The node passed to cb is valid only during the call (list() would
 * otherwise keep every CU's copy of every struct). */
static int dw_list(struct slt_source *s, slt_source_list_cb cb, void *ctx,
		   struct slt_error *err)
{
	struct dw *d = (struct dw *)s;
	struct list_ctx l = { .cb = cb, .cbctx = ctx };
	d->err = err;
	d->rc = 0;
	int rc = walk(d, NULL, list_cb, &l);
	d->err = NULL;
	return rc;
}

/* Candidates ranked by distance: every string in .debug_str within the
 * limit, then verified in one filtered walk.  Without the filter, a full
 * walk ranks every struct name. */
static int dw_suggest(struct slt_source *s, const char *name, size_t max,
		      char ***out, struct slt_error *err)
{
	struct dw *d = (struct dw *)s;
	struct slt_suggest sg;
	*out = NULL;
	d->err = err;
	d->rc = 0;
	if (max > 8)
		max = 8;
	slt_suggest_init(&sg, name, max);
	int rc = 0;
	if (!d->can_filter) {
		struct list_ctx l = { .sg = &sg };
		rc = walk(d, NULL, list_cb, &l);
		goto out;
	}
	/* Rank .debug_str strings by distance, keep up to 64 per distance. */
	struct vec cand = { .elt = sizeof(char *) };
	unsigned per[16] = { 0 };
	for (size_t i = 0; i < d->str_n && !rc;) {
		const char *p = (const char *)d->str + i;
		size_t len = strnlen(p, d->str_n - i);
		if (slt_suggest_could(&sg, len)) {
			unsigned dist = slt_strdist(name, p, sg.limit);
			if (dist <= sg.limit && dist < 16 && per[dist]++ < 64) {
				const char **c = vec_push(d, &cand);
				if (!c)
					rc = d->rc;
				else
					*c = p;
			}
		}
		i += len + 1;
	}
	const char **cv = cand.v;
	bool *found = calloc(cand.n ? cand.n : 1, 1);
	struct hits h = { 0 };
	bool any = false;
	if (!rc && !found)
		rc = slt_error_set(err, d->rc = SLT_ENOMEM, d->path, -1, NULL,
				   "out of memory");
	if (!rc && cand.n) {
		qsort(cv, cand.n, sizeof(*cv), cmp_str);
		rc = scan(d, (const char *const *)cv, cand.n, &h, &any);
	}
	if (!rc && any) {
		struct list_ctx l = { .only = cv, .n_only = cand.n,
				      .found = found };
		rc = walk(d, &h, list_cb, &l);
	}
	for (size_t i = 0; i < cand.n && !rc; i++)
		if (found[i])
			rc = slt_suggest_add(&sg, cv[i]);
	free(h.pos);
	free(found);
	free(cand.v);
out:
	d->err = NULL;
	if (rc) {
		slt_suggest_release(&sg);
		return rc;
	}
	return (int)slt_suggest_take(&sg, out);
}

/* ---- open and close --------------------------------------------------- */

static void dw_close(struct slt_source *s)
{
	struct dw *d = (struct dw *)s;
	if (!d)
		return;
	if (d->dbg) {
		if (d->files) {
			for (Dwarf_Signed i = 0; i < d->nfiles; i++)
				dwarf_dealloc(d->dbg, d->files[i], DW_DLA_STRING);
			dwarf_dealloc(d->dbg, d->files, DW_DLA_LIST);
		}
		Dwarf_Error e = NULL;
		dwarf_object_finish(d->dbg, &e);
	}
	slt_elf_close(d->elf);
	slt_arena_free(d->arena);
	free(d->map);
	free(d->path);
	free(d);
}

static const struct slt_source_ops dw_ops = {
	.find = dw_find, .list = dw_list, .suggest = dw_suggest,
	.close = dw_close,
};

static int sec(struct dw *d, const char *name, const uint8_t **p, size_t *n)
{
	size_t i = slt_elf_find_section(d->elf, name);
	if (!i && name[1] == 'd') { /* legacy .zdebug_ */
		char z[64];
		snprintf(z, sizeof(z), ".z%s", name + 1);
		i = slt_elf_find_section(d->elf, z);
	}
	*p = NULL;
	*n = 0;
	return i ? slt_elf_section_data(d->elf, i, p, n, d->err) : 0;
}

static bool has_dwarf(struct slt_elf *e)
{
	return slt_elf_find_section(e, ".debug_info") ||
	       slt_elf_find_section(e, ".zdebug_info");
}

/* Takes ownership of elf. */
static int open_elf(struct slt_elf *elf, struct slt_source **out,
		    struct slt_error *err)
{
	struct dw *d = calloc(1, sizeof(*d));
	if (!d || !(d->arena = slt_arena_new()) ||
	    !(d->path = strdup(slt_elf_path(elf)))) {
		if (d)
			slt_arena_free(d->arena);
		free(d);
		slt_elf_close(elf);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL,
				     "out of memory");
	}
	d->elf = elf;
	d->err = err;
	d->files_cu = ~(Dwarf_Off)0;
	d->base.ops = &dw_ops;
	d->base.format = SLT_FORMAT_DWARF;
	d->base.path = d->path;
	int rc = sec(d, ".debug_info", &d->info, &d->info_n);
	if (!rc)
		rc = sec(d, ".debug_str", &d->str, &d->str_n);
	if (!rc)
		rc = sec(d, ".debug_line_str", &d->lstr, &d->lstr_n);
	if (rc)
		goto fail;
	if (!d->info_n) {
		rc = slt_error_set(err, SLT_ENODEBUG, d->path, -1,
				   "build with -g, or install the -dbg/-dbgsym "
				   "package", "no DWARF debug info");
		goto fail;
	}
	static const char *const nofilter[] = {
		".debug_str_offsets", ".gnu_debugaltlink", ".debug_sup",
		".debug_info.dwo", ".debug_str_offsets.dwo", ".debug_types",
	};
	d->can_filter = !getenv("SLT_DWARF_NOFILTER") &&
			d->str_n < UINT32_MAX && d->lstr_n < UINT32_MAX;
	for (size_t i = 0; i < sizeof(nofilter) / sizeof(*nofilter); i++)
		if (slt_elf_find_section(elf, nofilter[i]))
			d->can_filter = false;
	d->iface.object = d;
	d->iface.methods = &methods;
	Dwarf_Error e = NULL;
	int res = dwarf_object_init_b(&d->iface, NULL, NULL, DW_GROUPNUMBER_ANY,
				      &d->dbg, &e);
	if (res != DW_DLV_OK) {
		rc = slt_error_set(err, res == DW_DLV_NO_ENTRY ? SLT_ENODEBUG
							       : SLT_ECORRUPT,
				   d->path, -1, NULL, "libdwarf: %s",
				   e ? dwarf_errmsg(e) : "no DWARF sections");
		if (e)
			dwarf_dealloc(NULL, e, DW_DLA_ERROR);
		d->dbg = NULL;
		goto fail;
	}
	d->err = NULL;
	*out = &d->base;
	return 0;
fail:
	dw_close(&d->base);
	return rc;
}

int slt_source_open_dwarf(const char *path, const struct slt_load_opts *opts,
			  struct slt_source **out, struct slt_error *err)
{
	struct slt_elf *elf;
	*out = NULL;
	int rc = slt_elf_open(path, &elf, err);
	if (rc)
		return rc;
	if (!has_dwarf(elf)) {
		char *dbg = NULL;
		if (slt_elf_find_debug_file(elf, path,
					    opts ? opts->debug_root : NULL,
					    &dbg) == 0) {
			struct slt_elf *de;
			rc = slt_elf_open(dbg, &de, err);
			free(dbg);
			if (rc) {
				slt_elf_close(elf);
				return rc;
			}
			slt_elf_close(elf);
			elf = de;
		}
		if (!has_dwarf(elf)) {
			slt_elf_close(elf);
			return slt_error_set(err, SLT_ENODEBUG, path, -1,
					     "build with -g, install the "
					     "-dbg/-dbgsym package, or set "
					     "--debug-root",
					     "no DWARF debug info (nor a "
					     "separate debug file)");
		}
	}
	return open_elf(elf, out, err);
}

int slt_source_open_dwarf_mem(const void *data, size_t size, const char *name,
			      struct slt_source **out, struct slt_error *err)
{
	struct slt_elf *elf;
	*out = NULL;
	int rc = slt_elf_open_mem(data, size, name, &elf, err);
	return rc ? rc : open_elf(elf, out, err);
}
