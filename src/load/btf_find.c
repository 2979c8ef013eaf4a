/* SPDX-License-Identifier: MIT */
/*
 * find/list/suggest of the BTF source, over a name index (struct, union,
 * fwd and typedef names -> chains of type ids) built once on first use.
 */
#include "load/btf_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/strdist.h"

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
		return slt_btf_nomem(s, err);
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

int slt_btf_suggest(struct slt_source *src, const char *name, size_t max,
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
			return slt_btf_nomem(s, err);
		}
	}
	return (int)slt_suggest_take(&sg, out);
}

int slt_btf_find(struct slt_source *src, const char *name,
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
		return slt_btf_nomem(s, err);
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
		return slt_btf_nomem(s, err);
	}
	for (size_t i = 0; i < n; i++) {
		rc = slt_btf_xlate(s, ids[i], true, 0, &res[i], err);
		if (rc)
			break;
		if (from_td[i] && (!res[i]->name || !res[i]->name[0])) {
			/* Anonymous struct named by its typedef: a copy, so
			 * the shared node keeps spelling "struct {...}". */
			struct slt_type *c = slt_arena_alloc(s->arena, sizeof(*c));
			if (!c) {
				rc = slt_btf_nomem(s, err);
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

int slt_btf_list(struct slt_source *src, slt_source_list_cb cb, void *ctx,
		    struct slt_error *err)
{
	struct btf_src *s = (struct btf_src *)src;
	for (uint32_t id = 1; id < s->n_types; id++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		if (!t || !btf_is_composite(t) || t->name_off == 0)
			continue;
		struct slt_type *n;
		int rc = slt_btf_xlate(s, id, false, 0, &n, err);
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
