/* SPDX-License-Identifier: MIT */
/*
 * The format-neutral type graph.  Internal.
 *
 * Loaders (src/load/dwarf.c, src/load/btf.c) translate DWARF DIEs or BTF
 * types into this graph; src/layout/build.c turns a struct/union of it into
 * a struct slt_struct.  Keeping one graph means naming, holes, padding and
 * bitfield logic exist once, whatever the input.
 *
 * All nodes and strings live in the arena of the source that made them.
 *
 * Depth: loaders translate fully (members included) the root type and every
 * struct/union contained *by value* in it (members, array elements, through
 * typedefs and qualifiers), recursively.  A struct/union reached only through
 * a pointer or a function signature may be SHALLOW: name, kind and size set,
 * no members (flags has SLT_TF_SHALLOW).  That is all naming needs.
 */
#ifndef SLT_LAYOUT_TYPES_H
#define SLT_LAYOUT_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "structlint/layout.h" /* struct slt_enumerator */

enum slt_tkind {
	SLT_T_VOID = 0,   /* also "unknown": named "void" */
	SLT_T_INT,        /* base integer, char and _Bool types */
	SLT_T_FLOAT,      /* base floating point types */
	SLT_T_ENUM,
	SLT_T_PTR,        /* ref = pointee (NULL: void *) */
	SLT_T_ARRAY,      /* ref = element type; nelems; multi-dimensional
			     arrays are arrays of arrays */
	SLT_T_STRUCT,
	SLT_T_UNION,
	SLT_T_TYPEDEF,    /* name, ref = target */
	SLT_T_CONST,      /* ref = qualified type (NULL: void) */
	SLT_T_VOLATILE,
	SLT_T_RESTRICT,
	SLT_T_ATOMIC,
	SLT_T_FUNC,       /* ref = return type (NULL: void), params */
	SLT_T_FWD,        /* declaration only: fwd_kind says struct/union/enum */
};

enum slt_type_flags {
	SLT_TF_SHALLOW = 1u << 0,   /* members not translated (see above) */
	SLT_TF_FLEX = 1u << 1,      /* array without a bound: `x[]` */
	SLT_TF_VARIADIC = 1u << 2,  /* function with `...` */
	SLT_TF_UNPROTO = 1u << 3,   /* function without a prototype: `f()` */
	SLT_TF_SIGNED = 1u << 4,    /* SLT_T_INT: signed */
	SLT_TF_CHAR = 1u << 5,      /* SLT_T_INT: a char type */
	SLT_TF_BOOL = 1u << 6,      /* SLT_T_INT: _Bool */
	SLT_TF_TYPEDEF_NAME = 1u << 7, /* STRUCT/UNION from find(): anonymous,
				      `name` is the typedef's (pahole prints
				      `typedef struct {...} name;`) */
};

struct slt_type;

struct slt_tmember {
	const char *name;       /* NULL or "" when anonymous */
	struct slt_type *type;  /* never NULL */
	uint64_t bit_offset;    /* bits from the start of the enclosing struct to
				   the first bit of the member (little-endian
				   bit numbering: DW_AT_data_bit_offset, DWARF
				   5 section 5.7.6; BTF member offset) */
	uint32_t bit_size;      /* bitfields: width in bits; 0 otherwise */
	uint32_t alignment;     /* DW_AT_alignment on the member, bytes; 0 */
};

struct slt_type {
	enum slt_tkind kind;
	uint32_t flags;            /* enum slt_type_flags */
	const char *name;          /* NULL or "" when anonymous */
	uint64_t size;             /* bytes: base, enum, ptr, struct, union;
				      array: nelems * element size */
	uint32_t alignment;        /* DW_AT_alignment on the type, bytes; 0 */
	struct slt_type *ref;      /* see enum slt_tkind */
	uint64_t nelems;           /* SLT_T_ARRAY: element count (0 and
				      SLT_TF_FLEX for `[]`) */
	enum slt_tkind fwd_kind;   /* SLT_T_FWD: SLT_T_STRUCT/UNION/ENUM */
	struct slt_tmember *members; /* SLT_T_STRUCT/UNION, unless SHALLOW */
	uint32_t n_members;
	struct slt_type **params;  /* SLT_T_FUNC parameter types */
	uint32_t n_params;
	const char *decl_file;     /* NULL or "" when unknown */
	uint32_t decl_line;        /* 0 when unknown */
	uint64_t origin;           /* loader's id (DIE offset, BTF id), for
				      messages and deduplication */
	/* Added (additive): SLT_T_ENUM without a name: its enumerators in
	 * declaration order (loaders may leave named enums without them;
	 * SLT_TF_SIGNED on the enum: values are signed). */
	const struct slt_enumerator *enumerators;
	uint32_t n_enumerators;
};

#endif
