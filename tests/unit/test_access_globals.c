/* SPDX-License-Identifier: MIT */
/* The address table of struct variables at fixed addresses
 * (src/access/globals.c): a lookup lands in the variable holding the
 * address (an array's element), nowhere else; overlapping and repeated
 * entries keep one; per-CPU (%gs) operands are looked up by their offset
 * in a .data..percpu area linked at 0, %gs:disp(%rip) wrapping to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "access/access_int.h"

static struct slt_type rq = {.kind = SLT_T_STRUCT, .name = "rq", .size = 0x40};
static struct slt_type el = {.kind = SLT_T_STRUCT, .name = "el", .size = 24};
static struct slt_type ptr = {.kind = SLT_T_PTR, .ref = &rq, .size = 8};
static struct slt_type i32 = {.kind = SLT_T_INT, .name = "int", .size = 4};
static struct slt_type ints = {.kind = SLT_T_ARRAY, .ref = &i32, .nelems = 4,
			       .size = 16};
static struct slt_type arr = {.kind = SLT_T_ARRAY, .ref = &el, .nelems = 4,
			      .size = 96};

static void add(struct aglobals *g, uint64_t lo, const struct slt_type *t,
		uint64_t size)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 8;
		g->v = realloc(g->v, g->cap * sizeof(*g->v));
		assert_non_null(g->v);
	}
	g->v[g->n++] = (struct aglobal){.lo = lo, .hi = lo + size, .t = t};
}

static void lookup(void **state)
{
	(void)state;
	struct aglobals g = {0};
	const uint64_t K = 0xffffffff82000000ull;
	add(&g, K + 0x100, &arr, arr.size);
	add(&g, K, &rq, rq.size);
	add(&g, K, &rq, rq.size);           /* the same variable twice */
	add(&g, K + 0x20, &el, el.size);    /* overlaps the first: dropped */
	add(&g, K + 0x300, &ptr, 8);
	add(&g, K + 0x400, &ints, ints.size);
	g.v[g.n - 1].other = true;
	slt_acc_globals_done(&g);
	assert_int_equal(g.n, 4);
	const struct slt_type *st = NULL;
	int64_t off = -1;
	uint64_t elem = 99;
	assert_int_equal(slt_acc_globals_find(NULL, &g, K + 0x18, &st, &off, &elem), 0);
	assert_ptr_equal(st, &rq);
	assert_int_equal(off, 0x18);
	assert_int_equal(elem, 0);
	/* array of structs: the offset in the element, the element size */
	assert_int_equal(slt_acc_globals_find(NULL, &g, K + 0x100 + 2 * 24 + 8,
					      &st, &off, &elem), 0);
	assert_ptr_equal(st, &el);
	assert_int_equal(off, 8);
	assert_int_equal(elem, 24);
	/* between and after the variables, before the first: none */
	assert_int_equal(slt_acc_globals_find(NULL, &g, K + 0x40, &st, &off, &elem),
			 SLT_AR_GLOBAL);
	assert_int_equal(slt_acc_globals_find(NULL, &g, K + 0x100 + 96, &st, &off,
					      &elem), SLT_AR_GLOBAL);
	assert_int_equal(slt_acc_globals_find(NULL, &g, K - 1, &st, &off, &elem),
			 SLT_AR_GLOBAL);
	/* a pointer variable: its pointee, no struct access; inside it: none */
	assert_int_equal(slt_acc_globals_find(NULL, &g, K + 0x300, &st, &off, &elem),
			 SLT_AR_NOT_STRUCT);
	assert_ptr_equal(st, &rq);
	assert_int_equal(slt_acc_globals_find(NULL, &g, K + 0x304, &st, &off, &elem),
			 SLT_AR_VAR_TYPED);
	assert_null(st);
	/* a variable of another type (a scalar array): typed, no struct */
	assert_int_equal(slt_acc_globals_find(NULL, &g, K + 0x404, &st, &off, &elem),
			 SLT_AR_VAR_TYPED);
	assert_null(st);
	assert_int_equal(slt_acc_globals_find(NULL, &g, K + 0x410, &st, &off, &elem),
			 SLT_AR_GLOBAL);
	/* %rip-relative: next pc + disp; absolute: disp (sign-extended) */
	assert_int_equal(slt_acc_globals_at(NULL, &g, false, true, 0x10,
					    K + 0x8, &st, &off, &elem), 0);
	assert_ptr_equal(st, &rq);
	assert_int_equal(off, 0x18);
	assert_int_equal(slt_acc_globals_at(NULL, &g, false, false,
					    (int64_t)(K + 0x30), 0, &st, &off,
					    &elem), 0);
	assert_int_equal(off, 0x30);
	/* no per-CPU area: a %gs operand is never a global */
	assert_int_equal(slt_acc_globals_at(NULL, &g, true, false,
					    (int64_t)(K + 0x30), 0, &st, &off,
					    &elem), SLT_AR_GLOBAL);
	slt_acc_globals_free(&g);
	assert_null(g.v);
}

static void percpu(void **state)
{
	(void)state;
	/* the 6.1 vmlinux: .data..percpu at 0, 0x34000 bytes; runqueues at
	 * 0x31980 */
	struct aglobals g = {.percpu = true, .percpu_size = 0x34000};
	add(&g, 0x31980, &rq, rq.size);
	add(&g, 0, &ptr, 8);       /* at 0: a discarded variable, say */
	add(&g, 0, &el, el.size);  /* the larger one at 0 is kept */
	add(&g, 0xffffffff82000000ull, &el, el.size);
	slt_acc_globals_done(&g);
	const struct slt_type *st = NULL;
	int64_t off = -1;
	uint64_t elem = 0;
	/* %gs:0x319a0 */
	assert_int_equal(slt_acc_globals_at(NULL, &g, true, false, 0x319a0, 0,
					    &st, &off, &elem), 0);
	assert_ptr_equal(st, &rq);
	assert_int_equal(off, 0x20);
	/* %gs:disp(%rip) at 0xffffffff81337e20 (7 bytes): wraps to 0x31988 */
	uint64_t next = 0xffffffff81337e27ull;
	int64_t disp = (int64_t)(0x31988 - next); /* modulo 2^64 */
	assert_int_equal(slt_acc_globals_at(NULL, &g, true, true, disp, next,
					    &st, &off, &elem), 0);
	assert_ptr_equal(st, &rq);
	assert_int_equal(off, 8);
	/* the same offset without %gs is no per-CPU access; a %gs operand
	 * outside the area is no global */
	assert_int_equal(slt_acc_globals_at(NULL, &g, false, false, 0x319a0, 0,
					    &st, &off, &elem), SLT_AR_GLOBAL);
	assert_int_equal(slt_acc_globals_at(NULL, &g, true, false,
					    (int64_t)0xffffffff82000008ull, 0,
					    &st, &off, &elem), SLT_AR_GLOBAL);
	assert_int_equal(slt_acc_globals_at(NULL, &g, false, false,
					    (int64_t)0xffffffff82000008ull, 0,
					    &st, &off, &elem), 0);
	assert_ptr_equal(st, &el);
	/* %gs:0x10 */
	assert_int_equal(slt_acc_globals_at(NULL, &g, true, false, 0x10, 0,
					    &st, &off, &elem), 0);
	assert_ptr_equal(st, &el);
	assert_int_equal(off, 0x10);
	slt_acc_globals_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup),
		cmocka_unit_test(percpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
