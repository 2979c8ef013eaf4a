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
 * a loop), and less the stack slots when the loop stores to memory.
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

/* What in writes, into w (AREG_N flags); true when it stores to memory. */
static bool writes(const cs_insn *in, bool *w)
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
	return store || in->detail->x86.prefix[0] == X86_PREFIX_REP;
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
	uint64_t head = pc;   /* the body after the alignment padding at pc */
	for (int i = 0; i < ACC_LOOP_SCAN && n; i++) {
		if (!cs_disasm_iter(t->env->cs, &p, &n, &addr, t->ahead))
			break;
		if (pad && t->ahead->id == X86_INS_NOP) {
			head = addr;
			continue;
		}
		pad = false;
		store |= writes(t->ahead, w);
		uint64_t to = jump_target(t->ahead);
		if (to >= pc && to <= head) {
			back = true;
			loop_store = store;
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
	if (loop_store)
		t->cur.n_slots = 0;
	return true;
}
