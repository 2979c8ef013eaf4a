/* SPDX-License-Identifier: MIT */
/*
 * structlint — baselines: recording layouts with their member classes and
 * writing them as JSON ("structlint.baseline/v1", see structlint(1),
 * BASELINE).  The reader is baseline_read.c, the comparison
 * baseline_cmp.c, suppressions suppress.c.
 */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "gate/baseline_int.h"
#include "join/join_int.h"
#include "report/json_out.h"

const struct slt_bl_flag slt_bl_flags[] = {
	{ SLT_MEMBER_BITFIELD, "bitfield" },
	{ SLT_MEMBER_ANON, "anon" },
	{ SLT_MEMBER_INLINE, "inline" },
	{ SLT_MEMBER_UNION, "union" },
	{ SLT_MEMBER_COMPOSITE, "composite" },
	{ SLT_MEMBER_FLEX, "flex" },
	{ SLT_MEMBER_ZERO_SIZE, "zero-size" },
	{ SLT_MEMBER_GROUP_BEGIN, "group-begin" },
	{ SLT_MEMBER_GROUP_END, "group-end" },
	{ SLT_MEMBER_PACKED, "packed" },
	{ SLT_MEMBER_ENUM_SIGNED, "enum-signed" },
	{ 0, NULL },
};

struct slt_baseline *slt_bl_alloc(void)
{
	struct slt_baseline *b = calloc(1, sizeof(*b));
	struct bl_priv *p = calloc(1, sizeof(*p));
	if (b && p)
		p->arena = slt_arena_new();
	if (!b || !p || !p->arena) {
		free(b);
		free(p);
		return NULL;
	}
	b->priv_ = p;
	b->input = b->classes_source = b->path = "";
	return b;
}

bool slt_bl_cacheline_ok(uint64_t v)
{
	return v >= 8 && v <= 4096 && !(v & (v - 1));
}

int slt_baseline_new(unsigned cacheline_size, const char *input,
		     const char *classes_source, struct slt_baseline **out,
		     struct slt_error *err)
{
	*out = NULL;
	if (!slt_bl_cacheline_ok(cacheline_size))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "use a power of two from 8 to 4096",
				     "cacheline size %u is not valid", cacheline_size);
	struct slt_baseline *b = slt_bl_alloc();
	if (!b)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	struct slt_arena *a = ((struct bl_priv *)b->priv_)->arena;
	b->cacheline_size = cacheline_size;
	b->input = slt_arena_strdup(a, input ? input : "");
	b->classes_source = slt_arena_strdup(a, classes_source ? classes_source : "");
	if (!b->input || !b->classes_source) {
		slt_baseline_free(b);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	*out = b;
	return 0;
}

struct slt_baseline_struct *slt_bl_push_struct(struct slt_baseline *b)
{
	struct bl_priv *p = b->priv_;
	if (b->n_structs == p->cap_structs) {
		size_t cap = p->cap_structs ? p->cap_structs * 2 : 4;
		struct slt_baseline_struct *ns =
			realloc(b->structs, cap * sizeof(*ns));
		if (!ns)
			return NULL;
		b->structs = ns;
		p->cap_structs = cap;
	}
	struct slt_baseline_struct *s = &b->structs[b->n_structs++];
	memset(s, 0, sizeof(*s));
	return s;
}

int slt_baseline_add_struct(struct slt_baseline *b, const struct slt_struct *s,
			    const enum slt_class *classes, struct slt_error *err)
{
	return slt_baseline_add_struct_writers(b, s, classes, NULL, err);
}

static bool written_class(enum slt_class c)
{
	return c == SLT_CLASS_HOT_WRITE || c == SLT_CLASS_MIXED || c == SLT_CLASS_TRUE_SHARED;
}

int slt_baseline_add_struct_writers(struct slt_baseline *b, const struct slt_struct *s,
				    const enum slt_class *classes,
				    const char *const *writers, struct slt_error *err)
{
	struct slt_arena *a = ((struct bl_priv *)b->priv_)->arena;
	struct slt_baseline_struct *d = slt_bl_push_struct(b);
	if (!d)
		goto oom;
	d->name = slt_arena_strdup(a, s->name);
	d->kind = s->kind;
	d->size = s->size;
	d->alignment = s->alignment;
	d->decl_file = slt_arena_strdup(a, s->decl_file ? s->decl_file : "");
	d->decl_line = s->decl_line;
	d->cachelines = slt_cachelines(s->size, b->cacheline_size);
	d->members = slt_arena_calloc(a, s->n_members + 1, sizeof(*d->members));
	d->holes = slt_arena_calloc(a, s->n_holes + 1, sizeof(*d->holes));
	if (!d->name || !d->decl_file || !d->members || !d->holes)
		goto oom_pop;
	d->n_members = s->n_members;
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		struct slt_baseline_member *o = &d->members[i];
		char path[512];
		o->path = slt_arena_strdup(a, slt_member_path(s, i, path, sizeof(path)));
		o->type = slt_arena_strdup(a, m->type ? m->type : "");
		if (!o->path || !o->type)
			goto oom_pop;
		o->offset = m->offset;
		o->size = m->size;
		o->bit_offset = m->bit_offset;
		o->bit_size = m->bit_size;
		o->alignment = m->alignment;
		o->natural_alignment = m->natural_alignment;
		o->flags = m->flags & SLT_BL_FLAGS_KNOWN;
		o->depth = m->depth;
		o->cls = classes ? classes[i] : SLT_CLASS_NONE;
		if (writers && writers[i] && written_class(o->cls) &&
		    !(o->writer = slt_arena_strdup(a, writers[i])))
			goto oom_pop;
	}
	for (size_t i = 0; i < s->n_holes; i++) {
		const struct slt_hole *h = &s->holes[i];
		if (h->flags & SLT_HOLE_BITS)
			continue;
		struct slt_baseline_hole *o = &d->holes[d->n_holes++];
		o->offset = h->offset;
		o->size = h->size;
		o->after = d->members[h->after < s->n_members ? h->after : 0].path;
	}
	return 0;
oom_pop:
	b->n_structs--;
oom:
	return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
}

/* ---- writing --------------------------------------------------------- */

static json_t *u64(uint64_t v)
{
	/* jansson integers are signed 64-bit; layouts never come near 2^63 */
	return json_integer((json_int_t)v);
}

static json_t *member_json(const struct slt_baseline_member *m, unsigned cl,
			   bool *bad)
{
	json_t *o = json_object();
	if (!o) {
		*bad = true;
		return NULL;
	}
	uint64_t first, last;
	slt_bl_lines(m->offset, m->size, m->flags, cl, &first, &last);
	slt_json_set(o, "path", json_string(m->path), bad);
	slt_json_set(o, "type", json_string(m->type), bad);
	slt_json_set(o, "offset", u64(m->offset), bad);
	slt_json_set(o, "size", u64(m->size), bad);
	if (m->flags & SLT_MEMBER_BITFIELD) {
		slt_json_set(o, "bit_offset", u64(m->bit_offset), bad);
		slt_json_set(o, "bit_size", u64(m->bit_size), bad);
	}
	slt_json_set(o, "alignment", u64(m->alignment), bad);
	slt_json_set(o, "natural_alignment", u64(m->natural_alignment), bad);
	slt_json_set(o, "depth", u64(m->depth), bad);
	if (m->decl_line)
		slt_json_set(o, "line", u64(m->decl_line), bad);
	slt_json_set(o, "cacheline", u64(first), bad);
	if (last != first)
		slt_json_set(o, "last_cacheline", u64(last), bad);
	json_t *fl = json_array();
	for (size_t k = 0; fl && slt_bl_flags[k].name; k++)
		if (m->flags & slt_bl_flags[k].bit)
			slt_json_push(fl, json_string(slt_bl_flags[k].name), bad);
	slt_json_set(o, "flags", fl, bad);
	slt_json_set(o, "class", json_string(slt_class_name(m->cls)), bad);
	if (m->writer)
		slt_json_set(o, "writer", json_string(m->writer), bad);
	return o;
}

static json_t *struct_json(const struct slt_baseline_struct *s, unsigned cl,
			   bool *bad)
{
	json_t *o = json_object();
	json_t *ms = json_array(), *hs = json_array();
	if (!o || !ms || !hs) {
		json_decref(o);
		json_decref(ms);
		json_decref(hs);
		*bad = true;
		return NULL;
	}
	slt_json_set(o, "name", json_string(s->name), bad);
	slt_json_set(o, "kind", json_string(s->kind == SLT_KIND_UNION ? "union" : "struct"), bad);
	slt_json_set(o, "size", u64(s->size), bad);
	slt_json_set(o, "alignment", u64(s->alignment), bad);
	slt_json_set(o, "cachelines", u64(s->cachelines), bad);
	slt_json_set(o, "decl_file", json_string(s->decl_file), bad);
	slt_json_set(o, "decl_line", u64(s->decl_line), bad);
	for (size_t i = 0; i < s->n_members; i++)
		slt_json_push(ms, member_json(&s->members[i], cl, bad), bad);
	slt_json_set(o, "members", ms, bad);
	for (size_t i = 0; i < s->n_holes; i++) {
		json_t *h = json_object();
		slt_json_set(h, "offset", u64(s->holes[i].offset), bad);
		slt_json_set(h, "size", u64(s->holes[i].size), bad);
		slt_json_set(h, "after", json_string(s->holes[i].after), bad);
		slt_json_push(hs, h, bad);
	}
	slt_json_set(o, "holes", hs, bad);
	return o;
}

json_t *slt_bl_suppressions_json(const struct slt_suppressions *s, bool *bad)
{
	json_t *arr = json_array();
	if (!arr) {
		*bad = true;
		return NULL;
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct slt_suppression *e = &s->entries[i];
		json_t *o = json_object();
		slt_json_set(o, "rule", json_string(e->rule), bad);
		slt_json_set(o, "struct", json_string(e->struct_name), bad);
		if (e->member)
			slt_json_set(o, "member", json_string(e->member), bad);
		slt_json_set(o, "reason", json_string(e->reason), bad);
		slt_json_push(arr, o, bad);
	}
	return arr;
}

int slt_baseline_write_json(FILE *out, const struct slt_baseline *b,
			    bool pretty, struct slt_error *err)
{
	bool bad = false;
	json_t *doc = json_object(), *ss = json_array();
	if (!doc || !ss) {
		json_decref(doc);
		json_decref(ss);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	slt_json_set(doc, "schema", json_string(SLT_SCHEMA_BASELINE), &bad);
	slt_json_set(doc, "input", json_string(b->input), &bad);
	slt_json_set(doc, "classes_source", json_string(b->classes_source), &bad);
	if (b->classes_measured)
		slt_json_set(doc, "classes_measured", json_true(), &bad);
	slt_json_set(doc, "cacheline_size", u64(b->cacheline_size), &bad);
	for (size_t i = 0; i < b->n_structs; i++)
		slt_json_push(ss, struct_json(&b->structs[i], b->cacheline_size, &bad), &bad);
	slt_json_set(doc, "structs", ss, &bad);
	slt_json_set(doc, "suppressions", slt_bl_suppressions_json(&b->suppressions, &bad), &bad);
	return slt_json_write(out, doc, bad, pretty, "the baseline", err);
}

int slt_baseline_add_suppression(struct slt_baseline *b,
				 const struct slt_suppression *e,
				 struct slt_error *err)
{
	struct bl_priv *p = b->priv_;
	if (slt_bl_push_suppression(&b->suppressions, &p->cap_sup, p->arena, e) < 0)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	return 0;
}

void slt_baseline_free(struct slt_baseline *b)
{
	if (!b)
		return;
	struct bl_priv *p = b->priv_;
	if (p)
		slt_arena_free(p->arena);
	free(p);
	free(b->structs);
	free(b->suppressions.entries);
	free(b);
}

void slt_bl_lines(uint64_t offset, uint64_t size, uint32_t flags,
		  unsigned cl, uint64_t *first, uint64_t *last)
{
	struct slt_member m = { .offset = offset, .size = size, .flags = flags };
	slt_member_lines(&m, cl, first, last);
}
