/* SPDX-License-Identifier: MIT */
/*
 * Same value ahead (the per-function pass, track.c): a memory operand whose
 * base register has no DWARF variable and no tracked type at its PC, in a
 * stretch of straight-line code where a pointer variable's location begins
 * in that register a few instructions later, with nothing writing the
 * register in between: the register holds that variable's value already
 * (the location list starts late, or has a gap, while the value sits in
 * the register unchanged).  6.1's __mod_memcg_lruvec_state loads
 * pn->memcg through %rdi at 0x...e26, where DWARF locates only `lruvec';
 * `pn' is in %rdi from 0x...e39 on, and nothing writes %rdi in between.
 *
 * Straight-line: the walk stops at any jump, call, return or trap, at an
 * undecodable byte, at the end of the function's range, and after
 * ACC_AHEAD_MAX instructions; the instruction holding the operand must not
 * write the register itself (mov 8(%rax),%rax: the value after it is
 * another one).
 */
#include "access/track_int.h"

#define ACC_AHEAD_MAX 32

bool acc_writes_reg(const cs_insn *in, int reg)
{
	const cs_x86 *x = &in->detail->x86;
	for (uint8_t i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_REG &&
		    (x->operands[i].access & CS_AC_WRITE) &&
		    slt_acc_reg(x->operands[i].reg) == reg)
			return true;
	for (uint8_t i = 0; i < in->detail->regs_write_count; i++)
		if (slt_acc_reg(in->detail->regs_write[i]) == reg)
			return true;
	return false;
}

bool acc_ends_block(const cs_insn *in)
{
	for (uint8_t g = 0; g < in->detail->groups_count; g++)
		switch (in->detail->groups[g]) {
		case X86_GRP_JUMP: case X86_GRP_CALL: case X86_GRP_RET:
		case X86_GRP_IRET: case X86_GRP_INT:
			return true;
		default:
			break;
		}
	return in->id == X86_INS_UD2 || in->id == X86_INS_INT3 ||
	       in->id == X86_INS_HLT;
}

bool acc_ahead(struct tctx *t, int reg, const struct slt_type **st)
{
	const cs_insn *cur = t->insn;
	if (!cur || !t->code || !t->ahead || reg < 0 || reg == AREG_RSP ||
	    acc_writes_reg(cur, reg) || acc_ends_block(cur))
		return false;
	uint64_t addr = cur->address + cur->size;
	if (addr < t->code->addr || addr >= t->range_hi)
		return false;
	const uint8_t *p = t->code->bytes + (addr - t->code->addr);
	size_t n = (size_t)(t->range_hi - addr);
	for (int i = 0; i < ACC_AHEAD_MAX && n; i++) {
		if (acc_dwarf_ptr(t, reg, addr, st))
			return true;
		if (!cs_disasm_iter(t->env->cs, &p, &n, &addr, t->ahead) ||
		    acc_writes_reg(t->ahead, reg) || acc_ends_block(t->ahead))
			return false;
	}
	return false;
}
