/* SPDX-License-Identifier: MIT */
/*
 * Internals of the per-function pass shared by track.c (state, DWARF
 * records, attribution, the pass) and effects.c (what each instruction
 * does to the tracked state, calls included).
 */
#ifndef SLT_ACCESS_TRACK_INT_H
#define SLT_ACCESS_TRACK_INT_H

#include "access/access_int.h"

enum rkind {
	RK_NONE = 0,
	RK_PTR,    /* points into st at byte off (off may lie outside the
		      object after pointer arithmetic: see arith) */
	RK_STACK,  /* a stack address: off = bytes from the %rsp at entry */
	RK_PCPU,   /* the per-CPU offset of st + off (mov $runqueues,%reg):
		      no address until a CPU's per-CPU base is added */
	RK_INDEX,  /* an integer: an unknown value plus off (add $imm onto a
		      register of unknown value: an array offset the
		      compiler folded into an index register) */
	RK_CONST,  /* an integer of known value off (mov $imm, then add/sub
		      of immediates) */
	RK_SCALAR, /* a value of known type that points to no struct: loaded
		      from a struct member, a typed variable or a typed stack
		      slot (perf's TSR_KIND_TYPE); st NULL.  Only its spills
		      and reloads use it (stack.c: "stack-local") */
};

/* A kind that says what the value is a type of (not RK_NONE, nor the
 * plain integers RK_INDEX and RK_CONST). */
static inline bool acc_rk_typed(uint8_t kind)
{
	return kind != RK_NONE && kind != RK_INDEX && kind != RK_CONST;
}

struct rstate {
	const struct slt_type *st;
	int64_t off;
	uint8_t kind;   /* enum rkind */
	uint8_t arith;  /* reached by pointer arithmetic: off is taken modulo
			   the struct size (an element of an array of st) */
	uint8_t via;    /* enum slt_access_via of the type's origin */
	uint8_t arg;    /* 1..6: the value is the function's pointer argument
			   arg (rdi, rsi, rdx, rcx, r8, r9 at entry) plus
			   aoff bytes (call summaries, calls.c); 0: none */
	int64_t aoff;
};

#define NSLOT 32

struct slot {
	int64_t key;    /* bytes from the %rsp at entry */
	struct rstate s;
};

struct tstate {
	struct rstate r[AREG_N];
	struct slot slots[NSLOT];
	uint32_t n_slots;
	uint32_t next_evict;
};

/* Forward branch targets and the state merged over their edges. */
struct pending {
	uint64_t pc;
	struct tstate st;
};

struct tctx {
	const struct atrack_env *env;
	const struct afunc *f;
	size_t *seed;        /* f->vars indices of AV_IN_REG records, by lo */
	size_t n_seed, next_seed;
	struct tstate cur;
	struct pending *pend;
	size_t n_pend, cap_pend;
	size_t *slotv;       /* f->vars indices of AV_SLOT/AV_OBJ records */
	size_t n_slotv;
	bool fall;   /* the previous instruction may fall through */
	const cs_insn *insn;         /* the instruction being attributed */
	const struct acode *code;    /* the code holding the current range */
	uint64_t range_hi;           /* its end */
	cs_insn *ahead;              /* lookahead.c's decode buffer */
	bool realigned; /* and $-N,%rsp seen: stack depths are relative to
			   the realigned frame, not to the CFA */
	struct rstate fp; /* %rbp after the entry's `push %rbp; mov %rsp,%rbp`
			     (RK_STACK), else RK_NONE: the frame pointer */
	bool past_entry;  /* a jump, call or return seen: no prologue now */
	uint32_t func_idx;
	bool indirect;  /* an indirect jump seen in the function (loops.c) */
};


struct resolved {
	const struct slt_type *st;
	int64_t off;
	uint8_t via;
	/* unresolved operands: a global or per-CPU pointer variable's
	 * pointee (an 8-byte load of it gives the register that type) */
	const struct slt_type *loaded;
};

/* track.c */
struct rstate *acc_slot_find(struct tstate *s, int64_t key);
void acc_slot_set(struct tstate *s, int64_t key, const struct rstate *v);
/* Queue the current state for the forward branch target pc. */
int acc_pend_add(struct tctx *t, uint64_t pc);
/* A pointer DWARF keeps in the stack slot key (bytes from entry %rsp). */
bool acc_dwarf_slot(struct tctx *t, int64_t key, uint64_t pc, struct rstate *out);
/* What reg points to at pc (DWARF, else tracked; argument provenance kept). */
struct rstate acc_reg_state(struct tctx *t, int reg, uint64_t pc);
/* The stack slot key of a memory operand, false when not a slot. */
bool acc_slot_key(struct tctx *t, const cs_x86_op *op, int64_t *key);

/* An index register scaled by scale steps over the elements of elem bytes
 * of an array (s->arr[i], var[i]): the scale is the element size, or 1
 * with elements over 8 bytes (the index premultiplied).  Scale 1 on an
 * array of 8-byte elements is an offset the compiler folded into the
 * index (&s->other[i] computed from s): false, as for elem 0 (no array). */
bool acc_scale_steps(uint64_t elem, unsigned scale);

/* The kind (SLT_ACCESS_*) of in's memory operand op: capstone's access
 * flags, else the mnemonic class and operand order (track.c). */
uint32_t acc_mem_kind(const cs_insn *in, const cs_x86_op *op);

/* stack.c: index t->f's stack-slot records (t->slotv); 0 or SLT_ENOMEM. */
int acc_stack_init(struct tctx *t);
/* The slot key (bytes from the entry %rsp) of a stack-slot record at the
 * current state, false when its base register's depth is unknown. */
bool acc_slot_var_key(const struct tctx *t, const struct avar *v, int64_t *key);
/* A memory operand op of in whose base register base holds a stack
 * address: 0 and out (a struct on the stack), SLT_AR_STACK_LOCAL or
 * SLT_AR_STACK (see stack.c). */
int acc_stack_resolve(struct tctx *t, const cs_insn *in, const cs_x86_op *op,
		      int base, struct resolved *out);

/* A pointer to a struct that DWARF locates in reg at pc: true and *st. */
bool acc_dwarf_ptr(struct tctx *t, int reg, uint64_t pc, const struct slt_type **st);
/* lookahead.c: the struct a pointer variable whose location begins in reg
 * a few straight-line instructions after t->insn, none writing reg,
 * points to: true and *st. */
bool acc_ahead(struct tctx *t, int reg, const struct slt_type **st);

/* lookahead.c: does in write reg (an operand or an implicit write)?  Does
 * it end straight-line code (jump, call, return, trap)? */
bool acc_writes_reg(const cs_insn *in, int reg);
bool acc_ends_block(const cs_insn *in);

/* The registers a call clobbers (DWARF-numbered). */
#define ACC_N_CALLER_SAVED 9
extern const int acc_caller_saved[ACC_N_CALLER_SAVED];

/* track.c: into keeps what it and from agree on. */
void acc_state_merge(struct tstate *into, const struct tstate *from);

/* loops.c: at pc, reached neither by falling through nor by a pending
 * forward jump: when a jump within the next ACC_LOOP_SCAN instructions
 * goes back to pc (a loop body reached by its back edge alone), t->cur
 * becomes the state of the forward edges pending over pc less what the
 * loop writes, and true. */
bool acc_loop_entry(struct tctx *t, uint64_t pc);

/* container.c: the access at o bytes from the start of an object of type
 * inner (o outside it) held in a bigger object: the unique struct S among
 * the pointees of the pointer variables in scope at pc with inner at an
 * offset k such that 0 <= k + o < sizeof(S): 0, *out (S at k + o) and
 * *at = k; else SLT_AR_BAD_OFFSET. */
int acc_container(struct tctx *t, const struct slt_type *inner, int64_t o,
		  uint64_t pc, struct resolved *out, int64_t *at);

/* track.c: attribute the memory operand op of in: 0 and *out, else the
 * reason (SLT_AR_*). */
int acc_resolve(struct tctx *t, const cs_insn *in, const cs_x86_op *op,
		struct resolved *out);
/* sites.c: count the memory operand mem of in (af, m), attribute it
 * (*res, *reason) and record its site in sites; 0 or SLT_ENOMEM. */
int acc_mem_operand(struct tctx *t, const cs_insn *in, const cs_x86_op *mem,
		    struct slt_access_func *af, uint32_t func_idx,
		    struct slt_access_map *m, struct vec *sites,
		    struct resolved *res, int *reason);

/* strop.c: the bytes a memory operand op of in covers: its size, or for
 * `rep stos`/`rep movs` %rcx elements when the tracked state knows %rcx
 * as a constant.  The source operand of movs (loaded), else NULL. */
uint64_t acc_strop_width(const struct tctx *t, const cs_insn *in,
			 const cs_x86_op *op);
const cs_x86_op *acc_strop_source(const cs_insn *in);

/* effects.c: apply instruction in to t's state (have_mem: it has a
 * counted memory operand, resolved to res unless mem_reason). */
int acc_effects(struct tctx *t, const cs_insn *in, bool have_mem,
		int mem_reason, const struct resolved *res);

#endif
