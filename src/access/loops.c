/* SPDX-License-Identifier: MIT */
/*
 * Loop bodies reached by their back edge alone (the per-function pass,
 * track.c).  The pass replays instructions in address order and gives a
 * branch target the state common to its forward edges.  A loop body that
 * the compiler places after an unconditional jump and enters only from
 * below (gcc and clang: `jmp test; body: ...; test: ...; jcc body`, or the
 * loop entered in the middle of its test: `jne test2; jmp out; body: ...;
 * test2: ...; jle body`) has no forward edge, so it started from nothing:
 * the frame pointer's stack depth, the pointers held across the loop, all
 * lost (6.1 perf_callchain_kernel: every -0x90(%rbp) of its unwind loop
 * was "no-location").
 *
 * Every path to such a body B comes from below B's address (the function
 * is entered at its start), so it crosses over B by one of the forward
 * jumps pending at B (from above B to beyond it), then runs code after B
 * until a jump back to B.  A register that no instruction of the loop
 * (from B to its last jump back to B) writes holds at B what it holds on
 * every one of those pending edges, when they agree: B starts from the
 * merge of the pending edges' states, less every register the loop
 * writes (explicitly, or implicitly as a call clobbers the caller-saved
 * ones; %rsp: explicit writes only, as push/pop and calls balance within
 * a loop), and less the stack slots the loop stores to: a store at
 * disp(%reg) with %reg a stack address on the pending edges that the loop
 * does not write drops the slots it overlaps (gcc -O0 keeps its locals in
 * slots and stores to some of them in every loop: `lea g(%rip),%rax; mov
 * %rax,-0x18(%rbp)` before the loop, the pointer reloaded from the slot in
 * it); any other store with a base register leaves the slots as the pass
 * does (a store through a pointer is no slot), and one whose slot is not
 * known (an index, rep stos/movs, too many stores) drops them all.
 *
 * An indirect jump (a jump table: the kernel has none, built with
 * -fno-jump-tables) reaches code without a pending edge, so after one the
 * function's bodies start from nothing as before (less the frame
 * pointer: track.c, note_frame_pointer()).  The back edge is
 * looked for within ACC_LOOP_SCAN instructions of B, straight through
 * (jumps, calls and returns are read, not followed); a body whose back
 * edge is farther starts from nothing too.
 */
#include "access/track_int.h"

#define ACC_LOOP_SCAN 256

/* The direct jump target of in, 0 when it has none. */
static uint64_t jump_target(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	for (uint8_t g = 0; g < in->detail->groups_count; g++)
		if (in->detail->groups[g] == X86_GRP_JUMP)
			return x->op_count == 1 && x->operands[0].type == X86_OP_IMM
			       ? (uint64_t)x->operands[0].imm : 0;
	return 0;
}

static bool is_call(const cs_insn *in)
{
	for (uint8_t g = 0; g < in->detail->groups_count; g++)
		if (in->detail->groups[g] == X86_GRP_CALL)
			return true;
	return false;
}

#define LOOP_STORES 64

/* The stores of a loop: (base register, displacement, width), and whether
 * one's slot cannot be known. */
struct lstores {
	struct { int base; int64_t disp; uint32_t size; } s[LOOP_STORES];
	size_t n;
	bool unknown;
};

static void note_store(const cs_x86_op *op, struct lstores *ls)
{
	const x86_op_mem *m = &op->mem;
	int base = slt_acc_reg(m->base);
	if (m->segment != X86_REG_INVALID || base < 0 || base >= AREG_N)
		return;  /* per-CPU, TLS, %rip-relative or absolute: no slot */
	if (m->index != X86_REG_INVALID || ls->n == LOOP_STORES) {
		ls->unknown = true;
		return;
	}
	ls->s[ls->n].base = base;
	ls->s[ls->n].disp = m->disp;
	ls->s[ls->n++].size = op->size ? op->size : 8;
}

/* What in writes, into w (AREG_N flags) and ls; true when it stores to
 * memory. */
static bool writes(const cs_insn *in, bool *w, struct lstores *ls)
{
	const cs_x86 *x = &in->detail->x86;
	bool store = false;
	for (uint8_t i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (!(op->access & CS_AC_WRITE))
			continue;
		if (op->type == X86_OP_REG) {
			int r = slt_acc_reg(op->reg);
			if (r >= 0)
				w[r] = true;
		} else if (op->type == X86_OP_MEM && in->id != X86_INS_CMP &&
			   in->id != X86_INS_TEST && in->id != X86_INS_BT) {
			store = true;
			note_store(op, ls);
		}
	}
	for (uint8_t i = 0; i < in->detail->regs_write_count; i++) {
		int r = slt_acc_reg(in->detail->regs_write[i]);
		if (r >= 0 && r != AREG_RSP)
			w[r] = true;
	}
	if (is_call(in))
		for (int i = 0; i < ACC_N_CALLER_SAVED; i++)
			w[acc_caller_saved[i]] = true;
	/* rep movs/stos and the like store through implicit operands */
	if (in->detail->x86.prefix[0] == X86_PREFIX_REP)
		ls->unknown = store = true;
	return store;
}

/* Drop from t->cur the slots the loop's stores ls (the first n) overlap;
 * m: the pending edges' state, w: the registers the loop writes. */
static void drop_stored(struct tctx *t, const struct tstate *m, const bool *w,
			const struct lstores *ls, size_t n)
{
	struct tstate *c = &t->cur;
	for (size_t i = 0; i < n && !ls->unknown; i++) {
		int b = ls->s[i].base;
		if (m->r[b].kind != RK_STACK)
			continue;  /* through a pointer: not a slot */
		if (w[b]) {
			c->n_slots = 0;  /* a stack address the loop moves */
			return;
		}
		int64_t lo = m->r[b].off + ls->s[i].disp, hi = lo + ls->s[i].size;
		for (uint32_t k = 0; k < c->n_slots; k++)
			if (c->slots[k].key < hi && c->slots[k].key + 8 > lo)
				c->slots[k].s = (struct rstate){0};
	}
	if (ls->unknown)
		c->n_slots = 0;
}

bool acc_loop_entry(struct tctx *t, uint64_t pc)
{
	struct tstate m;
	bool any = false;
	for (size_t i = 0; i < t->n_pend; i++) {
		if (t->pend[i].pc <= pc)
			continue;
		if (!any)
			m = t->pend[i].st;
		else
			acc_state_merge(&m, &t->pend[i].st);
		any = true;
	}
	if (!any || t->indirect || !t->code || !t->ahead || pc < t->code->addr || pc >= t->range_hi)
		return false;
	const uint8_t *p = t->code->bytes + (pc - t->code->addr);
	size_t n = (size_t)(t->range_hi - pc);
	uint64_t addr = pc;
	bool w[AREG_N] = {false}, loop_w[AREG_N] = {false};
	bool store = false, loop_store = false, back = false, pad = true;
	struct lstores ls = {.n = 0};
	size_t loop_n = 0;
	bool loop_unknown = false;
	uint64_t head = pc;   /* the body after the alignment padding at pc */
	for (int i = 0; i < ACC_LOOP_SCAN && n; i++) {
		if (!cs_disasm_iter(t->env->cs, &p, &n, &addr, t->ahead))
			break;
		if (pad && t->ahead->id == X86_INS_NOP) {
			head = addr;
			continue;
		}
		pad = false;
		store |= writes(t->ahead, w, &ls);
		uint64_t to = jump_target(t->ahead);
		if (to >= pc && to <= head) {
			back = true;
			loop_store = store;
			loop_n = ls.n;
			loop_unknown = ls.unknown;
			for (int r = 0; r < AREG_N; r++)
				loop_w[r] = w[r];
		}
	}
	if (!back)
		return false;
	t->cur = m;
	for (int r = 0; r < AREG_N; r++)
		if (loop_w[r])
			t->cur.r[r] = (struct rstate){0};
	if (loop_store) {
		ls.unknown = loop_unknown;
		drop_stored(t, &m, loop_w, &ls, loop_n);
	}
	return true;
}
