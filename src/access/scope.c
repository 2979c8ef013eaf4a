/* SPDX-License-Identifier: MIT */
/*
 * The DWARF side of the access map: a function's code ranges and the
 * locations of the pointer-typed variables and parameters in its scopes
 * (lexical blocks and inlined subroutines included).  Everything is read
 * through libdwarf (location expressions, DWARF 2-4 .debug_loc lists and
 * DWARF 5 .debug_loclists through dwarf_get_loclist_c(); ranges through
 * dwarf_get_ranges_b() and the .debug_rnglists interface), so this file
 * parses no bytes itself.  An attribute libdwarf cannot read is skipped:
 * its variable is simply not known, which the coverage figures show.
 */
#include <stdlib.h>
#include <string.h>

#include "access/access_int.h"

static void drop_err(struct dw *d, Dwarf_Error *e)
{
	if (*e)
		dwarf_dealloc(d->dbg, *e, DW_DLA_ERROR);
	*e = NULL;
}

static bool get_attr(struct dw *d, Dwarf_Die die, Dwarf_Half at,
		     Dwarf_Attribute *a)
{
	Dwarf_Error e = NULL;
	Dwarf_Bool has = 0;
	if (dwarf_hasattr(die, at, &has, &e) != DW_DLV_OK || !has) {
		drop_err(d, &e);
		return false;
	}
	if (dwarf_attr(die, at, a, &e) != DW_DLV_OK) {
		drop_err(d, &e);
		return false;
	}
	return true;
}

static bool ref_attr(struct dw *d, Dwarf_Die die, Dwarf_Half at, uint64_t *ref)
{
	Dwarf_Attribute a;
	if (!get_attr(d, die, at, &a))
		return false;
	Dwarf_Error e = NULL;
	Dwarf_Off o = 0;
	bool ok = dwarf_global_formref(a, &o, &e) == DW_DLV_OK;
	drop_err(d, &e);
	dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	*ref = o;
	return ok;
}

/* Call get() on die, then along its DW_AT_abstract_origin /
 * DW_AT_specification chain (at most 4 hops: a cycle is corrupt), until it
 * returns true. */
static bool along_origin(struct dw *d, Dwarf_Die die,
			 bool (*get)(struct dw *, Dwarf_Die, void *), void *out)
{
	Dwarf_Die cur = die;
	bool ok = false;
	for (int hop = 0; hop < 4 && cur && !ok; hop++) {
		if ((ok = get(d, cur, out)))
			break;
		uint64_t o;
		if (!ref_attr(d, cur, DW_AT_abstract_origin, &o) &&
		    !ref_attr(d, cur, DW_AT_specification, &o))
			break;
		Dwarf_Die next = NULL;
		Dwarf_Error e = NULL;
		if (dwarf_offdie_b(d->dbg, o, 1, &next, &e) != DW_DLV_OK) {
			drop_err(d, &e);
			next = NULL;
		}
		if (cur != die)
			dwarf_dealloc_die(cur);
		cur = next;
	}
	if (cur && cur != die)
		dwarf_dealloc_die(cur);
	return ok;
}

static bool get_type(struct dw *d, Dwarf_Die die, void *out)
{
	return ref_attr(d, die, DW_AT_type, out);
}

static bool get_name(struct dw *d, Dwarf_Die die, void *out)
{
	char *s = NULL;
	Dwarf_Error e = NULL;
	int res = dwarf_diename(die, &s, &e);
	drop_err(d, &e);
	if (res != DW_DLV_OK || !s)
		return false;
	*(const char **)out = s; /* points into libdwarf's sections */
	return true;
}

/* DW_AT_type of die or of what it is a concrete instance of. */
static bool origin_type(struct dw *d, Dwarf_Die die, uint64_t *type)
{
	return along_origin(d, die, get_type, type);
}

static const char *origin_name(struct dw *d, Dwarf_Die die)
{
	const char *name = "";
	along_origin(d, die, get_name, &name);
	return name;
}

/* Code ranges: a vec of lo, hi pairs. */
struct range {
	uint64_t lo, hi;
};
#define RANGES_INIT {.elt = sizeof(struct range)}

static int rpush(struct dw *d, struct vec *r, uint64_t lo, uint64_t hi)
{
	struct range *p;
	if (lo >= hi)
		return 0;
	if (!(p = slt_dw_vec_push(d, r)))
		return SLT_ENOMEM;
	p->lo = lo;
	p->hi = hi;
	return 0;
}

static int rnglists(struct ascope_ctx *c, Dwarf_Attribute a, struct vec *r)
{
	struct dw *d = c->d;
	Dwarf_Half form = 0;
	Dwarf_Error e = NULL;
	Dwarf_Unsigned val = 0;
	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK) {
		drop_err(d, &e);
		return 0;
	}
	int res = form == DW_FORM_rnglistx ? dwarf_formudata(a, &val, &e)
					     : dwarf_global_formref(a, &val, &e);
	if (res != DW_DLV_OK) {
		drop_err(d, &e);
		return 0;
	}
	/* libdwarf 20210528 follows an offset past the section unchecked */
	if (form != DW_FORM_rnglistx && val >= d->rnglists_n)
		return 0;
	Dwarf_Rnglists_Head head = NULL;
	Dwarf_Unsigned count = 0, goff = 0;
	if (dwarf_rnglists_get_rle_head(a, form, val, &head, &count, &goff, &e) !=
	    DW_DLV_OK) {
		drop_err(d, &e);
		return 0;
	}
	int rc = 0;
	for (Dwarf_Unsigned i = 0; i < count && !rc; i++) {
		unsigned len = 0, code = 0;
		Dwarf_Unsigned r1, r2, c1 = 0, c2 = 0;
		Dwarf_Bool unavail = 0;
		if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &r1, &r2,
						      &unavail, &c1, &c2, &e) !=
		    DW_DLV_OK) {
			drop_err(d, &e);
			break;
		}
		if (code == DW_RLE_end_of_list)
			break;
		if (unavail || code == DW_RLE_base_address ||
		    code == DW_RLE_base_addressx)
			continue;
		rc = rpush(d, r, c1, c2);
	}
	dwarf_dealloc_rnglists_head(head);
	return rc;
}

static int ranges4(struct ascope_ctx *c, Dwarf_Die die, Dwarf_Attribute a,
		   struct vec *r)
{
	struct dw *d = c->d;
	Dwarf_Error e = NULL;
	Dwarf_Off off = 0, real = 0;
	if (dwarf_global_formref(a, &off, &e) != DW_DLV_OK) {
		drop_err(d, &e);
		return 0;
	}
	Dwarf_Ranges *buf = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Unsigned bytes = 0;
	if (dwarf_get_ranges_b(d->dbg, off, die, &real, &buf, &n, &bytes, &e) !=
	    DW_DLV_OK) {
		drop_err(d, &e);
		return 0;
	}
	uint64_t base = c->cu_base;
	int rc = 0;
	for (Dwarf_Signed i = 0; i < n && !rc; i++) {
		if (buf[i].dwr_type == DW_RANGES_END)
			break;
		if (buf[i].dwr_type == DW_RANGES_ADDRESS_SELECTION) {
			base = buf[i].dwr_addr2;
			continue;
		}
		rc = rpush(d, r, base + buf[i].dwr_addr1, base + buf[i].dwr_addr2);
	}
	dwarf_ranges_dealloc(d->dbg, buf, n);
	return rc;
}

/* The code ranges of die into r (nothing when it has none). */
static int die_ranges(struct ascope_ctx *c, Dwarf_Die die, struct vec *r)
{
	struct dw *d = c->d;
	Dwarf_Error e = NULL;
	Dwarf_Addr lo = 0, hi = 0;
	Dwarf_Half form = 0;
	enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
	if (dwarf_lowpc(die, &lo, &e) == DW_DLV_OK) {
		if (dwarf_highpc_b(die, &hi, &form, &cls, &e) == DW_DLV_OK) {
			if (cls == DW_FORM_CLASS_CONSTANT)
				hi += lo;
			return rpush(d, r, lo, hi);
		}
		drop_err(d, &e);
		return 0;
	}
	drop_err(d, &e);
	Dwarf_Attribute a;
	if (!get_attr(d, die, DW_AT_ranges, &a))
		return 0;
	int rc = c->version >= 5 ? rnglists(c, a, r) : ranges4(c, die, a, r);
	dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	return rc;
}

static int cmp_u64pair(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* ---- locations ---------------------------------------------------------- */

/* What the frame base (DW_AT_frame_base) of the function is. */
enum fbase { FB_UNKNOWN, FB_CFA, FB_RSP, FB_RBP };

struct fctx {
	struct ascope_ctx *c;
	struct vec vars;      /* struct avar */
	enum fbase fb;
	struct afunc *f;
};

/* A variable's location list could not be read (at loff, UINT64_MAX when
 * unknown): the function's unresolved accesses say so (track.c). */
static void bad_loc(struct fctx *x, uint64_t loff)
{
	if (!x->f->bad_loc || loff < x->f->bad_loc_off)
		x->f->bad_loc_off = loff;
	x->f->bad_loc = x->c->version < 5 ? 4 : 5;
}

static int add_var(struct fctx *x, uint64_t lo, uint64_t hi, int reg,
		   enum avar_how how, int64_t off, uint64_t type)
{
	struct avar *v;
	if (lo >= hi)
		return 0;
	if (!(v = slt_dw_vec_push(x->c->d, &x->vars)))
		return SLT_ENOMEM;
	*v = (struct avar){
		.lo = lo, .hi = hi, .off = off, .type_die = type,
		.reg = (int8_t)reg, .how = (uint8_t)how,
	};
	return 0;
}

/* The argument register (DWARF number) whose entry value the
 * DW_OP_entry_value expression of len bytes at (libdwarf's pointer) bytes
 * names: DW_OP_regN or DW_OP_regx N, N one of the six argument registers;
 * -1 for anything else. */
static int entry_reg(Dwarf_Unsigned len, Dwarf_Unsigned bytes)
{
	const unsigned char *b = (const unsigned char *)(uintptr_t)bytes;
	int r = -1;
	if (!b)
		return -1;
	if (len == 1 && b[0] >= DW_OP_reg0 && b[0] <= DW_OP_reg15)
		r = b[0] - DW_OP_reg0;
	else if (len == 2 && b[0] == DW_OP_regx && b[1] < 0x80)
		r = b[1];
	for (int i = 0; i < 6 && r >= 0; i++)
		if (acc_arg_regs[i] == r)
			return r;
	return -1;
}

/* Decode one location description: 1 and how, reg and off when it is one of
 * the forms the map uses (see enum avar_how), else 0. */
static int decode_loc(struct fctx *x, Dwarf_Locdesc_c desc, Dwarf_Unsigned nops,
		      int *how, int *reg, int64_t *off)
{
	struct dw *d = x->c->d;
	Dwarf_Small atom[3] = {0, 0, 0};
	Dwarf_Unsigned op1[3] = {0, 0, 0}, op2[3] = {0, 0, 0};
	if (nops == 0 || nops > 3)
		return 0;
	for (Dwarf_Unsigned j = 0; j < nops; j++) {
		Dwarf_Unsigned o3, br;
		Dwarf_Error e = NULL;
		if (dwarf_get_location_op_value_c(desc, j, &atom[j], &op1[j], &op2[j],
						  &o3, &br, &e) != DW_DLV_OK) {
			drop_err(d, &e);
			return 0;
		}
	}
	int r = -1;
	if (atom[0] == DW_OP_entry_value || atom[0] == DW_OP_GNU_entry_value) {
		/* the value a register held at the function's entry, or
		 * that plus a constant (the address of a member):
		 * DW_OP_entry_value's operands are the length of its
		 * expression and (libdwarf) a pointer to its bytes */
		bool plus = nops == 3 && atom[1] == DW_OP_plus_uconst &&
			    op1[1] < ((Dwarf_Unsigned)1 << 31);
		if (atom[nops - 1] != DW_OP_stack_value || (nops == 3 && !plus) ||
		    nops < 2 || (r = entry_reg(op1[0], op2[0])) < 0)
			return 0;
		*how = AV_ENTRY;
		*reg = r;
		*off = plus ? (int64_t)op1[1] : 0;
		return 1;
	}
	if (nops == 3)
		return 0;
	if (atom[0] >= DW_OP_reg0 && atom[0] <= DW_OP_reg15)
		r = atom[0] - DW_OP_reg0;
	else if (atom[0] == DW_OP_regx && op1[0] < AREG_N)
		r = (int)op1[0];
	if (r >= 0) {
		/* the register, or its first 8-byte piece */
		if (nops == 2 && !(atom[1] == DW_OP_piece && op1[1] >= 8))
			return 0;
		*how = AV_IN_REG;
		*reg = r;
		*off = 0;
		return 1;
	}
	if (atom[0] >= DW_OP_breg0 && atom[0] <= DW_OP_breg15) {
		r = atom[0] - DW_OP_breg0;
		if (nops == 2 && atom[1] == DW_OP_stack_value) {
			*how = AV_REG_PLUS;
			*reg = r;
			*off = (int64_t)op1[0];
			return 1;
		}
		if (nops == 1 && (r == AREG_RSP || r == AREG_RBP)) {
			*how = AV_SLOT;
			*reg = r;
			*off = (int64_t)op1[0];
			return 1;
		}
		return 0;
	}
	if (atom[0] == DW_OP_fbreg && nops == 1 && x->fb != FB_UNKNOWN) {
		*how = AV_SLOT;
		*reg = x->fb == FB_CFA ? -2 : x->fb == FB_RSP ? AREG_RSP : AREG_RBP;
		*off = (int64_t)op1[0];
		return 1;
	}
	return 0;
}

/* A pointer to a struct/union (t, stripped; type: its DIE) declared in
 * scope, located or not: AV_SCOPE records over the scope's ranges (the
 * containers a container_of may reach, container.c). */
static int scope_var(struct fctx *x, const struct slt_type *t, uint64_t type,
		     const struct vec *scope)
{
	const struct slt_type *p = t->ref ? slt_dw_strip(t->ref) : NULL;
	if (!p || !(p->kind == SLT_T_STRUCT || p->kind == SLT_T_UNION ||
		    (p->kind == SLT_T_FWD && p->fwd_kind != SLT_T_ENUM)))
		return 0;
	const struct range *sr = scope->v;
	int rc = 0;
	for (size_t k = 0; k < scope->n && !rc; k++)
		rc = add_var(x, sr[k].lo, sr[k].hi, AREG_NONE, AV_SCOPE, 0, type);
	return rc;
}

/* Record the location of the variable/parameter die (scope: the PC ranges
 * of its enclosing scope, for plain location expressions). */
static int var_die(struct fctx *x, Dwarf_Die die, const struct vec *scope)
{
	struct dw *d = x->c->d;
	uint64_t type = 0;
	if (!origin_type(d, die, &type))
		return 0;
	/* pointers wherever they are; other types in stack slots (the
	 * object itself is there: AV_OBJ) and registers (AV_VAL) */
	const struct slt_type *t = slt_dw_tr(d, type, false);
	if (!t) {
		d->rc = 0;
		return 0;
	}
	t = slt_dw_strip(t);
	bool ptr = t && t->kind == SLT_T_PTR;
	if (!t || (!ptr && (t->kind == SLT_T_FUNC || !t->size)))
		return 0;
	int rc = ptr ? scope_var(x, t, type, scope) : 0;
	Dwarf_Attribute a;
	if (rc || !get_attr(d, die, DW_AT_location, &a))
		return rc;
	uint64_t loff = UINT64_MAX;
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Unsigned count = 0;
	Dwarf_Error e = NULL;
	if (!slt_acc_loclist_checked(x->c, a, &loff) ||
	    dwarf_get_loclist_c(a, &head, &count, &e) != DW_DLV_OK) {
		drop_err(d, &e);
		bad_loc(x, loff);
		dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
		return 0;
	}
	unsigned kind = DW_LKIND_unknown;
	if (dwarf_get_loclist_head_kind(head, &kind, &e) != DW_DLV_OK)
		drop_err(d, &e);
	for (Dwarf_Unsigned i = 0; i < count && !rc; i++) {
		Dwarf_Small lle = 0, src = 0;
		Dwarf_Unsigned rlo, rhi, nops = 0, eoff, doff;
		Dwarf_Bool unavail = 0;
		Dwarf_Addr lo = 0, hi = 0;
		Dwarf_Locdesc_c desc = NULL;
		if (dwarf_get_locdesc_entry_d(head, i, &lle, &rlo, &rhi, &unavail,
					      &lo, &hi, &nops, &desc, &src, &eoff,
					      &doff, &e) != DW_DLV_OK) {
			drop_err(d, &e);
			bad_loc(x, loff);
			break;
		}
		int how, reg;
		int64_t off;
		if (unavail || !decode_loc(x, desc, nops, &how, &reg, &off))
			continue;
		if (!ptr && how == AV_IN_REG)
			how = AV_VAL;
		else if (!ptr && how != AV_SLOT)
			continue;
		else if (!ptr)
			how = AV_OBJ;
		if (kind == DW_LKIND_expression) {
			const struct range *sr = scope->v;
			for (size_t k = 0; k < scope->n && !rc; k++)
				rc = add_var(x, sr[k].lo, sr[k].hi, reg, how, off,
					     type);
		} else {
			rc = add_var(x, lo, hi, reg, how, off, type);
		}
	}
	dwarf_loc_head_c_dealloc(head);
	dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	return rc;
}

static int walk(struct fctx *x, Dwarf_Die die, const struct vec *scope,
		unsigned depth)
{
	struct dw *d = x->c->d;
	Dwarf_Die ch = NULL, next = NULL;
	Dwarf_Error e = NULL;
	if (depth > 64)
		return 0;
	int res = dwarf_child(die, &ch, &e);
	if (res != DW_DLV_OK) {
		drop_err(d, &e);
		return 0;
	}
	int rc = 0;
	while (ch && !rc) {
		Dwarf_Half tag = 0;
		if (dwarf_tag(ch, &tag, &e) != DW_DLV_OK) {
			drop_err(d, &e);
			tag = 0;
		}
		if (tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) {
			rc = var_die(x, ch, scope);
		} else if (tag == DW_TAG_lexical_block ||
			   tag == DW_TAG_inlined_subroutine) {
			struct vec inner = RANGES_INIT;
			rc = die_ranges(x->c, ch, &inner);
			if (!rc)
				rc = walk(x, ch, inner.n ? &inner : scope,
					  depth + 1);
			free(inner.v);
		}
		next = NULL;
		res = slt_dw_sibling(d, ch, &next, &e);
		if (res == DW_DLV_ERROR) {
			drop_err(d, &e);
			next = NULL;
		}
		dwarf_dealloc_die(ch);
		ch = next;
	}
	if (ch)
		dwarf_dealloc_die(ch);
	return rc;
}

static enum fbase frame_base(struct dw *d, Dwarf_Die die)
{
	Dwarf_Attribute a;
	if (!get_attr(d, die, DW_AT_frame_base, &a))
		return FB_UNKNOWN;
	enum fbase fb = FB_UNKNOWN;
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Unsigned count = 0;
	Dwarf_Error e = NULL;
	if (dwarf_get_loclist_c(a, &head, &count, &e) == DW_DLV_OK) {
		Dwarf_Small lle, src;
		Dwarf_Unsigned rlo, rhi, nops = 0, eoff, doff, o1, o2, o3, br;
		Dwarf_Bool unavail;
		Dwarf_Addr lo, hi;
		Dwarf_Locdesc_c desc;
		Dwarf_Small atom = 0;
		if (count == 1 &&
		    dwarf_get_locdesc_entry_d(head, 0, &lle, &rlo, &rhi, &unavail,
					      &lo, &hi, &nops, &desc, &src, &eoff,
					      &doff, &e) == DW_DLV_OK &&
		    nops == 1 &&
		    dwarf_get_location_op_value_c(desc, 0, &atom, &o1, &o2, &o3,
						  &br, &e) == DW_DLV_OK) {
			if (atom == DW_OP_call_frame_cfa)
				fb = FB_CFA;
			else if (atom == DW_OP_reg7)
				fb = FB_RSP;
			else if (atom == DW_OP_reg6)
				fb = FB_RBP;
		}
		drop_err(d, &e);
		dwarf_loc_head_c_dealloc(head);
	} else {
		drop_err(d, &e);
	}
	dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	return fb;
}

int slt_acc_scope_func(struct ascope_ctx *c, Dwarf_Die die, uint64_t off,
		       struct afunc *f)
{
	struct dw *d = c->d;
	memset(f, 0, sizeof(*f));
	f->die = off;
	f->cu = c->cu_off;
	struct vec r = RANGES_INIT;
	int rc = die_ranges(c, die, &r);
	if (rc || !r.n) {
		free(r.v);
		return rc;
	}
	if (r.n > 1) /* qsort(NULL, 0) is undefined */
		qsort(r.v, r.n, sizeof(struct range), cmp_u64pair);
	f->ranges = r.v;
	f->n_ranges = r.n;
	f->name = origin_name(d, die);
	if (!origin_type(d, die, &f->ret_die))
		f->ret_die = 0;
	struct fctx x = {.c = c, .vars = {.elt = sizeof(struct avar)},
			 .fb = frame_base(d, die), .f = f};
	rc = walk(&x, die, &r, 0);
	f->vars = x.vars.v;
	f->n_vars = x.vars.n;
	return rc;
}

void slt_acc_func_free(struct afunc *f)
{
	free(f->ranges);
	free(f->vars);
	f->ranges = NULL;
	f->vars = NULL;
}

/* ---- types -------------------------------------------------------------- */

int slt_acc_pointee_t(struct dw *d, const struct slt_type *t,
		      const struct slt_type **out)
{
	*out = NULL;
	if (!t)
		return SLT_AR_NO_TYPE;
	t = slt_dw_strip(t);
	if (!t || t->kind != SLT_T_PTR || !t->ref)
		return SLT_AR_NOT_STRUCT;
	return slt_acc_object(d, t->ref, out);
}

int slt_acc_object(struct dw *d, const struct slt_type *t,
		   const struct slt_type **out)
{
	*out = NULL;
	const struct slt_type *p = t ? slt_dw_strip(t) : NULL;
	if (!p)  /* const void * */
		return SLT_AR_NOT_STRUCT;
	if (p->kind == SLT_T_FWD)
		return SLT_AR_NO_TYPE;
	if (p->kind != SLT_T_STRUCT && p->kind != SLT_T_UNION)
		return SLT_AR_NOT_STRUCT;
	if (p->flags & SLT_TF_SHALLOW) {
		const struct slt_type *full = slt_dw_tr(d, p->origin, true);
		if (!full) {
			d->rc = 0;
			return SLT_AR_NO_TYPE;
		}
		p = slt_dw_strip(full);
		if (!p || (p->flags & SLT_TF_SHALLOW))
			return SLT_AR_NO_TYPE;
	}
	if (!p->size)
		return SLT_AR_NO_TYPE;
	*out = p;
	return 0;
}

int slt_acc_pointee(struct dw *d, uint64_t type_die, const struct slt_type **out)
{
	const struct slt_type *t = slt_dw_tr(d, type_die, false);
	if (!t) {
		d->rc = 0;
		*out = NULL;
		return SLT_AR_NO_TYPE;
	}
	return slt_acc_pointee_t(d, t, out);
}

/* The member of struct/union t (not a bitfield) whose bytes hold offset
 * off.  In a union several do: the one that starts at off and is width
 * bytes wide (width != 0), or of type inner (inner != NULL), else the first. */
static const struct slt_tmember *member_at(const struct slt_type *t, uint64_t off,
					   uint32_t width, const struct slt_type *inner)
{
	const struct slt_tmember *best = NULL;
	for (uint32_t i = 0; i < t->n_members; i++) {
		const struct slt_tmember *m = &t->members[i];
		if (m->bit_size)
			continue;
		uint64_t mo = m->bit_offset / 8;
		const struct slt_type *mt = slt_dw_strip(m->type);
		uint64_t ms = mt ? mt->size : 0;
		if (off < mo || off - mo >= ms)
			continue;
		if (!best || (off == mo && (width ? ms == width
						  : inner && slt_acc_same_type(mt, inner))))
			best = m;
	}
	return best;
}

const struct slt_type *slt_acc_member_type(struct dw *d,
					   const struct slt_type *st,
					   uint64_t off, uint32_t width)
{
	const struct slt_type *t = st;
	for (int depth = 0; depth < 64; depth++) {
		t = slt_dw_strip(t);
		if (!t)
			return NULL;
		if (t->kind == SLT_T_ARRAY) {
			const struct slt_type *el = slt_dw_strip(t->ref);
			if (!el || !el->size || off >= t->size)
				return NULL;
			off %= el->size;
			t = el;
			continue;
		}
		if (t->kind != SLT_T_STRUCT && t->kind != SLT_T_UNION)
			return off == 0 ? t : NULL;
		if (t->flags & SLT_TF_SHALLOW) {
			t = slt_dw_tr(d, t->origin, true);
			if (!t) {
				d->rc = 0;
				return NULL;
			}
			continue;
		}
		/* unions: the member the access fits best */
		const struct slt_tmember *best = member_at(t, off, width, NULL);
		if (!best)
			return NULL;
		off -= best->bit_offset / 8;
		t = best->type;
	}
	return NULL;
}

bool slt_acc_path(struct dw *d, const struct slt_type *st, uint64_t off,
		  const struct slt_type *inner, uint64_t *elem)
{
	return slt_acc_path_visit(d, st, off, inner, elem, NULL, NULL);
}

bool slt_acc_path_visit(struct dw *d, const struct slt_type *st, uint64_t off,
			const struct slt_type *inner, uint64_t *elem,
			void (*visit)(void *ctx, const struct slt_type *t),
			void *ctx)
{
	const struct slt_type *t = st;
	if (inner)
		inner = slt_dw_strip(inner);
	for (int depth = 0; depth < 64; depth++) {
		t = slt_dw_strip(t);
		if (!t)
			return false;
		if (t->kind == SLT_T_ARRAY) {
			const struct slt_type *el = slt_dw_strip(t->ref);
			if (!el || !el->size || off >= t->size)
				return false;
			if (elem && (t->nelems != 1 || (t->flags & SLT_TF_FLEX)))
				*elem = el->size;
			off %= el->size;
			t = el;
			continue;
		}
		if (t->kind != SLT_T_STRUCT && t->kind != SLT_T_UNION)
			return false;
		if (inner && depth && off == 0 && slt_acc_same_type(t, inner))
			return true;
		if (visit && depth && !(t->flags & SLT_TF_SHALLOW) &&
		    !slt_acc_same_type(t, st))
			visit(ctx, t);
		if (t->flags & SLT_TF_SHALLOW) {
			t = slt_dw_tr(d, t->origin, true);
			if (!t) {
				d->rc = 0;
				return false;
			}
			continue;
		}
		/* unions: the member of the wanted type first */
		const struct slt_tmember *best = member_at(t, off, 0, inner);
		if (!best)
			return false;
		off -= best->bit_offset / 8;
		t = best->type;
	}
	return false;
}

/* ---- variables at a fixed address ---------------------------------------- */

bool slt_acc_scope_global(struct dw *d, Dwarf_Die die, uint64_t *addr,
			  uint64_t *type)
{
	if (!origin_type(d, die, type))
		return false;
	Dwarf_Attribute a;
	if (!get_attr(d, die, DW_AT_location, &a))
		return false;
	Dwarf_Half form = 0;
	Dwarf_Unsigned len = 0;
	Dwarf_Ptr p = NULL;
	Dwarf_Error e = NULL;
	bool ok = dwarf_whatform(a, &form, &e) == DW_DLV_OK &&
		  form == DW_FORM_exprloc &&
		  dwarf_formexprloc(a, &len, &p, &e) == DW_DLV_OK && p && len;
	drop_err(d, &e);
	dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	if (!ok)
		return false;
	const uint8_t *b = p;
	*addr = 0;
	if (b[0] == DW_OP_addr && len == 9) { /* x86-64: little-endian */
		for (int i = 8; i >= 1; i--)
			*addr = *addr << 8 | b[i];
		return true;
	}
	if (b[0] != DW_OP_addrx && b[0] != DW_OP_GNU_addr_index)
		return false;
	/* DW_OP_addrx index (ULEB128, the whole expression): .debug_addr */
	uint64_t idx = 0;
	Dwarf_Unsigned i = 1;
	for (unsigned shift = 0; i < len && shift < 64; shift += 7) {
		idx |= (uint64_t)(b[i] & 0x7f) << shift;
		if (!(b[i++] & 0x80))
			break;
		if (i == len)
			return false;
	}
	if (i != len || len == 1)
		return false;
	Dwarf_Addr v = 0;
	ok = dwarf_debug_addr_index_to_addr(die, idx, &v, &e) == DW_DLV_OK;
	drop_err(d, &e);
	*addr = v;
	return ok;
}
