/* SPDX-License-Identifier: MIT */
/*
 * The bounds check of a variable's location list before libdwarf follows
 * it (split from scope.c): DWARF 5 .debug_loclists offsets and indices.
 */
#include "access/access_int.h"
#include "load/dwarf_int.h"

/* False when a DWARF 5 location list attribute does not lead to a well
 * formed list inside .debug_loclists (*off: the list's offset there,
 * UINT64_MAX when not known or not a list).  libdwarf 20210528 follows such a
 * list unchecked: an offset past the section when the CU has a
 * DW_AT_loclists_base, a counted expression longer than the section (both
 * found by tests/fuzz/fuzz_access).  Expressions (exprloc, block) pass. */
bool slt_acc_loclist_checked(struct ascope_ctx *c, Dwarf_Attribute a, uint64_t *off_out)
{
	struct dw *d = c->d;
	Dwarf_Half form = 0;
	Dwarf_Error e = NULL;
	if (c->version < 5)
		return true; /* .debug_loc: libdwarf checks its bounds */
	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK) {
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
		return false;
	}
	if (form == DW_FORM_exprloc || form == DW_FORM_block ||
	    form == DW_FORM_block1 || form == DW_FORM_block2 ||
	    form == DW_FORM_block4)
		return true;
	Dwarf_Unsigned val = 0;
	int res = form == DW_FORM_sec_offset ? dwarf_global_formref(a, &val, &e)
					      : dwarf_formudata(a, &val, &e);
	if (res != DW_DLV_OK) {
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
		return false;
	}
	uint64_t off = val;
	*off_out = form == DW_FORM_sec_offset ? off : UINT64_MAX;
	if (form == DW_FORM_loclistx) {
		/* no DW_AT_loclists_base: libdwarf takes the first unit's
		 * table, when the section holds one unit */
		uint64_t base = c->has_loclists_base ? c->loclists_base
			      : d->loclists_n >= 4 && d->loclists[0] == 0xff &&
					d->loclists[1] == 0xff &&
					d->loclists[2] == 0xff &&
					d->loclists[3] == 0xff ? 20 : 12;
		if (!slt_dw_listx_offset(d->loclists, d->loclists_n,
					 slt_elf_is_le(d->elf), base, val, &off))
			return false;
		*off_out = off;
	}
	return slt_dw_loclist_ok(d->loclists, d->loclists_n, off, c->addr_size);
}

