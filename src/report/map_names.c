/* SPDX-License-Identifier: MIT */
/*
 * The names rows of the terminal map (map_names.h): each member's name
 * under the first cell that shows it, or a '^' there, and the names that
 * do not fit after the cells ("+a,b").
 */
#include <stdlib.h>
#include <string.h>

#include "report/map_names.h"

#define MAX_RUNS 256

struct row *names_row(struct names *nm, size_t x)
{
	if (x >= nm->cap) {
		size_t cap = (x + 1) * 2;
		struct row *r = realloc(nm->r, cap * sizeof(*r));
		if (!r)
			return NULL;
		memset(r + nm->cap, 0, (cap - nm->cap) * sizeof(*r));
		nm->r = r;
		nm->cap = cap;
	}
	if (x >= nm->n)
		nm->n = x + 1;
	return &nm->r[x];
}

/* The members that own bytes of line k in byte order (at most MAX_RUNS),
 * the cell where each is first shown (p->cells when no cell shows it),
 * and whether it starts on the line (the byte before its first one here,
 * on this line or the one before, is not its own). */
static size_t line_members(const struct panel *p, uint64_t k, long *mem,
			   unsigned *first, bool *starts)
{
	const struct slt_hm *m = &p->m;
	size_t n = 0;
	for (unsigned b = 0; b < m->cl && n < MAX_RUNS; b++) {
		long o = slt_hm_owner(m, k, b);
		bool seen = o < 0;
		for (size_t i = n; i-- > 0 && !seen;)
			seen = mem[i] == o;
		if (!seen) {
			size_t at = (size_t)k * m->cl + b;
			starts[n] = !at || m->owner[at - 1] != o;
			mem[n] = o;
			first[n++] = p->cells;
		}
	}
	for (unsigned c = 0; c < p->cells; c++) {
		long o = slt_hm_cell(m, k, c * p->cell, p->cell);
		for (size_t i = 0; i < n; i++)
			if (mem[i] == o && first[i] == p->cells)
				first[i] = c;
	}
	return n;
}

/* The "+a,b" list after the cells: where the next item goes. */
struct plus {
	struct names *nm;
	const struct panel *p;
	size_t rows;            /* rows used */
	size_t tail;            /* its column on the first row */
	bool more;              /* the last row has an item: ',' next */
};

/* The column a name of len columns (after a one-column mark) starts at
 * on a row of its own: the cells' column, further left when it is longer
 * than the room from there (never the first column: a names row starts
 * with a blank). */
static size_t own_col(const struct panel *p, size_t len)
{
	if (p->prefix + 1 + len <= p->width)
		return p->prefix;
	return p->width > len + 2 ? p->width - len - 1 : 1;
}

/* Write name whole on row t (the last of nm) from its column on, broken
 * over rows of its own only when it is longer than a row: never cut, so
 * every member stays findable by its name. */
static void put_name(struct names *nm, struct row *t, const char *name,
		     size_t len, size_t width)
{
	while (t->vis + len > width && width > t->vis + 1) {
		size_t n = width - t->vis;
		r_text(t, name, n);
		name += n;
		len -= n;
		if (!(t = names_row(nm, nm->n)))
			return;
		r_pad(t, 1);
	}
	r_text(t, name, len);
}

/* One name of the list: whole, on a fresh row when it does not fit the
 * last one (from further left when it is longer than the room from the
 * cells' column; broken over rows only when longer than a row). */
static void plus_name(struct plus *l, const char *name)
{
	const struct panel *p = l->p;
	size_t len = strlen(name);
	struct row *t = names_row(l->nm, l->rows - 1);
	if (!t)
		return;
	/* after the cells; under them when nothing is written there */
	size_t at = l->rows > 1 || !t->vis ? p->prefix : l->tail;
	if (t->vis + !l->more > at)
		at = t->vis + !l->more;
	if (at + 1 + len > p->width) {
		if (at > p->prefix || l->more) {        /* a fresh row */
			if (!(t = names_row(l->nm, l->rows++)))
				return;
			l->more = false;
		}
		at = own_col(p, len);
	}
	r_pad(t, at);
	r_text(t, l->more ? "," : "+", 1);
	put_name(l->nm, t, name, len, p->width);
	l->rows = l->nm->n;
	l->more = true;
}

void names_whole(struct names *nm, const struct panel *p, const char *name)
{
	size_t len = strlen(name);
	struct row *t = names_row(nm, nm->n);
	if (!t)
		return;
	/* as a listed name's, less its mark */
	r_pad(t, own_col(p, len ? len - 1 : 0) + (p->prefix + len > p->width));
	put_name(nm, t, name, len, p->width);
}

/* The names rows of line k: each member's name under the first cell that
 * shows it when it fits before the next member's first cell, else a '^'
 * there when the member starts on the line (a boundary: same-class
 * neighbours stay apart; none for a member continued from the line
 * before, which the line's start bounds) and its name after
 * the cells as "+a,b" (plus_name()): then the members that hold bytes of
 * the line but own none (another union arm, a bitfield sharing bytes),
 * those a finding uses first.  No name is cut (every member stays
 * findable): one that does not fit goes on a row of its own.  Returns the
 * rows used. */
size_t names_rows(struct names *nm, const struct panel *p, uint64_t k)
{
	const struct slt_hm *m = &p->m;
	if (k >= m->n_lines)
		return 0;
	long mem[MAX_RUNS];
	unsigned first[MAX_RUNS];
	bool placed[MAX_RUNS] = { false }, starts[MAX_RUNS];
	size_t n = line_members(p, k, mem, first, starts);
	size_t cursor = 0;      /* first free cell column */
	struct row *r0 = names_row(nm, 0);
	if (!r0)
		return 0;
	for (unsigned c = 0; c < p->cells; c++) {
		size_t i = 0;
		while (i < n && first[i] != c)
			i++;
		if (i == n || c < cursor)
			continue;
		/* the next cell that starts another member */
		unsigned end = c + 1;
		while (end < p->cells && slt_hm_cell(m, k, end * p->cell, p->cell) ==
						 slt_hm_cell(m, k, c * p->cell, p->cell))
			end++;
		if (end == p->cells)
			end++;          /* the last: up to under the bar */
		const char *name = slt_hm_label(m, mem[i]);
		size_t len = strlen(name);
		if (len && c + len < end) {
			r_pad(r0, p->prefix + c);
			r_text(r0, name, len);
			cursor = c + len + 1;
			placed[i] = true;
		} else if (starts[i]) {
			/* '^' marks where a member starts, never a member
			 * continued from the line before */
			r_pad(r0, p->prefix + c);
			r_text(r0, "^", 1);
			cursor = c + 1;
		}
	}
	struct plus l = { .nm = nm, .p = p, .rows = 1, .tail = p->prefix + p->cells + 2 };
	for (size_t i = 0; i < n; i++)
		if (!placed[i] && m->s->members[mem[i]].name[0])
			plus_name(&l, slt_hm_label(m, mem[i]));
	for (int pass = 0; pass < 2; pass++)
		for (size_t x = m->hid_at[k]; x < m->hid_at[k + 1]; x++) {
			long i = m->hid[x];
			if (m->s->members[i].name[0] && m->named[i] == !pass)
				plus_name(&l, slt_hm_label(m, i));
		}
	for (size_t i = 0; i < l.rows && i < nm->n; i++)
		r_cut(&nm->r[i], p->width);
	if (!nm->r[0].vis) {
		for (size_t i = 0; i < nm->n; i++)
			r_clear(&nm->r[i]);
		nm->n = 0;
	}
	return nm->n;
}
