/* SPDX-License-Identifier: MIT */
/*
 * Internals of the source diff (src/advice/diff.c, diff_src.c, udiff.c):
 * the header file as lines, a lexer that knows comments, literals and
 * preprocessor lines, and a unified diff of two line arrays.  Internal to
 * src/advice.  Lines are 1-based, offsets in bytes.
 */
#ifndef SLT_ADVICE_DIFF_INT_H
#define SLT_ADVICE_DIFF_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/arena.h"
#include "structlint/error.h"
#include "structlint/layout.h"

/* A source file read whole; text is malloc()ed (the caller frees it), the
 * rest is allocated from the arena given to slt_diff_read_source(). */
struct slt_dsrc {
	char *text;
	size_t size;
	size_t *ls;        /* start of each line; ls[n] = size */
	size_t n;          /* lines */
	bool last_nl;      /* the last line ends with '\n' */
	const char *path;  /* full path (arena) */
	const char *rel;   /* relative to the source root (arena) */
};

/*
 * The file decl_file names under root: decl_file as is, then without its
 * leading components one by one (kernel DWARF names
 * "debian/build/.../include/linux/x.h" or "./include/..."); components up
 * to the last ".." are always dropped.  Fills s->path and s->rel.  Returns
 * 0, SLT_EIO (not found; err lists what was tried), SLT_EUSAGE, SLT_ENOMEM.
 */
int slt_diff_find_source(struct slt_arena *a, const char *root,
			 const char *decl_file, struct slt_dsrc *s,
			 struct slt_error *err);

/* Read s->path whole (at most 256 MiB) and index its lines.  Returns 0,
 * SLT_EIO, SLT_EUSAGE (too large) or SLT_ENOMEM. */
int slt_diff_read_source(struct slt_arena *a, struct slt_dsrc *s,
			 struct slt_error *err);

/* Bytes of 1-based line l without its '\n'. */
size_t slt_diff_line_len(const struct slt_dsrc *s, size_t l);

/* Token kinds: identifiers, single punctuation characters, numbers and
 * literals, comments, whole preprocessor lines (with continuations). */
enum slt_dtk { T_IDENT, T_PUNCT, T_OTHER, T_COMMENT, T_PP };

struct slt_dtok {
	enum slt_dtk k;
	size_t off, end;       /* bytes */
	unsigned line, eline;  /* 1-based first and last line */
	bool cond;             /* T_PP: a conditional (#if ... #endif) */
};

/* The lexer: set s, i (byte to start at), line (its line) and bol (at the
 * start of a line); tokens are appended to t[0..n) (malloc()ed, the caller
 * frees t). */
struct slt_dlex {
	const struct slt_dsrc *s;
	size_t i;
	unsigned line;
	bool bol;              /* only whitespace or comments so far */
	struct slt_dtok *t;
	size_t n, cap;
};

/* Lex the next token into x->t[x->n].  Returns 0, 1 at the end of the
 * file, SLT_EUSAGE (unterminated comment or literal; err has the line)
 * or SLT_ENOMEM. */
int slt_diff_lex_next(struct slt_dlex *x, struct slt_error *err);

/* Is token t the word w? */
bool slt_diff_tok_is(const struct slt_dsrc *s, const struct slt_dtok *t,
		     const char *w);

/* SLT_EUSAGE at x->s->path:line, what as the message, "apply the C
 * declaration by hand" as the hint. */
int slt_diff_lex_error(struct slt_dlex *x, unsigned line, const char *what,
		       struct slt_error *err);

/* Lines to diff: pointers into a source or the arena, without '\n';
 * p and len are malloc()ed (the caller frees both). */
struct slt_dlines {
	const char **p;       /* line bytes (no '\n') */
	size_t *len;
	size_t n, cap;
};

int slt_diff_add_line(struct slt_dlines *l, const char *p, size_t len);
/* Lines lo..hi (1-based, inclusive) of s. */
int slt_diff_add_src_lines(struct slt_dlines *l, const struct slt_dsrc *s,
			   unsigned lo, unsigned hi);

/*
 * The unified diff of ol -> nl as diff -u writes it (3 lines of context,
 * hunks whose context would touch merged, "\\ No newline at end of
 * file" after the last line when !last_nl), headed `--- a/REL` and
 * `+++ b/REL`.  *out: malloc()ed, "" when the two are equal.  Returns 0,
 * SLT_EUNSUPPORTED (more than 16 Mi line pairs differ in the middle) or
 * SLT_ENOMEM.
 */
int slt_diff_unified(const struct slt_dlines *ol, const struct slt_dlines *nl,
		     bool last_nl, const char *rel, char **out,
		     struct slt_error *err);

/* diff_match.c: m is a padding member the advisor inserted. */
bool slt_diff_is_pad(const struct slt_member *m);
/* diff_match.c: the top-level member of o (not yet used) that proposal
 * ps's member i was built from, or -1 (an inserted member, or none). */
long slt_diff_orig_top(const struct slt_struct *ps, size_t i,
		       const struct slt_struct *o, const bool *used);
/* diff_match.c: whether proposal member i (anonymous, with members) holds
 * the same members at the same relative offsets, and has the same size,
 * as o's member k: false when the advisor reordered inside it. */
bool slt_diff_same_inside(const struct slt_struct *ps, size_t i,
			  const struct slt_struct *o, size_t k);

/* Plain C base types (diff_ctype.c).  A canonical key: "u" for unsigned,
 * "s" for an explicit signed char, then the base (char, short, int, long,
 * llong, float, double, ldouble, _Bool, void) and one '*' per pointer
 * level.  slt_diff_ctype_key(): of the words (and '*'s) words[0..n), false
 * when one is not a C type keyword (a typedef, macro or tag: left alone);
 * slt_diff_dwarf_key(): of a DWARF type name in pahole's spelling ("long
 * unsigned int", "const char *", "long int[3][2]"), false for anything
 * else; slt_diff_ctype_word(): w[0..len) is one of those keywords. */
bool slt_diff_ctype_word(const char *w, size_t len);
bool slt_diff_ctype_key(const char *const *words, const size_t *lens, size_t n,
			char *key, size_t cap);
bool slt_diff_dwarf_key(const char *type, char *key, size_t cap);

/* The new body (diff.c): a chunk is the lines of one or more
 * declarations that move together. */
struct chunk {
	unsigned lo, hi;      /* lines, inclusive */
	size_t first_decl;
	size_t *tops;         /* orig member indices, in order */
	size_t n_tops, done;
};

struct build {
	struct slt_arena *a;
	const struct slt_dsrc *s;
	const struct slt_struct *o, *ps;
	struct chunk *ch;
	size_t nch;
	size_t *chunk_of;     /* per orig member, SIZE_MAX when not top */
	const char *indent;   /* the first member's leading whitespace */
	const char *eol;      /* "" or "\r" */
	bool user;            /* user-space forms (slt_proposal.user_space) */
	struct slt_error *err;
};

/* User-space forms in the diff (diff_user.c).  The line for proposal
 * padding member i (from bd->a), or NULL: `_Alignas(LINE)` on a line of
 * its own before the next member's declaration where it declares only
 * that member and is no bitfield; else a char array of the exact bytes
 * up to the line (a comment when none), the struct's alignment then
 * written on its first member (slt_diff_user_first_line()). */
char *slt_diff_user_pad_line(struct build *bd, size_t i, const bool *used);
/* The line size's definition at file scope before the struct, when the
 * proposal inserts padding or a wrapper.  0 or SLT_ENOMEM. */
int slt_diff_user_line_def(struct build *bd, struct slt_dlines *nl);
/* Before the first member's declaration (orig top member oi, proposal
 * member i): `_Alignas(LINE)` on a line of its own when a padding member
 * is written as a char array (the struct keeps the line alignment the
 * zero-size member gave it).  0, SLT_ENOMEM, or SLT_EUSAGE (bd->err set)
 * when that declaration cannot take it. */
int slt_diff_user_first_line(struct build *bd, struct slt_dlines *nl, size_t i, long oi);

#endif
