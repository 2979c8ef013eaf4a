/* SPDX-License-Identifier: MIT */
/*
 * structlint — the layout model: a struct's (or union's) members, holes,
 * padding and cache lines, as read from DWARF or BTF.
 *
 * Units: every `offset` and `size` is in bytes; every `bit_offset` and
 * `bit_size` is in bits.  The cacheline size is a parameter of the functions
 * that need it, never stored in the model.
 *
 * A struct slt_layout is immutable once loaded.  It owns all of its strings
 * and arrays; slt_layout_free() releases everything at once.
 */
#ifndef STRUCTLINT_LAYOUT_H
#define STRUCTLINT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default cache line size in bytes (x86-64, most arm64 client parts). */
#define SLT_CACHELINE_DEFAULT 64u

/* The debug-info formats a layout can come from. */
enum slt_format {
	SLT_FORMAT_NONE = 0,
	SLT_FORMAT_DWARF = 1, /* DWARF 2..5 via libdwarf */
	SLT_FORMAT_BTF = 2,   /* BTF via libbpf (.BTF section or raw file) */
};

enum slt_kind {
	SLT_KIND_STRUCT = 1,
	SLT_KIND_UNION = 2,
};

/* slt_member.flags */
enum slt_member_flags {
	SLT_MEMBER_BITFIELD = 1u << 0,  /* bit_offset/bit_size are valid */
	SLT_MEMBER_ANON = 1u << 1,      /* unnamed struct/union member */
	SLT_MEMBER_INLINE = 1u << 2,    /* composite printed with its own members
					   following it (anonymous, or --expand);
					   for an array of them (always when the
					   element type is anonymous), the members
					   are those of element 0 */
	SLT_MEMBER_UNION = 1u << 3,     /* the member's type is a union (an
					   SLT_MEMBER_INLINE array: its element
					   type is) */
	SLT_MEMBER_COMPOSITE = 1u << 4, /* the member's type is a struct or union
					   (after typedefs and qualifiers) */
	SLT_MEMBER_FLEX = 1u << 5,      /* flexible array member (`int a[];`) */
	SLT_MEMBER_ZERO_SIZE = 1u << 6, /* size 0: flexible array, empty struct
					   such as CACHELINE_PADDING(), group
					   markers (`__u8 __cacheline_group_begin__x[0]`) */
	SLT_MEMBER_GROUP_BEGIN = 1u << 7, /* name starts __cacheline_group_begin__ */
	SLT_MEMBER_GROUP_END = 1u << 8,   /* name starts __cacheline_group_end__ */
	SLT_MEMBER_PACKED = 1u << 9,      /* SLT_MEMBER_INLINE struct whose type is
					   __packed__ (declared or inferred the
					   way pahole infers it) */
	/* Added after v1 (additive): */
	SLT_MEMBER_ENUM_SIGNED = 1u << 10, /* enumerators are signed values */
};

/* One enumerator of an enum (added after v1 of this header, additive). */
struct slt_enumerator {
	const char *name;
	int64_t value;   /* as written; print as unsigned unless the enum is
			    signed (slt_member.flags SLT_MEMBER_ENUM_SIGNED) */
};

/*
 * One member.  Members of inline composites (anonymous struct/union members,
 * and named ones when expanded) follow their parent in pre-order, so a plain
 * loop over slt_struct.members visits them in the order pahole prints them.
 */
struct slt_member {
	const char *name;      /* "" for anonymous members */
	const char *type;      /* C type as pahole spells it, without the
				  member name: "long unsigned int[5][5]",
				  "struct lruvec_stats_percpu *",
				  "int (*)(int, char *)", "struct {...}" */
	const char *decl_head; /* the declaration is decl_head + name + decl_tail:
				  "long unsigned int" + "lru_zone_size" + "[5][5]",
				  "int (*" + "fp" + ")(int, char *)" */
	const char *decl_tail;
	uint64_t offset;       /* bytes from the start of the outermost struct
				  (for bitfields: of the storage unit) */
	uint64_t size;         /* bytes (storage unit size for bitfields) */
	uint32_t bit_offset;   /* bitfields only: bits from the start of the
				  storage unit, counted as pahole prints them */
	uint32_t bit_size;     /* bitfields only: width in bits; 0 otherwise */
	uint32_t alignment;    /* forced alignment in bytes (DW_AT_alignment,
				  DWARF 5 section 2.24, or inferred the way
				  pahole infers __aligned__); 0 when natural */
	uint32_t flags;        /* enum slt_member_flags */
	int32_t parent;        /* index of the enclosing inline member in
				  slt_struct.members, -1 at top level */
	uint32_t depth;        /* nesting depth, 0 at top level */
	uint32_t n_children;   /* direct inline children (SLT_MEMBER_INLINE) */
	uint64_t type_padding; /* tail padding in bytes of the member's own
				  struct type ("last struct has N bytes of
				  padding"), 0 when none or not a struct */
	uint32_t type_alignment; /* SLT_MEMBER_INLINE only: forced alignment
				  in bytes of the member's struct/union type,
				  printed after its closing brace; 0 if none */
	/* Added after v1 of this header (additive): */
	const char *typedef_name; /* --expand only: the member's type (or
				  array element type) is a typedef chain,
				  "u8 -> __u8", that pahole -E prints as
				  "/" "* typedef u8 -> __u8 *" "/ " before the
				  resolved type; decl_head/decl_tail then
				  spell the resolved type ("unsigned char",
				  "struct tag" or "struct" when printed
				  inline) while `type` keeps the typedef's
				  name; NULL otherwise */
	const struct slt_enumerator *enumerators; /* the member's type is an
				  anonymous enum, printed inline with its
				  values as pahole does; NULL otherwise */
	uint32_t n_enumerators;
	uint32_t enum_size;    /* bytes of that enum type (pahole adds
				  __packed__ when it is not 4) */
	uint32_t natural_alignment; /* bytes: alignof() of the member's type
				  as laid out: its natural alignment
				  (pahole's tag__natural_alignment()) raised
				  by any forced alignment on the type or
				  inside it; not `alignment` above, which is
				  the member's own forced alignment.  At
				  least 1.  Used by the layout advisor to
				  place members legally. */
	const struct slt_struct *pointee; /* the member's type is a pointer
				  to an anonymous struct or union, which
				  pahole prints inline ("struct {" ... "} *
				  name;", offsets from the pointee's start):
				  that layout, for the text view; not part
				  of this struct's layout.  NULL otherwise */
};

/* slt_hole.flags */
enum slt_hole_flags {
	SLT_HOLE_BITS = 1u << 0, /* size is in bits: unused bits after a
				    bitfield inside its storage unit */
};

/*
 * A gap between two members, or (SLT_HOLE_BITS) between two bitfields.
 * Tail padding is not a hole: see slt_struct.padding.
 */
struct slt_hole {
	uint64_t offset; /* bytes: first unused byte (bit holes: the byte
			    offset of the storage unit) */
	uint64_t size;   /* bytes, or bits when SLT_HOLE_BITS */
	uint32_t after;  /* index in slt_struct.members of the member the hole
			    follows */
	int32_t parent;  /* enclosing inline member index, -1 at top level */
	uint32_t flags;  /* enum slt_hole_flags */
};

/* One definition of a struct or union. */
struct slt_struct {
	const char *name;        /* tag, or the typedef name for `typedef
				    struct {...} name` */
	enum slt_kind kind;
	enum slt_format format;  /* where this layout was read from */
	uint64_t size;           /* bytes, sizeof() */
	uint32_t alignment;      /* bytes: the struct's alignment (largest
				    member alignment, or forced) */
	uint32_t forced_alignment; /* bytes, 0 unless __aligned__ on the type */
	const char *decl_file;   /* DW_AT_decl_file; "" when unknown (BTF) */
	uint32_t decl_line;      /* DW_AT_decl_line; 0 when unknown */
	struct slt_member *members; /* pre-order, see struct slt_member */
	size_t n_members;        /* all entries of members[] */
	size_t n_top_members;    /* members at depth 0 */
	struct slt_hole *holes;    /* in offset order, all levels */
	size_t n_holes;
	uint64_t padding;        /* tail padding, bytes */
	uint32_t bit_padding;    /* unused bits at the end of the last
				    bitfield storage unit before padding */

	/* pahole's closing summary, precomputed (bytes unless named bits). */
	uint64_t sum_members;    /* bytes of non-bitfield members + bitfield
				    storage as pahole sums it */
	uint32_t n_byte_holes;
	uint64_t sum_byte_holes;
	uint64_t sum_bitfield_bits;
	uint32_t n_bit_holes;
	uint64_t sum_bit_holes;  /* bits */
	uint32_t n_paddings;     /* members whose struct type has tail padding */
	uint64_t sum_paddings;   /* bytes */
	uint32_t n_forced_alignments;
	/* Added after v1 of this header (additive): */
	bool packed;             /* __packed__, declared or inferred (pahole's
				    class__infer_packed_attributes rule) */
	uint32_t n_forced_holes; /* holes right before a forced-aligned
				    top-level member ("forced holes:") */
	uint64_t sum_forced_holes; /* bytes */
	bool expanded;           /* built with slt_load_opts.expand (the text
				    writer then uses pahole -E's columns) */
	bool typedef_named;      /* anonymous struct/union known by its
				    typedef: `name` is the typedef's, and
				    pahole prints `typedef struct {...} name;` */
};

/* A loaded set of layouts.  Owns everything reachable from it. */
struct slt_layout {
	struct slt_struct *structs; /* in the order the names were asked for;
				       several entries for one name when the
				       file holds different definitions */
	size_t n_structs;
	const char *path;           /* file the layouts came from */
	enum slt_format format;     /* format actually used */
	void *priv_;                /* private: the arena */
};

/* Options for slt_layout_load(); zero-initialise for the defaults. */
struct slt_load_opts {
	/*
	 * Formats to try, in order.  n_formats == 0 selects the default:
	 * DWARF when the file has DWARF, otherwise BTF (see the man page,
	 * "INPUTS").
	 */
	enum slt_format formats[2];
	size_t n_formats;
	bool expand;             /* show named nested struct/union members
				    inline (pahole --expand_types) */
	const char *debug_root;  /* where separate debug files live;
				    NULL = "/usr/lib/debug" */
	/* Added after v1 (additive): */
	bool no_cache;           /* neither read nor write the name index in
				    the cache directory (structlint/cache.h) */
};

/* Path of the running kernel's BTF, the input when no file is given. */
#define SLT_KERNEL_BTF_PATH "/sys/kernel/btf/vmlinux"

/*
 * Load the layouts of the structs or unions called names[0..n_names) from
 * path (an ELF file with DWARF or .BTF, a separate debug file, or a raw BTF
 * file; NULL means SLT_KERNEL_BTF_PATH).  A name may also be a typedef of a
 * struct or union.  Identical definitions from different compile units are
 * returned once; different ones each once, in file order.
 *
 * On success returns 0 and stores a new layout in *out (free it with
 * slt_layout_free()).  On failure returns a negative SLT_E* code, fills err,
 * and leaves *out NULL: SLT_EIO, SLT_ENOTELF, SLT_ENODEBUG, SLT_ECORRUPT,
 * SLT_ENOTFOUND (err->hint names the closest existing types),
 * SLT_EDECLONLY, SLT_ENOMEM, SLT_EUSAGE.
 */
int slt_layout_load(const char *path, const char *const *names,
		    size_t n_names, const struct slt_load_opts *opts,
		    struct slt_layout **out, struct slt_error *err);

/*
 * Every struct and union of path, as pahole prints them without -C: the
 * definitions that have a name, in file order (DWARF: compile unit order,
 * then DIE order; BTF: type id order), the first definition of each name
 * only.  Same return codes as slt_layout_load() (SLT_ENOTFOUND never).
 */
int slt_layout_load_all(const char *path, const struct slt_load_opts *opts,
			struct slt_layout **out, struct slt_error *err);

/* Release a layout from slt_layout_load().  NULL is a no-op. */
void slt_layout_free(struct slt_layout *layout);

/* One entry of slt_layout_list(). */
struct slt_type_info {
	const char *name;
	enum slt_kind kind;
	uint64_t size;          /* bytes */
	const char *decl_file;  /* "" when unknown */
	uint32_t decl_line;     /* 0 when unknown */
};

/* The result of slt_layout_list(); owns its entries and strings. */
struct slt_type_list {
	struct slt_type_info *types; /* sorted by name, then size */
	size_t n_types;
	void *priv_;
};

/*
 * List the struct and union definitions in path whose name matches the
 * fnmatch(3) pattern (NULL matches all), one entry per distinct
 * (name, kind, size).  Returns 0 and a new list in *out (free with
 * slt_type_list_free()), or a negative SLT_E* code with err filled.
 */
int slt_layout_list(const char *path, const char *pattern,
		    const struct slt_load_opts *opts,
		    struct slt_type_list **out, struct slt_error *err);

/* Release a list from slt_layout_list().  NULL is a no-op. */
void slt_type_list_free(struct slt_type_list *list);

/* Number of cache lines of cacheline_size bytes an object of size bytes
 * spans when it starts on a line boundary (pahole's "cachelines:"). */
uint64_t slt_cachelines(uint64_t size, unsigned cacheline_size);

/*
 * The cache lines a member occupies, as 0-based line indices
 * [*first, *last] relative to the struct start.  A zero-size member occupies
 * the line its offset falls on.  Bitfields occupy their storage unit's lines.
 */
void slt_member_lines(const struct slt_member *m, unsigned cacheline_size,
		      uint64_t *first, uint64_t *last);

/* Name of a format ("dwarf", "btf") and the reverse; parse returns
 * SLT_FORMAT_NONE for an unknown name. */
const char *slt_format_name(enum slt_format f);
enum slt_format slt_format_parse(const char *name);

#ifdef __cplusplus
}
#endif
#endif
