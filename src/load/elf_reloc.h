/* SPDX-License-Identifier: MIT */
/*
 * Relocations of relocatable objects (ET_REL: .o, .ko) applied to their
 * non-ALLOC (debug) sections, per machine.  Only the data relocations DWARF
 * uses are applied: absolute 32/64-bit words, and RISC-V's ADD/SUB pairs
 * (label differences kept for linker relaxation).  A machine without a
 * table here is refused (SLT_EUNSUPPORTED, naming it): its debug sections
 * hold unrelocated offsets that would be read as data.
 *
 * Facts from the psABIs (type numbers as in <elf.h>): x86-64 R_X86_64_64/
 * 32/32S, i386 R_386_32, AArch64 R_AARCH64_ABS64/ABS32, Arm R_ARM_ABS32,
 * PowerPC R_PPC_ADDR32, R_PPC64_ADDR64/ADDR32, s390x R_390_64/32, RISC-V
 * R_RISCV_64/32/ADD8..64/SUB8..64, MIPS R_MIPS_32/64 (ELF64 MIPS: r_info
 * is r_sym (32 bits) then r_ssym, r_type3, r_type2, r_type bytes, the
 * composed types type2/type3 must be R_MIPS_NONE).
 */
#ifndef SLT_LOAD_ELF_RELOC_H
#define SLT_LOAD_ELF_RELOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"

struct slt_reloc_sec {
	const char *path;        /* the file, for errors */
	const char *name;        /* the relocation section's name */
	uint64_t offset;         /* its file offset, for errors */
	unsigned machine;        /* e_machine */
	bool is64, le, rela;     /* ELFCLASS64, little-endian, SHT_RELA */
	const uint8_t *rel;      /* the relocation entries */
	size_t nrel;             /* their bytes */
	const uint8_t *sym;      /* the linked symbol table */
	size_t nsym;             /* its bytes */
};

/* Does structlint know machine's debug-section relocations? */
bool slt_elf_reloc_machine_known(unsigned machine);

/* A name for e_machine ("s390x", "PowerPC64", ...; "machine N" when
 * unknown, written into buf). */
const char *slt_elf_machine_name(unsigned machine, char *buf, size_t size);

/* Apply the relocations of r to dst (the target section's private copy,
 * size bytes).  0, SLT_ECORRUPT (an entry out of range, a bad symbol) or
 * SLT_EUNSUPPORTED (the machine has no table, or MIPS composed types);
 * err filled. */
int slt_elf_apply_relocs(const struct slt_reloc_sec *r, uint8_t *dst, size_t size,
			 struct slt_error *err);

#endif
