/* SPDX-License-Identifier: MIT */
/*
 * capstone register names -> the DWARF register numbers of x86-64 (System V
 * psABI, figure 3.36: 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp,
 * 7 rsp, 8..15 r8..r15), for every width of each register.
 */
#include <stdint.h>

#include "access/access_int.h"

static const struct {
	unsigned r64, r32, r16, r8, r8h;
} regs[AREG_N] = {
	{X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL, X86_REG_AH},
	{X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL, X86_REG_DH},
	{X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL, X86_REG_CH},
	{X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL, X86_REG_BH},
	{X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL, 0},
	{X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL, 0},
	{X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL, 0},
	{X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL, 0},
	{X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B, 0},
	{X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B, 0},
	{X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B, 0},
	{X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B, 0},
	{X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B, 0},
	{X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B, 0},
	{X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B, 0},
	{X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B, 0},
};

/* capstone register id -> DWARF number + 1 (0: none), and "is 64-bit". */
static int8_t tab[X86_REG_ENDING];
static bool tab64[X86_REG_ENDING];
static bool tab_ready;

static void tab_init(void)
{
	for (int i = 0; i < AREG_N; i++) {
		unsigned all[5] = {regs[i].r64, regs[i].r32, regs[i].r16,
				   regs[i].r8, regs[i].r8h};
		for (int k = 0; k < 5; k++)
			if (all[k] && all[k] < X86_REG_ENDING)
				tab[all[k]] = (int8_t)(i + 1);
		tab64[regs[i].r64] = true;
	}
	tab_ready = true;
}

int slt_acc_reg(unsigned r)
{
	if (!tab_ready)
		tab_init();
	return r < X86_REG_ENDING ? tab[r] - 1 : AREG_NONE;
}

bool slt_acc_reg64(unsigned r)
{
	if (!tab_ready)
		tab_init();
	return r < X86_REG_ENDING && tab64[r];
}
