/* SPDX-License-Identifier: MIT */
/*
 * BTF types -> the type graph of layout/types.h (see btf.c for the BTF
 * facts used).  Lazy and cached per type id; struct/union nodes start
 * SHALLOW and get their members when first needed by value.
 */
#include "load/btf_int.h"

#include <string.h>

static const char *type_name(struct btf_src *s, uint32_t id,
			     const struct btf_type *t, struct slt_error *err)
{
	const char *name = btf__name_by_offset(s->btf, t->name_off);
	if (!name)
		slt_btf_corrupt(s, id, err, "name offset %u is outside the string section",
			    t->name_off);
	return name;
}

struct slt_type *slt_btf_new_node(struct btf_src *s, enum slt_tkind kind,
				  uint32_t id, const char *name)
{
	struct slt_type *n = slt_arena_alloc(s->arena, sizeof(*n));
	if (n) {
		n->kind = kind;
		n->name = name;
		n->origin = id;
	}
	return n;
}

/* The enumerators of anonymous enum `id` (BTF_KIND_ENUM: 32-bit values,
 * BTF_KIND_ENUM64: lo/hi halves; signedness in kflag, kernel
 * Documentation/bpf/btf.rst 2.2.6 and 2.2.19) into n. */
static int enumerators(struct btf_src *s, uint32_t id,
		       const struct btf_type *t, struct slt_type *n,
		       struct slt_error *err)
{
	uint32_t cnt = btf_vlen(t);
	struct slt_enumerator *e;
	bool sgn = btf_kflag(t);

	if (!cnt)
		return 0;
	e = slt_arena_calloc(s->arena, cnt, sizeof(*e));
	if (!e)
		return slt_btf_nomem(s, err);
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t name_off;

		if (btf_is_enum64(t)) {
			const struct btf_enum64 *v = &btf_enum64(t)[i];
			uint64_t u = ((uint64_t)v->val_hi32 << 32) | v->val_lo32;
			name_off = v->name_off;
			e[i].value = (int64_t)u;
		} else {
			const struct btf_enum *v = &btf_enum(t)[i];
			name_off = v->name_off;
			e[i].value = sgn ? (int64_t)v->val
					 : (int64_t)(uint32_t)v->val;
		}
		e[i].name = btf__name_by_offset(s->btf, name_off);
		if (!e[i].name)
			return slt_btf_corrupt(s, id, err,
					       "enumerator %u has a bad name offset", i);
	}
	n->enumerators = e;
	n->n_enumerators = cnt;
	return 0;
}

/* Translate the members of struct/union `sid` into its node n (which is
 * SHALLOW until this succeeds). */
static int fill_members(struct btf_src *s, uint32_t sid, struct slt_type *n,
			unsigned depth, struct slt_error *err)
{
	if (s->busy[sid])
		return slt_btf_corrupt(s, sid, err,
				   "%s %s contains itself by value",
				   n->kind == SLT_T_UNION ? "union" : "struct",
				   n->name && n->name[0] ? n->name : "(anonymous)");
	const struct btf_type *t = btf__type_by_id(s->btf, sid);
	uint32_t vlen = btf_vlen(t);
	struct slt_tmember *mem = NULL;
	if (vlen) {
		mem = slt_arena_calloc(s->arena, vlen, sizeof(*mem));
		if (!mem)
			return slt_btf_nomem(s, err);
	}
	const struct btf_member *bm = btf_members(t);
	int rc = 0;
	s->busy[sid] = 1;
	for (uint32_t i = 0; i < vlen; i++) {
		const char *mname = btf__name_by_offset(s->btf, bm[i].name_off);
		if (!mname) {
			rc = slt_btf_corrupt(s, sid, err,
					 "member %u: name offset %u is outside the string section",
					 i, bm[i].name_off);
			break;
		}
		rc = slt_btf_xlate(s, bm[i].type, true, depth + 1, &mem[i].type, err);
		if (rc)
			break;
		if (!mem[i].type) {
			rc = slt_btf_corrupt(s, sid, err, "member %u (%s) has type void",
					 i, mname);
			break;
		}
		mem[i].name = mname;
		mem[i].bit_offset = btf_member_bit_offset(t, i);
		mem[i].bit_size = btf_member_bitfield_size(t, i);
		if (!btf_kflag(t)) {
			/* Old encoding: the bitfield is in the INT type. */
			const struct btf_type *mt = btf__type_by_id(s->btf, bm[i].type);
			if (mt && btf_is_int(mt) &&
			    btf_int_bits(mt) != 8u * mt->size) {
				mem[i].bit_size = btf_int_bits(mt);
				mem[i].bit_offset += btf_int_offset(mt);
			}
		}
	}
	s->busy[sid] = 0;
	if (rc)
		return rc;
	n->members = mem;
	n->n_members = vlen;
	n->flags &= ~(uint32_t)SLT_TF_SHALLOW;
	return 0;
}

/* n is already translated; make sure everything it holds by value is
 * fully translated too. */
static int make_full(struct btf_src *s, struct slt_type *n, unsigned depth,
		     struct slt_error *err)
{
	uint32_t id = (uint32_t)n->origin;
	const struct btf_type *t = btf__type_by_id(s->btf, id);
	struct slt_type *r;

	switch (n->kind) {
	case SLT_T_STRUCT:
	case SLT_T_UNION:
		if (!(n->flags & SLT_TF_SHALLOW))
			return 0;
		return fill_members(s, id, n, depth, err);
	case SLT_T_ARRAY:
		return slt_btf_xlate(s, btf_array(t)->type, true, depth + 1, &r, err);
	case SLT_T_TYPEDEF:
	case SLT_T_CONST:
	case SLT_T_VOLATILE:
	case SLT_T_RESTRICT:
		return slt_btf_xlate(s, t->type, true, depth + 1, &r, err);
	default:
		return 0;
	}
}

/* The graph kind for a BTF kind; SLT_T_VOID for kinds that are not types
 * of members (FUNC, VAR, DATASEC, DECL_TAG, unknown). */
static enum slt_tkind slt_kind(unsigned kind)
{
	static const enum slt_tkind map[] = {
		[BTF_KIND_INT] = SLT_T_INT, [BTF_KIND_FLOAT] = SLT_T_FLOAT,
		[BTF_KIND_ENUM] = SLT_T_ENUM, [BTF_KIND_ENUM64] = SLT_T_ENUM,
		[BTF_KIND_PTR] = SLT_T_PTR, [BTF_KIND_ARRAY] = SLT_T_ARRAY,
		[BTF_KIND_STRUCT] = SLT_T_STRUCT, [BTF_KIND_UNION] = SLT_T_UNION,
		[BTF_KIND_TYPEDEF] = SLT_T_TYPEDEF, [BTF_KIND_CONST] = SLT_T_CONST,
		[BTF_KIND_VOLATILE] = SLT_T_VOLATILE,
		[BTF_KIND_RESTRICT] = SLT_T_RESTRICT,
		[BTF_KIND_FUNC_PROTO] = SLT_T_FUNC, [BTF_KIND_FWD] = SLT_T_FWD,
	};
	return kind < sizeof(map) / sizeof(map[0]) ? map[kind] : SLT_T_VOID;
}

/* Parameters of FUNC_PROTO t into n (return type already in n->ref).  A
 * final {name 0, type 0} parameter means `...`. */
static int xlate_params(struct btf_src *s, const struct btf_type *t,
			struct slt_type *n, unsigned depth,
			struct slt_error *err)
{
	uint32_t vlen = btf_vlen(t);
	const struct btf_param *p = btf_params(t);
	if (vlen && p[vlen - 1].name_off == 0 && p[vlen - 1].type == 0) {
		n->flags |= SLT_TF_VARIADIC;
		vlen--;
	}
	if (vlen) {
		n->params = slt_arena_calloc(s->arena, vlen, sizeof(*n->params));
		if (!n->params)
			return slt_btf_nomem(s, err);
	}
	for (uint32_t i = 0; i < vlen; i++) {
		int rc = slt_btf_xlate(s, p[i].type, false, depth + 1, &n->params[i], err);
		if (rc)
			return rc;
		if (!n->params[i])
			n->params[i] = s->void_node;
	}
	n->n_params = vlen;
	return 0;
}

/*
 * The node for type `id` (NULL for void), created on first use and cached.
 * full: also translate the members of every struct/union held by value
 * (through typedefs, qualifiers and arrays); pointers and function
 * signatures always lead to SHALLOW nodes.  Non-struct nodes are cached
 * only once their references resolved, so a reference loop that avoids
 * structs hits the depth bound instead of leaving a cyclic graph behind.
 */
int slt_btf_xlate(struct btf_src *s, uint32_t id, bool full, unsigned depth,
		  struct slt_type **out, struct slt_error *err)
{
	*out = NULL;
	if (id == 0)
		return 0;
	if (id >= s->n_types)
		return slt_error_set(err, SLT_ECORRUPT, s->file, -1, HINT_CORRUPT,
				     "BTF refers to type id %u but has only %u types",
				     id, s->n_types);
	if (depth > BTF_MAX_DEPTH)
		return slt_btf_corrupt(s, id, err,
				   "type references nest deeper than %u (a reference loop?)",
				   BTF_MAX_DEPTH);

	struct slt_type *n = s->nodes[id];
	if (n) {
		int rc = full ? make_full(s, n, depth, err) : 0;
		if (!rc)
			*out = n;
		return rc;
	}

	const struct btf_type *t = btf__type_by_id(s->btf, id);
	if (!t)
		return slt_btf_corrupt(s, id, err, "missing type record");
	const char *name = type_name(s, id, t, err);
	if (!name)
		return SLT_ECORRUPT;
	struct slt_type *ref = NULL;
	int rc = 0;
	unsigned kind = btf_kind(t);

	switch (kind) {
	case BTF_KIND_TYPE_TAG:
		/* transparent: the node of what it annotates */
		rc = slt_btf_xlate(s, t->type, full, depth + 1, &ref, err);
		if (!rc && ref)
			s->nodes[id] = ref;
		*out = ref;
		return rc;
	case BTF_KIND_PTR:
	case BTF_KIND_FUNC_PROTO:
		/* pointees and signatures: shallow; but pahole prints an
		 * anonymous struct or union that a pointer points to inline
		 * (layout/build.c add_pointee()): its members too, unless
		 * it is being filled (points to itself) */
		rc = slt_btf_xlate(s, t->type, false, depth + 1, &ref, err);
		if (!rc && full && kind == BTF_KIND_PTR && ref &&
		    (ref->kind == SLT_T_STRUCT || ref->kind == SLT_T_UNION) &&
		    (!ref->name || !*ref->name) && !s->busy[(uint32_t)ref->origin])
			rc = slt_btf_xlate(s, t->type, true, depth + 1, &ref, err);
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		rc = slt_btf_xlate(s, t->type, full, depth + 1, &ref, err);
		break;
	case BTF_KIND_ARRAY:
		rc = slt_btf_xlate(s, btf_array(t)->type, full, depth + 1, &ref, err);
		if (!rc && !ref)
			return slt_btf_corrupt(s, id, err, "array of void");
		break;
	}
	if (rc)
		return rc;

	enum slt_tkind sk = slt_kind(kind);
	if (sk == SLT_T_VOID)
		/* FUNC, VAR, DATASEC, DECL_TAG and unknown kinds are never the
		 * type of a member, pointee or parameter. */
		return slt_btf_corrupt(s, id, err,
				   "kind %u cannot be the type of a member", kind);
	bool named = kind != BTF_KIND_PTR && kind != BTF_KIND_ARRAY &&
		     kind != BTF_KIND_FUNC_PROTO && sk != SLT_T_CONST &&
		     sk != SLT_T_VOLATILE && sk != SLT_T_RESTRICT;
	n = slt_btf_new_node(s, sk, id, named ? name : NULL);
	if (!n)
		return slt_btf_nomem(s, err);
	n->ref = ref;

	/* Sizes the kinds can have (btf.rst: an INT holds at most 128 bits,
	 * an enum 64, a FLOAT is an IEEE/x87 format): any other is corrupt,
	 * and would become an alignment of that many bytes. */
	if ((kind == BTF_KIND_INT && (t->size == 0 || t->size > 16)) ||
	    ((kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64) && (t->size == 0 || t->size > 8)) ||
	    (kind == BTF_KIND_FLOAT && t->size != 2 && t->size != 4 && t->size != 8 &&
	     t->size != 12 && t->size != 16))
		return slt_btf_corrupt(s, id, err, "%s of size %u", kind == BTF_KIND_INT ? "int" :
				       kind == BTF_KIND_FLOAT ? "float" : "enum", t->size);
	switch (kind) {
	case BTF_KIND_INT:
		n->size = t->size;
		if (btf_int_encoding(t) & BTF_INT_SIGNED)
			n->flags |= SLT_TF_SIGNED;
		if (btf_int_encoding(t) & BTF_INT_CHAR)
			n->flags |= SLT_TF_CHAR;
		if (btf_int_encoding(t) & BTF_INT_BOOL)
			n->flags |= SLT_TF_BOOL;
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		n->flags |= btf_kflag(t) ? SLT_TF_SIGNED : 0;
		n->size = t->size;
		if (!named || !name || !*name) {
			rc = enumerators(s, id, t, n, err);
			if (rc)
				return rc;
		}
		break;
	case BTF_KIND_FLOAT:
		n->size = t->size;
		break;
	case BTF_KIND_FWD:
		n->fwd_kind = btf_kflag(t) ? SLT_T_UNION : SLT_T_STRUCT;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		n->size = t->size;
		n->flags |= SLT_TF_SHALLOW;
		/* Cached before the members: pointers back to it resolve. */
		s->nodes[id] = n;
		rc = full ? fill_members(s, id, n, depth, err) : 0;
		if (!rc)
			*out = n;
		return rc;
	case BTF_KIND_PTR:
		n->size = s->ptr_size;
		break;
	case BTF_KIND_TYPEDEF:
		/* types.h: a typedef always names a target; pointers and
		 * qualifiers of void have ref NULL */
		if (!ref)
			n->ref = s->void_node;
		/* fall through */
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		n->size = ref ? ref->size : 0;
		break;
	case BTF_KIND_ARRAY:
		n->nelems = btf_array(t)->nelems;
		if (ref->size && n->nelems > UINT64_MAX / ref->size)
			return slt_btf_corrupt(s, id, err, "array size overflows");
		n->size = n->nelems * ref->size;
		break;
	case BTF_KIND_FUNC_PROTO:
		rc = xlate_params(s, t, n, depth, err);
		if (rc)
			return rc;
		break;
	}
	s->nodes[id] = n;
	*out = n;
	return 0;
}
