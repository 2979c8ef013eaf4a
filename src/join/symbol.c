/* SPDX-License-Identifier: MIT */
/* Instance base from an ELF data symbol (join.h: slt_symbol_address). */
#include "load/elf.h"
#include "structlint/join.h"

int slt_symbol_address(const char *path, const char *symbol, uint64_t *addr,
		       uint64_t *size, struct slt_error *err)
{
	struct slt_elf *e = NULL;
	int rc = slt_elf_open(path, &e, err);
	if (rc)
		return rc;
	rc = slt_elf_symbol(e, symbol, addr, size, err);
	slt_elf_close(e);
	return rc;
}
