/* SPDX-License-Identifier: MIT */
/*
 * String operations (stos, movs): `rep stos %rax,(%rdi)` zeroes and
 * `rep movs (%rsi),(%rdi)` copies %rcx elements, so the access covers
 * %rcx times the element size from the start offset when the tracked
 * state knows %rcx as a constant (mov $0x40,%ecx), else the first
 * element alone (the length is unknown).  movs reads its second memory
 * operand: a load beside the store.
 */
#include "access/track_int.h"

#define AREG_RCX 2  /* DWARF register numbers: rax 0, rdx 1, rcx 2 */

static bool is_movs(unsigned id)
{
	return id == X86_INS_MOVSB || id == X86_INS_MOVSW ||
	       id == X86_INS_MOVSD || id == X86_INS_MOVSQ;
}

static bool is_stos(unsigned id)
{
	return id == X86_INS_STOSB || id == X86_INS_STOSW ||
	       id == X86_INS_STOSD || id == X86_INS_STOSQ;
}

/* A string operation: stos, or movs with two memory operands (not the
 * SSE movsd, whose mnemonic capstone shares). */
static bool string_op(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	if (is_stos(in->id))
		return true;
	return is_movs(in->id) && x->op_count == 2 &&
	       x->operands[0].type == X86_OP_MEM &&
	       x->operands[1].type == X86_OP_MEM;
}

const cs_x86_op *acc_strop_source(const cs_insn *in)
{
	if (!string_op(in) || is_stos(in->id))
		return NULL;
	return &in->detail->x86.operands[1];
}

uint64_t acc_strop_width(const struct tctx *t, const cs_insn *in,
			 const cs_x86_op *op)
{
	const cs_x86 *x = &in->detail->x86;
	uint64_t elem = op->size;
	if (!string_op(in) || x->prefix[0] != X86_PREFIX_REP)
		return elem;
	const struct rstate *c = &t->cur.r[AREG_RCX];
	if (c->kind != RK_CONST || c->off <= 0 ||
	    (uint64_t)c->off > UINT32_MAX / (elem ? elem : 1))
		return elem;  /* length unknown: the first element */
	return (uint64_t)c->off * elem;
}
