/* SPDX-License-Identifier: MIT */
/*
 * structlint — the static access map: which instructions of a binary load,
 * store, atomically modify or take the address of which struct member.
 *
 * Input: an x86-64 ELF file with DWARF (the code and the debug info in the
 * same file: an unstripped program, a vmlinux, a .o).  For every function
 * with code (a DW_TAG_subprogram with DW_AT_low_pc/high_pc or DW_AT_ranges)
 * the pass decodes its instructions with capstone (detail mode) and, for
 * each explicit memory operand, decides
 *   - the kind: load, store, both (a plain read-modify-write such as
 *     `addl $1,4(%rdi)`), atomic RMW (lock prefix, xchg with memory), or
 *     address-taken (lea);
 *   - the width in bytes (the operand size);
 *   - the struct or union the base register points into and the offset,
 *     from (a) the DWARF locations of the variables and formal parameters
 *     in scope at that PC, inlined subroutines' parameters included
 *     (DW_OP_regN: the register holds the pointer; DW_OP_bregN off,
 *     DW_OP_stack_value: the register is the pointer minus off; DW_OP_fbreg
 *     and DW_OP_breg7: a pointer kept in a stack slot), and (b) a forward
 *     pass over the instructions in address order that carries types the
 *     way perf's data-type profiling does (tools/perf/util/annotate-data.c,
 *     tools/perf/arch/x86/annotate/instructions.c): register moves, a load
 *     of a pointer member gives the destination the pointee type, `lea
 *     off(%r)` and `add $imm,%r` give a pointer into the struct, spills to
 *     stack slots and reloads, push/pop, calls clobber the caller-saved
 *     registers (a direct call gives %rax the callee's DWARF return type).
 *     Branch targets take the state common to every forward edge into them
 *     (back edges are not waited for: loops start from the state they are
 *     entered with, as perf's single-path replay does); a loop body reached
 *     by its back edge alone (after an unconditional jump) starts from the
 *     state the forward jumps pending over it agree on, less what the loop
 *     writes (src/access/loops.c).
 * When DWARF and the tracked state both give a struct, DWARF wins, unless
 * the tracked pointer is to an outer struct that embeds DWARF's at that
 * offset (an access to address_space.i_mmap_rwsem through an inode's
 * &inode->i_data is charged to inode.i_data.i_mmap_rwsem); among several
 * DWARF variables in the register (an inlined helper's parameter pointing
 * at an embedded member and the caller's pointer to the whole object) the
 * one whose struct holds the access and is the largest wins, so the access
 * is charged to the outermost known object.  A memory operand with an
 * index register is attributed only when base + displacement lies in an
 * array member whose element size the scale steps over.
 *
 * Calls (src/access/calls.c): each function's summary says what it does
 * through its pointer arguments (argument + offset, width, kind), closed
 * over the call graph (at most SLT_ACC_CALL_ROUNDS = 8 calls deep, at most
 * 64 entries per argument: more marks a generic memory routine and drops
 * its summary); a direct call (or tail jump) whose argument register
 * points into a known struct gets one site per summary entry (via
 * SLT_VIA_CALL), so `lea 0x4d0(%rbx),%rdi; call _raw_spin_lock` is an
 * atomic RMW of zone.lock.  The ftrace hook (call __fentry__ first in a
 * function) and paravirt calls through a %rip-relative slot keep the
 * registers; other calls clobber the caller-saved ones.
 *
 * Globals (src/access/globals.c): a %rip-relative or absolute operand
 * whose address lies in a variable at a fixed address (DW_TAG_variable at
 * CU level with DW_AT_location DW_OP_addr or DW_OP_addrx) of struct/union
 * type, or an array of them, is charged to that struct at the offset in the
 * variable (in the element for an array; with an index register, when the
 * scale steps over the array's elements or an array member's); via is
 * SLT_VIA_DWARF.  `lea var+off(%rip)` gives the register a pointer into
 * it (calls then charge their summaries); an 8-byte load of a pointer
 * variable (to a struct) gives the register its pointee (the operand
 * itself stays unattributed: no struct is accessed).  Per-CPU: when the file has a
 * .data..percpu section linked at address 0 (the x86-64 kernel), a %gs:
 * operand without a base register (absolute, or %gs:disp(%rip), which
 * wraps to the offset) addresses the per-CPU variable at that offset
 * (loading the 6.1 kernel's per-CPU current_task types `current`);
 * `mov $var_offset,%reg` followed by `add %gs:this_cpu_off,%reg`
 * (this_cpu_ptr) or `add __per_cpu_offset(,%idx,8),%reg` (per_cpu_ptr,
 * an 8-byte memory operand with only an index register) makes the
 * register a pointer into that per-CPU struct variable.  A %gs operand
 * with a base register (`add %rdx,%gs:(%rcx)`: a __percpu pointer member,
 * typed by DWARF as the plain pointer) is attributed as without the
 * segment (this CPU's copy of the object); when it is not, its reason
 * stays per-cpu-tls.
 *
 * Stack frame operands (src/access/stack.c): an operand based on %rsp,
 * or on a register holding a stack address (the frame pointer, a lea of a
 * slot), at a tracked depth below the entry %rsp, is looked up among the
 * DWARF variables located in stack slots at that PC (DW_OP_fbreg with a
 * DW_OP_call_frame_cfa, %rsp or %rbp frame base; DW_OP_breg7/breg6): a
 * variable of struct/union type (or an array of them) holding the byte
 * makes it a struct access at that offset (a lea of it gives the register
 * a pointer into the struct, so calls charge their summaries); a variable
 * of another type makes it "stack-local", as does a reload from a slot
 * whose tracked value has a type or an 8-byte spill of a typed register
 * (typed: a pointer, a value loaded from a typed datum, a register DWARF
 * locates a variable of any type in, a call's value of the callee's
 * return type);
 * the rest is "stack", perf's "(stack operation)" pseudo type.  After
 * `and $-N,%rsp` (a realigned frame, pad unknown) depths count from the
 * realigned %rsp and CFA-relative slots are not matched.
 *
 * Coverage (slt_access_func.reasons, slt_access_map.reasons,
 * slt_access_summary.reasons): the denominator n_mem is every explicit
 * memory operand of the decoded instructions (one per instruction: the
 * first), lea, nop, prefetch and clflush left out; implicit stack
 * accesses (push, pop, call, ret) have no operand and are not counted.
 * reasons[SLT_AR_OK] / n_mem is the share attributed to a struct member;
 * slt_access_resolved() / n_mem the share resolved to a type (a struct
 * member, a typed stack datum, a variable of another type: perf's
 * data-type profiling's sense of a type found, whose "(stack operation)"
 * push/pop are outside our denominator); the same over
 * n_mem - reasons[SLT_AR_STACK] leaves the untyped stack operations out.
 * The access JSON and text outputs give all three.
 *
 * What the map does not do (counted in the coverage figures, never
 * guessed): function-scope statics and addresses in no variable
 * ("global"), %gs operands through an untyped register and %fs (TLS)
 * ("per-cpu-tls"), the per-CPU base added from another register, stack
 * slots whose variable or value has no type ("stack"), indirect calls'
 * summaries, kernel alternatives/paravirt replacement code (the file's
 * default code is decoded).

 * Units: addresses are the ELF virtual addresses (sh_addr based, unrelocated
 * for PIE); offset and width are bytes.  All strings are owned by the map.
 */
#ifndef STRUCTLINT_ACCESS_H
#define STRUCTLINT_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "structlint/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* slt_access_site.kind: a bit set. */
enum slt_access_kind {
	SLT_ACCESS_LOAD = 1u << 0,   /* reads the memory operand */
	SLT_ACCESS_STORE = 1u << 1,  /* writes it (LOAD|STORE: a plain,
					non-atomic read-modify-write) */
	SLT_ACCESS_ATOMIC = 1u << 2, /* with LOAD|STORE: lock-prefixed, or
					xchg with a memory operand */
	SLT_ACCESS_ADDR = 1u << 3,   /* lea: the address is computed, memory
					is not touched */
	SLT_ACCESS_BITS = 1u << 4,   /* with STORE: a bit operation (or, and,
					xor, bts, btr, btc; atomic or not)
					that sets or clears flags (added
					after v1: the kind names are
					unchanged) */
};

/* How a site's struct was found. */
enum slt_access_via {
	SLT_VIA_DWARF = 0,  /* a variable located in the base register */
	SLT_VIA_TRACKED,    /* propagated through the instructions */
	SLT_VIA_CALL,       /* a call passing the member's address to a
			       function whose summary accesses it: pc is the
			       call, kind and width the callee's access */
};

/* Why a memory operand was not attributed to a struct (coverage).  Order
 * is the JSON/text order; SLT_AR_OK counts the attributed ones. */
enum slt_access_reason {
	SLT_AR_OK = 0,
	SLT_AR_NO_VAR,      /* no variable and no tracked type for the base
			       register at that PC ("no location"), nor a
			       pointer variable located in it a few
			       straight-line instructions later with the
			       register unwritten (lookahead.c) */
	SLT_AR_NOT_STRUCT,  /* the register holds a pointer, but to a base
			       type, void or a function ("lost type") */
	SLT_AR_NO_TYPE,     /* pointee only declared, or its DWARF unreadable */
	SLT_AR_BAD_OFFSET,  /* offset outside the pointee (container_of,
			       negative displacement) and no unique
			       container among the structs the pointer
			       variables in scope point to (container.c) */
	SLT_AR_STACK,       /* "stack": a stack frame operand with no type
			       (perf's "(stack operation)"): a spill or
			       reload of an untyped value, an outgoing
			       argument, a saved register */
	SLT_AR_GLOBAL,      /* %rip-relative or absolute, in no struct
			       variable the DWARF places there */
	SLT_AR_SEGMENT,     /* %gs/%fs: per-CPU or TLS, in no per-CPU
			       struct variable (or through a register) */
	SLT_AR_STACK_LOCAL, /* "stack-local" (added after v1): a stack frame
			       operand whose type is known but is no
			       struct: a local or parameter of another
			       type (scalar, array of scalars, pointer) in
			       its DWARF stack slot, or a spill or reload of
			       a value of known type.  Resolved in perf's
			       sense, not attributed to a struct. */
	SLT_AR_VAR_TYPED,   /* "typed-variable" (added after v1): in a
			       global or per-CPU variable (DW_OP_addr) of
			       another type than a struct: a scalar, an
			       array of scalars, a pointer variable itself
			       (whose load types the register).  Resolved,
			       not attributed to a struct. */
	SLT_AR_INDEXED,     /* "indexed" (added after v1): base+index*scale
			       with an index register of unknown value whose
			       scale steps over no array at base+disp: the
			       offset is unknown (nothing is charged to the
			       displacement's member) */
	SLT_AR_BAD_LOC,     /* "corrupt-location" (added after v1): no
			       location for the base register in a function
			       where a variable's location list could not be
			       read (.debug_loc/.debug_loclists corrupt) */
	SLT_AR_N
};

/* Stable lower-case name of a reason ("ok", "no-location", ...). */
const char *slt_access_reason_name(enum slt_access_reason r);
/* What a reason means, in a few words (the access text's table). */
const char *slt_access_reason_help(enum slt_access_reason r);

/* The operands resolved to a type among reasons[SLT_AR_N] (see
 * "Coverage" above): ok + stack-local + typed-variable. */
uint64_t slt_access_resolved(const uint64_t *reasons);

/* One attributed memory operand. */
struct slt_access_site {
	uint64_t pc;        /* instruction address */
	const char *type;   /* struct/union name ("" when anonymous) */
	uint64_t type_size; /* bytes: tells definitions of one name apart */
	int64_t offset;     /* bytes from the start of the struct, in
			       [0, type_size) */
	uint32_t width;     /* bytes accessed (operand size); 0 for lea */
	uint32_t kind;      /* enum slt_access_kind bits */
	uint32_t func;      /* index in slt_access_map.funcs */
	uint8_t via;        /* enum slt_access_via */
	uint8_t insn_len;   /* instruction length in bytes */
};

/* See slt_access_map.embeds. */
struct slt_access_embed {
	const char *type;       /* struct/union name */
	uint64_t type_size;     /* bytes */
	uint32_t n_containers;  /* distinct named types holding it */
};

/* One analysed function (a concrete DW_TAG_subprogram with code). */
struct slt_access_func {
	const char *name;   /* DW_AT_name, through abstract_origin/
			       specification; "" when none */
	uint64_t low_pc;    /* lowest address of its code */
	uint64_t size;      /* bytes of code (sum of its ranges) */
	uint64_t cu;        /* .debug_info offset of its compile unit */
	uint32_t n_insns;   /* instructions decoded */
	uint32_t n_mem;     /* memory operands (lea and nop excluded) */
	uint32_t reasons[SLT_AR_N]; /* n_mem split by outcome */
};

struct slt_access_map {
	const char *path;             /* the file analysed */
	struct slt_access_site *sites; /* sorted by pc */
	size_t n_sites;
	struct slt_access_func *funcs; /* in DWARF order */
	size_t n_funcs;
	/* Totals over every analysed function. */
	uint64_t n_insns;             /* instructions decoded */
	uint64_t n_mem;               /* memory operands (lea, nop excluded) */
	uint64_t n_lea;               /* lea instructions seen */
	uint64_t n_undecodable;       /* bytes capstone could not decode
					 (skipped one at a time) */
	uint64_t n_no_code;           /* functions whose code is not in the
					 file (SHT_NOBITS, separate debug
					 file, outside every section) */
	uint64_t reasons[SLT_AR_N];   /* n_mem split by outcome */
	void *priv_;
	/* Added (additive): the named structs and unions seen embedded in
	 * another on the member path of an attributed access, sorted by
	 * (type, type_size): how many distinct named container types hold
	 * each (a building block such as list_head or spinlock: hundreds; an
	 * object embedded in one owner: 1). */
	struct slt_access_embed *embeds;
	size_t n_embeds;
	/* Added (additive): functions with a variable location list that
	 * could not be read, the section (4: .debug_loc, 5: .debug_loclists,
	 * 0: none) and the lowest such list's offset (UINT64_MAX: unknown). */
	uint64_t n_bad_loc_funcs;
	unsigned bad_loc_version;
	uint64_t bad_loc_off;
};

/* Options; zero-initialise for the defaults. */
struct slt_access_opts {
	/* Keep only the sites whose struct is one of these names (NULL: all).
	 * Coverage counts cover every function either way. */
	const char *const *types;
	size_t n_types;
	/* Added (additive): called now and then while functions are
	 * analysed (done of total), NULL for none. */
	void (*progress)(void *ctx, size_t done, size_t total);
	void *progress_ctx;
};

/*
 * Build the map of path.  Returns 0 and *out (free with slt_access_free()),
 * or a negative SLT_E* with err filled: SLT_EIO, SLT_ENOTELF, SLT_ENODEBUG
 * (no DWARF, or no function with code), SLT_EUNSUPPORTED (not x86-64),
 * SLT_ECORRUPT (debug info unreadable as a whole), SLT_ENOMEM.  Parts of the
 * DWARF that cannot be read (one location list, one function) do not fail
 * the whole: they show as unattributed operands.
 */
int slt_access_build(const char *path, const struct slt_access_opts *opts,
		     struct slt_access_map **out, struct slt_error *err);

/* What can be told from path's headers before any DWARF is read (and
 * before any cache lookup): raw BTF (no machine code), an ELF machine
 * other than x86-64 (named: "aarch64 (183)") and an ELF without an
 * executable section holding bytes (a separate debug file) are
 * SLT_EUNSUPPORTED with err filled; anything else (unreadable included:
 * the open that follows says why) 0. */
int slt_access_check_file(const char *path, struct slt_error *err);

/* Same for an in-memory ELF image (copied): the fuzz target's entry. */
int slt_access_build_mem(const void *data, size_t size, const char *name,
			 const struct slt_access_opts *opts,
			 struct slt_access_map **out, struct slt_error *err);

/* The n_containers of (type, size) in map->embeds, 0 when never seen
 * embedded. */
uint32_t slt_access_containers(const struct slt_access_map *map,
			       const char *type, uint64_t size);

/* ---- the map as bytes (src/access/persist.c), for the cache ---------- */

/* The payload version of slt_access_save(); the cache kind is "access". */
#define SLT_ACCESS_CACHE_KIND "access"
#define SLT_ACCESS_CACHE_VERSION 4u

/* map as one malloc()ed buffer (*out, *size bytes): its sites, functions,
 * totals and embedded-type counts.  Returns 0 or SLT_ENOMEM. */
int slt_access_save(const struct slt_access_map *map, void **out, size_t *size,
		    struct slt_error *err);

/* A map from slt_access_save()'s bytes (copied), every count, index,
 * string and order checked against size (the blocks' checksums are the
 * cache's to check: slt_access_load_types()): 0 and *out, SLT_ECORRUPT
 * (err says what), SLT_ENOMEM.  The binary path is opened only when a site's
 * source line or instruction is asked for (nothing is then found when it
 * cannot be). */
int slt_access_load(const void *data, size_t size, const char *path,
		    struct slt_access_map **out, struct slt_error *err);

/* A saved map read part by part (the cache file: src/cli/access_cache.c):
 * head holds the payload's first head_size bytes, at least its head
 * (slt_access_head_size()); read(ctx, off, buf, n) reads the payload's
 * bytes [off, off + n) past it (0, or a negative SLT_E*: SLT_ECORRUPT when
 * they are not there); size is the whole payload's. */
struct slt_access_reader {
	const void *head;
	size_t head_size;
	uint64_t size;
	int (*read)(void *ctx, uint64_t off, void *buf, size_t n);
	void *ctx;
};

/* The bytes of the payload's head (everything but the sites: what every
 * load reads) as its header gives them, 0 when they cannot be. */
size_t slt_access_head_size(const void *data, size_t size);

/* As slt_access_load(), reading only the sites of the named types (any
 * size; NULL: all): the map holds those sites alone, by pc, and every
 * function, total and embedded-type count.  Each block of sites read is
 * checked against its checksum in the head (the cache checks the head):
 * a corrupt block is found when a load reads it.  0 and *out,
 * SLT_ECORRUPT, SLT_EIO, SLT_ENOMEM. */
int slt_access_load_types(const struct slt_access_reader *r,
			  const char *const *types, size_t n_types,
			  const char *path, struct slt_access_map **out,
			  struct slt_error *err);

/* The type names whose sites slt_access_summarize() and
 * slt_access_evidence() read for the n structs: each one's name and the
 * struct and union types of its members (arrays of them too), each once,
 * as a malloc()ed array of malloc()ed strings (*count of them; free with
 * slt_access_names_free()).  NULL when out of memory. */
struct slt_struct;
char **slt_access_type_names(const struct slt_struct *structs, size_t n,
			     size_t *count);
void slt_access_names_free(char **names, size_t count);

/* Release a map.  NULL is a no-op. */
void slt_access_free(struct slt_access_map *map);

/*
 * The source position of site s from its compile unit's line table: the
 * file path (owned by the map) in *file and the line in *line.  Returns 0,
 * or SLT_ENOTFOUND when the line table has no row for that PC (then *file
 * is "" and *line 0).
 */
int slt_access_site_source(struct slt_access_map *map,
			   const struct slt_access_site *s, const char **file,
			   uint32_t *line);

/*
 * The instruction at site s in AT&T syntax as objdump prints it
 * ("lock addl $0x1,0x10(%rdi)"), into buf (NUL-terminated, truncated to
 * size).  Returns buf.
 */
char *slt_access_site_insn(const struct slt_access_map *map,
			   const struct slt_access_site *s, char *buf,
			   size_t size);

/* ---- one struct's view of the map ------------------------------------- */

struct slt_struct;

/* The innermost members of st that the bytes of site overlap, in offset
 * order, into out (at most cap; SLT_ACCESS_SITE_MEMBERS_MAX holds any
 * site): a 16-byte movups over four ints is an access of each (an array
 * member counts once, whatever its elements); an address site (width 0)
 * names the member at its offset alone.  Returns how many; 0: in no
 * member.  The rule of slt_access_summarize() and of the IP-sample
 * weighting (structlint/weight.h). */
#define SLT_ACCESS_SITE_MEMBERS_MAX 64   /* a 64-byte AVX-512 access */
size_t slt_access_site_members(const struct slt_struct *st,
			       const struct slt_access_site *site, long *out,
			       size_t cap);

/* Static access counts of one member: sites (instructions), not
 * executions, each in one role (slt_access_role(): the words of every
 * output): a load; a store (bit operations included); an rmw (an atomic
 * or a plain read-modify-write).  Direct sites (the instruction accesses
 * the member: via DWARF or tracked) and call-derived sites (SLT_VIA_CALL:
 * a call passing the member's address to a function whose summary
 * accesses it) are counted apart; one (pc, member, kind) counts once. */
struct slt_access_member {
	uint64_t loads, stores, rmw; /* direct sites */
	uint64_t addr_taken;      /* lea sites */
	uint32_t n_funcs;         /* distinct functions with a direct load,
				     store or rmw site */
	/* Added (additive): call-derived sites, by the callee's access, and
	 * the functions with such a site and no direct one (so n_funcs +
	 * n_call_funcs functions touch the member in all). */
	uint64_t call_loads, call_stores, call_rmw;
	uint32_t n_call_funcs;
};

/* A site's role in the counts: SLT_ACCESS_LOAD, SLT_ACCESS_STORE (bit
 * operations included), SLT_ACCESS_LOAD | SLT_ACCESS_STORE ("rmw": atomic
 * or plain), or 0 for lea. */
uint32_t slt_access_role(uint32_t kind);

/* A member's counts as text, the same in `access` and --write-classes:
 * "ld=N st=N rmw=N [lea=N] funcs=N" and, when it has call-derived sites,
 * " calls: ld=N st=N rmw=N funcs=+N".  Returns buf. */
char *slt_access_member_text(const struct slt_access_member *m, char *buf,
			     size_t size);

/* slt_access_summarize()'s result; free with slt_access_summary_free(). */
struct slt_access_summary {
	const struct slt_struct *layout; /* borrowed */
	struct slt_access_member *members; /* parallel to layout->members:
					      sites go to the innermost
					      member, parents sum their
					      subtree (n_funcs: distinct
					      functions in the subtree) */
	struct slt_access_member outside; /* sites in holes or padding */
	size_t *sites;            /* indices into map->sites of this struct's
				     sites, by pc */
	long *site_member;        /* parallel to sites: innermost member
				     index, -1 for a hole or padding */
	size_t n_sites;
	/* Coverage over the functions that touch the struct at least once
	 * (the "analysed functions" of the man page). */
	uint32_t n_funcs;
	uint64_t n_mem;
	uint64_t reasons[SLT_AR_N];
};

/*
 * The sites of map on the struct s (same name and size), per member
 * (innermost member holding the offset, as the join places samples).
 * Returns 0 and *out, or SLT_ENOMEM with err filled.
 */
int slt_access_summarize(const struct slt_access_map *map,
			 const struct slt_struct *s,
			 struct slt_access_summary **out, struct slt_error *err);
void slt_access_summary_free(struct slt_access_summary *sum);

/* A site's kind as a word: "load", "store", "load-store", "rmw",
 * "address". */
const char *slt_access_kind_name(uint32_t kind);

/* ---- static member classes (src/access/classify.c) -------------------- */

#include "structlint/classes.h"

/* The evidence for one unit (the outermost named member, as findings pair
 * them: the members of an anonymous struct or union at top level are
 * units of their own): distinct functions (of the map)
 * by what they do to it, direct and call-derived sites alike.  A site's
 * role is slt_access_role()'s: an atomic RMW or a plain read-modify-write
 * instruction (add/inc to memory) is an rmw ("updates" below), a store or
 * bit operation stores, a load loads; lea sites do not count. */
struct slt_access_evidence {
	uint64_t loads, stores, updates; /* sites on the member itself */
	uint32_t n_funcs;                 /* functions with any site */
	uint32_t loaders, storers, updaters; /* functions with such a site */
	uint32_t writers;      /* functions with a store or an update */
	uint32_t atomics;      /* functions with an atomic update */
	uint64_t via_sites;    /* sites on the member's struct type itself
				  (its container unknown), counted in the
				  functions above: the member is an embedded
				  struct whose type is held by at most
				  SLT_ACCESS_EMBED_MAX named struct types */
	const char *via_type;  /* that type as the layout spells it, or NULL */
	uint32_t via_containers; /* slt_access_containers() of the type */
};

/* Rule parameters (structlint(1), STATIC CLASSES). */
#define SLT_ACCESS_HOT_FUNCS 2   /* in-place updaters needed without an
				    atomic update */
#define SLT_ACCESS_READ_RATIO 4  /* read-mostly: writers at most 1 in 4 */
#define SLT_ACCESS_MANY 4        /* read-mostly: loaded by this many
				    functions or more */
#define SLT_ACCESS_EMBED_MAX 4   /* embedded types held by more struct
				    types are building blocks (list_head,
				    spinlock, atomic_t): their own sites say
				    nothing about one container's member */

/*
 * The class of a member from its evidence (functions counted once each):
 *   - hot-write: writers are at least half of the functions touching it,
 *     and one of them updates it atomically (lock prefix, xchg: concurrent
 *     writers) or SLT_ACCESS_HOT_FUNCS or more update it in place (a
 *     counter; plain stores alone are how configuration is set, and bit
 *     operations, SLT_ACCESS_BITS, count as stores: they change a state);
 *   - read-mostly: SLT_ACCESS_MANY or more functions load it and writers
 *     are at most one in SLT_ACCESS_READ_RATIO of the functions touching
 *     it;
 *   - SLT_CLASS_NONE otherwise (no site, or in between: left to the
 *     reviewer; findings see such a member as unknown).
 * Counts are of instructions and functions in the binary, not executions:
 * a proposal from how the code is written, for a person to review.
 */
enum slt_class slt_access_rule(const struct slt_access_evidence *e);

/* The evidence of every unit of sum's struct, calloc'ed parallel to
 * sum->layout->members (other members left zero); free(). */
int slt_access_evidence(const struct slt_access_map *map,
			const struct slt_access_summary *sum,
			struct slt_access_evidence **out, struct slt_error *err);

/* A classes file (include/structlint/classes.h format) for the n structs:
 * a header naming the rule, a [STRUCT] section each, one "member class"
 * line per classified unit (its member path) with its evidence in a comment,
 * and a comment for members without a site.  Returns 0, SLT_ENOMEM,
 * SLT_EIO. */
int slt_access_classes_write(FILE *out, const struct slt_access_map *map,
			     struct slt_access_summary *const *sums, size_t n,
			     struct slt_error *err);

/* ---- writers (src/report/access_out.c) -------------------------------- */

struct slt_report_opts;

struct slt_access_write_opts {
	bool sites;    /* list every site (function, source, instruction) */
	bool pretty;   /* JSON: indented */
};

/* The pahole layout of each summary's struct with "ld= st= rmw= lea=
 * funcs=" after each accessed member, then its coverage line and (sites)
 * its sites.  Returns 0 or SLT_EIO/SLT_ENOMEM. */
int slt_report_access_text(FILE *out, struct slt_access_map *map,
			   struct slt_access_summary *const *sums, size_t n,
			   const struct slt_report_opts *ropts,
			   const struct slt_access_write_opts *opts,
			   struct slt_error *err);

/* JSON schema identifier of slt_report_access_json()'s output. */
#define SLT_SCHEMA_ACCESS "structlint.access/v1"

/* One JSON document of schema SLT_SCHEMA_ACCESS (structlint(1), "ACCESS
 * JSON").  Returns 0 or SLT_EIO/SLT_ENOMEM. */
int slt_report_access_json(FILE *out, struct slt_access_map *map,
			   struct slt_access_summary *const *sums, size_t n,
			   const struct slt_access_write_opts *opts,
			   struct slt_error *err);

#ifdef __cplusplus
}
#endif
#endif
