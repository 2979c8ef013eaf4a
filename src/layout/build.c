/* SPDX-License-Identifier: MIT */
/*
 * Type graph -> struct slt_struct: members in pahole's order, holes, bit
 * holes, padding, packed and alignment inference, and the closing summary.
 *
 * The rules follow pahole 1.24 (dwarves.c: class__find_holes(),
 * class__infer_packed_attributes(), union__infer_packed_attributes(),
 * tag__natural_alignment(); dwarves_fprintf.c: __class__fprintf() for the
 * summary figures), checked against pahole's output on gcc/clang objects.
 */
#include <stdlib.h>
#include <string.h>

#include "layout/build.h"
#include "structlint/error.h"

#define MAX_DEPTH 64 /* nesting and typedef chains; deeper is a cycle */

/* One member of a struct level as pahole sees it. */
struct pm {
	int64_t byte_offset; /* storage unit, bytes from the level start */
	int64_t bit_start;   /* first bit, from the level start */
	int64_t size;        /* bytes (storage unit for bitfields) */
	uint32_t bit_size;   /* bitfield width, 0 otherwise */
};

/* class__find_holes() results for one level. */
struct holes {
	int64_t *hole;      /* byte hole after member i */
	int64_t *bit_hole;  /* bit hole after member i */
	int64_t pre_hole, pre_bit_hole;
	int64_t padding, bit_padding;
	uint32_t nr_holes, nr_bit_holes;
};

struct pk_entry {
	const struct slt_type *t;
	bool packed;
};

struct bctx {
	struct slt_arena *a;
	bool expand;
	enum slt_format format;
	const char *file;
	struct slt_error *err;
	struct slt_member *m;
	size_t n, cap;
	struct slt_hole *h;
	size_t nh, caph;
	struct pk_entry *pk;
	size_t npk, cappk;
};

static const struct slt_type *strip(const struct slt_type *t)
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
static uint64_t tsize(const struct slt_type *t)
{
	t = strip(t);
	if (!t || t->kind == SLT_T_FUNC || t->kind == SLT_T_VOID)
		return 0;
	return t->size;
}

static bool is_composite(const struct slt_type *t)
{
	return t && (t->kind == SLT_T_STRUCT || t->kind == SLT_T_UNION);
}

static bool anon(const char *s)
{
	return !s || !*s;
}

/* tag__natural_alignment(): pointers, base types and enums align to their
 * size, structs and unions to their largest member, arrays to the element. */
static uint64_t natalign(const struct slt_type *t, int depth)
{
	uint64_t a = 1;

	t = strip(t);
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
			uint64_t ma = natalign(t->members[i].type, depth + 1);
			if (ma > a)
				a = ma;
		}
		break;
	case SLT_T_ARRAY:
		a = natalign(t->ref, depth + 1);
		break;
	default:
		a = 1;
	}
	return a ? a : 1;
}

/* Where pahole puts member tm: bitfields at their storage unit, aligned on
 * the unit's size (as dwarf_loader.c/btf_loader.c do), bit offset inside. */
static struct pm pm_of(const struct slt_tmember *tm)
{
	struct pm p;
	uint64_t size = tsize(tm->type);

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
static int type_holes(const struct slt_type *t, struct pm **pmp,
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
		pm[i] = pm_of(&t->members[i]);
	find_holes(pm, n, t->size, o);
	if (pmp)
		*pmp = pm;
	else
		free(pm);
	return 0;
}

static void holes_free(struct holes *o)
{
	free(o->hole);
	free(o->bit_hole);
}

/* Tail padding of struct type t (0 for others or shallow ones). */
static uint64_t struct_padding(const struct slt_type *t)
{
	struct holes o;
	uint64_t pad;

	if (!t || t->kind != SLT_T_STRUCT || (t->flags & SLT_TF_SHALLOW))
		return 0;
	if (type_holes(t, NULL, &o))
		return 0;
	pad = (uint64_t)o.padding;
	holes_free(&o);
	return pad;
}

static struct pk_entry *pk_find(struct bctx *c, const struct slt_type *t)
{
	for (size_t i = 0; i < c->npk; i++)
		if (c->pk[i].t == t)
			return &c->pk[i];
	return NULL;
}

static int pk_set(struct bctx *c, const struct slt_type *t, bool packed)
{
	struct pk_entry *e = pk_find(c, t);

	if (e) {
		e->packed = packed;
		return 0;
	}
	if (c->npk == c->cappk) {
		size_t cap = c->cappk ? c->cappk * 2 : 16;
		struct pk_entry *p = realloc(c->pk, cap * sizeof(*p));
		if (!p)
			return SLT_ENOMEM;
		c->pk = p;
		c->cappk = cap;
	}
	c->pk[c->npk].t = t;
	c->pk[c->npk].packed = packed;
	c->npk++;
	return 0;
}

/* class__infer_packed_attributes(), result cached per type as pahole does
 * (and overridden by the marks of the two functions below). */
static int infer_packed(struct bctx *c, const struct slt_type *t, bool *out)
{
	struct pk_entry *e;
	struct holes o;
	struct pm *pm = NULL;
	bool packed = false;
	int rc;

	*out = false;
	if (!t || t->kind != SLT_T_STRUCT || (t->flags & SLT_TF_SHALLOW))
		return 0;
	e = pk_find(c, t);
	if (e) {
		*out = e->packed;
		return 0;
	}
	rc = type_holes(t, &pm, &o);
	if (rc)
		return rc;
	if (o.padding || o.nr_holes) {
		/* type__check_structs_at_unnatural_alignments() */
		for (uint32_t i = 0; i < t->n_members && !rc; i++) {
			const struct slt_type *st = strip(t->members[i].type);
			if (!st || st->kind != SLT_T_STRUCT)
				continue;
			if (pm[i].byte_offset % (int64_t)natalign(st, 0))
				rc = pk_set(c, st, true);
		}
	} else {
		uint64_t max = 1;
		bool decided = false;

		for (uint32_t i = 0; i < t->n_members; i++) {
			uint64_t na = natalign(t->members[i].type, 0);
			if (na == 1)
				continue;
			if (na > max)
				max = na;
			if (pm[i].byte_offset % (int64_t)na) {
				packed = decided = true;
				break;
			}
		}
		if (!decided && ((max != 1 && t->alignment == 1) ||
				 t->size % max))
			packed = true;
	}
	free(pm);
	holes_free(&o);
	if (!rc)
		rc = pk_set(c, t, packed);
	*out = packed;
	return rc;
}

/* union__infer_packed_attributes(): a struct in a union whose size is not
 * a multiple of the struct's natural alignment must be packed. */
static int union_infer(struct bctx *c, const struct slt_type *u)
{
	for (uint32_t i = 0; i < u->n_members; i++) {
		const struct slt_type *st = strip(u->members[i].type);
		if (st && st->kind == SLT_T_STRUCT &&
		    u->size % natalign(st, 0)) {
			int rc = pk_set(c, st, true);
			if (rc)
				return rc;
		}
	}
	return 0;
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
static uint32_t btf_alignments(const struct slt_type *t, uint32_t *align)
{
	uint64_t smallest = 0;

	for (uint32_t i = 0; i < t->n_members; i++) {
		const struct slt_tmember *tm = &t->members[i];
		struct pm p;

		if (align)
			align[i] = 0;
		if (!tm->type)
			continue;
		p = pm_of(tm);
		if (!p.size)
			continue;
		if (align)
			align[i] = btf_infer_alignment((uint64_t)p.byte_offset,
						       natalign(tm->type, 0),
						       smallest);
		smallest = (uint64_t)(p.byte_offset + p.size);
	}
	return btf_infer_alignment(t->size, natalign(t, 0), smallest);
}

/* The forced alignment of struct/union type t: DW_AT_alignment, or on BTF
 * pahole's guess. */
static uint32_t type_alignment(const struct bctx *c, const struct slt_type *t)
{
	if (t->alignment || c->format != SLT_FORMAT_BTF)
		return t->alignment;
	return btf_alignments(t, NULL);
}

static int push_member(struct bctx *c, size_t *idx)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct slt_member *p = realloc(c->m, cap * sizeof(*p));
		if (!p)
			return SLT_ENOMEM;
		c->m = p;
		c->cap = cap;
	}
	memset(&c->m[c->n], 0, sizeof(c->m[0]));
	*idx = c->n++;
	return 0;
}

static int push_hole(struct bctx *c, uint64_t offset, uint64_t size,
		     uint32_t after, int32_t parent, uint32_t flags)
{
	if (c->nh == c->caph) {
		size_t cap = c->caph ? c->caph * 2 : 16;
		struct slt_hole *p = realloc(c->h, cap * sizeof(*p));
		if (!p)
			return SLT_ENOMEM;
		c->h = p;
		c->caph = cap;
	}
	c->h[c->nh] = (struct slt_hole){ offset, size, after, parent, flags };
	c->nh++;
	return 0;
}

/* The struct/union printed inline for member type mt, or NULL; with
 * expand, a typedef of a named struct/union is expanded too (*tdname is
 * then the typedef's name, else NULL). */
static const struct slt_type *inline_type(const struct bctx *c,
					  const struct slt_type *mt,
					  const char **tdname)
{
	const struct slt_type *e = mt;

	*tdname = NULL;
	if (c->expand && mt && mt->kind == SLT_T_TYPEDEF) {
		for (int i = 0; e && e->kind == SLT_T_TYPEDEF && i < MAX_DEPTH; i++)
			e = e->ref;
		if (is_composite(e) && !anon(e->name) &&
		    !(e->flags & SLT_TF_SHALLOW)) {
			*tdname = mt->name;
			return e;
		}
		return NULL;
	}
	if (is_composite(mt))
		return (anon(mt->name) || c->expand) &&
		       !(mt->flags & SLT_TF_SHALLOW) ? mt : NULL;
	if (!c->expand || !mt || mt->kind != SLT_T_ARRAY)
		return NULL;
	for (int i = 0; e && e->kind == SLT_T_ARRAY && i < MAX_DEPTH; i++)
		e = e->ref;
	return is_composite(e) && !anon(e->name) &&
	       !(e->flags & SLT_TF_SHALLOW) ? e : NULL;
}

static uint32_t member_flags(const struct slt_tmember *tm,
			     const struct slt_type *mt, uint64_t size)
{
	const struct slt_type *st = strip(mt);
	uint32_t f = 0;

	if (tm->bit_size)
		f |= SLT_MEMBER_BITFIELD;
	if (is_composite(st)) {
		f |= SLT_MEMBER_COMPOSITE;
		if (st->kind == SLT_T_UNION)
			f |= SLT_MEMBER_UNION;
		if (anon(tm->name))
			f |= SLT_MEMBER_ANON;
	}
	if (st && st->kind == SLT_T_ARRAY && (st->flags & SLT_TF_FLEX))
		f |= SLT_MEMBER_FLEX;
	if (size == 0)
		f |= SLT_MEMBER_ZERO_SIZE;
	if (tm->name && !strncmp(tm->name, "__cacheline_group_begin__", 25))
		f |= SLT_MEMBER_GROUP_BEGIN;
	if (tm->name && !strncmp(tm->name, "__cacheline_group_end__", 23))
		f |= SLT_MEMBER_GROUP_END;
	return f;
}

static int level(struct bctx *c, const struct slt_type *t, uint32_t depth,
		 int32_t parent, uint64_t base, bool in_union);

/* Add member tm of level t (at base bytes) and, when inline, its members. */
static int add_member(struct bctx *c, const struct slt_type *t, uint32_t i,
		      uint32_t depth, int32_t parent, uint64_t base,
		      bool in_union, uint32_t btf_align)
{
	const struct slt_tmember *tm = &t->members[i];
	const struct slt_type *mt = tm->type, *it;
	const char *tdname;
	struct pm p = pm_of(tm);
	struct slt_member *m;
	size_t idx;
	bool open = i + 1 == t->n_members && t->n_members > 1 && !in_union;
	int rc;

	if (!mt)
		return slt_error_set(c->err, SLT_ECORRUPT, c->file,
				     (int64_t)t->origin, "the debug info is damaged; rebuild it",
				     "member %u of %s has no type", i,
				     anon(t->name) ? "an anonymous type" : t->name);
	if ((uint64_t)p.byte_offset > t->size)
		return slt_error_set(c->err, SLT_ECORRUPT, c->file,
				     (int64_t)t->origin, "the debug info is damaged; rebuild it",
				     "member %s at byte %lld lies beyond the end of %s (%llu bytes)",
				     anon(tm->name) ? "(anonymous)" : tm->name,
				     (long long)p.byte_offset,
				     anon(t->name) ? "an anonymous type" : t->name,
				     (unsigned long long)t->size);
	rc = push_member(c, &idx);
	if (rc)
		return rc;
	m = &c->m[idx];
	m->name = slt_arena_strdup(c->a, tm->name ? tm->name : "");
	if (!m->name)
		return SLT_ENOMEM;
	rc = slt_ctype_spell_decl(c->a, mt, open, &m->decl_head, &m->decl_tail);
	if (rc)
		return rc;
	{
		size_t hl = strlen(m->decl_head);
		char *ty;

		/* the bare type, without the blank pahole leaves after a
		 * qualified type name */
		while (hl && m->decl_head[hl - 1] == ' ' && !*m->decl_tail)
			hl--;
		ty = slt_arena_printf(c->a, "%.*s%s", (int)hl, m->decl_head,
				      m->decl_tail);
		if (!ty)
			return SLT_ENOMEM;
		m->type = ty;
	}
	m->offset = base + (uint64_t)p.byte_offset;
	m->size = (uint64_t)p.size;
	if (tm->bit_size) {
		m->bit_offset = (uint32_t)(p.bit_start - p.byte_offset * 8);
		m->bit_size = tm->bit_size;
	}
	m->alignment = tm->alignment ? tm->alignment : btf_align;
	m->flags = member_flags(tm, mt, m->size);
	if (mt->kind == SLT_T_ENUM && anon(mt->name) && mt->n_enumerators) {
		/* pahole prints an anonymous enum inline with its values */
		struct slt_enumerator *e = slt_arena_calloc(c->a, mt->n_enumerators,
							    sizeof(*e));
		if (!e)
			return SLT_ENOMEM;
		for (uint32_t k = 0; k < mt->n_enumerators; k++) {
			e[k].value = mt->enumerators[k].value;
			e[k].name = slt_arena_strdup(c->a, mt->enumerators[k].name ?
							   mt->enumerators[k].name : "");
			if (!e[k].name)
				return SLT_ENOMEM;
		}
		m->enumerators = e;
		m->n_enumerators = mt->n_enumerators;
		m->enum_size = (uint32_t)mt->size;
		if (mt->flags & SLT_TF_SIGNED)
			m->flags |= SLT_MEMBER_ENUM_SIGNED;
	}
	m->parent = parent;
	m->depth = depth;
	if (mt->kind == SLT_T_STRUCT)
		m->type_padding = struct_padding(mt);

	it = inline_type(c, mt, &tdname);
	if (it) {
		size_t first = c->n;
		bool packed = false;

		m->flags |= SLT_MEMBER_INLINE;
		if (tdname) {
			m->typedef_name = slt_arena_strdup(c->a, tdname);
			m->decl_head = slt_arena_printf(c->a, "%s %s",
				it->kind == SLT_T_UNION ? "union" : "struct",
				it->name);
			m->decl_tail = "";
			if (!m->typedef_name || !m->decl_head)
				return SLT_ENOMEM;
		}
		m->type_alignment = type_alignment(c, it);
		rc = level(c, it, depth + 1, (int32_t)idx,
			   base + (uint64_t)p.byte_offset,
			   in_union || it->kind == SLT_T_UNION);
		if (rc)
			return rc;
		m = &c->m[idx]; /* the array may have moved */
		for (size_t k = first; k < c->n; k++)
			if (c->m[k].parent == (int32_t)idx)
				m->n_children++;
		rc = infer_packed(c, it, &packed);
		if (rc)
			return rc;
		if (packed)
			m->flags |= SLT_MEMBER_PACKED;
	}
	return 0;
}

/* Members of struct/union t at absolute offset base, then its holes. */
static int level(struct bctx *c, const struct slt_type *t, uint32_t depth,
		 int32_t parent, uint64_t base, bool in_union)
{
	size_t *idx;
	uint32_t *align;
	int rc = 0;

	if (depth > MAX_DEPTH)
		return slt_error_set(c->err, SLT_ECORRUPT, c->file,
				     (int64_t)t->origin, "the debug info is damaged; rebuild it",
				     "types nested more than %d deep (a cycle?)",
				     MAX_DEPTH);
	if (t->kind == SLT_T_STRUCT) {
		bool packed;
		rc = infer_packed(c, t, &packed);
	} else {
		rc = union_infer(c, t);
	}
	if (rc)
		return rc;
	idx = calloc(t->n_members ? t->n_members : 1, sizeof(*idx));
	align = calloc(t->n_members ? t->n_members : 1, sizeof(*align));
	if (!idx || !align) {
		free(idx);
		free(align);
		return SLT_ENOMEM;
	}
	if (c->format == SLT_FORMAT_BTF)
		btf_alignments(t, align);
	for (uint32_t i = 0; i < t->n_members && !rc; i++) {
		idx[i] = c->n;
		rc = add_member(c, t, i, depth, parent, base, in_union, align[i]);
	}
	free(align);
	if (!rc && t->kind == SLT_T_STRUCT) {
		struct holes o;
		struct pm *pm = NULL;

		rc = type_holes(t, &pm, &o);
		for (uint32_t i = 0; !rc && i < t->n_members; i++) {
			if (i == 0 && o.pre_bit_hole)
				rc = push_hole(c, base, (uint64_t)o.pre_bit_hole,
					       UINT32_MAX, parent, SLT_HOLE_BITS);
			if (!rc && i == 0 && o.pre_hole)
				rc = push_hole(c, base + (uint64_t)pm[0].byte_offset -
						       (uint64_t)o.pre_hole,
					       (uint64_t)o.pre_hole, UINT32_MAX,
					       parent, 0);
			if (!rc && o.bit_hole[i])
				rc = push_hole(c, base + (uint64_t)pm[i].byte_offset,
					       (uint64_t)o.bit_hole[i],
					       (uint32_t)idx[i], parent,
					       SLT_HOLE_BITS);
			if (!rc && o.hole[i] && i + 1 < t->n_members)
				rc = push_hole(c, base + (uint64_t)pm[i + 1].byte_offset -
						       (uint64_t)o.hole[i],
					       (uint64_t)o.hole[i], (uint32_t)idx[i],
					       parent, 0);
		}
		if (pm) {
			free(pm);
			holes_free(&o);
		}
	}
	free(idx);
	return rc;
}

/* Holes in offset order (levels push theirs after their nested levels'),
 * a bit hole before a byte hole at the same offset; stable. */
static void sort_holes(struct slt_hole *h, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct slt_hole x = h[i];
		size_t j = i;

		while (j && (h[j - 1].offset > x.offset ||
			     (h[j - 1].offset == x.offset &&
			      !(h[j - 1].flags & SLT_HOLE_BITS) &&
			      (x.flags & SLT_HOLE_BITS)))) {
			h[j] = h[j - 1];
			j--;
		}
		h[j] = x;
	}
}

/* __class__fprintf()'s closing figures, from the top-level members. */
static void summarize(struct slt_struct *s)
{
	int64_t prev = -1;

	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];

		if (m->depth)
			continue;
		s->n_top_members++;
		if (m->flags & SLT_MEMBER_BITFIELD)
			s->sum_bitfield_bits += m->bit_size;
		else
			s->sum_members += m->size;
		if (m->type_padding) {
			s->n_paddings++;
			s->sum_paddings += m->type_padding;
		}
		if (m->alignment) {
			s->n_forced_alignments++;
			for (size_t k = 0; k < s->n_holes; k++) {
				const struct slt_hole *h = &s->holes[k];
				if (h->parent != -1 || (h->flags & SLT_HOLE_BITS))
					continue;
				if ((prev < 0 && h->after == UINT32_MAX) ||
				    (prev >= 0 && h->after == (uint32_t)prev)) {
					s->n_forced_holes++;
					s->sum_forced_holes += h->size;
				}
			}
		}
		prev = (int64_t)i;
	}
	for (size_t k = 0; k < s->n_holes; k++) {
		const struct slt_hole *h = &s->holes[k];
		if (h->parent != -1)
			continue;
		if (h->flags & SLT_HOLE_BITS) {
			s->n_bit_holes++;
			s->sum_bit_holes += h->size;
		} else {
			s->n_byte_holes++;
			s->sum_byte_holes += h->size;
		}
	}
}

int slt_build_struct(struct slt_arena *a, const struct slt_type *t,
		     enum slt_format format, bool expand, const char *file,
		     struct slt_struct *out, struct slt_error *err)
{
	struct bctx c = { .a = a, .expand = expand, .format = format,
			  .file = file ? file : "", .err = err };
	struct holes o = { 0 };
	bool packed = false;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!t || !is_composite(t) || (t->flags & SLT_TF_SHALLOW))
		return slt_error_set(err, SLT_EUSAGE, c.file, -1, NULL,
				     "not a struct or union definition");
	rc = level(&c, t, 0, -1, 0, t->kind == SLT_T_UNION);
	if (!rc)
		rc = infer_packed(&c, t, &packed);
	if (!rc && t->kind == SLT_T_STRUCT)
		rc = type_holes(t, NULL, &o);
	if (rc)
		goto out;

	out->name = slt_arena_strdup(a, t->name ? t->name : "");
	out->decl_file = slt_arena_strdup(a, t->decl_file ? t->decl_file : "");
	out->members = slt_arena_calloc(a, c.n ? c.n : 1, sizeof(*c.m));
	out->holes = slt_arena_calloc(a, c.nh ? c.nh : 1, sizeof(*c.h));
	if (!out->name || !out->decl_file || !out->members || !out->holes) {
		rc = SLT_ENOMEM;
		goto out;
	}
	if (c.n)
		memcpy(out->members, c.m, c.n * sizeof(*c.m));
	sort_holes(c.h, c.nh);
	if (c.nh)
		memcpy(out->holes, c.h, c.nh * sizeof(*c.h));
	out->n_members = c.n;
	out->n_holes = c.nh;
	out->kind = t->kind == SLT_T_UNION ? SLT_KIND_UNION : SLT_KIND_STRUCT;
	out->format = format;
	out->size = t->size;
	out->forced_alignment = type_alignment(&c, t);
	out->alignment = t->alignment ? t->alignment : (uint32_t)natalign(t, 0);
	out->decl_line = t->decl_line;
	out->packed = packed;
	out->expanded = expand;
	out->typedef_named = (t->flags & SLT_TF_TYPEDEF_NAME) != 0;
	if (t->kind == SLT_T_STRUCT) {
		out->padding = (uint64_t)o.padding;
		out->bit_padding = (uint32_t)o.bit_padding;
	}
	summarize(out);
out:
	if (o.hole)
		holes_free(&o);
	free(c.m);
	free(c.h);
	free(c.pk);
	if (rc == SLT_ENOMEM)
		slt_error_set(err, rc, c.file, -1, NULL, "out of memory");
	return rc;
}

bool slt_struct_same(const struct slt_struct *a, const struct slt_struct *b)
{
	if (strcmp(a->name, b->name) || a->kind != b->kind ||
	    a->size != b->size || a->n_members != b->n_members)
		return false;
	for (size_t i = 0; i < a->n_members; i++) {
		const struct slt_member *x = &a->members[i], *y = &b->members[i];
		if (strcmp(x->name, y->name) || strcmp(x->type, y->type) ||
		    x->offset != y->offset || x->size != y->size ||
		    x->bit_offset != y->bit_offset ||
		    x->bit_size != y->bit_size || x->depth != y->depth ||
		    x->alignment != y->alignment)
			return false;
	}
	return true;
}
