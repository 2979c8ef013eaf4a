/* SPDX-License-Identifier: MIT */
/*
 * A unified diff of two line arrays (diff_int.h), as GNU diff -u prints
 * it: an LCS of the lines between the common head and tail, changes
 * grouped into hunks with 3 lines of context, "@@ -a,b +c,d @@" headers
 * (",1" left out; an empty range names the line before it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/diff_int.h"

#define CONTEXT 3u                         /* lines, as diff -u */
#define MAX_LCS_CELLS (16u << 20)          /* middle lines old x new */

int slt_diff_add_line(struct slt_dlines *l, const char *p, size_t len)
{
	if (l->n == l->cap) {
		size_t c = l->cap ? l->cap * 2 : 256;
		const char **np = realloc(l->p, c * sizeof(*np));
		size_t *nl;
		if (!np)
			return SLT_ENOMEM;
		l->p = np;
		nl = realloc(l->len, c * sizeof(*nl));
		if (!nl)
			return SLT_ENOMEM;
		l->len = nl;
		l->cap = c;
	}
	l->p[l->n] = p;
	l->len[l->n++] = len;
	return 0;
}

int slt_diff_add_src_lines(struct slt_dlines *l, const struct slt_dsrc *s, unsigned lo,
			 unsigned hi)
{
	int rc = 0;
	for (unsigned k = lo; k <= hi && !rc; k++)
		rc = slt_diff_add_line(l, s->text + s->ls[k - 1], slt_diff_line_len(s, k));
	return rc;
}

static bool same(const struct slt_dlines *a, size_t i, const struct slt_dlines *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->p[i], b->p[j], a->len[i]);
}

/* ops[]: ' ', '-', '+' walking old and new from the start; an LCS of the
 * lines between the common head and tail. */
static int edit_script(const struct slt_dlines *ol, const struct slt_dlines *nl,
		       char **ops_out, size_t *n_ops, struct slt_error *err)
{
	size_t h = 0, t = 0, n, m, k = 0;
	uint16_t *L = NULL;
	char *ops = malloc(ol->n + nl->n + 1);

	if (!ops)
		return SLT_ENOMEM;
	while (h < ol->n && h < nl->n && same(ol, h, nl, h))
		h++;
	while (t < ol->n - h && t < nl->n - h && same(ol, ol->n - 1 - t, nl, nl->n - 1 - t))
		t++;
	n = ol->n - h - t;
	m = nl->n - h - t;
	if (n >= UINT16_MAX || m >= UINT16_MAX || (n + 1) * (m + 1) > MAX_LCS_CELLS) {
		free(ops);
		return slt_error_set(err, SLT_EUNSUPPORTED, NULL, -1,
				     "apply the C declaration by hand",
				     "struct body too large to diff (%zu x %zu lines)", n, m);
	}
	L = calloc((n + 1) * (m + 1), sizeof(*L));
	if (!L) {
		free(ops);
		return SLT_ENOMEM;
	}
#define LCS(i, j) L[(size_t)(i) * (m + 1) + (j)]
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;)
			LCS(i, j) = same(ol, h + i, nl, h + j) ? LCS(i + 1, j + 1) + 1 :
				    LCS(i + 1, j) >= LCS(i, j + 1) ? LCS(i + 1, j) : LCS(i, j + 1);
	memset(ops, ' ', h);
	k = h;
	for (size_t i = 0, j = 0; i < n || j < m;) {
		if (i < n && j < m && same(ol, h + i, nl, h + j) &&
		    LCS(i, j) == LCS(i + 1, j + 1) + 1) {
			ops[k++] = ' ';
			i++, j++;
		} else if (i < n && (j == m || LCS(i + 1, j) >= LCS(i, j + 1))) {
			ops[k++] = '-';
			i++;
		} else {
			ops[k++] = '+';
			j++;
		}
	}
#undef LCS
	memset(ops + k, ' ', t);
	k += t;
	free(L);
	*ops_out = ops;
	*n_ops = k;
	return 0;
}

static void range(FILE *f, char sign, size_t start, size_t count)
{
	/* diff -u: 1-based first line; an empty range names the line
	 * before it; ",1" is left out */
	if (count == 1)
		fprintf(f, "%c%zu", sign, start + 1);
	else
		fprintf(f, "%c%zu,%zu", sign, count ? start + 1 : start, count);
}

static void write_hunks(FILE *f, const char *ops, size_t n_ops,
			const struct slt_dlines *ol, const struct slt_dlines *nl,
			bool last_nl)
{
	size_t i = 0, oi = 0, ni = 0;   /* op index and line positions */

	while (i < n_ops) {
		size_t c0 = i, e, s, so, sn, co = 0, cn = 0, k, o2, n2;

		while (c0 < n_ops && ops[c0] == ' ')
			c0++;
		if (c0 == n_ops)
			break;
		/* the hunk's last change: merge while the gap <= 2 * CONTEXT */
		e = c0;
		for (k = c0; k < n_ops; k++) {
			if (ops[k] != ' ') {
				e = k;
				continue;
			}
			if (k - e > 2 * CONTEXT)
				break;
		}
		s = c0 > i + CONTEXT ? c0 - CONTEXT : i;
		/* line positions at s */
		for (; i < s; i++) {
			oi += ops[i] != '+';
			ni += ops[i] != '-';
		}
		so = oi;
		sn = ni;
		k = e + 1 + CONTEXT < n_ops ? e + 1 + CONTEXT : n_ops;
		for (size_t j = s; j < k; j++) {
			co += ops[j] != '+';
			cn += ops[j] != '-';
		}
		fputs("@@ ", f);
		range(f, '-', so, co);
		fputc(' ', f);
		range(f, '+', sn, cn);
		fputs(" @@\n", f);
		o2 = oi;
		n2 = ni;
		for (size_t j = s; j < k; j++) {
			const char *p = ops[j] == '+' ? nl->p[n2] : ol->p[o2];
			size_t len = ops[j] == '+' ? nl->len[n2] : ol->len[o2];
			bool last = ops[j] == '+' ? n2 + 1 == nl->n : o2 + 1 == ol->n;

			fputc(ops[j], f);
			fwrite(p, 1, len, f);
			fputc('\n', f);
			if (last && !last_nl)
				fputs("\\ No newline at end of file\n", f);
			o2 += ops[j] != '+';
			n2 += ops[j] != '-';
		}
		i = k;
		oi = o2;
		ni = n2;
	}
}

int slt_diff_unified(const struct slt_dlines *ol, const struct slt_dlines *nl,
		     bool last_nl, const char *rel, char **out,
		     struct slt_error *err)
{
	char *ops = NULL, *buf = NULL;
	size_t n_ops = 0, blen = 0;
	FILE *f;
	int rc;

	*out = NULL;
	if ((rc = edit_script(ol, nl, &ops, &n_ops, err)))
		return rc;
	f = open_memstream(&buf, &blen);
	if (!f) {
		free(ops);
		return SLT_ENOMEM;
	}
	if (memchr(ops, '-', n_ops) || memchr(ops, '+', n_ops)) {
		fprintf(f, "--- a/%s\n+++ b/%s\n", rel, rel);
		write_hunks(f, ops, n_ops, ol, nl, last_nl);
	}
	free(ops);
	rc = ferror(f) ? SLT_ENOMEM : 0;
	if (fclose(f) || !buf)
		rc = SLT_ENOMEM;
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	return 0;
}
