/* SPDX-License-Identifier: MIT */
/*
 * The per-function pass of the access map: decode the function's code in
 * address order, keep for each general-purpose register and for a few stack
 * slots what it is known to point into, and attribute every memory operand
 * to a struct and offset (see include/structlint/access.h for the rules;
 * the instruction effects follow perf's update_insn_state_x86() in
 * tools/perf/arch/x86/annotate/instructions.c: moves, loads of pointer
 * members, lea, add/sub of immediates, spills, push/pop, calls).
 *
 * Cost: one decode per instruction; the DWARF records of the function are
 * scanned per register use (functions have tens to hundreds of records).
 */
#include <stdlib.h>
#include <string.h>

#include "access/track_int.h"

const int acc_arg_regs[6] = {5, 4, 1, 2, 8, 9};

static bool rs_eq(const struct rstate *a, const struct rstate *b)
{
	if (a->arg != b->arg || (a->arg && a->aoff != b->aoff))
		return false;
	if (a->kind != b->kind)
		return false;
	if (a->kind == RK_NONE)
		return true;
	return a->st == b->st && a->off == b->off && a->arith == b->arith;
}

static void state_reset(struct tstate *s, bool entry)
{
	memset(s, 0, sizeof(*s));
	if (!entry)
		return;
	s->r[AREG_RSP] = (struct rstate){.kind = RK_STACK, .off = 0};
	for (int i = 0; i < 6; i++)
		s->r[acc_arg_regs[i]].arg = (uint8_t)(i + 1);
}

struct rstate *acc_slot_find(struct tstate *s, int64_t key)
{
	for (uint32_t i = 0; i < s->n_slots; i++)
		if (s->slots[i].key == key)
			return &s->slots[i].s;
	return NULL;
}

void  acc_slot_set(struct tstate *s, int64_t key, const struct rstate *v)
{
	struct rstate *p = acc_slot_find(s, key);
	if (p) {
		*p = *v;
		return;
	}
	if (v->kind == RK_NONE && !v->arg)
		return;
	uint32_t i;
	if (s->n_slots < NSLOT) {
		i = s->n_slots++;
	} else {
		/* full: an empty or scalar slot goes first (pointers are what
		 * the attribution needs back), else round robin */
		for (i = 0; i < NSLOT; i++)
			if (s->slots[i].s.kind == RK_NONE ||
			    s->slots[i].s.kind == RK_SCALAR)
				break;
		if (i == NSLOT)
			i = s->next_evict++ % NSLOT;
	}
	s->slots[i].key = key;
	s->slots[i].s = *v;
}

void acc_state_merge(struct tstate *into, const struct tstate *from)
{
	for (int i = 0; i < AREG_N; i++)
		if (!rs_eq(&into->r[i], &from->r[i]))
			into->r[i] = (struct rstate){0};
	for (uint32_t i = 0; i < into->n_slots; i++) {
		struct rstate *o = acc_slot_find((struct tstate *)from,
					     into->slots[i].key);
		if (!o || !rs_eq(o, &into->slots[i].s))
			into->slots[i].s = (struct rstate){0};
	}
}

static struct pending *pend_find(struct tctx *t, uint64_t pc)
{
	for (size_t i = 0; i < t->n_pend; i++)
		if (t->pend[i].pc == pc)
			return &t->pend[i];
	return NULL;
}

int  acc_pend_add(struct tctx *t, uint64_t pc)
{
	struct pending *p = pend_find(t, pc);
	if (p) {
		acc_state_merge(&p->st, &t->cur);
		return 0;
	}
	if (t->n_pend == t->cap_pend) {
		size_t cap = t->cap_pend ? t->cap_pend * 2 : 16;
		p = realloc(t->pend, cap * sizeof(*p));
		if (!p)
			return SLT_ENOMEM;
		t->pend = p;
		t->cap_pend = cap;
	}
	p = &t->pend[t->n_pend++];
	p->pc = pc;
	p->st = t->cur;
	return 0;
}

static void pend_take(struct tctx *t, uint64_t pc)
{
	for (size_t i = 0; i < t->n_pend; i++) {
		if (t->pend[i].pc != pc)
			continue;
		if (t->fall)
			acc_state_merge(&t->cur, &t->pend[i].st);
		else
			t->cur = t->pend[i].st;
		t->pend[i] = t->pend[--t->n_pend];
		t->fall = true;
		return;
	}
	if (!t->fall) {
		if (!acc_loop_entry(t, pc))
			state_reset(&t->cur, false);
		/* a compiled function that sets up a frame pointer keeps it
		 * in %rbp until its epilogue (the compilers never allocate
		 * %rbp then): a body reached without a state still has it */
		if (t->cur.r[AREG_RBP].kind == RK_NONE && t->fp.kind == RK_STACK)
			t->cur.r[AREG_RBP] = t->fp;
		t->fall = true;
	}
}

/* The frame pointer set up at the entry: `mov %rsp,%rbp` in the
 * straight-line code the function starts with (the prologue, which gcc
 * interleaves with the body's first instructions; `call __fentry__` is
 * the one call allowed before it), %rbp then holding a stack address. */
static void note_frame_pointer(struct tctx *t, const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	if (t->past_entry)
		return;
	if (acc_ends_block(in) && in->id != X86_INS_CALL) {
		t->past_entry = true;
		return;
	}
	if (in->id != X86_INS_MOV || x->op_count != 2 ||
	    x->operands[0].type != X86_OP_REG || x->operands[1].type != X86_OP_REG ||
	    x->operands[0].reg != X86_REG_RBP || x->operands[1].reg != X86_REG_RSP)
		return;
	if (t->cur.r[AREG_RBP].kind == RK_STACK)
		t->fp = t->cur.r[AREG_RBP];
	t->past_entry = true;
}

/* ---- DWARF records --------------------------------------------------- */

/* Does reg hold, as the tracked state proves, the value argument register
 * areg held at the function's entry (an AV_ENTRY record's value)?  Only
 * while the pass has followed it from the entry (struct rstate.arg, no
 * addend): DW_OP_entry_value names the value, not a place. */
static bool holds_entry(const struct tctx *t, int reg, int areg)
{
	const struct rstate *r = &t->cur.r[reg];
	if (!r->arg || r->aoff || reg == AREG_RSP)
		return false;
	return acc_arg_regs[r->arg - 1] == areg;
}

/* The best DWARF answer for an access at disp(reg) at pc (for_access), or
 * for what reg points to (!for_access: AV_IN_REG records only, disp 0).
 * Returns 0 with st and off, or the reason nothing fits. */
static int dwarf_reg(struct tctx *t, int reg, uint64_t pc, int64_t disp,
		     bool for_access, const struct slt_type **st, int64_t *off,
		     struct resolved *bad)
{
	const struct afunc *f = t->f;
	int reason = SLT_AR_NO_VAR;
	*st = NULL;
	for (size_t i = 0; i < f->n_vars; i++) {
		const struct avar *v = &f->vars[i];
		if (pc < v->lo || pc >= v->hi)
			continue;
		bool plus = v->how == AV_REG_PLUS || (v->how == AV_ENTRY && v->off);
		if (v->how == AV_ENTRY ? !holds_entry(t, reg, v->reg) :
		    v->reg != reg || (v->how != AV_IN_REG && v->how != AV_REG_PLUS))
			continue;
		if (plus && !for_access)
			continue;
		const struct slt_type *p;
		int r = slt_acc_pointee(t->env->d, v->type_die, &p);
		if (r) {
			if (reason == SLT_AR_NO_VAR ||
			    (reason == SLT_AR_NOT_STRUCT && r == SLT_AR_NO_TYPE))
				reason = r;
			continue;
		}
		int64_t o = disp - (plus ? v->off : 0);
		if (o < 0 || (uint64_t)o >= p->size) {
			reason = SLT_AR_BAD_OFFSET;
			if (bad && (!bad->st || p->size > bad->st->size))
				*bad = (struct resolved){.st = p, .off = o};
			continue;
		}
		if (!*st || p->size > (*st)->size) {
			*st = p;
			*off = o;
		}
	}
	return *st ? 0 : reason;
}

/* A pointer kept in the stack slot at key (bytes from the entry %rsp), as
 * DWARF describes it (DW_OP_fbreg with a CFA frame base, DW_OP_breg7). */
bool  acc_dwarf_slot(struct tctx *t, int64_t key, uint64_t pc,
		       struct rstate *out)
{
	const struct afunc *f = t->f;
	for (size_t i = 0; i < f->n_vars; i++) {
		const struct avar *v = &f->vars[i];
		if (v->how != AV_SLOT || pc < v->lo || pc >= v->hi)
			continue;
		int64_t k;
		if (!acc_slot_var_key(t, v, &k) || k != key)
			continue;
		const struct slt_type *p;
		if (slt_acc_pointee(t->env->d, v->type_die, &p))
			continue;
		*out = (struct rstate){.kind = RK_PTR, .st = p, .via = SLT_VIA_DWARF};
		return true;
	}
	return false;
}

/* The tracked pointer r, reached at r->off + disp, holds an object of the
 * struct st that DWARF names at offset off of it (an embedded member:
 * &inode->i_data seen as a struct address_space *): the access is on the
 * outer object. */
static bool outer_holds(struct tctx *t, const struct rstate *r, int64_t disp,
			const struct slt_type *st, int64_t off)
{
	if (r->kind != RK_PTR || r->st == st || r->st->size <= st->size)
		return false;
	int64_t o = r->off + disp - off;
	if (o < 0 || (uint64_t)o >= r->st->size)
		return false;
	return slt_acc_path(t->env->d, r->st, (uint64_t)o, st, NULL);
}

bool acc_dwarf_ptr(struct tctx *t, int reg, uint64_t pc, const struct slt_type **st)
{
	int64_t off;
	return !dwarf_reg(t, reg, pc, 0, false, st, &off, NULL);
}

/* A variable of another type than a pointer located in reg at pc. */
static bool dwarf_val(const struct tctx *t, int reg, uint64_t pc)
{
	const struct afunc *f = t->f;
	for (size_t i = 0; i < f->n_vars; i++) {
		const struct avar *v = &f->vars[i];
		if (v->how == AV_VAL && v->reg == reg && pc >= v->lo && pc < v->hi)
			return true;
	}
	return false;
}

/* What reg points to at pc: DWARF first (unless the tracked state knows the
 * outer object holding it), then the tracked state; a register the tracked
 * state knows nothing of holds a typed value (RK_SCALAR) when DWARF locates
 * a variable of another type there (a scalar, a pointer to no struct).
 * The argument provenance is the tracked one either way. */
struct rstate  acc_reg_state(struct tctx *t, int reg, uint64_t pc)
{
	const struct slt_type *st;
	int64_t off;
	if (reg < 0)
		return (struct rstate){0};
	const struct rstate *cur = &t->cur.r[reg];
	int r = dwarf_reg(t, reg, pc, 0, false, &st, &off, NULL);
	if (!r && !outer_holds(t, cur, 0, st, 0))
		return (struct rstate){.kind = RK_PTR, .st = st, .off = 0,
				       .via = SLT_VIA_DWARF, .arg = cur->arg,
				       .aoff = cur->aoff};
	if (cur->kind == RK_NONE && reg != AREG_RSP &&
	    (r == SLT_AR_NOT_STRUCT || r == SLT_AR_NO_TYPE || dwarf_val(t, reg, pc)))
		return (struct rstate){.kind = RK_SCALAR, .arg = cur->arg,
				       .aoff = cur->aoff};
	return *cur;
}

/* Give the registers the DWARF types whose location ranges start at or
 * before pc (each record once, in order of lo): from then on the tracked
 * state carries them until the register is written, also past the end of
 * the record's range (a register keeps its value until written). */
static void seed_dwarf(struct tctx *t, uint64_t pc)
{
	while (t->next_seed < t->n_seed) {
		const struct avar *v = &t->f->vars[t->seed[t->next_seed]];
		if (v->lo > pc)
			break;
		t->next_seed++;
		if (v->hi <= pc)
			continue;
		const struct slt_type *st;
		int64_t off;
		struct rstate *r = &t->cur.r[v->reg];
		if (!dwarf_reg(t, v->reg, pc, 0, false, &st, &off, NULL) &&
		    !outer_holds(t, r, 0, st, 0))
			*r = (struct rstate){.kind = RK_PTR, .st = st,
					     .via = SLT_VIA_DWARF,
					     .arg = r->arg, .aoff = r->aoff};
	}
}

static const struct avar *sort_vars;

static int cmp_seed(const void *a, const void *b)
{
	uint64_t x = sort_vars[*(const size_t *)a].lo;
	uint64_t y = sort_vars[*(const size_t *)b].lo;
	return x < y ? -1 : x > y;
}

static int seed_init(struct tctx *t)
{
	const struct afunc *f = t->f;
	t->seed = malloc((f->n_vars + 1) * sizeof(*t->seed));
	if (!t->seed)
		return SLT_ENOMEM;
	for (size_t i = 0; i < f->n_vars; i++)
		if (f->vars[i].how == AV_IN_REG && f->vars[i].reg >= 0 &&
		    f->vars[i].reg < AREG_N && f->vars[i].reg != AREG_RSP)
			t->seed[t->n_seed++] = i;
	sort_vars = f->vars;
	if (t->n_seed > 1) /* qsort(NULL, 0) is undefined */
		qsort(t->seed, t->n_seed, sizeof(*t->seed), cmp_seed);
	return 0;
}

/* ---- attribution ----------------------------------------------------- */


/* resolve_reg()'s flags */
enum {
	RR_CONTAINER = 1, /* an operand without an index register: an offset
			     outside the register's object may be a
			     container_of (container.c) */
	RR_AHEAD = 2,     /* the operand's base register: its value may be
			     a variable located there later (lookahead.c) */
};

/* The access at disp(reg) at pc (flags: RR_*). */
static int resolve_reg(struct tctx *t, int reg, uint64_t pc, int64_t disp,
		       unsigned flags, struct resolved *out)
{
	const struct slt_type *st;
	int64_t off;
	struct resolved bad = {0};
	int reason = dwarf_reg(t, reg, pc, disp, true, &st, &off, &bad);
	struct rstate *r = &t->cur.r[reg];
	if (!reason && !outer_holds(t, r, disp, st, off)) {
		*out = (struct resolved){.st = st, .off = off, .via = SLT_VIA_DWARF};
		return 0;
	}
	if (r->kind == RK_STACK)
		return SLT_AR_STACK;
	const struct slt_type *later;
	if (!acc_rk_typed(r->kind) && reason == SLT_AR_NO_VAR && (flags & RR_AHEAD) &&
	    acc_ahead(t, reg, &later))
		*r = (struct rstate){.kind = RK_PTR, .st = later,
				     .via = SLT_VIA_TRACKED, .arg = r->arg,
				     .aoff = r->aoff};
	if (r->kind == RK_PTR) {
		int64_t o = r->off + disp;
		int64_t size = (int64_t)r->st->size;
		if (r->arith && size > 0)
			o = ((o % size) + size) % size;
		if (o >= 0 && o < size) {
			*out = (struct resolved){.st = r->st, .off = o,
						 .via = SLT_VIA_TRACKED};
			return 0;
		}
		if (!r->arith)
			bad = (struct resolved){.st = r->st, .off = o};
		reason = SLT_AR_BAD_OFFSET;
	}
	/* outside the object: a container_of (container.c) */
	int64_t k;
	if (!(flags & RR_CONTAINER) || reason != SLT_AR_BAD_OFFSET || !bad.st ||
	    acc_container(t, bad.st, bad.off, pc, out, &k))
		return reason;
	/* the register points into the container from now on */
	*r = (struct rstate){.kind = RK_PTR, .st = out->st,
			     .off = out->off - disp, .via = SLT_VIA_TRACKED,
			     .arg = r->arg, .aoff = r->aoff};
	return 0;
}

/* With an index register the offset is known only when the pointer plus
 * displacement lies in an array member (s->arr[i]) whose elements the
 * scale steps over (acc_scale_steps).  0, else bad-offset. */
bool acc_scale_steps(uint64_t elem, unsigned scale)
{
	return elem && scale &&
	       (elem == scale || (elem > 8 && elem % scale == 0));
}

/* res: the access at base+disp; idx: the index register's state.  A
 * known constant index gives the offset; an unknown one plus a known
 * addend (add $0xc8,%rsi folding an array's offset into the index)
 * moves the access by addend*scale, and then, as for an index of
 * unknown value, the offset is known only to lie in the array member
 * there when the scale steps over its elements (acc_scale_steps);
 * otherwise SLT_AR_INDEXED (nothing charged to the displacement's
 * member) or, for a constant outside the object, SLT_AR_BAD_OFFSET. */
static int indexed(struct tctx *t, struct resolved *res, const struct rstate *idx,
		   unsigned scale)
{
	int64_t size = (int64_t)res->st->size;
	if (idx->kind == RK_CONST || idx->kind == RK_INDEX) {
		int64_t o = res->off + idx->off * (int64_t)scale;
		if (o < 0 || o >= size)
			return idx->kind == RK_CONST ? SLT_AR_BAD_OFFSET : SLT_AR_INDEXED;
		res->off = o;
		if (idx->kind == RK_CONST)
			return 0;
	}
	uint64_t elem = 0;
	slt_acc_path(t->env->d, res->st, (uint64_t)res->off, NULL, &elem);
	return acc_scale_steps(elem, scale) ? 0 : SLT_AR_INDEXED;
}

/* A %rip-relative or absolute operand (no base register, or %rip), in
 * the per-CPU area when percpu (%gs:): the struct variable at that
 * address (globals.c).  not_found: the reason when none holds it. */
static int resolve_fixed(struct tctx *t, const cs_insn *in, const x86_op_mem *m,
			 bool percpu, int not_found, struct resolved *out)
{
	const struct aglobals *g = t->env->globals;
	bool rip = m->base == X86_REG_RIP;
	if (!g || (!rip && m->base != X86_REG_INVALID) ||
	    (rip && m->index != X86_REG_INVALID))
		return not_found;
	uint64_t elem = 0;
	int r = slt_acc_globals_at(t->env->d, g, percpu, rip, m->disp,
				   in->address + in->size, &out->st, &out->off,
				   &elem);
	if (r == SLT_AR_NOT_STRUCT && out->st && m->index == X86_REG_INVALID)
		out->loaded = out->st;
	if (r == SLT_AR_NOT_STRUCT)  /* a pointer variable itself */
		return SLT_AR_VAR_TYPED;
	if (r == SLT_AR_GLOBAL)
		return not_found;
	if (r)
		return r;
	out->via = SLT_VIA_DWARF;
	if (m->index == X86_REG_INVALID)
		return 0;
	unsigned scale = (unsigned)m->scale;
	int ix = slt_acc_reg(m->index);
	const struct rstate *idx = ix >= 0 ? &t->cur.r[ix] : &(struct rstate){0};
	if (acc_scale_steps(elem, scale) && idx->kind != RK_CONST &&
	    idx->kind != RK_INDEX)
		return 0;  /* var[i].member */
	return indexed(t, out, idx, scale);  /* var.arr[i] */
}

/* A register-based operand (or %rip-relative, absolute) without segment. */
static int resolve_base(struct tctx *t, const cs_insn *in, const cs_x86_op *op,
			struct resolved *out)
{
	const x86_op_mem *m = &op->mem;
	uint64_t pc = in->address;
	if (m->base == X86_REG_RIP || m->base == X86_REG_EIP)
		return resolve_fixed(t, in, m, false, SLT_AR_GLOBAL, out);
	int base = slt_acc_reg(m->base), index = slt_acc_reg(m->index);
	if (base == AREG_NONE)
		return resolve_fixed(t, in, m, false, SLT_AR_GLOBAL, out);
	if (base == AREG_RSP)
		return acc_stack_resolve(t, in, op, base, out);
	int r = resolve_reg(t, base, pc, m->disp,
			    RR_AHEAD | (index == AREG_NONE ? RR_CONTAINER : 0), out);
	if (r == SLT_AR_STACK)
		return acc_stack_resolve(t, in, op, base, out);
	if (!r && index != AREG_NONE)
		r = indexed(t, out, &t->cur.r[index], (unsigned)m->scale);
	if (r && r != SLT_AR_STACK && index != AREG_NONE && m->scale == 1 &&
	    !resolve_reg(t, index, pc, m->disp, 0, out) &&
	    !indexed(t, out, &t->cur.r[base], 1))
		return 0;
	return r;
}

int acc_resolve(struct tctx *t, const cs_insn *in, const cs_x86_op *op,
		struct resolved *out)
{
	const x86_op_mem *m = &op->mem;
	const struct aglobals *g = t->env->globals;
	if (m->segment == X86_REG_FS)
		return SLT_AR_SEGMENT;
	if (m->segment != X86_REG_GS)
		return resolve_base(t, in, op, out);
	int base = slt_acc_reg(m->base);
	if (!g || !g->percpu || base < 0 || base == AREG_RSP)
		return resolve_fixed(t, in, m, true, SLT_AR_SEGMENT, out);
	/* %gs:off(%reg) in the kernel: reg holds a __percpu pointer (DWARF
	 * types it as the plain pointer) and %gs adds this CPU's base: the
	 * object the register's type says, in this CPU's copy */
	return resolve_base(t, in, op, out) ? SLT_AR_SEGMENT : 0;
}

/* The stack slot key of a memory operand, or false when it is not one. */
bool  acc_slot_key(struct tctx *t, const cs_x86_op *op, int64_t *key)
{
	const x86_op_mem *m = &op->mem;
	int base = slt_acc_reg(m->base);
	if (base == AREG_NONE || m->index != X86_REG_INVALID ||
	    m->segment != X86_REG_INVALID)
		return false;
	const struct rstate *r = &t->cur.r[base];
	if (r->kind != RK_STACK)
		return false;
	*key = r->off + m->disp;
	return true;
}

/* ---- the pass --------------------------------------------------------- */

/* Bit operations on memory: they set or clear flags (a state change),
 * whether lock-prefixed or not. */
static bool bit_op(unsigned id)
{
	switch (id) {
	case X86_INS_OR: case X86_INS_AND: case X86_INS_XOR:
	case X86_INS_BTS: case X86_INS_BTR: case X86_INS_BTC:
		return true;
	default:
		return false;
	}
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Capstone 4's access flags are missing or wrong for many SSE/AVX,
 * string and x87 instructions: movups %xmm0,(%rdi), vmovdqu, movq
 * %xmm0,(%rdi), pextrd and fstp mark their memory destination read only.
 * For moves (mov*, vmov*, movnt*, movs*, stos*) and extracts (pextr*,
 * extractps, vextract*) the kind therefore comes from the operand order
 * (the detail lists operands in Intel order, destination first, whatever
 * the printing syntax): the first operand of two or more is stored, any
 * other is loaded; the x87 and state stores with their memory operand
 * alone (fst*, fist*, fnst*, fbstp, fxsave*, xsave*, stmxcsr) store.
 * Returns 0 for every other instruction: its flags decide, and without
 * flags it is a load (SSE/AVX arithmetic, compares and conversions read
 * their memory operand; their destination is a register). */
static uint32_t class_kind(const cs_insn *in, const cs_x86_op *op)
{
	const cs_x86 *x = &in->detail->x86;
	const char *mn = strrchr(in->mnemonic, ' ');  /* past rep */
	mn = mn ? mn + 1 : in->mnemonic;
	bool first = op == &x->operands[0];
	if (starts(mn, "v"))
		mn++;
	if (starts(mn, "mov") || starts(mn, "stos") || starts(mn, "pextr") ||
	    starts(mn, "extract"))
		return first && x->op_count >= 2 ? SLT_ACCESS_STORE : SLT_ACCESS_LOAD;
	if (x->op_count == 1 && first &&
	    (starts(mn, "fst") || starts(mn, "fist") || starts(mn, "fnst") ||
	     starts(mn, "fbstp") || starts(mn, "fxsave") || starts(mn, "xsave") ||
	     starts(mn, "stmxcsr")))
		return SLT_ACCESS_STORE;
	return 0;
}

uint32_t acc_mem_kind(const cs_insn *in, const cs_x86_op *op)
{
	const cs_x86 *x = &in->detail->x86;
	uint32_t bits = bit_op(in->id) && (op->access & CS_AC_WRITE) ? SLT_ACCESS_BITS : 0;
	if (in->id == X86_INS_LEA)
		return SLT_ACCESS_ADDR;
	switch (in->id) {
	/* read only, whatever capstone 4's access flags say (it marks
	 * test's memory operand written) */
	case X86_INS_TEST: case X86_INS_CMP: case X86_INS_BT:
		return SLT_ACCESS_LOAD;
	default:
		break;
	}
	if (x->prefix[0] == X86_PREFIX_LOCK || in->id == X86_INS_XCHG)
		return SLT_ACCESS_LOAD | SLT_ACCESS_STORE | SLT_ACCESS_ATOMIC | bits;
	switch (in->id) {
	case X86_INS_CMPXCHG: case X86_INS_CMPXCHG8B: case X86_INS_CMPXCHG16B:
	case X86_INS_XADD:
		return SLT_ACCESS_LOAD | SLT_ACCESS_STORE;
	default:
		break;
	}
	uint32_t k = class_kind(in, op);
	if (k)
		return k;
	if (op->access & CS_AC_READ)
		k |= SLT_ACCESS_LOAD;
	if (op->access & CS_AC_WRITE)
		k |= SLT_ACCESS_STORE;
	return k ? k | bits : SLT_ACCESS_LOAD;
}

static bool ignored_mem(unsigned id)
{
	switch (id) {
	case X86_INS_NOP: case X86_INS_PREFETCH: case X86_INS_PREFETCHNTA:
	case X86_INS_PREFETCHT0: case X86_INS_PREFETCHT1:
	case X86_INS_PREFETCHT2: case X86_INS_PREFETCHW:
	case X86_INS_CLFLUSH: case X86_INS_CLFLUSHOPT:
		return true;
	default:
		return false;
	}
}

bool slt_acc_type_wanted(const struct slt_access_opts *o, const struct slt_type *st)
{
	if (!o || !o->n_types)
		return true;
	if (!st->name)
		return false;
	for (size_t i = 0; i < o->n_types; i++)
		if (!strcmp(o->types[i], st->name))
			return true;
	return false;
}

static const struct acode *code_for(const struct atrack_env *env, uint64_t lo,
				    uint64_t hi)
{
	for (size_t i = 0; i < env->n_code; i++) {
		const struct acode *c = &env->code[i];
		if (lo >= c->addr && hi <= c->addr + c->size && hi >= lo)
			return c;
	}
	return NULL;
}

static int one_insn(struct tctx *t, const cs_insn *in, struct slt_access_func *af,
		    uint32_t func_idx, struct slt_access_map *m, struct vec *sites)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *mem = NULL;
	for (uint8_t i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM) {
			mem = &x->operands[i];
			break;
		}
	struct resolved res = {0};
	int reason = SLT_AR_NO_VAR;
	bool counted = mem && !ignored_mem(in->id);
	t->insn = in;
	if (counted) {
		int rc = acc_mem_operand(t, in, mem, af, func_idx, m, sites, &res, &reason);
		const cs_x86_op *src = acc_strop_source(in);
		struct resolved sres = {0};
		int sreason;
		if (!rc && src)  /* movs also reads (%rsi) */
			rc = acc_mem_operand(t, in, src, af, func_idx, m, sites, &sres, &sreason);
		if (rc)
			return rc;
	}
	return acc_effects(t, in, counted, reason, &res);
}

int slt_acc_track(const struct atrack_env *env, const struct afunc *f,
		  uint32_t func_idx, struct slt_access_map *m, struct vec *sites)
{
	struct slt_access_func *af = &m->funcs[func_idx];
	struct tctx t = {.env = env, .f = f, .fall = true, .func_idx = func_idx};
	state_reset(&t.cur, true);
	cs_insn *in = cs_malloc(env->cs);
	t.ahead = cs_malloc(env->cs);
	if (!in || !t.ahead || seed_init(&t) || acc_stack_init(&t)) {
		cs_free(in, 1);
		if (t.ahead)
			cs_free(t.ahead, 1);
		free(t.seed);
		free(t.slotv);
		return SLT_ENOMEM;
	}
	int rc = 0;
	bool entry = true;
	for (size_t r = 0; r < f->n_ranges && !rc; r++) {
		uint64_t lo = f->ranges[2 * r], hi = f->ranges[2 * r + 1];
		const struct acode *c = code_for(env, lo, hi);
		if (!c)
			continue;
		if (!entry) {  /* another range: entered by a jump */
			t.fall = false;
		}
		entry = false;
		t.code = c;
		t.range_hi = hi;
		const uint8_t *p = c->bytes + (lo - c->addr);
		size_t n = hi - lo;
		uint64_t addr = lo;
		while (n && !rc) {
			pend_take(&t, addr);
			seed_dwarf(&t, addr);
			if (!cs_disasm_iter(env->cs, &p, &n, &addr, in)) {
				m->n_undecodable++;
				p++;
				n--;
				addr++;
				t.fall = false;
				continue;
			}
			af->n_insns++;
			rc = one_insn(&t, in, af, func_idx, m, sites);
			if (r == 0)
				note_frame_pointer(&t, in);
		}
	}
	cs_free(in, 1);
	cs_free(t.ahead, 1);
	free(t.pend);
	free(t.seed);
	free(t.slotv);
	return rc;
}

