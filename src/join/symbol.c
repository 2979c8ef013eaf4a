/* SPDX-License-Identifier: MIT */
/* Instance base from an ELF data symbol (join.h: slt_symbol_address). */
#include <elf.h>

#include "load/elf.h"
#include "structlint/join.h"

int slt_symbol_address(const char *path, const char *symbol, uint64_t *addr,
		       uint64_t *size, struct slt_error *err)
{
	struct slt_elf *e = NULL;
	int rc = slt_elf_open(path, &e, err);
	if (rc)
		return rc;
	/* In a relocatable file (.o, .ko) st_value is an offset into the
	 * symbol's section (ELF gABI, "Symbol Values"), not an address any
	 * sample can carry. */
	if (slt_elf_type(e) == ET_REL)
		rc = slt_error_set(err, SLT_EUSAGE, path, -1,
				   "link the program, or give --base ADDR",
				   "--base %s: %s is a relocatable object, its symbol values are section offsets, not addresses",
				   symbol, path);
	else
		rc = slt_elf_symbol(e, symbol, addr, size, err);
	slt_elf_close(e);
	return rc;
}
