/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: split DWARF (gcc/clang -gsplit-dwarf).  The object or
 * executable then holds only skeleton units (DWARF 5 DW_UT_skeleton with
 * DW_AT_dwo_name, section 3.1.2; GNU DWARF 4 DW_AT_GNU_dwo_name), and the
 * types are in the .dwo files they name, or in a .dwp package made from
 * them by dwp(1).  A .dwo or .dwp given as FILE is read directly
 * (dwarf.c: its sections are .debug_*.dwo); for a skeleton, a name that is
 * not found is refused with one line that names the .dwo to pass.
 */
#include <stdio.h>
#include <string.h>

#include "load/dwarf_int.h"

#ifndef DW_AT_GNU_dwo_name
#define DW_AT_GNU_dwo_name 0x2130
#endif

/* The dwo name of the CU whose DIE is cu, or NULL. */
static const char *dwo_name(struct dw *d, Dwarf_Die cu, char **comp_dir)
{
	static const Dwarf_Half ats[] = { DW_AT_dwo_name, DW_AT_GNU_dwo_name };
	const char *out = NULL;
	Dwarf_Error e = NULL;
	*comp_dir = NULL;
	for (size_t i = 0; i < 2 && !out; i++) {
		Dwarf_Attribute at;
		char *s = NULL;
		if (dwarf_attr(cu, ats[i], &at, &e) != DW_DLV_OK)
			continue;
		if (dwarf_formstring(at, &s, &e) == DW_DLV_OK && s)
			out = s;
		dwarf_dealloc_attribute(at);
	}
	Dwarf_Attribute at;
	if (out && dwarf_attr(cu, DW_AT_comp_dir, &at, &e) == DW_DLV_OK) {
		if (dwarf_formstring(at, comp_dir, &e) != DW_DLV_OK)
			*comp_dir = NULL;
		dwarf_dealloc_attribute(at);
	}
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	(void)d;
	return out;
}

int slt_dw_split_check(struct dw *d, const char *name)
{
	Dwarf_Unsigned len, typeoff, next = 0;
	Dwarf_Half ver, asz, lsz, esz, cut;
	Dwarf_Off abbr;
	Dwarf_Sig8 sig;
	Dwarf_Error e = NULL;
	size_t n_split = 0;
	char first[400] = "";
	int res;
	while ((res = dwarf_next_cu_header_d(d->dbg, 1, &len, &ver, &abbr, &asz,
					     &lsz, &esz, &sig, &typeoff, &next,
					     &cut, &e)) == DW_DLV_OK) {
		Dwarf_Die cu = NULL;
		if (dwarf_siblingof_b(d->dbg, NULL, 1, &cu, &e) != DW_DLV_OK) {
			if (e)
				dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
			e = NULL;
			continue; /* drain: libdwarf resets after the last CU */
		}
		char *dir;
		const char *nm = dwo_name(d, cu, &dir);
		if (nm && !n_split++) {
			if (nm[0] != '/' && dir && *dir)
				snprintf(first, sizeof(first), "%s/%s", dir, nm);
			else
				snprintf(first, sizeof(first), "%s", nm);
		}
		dwarf_dealloc_die(cu);
	}
	if (res == DW_DLV_ERROR && e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	if (!n_split)
		return 0;
	char more[64] = "";
	if (n_split > 1)
		snprintf(more, sizeof(more), " and %zu more .dwo file%s",
			 n_split - 1, n_split > 2 ? "s" : "");
	slt_error_clear(d->err);
	return slt_error_set(d->err, d->rc = SLT_ENODEBUG, d->path, -1,
			     "pass the .dwo file as FILE, or a .dwp package "
			     "made from the .dwo files by dwp(1) or llvm-dwp(1)",
			     "no struct or union %s%s%sin this file's DWARF: it "
			     "is split DWARF (-gsplit-dwarf), the types of its "
			     "skeleton units are in %s%s",
			     name ? "'" : "", name ? name : "", name ? "' " : "",
			     first, more);
}
