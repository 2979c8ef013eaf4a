/* SPDX-License-Identifier: MIT */
/*
 * The source side of the proposal diff (diff_int.h): finding the header
 * under a source root, reading it as lines, and a C lexer that knows
 * comments, string and character literals and preprocessor lines (with
 * backslash continuations), enough to find declarations without
 * preprocessing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "advice/diff_int.h"

#define MAX_SOURCE (256u << 20)            /* bytes of one header */


static bool regular_file(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* decl_file under root: as is, then without its leading components one by
 * one (kernel DWARF: "debian/build/.../include/linux/x.h", "./include/..").
 * Components up to the last ".." are always dropped. */
int slt_diff_find_source(struct slt_arena *a, const char *root,
		       const char *decl_file, struct slt_dsrc *s,
		       struct slt_error *err)
{
	const char *comp[256];
	size_t len[256], n = 0;
	const char *q = decl_file;
	char *tried = NULL;

	while (*q) {
		const char *e = strchr(q, '/');
		size_t l = e ? (size_t)(e - q) : strlen(q);

		if (l == 2 && !strncmp(q, "..", 2))
			n = 0;
		else if (l && !(l == 1 && *q == '.')) {
			if (n == 256)
				return slt_error_set(err, SLT_EUSAGE, decl_file, -1,
						     NULL, "source path too deep");
			comp[n] = q;
			len[n++] = l;
		}
		q += l + (e != NULL);
	}
	for (size_t k = 0; k < n; k++) {
		char *rel = slt_arena_strndup(a, comp[k], 0), *full;

		for (size_t j = k; j < n && rel; j++)
			rel = slt_arena_printf(a, "%s%s%.*s", rel, j > k ? "/" : "",
					       (int)len[j], comp[j]);
		full = rel ? slt_arena_printf(a, "%s/%s", root, rel) : NULL;
		if (!full)
			return SLT_ENOMEM;
		if (regular_file(full)) {
			s->path = full;
			s->rel = rel;
			return 0;
		}
		if (k == 0)
			tried = full;
	}
	return slt_error_set(err, SLT_EIO, decl_file, -1,
			     "point --source-root at the tree the binary was built from",
			     "source not found under %s (tried %s and its suffixes)",
			     root, tried ? tried : "nothing");
}

int slt_diff_read_source(struct slt_arena *a, struct slt_dsrc *s, struct slt_error *err)
{
	FILE *f = fopen(s->path, "rb");
	size_t cap = 0, k = 0;

	if (!f)
		return slt_error_set(err, SLT_EIO, s->path, -1, NULL,
				     "cannot open the source");
	s->text = NULL;
	s->size = 0;
	for (;;) {
		size_t got;

		if (s->size == cap) {
			char *t;
			cap = cap ? cap * 2 : 65536;
			if (cap > MAX_SOURCE + 1 || !(t = realloc(s->text, cap))) {
				fclose(f);
				if (cap > MAX_SOURCE + 1)
					return slt_error_set(err, SLT_EUSAGE, s->path,
							     -1, NULL, "source larger than %u bytes",
							     MAX_SOURCE);
				return SLT_ENOMEM;
			}
			s->text = t;
		}
		got = fread(s->text + s->size, 1, cap - s->size, f);
		s->size += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		return slt_error_set(err, SLT_EIO, s->path, -1, NULL,
				     "cannot read the source");
	}
	fclose(f);
	s->n = 0;
	for (size_t i = 0; i < s->size; i++)
		s->n += s->text[i] == '\n';
	s->last_nl = !s->size || s->text[s->size - 1] == '\n';
	if (!s->last_nl)
		s->n++;
	s->ls = slt_arena_calloc(a, s->n + 1, sizeof(*s->ls));
	if (!s->ls)
		return SLT_ENOMEM;
	for (size_t i = 0; i < s->size; i++)
		if (i == 0 || s->text[i - 1] == '\n')
			s->ls[k++] = i;
	s->ls[s->n] = s->size;
	return 0;
}

size_t slt_diff_line_len(const struct slt_dsrc *s, size_t l)
{
	size_t e = s->ls[l];
	if (e > s->ls[l - 1] && s->text[e - 1] == '\n')
		e--;
	return e - s->ls[l - 1];
}

/* ---- lexing ------------------------------------------------------------ */




static bool ident_char(char c, bool first)
{
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

bool slt_diff_tok_is(const struct slt_dsrc *s, const struct slt_dtok *t, const char *w)
{
	size_t l = strlen(w);
	return t->end - t->off == l && !memcmp(s->text + t->off, w, l);
}

int slt_diff_lex_error(struct slt_dlex *x, unsigned line, const char *what,
		     struct slt_error *err)
{
	return slt_error_set_line(err, SLT_EUSAGE, x->s->path, line,
				  "apply the C declaration by hand", "%s", what);
}

int slt_diff_lex_next(struct slt_dlex *x, struct slt_error *err)
{
	const char *p = x->s->text;
	size_t n = x->s->size;
	struct slt_dtok t = { 0 };

	for (;;) {
		if (x->i >= n)
			return 1;
		if (p[x->i] == '\n') {
			x->line++;
			x->bol = true;
			x->i++;
		} else if (p[x->i] == '\\' && x->i + 1 < n && p[x->i + 1] == '\n') {
			x->line++;
			x->i += 2;
		} else if (strchr(" \t\r\f\v", p[x->i])) {
			x->i++;
		} else {
			break;
		}
	}
	t.off = x->i;
	t.line = x->line;
	if (p[x->i] == '/' && x->i + 1 < n && p[x->i + 1] == '/') {
		t.k = T_COMMENT;
		while (x->i < n && p[x->i] != '\n')
			x->i++;
	} else if (p[x->i] == '/' && x->i + 1 < n && p[x->i + 1] == '*') {
		t.k = T_COMMENT;
		for (x->i += 2;; x->i++) {
			if (x->i + 1 >= n)
				return slt_diff_lex_error(x, t.line, "unterminated comment", err);
			if (p[x->i] == '\n')
				x->line++;
			if (p[x->i] == '*' && p[x->i + 1] == '/')
				break;
		}
		x->i += 2;
	} else if (p[x->i] == '#' && x->bol) {
		size_t w;

		t.k = T_PP;
		for (x->i++; x->i < n && (p[x->i] == ' ' || p[x->i] == '\t'); x->i++)
			;
		for (w = x->i; w < n && ident_char(p[w], false); w++)
			;
		t.cond = (w - x->i == 2 && !memcmp(p + x->i, "if", 2)) ||
			 (w - x->i >= 4 && !memcmp(p + x->i, "elif", 4)) ||
			 (w - x->i >= 5 && (!memcmp(p + x->i, "ifdef", 5) ||
					    !memcmp(p + x->i, "ifndef", 6))) ||
			 (w - x->i == 4 && !memcmp(p + x->i, "else", 4)) ||
			 (w - x->i == 5 && !memcmp(p + x->i, "endif", 5));
		for (; x->i < n && p[x->i] != '\n'; x->i++) {
			if (p[x->i] == '\\' && x->i + 1 < n && p[x->i + 1] == '\n') {
				x->i++;
				x->line++;
			} else if (p[x->i] == '/' && x->i + 1 < n && p[x->i + 1] == '*') {
				for (x->i += 2; x->i + 1 < n &&
				     !(p[x->i] == '*' && p[x->i + 1] == '/'); x->i++)
					x->line += p[x->i] == '\n';
				x->i++;
			}
		}
		if (x->i > n)
			x->i = n;
	} else if (ident_char(p[x->i], true)) {
		t.k = T_IDENT;
		while (x->i < n && ident_char(p[x->i], false))
			x->i++;
	} else if (p[x->i] >= '0' && p[x->i] <= '9') {
		t.k = T_OTHER;
		while (x->i < n && (ident_char(p[x->i], false) || p[x->i] == '.' ||
				    ((p[x->i] == '+' || p[x->i] == '-') &&
				     strchr("eEpP", p[x->i - 1]))))
			x->i++;
	} else if (p[x->i] == '"' || p[x->i] == '\'') {
		char q = p[x->i++];

		t.k = T_OTHER;
		for (;; x->i++) {
			if (x->i >= n || p[x->i] == '\n')
				return slt_diff_lex_error(x, t.line, "unterminated literal", err);
			if (p[x->i] == '\\')
				x->i++;
			else if (p[x->i] == q)
				break;
		}
		x->i++;
	} else {
		t.k = T_PUNCT;
		x->i++;
	}
	if (t.k != T_COMMENT)
		x->bol = false;
	t.end = x->i;
	t.eline = x->line;
	if (x->n == x->cap) {
		struct slt_dtok *nt;
		x->cap = x->cap ? x->cap * 2 : 1024;
		nt = realloc(x->t, x->cap * sizeof(*nt));
		if (!nt)
			return SLT_ENOMEM;
		x->t = nt;
	}
	x->t[x->n++] = t;
	return 0;
}
