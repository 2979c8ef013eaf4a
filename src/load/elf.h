/* SPDX-License-Identifier: MIT */
/*
 * ELF file access for the DWARF loader.  Internal.
 *
 * A struct slt_elf is a file mapped with mmap(MAP_PRIVATE) (never written
 * back), or a private copy of an in-memory image, parsed with libelf
 * (elf_memory).  Section bytes are returned as pointers into that mapping
 * (zero copy) unless the section must be transformed:
 *   - SHF_COMPRESSED (Elf32_Chdr/Elf64_Chdr, ELFCOMPRESS_ZLIB with zlib,
 *     ELFCOMPRESS_ZSTD with libzstd; gABI "Section Compression") and legacy
 *     .zdebug_* sections ("ZLIB" + 8-byte big-endian size) are inflated
 *     into a private buffer;
 *   - in ET_REL files (.o, .ko), sections targeted by SHT_RELA/SHT_REL
 *     sections get their absolute data relocations applied to a private copy
 *     (x86-64 R_X86_64_64/32/32S, i386 R_386_32, AArch64 ABS64/ABS32; other
 *     types are left alone: debug sections only need absolute ones).
 *     Executables and shared objects are never relocated (the kernel's
 *     vmlinux carries .rela.debug_* from --emit-relocs that must NOT be
 *     applied).
 * Every offset and size read from the file is checked against the file
 * size: a truncated or corrupt file gives SLT_ECORRUPT, never a fault.
 */
#ifndef SLT_LOAD_ELF_H
#define SLT_LOAD_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"

struct slt_elf;

/* One section header, in host byte order. */
struct slt_elf_section {
	const char *name;    /* from .shstrtab, "" when unnamed/bad */
	uint32_t type;       /* sh_type */
	uint64_t flags;      /* sh_flags */
	uint64_t addr;       /* sh_addr */
	uint64_t offset;     /* sh_offset, bytes into the file */
	uint64_t size;       /* sh_size: bytes in the file (compressed) */
	uint32_t link, info; /* sh_link, sh_info */
	uint64_t entsize;
};

/*
 * Open path (mmap, libelf).  Returns 0 and *out (free with
 * slt_elf_close()), or SLT_EIO (cannot open/map), SLT_ENOTELF (not ELF),
 * SLT_ECORRUPT (bad headers), SLT_ENOMEM.
 */
int slt_elf_open(const char *path, struct slt_elf **out,
		 struct slt_error *err);

/* Same for an in-memory image: data (size bytes) is copied; name is used in
 * messages. */
int slt_elf_open_mem(const void *data, size_t size, const char *name,
		     struct slt_elf **out, struct slt_error *err);

/* Unmap and free everything, including section buffers.  NULL is a no-op. */
void slt_elf_close(struct slt_elf *e);

/* The path (or name) the file was opened as. */
const char *slt_elf_path(const struct slt_elf *e);
/* ELF facts: ELFCLASS64 -> true; little endian -> true; e_type (ET_REL..);
 * e_machine. */
bool slt_elf_is64(const struct slt_elf *e);
bool slt_elf_is_le(const struct slt_elf *e);
unsigned slt_elf_type(const struct slt_elf *e);
unsigned slt_elf_machine(const struct slt_elf *e);

/* Number of section headers (index 0 is the null section). */
size_t slt_elf_nsections(const struct slt_elf *e);
/* Header of section idx (< slt_elf_nsections()), owned by e. */
const struct slt_elf_section *slt_elf_section(const struct slt_elf *e,
					      size_t idx);
/* Index of the first section called name, or 0 when there is none. */
size_t slt_elf_find_section(const struct slt_elf *e, const char *name);

/*
 * The contents of section idx, decompressed and (ET_REL) relocated as
 * described above; cached, owned by e, valid until slt_elf_close().
 * *size is the uncompressed size in bytes.  SHT_NOBITS and empty sections
 * give *data = NULL, *size = 0.  At least one readable byte follows
 * data[*size - 1] (a zero byte where the buffer is the loader's own): a
 * guard for libdwarf 20210528, which reads one byte past a location list
 * that runs to the end of its section.  Returns 0, SLT_ECORRUPT (beyond EOF, bad
 * compression header, inflate error), SLT_EUNSUPPORTED (unknown
 * compression), SLT_ENOMEM.
 */
int slt_elf_section_data(struct slt_elf *e, size_t idx, const uint8_t **data,
			 size_t *size, struct slt_error *err);

/* True when section idx is stored compressed (SHF_COMPRESSED or .zdebug). */
bool slt_elf_section_compressed(const struct slt_elf *e, size_t idx);

/*
 * Address (st_value) and size in bytes (st_size) of the data symbol `name`
 * (STT_OBJECT, STT_TLS or STT_NOTYPE) from .symtab, else .dynsym: the base of
 * a global or static object for the join (ELF gABI, "Symbol Table").
 * Returns 0, SLT_ENOTFOUND (err's hint names --base/--line), SLT_ECORRUPT.
 */
int slt_elf_symbol(struct slt_elf *e, const char *name, uint64_t *addr,
		   uint64_t *size, struct slt_error *err);

/*
 * The NT_GNU_BUILD_ID note (from an SHT_NOTE section): 0 with *id pointing
 * into e and *len bytes, or SLT_ENOTFOUND.
 */
int slt_elf_build_id(struct slt_elf *e, const uint8_t **id, size_t *len);

/*
 * The NT_GNU_BUILD_ID note among the notes p[0, n) (Elf_Nhdr entries, each
 * name and desc 4-byte aligned, byte order le; an SHT_NOTE section's data,
 * or /sys/kernel/notes): 0 with *id pointing into p and *len bytes, or
 * SLT_ENOTFOUND (none, or a note running past n).
 */
int slt_elf_notes_build_id(const uint8_t *p, size_t n, bool le, const uint8_t **id,
			   size_t *len);

/*
 * .gnu_debuglink: the file name (NUL-terminated inside the section) and
 * the CRC32 (zlib crc32 of the debug file's bytes) stored after it.
 * Returns 0 or SLT_ENOTFOUND (absent or malformed; a name holding '/' or
 * naming "." or "..", which objcopy never writes, is malformed).
 */
int slt_elf_debuglink(struct slt_elf *e, const char **name, uint32_t *crc);

/*
 * Find the separate debug file of the file e was opened from (path), in
 * the order gdb uses (gdb manual, "Debugging Information in Separate
 * Files"):
 *   1. debug_root/.build-id/xx/yyyy.debug   (build-id note, hex)
 *   2. dirname(path)/LINK, dirname(path)/.debug/LINK,
 *      debug_root/dirname(path)/LINK        (.gnu_debuglink, CRC checked)
 * debug_root NULL means "/usr/lib/debug".  The file itself never counts.
 * Returns 0 and a malloc()ed path in *out, or SLT_ENOTFOUND.
 */
int slt_elf_find_debug_file(struct slt_elf *e, const char *path,
			    const char *debug_root, char **out);

/* zlib crc32 of the whole file at path: 0 and *crc, or SLT_EIO (also for
 * anything but a regular file). */
int slt_elf_file_crc32(const char *path, uint32_t *crc);

#endif
