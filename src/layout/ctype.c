/* SPDX-License-Identifier: MIT */
/*
 * C type spelling the way pahole 1.24 prints it (dwarves_fprintf.c:
 * __tag__name(), tag__ptr_name(), type__fprintf(), ftype__fprintf(),
 * array_type__fprintf()), quirks included, because engineers diff our text
 * against pahole's:
 *   - qualifiers spelled by __tag__name() carry a trailing blank, so a
 *     pointer to const char is "const char  *" and a volatile int member is
 *     "volatile int ";
 *   - a const qualifier directly on a member's type is written in front
 *     ("char * const p" prints as "const char *");
 *   - a pointer to an array is spelled as a pointer to its element
 *     ("int (*p)[4]" prints as "int *");
 *   - an array of function pointers puts the bounds after the parameters
 *     ("void (*fparr)(void)[3]").
 * Facts were established by running pahole 1.24 on small gcc -g objects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/build.h"
#include "structlint/error.h"

#define SPELL_MAX_DEPTH 64

struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};

static void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->s, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_put(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

static const char *nm(const char *s)
{
	return s ? s : "";
}

static void tag_name(struct sbuf *b, const struct slt_type *t, int depth);

/* ftype__fprintf_parms(): "(int, char *)", "(void)", "(int, ...)". */
static void params(struct sbuf *b, const struct slt_type *f, int depth)
{
	sb_put(b, "(");
	for (uint32_t i = 0; i < f->n_params; i++) {
		const struct slt_type *p = f->params[i];

		if (i)
			sb_put(b, ", ");
		if (p && p->kind == SLT_T_PTR && p->ref &&
		    p->ref->kind == SLT_T_FUNC) {
			tag_name(b, p->ref->ref, depth + 1);
			sb_put(b, " (*)");
			params(b, p->ref, depth + 1);
		} else {
			tag_name(b, p, depth + 1);
		}
	}
	if (f->n_params == 0)
		sb_put(b, "void)");
	else if (f->flags & SLT_TF_VARIADIC)
		sb_put(b, ", ...)");
	else
		sb_put(b, ")");
}

static const char *kind_prefix(enum slt_tkind k)
{
	switch (k) {
	case SLT_T_STRUCT: return "struct ";
	case SLT_T_UNION: return "union ";
	case SLT_T_ENUM: return "enum ";
	default: return "";
	}
}

/* __tag__name(): the name of a type when it is not a declarator. */
static void tag_name(struct sbuf *b, const struct slt_type *t, int depth)
{
	if (depth > SPELL_MAX_DEPTH) {
		sb_put(b, "<type loop>");
		return;
	}
	if (!t) {
		sb_put(b, "void");
		return;
	}
	switch (t->kind) {
	case SLT_T_VOID:
		sb_put(b, "void");
		break;
	case SLT_T_INT:
	case SLT_T_FLOAT:
		sb_put(b, t->name && *t->name ? t->name : "nameless base type!");
		break;
	case SLT_T_TYPEDEF:
		sb_put(b, nm(t->name));
		break;
	case SLT_T_STRUCT:
	case SLT_T_UNION:
	case SLT_T_ENUM:
		sb_put(b, kind_prefix(t->kind));
		sb_put(b, nm(t->name));
		break;
	case SLT_T_FWD:
		sb_put(b, kind_prefix(t->fwd_kind));
		sb_put(b, nm(t->name));
		break;
	case SLT_T_PTR: {
		/* tag__ptr_name() */
		const struct slt_type *p = t->ref;
		const char *cp = "";

		if (!p) {
			sb_put(b, "void *");
			break;
		}
		if (p->kind == SLT_T_CONST && p->ref && p->ref->kind == SLT_T_PTR) {
			cp = "const ";
			p = p->ref;
		}
		tag_name(b, p, depth + 1);
		sb_put(b, " ");
		sb_put(b, cp);
		sb_put(b, "*");
		break;
	}
	case SLT_T_CONST:
	case SLT_T_VOLATILE:
	case SLT_T_RESTRICT:
	case SLT_T_ATOMIC:
		if (t->kind == SLT_T_CONST)
			sb_put(b, "const ");
		else if (t->kind == SLT_T_VOLATILE)
			sb_put(b, "volatile ");
		else if (t->kind == SLT_T_ATOMIC)
			sb_put(b, "_Atomic ");
		tag_name(b, t->ref, depth + 1);
		if (t->kind == SLT_T_RESTRICT)
			sb_put(b, " restrict");
		sb_put(b, " ");
		break;
	case SLT_T_ARRAY:
		tag_name(b, t->ref, depth + 1);
		break;
	case SLT_T_FUNC:
		/* ftype__fprintf(name = NULL, is_pointer = 0): "int ()(int)" */
		tag_name(b, t->ref, depth + 1);
		sb_put(b, " ()");
		params(b, t, depth + 1);
		break;
	}
}

/*
 * type__fprintf() for a declarator: head (padded part), rest, tail.  The
 * declaration is pad(head) + " " + rest + name + tail.
 */
static void decl(struct sbuf *head, struct sbuf *rest, struct sbuf *tail,
		 const struct slt_type *t, bool open_array, int depth)
{
	if (depth > SPELL_MAX_DEPTH) {
		sb_put(head, "<type loop>");
		return;
	}
	while (t && (t->kind == SLT_T_CONST || t->kind == SLT_T_ATOMIC)) {
		sb_put(head, t->kind == SLT_T_CONST ? "const " : "_Atomic ");
		if (!t->ref)
			break;
		t = t->ref;
	}
	if (!t) {
		sb_put(head, "void");
		return;
	}
	switch (t->kind) {
	case SLT_T_PTR:
		if (t->ref && t->ref->kind == SLT_T_FUNC) {
			tag_name(head, t->ref->ref, depth + 1);
			sb_put(rest, "(*");
			sb_put(tail, ")");
			params(tail, t->ref, depth + 1);
			return;
		}
		tag_name(head, t, depth + 1);
		return;
	case SLT_T_FUNC:
		tag_name(head, t->ref, depth + 1);
		sb_put(rest, "(");
		sb_put(tail, ")");
		params(tail, t, depth + 1);
		return;
	case SLT_T_STRUCT:
	case SLT_T_UNION:
		if (!t->name || !*t->name) {
			sb_put(head, t->kind == SLT_T_STRUCT ? "struct {...}"
							     : "union {...}");
			return;
		}
		tag_name(head, t, depth + 1);
		return;
	case SLT_T_ENUM:
		if (!t->name || !*t->name) {
			sb_put(head, "enum {...}");
			return;
		}
		tag_name(head, t, depth + 1);
		return;
	case SLT_T_ARRAY: {
		/* one DWARF array type holds every dimension; the graph nests
		 * them, so gather the bounds of directly nested arrays */
		const struct slt_type *e = t;
		struct sbuf dims = { 0 };
		bool first = true;
		char num[32];

		while (e && e->kind == SLT_T_ARRAY) {
			if (e->nelems == 0 && first && open_array)
				sb_put(&dims, "[]");
			else {
				snprintf(num, sizeof(num), "[%llu]",
					 (unsigned long long)e->nelems);
				sb_put(&dims, num);
			}
			first = false;
			e = e->ref;
		}
		/* "Zero sized arrays?": a const element of [0] loses its const */
		if (t->nelems == 0 && e && e->kind == SLT_T_CONST)
			e = e->ref;
		decl(head, rest, tail, e, false, depth + 1);
		if (dims.s)
			sb_put(tail, dims.s);
		if (dims.oom)
			tail->oom = 1;
		free(dims.s);
		return;
	}
	default:
		tag_name(head, t, depth + 1);
		return;
	}
}

int slt_ctype_spell_decl(struct slt_arena *a, const struct slt_type *t,
			 bool open_array, const char **head, const char **tail)
{
	struct sbuf h = { 0 }, r = { 0 }, tl = { 0 };
	int rc = 0;

	decl(&h, &r, &tl, t, open_array, 0);
	if (r.len) {
		sb_put(&h, " ");
		sb_put(&h, r.s);
	}
	if (h.oom || r.oom || tl.oom) {
		rc = SLT_ENOMEM;
	} else {
		*head = slt_arena_strdup(a, h.s ? h.s : "");
		*tail = slt_arena_strdup(a, tl.s ? tl.s : "");
		if (!*head || !*tail)
			rc = SLT_ENOMEM;
	}
	free(h.s);
	free(r.s);
	free(tl.s);
	return rc;
}

int slt_ctype_spell(struct slt_arena *a, const struct slt_type *t,
		    const char **head, const char **tail)
{
	return slt_ctype_spell_decl(a, t, false, head, tail);
}

int slt_ctype_name(struct slt_arena *a, const struct slt_type *t,
		   const char **name)
{
	struct sbuf b = { 0 };

	tag_name(&b, t, 0);
	if (b.oom) {
		free(b.s);
		return SLT_ENOMEM;
	}
	*name = slt_arena_strdup(a, b.s ? b.s : "");
	free(b.s);
	return *name ? 0 : SLT_ENOMEM;
}
