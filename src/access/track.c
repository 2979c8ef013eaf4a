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

#include "access/access_int.h"

enum rkind {
	RK_NONE = 0,
	RK_PTR,    /* points into st at byte off (off may lie outside the
		      object after pointer arithmetic: see arith) */
	RK_STACK,  /* a stack address: off = bytes from the %rsp at entry */
};

struct rstate {
	const struct slt_type *st;
	int64_t off;
	uint8_t kind;   /* enum rkind */
	uint8_t arith;  /* reached by pointer arithmetic: off is taken modulo
			   the struct size (an element of an array of st) */
	uint8_t via;    /* enum slt_access_via of the type's origin */
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
	bool fall;   /* the previous instruction may fall through */
};

static bool rs_eq(const struct rstate *a, const struct rstate *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == RK_NONE)
		return true;
	return a->st == b->st && a->off == b->off && a->arith == b->arith;
}

static void state_reset(struct tstate *s, bool entry)
{
	memset(s, 0, sizeof(*s));
	if (entry)
		s->r[AREG_RSP] = (struct rstate){.kind = RK_STACK, .off = 0};
}

static struct rstate *slot_find(struct tstate *s, int64_t key)
{
	for (uint32_t i = 0; i < s->n_slots; i++)
		if (s->slots[i].key == key)
			return &s->slots[i].s;
	return NULL;
}

static void slot_set(struct tstate *s, int64_t key, const struct rstate *v)
{
	struct rstate *p = slot_find(s, key);
	if (p) {
		*p = *v;
		return;
	}
	if (v->kind == RK_NONE)
		return;
	uint32_t i = s->n_slots < NSLOT ? s->n_slots++
					: s->next_evict++ % NSLOT;
	s->slots[i].key = key;
	s->slots[i].s = *v;
}

static void state_merge(struct tstate *into, const struct tstate *from)
{
	for (int i = 0; i < AREG_N; i++)
		if (!rs_eq(&into->r[i], &from->r[i]))
			into->r[i].kind = RK_NONE;
	for (uint32_t i = 0; i < into->n_slots; i++) {
		struct rstate *o = slot_find((struct tstate *)from,
					     into->slots[i].key);
		if (!o || !rs_eq(o, &into->slots[i].s))
			into->slots[i].s.kind = RK_NONE;
	}
}

static struct pending *pend_find(struct tctx *t, uint64_t pc)
{
	for (size_t i = 0; i < t->n_pend; i++)
		if (t->pend[i].pc == pc)
			return &t->pend[i];
	return NULL;
}

static int pend_add(struct tctx *t, uint64_t pc)
{
	struct pending *p = pend_find(t, pc);
	if (p) {
		state_merge(&p->st, &t->cur);
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
			state_merge(&t->cur, &t->pend[i].st);
		else
			t->cur = t->pend[i].st;
		t->pend[i] = t->pend[--t->n_pend];
		t->fall = true;
		return;
	}
	if (!t->fall) {
		state_reset(&t->cur, false);
		t->fall = true;
	}
}

/* ---- DWARF records --------------------------------------------------- */

/* The best DWARF answer for an access at disp(reg) at pc (for_access), or
 * for what reg points to (!for_access: AV_IN_REG records only, disp 0).
 * Returns 0 with st and off, or the reason nothing fits. */
static int dwarf_reg(struct tctx *t, int reg, uint64_t pc, int64_t disp,
		     bool for_access, const struct slt_type **st, int64_t *off)
{
	const struct afunc *f = t->f;
	int reason = SLT_AR_NO_VAR;
	*st = NULL;
	for (size_t i = 0; i < f->n_vars; i++) {
		const struct avar *v = &f->vars[i];
		if (v->reg != reg || pc < v->lo || pc >= v->hi)
			continue;
		if (v->how != AV_IN_REG && !(for_access && v->how == AV_REG_PLUS))
			continue;
		const struct slt_type *p;
		int r = slt_acc_pointee(t->env->d, v->type_die, &p);
		if (r) {
			if (reason == SLT_AR_NO_VAR ||
			    (reason == SLT_AR_NOT_STRUCT && r == SLT_AR_NO_TYPE))
				reason = r;
			continue;
		}
		int64_t o = disp - (v->how == AV_REG_PLUS ? v->off : 0);
		if (o < 0 || (uint64_t)o >= p->size) {
			reason = SLT_AR_BAD_OFFSET;
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
static bool dwarf_slot(struct tctx *t, int64_t key, uint64_t pc,
		       struct rstate *out)
{
	const struct afunc *f = t->f;
	for (size_t i = 0; i < f->n_vars; i++) {
		const struct avar *v = &f->vars[i];
		if (v->how != AV_SLOT || pc < v->lo || pc >= v->hi)
			continue;
		/* CFA = entry %rsp + 8 (the return address) */
		int64_t k;
		if (v->reg == -2)
			k = v->off + 8;
		else if ((v->reg == AREG_RSP || v->reg == AREG_RBP) &&
			 t->cur.r[v->reg].kind == RK_STACK)
			k = t->cur.r[v->reg].off + v->off;
		else
			continue;
		if (k != key)
			continue;
		const struct slt_type *p;
		if (slt_acc_pointee(t->env->d, v->type_die, &p))
			continue;
		*out = (struct rstate){.kind = RK_PTR, .st = p, .via = SLT_VIA_DWARF};
		return true;
	}
	return false;
}

/* What reg points to at pc: DWARF first, then the tracked state. */
static struct rstate reg_state(struct tctx *t, int reg, uint64_t pc)
{
	const struct slt_type *st;
	int64_t off;
	if (reg < 0)
		return (struct rstate){0};
	if (!dwarf_reg(t, reg, pc, 0, false, &st, &off))
		return (struct rstate){.kind = RK_PTR, .st = st, .off = 0,
				       .via = SLT_VIA_DWARF};
	return t->cur.r[reg];
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
		if (!dwarf_reg(t, v->reg, pc, 0, false, &st, &off))
			t->cur.r[v->reg] = (struct rstate){
				.kind = RK_PTR, .st = st, .via = SLT_VIA_DWARF};
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
	qsort(t->seed, t->n_seed, sizeof(*t->seed), cmp_seed);
	return 0;
}

/* ---- attribution ----------------------------------------------------- */

struct resolved {
	const struct slt_type *st;
	int64_t off;
	uint8_t via;
};

static int resolve_reg(struct tctx *t, int reg, uint64_t pc, int64_t disp,
		       struct resolved *out)
{
	const struct slt_type *st;
	int64_t off;
	int reason = dwarf_reg(t, reg, pc, disp, true, &st, &off);
	if (!reason) {
		*out = (struct resolved){.st = st, .off = off, .via = SLT_VIA_DWARF};
		return 0;
	}
	const struct rstate *r = &t->cur.r[reg];
	if (r->kind == RK_STACK)
		return SLT_AR_STACK;
	if (r->kind != RK_PTR)
		return reason;
	int64_t o = r->off + disp;
	int64_t size = (int64_t)r->st->size;
	if (r->arith && size > 0)
		o = ((o % size) + size) % size;
	if (o < 0 || o >= size)
		return SLT_AR_BAD_OFFSET;
	*out = (struct resolved){.st = r->st, .off = o, .via = SLT_VIA_TRACKED};
	return 0;
}

static int resolve(struct tctx *t, const cs_x86_op *op, uint64_t pc,
		   struct resolved *out)
{
	const x86_op_mem *m = &op->mem;
	if (m->segment == X86_REG_GS || m->segment == X86_REG_FS)
		return SLT_AR_SEGMENT;
	if (m->base == X86_REG_RIP || m->base == X86_REG_EIP)
		return SLT_AR_GLOBAL;
	int base = slt_acc_reg(m->base), index = slt_acc_reg(m->index);
	if (base == AREG_NONE)
		return SLT_AR_GLOBAL;
	if (base == AREG_RSP)
		return SLT_AR_STACK;
	int r = resolve_reg(t, base, pc, m->disp, out);
	if (r && r != SLT_AR_STACK && index != AREG_NONE && m->scale == 1 &&
	    !resolve_reg(t, index, pc, m->disp, out))
		return 0;
	return r;
}

/* The stack slot key of a memory operand, or false when it is not one. */
static bool slot_key(struct tctx *t, const cs_x86_op *op, int64_t *key)
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

/* ---- instruction effects ---------------------------------------------- */

static const int caller_saved[] = {0, 1, 2, 4, 5, 8, 9, 10, 11};

static const struct afunc *func_at(const struct atrack_env *env, uint64_t pc)
{
	size_t lo = 0, hi = env->n_all;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t a = env->all[mid].ranges[0];
		if (a == pc)
			return &env->all[mid];
		if (a < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void set_reg(struct tctx *t, unsigned csreg, const struct rstate *v)
{
	int r = slt_acc_reg(csreg);
	if (r < 0)
		return;
	if (slt_acc_reg64(csreg))
		t->cur.r[r] = *v;
	else
		t->cur.r[r] = (struct rstate){0};
}

static void clobber(struct tctx *t, unsigned csreg)
{
	int r = slt_acc_reg(csreg);
	if (r >= 0)
		t->cur.r[r] = (struct rstate){0};
}

/* The pointee of a pointer member loaded from st+off (8 bytes). */
static struct rstate member_pointer(struct tctx *t, const struct resolved *res)
{
	const struct slt_type *mt =
		slt_acc_member_type(t->env->d, res->st, (uint64_t)res->off, 8);
	const struct slt_type *p;
	if (!mt || slt_acc_pointee_t(t->env->d, mt, &p))
		return (struct rstate){0};
	return (struct rstate){.kind = RK_PTR, .st = p, .via = SLT_VIA_TRACKED};
}

static int effects(struct tctx *t, const cs_insn *in, bool have_mem,
		   int mem_reason, const struct resolved *res)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *op = x->operands;
	uint64_t pc = in->address;
	struct tstate *s = &t->cur;
	unsigned id = in->id;
	bool is_jump = false, is_call = false, is_ret = false;
	for (uint8_t g = 0; g < in->detail->groups_count; g++) {
		is_jump |= in->detail->groups[g] == X86_GRP_JUMP;
		is_call |= in->detail->groups[g] == X86_GRP_CALL;
		is_ret |= in->detail->groups[g] == X86_GRP_RET ||
			  in->detail->groups[g] == X86_GRP_IRET;
	}
	if (is_call) {
		for (size_t i = 0; i < sizeof(caller_saved) / sizeof(*caller_saved); i++)
			s->r[caller_saved[i]] = (struct rstate){0};
		if (x->op_count == 1 && op[0].type == X86_OP_IMM) {
			const struct afunc *callee = func_at(t->env, (uint64_t)op[0].imm);
			const struct slt_type *p;
			if (callee && callee->ret_die &&
			    !slt_acc_pointee(t->env->d, callee->ret_die, &p))
				s->r[0] = (struct rstate){.kind = RK_PTR, .st = p,
							 .via = SLT_VIA_TRACKED};
		}
		return 0;
	}
	if (is_ret || id == X86_INS_UD2 || id == X86_INS_INT3 ||
	    id == X86_INS_HLT) {
		t->fall = false;
		return 0;
	}
	if (is_jump) {
		if (x->op_count == 1 && op[0].type == X86_OP_IMM &&
		    (uint64_t)op[0].imm > pc) {
			int rc = pend_add(t, (uint64_t)op[0].imm);
			if (rc)
				return rc;
		}
		if (id == X86_INS_JMP || id == X86_INS_LJMP)
			t->fall = false;
		return 0;
	}
	int64_t key;
	switch (id) {
	case X86_INS_PUSH:
		if (s->r[AREG_RSP].kind == RK_STACK) {
			s->r[AREG_RSP].off -= 8;
			struct rstate v = {0};
			if (op[0].type == X86_OP_REG)
				v = reg_state(t, slt_acc_reg(op[0].reg), pc);
			slot_set(s, s->r[AREG_RSP].off, &v);
		}
		return 0;
	case X86_INS_POP:
		if (op[0].type == X86_OP_REG) {
			struct rstate v = {0};
			if (s->r[AREG_RSP].kind == RK_STACK) {
				const struct rstate *p = slot_find(s, s->r[AREG_RSP].off);
				if (p)
					v = *p;
			}
			set_reg(t, op[0].reg, &v);
		}
		if (s->r[AREG_RSP].kind == RK_STACK)
			s->r[AREG_RSP].off += 8;
		return 0;
	case X86_INS_MOV:
		if (x->op_count != 2)
			break;
		if (op[0].type == X86_OP_REG && op[1].type == X86_OP_REG) {
			struct rstate v = slt_acc_reg64(op[1].reg)
				? reg_state(t, slt_acc_reg(op[1].reg), pc)
				: (struct rstate){0};
			set_reg(t, op[0].reg, &v);
			return 0;
		}
		if (op[0].type == X86_OP_REG && op[1].type == X86_OP_MEM) {
			struct rstate v = {0};
			struct rstate *p;
			if (slot_key(t, &op[1], &key)) {
				if ((p = slot_find(s, key)) && p->kind != RK_NONE)
					v = *p;
				else
					dwarf_slot(t, key, pc, &v);
			} else if (have_mem && !mem_reason && op[1].size == 8) {
				v = member_pointer(t, res);
			}
			set_reg(t, op[0].reg, &v);
			return 0;
		}
		if (op[0].type == X86_OP_MEM && slot_key(t, &op[0], &key)) {
			struct rstate v = {0};
			if (op[1].type == X86_OP_REG && slt_acc_reg64(op[1].reg) &&
			    op[0].size == 8)
				v = reg_state(t, slt_acc_reg(op[1].reg), pc);
			slot_set(s, key, &v);
			return 0;
		}
		if (op[0].type == X86_OP_MEM)
			return 0;
		break;
	case X86_INS_LEA:
		if (x->op_count == 2 && op[0].type == X86_OP_REG &&
		    op[1].type == X86_OP_MEM) {
			const x86_op_mem *m = &op[1].mem;
			struct rstate v = {0};
			int base = slt_acc_reg(m->base);
			if (m->segment == X86_REG_INVALID && base >= 0) {
				struct rstate b = reg_state(t, base, pc);
				if (b.kind == RK_PTR || (b.kind == RK_STACK &&
							 m->index == X86_REG_INVALID)) {
					v = b;
					v.off += m->disp;
					if (b.kind == RK_PTR) {
						v.via = SLT_VIA_TRACKED;
						v.arith = 1;
					}
				}
			}
			set_reg(t, op[0].reg, &v);
			return 0;
		}
		break;
	case X86_INS_ADD:
	case X86_INS_SUB:
		if (x->op_count == 2 && op[0].type == X86_OP_REG &&
		    op[1].type == X86_OP_IMM && slt_acc_reg64(op[0].reg)) {
			int r = slt_acc_reg(op[0].reg);
			struct rstate v = reg_state(t, r, pc);
			if (v.kind != RK_NONE) {
				v.off += id == X86_INS_ADD ? op[1].imm : -op[1].imm;
				if (v.kind == RK_PTR) {
					v.arith = 1;
					v.via = SLT_VIA_TRACKED;
				}
			}
			s->r[r] = v;
			return 0;
		}
		/* pointer += index register: an element of an array of the
		 * pointee (the index being a multiple of its size), as lea
		 * with an index register */
		if (id == X86_INS_ADD && x->op_count == 2 &&
		    op[0].type == X86_OP_REG && op[1].type == X86_OP_REG &&
		    slt_acc_reg64(op[0].reg) && slt_acc_reg64(op[1].reg)) {
			int r = slt_acc_reg(op[0].reg);
			struct rstate v = reg_state(t, r, pc);
			struct rstate o = reg_state(t, slt_acc_reg(op[1].reg), pc);
			if (v.kind == RK_PTR && o.kind == RK_NONE) {
				v.arith = 1;
				v.via = SLT_VIA_TRACKED;
			} else {
				v = (struct rstate){0};
			}
			s->r[r] = v;
			return 0;
		}
		break;
	case X86_INS_XCHG:
		if (x->op_count == 2 && op[0].type == X86_OP_REG &&
		    op[1].type == X86_OP_REG && slt_acc_reg64(op[0].reg) &&
		    slt_acc_reg64(op[1].reg)) {
			int a = slt_acc_reg(op[0].reg), b = slt_acc_reg(op[1].reg);
			struct rstate va = reg_state(t, a, pc), vb = reg_state(t, b, pc);
			s->r[a] = vb;
			s->r[b] = va;
			return 0;
		}
		break;
	case X86_INS_CMPXCHG:
		clobber(t, X86_REG_RAX);
		break;
	default:
		break;
	}
	/* anything else: every register written loses what it held */
	for (uint8_t i = 0; i < x->op_count; i++)
		if (op[i].type == X86_OP_REG && (op[i].access & CS_AC_WRITE))
			clobber(t, op[i].reg);
	for (uint8_t i = 0; i < in->detail->regs_write_count; i++)
		clobber(t, in->detail->regs_write[i]);
	/* a stack store of anything we do not follow */
	for (uint8_t i = 0; i < x->op_count; i++)
		if (op[i].type == X86_OP_MEM && (op[i].access & CS_AC_WRITE) &&
		    slot_key(t, &op[i], &key))
			slot_set(s, key, &(struct rstate){0});
	return 0;
}

/* ---- the pass --------------------------------------------------------- */

static uint32_t kind_of(const cs_insn *in, const cs_x86_op *op)
{
	const cs_x86 *x = &in->detail->x86;
	if (in->id == X86_INS_LEA)
		return SLT_ACCESS_ADDR;
	if (x->prefix[0] == X86_PREFIX_LOCK || in->id == X86_INS_XCHG)
		return SLT_ACCESS_LOAD | SLT_ACCESS_STORE | SLT_ACCESS_ATOMIC;
	switch (in->id) {
	case X86_INS_CMPXCHG: case X86_INS_CMPXCHG8B: case X86_INS_CMPXCHG16B:
	case X86_INS_XADD:
		return SLT_ACCESS_LOAD | SLT_ACCESS_STORE;
	default:
		break;
	}
	uint32_t k = 0;
	if (op->access & CS_AC_READ)
		k |= SLT_ACCESS_LOAD;
	if (op->access & CS_AC_WRITE)
		k |= SLT_ACCESS_STORE;
	return k ? k : SLT_ACCESS_LOAD;
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

static bool type_wanted(const struct slt_access_opts *o, const struct slt_type *st)
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
	if (counted) {
		reason = resolve(t, mem, in->address, &res);
		if (in->id == X86_INS_LEA) {
			m->n_lea++;
		} else {
			af->n_mem++;
			af->reasons[reason]++;
		}
		bool arith_lea = in->id == X86_INS_LEA &&
				 mem->mem.index != X86_REG_INVALID;
		if (!reason && !arith_lea && type_wanted(t->env->opts, res.st)) {
			struct slt_access_site *s = slt_dw_vec_push(t->env->d, sites);
			if (!s)
				return SLT_ENOMEM;
			uint32_t kind = kind_of(in, mem);
			*s = (struct slt_access_site){
				.pc = in->address,
				.type = res.st->name ? res.st->name : "",
				.type_size = res.st->size,
				.offset = res.off,
				.width = kind == SLT_ACCESS_ADDR ? 0 : mem->size,
				.kind = kind,
				.func = func_idx,
				.via = res.via,
				.insn_len = (uint8_t)in->size,
			};
		}
	}
	return effects(t, in, counted, reason, &res);
}

int slt_acc_track(const struct atrack_env *env, const struct afunc *f,
		  uint32_t func_idx, struct slt_access_map *m, struct vec *sites)
{
	struct slt_access_func *af = &m->funcs[func_idx];
	struct tctx t = {.env = env, .f = f, .fall = true};
	state_reset(&t.cur, true);
	cs_insn *in = cs_malloc(env->cs);
	if (!in || seed_init(&t)) {
		cs_free(in, 1);
		free(t.seed);
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
		}
	}
	cs_free(in, 1);
	free(t.pend);
	free(t.seed);
	return rc;
}
