/* SPDX-License-Identifier: MIT */
/*
 * The HTML page of report --html and suggest --html
 * (structlint/map_report.h): one document, everything inline (CSS, SVG
 * maps), no script and no reference outside the page, so it opens from a
 * CI job's artifacts as it is.  Per definition (section sN): the numbers,
 * the map (sN-lK: line K; its finding markers after the line's number,
 * in view at any width), the findings (sN-fK: finding K), and per
 * proposal its numbers and its map beside the original's.  Colours carry
 * the letters' meaning too (the legend); the maps are drawn at one
 * legible size (html_svg.c: text 10.8px; a narrower window scrolls the
 * map's box sideways, never the page); printed, the colours are kept
 * (print-color-adjust), each map is as wide as the page, before above
 * after, tables wrap, and the C declarations are shown.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "join/join_int.h"
#include "report/html_int.h"
#include "structlint/map_report.h"

static const char css[] =
":root{color-scheme:light}\n"
"body{font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",sans-serif;color:#1a1a1a;"
"background:#fff;margin:0 auto;padding:0 1em 2em;max-width:110em}\n"
/* prose keeps a readable measure; the body is wider for a pair of maps */
"p,ol,ul,details{max-width:72em}\n"
"h1{font-size:1.45em;margin:.8em 0 .2em}h2{font-size:1.25em;margin-top:1.6em;"
"border-bottom:2px solid #ddd}h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
"code{font-family:ui-monospace,monospace;font-size:.95em}\n"
".meta{color:#555;margin:0 0 1em}\n"
".scroll{overflow-x:auto;max-width:100%}\n"
"table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.3em 0 1em}\n"
"th,td{border:1px solid #ccc;padding:.15em .55em;text-align:right;vertical-align:top}\n"
"th{background:#f3f3f3;text-align:left}td.l{text-align:left}\n"
/* maps at their own size (html_svg.c: 9-unit text drawn 10.8px), never
 * scaled down: a narrower window scrolls the map's box, not the page */
"svg.map{display:block;max-width:none}\n"
".mapbox{overflow-x:auto;max-width:100%}\n"
"svg text{font:9px ui-monospace,monospace;fill:#222}\n"
"svg .lab,svg .off{text-anchor:end;fill:#555}svg .ru{fill:#777}\n"
"svg .nl{fill:#111}svg .nm{fill:#fff;pointer-events:none}svg .c-mx+.nm,svg .c-none+.nm,"
"svg .c-cold+.nm{fill:#111}\n"
"svg .mk{fill:#b00;font-weight:bold}svg a:hover .mk{text-decoration:underline}\n"
".c-hw{fill:#c62828}.c-rm{fill:#1f5fa8}.c-mx{fill:#f0a030}.c-ts{fill:#8e3f9e}"
".c-cold{fill:#b9b9b9}.c-none{fill:#e4e4e4}.c-hole{fill:#fff;stroke:#bbb;"
"stroke-dasharray:2 2}.c-out{fill:none}.heat{fill:#c62828}\n"
"svg .bg{fill:transparent}svg .ln:target .bg{fill:#fff59d}\n"
"svg .ln rect.m{stroke:#fff;stroke-width:1.2}\n"
"svg .ln rect:hover{stroke:#000;stroke-width:1.5}\n"
".key{display:flex;flex-wrap:wrap;gap:.3em 1em;padding:0;list-style:none;margin:.4em 0}\n"
".key span{display:inline-block;width:1.1em;height:1.1em;vertical-align:-.2em;"
"margin-right:.3em;border:1px solid #888}\n"
".k-hw{background:#c62828}.k-rm{background:#1f5fa8}.k-mx{background:#f0a030}"
".k-ts{background:#8e3f9e}.k-cold{background:#b9b9b9}.k-none{background:#e4e4e4}"
".k-hole{background:#fff;border-style:dashed!important}\n"
".pair{display:flex;flex-wrap:wrap;gap:1em}\n"
/* before and after side by side when both fit at their size, else
 * one above the other */
".pair figure{flex:0 1 auto;min-width:0;margin:0}\n"
"figure{margin:0 0 1em}figcaption{font-weight:600;margin:.2em 0}\n"
"ol.findings li{margin:.3em 0}ol.findings li:target{background:#fff59d}\n"
".kind{font-weight:600}.fix{color:#555}\n"
".print{display:none}\n"
/* printed: a map as wide as the page, before above after, tables wrap
 * in the page's width, no scroll box, the C declaration shown (a copy
 * outside the closed <details>); only small blocks are kept whole, so
 * no page is left blank before a long section */
"@media print{body{max-width:none;font-size:10pt;padding:0}"
"a{color:inherit;text-decoration:none}"
"h2,h3,figcaption{break-after:avoid}tr,li,.key{break-inside:avoid}"
"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
"svg.map{width:100%;height:auto;max-width:100%}"
".mapbox,.scroll{overflow:visible}.pair{display:block}"
".pair figure{margin:0 0 1em}"
"table{width:100%;table-layout:auto}th,td{overflow-wrap:break-word;padding:.1em .3em}"
"details{display:none}.print{display:block}"
"pre{white-space:pre-wrap;overflow:visible;font-size:8.5pt}}\n";

int slt_report_html_begin(FILE *out, const char *source, const char *names,
			  struct slt_error *err)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<link rel=\"icon\" href=\"data:,\"/>\n<title>", out);
	if (names && names[0]) {
		slt_html_esc(out, names);
		fputs(": ", out);
	}
	fputs("cacheline map (structlint)</title>\n<style>\n", out);
	fputs(css, out);
	fputs("</style>\n</head>\n<body>\n<h1>structlint: cacheline map</h1>\n"
	      "<p class=\"meta\">Input: <code>", out);
	slt_html_esc(out, source ? source : "the running kernel's BTF");
	fputs("</code></p>\n", out);
	fputs("<ul class=\"key\">"
	      "<li><span class=\"k-hw\"></span>W hot-write</li>"
	      "<li><span class=\"k-rm\"></span>R read-mostly</li>"
	      "<li><span class=\"k-mx\"></span>M mixed</li>"
	      "<li><span class=\"k-ts\"></span>T true-shared</li>"
	      "<li><span class=\"k-cold\"></span>c cold</li>"
	      "<li><span class=\"k-none\"></span>? no class</li>"
	      "<li><span class=\"k-hole\"></span>. hole or padding</li>"
	      "</ul>\n<p class=\"meta\">One row per cache line; hover a member for its "
	      "class and counts; <b>!N</b> marks finding N (follow it to the finding, "
	      "and the finding's line back to the map). With a profile, hotter members "
	      "are drawn more opaque and the bar after a line is its heat.</p>\n", out);
	if (ferror(out))
		return slt_error_set(err, SLT_EIO, NULL, -1, NULL, "write failed");
	return 0;
}

int slt_report_html_end(FILE *out, struct slt_error *err)
{
	fputs("</body>\n</html>\n", out);
	if (fflush(out) || ferror(out))
		return slt_error_set(err, SLT_EIO, NULL, -1, NULL, "write failed");
	return 0;
}

static void tr(FILE *out, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void tr(FILE *out, const char *what, const char *fmt, ...)
{
	va_list ap;
	fprintf(out, "<tr><th>%s</th><td>", what);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputs("</td></tr>\n", out);
}

static void numbers(FILE *out, const struct slt_analysis *a, const struct slt_hm *m,
		    const struct slt_advice *adv, const struct slt_advice_report_opts *r)
{
	const struct slt_struct *s = a->layout;
	fputs("<div class=\"scroll\"><table>\n", out);
	tr(out, "size", "%" PRIu64 " bytes", s->size);
	tr(out, "cache lines", "%" PRIu64 " of %u bytes", m->n_lines, m->cl);
	if (m->origin)
		tr(out, "instance start", "%" PRIu32 " bytes into line 0", m->origin);
	tr(out, "holes", "%" PRIu32 " (%" PRIu64 " bytes)", s->n_byte_holes, s->sum_byte_holes);
	tr(out, "tail padding", "%" PRIu64 " bytes", s->padding);
	tr(out, "findings", "%zu", a->n_findings);
	if (adv && adv->n_proposals) {
		unsigned block = r && r->separation > m->cl ? r->separation : m->cl;
		tr(out, "false-sharing score", "%g (basis: %s; as the proposals count it: "
		   "the advisor's collision and write-write pairs per %u-byte %s; straddle "
		   "and adjacent-line findings not counted)", slt_hm_score(a, adv),
		   slt_score_basis_name(a->basis), block, block > m->cl ? "block" : "line");
	} else {
		tr(out, "false-sharing score", "%g (basis: %s; the collision and write-write "
		   "findings' scores summed; straddle and adjacent-line findings not counted)",
		   slt_hm_score(a, NULL), slt_score_basis_name(a->basis));
	}
	const char *src = slt_hm_given_source(m);
	if (src)
		tr(out, "classes", "%s%s", src,
		   a->profile && a->profile->members ? ", the others measured" : "");
	struct slt_slab_cost c;
	bool hw;
	if (r && r->nr_cpus && !slt_hm_slab(a, r->nr_cpus, &c, &hw)) {
		char b[48];
		if (c.no_slab_cache)
			tr(out, "slab", "%s; too large for a slab cache",
			   slt_slab_class_name(&c, b, sizeof(b)));
		else
			tr(out, "slab", "in a kmem_cache of its own %s: %" PRIu64 " B objects, "
			   "%u per order-%u slab (%u CPUs); kmalloc()'d instead: %s",
			   hw ? "with SLAB_HWCACHE_ALIGN (assumed)" : "without SLAB_HWCACHE_ALIGN",
			   c.object_size, c.objects_per_slab, c.order, r->nr_cpus,
			   slt_slab_class_name(&c, b, sizeof(b)));
	}
	fputs("</table></div>\n", out);
}

static void member_list(FILE *out, const struct slt_analysis *a,
			const struct slt_finding *f)
{
	for (size_t k = 0; k < f->n_members; k++) {
		char path[512];
		size_t mi = f->members[k];
		fputs(k ? ", <code>" : " <code>", out);
		slt_html_esc(out, slt_member_path(a->layout, mi, path, sizeof(path)));
		fprintf(out, "</code> (%s%s)", slt_class_name(a->classes[mi].cls),
			k < f->n_writers ? ", written" : "");
	}
}

/* The findings of m->fa as a list: items FID-fN (N: slt_hm_fnum()),
 * their lines linked to LID-lK. */
static void findings(FILE *out, const struct slt_hm *m, const char *fid,
		     const char *lid)
{
	const struct slt_analysis *a = m->fa;
	fputs("<ol class=\"findings\">\n", out);
	for (size_t i = 0; i < a->n_findings; i++) {
		const struct slt_finding *f = &a->findings[i];
		size_t num = slt_hm_fnum(m, i);
		fprintf(out, "<li id=\"%s-f%zu\" value=\"%zu\"><a href=\"#%s-l%" PRIu64 "\">line %"
			PRIu64 "</a>", fid, num, num, lid, f->line, f->line);
		if (f->kind == SLT_FIND_STRADDLE || f->kind == SLT_FIND_ADJACENT)
			fprintf(out, " and <a href=\"#%s-l%" PRIu64 "\">%" PRIu64 "</a>",
				lid, f->line2, f->line2);
		fprintf(out, ": <span class=\"kind\">%s</span>, score %g:",
			slt_finding_kind_name(f->kind), f->score);
		member_list(out, a, f);
		fputs(". <span class=\"fix\">", out);
		slt_html_esc(out, f->advice);
		fputs("</span></li>\n", out);
	}
	fputs("</ol>\n", out);
}

static void slab_cell(FILE *out, const struct slt_slab_cost *c)
{
	char b[48];
	slt_html_esc(out, slt_slab_class_name(c, b, sizeof(b)));
}

static void proposals_table(FILE *out, const struct slt_advice *adv,
			    const struct slt_advice_report_opts *r, const char *sid)
{
	fputs("<div class=\"scroll\"><table>\n<tr><th>proposal</th><th>bytes</th>"
	      "<th>lines</th><th>false-sharing score</th><th>cost</th><th>kmalloc()'d instead</th>"
	      "<th>own kmem_cache: order, objects/slab, object bytes</th><th>moved</th>"
	      "<th>findings left</th></tr>\n", out);
	for (size_t i = 0; i < adv->n_proposals; i++) {
		const struct slt_proposal *p = &adv->proposals[i];
		fprintf(out, "<tr><td class=\"l\"><a href=\"#%s-p%zu\">%zu. %s</a></td>"
			"<td>%" PRIu64 " &#8594; %" PRIu64 " (%+" PRId64 ")</td>"
			"<td>%" PRIu64 " &#8594; %" PRIu64 "</td><td>%g &#8594; %g</td>"
			"<td>%g &#8594; %g</td><td class=\"l\">",
			sid, i + 1, i + 1, slt_proposal_kind_name(p->kind),
			p->size_before, p->size_after, p->bytes_added,
			p->lines_before, p->lines_after, p->score_before, p->score_after,
			p->cost_before, p->cost_after);
		slab_cell(out, &p->slab_before);
		fputs(" &#8594; ", out);
		slab_cell(out, &p->slab_after);
		if (slt_slab_tips(&p->slab_before, &p->slab_after))
			fputs(" (larger class)", out);
		if (p->slab_before.embedded)
			fprintf(out, "</td><td>none (embedded)</td><td>%zu</td><td>", p->n_moved);
		else
			fprintf(out, "</td><td>%u, %u, %" PRIu64 " &#8594; %u, %u, %" PRIu64
				"</td><td>%zu</td><td>",
				p->slab_before.order, p->slab_before.objects_per_slab,
				p->slab_before.object_size, p->slab_after.order,
				p->slab_after.objects_per_slab, p->slab_after.object_size,
				p->n_moved);
		if (r && r->findings_after && r->findings_after[i] >= 0)
			fprintf(out, "%zd", r->findings_after[i]);
		else
			fputs("not re-checked", out);
		fputs("</td></tr>\n", out);
	}
	fputs("</table></div>\n", out);
	if (r && r->nr_cpus)
		fprintf(out, "<p class=\"meta\">SLUB figures for %u CPUs.</p>\n", r->nr_cpus);
}

static int proposal(FILE *out, const struct slt_advice *adv, size_t i,
		    const struct slt_hm *before, const char *sid,
		    const struct slt_advice_report_opts *r, struct slt_error *err)
{
	const struct slt_proposal *p = &adv->proposals[i];
	const struct slt_struct *o = adv->analysis->layout;
	struct slt_hm after;
	int rc = slt_hm_build(&after, adv->analysis, &p->layout, err);
	if (rc)
		return rc;
	after.given_word = before->given_word;
	const struct slt_analysis *left = r && r->analysis_after ? r->analysis_after[i] : NULL;
	size_t next = adv->analysis->n_findings;
	if (slt_hm_set_findings(&after, left, &next)) {
		slt_hm_free(&after);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	fprintf(out, "<h3 id=\"%s-p%zu\">Proposal %zu: %s</h3>\n", sid, i + 1, i + 1,
		slt_proposal_kind_name(p->kind));
	if (p->summary && p->summary[0]) {
		fputs("<p>", out);
		slt_html_esc(out, p->summary);
		fputs("</p>\n", out);
	}
	if (p->n_moved) {
		fputs("<p>Moved:", out);
		for (size_t k = 0; k < p->n_moved; k++) {
			fputs(k ? ", <code>" : " <code>", out);
			slt_html_esc(out, o->members[p->moved[k]].name[0] ?
				     o->members[p->moved[k]].name : "(anonymous)");
			fputs("</code>", out);
		}
		fputs("</p>\n", out);
	}
	char id[64], label[80], fid[64];
	snprintf(fid, sizeof(fid), "%s-p%zu", sid, i + 1);
	fputs("<div class=\"pair\">\n<figure class=\"mapbox\"><figcaption>before</figcaption>\n", out);
	snprintf(id, sizeof(id), "%s-p%zub", sid, i + 1);
	slt_html_svg(out, before, id, sid, "the original layout");
	fputs("</figure>\n<figure class=\"mapbox\"><figcaption>after</figcaption>\n", out);
	snprintf(id, sizeof(id), "%s-p%zua", sid, i + 1);
	snprintf(label, sizeof(label), "proposal %zu", i + 1);
	slt_html_svg(out, &after, id, fid, label);
	fputs("</figure>\n</div>\n", out);
	if (left) {
		fprintf(out, "<p>Findings left after proposal %zu: %zu%s</p>\n", i + 1,
			left->n_findings, left->n_findings ? " (numbered as before when the "
			"same finding)" : "");
		if (left->n_findings)
			findings(out, &after, fid, id);
	}
	if (p->c_decl && p->c_decl[0]) {
		/* collapsed on screen; printed, the copy after it */
		for (int copy = 0; copy < 2; copy++) {
			fputs(copy ? "<div class=\"print\"><p>C declaration</p><pre><code>" :
			      "<details><summary>C declaration</summary><pre><code>", out);
			slt_html_esc(out, p->c_decl);
			fputs(copy ? "</code></pre></div>\n" : "</code></pre></details>\n", out);
		}
	}
	slt_hm_free(&after);
	return 0;
}

int slt_report_html_struct(FILE *out, size_t index,
			   const struct slt_analysis *a,
			   const struct slt_advice *adv,
			   const struct slt_report_opts *opts,
			   const struct slt_advice_report_opts *r,
			   struct slt_error *err)
{
	struct slt_hm m;
	int rc = slt_hm_build(&m, a, a->layout, err);
	if (rc)
		return rc;
	m.given_word = opts ? opts->given_word : NULL;
	char sid[32];
	snprintf(sid, sizeof(sid), "s%zu", index);
	const struct slt_struct *s = a->layout;
	fprintf(out, "<section id=\"%s\">\n<h2>%s <code>", sid, slt_hm_keyword(s));
	slt_html_esc(out, s->name);
	fputs("</code></h2>\n", out);
	if (s->decl_file && s->decl_file[0]) {
		fputs("<p class=\"meta\">Defined at <code>", out);
		slt_html_esc(out, s->decl_file);
		fprintf(out, ":%" PRIu32 "</code></p>\n", s->decl_line);
	}
	if (r && r->basis) {
		fputs("<p class=\"meta\">Member accesses ", out);
		slt_html_esc(out, r->basis);
		fputs("</p>\n", out);
	}
	numbers(out, a, &m, adv, r);
	fputs("<figure class=\"mapbox\">\n", out);
	slt_html_svg(out, &m, sid, sid, s->name);
	fputs("</figure>\n", out);
	fputs("<h3>Findings</h3>\n", out);
	if (a->n_findings)
		findings(out, &m, sid, sid);
	else
		fputs("<p>No finding.</p>\n", out);
	if (adv) {
		fputs("<h3>Proposals</h3>\n", out);
		if (!adv->n_proposals) {
			fputs("<p>No proposal", out);
			if (adv->note && adv->note[0]) {
				fputs(": ", out);
				slt_html_esc(out, adv->note);
			}
			fputs(".</p>\n", out);
		} else {
			proposals_table(out, adv, r, sid);
		}
		for (size_t i = 0; !rc && i < adv->n_proposals; i++)
			rc = proposal(out, adv, i, &m, sid, r, err);
	}
	fputs("</section>\n", out);
	slt_hm_free(&m);
	if (!rc && ferror(out))
		rc = slt_error_set(err, SLT_EIO, NULL, -1, NULL, "write failed");
	return rc;
}
