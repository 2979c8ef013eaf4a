/* SPDX-License-Identifier: MIT */
/*
 * The BTF source: reads BTF with libbpf and translates it into the
 * format-neutral type graph of layout/types.h.
 *
 * BTF facts used here (linux Documentation/bpf/btf.rst, libbpf btf.h):
 *  - type id 0 is void; ids run 1 .. btf__type_cnt() - 1 (split BTF of a
 *    module continues the ids of its base, vmlinux);
 *  - struct/union member offsets are in bits; with kind_flag set the
 *    member's offset word holds bitfield_size << 24 | bit_offset
 *    (btf_member_bit_offset()/btf_member_bitfield_size()); without it, a
 *    bitfield is an INT member whose encoding has nr_bits < 8 * size and a
 *    bit offset of its own;
 *  - multi-dimensional arrays are arrays of arrays;
 *  - a FUNC_PROTO whose last parameter is {name 0, type 0} is variadic;
 *  - a FWD with kind_flag set declares a union, otherwise a struct;
 *  - TYPE_TAG is an annotation on a pointee (`__user`, `__rcu`): skipped;
 *  - BTF has no declaration file/line and no alignment attribute: those
 *    stay empty/0 (the layout builder infers forced alignment as pahole
 *    does).
 *
 * libbpf validates the header, string and type sections when parsing (every
 * type fits in the type section, vlen included), but libbpf 1.1 does not
 * check that referenced type ids exist or that references do not loop, so
 * the walk below checks every id, keeps an explicit depth bound and flags
 * a struct that contains itself by value.
 */
#include "load/source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "common/arena.h"
#include "common/strdist.h"

/* Bound on nested type references (typedef -> const -> array -> struct by
 * value -> ...).  Real kernels stay far below; corrupt input with a loop
 * stops here instead of exhausting the stack. */
#define BTF_MAX_DEPTH 256u

#define HINT_CORRUPT "the BTF is malformed: regenerate it (pahole -J) or read DWARF instead"
#define HINT_NOBTF "the kernel needs CONFIG_DEBUG_INFO_BTF=y"

/* One distinct name in the name index: head of a chain of type ids (in id
 * order) through btf_src.next. */
struct name_ent {
	const char *name;
	uint32_t hash;
	uint32_t head;
};

struct btf_src {
	struct slt_source base;
	struct btf *btf;
	struct btf *base_btf;   /* vmlinux under split (module) BTF, or NULL */
	char *file;             /* path or name, for messages */
	char *base_file;
	bool offsets_are_file;  /* raw BTF file or memory: error offsets are
				   offsets in `file` */
	struct slt_arena *arena;
	uint32_t n_types;       /* btf__type_cnt(): ids 0 .. n_types - 1 */
	uint32_t n_base_types;  /* ids below this live in base_btf */
	uint32_t ptr_size;      /* bytes */
	struct slt_type **nodes;  /* by id, translated lazily */
	uint8_t *busy;            /* by id: struct members being translated */
	struct slt_type *void_node;
	/* Name index of struct, union, fwd and typedef names; built on first
	 * use by find/suggest. */
	uint32_t *next;
	struct name_ent *tab;
	size_t tab_cap;           /* power of two, 0 until built */
};

static const struct slt_source_ops btf_ops;

/* ---- errors -------------------------------------------------------- */

static int btf_corrupt(struct btf_src *s, uint32_t id, struct slt_error *err,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A problem with type `id`: the error names the id and the byte offset of
 * its record in the BTF data (the file offset for raw BTF, the offset in
 * the .BTF section for ELF). */
static int btf_corrupt(struct btf_src *s, uint32_t id, struct slt_error *err,
		       const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	bool in_base = s->base_btf && id < s->n_base_types;
	const struct btf *owner = in_base ? s->base_btf : s->btf;
	const char *file = in_base ? s->base_file : s->file;
	const struct btf_type *t = id < s->n_types ? btf__type_by_id(s->btf, id) : NULL;
	uint32_t raw_size = 0;
	const char *raw = t ? btf__raw_data(owner, &raw_size) : NULL;
	int64_t off = -1;
	if (raw && (const char *)t >= raw && (const char *)t < raw + raw_size)
		off = (const char *)t - raw;

	if (off >= 0 && (s->offsets_are_file || in_base))
		return slt_error_set(err, SLT_ECORRUPT, file, off, HINT_CORRUPT,
				     "BTF type [%u]: %s", id, msg);
	if (off >= 0)
		return slt_error_set(err, SLT_ECORRUPT, file, -1, HINT_CORRUPT,
				     "BTF type [%u] (.BTF+0x%llx): %s", id,
				     (unsigned long long)off, msg);
	return slt_error_set(err, SLT_ECORRUPT, file, -1, HINT_CORRUPT,
			     "BTF type [%u]: %s", id, msg);
}

static int nomem(struct btf_src *s, struct slt_error *err)
{
	return slt_error_set(err, SLT_ENOMEM, s->file, -1, NULL,
			     "out of memory reading BTF");
}

/* ---- translation --------------------------------------------------- */

static int xlate(struct btf_src *s, uint32_t id, bool full, unsigned depth,
		 struct slt_type **out, struct slt_error *err);

static const char *type_name(struct btf_src *s, uint32_t id,
			     const struct btf_type *t, struct slt_error *err)
{
	const char *name = btf__name_by_offset(s->btf, t->name_off);
	if (!name)
		btf_corrupt(s, id, err, "name offset %u is outside the string section",
			    t->name_off);
	return name;
}

static struct slt_type *new_node(struct btf_src *s, enum slt_tkind kind,
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

/* Translate the members of struct/union `sid` into its node n (which is
 * SHALLOW until this succeeds). */
static int fill_members(struct btf_src *s, uint32_t sid, struct slt_type *n,
			unsigned depth, struct slt_error *err)
{
	if (s->busy[sid])
		return btf_corrupt(s, sid, err,
				   "%s %s contains itself by value",
				   n->kind == SLT_T_UNION ? "union" : "struct",
				   n->name && n->name[0] ? n->name : "(anonymous)");
	const struct btf_type *t = btf__type_by_id(s->btf, sid);
	uint32_t vlen = btf_vlen(t);
	struct slt_tmember *mem = NULL;
	if (vlen) {
		mem = slt_arena_calloc(s->arena, vlen, sizeof(*mem));
		if (!mem)
			return nomem(s, err);
	}
	const struct btf_member *bm = btf_members(t);
	int rc = 0;
	s->busy[sid] = 1;
	for (uint32_t i = 0; i < vlen; i++) {
		const char *mname = btf__name_by_offset(s->btf, bm[i].name_off);
		if (!mname) {
			rc = btf_corrupt(s, sid, err,
					 "member %u: name offset %u is outside the string section",
					 i, bm[i].name_off);
			break;
		}
		rc = xlate(s, bm[i].type, true, depth + 1, &mem[i].type, err);
		if (rc)
			break;
		if (!mem[i].type) {
			rc = btf_corrupt(s, sid, err, "member %u (%s) has type void",
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
		return xlate(s, btf_array(t)->type, true, depth + 1, &r, err);
	case SLT_T_TYPEDEF:
	case SLT_T_CONST:
	case SLT_T_VOLATILE:
	case SLT_T_RESTRICT:
		return xlate(s, t->type, true, depth + 1, &r, err);
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
			return nomem(s, err);
	}
	for (uint32_t i = 0; i < vlen; i++) {
		int rc = xlate(s, p[i].type, false, depth + 1, &n->params[i], err);
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
static int xlate(struct btf_src *s, uint32_t id, bool full, unsigned depth,
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
		return btf_corrupt(s, id, err,
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
		return btf_corrupt(s, id, err, "missing type record");
	const char *name = type_name(s, id, t, err);
	if (!name)
		return SLT_ECORRUPT;
	struct slt_type *ref = NULL;
	int rc = 0;
	unsigned kind = btf_kind(t);

	switch (kind) {
	case BTF_KIND_TYPE_TAG:
		/* transparent: the node of what it annotates */
		rc = xlate(s, t->type, full, depth + 1, &ref, err);
		if (!rc && ref)
			s->nodes[id] = ref;
		*out = ref;
		return rc;
	case BTF_KIND_PTR:
	case BTF_KIND_FUNC_PROTO:
		/* pointees and signatures: shallow */
		rc = xlate(s, t->type, false, depth + 1, &ref, err);
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		rc = xlate(s, t->type, full, depth + 1, &ref, err);
		break;
	case BTF_KIND_ARRAY:
		rc = xlate(s, btf_array(t)->type, full, depth + 1, &ref, err);
		if (!rc && !ref)
			return btf_corrupt(s, id, err, "array of void");
		break;
	}
	if (rc)
		return rc;

	enum slt_tkind sk = slt_kind(kind);
	if (sk == SLT_T_VOID)
		/* FUNC, VAR, DATASEC, DECL_TAG and unknown kinds are never the
		 * type of a member, pointee or parameter. */
		return btf_corrupt(s, id, err,
				   "kind %u cannot be the type of a member", kind);
	bool named = kind != BTF_KIND_PTR && kind != BTF_KIND_ARRAY &&
		     kind != BTF_KIND_FUNC_PROTO && sk != SLT_T_CONST &&
		     sk != SLT_T_VOLATILE && sk != SLT_T_RESTRICT;
	n = new_node(s, sk, id, named ? name : NULL);
	if (!n)
		return nomem(s, err);
	n->ref = ref;

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
		/* fall through */
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
			return btf_corrupt(s, id, err, "array size overflows");
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

/* ---- name index ---------------------------------------------------- */

static uint32_t name_hash(const char *p)
{
	uint32_t h = 2166136261u;   /* FNV-1a */
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

static bool indexed_kind(unsigned kind)
{
	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION ||
	       kind == BTF_KIND_FWD || kind == BTF_KIND_TYPEDEF;
}

static struct name_ent *lookup(struct btf_src *s, const char *name,
			       uint32_t h)
{
	size_t mask = s->tab_cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct name_ent *e = &s->tab[i];
		if (!e->name || (e->hash == h && strcmp(e->name, name) == 0))
			return e;
	}
}

/* Index struct, union, fwd and typedef names: name -> chain of ids. */
static int build_index(struct btf_src *s, struct slt_error *err)
{
	if (s->tab_cap)
		return 0;
	size_t count = 0;
	for (uint32_t id = 1; id < s->n_types; id++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		if (t && indexed_kind(btf_kind(t)))
			count++;
	}
	size_t cap = 16;
	while (cap < 2 * count + 1)
		cap *= 2;
	s->tab = calloc(cap, sizeof(*s->tab));
	s->next = calloc(s->n_types, sizeof(*s->next));
	if (!s->tab || !s->next) {
		free(s->tab);
		free(s->next);
		s->tab = NULL;
		s->next = NULL;
		return nomem(s, err);
	}
	s->tab_cap = cap;
	/* Descending ids, pushed at the head: chains end up in id order. */
	for (uint32_t id = s->n_types - 1; id >= 1; id--) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		if (!t || !indexed_kind(btf_kind(t)))
			continue;
		const char *name = btf__name_by_offset(s->btf, t->name_off);
		if (!name || !name[0])
			continue;
		uint32_t h = name_hash(name);
		struct name_ent *e = lookup(s, name, h);
		if (!e->name) {
			e->name = name;
			e->hash = h;
		}
		s->next[id] = e->head;
		e->head = id;
	}
	return 0;
}

static bool is_composite_def(struct btf_src *s, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(s->btf, id);
	return t && btf_is_composite(t);
}

/* Follow typedefs, qualifiers and type tags from id; returns the id
 * reached (0 for void, or on a loop / bad id). */
static uint32_t skip_typedefs(struct btf_src *s, uint32_t id)
{
	for (unsigned i = 0; i <= BTF_MAX_DEPTH && id; i++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		if (!t)
			return 0;
		if (!btf_is_typedef(t) && !btf_is_mod(t))
			return id;
		id = t->type;
	}
	return 0;
}

/* ---- ops ----------------------------------------------------------- */

static int btf_suggest(struct slt_source *src, const char *name, size_t max,
		       char ***out, struct slt_error *err)
{
	struct btf_src *s = (struct btf_src *)src;
	*out = NULL;
	int rc = build_index(s, err);
	if (rc)
		return rc;
	struct slt_suggest sg;
	slt_suggest_init(&sg, name, max);
	for (size_t i = 0; i < s->tab_cap; i++) {
		const struct name_ent *e = &s->tab[i];
		if (!e->name || !slt_suggest_could(&sg, strlen(e->name)))
			continue;
		bool def = false;
		for (uint32_t id = e->head; id && !def; id = s->next[id])
			def = is_composite_def(s, id);
		if (def && slt_suggest_add(&sg, e->name)) {
			slt_suggest_release(&sg);
			return nomem(s, err);
		}
	}
	return (int)slt_suggest_take(&sg, out);
}

static int btf_find(struct slt_source *src, const char *name,
		    struct slt_type ***out, size_t *n_out,
		    struct slt_error *err)
{
	struct btf_src *s = (struct btf_src *)src;
	*out = NULL;
	*n_out = 0;
	int rc = build_index(s, err);
	if (rc)
		return rc;
	struct name_ent *e = lookup(s, name, name_hash(name));
	size_t n_ids = 0;
	for (uint32_t id = e->head; id; id = s->next[id])
		n_ids++;

	/* ids[i]: the struct/union to translate; from_td[i]: the typedef it
	 * was reached through (0 when found by its own name). */
	uint32_t *ids = calloc(n_ids ? 2 * n_ids : 1, sizeof(*ids));
	if (!ids)
		return nomem(s, err);
	uint32_t *from_td = ids + n_ids;
	size_t n = 0;
	bool declared = false;
	for (uint32_t id = e->head; id; id = s->next[id]) {
		if (is_composite_def(s, id))
			ids[n++] = id;
		else if (btf_is_fwd(btf__type_by_id(s->btf, id)))
			declared = true;
	}
	if (n == 0) {
		for (uint32_t id = e->head; id; id = s->next[id]) {
			if (!btf_is_typedef(btf__type_by_id(s->btf, id)))
				continue;
			uint32_t target = skip_typedefs(s, id);
			const struct btf_type *t = btf__type_by_id(s->btf, target);
			if (!target || !t)
				continue;
			if (btf_is_fwd(t)) {
				declared = true;
				continue;
			}
			if (!btf_is_composite(t))
				continue;
			bool dup = false;
			for (size_t i = 0; i < n && !dup; i++)
				dup = ids[i] == target;
			if (!dup) {
				ids[n] = target;
				from_td[n++] = id;
			}
		}
	}
	if (n == 0) {
		free(ids);
		if (declared)
			return slt_error_set(err, SLT_EDECLONLY, s->file, -1,
					     "the BTF only holds a forward declaration; read the object that defines it, or DWARF",
					     "'%s' is only declared, not defined, in the BTF",
					     name);
		/* load.c adds "did you mean" names through ->suggest */
		return slt_error_set(err, SLT_ENOTFOUND, s->file, -1, NULL,
				     "no struct or union named '%s' in the BTF",
				     name);
	}

	struct slt_type **res = malloc(n * sizeof(*res));
	if (!res) {
		free(ids);
		return nomem(s, err);
	}
	for (size_t i = 0; i < n; i++) {
		rc = xlate(s, ids[i], true, 0, &res[i], err);
		if (rc)
			break;
		if (from_td[i] && (!res[i]->name || !res[i]->name[0])) {
			/* Anonymous struct named by its typedef: a copy, so
			 * the shared node keeps spelling "struct {...}". */
			struct slt_type *c = slt_arena_alloc(s->arena, sizeof(*c));
			if (!c) {
				rc = nomem(s, err);
				break;
			}
			*c = *res[i];
			c->flags |= SLT_TF_TYPEDEF_NAME;
			c->name = btf__name_by_offset(s->btf,
				btf__type_by_id(s->btf, from_td[i])->name_off);
			res[i] = c;
		}
	}
	free(ids);
	if (rc) {
		free(res);
		return rc;
	}
	*out = res;
	*n_out = n;
	return 0;
}

static int btf_list(struct slt_source *src, slt_source_list_cb cb, void *ctx,
		    struct slt_error *err)
{
	struct btf_src *s = (struct btf_src *)src;
	for (uint32_t id = 1; id < s->n_types; id++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		if (!t || !btf_is_composite(t) || t->name_off == 0)
			continue;
		struct slt_type *n;
		int rc = xlate(s, id, false, 0, &n, err);
		if (rc)
			return rc;
		if (!n->name || !n->name[0])
			continue;
		rc = cb(ctx, n);
		if (rc)
			return rc;
	}
	return 0;
}

static void btf_close(struct slt_source *src)
{
	struct btf_src *s = (struct btf_src *)src;
	if (!s)
		return;
	btf__free(s->btf);
	btf__free(s->base_btf);
	slt_arena_free(s->arena);
	free(s->nodes);
	free(s->busy);
	free(s->next);
	free(s->tab);
	free(s->file);
	free(s->base_file);
	free(s);
}

static const struct slt_source_ops btf_ops = {
	.find = btf_find,
	.list = btf_list,
	.suggest = btf_suggest,
	.close = btf_close,
};

/* ---- opening ------------------------------------------------------- */

static int silent_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* Wrap a parsed BTF (and its base) in a source; takes ownership of both,
 * also on failure. */
static int make_source(struct btf *btf, struct btf *base, const char *file,
		       const char *base_file, bool offsets_are_file,
		       struct slt_source **out, struct slt_error *err)
{
	/* libbpf 1.1 accepts a header length that leaves the type records
	 * misaligned; every record is a multiple of 4 bytes, so checking the
	 * first one covers all. */
	uint32_t first = base ? btf__type_cnt(base) : 1;
	bool misaligned = first < btf__type_cnt(btf) &&
			  ((uintptr_t)btf__type_by_id(btf, first) & 3);
	struct btf_src *s = misaligned ? NULL : calloc(1, sizeof(*s));
	if (!s) {
		btf__free(btf);
		btf__free(base);
		if (misaligned)
			return slt_error_set(err, SLT_ECORRUPT, file, 4, HINT_CORRUPT,
					     "BTF type section is not 4-byte aligned (header length or type offset)");
		return slt_error_set(err, SLT_ENOMEM, file, -1, NULL,
				     "out of memory reading BTF");
	}
	s->base.ops = &btf_ops;
	s->base.format = SLT_FORMAT_BTF;
	s->btf = btf;
	s->base_btf = base;
	s->offsets_are_file = offsets_are_file;
	s->file = strdup(file);
	s->base_file = base_file ? strdup(base_file) : NULL;
	s->base.path = s->file;
	s->n_types = btf__type_cnt(btf);
	s->n_base_types = base ? btf__type_cnt(base) : 0;
	size_t ps = btf__pointer_size(btf);
	/* 0: no integer type to guess from (hand-made BTF); assume the host */
	s->ptr_size = ps ? (uint32_t)ps : (uint32_t)sizeof(void *);
	s->arena = slt_arena_new();
	s->nodes = calloc(s->n_types, sizeof(*s->nodes));
	s->busy = calloc(s->n_types, 1);
	if (s->arena)
		s->void_node = new_node(s, SLT_T_VOID, 0, "void");
	if (!s->file || (base_file && !s->base_file) || !s->arena ||
	    !s->nodes || !s->busy || !s->void_node) {
		btf_close(&s->base);
		return slt_error_set(err, SLT_ENOMEM, file, -1, NULL,
				     "out of memory reading BTF");
	}
	*out = &s->base;
	return 0;
}

/* Turn a libbpf parse failure (negative errno) into an slt_error. */
static int parse_error(int e, const char *file, bool elf,
		       struct slt_error *err)
{
	char lb[128];
	libbpf_strerror(e, lb, sizeof(lb));
	if (e == -ENOMEM)
		return slt_error_set(err, SLT_ENOMEM, file, -1, NULL,
				     "out of memory reading BTF");
	if (elf && e == -ENOENT)
		return slt_error_set(err, SLT_ENODEBUG, file, -1,
				     "build with pahole -J (CONFIG_DEBUG_INFO_BTF=y for a kernel) or use DWARF",
				     "ELF file has no .BTF section");
	if (!elf && e == -EPROTO)
		return slt_error_set(err, SLT_ENOTELF, file, 0, HINT_NOBTF,
				     "not raw BTF (bad magic)");
	if (e == -EACCES || e == -EPERM || e == -EIO || e == -ENOENT)
		return slt_error_set(err, SLT_EIO, file, -1, NULL,
				     "cannot read BTF: %s", lb);
	return slt_error_set(err, SLT_ECORRUPT, file, -1, HINT_CORRUPT,
			     "malformed BTF: libbpf: %s", lb);
}

/* BTF_MAGIC 0xeB9F, little- or big-endian (include/uapi/linux/btf.h). */
static bool btf_magic(const unsigned char *p, size_t n)
{
	return n >= 2 && ((p[0] == 0x9f && p[1] == 0xeb) ||
			  (p[0] == 0xeb && p[1] == 0x9f));
}

/* The directory of per-module split BTF, based on vmlinux there. */
static bool is_kernel_module_btf(const char *path)
{
	static const char dir[] = "/sys/kernel/btf/";
	if (strncmp(path, dir, sizeof(dir) - 1) != 0)
		return false;
	const char *base = path + sizeof(dir) - 1;
	return base[0] && !strchr(base, '/') && strcmp(base, "vmlinux") != 0;
}

int slt_source_open_btf(const char *path, const struct slt_load_opts *opts,
			struct slt_source **out, struct slt_error *err)
{
	(void)opts;   /* nothing in slt_load_opts applies to BTF */
	*out = NULL;
	if (!path)
		path = SLT_KERNEL_BTF_PATH;
	FILE *f = fopen(path, "rb");
	if (!f) {
		int e = errno;
		return slt_error_set(err, SLT_EIO, path, -1,
				     strcmp(path, SLT_KERNEL_BTF_PATH) == 0 ? HINT_NOBTF : NULL,
				     "cannot open: %s", strerror(e));
	}
	unsigned char magic[4] = {0};
	size_t got = fread(magic, 1, sizeof(magic), f);
	int rerr = ferror(f) ? errno : 0;
	fclose(f);
	if (rerr)
		return slt_error_set(err, SLT_EIO, path, 0, NULL,
				     "cannot read: %s", strerror(rerr));

	bool raw = btf_magic(magic, got);
	bool elf = got == 4 && memcmp(magic, "\177ELF", 4) == 0;
	if (!raw && !elf)
		return slt_error_set(err, SLT_ENOTELF, path, 0,
				     strncmp(path, "/sys/kernel/btf/", 16) == 0 ? HINT_NOBTF :
				     "give an ELF file with a .BTF section or a raw BTF file",
				     got ? "neither an ELF file nor raw BTF" :
					   "empty file: neither an ELF file nor raw BTF");

	libbpf_print_fn_t old = libbpf_set_print(silent_print);
	struct btf *base = NULL, *btf = NULL;
	const char *base_file = NULL;
	int e = 0;
	if (raw && is_kernel_module_btf(path)) {
		base_file = SLT_KERNEL_BTF_PATH;
		base = btf__parse_raw(base_file);
		if (!base)
			e = errno ? -errno : -EINVAL;
		else if (!(btf = btf__parse_split(path, base)))
			e = errno ? -errno : -EINVAL;
	} else if (raw) {
		if (!(btf = btf__parse_raw(path)))
			e = errno ? -errno : -EINVAL;
	} else if (!(btf = btf__parse_elf(path, NULL))) {
		e = errno ? -errno : -EINVAL;
	}
	libbpf_set_print(old);
	if (e) {
		if (base && !btf) {
			btf__free(base);
			return parse_error(e, path, false, err);
		}
		if (!base && base_file)
			return parse_error(e, base_file, false, err);
		return parse_error(e, path, elf, err);
	}
	return make_source(btf, base, path, base_file, raw, out, err);
}

int slt_source_open_btf_mem(const void *data, size_t size, const char *name,
			    struct slt_source **out, struct slt_error *err)
{
	*out = NULL;
	if (!name)
		name = "<memory>";
	if (size > UINT32_MAX)
		return slt_error_set(err, SLT_ECORRUPT, name, -1, HINT_CORRUPT,
				     "BTF larger than 4 GiB");
	if (!btf_magic(data, size))
		return slt_error_set(err, SLT_ENOTELF, name, 0, NULL,
				     "not raw BTF (bad magic)");
	libbpf_print_fn_t old = libbpf_set_print(silent_print);
	struct btf *btf = btf__new(data, (uint32_t)size);
	int e = btf ? 0 : (errno ? -errno : -EINVAL);
	libbpf_set_print(old);
	if (e)
		return parse_error(e, name, false, err);
	return make_source(btf, NULL, name, NULL, true, out, err);
}
