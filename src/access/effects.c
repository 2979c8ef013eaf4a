/* SPDX-License-Identifier: MIT */
/*
 * What each instruction does to the tracked state of the access map's
 * per-function pass (track.c): moves, loads of pointer members, lea,
 * add/sub, push/pop, spills, xchg, calls (the caller-saved registers
 * clobbered, %rax given the callee's return type, the ftrace hook and
 * paravirt calls keeping registers) and branches, after perf's
 * update_insn_state_x86() (tools/perf/arch/x86/annotate/instructions.c);
 * and, for call summaries (calls.c), the pointers each call passes.
 */
#include <stdlib.h>
#include <string.h>

#include "access/track_int.h"

/* ---- instruction effects ---------------------------------------------- */

const int acc_caller_saved[ACC_N_CALLER_SAVED] = {0, 1, 2, 4, 5, 8, 9, 10, 11};

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

/* A load whose source has a known type: a struct member, a typed
 * variable, a typed stack datum. */
static bool typed_load(bool have_mem, int mem_reason)
{
	return have_mem && (!mem_reason || mem_reason == SLT_AR_STACK_LOCAL ||
			    mem_reason == SLT_AR_VAR_TYPED);
}

/* The register (any width: a narrower destination zero- or sign-extends,
 * the value keeps its type) holds a typed non-pointer value. */
static void set_scalar(struct tctx *t, unsigned csreg)
{
	int r = slt_acc_reg(csreg);
	if (r >= 0 && r != AREG_RSP)
		t->cur.r[r] = (struct rstate){.kind = RK_SCALAR};
}

static void clobber(struct tctx *t, unsigned csreg)
{
	int r = slt_acc_reg(csreg);
	if (r >= 0)
		t->cur.r[r] = (struct rstate){0};
}

/* A constant that is the offset of a per-CPU struct variable's byte in
 * the per-CPU area (globals.c), else nothing. */
static struct rstate percpu_offset(struct tctx *t, int64_t imm)
{
	const struct aglobals *g = t->env->globals;
	const struct slt_type *st;
	int64_t off;
	uint64_t elem;
	if (!g || !g->percpu || imm <= 0 ||
	    slt_acc_globals_at(t->env->d, g, true, false, imm, 0, &st, &off, &elem))
		return (struct rstate){0};
	return (struct rstate){.kind = RK_PCPU, .st = st, .off = off};
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

/* A direct call (or a jump to another function's entry: a tail call):
 * record the pointers it passes (struct acall_edge from our own
 * arguments, struct acall_site into a known struct) for calls.c. */
static int call_args(struct tctx *t, const cs_insn *in, bool is_call)
{
	const cs_x86 *x = &in->detail->x86;
	if (!t->env->calls || x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
		return 0;
	uint64_t target = (uint64_t)x->operands[0].imm;
	const struct afunc *callee = func_at(t->env, target);
	if (!callee || (!is_call && callee == t->f))
		return 0;
	uint32_t ci = (uint32_t)(callee - t->env->all);
	for (int i = 0; i < 6; i++) {
		struct rstate v = acc_reg_state(t, acc_arg_regs[i], in->address);
		if (v.arg) {
			struct acall_edge *e = slt_dw_vec_push(t->env->d, &t->env->calls->edges);
			if (!e)
				return SLT_ENOMEM;
			*e = (struct acall_edge){.caller = t->func_idx, .callee = ci,
						 .carg = v.arg, .cidx = (uint8_t)(i + 1),
						 .coff = v.aoff};
		}
		if (v.kind == RK_PTR && v.off >= 0 && (uint64_t)v.off < v.st->size &&
		    slt_acc_type_wanted(t->env->opts, v.st)) {
			struct acall_site *c = slt_dw_vec_push(t->env->d, &t->env->calls->sites);
			if (!c)
				return SLT_ENOMEM;
			*c = (struct acall_site){.pc = in->address, .st = v.st,
						 .off = v.off, .func = t->func_idx,
						 .callee = ci, .idx = (uint8_t)(i + 1),
						 .insn_len = (uint8_t)in->size};
		}
	}
	return 0;
}

/* The hook -pg / -mfentry put first in every function (the kernel's
 * ftrace): __fentry__, mcount; it saves and restores every register.
 * Known by name when the assembler described it, else by having no DWARF
 * function at all. */
static bool profiling_hook(struct tctx *t, uint64_t target)
{
	static const char *const names[] = {"__fentry__", "mcount", "_mcount",
					    "__mcount"};
	const struct afunc *f = func_at(t->env, target);
	if (!f)
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (f->name && !strcmp(f->name, names[i]))
			return true;
	return false;
}

int acc_effects(struct tctx *t, const cs_insn *in, bool have_mem,
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
	if (is_call || (is_jump && id == X86_INS_JMP)) {
		int rc = call_args(t, in, is_call);
		if (rc)
			return rc;
	}
	if (is_call && x->op_count == 1 && op[0].type == X86_OP_MEM &&
	    op[0].mem.base == X86_REG_RIP) {
		/* call *slot(%rip): the kernel's paravirt calls (pv_ops),
		 * some of which keep every register but %rax (PV_CALLEE_SAVE:
		 * the compiler then reuses the argument registers after the
		 * call); a register such a callee clobbers is dead to the
		 * caller, so keeping its state cannot mislead */
		s->r[0] = (struct rstate){0};
		return 0;
	}
	if (is_call && pc == t->f->ranges[0] && x->op_count == 1 &&
	    op[0].type == X86_OP_IMM && profiling_hook(t, (uint64_t)op[0].imm))
		return 0; /* keeps every register; perf ignores it too */
	if (is_call) {
		for (size_t i = 0; i < ACC_N_CALLER_SAVED; i++)
			s->r[acc_caller_saved[i]] = (struct rstate){0};
		if (x->op_count == 1 && op[0].type == X86_OP_IMM) {
			const struct afunc *callee = func_at(t->env, (uint64_t)op[0].imm);
			const struct slt_type *p;
			if (callee && callee->ret_die &&
			    !slt_acc_pointee(t->env->d, callee->ret_die, &p))
				s->r[0] = (struct rstate){.kind = RK_PTR, .st = p,
							 .via = SLT_VIA_TRACKED};
			else if (callee && callee->ret_die)
				/* a value of the callee's return type */
				s->r[0] = (struct rstate){.kind = RK_SCALAR};
		}
		return 0;
	}
	if (is_ret || id == X86_INS_UD2 || id == X86_INS_INT3 ||
	    id == X86_INS_HLT) {
		t->fall = false;
		return 0;
	}
	if (is_jump) {
		if (x->op_count != 1 || op[0].type != X86_OP_IMM)
			t->indirect = true;   /* a jump table: loops.c */
		if (x->op_count == 1 && op[0].type == X86_OP_IMM &&
		    (uint64_t)op[0].imm > pc) {
			int rc = acc_pend_add(t, (uint64_t)op[0].imm);
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
				v = acc_reg_state(t, slt_acc_reg(op[0].reg), pc);
			acc_slot_set(s, s->r[AREG_RSP].off, &v);
		}
		return 0;
	case X86_INS_POP:
		if (op[0].type == X86_OP_REG) {
			struct rstate v = {0};
			if (s->r[AREG_RSP].kind == RK_STACK) {
				const struct rstate *p = acc_slot_find(s, s->r[AREG_RSP].off);
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
				? acc_reg_state(t, slt_acc_reg(op[1].reg), pc)
				: (struct rstate){0};
			set_reg(t, op[0].reg, &v);
			return 0;
		}
		if (op[0].type == X86_OP_REG && op[1].type == X86_OP_MEM) {
			struct rstate v = {0};
			struct rstate *p;
			if (acc_slot_key(t, &op[1], &key)) {
				if ((p = acc_slot_find(s, key)))
					v = *p;
				struct rstate d;
				/* DWARF's pointer in the slot over a
				 * value only known to be typed */
				bool untyped = v.kind == RK_NONE || v.kind == RK_SCALAR;
				if (untyped && acc_dwarf_slot(t, key, pc, &d)) {
					d.arg = v.arg;
					d.aoff = v.aoff;
					v = d;
				} else if (untyped && have_mem &&
					   !mem_reason && op[1].size == 8) {
					/* a pointer member of a struct on
					 * the stack */
					v = member_pointer(t, res);
				}
				if (v.kind == RK_NONE && have_mem &&
				    (!mem_reason || mem_reason == SLT_AR_STACK_LOCAL))
					v.kind = RK_SCALAR;
			} else if (have_mem && !mem_reason && op[1].size == 8) {
				v = member_pointer(t, res);
			} else if (have_mem && res->loaded && op[1].size == 8) {
				/* a global or per-CPU pointer (current_task) */
				v = (struct rstate){.kind = RK_PTR, .st = res->loaded,
						    .via = SLT_VIA_TRACKED};
			}
			set_reg(t, op[0].reg, &v);
			if (v.kind == RK_NONE && typed_load(have_mem, mem_reason))
				set_scalar(t, op[0].reg);
			return 0;
		}
		if (op[0].type == X86_OP_MEM && acc_slot_key(t, &op[0], &key)) {
			struct rstate v = {0};
			if (op[1].type == X86_OP_REG && slt_acc_reg64(op[1].reg) &&
			    op[0].size == 8)
				v = acc_reg_state(t, slt_acc_reg(op[1].reg), pc);
			else if (op[1].type == X86_OP_REG && slt_acc_reg(op[1].reg) >= 0 &&
				 acc_reg_state(t, slt_acc_reg(op[1].reg), pc).kind == RK_SCALAR)
				v.kind = RK_SCALAR;  /* a narrower typed value */
			acc_slot_set(s, key, &v);
			return 0;
		}
		if (op[0].type == X86_OP_MEM)
			return 0;
		if (op[0].type == X86_OP_REG && op[1].type == X86_OP_IMM &&
		    op[0].size >= 4 && slt_acc_reg(op[0].reg) >= 0) {
			/* 32-bit destinations zero-extend: per-CPU offsets
			 * are below 4 GiB */
			struct rstate v = percpu_offset(t, op[1].imm);
			if (v.kind == RK_NONE)  /* a 32-bit one zero-extends */
				v = (struct rstate){.kind = RK_CONST,
						    .off = op[0].size == 8 ? op[1].imm
						    : (int64_t)(uint32_t)op[1].imm};
			s->r[slt_acc_reg(op[0].reg)] = v;
			return 0;
		}
		break;
	case X86_INS_LEA:
		if (x->op_count == 2 && op[0].type == X86_OP_REG &&
		    op[1].type == X86_OP_MEM) {
			const x86_op_mem *m = &op[1].mem;
			struct rstate v = {0};
			int base = slt_acc_reg(m->base);
			if (m->segment == X86_REG_INVALID && base >= 0) {
				struct rstate b = acc_reg_state(t, base, pc);
				int dst = slt_acc_reg(op[0].reg);
				if (b.kind == RK_STACK && have_mem && !mem_reason &&
				    m->index == X86_REG_INVALID &&
				    dst != AREG_RSP && dst != AREG_RBP) {
					/* the address of (a member of) a
					 * struct on the stack (stack.c) */
					b = (struct rstate){.kind = RK_PTR,
							    .st = res->st,
							    .via = SLT_VIA_TRACKED,
							    .arg = b.arg,
							    .aoff = b.aoff};
					v = b;
					v.off = res->off;
				} else if (b.kind == RK_PTR || (b.kind == RK_STACK &&
							 m->index == X86_REG_INVALID)) {
					v = b;
					v.off += m->disp;
					if (b.kind == RK_PTR) {
						v.via = SLT_VIA_TRACKED;
						v.arith = 1;
					}
				}
				v.arg = m->index == X86_REG_INVALID ? b.arg : 0;
				v.aoff = b.aoff + m->disp;
			} else if (m->segment == X86_REG_INVALID &&
				   m->index == X86_REG_INVALID && have_mem &&
				   !mem_reason) {
				/* the address of a global struct's member */
				v = (struct rstate){.kind = RK_PTR, .st = res->st,
						    .off = res->off,
						    .via = SLT_VIA_TRACKED};
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
			struct rstate v = acc_reg_state(t, r, pc);
			v.aoff += id == X86_INS_ADD ? op[1].imm : -op[1].imm;
			if (v.kind == RK_NONE || v.kind == RK_SCALAR) {
				/* an unknown integer plus a known addend (an
				 * index register, track.c: indexed()) */
				v.kind = RK_INDEX;
				v.st = NULL;
				v.off = id == X86_INS_ADD ? op[1].imm : -op[1].imm;
			} else {
				v.off += id == X86_INS_ADD ? op[1].imm : -op[1].imm;
				if (v.kind == RK_PTR) {
					v.arith = 1;
					v.via = SLT_VIA_TRACKED;
				}
			}
			s->r[r] = v;
			return 0;
		}
		/* per-CPU offset += a per-CPU base: this_cpu_ptr() adds
		 * %gs:this_cpu_off, per_cpu_ptr() __per_cpu_offset[cpu] */
		if (id == X86_INS_ADD && x->op_count == 2 &&
		    op[0].type == X86_OP_REG && op[1].type == X86_OP_MEM &&
		    slt_acc_reg64(op[0].reg) && op[1].size == 8 &&
		    s->r[slt_acc_reg(op[0].reg)].kind == RK_PCPU) {
			const x86_op_mem *m = &op[1].mem;
			bool this_cpu = m->segment == X86_REG_GS &&
					(m->base == X86_REG_RIP ||
					 m->base == X86_REG_INVALID) &&
					m->index == X86_REG_INVALID;
			bool per_cpu = m->segment == X86_REG_INVALID &&
				       m->base == X86_REG_INVALID &&
				       m->index != X86_REG_INVALID && m->scale == 8;
			struct rstate *v = &s->r[slt_acc_reg(op[0].reg)];
			if (this_cpu || per_cpu) {
				v->kind = RK_PTR;
				v->via = SLT_VIA_TRACKED;
			} else {
				*v = (struct rstate){0};
			}
			return 0;
		}
		/* pointer += index register: an element of an array of the
		 * pointee (the index being a multiple of its size), as lea
		 * with an index register */
		if (id == X86_INS_ADD && x->op_count == 2 &&
		    op[0].type == X86_OP_REG && op[1].type == X86_OP_REG &&
		    slt_acc_reg64(op[0].reg) && slt_acc_reg64(op[1].reg)) {
			int r = slt_acc_reg(op[0].reg);
			struct rstate v = acc_reg_state(t, r, pc);
			struct rstate o = acc_reg_state(t, slt_acc_reg(op[1].reg), pc);
			if (v.kind == RK_PTR && (o.kind == RK_NONE || o.kind == RK_SCALAR ||
						 o.kind == RK_INDEX || o.kind == RK_CONST)) {
				v.arith = 1;
				v.via = SLT_VIA_TRACKED;
				v.arg = 0;
			} else {
				v = (struct rstate){0};
			}
			s->r[r] = v;
			return 0;
		}
		break;
	case X86_INS_AND:
		/* and $-N,%rsp: the frame realigned (gcc's dynamic realignment,
		 * the DRAP register keeping the CFA): the pad is unknown, so
		 * %rsp keeps its depth as the origin of the realigned frame,
		 * which the frame pointer copied from it and its DW_OP_breg6
		 * variables share; CFA-relative slots no longer match it
		 * (stack.c) */
		if (x->op_count == 2 && op[0].type == X86_OP_REG &&
		    slt_acc_reg(op[0].reg) == AREG_RSP && op[1].type == X86_OP_IMM &&
		    op[1].imm < 0 && s->r[AREG_RSP].kind == RK_STACK) {
			t->realigned = true;
			return 0;
		}
		break;
	case X86_INS_MOVZX:
	case X86_INS_MOVSX:
	case X86_INS_MOVSXD:
		if (x->op_count == 2 && op[0].type == X86_OP_REG &&
		    op[1].type == X86_OP_MEM && typed_load(have_mem, mem_reason)) {
			set_scalar(t, op[0].reg);
			return 0;
		}
		break;
	case X86_INS_XCHG:
		if (x->op_count == 2 && op[0].type == X86_OP_REG &&
		    op[1].type == X86_OP_REG && slt_acc_reg64(op[0].reg) &&
		    slt_acc_reg64(op[1].reg)) {
			int a = slt_acc_reg(op[0].reg), b = slt_acc_reg(op[1].reg);
			struct rstate va = acc_reg_state(t, a, pc), vb = acc_reg_state(t, b, pc);
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
		if (op[i].type == X86_OP_MEM &&
		    (acc_mem_kind(in, &op[i]) & SLT_ACCESS_STORE) &&
		    acc_slot_key(t, &op[i], &key))
			acc_slot_set(s, key, &(struct rstate){0});
	return 0;
}

