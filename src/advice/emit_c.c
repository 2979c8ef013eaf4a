/* SPDX-License-Identifier: MIT */
/*
 * The C declaration of a proposal (slt_advice_emit_c(), advice_int.h):
 * members in the proposal's order with their declarators
 * (slt_member.decl_head + name + decl_tail), bitfields, anonymous
 * unions/structs re-emitted whole, CACHELINE_PADDING(_padN_); for padding
 * members, __cacheline_group_begin/end(NAME) for group markers,
 * ____cacheline_aligned_in_smp for members forced to the x86-64 line
 * (SMP_CACHE_BYTES = 64), then static_assert(offsetof(...) == N) lines
 * and, for members inside a group, CACHELINE_ASSERT_GROUP_MEMBER() in a
 * check function, as the kernel writes them (include/linux/cache.h,
 * v6.8+; net/ipv4/tcp.c tcp_struct_check()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"
#include "common/strmap.h"

#define GROUP_BEGIN "__cacheline_group_begin__"
#define GROUP_END "__cacheline_group_end__"
#define SMP_CACHE_BYTES 64u

struct emit {
	FILE *f;
	const struct slt_struct *s;     /* the proposal's layout */
	const struct slt_struct *orig;
	/* orig's named top-level members: name -> first index (built on
	 * first use), so matching each member is not a scan of all
	 * (65,535 members: O(n^2) strcmp) */
	struct slt_strmap top;
	bool top_built, nomem;
	bool user;                      /* user-space forms */
	unsigned line;                  /* the proposal's line size */
	/* user space: the alignment a zero-size padding member or group
	 * marker left out gives the next member (_Alignas), 0 when none;
	 * skipped[i]: member i was left out (no static assert) */
	uint32_t pend;
	/* user space: the alignment a padding member or marker written as
	 * a char array (before a bitfield) took from its level: its closing
	 * brace gives it back; 0 when none */
	uint32_t hold;
	bool *skipped;
};

/* The next member at i's level after i, or NULL. */
static const struct slt_member *next_sibling(const struct slt_struct *s, size_t i)
{
	for (size_t j = i + 1; j < s->n_members; j++) {
		if (s->members[j].parent == s->members[i].parent)
			return &s->members[j];
		if (s->members[j].depth < s->members[i].depth)
			break;
	}
	return NULL;
}

/* _Alignas(a) before a declaration: the line size by its name. */
static void alignas_spec(struct emit *e, uint32_t a)
{
	if (a == e->line)
		fputs("_Alignas(" SLT_ADV_LINE_CONST ") ", e->f);
	else
		fprintf(e->f, "_Alignas(%u) ", a);
}

static void tabs(struct emit *e, unsigned n)
{
	while (n--)
		fputc('\t', e->f);
}

static bool is_pad(const struct slt_member *m)
{
	return (m->flags & SLT_MEMBER_ZERO_SIZE) &&
	       !strcmp(m->type, SLT_ADV_PAD_TYPE);
}

/* The member's type is an inline body we must spell out (anonymous
 * struct/union, or a named member of an anonymous type). */
static bool inline_body(const struct slt_member *m)
{
	const char *h = m->decl_head;

	if (!(m->flags & SLT_MEMBER_INLINE))
		return false;
	if (!strncmp(h, "struct ", 7))
		h += 7;
	else if (!strncmp(h, "union ", 6))
		h += 6;
	else
		return true;
	return !*h || *h == '{';
}

/* The alignment level `parent` (-1: the top) of l gets from its direct
 * members alone: the largest of their own and their types' alignments. */
static uint32_t contents_align(const struct slt_struct *l, long parent)
{
	uint32_t a = 1;

	for (size_t i = parent < 0 ? 0 : (size_t)parent + 1; i < l->n_members; i++) {
		const struct slt_member *m = &l->members[i];
		if (parent >= 0 && m->depth <= l->members[parent].depth)
			break;
		if (m->parent != (int32_t)parent)
			continue;
		if (m->alignment > a)
			a = m->alignment;
		if (m->natural_alignment > a)
			a = m->natural_alignment;
	}
	return a;
}

/* Whether a type alignment `a` of a level of the proposal is written:
 * where the proposal needs it (its members alone give less: contents), or
 * where the source had it and needed it (orig_a, the original's forced
 * alignment of the same level, above orig_contents, what its members gave
 * there); an attribute the members imply changes nothing and is not
 * added. */
static bool align_needed(uint32_t a, uint32_t contents, uint32_t orig_a,
			 uint32_t orig_contents)
{
	return a && (a > contents || (a == orig_a && orig_a > orig_contents));
}

static void attr_align(struct emit *e, uint32_t a)
{
	if (!a)
		return;
	if (e->user && a == e->line)
		fputs(" __attribute__((__aligned__(" SLT_ADV_LINE_CONST ")))", e->f);
	else if (!e->user && a == SMP_CACHE_BYTES)
		fputs(" ____cacheline_aligned_in_smp", e->f);
	else
		fprintf(e->f, " __attribute__((__aligned__(%u)))", a);
}

/* Whether the proposal's anonymous member i and orig's member k hold the
 * same members: i's first named direct child is a direct child of k (its
 * members may have been reordered inside it); without a named child, the
 * members right after each are compared. */
static bool same_first_child(struct emit *e, size_t i, size_t k)
{
	const struct slt_struct *s = e->s, *o = e->orig;
	const char *name = NULL;

	for (size_t c = i + 1; c < s->n_members &&
	     s->members[c].depth > s->members[i].depth && !name; c++)
		if (s->members[c].parent == (int32_t)i && *s->members[c].name)
			name = s->members[c].name;
	if (!name)
		return i + 1 < s->n_members && k + 1 < o->n_members &&
		       !strcmp(s->members[i + 1].name, o->members[k + 1].name);
	for (size_t q = k + 1; q < o->n_members &&
	     o->members[q].depth > o->members[k].depth; q++)
		if (o->members[q].parent == (int32_t)k &&
		    !strcmp(o->members[q].name, name))
			return true;
	return false;
}

/* Index into orig of the member p->layout.members[i] was built from, or
 * -1 for an inserted one.  Matched by parent, name, type and size; an
 * anonymous member also by its first child's name. */
static long orig_index(struct emit *e, size_t i, long orig_parent)
{
	const struct slt_member *m = &e->s->members[i];
	size_t k0 = 0;

	if (orig_parent == -1 && *m->name) {
		if (!e->top_built) {
			e->top_built = true;
			for (size_t k = 0; k < e->orig->n_members && !e->nomem; k++) {
				const struct slt_member *o = &e->orig->members[k];
				if (o->parent == -1 && *o->name &&
				    slt_strmap_put(&e->top, o->name, strlen(o->name),
						   k, NULL) < 0)
					e->nomem = true;
			}
		}
		if (!e->nomem && !slt_strmap_get(&e->top, m->name, strlen(m->name), &k0))
			return -1;
	}
	if (orig_parent >= 0 && k0 <= (size_t)orig_parent)
		k0 = (size_t)orig_parent + 1;
	for (size_t k = k0; k < e->orig->n_members; k++) {
		const struct slt_member *o = &e->orig->members[k];

		if (orig_parent >= 0 &&
		    o->depth <= e->orig->members[orig_parent].depth)
			break;
		/* an anonymous struct the advisor opened may change size */
		if (o->parent != orig_parent || strcmp(o->name, m->name) ||
		    strcmp(o->type, m->type) ||
		    (o->size != m->size && (*m->name || !m->n_children)))
			continue;
		if (!*m->name && m->n_children && o->n_children &&
		    !same_first_child(e, i, k))
			continue;
		if ((m->flags & SLT_MEMBER_BITFIELD) &&
		    (o->bit_offset != m->bit_offset || o->bit_size != m->bit_size))
			continue;
		return (long)k;
	}
	return -1;
}

static void level(struct emit *e, int32_t parent, unsigned depth, long orig_parent);

/* See advice_int.h. */
long slt_adv_run_bitfield(const struct slt_struct *o, size_t i)
{
	uint64_t end = o->members[i].offset + o->members[i].size;
	int32_t parent = o->members[i].parent;
	long best = -1;

	for (size_t k = i; k < o->n_members; k++) {
		const struct slt_member *m = &o->members[k];

		if (m->parent != parent) {
			if (m->depth < o->members[i].depth)
				break;
			continue;
		}
		if (k > i && m->offset >= end)
			break;
		if (m->offset + m->size > end)
			end = m->offset + m->size;
		if ((m->flags & SLT_MEMBER_BITFIELD) &&
		    (best < 0 || m->natural_alignment >
				 o->members[best].natural_alignment))
			best = (long)k;
	}
	return best;
}

/* Whether what precedes member i of l at its level ends on a multiple of
 * unit bytes (a bitfield storage unit), or nothing precedes it: then the
 * compiler starts a bitfield run there without a zero-width bitfield. */
static bool unit_start(const struct slt_struct *l, size_t i, uint64_t unit)
{
	const struct slt_member *m = &l->members[i], *q = NULL;
	uint64_t end_bits;

	for (size_t j = i; j-- > 0;)
		if (l->members[j].parent == m->parent) {
			q = &l->members[j];
			break;
		} else if (l->members[j].depth < m->depth) {
			break;
		}
	if (!q)
		return true;
	if (!unit)
		return false;
	end_bits = q->offset * 8 + ((q->flags & SLT_MEMBER_BITFIELD) ?
				    q->bit_offset + q->bit_size : q->size * 8);
	return end_bits % (unit * 8) == 0;
}

/* See advice_int.h. */
uint64_t slt_adv_level_end(const struct slt_struct *l, size_t i)
{
	const struct slt_member *m = &l->members[i];

	for (size_t j = i; j-- > 0;) {
		const struct slt_member *q = &l->members[j];
		if (q->parent == m->parent)
			return q->offset + ((q->flags & SLT_MEMBER_BITFIELD) ?
					    (q->bit_offset + q->bit_size + 7) / 8 : q->size);
		if (q->depth < m->depth)
			return q->offset;
	}
	return 0;
}

/* orig_parent: orig's index of the member whose level this is (-1: the
 * top level), or -2 when it is not known (an inserted wrapper, a member
 * not matched): then bitfield runs keep their declarations as they are. */
static void member(struct emit *e, size_t i, unsigned depth, long orig_parent,
		   long *prev_orig)
{
	const struct slt_member *m = &e->s->members[i];
	long oi = orig_parent >= -1 ? orig_index(e, i, orig_parent) : -2;

	if (orig_parent >= -1) {
		/* a bitfield run that no longer follows its original
		 * predecessor starts a fresh storage unit of its type, as
		 * slt_adv_place() assumes (SLT_ADV_BITS) */
		long q = oi - 1, bf;

		/* the original predecessor at this level */
		while (q > orig_parent && e->orig->members[q].parent != orig_parent)
			q--;
		if (q == orig_parent)
			q = -1;
		bf = oi >= 0 && i > (size_t)(m->parent + 1) && (*prev_orig != q || q < 0) ?
		     slt_adv_run_bitfield(e->orig, (size_t)oi) : -1;
		if (bf >= 0) {
			/* a run holding bitfields that no longer follows its
			 * original predecessor starts on a fresh storage unit
			 * (slt_adv_place(), SLT_ADV_BITS): a zero-width
			 * bitfield of the widest storage type puts it there,
			 * an unnamed one restores leading unused bits */
			const struct slt_member *fb = &e->orig->members[bf];
			if (!unit_start(e->s, i, fb->size)) {
				tabs(e, depth + 1);
				fprintf(e->f, "%s :0;\n", fb->decl_head);
			}
			if ((m->flags & SLT_MEMBER_BITFIELD) && m->bit_offset) {
				tabs(e, depth + 1);
				fprintf(e->f, "%s :%u;\n", m->decl_head,
					m->bit_offset);
			}
		}
		*prev_orig = oi;
	}
	tabs(e, depth + 1);
	const struct slt_member *nx = next_sibling(e->s, i);
	if (e->user && e->skipped && (is_pad(m) || (m->flags & (SLT_MEMBER_GROUP_BEGIN |
							       SLT_MEMBER_GROUP_END)))) {
		/* ISO C has no zero-size member (-pedantic): its alignment
		 * goes on the next member (_Alignas), or on the enclosing
		 * brace when it is the last; a bitfield cannot take
		 * _Alignas, so before one a char array of the exact byte
		 * count holds its offset and the enclosing brace gets the
		 * alignment */
		uint32_t a = m->alignment > 1 && (is_pad(m) || !m->natural_alignment ||
						  m->alignment > m->natural_alignment) ? m->alignment : 0;
		uint64_t gap = nx && (nx->flags & SLT_MEMBER_BITFIELD) ?
			       m->offset - slt_adv_level_end(e->s, i) : 0;

		if (nx && (nx->flags & SLT_MEMBER_BITFIELD)) {
			if (a > e->hold)
				e->hold = a;
		} else if (a > e->pend) {
			e->pend = a;
		}
		fprintf(e->f, "/* %s%s */\n", m->name,
			is_pad(m) ? ": the next member starts a cache line" : "");
		if (gap) {
			tabs(e, depth + 1);
			fprintf(e->f, "char %s[%llu];\n", m->name, (unsigned long long)gap);
		}
		e->skipped[i] = true;
		return;
	}
	if (e->pend && !(m->flags & SLT_MEMBER_BITFIELD)) {
		alignas_spec(e, e->pend);
		e->pend = 0;
	}
	if (is_pad(m)) {
		fprintf(e->f, "CACHELINE_PADDING(%s);\n", m->name);
		return;
	}
	if ((m->flags & SLT_MEMBER_GROUP_BEGIN) &&
	    !strncmp(m->name, GROUP_BEGIN, strlen(GROUP_BEGIN))) {
		fprintf(e->f, "__cacheline_group_begin(%s)",
			m->name + strlen(GROUP_BEGIN));
		attr_align(e, m->alignment);
		fputs(";\n", e->f);
		return;
	}
	if ((m->flags & SLT_MEMBER_GROUP_END) &&
	    !strncmp(m->name, GROUP_END, strlen(GROUP_END))) {
		fprintf(e->f, "__cacheline_group_end(%s)",
			m->name + strlen(GROUP_END));
		attr_align(e, m->alignment);
		fputs(";\n", e->f);
		return;
	}
	if (inline_body(m)) {
		bool is_union = m->flags & SLT_MEMBER_UNION;

		uint32_t outer_hold = e->hold, held;

		fprintf(e->f, "%s {\n", is_union ? "union" : "struct");
		e->hold = 0;
		level(e, (int32_t)i, depth + 1, oi >= 0 ? oi : -2);
		held = e->hold;
		e->hold = outer_hold;
		if (held > e->pend)
			e->pend = held;
		tabs(e, depth + 1);
		fputc('}', e->f);
		if (m->flags & SLT_MEMBER_PACKED)
			fputs(" __attribute__((__packed__))", e->f);
		/* the type's alignment after the brace, where the source
		 * had it or the proposal needs it (a last member left out
		 * needs it: user space); the member's only when it
		 * differs (the type's already aligns the member) */
		uint32_t oa = oi >= 0 ? e->orig->members[oi].type_alignment : 0;
		if (e->pend) {
			attr_align(e, m->type_alignment > e->pend ? m->type_alignment : e->pend);
			e->pend = 0;
		} else if (align_needed(m->type_alignment, contents_align(e->s, (long)i), oa,
				 oi >= 0 ? contents_align(e->orig, oi) : 0))
			attr_align(e, m->type_alignment);
		if (*m->name)
			fprintf(e->f, " %s%s", m->name,
				*m->decl_tail == '[' ? m->decl_tail : "");
		if (m->alignment != m->type_alignment)
			attr_align(e, m->alignment);
		fputs(";\n", e->f);
		return;
	}
	if (m->n_enumerators) {
		fputs("enum {", e->f);
		for (uint32_t k = 0; k < m->n_enumerators; k++) {
			const struct slt_enumerator *en = &m->enumerators[k];
			if (m->flags & SLT_MEMBER_ENUM_SIGNED)
				fprintf(e->f, "%s %s = %lld", k ? "," : "",
					en->name, (long long)en->value);
			else
				fprintf(e->f, "%s %s = %lluu", k ? "," : "",
					en->name,
					(unsigned long long)(uint64_t)en->value);
		}
		fprintf(e->f, " }%s %s%s", m->enum_size && m->enum_size != 4 ?
			" __attribute__((__packed__))" : "", m->name,
			m->decl_tail);
	} else {
		const char *h = m->decl_head;
		size_t hl = strlen(h);
		bool glue = hl && (h[hl - 1] == '*' || h[hl - 1] == '(' ||
				   h[hl - 1] == ' ');
		fprintf(e->f, "%s%s%s%s", h, glue ? "" : " ", m->name,
			m->decl_tail);
	}
	if (m->flags & SLT_MEMBER_BITFIELD)
		fprintf(e->f, ":%u", m->bit_size);
	/* a member's own alignment that its type already gives changes
	 * nothing (6.1 cgroup's self: 8 on an 8-aligned type) */
	if (!m->natural_alignment || m->alignment > m->natural_alignment)
		attr_align(e, m->alignment);
	fputs(";\n", e->f);
}

static void level(struct emit *e, int32_t parent, unsigned depth, long orig_parent)
{
	long prev_orig = -1;

	for (size_t i = parent < 0 ? 0 : (size_t)parent + 1;
	     i < e->s->n_members; i++) {
		if (e->s->members[i].parent == parent)
			member(e, i, depth, orig_parent, &prev_orig);
		else if (parent >= 0 &&
			 e->s->members[i].depth <= e->s->members[parent].depth)
			break;
	}
}

/* Members reachable by offsetof(TYPE, name): named, not bitfields, at top
 * level or inside anonymous inline composites only. */
static bool assertable(const struct slt_struct *s, size_t i)
{
	const struct slt_member *m = &s->members[i];

	if (!*m->name || (m->flags & SLT_MEMBER_BITFIELD))
		return false;
	for (int32_t p = m->parent; p >= 0; p = s->members[p].parent)
		if (*s->members[p].name)
			return false;
	return true;
}

static void asserts(struct emit *e, const char *tname)
{
	const struct slt_struct *s = e->s;
	bool groups = false;

	for (size_t i = 0; i < s->n_members; i++) {
		if (!assertable(s, i) || (e->skipped && e->skipped[i]))
			continue;
		if (e->user)
			fprintf(e->f, "_Static_assert(offsetof(%s, %s) == %llu, \"%s\");\n",
				tname, s->members[i].name,
				(unsigned long long)s->members[i].offset,
				s->members[i].name);
		else
			fprintf(e->f, "static_assert(offsetof(%s, %s) == %llu);\n",
				tname, s->members[i].name,
				(unsigned long long)s->members[i].offset);
		if (s->members[i].flags & SLT_MEMBER_GROUP_BEGIN)
			groups = true;
	}
	if (e->user)
		fprintf(e->f, "_Static_assert(sizeof(%s) == %llu, \"size\");\n", tname,
			(unsigned long long)s->size);
	else
		fprintf(e->f, "static_assert(sizeof(%s) == %llu);\n", tname,
			(unsigned long long)s->size);
	if (!groups || e->user)
		return;
	fprintf(e->f, "\nstatic inline void %s_struct_check(void)\n{\n",
		s->name);
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *b = &s->members[i];
		const char *g;

		if (!(b->flags & SLT_MEMBER_GROUP_BEGIN) || b->parent != -1 ||
		    strncmp(b->name, GROUP_BEGIN, strlen(GROUP_BEGIN)))
			continue;
		g = b->name + strlen(GROUP_BEGIN);
		for (size_t k = i + 1; k < s->n_members; k++) {
			const struct slt_member *m = &s->members[k];
			if ((m->flags & SLT_MEMBER_GROUP_END) &&
			    !strncmp(m->name, GROUP_END, strlen(GROUP_END)) &&
			    !strcmp(m->name + strlen(GROUP_END), g))
				break;
			if (m->parent != -1 || !assertable(s, k) ||
			    (m->flags & (SLT_MEMBER_GROUP_BEGIN |
					 SLT_MEMBER_GROUP_END)) || is_pad(m))
				continue;
			fprintf(e->f, "\tCACHELINE_ASSERT_GROUP_MEMBER(%s, %s, %s);\n",
				tname, g, m->name);
		}
	}
	fputs("}\n", e->f);
}

/* The line size of proposal layout s: its padding members' (or isolate
 * wrapper's) alignment, else
 * SMP_CACHE_BYTES. */
static unsigned line_of(const struct slt_struct *s)
{
	for (size_t i = 0; i < s->n_members; i++)
		if ((is_pad(&s->members[i]) || s->members[i].type == slt_adv_wrap_type) &&
		    s->members[i].alignment)
			return s->members[i].alignment;
	return SMP_CACHE_BYTES;
}

int slt_advice_emit_c(const struct slt_proposal *p,
		      const struct slt_struct *orig, bool user_space,
		      struct slt_arena *a, const char **out)
{
	const struct slt_struct *s = &p->layout;
	struct emit e = { .s = s, .orig = orig, .user = user_space,
			  .line = line_of(s) };
	const char *kw = s->kind == SLT_KIND_UNION ? "union" : "struct";
	char *buf = NULL, *tname;
	size_t len = 0;
	int rc = 0;

	*out = NULL;
	tname = s->typedef_named ? slt_arena_strdup(a, s->name)
				 : slt_arena_printf(a, "%s %s", kw, s->name);
	if (!tname)
		return SLT_ENOMEM;
	e.f = open_memstream(&buf, &len);
	if (!e.f)
		return SLT_ENOMEM;
	if (user_space) {
		e.skipped = slt_arena_calloc(a, s->n_members + 1, sizeof(*e.skipped));
		if (!e.skipped) {
			fclose(e.f);
			free(buf);
			return SLT_ENOMEM;
		}
	}
	if (user_space)
		fprintf(e.f, "#include <stddef.h>\n"
			"#ifndef " SLT_ADV_LINE_CONST "\n"
			"#define " SLT_ADV_LINE_CONST " %u /* the target's cache line, bytes */\n"
			"#endif\n\n", e.line);
	if (s->typedef_named)
		fprintf(e.f, "typedef %s {\n", kw);
	else
		fprintf(e.f, "%s {\n", tname);
	level(&e, -1, 0, -1);
	if (e.hold > e.pend)
		e.pend = e.hold;
	fputc('}', e.f);
	if (s->packed)
		fputs(" __attribute__((__packed__))", e.f);
	if (e.pend) /* its last member was left out */
		attr_align(&e, s->forced_alignment > e.pend ? s->forced_alignment : e.pend);
	else if (!align_needed(s->forced_alignment, contents_align(s, -1),
			  orig ? orig->forced_alignment : 0,
			  orig ? contents_align(orig, -1) : 0))
		; /* the members align it */
	else if (user_space && s->forced_alignment == e.line)
		fputs(" __attribute__((__aligned__(" SLT_ADV_LINE_CONST ")))", e.f);
	else
		fprintf(e.f, " __attribute__((__aligned__(%u)))",
			s->forced_alignment);
	if (s->typedef_named)
		fprintf(e.f, " %s", s->name);
	fputs(";\n\n", e.f);
	asserts(&e, tname);
	if (ferror(e.f))
		rc = SLT_ENOMEM;
	if (fclose(e.f) || !buf)
		rc = SLT_ENOMEM;
	if (!rc) {
		*out = slt_arena_strndup(a, buf, len);
		if (!*out)
			rc = SLT_ENOMEM;
	}
	free(buf);
	slt_strmap_free(&e.top);
	return rc;
}
