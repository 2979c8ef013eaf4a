/* SPDX-License-Identifier: MIT */
/*
 * The DWARF name index kept in the cache (include/structlint/cache.h, kind
 * "index"): struct/union name -> the .debug_info offsets of the DIEs that
 * hold each of its distinct definitions, so a repeated lookup translates
 * those DIEs directly instead of walking the compile units.  Internal to
 * src/load (dwarf_find.c fills and uses it); independent of libdwarf so
 * that its parser can be fuzzed alone (tests/fuzz/fuzz_index.c).
 *
 * Payload (little-endian):
 *   0  4  number of entries
 *   4  4  zero
 *   8  8  size in bytes of .debug_info the offsets are into
 *   16 8  fingerprint of .debug_info (slt_index_fingerprint)
 *   24    entries: u16 name length (1..SLT_INDEX_MAX_NAME), the name (no
 *         NUL, none inside), u32 number of definitions (>= 1), then per
 *         definition u64 DIE offset (< .debug_info size) and u8 kind
 *         (enum slt_index_kind).
 * The parser checks every length and offset against the payload and the
 * section; anything else makes the whole index unusable (it is rebuilt).
 */
#ifndef SLT_LOAD_INDEX_H
#define SLT_LOAD_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SLT_INDEX_VERSION 1u
#define SLT_INDEX_MAX_NAME 4096u

enum slt_index_kind {
	SLT_IX_STRUCT = 0,     /* struct/union/class DIE named NAME */
	SLT_IX_TYPEDEF = 1,    /* typedef DIE named NAME of a struct/union */
	SLT_IX_FWD_STRUCT = 2, /* reached through a typedef NAME of a forward
				  declaration: a definition of that tag */
	SLT_IX_FWD_TYPEDEF = 3,
};

struct slt_index_def {
	uint64_t off;  /* .debug_info offset of the DIE */
	uint8_t kind;  /* enum slt_index_kind */
};

struct slt_index_ent {
	char *name;    /* NUL-terminated copy */
	struct slt_index_def *defs;
	uint32_t n_defs;
};

struct slt_index {
	struct slt_index_ent *e;
	size_t n, cap;
	bool sorted;
	uint64_t info_size, fingerprint;
};

/* A fingerprint of .debug_info (its size and up to 64 KiB at each end),
 * told apart from another debug file that has the same build-id. */
uint64_t slt_index_fingerprint(const uint8_t *info, size_t n);

/* Parse payload p[0, n) for a .debug_info of info_size bytes with
 * fingerprint fp into *ix (zeroed first; free with slt_index_free()).
 * 0, SLT_ECORRUPT (anything out of place) or SLT_ENOMEM. */
int slt_index_parse(const void *p, size_t n, uint64_t info_size, uint64_t fp,
		    struct slt_index *ix);
/* The entry for name, or NULL. */
const struct slt_index_ent *slt_index_get(struct slt_index *ix,
					  const char *name);
/* Add or replace name's entry (defs copied).  0 or SLT_ENOMEM. */
int slt_index_put(struct slt_index *ix, const char *name,
		  const struct slt_index_def *defs, size_t n);
/* Serialise into a malloc()ed payload.  0 or SLT_ENOMEM. */
int slt_index_write(struct slt_index *ix, void **out, size_t *n);
void slt_index_free(struct slt_index *ix);

#endif
