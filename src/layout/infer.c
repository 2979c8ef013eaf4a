/* SPDX-License-Identifier: MIT */
/*
 * pahole's per-level layout facts: member positions, holes and padding,
 * natural alignment and the BTF alignment guesses (see infer.h).  Rules
 * from dwarves 1.24 (dwarves.c: class__find_holes(),
 * tag__natural_alignment(); btf_loader.c: class__infer_alignment(),
 * class__fixup_btf_bitfields()), checked against pahole's output.
 */
#include <stdlib.h>

#include "layout/infer.h"
#include "structlint/error.h"
#include "structlint/layout.h"

const struct slt_type *slt_lay_strip(const struct slt_type *t)
{
	for (int i = 0; t && i < MAX_DEPTH; i++) {
		switch (t->kind) {
		case SLT_T_TYPEDEF:
		case SLT_T_CONST:
		case SLT_T_VOLATILE:
		case SLT_T_RESTRICT:
		case SLT_T_ATOMIC:
			t = t->ref;
			break;
		default:
			return t;
		}
	}
	return t;
}

/* Size in bytes of an object of type t. */
uint64_t slt_lay_tsize(const struct slt_type *t)
{
	t = slt_lay_strip(t);
	if (!t || t->kind == SLT_T_FUNC || t->kind == SLT_T_VOID)
		return 0;
	return t->size;
}


/* tag__natural_alignment(): pointers, base types and enums align to their
 * size, structs and unions to their largest member, arrays to the element. */
uint64_t slt_lay_natalign(const struct slt_type *t, int depth)
{
	uint64_t a = 1;

	t = slt_lay_strip(t);
	if (!t || depth > MAX_DEPTH)
		return 1;
	switch (t->kind) {
	case SLT_T_PTR:
	case SLT_T_INT:
	case SLT_T_FLOAT:
	case SLT_T_ENUM:
		a = t->size;
		break;
	case SLT_T_STRUCT:
	case SLT_T_UNION:
		a = 0;
		for (uint32_t i = 0; i < t->n_members; i++) {
			uint64_t ma = slt_lay_natalign(t->members[i].type, depth + 1);
			if (ma > a)
				a = ma;
		}
		break;
	case SLT_T_ARRAY:
		a = slt_lay_natalign(t->ref, depth + 1);
		break;
	default:
		a = 1;
	}
	return a ? a : 1;
}

/* Where pahole puts member tm: bitfields at their storage unit, aligned on
 * the unit's size (as dwarf_loader.c/btf_loader.c do), bit offset inside. */
struct pm slt_lay_pm_of(const struct slt_tmember *tm)
{
	struct pm p;
	uint64_t size = slt_lay_tsize(tm->type);

	p.size = (int64_t)size;
	p.bit_size = tm->bit_size;
	p.bit_start = (int64_t)tm->bit_offset;
	if (tm->bit_size && size)
		p.byte_offset = (int64_t)(tm->bit_offset / (size * 8) * size);
	else
		p.byte_offset = (int64_t)(tm->bit_offset / 8);
	return p;
}

/* class__find_holes() on members pm[0..n) of a struct of size bytes. */
static void find_holes(const struct pm *pm, uint32_t n, uint64_t size,
		       struct holes *o)
{
	int64_t cur_end = (int64_t)size * 8, cur_size = 0;
	int64_t last_seen = 0;
	bool in_bf = false;

	o->pre_hole = o->pre_bit_hole = 0;
	o->nr_holes = o->nr_bit_holes = 0;
	for (uint32_t i = 0; i < n; i++) {
		int64_t bs = pm[i].bit_start, be, bh = 0, byh = 0;

		o->hole[i] = o->bit_hole[i] = 0;
		be = bs + (pm[i].bit_size ? (int64_t)pm[i].bit_size
					  : pm[i].size * 8);
		if (in_bf) {
			int64_t bfe = bs < cur_end ? bs : cur_end;
			bh = bfe - last_seen;
			last_seen = bfe;
		}
		if (pm[i].bit_size) {
			int64_t as = pm[i].byte_offset * 8;
			if (last_seen < as && as <= bs) {
				byh = pm[i].byte_offset - last_seen / 8;
				last_seen = as;
			}
			bh += bs - last_seen;
		} else {
			byh = bs / 8 - last_seen / 8;
		}
		last_seen = be;
		if (pm[i].bit_size) {
			int64_t unit = pm[i].size * 8;
			in_bf = true;
			if (be > cur_end || unit > cur_size) {
				cur_size = unit;
				cur_end = pm[i].byte_offset * 8 + cur_size;
				if (be > cur_end)
					cur_end += cur_size;
			}
		} else {
			in_bf = false;
			cur_size = 0;
			cur_end = be;
		}
		if (bh < 0)
			bh = 0;
		if (byh < 0)
			byh = 0;
		if (i) {
			o->hole[i - 1] = byh;
			o->bit_hole[i - 1] = bh;
		} else {
			o->pre_hole = byh;
			o->pre_bit_hole = bh;
		}
		if (bh)
			o->nr_bit_holes++;
		if (byh)
			o->nr_holes++;
	}
	if (in_bf) {
		int64_t bfe = (int64_t)size * 8 < cur_end ? (int64_t)size * 8 : cur_end;
		o->bit_padding = bfe - last_seen;
		last_seen = bfe;
	} else {
		o->bit_padding = 0;
	}
	o->padding = (int64_t)size - last_seen / 8;
	if (o->padding < 0)
		o->padding = 0;
	if (o->bit_padding < 0)
		o->bit_padding = 0;
}

/* Run find_holes() on struct type t; the arrays are malloc()ed. */
int slt_lay_type_holes(const struct slt_type *t, struct pm **pmp,
		      struct holes *o)
{
	uint32_t n = t->n_members;
	struct pm *pm = calloc(n ? n : 1, sizeof(*pm));

	o->hole = calloc(n ? n : 1, sizeof(int64_t));
	o->bit_hole = calloc(n ? n : 1, sizeof(int64_t));
	if (!pm || !o->hole || !o->bit_hole) {
		free(pm);
		free(o->hole);
		free(o->bit_hole);
		o->hole = o->bit_hole = NULL;
		return SLT_ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		pm[i] = slt_lay_pm_of(&t->members[i]);
	find_holes(pm, n, t->size, o);
	if (pmp)
		*pmp = pm;
	else
		free(pm);
	return 0;
}

void slt_lay_holes_free(struct holes *o)
{
	free(o->hole);
	free(o->bit_hole);
}

/* Tail padding of struct type t (0 for others or shallow ones). */
uint64_t slt_lay_struct_padding(const struct slt_type *t)
{
	struct holes o;
	uint64_t pad;

	if (!t || t->kind != SLT_T_STRUCT || (t->flags & SLT_TF_SHALLOW))
		return 0;
	if (slt_lay_type_holes(t, NULL, &o))
		return 0;
	pad = (uint64_t)o.padding;
	slt_lay_holes_free(&o);
	return pad;
}


/*
 * BTF has no alignment attribute, so pahole's BTF loader guesses one
 * (btf_loader.c of dwarves 1.24, class__infer_alignment(), called from
 * class__fixup_btf_bitfields() for every member of every struct and union,
 * and once more for the type itself with its size as the offset):
 * when a member starts `offset` bytes in and the previous member with a
 * size ended at `smallest`, the power of two strictly above the gap
 * (offset - smallest, 32-bit unsigned arithmetic) is the guess, but only at
 * an even offset and only when it exceeds the natural alignment; a guess
 * below the cache line size that divides it becomes the cache line size
 * when the offset is a multiple of it.  pahole's cache line size is the
 * machine's L1 line size; structlint uses SLT_CACHELINE_DEFAULT.  A
 * negative gap (union members, bitfields sharing a unit) wraps to a value
 * with the top bit set, whose "next power of two" 1 << 32 comes out as 1 on
 * x86-64 (shift counts are taken mod 32): no alignment.  Alignments are
 * bytes; 0 means none.
 */
static uint32_t btf_infer_alignment(uint64_t offset, uint64_t natural,
				    uint64_t smallest)
{
	uint32_t delta = (uint32_t)offset - (uint32_t)smallest;
	uint32_t cl = SLT_CACHELINE_DEFAULT;
	uint64_t a = 0;

	if (delta && offset % 2 == 0) {
		int shift = 32 - __builtin_clz(delta);
		a = shift >= 32 ? 1 : 1u << shift;
	}
	if (a <= natural || a == 1)
		return 0;
	if (a < cl && cl % a == 0 && offset % cl == 0)
		a = cl;
	return (uint32_t)a;
}

/*
 * The BTF alignment guesses for struct/union t: member i's in align[i]
 * (when align is not NULL), the type's own as the return value.  Members
 * without a size (zero-length arrays, empty structs) get none and do not
 * move the end of the previous member, as in pahole.
 */
uint32_t slt_lay_btf_alignments(const struct slt_type *t, uint32_t *align)
{
	uint64_t smallest = 0;

	for (uint32_t i = 0; i < t->n_members; i++) {
		const struct slt_tmember *tm = &t->members[i];
		struct pm p;

		if (align)
			align[i] = 0;
		if (!tm->type)
			continue;
		p = slt_lay_pm_of(tm);
		if (!p.size)
			continue;
		if (align)
			align[i] = btf_infer_alignment((uint64_t)p.byte_offset,
						       slt_lay_natalign(tm->type, 0),
						       smallest);
		smallest = (uint64_t)(p.byte_offset + p.size);
	}
	return btf_infer_alignment(t->size, slt_lay_natalign(t, 0), smallest);
}

uint64_t slt_lay_alignment(const struct slt_type *t, int depth)
{
	uint64_t a = 0;

	for (int i = 0; t && i < MAX_DEPTH; i++) {
		if (t->alignment > a)
			a = t->alignment;
		if (t->kind < SLT_T_TYPEDEF || t->kind > SLT_T_ATOMIC)
			break;
		t = t->ref;
	}
	if (!t || depth > MAX_DEPTH)
		return a ? a : 1;
	if (t->kind == SLT_T_ARRAY) {
		uint64_t e = slt_lay_alignment(t->ref, depth + 1);
		return e > a ? e : a;
	}
	if ((t->kind == SLT_T_STRUCT || t->kind == SLT_T_UNION) &&
	    !(t->flags & SLT_TF_SHALLOW)) {
		for (uint32_t i = 0; i < t->n_members; i++) {
			uint64_t m = slt_lay_alignment(t->members[i].type, depth + 1);
			if (t->members[i].alignment > m)
				m = t->members[i].alignment;
			if (m > a)
				a = m;
		}
		return a ? a : 1;
	}
	if (!a)
		a = slt_lay_natalign(t, depth);
	return a;
}
