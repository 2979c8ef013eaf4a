/* SPDX-License-Identifier: MIT */
/*
 * structlint — reading baselines (structlint.baseline/v1) and suppression
 * files (structlint.suppressions/v1).  Both are untrusted input: every
 * field is type- and range-checked and an error names the file, the JSON
 * line, column and byte offset and the field's path.  Positions come from
 * the JSON profile reader's locator (samples/profile_int.h).  Unknown keys
 * are ignored (additive changes keep the schema version).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/strdist.h"
#include "gate/baseline_int.h"
#include "samples/profile_int.h"

#define MAX_INPUT ((size_t)256 << 20)  /* bytes of one document */
#define MAX_STRUCTS 65536
#define MAX_MEMBERS (1u << 20)         /* per struct */
#define MAX_SIZE ((uint64_t)1 << 40)   /* bytes of one struct */
#define MAX_ALIGN 65536u               /* bytes */

static const char hint_rerecord[] =
	"re-record it with `structlint baseline FILE STRUCT... > BASELINE.json`";
static const char hint_suppress[] =
	"each suppression is {\"rule\", \"struct\", \"member\"?, \"reason\"} with non-empty "
	"strings (globs); see structlint(1), structlint.suppressions/v1";

struct rd {
	struct pctx pc;
	struct slt_arena *a;
	const char *hint;  /* what to do about a bad field: hint_rerecord or
			      hint_suppress */
	char where[128];   /* "structs[1].members[3]." for messages */
};

/* The value obj[key], with key pushed on the path (for positions). */
static int field(struct rd *r, const json_t *obj, const char *key,
		 bool required, json_t **v)
{
	slt_pj_push_key(&r->pc, key);
	*v = json_object_get(obj, key);
	if (!*v && required)
		return FAIL(&r->pc, r->hint, "%s%s is missing", r->where, key);
	return 0;
}

static int get_u64(struct rd *r, const json_t *obj, const char *key,
		   bool required, uint64_t max, uint64_t *out)
{
	json_t *v;
	char name[192];
	int rc = field(r, obj, key, required, &v);
	snprintf(name, sizeof(name), "%s%s", r->where, key);
	if (!rc && v) {
		rc = slt_pj_u64(&r->pc, name, v, out);
		if (!rc && *out > max)
			rc = FAIL(&r->pc, r->hint, "%s = %" PRIu64 " is over %" PRIu64,
				  name, *out, max);
	}
	if (!rc)
		slt_pj_pop(&r->pc);
	return rc;
}

static int get_u32(struct rd *r, const json_t *obj, const char *key,
		   bool required, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	int rc = get_u64(r, obj, key, required, max, &v);
	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

/* An alignment in bytes: a power of two up to MAX_ALIGN (0 when absent,
 * or for a member's forced alignment, "natural"). */
static int get_align(struct rd *r, const json_t *obj, const char *key, uint32_t *out)
{
	uint64_t v = 0;
	int rc = get_u64(r, obj, key, false, MAX_ALIGN, &v);
	if (!rc && (v & (v - 1))) {
		slt_pj_push_key(&r->pc, key);
		rc = FAIL(&r->pc, r->hint, "%s%s = %" PRIu64 " is not a power of two", r->where,
			  key, v);
	}
	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

/* A string copied into the arena; absent optional strings give dflt. */
static int get_str(struct rd *r, const json_t *obj, const char *key,
		   bool required, bool nonempty, const char *dflt,
		   const char **out)
{
	json_t *v;
	char name[192];
	const char *s = dflt;
	int rc = field(r, obj, key, required, &v);
	snprintf(name, sizeof(name), "%s%s", r->where, key);
	if (!rc && v)
		rc = slt_pj_str(&r->pc, name, v, nonempty, &s);
	if (!rc && v && strlen(s) != json_string_length(v))
		rc = FAIL(&r->pc, r->hint, "%s holds a NUL byte", name);
	if (rc)
		return rc;
	slt_pj_pop(&r->pc);
	*out = s ? slt_arena_strdup(r->a, s) : NULL;
	if (s && !*out)
		return slt_error_set(r->pc.err, SLT_ENOMEM, r->pc.name, -1, NULL, "out of memory");
	return 0;
}

/* obj[key] as an array of at most max entries (absent optional: NULL). */
static int get_array(struct rd *r, const json_t *obj, const char *key,
		     bool required, size_t max, json_t **arr)
{
	int rc = field(r, obj, key, required, arr);
	if (!rc && *arr && !json_is_array(*arr))
		rc = FAIL(&r->pc, r->hint, "%s%s must be an array, not %s",
			  r->where, key, slt_pj_kind(*arr));
	if (!rc && *arr && json_array_size(*arr) > max)
		rc = FAIL(&r->pc, r->hint, "%s%s has %zu entries (at most %zu)",
			  r->where, key, json_array_size(*arr), max);
	return rc;   /* the key stays pushed: the caller pushes indices */
}

static int want_object(struct rd *r, const json_t *v)
{
	if (json_is_object(v))
		return 0;
	return FAIL(&r->pc, r->hint, "%s must be an object, not %s",
		    r->where[0] ? r->where : "the document", slt_pj_kind(v));
}

static int set_where(struct rd *r, const char *fmt, size_t i, size_t k)
{
	snprintf(r->where, sizeof(r->where), fmt, i, k);
	return 0;
}

static int read_flags(struct rd *r, const json_t *m, uint32_t *flags)
{
	json_t *arr;
	int rc = get_array(r, m, "flags", true, 32, &arr);
	for (size_t i = 0; !rc && i < json_array_size(arr); i++) {
		json_t *v = json_array_get(arr, i);
		slt_pj_push_index(&r->pc, i);
		if (!json_is_string(v))
			return FAIL(&r->pc, r->hint, "%sflags[%zu] must be a string, not %s",
				    r->where, i, slt_pj_kind(v));
		size_t k = 0;
		while (slt_bl_flags[k].name && strcmp(slt_bl_flags[k].name, json_string_value(v)))
			k++;
		if (!slt_bl_flags[k].name)
			return FAIL(&r->pc, "flags: bitfield, anon, inline, union, composite, flex, zero-size, group-begin, group-end, packed, enum-signed",
				    "%sflags[%zu]: unknown flag \"%.40s\"", r->where, i,
				    json_string_value(v));
		*flags |= slt_bl_flags[k].bit;
		slt_pj_pop(&r->pc);
	}
	if (!rc)
		slt_pj_pop(&r->pc);
	return rc;
}

static int read_class(struct rd *r, const json_t *m, enum slt_class *cls)
{
	const char *s = NULL;
	int rc = get_str(r, m, "class", false, true, "none", &s);
	if (rc)
		return rc;
	if (!strcmp(s, "none")) {
		*cls = SLT_CLASS_NONE;
		return 0;
	}
	int c = slt_class_parse(s);
	if (c < 0) {
		json_t *v;
		field(r, m, "class", false, &v);
		return FAIL(&r->pc, "classes: none, read-mostly, hot-write, mixed, cold, true-shared",
			    "%sclass: unknown class \"%.40s\"", r->where, s);
	}
	*cls = (enum slt_class)c;
	return 0;
}

/* "writer": a writer label (letters, digits, '_', '-') of a written
 * class, optional. */
static int read_writer(struct rd *r, const json_t *m, struct slt_baseline_member *o)
{
	int rc = get_str(r, m, "writer", false, true, NULL, &o->writer);
	if (rc || !o->writer)
		return rc;
	size_t n = strlen(o->writer);
	bool ok = n <= 64 && strspn(o->writer, "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
	if (!ok || (o->cls != SLT_CLASS_HOT_WRITE && o->cls != SLT_CLASS_MIXED &&
		    o->cls != SLT_CLASS_TRUE_SHARED)) {
		json_t *v;
		field(r, m, "writer", false, &v);
		return FAIL(&r->pc, "a writer label is 1 to 64 letters, digits, '_' and '-', on a hot-write, mixed or true-shared member",
			    ok ? "%swriter: \"%.40s\" on a member of class %s" :
			    "%swriter: bad writer label \"%.40s\"%s", r->where, o->writer,
			    ok ? slt_class_name(o->cls) : "");
	}
	return 0;
}

static int read_member(struct rd *r, const json_t *m,
		       const struct slt_baseline_struct *s,
		       struct slt_baseline_member *o)
{
	int rc = want_object(r, m);
	if (!rc)
		rc = get_str(r, m, "path", true, false, NULL, &o->path);
	if (!rc)
		rc = get_str(r, m, "type", true, false, NULL, &o->type);
	if (!rc)
		rc = get_u64(r, m, "offset", true, s->size, &o->offset);
	if (!rc)
		rc = get_u64(r, m, "size", true, s->size - o->offset, &o->size);
	if (!rc)
		rc = get_align(r, m, "alignment", &o->alignment);
	if (!rc)
		rc = get_align(r, m, "natural_alignment", &o->natural_alignment);
	if (!rc)
		rc = get_u32(r, m, "depth", false, 64, &o->depth);
	if (!rc)
		rc = get_u32(r, m, "line", false, UINT32_MAX, &o->decl_line);
	if (!rc)
		rc = read_flags(r, m, &o->flags);
	if (!rc)
		rc = read_class(r, m, &o->cls);
	if (!rc)
		rc = read_writer(r, m, o);
	if (!rc && (o->flags & SLT_MEMBER_BITFIELD)) {
		uint64_t bits = o->size * 8;
		rc = get_u32(r, m, "bit_size", true, bits < 64 ? (uint32_t)bits : 64, &o->bit_size);
		if (!rc)
			rc = get_u32(r, m, "bit_offset", true,
				     (uint32_t)((bits < 64 ? bits : 64) - o->bit_size), &o->bit_offset);
	}
	return rc;
}

static int read_struct(struct rd *r, const json_t *js, size_t si,
		       struct slt_baseline *b)
{
	struct slt_baseline_struct *s = slt_bl_push_struct(b);
	if (!s)
		return slt_error_set(r->pc.err, SLT_ENOMEM, r->pc.name, -1, NULL, "out of memory");
	const char *kind = NULL;
	set_where(r, "structs[%zu].", si, 0);
	int rc = want_object(r, js);
	if (!rc)
		rc = get_str(r, js, "name", true, true, NULL, &s->name);
	if (!rc)
		rc = get_str(r, js, "kind", false, true, "struct", &kind);
	if (rc)
		return rc;
	if (strcmp(kind, "struct") && strcmp(kind, "union")) {
		json_t *v;
		field(r, js, "kind", false, &v);
		return FAIL(&r->pc, "kind: struct or union", "%skind: \"%.40s\"", r->where, kind);
	}
	s->kind = !strcmp(kind, "union") ? SLT_KIND_UNION : SLT_KIND_STRUCT;
	if (!rc)
		rc = get_u64(r, js, "size", true, MAX_SIZE, &s->size);
	if (!rc)
		rc = get_align(r, js, "alignment", &s->alignment);
	if (!rc)
		rc = get_str(r, js, "decl_file", false, false, "", &s->decl_file);
	if (!rc)
		rc = get_u32(r, js, "decl_line", false, UINT32_MAX, &s->decl_line);
	s->cachelines = slt_cachelines(s->size, b->cacheline_size);
	json_t *ms = NULL, *hs = NULL;
	if (!rc)
		rc = get_array(r, js, "members", true, MAX_MEMBERS, &ms);
	if (!rc) {
		s->n_members = json_array_size(ms);
		s->members = slt_arena_calloc(r->a, s->n_members + 1, sizeof(*s->members));
		if (!s->members)
			return slt_error_set(r->pc.err, SLT_ENOMEM, r->pc.name, -1, NULL, "out of memory");
	}
	for (size_t i = 0; !rc && i < s->n_members; i++) {
		slt_pj_push_index(&r->pc, i);
		set_where(r, "structs[%zu].members[%zu].", si, i);
		rc = read_member(r, json_array_get(ms, i), s, &s->members[i]);
		if (!rc)
			slt_pj_pop(&r->pc);
	}
	if (rc)
		return rc;
	slt_pj_pop(&r->pc);
	set_where(r, "structs[%zu].", si, 0);
	rc = get_array(r, js, "holes", false, MAX_MEMBERS, &hs);
	if (rc || !hs)
		return rc;
	s->holes = slt_arena_calloc(r->a, json_array_size(hs) + 1, sizeof(*s->holes));
	if (!s->holes)
		return slt_error_set(r->pc.err, SLT_ENOMEM, r->pc.name, -1, NULL, "out of memory");
	for (size_t i = 0; !rc && i < json_array_size(hs); i++) {
		json_t *h = json_array_get(hs, i);
		struct slt_baseline_hole *o = &s->holes[s->n_holes++];
		slt_pj_push_index(&r->pc, i);
		set_where(r, "structs[%zu].holes[%zu].", si, i);
		rc = want_object(r, h);
		if (!rc)
			rc = get_u64(r, h, "offset", true, s->size, &o->offset);
		if (!rc)
			rc = get_u64(r, h, "size", true, s->size - o->offset, &o->size);
		if (!rc)
			rc = get_str(r, h, "after", true, false, NULL, &o->after);
		if (!rc)
			slt_pj_pop(&r->pc);
	}
	if (!rc)
		slt_pj_pop(&r->pc);
	return rc;
}

/* A key of a suppression entry this format does not have (a typo such
 * as "reson" would otherwise read as "reason is missing"): an error at
 * the entry, with the closest key.  Returns 0 or the error code. */
static int unknown_keys(struct rd *r, const json_t *e)
{
	static const char *const keys[] = { "rule", "struct", "member", "reason" };
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)e, key, v) {
		bool known = false;
		for (size_t k = 0; k < 4 && !known; k++)
			known = !strcmp(key, keys[k]);
		if (known)
			continue;
		struct slt_suggest sg;
		char **names = NULL, hint[400];
		slt_suggest_init(&sg, key, 1);
		for (size_t k = 0; k < 4; k++)
			if (slt_suggest_add(&sg, keys[k])) {
				slt_suggest_release(&sg);
				return slt_error_set(r->pc.err, SLT_ENOMEM, r->pc.name, -1, NULL,
						     "out of memory");
			}
		size_t n = slt_suggest_take(&sg, &names);
		snprintf(hint, sizeof(hint), "%s%s%s%s", n ? "did you mean \"" : "",
			 n ? names[0] : "", n ? "\"? " : "", hint_suppress);
		for (size_t k = 0; k < n; k++)
			free(names[k]);
		free(names);
		return FAIL(&r->pc, hint, "%.*s has an unknown key \"%.40s\"",
			    (int)strlen(r->where) - 1, r->where, key);
	}
	return 0;
}

/* 1-based line of byte offset off of the text. */
static unsigned line_of(const struct pctx *pc, size_t off)
{
	unsigned line = 1;
	for (size_t i = 0; i < off && i < pc->size; i++)
		line += pc->text[i] == '\n';
	return line;
}

static int read_suppressions(struct rd *r, const json_t *root,
			     struct slt_suppressions *s, size_t *cap,
			     bool required)
{
	json_t *arr;
	const char *hint = r->hint;
	r->where[0] = '\0';
	r->hint = hint_suppress;
	int rc = get_array(r, root, "suppressions", required, MAX_STRUCTS, &arr);
	if (rc || !arr) {
		r->hint = hint;
		return rc;
	}
	for (size_t i = 0; !rc && i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);
		struct slt_suppression o = { 0 };
		char where[96];
		slt_pj_push_index(&r->pc, i);
		set_where(r, "suppressions[%zu].", i, 0);
		rc = want_object(r, e);
		if (!rc)
			rc = unknown_keys(r, e);
		if (!rc)
			rc = get_str(r, e, "rule", true, true, NULL, &o.rule);
		if (!rc)
			rc = get_str(r, e, "struct", true, true, NULL, &o.struct_name);
		if (!rc)
			rc = get_str(r, e, "member", false, true, NULL, &o.member);
		if (!rc)
			rc = get_str(r, e, "reason", true, true, NULL, &o.reason);
		snprintf(where, sizeof(where), "%s:%u", r->pc.name, line_of(&r->pc, slt_pj_locate(&r->pc)));
		o.where = where;
		if (!rc && slt_bl_push_suppression(s, cap, r->a, &o) < 0)
			rc = slt_error_set(r->pc.err, SLT_ENOMEM, r->pc.name, -1, NULL, "out of memory");
		if (!rc)
			slt_pj_pop(&r->pc);
	}
	if (!rc)
		slt_pj_pop(&r->pc);
	r->hint = hint;
	return rc;
}

/* Parse data into *root, check the schema; 0 or an error code. */
static int open_doc(struct rd *r, const void *data, size_t size,
		    const char *schema, const char *what, json_t **root)
{
	*root = NULL;
	if (size > MAX_INPUT)
		return slt_error_set(r->pc.err, SLT_ECORRUPT, r->pc.name, -1,
				     "at most 256 MiB", "%s is %zu bytes, over the limit",
				     what, size);
	const char *want = r->hint == hint_suppress ?
		"want a structlint.suppressions/v1 JSON document (structlint(1))" :
		"it must be the JSON that `structlint baseline` writes";
	size_t blank = 0;
	while (blank < size && strchr(" \t\r\n", ((const char *)data)[blank]))
		blank++;
	if (blank == size)
		return slt_error_set(r->pc.err, SLT_ECORRUPT, r->pc.name, -1, want,
				     "the file is empty: want %s", what);
	json_error_t je;
	json_t *doc = json_loadb(r->pc.text, size, JSON_REJECT_DUPLICATES, &je);
	if (!doc) {
		slt_error_set_line(r->pc.err, json_error_code(&je) == json_error_out_of_memory ?
				   SLT_ENOMEM : SLT_ECORRUPT, r->pc.name,
				   je.line > 0 ? (unsigned)je.line : 1, want,
				   "column %d: not valid JSON: %s", je.column > 0 ? je.column : 1,
				   je.text);
		if (r->pc.err && r->pc.err->offset < 0)
			r->pc.err->offset = je.position;
		return r->pc.err ? r->pc.err->code : SLT_ECORRUPT;
	}
	*root = doc;
	r->where[0] = '\0';
	int rc = want_object(r, doc);
	json_t *v;
	if (!rc)
		rc = field(r, doc, "schema", true, &v);
	if (!rc && !json_is_string(v))
		rc = FAIL(&r->pc, r->hint, "schema must be a string, not %s", slt_pj_kind(v));
	if (rc)
		return rc;
	const char *got = json_string_value(v);
	size_t fam = strchr(schema, '/') - schema + 1;
	if (!strcmp(got, schema)) {
		slt_pj_pop(&r->pc);
		return 0;
	}
	if (!strncmp(got, schema, fam))
	{
		char hint[200];
		snprintf(hint, sizeof(hint), r->hint == hint_suppress ?
			 "this structlint reads %s: write the file in that format, structlint(1)" :
			 "this structlint reads %s: re-record it with this structlint", schema);
		return slt_pj_fail_at(&r->pc, slt_pj_locate(&r->pc), SLT_EUNSUPPORTED, hint,
				      "schema \"%.60s\" is not supported", got);
	}
	return FAIL(&r->pc, r->hint, "not %s: schema is \"%.60s\", want \"%s\"",
		    what, got, schema);
}

/* Order of structs (pointers into one array) for finding repeats: name,
 * size, members, then array order. */
static int dup_cmp(const void *pa, const void *pb)
{
	const struct slt_baseline_struct *x = *(const struct slt_baseline_struct *const *)pa,
					 *y = *(const struct slt_baseline_struct *const *)pb;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	if (x->n_members != y->n_members)
		return x->n_members < y->n_members ? -1 : 1;
	for (size_t k = 0; k < x->n_members; k++) {
		const struct slt_baseline_member *a = &x->members[k], *m = &y->members[k];
		if ((c = strcmp(a->path, m->path)) || (c = strcmp(a->type, m->type)))
			return c;
		if (a->offset != m->offset)
			return a->offset < m->offset ? -1 : 1;
	}
	return x < y ? -1 : x > y;
}

static bool same_struct(const struct slt_baseline_struct *x, const struct slt_baseline_struct *y)
{
	if (strcmp(x->name, y->name) || x->size != y->size || x->n_members != y->n_members)
		return false;
	for (size_t k = 0; k < x->n_members; k++)
		if (strcmp(x->members[k].path, y->members[k].path) ||
		    strcmp(x->members[k].type, y->members[k].type) ||
		    x->members[k].offset != y->members[k].offset)
			return false;
	return true;
}

/* The same definition recorded twice (name, size, member paths, types and
 * offsets): an error at the later one.  Different definitions of one name
 * (a name defined differently in two compile units) are kept. */
static int check_repeats(struct rd *r, const struct slt_baseline *b)
{
	if (b->n_structs < 2)
		return 0;
	const struct slt_baseline_struct **ix = malloc(b->n_structs * sizeof(*ix));
	if (!ix)
		return slt_error_set(r->pc.err, SLT_ENOMEM, r->pc.name, -1, NULL, "out of memory");
	for (size_t i = 0; i < b->n_structs; i++)
		ix[i] = &b->structs[i];
	qsort(ix, b->n_structs, sizeof(*ix), dup_cmp);
	int rc = 0;
	for (size_t i = 1; !rc && i < b->n_structs; i++) {
		const struct slt_baseline_struct *x = ix[i - 1], *y = ix[i];
		if (!same_struct(x, y))
			continue;
		size_t xi = (size_t)(x - b->structs), yi = (size_t)(y - b->structs);
		r->pc.depth = 0;    /* the error's place: structs[yi] */
		slt_pj_push_key(&r->pc, "structs");
		slt_pj_push_index(&r->pc, yi);
		rc = FAIL(&r->pc, "record each struct once (structlint baseline FILE STRUCT... names "
			  "each once)", "structs[%zu] repeats structs[%zu]: %s %s, %" PRIu64
			  " bytes, is recorded twice", yi, xi,
			  y->kind == SLT_KIND_UNION ? "union" : "struct", y->name, y->size);
	}
	free(ix);
	return rc;
}

static int read_baseline(struct rd *r, const void *data, size_t size,
			 struct slt_baseline *b)
{
	json_t *root;
	int rc = open_doc(r, data, size, SLT_SCHEMA_BASELINE, "a baseline", &root);
	uint64_t cl = 0;
	json_t *ss = NULL;
	if (!rc)
		rc = get_u64(r, root, "cacheline_size", true, 4096, &cl);
	if (!rc && !slt_bl_cacheline_ok(cl)) {
		json_t *v;
		field(r, root, "cacheline_size", true, &v);
		rc = FAIL(&r->pc, "a power of two from 8 to 4096",
			  "cacheline_size %" PRIu64 " is not valid", cl);
	}
	b->cacheline_size = (unsigned)cl;
	if (!rc)
		rc = get_str(r, root, "input", false, false, "", &b->input);
	if (!rc)
		rc = get_str(r, root, "classes_source", false, false, "", &b->classes_source);
	if (!rc) {
		json_t *v;
		rc = field(r, root, "classes_measured", false, &v);
		if (!rc && v && !json_is_boolean(v))
			rc = FAIL(&r->pc, r->hint, "classes_measured is not true or false");
		if (!rc)
			slt_pj_pop(&r->pc);
		b->classes_measured = v && json_is_true(v);
	}
	if (!rc)
		rc = get_array(r, root, "structs", true, MAX_STRUCTS, &ss);
	for (size_t i = 0; !rc && i < json_array_size(ss); i++) {
		slt_pj_push_index(&r->pc, i);
		rc = read_struct(r, json_array_get(ss, i), i, b);
		if (!rc)
			slt_pj_pop(&r->pc);
	}
	if (!rc)
		rc = check_repeats(r, b);
	if (!rc) {
		slt_pj_pop(&r->pc);
		rc = read_suppressions(r, root, &b->suppressions,
				       &((struct bl_priv *)b->priv_)->cap_sup, false);
	}
	json_decref(root);
	return rc;
}

int slt_baseline_read_mem(const void *data, size_t size, const char *name,
			  struct slt_baseline **out, struct slt_error *err)
{
	*out = NULL;
	struct slt_baseline *b = slt_bl_alloc();
	if (!b)
		return slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
	struct slt_arena *a = ((struct bl_priv *)b->priv_)->arena;
	struct rd r = { .pc = { .text = size ? data : "", .size = size,
				.name = name ? name : "<memory>", .err = err },
			.a = a, .hint = hint_rerecord };
	int rc = read_baseline(&r, data, size, b);
	if (!rc && !(b->path = slt_arena_strdup(a, r.pc.name)))
		rc = slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
	if (rc) {
		slt_baseline_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

int slt_suppressions_read_mem(const void *data, size_t size, const char *name,
			      struct slt_suppressions **out,
			      struct slt_error *err)
{
	*out = NULL;
	struct slt_suppressions *s = calloc(1, sizeof(*s));
	struct slt_arena *a = s ? slt_arena_new() : NULL;
	if (!a) {
		free(s);
		return slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
	}
	s->priv_ = a;
	struct rd r = { .pc = { .text = size ? data : "", .size = size,
				.name = name ? name : "<memory>", .err = err },
			.a = a, .hint = hint_suppress };
	json_t *root;
	size_t cap = 0;
	int rc = open_doc(&r, data, size, SLT_SCHEMA_SUPPRESSIONS, "a suppressions file", &root);
	if (!rc)
		rc = read_suppressions(&r, root, s, &cap, true);
	json_decref(root);
	if (rc) {
		slt_suppressions_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* The whole file in a malloc'ed buffer. */
static int slurp(const char *path, char **buf, size_t *len,
		 struct slt_error *err)
{
	FILE *f = fopen(path, "rb");
	*buf = NULL;
	*len = 0;
	if (!f)
		return slt_error_set(err, SLT_EIO, path, -1, "check the path and permissions",
				     "cannot open: %s", strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return slt_error_set(err, SLT_EIO, path, -1, "give the JSON file's path",
				     "is a directory, not a file");
	}
	/* a regular file's size is known: refuse before reading it all */
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > MAX_INPUT) {
		fclose(f);
		return slt_error_set(err, SLT_ECORRUPT, path, -1, "at most 256 MiB",
				     "input over the size limit (%" PRIu64 " bytes)",
				     (uint64_t)st.st_size);
	}
	size_t cap = 0;
	int rc = 0;
	for (;;) {
		if (*len == cap) {
			size_t nc = cap ? cap * 2 : 65536;
			char *nb = nc <= MAX_INPUT * 2 ? realloc(*buf, nc) : NULL;
			if (!nb) {
				rc = cap >= MAX_INPUT ?
					slt_error_set(err, SLT_ECORRUPT, path, -1, "at most 256 MiB",
						      "input over the size limit") :
					slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
				break;
			}
			*buf = nb;
			cap = nc;
		}
		size_t got = fread(*buf + *len, 1, cap - *len, f);
		*len += got;
		if (got == 0) {
			if (ferror(f))
				rc = slt_error_set(err, SLT_EIO, path, (int64_t)*len, NULL,
						   "read error: %s", strerror(errno));
			break;
		}
	}
	fclose(f);
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

int slt_baseline_read(const char *path, struct slt_baseline **out,
		      struct slt_error *err)
{
	char *buf;
	size_t len;
	*out = NULL;
	int rc = slurp(path, &buf, &len, err);
	if (!rc)
		rc = slt_baseline_read_mem(buf, len, path, out, err);
	free(buf);
	return rc;
}

int slt_suppressions_read(const char *path, struct slt_suppressions **out,
			  struct slt_error *err)
{
	char *buf;
	size_t len;
	*out = NULL;
	int rc = slurp(path, &buf, &len, err);
	if (!rc)
		rc = slt_suppressions_read_mem(buf, len, path, out, err);
	free(buf);
	return rc;
}
