/* SPDX-License-Identifier: MIT */
/* Debug-section relocations of ET_REL objects, per machine.  See
 * elf_reloc.h. */
#include "load/elf_reloc.h"

#include <elf.h>
#include <stdio.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

enum op { SKIP, ABS, ADD, SUB };

struct how {
	enum op op;
	unsigned width;
};

static const struct {
	unsigned machine;
	const char *name;
} machines[] = {
	{ EM_X86_64, "x86-64" }, { EM_386, "i386" }, { EM_AARCH64, "AArch64" },
	{ EM_ARM, "Arm" }, { EM_PPC, "PowerPC" }, { EM_PPC64, "PowerPC64" },
	{ EM_S390, "s390x" }, { EM_RISCV, "RISC-V" }, { EM_MIPS, "MIPS" },
};

/* What relocation type t of machine m does to a debug section; op SKIP
 * for types that are not data (none, or location expressions' TLS
 * offsets, which layouts never read). */
static struct how how_of(unsigned m, uint32_t t)
{
	switch (m) {
	case EM_X86_64:
		return t == 1 ? (struct how){ ABS, 8 } :       /* R_X86_64_64 */
		       t == 10 || t == 11 ? (struct how){ ABS, 4 } : (struct how){ SKIP, 0 };
	case EM_386:
		return t == 1 ? (struct how){ ABS, 4 } : (struct how){ SKIP, 0 };
	case EM_AARCH64:
		return t == 257 ? (struct how){ ABS, 8 } :
		       t == 258 ? (struct how){ ABS, 4 } : (struct how){ SKIP, 0 };
	case EM_ARM:
		return t == 2 ? (struct how){ ABS, 4 } : (struct how){ SKIP, 0 };
	case EM_PPC:
		return t == 1 ? (struct how){ ABS, 4 } : (struct how){ SKIP, 0 };
	case EM_PPC64:
		return t == 38 ? (struct how){ ABS, 8 } :
		       t == 1 ? (struct how){ ABS, 4 } : (struct how){ SKIP, 0 };
	case EM_S390:
		return t == 22 ? (struct how){ ABS, 8 } :
		       t == 4 ? (struct how){ ABS, 4 } : (struct how){ SKIP, 0 };
	case EM_RISCV:
		if (t == 1 || t == 2)
			return (struct how){ ABS, t == 1 ? 4 : 8 };
		if (t >= 33 && t <= 40)   /* ADD8,16,32,64 then SUB8..64 */
			return (struct how){ t <= 36 ? ADD : SUB, 1u << ((t - 33) % 4) };
		return (struct how){ SKIP, 0 };
	case EM_MIPS:
		return t == 2 ? (struct how){ ABS, 4 } :
		       t == 18 ? (struct how){ ABS, 8 } : (struct how){ SKIP, 0 };
	}
	return (struct how){ SKIP, 0 };
}

bool slt_elf_reloc_machine_known(unsigned machine)
{
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (machines[i].machine == machine)
			return true;
	return false;
}

const char *slt_elf_machine_name(unsigned machine, char *buf, size_t size)
{
	static const struct { unsigned m; const char *n; } more[] = {
		{ EM_SPARC, "SPARC" }, { EM_SPARCV9, "SPARC V9" }, { EM_IA_64, "IA-64" },
		{ 258, "LoongArch" }, { EM_SH, "SuperH" }, { EM_PARISC, "PA-RISC" },
		{ EM_ALPHA, "Alpha" }, { EM_68K, "m68k" },
	};
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (machines[i].machine == machine)
			return machines[i].name;
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		if (more[i].m == machine)
			return more[i].n;
	snprintf(buf, size, "machine %u", machine);
	return buf;
}

/* n bytes (1, 2, 4 or 8) at p in the given byte order */
static uint64_t rdn(const uint8_t *p, unsigned n, bool le)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[le ? i : n - 1 - i] << (8 * i);
	return v;
}

static void wrn(uint8_t *p, unsigned n, uint64_t v, bool le)
{
	for (unsigned i = 0; i < n; i++)
		p[le ? i : n - 1 - i] = (uint8_t)(v >> (8 * i));
}

int slt_elf_apply_relocs(const struct slt_reloc_sec *r, uint8_t *dst, size_t size,
			 struct slt_error *err)
{
	char mb[32];
	if (!slt_elf_reloc_machine_known(r->machine))
		return slt_error_set(err, SLT_EUNSUPPORTED, r->path, (int64_t)r->offset,
				     "link it first, or read a linked binary or its BTF",
				     "a relocatable object for %s: structlint cannot apply its "
				     "debug-section relocations (%s)",
				     slt_elf_machine_name(r->machine, mb, sizeof(mb)), r->name);
	size_t esz = r->is64 ? (r->rela ? 24 : 16) : (r->rela ? 12 : 8);
	size_t ssz = r->is64 ? 24 : 16;
	bool mips64 = r->is64 && r->machine == EM_MIPS;
	for (size_t off = 0; off + esz <= r->nrel; off += esz) {
		const uint8_t *p = r->rel + off;
		uint64_t where, sidx;
		uint32_t type;
		int64_t addend = 0;
		if (mips64) {
			where = rdn(p, 8, r->le);
			sidx = rdn(p + 8, 4, r->le);
			type = p[15];
			if (p[13] || p[14])    /* r_type3, r_type2 */
				return slt_error_set(err, SLT_EUNSUPPORTED, r->path,
						     (int64_t)(r->offset + off), "link it first",
						     "%s: a composed MIPS relocation in a debug section",
						     r->name);
		} else if (r->is64) {
			where = rdn(p, 8, r->le);
			uint64_t info = rdn(p + 8, 8, r->le);
			sidx = info >> 32;
			type = (uint32_t)info;
		} else {
			where = rdn(p, 4, r->le);
			uint32_t info = (uint32_t)rdn(p + 4, 4, r->le);
			sidx = info >> 8;
			type = info & 0xff;
		}
		if (r->rela)
			addend = r->is64 ? (int64_t)rdn(p + 16, 8, r->le)
					 : (int32_t)rdn(p + 8, 4, r->le);
		struct how h = how_of(r->machine, type);
		if (h.op == SKIP)
			continue;
		if (sidx >= r->nsym / ssz || where > size || size - where < h.width)
			return slt_error_set(err, SLT_ECORRUPT, r->path, (int64_t)(r->offset + off),
					     NULL, "%s: relocation out of range", r->name);
		const uint8_t *sp = r->sym + sidx * ssz;
		uint64_t value = r->is64 ? rdn(sp + 8, 8, r->le) : rdn(sp + 4, 4, r->le);
		uint8_t *d = dst + where;
		uint64_t old = rdn(d, h.width, r->le);
		if (!r->rela && h.op == ABS) /* REL: the addend is in place */
			addend = h.width == 8 ? (int64_t)old : (int32_t)old;
		value += (uint64_t)addend;
		if (h.op == ADD)
			value = old + value;
		else if (h.op == SUB)
			value = old - value;
		wrn(d, h.width, value, r->le);
	}
	return 0;
}
