/* SPDX-License-Identifier: MIT */
/*
 * pahole-style layout text, internal to src/report/text*.c:
 *   text.c         a struct and its levels: holes, "Bitfield combined"
 *                  notes, reconstructed unnamed bitfields, force padding,
 *                  the closing figures, the struct head and tail
 *   text_member.c  one member's declaration: the type column, inline
 *                  struct/union/enum bodies, pointees, the offset comment
 * Both write through struct tctx, which counts the characters written
 * (colour escapes excluded) so that columns are padded as pahole pads them.
 */
#ifndef SLT_REPORT_TEXT_INT_H
#define SLT_REPORT_TEXT_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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
	bool align_once;    /* slt_report_opts.align_once */
	bool user_pads;     /* slt_report_opts.user_pads */
	bool oom;
};

static inline void out(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void out(struct tctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vfprintf(t->f, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->nout += (uint64_t)n;
}

static inline void col(struct tctx *t, const char *c)
{
	if (t->color)
		fputs(c, t->f);
}

static inline void tabs(struct tctx *t, int n)
{
	for (int i = 0; i < n && i < 16; i++, t->nout++)
		fputc('\t', t->f);
}

static inline void spaces(struct tctx *t, int n)
{
	for (int i = 0; i < n; i++, t->nout++)
		fputc(' ', t->f);
}

/* A comment line, indented, without the newline. */
static inline void comment(struct tctx *t, int indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void comment(struct tctx *t, int indent, const char *fmt, ...)
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

static inline const char *plural(uint64_t n)
{
	return n != 1 ? "s" : "";
}

/* Number of entries in the subtree rooted at member i. */
static inline size_t subtree(const struct slt_struct *s, size_t i)
{
	size_t j = i + 1;

	while (j < s->n_members && s->members[j].depth > s->members[i].depth)
		j++;
	return j - i;
}


/* Width as printf's "%*s"/"%-*s" takes it: a negative one left-justifies. */
static inline int width(int w)
{
	return w < 0 ? -w : w;
}

/* text.c */
/* The members in [first, end) whose depth is that of first: one level of
 * a struct (as __class__fprintf() prints it) or of a union. */
void slt_tx_level(struct tctx *t, size_t first, size_t end, int indent, int ts,
		  bool is_union);
/* The closing figures of the inline struct level of member idx, in the
 * fields slt_tx_summary() reads. */
void slt_tx_level_figures(const struct tctx *t, size_t idx, struct slt_struct *f);
/* The closing figures of s at indent ind, for a level base bytes into the
 * outermost struct. */
void slt_tx_summary(struct tctx *t, const struct slt_struct *s, int ind,
		    uint64_t base);
/* t->hole and t->bit_hole: the hole after each member of t->s, or NULL.
 * 0 or SLT_ENOMEM. */
int slt_tx_holes(struct tctx *t);

/* text_member.c */
/* class_member__fprintf(): member i of t->s, its inline body included. */
void slt_tx_member(struct tctx *t, size_t i, int indent, int ts);
/* The padded type column of a declaration head; the characters written,
 * *rest: what of head follows the padded part. */
int slt_tx_type_col(struct tctx *t, const char *head, int ts, const char **rest);
/* pahole -E's typedef comment before a member's resolved type; the
 * characters written. */
int slt_tx_td_comment(struct tctx *t, const struct slt_member *m);

#endif
