/* SPDX-License-Identifier: MIT */
/*
 * Rows and wrapped words of the terminal map (map_row.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/map_row.h"

void r_raw(struct row *r, const char *s, size_t n)
{
	if (r->oom)
		return;
	if (r->n + n + 1 > r->cap) {
		size_t cap = (r->n + n + 1) * 2;
		char *p = realloc(r->p, cap);
		if (!p) {
			r->oom = true;
			return;
		}
		r->p = p;
		r->cap = cap;
	}
	memcpy(r->p + r->n, s, n);
	r->n += n;
	r->p[r->n] = 0;
}

void r_esc(struct row *r, bool color, const char *e)
{
	if (color)
		r_raw(r, e, strlen(e));
}

void r_text(struct row *r, const char *s, size_t n)
{
	r_raw(r, s, n);
	r->vis += n;
}

void r_printf(struct row *r, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		r_text(r, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void r_pad(struct row *r, size_t to)
{
	while (r->vis < to && !r->oom)
		r_text(r, " ", 1);
}

void r_clear(struct row *r)
{
	r->n = r->vis = 0;
	if (r->p)
		r->p[0] = 0;
}

void r_cut(struct row *r, size_t max)
{
	if (!max || r->vis <= max || r->oom)
		return;
	size_t i = 0, v = 0;
	bool esc = false;
	while (i < r->n) {
		if (r->p[i] == '\033') {
			esc = true;
			while (i < r->n && r->p[i] != 'm')
				i++;
			i++;
			continue;
		}
		if (v == max - 1)
			break;
		v++;
		i++;
	}
	r->n = i;
	r->vis = v;
	r->p[r->n] = 0;
	r_text(r, "~", 1);
	if (esc)
		r_raw(r, "\033[0m", 4);
}

void w_start(struct wrap *w, FILE *out, size_t width, size_t indent)
{
	w->out = out;
	w->width = width;
	w->indent = indent < width / 2 ? indent : 0;
	w->col = 0;
	w->fresh = true;
}

static void w_newline(struct wrap *w)
{
	fputc('\n', w->out);
	fprintf(w->out, "%*s", (int)w->indent, "");
	w->col = w->indent;
	w->fresh = true;
}

void w_place(struct wrap *w, size_t len, const char *gap)
{
	size_t g = strlen(gap);
	if (w->fresh)
		return;
	if (w->col + g + len > w->width) {
		w_newline(w);
	} else {
		fputs(gap, w->out);
		w->col += g;
	}
}

void w_word(struct wrap *w, const char *pre, const char *word, size_t len,
	    const char *post, const char *gap)
{
	w_place(w, len, gap);
	if (pre)
		fputs(pre, w->out);
	while (len) {
		size_t room = w->width > w->col ? w->width - w->col : 0;
		if (!room) {
			w_newline(w);
			continue;
		}
		size_t n = len < room ? len : room;
		/* a broken word's last piece is more than its comma */
		if (n + 1 == len && n > 1)
			n--;
		fwrite(word, 1, n, w->out);
		w->col += n;
		w->fresh = false;
		word += n;
		len -= n;
		if (len)
			w_newline(w);   /* the rest on the next line */
	}
	if (post)
		fputs(post, w->out);
}

void w_printf(struct wrap *w, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* text that starts with a word goes on the previous word */
	const char *gap = "";
	for (const char *s = buf; *s;) {
		if (*s == ' ') {
			gap = " ";
			s++;
			continue;
		}
		size_t n = strcspn(s, " ");
		w_word(w, NULL, s, n, NULL, gap);
		gap = " ";
		s += n;
	}
}

void w_indent(struct wrap *w)
{
	fprintf(w->out, "%*s", (int)w->indent, "");
	w->col = w->indent;
	w->fresh = true;
}

void w_end(struct wrap *w)
{
	if (w->col)
		fputc('\n', w->out);
	w->col = 0;
	w->fresh = true;
}
