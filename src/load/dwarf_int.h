/* SPDX-License-Identifier: MIT */
/*
 * The DWARF source's internals, shared by its files.  Internal to
 * src/load/dwarf*.c:
 *   dwarf.c       libdwarf object access glue (sections served from
 *                 load/elf.h), open and close, the error helper
 *   dwarf_type.c  DIE attributes and DIE -> struct slt_type translation
 *   dwarf_bound.c array bounds (subrange -> element count)
 *   dwarf_walk.c  the CU walk and its string pre-filter
 *   dwarf_find.c  find, list, suggest
 *   dwarf_sig.c   the layout fingerprint of find() (load/dwarf_raw.h)
 */
#ifndef SLT_LOAD_DWARF_INT_H
#define SLT_LOAD_DWARF_INT_H

#include <dwarf.h>
#include <libdwarf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "load/dwarf_raw.h"
#include "load/elf.h"
#include "load/index.h"
#include "load/source.h"
#include "load/dwarf_files.h"

/* libdwarf 0.x renamed the object access structs (suffix _a, om_ fields). */
#ifdef DW_LIBDWARF_VERSION_MAJOR
typedef Dwarf_Obj_Access_Interface_a obj_iface_t;
typedef Dwarf_Obj_Access_Methods_a obj_methods_t;
typedef Dwarf_Obj_Access_Section_a obj_section_t;
typedef Dwarf_Unsigned sec_index_t;
#define SEC_FIELD(f) as_##f
#else
typedef Dwarf_Obj_Access_Interface obj_iface_t;
typedef Dwarf_Obj_Access_Methods obj_methods_t;
typedef Dwarf_Obj_Access_Section obj_section_t;
typedef Dwarf_Half sec_index_t;
#define SEC_FIELD(f) f
#endif

#define MAX_DEPTH 512
#define ST_BUSY 1u
#define ST_FULL 2u

/* A graph node and the loader's bookkeeping around it. */
struct node {
	struct slt_type t;  /* first: (struct node *)&t == node */
	uint8_t state;      /* ST_* */
	uint32_t brk;       /* pointer/struct/func nodes open when created */
};

/* The source.  err/rc hold the current operation's error (the first one
 * wins); every helper below returns d->rc or sets it. */
struct dw {
	struct slt_source base;
	struct slt_elf *elf;
	char *path;
	Dwarf_Debug dbg;
	obj_iface_t iface;
	struct slt_arena *arena;   /* the type nodes (slt_dw_reset_nodes) */
	struct slt_arena *keep;    /* what lives as long as the source */
	const uint8_t *info, *str, *lstr, *abbrev;
	size_t info_n, str_n, lstr_n, abbrev_n;
	/* the direct reader (dwarf_sig.c): raw_state 0 not set up, 1 ready,
	 * -1 the unit headers do not parse */
	struct slt_raw raw;
	int raw_state;
	/* bytes of .debug_rnglists and .debug_loclists: a DW_FORM_sec_offset
	 * into them is checked against these before libdwarf follows it */
	const uint8_t *loclists;
	size_t rnglists_n, loclists_n;
	int64_t info_foff; /* file offset of .debug_info, -1: compressed */
	bool can_filter;
	bool dwo;          /* a split DWARF .dwo or .dwp: .debug_*.dwo */
	struct node **map; /* open addressing on t.origin */
	size_t map_cap, map_n;
	Dwarf_Off files_cu; /* CU of the cached file table, or ~0 */
	struct slt_dw_files files;
	const uint8_t *line; /* .debug_line (or .debug_line.dwo) bytes */
	size_t line_n;
	bool line_tried;     /* slt_dw_line_section() was called */
	uint32_t brk;
	unsigned depth;
	struct slt_error *err;
	int rc;
	/* The first section that could not be served to libdwarf in this
	 * operation (om_load), reported only if libdwarf then fails. */
	int load_rc;
	struct slt_error load_err;
	/* The name index (dwarf_index.c): use_cache unless --no-cache;
	 * ix_state 0 not read yet, 1 read (possibly empty), -1 unusable (no
	 * build-id, cache off). */
	bool use_cache;
	int ix_state;
	/* The view (dwarf.c slt_dw_view()): a second libdwarf instance over
	 * .debug_info from byte vbase on; while a replay uses it, dbg is vdbg
	 * and obase is vbase (libdwarf's offsets are then base bytes short of
	 * the file's: slt_dw_get_die(), slt_dw_dieoffset() convert). */
	uint64_t obase, vbase;
	size_t info_idx; /* section index of .debug_info, 0: none */
	Dwarf_Debug vdbg;
	obj_iface_t viface;
	struct dw_view { struct dw *d; } vobj;
	bool ix_dirty; /* changed since read: written back on close */
	struct slt_index ix;
};

/* The .debug_info offset of die (libdwarf's plus d->obase). */
int slt_dw_dieoffset(struct dw *d, Dwarf_Die die, Dwarf_Off *off,
		     Dwarf_Error *e);
/* dwarf_siblingof_b(d->dbg, c, 1, next, e) that refuses a sibling at or
 * before c: a corrupt DW_AT_sibling pointing back would loop a walk
 * forever (fuzz_dwarf found one).  DW_DLV_OK, DW_DLV_NO_ENTRY, or
 * DW_DLV_ERROR with *next NULL and *e libdwarf's error, or NULL for a
 * sibling that points back.  (dwarf.c) */
int slt_dw_sibling(struct dw *d, Dwarf_Die c, Dwarf_Die *next, Dwarf_Error *e);
/* Set up the view from the unit that holds .debug_info offset off on
 * (once per source; a later call for an earlier unit is refused).  0, or
 * -1 when there is none (the caller uses d->dbg as it is). */
int slt_dw_view(struct dw *d, uint64_t off);

/* A DW_AT_data_member_location given as an expression (DWARF 2 style,
 * DWARF 5 section 5.7.6): DW_OP_plus_uconst N or DW_OP_constu N
 * [DW_OP_plus], the whole of p[0, len), as N in *v.  False for anything
 * else.  (dwarf_type.c) */
bool slt_dw_member_loc_const(const uint8_t *p, size_t len, uint64_t *v);

/* Record a corrupt-DWARF error at .debug_info offset off (what: the thing
 * being read; e: libdwarf's error, freed here, or NULL).  Returns
 * SLT_ECORRUPT.  (dwarf.c) */
int slt_dw_fail(struct dw *d, Dwarf_Error e, uint64_t off, const char *what);
/* The file offset of .debug_info+off for messages, or -1 (compressed
 * section, off beyond it). */
int64_t slt_dw_file_off(const struct dw *d, uint64_t off);

/* How the constant of an array bound or count was given (dwarf_bound.c). */
enum dw_bkind {
	BF_DATA,     /* DW_FORM_data1..8: signedness of the index type */
	BF_UNSIGNED, /* DW_FORM_udata */
	BF_SIGNED,   /* DW_FORM_sdata, DW_FORM_implicit_const */
	BF_DYNAMIC,  /* expression, location list or DIE reference: not a
			constant (the value is 0) */
};
struct dw_bform {
	uint8_t kind;  /* enum dw_bkind */
	uint8_t bytes; /* BF_DATA: the form's size */
};

/* The attributes the loader uses, of one DIE (sizes in bytes, bit_size/
 * dbo/bo in bits; name points into libdwarf's string sections).  count,
 * upper and lower hold the bits of the constant as read, without sign
 * extension; fcount, fupper and flower say how to take them. */
struct attrs {
	const char *name;
	uint64_t type, byte_size, bit_size, dbo, bo, loc, align, file, line;
	uint64_t count, enc;
	int64_t upper, lower;
	struct dw_bform fcount, fupper, flower;
	bool has_type, has_byte_size, has_dbo, has_bo, has_loc, has_count;
	bool has_upper, has_lower, decl, proto;
};

/* dwarf_lists.c: 0 when the unit headers of the .debug_rnglists or
 * .debug_loclists bytes p[0..n) tile the section, else SLT_ECORRUPT with
 * err filled (sec: the section's name). */
/* True when the DWARF 5 location list at byte off of .debug_loclists
 * p[0..n) is well formed up to its DW_LLE_end_of_list (DWARF 5 section
 * 7.7.3): every entry and every counted expression inside the section.
 * libdwarf 20210528 skips a counted expression's length unchecked
 * (counted_loc_descr), so a list is checked here before libdwarf reads it.
 * asz: the CU's address size (4 or 8). */
bool slt_dw_loclist_ok(const uint8_t *p, size_t n, uint64_t off, unsigned asz);
/* The section offset of entry idx of the offsets table that starts at
 * base (the CU's DW_AT_loclists_base/rnglists_base: the byte after a unit
 * header) in p[0..n), or false when idx or the entry is out of range. */
bool slt_dw_listx_offset(const uint8_t *p, size_t n, bool le, uint64_t base,
			 uint64_t idx, uint64_t *off);
int slt_dw_check_lists(const uint8_t *p, size_t n, bool le, const char *sec,
		       const char *path, struct slt_error *err);

/* dwarf_type.c */
int slt_dw_read_attrs(struct dw *d, Dwarf_Die die, uint64_t off,
		      struct attrs *r);
/* dwarf_bound.c: one DW_AT_lower_bound/upper_bound/count attribute: its
 * bits (*v) and form (*f); 0, SLT_ECORRUPT or SLT_EUNSUPPORTED (data16 and
 * other forms that cannot hold a bound). */
int slt_dw_bound_read(struct dw *d, Dwarf_Attribute a, uint64_t off,
		      uint64_t *v, struct dw_bform *f);
/* The element count of the subrange die (at off, attributes a): *known
 * false for a flexible dimension (no bound) or one computed at run time;
 * 0 or the error (d->rc). */
int slt_dw_subrange_count(struct dw *d, Dwarf_Die die, uint64_t off,
			  const struct attrs *a, uint64_t *n, bool *known);

/* DW_AT_name of die: 0 and *name (NULL when it has none; points into
 * libdwarf's sections), or SLT_ECORRUPT. */
int slt_dw_name(struct dw *d, Dwarf_Die die, const char **name);
/* DW_AT_decl_file index -> path (owned by d, valid until the next call for
 * another CU), or NULL. */
const char *slt_dw_decl_file(struct dw *d, Dwarf_Die die, uint64_t idx);
/* Free the cached file table of decl_file(). */
void slt_dw_files_free(struct dw *d);
/* The file table of the CU whose DIE is at .debug_info offset cu (one CU
 * cached at a time, shared with slt_dw_decl_file), or NULL when the CU has
 * no line table or its header is malformed: libdwarf 20210528's line
 * functions (dwarf_srclines_b, dwarf_linesrc) must not be given such a CU,
 * they allocate what its counts say and read past its tables. */
const struct slt_dw_files *slt_dw_cu_files(struct dw *d, Dwarf_Off cu);
/* Load .debug_line (.debug_line.dwo) into d->line once, when a file name
 * is first needed; a section that cannot be read leaves it NULL. */
void slt_dw_line_section(struct dw *d);
/* The node for the DIE at off (full: by-value structs get members).  NULL
 * with d->rc set on error. */
struct slt_type *slt_dw_tr(struct dw *d, uint64_t off, bool full);
/* t without typedefs and qualifiers. */
const struct slt_type *slt_dw_strip(const struct slt_type *t);
int slt_dw_get_die(struct dw *d, uint64_t off, Dwarf_Die *die);

/* Called for each child (or top-level DIE) with its tag. */
typedef int (*top_fn)(struct dw *, Dwarf_Die, Dwarf_Half, void *);
/* Call fn for each child of die (at off); stops on error. */
int slt_dw_children(struct dw *d, Dwarf_Die die, uint64_t off, top_fn fn,
		    void *ctx);

/* A growable malloc()ed array of elt-byte elements. */
struct vec {
	void *v;
	size_t n, cap, elt;
};
/* A new zeroed element, or NULL with SLT_ENOMEM recorded. */
void *slt_dw_vec_push(struct dw *d, struct vec *v);

/* dwarf_walk.c: sorted .debug_info offsets where a filter pattern was seen;
 * a CU is a candidate when one lies inside it. */
struct hits {
	uint64_t *pos;
	size_t n, cap;
};
int slt_dw_scan(struct dw *d, const char *const *names, size_t n,
		struct hits *h, bool *any);
/* Call fn on every top-level DIE of every CU (of the candidate CUs when h
 * is not NULL).  Stops at fn's first non-zero return and returns it. */
int slt_dw_walk(struct dw *d, const struct hits *h, top_fn fn, void *ctx);

/* Forget every translated node (the arena and the map), so memory stays
 * bounded when many types are translated one after the other (--all);
 * pointers to earlier nodes become invalid.  0 or SLT_ENOMEM. (dwarf.c) */
int slt_dw_reset_nodes(struct dw *d);

/* dwarf_sig.c: the layout fingerprint of the struct/union definition at
 * off (see there for what it leaves out), with the memo m of one find
 * (zeroed first; slt_dw_sig_free()).  Never fails: a DIE that cannot be
 * read directly gets a value of its own. */
struct sig_ent;
struct slt_dw_sig {
	struct sig_ent *e;
	size_t cap, n;
	size_t cu1; /* the unit of the entries + 1 */
};
uint64_t slt_dw_sig(struct dw *d, struct slt_dw_sig *m, uint64_t off);
/* d->raw set up (on first use): true when the direct reader can be used. */
bool slt_dw_raw_ready(struct dw *d);
void slt_dw_sig_free(struct slt_dw_sig *m);

/* One definition found: the struct/union node, and the DIE it came from
 * with its enum slt_index_kind (to find it again through the index). */
struct slt_dw_found {
	struct slt_type *t;
	uint64_t off;
	uint8_t kind;
};

/* One name's result: found[0, n) (malloc()ed), rc 0, SLT_ENOTFOUND or
 * SLT_EDECLONLY; from_index: answered by the name index. */
struct slt_dw_result {
	struct slt_dw_found *found;
	size_t n;
	int rc;
	bool from_index;
};

/* The struct/union a typedef node t names: the node itself, or a copy
 * carrying the typedef's name for `typedef struct {...} name`; NULL when it
 * is no struct/union (d->rc set only on error).  *fwd: the tag of a
 * forward-declared struct/union it names, or NULL. (dwarf_find.c) */
struct slt_type *slt_dw_typedef_target(struct dw *d, struct slt_type *t,
				       const char **fwd);

/* dwarf_index.c: answer names[0..n) from the cached index where it holds
 * them (res[i].from_index), every DIE checked before use; an entry that
 * does not check out drops every answer from the index (the caller walks).
 * 0 or SLT_ENOMEM. */
int slt_dw_index_find(struct dw *d, const char *const *names, size_t n,
		      struct slt_dw_result *res);
/* Record the walked results of res[0..n) in the index (written back by
 * slt_dw_index_flush()). */
void slt_dw_index_save(struct dw *d, const char *const *names, size_t n,
		       const struct slt_dw_result *res);
/* The source's distinct() (load/source.h): name's entry keeps only the
 * definitions with keep[i] set, when it holds the n that were returned. */
void slt_dw_index_distinct(struct slt_source *s, const char *name,
			   const bool *keep, size_t n);
/* Write the index back when it changed (best effort: a cache that cannot
 * be written is not an error), then free it.  (dw_close) */
void slt_dw_index_flush(struct dw *d);

/* dwarf_split.c: when the file has split DWARF skeleton units, replace
 * the error in d->err (name not found; NULL: nothing found) with one that
 * names the .dwo files to read, and return SLT_ENODEBUG; else 0 (the error
 * left as it is). */
int slt_dw_split_check(struct dw *d, const char *name);

/* dwarf_all.c: every named struct/union definition, the first of each
 * name in file order (pahole's selection), fully translated, to cb. */
int slt_dw_all(struct slt_source *s, slt_source_list_cb cb, void *ctx,
	       struct slt_error *err);

/* dwarf_find.c: the source operations (see load/source.h). */
int slt_dw_find_many(struct slt_source *s, const char *const *names,
		     size_t n, struct slt_found *out, struct slt_error *err);
int slt_dw_find(struct slt_source *s, const char *name,
		struct slt_type ***out, size_t *n, struct slt_error *err);
int slt_dw_list(struct slt_source *s, slt_source_list_cb cb, void *ctx,
		struct slt_error *err);
int slt_dw_suggest(struct slt_source *s, const char *name, size_t max,
		   char ***out, struct slt_error *err);

#endif
