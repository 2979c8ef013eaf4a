/* SPDX-License-Identifier: MIT */
/*
 * The terminal cacheline map (structlint/map_report.h): report --map and
 * suggest --map.  Every row is built in memory first (struct row: bytes
 * with the colour escapes, and the visible width), so two maps can stand
 * side by side padded to a fixed width.
 *
 *   LINE OFFSET|WWWWWWWWRRRRRRRR........cccccccc| 5 !1      cells row
 *               iter    memcg                 +a,b          names row
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "join/join_int.h"
#include "report/heatmap.h"
#include "structlint/map_report.h"

#define SEP " | "          /* between two maps */
#define RESERVE 4          /* columns kept after a row for " !N" */

struct row {
	char *p;
	size_t n, cap;
	size_t vis;             /* visible columns */
	bool oom;
};

static void r_raw(struct row *r, const char *s, size_t n)
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

/* An escape: no column. */
static void r_esc(struct row *r, bool color, const char *e)
{
	if (color)
		r_raw(r, e, strlen(e));
}

static void r_text(struct row *r, const char *s, size_t n)
{
	r_raw(r, s, n);
	r->vis += n;
}

static void r_printf(struct row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void r_printf(struct row *r, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		r_text(r, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void r_pad(struct row *r, size_t to)
{
	while (r->vis < to && !r->oom)
		r_text(r, " ", 1);
}

static void r_clear(struct row *r)
{
	r->n = r->vis = 0;
	if (r->p)
		r->p[0] = 0;
}

/* One map's geometry. */
struct panel {
	struct slt_hm m;
	bool color;
	unsigned cell;          /* bytes per cell */
	unsigned cells;         /* cells per row */
	int lw, ow;             /* digits of the line and offset columns */
	size_t prefix;          /* columns before the first cell */
	size_t width;           /* columns of the whole panel (side by side) */
	bool heat;              /* a profile: heat column */
};

static void panel_geometry(struct panel *p)
{
	const struct slt_hm *m = &p->m;
	p->lw = slt_hm_digits(m->n_lines ? m->n_lines - 1 : 0);
	uint64_t last = m->n_lines ? (m->n_lines - 1) * m->cl : 0;
	p->ow = slt_hm_digits(last);
	p->prefix = (size_t)p->lw + 1 + (size_t)p->ow + 1;
	p->heat = slt_hm_line_heat(m, 0) >= 0;
}

/* The columns a panel of cells cells needs, its reserve after it
 * included. */
static size_t panel_cols(const struct panel *p, unsigned cells)
{
	return p->prefix + cells + 1 + (p->heat ? 2 : 0) + RESERVE;
}

/* Bytes per cell: 1 when n panels of one byte per cell fit width, else
 * the smallest power of two from 8 that fits (a whole line at most). */
static void choose_cells(struct panel *ps, size_t n, unsigned width)
{
	unsigned cl = ps[0].m.cl, b = 1;
	for (;;) {
		size_t cols = (n - 1) * strlen(SEP);
		for (size_t i = 0; i < n; i++)
			cols += panel_cols(&ps[i], cl / b);
		if (cols <= width || b >= cl)
			break;
		b = b == 1 ? 8 : b * 2;
		if (b > cl)
			b = cl;
	}
	size_t share = n > 1 ? (width - (n - 1) * strlen(SEP)) / n : 0;
	for (size_t i = 0; i < n; i++) {
		ps[i].cell = b;
		ps[i].cells = cl / b;
		ps[i].width = panel_cols(&ps[i], ps[i].cells);
		if (share > ps[i].width)    /* side by side: the names get the rest */
			ps[i].width = share;
	}
}

static const char *cell_color(const struct slt_hm *m, long o)
{
	bool hot = o >= 0 && slt_hm_access(m, o) && slt_hm_heat(m, o) >= 0.5;
	switch (slt_hm_letter(m, o)) {
	case 'W': return hot ? "\033[97;101m" : "\033[97;41m";
	case 'R': return hot ? "\033[30;104m" : "\033[97;44m";
	case 'M': return hot ? "\033[30;103m" : "\033[30;43m";
	case 'T': return hot ? "\033[30;105m" : "\033[97;45m";
	case 'c': return "\033[37;100m";
	case '?': return "\033[30;47m";
	case '.': return "\033[0;2m";
	default: return "\033[0m";
	}
}

/* The cells row of line k (blank when the panel has no line k). */
static void cells_row(struct row *r, const struct panel *p, uint64_t k)
{
	const struct slt_hm *m = &p->m;
	if (k >= m->n_lines)
		return;
	uint64_t off = k ? k * m->cl - m->origin : 0;
	r_printf(r, "%*" PRIu64 " %*" PRIu64 "|", p->lw, k, p->ow, off);
	const char *cur = NULL;
	for (unsigned c = 0; c < p->cells; c++) {
		long o = slt_hm_cell(m, k, c * p->cell, p->cell);
		const char *e = cell_color(m, o);
		if (e != cur)
			r_esc(r, p->color, e);
		cur = e;
		char ch = slt_hm_letter(m, o);
		r_text(r, &ch, 1);
	}
	r_esc(r, p->color, "\033[0m");
	r_text(r, "|", 1);
	int h = slt_hm_line_heat(m, k);
	if (h >= 0)
		r_printf(r, " %d", h);
	bool first = true;
	for (size_t i = 0; m->findings && i < m->a->n_findings; i++) {
		if (!slt_hm_finding_on(&m->a->findings[i], k))
			continue;
		if (first)
			r_esc(r, p->color, "\033[1;31m");
		r_printf(r, first ? " !%zu" : ",%zu", i + 1);
		first = false;
	}
	if (!first)
		r_esc(r, p->color, "\033[0m");
}

#define NAME_ROWS 8

/* Cut r (no escapes in it) to max columns, a '~' in the last. */
static void r_cut(struct row *r, size_t max)
{
	if (max && r->vis > max && !r->oom) {
		r->n = r->vis = max;
		r->p[max - 1] = '~';
		r->p[max] = 0;
	}
}

/* The names rows of line k: each member's name at its first cell on the
 * line when it fits before the next member's, the others after the cells
 * as "+a,b".  max: the panel's columns (0: no limit); the names that do
 * not fit wrap onto further rows (at most NAME_ROWS in all).  Returns the
 * rows used. */
static size_t names_rows(struct row *r, const struct panel *p, uint64_t k, size_t max)
{
	const struct slt_hm *m = &p->m;
	if (k >= m->n_lines)
		return 0;
	long runs[256];
	unsigned at[256];
	size_t n = 0;
	for (unsigned b = 0; b < m->cl && n < 256; b++) {
		long o = slt_hm_owner(m, k, b);
		if (o < 0 || (b && slt_hm_owner(m, k, b - 1) == o))
			continue;
		bool seen = false;
		for (size_t i = 0; i < n && !seen; i++)
			seen = runs[i] == o;
		if (!seen) {
			runs[n] = o;
			at[n++] = b;
		}
	}
	size_t rows = 1, over = 0, tail = p->prefix + p->cells + 2;
	size_t cursor = 0;      /* first free cell column */
	bool placed[256] = { false };
	for (size_t i = 0; i < n; i++) {
		const char *name = m->s->members[runs[i]].name;
		size_t len = strlen(name), col = at[i] / p->cell;
		size_t end = i + 1 < n ? at[i + 1] / p->cell : p->cells + 1;
		if (len && col >= cursor && col + len < end) {
			r_pad(&r[0], p->prefix + col);
			r_text(&r[0], name, len);
			cursor = col + len + 1;
			placed[i] = true;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = m->s->members[runs[i]].name;
		size_t len = strlen(name);
		if (placed[i] || !len)
			continue;
		struct row *t = &r[rows - 1];
		size_t base = rows > 1 ? p->prefix : tail;
		size_t start = t->vis > base ? t->vis : base;
		/* wrap onto a fresh row when that gives it more room */
		if (max && start + 1 + len > max && rows < NAME_ROWS && (over || rows == 1)) {
			t = &r[rows++];
			over = 0;
		}
		r_pad(t, rows > 1 ? p->prefix : tail);
		r_text(t, over++ ? "," : "+", 1);
		r_text(t, name, len);
	}
	for (size_t i = 0; i < rows; i++)
		r_cut(&r[i], max);
	return r[0].vis ? rows : 0;
}

/* A line inside a run that one member fills, with the same member on the
 * lines before and after it: the member, else -2. */
static long inner_line(const struct slt_hm *m, uint64_t k)
{
	if (k >= m->n_lines)
		return -1;          /* past the end: nothing to draw */
	if (k == 0 || k + 1 >= m->n_lines)
		return HM_OUTSIDE;
	long w = slt_hm_whole_line(m, k);
	if (w < 0 || slt_hm_whole_line(m, k - 1) != w ||
	    slt_hm_whole_line(m, k + 1) != w)
		return HM_OUTSIDE;
	return w;
}

static bool inner(const struct panel *ps, size_t n, uint64_t k)
{
	for (size_t i = 0; i < n; i++)
		if (inner_line(&ps[i].m, k) == HM_OUTSIDE)
			return false;
	return true;
}

static int flush(FILE *out, struct row *rs, size_t n, const struct panel *ps)
{
	struct row line = { 0 };
	for (size_t i = 0; i < n; i++) {
		if (i) {
			r_pad(&line, ps[i - 1].width);
			r_text(&line, SEP, strlen(SEP));
			line.vis = 0;
		}
		r_raw(&line, rs[i].p ? rs[i].p : "", rs[i].n);
		line.vis += rs[i].vis;
		line.oom |= rs[i].oom;
		r_clear(&rs[i]);
	}
	/* no trailing blanks */
	while (line.n && line.p[line.n - 1] == ' ')
		line.n--;
	if (line.p)
		fwrite(line.p, 1, line.n, out);
	fputc('\n', out);
	bool oom = line.oom;
	free(line.p);
	return oom ? SLT_ENOMEM : 0;
}

/* The rows of n panels side by side, line by line. */
static int draw(FILE *out, struct panel *ps, size_t n)
{
	struct row rs[2] = { { 0 }, { 0 } };
	struct row nr[2][NAME_ROWS];
	memset(nr, 0, sizeof(nr));
	uint64_t lines = 0;
	int rc = 0;
	for (size_t i = 0; i < n; i++)
		if (ps[i].m.n_lines > lines)
			lines = ps[i].m.n_lines;
	for (uint64_t k = 0; !rc && k < lines; k++) {
		uint64_t j = k;
		while (j + 1 < lines && inner(ps, n, j) && inner(ps, n, j + 1))
			j++;
		if (j > k) {            /* k..j: two or more inner lines */
			for (size_t i = 0; i < n; i++) {
				long w = inner_line(&ps[i].m, k);
				if (w >= 0) {
					r_pad(&rs[i], ps[i].prefix - 1);
					r_printf(&rs[i], ": lines %" PRIu64 "-%" PRIu64 ": ", k, j);
					r_text(&rs[i], ps[i].m.s->members[w].name,
					       strlen(ps[i].m.s->members[w].name));
					r_cut(&rs[i], n > 1 ? ps[i].width : 0);
				}
			}
			rc = flush(out, rs, n, ps);
			k = j;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			cells_row(&rs[i], &ps[i], k);
		rc = flush(out, rs, n, ps);
		size_t rows = 0;
		for (size_t i = 0; i < n; i++) {
			size_t u = names_rows(nr[i], &ps[i], k, n > 1 ? ps[i].width : 0);
			rows = u > rows ? u : rows;
		}
		for (size_t x = 0; !rc && x < rows; x++) {
			struct row two[2] = { nr[0][x], nr[1][x] };
			rc = flush(out, two, n, ps);
			nr[0][x] = two[0];
			nr[1][x] = two[1];
		}
		for (size_t i = 0; i < n; i++)
			for (size_t x = 0; x < NAME_ROWS; x++)
				r_clear(&nr[i][x]);
	}
	for (size_t i = 0; i < n; i++) {
		free(rs[i].p);
		for (size_t x = 0; x < NAME_ROWS; x++)
			free(nr[i][x].p);
	}
	return rc;
}

static void legend(FILE *out, const struct panel *p)
{
	static const struct { char ch; const char *what; } keys[] = {
		{ 'W', "hot-write" }, { 'R', "read-mostly" }, { 'M', "mixed" },
		{ 'T', "true-shared" }, { 'c', "cold" }, { '?', "no class" },
		{ '.', "hole/padding" },
	};
	static const char *esc[] = {
		"\033[97;41m", "\033[97;44m", "\033[30;43m", "\033[97;45m",
		"\033[37;100m", "\033[30;47m", "\033[0;2m",
	};
	fputs("legend:", out);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		fprintf(out, "%s%s%c%s %s", i ? "  " : " ", p->color ? esc[i] : "", keys[i].ch,
			p->color ? "\033[0m" : "", keys[i].what);
	fprintf(out, "\n        1 cell = %u byte%s", p->cell, p->cell == 1 ? "" : "s");
	if (p->cell > 1)
		fputs(" (its most written member)", out);
	if (p->heat)
		fputs("; heat 0-5 after the line (5: the busiest member)", out);
	if (p->m.findings && p->m.a->n_findings)
		fputs("; !N: finding N", out);
	fputc('\n', out);
}

static void findings_key(FILE *out, const struct slt_analysis *a)
{
	const struct slt_struct *s = a->layout;
	for (size_t i = 0; i < a->n_findings; i++) {
		const struct slt_finding *f = &a->findings[i];
		fprintf(out, "!%zu line %" PRIu64, i + 1, f->line);
		if (f->kind == SLT_FIND_STRADDLE || f->kind == SLT_FIND_ADJACENT)
			fprintf(out, "-%" PRIu64, f->line2);
		fprintf(out, " %s, score %g:", slt_finding_kind_name(f->kind), f->score);
		for (size_t k = 0; k < f->n_members; k++) {
			char path[512];
			size_t mi = f->members[k];
			fprintf(out, "%s %s (%s)", k ? "," : "",
				slt_member_path(s, mi, path, sizeof(path)),
				slt_class_name(a->classes[mi].cls));
		}
		fputc('\n', out);
	}
}

static int panel_init(struct panel *p, const struct slt_analysis *a,
		      const struct slt_struct *s, const struct slt_report_opts *o,
		      struct slt_error *err)
{
	memset(p, 0, sizeof(*p));
	p->color = o && o->color;
	int rc = slt_hm_build(&p->m, a, s, err);
	if (!rc)
		panel_geometry(p);
	return rc;
}

static unsigned width_of(const struct slt_report_opts *o)
{
	return o && o->width ? o->width : 80;
}

static int finish(FILE *out, int rc, struct slt_error *err)
{
	if (rc == SLT_ENOMEM)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc && ferror(out))
		return slt_error_set(err, SLT_EIO, "<stdout>", -1, NULL, "write failed");
	return rc;
}

int slt_report_analysis_map(FILE *out, const struct slt_analysis *a,
			    const struct slt_report_opts *opts,
			    struct slt_error *err)
{
	struct panel p;
	int rc = panel_init(&p, a, a->layout, opts, err);
	if (rc)
		return rc;
	choose_cells(&p, 1, width_of(opts));
	fprintf(out, "struct %s: %" PRIu64 " bytes, %" PRIu64 " cache line%s of %u bytes",
		a->layout->name, a->layout->size, p.m.n_lines,
		p.m.n_lines == 1 ? "" : "s", p.m.cl);
	if (p.m.origin)
		fprintf(out, " (starting %" PRIu32 " bytes into line 0)", p.m.origin);
	fprintf(out, ", %zu finding%s (score basis: %s)\n", a->n_findings,
		a->n_findings == 1 ? "" : "s", slt_score_basis_name(a->basis));
	rc = draw(out, &p, 1);
	if (!rc) {
		legend(out, &p);
		findings_key(out, a);
	}
	slt_hm_free(&p.m);
	return finish(out, rc, err);
}

static int proposal_map(FILE *out, const struct slt_advice *adv, size_t i,
			const struct slt_report_opts *opts,
			const struct slt_advice_report_opts *r,
			struct slt_error *err)
{
	const struct slt_analysis *a = adv->analysis;
	const struct slt_proposal *pr = &adv->proposals[i];
	fprintf(out, "proposal %zu of %zu: %s: %" PRIu64 " -> %" PRIu64 " bytes (%+" PRId64
		"), %" PRIu64 " -> %" PRIu64 " cachelines, score %g -> %g",
		i + 1, adv->n_proposals, slt_proposal_kind_name(pr->kind),
		pr->size_before, pr->size_after, pr->bytes_added, pr->lines_before,
		pr->lines_after, pr->score_before, pr->score_after);
	if (r && r->findings_after && r->findings_after[i] >= 0)
		fprintf(out, ", %zd finding%s left", r->findings_after[i],
			r->findings_after[i] == 1 ? "" : "s");
	fputc('\n', out);
	if (pr->n_moved) {
		fputs("moved:", out);
		for (size_t k = 0; k < pr->n_moved; k++)
			fprintf(out, "%s %s", k ? "," : "",
				a->layout->members[pr->moved[k]].name[0] ?
				a->layout->members[pr->moved[k]].name : "(anonymous)");
		fputc('\n', out);
	}
	struct panel ps[2];
	int rc = panel_init(&ps[0], a, a->layout, opts, err);
	if (rc)
		return rc;
	rc = panel_init(&ps[1], a, &pr->layout, opts, err);
	if (rc) {
		slt_hm_free(&ps[0].m);
		return rc;
	}
	/* one geometry for both: the wider numbers */
	for (int k = 0; k < 2; k++) {
		ps[k].lw = ps[0].lw > ps[1].lw ? ps[0].lw : ps[1].lw;
		ps[k].ow = ps[0].ow > ps[1].ow ? ps[0].ow : ps[1].ow;
		ps[k].prefix = (size_t)ps[k].lw + 1 + (size_t)ps[k].ow + 1;
	}
	choose_cells(ps, 2, width_of(opts));
	struct row t[2] = { { 0 }, { 0 } };
	r_pad(&t[0], ps[0].prefix);
	r_text(&t[0], "before", 6);
	r_pad(&t[1], ps[1].prefix);
	r_text(&t[1], "after", 5);
	rc = flush(out, t, 2, ps);
	free(t[0].p);
	free(t[1].p);
	if (!rc)
		rc = draw(out, ps, 2);
	if (!rc)
		legend(out, &ps[0]);
	slt_hm_free(&ps[0].m);
	slt_hm_free(&ps[1].m);
	return rc;
}

int slt_report_advice_map(FILE *out, const struct slt_advice *advice,
			  const struct slt_report_opts *opts,
			  const struct slt_advice_report_opts *ropts,
			  struct slt_error *err)
{
	const struct slt_analysis *a = advice->analysis;
	if (ropts && ropts->basis)
		fprintf(out, "member accesses %s\n", ropts->basis);
	fprintf(out, "struct %s: %zu proposal%s\n", a->layout->name,
		advice->n_proposals, advice->n_proposals == 1 ? "" : "s");
	if (!advice->n_proposals)
		fprintf(out, "no proposal%s%s\n", advice->note && advice->note[0] ? ": " : "",
			advice->note ? advice->note : "");
	int rc = 0;
	for (size_t i = 0; !rc && i < advice->n_proposals; i++) {
		if (i)
			fputc('\n', out);
		rc = proposal_map(out, advice, i, opts, ropts, err);
	}
	if (!rc && advice->n_proposals)
		findings_key(out, a);
	return finish(out, rc, err);
}
