/* SPDX-License-Identifier: MIT */
/*
 * Stack frame operands of the per-function pass (track.c): an operand
 * whose base is %rsp, or a register holding a stack address (the frame
 * pointer %rbp, a copy made by lea), at a known depth below the %rsp of
 * the function's entry.  As perf's data-type profiling does for
 * DW_OP_fbreg locals (tools/perf/util/annotate-data.c), the operand is
 *   - a struct access when a DWARF variable of struct/union type (or an
 *     array of them) located in that stack slot holds it: a struct on the
 *     stack is accessed at an offset like any other (SLT_AR_OK);
 *   - a typed stack datum (SLT_AR_STACK_LOCAL) when a DWARF variable of
 *     another type holds it (a scalar, an array of scalars, a pointer
 *     kept in the frame), or when it spills or reloads a value whose type
 *     the pass knows (a tracked pointer, or a value loaded from a struct
 *     member, a typed variable or slot: the slot's or the stored
 *     register's state);
 *   - else a stack operation (SLT_AR_STACK): a spill or reload of an
 *     untyped value, an outgoing argument, a callee-saved register kept
 *     by mov: perf's "(stack operation)" pseudo type.
 */
#include <stdlib.h>

#include "access/track_int.h"

int acc_stack_init(struct tctx *t)
{
	const struct afunc *f = t->f;
	t->slotv = malloc((f->n_vars + 1) * sizeof(*t->slotv));
	if (!t->slotv)
		return SLT_ENOMEM;
	t->n_slotv = 0;
	for (size_t i = 0; i < f->n_vars; i++)
		if (f->vars[i].how == AV_SLOT || f->vars[i].how == AV_OBJ)
			t->slotv[t->n_slotv++] = i;
	return 0;
}

bool acc_slot_var_key(const struct tctx *t, const struct avar *v, int64_t *key)
{
	/* CFA = entry %rsp + 8 (the return address); unknown in a realigned
	 * frame */
	if (v->reg == -2) {
		if (t->realigned)
			return false;
		*key = v->off + 8;
		return true;
	}
	if ((v->reg == AREG_RSP || v->reg == AREG_RBP) &&
	    t->cur.r[v->reg].kind == RK_STACK) {
		*key = t->cur.r[v->reg].off + v->off;
		return true;
	}
	return false;
}

/* The DWARF variable in the frame holding byte key at pc (or, for a store,
 * one whose location starts right after it: the spill that puts the
 * variable there): 0 and the struct access, SLT_AR_STACK_LOCAL for a
 * variable of another type, SLT_AR_STACK when none. */
static int dwarf_object(struct tctx *t, const cs_insn *in, const x86_op_mem *m,
			int64_t key, bool store, struct resolved *out)
{
	struct dw *d = t->env->d;
	uint64_t pc = in->address, next = pc + in->size;
	int reason = SLT_AR_STACK;
	for (size_t i = 0; i < t->n_slotv; i++) {
		const struct avar *v = &t->f->vars[t->slotv[i]];
		if (!(pc >= v->lo && pc < v->hi) && !(store && v->lo == next))
			continue;
		int64_t k;
		if (!acc_slot_var_key(t, v, &k) || key < k)
			continue;
		uint64_t size = 8;
		const struct slt_type *ty = NULL;
		if (v->how == AV_OBJ) {
			ty = slt_dw_tr(d, v->type_die, false);
			if (!ty) {
				d->rc = 0;
				continue;
			}
			ty = slt_dw_strip(ty);
			if (!ty)
				continue;
			size = ty->size;
		}
		if ((uint64_t)(key - k) >= size)
			continue;
		reason = SLT_AR_STACK_LOCAL;
		const struct slt_type *st;
		int64_t off;
		uint64_t elem;
		if (!ty || slt_acc_object_at(d, ty, (uint64_t)(key - k), &st,
					     &off, &elem))
			continue;
		if (m->index != X86_REG_INVALID) {
			/* var[i] or var.arr[i]: the scale steps over the
			 * elements */
			unsigned scale = (unsigned)m->scale;
			uint64_t e2 = 0;
			if (!acc_scale_steps(elem, scale)) {
				slt_acc_path(d, st, (uint64_t)off, NULL, &e2);
				if (!acc_scale_steps(e2, scale))
					continue;
			}
		}
		*out = (struct resolved){.st = st, .off = off, .via = SLT_VIA_DWARF};
		return 0;
	}
	return reason;
}

int acc_stack_resolve(struct tctx *t, const cs_insn *in, const cs_x86_op *op,
		      int base, struct resolved *out)
{
	const x86_op_mem *m = &op->mem;
	const struct rstate *b = &t->cur.r[base];
	if (b->kind != RK_STACK)
		return SLT_AR_STACK;
	int64_t key = b->off + m->disp;
	bool store = (acc_mem_kind(in, op) & SLT_ACCESS_STORE) != 0;
	int r = dwarf_object(t, in, m, key, store, out);
	if (r != SLT_AR_STACK || m->index != X86_REG_INVALID)
		return r;
	/* a reload of a typed value, or a spill of one */
	struct rstate *slot = acc_slot_find(&t->cur, key);
	if (slot && acc_rk_typed(slot->kind) && !store)
		return SLT_AR_STACK_LOCAL;
	const cs_x86 *x = &in->detail->x86;
	if (store && in->id == X86_INS_MOV && x->op_count == 2 &&
	    x->operands[1].type == X86_OP_REG &&
	    slt_acc_reg(x->operands[1].reg) >= 0) {
		struct rstate v = acc_reg_state(t, slt_acc_reg(x->operands[1].reg),
						in->address);
		if (v.kind == RK_SCALAR ||
		    (acc_rk_typed(v.kind) && slt_acc_reg64(x->operands[1].reg)))
			return SLT_AR_STACK_LOCAL;
	}
	return SLT_AR_STACK;
}
