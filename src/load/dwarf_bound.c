/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: array bounds.  DW_AT_lower_bound, DW_AT_upper_bound and
 * DW_AT_count of a DW_TAG_subrange_type -> the dimension's element count
 * (load/dwarf_int.h).
 *
 * Facts used (DWARF 5, sections 2.19, 5.13 and 7.5.5):
 * - The bounds and the count are constants, or a DWARF expression, or a
 *   reference to a DIE (a variable) holding the value at run time.
 * - DW_FORM_sdata and DW_FORM_implicit_const are signed, DW_FORM_udata is
 *   unsigned; DW_FORM_data1/2/4/8 carry bits whose signedness comes from
 *   the context: for a bound, the subrange's index type (its DW_AT_type;
 *   without one, a signed integer of the target's address size).  A bound
 *   in a data form whose index type is signed is sign-extended from the
 *   index type's width (what gdb does too: dwarf2/read.c,
 *   read_subrange_type).
 * - Without DW_AT_lower_bound the lower bound is the language's default:
 *   0 for the C family, which is all this loader is used on.
 *
 * What gcc 12 and clang 14 emit (x86-64, DWARF 4 and 5, checked with
 * llvm-dwarfdump-14): gcc gives DW_AT_upper_bound in the smallest
 * data form (char b256[256]: data1 0xff; char x[1UL << 32]: data4
 * 0xffffffff) with index type `long unsigned int`, and `x[0]` as
 * DW_AT_count 0 (DWARF 4: data1, DWARF 5: implicit_const); clang gives
 * DW_AT_count in the smallest data form with its 8-byte unsigned
 * __ARRAY_SIZE_TYPE__.  Both give `x[]` no bound at all.  Older gccs gave
 * `x[0]` as an upper bound of -1: sdata, or all ones in the index type's
 * width; both read as -1 below.
 *
 * The count is upper - lower + 1 in the index type's arithmetic: for an
 * unsigned index type of W bits an upper bound of 2^W - 1 is -1 there
 * (modulo 2^W), so `lower == 0` gives 0 elements; an upper bound below
 * the lower bound also gives 0.  A bound or count that is not a constant
 * (VLA-like and Fortran arrays) makes the dimension's count unknown: the
 * array is then shown as flexible, `x[]` (size 0), as pahole does.
 */

#include "load/dwarf_int.h"

int slt_dw_bound_read(struct dw *d, Dwarf_Attribute a, uint64_t off,
		      uint64_t *v, struct dw_bform *f)
{
	Dwarf_Half form;
	Dwarf_Error e = NULL;
	*v = 0;
	f->kind = BF_DYNAMIC;
	f->bytes = 8;
	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, off, "array bound form");
	switch (form) {
	case DW_FORM_sdata: case DW_FORM_implicit_const: {
		Dwarf_Signed s;
		if (dwarf_formsdata(a, &s, &e) != DW_DLV_OK)
			return slt_dw_fail(d, e, off, "array bound");
		*v = (uint64_t)s;
		f->kind = BF_SIGNED;
		return 0;
	}
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4:
	case DW_FORM_data8: case DW_FORM_udata: {
		Dwarf_Unsigned u;
		if (dwarf_formudata(a, &u, &e) != DW_DLV_OK)
			return slt_dw_fail(d, e, off, "array bound");
		*v = u;
		f->kind = form == DW_FORM_udata ? BF_UNSIGNED : BF_DATA;
		f->bytes = form == DW_FORM_data1 ? 1 : form == DW_FORM_data2 ? 2 :
			   form == DW_FORM_data4 ? 4 : 8;
		return 0;
	}
	case DW_FORM_exprloc: case DW_FORM_block1: case DW_FORM_block2:
	case DW_FORM_block4: case DW_FORM_block: case DW_FORM_sec_offset:
	case DW_FORM_loclistx: case DW_FORM_ref1: case DW_FORM_ref2:
	case DW_FORM_ref4: case DW_FORM_ref8: case DW_FORM_ref_udata:
	case DW_FORM_ref_addr: case DW_FORM_ref_sig8:
		/* computed at run time: count unknown (see above) */
		return 0;
	default:
		return slt_error_set(d->err, d->rc = SLT_EUNSUPPORTED, d->path,
				     slt_dw_file_off(d, off),
				     "the debug info uses a form structlint "
				     "does not read",
				     "DWARF: array bound of form 0x%x at "
				     ".debug_info+0x%llx is not a constant "
				     "structlint reads", (unsigned)form,
				     (unsigned long long)off);
	}
}

/* The subrange's index type: *sgn and *bits (1..64). */
static int index_type(struct dw *d, Dwarf_Die die, const struct attrs *a,
		      bool *sgn, unsigned *bits)
{
	*sgn = true;
	*bits = 64;
	if (!a->has_type) { /* DWARF 5 section 5.13: signed, address size */
		Dwarf_Half as = 8;
		Dwarf_Error e = NULL;
		if (dwarf_get_die_address_size(die, &as, &e) != DW_DLV_OK && e)
			dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
		if (as >= 1 && as < 8)
			*bits = 8u * as;
		return 0;
	}
	const struct slt_type *t = slt_dw_strip(slt_dw_tr(d, a->type, false));
	if (d->rc)
		return d->rc;
	if (t && (t->kind == SLT_T_INT || t->kind == SLT_T_ENUM)) {
		*sgn = (t->flags & SLT_TF_SIGNED) != 0;
		if (t->size >= 1 && t->size < 8)
			*bits = 8u * (unsigned)t->size;
	}
	return 0;
}

/* Bound v of form f as a 64-bit two's complement value of the index
 * type; *neg: it is negative there. */
static uint64_t bound_value(uint64_t v, const struct dw_bform *f, bool sgn,
			    unsigned bits, bool *neg)
{
	uint64_t top = bits < 64 ? (uint64_t)1 << (bits - 1) : (uint64_t)1 << 63;
	uint64_t mask = bits < 64 ? ((uint64_t)1 << bits) - 1 : UINT64_MAX;
	if (f->kind == BF_SIGNED) {
		*neg = (int64_t)v < 0;
		return v;
	}
	if (sgn && f->kind == BF_DATA && (v & ~mask) == 0 && (v & top))
		v |= ~mask; /* sign-extended from the index type's width */
	else if (!sgn && v == mask)
		v = UINT64_MAX; /* 2^W - 1 is -1 in W-bit arithmetic */
	*neg = (sgn || v == UINT64_MAX) && (int64_t)v < 0;
	return v;
}

int slt_dw_subrange_count(struct dw *d, Dwarf_Die die, uint64_t off,
			  const struct attrs *a, uint64_t *n, bool *known)
{
	*n = 0;
	*known = false;
	if (a->has_count) {
		if (a->fcount.kind == BF_DYNAMIC)
			return 0;
		if (a->fcount.kind == BF_SIGNED && (int64_t)a->count < 0)
			return slt_dw_fail(d, NULL, off, "negative array count");
		*n = a->count;
		*known = true;
		return 0;
	}
	if (!a->has_upper || a->fupper.kind == BF_DYNAMIC ||
	    (a->has_lower && a->flower.kind == BF_DYNAMIC))
		return 0; /* flexible, or computed at run time */
	bool sgn, nu, nl = false;
	unsigned bits;
	if (index_type(d, die, a, &sgn, &bits))
		return d->rc;
	uint64_t up = bound_value((uint64_t)a->upper, &a->fupper, sgn, bits, &nu);
	uint64_t lo = a->has_lower ? bound_value((uint64_t)a->lower, &a->flower,
						 sgn, bits, &nl) : 0;
	bool below = nu || nl ? (int64_t)up < (int64_t)lo : up < lo;
	*n = below ? 0 : up - lo + 1;
	*known = true;
	if (!below && *n == 0) /* [0, 2^64 - 1]: more than a uint64_t counts */
		return slt_dw_fail(d, NULL, off, "array count overflows");
	return 0;
}
