/* SPDX-License-Identifier: MIT */
/*
 * A memory operand's outcome and site (the per-function pass, track.c):
 * counted by reason, recorded as a call-summary access when its base is
 * one of the function's pointer arguments (calls.c), its struct's
 * embedded types noted, and a site of its type when attributed.
 */
#include "access/track_int.h"

struct embed_ctx {
	struct tctx *t;
	const struct slt_type *outer;
	int rc;
};

static void embed_visit(void *ctx, const struct slt_type *inner)
{
	struct embed_ctx *e = ctx;
	if (e->rc || !inner->name || !inner->name[0])
		return;
	struct aembed *p = slt_dw_vec_push(e->t->env->d, &e->t->env->calls->embeds);
	if (!p)
		e->rc = SLT_ENOMEM;
	else
		*p = (struct aembed){.inner = inner, .outer = e->outer};
}

/* Record the named structs embedded in res->st on the path to the access
 * (for slt_access_map.embeds: how many container types each is seen in). */
static int note_embeds(struct tctx *t, const struct resolved *res)
{
	if (!t->env->calls)
		return 0;
	struct embed_ctx e = {.t = t, .outer = res->st};
	slt_acc_path_visit(t->env->d, res->st, (uint64_t)res->off, NULL, NULL,
			   embed_visit, &e);
	return e.rc;
}

/* An access through one of the function's own pointer arguments: a
 * summary entry (calls.c). */
static int arg_access(struct tctx *t, const cs_insn *in, const cs_x86_op *mem)
{
	const x86_op_mem *m = &mem->mem;
	int base = slt_acc_reg(m->base);
	if (!t->env->calls || base < 0 || m->index != X86_REG_INVALID ||
	    m->segment != X86_REG_INVALID || !t->cur.r[base].arg)
		return 0;
	struct acall_acc *a = slt_dw_vec_push(t->env->d, &t->env->calls->acc);
	if (!a)
		return SLT_ENOMEM;
	*a = (struct acall_acc){.func = t->func_idx, .arg = t->cur.r[base].arg,
				.off = t->cur.r[base].aoff + m->disp,
				.width = mem->size,
				.kind = (uint8_t)acc_mem_kind(in, mem)};
	return 0;
}

/* Count the memory operand mem of in, attribute it (*res, *reason) and
 * record its site. */
int acc_mem_operand(struct tctx *t, const cs_insn *in, const cs_x86_op *mem,
		    struct slt_access_func *af, uint32_t func_idx,
		    struct slt_access_map *m, struct vec *sites,
		    struct resolved *res, int *reason)
{
	*reason = acc_resolve(t, in, mem, res);
	if (*reason == SLT_AR_NO_VAR && t->f->bad_loc)
		*reason = SLT_AR_BAD_LOC;  /* its location was unreadable */
	bool lea = in->id == X86_INS_LEA;
	if (lea) {
		m->n_lea++;
	} else {
		af->n_mem++;
		af->reasons[*reason]++;
		int rc = arg_access(t, in, mem);
		if (rc)
			return rc;
	}
	bool arith_lea = lea && mem->mem.index != X86_REG_INVALID;
	if (*reason || arith_lea)
		return 0;
	int rc = note_embeds(t, res);
	if (rc || !slt_acc_type_wanted(t->env->opts, res->st))
		return rc;
	struct slt_access_site *s = slt_dw_vec_push(t->env->d, sites);
	if (!s)
		return SLT_ENOMEM;
	uint32_t kind = acc_mem_kind(in, mem);
	uint64_t width = acc_strop_width(t, in, mem);
	if (res->st->size > (uint64_t)res->off &&
	    width > res->st->size - (uint64_t)res->off)
		width = res->st->size - (uint64_t)res->off;
	*s = (struct slt_access_site){
		.pc = in->address,
		.type = res->st->name ? res->st->name : "",
		.type_size = res->st->size,
		.offset = res->off,
		.width = kind == SLT_ACCESS_ADDR ? 0 : (uint32_t)width,
		.kind = kind,
		.func = func_idx,
		.via = res->via,
		.insn_len = (uint8_t)in->size,
	};
	return 0;
}

