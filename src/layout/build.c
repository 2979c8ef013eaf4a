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

#include "common/grow.h"
#include "layout/build.h"
#include "layout/infer.h"
#include "structlint/error.h"

struct pk_entry {
	const struct slt_type *t;
	bool packed;
};

struct bctx {
	struct slt_arena *a;
	bool expand;
	unsigned ptr_depth; /* pointees being built around this one */
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

static bool is_composite(const struct slt_type *t)
{
	return t && (t->kind == SLT_T_STRUCT || t->kind == SLT_T_UNION);
}

static bool anon(const char *s)
{
	return !s || !*s;
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
	if (slt_grow((void **)&c->pk, &c->cappk, c->npk + 1, sizeof(*c->pk), 16))
		return SLT_ENOMEM;
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
	rc = slt_lay_type_holes(t, &pm, &o);
	if (rc)
		return rc;
	if (o.padding || o.nr_holes) {
		/* type__check_structs_at_unnatural_alignments() */
		for (uint32_t i = 0; i < t->n_members && !rc; i++) {
			const struct slt_type *st = slt_lay_strip(t->members[i].type);
			if (!st || st->kind != SLT_T_STRUCT)
				continue;
			if (pm[i].byte_offset % (int64_t)slt_lay_natalign(st, 0))
				rc = pk_set(c, st, true);
		}
	} else {
		uint64_t max = 1;
		bool decided = false;

		for (uint32_t i = 0; i < t->n_members; i++) {
			uint64_t na = slt_lay_natalign(t->members[i].type, 0);
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
	slt_lay_holes_free(&o);
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
		const struct slt_type *st = slt_lay_strip(u->members[i].type);
		if (st && st->kind == SLT_T_STRUCT &&
		    u->size % slt_lay_natalign(st, 0)) {
			int rc = pk_set(c, st, true);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The forced alignment of struct/union type t: DW_AT_alignment, or on BTF
 * pahole's guess. */
static uint32_t type_alignment(const struct bctx *c, const struct slt_type *t)
{
	if (t->alignment || c->format != SLT_FORMAT_BTF)
		return t->alignment;
	return slt_lay_btf_alignments(t, NULL);
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

/* The struct/union printed inline for member type mt (after expand_typedef():
 * via_td when a typedef was resolved, then an array of anonymous ones is
 * inline too), or NULL. */
static const struct slt_type *inline_type(const struct bctx *c,
					  const struct slt_type *mt, bool via_td)
{
	const struct slt_type *e = mt;

	/* const/volatile struct {...}: printed inline behind the qualifiers */
	for (int i = 0; e && (e->kind == SLT_T_CONST || e->kind == SLT_T_VOLATILE) &&
	     i < MAX_DEPTH; i++)
		e = e->ref;
	if (e != mt)
		mt = e;
	if (is_composite(mt))
		return (anon(mt->name) || c->expand) &&
		       !(mt->flags & SLT_TF_SHALLOW) ? mt : NULL;
	if (!mt || mt->kind != SLT_T_ARRAY)
		return NULL;
	for (int i = 0; e && e->kind == SLT_T_ARRAY && i < MAX_DEPTH; i++)
		e = e->ref;
	/* an array of an anonymous struct/union is always printed inline
	 * (pahole does, as for a plain anonymous member); of a named one or
	 * through a typedef only with --expand */
	if (!is_composite(e) || (e->flags & SLT_TF_SHALLOW))
		return NULL;
	return anon(e->name) && !via_td ? e : c->expand ? e : NULL;
}

/*
 * pahole -E (type__fprintf(), array_type__fprintf() with expand_types):
 * a member whose type is a typedef, or an array of one, is printed as
 * what the typedef chain resolves to, behind "/" "* typedef A -> B *" "/".
 * Returns the type to print (mt itself when nothing is expanded) and sets
 * *chain to "A -> B" (NULL when nothing is expanded).
 */
static const struct slt_type *expand_typedef(const struct bctx *c,
					     const struct slt_type *mt,
					     const char **chain)
{
	const struct slt_type *e = mt, *r;
	struct slt_type *top = NULL, **link = &top;
	size_t len = 0;
	char *s;
	int n = 0;

	*chain = NULL;
	if (!c->expand)
		return mt;
	for (int i = 0; e && e->kind == SLT_T_ARRAY && i < MAX_DEPTH; i++)
		e = e->ref;
	if (!e || e->kind != SLT_T_TYPEDEF)
		return mt;
	for (r = e; r && r->kind == SLT_T_TYPEDEF && n < MAX_DEPTH; r = r->ref, n++)
		len += strlen(r->name ? r->name : "") + 4;
	if (!r)
		return mt;
	s = slt_arena_alloc(c->a, len + 1);
	if (!s)
		return NULL;
	for (r = e; r && r->kind == SLT_T_TYPEDEF && n-- > 0; r = r->ref) {
		if (r != e)
			strcat(s, " -> ");
		strcat(s, r->name ? r->name : "");
	}
	*chain = s;
	if (e == mt)
		return r;
	/* a copy of the array levels, ending in the resolved element */
	for (const struct slt_type *a = mt; a != e; a = a->ref) {
		struct slt_type *x = slt_arena_alloc(c->a, sizeof(*x));
		if (!x)
			return NULL;
		*x = *a;
		*link = x;
		link = &x->ref;
	}
	*link = (struct slt_type *)r;
	return top;
}

static uint32_t member_flags(const struct slt_tmember *tm,
			     const struct slt_type *mt, uint64_t size)
{
	const struct slt_type *st = slt_lay_strip(mt);
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
static int build_struct(struct bctx *outer, const struct slt_type *t,
			struct slt_struct *out);

/* type__fprintf() 1.24 prints the anonymous struct or union that a
 * member's pointer (possibly const itself) points to inline: build its
 * layout into m->pointee. */
static int add_pointee(struct bctx *c, struct slt_member *m,
		       const struct slt_type *mt)
{
	struct slt_struct *ps;
	const char *type;
	int rc;

	while (mt && mt->kind == SLT_T_CONST)
		mt = mt->ref;
	if (!mt || mt->kind != SLT_T_PTR || !is_composite(mt->ref) ||
	    !anon(mt->ref->name) || (mt->ref->flags & SLT_TF_SHALLOW))
		return 0;
	if (c->ptr_depth >= MAX_DEPTH)
		return slt_error_set(c->err, SLT_ECORRUPT, c->file,
				     (int64_t)mt->ref->origin,
				     "the debug info is damaged; rebuild it",
				     "pointers to anonymous types nested more than %d deep (a cycle?)",
				     MAX_DEPTH);
	ps = slt_arena_calloc(c->a, 1, sizeof(*ps));
	type = slt_arena_printf(c->a, "%s {...} *",
				mt->ref->kind == SLT_T_UNION ? "union" : "struct");
	if (!ps || !type)
		return SLT_ENOMEM;
	rc = build_struct(c, mt->ref, ps);
	if (rc)
		return rc;
	m->pointee = ps;
	m->type = type;
	return 0;
}

/* Add member tm of level t (at base bytes) and, when inline, its members. */
static int add_member(struct bctx *c, const struct slt_type *t, uint32_t i,
		      uint32_t depth, int32_t parent, uint64_t base,
		      bool in_union, uint32_t btf_align)
{
	const struct slt_tmember *tm = &t->members[i];
	const struct slt_type *mt = tm->type, *it, *et;
	struct pm p = slt_lay_pm_of(tm);
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
	et = expand_typedef(c, mt, &m->typedef_name);
	if (!et)
		return SLT_ENOMEM;
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
	if (m->typedef_name && !is_composite(et)) {
		rc = slt_ctype_spell_decl(c->a, et, open, &m->decl_head,
					  &m->decl_tail);
		if (rc)
			return rc;
	}
	m->offset = base + (uint64_t)p.byte_offset;
	m->size = (uint64_t)p.size;
	if (tm->bit_size) {
		m->bit_offset = (uint32_t)(p.bit_start - p.byte_offset * 8);
		m->bit_size = tm->bit_size;
	}
	m->alignment = tm->alignment ? tm->alignment : btf_align;
	m->natural_alignment = (uint32_t)slt_lay_alignment(mt, 0);
	m->flags = member_flags(tm, mt, m->size);
	if (et->kind == SLT_T_ENUM && anon(et->name) && et->n_enumerators) {
		/* pahole prints an anonymous enum inline with its values */
		struct slt_enumerator *e = slt_arena_calloc(c->a, et->n_enumerators,
							    sizeof(*e));
		if (!e)
			return SLT_ENOMEM;
		for (uint32_t k = 0; k < et->n_enumerators; k++) {
			e[k].value = et->enumerators[k].value;
			e[k].name = slt_arena_strdup(c->a, et->enumerators[k].name ?
							   et->enumerators[k].name : "");
			if (!e[k].name)
				return SLT_ENOMEM;
		}
		m->enumerators = e;
		m->n_enumerators = et->n_enumerators;
		m->enum_size = (uint32_t)et->size;
		if (et->flags & SLT_TF_SIGNED)
			m->flags |= SLT_MEMBER_ENUM_SIGNED;
	}
	rc = add_pointee(c, m, mt);
	if (rc)
		return rc;
	m->parent = parent;
	m->depth = depth;
	if (mt->kind == SLT_T_STRUCT)
		m->type_padding = slt_lay_struct_padding(mt);

	it = inline_type(c, et, m->typedef_name != NULL);
	if (it) {
		size_t first = c->n;
		bool packed = false;

		m->flags |= SLT_MEMBER_INLINE;
		if (it->kind == SLT_T_UNION) /* an array of unions */
			m->flags |= SLT_MEMBER_UNION;
		if (m->typedef_name) {
			/* "struct tag {" or "struct {" behind the comment */
			m->decl_head = slt_arena_printf(c->a, "%s%s%s",
				it->kind == SLT_T_UNION ? "union" : "struct",
				anon(it->name) ? "" : " ",
				anon(it->name) ? "" : it->name);
			if (!m->decl_head)
				return SLT_ENOMEM;
			if (et->kind == SLT_T_ARRAY) {
				const char *h;
				rc = slt_ctype_spell_decl(c->a, et, open, &h,
							  &m->decl_tail);
				if (rc)
					return rc;
			} else {
				m->decl_tail = "";
			}
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
		slt_lay_btf_alignments(t, align);
	for (uint32_t i = 0; i < t->n_members && !rc; i++) {
		idx[i] = c->n;
		rc = add_member(c, t, i, depth, parent, base, in_union, align[i]);
	}
	free(align);
	if (!rc && t->kind == SLT_T_STRUCT) {
		struct holes o;
		struct pm *pm = NULL;

		rc = slt_lay_type_holes(t, &pm, &o);
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
			slt_lay_holes_free(&o);
		}
	}
	free(idx);
	return rc;
}

/* Holes in offset order (levels push theirs after their nested levels'),
 * a bit hole before a byte hole at the same offset; stable.  Declared in
 * build.h. */
void slt_struct_sort_holes(struct slt_hole *h, size_t n)
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

/* __class__fprintf()'s closing figures, from the top-level members
 * (declared in build.h: the advisor recomputes them for its proposals). */
void slt_struct_summarize(struct slt_struct *s)
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

	return build_struct(&c, t, out);
}

/* slt_build_struct() with the settings of outer (a pointee one level
 * further down). */
static int build_struct(struct bctx *outer, const struct slt_type *t,
			struct slt_struct *out)
{
	struct bctx c = { .a = outer->a, .expand = outer->expand,
			  .format = outer->format, .file = outer->file,
			  .err = outer->err, .ptr_depth = outer->ptr_depth + 1 };
	struct slt_arena *a = c.a;
	enum slt_format format = c.format;
	bool expand = c.expand;
	struct slt_error *err = c.err;
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
		rc = slt_lay_type_holes(t, NULL, &o);
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
	slt_struct_sort_holes(c.h, c.nh);
	if (c.nh)
		memcpy(out->holes, c.h, c.nh * sizeof(*c.h));
	out->n_members = c.n;
	out->n_holes = c.nh;
	out->kind = t->kind == SLT_T_UNION ? SLT_KIND_UNION : SLT_KIND_STRUCT;
	out->format = format;
	out->size = t->size;
	out->forced_alignment = type_alignment(&c, t);
	out->alignment = (uint32_t)slt_lay_alignment(t, 0);
	if (out->forced_alignment > out->alignment)
		out->alignment = out->forced_alignment;
	for (size_t k = 0; k < c.n; k++) /* BTF guesses at any depth */
		if (c.m[k].alignment > out->alignment)
			out->alignment = c.m[k].alignment;
	out->decl_line = t->decl_line;
	out->packed = packed;
	out->expanded = expand;
	out->typedef_named = (t->flags & SLT_TF_TYPEDEF_NAME) != 0;
	if (t->kind == SLT_T_STRUCT) {
		out->padding = (uint64_t)o.padding;
		out->bit_padding = (uint32_t)o.bit_padding;
	}
	slt_struct_summarize(out);
out:
	if (o.hole)
		slt_lay_holes_free(&o);
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
