/* SPDX-License-Identifier: MIT */
/*
 * A direct reader of .debug_info DIEs (DWARF 2-5, 32- and 64-bit DWARF,
 * either byte order), without libdwarf: unit headers, abbreviation tables
 * and attribute values, every read checked against its section.  For the
 * hot loops where libdwarf's per-DIE and per-attribute allocations cost
 * most of the time: the layout fingerprint of find() (dwarf_sig.c) and
 * the step over the top-level DIEs of the candidate units (dwarf_walk.c);
 * the translation itself stays on libdwarf.  Uses only dwarf.h's
 * constants; its own fuzz target is tests/fuzz/fuzz_dwarf_raw.c, its
 * cross-check against libdwarf tests/unit/test_dwarf_raw.c.  Internal to
 * src/load.
 *
 * A form this reader does not decode, a reference outside the section or
 * a table that does not parse makes the read fail (-1): the caller then
 * falls back to libdwarf, which reports what is wrong.
 */
#ifndef SLT_LOAD_DWARF_RAW_H
#define SLT_LOAD_DWARF_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One unit of .debug_info: [lo, end), its first DIE at die. */
struct slt_raw_cu {
	uint64_t lo, die, end, abbrev;
	uint8_t version, osz, asz; /* offset size 4/8, address size */
};

struct slt_raw_spec {
	uint32_t at, form;
	int64_t implicit; /* DW_FORM_implicit_const's value */
};

struct slt_raw_abbrev {
	uint32_t tag;
	bool children;
	uint32_t first, n; /* specs[first, first + n) */
	/* skimming: the first n_fixed specs have fixed sizes, fixed bytes in
	 * all; DW_AT_sibling is spec sib (or UINT32_MAX), at byte sib_at
	 * when it lies in that prefix */
	uint32_t n_fixed, fixed, sib, sib_at;
};

/* The abbreviation table of one unit: codes 1..n_codes (a code with tag
 * 0 is absent). */
struct slt_raw_table {
	struct slt_raw_abbrev *code;
	size_t n_codes;
	struct slt_raw_spec *specs;
	size_t n_specs;
	int state; /* 0 not read, 1 read, -1 unusable */
};

struct slt_raw {
	const uint8_t *info, *abbrev, *str, *lstr;
	size_t info_n, abbrev_n, str_n, lstr_n;
	bool le;
	struct slt_raw_cu *cu;
	struct slt_raw_table *tab; /* per unit, read on first use */
	size_t n_cu;
	size_t last; /* the unit of the last lookup */
};

/* Classes of attribute values. */
enum slt_raw_class {
	SLT_RAW_CONST, /* u: constants, flags, addresses, section offsets */
	SLT_RAW_REF,   /* u: a .debug_info offset (made global) */
	SLT_RAW_STR,   /* a string: inline (DW_FORM_string: p, len, no NUL)
			  or u, the offset into .debug_str/.debug_line_str
			  (p NULL): slt_raw_str() */
	SLT_RAW_BLOCK, /* p, len: a block or expression, data16 */
	SLT_RAW_OTHER, /* not resolvable here (strx, type signatures,
			  supplementary files): u holds the raw value */
};

struct slt_raw_attr {
	uint32_t at, form;
	uint8_t cls; /* enum slt_raw_class */
	uint64_t u;
	const uint8_t *p;
	size_t len;
};

#define SLT_RAW_MAX_ATTRS 64

/* A DIE: its tag and attributes, and where what follows it starts
 * (its first child when children is set, else its next sibling). */
struct slt_raw_die {
	uint64_t off, next;
	uint32_t tag;
	bool children;
	size_t cu; /* index in r->cu */
	uint32_t n;
	struct slt_raw_attr a[SLT_RAW_MAX_ATTRS];
};

/* Index the unit headers of info[0, info_n).  0, or -1 when they do not
 * tile the section (r is then empty: every read fails) or memory runs
 * out.  The sections are borrowed. */
int slt_raw_init(struct slt_raw *r, const uint8_t *info, size_t info_n,
		 const uint8_t *abbrev, size_t abbrev_n, const uint8_t *str,
		 size_t str_n, const uint8_t *lstr, size_t lstr_n, bool le);
void slt_raw_free(struct slt_raw *r);

/* The start of the unit of info[0, info_n) that holds byte off, reading
 * only the unit lengths before it; UINT64_MAX when they do not lead
 * there. */
uint64_t slt_raw_unit_of(const uint8_t *info, size_t info_n, bool le,
			 uint64_t off);

/* Read the DIE at off into *d.  0; 1 at a null entry (the end of a list
 * of children: d->next is the byte after it); -1 when it cannot be read. */
int slt_raw_die(struct slt_raw *r, uint64_t off, struct slt_raw_die *d);
/* What it takes to step over the DIE at off: its tag, children, next and
 * DW_AT_sibling (the only attribute in d->a), the other values skipped
 * (by size where the forms have a fixed one).  Returns as slt_raw_die(). */
int slt_raw_skim(struct slt_raw *r, uint64_t off, struct slt_raw_die *d);

/* The offset of the sibling that follows d (skipping its children through
 * DW_AT_sibling, which must point forward inside the unit, or by reading
 * them), or 0 when it cannot be found. */
uint64_t slt_raw_sibling(struct slt_raw *r, const struct slt_raw_die *d);

/* The string of attribute a (class SLT_RAW_STR): *p (no NUL), *len; false
 * when its offset lies outside its section or holds no NUL. */
bool slt_raw_str(const struct slt_raw *r, const struct slt_raw_attr *a,
		 const uint8_t **p, size_t *len);

/* The attribute at of d, or NULL. */
const struct slt_raw_attr *slt_raw_get(const struct slt_raw_die *d,
				       uint32_t at);

#endif
