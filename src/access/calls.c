/* SPDX-License-Identifier: MIT */
/*
 * Call summaries of the access map.  A non-inlined function that is handed
 * the address of a member (`lea 0x4d0(%rbx),%rdi; call _raw_spin_lock`)
 * accesses that member, but inside the callee the only type known is the
 * parameter's (raw_spinlock_t *).  track.c records, per function, the
 * accesses it makes through each pointer argument (arg + off, width, kind:
 * struct acall_acc), the pointers it passes on from its own arguments to
 * its callees (struct acall_edge) and the calls whose argument points into
 * a known struct (struct acall_site).  Here:
 *   1. the summaries are closed over the edges: a caller's summary for
 *      argument a gains every access of the callee's summary for the
 *      argument it passed a + coff as, shifted by coff; repeated until
 *      nothing changes or SLT_ACC_CALL_ROUNDS rounds have run (so a chain
 *      of calls is followed SLT_ACC_CALL_ROUNDS deep: _raw_spin_lock ->
 *      queued_spin_lock_slowpath is 1), with at most SLT_ACC_CALL_MAX
 *      distinct (offset, width, kind) entries per argument (a function touching
 *      more through one argument is a generic memory routine: its summary
 *      is dropped rather than charged at every call);
 *   2. each call site gets one site per summary entry of the argument it
 *      passes, at the member offset + entry offset when that lies inside
 *      the struct, kind and width the callee's, via SLT_VIA_CALL.
 */
#include <stdlib.h>
#include <string.h>

#include "access/access_int.h"

static int cmp_acc(const void *a, const void *b)
{
	const struct acall_acc *x = a, *y = b;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->arg != y->arg)
		return x->arg < y->arg ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->width != y->width)
		return x->width < y->width ? -1 : 1;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

/* Sort and merge equal (func, arg, off, width, kind) entries (a load and a
 * store of one offset stay two entries); an argument with more than SLT_ACC_CALL_MAX entries becomes one
 * tombstone (kind 0: no summary, and none rebuilt later). */
static void normalise(struct vec *v)
{
	struct acall_acc *a = v->v;
	size_t n = v->n, w = 0;
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(a, n, sizeof(*a), cmp_acc);
	for (size_t i = 0; i < n; i++) {
		if (w && !cmp_acc(&a[w - 1], &a[i]))
			continue;
		a[w++] = a[i];
	}
	/* cap per (func, arg) */
	size_t out = 0;
	for (size_t i = 0; i < w;) {
		size_t j = i;
		bool dead = false;
		while (j < w && a[j].func == a[i].func && a[j].arg == a[i].arg) {
			dead |= !a[j].kind;
			j++;
		}
		if (dead || j - i > SLT_ACC_CALL_MAX) {
			a[out] = a[i];
			a[out].kind = 0; /* tombstone: the argument is generic */
			a[out].off = INT64_MIN;
			a[out++].width = 0;
		} else {
			memmove(&a[out], &a[i], (j - i) * sizeof(*a));
			out += j - i;
		}
		i = j;
	}
	v->n = out;
}

/* The entries of (func, arg): [*lo, *hi) in the sorted array; a tombstone
 * gives an empty range. */
static void range_of(const struct vec *v, size_t n, uint32_t func,
		     uint8_t arg, size_t *lo, size_t *hi)
{
	const struct acall_acc *a = v->v;
	size_t l = 0, h = n;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (a[m].func < func || (a[m].func == func && a[m].arg < arg))
			l = m + 1;
		else
			h = m;
	}
	size_t e = l;
	while (e < n && a[e].func == func && a[e].arg == arg)
		e++;
	if (e > l && !a[l].kind)
		e = l;
	*lo = l;
	*hi = e;
}

static uint64_t digest(const struct vec *v)
{
	const struct acall_acc *a = v->v;
	uint64_t h = v->n * 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < v->n; i++)
		h = (h ^ (uint64_t)a[i].kind ^ ((uint64_t)a[i].off << 8)) *
		    0x100000001b3ull;
	return h;
}

int slt_acc_calls_apply(struct dw *d, struct acalls *c, struct vec *sites)
{
	normalise(&c->acc);
	const struct acall_edge *e = c->edges.v;
	for (int round = 0; round < SLT_ACC_CALL_ROUNDS; round++) {
		size_t n0 = c->acc.n;
		uint64_t h0 = digest(&c->acc);
		for (size_t i = 0; i < c->edges.n; i++) {
			size_t lo, hi;
			range_of(&c->acc, n0, e[i].callee, e[i].cidx, &lo, &hi);
			for (size_t k = lo; k < hi; k++) {
				/* the push may move the array */
				struct acall_acc x = ((struct acall_acc *)c->acc.v)[k];
				struct acall_acc *p = slt_dw_vec_push(d, &c->acc);
				if (!p)
					return SLT_ENOMEM;
				*p = (struct acall_acc){
					.func = e[i].caller, .arg = e[i].carg,
					.off = x.off + e[i].coff,
					.width = x.width, .kind = x.kind};
			}
		}
		normalise(&c->acc);
		if (c->acc.n == n0 && digest(&c->acc) == h0)
			break;
	}
	const struct acall_site *s = c->sites.v;
	for (size_t i = 0; i < c->sites.n; i++) {
		size_t lo, hi;
		range_of(&c->acc, c->acc.n, s[i].callee, s[i].idx, &lo, &hi);
		for (size_t k = lo; k < hi; k++) {
			const struct acall_acc *x = &((struct acall_acc *)c->acc.v)[k];
			int64_t off = s[i].off + x->off;
			if (off < 0 || (uint64_t)off + x->width > s[i].st->size)
				continue;
			struct slt_access_site *o = slt_dw_vec_push(d, sites);
			if (!o)
				return SLT_ENOMEM;
			*o = (struct slt_access_site){
				.pc = s[i].pc,
				.type = s[i].st->name ? s[i].st->name : "",
				.type_size = s[i].st->size,
				.offset = off,
				.width = x->width,
				.kind = x->kind,
				.func = s[i].func,
				.via = SLT_VIA_CALL,
				.insn_len = s[i].insn_len,
			};
		}
	}
	return 0;
}
