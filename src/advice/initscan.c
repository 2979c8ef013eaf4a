/* SPDX-License-Identifier: MIT */
/*
 * Positional initializers of a struct under a source root (advice.h,
 * slt_advice_positional_inits()): every .c and .h file under the root
 * (hidden entries and symbolic links skipped) that names the struct is
 * lexed with the proposal diff's lexer (diff_src.c: comments, literals
 * and preprocessor lines skipped), and `struct NAME ident[...] = {`,
 * `(struct NAME){` whose braces do not start with a designator
 * (`.member =`; for arrays, each element's braces) are collected.  `{}`
 * and `{ 0 }` initialize every member to zero whatever the order and are
 * not counted.  Typedef names of the struct (`typedef struct NAME A;`,
 * `typedef struct NAME { ... } A;` in any scanned file: a first walk
 * collects them) are types like `struct NAME`: `A x = {`, `(A){`.  A
 * typedef of a typedef, and macros that expand to the struct, are not
 * seen (the man page says so).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/grow.h"
#include "advice/diff_int.h"
#include "common/arena.h"
#include "structlint/advice.h"

#define MAX_DEPTH 64

struct scan {
	const char *root, *name;
	struct slt_posinit *v;
	size_t n, cap;
	char **alias;          /* typedef names of struct name */
	size_t n_alias, cap_alias;
	bool collect;          /* first walk: typedef names only */
};

static bool punct(const struct slt_dsrc *s, const struct slt_dtok *t, char c)
{
	return t->k == T_PUNCT && s->text[t->off] == c;
}

/* The token after the close that matches the open bracket t[i], or n. */
static size_t past(const struct slt_dsrc *s, const struct slt_dtok *t, size_t n, size_t i,
		   char open, char close)
{
	for (size_t d = 0; i < n; i++) {
		d += punct(s, &t[i], open);
		if (punct(s, &t[i], close) && --d == 0)
			return i + 1;
	}
	return n;
}

/* Is the initializer whose '{' is t[b] positional?  array: its elements
 * are the struct's (each judged by its own braces). */
static bool positional(const struct slt_dsrc *s, const struct slt_dtok *t, size_t n, size_t b,
		       bool array)
{
	size_t e = b + 1;
	if (e >= n || punct(s, &t[e], '}') || punct(s, &t[e], '.'))
		return false;
	if (!array)  /* { 0 }: all zero in any order */
		return !(e + 1 < n && slt_diff_tok_is(s, &t[e], "0") && punct(s, &t[e + 1], '}'));
	if (punct(s, &t[e], '[')) {  /* [i] = element */
		e = past(s, t, n, e, '[', ']');
		if (e < n && punct(s, &t[e], '='))
			e++;
	}
	if (e < n && punct(s, &t[e], '{'))
		return positional(s, t, n, e, false);
	return !(e + 1 < n && slt_diff_tok_is(s, &t[e], "0") && punct(s, &t[e + 1], '}'));
}

static int add(struct scan *sc, const char *rel, unsigned line)
{
	if (slt_grow((void **)&sc->v, &sc->cap, sc->n + 1, sizeof(*sc->v), 16))
		return SLT_ENOMEM;
	if (!(sc->v[sc->n].file = strdup(rel)))
		return SLT_ENOMEM;
	sc->v[sc->n++].line = line;
	return 0;
}

/* `typedef struct NAME [{ ... }] A, B;` at t[i]: A and B (plain
 * identifiers; pointer and array declarators are other types) kept. */
static int typedefs(struct scan *sc, const struct slt_dsrc *s, const struct slt_dtok *t,
		    size_t n, size_t i)
{
	size_t j = i + 3;
	if (j < n && punct(s, &t[j], '{'))
		j = past(s, t, n, j, '{', '}');
	for (; j + 1 < n && t[j].k == T_IDENT; j += 2) {
		if (!punct(s, &t[j + 1], ',') && !punct(s, &t[j + 1], ';'))
			break;
		if (slt_grow((void **)&sc->alias, &sc->cap_alias, sc->n_alias + 1,
			     sizeof(*sc->alias), 8))
			return SLT_ENOMEM;
		if (!(sc->alias[sc->n_alias] = strndup(s->text + t[j].off, t[j].end - t[j].off)))
			return SLT_ENOMEM;
		sc->n_alias++;
		if (punct(s, &t[j + 1], ';'))
			break;
	}
	return 0;
}

/* Tokens naming the struct's type at t[i]: 2 (`struct NAME`), 1 (a
 * typedef name), 0. */
static size_t type_at(const struct scan *sc, const struct slt_dsrc *s, const struct slt_dtok *t,
		      size_t n, size_t i)
{
	if (slt_diff_tok_is(s, &t[i], "struct"))
		return i + 1 < n && slt_diff_tok_is(s, &t[i + 1], sc->name) ? 2 : 0;
	for (size_t k = 0; t[i].k == T_IDENT && k < sc->n_alias; k++)
		if (slt_diff_tok_is(s, &t[i], sc->alias[k]))
			return 1;
	return 0;
}

static int scan_tokens(struct scan *sc, const struct slt_dsrc *s, const struct slt_dtok *t,
		       size_t n, const char *rel)
{
	for (size_t i = 0; i + 2 < n; i++) {
		if (sc->collect) {
			int rc = 0;
			if (i + 3 < n && slt_diff_tok_is(s, &t[i], "typedef") &&
			    slt_diff_tok_is(s, &t[i + 1], "struct") &&
			    slt_diff_tok_is(s, &t[i + 2], sc->name))
				rc = typedefs(sc, s, t, n, i);
			if (rc)
				return rc;
			continue;
		}
		size_t w = type_at(sc, s, t, n, i), b = n;
		if (!w || i + w + 1 >= n)
			continue;
		bool array = false;
		if (i && punct(s, &t[i - 1], '(') && punct(s, &t[i + w], ')')) {
			b = i + w + 1;   /* (struct NAME){ */
		} else if (t[i + w].k == T_IDENT) {
			size_t e = i + w + 1;
			while (e < n && punct(s, &t[e], '[')) {
				array = true;
				e = past(s, t, n, e, '[', ']');
			}
			if (e + 1 < n && punct(s, &t[e], '='))
				b = e + 1;
		}
		if (b < n && punct(s, &t[b], '{') && positional(s, t, n, b, array)) {
			int rc = add(sc, rel, t[i].line);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Does the text name the struct (or, after the first walk, one of its
 * typedef names)? */
static bool names_it(const struct scan *sc, const char *text, size_t size)
{
	if (text && memmem(text, size, sc->name, strlen(sc->name)))
		return true;
	for (size_t k = 0; text && !sc->collect && k < sc->n_alias; k++)
		if (memmem(text, size, sc->alias[k], strlen(sc->alias[k])))
			return true;
	return false;
}

static bool c_file(const char *name)
{
	size_t l = strlen(name);
	return l > 2 && name[l - 2] == '.' && (name[l - 1] == 'c' || name[l - 1] == 'h');
}

/* One file: read, skipped unless it names the struct (or a typedef
 * name of it), lexed (a file the
 * lexer cannot read through is skipped), scanned. */
static int scan_file(struct scan *sc, const char *path, const char *rel)
{
	struct slt_arena *a = slt_arena_new();
	if (!a)
		return SLT_ENOMEM;
	struct slt_dsrc s = { .path = path, .rel = rel };
	struct slt_error e = { 0 };
	int rc = slt_diff_read_source(a, &s, &e);
	if (rc == SLT_ENOMEM) {
		free(s.text);
		slt_arena_free(a);
		return rc;
	}
	rc = 0;
	if (names_it(sc, s.text, s.size)) {
		struct slt_dlex x = { .s = &s, .line = 1, .bol = true };
		int l;
		while (!(l = slt_diff_lex_next(&x, &e)))
			if (x.t[x.n - 1].k == T_COMMENT || x.t[x.n - 1].k == T_PP)
				x.n--;
		if (l == SLT_ENOMEM)
			rc = l;
		else if (l == 1)
			rc = scan_tokens(sc, &s, x.t, x.n, rel);
		free(x.t);
	}
	free(s.text);
	slt_arena_free(a);
	return rc;
}

static int walk(struct scan *sc, char *path, size_t len, size_t cap, unsigned depth)
{
	DIR *d = opendir(path);
	if (!d || depth > MAX_DEPTH) {
		if (d)
			closedir(d);
		return 0;
	}
	int rc = 0;
	size_t rl = strlen(sc->root) + 1;
	for (struct dirent *de; !rc && (de = readdir(d));) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' || len + 1 + l + 1 > cap)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, de->d_name, l + 1);
		struct stat st;
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = walk(sc, path, len + 1 + l, cap, depth + 1);
		else if (S_ISREG(st.st_mode) && c_file(de->d_name))
			rc = scan_file(sc, path, path + rl);
		path[len] = 0;
	}
	closedir(d);
	return rc;
}

static int cmp_posinit(const void *pa, const void *pb)
{
	const struct slt_posinit *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

int slt_advice_positional_inits(const char *root, const char *name, struct slt_posinit **out,
				size_t *n, struct slt_error *err)
{
	*out = NULL;
	*n = 0;
	char path[4096];
	size_t len = strlen(root);
	while (len > 1 && root[len - 1] == '/')
		len--;
	if (!name || !*name || len + 2 > sizeof(path))
		return slt_error_set(err, SLT_EUSAGE, root, -1, NULL, "source root path too long");
	memcpy(path, root, len);
	path[len] = 0;
	struct scan sc = { .root = path, .name = name, .collect = true };
	char walkpath[sizeof(path)];
	memcpy(walkpath, path, len + 1);
	int rc = walk(&sc, walkpath, len, sizeof(walkpath), 0);
	sc.collect = false;
	if (!rc)
		rc = walk(&sc, walkpath, len, sizeof(walkpath), 0);
	for (size_t k = 0; k < sc.n_alias; k++)
		free(sc.alias[k]);
	free(sc.alias);
	if (rc) {
		slt_advice_positional_free(sc.v, sc.n);
		return slt_error_set(err, SLT_ENOMEM, root, -1, NULL, "out of memory");
	}
	if (sc.n)
		qsort(sc.v, sc.n, sizeof(*sc.v), cmp_posinit);
	*out = sc.v;
	*n = sc.n;
	return 0;
}

void slt_advice_positional_free(struct slt_posinit *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].file);
	free(p);
}
