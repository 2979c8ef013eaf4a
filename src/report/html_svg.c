/* SPDX-License-Identifier: MIT */
/*
 * One cacheline map as inline SVG (html_int.h): a row per line, a
 * rectangle per run of bytes of one owner, coloured by class (CSS classes
 * of html_page.c) and, with a profile, made more opaque the hotter the
 * member; its <title> is what a hover shows.  Names are written inside
 * their run when they fit.  Geometry in SVG user units; the page scales
 * the whole picture to the window (viewBox).
 */
#include <inttypes.h>
#include <string.h>

#include "join/join_int.h"
#include "report/html_int.h"

#define ROW 16          /* row height */
#define NROW 12         /* height of a row of names under a line */
#define GUT 76          /* left gutter: line and offset, and after the
			 * line the widest line's finding markers */
#define MK0 26          /* the first finding marker, after the line */
#define RIGHT 28        /* right margin: the heat bar */
#define TOP 14          /* ruler */
#define CELLS 512.0     /* width of one line's bytes */
#define CHAR_W 5.6      /* a 9px monospace character, about */
/* Drawn at SCALE px per unit (html_page.c's CSS does not scale it down):
 * the 9-unit text is 10.8px at every window width; a narrower window
 * scrolls the map's box sideways, never the page.  Printed, a map is as
 * wide as the page. */
#define SCALE 1.2

void slt_html_esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* control characters have no place in XML 1.0 */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				fputc('?', out);
			else
				fputc(*s, out);
		}
	}
}

const char *slt_html_class(const struct slt_hm *m, long owner)
{
	switch (slt_hm_letter(m, owner)) {
	case 'W': return "c-hw";
	case 'R': return "c-rm";
	case 'M': return "c-mx";
	case 'T': return "c-ts";
	case 'c': return "c-cold";
	case '?': return "c-none";
	case '.': return "c-hole";
	default: return "c-out";
	}
}

/* Member i: its path, type, place, class and counts. */
static void member_text(FILE *out, const struct slt_hm *m, long o)
{
	const struct slt_member *mb = &m->s->members[o];
	char path[512];
	slt_html_esc(out, slt_member_path(m->s, (size_t)o, path, sizeof(path))[0] ?
			  path : "(anonymous)");
	fputs(" (", out);
	slt_html_esc(out, mb->type);
	if (mb->flags & SLT_MEMBER_BITFIELD)
		fprintf(out, "): offset %" PRIu64 " bit %" PRIu32 ", %" PRIu32 " bit%s",
			mb->offset, mb->bit_offset, mb->bit_size, mb->bit_size == 1 ? "" : "s");
	else
		fprintf(out, "): offset %" PRIu64 ", %" PRIu64 " byte%s", mb->offset,
			mb->size, mb->size == 1 ? "" : "s");
	const struct slt_member_class *c = slt_hm_mclass(m, o);
	if (c) {
		/* as the legend names it */
		fprintf(out, "; %s", c->cls == SLT_CLASS_NONE ? "no class" : slt_class_name(c->cls));
		if (c->label) {
			fputc(':', out);
			slt_html_esc(out, c->label);
		}
		if (c->given)
			fprintf(out, " (%s)", m->given_word ? m->given_word : "given");
	}
	const struct slt_member_access *acc = slt_hm_access(m, o);
	if (acc)
		fprintf(out, "; loads %" PRIu64 ", stores %" PRIu64 ", HITM %" PRIu64
			", heat %.2f", acc->loads, acc->stores,
			acc->hitm_local + acc->hitm_remote, c ? c->heat : 0);
}

/* The hover text of owner o on bytes b .. b+n of line k: the owner, then
 * the members drawn on none of these bytes that hold some of them
 * (another union arm, a bitfield sharing them), a finding's first. */
static void title(FILE *out, const struct slt_hm *m, long o, uint64_t k,
		  unsigned b, unsigned n)
{
	fputs("<title>", out);
	if (o < 0) {
		fprintf(out, "%s, %u byte%s at offset %" PRIu64,
			o == HM_HOLE ? "hole or padding" : "outside the instance",
			n, n == 1 ? "" : "s", k * m->cl + b - m->origin);
		fputs("</title>", out);
		return;
	}
	member_text(out, m, o);
	if (m->s->members[o].flags & SLT_MEMBER_ZERO_SIZE)
		fprintf(out, "; the padding it forces: %u byte%s here", n, n == 1 ? "" : "s");
	uint64_t lo = k * m->cl + b, hi = lo + n;
	for (int pass = 0; pass < 2; pass++)
		for (size_t x = m->hid_at[k]; x < m->hid_at[k + 1]; x++) {
			long i = m->hid[x];
			const struct slt_member *mb = &m->s->members[i];
			uint64_t a = m->origin + mb->offset, e = a + mb->size;
			if (m->named[i] != !pass || e <= lo || a >= hi)
				continue;
			fputs("; also here: ", out);
			member_text(out, m, i);
		}
	/* members drawn on other bytes of the line that hold some of these
	 * (a union's arm split by a hotter one: raw beside hi), each once */
	long seen[64];
	size_t n_seen = 0;
	for (unsigned b2 = 0; b2 < m->cl; b2++) {
		long i = slt_hm_owner(m, k, b2);
		if (i < 0 || i == o || (b2 && slt_hm_owner(m, k, b2 - 1) == i))
			continue;
		const struct slt_member *mb = &m->s->members[i];
		uint64_t a = m->origin + mb->offset, e = a + mb->size;
		size_t x = 0;
		while (x < n_seen && seen[x] != i)
			x++;
		if (e <= lo || a >= hi || x < n_seen)
			continue;
		if (n_seen < sizeof(seen) / sizeof(seen[0]))
			seen[n_seen++] = i;
		fputs("; also here: ", out);
		member_text(out, m, i);
	}
	fputs("</title>", out);
}

/* Width of the finding markers of line k ("!N" each, 2 apart). */
static double marks_w(const struct slt_hm *m, uint64_t k)
{
	double w = 0;
	for (size_t i = 0; m->fa && i < m->fa->n_findings; i++)
		if (slt_hm_finding_on(&m->fa->findings[i], k))
			w += 8 + 6 * slt_hm_digits(slt_hm_fnum(m, i));
	return w;
}

/* The name of owner o fits inside its run of w units. */
static bool fits(const struct slt_hm *m, long o, double w)
{
	const char *name = o >= 0 ? slt_hm_label(m, o) : "";
	return name[0] && strlen(name) * CHAR_W + 3 <= w;
}

/* The names of line k that are not written in their run (too narrow, or
 * drawn on no byte: a union's other arm, a bitfield sharing bytes, a
 * member drawn through its members), every member's (each is findable on
 * the page, not only by hovering), as the
 * terminal map lists them after a row: "+a, b", wrapped at width units
 * from x0.  Written when out is not NULL; returns the rows used. */
static unsigned names(FILE *out, const struct slt_hm *m, uint64_t k, double cw,
		      double x0, double y, double width)
{
	unsigned rows = 0;
	double x = x0;
	size_t n = 0;
	for (int pass = 0; pass < 2; pass++) {
		unsigned b = 0;
		size_t x_hid = m->hid_at[k];
		for (;;) {
			long o;
			if (!pass) {
				if (b >= m->cl)
					break;
				o = slt_hm_owner(m, k, b);
				unsigned e = b + 1;
				while (e < m->cl && slt_hm_owner(m, k, e) == o)
					e++;
				double w = (e - b) * cw;
				unsigned s0 = b;
				b = e;
				if (o < 0 || fits(m, o, w))
					continue;
				/* a member split by another's bytes: named once */
				unsigned c = 0;
				while (c < s0 && slt_hm_owner(m, k, c) != o)
					c++;
				if (c < s0)
					continue;
			} else {
				if (x_hid >= m->hid_at[k + 1])
					break;
				o = m->hid[x_hid++];
			}
			const char *nm = slt_hm_label(m, o);
			if (!nm[0])
				continue;
			double len = (strlen(nm) + (n ? 2 : 1)) * CHAR_W;
			if (!rows || (n && x + len > x0 + width)) {
				/* the comma ends the row before */
				if (out && rows)
					fputs(",</text>", out);
				rows++;
				x = x0;
				if (out)
					fprintf(out, "<text class=\"nl\" x=\"%.0f\" y=\"%.0f\">%s",
						x0, y + rows * NROW - 3, rows == 1 ? "+" : "&#160;");
				len = (strlen(nm) + 1) * CHAR_W;
			} else if (out) {
				fputs(", ", out);
			}
			if (out)
				slt_html_esc(out, nm);
			x += len;
			n++;
		}
	}
	if (out && rows)
		fputs("</text>", out);
	return rows;
}

/* Line k at y (its names rows below it): the whole picture is w wide,
 * its cells start at gut; the finding markers stand between the line's
 * number and its offset, so a narrow window that shows the start of the
 * map's box shows them. */
static void row(FILE *out, const struct slt_hm *m, uint64_t k, const char *id,
		const char *fid, double cw, double y, double w, double gut)
{
	if (id)
		fprintf(out, "<g class=\"ln\" id=\"%s-l%" PRIu64 "\">", id, k);
	else
		fputs("<g class=\"ln\">", out);
	fprintf(out, "<rect class=\"bg\" x=\"0\" y=\"%.0f\" width=\"%.0f\" height=\"%d\"/>",
		y, w, ROW);
	fprintf(out, "<text class=\"lab\" x=\"%d\" y=\"%.0f\">%" PRIu64 "</text>"
		"<text class=\"off\" x=\"%d\" y=\"%.0f\">+%" PRIu64 "</text>",
		22, y + 12, k, (int)gut - 4, y + 12, k ? k * m->cl - m->origin : 0);
	bool prof = m->a->profile && m->a->profile->members;
	for (unsigned b = 0; b < m->cl;) {
		long o = slt_hm_owner(m, k, b);
		unsigned e = b + 1;
		while (e < m->cl && slt_hm_owner(m, k, e) == o)
			e++;
		if (o != HM_OUTSIDE) {
			double x = gut + b * cw, rw = (e - b) * cw;
			/* class m: a member, outlined so that neighbours of
			 * one class stay apart */
			fprintf(out, "<rect class=\"%s%s\" x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\"",
				slt_html_class(m, o), o >= 0 ? " m" : "", x, y + 1, rw, ROW - 2);
			if (prof && o >= 0 && slt_hm_access(m, o))
				fprintf(out, " fill-opacity=\"%.2f\"", 0.3 + 0.7 * slt_hm_heat(m, o));
			fputc('>', out);
			title(out, m, o, k, b, e - b);
			fputs("</rect>", out);
			if (fits(m, o, rw)) {
				fprintf(out, "<text class=\"nm\" x=\"%.2f\" y=\"%.0f\">", x + 2, y + 11);
				slt_html_esc(out, slt_hm_label(m, o));
				fputs("</text>", out);
			}
		}
		b = e;
	}
	double x = gut + CELLS + 4;
	int h = slt_hm_line_heat(m, k);
	if (h > 0) {
		fprintf(out, "<rect class=\"heat\" x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"%d\">"
			"<title>heat %d of 5</title></rect>", x, y + 4, 4 * h, ROW - 8, h);
	}
	x = MK0;
	for (size_t i = 0; fid && m->fa && i < m->fa->n_findings; i++) {
		if (!slt_hm_finding_on(&m->fa->findings[i], k))
			continue;
		size_t num = slt_hm_fnum(m, i);
		fprintf(out, "<a href=\"#%s-f%zu\"><text class=\"mk\" x=\"%.0f\" y=\"%.0f\">!%zu"
			"<title>finding %zu: %s</title></text></a>", fid, num, x, y + 12,
			num, num, slt_finding_kind_name(m->fa->findings[i].kind));
		x += 8 + 6 * slt_hm_digits(num);
	}
	names(out, m, k, cw, gut, y + ROW, w - gut - 2);
	fputs("</g>\n", out);
}

void slt_html_svg(FILE *out, const struct slt_hm *m, const char *id,
		  const char *fid, const char *label)
{
	double cw = CELLS / m->cl;
	/* the gutter as wide as the widest line's markers need */
	double gut = GUT;
	for (uint64_t k = 0; fid && k < m->n_lines; k++) {
		double e = GUT + marks_w(m, k);
		if (e > gut)
			gut = e;
	}
	double w = gut + CELLS + RIGHT;
	/* one <svg> per line (its names rows, and the ruler with line 0),
	 * each a window (viewBox) on the one picture: stacked they are the
	 * map, and a printed page may break between any two lines (an <svg>
	 * is never broken, so one for the whole map went to the next page
	 * whole, leaving the page before it half blank) */
	fputs("<div class=\"map\" role=\"img\" aria-label=\"", out);
	slt_html_esc(out, label);
	fputs("\">\n", out);
	double y = TOP;
	for (uint64_t k = 0; k < m->n_lines; k++) {
		double y0 = k ? y : 0;
		double y1 = y + ROW + NROW * names(NULL, m, k, cw, gut, 0, w - gut - 2);
		if (k + 1 == m->n_lines)
			y1 += 2;
		fprintf(out, "<svg class=\"map\" viewBox=\"0 %.0f %.0f %.0f\" width=\"%.0f\" "
			"height=\"%.1f\">\n", y0, w, y1 - y0, w * SCALE, (y1 - y0) * SCALE);
		if (!k) {
			/* the ruler: byte offsets within the line, every eighth */
			for (unsigned b = 0; b < m->cl; b += m->cl / 8 ? m->cl / 8 : 1)
				fprintf(out, "<text class=\"ru\" x=\"%.2f\" y=\"10\">%u</text>",
					gut + b * cw, b);
			fprintf(out, "<text class=\"ru\" x=\"2\" y=\"10\">line</text>\n");
		}
		row(out, m, k, id, fid, cw, y, w, gut);
		fputs("</svg>\n", out);
		y = y1;
	}
	fputs("</div>\n", out);
}
