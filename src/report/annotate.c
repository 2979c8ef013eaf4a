/* SPDX-License-Identifier: MIT */
/*
 * The annotated pahole-style view (slt_report_analysis_text()).
 *
 * The layout is written by the layout text writer (text.c, colour off) into
 * memory, and each line that ends in a member's offset comment
 * "/" "* OFFSET SIZE *" "/" (or "OFFSET: BIT SIZE" for bitfields) gets
 * "\t/" "* CLASS[:LABEL] [(given)] ld=N st=N hitm=N [ncpus=N] HEAT *" "/"
 * appended (ncpus: how many distinct CPUs, when the samples name them;
 * the findings list the CPUs themselves as cpulist=0-3,8, the kernel's
 * cpulist format).  Member comments
 * come in the writer's order: pre-order, except that an inline composite's
 * comment is on its closing brace, after its members.  Every matched line's
 * offset is checked against the member's; if the text does not line up
 * (a writer change), the layout is printed untouched and the annotations
 * follow as a table, so nothing is ever attached to the wrong member.
 * Removing everything from the TAB on gives the layout text back, for diffs
 * against pahole.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"
#include "join/join_int.h"
#include "report/annotate.h"
#include "structlint/analysis.h"
#include "structlint/report.h"
#include "structlint/rules.h"

/* Members in the order the text writer prints their offset comments. */
static size_t print_order(const struct slt_struct *s, size_t i, size_t end,
			  size_t *order, size_t n)
{
	while (i < end) {
		size_t sub = i + 1;
		while (sub < s->n_members && s->members[sub].depth > s->members[i].depth)
			sub++;
		n = print_order(s, i + 1, sub, order, n);
		order[n++] = i;
		i = sub;
	}
	return n;
}

/* Offset from a line ending in an offset comment, or -1. */
static int64_t comment_offset(const char *line, size_t len)
{
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	if (len < 4 || line[len - 1] != '/' || line[len - 2] != '*')
		return -1;
	size_t open = len - 2;
	while (open > 1 && !(line[open - 2] == '/' && line[open - 1] == '*'))
		open--;
	if (open < 2)
		return -1;
	const char *p = line + open, *e = line + len - 2;
	int64_t off = 0;
	int nums = 0;
	bool colon = false;
	while (p < e) {
		if (*p == ' ') {
			p++;
		} else if (*p >= '0' && *p <= '9') {
			int64_t v = 0;
			while (p < e && *p >= '0' && *p <= '9')
				v = v * 10 + (*p++ - '0');
			if (nums++ == 0)
				off = v;
		} else if (*p == ':' && nums == 1 && !colon) {
			colon = true;
			p++;
		} else {
			return -1;
		}
	}
	return nums == (colon ? 3 : 2) ? off : -1;
}

static void heat_bar(double heat, uint64_t acc, char *buf)
{
	int n = (int)(heat * 5 + 0.5);
	if (acc && n == 0)
		n = 1;
	for (int i = 0; i < n && i < 5; i++)
		buf[i] = '#';
	buf[n < 5 ? n : 5] = 0;
}

/* The notes' context: the analysis and the words for given classes. */
struct nctx {
	const struct slt_analysis *a;
	const struct slt_report_opts *ro;
};

const char *slt_report_class_source(const struct slt_analysis *a,
				    const struct slt_report_opts *o, size_t i)
{
	size_t at = a->classes[i].given_at < a->layout->n_members ? a->classes[i].given_at : i;
	if (o && o->member_sources && o->member_sources[at])
		return o->member_sources[at];
	return o && o->given_word ? o->given_word : "given";
}

const char *slt_report_findings_basis(const struct slt_analysis *a,
				      const struct slt_report_opts *o)
{
	if (a->profile && a->profile->ip_recorded)
		return "estimated from IP samples";
	if (o && o->given_word && !strncmp(o->given_word, "static", 6))
		return "static classes";
	return NULL;
}

static bool has_note(const void *ctx, size_t i)
{
	const struct slt_analysis *a = ((const struct nctx *)ctx)->a;
	return a->classes[i].cls != SLT_CLASS_NONE ||
	       (a->profile && a->profile->members &&
		a->profile->members[i].loads + a->profile->members[i].stores);
}

static void note(FILE *f, const void *ctx, size_t i)
{
	const struct slt_analysis *a = ((const struct nctx *)ctx)->a;
	const struct slt_report_opts *ro = ((const struct nctx *)ctx)->ro;
	const struct slt_member_access *m = a->profile && a->profile->members ?
					    &a->profile->members[i] : NULL;
	/* no class (a nameless struct or union: its members' counts,
	 * summed): the counts alone */
	bool cls = a->classes[i].cls != SLT_CLASS_NONE;
	fprintf(f, "/*%s%s%s%s", cls ? " " : "", cls ? slt_class_name(a->classes[i].cls) : "",
		a->classes[i].label ? ":" : "", a->classes[i].label ? a->classes[i].label : "");
	if (a->classes[i].given)
		fprintf(f, " (%s)", slt_report_class_source(a, ro, i));
	if (m) {
		char bar[8];
		uint64_t acc = m->loads + m->stores;
		heat_bar(a->classes[i].heat, acc, bar);
		fprintf(f, " ld=%" PRIu64 " st=%" PRIu64 " hitm=%" PRIu64,
			m->loads, m->stores,
			m->hitm_local + m->hitm_remote + m->peer_local + m->peer_remote);
		if (m->n_cpus)   /* writers: CPUs, or threads (IP-sample estimates) */
			fprintf(f, " %s=%zu", a->profile->writers_threads ? "nthreads" : "ncpus",
				m->n_cpus);
		fprintf(f, "%s%s", bar[0] ? " " : "", bar);
	}
	fputs(" */", f);
}

/* Write the layout text with annotations; text is the writer's output. */
static void annotate(FILE *f, const struct slt_struct *s, slt_note_has_fn has,
		     slt_note_fn put, const void *a, const char *text,
		     size_t len, const size_t *order, size_t n_order)
{
	/* First pass: does every offset comment line up? */
	size_t k = 0;
	bool ok = true;
	for (const char *l = text; l < text + len;) {
		const char *nl = memchr(l, '\n', (size_t)(text + len - l));
		size_t ll = nl ? (size_t)(nl - l) : (size_t)(text + len - l);
		int64_t off = comment_offset(l, ll);
		if (off >= 0 && (k >= n_order || (uint64_t)off != s->members[order[k++]].offset))
			ok = false;
		l += ll + (nl != NULL);
	}
	if (k != n_order)
		ok = false;
	k = 0;
	for (const char *l = text; l < text + len;) {
		const char *nl = memchr(l, '\n', (size_t)(text + len - l));
		size_t ll = nl ? (size_t)(nl - l) : (size_t)(text + len - l);
		fwrite(l, 1, ll, f);
		if (ok && comment_offset(l, ll) >= 0) {
			size_t i = order[k++];
			if (has(a, i)) {
				fputc('\t', f);
				put(f, a, i);
			}
		}
		fputc('\n', f);
		l += ll + (nl != NULL);
	}
	if (ok)
		return;
	fputs("\n/* annotations (the layout text did not line up with the members) */\n", f);
	for (size_t i = 0; i < s->n_members; i++) {
		char path[512];
		if (!has(a, i))
			continue;
		fprintf(f, "%-32s %6" PRIu64 " %5" PRIu64 "\t",
			slt_member_path(s, i, path, sizeof(path)), s->members[i].offset,
			s->members[i].size);
		put(f, a, i);
		fputc('\n', f);
	}
}

static void member_line(FILE *f, const struct slt_analysis *a, size_t i,
			const char *role, const struct slt_report_opts *ro)
{
	const struct slt_struct *s = a->layout;
	const struct slt_member *m = &s->members[i];
	char path[512], top[512];
	size_t u = slt_member_unit(s, i);
	fprintf(f, "    %-11s %s", role,
		slt_member_path(s, i, path, sizeof(path))[0] ? path : "(anonymous)");
	if (u != i)
		fprintf(f, " (in %s)", slt_member_path(s, u, top, sizeof(top)));
	fprintf(f, "  bytes %" PRIu64 "..%" PRIu64 "  %s%s%s",
		m->offset, m->offset + (m->size ? m->size - 1 : 0),
		slt_class_name(a->classes[i].cls), a->classes[i].label ? ":" : "",
		a->classes[i].label ? a->classes[i].label : "");
	/* what the samples show beside a given class: true sharing */
	bool contended = a->classes[i].given && a->classes[i].cls != SLT_CLASS_TRUE_SHARED &&
			 a->classes[i].measured == SLT_CLASS_TRUE_SHARED;
	if (a->classes[i].given)
		fprintf(f, " (%s%s)", slt_report_class_source(a, ro, i),
			contended ? "; measured true-shared" : "");
	if (!a->profile || !a->profile->members) {
		fputc('\n', f);
		return;
	}
	const struct slt_member_access *ma = &a->profile->members[i];
	fprintf(f, "  ld=%" PRIu64 " st=%" PRIu64 " hitm=%" PRIu64,
		ma->loads, ma->stores,
		ma->hitm_local + ma->hitm_remote + ma->peer_local + ma->peer_remote);
	if (ma->n_cpus) {
		/* sorted by cpu: runs as ranges, "0-7,12" */
		fprintf(f, " cpulist=");
		size_t runs = 0, c = 0;
		while (c < ma->n_cpus && runs < 16) {
			size_t e = c;
			while (e + 1 < ma->n_cpus && ma->cpus[e + 1].cpu == ma->cpus[e].cpu + 1)
				e++;
			fprintf(f, "%s%d", runs++ ? "," : "", ma->cpus[c].cpu);
			if (e > c)
				fprintf(f, "-%d", ma->cpus[e].cpu);
			c = e + 1;
		}
		if (c < ma->n_cpus)
			fprintf(f, ",... (%zu CPUs)", ma->n_cpus);
	}
	fputc('\n', f);
	for (size_t l = 0; l < ma->n_locations && l < 3; l++) {
		const struct slt_code_location *cl = &ma->locations[l];
		fprintf(f, "                at %s%s%s", cl->symbol[0] ? cl->symbol : "",
			cl->symbol[0] && cl->source[0] ? " " : "", cl->source);
		if (!cl->symbol[0] && !cl->source[0])
			fprintf(f, "0x%" PRIx64, cl->ip);
		fprintf(f, " (ld=%" PRIu64 " st=%" PRIu64 " hitm=%" PRIu64 ")\n",
			cl->loads, cl->stores, cl->hitm);
	}
}

void slt_report_bases_note(FILE *f, const struct slt_analysis *a, const struct slt_finding *fd)
{
	unsigned n = a->n_bases, k = 0;
	for (unsigned b = 0; b < n; b++)
		k += (fd->bases >> b) & 1;
	if (k == n) {
		fputs("at every base", f);
		return;
	}
	fprintf(f, "only at %u of %u bases (base mod %u in {", k, n, a->cacheline_size);
	for (unsigned b = 0, j = 0; b < n; b++)
		if ((fd->bases >> b) & 1)
			fprintf(f, "%s%" PRIu32, j++ ? "," : "", a->base_starts[b]);
	fputs("}", f);
	if (fd->origin != a->line_origin)
		fprintf(f, "; line counted at base mod %u = %" PRIu32, a->cacheline_size, fd->origin);
	fputs(")", f);
}

static void findings(FILE *f, const struct slt_analysis *a, const struct slt_report_opts *ro)
{
	const char *basis = slt_report_findings_basis(a, ro);
	const struct slt_struct *s = a->layout;
	const struct slt_access_profile *p = a->profile;
	unsigned cl = a->cacheline_size;
	/* the kernel's cacheline groups each finding's members are in (none
	 * printed when memory runs out: the findings still are) */
	struct slt_cl_group *groups = NULL;
	size_t n_groups = 0, *touched = NULL;
	if (a->n_findings && !slt_groups_find(s, &groups, &n_groups, NULL) && n_groups)
		touched = calloc(n_groups, sizeof(*touched));
	fprintf(f, "\n/* structlint: %zu finding%s for %s, score basis %s, %u-byte lines",
		a->n_findings, a->n_findings == 1 ? "" : "s", s->name,
		slt_score_basis_name(a->basis), cl);
	if (p && p->ip_recorded)   /* estimates: accesses, not samples */
		fprintf(f, "; %" PRIu64 " of %" PRIu64 " IP samples used, giving %" PRIu64
			" estimated accesses (loads + stores), %" PRIu64 " on members, %" PRIu64
			" outside, %" PRIu64 " of other types; %s",
			p->ip_used, p->ip_recorded, p->samples, p->matched, p->outside_samples,
			p->skipped_other_type, p->base_note);
	else if (p)
		fprintf(f, "; %" PRIu64 " samples, %" PRIu64 " on members, %" PRIu64
			" outside, %" PRIu64 " of other types; %s",
			p->samples, p->matched, p->outside_samples,
			p->skipped_other_type, p->base_note);
	if (a->n_bases > 1)
		fprintf(f, "; the base is known modulo %" PRIu32 ": analysed at each of the %" PRIu32
			" starts in a line, base mod %u in {%" PRIu32 "..%" PRIu32 "}, lines counted at base mod %u = %" PRIu32,
			a->base_starts[1] - a->base_starts[0], a->n_bases, cl, a->base_starts[0],
			a->base_starts[a->n_bases - 1], cl, a->line_origin);
	else if (a->line_origin && !p)
		fprintf(f, "; the instance starts %" PRIu32 " bytes into a line", a->line_origin);
	fputs(" */\n", f);
	if (basis && a->n_findings && !a->profile)
		fputs("/* structlint: caveat: static classes say how the code is written (functions "
		      "counted, not executions): a control-path member (a lock word, a list head, "
		      "set-up code) classed hot-write ranks as high as a per-operation counter; "
		      "review the classes (structlint access --write-classes) or weigh them with "
		      "IP samples (structlint record) */\n", f);
	if (a->no_stores) {
		/* HITM lines: written by the hot-write members the classes
		 * name there (collisions), else by an unseen writer */
		size_t named = 0, unseen = 0;
		for (size_t i = 0; i < a->n_findings; i++) {
			named += a->findings[i].kind == SLT_FIND_COLLISION;
			unseen += a->findings[i].kind == SLT_FIND_UNSEEN_WRITER;
		}
		fprintf(f, "/* structlint: the profile holds no store (loads-only events): no member can be seen written%s; %s%s */\n",
			named ? "" : ", so collisions cannot be scored",
			named ? "lines whose loads hit modified lines (HITM) are written by the hot-write members the classes file names on them (collisions scored by those HITM loads)" :
			unseen ? "lines whose loads hit modified lines (HITM) are listed as written by an unseen writer" :
				 "no load hit a modified line (HITM) either: this is no evidence that nothing is written",
			named && unseen ? "; where it names none, by an unseen writer" : "");
	}
	struct slt_inner_pair in;
	/* (none printed when memory runs out: the findings still are) */
	if (slt_inner_collision(a, &in) > 0) {
		/* given classes inside one unit: why no finding names them */
		char w[512], r[512];
		const struct slt_member *u = &s->members[in.unit];
		const char *t = u->type, *sp = strchr(t, ' ');
		bool tagged = !strncmp(t, "struct ", 7) || !strncmp(t, "union ", 6);
		fprintf(f, "/* structlint: note: %s (%s) and %s (%s) share line %" PRIu64 " inside %s "
			"(%s): no finding of %s, whose pairs count between its own members "
			"(reordering them cannot part two members of one nested %s); report %s to "
			"score the nested layout */\n",
			slt_member_path(s, a->classes[in.written].given_at, w, sizeof(w)),
			slt_class_name(a->classes[in.written].cls),
			slt_member_path(s, a->classes[in.read].given_at, r, sizeof(r)),
			slt_class_name(a->classes[in.read].cls), in.line, u->name, t, s->name,
			(u->flags & SLT_MEMBER_UNION) ? "union" : "struct",
			tagged && sp ? sp + 1 : "its type");
	}
	for (size_t i = 0; i < a->n_findings; i++) {
		const struct slt_finding *fd = &a->findings[i];
		uint32_t origin = a->n_bases > 1 ? fd->origin : a->line_origin;
		int64_t lo = (int64_t)(fd->line * cl) - origin;
		int64_t hi = (int64_t)((fd->line2 + 1) * cl) - origin - 1;
		if (lo < 0)
			lo = 0;
		if (hi >= (int64_t)s->size)
			hi = (int64_t)s->size - 1;
		fprintf(f, "finding %zu: %s, line %" PRIu64, i + 1,
			slt_finding_kind_name(fd->kind), fd->line);
		if (fd->line2 != fd->line)
			fprintf(f, "+%" PRIu64, fd->line2);
		fprintf(f, " (bytes %" PRId64 "..%" PRId64 "), score %.0f", lo, hi, fd->score);
		if (basis)
			fprintf(f, ", basis: %s", basis);
		if (a->n_bases > 1) {
			fputs(", ", f);
			slt_report_bases_note(f, a, fd);
		}
		fputc('\n', f);
		for (size_t k = 0; k < fd->n_members; k++)
			member_line(f, a, fd->members[k],
				    k < fd->n_writers ? "written:" :
				    fd->kind == SLT_FIND_UNSEEN_WRITER ? "loaded:" : "collides:",
				    ro);
		size_t nt = touched ? slt_groups_touched(s, groups, n_groups, fd->members,
							 fd->n_members, touched) : 0;
		for (size_t k = 0; k < nt; k++) {
			const struct slt_cl_group *g = &groups[touched[k]];
			fprintf(f, "%s%s (%s, bytes %" PRIu64 "..%" PRIu64 ")%s",
				k ? ", " : "    kernel groups: ", g->name,
				slt_group_class_name(g->cls), g->offset, g->end_offset,
				k + 1 == nt ? "\n" : "");
		}
		fprintf(f, "    fix: %s\n", fd->advice);
	}
	free(groups);
	free(touched);
}

int slt_report_layout_notes(FILE *out, const struct slt_struct *s,
			    const struct slt_report_opts *opts,
			    slt_note_has_fn has, slt_note_fn put,
			    const void *ctx, struct slt_error *err)
{
	struct slt_report_opts ro = { 0 };
	if (opts)
		ro = *opts;
	ro.color = false;
	struct slt_layout one = {
		.structs = (struct slt_struct *)s, .n_structs = 1,
		.path = "", .format = s->format,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	size_t *order = calloc(s->n_members + 1, sizeof(*order));
	if (!m || !order) {
		if (m)
			fclose(m);
		free(text);
		free(order);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	int rc = slt_report_layout_text(m, &one, &ro, err);
	if (fclose(m) != 0 && !rc)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc) {
		size_t n = print_order(s, 0, s->n_members, order, 0);
		annotate(out, s, has, put, ctx, text, len, order, n);
	}
	free(text);
	free(order);
	return rc;
}

int slt_report_analysis_text(FILE *out, const struct slt_analysis *a,
			     const struct slt_report_opts *opts,
			     struct slt_error *err)
{
	struct slt_report_opts ro = { 0 };
	if (opts)
		ro = *opts;
	ro.cacheline_size = a->cacheline_size;
	struct nctx c = {.a = a, .ro = &ro};
	int rc = slt_report_layout_notes(out, a->layout, &ro, has_note, note, &c,
					 err);
	if (!rc) {
		findings(out, a, &ro);
		if (ferror(out))
			rc = slt_error_set(err, SLT_EIO, "<stdout>", -1, NULL, "write failed");
	}
	return rc;
}
