/* SPDX-License-Identifier: MIT */
/*
 * pahole-style text for layouts.  With opts->color and opts->decl off the
 * bytes equal `pahole -C NAME` 1.24 (and `pahole -E` for expanded layouts):
 * column widths (type 26, name 23, 21 in a union, 55 with -E, type column
 * 8 narrower per nesting level), cacheline boundary comments, hole, bit
 * hole and "last struct has" comments, "Bitfield combined" notes, the
 * reconstructed unnamed bitfields (`int :5;`), attributes and the closing
 * summary.  Rules from dwarves_fprintf.c (__class__fprintf(),
 * class_member__fprintf(), union__fprintf()), checked on real output.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "structlint/report.h"

#define C_KW "\033[1;34m"
#define C_TYPE "\033[32m"
#define C_NAME "\033[1m"
#define C_COMMENT "\033[36m"
#define C_OFF "\033[0m"

struct tctx {
	FILE *f;
	const struct slt_struct *s;
	unsigned cl;
	bool color;
	int name_spacing;
	uint64_t nout;      /* characters written, colour escapes excluded */
	uint32_t cacheline; /* pahole's *cachelinep */
	const struct slt_hole **hole, **bit_hole; /* per member, or NULL */
	const struct slt_hole *pre_hole_top, *pre_bit_hole_top;
	bool rel_offset;    /* a pointee: offsets from the enclosing level */
	bool oom;
};

static void out(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(struct tctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vfprintf(t->f, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->nout += (uint64_t)n;
}

static void col(struct tctx *t, const char *c)
{
	if (t->color)
		fputs(c, t->f);
}

static void tabs(struct tctx *t, int n)
{
	for (int i = 0; i < n && i < 16; i++, t->nout++)
		fputc('\t', t->f);
}

static void spaces(struct tctx *t, int n)
{
	for (int i = 0; i < n; i++, t->nout++)
		fputc(' ', t->f);
}

/* A comment line, indented, without the newline. */
static void comment(struct tctx *t, int indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void comment(struct tctx *t, int indent, const char *fmt, ...)
{
	va_list ap;

	tabs(t, indent);
	col(t, C_COMMENT);
	va_start(ap, fmt);
	int n = vfprintf(t->f, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->nout += (uint64_t)n;
	col(t, C_OFF);
}

static const char *plural(uint64_t n)
{
	return n != 1 ? "s" : "";
}

/* Number of entries in the subtree rooted at member i. */
static size_t subtree(const struct slt_struct *s, size_t i)
{
	size_t j = i + 1;

	while (j < s->n_members && s->members[j].depth > s->members[i].depth)
		j++;
	return j - i;
}

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

/* Width as printf's "%*s"/"%-*s" takes it: a negative one left-justifies. */
static int width(int w)
{
	return w < 0 ? -w : w;
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
static int type_col(struct tctx *t, const char *head, int ts, const char **rest)
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

static void level(struct tctx *t, size_t first, size_t end, int indent, int ts,
		  bool is_union);
static void summary(struct tctx *t, const struct slt_struct *s, int ind,
		    uint64_t base);
static void level_figures(const struct tctx *t, size_t idx, struct slt_struct *f);

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
	level(t, i + 1, i + subtree(s, i), indent + 1, ts - (int)ql - 8, is_union);
	if (!is_union && m->depth == 0) {
		struct slt_struct f;

		level_figures(t, i, &f);
		summary(t, &f, indent + 1, m->offset);
	}
	tabs(t, indent);
	out(t, "}");
	if (m->flags & SLT_MEMBER_PACKED)
		out(t, " __attribute__((__packed__))");
	if (m->parent >= 0 && *s->members[m->parent].name)
		out(t, " %s", s->members[m->parent].name);
	if (m->type_alignment && !is_union && !(m->flags & SLT_MEMBER_PACKED))
		out(t, " __attribute__((__aligned__(%u)))", m->type_alignment);
	out(t, "%s;", attr);
	offset_comment(t, m, ts + t->name_spacing - (int)(t->nout - start));
}

/* pahole -E's "/" "* typedef A -> B *" "/ " before a member's resolved type;
 * returns the characters written. */
static int td_comment(struct tctx *t, const struct slt_member *m)
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

static int tctx_holes(struct tctx *t);

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
	if (tctx_holes(&sub)) {
		t->oom = true;
		return;
	}
	level(&sub, 0, ps->n_members, indent + 1, ts - 16, is_union);
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

/* class_member__fprintf(): one member, its inline body included. */
static void member(struct tctx *t, size_t i, int indent, int ts)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *m = &s->members[i];
	char attr[64] = "";
	int printed = 0;

	uint64_t start;

	boundary(t, shown_offset(t, m), indent);
	start = t->nout;
	if (m->alignment)
		snprintf(attr, sizeof(attr), " __attribute__((__aligned__(%u)))",
			 m->alignment);
	if (m->typedef_name) /* pahole -E: what the typedef resolves to */
		printed += td_comment(t, m);
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
		level(t, i + 1, i + subtree(s, i), indent + 1, ts - 8, is_union);
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
		    !(m->flags & SLT_MEMBER_PACKED))
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
		printed += type_col(t, m->decl_head, ts, &rest);
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

static void hole_line(struct tctx *t, int indent, uint8_t *newline,
		      uint64_t size, bool bits)
{
	if (!(*newline)++)
		out(t, "\n");
	out(t, "\n");
	comment(t, indent, "/* XXX %llu %s%s hole, try to pack */",
		(unsigned long long)size, bits ? "bit" : "byte", plural(size));
}

/* Tail padding in bytes of the inline level of member parent (-1: the
 * struct): the type's, else where its last member ends. */
static uint64_t level_padding(const struct tctx *t, int32_t parent)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *p;
	uint64_t end = 0, size, n = 1;

	if (parent < 0)
		return s->padding;
	p = &s->members[parent];
	if (p->type_padding || (p->flags & SLT_MEMBER_UNION))
		return p->type_padding;
	/* an inline array: the level is one element ("[5][2]": 10) */
	for (const char *q = p->decl_tail; *q == '['; q = strchr(q, ']') + 1) {
		n *= strtoull(q + 1, NULL, 10);
		if (!strchr(q, ']') || !n)
			return 0;
	}
	size = p->size / n;
	for (size_t k = (size_t)parent + 1; k < s->n_members &&
	     s->members[k].depth > p->depth; k++) {
		const struct slt_member *c = &s->members[k];
		if (c->parent == parent && c->offset + c->size > end)
			end = c->offset + c->size;
	}
	return end && end < p->offset + size ? p->offset + size - end : 0;
}

/* The closing figures of the inline struct level of member idx, in the
 * fields summary() reads. */
static void level_figures(const struct tctx *t, size_t idx, struct slt_struct *f)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *p = &s->members[idx];
	int64_t prev = -1;

	memset(f, 0, sizeof(*f));
	f->size = p->size;
	f->padding = level_padding(t, (int32_t)idx);
	for (size_t k = idx + 1; k < s->n_members && s->members[k].depth > p->depth; k++) {
		const struct slt_member *c = &s->members[k];

		if (c->parent != (int32_t)idx)
			continue;
		f->n_top_members++;
		if (c->flags & SLT_MEMBER_BITFIELD)
			f->sum_bitfield_bits += c->bit_size;
		else
			f->sum_members += c->size;
		if (c->type_padding) {
			f->n_paddings++;
			f->sum_paddings += c->type_padding;
		}
		if (c->alignment) {
			f->n_forced_alignments++;
			for (size_t h = 0; h < s->n_holes; h++)
				if (s->holes[h].parent == (int32_t)idx &&
				    !(s->holes[h].flags & SLT_HOLE_BITS) &&
				    s->holes[h].after == (prev < 0 ? UINT32_MAX : (uint32_t)prev)) {
					f->n_forced_holes++;
					f->sum_forced_holes += s->holes[h].size;
				}
		}
		prev = (int64_t)k;
	}
	for (size_t h = 0; h < s->n_holes; h++) {
		if (s->holes[h].parent != (int32_t)idx)
			continue;
		if (s->holes[h].flags & SLT_HOLE_BITS) {
			f->n_bit_holes++;
			f->sum_bit_holes += s->holes[h].size;
		} else {
			f->n_byte_holes++;
			f->sum_byte_holes += s->holes[h].size;
		}
	}
}

/*
 * __class__fprintf()'s "Force padding" lines, with debug info that has
 * alignment attributes (DWARF, not BTF): a struct level with tail padding
 * and no alignment of its own whose last member's type has a power-of-two
 * size gets that padding re-created as unnamed bitfields of that type,
 * when the padding exceeds the address size (8 bytes assumed: x86-64).
 * Clang shows it where gcc writes DW_AT_alignment on the struct.
 */
static void force_padding(struct tctx *t, int32_t parent,
			  const struct slt_member *last, int indent, int ts)
{
	const struct slt_struct *s = t->s;
	uint64_t padding = level_padding(t, parent);
	uint32_t align = parent < 0 ? s->forced_alignment
				    : s->members[parent].type_alignment;
	uint64_t size = last->size;

	if (s->format != SLT_FORMAT_DWARF || !padding || align || !size ||
	    (size & (size - 1)) || padding <= 8)
		return;
	out(t, "\n");
	comment(t, indent, "/* Force padding: */");
	out(t, "\n");
	for (uint64_t added = 0; added < padding; added += size) {
		const char *rest;

		tabs(t, indent);
		if (last->typedef_name)
			td_comment(t, last);
		type_col(t, last->decl_head, ts, &rest);
		out(t, "%s%s:%llu;\n", rest, last->decl_tail,
		    (unsigned long long)size * 8);
	}
}

/* The members in [first, end) whose depth is that of first: one level of
 * a struct (as __class__fprintf() prints it) or of a union. */
static void level(struct tctx *t, size_t first, size_t end, int indent, int ts,
		  bool is_union)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *last = NULL;
	uint64_t last_size = 0;
	uint8_t newline = 0;
	uint32_t union_line = t->cacheline;
	int32_t parent = first < s->n_members ? s->members[first].parent : -1;

	if (!is_union) {
		/* holes before the first member */
		for (size_t k = 0; k < s->n_holes; k++) {
			const struct slt_hole *h = &s->holes[k];
			if (h->after != UINT32_MAX || h->parent != parent ||
			    !(h->flags & SLT_HOLE_BITS))
				continue;
			if (!newline++)
				out(t, "\n");
			comment(t, indent, "/* XXX %llu bit%s hole, try to pack */",
				(unsigned long long)h->size, plural(h->size));
			out(t, "\n");
		}
		for (size_t k = 0; k < s->n_holes; k++) {
			const struct slt_hole *h = &s->holes[k];
			if (h->after != UINT32_MAX || h->parent != parent ||
			    (h->flags & SLT_HOLE_BITS))
				continue;
			if (!newline++)
				out(t, "\n");
			comment(t, indent, "/* XXX %llu byte%s hole, try to pack */",
				(unsigned long long)h->size, plural(h->size));
			out(t, "\n");
		}
	}

	for (size_t i = first; i < end; i += subtree(s, i)) {
		const struct slt_member *pos = &s->members[i];
		bool pos_bf = pos->flags & SLT_MEMBER_BITFIELD;

		if (is_union) {
			tabs(t, indent);
			member(t, i, indent, ts);
			out(t, "\n");
			t->cacheline = union_line;
			continue;
		}
		if (last && last_size != 0) {
			bool last_bf = last->flags & SLT_MEMBER_BITFIELD;
			const struct slt_hole *lbh = t->bit_hole[last - s->members];

			if (lbh && pos_bf) {
				/* pahole re-creates the unnamed bitfield */
				uint64_t bf = lbh->size;
				const char *rest;

				if (last->offset != pos->offset) {
					out(t, "\n");
					comment(t, indent, "/* Force alignment to the next boundary: */");
					out(t, "\n");
					bf = 0;
				}
				tabs(t, indent);
				if (pos->typedef_name)
					td_comment(t, pos);
				type_col(t, pos->decl_head, ts, &rest);
				out(t, "%s:%llu;\n", rest, (unsigned long long)bf);
			}
			if (pos->offset < last->offset ||
			    (pos->offset == last->offset && !last_bf && pos_bf)) {
				if (!newline++)
					out(t, "\n");
				comment(t, indent, "/* Bitfield combined with previous fields */");
				out(t, "\n");
			} else if (pos->offset > last->offset &&
				   pos->offset - last->offset < last_size) {
				if (!newline++)
					out(t, "\n");
				comment(t, indent, "/* Bitfield combined with next fields */");
				out(t, "\n");
			}
		}
		if (newline) {
			out(t, "\n");
			newline = 0;
		}
		tabs(t, indent);
		member(t, i, indent, ts);
		if (pos->type_padding) {
			if (!newline++)
				out(t, "\n");
			out(t, "\n");
			comment(t, indent, "/* XXX last struct has %llu byte%s of padding */",
				(unsigned long long)pos->type_padding,
				plural(pos->type_padding));
		}
		if (t->bit_hole[i])
			hole_line(t, indent, &newline, t->bit_hole[i]->size, true);
		if (t->hole[i])
			hole_line(t, indent, &newline, t->hole[i]->size, false);
		out(t, "\n");

		if (!last || last_size == 0 || last->offset != pos->offset)
			last_size = pos->size;
		else if (!(last->flags & SLT_MEMBER_BITFIELD) && pos_bf)
			last_size = pos->size;
		last = pos;
	}
	if (!is_union && last)
		force_padding(t, parent, last, indent, ts);
}

/* type__fprintf_stats() and __class__fprintf()'s closing figures of s
 * (the struct, or a level's figures from level_figures()), at indent,
 * for a level starting base bytes into the outermost struct. */
static void summary(struct tctx *t, const struct slt_struct *s, int ind,
		    uint64_t base)
{
	uint64_t lastcl = (base + s->size) % t->cl;

	out(t, "\n");
	comment(t, ind, "/* size: %llu, cachelines: %llu, members: %zu */",
		(unsigned long long)s->size,
		(unsigned long long)slt_cachelines(s->size, t->cl), s->n_top_members);
	out(t, "\n");
	if (s->sum_byte_holes || s->sum_bit_holes) {
		if (s->sum_members) {
			tabs(t, ind);
			col(t, C_COMMENT);
			out(t, "/* sum members: %llu", (unsigned long long)s->sum_members);
			if (s->sum_byte_holes)
				out(t, ", holes: %u, sum holes: %llu", s->n_byte_holes,
				    (unsigned long long)s->sum_byte_holes);
			out(t, " */");
			col(t, C_OFF);
			out(t, "\n");
		}
		if (s->sum_bitfield_bits) {
			tabs(t, ind);
			col(t, C_COMMENT);
			out(t, "/* sum bitfield members: %llu bits",
			    (unsigned long long)s->sum_bitfield_bits);
			if (s->sum_bit_holes)
				out(t, ", bit holes: %u, sum bit holes: %llu bits",
				    s->n_bit_holes, (unsigned long long)s->sum_bit_holes);
			else
				out(t, " (%llu bytes)",
				    (unsigned long long)s->sum_bitfield_bits / 8);
			out(t, " */");
			col(t, C_OFF);
			out(t, "\n");
		}
	}
	if (s->padding) {
		comment(t, ind, "/* padding: %llu */", (unsigned long long)s->padding);
		out(t, "\n");
	}
	if (s->n_paddings) {
		comment(t, ind, "/* paddings: %u, sum paddings: %llu */", s->n_paddings,
			(unsigned long long)s->sum_paddings);
		out(t, "\n");
	}
	if (s->bit_padding) {
		comment(t, ind, "/* bit_padding: %u bits */", s->bit_padding);
		out(t, "\n");
	}
	if (s->n_forced_alignments) {
		tabs(t, ind);
		col(t, C_COMMENT);
		out(t, "/* forced alignments: %u", s->n_forced_alignments);
		if (s->n_forced_holes)
			out(t, ", forced holes: %u, sum forced holes: %llu",
			    s->n_forced_holes, (unsigned long long)s->sum_forced_holes);
		out(t, " */");
		col(t, C_OFF);
		out(t, "\n");
	}
	if (lastcl) {
		comment(t, ind, "/* last cacheline: %llu bytes */", (unsigned long long)lastcl);
		out(t, "\n");
	}
}

/* t->hole and t->bit_hole: the hole after each member of t->s, or NULL.
 * 0 or SLT_ENOMEM. */
static int tctx_holes(struct tctx *t)
{
	const struct slt_struct *s = t->s;

	t->hole = calloc(s->n_members + 1, sizeof(*t->hole));
	t->bit_hole = calloc(s->n_members + 1, sizeof(*t->bit_hole));
	if (!t->hole || !t->bit_hole) {
		free(t->hole);
		free(t->bit_hole);
		return SLT_ENOMEM;
	}
	for (size_t k = 0; k < s->n_holes; k++) {
		const struct slt_hole *h = &s->holes[k];
		if (h->after >= s->n_members)
			continue;
		if (h->flags & SLT_HOLE_BITS)
			t->bit_hole[h->after] = h;
		else
			t->hole[h->after] = h;
	}
	return 0;
}

static int write_struct(FILE *f, const struct slt_struct *s,
			const struct slt_report_opts *opts)
{
	struct tctx t = { .f = f, .s = s, .color = opts && opts->color };
	bool is_union = s->kind == SLT_KIND_UNION;

	t.cl = opts && opts->cacheline_size ? opts->cacheline_size
					     : SLT_CACHELINE_DEFAULT;
	t.name_spacing = s->expanded ? 55 : is_union ? 21 : 23;
	if (tctx_holes(&t))
		return SLT_ENOMEM;
	if (opts && opts->decl && s->decl_file && *s->decl_file) {
		col(&t, C_COMMENT);
		out(&t, "/* %s:%u */", s->decl_file, s->decl_line);
		col(&t, C_OFF);
		out(&t, "\n");
	}
	col(&t, C_KW);
	if (s->typedef_named)
		out(&t, "typedef ");
	out(&t, "%s", is_union ? "union" : "struct");
	col(&t, C_OFF);
	if (*s->name && !s->typedef_named) {
		out(&t, " ");
		col(&t, C_TYPE);
		out(&t, "%s", s->name);
		col(&t, C_OFF);
	}
	out(&t, " {\n");
	level(&t, 0, s->n_members, 1, 26, is_union);
	if (!is_union)
		summary(&t, s, 1, 0);
	out(&t, "}");
	/* __class__fprintf(); union__fprintf() prints no attribute */
	if (s->packed && !is_union)
		out(&t, " __attribute__((__packed__))");
	else if (s->forced_alignment && !is_union)
		out(&t, " __attribute__((__aligned__(%u)))", s->forced_alignment);
	if (s->typedef_named) {
		out(&t, " ");
		col(&t, C_TYPE);
		out(&t, "%s", s->name);
		col(&t, C_OFF);
	}
	out(&t, ";\n");
	free(t.hole);
	free(t.bit_hole);
	return t.oom ? SLT_ENOMEM : 0;
}

static int cmp_name_at(const void *x, const void *y, void *ctx)
{
	const struct slt_struct *v = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = strcmp(v[i].name, v[j].name);
	return c ? c : (i > j) - (i < j);
}

/* shared[i]: another struct of the layout has structs[i]'s name (sorted
 * once: --all passes thousands).  NULL when out of memory. */
static bool *names_shared(const struct slt_layout *l)
{
	size_t n = l->n_structs;
	bool *shared = calloc(n ? n : 1, sizeof(*shared));
	size_t *ord = malloc((n ? n : 1) * sizeof(*ord));
	if (!shared || !ord) {
		free(shared);
		free(ord);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof(*ord), cmp_name_at, l->structs);
	for (size_t k = 1; k < n; k++)
		if (!strcmp(l->structs[ord[k]].name, l->structs[ord[k - 1]].name))
			shared[ord[k]] = shared[ord[k - 1]] = true;
	free(ord);
	return shared;
}

int slt_report_layout_text(FILE *out_f, const struct slt_layout *layout,
			   const struct slt_report_opts *opts,
			   struct slt_error *err)
{
	bool *shared = names_shared(layout);
	if (!shared)
		return slt_error_set(err, SLT_ENOMEM, "", -1, NULL, "out of memory");
	for (size_t i = 0; i < layout->n_structs; i++) {
		int rc;

		/* Structs follow each other with no blank line, as
		 * `pahole -C a,b` prints them. */
		/* A name with several distinct definitions: say where each
		 * one is declared, even when positions are not asked for. */
		struct slt_report_opts o = { .cacheline_size = SLT_CACHELINE_DEFAULT };
		if (opts)
			o = *opts;
		o.decl = o.decl || shared[i];
		rc = write_struct(out_f, &layout->structs[i], &o);
		if (rc) {
			free(shared);
			return slt_error_set(err, rc, "", -1, NULL, "out of memory");
		}
	}
	free(shared);
	if (fflush(out_f) || ferror(out_f))
		return slt_error_set(err, SLT_EIO, "", -1,
				     "check the output device or pipe",
				     "writing the layout failed");
	return 0;
}
