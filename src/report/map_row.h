/* SPDX-License-Identifier: MIT */
/*
 * Text in columns for the terminal map (map_text.c), internal to
 * src/report: a row built in memory (bytes with colour escapes, and the
 * visible columns), so maps can stand side by side and be cut to the
 * width; and a writer that wraps words at the width, for the header,
 * legend and findings lines.  Escapes (ESC [ ... m) take no column.
 */
#ifndef SLT_REPORT_MAP_ROW_H
#define SLT_REPORT_MAP_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct row {
	char *p;
	size_t n, cap;
	size_t vis;             /* visible columns */
	bool oom;
};

void r_raw(struct row *r, const char *s, size_t n);
/* An escape (written only when color). */
void r_esc(struct row *r, bool color, const char *e);
void r_text(struct row *r, const char *s, size_t n);
void r_printf(struct row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Blanks up to column to. */
void r_pad(struct row *r, size_t to);
void r_clear(struct row *r);
/* At most max columns (0: no limit): a longer row is cut, a '~' in its
 * last column, its colour reset when it had any. */
void r_cut(struct row *r, size_t max);

/* Words wrapped at width columns, continuation lines indented. */
struct wrap {
	FILE *out;
	size_t width, indent, col;
	bool fresh;             /* nothing written on the line yet */
};

void w_start(struct wrap *w, FILE *out, size_t width, size_t indent);
/* Make room for len columns after gap: a new line when they do not fit
 * (nothing before the first on a line). */
void w_place(struct wrap *w, size_t len, const char *gap);
/* Start at the indent (a line that belongs to the one above). */
void w_indent(struct wrap *w);
/* One word of len visible columns between the escapes pre and post (NULL:
 * none), after gap when it is not the first on its line; a word longer
 * than a line is broken. */
void w_word(struct wrap *w, const char *pre, const char *word, size_t len,
	    const char *post, const char *gap);
/* The words of the formatted text, one blank between them; text that
 * starts with a word ("-4") goes on right after the previous word, but is
 * wrapped on its own: a list's separator belongs at the end of the item
 * before it ("a (hot-write)," then " b"), never at the start of the next
 * (a wrapped line would start with the comma). */
void w_printf(struct wrap *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* End the line (nothing when none is started). */
void w_end(struct wrap *w);

#endif
