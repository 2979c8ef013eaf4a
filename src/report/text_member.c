/* SPDX-License-Identifier: MIT */
/*
 * pahole-style text: one member's declaration (src/report/text_int.h): the
 * cacheline boundary before it, the type column, inline struct, union and
 * enum bodies, pointees printed inline, the offset comment.  Rules from
 * dwarves_fprintf.c 1.24 (class_member__fprintf(), type__fprintf()).
 */
#include <stdlib.h>
#include <string.h>

#include "report/text_int.h"
#include "structlint/advice.h"

/* class__fprintf_cacheline_boundary() */
static void boundary(struct tctx *t, uint64_t offset, int indent)
{
	uint32_t line = (uint32_t)(offset / t->cl);
	uint32_t pos = (uint32_t)(offset % t->cl);

	if (line <= t->cacheline)
		return;
	col(t, C_COMMENT);
	if (pos == 0)
		out(t, "/* --- cacheline %u boundary (%llu bytes) --- */", line,
		    (unsigned long long)(offset - pos));
	else
		out(t, "/* --- cacheline %u boundary (%llu bytes) was %u byte%s ago --- */",
		    line, (unsigned long long)(offset - pos), pos, plural(pos));
	col(t, C_OFF);
	out(t, "\n");
	tabs(t, indent);
	t->cacheline = line;
}


/* The head's part that pahole pads, and what follows it. */
static void split_head(const char *head, size_t *pad_len, const char **rest)
{
	size_t n = strlen(head);

	if (n >= 3 && !strcmp(head + n - 3, " (*")) {
		*pad_len = n - 3;
		*rest = head + n - 2;
	} else if (n >= 2 && !strcmp(head + n - 2, " (")) {
		*pad_len = n - 2;
		*rest = head + n - 1;
	} else {
		*pad_len = n;
		*rest = "";
	}
}

/* Leading "const " of head that qualify the member's own type (decl()'s
 * prefix in layout/ctype.c), not a pointed-to type: a pointer to const
 * is spelled "const char  *" by __tag__name() (two blanks before the
 * star), a const pointer "const char *". */
static size_t own_const_len(const char *head)
{
	bool ptr = *head && head[strlen(head) - 1] == '*';
	size_t n = 0;

	while (!strncmp(head + n, "const ", 6)) {
		const char *r = head + n + 6;
		if (ptr && strncmp(r, "const ", 6) && strstr(r, "  *"))
			break;
		n += 6;
	}
	return n;
}

/* Length of "struct ", "union " or "enum " when head (past its own
 * qualifiers) names a struct, union or enum itself, not a pointer to
 * one: type__fprintf() prints those "struct %-*s" with the keyword taken
 * off the width. */
static size_t kw_len(const char *head)
{
	static const char *const kw[] = { "struct ", "union ", "enum " };

	if (strchr(head, '*') || strchr(head, '('))
		return 0;
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strncmp(head, kw[i], strlen(kw[i])) && head[strlen(kw[i])])
			return strlen(kw[i]);
	return 0;
}

/*
 * "%-*s " of the padded head part as type__fprintf() 1.24 prints it;
 * returns the characters written.  Each own "const " is printed and takes
 * its 6 characters off the width; a struct, union or enum keyword then
 * takes its own length off, and only the tag name is padded.  The widths
 * only differ from padding the whole head where they go negative (deep
 * nesting), which printf takes as left-justified: "struct %-*s" with
 * width -13 pads "llist_node" to 13.
 */
int slt_tx_type_col(struct tctx *t, const char *head, int ts, const char **rest)
{
	size_t pl, ql = own_const_len(head), kl;
	int w, printed;

	split_head(head, &pl, rest);
	if (ql > pl)
		ql = 0;
	kl = kw_len(head + ql) < pl - ql ? kw_len(head + ql) : 0;
	w = width(ts - (int)ql - (int)kl);
	col(t, C_TYPE);
	fwrite(head, 1, pl, t->f);
	t->nout += pl;
	col(t, C_OFF);
	printed = (int)pl;
	if ((int)(pl - ql - kl) < w) {
		spaces(t, w - (int)(pl - ql - kl));
		printed += w - (int)(pl - ql - kl);
	}
	spaces(t, 1);
	return printed + 1;
}

/* The offset pahole prints for m: from the outermost struct's start,
 * inside a pointee (conf_fprintf.rel_offset) from the enclosing level's. */
/* The inline type's forced alignment would repeat the member's own (the
 * same value follows the name): printed once under t->align_once. */
static bool type_align_repeats(const struct tctx *t, const struct slt_member *m)
{
	return t->align_once && m->alignment == m->type_alignment && *m->name;
}

static uint64_t shown_offset(const struct tctx *t, const struct slt_member *m)
{
	if (t->rel_offset && m->parent >= 0)
		return m->offset - t->s->members[m->parent].offset;
	return m->offset;
}

static void offset_comment(struct tctx *t, const struct slt_member *m, int pad)
{
	uint64_t off = shown_offset(t, m);

	if (pad < 1)
		pad = 1;
	spaces(t, pad);
	col(t, C_COMMENT);
	if (m->flags & SLT_MEMBER_BITFIELD)
		out(t, "/* %5llu:%2u %2llu */", (unsigned long long)off,
		    m->bit_offset, (unsigned long long)m->size);
	else
		out(t, "/* %5llu %5llu */", (unsigned long long)off,
		    (unsigned long long)m->size);
	col(t, C_OFF);
}

/* Length of the qualifiers ("const ", "volatile ") before the struct or
 * union keyword of an inline member's head. */
static size_t qual_len(const char *head)
{
	size_t n = 0;

	for (;;) {
		if (!strncmp(head + n, "const ", 6))
			n += 6;
		else if (!strncmp(head + n, "volatile ", 9))
			n += 9;
		else
			return n;
	}
}

/*
 * A qualified inline struct/union (`const struct {...} ;`), the way
 * type__fprintf() 1.24 prints it: the qualifiers narrow the type column,
 * the name is not printed (the enclosing inline member's name is, where it
 * has one), a top-level struct's body gets its own closing figures, and the
 * offset comment is padded by all that was printed.
 */
static void qualified_inline(struct tctx *t, size_t i, int indent, int ts,
			     const char *attr, uint64_t start)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *m = &s->members[i];
	bool is_union = m->flags & SLT_MEMBER_UNION;
	size_t ql = qual_len(m->decl_head);
	const char *kw = m->decl_head + ql, *sp = strchr(kw, ' ');

	col(t, C_KW);
	out(t, "%.*s%s", (int)ql, m->decl_head, is_union ? "union" : "struct");
	col(t, C_OFF);
	if (sp && sp[1] != '{')
		out(t, "%s", sp);
	out(t, " {\n");
	slt_tx_level(t, i + 1, i + subtree(s, i), indent + 1, ts - (int)ql - 8, is_union);
	if (!is_union && m->depth == 0) {
		struct slt_struct f;

		slt_tx_level_figures(t, i, &f);
		slt_tx_summary(t, &f, indent + 1, m->offset);
	}
	tabs(t, indent);
	out(t, "}");
	if (m->flags & SLT_MEMBER_PACKED)
		out(t, " __attribute__((__packed__))");
	if (m->parent >= 0 && *s->members[m->parent].name)
		out(t, " %s", s->members[m->parent].name);
	if (m->type_alignment && !is_union && !(m->flags & SLT_MEMBER_PACKED) &&
	    !type_align_repeats(t, m))
		out(t, " __attribute__((__aligned__(%u)))", m->type_alignment);
	out(t, "%s;", attr);
	offset_comment(t, m, ts + t->name_spacing - (int)(t->nout - start));
}

/* pahole -E's "/" "* typedef A -> B *" "/ " before a member's resolved type;
 * returns the characters written. */
int slt_tx_td_comment(struct tctx *t, const struct slt_member *m)
{
	col(t, C_COMMENT);
	out(t, "/* typedef %s */", m->typedef_name);
	col(t, C_OFF);
	out(t, " ");
	return (int)strlen(m->typedef_name) + 15;
}

/* A member of anonymous enum type, as type__fprintf() and
 * enumeration__fprintf() print it: the enumerators, names padded to the
 * longest, "__packed__" when the enum is not 4 bytes, then the member. */
static void enum_member(struct tctx *t, const struct slt_member *m,
			int indent, int ts, const char *attr, uint64_t start)
{
	size_t w = 0;
	int slen;

	col(t, C_KW);
	out(t, "enum");
	col(t, C_OFF);
	out(t, " {\n");
	for (uint32_t k = 0; k < m->n_enumerators; k++)
		if (strlen(m->enumerators[k].name) > w)
			w = strlen(m->enumerators[k].name);
	for (uint32_t k = 0; k < m->n_enumerators; k++) {
		const struct slt_enumerator *e = &m->enumerators[k];

		tabs(t, indent + 1);
		out(t, "%-*s = ", (int)w, e->name);
		if (m->flags & SLT_MEMBER_ENUM_SIGNED)
			out(t, "%lld,\n", (long long)e->value);
		else
			out(t, "%llu,\n", (unsigned long long)e->value);
	}
	tabs(t, indent);
	out(t, "}");
	if (m->enum_size != 4)
		out(t, " __attribute__((__packed__))");
	if (*m->name) {
		out(t, " ");
		col(t, C_NAME);
		out(t, "%s", m->name);
		col(t, C_OFF);
	}
	out(t, "%s", m->decl_tail);
	if (m->flags & SLT_MEMBER_BITFIELD)
		out(t, ":%u", m->bit_size);
	out(t, "%s;", attr);
	slen = (int)strlen(attr) + (*m->name ? (int)strlen(m->name) : -1);
	/* through a typedef the member's type has a name: pahole pads by
	 * all it printed, the body included (at least one blank) */
	offset_comment(t, m, m->typedef_name ?
			     ts + t->name_spacing - (int)(t->nout - start) :
			     width(ts + t->name_spacing - slen - 3));
}



/*
 * A pointer to an anonymous struct or union, as type__fprintf() 1.24
 * prints it: the pointee's body inline, its type column 16 narrower (8
 * for the pointer, 8 for the struct), offsets from the enclosing level
 * (rel_offset), no closing figures, sharing the cacheline count of the
 * outer struct; then "} * name;" and the offset comment padded by all
 * that was printed (so one blank).
 */
static void pointee(struct tctx *t, const struct slt_member *m, int ts,
		    int indent, const char *attr, uint64_t start)
{
	const struct slt_struct *ps = m->pointee;
	bool is_union = ps->kind == SLT_KIND_UNION;
	struct tctx sub = { .f = t->f, .s = ps, .cl = t->cl, .color = t->color,
			    .name_spacing = t->name_spacing,
			    .cacheline = t->cacheline, .rel_offset = true };

	col(t, C_KW);
	out(t, "%s", is_union ? "union" : "struct");
	col(t, C_OFF);
	out(t, " {\n");
	if (slt_tx_holes(&sub)) {
		t->oom = true;
		return;
	}
	slt_tx_level(&sub, 0, ps->n_members, indent + 1, ts - 16, is_union);
	free(sub.hole);
	free(sub.bit_hole);
	t->oom |= sub.oom;
	t->nout += sub.nout;
	t->cacheline = sub.cacheline;
	tabs(t, indent);
	out(t, "} * ");
	col(t, C_NAME);
	out(t, "%s", m->name);
	col(t, C_OFF);
	out(t, "%s%s;", m->decl_tail, attr);
	offset_comment(t, m, ts + t->name_spacing - (int)(t->nout - start));
}

/* An inserted padding member in user space, as the C declaration writes
 * it (emit_c.c): no member; the next one gets _Alignas, or before a
 * bitfield a char array fills the bytes up to the line. */
static void user_pad(struct tctx *t, size_t i)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *m = &s->members[i];
	const struct slt_member *nx = NULL;

	for (size_t j = i + 1; j < s->n_members && !nx; j++)
		if (s->members[j].parent == m->parent)
			nx = &s->members[j];
		else if (s->members[j].depth < m->depth)
			break;
	col(t, C_COMMENT);
	if (nx && (nx->flags & SLT_MEMBER_BITFIELD))
		out(t, "/* %s: a char array up to the cache line at %llu */", m->name,
		    (unsigned long long)shown_offset(t, m));
	else
		out(t, "/* %s: _Alignas(" SLT_ADV_LINE_CONST ") on the next member */", m->name);
	col(t, C_OFF);
}

/* class_member__fprintf(): one member, its inline body included. */
void slt_tx_member(struct tctx *t, size_t i, int indent, int ts)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *m = &s->members[i];
	char attr[64] = "";
	int printed = 0;

	uint64_t start;

	boundary(t, shown_offset(t, m), indent);
	start = t->nout;
	if (t->user_pads && (m->flags & SLT_MEMBER_ZERO_SIZE) && !strcmp(m->type, SLT_ADV_PAD_TYPE)) {
		user_pad(t, i);
		return;
	}
	if (m->alignment)
		snprintf(attr, sizeof(attr), " __attribute__((__aligned__(%u)))",
			 m->alignment);
	if (m->typedef_name) /* pahole -E: what the typedef resolves to */
		printed += slt_tx_td_comment(t, m);
	if ((m->flags & SLT_MEMBER_INLINE) && qual_len(m->decl_head)) {
		qualified_inline(t, i, indent, ts, attr, start);
		return;
	}
	if (m->pointee) {
		pointee(t, m, ts, indent, attr, start);
		return;
	}
	if (m->flags & SLT_MEMBER_INLINE) {
		bool is_union = m->flags & SLT_MEMBER_UNION;
		bool named = !(m->flags & SLT_MEMBER_ANON) &&
			     strncmp(m->decl_head, "struct {", 8) &&
			     strncmp(m->decl_head, "union {", 7);
		bool array = *m->decl_tail == '[';
		int slen;

		col(t, C_KW);
		out(t, "%s", is_union ? "union" : "struct");
		col(t, C_OFF);
		if (named) {
			/* "struct foo" or "union foo": the head past the keyword */
			const char *sp = strchr(m->decl_head, ' ');
			col(t, C_TYPE);
			out(t, "%s", sp ? sp : "");
			col(t, C_OFF);
		}
		out(t, " {\n");
		slt_tx_level(t, i + 1, i + subtree(s, i), indent + 1, ts - 8, is_union);
		tabs(t, indent);
		out(t, "}");
		if (m->flags & SLT_MEMBER_PACKED)
			out(t, " __attribute__((__packed__))");
		/* pahole 1.24 ends an inline struct "} [packed]
		 * [aligned(type)] name", a union "} name": a union's own
		 * alignment is never printed.  The member's follows. */
		if (array) {
			out(t, " ");
			col(t, C_NAME);
			out(t, "%s", m->name);
			col(t, C_OFF);
		}
		if (m->type_alignment && !is_union &&
		    !(m->flags & SLT_MEMBER_PACKED) && !type_align_repeats(t, m))
			out(t, " __attribute__((__aligned__(%u)))", m->type_alignment);
		if (array) {
			out(t, "%s", m->decl_tail);
		} else if (*m->name) {
			/* pahole -E: "}name" for a named type, "} name"
			 * through a typedef or for an anonymous one */
			if (!named || m->typedef_name)
				out(t, " ");
			col(t, C_NAME);
			out(t, "%s", m->name);
			col(t, C_OFF);
		}
		out(t, "%s;", attr);
		if (named || array) {
			/* the member's type has a name, or it is an array:
			 * pahole pads by all it printed, the body included */
			offset_comment(t, m, ts + t->name_spacing -
					     (int)(t->nout - start));
			return;
		}
		slen = (int)strlen(attr) + (*m->name ? (int)strlen(m->name) : -1);
		if (m->flags & SLT_MEMBER_PACKED)
			slen += (int)sizeof("__attribute__((__packed__))");
		offset_comment(t, m, width(ts + t->name_spacing - slen - 3));
		return;
	}

	if (m->n_enumerators) {
		enum_member(t, m, indent, ts, attr, start);
		return;
	}
	{
		const char *rest;
		printed += slt_tx_type_col(t, m->decl_head, ts, &rest);
		out(t, "%s", rest);
		col(t, C_NAME);
		out(t, "%s", m->name);
		col(t, C_OFF);
		out(t, "%s", m->decl_tail);
		printed += (int)(strlen(rest) + strlen(m->name) +
				 strlen(m->decl_tail));
		if (m->flags & SLT_MEMBER_BITFIELD)
		{
			uint64_t n0 = t->nout;
			out(t, ":%u", m->bit_size);
			printed += (int)(t->nout - n0);
		}
		out(t, "%s;", attr);
		printed += (int)strlen(attr) + 1;
		offset_comment(t, m, ts + t->name_spacing - printed);
	}
}
