/* SPDX-License-Identifier: MIT */
/*
 * Internals of the static access map, shared by src/access/ (.c files):
 *   scope.c   DWARF: functions, their ranges, the variables in scope with
 *             their locations (location lists and expressions)
 *   insn.c    capstone: decoding and classifying one instruction
 *   track.c   the per-function forward pass (register and stack-slot
 *             types) and the attribution of each memory operand
 *   map.c     the public entry points: the CU walk, the result arrays
 *   lines.c   line tables for site positions
 */
#ifndef SLT_ACCESS_INT_H
#define SLT_ACCESS_INT_H

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/types.h"
#include "load/dwarf_int.h"
#include "structlint/access.h"

/* Registers are numbered as DWARF numbers them on x86-64 (System V psABI,
 * figure 3.36): 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp,
 * 8..15 r8..r15. */
#define AREG_N 16
#define AREG_RSP 7
#define AREG_RBP 6
#define AREG_NONE (-1)

/* The argument registers in order (rdi, rsi, rdx, rcx, r8, r9),
 * DWARF-numbered (track.c). */
extern const int acc_arg_regs[6];

/* What a DWARF location says about a register (struct avar.how). */
enum avar_how {
	AV_IN_REG = 1,   /* DW_OP_regN: the register holds the value */
	AV_REG_PLUS,     /* DW_OP_bregN off, DW_OP_stack_value: value = reg + off */
	AV_SLOT,         /* the value is in memory at a stack slot (see
			    struct avar.reg) */
	AV_OBJ,          /* a variable of another type than a pointer (a
			    struct, an array, a scalar) lives at a stack
			    slot, as AV_SLOT */
	AV_VAL,          /* DW_OP_regN of a variable of another type than
			    a pointer: the register holds a typed value */
	AV_ENTRY,        /* DW_OP_entry_value(DW_OP_regN), [DW_OP_plus_uconst
			    off,] DW_OP_stack_value (or DW_OP_GNU_entry_value):
			    the value is what argument register reg held at
			    the function's entry (plus off), not what reg
			    holds now; whichever
			    register the tracked state proves holds that
			    entry value (struct rstate.arg) holds it */
	AV_SCOPE,        /* a pointer to a struct/union declared in the
			    scope [lo, hi), located or not (reg AREG_NONE):
			    a container a container_of may reach */
};

/* One (variable, PC range) location record of a function. */
struct avar {
	uint64_t lo, hi;      /* valid for lo <= pc < hi */
	int64_t off;          /* AV_REG_PLUS, AV_ENTRY: addend; AV_SLOT: slot
				 key */
	uint64_t type_die;    /* .debug_info offset of its DW_AT_type */
	int8_t reg;           /* AV_IN_REG/AV_REG_PLUS: register; AV_ENTRY:
				 the register whose entry value it is; AV_SLOT:
				 the slot is at off from AREG_RSP or AREG_RBP
				 (their tracked stack depth at the PC), or
				 from the CFA (-2: entry %rsp + 8) */
	uint8_t how;          /* enum avar_how */
};

/* One function to analyse. */
struct afunc {
	uint64_t die;         /* .debug_info offset of the subprogram */
	uint64_t cu;          /* its CU */
	const char *name;     /* arena-owned */
	uint64_t *ranges;     /* n_ranges lo, hi pairs, sorted */
	size_t n_ranges;
	struct avar *vars;
	size_t n_vars;
	uint64_t ret_die;     /* DW_AT_type of the function, 0 when void */
	uint8_t bad_loc;      /* a variable's location list unreadable: 4
				 (.debug_loc) or 5 (.debug_loclists); 0 */
	uint64_t bad_loc_off; /* the lowest such list's offset (UINT64_MAX:
				 unknown) */
};

/* A type as the tracker needs it: the struct/union (typedefs and
 * qualifiers stripped, members translated) a pointer points to. */
struct atype {
	const struct slt_type *st; /* SLT_T_STRUCT or SLT_T_UNION, full */
};

/* scope.c --------------------------------------------------------------- */

/* Per-CU context while collecting. */
struct ascope_ctx {
	struct dw *d;
	uint64_t cu_off;
	uint64_t cu_base;     /* CU DW_AT_low_pc (base for DWARF 4 lists) */
	Dwarf_Half version;
	Dwarf_Half addr_size; /* the CU's address size in bytes */
	bool has_loclists_base;
	uint64_t loclists_base; /* DW_AT_loclists_base: offsets table */
};

/* Fill f from the subprogram DIE die (at off): name, ranges, return type,
 * and every variable/parameter location in it and in its lexical blocks
 * and inlined subroutines.  Returns 0 (f->n_ranges may be 0: no code),
 * SLT_ENOMEM.  Unreadable attributes are skipped, not fatal. */
int slt_acc_scope_func(struct ascope_ctx *c, Dwarf_Die die, uint64_t off,
		       struct afunc *f);
/* Free f's arrays. */
void slt_acc_func_free(struct afunc *f);
/* loclists.c: false when a's DWARF 5 location list is out of bounds or
 * malformed (libdwarf would follow it unchecked); *off its offset in
 * .debug_loclists (UINT64_MAX when not known, or an expression). */
bool slt_acc_loclist_checked(struct ascope_ctx *c, Dwarf_Attribute a, uint64_t *off);

/* The struct/union a pointer-typed DIE points to: 0 and *out; else the
 * enum slt_access_reason (SLT_AR_NOT_STRUCT, SLT_AR_NO_TYPE).  When
 * want_ptr is false, the DIE's type itself must be the struct (a stack
 * object). */
int slt_acc_pointee(struct dw *d, uint64_t type_die, const struct slt_type **out);
/* Same for a type node: the struct a pointer node t points to. */
int slt_acc_pointee_t(struct dw *d, const struct slt_type *t,
		      const struct slt_type **out);
/* The full struct/union an object of type t is (typedefs and qualifiers
 * stripped, a shallow node translated in full): 0 and *out, else
 * SLT_AR_NOT_STRUCT or SLT_AR_NO_TYPE (as slt_acc_pointee). */
int slt_acc_object(struct dw *d, const struct slt_type *t,
		   const struct slt_type **out);
/* A variable DIE at a fixed address (DW_AT_location DW_OP_addr, an
 * exprloc): true with its address and the .debug_info offset of its type
 * (through DW_AT_specification/abstract_origin); false otherwise. */
bool slt_acc_scope_global(struct dw *d, Dwarf_Die die, uint64_t *addr,
			  uint64_t *type);
/* globals.c: the sorted address table of the variables of struct/union
 * type (or arrays of them), or of pointer type, at fixed addresses. */
struct aglobal {
	uint64_t lo, hi;                /* [lo, hi) */
	const struct slt_type *t;       /* its type, stripped */
	bool other;                     /* neither a struct/union (or an
					   array of them) nor a pointer: a
					   scalar, an array of scalars */
};
struct aglobals {
	struct aglobal *v;
	size_t n, cap;
	bool percpu;                    /* a .data..percpu section linked at
					   address 0 (the x86-64 kernel's
					   per-CPU area: %gs:off) */
	uint64_t percpu_size;
};
/* Add the variable DIE die when it is one (0, or SLT_ENOMEM). */
int slt_acc_globals_add(struct dw *d, struct aglobals *g, Dwarf_Die die);
/* Sort and drop overlaps (once, after every add). */
void slt_acc_globals_done(struct aglobals *g);
/* The struct and offset at address a: 0 with *st, *off (an element of an
 * array variable: the offset in that element) and *elem (the array's
 * element size, 0 when the variable is no array); else a reason
 * (SLT_AR_GLOBAL when no variable holds a, SLT_AR_NO_TYPE when its
 * struct is only declared, SLT_AR_VAR_TYPED in a variable of another
 * type).  A pointer variable at a: SLT_AR_NOT_STRUCT (the operand is no
 * struct access) with *st the struct it points to (a load of it types the
 * register). */
int slt_acc_globals_find(struct dw *d, const struct aglobals *g, uint64_t a,
			 const struct slt_type **st, int64_t *off,
			 uint64_t *elem);
/* The same for a memory operand without a base register (rip false:
 * absolute, the address is disp) or %rip-relative (rip: next_pc + disp,
 * modulo 2^64), with the %gs segment (gs) or none: with a per-CPU area,
 * a %gs operand must lie in it (the kernel's %gs:disp(%rip) wraps to the
 * per-CPU offset) and any other outside it.  SLT_AR_GLOBAL when no struct
 * variable holds the address (for gs too: the caller says which). */
int slt_acc_globals_at(struct dw *d, const struct aglobals *g, bool gs,
		       bool rip, int64_t disp, uint64_t next_pc,
		       const struct slt_type **st, int64_t *off, uint64_t *elem);
void slt_acc_globals_free(struct aglobals *g);
/* The struct holding byte o of an object of type t (stripped): t itself,
 * or the element of an array (of arrays) of structs, with the offset in it
 * and *elem the outermost array's element size (0: no array).  0, or
 * SLT_AR_NOT_STRUCT (a scalar or an array of them), SLT_AR_NO_TYPE,
 * SLT_AR_BAD_OFFSET. */
int slt_acc_object_at(struct dw *d, const struct slt_type *t, uint64_t o,
		      const struct slt_type **st, int64_t *off, uint64_t *elem);

/* Same type: one node, or two definitions of one named struct/union of
 * one size (each CU has its own copy). */
bool slt_acc_same_type(const struct slt_type *a, const struct slt_type *b);

/* The node of the member of st holding [off, off+width): the innermost
 * member type (structs are entered, arrays are indexed), NULL when none. */
const struct slt_type *slt_acc_member_type(struct dw *d,
					   const struct slt_type *st,
					   uint64_t off, uint32_t width);

/* Walk the member path of st at byte off (structs entered, arrays
 * indexed; in a union the member of type inner first).  Returns true when
 * an object of the struct/union inner (same node, or same name and size)
 * starts at off on that path below st itself (inner NULL: never).  When
 * elem is not NULL, *elem is set to the element size of the innermost
 * array of more than one element (or a flexible one) that the path
 * enters, and left alone when it enters none. */
bool slt_acc_path(struct dw *d, const struct slt_type *st, uint64_t off,
		  const struct slt_type *inner, uint64_t *elem);
/* Same, calling visit(ctx, t) for every struct or union entered below st
 * on the path (the embedded objects holding off). */
bool slt_acc_path_visit(struct dw *d, const struct slt_type *st, uint64_t off,
			const struct slt_type *inner, uint64_t *elem,
			void (*visit)(void *ctx, const struct slt_type *t),
			void *ctx);

/* insn.c ---------------------------------------------------------------- */

/* The DWARF-numbered register a capstone register belongs to (any width),
 * AREG_NONE when none of the 16 general-purpose ones. */
int slt_acc_reg(unsigned cs_reg);
/* True when the capstone register is the full 64-bit one. */
bool slt_acc_reg64(unsigned cs_reg);

/* track.c --------------------------------------------------------------- */

struct amap_out;
/* Analyse f's code: decode, track, attribute; appends sites and counts to
 * out.  code(addr, &bytes, &n) serves the code bytes. */
struct acode {
	const uint8_t *bytes;
	uint64_t addr;
	size_t size;
};
/* Call summaries (calls.c).  While a function is tracked, track.c
 * records what it does through its pointer arguments and which pointers it
 * hands to the functions it calls; calls.c closes the summaries over the
 * call graph and charges them at the call sites. */
struct acall_acc {        /* the function accesses arg + off */
	int64_t off;
	uint32_t func;        /* index in the sorted function array */
	uint16_t width;
	uint8_t arg;          /* 1..6 */
	uint8_t kind;         /* enum slt_access_kind bits */
};
struct acall_edge {       /* caller passes its arg carg + coff as the
			     callee's argument cidx */
	int64_t coff;
	uint32_t caller, callee;
	uint8_t carg, cidx;
};
struct acall_site {       /* a call passing a pointer into st at off */
	uint64_t pc;
	const struct slt_type *st;
	int64_t off;
	uint32_t func, callee;
	uint8_t idx, insn_len;
};
struct aembed {           /* an object of type inner seen inside outer */
	const struct slt_type *inner, *outer;
};
struct acalls {
	struct vec embeds;    /* struct aembed, one per site and level */
	struct vec acc;       /* struct acall_acc */
	struct vec edges;     /* struct acall_edge */
	struct vec sites;     /* struct acall_site */
};
/* Close the summaries (a fixed point over the call edges, at most
 * SLT_ACC_CALL_ROUNDS rounds, SLT_ACC_CALL_MAX offsets per argument) and
 * append a site (via SLT_VIA_CALL) per summarised access at each call
 * site whose offset falls inside its struct.  Returns 0 or SLT_ENOMEM. */
#define SLT_ACC_CALL_ROUNDS 8
#define SLT_ACC_CALL_MAX 64
int slt_acc_calls_apply(struct dw *d, struct acalls *c, struct vec *sites);

/* map.c: an empty map for path whose strings live in blob (owned, freed
 * with the map); the file is opened only when a site's source line or
 * instruction is asked for.  NULL when out of memory (blob not taken). */
struct slt_access_map *slt_acc_map_new_lazy(const char *path, void *blob);

/* Keep sites on st (opts->types)? */
bool slt_acc_type_wanted(const struct slt_access_opts *o, const struct slt_type *st);

struct atrack_env {
	struct dw *d;
	csh cs;
	const struct acode *code;     /* executable sections */
	size_t n_code;
	const struct afunc *all;      /* every function, sorted by low_pc */
	size_t n_all;
	const struct slt_access_opts *opts;
	struct acalls *calls;         /* filled (mutable) */
	const struct aglobals *globals; /* sorted; NULL: none */
};
int slt_acc_track(const struct atrack_env *env, const struct afunc *f,
		  uint32_t func_idx, struct slt_access_map *m,
		  struct vec *sites);

#endif
