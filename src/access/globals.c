/* SPDX-License-Identifier: MIT */
/*
 * Variables at fixed addresses (DW_TAG_variable with DW_AT_location
 * DW_OP_addr) whose type is a struct or union, or an array of them: one
 * table sorted by address per binary, a binary search per %rip-relative,
 * absolute or per-CPU (%gs:offset) memory operand.  The x86-64 kernel links
 * .data..percpu at address 0, so its per-CPU variables' DWARF addresses
 * are their offsets in the per-CPU area, which %gs points to.
 */
#include <stdlib.h>

#include "common/grow.h"
#include "access/access_int.h"

/* The type the table keeps: a struct/union, or an array (of arrays) of
 * them, or a pointer (to a struct: checked when loaded); NULL for anything
 * else. */
static const struct slt_type *kept(const struct slt_type *t)
{
	for (int depth = 0; t && depth < 8; depth++) {
		t = slt_dw_strip(t);
		if (!t)
			return NULL;
		if (!depth && t->kind == SLT_T_PTR)
			return t;
		if (t->kind == SLT_T_STRUCT || t->kind == SLT_T_UNION)
			return t;
		if (t->kind != SLT_T_ARRAY)
			return NULL;
		t = t->ref;
	}
	return NULL;
}

int slt_acc_globals_add(struct dw *d, struct aglobals *g, Dwarf_Die die)
{
	uint64_t addr, type;
	if (!slt_acc_scope_global(d, die, &addr, &type))
		return 0;
	const struct slt_type *t = slt_dw_tr(d, type, false);
	if (!t) {
		d->rc = 0;
		return 0;
	}
	t = slt_dw_strip(t);
	if (!t || !t->size || addr + t->size < addr || t->kind == SLT_T_FUNC)
		return 0;
	/* a variable of another type: typed, no struct (not at address 0,
	 * where DWARF leaves variables of discarded sections: only the
	 * kernel's per-CPU area starts there, with a struct) */
	bool other = !kept(t);
	if (other && !addr)
		return 0;
	if (slt_grow((void **)&g->v, &g->cap, g->n + 1, sizeof(*g->v), 256))
		return SLT_ENOMEM;
	g->v[g->n++] = (struct aglobal){.lo = addr, .hi = addr + t->size, .t = t,
					.other = other};
	return 0;
}

static int cmp_global(const void *a, const void *b)
{
	const struct aglobal *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi > y->hi ? -1 : x->hi < y->hi; /* the larger first */
}

void slt_acc_globals_done(struct aglobals *g)
{
	if (!g->n)
		return;
	if (g->n > 1) /* qsort(NULL, 0) is undefined */
		qsort(g->v, g->n, sizeof(*g->v), cmp_global);
	/* one entry per address range: a variable DIE repeated across CUs
	 * (LTO, partial units) keeps one; overlapping ranges keep the first,
	 * at one address the largest (DWARF leaves variables of discarded
	 * sections at address 0, where the kernel's per-CPU area starts with
	 * fixed_percpu_data) */
	size_t w = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (w && g->v[i].lo < g->v[w - 1].hi)
			continue;
		g->v[w++] = g->v[i];
	}
	g->n = w;
}

void slt_acc_globals_free(struct aglobals *g)
{
	free(g->v);
	*g = (struct aglobals){0};
}

int slt_acc_globals_find(struct dw *d, const struct aglobals *g, uint64_t a,
			 const struct slt_type **st, int64_t *off,
			 uint64_t *elem)
{
	size_t lo = 0, hi = g->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->v[mid].hi <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == g->n || a < g->v[lo].lo)
		return SLT_AR_GLOBAL;
	const struct slt_type *t = g->v[lo].t;
	uint64_t o = a - g->v[lo].lo;
	*elem = 0;
	*st = NULL;
	if (g->v[lo].other)
		return SLT_AR_VAR_TYPED;
	if (t->kind == SLT_T_PTR) {
		/* a pointer variable: what loading it gives */
		if (o || slt_acc_pointee_t(d, t, st)) {
			*st = NULL;
			return SLT_AR_VAR_TYPED;  /* to no struct */
		}
		*off = 0;
		return SLT_AR_NOT_STRUCT;
	}
	return slt_acc_object_at(d, t, o, st, off, elem);
}

int slt_acc_object_at(struct dw *d, const struct slt_type *t, uint64_t o,
		      const struct slt_type **st, int64_t *off, uint64_t *elem)
{
	*elem = 0;
	*st = NULL;
	/* arrays: the offset in the element (the outermost array's element
	 * size is what an index register steps over) */
	for (int depth = 0; t->kind == SLT_T_ARRAY && depth < 8; depth++) {
		const struct slt_type *el = slt_dw_strip(t->ref);
		if (!el || !el->size)
			return SLT_AR_NO_TYPE;
		if (!*elem)
			*elem = el->size;
		o %= el->size;
		t = el;
	}
	int r = slt_acc_object(d, t, st);
	if (r)
		return r;
	if (o >= (*st)->size)
		return SLT_AR_BAD_OFFSET;
	*off = (int64_t)o;
	return 0;
}

int slt_acc_globals_at(struct dw *d, const struct aglobals *g, bool gs,
		       bool rip, int64_t disp, uint64_t next_pc,
		       const struct slt_type **st, int64_t *off, uint64_t *elem)
{
	if (gs && !g->percpu)
		return SLT_AR_GLOBAL;
	uint64_t a = (uint64_t)disp + (rip ? next_pc : 0); /* modulo 2^64 */
	if (g->percpu && gs != (a < g->percpu_size))
		return SLT_AR_GLOBAL;
	return slt_acc_globals_find(d, g, a, st, off, elem);
}
