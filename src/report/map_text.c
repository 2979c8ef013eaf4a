/* SPDX-License-Identifier: MIT */
/*
 * The terminal cacheline map (structlint/map_report.h): report --map and
 * suggest --map.  Every row is built in memory first (struct row: bytes
 * with the colour escapes, and the visible width), so two maps can stand
 * side by side padded to a fixed width; no row is wider than the
 * terminal (report opts width).
 *
 *   LINE OFFSET|WWWWWWWWRRRRRRRR........cccccccc| 5 !1 !2   cells row
 *               iter    ^  ^memcg             +a,b,c        names row
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "join/join_int.h"
#include "report/map_names.h"
#include "structlint/map_report.h"

#define SEP " | "          /* between two maps */
#define MAX_CELL 8         /* bytes per cell at most (of a 64-byte line) */

/* The columns of the markers of line k: " !N" per finding on it. */
static size_t marks_cols(const struct slt_hm *m, uint64_t k)
{
	size_t n = 0;
	for (size_t i = 0; m->fa && i < m->fa->n_findings; i++)
		if (slt_hm_finding_on(&m->fa->findings[i], k))
			n += 2 + (size_t)slt_hm_digits(slt_hm_fnum(m, i));
	return n;
}

static void panel_geometry(struct panel *p)
{
	const struct slt_hm *m = &p->m;
	p->lw = slt_hm_digits(m->n_lines ? m->n_lines - 1 : 0);
	uint64_t last = m->n_lines ? (m->n_lines - 1) * m->cl : 0;
	p->ow = slt_hm_digits(last);
	p->prefix = (size_t)p->lw + 1 + (size_t)p->ow + 1;
	p->heat = slt_hm_line_heat(m, 0) >= 0;
	p->marks = 0;
	for (uint64_t k = 0; k < m->n_lines; k++) {
		size_t c = marks_cols(m, k);
		p->marks = c > p->marks ? c : p->marks;
	}
}

/* The columns of a cells row of a panel of cells cells. */
static size_t panel_cols(const struct panel *p, unsigned cells)
{
	return p->prefix + cells + 1 + (p->heat ? 2 : 0) + p->marks;
}

/* Bytes per cell: the smallest power of two (1, 2, 4, 8) with which the n
 * panels' cells rows fit width side by side; their widths share it out.
 * False when not even 8 bytes per cell fit (then 8). */
static bool choose_cells(struct panel *ps, size_t n, unsigned width)
{
	unsigned cl = ps[0].m.cl, b = 1, max = cl < MAX_CELL ? cl : MAX_CELL;
	size_t cols;
	for (;; b *= 2) {
		cols = (n - 1) * strlen(SEP);
		for (size_t i = 0; i < n; i++)
			cols += panel_cols(&ps[i], cl / b);
		if (cols <= width || b >= max)
			break;
	}
	size_t extra = cols < width ? width - cols : 0;
	for (size_t i = 0; i < n; i++) {
		ps[i].cell = b;
		ps[i].cells = cl / b;
		ps[i].width = panel_cols(&ps[i], ps[i].cells) + extra / n;
		if (n == 1 || cols > width)
			ps[i].width = width / n;
	}
	return cols <= width;
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


/* The cells row of line k (blank when the panel has no line k), its
 * markers " !N" after the bar while they fit the width; the others wrap
 * onto rows of their own in mk, indented to the first marker's column
 * (to the cells' when not even one fits there), never cut. */
static void cells_row(struct row *r, struct names *mk, const struct panel *p,
		      uint64_t k)
{
	const struct slt_hm *m = &p->m;
	mk->n = 0;
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
	size_t indent = r->vis;
	struct row *t = r;
	bool any = false;       /* a marker on row t */
	for (size_t i = 0; m->fa && i < m->fa->n_findings; i++) {
		if (!slt_hm_finding_on(&m->fa->findings[i], k))
			continue;
		char b[32];
		size_t len = (size_t)snprintf(b, sizeof(b), " !%zu", slt_hm_fnum(m, i));
		if (any && t->vis + len > p->width) {
			r_esc(t, p->color, "\033[0m");
			if (t != r)
				r_cut(t, p->width);
			if (!(t = names_row(mk, mk->n)))
				return;
			if (indent + len > p->width)
				indent = p->prefix - 1;
			r_pad(t, indent);
			any = false;
		}
		if (!any)
			r_esc(t, p->color, "\033[1;31m");
		r_text(t, b, len);
		any = true;
	}
	if (any)
		r_esc(t, p->color, "\033[0m");
	if (t != r)
		r_cut(t, p->width);
	r_cut(r, p->width);
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

/* The extra rows of n panels side by side (names or markers; a panel's
 * nr[i].n rows, the most of them), then cleared for the next line. */
static int flush_rows(FILE *out, struct names *nr, size_t n, const struct panel *ps)
{
	size_t rows = 0;
	int rc = 0;
	for (size_t i = 0; i < n; i++)
		rows = nr[i].n > rows ? nr[i].n : rows;
	for (size_t x = 0; !rc && x < rows; x++) {
		struct row two[2] = { { 0 }, { 0 } };
		for (size_t i = 0; i < n; i++)
			if (x < nr[i].n)
				two[i] = nr[i].r[x];
		rc = flush(out, two, n, ps);
		for (size_t i = 0; i < n; i++)
			if (x < nr[i].n)
				nr[i].r[x] = two[i];
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t x = 0; x < nr[i].n; x++)
			r_clear(&nr[i].r[x]);
		if (nr[i].cap && !names_row(&nr[i], 0))
			rc = SLT_ENOMEM;
		nr[i].n = 0;
	}
	return rc;
}

/* The rows of n panels side by side, line by line. */
static int draw(FILE *out, struct panel *ps, size_t n)
{
	struct row rs[2] = { { 0 }, { 0 } };
	struct names nr[2] = { { 0 }, { 0 } }, mk[2] = { { 0 }, { 0 } };
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
					/* further left when the width is short */
					char lab[64];
					int ln = snprintf(lab, sizeof(lab), ": lines %" PRIu64 "-%" PRIu64 ":", k, j);
					size_t at = ps[i].prefix - 1;
					if (at + (size_t)ln > ps[i].width)
						at = ps[i].width > (size_t)ln ? ps[i].width - (size_t)ln : 0;
					r_pad(&rs[i], at);
					r_text(&rs[i], lab, (size_t)ln);
					/* the name whole: on a row of its own
					 * when it does not fit after the label */
					const char *nm = slt_hm_label(&ps[i].m, w);
					if (rs[i].vis + 1 + strlen(nm) <= ps[i].width) {
						r_text(&rs[i], " ", 1);
						r_text(&rs[i], nm, strlen(nm));
					} else {
						names_whole(&nr[i], &ps[i], nm);
					}
					r_cut(&rs[i], ps[i].width);
				}
			}
			rc = flush(out, rs, n, ps);
			if (!rc)
				rc = flush_rows(out, nr, n, ps);
			k = j;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			cells_row(&rs[i], &mk[i], &ps[i], k);
		rc = flush(out, rs, n, ps);
		if (!rc)
			rc = flush_rows(out, mk, n, ps);
		for (size_t i = 0; i < n; i++)
			names_rows(&nr[i], &ps[i], k);
		if (!rc)
			rc = flush_rows(out, nr, n, ps);
	}
	for (size_t i = 0; i < n; i++) {
		free(rs[i].p);
		for (size_t x = 0; x < nr[i].cap; x++)
			free(nr[i].r[x].p);
		free(nr[i].r);
		for (size_t x = 0; x < mk[i].cap; x++)
			free(mk[i].r[x].p);
		free(mk[i].r);
	}
	return rc;
}

static void legend(FILE *out, const struct panel *p, unsigned width)
{
	static const struct { const char *ch, *what, *esc; } keys[] = {
		{ "W", "hot-write", "\033[97;41m" }, { "R", "read-mostly", "\033[97;44m" },
		{ "M", "mixed", "\033[30;43m" }, { "T", "true-shared", "\033[97;45m" },
		{ "c", "cold", "\033[37;100m" }, { "?", "no class", "\033[30;47m" },
		{ ".", "hole/padding", "\033[0;2m" },
	};
	struct wrap w;
	w_start(&w, out, width, 8);
	w_printf(&w, "legend:");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		/* the letter coloured, the word not: one item for the wrap */
		size_t n = strlen(keys[i].what);
		w_place(&w, 2 + n, i ? "  " : " ");
		w_word(&w, p->color ? keys[i].esc : NULL, keys[i].ch, 1,
		       p->color ? "\033[0m" : NULL, "");
		w_word(&w, NULL, keys[i].what, n, NULL, " ");
	}
	/* where the classes came from: its own item, not the hole's */
	const char *src = slt_hm_given_source(&p->m);
	if (src)
		w_printf(&w, ";  classes: %s", src);
	w_end(&w);
	w_start(&w, out, width, 8);
	w_indent(&w);
	char cell[64];
	const char *items[4];
	size_t n = 0;
	snprintf(cell, sizeof(cell), "1 cell = %u byte%s%s", p->cell, p->cell == 1 ? "" : "s",
		 p->cell > 1 ? " (its most written member)" : "");
	items[n++] = cell;
	items[n++] = "^: a member's first cell, its name after the row (+a,b)";
	if (p->heat)
		items[n++] = "heat 0-5 after the line (5: the busiest member)";
	if (p->m.fa && p->m.fa->n_findings)
		items[n++] = "!N: finding N";
	for (size_t i = 0; i < n; i++)
		w_printf(&w, " %s%s", items[i], i + 1 < n ? ";" : "");
	w_end(&w);
}

/* The findings of m->fa by their numbers, each wrapped at width. */
static void findings_key(FILE *out, const struct slt_hm *m, unsigned width)
{
	const struct slt_analysis *a = m->fa;
	for (size_t i = 0; a && i < a->n_findings; i++) {
		const struct slt_finding *f = &a->findings[i];
		struct wrap w;
		w_start(&w, out, width, 4);
		char two[32] = "";
		if (f->kind == SLT_FIND_STRADDLE || f->kind == SLT_FIND_ADJACENT)
			snprintf(two, sizeof(two), "-%" PRIu64, f->line2);
		w_printf(&w, "!%zu line %" PRIu64 "%s %s, score %g:", slt_hm_fnum(m, i),
			 f->line, two, slt_finding_kind_name(f->kind), f->score);
		/* a list's comma ends the item before it (wrapped lines
		 * never start with one) */
		for (size_t k = 0; k < f->n_members; k++) {
			char path[512];
			size_t mi = f->members[k];
			w_printf(&w, " %s (%s)%s",
				 slt_member_path(a->layout, mi, path, sizeof(path)),
				 slt_class_name(a->classes[mi].cls), k + 1 < f->n_members ? "," : "");
		}
		w_end(&w);
	}
}

/* The numbers the page's table and the JSON give, under the map: size,
 * lines, holes, findings, the false-sharing score (as the proposals count
 * it with adv) and the slab figures that do not depend on the CPU count
 * (the object in a cache of its own, the kmalloc class; the page's table
 * adds the objects per slab and the order for this machine's CPUs). */
static void numbers_key(FILE *out, const struct slt_hm *m,
			const struct slt_advice *adv, const char *label, unsigned width)
{
	const struct slt_analysis *a = m->a;
	const struct slt_struct *s = a->layout;
	struct wrap w;
	w_start(&w, out, width, 8);
	w_printf(&w, "%s: %" PRIu64 " bytes, %" PRIu64 " cache line%s of %u bytes,",
		 label, s->size, m->n_lines, m->n_lines == 1 ? "" : "s", m->cl);
	w_printf(&w, " %" PRIu32 " hole%s (%" PRIu64 " bytes), tail padding %" PRIu64
		 " bytes, %zu finding%s,", s->n_byte_holes, s->n_byte_holes == 1 ? "" : "s",
		 s->sum_byte_holes, s->padding, a->n_findings, a->n_findings == 1 ? "" : "s");
	w_printf(&w, " false-sharing score %g (basis: %s; %s),",
		 slt_hm_score(a, adv && adv->n_proposals ? adv : NULL),
		 slt_score_basis_name(a->basis), adv && adv->n_proposals ?
		 "as the proposals count it" : "collision and write-write findings summed");
	struct slt_slab_cost c;
	bool hw;
	char b[48];
	if (slt_hm_slab(a, 1, &c, &hw)) {
		w_printf(&w, " slab: not computed");
	} else if (c.no_slab_cache) {
		w_printf(&w, " slab: %s; too large for a slab cache",
			 slt_slab_class_name(&c, b, sizeof(b)));
	} else {
		w_printf(&w, " slab: %" PRIu64 " B objects in a kmem_cache of its own %s;"
			 " kmalloc()'d: %s", c.object_size, hw ?
			 "with SLAB_HWCACHE_ALIGN (assumed)" : "without SLAB_HWCACHE_ALIGN",
			 slt_slab_class_name(&c, b, sizeof(b)));
	}
	w_end(&w);
}

static int panel_init(struct panel *p, const struct slt_analysis *a,
		      const struct slt_struct *s, const struct slt_report_opts *o,
		      struct slt_error *err)
{
	memset(p, 0, sizeof(*p));
	p->color = o && o->color;
	int rc = slt_hm_build(&p->m, a, s, err);
	if (!rc) {
		p->m.given_word = o ? o->given_word : NULL;
		panel_geometry(p);
	}
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
	unsigned width = width_of(opts);
	int rc = panel_init(&p, a, a->layout, opts, err);
	if (rc)
		return rc;
	choose_cells(&p, 1, width);
	struct wrap w;
	w_start(&w, out, width, 4);
	w_printf(&w, "%s %s: %" PRIu64 " bytes, %" PRIu64 " cache line%s of %u bytes%s",
		 slt_hm_keyword(a->layout), a->layout->name, a->layout->size, p.m.n_lines,
		 p.m.n_lines == 1 ? "" : "s", p.m.cl, p.m.origin ? "" : ",");
	if (p.m.origin)
		w_printf(&w, " (starting %" PRIu32 " bytes into line 0),", p.m.origin);
	/* the classes' source names the basis as the legend does (static
	 * classes are the binary's, not the user's) */
	const char *src = a->basis == SLT_BASIS_CLASSES ? slt_hm_given_source(&p.m) : NULL;
	w_printf(&w, " %zu finding%s (score basis: %s%s%s)", a->n_findings,
		 a->n_findings == 1 ? "" : "s", src && strcmp(src, "given") ? src : "",
		 src && strcmp(src, "given") ? " " : "", slt_score_basis_name(a->basis));
	w_end(&w);
	rc = draw(out, &p, 1);
	if (!rc) {
		numbers_key(out, &p.m, NULL, "numbers", width);
		legend(out, &p, width);
		findings_key(out, &p.m, width);
	}
	slt_hm_free(&p.m);
	return finish(out, rc, err);
}

/* The columns p's text needs uncut: a name on a names row of its own
 * ("+name" from the cells' column) for each member drawn on a line or
 * holding bytes of it, and the label of a run of lines one member fills
 * (": lines K-J: name", K and J at most the run's ends). */
static size_t panel_need(const struct panel *p)
{
	const struct slt_hm *m = &p->m;
	size_t need = 0;
	for (uint64_t k = 0; k < m->n_lines; k++) {
		long prev = HM_OUTSIDE;
		for (unsigned b = 0; b < m->cl; b++) {
			long o = slt_hm_owner(m, k, b);
			if (o >= 0 && o != prev) {
				size_t c = p->prefix + 1 + strlen(slt_hm_label(m, o));
				need = c > need ? c : need;
			}
			prev = o;
		}
		for (size_t x = m->hid_at[k]; x < m->hid_at[k + 1]; x++) {
			size_t c = p->prefix + 1 + strlen(slt_hm_label(m, m->hid[x]));
			need = c > need ? c : need;
		}
		long w = inner_line(m, k);
		if (w < 0)
			continue;
		uint64_t j = k;
		while (inner_line(m, j + 1) == w)
			j++;
		size_t c = p->prefix - 1 + strlen(": lines -: ") +
			   2 * (size_t)slt_hm_digits(j) + strlen(slt_hm_label(m, w));
		need = c > need ? c : need;
		k = j;
	}
	return need;
}

/* A titled map alone (a proposal's pair when two do not fit side by
 * side). */
static int titled(FILE *out, struct panel *p, const char *title)
{
	struct row t = { 0 };
	r_pad(&t, p->prefix);
	r_text(&t, title, strlen(title));
	r_cut(&t, p->width);
	int rc = flush(out, &t, 1, p);
	free(t.p);
	return rc ? rc : draw(out, p, 1);
}

static int pair(FILE *out, struct panel *ps, unsigned width)
{
	/* one geometry for both: the wider numbers */
	for (int k = 0; k < 2; k++) {
		ps[k].lw = ps[0].lw > ps[1].lw ? ps[0].lw : ps[1].lw;
		ps[k].ow = ps[0].ow > ps[1].ow ? ps[0].ow : ps[1].ow;
		ps[k].prefix = (size_t)ps[k].lw + 1 + (size_t)ps[k].ow + 1;
	}
	/* side by side only when neither map's text would be cut */
	if (!choose_cells(ps, 2, width) || ps[0].width < panel_need(&ps[0]) ||
	    ps[1].width < panel_need(&ps[1])) {
		/* one above the other, with one cell size */
		choose_cells(&ps[0], 1, width);
		choose_cells(&ps[1], 1, width);
		unsigned cell = ps[0].cell > ps[1].cell ? ps[0].cell : ps[1].cell;
		for (int k = 0; k < 2; k++) {
			ps[k].cell = cell;
			ps[k].cells = ps[k].m.cl / cell;
		}
		int rc = titled(out, &ps[0], "before");
		return rc ? rc : titled(out, &ps[1], "after");
	}
	struct row t[2] = { { 0 }, { 0 } };
	r_pad(&t[0], ps[0].prefix);
	r_text(&t[0], "before", 6);
	r_pad(&t[1], ps[1].prefix);
	r_text(&t[1], "after", 5);
	int rc = flush(out, t, 2, ps);
	free(t[0].p);
	free(t[1].p);
	return rc ? rc : draw(out, ps, 2);
}

static int proposal_map(FILE *out, const struct slt_advice *adv, size_t i,
			const struct slt_report_opts *opts,
			const struct slt_advice_report_opts *r,
			struct slt_error *err)
{
	const struct slt_analysis *a = adv->analysis;
	const struct slt_proposal *pr = &adv->proposals[i];
	unsigned width = width_of(opts);
	struct wrap w;
	w_start(&w, out, width, 4);
	bool left_n = r && r->findings_after && r->findings_after[i] >= 0;
	w_printf(&w, "proposal %zu of %zu: %s: %" PRIu64 " -> %" PRIu64 " bytes (%+" PRId64
		 "), %" PRIu64 " -> %" PRIu64 " cachelines, score %g -> %g%s",
		 i + 1, adv->n_proposals, slt_proposal_kind_name(pr->kind),
		 pr->size_before, pr->size_after, pr->bytes_added, pr->lines_before,
		 pr->lines_after, pr->score_before, pr->score_after, left_n ? "," : "");
	if (left_n)
		w_printf(&w, " %zd finding%s left", r->findings_after[i],
			 r->findings_after[i] == 1 ? "" : "s");
	w_end(&w);
	if (pr->n_moved) {
		w_start(&w, out, width, 4);
		w_printf(&w, "moved:");
		for (size_t k = 0; k < pr->n_moved; k++)
			w_printf(&w, " %s%s", a->layout->members[pr->moved[k]].name[0] ?
				 a->layout->members[pr->moved[k]].name : "(anonymous)",
				 k + 1 < pr->n_moved ? "," : "");
		w_end(&w);
	}
	struct panel ps[2];
	int rc = panel_init(&ps[0], a, a->layout, opts, err);
	if (rc)
		return rc;
	rc = panel_init(&ps[1], a, &pr->layout, opts, err);
	const struct slt_analysis *left = r && r->analysis_after ? r->analysis_after[i] : NULL;
	size_t next = a->n_findings;
	if (!rc && slt_hm_set_findings(&ps[1].m, left, &next))
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc) {
		panel_geometry(&ps[1]);
		rc = pair(out, ps, width);
	}
	if (!rc) {
		legend(out, &ps[0], width);
		if (left && left->n_findings) {
			w_start(&w, out, width, 4);
			w_printf(&w, "left after proposal %zu (numbered as before when the "
				 "same finding):", i + 1);
			w_end(&w);
			findings_key(out, &ps[1].m, width);
		}
	}
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
	unsigned width = width_of(opts);
	struct wrap w;
	if (ropts && ropts->basis) {
		w_start(&w, out, width, 4);
		w_printf(&w, "member accesses %s", ropts->basis);
		w_end(&w);
	}
	w_start(&w, out, width, 4);
	w_printf(&w, "%s %s: %zu proposal%s", slt_hm_keyword(a->layout), a->layout->name,
		 advice->n_proposals, advice->n_proposals == 1 ? "" : "s");
	w_end(&w);
	if (!advice->n_proposals) {
		w_start(&w, out, width, 4);
		w_printf(&w, "no proposal%s%s", advice->note && advice->note[0] ? ": " : "",
			 advice->note ? advice->note : "");
		w_end(&w);
	}
	/* no proposal: the original's map still, after the reason */
	if (!advice->n_proposals)
		return slt_report_analysis_map(out, a, opts, err);
	int rc = 0;
	for (size_t i = 0; !rc && i < advice->n_proposals; i++) {
		if (i)
			fputc('\n', out);
		rc = proposal_map(out, advice, i, opts, ropts, err);
	}
	struct slt_hm orig;
	if (!rc && !(rc = slt_hm_build(&orig, a, a->layout, err))) {
		fputc('\n', out);
		numbers_key(out, &orig, advice, "numbers of the original", width);
		slt_hm_free(&orig);
	}
	if (!rc) {
		struct slt_hm m = { .a = a, .fa = a };
		findings_key(out, &m, width);
	}
	return finish(out, rc, err);
}
