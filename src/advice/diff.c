/* SPDX-License-Identifier: MIT */
/*
 * The source diff of a proposal (slt_advice_diff(), advice.h): the
 * struct's definition in its real header, found under a source root by the
 * layout's decl_file and decl_line, is split into one chunk of lines per
 * member declaration (with the comments and blank lines above it), the
 * chunks are matched to the original layout's top-level members in order,
 * re-emitted in the proposal's order with `CACHELINE_PADDING(_padN_);`
 * lines where padding was inserted, and the result is diffed against the
 * file as a unified diff (`diff -u` / git format, 3 lines of context,
 * applicable with `patch -p1` or `git apply` in the source root).
 *
 * The C scanning is lexical: comments, string and character literals,
 * preprocessor lines (any #if/#ifdef/#ifndef/#elif/#else/#endif inside the
 * body refuses the diff), braces, parentheses and brackets.  A declaration
 * ends at a `;` outside nested braces and parentheses, so anonymous
 * struct/union blocks, multi-line function pointers and macros such as
 * struct_group() are one declaration; top-level commas separate
 * declarators (`int a, b;`, bitfield runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"
#include "advice/diff_int.h"

#define GROUP_BEGIN "__cacheline_group_begin"
#define GROUP_END "__cacheline_group_end"
/* ---- the struct's body ----------------------------------------------- */

struct seg {
	size_t lo, hi;    /* tokens [lo, hi) */
	bool colon;       /* a top-level ':' (bitfield) */
};

struct decl {
	size_t first, semi;   /* tokens */
	size_t seg0, nseg;    /* into body.segs */
	unsigned line_end;    /* the chunk may end after this line; 0: the
				 next declaration shares the line */
	size_t n_members;     /* matched members of the layout */
};

struct body {
	unsigned open_line, close_line;  /* lines of '{' and '}' */
	struct decl *d;
	size_t nd;
	struct seg *segs;
	size_t nsegs;
};

static int grow(void **p, size_t *cap, size_t n, size_t sz)
{
	void *q;
	if (n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 64;
	q = realloc(*p, *cap * sz);
	if (!q)
		return SLT_ENOMEM;
	*p = q;
	return 0;
}

/* Index of the '{' opening the definition that starts on line decl_line:
 * `struct NAME ... {` (`struct ... {` for a typedef-named one). */
static int find_open(struct slt_dlex *x, const struct slt_struct *orig,
		     size_t *ob, struct slt_error *err)
{
	const char *kw = orig->kind == SLT_KIND_UNION ? "union" : "struct";
	int state = 0, rc;   /* 0: want kw, 1: want name, 2: want '{' */

	x->i = x->s->ls[orig->decl_line - 1];
	x->line = orig->decl_line;
	x->bol = true;
	while ((rc = slt_diff_lex_next(x, err)) == 0) {
		const struct slt_dtok *t = &x->t[x->n - 1];

		if (t->k == T_COMMENT)
			continue;
		if (state == 0) {
			if (t->line != orig->decl_line)
				break;
			if (t->k == T_IDENT && slt_diff_tok_is(x->s, t, kw))
				state = orig->typedef_named ? 2 : 1;
		} else if (state == 1) {
			state = t->k == T_IDENT && slt_diff_tok_is(x->s, t, orig->name) ? 2 : 0;
		} else if (t->k == T_PUNCT && x->s->text[t->off] == '{') {
			*ob = x->n - 1;
			return 0;
		} else if (t->k == T_PUNCT && strchr(";}=,", x->s->text[t->off])) {
			break;
		}
	}
	if (rc < 0)
		return rc;
	return slt_error_set_line(err, SLT_EUSAGE, x->s->path, orig->decl_line,
		"use the source tree the binary was built from (--source-root)",
		"no `%s %s {` on this line: the source does not match the binary",
		kw, orig->typedef_named ? "" : orig->name);
}

/* Declarations of the body after token ob, up to the closing brace. */
static int scan_body(struct slt_dlex *x, size_t ob, struct body *b,
		     struct slt_error *err)
{
	size_t dcap = 0, scap = 0, cur = SIZE_MAX;
	unsigned braces = 0, parens = 0;
	int rc;

	b->open_line = x->t[ob].line;
	for (;;) {
		struct slt_dtok *t;
		char c;

		if ((rc = slt_diff_lex_next(x, err)) < 0)
			return rc;
		if (rc == 1)
			return slt_diff_lex_error(x, b->open_line, "the struct's closing brace is missing", err);
		t = &x->t[x->n - 1];
		if (t->k == T_COMMENT)
			continue;
		if (t->k == T_PP) {
			if (t->cond)
				return slt_error_set_line(err, SLT_EUSAGE,
					x->s->path, t->line,
					"the diff cannot know which branch the binary was built with",
					"preprocessor conditionals inside the struct: "
					"apply the C declaration by hand");
			continue;
		}
		c = x->s->text[t->off];
		if (t->line == b->open_line)
			return slt_diff_lex_error(x, t->line, "members on the line of the struct's opening brace", err);
		if (t->k == T_PUNCT && c == '}' && braces == 0) {
			if (cur != SIZE_MAX)
				return slt_diff_lex_error(x, t->line, "declaration without ';' before the closing brace", err);
			b->close_line = t->line;
			return 0;
		}
		if (cur == SIZE_MAX && !(t->k == T_PUNCT && c == ';')) {
			if ((rc = grow((void **)&b->d, &dcap, b->nd, sizeof(*b->d))) ||
			    (rc = grow((void **)&b->segs, &scap, b->nsegs, sizeof(*b->segs))))
				return rc;
			cur = b->nd++;
			b->d[cur] = (struct decl){ .first = x->n - 1, .seg0 = b->nsegs,
						   .nseg = 1 };
			b->segs[b->nsegs++] = (struct seg){ .lo = x->n - 1 };
		}
		if (t->k != T_PUNCT)
			continue;
		if (c == '{')
			braces++;
		else if (c == '}')
			braces--;
		else if (c == '(' || c == '[')
			parens++;
		else if ((c == ')' || c == ']') && parens)
			parens--;
		else if (c == ')' || c == ']')
			return slt_diff_lex_error(x, t->line, "unbalanced parentheses", err);
		if (braces || parens || cur == SIZE_MAX)
			continue;
		if (c == ':') {
			b->segs[b->nsegs - 1].colon = true;
		} else if (c == ',') {
			b->segs[b->nsegs - 1].hi = x->n - 1;
			if ((rc = grow((void **)&b->segs, &scap, b->nsegs, sizeof(*b->segs))))
				return rc;
			b->segs[b->nsegs++] = (struct seg){ .lo = x->n };
			b->d[cur].nseg++;
		} else if (c == ';') {
			b->segs[b->nsegs - 1].hi = x->n - 1;
			b->d[cur].semi = x->n - 1;
			cur = SIZE_MAX;
		}
	}
}

/* Where the chunk of the declarations ending at b->d[i] may end: its ';'
 * line, extended by comments starting on it; 0 when code follows on the
 * same line (the body's closing brace, lexed last, ends the search). */
static int chunk_ends(struct slt_dlex *x, struct body *b, struct slt_error *err)
{
	for (size_t i = 0; i < b->nd; i++) {
		size_t j = b->d[i].semi + 1;
		unsigned end = x->t[b->d[i].semi].line;

		for (; j < x->n && x->t[j].k == T_COMMENT && x->t[j].line == end; j++)
			end = x->t[j].eline;
		if (j < x->n && x->t[j].line == end && x->t[j].k != T_COMMENT) {
			if (i + 1 == b->nd)
				return slt_diff_lex_error(x, end,
					"a member shares the line of the struct's closing brace",
					err);
			end = 0;
		}
		b->d[i].line_end = end;
	}
	return 0;
}

/* ---- matching declarations to the layout's members ------------------- */

static bool seg_has_ident(const struct slt_dsrc *s, const struct slt_dtok *t,
			  const struct seg *g, const char *name, size_t len)
{
	for (size_t i = g->lo; i < g->hi; i++)
		if (t[i].k == T_IDENT && t[i].end - t[i].off == len &&
		    !memcmp(s->text + t[i].off, name, len))
			return true;
	return false;
}

static bool seg_has_punct(const struct slt_dsrc *s, const struct slt_dtok *t,
			  const struct seg *g, char c)
{
	for (size_t i = g->lo; i < g->hi; i++)
		if (t[i].k == T_PUNCT && s->text[t[i].off] == c)
			return true;
	return false;
}

/* Does declarator g declare orig->members[m]?  By its name as an
 * identifier; a group marker by its macro and group name; an anonymous
 * struct/union by the name of any named member inside it. */
static bool declares(const struct slt_dsrc *s, const struct slt_dtok *t,
		     const struct seg *g, const struct slt_struct *o, size_t m)
{
	const struct slt_member *mb = &o->members[m];
	const char *nm = mb->name;
	bool any = false;

	if (*nm) {
		size_t lb = strlen(GROUP_BEGIN "__"), le = strlen(GROUP_END "__");
		if (seg_has_ident(s, t, g, nm, strlen(nm)))
			return true;
		if (!strncmp(nm, GROUP_BEGIN "__", lb))
			nm += lb;
		else if (!strncmp(nm, GROUP_END "__", le))
			nm += le;
		else
			return false;
		return seg_has_ident(s, t, g, nm, strlen(nm)) &&
		       (seg_has_ident(s, t, g, GROUP_BEGIN, strlen(GROUP_BEGIN)) ||
			seg_has_ident(s, t, g, GROUP_END, strlen(GROUP_END)) ||
			seg_has_ident(s, t, g, GROUP_BEGIN "_aligned",
				      strlen(GROUP_BEGIN "_aligned")) ||
			seg_has_ident(s, t, g, GROUP_END "_aligned",
				      strlen(GROUP_END "_aligned")));
	}
	for (size_t k = m + 1; k < o->n_members && o->members[k].depth > mb->depth; k++) {
		const char *cn = o->members[k].name;
		if (!*cn)
			continue;
		any = true;
		if (seg_has_ident(s, t, g, cn, strlen(cn)))
			return true;
	}
	return !any && (seg_has_punct(s, t, g, '{') || seg_has_punct(s, t, g, '('));
}

static bool word_in(const struct slt_dsrc *s, const struct slt_dtok *t, const char *const *w)
{
	for (; *w; w++)
		if (slt_diff_tok_is(s, t, *w))
			return true;
	return false;
}

/* An unnamed bitfield (`unsigned :0`, `u32 :3`): no member in DWARF.
 * first: the declaration's first declarator, which holds the type. */
static bool unnamed_bitfield(const struct slt_dsrc *s, const struct slt_dtok *t,
			     const struct seg *g, bool first)
{
	static const char *const spec[] = { "void", "char", "short", "int", "long",
		"float", "double", "signed", "unsigned", "_Bool", "bool", NULL };
	static const char *const qual[] = { "const", "volatile", "restrict", NULL };
	static const char *const tag[] = { "struct", "union", "enum", NULL };
	bool type_seen = !first;
	unsigned parens = 0;

	if (!g->colon)
		return false;
	for (size_t i = g->lo; i < g->hi; i++) {
		char c = s->text[t[i].off];

		if (t[i].k == T_PUNCT && (c == '(' || c == '['))
			parens++;
		else if (t[i].k == T_PUNCT && (c == ')' || c == ']'))
			parens--;
		else if (t[i].k == T_PUNCT && c == ':' && !parens)
			return true;
		if (t[i].k != T_IDENT || parens || word_in(s, &t[i], qual))
			continue;
		if (word_in(s, &t[i], tag)) {
			i++;
			type_seen = true;
		} else if (word_in(s, &t[i], spec) || !type_seen) {
			type_seen = true;
		} else {
			return false;
		}
	}
	return false;
}

/* The declarator's text, whitespace collapsed, for messages. */
static const char *seg_text(struct slt_arena *a, const struct slt_dsrc *s,
			    const struct slt_dtok *t, const struct seg *g)
{
	char buf[80];
	size_t k = 0;

	for (size_t i = g->lo; i < g->hi && k + 1 < sizeof(buf); i++) {
		if (t[i].k == T_COMMENT || t[i].k == T_PP)
			continue;
		if (k && i > g->lo && t[i].off > t[i - 1].end && k + 1 < sizeof(buf))
			buf[k++] = ' ';
		for (size_t j = t[i].off; j < t[i].end && k + 1 < sizeof(buf); j++)
			buf[k++] = s->text[j];
	}
	buf[k] = 0;
	return slt_arena_strdup(a, buf);
}

static const char *member_desc(struct slt_arena *a, const struct slt_struct *o,
			       size_t m)
{
	const struct slt_member *mb = &o->members[m];

	if (*mb->name)
		return slt_arena_printf(a, "`%s`", mb->name);
	for (size_t k = m + 1; k < o->n_members && o->members[k].depth > mb->depth; k++)
		if (*o->members[k].name)
			return slt_arena_printf(a, "the anonymous %s holding `%s`",
						mb->flags & SLT_MEMBER_UNION ? "union" : "struct",
						o->members[k].name);
	return "an anonymous member";
}

/* ---- plain C base types: the source's against the DWARF's ------------- */

/* The source declaration's key: the type words of its first declarator
 * (before the name), the '*'s of declarator g.  false when not plain. */
static bool source_key(const struct slt_dsrc *s, const struct slt_dtok *t,
		       const struct seg *first, const struct seg *g,
		       const char *name, char *key, size_t cap)
{
	const char *w[24];
	size_t len[24], n = 0, nl = strlen(name);

	for (size_t i = first->lo; i < first->hi; i++) {
		if (t[i].k == T_COMMENT ||
		    (t[i].k == T_PUNCT && s->text[t[i].off] == '*'))
			continue;         /* '*'s: counted from g below */
		if (t[i].k != T_IDENT)
			return false;     /* '(' or a number before the name */
		if (t[i].end - t[i].off == nl && !memcmp(s->text + t[i].off, name, nl) &&
		    first == g)
			break;
		if (n == 24)
			return false;
		w[n] = s->text + t[i].off;
		len[n++] = t[i].end - t[i].off;
		/* the type ends before a declarator of another name: stop at
		 * the first identifier that is not a C keyword */
		if (!slt_diff_ctype_word(w[n - 1], len[n - 1])) {
			n--;
			if (!n)
				return false;
			break;
		}
	}
	for (size_t i = g->lo; i < g->hi && n < 24; i++)
		if (t[i].k == T_PUNCT && s->text[t[i].off] == '*') {
			w[n] = "*";
			len[n++] = 1;
		} else if (t[i].k == T_PUNCT && (s->text[t[i].off] == '(' ||
						 s->text[t[i].off] == ':')) {
			break;
		}
	return slt_diff_ctype_key(w, len, n, key, cap);
}

/* Assign the top-level members of o, in order, to the declarators;
 * chunk_of[m] = index of the declaration declaring member m. */
static int match(struct slt_arena *a, const struct slt_dsrc *s, const struct slt_dlex *x,
		 struct body *b, const struct slt_struct *o, size_t *decl_of,
		 struct slt_error *err)
{
	size_t m = 0;
	const char *hint = "use the source tree the binary was built from (--source-root)";

	while (m < o->n_members && o->members[m].parent != -1)
		m++;
	for (size_t i = 0; i < b->nd; i++) {
		for (size_t k = 0; k < b->d[i].nseg; k++) {
			const struct seg *g = &b->segs[b->d[i].seg0 + k];

			if (m < o->n_members && declares(s, x->t, g, o, m)) {
				char sk[48] = "", dk[48] = "";
				const struct slt_member *mb = &o->members[m];
				/* both plain C types: they must agree */
				if (*mb->name && mb->type &&
				    slt_diff_dwarf_key(mb->type, dk, sizeof(dk)) &&
				    source_key(s, x->t, &b->segs[b->d[i].seg0], g,
					       mb->name, sk, sizeof(sk)) &&
				    strcmp(sk, dk))
					return slt_error_set_line(err, SLT_EUSAGE, s->path,
						x->t[g->lo].line, hint,
						"`%s` declares `%s` with another type than the "
						"binary's `%s`: the source does not match the binary",
						seg_text(a, s, x->t, &b->segs[b->d[i].seg0]),
						mb->name, mb->type);
				decl_of[m] = i;
				b->d[i].n_members++;
				for (m++; m < o->n_members && o->members[m].parent != -1; m++)
					;
				continue;
			}
			if (unnamed_bitfield(s, x->t, g, k == 0))
				continue;
			if (m >= o->n_members)
				return slt_error_set_line(err, SLT_EUSAGE, s->path,
					x->t[g->lo].line, hint,
					"`%s` is not in the binary's layout of %s: the source does not match the binary",
					seg_text(a, s, x->t, g), o->name);
			return slt_error_set_line(err, SLT_EUSAGE, s->path,
				x->t[g->lo].line, hint,
				"`%s` does not declare %s, the next member of %s in the "
				"binary: the source does not match the binary",
				seg_text(a, s, x->t, g), member_desc(a, o, m), o->name);
		}
	}
	if (m < o->n_members)
		return slt_error_set_line(err, SLT_EUSAGE, s->path, b->close_line, hint,
			"%s of the binary's %s is not declared in the source: the source does not match the binary",
			member_desc(a, o, m), o->name);
	return 0;
}
/* ---- the new body ---------------------------------------------------- */


static int sep_error(struct build *bd, const struct chunk *c)
{
	const char *a = member_desc(bd->a, bd->o, c->tops[0]);
	const char *b = member_desc(bd->a, bd->o, c->tops[c->n_tops - 1]);
	return slt_error_set_line(bd->err, SLT_EUSAGE, bd->s->path, c->lo,
		"apply the C declaration by hand",
		"%s and %s are declared together here and the proposal separates or reorders them",
		a, b);
}

/* Source lines lo..hi, each non-empty one indented one level more (by the
 * body's first indentation): a member moved into an ISOLATE wrapper. */
static int add_indented(struct build *bd, struct slt_dlines *nl, unsigned lo,
			unsigned hi)
{
	for (unsigned k = lo; k <= hi; k++) {
		size_t n = slt_diff_line_len(bd->s, k);
		const char *t = bd->s->text + bd->s->ls[k - 1];
		char *l = n ? slt_arena_printf(bd->a, "%s%.*s", bd->indent, (int)n, t) :
			      slt_arena_strndup(bd->a, t, 0);
		if (!l || slt_diff_add_line(nl, l, strlen(l)))
			return SLT_ENOMEM;
	}
	return 0;
}

static int emit_body(struct build *bd, struct slt_dlines *nl, unsigned tail_lo,
		     unsigned tail_hi)
{
	const struct slt_struct *ps = bd->ps, *o = bd->o;
	bool *used = slt_arena_calloc(bd->a, o->n_members + 1, sizeof(*used));
	size_t cur = SIZE_MAX;
	long prev_orig = -1;
	bool first = true, top_first = true; /* top_first: the struct's */
	int rc;

	if (!used)
		return SLT_ENOMEM;
	long wrap = -1;       /* the ISOLATE wrapper being written */
	for (size_t i = 0; i <= ps->n_members; i++) {
		const struct slt_member *m = i < ps->n_members ? &ps->members[i] : NULL;
		long oi, q, bf;
		struct chunk *c;
		char *l;

		if (wrap >= 0 && (!m || m->depth == 0)) {
			/* the wrapper ends after its members' chunk */
			if (cur != SIZE_MAX && bd->ch[cur].done < bd->ch[cur].n_tops)
				return sep_error(bd, &bd->ch[cur]);
			l = bd->user ?
			    slt_arena_printf(bd->a, "%s} __attribute__((__aligned__("
					     SLT_ADV_LINE_CONST ")));%s", bd->indent, bd->eol) :
			    slt_arena_printf(bd->a, "%s} ____cacheline_aligned_in_smp;%s",
					     bd->indent, bd->eol);
			if (!l || slt_diff_add_line(nl, l, strlen(l)))
				return SLT_ENOMEM;
			wrap = -1;
			cur = SIZE_MAX;
			prev_orig = -1;
		}
		if (!m)
			break;
		if (m->parent == -1 && m->type == slt_adv_wrap_type) {
			if (cur != SIZE_MAX && bd->ch[cur].done < bd->ch[cur].n_tops)
				return sep_error(bd, &bd->ch[cur]);
			l = slt_arena_printf(bd->a, "%sstruct {%s", bd->indent, bd->eol);
			if (!l || slt_diff_add_line(nl, l, strlen(l)))
				return SLT_ENOMEM;
			wrap = (long)i;
			top_first = false; /* the wrapper aligns the struct */
			cur = SIZE_MAX;
			prev_orig = -1;
			first = true;   /* a struct starts a fresh storage unit */
			continue;
		}
		if (m->parent != -1 && (wrap < 0 || m->parent != (int32_t)wrap))
			continue;
		oi = slt_diff_orig_top(ps, i, o, used);
		if (oi >= 0 && !*m->name && m->n_children && !slt_diff_same_inside(ps, i, o, (size_t)oi))
			return slt_error_set_line(bd->err, SLT_EUSAGE, bd->s->path,
				bd->ch[bd->chunk_of[oi]].lo, "apply the C declaration by hand",
				"the proposal reorders members inside this anonymous struct: "
				"not written as a diff yet");
		if (oi < 0 && !slt_diff_is_pad(m))
			return slt_error_set(bd->err, SLT_EUSAGE, NULL, -1, NULL,
					     "the proposal's member `%s` is not in the original layout of %s",
					     m->name, o->name);
		if (oi < 0) {
			if (cur != SIZE_MAX && bd->ch[cur].done < bd->ch[cur].n_tops)
				return sep_error(bd, &bd->ch[cur]);
			l = bd->user ? slt_diff_user_pad_line(bd, i, used) :
			    slt_arena_printf(bd->a, "%sCACHELINE_PADDING(%s);%s",
					     bd->indent, m->name, bd->eol);
			if (!l || (rc = slt_diff_add_line(nl, l, strlen(l))))
				return SLT_ENOMEM;
			prev_orig = -1;
			first = false;
			continue;
		}
		used[oi] = true;
		c = &bd->ch[bd->chunk_of[oi]];
		if (cur == bd->chunk_of[oi]) {
			if (c->done >= c->n_tops || c->tops[c->done] != (size_t)oi)
				return sep_error(bd, c);
			c->done++;
			prev_orig = oi;
			continue;
		}
		if ((cur != SIZE_MAX && bd->ch[cur].done < bd->ch[cur].n_tops) ||
		    c->done || c->tops[0] != (size_t)oi)
			return sep_error(bd, cur != SIZE_MAX && bd->ch[cur].done <
					 bd->ch[cur].n_tops ? &bd->ch[cur] : c);
		cur = bd->chunk_of[oi];
		c->done = 1;
		/* a bitfield run not after its original predecessor starts on
		 * a fresh storage unit, as the proposal was placed */
		for (q = oi - 1; q >= 0 && o->members[q].parent != -1; q--)
			;
		bf = !first && (prev_orig != q || q < 0) ? slt_adv_run_bitfield(o, (size_t)oi) : -1;
		if (bf >= 0) {
			l = slt_arena_printf(bd->a, "%s%s :0;%s", bd->indent,
					     o->members[bf].decl_head, bd->eol);
			if (!l || slt_diff_add_line(nl, l, strlen(l)))
				return SLT_ENOMEM;
			if ((m->flags & SLT_MEMBER_BITFIELD) && m->bit_offset) {
				l = slt_arena_printf(bd->a, "%s%s :%u;%s", bd->indent,
						     m->decl_head, m->bit_offset, bd->eol);
				if (!l || slt_diff_add_line(nl, l, strlen(l)))
					return SLT_ENOMEM;
			}
		}
		if (top_first && wrap < 0 && (rc = slt_diff_user_first_line(bd, nl, i, oi)))
			return rc;
		top_first = false;
		if ((rc = wrap >= 0 ? add_indented(bd, nl, c->lo, c->hi) :
			  slt_diff_add_src_lines(nl, bd->s, c->lo, c->hi)))
			return rc;
		prev_orig = oi;
		first = false;
	}
	if (cur != SIZE_MAX && bd->ch[cur].done < bd->ch[cur].n_tops)
		return sep_error(bd, &bd->ch[cur]);
	for (size_t k = 0; k < o->n_members; k++)
		if (o->members[k].parent == -1 && !used[k])
			return slt_error_set(bd->err, SLT_EUSAGE, NULL, -1, NULL,
					     "%s of %s is missing from the proposal",
					     member_desc(bd->a, o, k), o->name);
	return tail_lo <= tail_hi ? slt_diff_add_src_lines(nl, bd->s, tail_lo, tail_hi) : 0;
}
/* ---- the entry point ------------------------------------------------- */

static int make_chunks(struct build *bd, struct body *b, size_t *decl_of,
		       unsigned *tail_lo)
{
	const struct slt_struct *o = bd->o;
	size_t *chunk_of_decl = slt_arena_calloc(bd->a, b->nd + 1, sizeof(size_t));
	unsigned lo = b->open_line + 1;
	size_t members = 0, d0 = 0;

	bd->ch = slt_arena_calloc(bd->a, b->nd + 1, sizeof(*bd->ch));
	bd->chunk_of = slt_arena_calloc(bd->a, o->n_members + 1, sizeof(size_t));
	if (!chunk_of_decl || !bd->ch || !bd->chunk_of)
		return SLT_ENOMEM;
	for (size_t i = 0; i < b->nd; i++) {
		members += b->d[i].n_members;
		chunk_of_decl[i] = bd->nch;
		if (!b->d[i].line_end || !members)
			continue;     /* shares a line, or declares nothing yet */
		bd->ch[bd->nch++] = (struct chunk){ .lo = lo, .hi = b->d[i].line_end,
						    .first_decl = d0, .n_tops = members };
		lo = b->d[i].line_end + 1;
		members = 0;
		d0 = i + 1;
	}
	*tail_lo = lo;
	for (size_t c = 0; c < bd->nch; c++) {
		bd->ch[c].tops = slt_arena_calloc(bd->a, bd->ch[c].n_tops, sizeof(size_t));
		if (!bd->ch[c].tops)
			return SLT_ENOMEM;
		bd->ch[c].n_tops = 0;
	}
	for (size_t k = 0; k < o->n_members; k++) {
		struct chunk *c;
		bd->chunk_of[k] = SIZE_MAX;
		if (o->members[k].parent != -1)
			continue;
		bd->chunk_of[k] = chunk_of_decl[decl_of[k]];
		c = &bd->ch[bd->chunk_of[k]];
		c->tops[c->n_tops++] = k;
	}
	return 0;
}

static int do_diff(struct slt_arena *a, const struct slt_proposal *p,
		   const struct slt_struct *orig, const char *root,
		   struct slt_dlex *x, struct body *b, struct slt_dlines *ol,
		   struct slt_dlines *nl, char **out, struct slt_error *err)
{
	struct slt_dsrc *s = slt_arena_calloc(a, 1, sizeof(*s));
	struct build bd = { .a = a, .o = orig, .ps = &p->layout, .err = err,
			    .user = p->user_space };
	size_t ob = 0, *decl_of, ilen = 0;
	unsigned tail_lo;
	const char *il;
	int rc;

	if (!s)
		return SLT_ENOMEM;
	if (!orig->decl_file || !*orig->decl_file || !orig->decl_line)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "read the layout from DWARF to get a source diff",
				     "no source file or line for %s (BTF has none)", orig->name);
	bd.s = s;
	x->s = s;    /* the caller frees s->text */
	if ((rc = slt_diff_find_source(a, root, orig->decl_file, s, err)) ||
	    (rc = slt_diff_read_source(a, s, err)))
		return rc;
	if (orig->decl_line > s->n)
		return slt_error_set_line(err, SLT_EUSAGE, s->path, orig->decl_line,
			"use the source tree the binary was built from (--source-root)",
			"the source has %zu lines: it does not match the binary", s->n);
	if ((rc = find_open(x, orig, &ob, err)) || (rc = scan_body(x, ob, b, err)))
		return rc;
	if ((rc = chunk_ends(x, b, err)))
		return rc;
	decl_of = slt_arena_calloc(a, b->nd + orig->n_members + 1, sizeof(size_t));
	if (!decl_of)
		return SLT_ENOMEM;
	if ((rc = match(a, s, x, b, orig, decl_of, err)) ||
	    (rc = make_chunks(&bd, b, decl_of, &tail_lo)))
		return rc;
	/* the file's indentation and line ending */
	il = b->nd ? s->text + s->ls[x->t[b->d[0].first].line - 1] : "\t";
	while (b->nd && (il[ilen] == ' ' || il[ilen] == '\t'))
		ilen++;
	bd.indent = b->nd ? slt_arena_strndup(a, il, ilen) : "\t";
	bd.eol = s->n > b->open_line && slt_diff_line_len(s, b->open_line) &&
		 s->text[s->ls[b->open_line - 1] + slt_diff_line_len(s, b->open_line) - 1] == '\r' ?
		 "\r" : "";
	if (!bd.indent)
		return SLT_ENOMEM;
	if ((rc = slt_diff_add_src_lines(ol, s, 1, (unsigned)s->n)) ||
	    (orig->decl_line > 1 && (rc = slt_diff_add_src_lines(nl, s, 1, orig->decl_line - 1))) ||
	    (rc = slt_diff_user_line_def(&bd, nl)) ||
	    (rc = slt_diff_add_src_lines(nl, s, orig->decl_line, b->open_line)) ||
	    (rc = emit_body(&bd, nl, tail_lo, b->close_line - 1)) ||
	    (rc = slt_diff_add_src_lines(nl, s, b->close_line, (unsigned)s->n)) ||
	    (rc = slt_diff_unified(ol, nl, s->last_nl, s->rel, out, err)))
		return rc;
	return 0;
}

int slt_advice_diff(const struct slt_proposal *p, const struct slt_struct *orig,
		    const char *source_root, char **out, struct slt_error *err)
{
	struct slt_arena *a;
	struct slt_dlex x = { 0 };
	struct body b = { 0 };
	struct slt_dlines ol = { 0 }, nl = { 0 };
	struct slt_dsrc *s;
	int rc;

	*out = NULL;
	slt_error_clear(err);
	if (!p || !orig || !source_root || !*source_root)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
				     "slt_advice_diff: no proposal, layout or source root");
	a = slt_arena_new();
	if (!a)
		return SLT_ENOMEM;
	rc = do_diff(a, p, orig, source_root, &x, &b, &ol, &nl, out, err);
	s = (struct slt_dsrc *)x.s;
	if (s)
		free(s->text);
	free(x.t);
	free(b.d);
	free(b.segs);
	free(ol.p);
	free(ol.len);
	free(nl.p);
	free(nl.len);
	slt_arena_free(a);
	if (rc == SLT_ENOMEM)
		slt_error_set(err, rc, NULL, -1, NULL, "out of memory");
	return rc;
}
